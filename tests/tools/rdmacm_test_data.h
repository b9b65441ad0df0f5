/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * madcm_rdmacm_test.ko's data on a connection, shared by
 * rdmacm_test_data.c (buffers, MRs, receives, the transfer commands),
 * rdmacm_test_rping.c (rdma-core's rping protocol) and
 * rdmacm_test_bench.c (echo and the bench command).
 */
#ifndef _MADCM_TESTS_RDMACM_TEST_DATA_H
#define _MADCM_TESTS_RDMACM_TEST_DATA_H

#include <linux/completion.h>
#include <linux/wait.h>
#include "rdmacm_test.h"

struct rt_adv {
	__be64 addr;
	__be32 rkey;
	__be32 len;
} __packed;

struct rt_recv {
	struct ib_cqe cqe;
	struct rt_data *d;
	void *buf;
	u64 dma;
};

enum rt_exp_kind { RT_EXP_SEND, RT_EXP_WRITE };

struct rt_expect {
	enum rt_exp_kind kind;
	u32 len, seed;
};

enum rt_echo { RT_ECHO_OFF, RT_ECHO_SEND, RT_ECHO_WRITE };

/* rping's steps, each side. */
enum rt_rp_state {
	RP_IDLE, RP_WAIT_GO1, RP_WAIT_GO2, RP_DONE,	/* client */
	RP_WAIT_SRC, RP_READING, RP_WAIT_SINK, RP_WRITING, /* server */
};

#define RT_BW_WINDOW	16
#define RT_NOTICE_LEN	4

struct rt_data {
	struct rt_conn *c;
	struct ib_device *dev;
	struct ib_pd *pd;
	u32 size;
	enum rt_mr_mode mr_mode;
	enum rt_rping_role rping;
	u32 pings;

	void *sbuf, *mbuf, *lbuf;
	u64 sdma, mdma, ldma;
	struct rt_adv *ctl;		/* small Sends: adverts, notices */
	u64 ctl_dma;
	struct ib_mr *mmr, *lmr;	/* mr=frmr */
	u32 mkey, lkey;			/* remote keys of mbuf and lbuf */
	u64 maddr, laddr;		/* their addresses for the peer */
	struct rt_recv recv[RT_RECVS];
	struct ib_cqe err_cqe, op_cqe, bw_cqe, rp_read_cqe, rp_write_cqe;
	struct mutex reg_mutex;		/* REG_MRs posted once */
	bool registered;
	bool live;			/* buffers there */

	spinlock_t lock;		/* everything below */
	bool dead;			/* quiesced: post nothing more */
	bool peer;			/* its advertisement came */
	u64 peer_addr;
	u32 peer_rkey, peer_len;
	int adv_err;
	struct rt_expect exp[RT_EXPECT_MAX];
	unsigned int exp_head, exp_tail;
	enum rt_echo echo;
	u32 echo_len;
	bool bench;
	u32 sends, writes, reads, recvs, recv_bad, write_bad, read_bad;
	u32 unexpected, flushed;
	int bad_off;
	int wc_err, wc_err_op;
	enum rt_rp_state rp_state;
	u32 rp_done, rp_bad, rp_len;
	u64 bench_ns, bench_bytes;
	u32 bench_iters;

	/* The command in flight (rt_mutex serialises commands). */
	struct completion op_done;
	atomic_t op_left;
	int op_status;
	atomic_t bw_out;
	struct completion bench_rx;
	wait_queue_head_t wq;
};

/* rdmacm_test_data.c */
void rt_pat_fill(u8 *buf, u32 len, u32 seed);
void rt_record_wc_err(struct rt_data *d, const struct ib_wc *wc);
int rt_post_send(struct rt_data *d, const struct ib_send_wr *wr,
		 const struct ib_send_wr **bad);
void rt_set_post_err(struct rt_data *d, int err);
void rt_send_wr(struct ib_send_wr *wr, struct ib_sge *sge,
		struct ib_cqe *cqe, u64 dma, u32 len, u32 lkey);
void rt_rdma_wr(struct ib_rdma_wr *wr, struct ib_sge *sge,
		struct ib_cqe *cqe, enum ib_wr_opcode op, u64 dma,
		u32 len, u32 lkey, u64 raddr, u32 rkey);
int rt_data_register(struct rt_data *d);
int rt_ctl_send(struct rt_data *d, u64 addr, u32 rkey, u32 len);

/* rdmacm_test_rping.c */
void rt_rping_fill(u8 *buf, u32 size, u32 ping);
void rt_rping_ping(struct rt_data *d);
void rt_rping_client_recv(struct rt_data *d);
void rt_rping_server_recv(struct rt_data *d, const struct rt_adv *a,
			  u32 len);
void rt_rping_read_done(struct ib_cq *cq, struct ib_wc *wc);
void rt_rping_write_done(struct ib_cq *cq, struct ib_wc *wc);
const char *rt_rping_state_name(enum rt_rp_state s);

/* rdmacm_test_bench.c */
void rt_bw_done(struct ib_cq *cq, struct ib_wc *wc);
void rt_echo(struct rt_data *d, enum rt_echo how, u32 len, u32 wlen);
int rt_cmd_bench(struct rt_data *d, const char *what, u32 len,
		 u32 iters);
int rt_cmd_echo(struct rt_data *d, char **argv, int argc);

#endif /* _MADCM_TESTS_RDMACM_TEST_DATA_H */
