// SPDX-License-Identifier: GPL-2.0
/*
 * rnic_limits: what a madcm RNIC states in ibv_query_device (what
 * ibv_devinfo -v prints), checked against what it enforces on a process;
 * a process that takes all it can; a process idle on its QP while the
 * device goes away. For the VM scripts 62-rnic-limits.sh,
 * 63-rnic-tenant.sh and 64-rnic-remove-order.sh.
 *
 *   rnic_limits check DEV    every stated per-object limit is accepted and
 *                            the next value up refused; the capabilities
 *                            the device says it lacks are refused; prints
 *                            "NAME VALUE" for each attribute it checked
 *   rnic_limits hog DEV      opens the device HOG_CTX times and takes
 *                            PDs, then CQs, then QPs, then MRs in each
 *                            until each is refused; prints "hog pd N cq N qp N
 *                            mr N", then "holding" and waits for stdin to
 *                            close (or a signal) before it exits;
 *                            RNIC_LIMITS_CTX=N opens N contexts instead,
 *                            RNIC_LIMITS_CQE=N makes CQs of N entries
 *   rnic_limits idle DEV     a QP in INIT with a receive posted, waiting
 *                            for its CQ's event; prints "waiting", then
 *                            "flushed" when the receive completes with
 *                            IBV_WC_WR_FLUSH_ERR or "device gone" when the
 *                            channel ends (ib_uverbs disassociated it);
 *                            exits 1 after 60 s without either
 *
 * Each prints "pid N" first: its own pid, for a script to signal it.
 * Exit status 0 when every check held; each failed one is printed.
 *
 * LDLIBS: -libverbs
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>

static int failures;

#define FAIL(...) do { printf("FAIL: " __VA_ARGS__); printf("\n"); \
		       failures++; } while (0)

static struct ibv_context *open_dev(const char *name)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *ctx = NULL;
	int i;

	if (!list) {
		perror("ibv_get_device_list");
		exit(2);
	}
	for (i = 0; list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			ctx = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	if (!ctx) {
		fprintf(stderr, "no device %s\n", name);
		exit(2);
	}
	return ctx;
}

static struct ibv_qp *qp_with(struct ibv_pd *pd, struct ibv_cq *cq,
			      uint32_t swr, uint32_t rwr, uint32_t ssge,
			      uint32_t rsge)
{
	struct ibv_qp_init_attr a = {
		.send_cq = cq,
		.recv_cq = cq,
		.qp_type = IBV_QPT_RC,
		.cap = {
			.max_send_wr = swr,
			.max_recv_wr = rwr,
			.max_send_sge = ssge,
			.max_recv_sge = rsge,
		},
	};

	return ibv_create_qp(pd, &a);
}

/* A QP of @cap (one of its four fields set) is accepted, @cap + 1 is not. */
static void check_qp_cap(struct ibv_pd *pd, struct ibv_cq *cq,
			 const char *what, int field, uint32_t max)
{
	uint32_t v[4] = { 1, 1, 1, 1 };
	struct ibv_qp *qp;

	v[field] = max;
	qp = qp_with(pd, cq, v[0], v[1], v[2], v[3]);
	if (!qp)
		FAIL("%s %u refused: %s", what, max, strerror(errno));
	else
		ibv_destroy_qp(qp);
	v[field] = max + 1;
	qp = qp_with(pd, cq, v[0], v[1], v[2], v[3]);
	if (qp) {
		FAIL("%s %u (over the limit) accepted", what, max + 1);
		ibv_destroy_qp(qp);
	}
}

/* RESET to INIT with a read depth of @max is accepted, @max + 1 is not. */
static void check_rd_atom(struct ibv_pd *pd, struct ibv_cq *cq,
			  const char *what, int mask, uint32_t max)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT };
	uint32_t v;
	int ret;

	for (v = max; v <= max + 1; v++) {
		struct ibv_qp *qp = qp_with(pd, cq, 1, 1, 1, 1);

		if (!qp) {
			FAIL("create_qp for %s: %s", what, strerror(errno));
			return;
		}
		if (mask == IBV_QP_MAX_DEST_RD_ATOMIC)
			a.max_dest_rd_atomic = v;
		else
			a.max_rd_atomic = v;
		ret = ibv_modify_qp(qp, &a, IBV_QP_STATE | mask);
		if (v == max && ret)
			FAIL("%s %u refused: %s", what, v, strerror(ret));
		if (v > max && !ret)
			FAIL("%s %u (over the limit) accepted", what, v);
		ibv_destroy_qp(qp);
	}
}

