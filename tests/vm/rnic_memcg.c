// SPDX-License-Identifier: GPL-2.0
/*
 * rnic_memcg: what a process's CQs and QPs on a madcm RNIC cost its memory
 * cgroup (issue 30, item 7). For the VM script 65-rnic-memcg.sh.
 *
 *   rnic_memcg DEV CGROOT N CQE WR [HEADROOM]
 *
 * Opens DEV, allocates a PD and a one-entry CQ for the QPs, then creates
 * N CQs of CQE entries, stopping at the first refusal, and destroys them;
 * then N QPs of WR send and WR receive work requests (one SGE each), the
 * same way. Around each batch it reads memory.current of its own cgroup
 * v2 (CGROOT: where cgroup2 is mounted). With HEADROOM (bytes), it first
 * sets its cgroup's memory.max to memory.current + HEADROOM.
 *
 * It prints, for the script to judge:
 *   abi cqe S ctrl S sqe S rqe S   the ring entry sizes of the siw user
 *                                  ABI (rdma-core's <rdma/siw-abi.h>)
 *   limit base B max M             with HEADROOM
 *   cq asked N size CQE created K errno E before B after A
 *   qp asked N size WR created K errno E before B after A
 * (E is 0 when all N were created; B and A are memory.current).
 *
 * The process makes itself exempt from the OOM killer (oom_score_adj
 * -1000): a charge over memory.max then fails with ENOMEM once the
 * memory cgroup's OOM killer finds no victim, instead of killing it.
 * That holds for the charges of a system call only. A page fault of its
 * own over memory.max with no victim is retried for ever (6.12 does, in
 * pagefault_out_of_memory()), so before it sets the limit the process
 * faults in all the memory it will touch: a heap that malloc() keeps
 * (no trimming, no mmap()ed chunks), a deep stack, and every private
 * page of its mappings (mlockall()). An alarm ends it should anything
 * fault anyway. Exit status 0, or 2 when it could not set itself up.
 *
 * LDLIBS: -libverbs
 */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <infiniband/verbs.h>
#include <rdma/siw-abi.h>

#define MAX_N 256
/* What is faulted in before the limit: heap and stack. */
#define HEAP_RESERVE (16 << 20)
#define STACK_RESERVE (512 << 10)
/* Seconds before a process stuck in a page fault is ended. */
#define ALARM_S 240

static char cgdir[512];

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static struct ibv_context *open_dev(const char *name)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *ctx = NULL;
	int i;

	if (!list)
		die("ibv_get_device_list");
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

/* cgdir: CGROOT plus this process's cgroup v2 path ("0::/PATH"). */
static void find_cgroup(const char *root)
{
	char line[512];
	FILE *f = fopen("/proc/self/cgroup", "r");

	if (!f)
		die("/proc/self/cgroup");
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::", 3))
			continue;
		line[strcspn(line, "\n")] = 0;
		snprintf(cgdir, sizeof(cgdir), "%s%s", root, line + 3);
		fclose(f);
		return;
	}
	fprintf(stderr, "no cgroup v2 line in /proc/self/cgroup\n");
	exit(2);
}

/*
 * memory.current, from a descriptor opened at the first call, before
 * memory.max is set: an open() at the limit charges a struct file to
 * the cgroup, and one failed with ENOMEM (2026-12-07) right after the
 * CQs' rings were freed. The seq_file keeps its buffer from the first
 * read on, so a read allocates nothing.
 */
static unsigned long long mem_current(void)
{
	static int fd = -1;
	char buf[32];
	ssize_t n;

	if (fd < 0) {
		char path[600];

		snprintf(path, sizeof(path), "%s/memory.current", cgdir);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			die(path);
	}
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		die("memory.current");
	buf[n] = 0;
	return strtoull(buf, NULL, 10);
}

/*
 * Fault in what the process will use once memory.max is set; see the
 * comment at the top.
 */
