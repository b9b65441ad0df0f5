// SPDX-License-Identifier: GPL-2.0
/*
 * rnic_uverbs: user verbs on a madcm RNIC through unmodified rdma-core
 * (libibverbs with its libsiw provider, librdmacm), for the VM scripts
 * 60-rnic-uverbs.sh and 61-rnic-uverbs-hostile.sh.
 *
 *   rnic_uverbs server ADDR PORT COUNT   accept COUNT connections, one at
 *                                        a time; answer each client's
 *                                        messages and check its data
 *   rnic_uverbs client ADDR PORT ITERS   RC connection over rdma_cm, then
 *                                        ITERS rounds of RDMA Write, RDMA
 *                                        Read back, Send and an inline
 *                                        Send back, all data checked
 *   rnic_uverbs hostile ADDR PORT CASE   a connection whose process
 *                                        writes crafted or random entries
 *                                        into its mmapped rings itself
 *   rnic_uverbs exit ADDR PORT           posts Writes and exits at once
 *   rnic_uverbs victim ADDR PORT         makes an rdma_cm id and a QP
 *                                        towards ADDR, prints its number
 *                                        ("qpn N") and waits, idle
 *   rnic_uverbs steal ADDR PORT QPN      connects towards ADDR naming QP
 *                                        QPN, which is another process's:
 *                                        exits 0 when rdma_connect fails
 *                                        with EINVAL (issue 30, item 8)
 *
 * The hostile cases find the rings libsiw mmapped in /proc/self/maps by
 * their sizes (the QP and CQ sizes below make every ring a different
 * number of pages) and ring the doorbell with the raw POST_SEND command,
 * as libsiw does. A case that expects a completion status exits 1 when
 * another one comes; "rnic_uverbs: ok" is printed on success.
 *
 * LDLIBS: -lrdmacm -libverbs -lpthread
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <infiniband/verbs.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_cma.h>
#include <rdma/siw-abi.h>

#define BUF_LEN		(64 * 1024)
#define MSG_LEN		4096
#define NRECV		8
#define MAGIC		0x6d616463u
#define BYE		0xffffffffu
/* Ring sizes: 2, 4, 3 and 5 pages (SQ, RQ, send CQ, receive CQ). */
#define SQ_N		64
#define RQ_N		128
#define SCQ_N		256
#define RCQ_N		512

struct info {
	uint64_t addr;
	uint32_t rkey;
	uint32_t len;
};

struct msg {
	uint32_t magic;
	uint32_t iter;
	uint32_t wlen;
	uint32_t slen;
	uint8_t data[];
};

struct conn {
	struct rdma_cm_id *id;
	struct ibv_pd *pd;
	struct ibv_comp_channel *ch;
	struct ibv_cq *scq, *rcq;
	struct ibv_qp *qp;
	uint8_t *buf, *buf2, *rbuf, *sbuf;
	struct ibv_mr *mr, *mr2, *rmr, *smr;
	struct info peer;
};

static int timeout_s = 20;
/* Run once the QP exists, before rdma_connect (a hostile case's rings). */
static void (*before_connect)(void);

static void die(const char *what)
{
	fprintf(stderr, "rnic_uverbs: %s: %s\n", what, strerror(errno));
	exit(2);
}

static uint8_t pat(uint32_t iter, uint32_t i, uint32_t seed)
{
	return (uint8_t)(iter * 31 + i * 7 + seed);
}

static void fill(uint8_t *p, uint32_t len, uint32_t iter, uint32_t seed)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		p[i] = pat(iter, i, seed);
}

static int same(const uint8_t *p, uint32_t len, uint32_t iter, uint32_t seed)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		if (p[i] != pat(iter, i, seed))
			return 0;
	return 1;
}

static struct ibv_mr *reg(struct ibv_pd *pd, void *p, size_t len)
{
	struct ibv_mr *mr = ibv_reg_mr(pd, p, len, IBV_ACCESS_LOCAL_WRITE |
				       IBV_ACCESS_REMOTE_WRITE |
				       IBV_ACCESS_REMOTE_READ);