static int run_check(const char *name)
{
	struct ibv_context *ctx = open_dev(name);
	struct ibv_device_attr d;
	struct ibv_port_attr p;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	long psz = sysconf(_SC_PAGESIZE);
	void *buf;

	if (ibv_query_device(ctx, &d) || ibv_query_port(ctx, 1, &p)) {
		perror("query");
		return 2;
	}
	printf("vendor_id 0x%x\nvendor_part_id %u\nmax_mr_size 0x%llx\n"
	       "page_size_cap 0x%llx\nmax_qp_wr %d\nmax_sge %d\nmax_cqe %d\n"
	       "max_qp_rd_atom %d\nmax_qp_init_rd_atom %d\nmax_mw %d\n"
	       "max_srq %d\natomic_cap %d\n",
	       d.vendor_id, d.vendor_part_id,
	       (unsigned long long)d.max_mr_size,
	       (unsigned long long)d.page_size_cap, d.max_qp_wr, d.max_sge,
	       d.max_cqe, d.max_qp_rd_atom, d.max_qp_init_rd_atom, d.max_mw,
	       d.max_srq, d.atomic_cap);
	if (!d.vendor_id || !d.vendor_part_id)
		FAIL("vendor_id 0x%x, vendor_part_id %u: none of madcm's own",
		     d.vendor_id, d.vendor_part_id);
	/* a SIW device's id is siw's (libsiw reports 0x626d74 too) */
	if (d.vendor_id == 0x626d74)
		FAIL("vendor_id 0x626d74 is soft-iWARP's");
	if (!(d.page_size_cap & psz))
		FAIL("page_size_cap 0x%llx lacks the page size %ld user MRs use",
		     (unsigned long long)d.page_size_cap, psz);

	pd = ibv_alloc_pd(ctx);
	if (!pd) {
		perror("ibv_alloc_pd");
		return 2;
	}
	/* CQ depth */
	cq = ibv_create_cq(ctx, d.max_cqe, NULL, NULL, 0);
	if (!cq)
		FAIL("max_cqe %d refused: %s", d.max_cqe, strerror(errno));
	else
		ibv_destroy_cq(cq);
	cq = ibv_create_cq(ctx, d.max_cqe + 1, NULL, NULL, 0);
	if (cq) {
		FAIL("max_cqe %d (over the limit) accepted", d.max_cqe + 1);
		ibv_destroy_cq(cq);
	}
	cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	if (!cq) {
		perror("ibv_create_cq");
		return 2;
	}
	/* QP capabilities */
	check_qp_cap(pd, cq, "max_qp_wr (send)", 0, d.max_qp_wr);
	check_qp_cap(pd, cq, "max_qp_wr (recv)", 1, d.max_qp_wr);
	check_qp_cap(pd, cq, "max_sge (send)", 2, d.max_sge);
	check_qp_cap(pd, cq, "max_sge (recv)", 3, d.max_sge);
	/* RDMA Read depths: IRD (responder), ORD (initiator) */
	check_rd_atom(pd, cq, "max_qp_rd_atom", IBV_QP_MAX_DEST_RD_ATOMIC,
		      d.max_qp_rd_atom);
	check_rd_atom(pd, cq, "max_qp_init_rd_atom", IBV_QP_MAX_QP_RD_ATOMIC,
		      d.max_qp_init_rd_atom);

	/* MR size: a length over max_mr_size is refused for its size */
	buf = aligned_alloc(psz, psz);
	mr = ibv_reg_mr(pd, buf, psz, IBV_ACCESS_LOCAL_WRITE);
	if (!mr)
		FAIL("a one-page MR refused: %s", strerror(errno));
	else
		ibv_dereg_mr(mr);
	if (d.max_mr_size == UINT64_MAX) {
		FAIL("max_mr_size 2^64-1: no MR size is refused");
	} else {
		mr = ibv_reg_mr(pd, buf, d.max_mr_size + 1,
				IBV_ACCESS_LOCAL_WRITE);
		if (mr) {
			FAIL("an MR of max_mr_size + 1 accepted");
			ibv_dereg_mr(mr);
		} else if (errno != EINVAL) {
			FAIL("an MR of max_mr_size + 1: %s, not EINVAL (refused for its size)",
			     strerror(errno));
		}
		/* max_mr_size itself passes the size check (then pinning fails) */
		mr = ibv_reg_mr(pd, buf, d.max_mr_size, IBV_ACCESS_LOCAL_WRITE);
		if (mr)
			ibv_dereg_mr(mr);
		else if (errno == EINVAL)
			FAIL("an MR of max_mr_size refused for its size (EINVAL)");
	}
	/* What the device says it has none of */
	if (d.atomic_cap == IBV_ATOMIC_NONE) {
		mr = ibv_reg_mr(pd, buf, psz, IBV_ACCESS_LOCAL_WRITE |
				IBV_ACCESS_REMOTE_ATOMIC);
		if (mr) {
			FAIL("atomic_cap NONE, yet an MR with REMOTE_ATOMIC accepted");
			ibv_dereg_mr(mr);
		}
	}
	if (!d.max_mw) {
		struct ibv_mw *mw = ibv_alloc_mw(pd, IBV_MW_TYPE_1);

		if (mw) {
			FAIL("max_mw 0, yet a memory window allocated");
			ibv_dealloc_mw(mw);
		}
	}
	if (!d.max_srq) {
		struct ibv_srq_init_attr sa = { .attr = { .max_wr = 1,
							  .max_sge = 1 } };
		struct ibv_srq *srq = ibv_create_srq(pd, &sa);

		if (srq) {
			FAIL("max_srq 0, yet an SRQ created");
			ibv_destroy_srq(srq);
		}
	}
	free(buf);
	ibv_destroy_cq(cq);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	if (failures) {
		printf("rnic_limits: %d check(s) failed\n", failures);
		return 1;
	}
	printf("rnic_limits: ok\n");
	return 0;
}

