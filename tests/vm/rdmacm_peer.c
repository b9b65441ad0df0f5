// SPDX-License-Identifier: GPL-2.0
/*
 * rdmacm_peer: an rdma_cm endpoint (librdmacm, libibverbs) for madcm's
 * VM tests against soft-iWARP: whatever RDMA device owns the address
 * (siw0 in the tests) runs the connection; madcm is the other end.
 *
 *   rdmacm_peer server PORT [opts]       accept (or reject) one connection
 *   rdmacm_peer client ADDR PORT [opts]  connect
 *
 * opts: -i N   responder_resources given to rdma_accept/rdma_connect
 *       -o N   initiator_depth given to rdma_accept/rdma_connect
 *       -p HEX private data to send
 *       -c     disconnect first once established (default: wait for
 *              the other side to disconnect)
 *       -t S   timeout in seconds for each event (default 20)
 *       -r     server: reject the request, with the -p private data
 *       -b A   server: listen on IPv4 address A only (default: any)
 *
 * Prints "rdmacm: ..." lines the scripts grep; exits 0 when the
 * connection was established and then disconnected, or when the server
 * rejected as asked; a client that is rejected prints the status and
 * private data and exits 5.
 *
 * LDLIBS: -lrdmacm -libverbs
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rdma/rdma_cma.h>

#define MAX_PD		512
#define RECV_BUF_LEN	64

static int timeout_s = 20, close_first, reject;
static const char *bind_addr;
static int resp_res = -1, init_depth = -1;
static unsigned char pd[MAX_PD];
static int pd_len;

static struct rdma_event_channel *chan;
static struct ibv_pd *ibpd;
static struct ibv_cq *cq;
static struct ibv_mr *mr;
static char recv_buf[RECV_BUF_LEN];

static void fail(const char *what)
{
	printf("rdmacm: error %s: %s\n", what, strerror(errno));
	exit(2);
}

static void hex(const char *tag, const void *data, int n)
{
	const unsigned char *p = data;
	int i;

	printf("rdmacm: %s=", tag);
	for (i = 0; i < n; i++)
		printf("%02x", p[i]);
	printf("\n");
}

/* The next event on the channel, within the timeout. */
static struct rdma_cm_event *next_event(void)
{
	struct pollfd p = { .fd = chan->fd, .events = POLLIN };
	struct rdma_cm_event *ev;

	if (poll(&p, 1, timeout_s * 1000) <= 0) {
		printf("rdmacm: timeout waiting for an event\n");
		exit(3);
	}
	if (rdma_get_cm_event(chan, &ev))
		fail("rdma_get_cm_event");
	printf("rdmacm: event %s status %d\n", rdma_event_str(ev->event),
	       ev->status);
	return ev;
}

/* Wait for @want; anything else ends the program. */
static struct rdma_cm_event *expect(enum rdma_cm_event_type want)
{
	struct rdma_cm_event *ev = next_event();

	if (ev->event != want) {
		printf("rdmacm: expected %s\n", rdma_event_str(want));
		exit(4);
	}
	return ev;
}

/*
 * For iWARP, rdma_cm reports the iw_cm event's IRD in initiator_depth
 * and its ORD in responder_resources (cma_iw_handler()).
 */
static void show_conn(const char *what, const struct rdma_conn_param *c)
{
	printf("rdmacm: %s ird=%u ord=%u pd_len=%u\n", what,
	       c->initiator_depth, c->responder_resources,
	       c->private_data_len);
	if (c->private_data_len && c->private_data)
		hex("pdata", c->private_data, c->private_data_len);
}

/* A PD, a CQ, an RC QP on the id's device, and one posted receive. */
static void make_qp(struct rdma_cm_id *id)
{
	struct ibv_qp_init_attr qa = { 0 };
	struct ibv_recv_wr wr = { 0 }, *bad;
	struct ibv_sge sge;

	ibpd = ibv_alloc_pd(id->verbs);
	if (!ibpd)
		fail("ibv_alloc_pd");
	cq = ibv_create_cq(id->verbs, 8, NULL, NULL, 0);
	if (!cq)
		fail("ibv_create_cq");
	mr = ibv_reg_mr(ibpd, recv_buf, sizeof(recv_buf),
			IBV_ACCESS_LOCAL_WRITE);
	if (!mr)
		fail("ibv_reg_mr");
	qa.send_cq = cq;
	qa.recv_cq = cq;
	qa.qp_type = IBV_QPT_RC;
	qa.cap.max_send_wr = 4;
	qa.cap.max_recv_wr = 4;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 1;
	if (rdma_create_qp(id, ibpd, &qa))
		fail("rdma_create_qp");
	printf("rdmacm: device %s\n", ibv_get_device_name(id->verbs->device));
	sge.addr = (uintptr_t)recv_buf;
	sge.length = sizeof(recv_buf);
	sge.lkey = mr->lkey;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	if (ibv_post_recv(id->qp, &wr, &bad))
		fail("ibv_post_recv");
}

static void conn_param(struct rdma_conn_param *cp,
		       const struct rdma_conn_param *req)
{
	memset(cp, 0, sizeof(*cp));
	cp->responder_resources = resp_res >= 0 ? resp_res :
			req ? req->responder_resources : 8;
	cp->initiator_depth = init_depth >= 0 ? init_depth :
			req ? req->initiator_depth : 8;
	cp->private_data = pd_len ? pd : NULL;
	cp->private_data_len = pd_len;
	cp->retry_count = 7;
}