	if (!mr)
		die("ibv_reg_mr");
	return mr;
}

static void *alloc_buf(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap");
	memset(p, 0, len);
	return p;
}

/* PD, CQs (a channel on the receive CQ), QP and MRs on c->id's device. */
static void setup(struct conn *c)
{
	struct ibv_qp_init_attr a = {
		.cap = {
			.max_send_wr = SQ_N,
			.max_recv_wr = RQ_N,
			.max_send_sge = 2,
			.max_recv_sge = 1,
		},
		.qp_type = IBV_QPT_RC,
	};

	c->pd = ibv_alloc_pd(c->id->verbs);
	if (!c->pd)
		die("ibv_alloc_pd");
	c->ch = ibv_create_comp_channel(c->id->verbs);
	if (!c->ch)
		die("ibv_create_comp_channel");
	c->scq = ibv_create_cq(c->id->verbs, SCQ_N, NULL, NULL, 0);
	c->rcq = ibv_create_cq(c->id->verbs, RCQ_N, NULL, c->ch, 0);
	if (!c->scq || !c->rcq)
		die("ibv_create_cq");
	a.send_cq = c->scq;
	a.recv_cq = c->rcq;
	if (rdma_create_qp(c->id, c->pd, &a))
		die("rdma_create_qp");
	c->qp = c->id->qp;
	c->buf = alloc_buf(BUF_LEN);
	c->buf2 = alloc_buf(BUF_LEN);
	c->rbuf = alloc_buf(NRECV * MSG_LEN);
	c->sbuf = alloc_buf(MSG_LEN);
	c->mr = reg(c->pd, c->buf, BUF_LEN);
	c->mr2 = reg(c->pd, c->buf2, BUF_LEN);
	c->rmr = reg(c->pd, c->rbuf, NRECV * MSG_LEN);
	c->smr = reg(c->pd, c->sbuf, MSG_LEN);
}

static void post_recv(struct conn *c, int slot)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)c->rbuf + slot * MSG_LEN,
		.length = MSG_LEN,
		.lkey = c->rmr->lkey,
	};
	struct ibv_recv_wr wr = {
		.wr_id = slot, .sg_list = &sge, .num_sge = 1,
	}, *bad;

	if (ibv_post_recv(c->qp, &wr, &bad))
		die("ibv_post_recv");
}

static int post_send(struct conn *c, enum ibv_wr_opcode op, void *p,
		     uint32_t len, uint32_t lkey, uint64_t raddr, uint32_t rkey,
		     int flags)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)p, .length = len, .lkey = lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = op, .sg_list = &sge, .num_sge = 1, .opcode = op,
		.send_flags = IBV_SEND_SIGNALED | flags,
	}, *bad;

	wr.wr.rdma.remote_addr = raddr;
	wr.wr.rdma.rkey = rkey;
	return ibv_post_send(c->qp, &wr, &bad);
}

/* One completion from a polled CQ (the send CQ). */
static int wait_poll(struct ibv_cq *cq, struct ibv_wc *wc)
{
	int i, n;

	for (i = 0; i < timeout_s * 1000; i++) {
		n = ibv_poll_cq(cq, 1, wc);
		if (n)
			return n;
		usleep(1000);
	}
	fprintf(stderr, "rnic_uverbs: no completion in %d s\n", timeout_s);
	return 0;
}

/* One completion from the receive CQ, by its channel (notify). */
static int wait_event(struct conn *c, struct ibv_wc *wc)
{
	struct pollfd pfd = { .fd = c->ch->fd, .events = POLLIN };
	struct ibv_cq *cq;
	void *ctx;

	for (;;) {
		if (ibv_poll_cq(c->rcq, 1, wc))
			return 1;
		if (ibv_req_notify_cq(c->rcq, 0))
			die("ibv_req_notify_cq");
		/* one that came before the arming */
		if (ibv_poll_cq(c->rcq, 1, wc))
			return 1;
		if (poll(&pfd, 1, timeout_s * 1000) <= 0) {
			fprintf(stderr, "rnic_uverbs: no event in %d s\n",
				timeout_s);
			return 0;
		}
		if (ibv_get_cq_event(c->ch, &cq, &ctx))
			die("ibv_get_cq_event");
		ibv_ack_cq_events(cq, 1);
	}
}

