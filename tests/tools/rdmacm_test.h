/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * madcm_rdmacm_test.ko's shared state: rdmacm_test.c is the rdma_cm ULP
 * (event handlers, connections, their resources), rdmacm_test_ctl.c its
 * debugfs commands and output.
 */
#ifndef _MADCM_TESTS_RDMACM_TEST_H
#define _MADCM_TESTS_RDMACM_TEST_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/socket.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>

#define RT_NAME_LEN	32
#define RT_CONN_NAME	(RT_NAME_LEN + sizeof(".4294967295"))
#define RT_CMD_MAX	2048
#define RT_PDATA_MAX	255
#define RT_MAX_EVENTS	8
#define RT_TIMEOUT_MS	5000
#define RT_RD_ATOM	4
#define RT_QP_WR	8
#define RT_MAX_COUNT	10000

enum rt_kind { RT_LISTENER, RT_CONN };

/* Data on a connection (rdmacm_test_data.c): none, or how. */
enum rt_mr_mode { RT_MR_FRMR, RT_MR_GLOBAL };
enum rt_rping_role { RT_RPING_NONE, RT_RPING_CLIENT, RT_RPING_SERVER };

#define RT_DATA_MAX	SZ_1M		/* a buffer: 256 pages */
#define RT_DATA_WR	64		/* a data connection's QP depth */
#define RT_RECVS	2		/* receive buffers posted */
#define RT_EXPECT_MAX	16
#define RT_OP_TIMEOUT_MS 60000

/* What a listen or connect command asks for its connections' data. */
struct rt_dopts {
	u32 size;			/* 0: no data */
	enum rt_mr_mode mr;
	enum rt_rping_role rping;
	u32 pings;			/* rping client: how many */
};

struct rt_data;

/* The first member of every id's context: what the context is. */
struct rt_ctx {
	enum rt_kind kind;
};

struct rt_event {
	enum rdma_cm_event_type type;
	int status;
	u8 pdata_len;
	u8 pdata[RT_PDATA_MAX];
};

struct rt_listener {
	struct rt_ctx ctx;
	struct list_head list;
	char name[RT_NAME_LEN];
	struct sockaddr_storage addr;
	struct rdma_cm_id *id;		/* NULL once destroyed */
	bool reject;
	u8 pdata_len;
	u8 pdata[RT_PDATA_MAX];
	struct rt_dopts dopts;
	unsigned int requests;		/* under rt_lock */
	unsigned int removed;		/* DEVICE_REMOVAL seen */
};

/* One connect command: its connections, one after the other. */
struct rt_batch {
	struct list_head list;
	char name[RT_NAME_LEN];
	struct net *net;
	struct sockaddr_storage dst, src;
	bool has_src;
	bool close;
	u8 pdata_len;
	u8 pdata[RT_PDATA_MAX];
	unsigned int count, started;
	struct rt_dopts dopts;
	struct rt_conn *cur;		/* the work's own */
	struct work_struct work;
};

struct rt_conn {
	struct rt_ctx ctx;
	struct list_head list;
	char name[RT_CONN_NAME];
	bool active;
	struct rt_batch *batch;		/* active side */
	/* @lock: owns @id and the resources while @id is set. */
	struct mutex lock;
	struct rdma_cm_id *id;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	struct rt_data *data;		/* NULL: no data */
	bool terminal;			/* a terminal event came */
	bool local_disconnect;
	struct work_struct destroy_work;
	/* The record, under rt_lock. */
	char dev[IB_DEVICE_NAME_MAX];
	struct sockaddr_storage src, dst;
	unsigned int nevents;
	struct rt_event events[RT_MAX_EVENTS];
	bool established;
	bool destroyed;
	u8 ird, ord;
	const char *err_step;
	int err;
};

/* rt_mutex serialises commands; rt_lock guards lists, records, rt_stopping. */
extern struct mutex rt_mutex;
extern spinlock_t rt_lock;
extern struct list_head rt_listeners, rt_conns, rt_batches;
extern bool rt_stopping;

struct rt_counters {
	atomic_t ids_created, ids_destroyed;
	atomic_t pds, cqs, qps;
	atomic_t requests, accepts, rejects_sent;
	atomic_t established, rejected, disconnected, unreachable;
	atomic_t other_terminal, local_errors, device_removals;
};

extern struct rt_counters rt_cnt;

const char *rt_event_name(enum rdma_cm_event_type t);
int rt_cm_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev);
void rt_batch_work(struct work_struct *work);
void rt_batch_kick(struct rt_conn *c);
void rt_listener_free(struct rt_listener *l);
void rt_conn_destroy(struct rt_conn *c);

/* rdmacm_test_data.c: buffers, MRs, operations, rping, bench. */
int rt_data_create(struct rt_conn *c, const struct rt_dopts *o);
void rt_data_established(struct rt_conn *c);
void rt_data_stop(struct rt_conn *c);
void rt_data_destroy(struct rt_conn *c);
void rt_data_free(struct rt_conn *c);
int rt_data_cmd(struct rt_conn *c, char **argv, int argc);
void rt_data_show(struct seq_file *m, struct rt_conn *c);

void rt_debugfs_create(void);
void rt_debugfs_remove(void);

#endif /* _MADCM_TESTS_RDMACM_TEST_H */