#define HOG_MAX	8192
/*
 * Contexts the hog opens: one process may open the device many times,
 * and a context alone does not reach every limit (on Debian's 6.1 one
 * with one-page CQs got no CQ after 144 and then no QP, most likely in
 * libsiw's mmap() of a ring the kernel made; cause not known yet).
 */
#define HOG_CTX	32

static struct ibv_pd *hog_pd[HOG_MAX];
static struct ibv_cq *hog_cq[HOG_MAX];
static struct ibv_qp *hog_qp[HOG_MAX];
static struct ibv_mr *hog_mr[HOG_MAX];

static int run_hog(const char *name)
{
	struct ibv_context *ctx[HOG_CTX];
	struct ibv_pd *base_pd[HOG_CTX];
	struct ibv_cq *base_cq[HOG_CTX];
	int npd = 0, ncq = 0, nqp = 0, nmr = 0;
	int epd = 0, ecq = 0, eqp = 0, emr = 0;
	long psz = sysconf(_SC_PAGESIZE);
	void *buf = aligned_alloc(psz, psz);
	const char *env;
	int nctx = HOG_CTX, cqe = 1;
	int i;
	char c;

	/* for experiments: fewer contexts, larger CQs */
	env = getenv("RNIC_LIMITS_CTX");
	if (env && atoi(env) > 0 && atoi(env) <= HOG_CTX)
		nctx = atoi(env);
	env = getenv("RNIC_LIMITS_CQE");
	if (env && atoi(env) > 0)
		cqe = atoi(env);

	/* every context gets a PD and a CQ first, for its QPs and MRs */
	for (i = 0; i < nctx; i++) {
		ctx[i] = open_dev(name);
		base_pd[i] = ibv_alloc_pd(ctx[i]);
		base_cq[i] = ibv_create_cq(ctx[i], 1, NULL, NULL, 0);
		hog_pd[npd++] = base_pd[i];
		hog_cq[ncq++] = base_cq[i];
		if (!base_pd[i] || !base_cq[i]) {
			perror("hog: a context's first PD and CQ");
			return 2;
		}
	}
	for (i = 0; i < nctx; i++) {
		while (npd < HOG_MAX &&
		       (hog_pd[npd] = ibv_alloc_pd(ctx[i])))
			npd++;
		epd = errno;
	}
	for (i = 0; i < nctx; i++) {
		while (ncq < HOG_MAX &&
		       (hog_cq[ncq] = ibv_create_cq(ctx[i], cqe, NULL, NULL, 0)))
			ncq++;
		ecq = errno;
	}
	for (i = 0; i < nctx; i++) {
		while (nqp < HOG_MAX &&
		       (hog_qp[nqp] = qp_with(base_pd[i], base_cq[i], 1, 1, 1,
					      1)))
			nqp++;
		eqp = errno;
	}
	for (i = 0; i < nctx; i++) {
		while (nmr < HOG_MAX &&
		       (hog_mr[nmr] = ibv_reg_mr(base_pd[i], buf, psz,
						 IBV_ACCESS_LOCAL_WRITE)))
			nmr++;
		emr = errno;
	}
	printf("hog pd %d cq %d qp %d mr %d\n", npd, ncq, nqp, nmr);
	printf("refused: pd %s, cq %s, qp %s, mr %s\n", strerror(epd),
	       strerror(ecq), strerror(eqp), strerror(emr));
	printf("holding\n");
	fflush(stdout);
	/* until stdin closes: the objects go when the process exits */
	while (read(0, &c, 1) > 0)
		;
	return 0;
}