static void teardown(struct conn *c)
{
	rdma_disconnect(c->id);
	rdma_destroy_qp(c->id);
	ibv_dereg_mr(c->mr);
	ibv_dereg_mr(c->mr2);
	ibv_dereg_mr(c->rmr);
	ibv_dereg_mr(c->smr);
	ibv_destroy_cq(c->scq);
	ibv_destroy_cq(c->rcq);
	ibv_destroy_comp_channel(c->ch);
	ibv_dealloc_pd(c->pd);
	rdma_destroy_id(c->id);
}

static struct rdma_addrinfo *addrinfo(const char *addr, const char *port,
				      int passive)
{
	struct rdma_addrinfo hints = {
		.ai_flags = passive ? RAI_PASSIVE : 0,
		.ai_port_space = RDMA_PS_TCP,
	}, *res;

	if (rdma_getaddrinfo(addr, port, &hints, &res))
		die("rdma_getaddrinfo");
	return res;
}

static void connect_to(struct conn *c, const char *addr, const char *port,
		       int recvs)
{
	struct rdma_conn_param p = {
		.responder_resources = 4, .initiator_depth = 4,
	};
	struct rdma_addrinfo *res = addrinfo(addr, port, 0);
	int i;

	if (rdma_create_ep(&c->id, res, NULL, NULL))
		die("rdma_create_ep");
	rdma_freeaddrinfo(res);
	setup(c);
	for (i = 0; i < recvs; i++)
		post_recv(c, i);
	if (before_connect)
		before_connect();
	if (rdma_connect(c->id, &p))
		die("rdma_connect");
}

/* The server's buffer, in its first Send. */
static int take_info(struct conn *c)
{
	struct ibv_wc wc;

	if (!wait_event(c, &wc) || wc.status != IBV_WC_SUCCESS ||
	    wc.byte_len != sizeof(c->peer)) {
		fprintf(stderr, "rnic_uverbs: no server info\n");
		return 0;
	}
	memcpy(&c->peer, c->rbuf + wc.wr_id * MSG_LEN, sizeof(c->peer));
	post_recv(c, wc.wr_id);
	return 1;
}

/* ---- server ---- */

static int serve_one(struct rdma_cm_id *lid)
{
	struct rdma_conn_param p = {
		.responder_resources = 4, .initiator_depth = 4,
	};
	struct conn c = {};
	struct ibv_wc wc;
	int bad = 0, i;

	if (rdma_get_request(lid, &c.id))
		die("rdma_get_request");
	setup(&c);
	for (i = 0; i < NRECV; i++)
		post_recv(&c, i);
	if (rdma_accept(c.id, &p))
		die("rdma_accept");
	c.peer.addr = (uintptr_t)c.buf;
	c.peer.rkey = c.mr->rkey;
	c.peer.len = BUF_LEN;
	memcpy(c.sbuf, &c.peer, sizeof(c.peer));
	if (post_send(&c, IBV_WR_SEND, c.sbuf, sizeof(c.peer), c.smr->lkey,
		      0, 0, 0) || !wait_poll(c.scq, &wc))
		goto out;
	for (;;) {
		struct msg *m;
		uint32_t ack;

		if (!wait_event(&c, &wc) || wc.status != IBV_WC_SUCCESS)
			break;	/* the client is gone (flushed) */
		m = (struct msg *)(c.rbuf + wc.wr_id * MSG_LEN);
		if (m->magic != MAGIC || wc.byte_len != sizeof(*m) + m->slen) {
			printf("rnic_uverbs: bad message\n");
			bad++;
			break;
		}
		if (m->iter != BYE) {
			if (!same(m->data, m->slen, m->iter, 3)) {
				printf("rnic_uverbs: Send data differs (iter %u)\n",
				       m->iter);
				bad++;
			}
			/* the Write before the Send is placed */
			if (!same(c.buf, m->wlen, m->iter, 1)) {
				printf("rnic_uverbs: Write data differs (iter %u)\n",
				       m->iter);
				bad++;
			}
		}
		ack = m->iter;
		post_recv(&c, wc.wr_id);
		memcpy(c.sbuf, &ack, sizeof(ack));
		if (post_send(&c, IBV_WR_SEND, c.sbuf, sizeof(ack), 0, 0, 0,
			      IBV_SEND_INLINE) ||
		    !wait_poll(c.scq, &wc) || wc.status != IBV_WC_SUCCESS) {
			printf("rnic_uverbs: ack failed\n");
			bad++;
			break;
		}
		if (ack == BYE)
			break;
	}
out:
	teardown(&c);
	return bad;
}