/* Established: close first, or wait for the other side to close. */
static int run_established(struct rdma_cm_id *id)
{
	struct rdma_cm_event *ev;

	if (close_first) {
		printf("rdmacm: disconnecting\n");
		if (rdma_disconnect(id))
			fail("rdma_disconnect");
	}
	ev = expect(RDMA_CM_EVENT_DISCONNECTED);
	rdma_ack_cm_event(ev);
	if (!close_first)
		rdma_disconnect(id);
	printf("rdmacm: disconnected\n");
	rdma_destroy_qp(id);
	ibv_dereg_mr(mr);
	ibv_destroy_cq(cq);
	ibv_dealloc_pd(ibpd);
	rdma_destroy_id(id);
	return 0;
}

static int run_server(int port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct rdma_cm_id *listen_id, *id;
	struct rdma_conn_param cp;
	struct rdma_cm_event *ev;

	if (rdma_create_id(chan, &listen_id, NULL, RDMA_PS_TCP))
		fail("rdma_create_id");
	sin.sin_port = htons(port);
	if (bind_addr && inet_pton(AF_INET, bind_addr, &sin.sin_addr) != 1) {
		printf("rdmacm: bad address %s\n", bind_addr);
		return 1;
	}
	if (rdma_bind_addr(listen_id, (struct sockaddr *)&sin))
		fail("rdma_bind_addr");
	if (rdma_listen(listen_id, 4))
		fail("rdma_listen");
	printf("rdmacm: listening on port %d\n", port);
	fflush(stdout);

	ev = expect(RDMA_CM_EVENT_CONNECT_REQUEST);
	id = ev->id;
	show_conn("request", &ev->param.conn);
	if (reject) {
		if (rdma_reject(id, pd_len ? pd : NULL, pd_len))
			fail("rdma_reject");
		printf("rdmacm: rejected with pd_len=%d\n", pd_len);
		rdma_ack_cm_event(ev);
		rdma_destroy_id(id);
		rdma_destroy_id(listen_id);
		return 0;
	}
	make_qp(id);
	conn_param(&cp, &ev->param.conn);
	printf("rdmacm: accepting with responder_resources=%u initiator_depth=%u\n",
	       cp.responder_resources, cp.initiator_depth);
	if (rdma_accept(id, &cp))
		fail("rdma_accept");
	rdma_ack_cm_event(ev);

	ev = expect(RDMA_CM_EVENT_ESTABLISHED);
	show_conn("established", &ev->param.conn);
	rdma_ack_cm_event(ev);
	fflush(stdout);
	run_established(id);
	rdma_destroy_id(listen_id);
	return 0;
}

static int run_client(const char *addr, int port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct rdma_conn_param cp;
	struct rdma_cm_event *ev;
	struct rdma_cm_id *id;

	if (inet_pton(AF_INET, addr, &sin.sin_addr) != 1) {
		printf("rdmacm: bad address %s\n", addr);
		return 1;
	}
	sin.sin_port = htons(port);
	if (rdma_create_id(chan, &id, NULL, RDMA_PS_TCP))
		fail("rdma_create_id");
	if (rdma_resolve_addr(id, NULL, (struct sockaddr *)&sin, 5000))
		fail("rdma_resolve_addr");
	rdma_ack_cm_event(expect(RDMA_CM_EVENT_ADDR_RESOLVED));
	if (rdma_resolve_route(id, 5000))
		fail("rdma_resolve_route");
	rdma_ack_cm_event(expect(RDMA_CM_EVENT_ROUTE_RESOLVED));
	make_qp(id);
	conn_param(&cp, NULL);
	printf("rdmacm: connecting with responder_resources=%u initiator_depth=%u\n",
	       cp.responder_resources, cp.initiator_depth);
	if (rdma_connect(id, &cp))
		fail("rdma_connect");
	ev = next_event();
	if (ev->event == RDMA_CM_EVENT_REJECTED) {
		show_conn("rejected", &ev->param.conn);
		exit(5);
	}
	if (ev->event != RDMA_CM_EVENT_ESTABLISHED) {
		printf("rdmacm: expected %s\n",
		       rdma_event_str(RDMA_CM_EVENT_ESTABLISHED));
		exit(4);
	}
	show_conn("established", &ev->param.conn);
	rdma_ack_cm_event(ev);
	fflush(stdout);
	return run_established(id);
}

static int parse_hex(const char *s)
{
	size_t n = strlen(s), i;
	unsigned int b;

	if (n % 2 || n / 2 > MAX_PD)
		return -1;
	for (i = 0; i < n / 2; i++) {
		if (sscanf(s + 2 * i, "%2x", &b) != 1)
			return -1;
		pd[i] = b;
	}
	return n / 2;
}

static void usage(void)
{
	printf("rdmacm_peer server PORT [opts] | client ADDR PORT [opts]\n"
	       "opts: -i N -o N -p HEX -c -t SECONDS -r -b ADDR\n");
	exit(1);
}

int main(int argc, char **argv)
{
	int server, opt, first;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 3)
		usage();
	server = !strcmp(argv[1], "server");
	if (!server && (strcmp(argv[1], "client") || argc < 4))
		usage();
	first = server ? 3 : 4;
	optind = first;
	while ((opt = getopt(argc, argv, "i:o:p:ct:rb:")) != -1) {
		switch (opt) {
		case 'i':
			resp_res = atoi(optarg);
			break;
		case 'o':
			init_depth = atoi(optarg);
			break;
		case 'p':
			pd_len = parse_hex(optarg);
			if (pd_len < 0)
				usage();
			break;
		case 'c':
			close_first = 1;
			break;
		case 't':
			timeout_s = atoi(optarg);
			break;
		case 'r':
			reject = 1;
			break;
		case 'b':
			bind_addr = optarg;
			break;
		default:
			usage();
		}
	}
	chan = rdma_create_event_channel();
	if (!chan)
		fail("rdma_create_event_channel");
	if (server)
		return run_server(atoi(argv[2]));
	return run_client(argv[2], atoi(argv[3]));
}