static int run_idle(const char *name)
{
	struct ibv_context *ctx = open_dev(name);
	struct ibv_comp_channel *ch = ibv_create_comp_channel(ctx);
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT };
	long psz = sysconf(_SC_PAGESIZE);
	void *buf = aligned_alloc(psz, psz);
	struct ibv_recv_wr wr = {}, *bad;
	struct ibv_sge sge;
	struct pollfd pfd;
	struct ibv_cq *cq, *ecq;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct ibv_qp *qp;
	struct ibv_wc wc;
	void *ectx;
	int n;

	pd = ibv_alloc_pd(ctx);
	cq = ch && pd ? ibv_create_cq(ctx, 4, NULL, ch, 0) : NULL;
	qp = cq ? qp_with(pd, cq, 1, 1, 1, 1) : NULL;
	mr = pd ? ibv_reg_mr(pd, buf, psz, IBV_ACCESS_LOCAL_WRITE) : NULL;
	if (!qp || !mr || ibv_modify_qp(qp, &a, IBV_QP_STATE)) {
		perror("idle setup");
		return 2;
	}
	sge.addr = (uintptr_t)buf;
	sge.length = psz;
	sge.lkey = mr->lkey;
	wr.wr_id = 42;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	if (ibv_post_recv(qp, &wr, &bad) || ibv_req_notify_cq(cq, 0)) {
		perror("idle post");
		return 2;
	}
	printf("waiting\n");
	fflush(stdout);
	pfd.fd = ch->fd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 60000) != 1) {
		printf("no event in 60 s\n");
		return 1;
	}
	if (ibv_get_cq_event(ch, &ecq, &ectx)) {
		/* the channel ended: the device was disassociated */
		printf("device gone (%s)\n", strerror(errno));
		return 0;
	}
	ibv_ack_cq_events(ecq, 1);
	n = ibv_poll_cq(cq, 1, &wc);
	if (n == 1 && wc.wr_id == 42 && wc.status == IBV_WC_WR_FLUSH_ERR) {
		printf("flushed\n");
		return 0;
	}
	printf("unexpected: poll %d, wr_id %llu, status %d\n", n,
	       (unsigned long long)wc.wr_id, wc.status);
	return 1;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* for the scripts: "ip netns exec" runs us in a child of its own */
	printf("pid %d\n", (int)getpid());
	if (argc == 3 && !strcmp(argv[1], "check"))
		return run_check(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "hog"))
		return run_hog(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "idle"))
		return run_idle(argv[2]);
	fprintf(stderr, "usage: rnic_limits check|hog|idle DEV\n");
	return 2;
}