static int run_server(const char *addr, const char *port, int count)
{
	struct rdma_addrinfo *res = addrinfo(addr, port, 1);
	struct rdma_cm_id *lid;
	int bad = 0;

	if (rdma_create_ep(&lid, res, NULL, NULL))
		die("rdma_create_ep (listen)");
	rdma_freeaddrinfo(res);
	if (rdma_listen(lid, 4))
		die("rdma_listen");
	printf("rnic_uverbs: listening\n");
	fflush(stdout);
	while (count--)
		bad += serve_one(lid);
	rdma_destroy_id(lid);
	printf("rnic_uverbs: server %s\n", bad ? "FAILED" : "ok");
	return bad ? 1 : 0;
}

/* ---- client ---- */

static int round_trip(struct conn *c, uint32_t iter, uint32_t wlen,
		      uint32_t slen)
{
	struct msg *m = (struct msg *)c->sbuf;
	struct ibv_wc wc;

	if (iter != BYE) {
		fill(c->buf, wlen, iter, 1);
		if (post_send(c, IBV_WR_RDMA_WRITE, c->buf, wlen, c->mr->lkey,
			      c->peer.addr, c->peer.rkey, 0) ||
		    !wait_poll(c->scq, &wc) || wc.status != IBV_WC_SUCCESS ||
		    wc.opcode != IBV_WC_RDMA_WRITE) {
			printf("rnic_uverbs: RDMA Write failed\n");
			return 0;
		}
		memset(c->buf2, 0, wlen);
		if (post_send(c, IBV_WR_RDMA_READ, c->buf2, wlen, c->mr2->lkey,
			      c->peer.addr, c->peer.rkey, 0) ||
		    !wait_poll(c->scq, &wc) || wc.status != IBV_WC_SUCCESS ||
		    wc.opcode != IBV_WC_RDMA_READ) {
			printf("rnic_uverbs: RDMA Read failed\n");
			return 0;
		}
		if (!same(c->buf2, wlen, iter, 1)) {
			printf("rnic_uverbs: RDMA Read data differs (iter %u)\n",
			       iter);
			return 0;
		}
		fill(m->data, slen, iter, 3);
	}
	m->magic = MAGIC;
	m->iter = iter;
	m->wlen = wlen;
	m->slen = slen;
	if (post_send(c, IBV_WR_SEND, m, sizeof(*m) + slen, c->smr->lkey, 0,
		      0, 0) ||
	    !wait_poll(c->scq, &wc) || wc.status != IBV_WC_SUCCESS ||
	    wc.opcode != IBV_WC_SEND) {
		printf("rnic_uverbs: Send failed\n");
		return 0;
	}
	if (!wait_event(c, &wc) || wc.status != IBV_WC_SUCCESS ||
	    wc.opcode != IBV_WC_RECV || wc.byte_len != sizeof(uint32_t) ||
	    wc.qp_num != c->qp->qp_num ||
	    *(uint32_t *)(c->rbuf + wc.wr_id * MSG_LEN) != iter) {
		printf("rnic_uverbs: no ack (iter %u)\n", iter);
		return 0;
	}
	post_recv(c, wc.wr_id);
	return 1;
}