static void touch_stack(void)
{
	volatile char deep[STACK_RESERVE];

	memset((char *)deep, 1, sizeof(deep));
}

static void reserve_memory(void)
{
	char *heap;

	if (!mallopt(M_TRIM_THRESHOLD, 1 << 30) ||
	    !mallopt(M_MMAP_THRESHOLD, 32 << 20) ||
	    !mallopt(M_TOP_PAD, HEAP_RESERVE))
		die("mallopt");
	heap = malloc(HEAP_RESERVE);
	if (!heap)
		die("malloc");
	memset(heap, 1, HEAP_RESERVE);
	free(heap);
	touch_stack();
	if (mlockall(MCL_CURRENT))
		die("mlockall");
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f))
		die(path);
}

int main(int argc, char **argv)
{
	static struct ibv_cq *cqs[MAX_N];
	static struct ibv_qp *qps[MAX_N];
	unsigned long long before, after;
	struct ibv_context *ctx;
	struct ibv_cq *qcq;
	struct ibv_pd *pd;
	int n, cqe, wr, i, k, err;

	if (argc < 6) {
		fprintf(stderr, "usage: %s DEV CGROOT N CQE WR [HEADROOM]\n", argv[0]);
		return 2;
	}
	n = atoi(argv[3]);
	cqe = atoi(argv[4]);
	wr = atoi(argv[5]);
	if (n < 1 || n > MAX_N || cqe < 1 || wr < 1) {
		fprintf(stderr, "bad N, CQE or WR\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	write_file("/proc/self/oom_score_adj", "-1000");
	find_cgroup(argv[2]);
	printf("cgroup %s\n", cgdir);
	printf("abi cqe %zu ctrl %zu sqe %zu rqe %zu\n", sizeof(struct siw_cqe),
	       sizeof(struct siw_cq_ctrl), sizeof(struct siw_sqe),
	       sizeof(struct siw_rqe));

	ctx = open_dev(argv[1]);
	pd = ibv_alloc_pd(ctx);
	if (!pd)
		die("ibv_alloc_pd");
	qcq = ibv_create_cq(ctx, 1, NULL, NULL, 0);
	if (!qcq)
		die("ibv_create_cq");

	if (argc > 6) {
		char path[600], val[32];

		reserve_memory();
		alarm(ALARM_S);
		before = mem_current();
		snprintf(path, sizeof(path), "%s/memory.max", cgdir);
		snprintf(val, sizeof(val), "%llu", before + strtoull(argv[6], NULL, 0));
		write_file(path, val);
		printf("limit base %llu max %s\n", before, val);
	}

	before = mem_current();
	err = 0;
	for (k = 0; k < n; k++) {
		cqs[k] = ibv_create_cq(ctx, cqe, NULL, NULL, 0);
		if (!cqs[k]) {
			err = errno;
			break;
		}
	}
	after = mem_current();
	printf("cq asked %d size %d created %d errno %d before %llu after %llu\n",
	       n, cqe, k, err, before, after);
	for (i = 0; i < k; i++)
		ibv_destroy_cq(cqs[i]);

	before = mem_current();
	err = 0;
	for (k = 0; k < n; k++) {
		struct ibv_qp_init_attr a = {
			.send_cq = qcq,
			.recv_cq = qcq,
			.qp_type = IBV_QPT_RC,
			.cap = {
				.max_send_wr = wr,
				.max_recv_wr = wr,
				.max_send_sge = 1,
				.max_recv_sge = 1,
			},
		};

		qps[k] = ibv_create_qp(pd, &a);
		if (!qps[k]) {
			err = errno;
			break;
		}
	}
	after = mem_current();
	printf("qp asked %d size %d created %d errno %d before %llu after %llu\n",
	       n, wr, k, err, before, after);
	for (i = 0; i < k; i++)
		ibv_destroy_qp(qps[i]);

	ibv_destroy_cq(qcq);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	return 0;
}