/*
 * As perftest's ib_write_bw: up to SQ_N Writes of 4 KiB outstanding, one
 * in 50 signaled (the others complete silently, in order, with it).
 */
static int write_burst(struct conn *c, int n)
{
	int posted = 0, done = 0;
	struct ibv_wc wc;

	fill(c->buf, BUF_LEN, 7, 1);
	while (done < n) {
		while (posted < n && posted - done < SQ_N) {
			int sig = posted % 50 == 49 || posted == n - 1;

			struct ibv_sge sge = {
				.addr = (uintptr_t)c->buf + (posted % 16) * 4096,
				.length = 4096, .lkey = c->mr->lkey,
			};
			struct ibv_send_wr wr = {
				.wr_id = posted, .sg_list = &sge, .num_sge = 1,
				.opcode = IBV_WR_RDMA_WRITE,
				.send_flags = sig ? IBV_SEND_SIGNALED : 0,
			}, *bad;

			wr.wr.rdma.remote_addr = c->peer.addr +
						 (posted % 16) * 4096;
			wr.wr.rdma.rkey = c->peer.rkey;
			if (ibv_post_send(c->qp, &wr, &bad)) {
				printf("rnic_uverbs: burst: post %d failed\n",
				       posted);
				return 0;
			}
			posted++;
		}
		if (!wait_poll(c->scq, &wc) || wc.status != IBV_WC_SUCCESS) {
			printf("rnic_uverbs: burst: %s at wr_id %llu (posted %d, done %d)\n",
			       ibv_wc_status_str(wc.status),
			       (unsigned long long)wc.wr_id, posted, done);
			return 0;
		}
		done = wc.wr_id + 1;
	}
	return 1;
}

static int run_client(const char *addr, const char *port, int iters)
{
	struct conn c = {};
	int i, ok = 1;

	connect_to(&c, addr, port, NRECV);
	if (!take_info(&c))
		return 1;
	if (getenv("RNIC_UVERBS_BURST")) {
		ok = write_burst(&c, atoi(getenv("RNIC_UVERBS_BURST")));
		printf("rnic_uverbs: burst of Writes %s\n", ok ? "ok" : "FAILED");
	}
	for (i = 0; ok && i < iters; i++)
		ok = round_trip(&c, i, 1 + (i * 4099) % BUF_LEN,
				(i * 97) % (MSG_LEN - sizeof(struct msg)));
	if (ok)
		ok = round_trip(&c, BYE, 0, 0);
	teardown(&c);
	printf("rnic_uverbs: client %s (%d rounds)\n", ok ? "ok" : "FAILED",
	       i);
	return ok ? 0 : 1;
}

/* ---- hostile ---- */

static struct siw_sqe *sq;
static struct siw_rqe *rq;
static struct siw_cqe *scq_ring;
static volatile int stop;

/* The rings libsiw mapped, by their sizes in pages. */
static void find_rings(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];

	if (!f)
		die("/proc/self/maps");
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;

		if (!strstr(line, "/dev/infiniband/uverbs") ||
		    sscanf(line, "%lx-%lx", &lo, &hi) != 2)
			continue;
		switch ((hi - lo) / 4096) {
		case 2:
			sq = (struct siw_sqe *)lo;
			break;
		case 4:
			rq = (struct siw_rqe *)lo;
			break;
		case 3:
			scq_ring = (struct siw_cqe *)lo;
			break;
		default:
			break;
		}
	}
	fclose(f);
	if (!sq || !rq || !scq_ring) {
		fprintf(stderr, "rnic_uverbs: rings not found in maps\n");
		exit(2);
	}
}

/* libsiw's doorbell, raw: POST_SEND with no work request (or @wr). */
static int doorbell(struct conn *c, struct ib_uverbs_send_wr *wr)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_post_send cmd;
		struct ib_uverbs_send_wr wr;
		struct ib_uverbs_sge sge;
	} req = {};
	struct ib_uverbs_post_send_resp resp;
	size_t len = wr ? sizeof(req) : offsetof(typeof(req), wr);

	req.hdr.command = IB_USER_VERBS_CMD_POST_SEND;
	req.hdr.in_words = len / 4;
	req.hdr.out_words = sizeof(resp) / 4;
	req.cmd.response = (uintptr_t)&resp;
	req.cmd.qp_handle = c->qp->handle;
	req.cmd.wqe_size = sizeof(struct ib_uverbs_send_wr);
	if (wr) {
		req.cmd.wr_count = 1;
		req.cmd.sge_count = 1;
		req.wr = *wr;
		req.wr.num_sge = 1;
		/* an "inline" SGE naming an address no kernel owns */
		req.sge.addr = 0xdead0000;
		req.sge.length = 64;
	}
	return write(c->id->verbs->cmd_fd, &req, len) == (ssize_t)len ? 0 :
	       -errno;
}

/* SQE @n (a slot index) of a crafted case, made valid last. */
static void put_sqe(uint32_t n, const struct siw_sqe *e)
{
	struct siw_sqe *s = &sq[n % SQ_N];

	memcpy((char *)s + 8 + 2, (const char *)e + 8 + 2,
	       sizeof(*s) - 8 - 2);
	s->id = e->id;
	__atomic_store_n(&s->flags, e->flags | SIW_WQE_VALID,
			 __ATOMIC_RELEASE);
}

static void *flipper(void *arg)
{
	unsigned int seed = 7;

	(void)arg;
	while (!stop) {
		uint32_t i = rand_r(&seed) % SQ_N;
		uint8_t *p = (uint8_t *)&sq[i];

		p[rand_r(&seed) % sizeof(sq[0])] = rand_r(&seed);
		sq[i].flags ^= rand_r(&seed) & 0x7f;
		rq[rand_r(&seed) % RQ_N].num_sge = rand_r(&seed);
		rq[rand_r(&seed) % RQ_N].flags = rand_r(&seed);
	}
	return NULL;
}

static int expect(struct conn *c, enum ibv_wc_status st, const char *what)
{
	struct ibv_wc wc;

	if (!wait_poll(c->scq, &wc))
		return 0;
	if (wc.status != st) {
		printf("rnic_uverbs: %s: status %s, expected %s\n", what,
		       ibv_wc_status_str(wc.status), ibv_wc_status_str(st));
		return 0;
	}
	printf("rnic_uverbs: %s: %s\n", what, ibv_wc_status_str(wc.status));
	return 1;
}

/* RQEs with 7 SGEs, before the server's first Send can come. */
static void bad_rqes(void)
{
	int i;

	find_rings();
	for (i = 0; i < 4; i++) {
		rq[i].id = 0x900 + i;
		rq[i].num_sge = 7;
		__atomic_store_n(&rq[i].flags, SIW_WQE_VALID, __ATOMIC_RELEASE);
	}
}

static int run_hostile(const char *addr, const char *port, int which)
{
	struct siw_sqe e = { .id = 0x1234, .flags = SIW_WQE_SIGNALLED };
	struct conn c = {};
	struct ibv_wc wc;
	pthread_t t;
	int ok = 1, i;

	if (which == 9)
		before_connect = bad_rqes;
	connect_to(&c, addr, port, which == 9 ? 0 : NRECV);
	if (which == 9) {
		/* the server's first Send reaches an RQE with 7 SGEs */
		ok = wait_event(&c, &wc) && wc.status == IBV_WC_LOC_QP_OP_ERR &&
		     wc.wr_id == 0x900;
		printf("rnic_uverbs: RQE with 7 SGEs: %s\n",
		       ibv_wc_status_str(wc.status));
		goto out;
	}
	find_rings();
	if (!take_info(&c))
		return 1;
	e.opcode = SIW_OP_WRITE;
	e.raddr = c.peer.addr;
	e.rkey = c.peer.rkey;
	e.num_sge = 1;
	e.sge[0].laddr = (uintptr_t)c.buf;
	e.sge[0].length = 256;
	e.sge[0].lkey = c.mr->lkey;
	switch (which) {
	case 0:
		e.opcode = 200;
		put_sqe(0, &e);
		ok = !doorbell(&c, NULL) &&
		     expect(&c, IBV_WC_LOC_QP_OP_ERR, "opcode 200");
		break;
	case 1:
		e.num_sge = 7;
		put_sqe(0, &e);
		ok = !doorbell(&c, NULL) &&
		     expect(&c, IBV_WC_LOC_QP_OP_ERR, "num_sge 7");
		break;
	case 2:
		e.flags |= SIW_WQE_INLINE;
		e.opcode = SIW_OP_SEND;
		e.sge[0].length = SIW_MAX_INLINE + 1;
		put_sqe(0, &e);
		ok = !doorbell(&c, NULL) &&
		     expect(&c, IBV_WC_LOC_LEN_ERR, "inline 81");
		break;
	case 3:
		e.sge[0].laddr = (uintptr_t)c.buf + BUF_LEN - 100;
		put_sqe(0, &e);
		ok = !doorbell(&c, NULL) &&
		     expect(&c, IBV_WC_LOC_PROT_ERR, "SGE past its MR");
		break;
	case 4:
		/* the key byte differs: no such STag */
		e.sge[0].lkey = c.mr->lkey ^ 0x5a;
		put_sqe(0, &e);
		ok = !doorbell(&c, NULL) &&
		     expect(&c, IBV_WC_LOC_PROT_ERR, "wrong lkey");
		break;
	case 5:
		e.sge[0].laddr = UINT64_MAX - 10;
		e.sge[0].length = 100;
		put_sqe(0, &e);
		ok = !doorbell(&c, NULL) &&
		     expect(&c, IBV_WC_LOC_LEN_ERR, "SGE that wraps");
		break;
	case 6: {
		struct ib_uverbs_send_wr wr = {
			.opcode = IB_UVERBS_WR_SEND,
			.send_flags = IBV_SEND_INLINE,
		};

		/* a kernel work request on a user QP: refused */
		ok = doorbell(&c, &wr) == -EINVAL;
		printf("rnic_uverbs: POST_SEND with a work request: %s\n",
		       ok ? "refused" : "NOT refused");
		/* random rings, flipped while the kernel fetches */
		srand(which);
		for (i = 0; i < (int)(SQ_N * sizeof(*sq)); i++)
			((uint8_t *)sq)[i] = rand();
		for (i = 0; i < (int)(RQ_N * sizeof(*rq)); i++)
			((uint8_t *)rq)[i] = rand();
		for (i = 0; i < (int)(SCQ_N * sizeof(*scq_ring)); i++)
			((uint8_t *)scq_ring)[i] = rand();
		pthread_create(&t, NULL, flipper, NULL);
		for (i = 0; i < 20000; i++) {
			sq[i % SQ_N].flags |= SIW_WQE_VALID;
			doorbell(&c, NULL);
		}
		stop = 1;
		pthread_join(t, NULL);
		break;
	}
	case 7:
		/* a Read into an MR that goes (and its memory) meanwhile */
		for (i = 0; i < 4; i++)
			post_send(&c, IBV_WR_RDMA_READ, c.buf2, BUF_LEN,
				  c.mr2->lkey, c.peer.addr, c.peer.rkey, 0);
		ibv_dereg_mr(c.mr2);
		munmap(c.buf2, BUF_LEN);
		c.mr2 = ibv_reg_mr(c.pd, c.buf, 4096, IBV_ACCESS_LOCAL_WRITE);
		usleep(500000);
		while (ibv_poll_cq(c.scq, 1, &wc) > 0)
			printf("rnic_uverbs: Read after dereg: %s\n",
			       ibv_wc_status_str(wc.status));
		break;
	case 8:
		/* a full CQ of garbage: completions are lost, counted */
		for (i = 0; i < SCQ_N; i++)
			scq_ring[i].flags = 0xa5;
		for (i = 0; i < 8; i++)
			post_send(&c, IBV_WR_RDMA_WRITE, c.buf, 64, c.mr->lkey,
				  c.peer.addr, c.peer.rkey, 0);
		usleep(200000);
		break;
	default:
		fprintf(stderr, "rnic_uverbs: no case %d\n", which);
		return 2;
	}
out:
	printf("rnic_uverbs: hostile case %d %s\n", which, ok ? "ok" : "FAILED");
	fflush(stdout);
	if (which == 6 || which == 8)
		_exit(ok ? 0 : 1);	/* no clean-up: the kernel's job */
	teardown(&c);
	return ok ? 0 : 1;
}

/* Writes in flight, then gone without a word. */
static int exit_now(const char *addr, const char *port)
{
	struct conn c = {};
	int i;

	connect_to(&c, addr, port, NRECV);
	if (!take_info(&c))
		return 1;
	for (i = 0; i < SQ_N; i++)
		post_send(&c, IBV_WR_RDMA_WRITE, c.buf, BUF_LEN, c.mr->lkey,
			  c.peer.addr, c.peer.rkey, 0);
	printf("rnic_uverbs: exit with Writes in flight\n");
	fflush(stdout);
	_exit(0);
}

/* An idle QP of this process, for another process to name. */
static int victim(const char *addr, const char *port)
{
	struct conn c = {};
	struct rdma_addrinfo *res = addrinfo(addr, port, 0);

	if (rdma_create_ep(&c.id, res, NULL, NULL))
		die("rdma_create_ep");
	rdma_freeaddrinfo(res);
	setup(&c);
	printf("rnic_uverbs: qpn %u\n", c.qp->qp_num);
	fflush(stdout);
	sleep(60);
	teardown(&c);
	return 0;
}

/* Connect naming @qpn, a QP this process does not have. */
static int steal(const char *addr, const char *port, uint32_t qpn)
{
	struct rdma_conn_param p = {
		.responder_resources = 4, .initiator_depth = 4, .qp_num = qpn,
	};
	struct rdma_addrinfo *res = addrinfo(addr, port, 0);
	struct rdma_cm_id *id;
	int ret, err;

	if (rdma_create_ep(&id, res, NULL, NULL))
		die("rdma_create_ep");
	rdma_freeaddrinfo(res);
	ret = rdma_connect(id, &p);
	err = errno;
	printf("rnic_uverbs: connect with QP %u of another process: %s (%s)\n",
	       qpn, ret ? "refused" : "ACCEPTED", ret ? strerror(err) : "-");
	if (!ret)
		rdma_disconnect(id);
	rdma_destroy_ep(id);
	return ret && err == EINVAL ? 0 : 1;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 5 && !strcmp(argv[1], "server"))
		return run_server(argv[2], argv[3], atoi(argv[4]));
	if (argc == 5 && !strcmp(argv[1], "client"))
		return run_client(argv[2], argv[3], atoi(argv[4]));
	if (argc == 5 && !strcmp(argv[1], "hostile"))
		return run_hostile(argv[2], argv[3], atoi(argv[4]));
	if (argc == 4 && !strcmp(argv[1], "exit"))
		return exit_now(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "victim"))
		return victim(argv[2], argv[3]);
	if (argc == 5 && !strcmp(argv[1], "steal"))
		return steal(argv[2], argv[3], strtoul(argv[4], NULL, 0));
	fprintf(stderr, "usage: rnic_uverbs %s ADDR PORT [N]\n",
		"server|client|hostile|exit|victim|steal");
	return 2;
}
