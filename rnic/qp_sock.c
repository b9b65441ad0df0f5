// SPDX-License-Identifier: GPL-2.0-only
/*
 * madcm's software RNIC: a QP's stream carried by the host's own TCP.
 *
 * irdma's CM ends a connection by loading its TCP context into the engine
 * that carries it (irdma_cm_init_tsa_conn()). For a software RNIC the
 * engine that carries TCP best is the host's, so the QP loads the
 * context the CM hands over (<madcm/cm_offload.h>) into
 * a kernel TCP socket, with the repair mode CRIU restores connections
 * with, from a work item (repair needs CAP_NET_ADMIN, which the work's
 * kernel thread has and a process calling through ucma may not):
 *
 *  - TCP_REPAIR on; bound to the connection's local address and port (the
 *    CM's port reservation and a listener's port are no obstacle in
 *    repair mode) and to its device;
 *  - TCP_MAXSEG, and TCP_QUEUE_SEQ for both queues: SND.UNA of the
 *    hand-off and RCV.NXT after the bytes the CM left to the QP;
 *  - connect, which in repair mode sends nothing and hashes the socket;
 *  - TCP_REPAIR_OPTIONS (MSS, window scales, and SACK-permitted and
 *    timestamps when both SYNs carried them), TCP_TIMESTAMP (the clock
 *    goes on from the CM's) and TCP_REPAIR_WINDOW;
 *  - the bytes the CM sent and the peer has not acknowledged, written
 *    into the send queue as sent (TCP retransmits them until acked);
 *  - TCP_NODELAY, TCP_USER_TIMEOUT (rnic_host_tcp_user_timeout_ms);
 *  - the QP's callbacks, then TCP_REPAIR off (a window probe leaves),
 *    and an ACK when the CM left received bytes unacknowledged.
 *
 * Only then does the CM remove the connection's steering entry
 * (madcm_cm_offload_unsteer()), so no segment of the stream meets the
 * host's stack without its socket. Until then the CM passes the peer's
 * segments to the QP (->rx()); they are kept (at most
 * MADCM_RNIC_KS_EARLY_MAX) and given to the host's stack once the entry
 * is gone, as are the few that still reach ->rx() afterwards (at most
 * MADCM_RNIC_KS_LATE_MAX: more would be the steering's fault, and giving
 * them to the host again would send them round the same loop).
 *
 * Sending: the send side builds its FPDUs in place, back to back, in
 * runs of up to rnic_tx_run_max octets (MADCM_RNIC_KS_RUN_MAX at most)
 * in pages of the QP's fragment cache; a run is queued here as one record when full or when
 * the send side stops (its flush), and a copied or zero-copy FPDU as a
 * record of its own, behind the open run. The work writes the records
 * to the socket with MSG_DONTWAIT, up to MADCM_RNIC_KS_TX_BATCH a call
 * and MSG_MORE while more are queued, so that TCP fills segments and GSO
 * packets with many FPDUs; a full socket waits for its write_space. A
 * user QP's doorbell writes what it queued itself, in its process
 * (ks_push()), when no other writer is at work. The
 * send side, told of the room, builds the next records from another
 * (unbound) work meanwhile. Receiving: the socket's data_ready reads the
 * stream with tcp_read_sock() and hands the upper layer each piece of
 * each skb in place (skb_seq_read()). FIN, RST, a retransmission or
 * user timeout reach the CM as FIN_RCVD, CLOSED and RESET from the work.
 *
 * Locking: @ks->tx_mutex makes one writer of the queue to the socket
 * (the work, or a doorbell's push); @ks->lock (IRQ-safe) guards the
 * queues; the stream's rx_lock
 * serializes the deliveries to the upper layer. The socket's callbacks
 * find the stream through sk_user_data under sk_callback_lock, which
 * detach takes to put the socket's own callbacks back.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": rnic: " fmt

#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/moduleparam.h>
#include <linux/net.h>
#include <linux/slab.h>
#include <linux/tcp.h>
#include <net/inet6_hashtables.h>
#include <net/inet_hashtables.h>
#include <net/inet_timewait_sock.h>
#include <net/ipv6.h>
#include <net/sock.h>
#include <net/tcp.h>
#include "madcm_compat_net.h"
#include "rnic/rnic.h"

static unsigned int madcm_rnic_host_tcp_user_timeout_ms = 60000;
module_param_named(rnic_host_tcp_user_timeout_ms,
		   madcm_rnic_host_tcp_user_timeout_ms, uint, 0644);
MODULE_PARM_DESC(rnic_host_tcp_user_timeout_ms,
		 "TCP_USER_TIMEOUT of an RNIC connection on the host's TCP: how long sent data may stay unacknowledged, or the peer's window shut, before the connection is reset (0: the host's retransmission limits only)");

/*
 * About five FPDUs of a 1,500-octet MTU's MSS a run, four runs a page of
 * the fragment cache: measured against one FPDU a record, two, eleven
 * (16 KiB) by tests/vm/profile/rnic-ab.sh (Documentation/performance.rst,
 * "Runs of FPDUs").
 */
static unsigned int madcm_rnic_tx_run_max = 8000;
module_param_named(rnic_tx_run_max, madcm_rnic_tx_run_max, uint, 0644);
MODULE_PARM_DESC(rnic_tx_run_max,
		 "octets of FPDUs built one behind the other in one record for the socket, at most (0: one FPDU a record; capped at 16256; default 8000)");

static struct madcm_rnic_stream *ks_tcp(struct madcm_rnic_ks *ks)
{
	return container_of(ks, struct madcm_rnic_stream, ks);
}

static struct madcm_rnic_qp *ks_qp(struct madcm_rnic_stream *t)
{
	return container_of(t, struct madcm_rnic_qp, stream);
}

static u32 ks_charge(u32 len)
{
	return sizeof(struct madcm_rnic_ks_rec) + len;
}

/*
 * A record goes: after TCP took its bytes (its skbs hold their own page
 * references), or unsent at detach.
 */
static void ks_rec_free(struct madcm_rnic_ks_rec *r)
{
	u32 i;

	switch (r->kind) {
	case MADCM_RNIC_KS_REC_COPY:
		kfree(r);
		return;
	case MADCM_RNIC_KS_REC_ZC:
		for (i = 0; i < r->nbv; i++)
			put_page(r->bv[i].bv_page);
		put_page(r->glue);
		madcm_rnic_zc_put(r->zc);
		fallthrough;
	default:
		page_frag_free(r);
	}
}

/* A piece of the record at @p, @len octets, for the socket. */
static void ks_piece(struct bio_vec *bv, const u8 *p, u32 len)
{
	bv->bv_page = virt_to_page(p);
	bv->bv_offset = offset_in_page(p);
	bv->bv_len = len;
}

/* @len octets at @off of the (compound) page @page, as a piece. */
static void ks_glue_piece(struct bio_vec *bv, struct page *page, u32 off,
			  u32 len)
{
	bv->bv_page = page + (off >> PAGE_SHIFT);
	bv->bv_offset = offset_in_page(off);
	bv->bv_len = len;
}

/*
 * The pieces of a page record from octet @off on, into @bv (room for
 * MADCM_RNIC_ZC_PIECES + 2): a FRAG record's one, a ZC record's header,
 * payload and trailer. Returns how many.
 */
static unsigned int ks_rec_pieces(struct madcm_rnic_ks_rec *r, u32 off,
				  struct bio_vec *bv)
{
	unsigned int n = 0, i;

	if (r->kind != MADCM_RNIC_KS_REC_ZC) {
		ks_piece(bv, r->data + off, r->len - off);
		return 1;
	}
	if (off < r->head_len) {
		ks_glue_piece(&bv[n++], r->glue, r->glue_off + off,
			      r->head_len - off);
		off = 0;
	} else {
		off -= r->head_len;
	}
	for (i = 0; i < r->nbv; i++) {
		if (off >= r->bv[i].bv_len) {
			off -= r->bv[i].bv_len;
			continue;
		}
		bv[n] = r->bv[i];
		bv[n].bv_offset += off;
		bv[n].bv_len -= off;
		n++;
		off = 0;
	}
	ks_glue_piece(&bv[n++], r->glue, r->glue_off + r->head_len + off,
		      r->tail_len - off);
	return n;
}

/*
 * The work runs where the scheduler finds room, not on the CPU that
 * queued it: the send side keeps building there (in the poster's
 * context or the room work) while the work writes to the socket, and
 * for a peer on the same host carries the receiver's softirq too. Bound
 * to the queueing CPU, the work waited for the builder to sleep while
 * the other CPU idled (Documentation/performance.rst, "Runs of FPDUs").
 */
static void ks_kick(struct madcm_rnic_ks *ks)
{
	queue_work(system_unbound_wq, &ks->work);
}

/*
 * The open run (ks_build_buf()) joins the queue, if it holds an FPDU,
 * @ks->lock held. True when the queue was empty: the caller kicks the
 * work.
 */
static bool ks_queue_run(struct madcm_rnic_ks *ks)
{
	struct madcm_rnic_ks_rec *r = ks->build;
	bool kick;

	lockdep_assert_held(&ks->lock);
	if (!r || !r->len)
		return false;
	kick = list_empty(&ks->txq);
	list_add_tail(&r->list, &ks->txq);
	ks->build = NULL;
	ks->build_size = 0;
	return kick;
}

/*
 * FIN once the queue is written: the FPDUs of the open run included,
 * which join the queue with the flag set (later ones are refused).
 */
static void ks_fin_due(struct madcm_rnic_ks *ks)
{
	unsigned long flags;

	spin_lock_irqsave(&ks->lock, flags);
	set_bit(MADCM_RNIC_KS_FIN_DUE, &ks->flags);
	ks_queue_run(ks);
	spin_unlock_irqrestore(&ks->lock, flags);
}

static int ks_setopt(struct socket *sock, int opt, const void *val,
		     unsigned int len)
{
	return sock->ops->setsockopt(sock, SOL_TCP, opt,
				     KERNEL_SOCKPTR((void *)val), len);
}

static int ks_setint(struct socket *sock, int opt, int val)
{
	return ks_setopt(sock, opt, &val, sizeof(val));
}

/*
 * The stream failed (or the upper layer aborted it): nothing more goes
 * up or out but a RST. The work moves the QP to ERROR and tells the CM
 * (RESET, once), out of whatever context this is called from.
 */
static void ks_end(struct madcm_rnic_stream *t, int err)
{
	struct madcm_rnic_ks *ks = &t->ks;

	cmpxchg(&ks->err, 0, err);
	set_bit(MADCM_RNIC_KS_DEAD, &ks->flags);
	set_bit(MADCM_RNIC_KS_RST_DUE, &ks->flags);
	ks_kick(ks);
}

/* From the work: the RESET ks_end() left to report. */
static void ks_report_end(struct madcm_rnic_stream *t)
{
	struct madcm_rnic_ks *ks = &t->ks;

	if (!test_bit(MADCM_RNIC_KS_DEAD, &ks->flags) ||
	    test_and_set_bit(MADCM_RNIC_KS_EV_END, &ks->flags))
		return;
	t->out->qp_state(t, IB_QPS_ERR);
	t->out->event(t, MADCM_CM_OFFLOAD_EV_RESET, ks->err ?: -ECONNRESET);
}

/* The device the connection's frames use: the VLAN device for a VLAN. */
static int ks_ifindex(struct madcm_rnic_stream *t)
{
	struct net_device *nd = ks_qp(t)->dev->netdev;
	struct net_device *vdev;
	int ifindex = 0;

	if (t->addr.vlan_id == MADCM_CM_NO_VLAN)
		return nd->ifindex;
	rcu_read_lock();
	vdev = __vlan_find_dev_deep_rcu(nd, htons(ETH_P_8021Q),
					t->addr.vlan_id);
	if (vdev)
		ifindex = vdev->ifindex;
	rcu_read_unlock();
	return ifindex;
}

static int ks_sockaddr(const struct madcm_cm_addr *a, bool ipv4, int ifindex,
		       struct sockaddr_storage *ss)
{
	struct sockaddr_in6 *sin6;

	memset(ss, 0, sizeof(*ss));
	if (ipv4) {
		struct sockaddr_in *sin = (struct sockaddr_in *)ss;

		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = a->ip.s6_addr32[3];
		sin->sin_port = htons(a->port);
		return sizeof(*sin);
	}
	sin6 = (struct sockaddr_in6 *)ss;
	sin6->sin6_family = AF_INET6;
	sin6->sin6_addr = a->ip;
	sin6->sin6_port = htons(a->port);
	if (ipv6_addr_type(&a->ip) & IPV6_ADDR_LINKLOCAL)
		sin6->sin6_scope_id = ifindex;
	return sizeof(*sin6);
}

static void ks_data_ready(struct sock *sk);
static void ks_state_change(struct sock *sk);
static void ks_write_space(struct sock *sk);

/**
 * madcm_rnic_ks_install() - give a loaded socket the stream's callbacks
 * @t: the stream the socket carries
 * @sk: the socket
 *
 * The socket's own data_ready, state_change, write_space and
 * error_report are kept, and come back with madcm_rnic_ks_uninstall().
 *
 * Context: process context.
 */
void madcm_rnic_ks_install(struct madcm_rnic_stream *t, struct sock *sk)
{
	struct madcm_rnic_ks *ks = &t->ks;

	write_lock_bh(&sk->sk_callback_lock);
	ks->saved_data_ready = sk->sk_data_ready;
	ks->saved_state_change = sk->sk_state_change;
	ks->saved_write_space = sk->sk_write_space;
	ks->saved_error_report = sk->sk_error_report;
	sk->sk_user_data = t;
	sk->sk_data_ready = ks_data_ready;
	sk->sk_state_change = ks_state_change;
	sk->sk_write_space = ks_write_space;
	sk->sk_error_report = ks_state_change;
	write_unlock_bh(&sk->sk_callback_lock);
}

/**
 * madcm_rnic_ks_uninstall() - put a socket's own callbacks back
 * @t: the stream madcm_rnic_ks_install() gave the socket to
 * @sk: the socket
 *
 * Nothing when the socket is not @t's (any more). Once this returns, no
 * callback of the stream runs for @sk.
 *
 * Context: process context.
 */
void madcm_rnic_ks_uninstall(struct madcm_rnic_stream *t, struct sock *sk)
{
	struct madcm_rnic_ks *ks = &t->ks;

	write_lock_bh(&sk->sk_callback_lock);
	if (sk->sk_user_data == t) {
		sk->sk_user_data = NULL;
		sk->sk_data_ready = ks->saved_data_ready;
		sk->sk_state_change = ks->saved_state_change;
		sk->sk_write_space = ks->saved_write_space;
		sk->sk_error_report = ks->saved_error_report;
	}
	write_unlock_bh(&sk->sk_callback_lock);
}

/*
 * The host keeps a TIME-WAIT of the 4-tuple (a connection of it closed
 * here a moment ago, from the same port): the CM judged the new
 * connection acceptable (RFC 9293 3.4.1, RFC 6191) and set it up on its
 * own steering, so the host's TIME-WAIT goes, as one a new SYN takes
 * over does. Without timestamps the host's connect would refuse it
 * (tcp_twsk_unique()). Return: true when one went.
 */
static bool ks_end_time_wait(struct net *net, const struct madcm_cm_tcp_ctx *c,
			     int ifindex)
{
	struct inet_hashinfo *h = net->ipv4.tcp_death_row.hashinfo;
	struct sock *sk;

	rcu_read_lock();
	if (c->ipv4)
		sk = __inet_lookup_established(net, h, c->rem.ip.s6_addr32[3],
					       htons(c->rem.port),
					       c->loc.ip.s6_addr32[3],
					       c->loc.port, ifindex, 0);
	else
		sk = __inet6_lookup_established(net, h, &c->rem.ip,
						htons(c->rem.port), &c->loc.ip,
						c->loc.port, ifindex, 0);
	rcu_read_unlock();
	if (!sk)
		return false;
	if (sk->sk_state != TCP_TIME_WAIT) {
		sock_gen_put(sk);
		return false;
	}
	/* as the host's own callers (softirq, connect) do: BH off */
	local_bh_disable();
	inet_twsk_deschedule_put(inet_twsk(sk));
	local_bh_enable();
	return true;
}

/**
 * madcm_rnic_ks_repair() - a kernel TCP socket in a connection's state
 * @net: the namespace the socket lives in
 * @k: the connection: its addresses and sequence numbers, windows and
 *	options, and the bytes sent but not acknowledged
 * @sockp: the socket, on success: ESTABLISHED, hashed, still in repair
 *	mode (TCP_REPAIR off sends a window probe and starts it)
 *
 * The repair steps of the comment at the top, in the order the host's
 * TCP wants them: the queue sequence numbers before connect, the options
 * before any byte is queued, the unacknowledged bytes last. Nothing is
 * sent.
 *
 * Context: process context, with CAP_NET_ADMIN in @net (a kernel work).
 * Return: 0, or a negative errno (no socket then).
 */
int madcm_rnic_ks_repair(struct net *net, const struct madcm_rnic_ks_conn *k,
			 struct socket **sockp)
{
	const struct madcm_cm_tcp_ctx *c = k->tcp;
	struct tcp_repair_window win = {};
	struct tcp_repair_opt opts[4] = {};
	struct sockaddr_storage la, ra;
	struct socket *sock;
	int ret, alen, n = 2;

	*sockp = NULL;
	/*
	 * The socket sizes its segments from TCP_MAXSEG, which takes
	 * TCP_MIN_MSS to MAX_TCP_WINDOW: a peer's MSS under the first (the
	 * CM takes one from 64 on) would leave the socket at 536 octets
	 * (RFC 9293 3.7.1), over what the peer announced, so the stream is
	 * refused; one over the second (a link's MTU over 32 KiB) is held to
	 * it, segments no larger than a host socket's with that TCP_MAXSEG.
	 */
	if (k->mss < TCP_MIN_MSS)
		return -EINVAL;
	ret = sock_create_kern(net, c->ipv4 ? AF_INET : AF_INET6, SOCK_STREAM,
			       IPPROTO_TCP, &sock);
	if (ret)
		return ret;
	ret = ks_setint(sock, TCP_REPAIR, TCP_REPAIR_ON);
	if (!ret && k->ifindex)
		ret = sock_bindtoindex(sock->sk, k->ifindex, true);
	if (ret)
		goto err;
	alen = ks_sockaddr(&c->loc, c->ipv4, k->ifindex, &la);
	ret = kernel_bind(sock, (struct sockaddr *)&la, alen);
	if (!ret)
		ret = ks_setint(sock, TCP_MAXSEG,
				min_t(u32, k->mss, MAX_TCP_WINDOW));
	if (!ret)
		ret = ks_setint(sock, TCP_REPAIR_QUEUE, TCP_SEND_QUEUE);
	if (!ret)
		ret = ks_setint(sock, TCP_QUEUE_SEQ, c->snd_una);
	if (!ret)
		ret = ks_setint(sock, TCP_REPAIR_QUEUE, TCP_RECV_QUEUE);
	if (!ret)
		ret = ks_setint(sock, TCP_QUEUE_SEQ, k->rcv_nxt);
	if (ret)
		goto err;
	alen = ks_sockaddr(&c->rem, c->ipv4, k->ifindex, &ra);
	ret = kernel_connect(sock, (struct sockaddr *)&ra, alen, 0);
	if (ret == -EADDRNOTAVAIL && ks_end_time_wait(net, c, k->ifindex))
		ret = kernel_connect(sock, (struct sockaddr *)&ra, alen, 0);
	if (ret)
		goto err;

	opts[0].opt_code = TCPOPT_MSS;
	opts[0].opt_val = k->mss;
	opts[1].opt_code = TCPOPT_WINDOW;
	opts[1].opt_val = k->snd_wscale | (u32)k->rcv_wscale << 16;
	if (c->sack)
		opts[n++].opt_code = TCPOPT_SACK_PERM;
	if (c->ts)
		opts[n++].opt_code = TCPOPT_TIMESTAMP;
	ret = ks_setopt(sock, TCP_REPAIR_OPTIONS, opts, n * sizeof(opts[0]));
	/*
	 * The socket's clock is the CM's: the same milliseconds, the same
	 * offset, read now (the CM may have sent since its context was
	 * made; a value from then would put the socket's clock behind the
	 * TSval the peer last took, and its PAWS, RFC 7323 5.3, would drop
	 * what the socket sends). The low bit would ask 6.7 and later for
	 * microsecond timestamps: rounded up to even, never back.
	 */
	if (!ret && c->ts)
		ret = ks_setint(sock, TCP_TIMESTAMP,
				((u32)div_u64(ktime_get_ns(), NSEC_PER_MSEC) +
				 c->ts_off + 1) & ~1U);
	if (ret)
		goto err;
	win.snd_wl1 = c->snd_wl1;
	win.snd_wnd = c->snd_wnd;
	win.max_window = max(c->max_snd_wnd, c->snd_wnd);
	win.rcv_wnd = min_t(u32, c->rcv_wnd, U16_MAX << k->rcv_wscale);
	win.rcv_wup = k->rcv_nxt;
	ret = ks_setopt(sock, TCP_REPAIR_WINDOW, &win, sizeof(win));
	if (ret)
		goto err;
	if (k->unacked_len) {
		struct msghdr msg = { .msg_flags = MSG_DONTWAIT };
		struct kvec vec = {
			.iov_base = (void *)k->unacked,
			.iov_len = k->unacked_len,
		};

		ret = ks_setint(sock, TCP_REPAIR_QUEUE, TCP_SEND_QUEUE);
		if (ret)
			goto err;
		ret = kernel_sendmsg(sock, &msg, &vec, 1, vec.iov_len);
		if (ret != (int)k->unacked_len) {
			ret = ret < 0 ? ret : -ENOBUFS;
			goto err;
		}
	}
	*sockp = sock;
	return 0;
err:
	/* in repair mode a close is silent: nothing reaches the peer */
	sock_release(sock);
	return ret;
}

/**
 * madcm_rnic_ks_start() - a repaired socket takes up its connection
 * @sock: the socket madcm_rnic_ks_repair() made of @k
 * @k: the connection
 *
 * Repair off: the socket sends a window probe, which the peer answers
 * with an ACK (its window, and what it holds of ours). The probe lies
 * below the peer's window, so the peer reads no acknowledgment from it
 * (RFC 9293 3.10.7.4: an unacceptable segment is answered and dropped).
 * When the CM left bytes it received unacknowledged (@k->rcv_nxt beyond
 * the context's RCV.NXT: a peer-to-peer responder's RTR), an ACK of
 * RCV.NXT follows, or the peer would wait for its retransmission
 * timeout to learn of them.
 *
 * Context: process context, with CAP_NET_ADMIN in the socket's namespace.
 * Return: 0, or a negative errno (the socket is still in repair mode).
 */
int madcm_rnic_ks_start(struct socket *sock,
			const struct madcm_rnic_ks_conn *k)
{
	struct sock *sk = sock->sk;
	int ret;

	ret = ks_setint(sock, TCP_REPAIR, TCP_REPAIR_OFF);
	if (ret || k->rcv_nxt == k->tcp->rcv_nxt)
		return ret;
	lock_sock(sk);
	if (sk->sk_state != TCP_CLOSE)
		madcm_tcp_send_ack(sk);
	release_sock(sk);
	return 0;
}

/*
 * Load the stream into a new socket; see the comment at the top. On an
 * error the caller ends the stream (the socket, if any, is released by
 * detach).
 */
static int ks_load(struct madcm_rnic_stream *t)
{
	struct madcm_rnic_ks *ks = &t->ks;
	struct madcm_rnic_ks_conn k = {
		.tcp = &t->addr,
		.rcv_nxt = ks->rcv_nxt,
		.mss = t->mss,
		.snd_wscale = t->snd_wscale,
		.rcv_wscale = t->rcv_wscale,
		.unacked = ks->unacked,
		.unacked_len = ks->unacked_len,
	};
	struct socket *sock;
	int ret;

	k.ifindex = ks_ifindex(t);
	if (!k.ifindex)
		return -ENODEV;
	ret = madcm_rnic_ks_repair(dev_net(ks_qp(t)->dev->netdev), &k, &sock);
	if (ret)
		return ret;
	ks->sock = sock;
	ret = ks_setint(sock, TCP_NODELAY, 1);
	if (!ret)
		ret = ks_setint(sock, TCP_USER_TIMEOUT,
				READ_ONCE(madcm_rnic_host_tcp_user_timeout_ms));
	if (ret)
		return ret;
	madcm_rnic_ks_install(t, sock->sk);
	set_bit(MADCM_RNIC_KS_LIVE, &ks->flags);
	ret = madcm_rnic_ks_start(sock, &k);
	/*
	 * Repair off took the forced reuse back: SO_REUSEADDR, so that the
	 * CM's port reservations (a listener made again on this port) bind
	 * beside this socket and its TIME-WAIT.
	 */
	if (!ret)
		sock_set_reuseaddr(sock->sk);
	return ret;
}

/*
 * One frame the CM passed us, back to the host's stack (any context). A
 * frame of a connection to this host itself, from our own MAC, comes in
 * on the loopback device, as the CM looped it (a device would drop its
 * local source).
 */
static void ks_reinject(struct madcm_rnic_stream *t, struct sk_buff *skb,
			enum madcm_rnic_counter c)
{
	struct net_device *dev = skb->dev;

	madcm_rnic_count(ks_qp(t)->dev, c);
	if (ether_addr_equal(((const struct ethhdr *)skb->data)->h_source,
			     dev->dev_addr)) {
		madcm_cm_netdev_loop_rx(dev_net(dev), skb);
		return;
	}
	skb->protocol = eth_type_trans(skb, dev);
	netif_rx(skb);
}

static struct sk_buff *ks_frame_skb(struct madcm_rnic_stream *t, const u8 *frame,
				    u32 len)
{
	struct net_device *nd = ks_qp(t)->dev->netdev;
	struct sk_buff *skb;

	if (len < ETH_HLEN)
		return NULL;
	skb = netdev_alloc_skb_ip_align(nd, len);
	if (skb)
		skb_put_data(skb, frame, len);
	return skb;
}

static int ks_handoff(struct madcm_rnic_stream *t)
{
	struct madcm_rnic_ks *ks = &t->ks;
	struct madcm_rnic_qp *qp = ks_qp(t);
	struct sk_buff_head early;
	struct sk_buff *skb;
	unsigned long flags;
	int ret;

	ret = ks_load(t);
	kfree(ks->unacked);
	ks->unacked = NULL;
	if (ret) {
		pr_debug("QP %u: hand-off to a host socket failed: %d\n",
			 qp->ibqp.qp_num, ret);
		return ret;
	}
	ret = madcm_cm_offload_unsteer(&qp->oqp);
	if (ret)
		return ret;
	__skb_queue_head_init(&early);
	spin_lock_irqsave(&ks->lock, flags);
	set_bit(MADCM_RNIC_KS_UNSTEERED, &ks->flags);
	skb_queue_splice_init(&ks->early, &early);
	spin_unlock_irqrestore(&ks->lock, flags);
	madcm_rnic_count(qp->dev, MADCM_RNIC_CNT_HOST_TCP);
	while ((skb = __skb_dequeue(&early)))
		ks_reinject(t, skb, MADCM_RNIC_CNT_HOST_TCP_EARLY);
	return 0;
}

/* Receiving: each piece of the skb, in place, to the upper layer. */
static int ks_recv_actor(read_descriptor_t *desc, struct sk_buff *skb,
			 unsigned int off, size_t len)
{
	struct madcm_rnic_stream *t = desc->arg.data;
	struct skb_seq_state st;
	unsigned int done = 0, n;
	const u8 *data;

	if (test_bit(MADCM_RNIC_KS_DEAD, &t->ks.flags))
		return len;
	skb_prepare_seq_read(skb, off, off + len, &st);
	while ((n = skb_seq_read(done, &data, &st)) != 0) {
		if (test_bit(MADCM_RNIC_KS_DEAD, &t->ks.flags)) {
			skb_abort_seq_read(&st);
			break;
		}
		t->out->rx_data(t, data, n);
		done += n;
	}
	madcm_rnic_count_add(ks_qp(t)->dev, MADCM_RNIC_CNT_RX_BYTES, len);
	return len;
}

/* The socket is locked (owned, or bh-locked in its receive path). */
static void ks_read(struct madcm_rnic_stream *t, struct sock *sk)
{
	read_descriptor_t desc = {
		.arg.data = t,
		.count = 1,
	};

	spin_lock_bh(&t->rx_lock);
	if (test_bit(MADCM_RNIC_KS_LIVE, &t->ks.flags))
		tcp_read_sock(sk, &desc, ks_recv_actor);
	spin_unlock_bh(&t->rx_lock);
}

static void ks_data_ready(struct sock *sk)
{
	struct madcm_rnic_stream *t;

	read_lock_bh(&sk->sk_callback_lock);
	t = sk->sk_user_data;
	if (t)
		ks_read(t, sk);
	read_unlock_bh(&sk->sk_callback_lock);
}

static void ks_state_change(struct sock *sk)
{
	struct madcm_rnic_stream *t;

	read_lock_bh(&sk->sk_callback_lock);
	t = sk->sk_user_data;
	if (t)
		ks_kick(&t->ks);
	read_unlock_bh(&sk->sk_callback_lock);
}

/*
 * Room again: as the socket's own write_space (sk_stream_write_space())
 * does, SOCK_NOSPACE goes once the socket is writeable. TCP calls this
 * at every ACK while the bit is set, does not shrink an application-
 * limited congestion window (RFC 2861, tcp_cwnd_application_limited())
 * and counts the time as limited by the send buffer (tcpi_sndbuf_limited).
 */
static void ks_write_space(struct sock *sk)
{
	struct madcm_rnic_stream *t;

	read_lock_bh(&sk->sk_callback_lock);
	t = sk->sk_user_data;
	if (t && sk->sk_socket && sk_stream_is_writeable(sk)) {
		clear_bit(SOCK_NOSPACE, &sk->sk_socket->flags);
		if (!list_empty(&t->ks.txq))
			ks_kick(&t->ks);
	}
	read_unlock_bh(&sk->sk_callback_lock);
}

/*
 * Records written: out of the queue, and the send side told there is
 * room, from another work, when it waited for some.
 */
static void ks_tx_done(struct madcm_rnic_stream *t, struct list_head *done)
{
	struct madcm_rnic_ks *ks = &t->ks;
	struct madcm_rnic_qp *qp = ks_qp(t);
	struct madcm_rnic_ks_rec *r, *n;

	if (list_empty(done))
		return;
	list_for_each_entry_safe(r, n, done, list) {
		madcm_rnic_count_add(qp->dev, MADCM_RNIC_CNT_TX_FRAMES,
				     r->fpdus);
		ks_rec_free(r);
	}
	if (!test_bit(MADCM_RNIC_KS_DEAD, &ks->flags) &&
	    test_and_clear_bit(MADCM_RNIC_KS_ROOM, &ks->flags))
		queue_work(system_unbound_wq, &ks->room_work);
}

static void ks_room_work(struct work_struct *work)
{
	struct madcm_rnic_ks *ks = container_of(work, struct madcm_rnic_ks,
						room_work);
	struct madcm_rnic_stream *t = ks_tcp(ks);

	if (!test_bit(MADCM_RNIC_KS_DETACHED, &ks->flags) &&
	    !test_bit(MADCM_RNIC_KS_DEAD, &ks->flags) && t->out->tx_room)
		t->out->tx_room(t);
}

/*
 * Write what the send side queued, as far as the socket takes it: up to
 * MADCM_RNIC_KS_TX_BATCH records a call, with MSG_MORE while more are
 * queued, so that TCP fills its segments and GSO packets from many
 * FPDUs instead of sending each alone. Records built in place in pages
 * (FRAG) go by reference (madcm_sock_send_pages()); a ZC record's pages
 * too, the call carrying its ticket (madcm_sock_send_zc()), so that the
 * work request completes once TCP's skbs no longer hold them; the others
 * are copied (kernel_sendmsg()). A call takes records of one kind, and
 * of one ticket. Records leave the queue only here, and in detach after
 * this work is cancelled: their bytes are read without the lock. This
 * runs until the queue is empty, or the socket full (its write_space
 * kicks the work again while records wait): so a record queued behind
 * others needs no kick, only one queued to an empty queue does.
 */
static void ks_tx(struct madcm_rnic_stream *t)
{
	struct madcm_rnic_ks *ks = &t->ks;
	struct madcm_rnic_qp *qp = ks_qp(t);

	/* for ks_max_record(), which may not touch the socket */
	WRITE_ONCE(ks->mss_cache, READ_ONCE(tcp_sk(ks->sock->sk)->mss_cache));

	for (;;) {
		union {
			struct kvec kv[MADCM_RNIC_KS_TX_BATCH];
			struct bio_vec bv[MADCM_RNIC_KS_TX_PIECES];
		} v;
		struct madcm_rnic_zc *zc = NULL;
		struct madcm_rnic_ks_rec *r;
		unsigned int n = 0, recs = 0;
		unsigned long flags;
		int kind = -1;
		bool more;
		LIST_HEAD(done);
		u32 off, len = 0;
		int ret, mflags;

		if (test_bit(MADCM_RNIC_KS_DEAD, &ks->flags))
			break;
		spin_lock_irqsave(&ks->lock, flags);
		off = ks->tx_off;
		more = false;
		list_for_each_entry(r, &ks->txq, list) {
			if (recs == MADCM_RNIC_KS_TX_BATCH ||
			    (recs && (r->kind != kind ||
				      (kind == MADCM_RNIC_KS_REC_ZC &&
				       r->zc != zc))) ||
			    n + MADCM_RNIC_ZC_PIECES + 2 >
			    MADCM_RNIC_KS_TX_PIECES) {
				more = true;
				break;
			}
			kind = r->kind;
			zc = r->kind == MADCM_RNIC_KS_REC_ZC ? r->zc : NULL;
			if (kind == MADCM_RNIC_KS_REC_COPY)
				v.kv[n++] = (struct kvec){ r->data + off,
							   r->len - off };
			else
				n += ks_rec_pieces(r, off, &v.bv[n]);
			len += r->len - off;
			off = 0;
			recs++;
		}
		spin_unlock_irqrestore(&ks->lock, flags);
		if (!n)
			break;
		mflags = MSG_DONTWAIT | MSG_NOSIGNAL | (more ? MSG_MORE : 0);
		if (kind == MADCM_RNIC_KS_REC_ZC) {
			ret = madcm_sock_send_zc(ks->sock, v.bv, n, len, mflags,
						 &zc->ubuf);
		} else if (kind == MADCM_RNIC_KS_REC_FRAG) {
			ret = madcm_sock_send_pages(ks->sock, v.bv, n, len, mflags);
		} else {
			struct msghdr msg = { .msg_flags = mflags };

			ret = kernel_sendmsg(ks->sock, &msg, v.kv, n, len);
		}
		if (ret == -EAGAIN)
			break;
		if (ret < 0) {
			ks_end(t, ret);
			break;
		}
		madcm_rnic_count_add(qp->dev, MADCM_RNIC_CNT_TX_BYTES, ret);
		if (kind != MADCM_RNIC_KS_REC_COPY)
			madcm_rnic_count_add(qp->dev, MADCM_RNIC_CNT_TX_ZC_BYTES,
					     ret);
		spin_lock_irqsave(&ks->lock, flags);
		ks->tx_off += ret;
		while ((r = list_first_entry_or_null(&ks->txq,
						     struct madcm_rnic_ks_rec,
						     list)) &&
		       ks->tx_off >= r->len) {
			ks->tx_off -= r->len;
			ks->tx_mem -= ks_charge(r->len);
			list_move_tail(&r->list, &done);
		}
		spin_unlock_irqrestore(&ks->lock, flags);
		ks_tx_done(t, &done);
		/* the socket is full: its write_space brings us back */
		if (ret < len)
			break;
	}
	if (test_bit(MADCM_RNIC_KS_FIN_DUE, &ks->flags) &&
	    !test_bit(MADCM_RNIC_KS_DEAD, &ks->flags) &&
	    list_empty(&ks->txq) &&
	    !test_and_set_bit(MADCM_RNIC_KS_FIN_SENT, &ks->flags))
		kernel_sock_shutdown(ks->sock, SHUT_WR);
}

/* The socket's state, as the CM's events, once each. */
static void ks_events(struct madcm_rnic_stream *t)
{
	struct madcm_rnic_ks *ks = &t->ks;
	struct sock *sk = ks->sock->sk;
	unsigned long tmo;
	bool fin, closed;
	int err;

	lock_sock(sk);
	/* the bytes before a FIN go up before the FIN is reported */
	ks_read(t, sk);
	err = sk->sk_err;
	closed = sk->sk_state == TCP_CLOSE;
	fin = (sk->sk_shutdown & RCV_SHUTDOWN) &&
	      skb_queue_empty(&sk->sk_receive_queue);
	release_sock(sk);

	if (test_bit(MADCM_RNIC_KS_DEAD, &ks->flags) ||
	    test_bit(MADCM_RNIC_KS_EV_END, &ks->flags))
		return;
	if (err || (closed && !test_bit(MADCM_RNIC_KS_FIN_SENT, &ks->flags))) {
		/* the socket is closed already: no RST to send */
		ks_end(t, err ? -err : -ECONNRESET);
		return;
	}
	if (fin && !test_and_set_bit(MADCM_RNIC_KS_EV_FIN, &ks->flags)) {
		t->out->event(t, MADCM_CM_OFFLOAD_EV_FIN_RCVD, 0);
		/* CLOSE-WAIT: our FIN follows what the upper layer queued */
		ks_fin_due(ks);
		ks_kick(ks);
	}
	if (closed && !test_and_set_bit(MADCM_RNIC_KS_EV_END, &ks->flags)) {
		t->out->qp_state(t, IB_QPS_ERR);
		t->out->event(t, MADCM_CM_OFFLOAD_EV_CLOSED, 0);
	}
	/* our FIN acknowledged, the peer's still to come: bounded */
	if (READ_ONCE(sk->sk_state) == TCP_FIN_WAIT2 &&
	    !test_and_set_bit(MADCM_RNIC_KS_FIN_WAIT, &ks->flags)) {
		tmo = READ_ONCE(sock_net(sk)->ipv4.sysctl_tcp_fin_timeout);
		queue_delayed_work(system_wq, &ks->fin_wait, tmo);
	}
}

/*
 * FIN-WAIT-2 outlasted tcp_fin_timeout: the stream is reset (RST to the
 * peer, RESET to the CM), as the host ends an orphaned socket's wait.
 */
static void ks_fin_wait_timeout(struct work_struct *work)
{
	struct madcm_rnic_ks *ks = container_of(to_delayed_work(work),
						struct madcm_rnic_ks, fin_wait);
	struct madcm_rnic_stream *t = ks_tcp(ks);

	if (test_bit(MADCM_RNIC_KS_DETACHED, &ks->flags) ||
	    test_bit(MADCM_RNIC_KS_DEAD, &ks->flags) ||
	    test_bit(MADCM_RNIC_KS_EV_END, &ks->flags) ||
	    READ_ONCE(ks->sock->sk->sk_state) != TCP_FIN_WAIT2)
		return;
	madcm_rnic_count(ks_qp(t)->dev,
			 MADCM_RNIC_CNT_HOST_TCP_FIN_WAIT_TIMEOUT);
	ks_end(t, -ETIMEDOUT);
}

/* Reset the socket's connection (the CM asked, or the stream failed). */
static void ks_rst(struct madcm_rnic_ks *ks)
{
	struct sock *sk = ks->sock->sk;

	/* a hand-off that failed half-way leaves the socket in repair mode */
	ks_setint(ks->sock, TCP_REPAIR, TCP_REPAIR_OFF_NO_WP);
	lock_sock(sk);
	if (sk->sk_state != TCP_CLOSE)
		tcp_disconnect(sk, 0);
	release_sock(sk);
}

/*
 * A hand-off that made no socket: the peer's side is ESTABLISHED, and no
 * socket will answer it. The CM resets it (at SND.NXT, with an ACK of
 * RCV.NXT) on its own path, whose steering still holds the 4-tuple.
 */
static void ks_reset_peer(struct madcm_rnic_stream *t)
{
	if (!madcm_cm_offload_reset(&ks_qp(t)->oqp, t->snd_nxt,
				    t->ks.rcv_nxt))
		madcm_rnic_count(ks_qp(t)->dev, MADCM_RNIC_CNT_TX_FRAMES);
}

static void ks_work(struct work_struct *work)
{
	struct madcm_rnic_ks *ks = container_of(work, struct madcm_rnic_ks,
						work);
	struct madcm_rnic_stream *t = ks_tcp(ks);
	unsigned long flags;
	int ret;

	if (test_bit(MADCM_RNIC_KS_DETACHED, &ks->flags))
		return;
	if (test_bit(MADCM_RNIC_KS_HANDOFF, &ks->flags)) {
		bool handoff, dead;

		/* no pusher writes to a socket being loaded */
		mutex_lock(&ks->tx_mutex);
		/* the hand-off is ours, or the CM's RST took it (ks_close()) */
		spin_lock_irqsave(&ks->lock, flags);
		handoff = test_and_clear_bit(MADCM_RNIC_KS_HANDOFF, &ks->flags);
		dead = test_bit(MADCM_RNIC_KS_DEAD, &ks->flags);
		spin_unlock_irqrestore(&ks->lock, flags);
		ret = handoff && !dead ? ks_handoff(t) : 0;
		mutex_unlock(&ks->tx_mutex);
		if (handoff && dead) {
			/*
			 * The upper layer ended the stream before it had a
			 * socket: none is made for it, the CM resets the peer.
			 */
			kfree(ks->unacked);
			ks->unacked = NULL;
			ks_reset_peer(t);
		} else if (ret) {
			madcm_rnic_count(ks_qp(t)->dev,
					 MADCM_RNIC_CNT_HOST_TCP_FAIL);
			if (!ks->sock)
				ks_reset_peer(t);
			ks_end(t, ret);
		}
	}
	ks_report_end(t);
	if (!ks->sock)
		return;
	if (test_and_clear_bit(MADCM_RNIC_KS_RST_DUE, &ks->flags)) {
		ks_rst(ks);
		return;
	}
	if (!test_bit(MADCM_RNIC_KS_LIVE, &ks->flags) ||
	    test_bit(MADCM_RNIC_KS_DEAD, &ks->flags))
		return;
	mutex_lock(&ks->tx_mutex);
	ks_tx(t);
	mutex_unlock(&ks->tx_mutex);
	ks_events(t);
	ks_report_end(t);
}

/**
 * madcm_rnic_ks_init() - set up the host-socket side of a QP's stream
 * @t: the QP's stream, being initialized
 */
void madcm_rnic_ks_init(struct madcm_rnic_stream *t)
{
	struct madcm_rnic_ks *ks = &t->ks;

	INIT_WORK(&ks->work, ks_work);
	INIT_WORK(&ks->room_work, ks_room_work);
	INIT_DELAYED_WORK(&ks->fin_wait, ks_fin_wait_timeout);
	mutex_init(&ks->tx_mutex);
	spin_lock_init(&ks->lock);
	INIT_LIST_HEAD(&ks->txq);
	skb_queue_head_init(&ks->early);
}

/*
 * The CM hands the stream over: load it into a host socket. The upper
 * layer starts at once (its records wait in the queue); the socket is
 * loaded from the work. Only a backend that passes segments to the
 * host's stack can give the stream to a socket.
 */
static int ks_offload(struct madcm_rnic_stream *t,
		      const struct madcm_cm_offload_ctx *ctx)
{
	struct madcm_rnic_ks *ks = &t->ks;
	unsigned long flags;
	u8 *unacked = NULL;
	int ret;

	if (!madcm_cm_offload_can_host(&ks_qp(t)->oqp))
		return -EOPNOTSUPP;
	if (ctx->unacked_len) {
		unacked = kmemdup(ctx->unacked, ctx->unacked_len, GFP_ATOMIC);
		if (!unacked)
			return -ENOMEM;
	}
	ret = t->out->rx_start ? t->out->rx_start(t, ctx) : 0;
	if (!ret)
		ret = t->out->qp_state(t, IB_QPS_RTS);
	if (ret) {
		kfree(unacked);
		return ret;
	}

	spin_lock_bh(&t->rx_lock);
	madcm_rnic_stream_take(t, ctx);
	spin_lock_irqsave(&ks->lock, flags);
	ks->flags = BIT(MADCM_RNIC_KS_HANDOFF);
	ks->unacked = unacked;
	ks->unacked_len = ctx->unacked_len;
	ks->rcv_nxt = t->rcv_nxt;
	ks->tx_off = 0;
	ks->tx_mem = 0;
	ks->late = 0;
	ks->err = 0;
	ks->mss_cache = 0;
	spin_unlock_irqrestore(&ks->lock, flags);
	if (t->out->tx_start)
		t->out->tx_start(t, ctx);
	if (ctx->rcvd_len && t->out->rx_data)
		t->out->rx_data(t, ctx->rcvd, ctx->rcvd_len);
	spin_unlock_bh(&t->rx_lock);
	ks_kick(ks);
	return 0;
}

/*
 * A frame of the stream the CM still received: kept until the steering
 * entry is gone, then given to the host's stack, which takes it to the
 * socket. The CM's ->rx(): softirq or process context; must not sleep.
 */
static void ks_rx(struct madcm_rnic_stream *t, const u8 *frame, u32 len)
{
	struct madcm_rnic_ks *ks = &t->ks;
	struct madcm_rnic_dev *dev = ks_qp(t)->dev;
	enum madcm_rnic_counter drop = MADCM_RNIC_CNT_HOST_TCP_EARLY_DROP;
	struct sk_buff *skb;
	unsigned long flags;
	bool now = false;

	madcm_rnic_count(dev, MADCM_RNIC_CNT_RX_FRAMES);
	if (test_bit(MADCM_RNIC_KS_DEAD, &ks->flags))
		return;
	skb = ks_frame_skb(t, frame, len);
	if (!skb) {
		madcm_rnic_count(dev, MADCM_RNIC_CNT_HOST_TCP_EARLY_DROP);
		return;
	}
	spin_lock_irqsave(&ks->lock, flags);
	if (test_bit(MADCM_RNIC_KS_UNSTEERED, &ks->flags)) {
		drop = MADCM_RNIC_CNT_HOST_TCP_LATE_DROP;
		now = ks->late < MADCM_RNIC_KS_LATE_MAX;
		ks->late += now;
	} else if (skb_queue_len(&ks->early) < MADCM_RNIC_KS_EARLY_MAX) {
		__skb_queue_tail(&ks->early, skb);
		skb = NULL;
	}
	spin_unlock_irqrestore(&ks->lock, flags);
	if (now) {
		ks_reinject(t, skb, MADCM_RNIC_CNT_HOST_TCP_LATE);
	} else if (skb) {
		madcm_rnic_count(dev, drop);
		kfree_skb(skb);
	}
}

/* The CM closes (FIN) or aborts (RST) the stream; must not sleep. */
static void ks_close(struct madcm_rnic_stream *t,
		     enum madcm_cm_offload_close how)
{
	struct madcm_rnic_ks *ks = &t->ks;
	unsigned long flags;
	bool unloaded;

	if (how == MADCM_CM_OFFLOAD_CLOSE_RST) {
		/* the CM ended the connection: nothing more is reported */
		spin_lock_irqsave(&ks->lock, flags);
		set_bit(MADCM_RNIC_KS_EV_END, &ks->flags);
		set_bit(MADCM_RNIC_KS_DEAD, &ks->flags);
		set_bit(MADCM_RNIC_KS_RST_DUE, &ks->flags);
		unloaded = test_and_clear_bit(MADCM_RNIC_KS_HANDOFF, &ks->flags);
		spin_unlock_irqrestore(&ks->lock, flags);
		/*
		 * No socket was made, and none will be: the peer is reset
		 * here, on the CM's path (its steering still holds the
		 * stream). Left to the work, the RST would never leave if the
		 * CM's detach, which follows, cancelled it first.
		 */
		if (unloaded)
			ks_reset_peer(t);
	} else {
		ks_fin_due(ks);
	}
	ks_kick(ks);
}

/*
 * The CM is done with the QP, or the QP goes: the socket's callbacks go
 * back, the work stops, and the socket is released (a connection not
 * closed on both sides is reset). Process context.
 */
static void ks_detach(struct madcm_rnic_stream *t)
{
	struct madcm_rnic_ks *ks = &t->ks;
	struct madcm_rnic_ks_rec *r, *n;
	struct socket *sock;
	unsigned long flags;
	LIST_HEAD(txq);

	set_bit(MADCM_RNIC_KS_DETACHED, &ks->flags);
	sock = ks->sock;
	if (sock)
		madcm_rnic_ks_uninstall(t, sock->sk);
	/*
	 * Each may queue another: a FIN-WAIT-2 timeout that read the flags
	 * before DETACHED kicks work (so it goes first), room's last run
	 * may kick work too.
	 */
	cancel_delayed_work_sync(&ks->fin_wait);
	cancel_work_sync(&ks->room_work);
	cancel_work_sync(&ks->work);
	cancel_work_sync(&ks->room_work);
	/* a pusher that saw the stream before DETACHED is done with it */
	mutex_lock(&ks->tx_mutex);
	mutex_unlock(&ks->tx_mutex);
	/* armed by the work only, which is done; and it reads the socket */
	cancel_delayed_work_sync(&ks->fin_wait);
	/* a hand-off that never ran leaves its socket unmade */
	sock = ks->sock;
	ks->sock = NULL;
	if (sock) {
		madcm_rnic_ks_uninstall(t, sock->sk);
		madcm_rnic_count_add(ks_qp(t)->dev, MADCM_RNIC_CNT_RETRANSMITS,
				     READ_ONCE(tcp_sk(sock->sk)->total_retrans));
		ks_setint(sock, TCP_REPAIR, TCP_REPAIR_OFF_NO_WP);
		if (sock->sk->sk_state != TCP_CLOSE)
			sock_no_linger(sock->sk);
		sock_release(sock);
	}
	spin_lock_irqsave(&ks->lock, flags);
	list_splice_init(&ks->txq, &txq);
	ks->tx_mem = 0;
	ks->tx_off = 0;
	/* after DETACHED no builder allocates: see ks_build_buf() */
	if (ks->build)
		page_frag_free(ks->build);
	ks->build = NULL;
	ks->build_size = 0;
	spin_unlock_irqrestore(&ks->lock, flags);
	list_for_each_entry_safe(r, n, &txq, list)
		ks_rec_free(r);
	/* the pages TCP still holds stay until its skbs go */
	madcm_page_frag_cache_drain(&ks->frags);
	if (ks->glue.page)
		put_page(ks->glue.page);
	ks->glue.page = NULL;
	skb_queue_purge(&ks->early);
	kfree(ks->unacked);
	ks->unacked = NULL;
	/*
	 * Every state bit goes but DETACHED: a sender that found the stream
	 * carried just before madcm_rnic_stream_detach() marked it not is
	 * refused (ks_queue_check()), as nothing would send its record. The
	 * next hand-off sets the bits anew (ks_offload()).
	 */
	spin_lock_irqsave(&ks->lock, flags);
	ks->flags = BIT(MADCM_RNIC_KS_DETACHED);
	spin_unlock_irqrestore(&ks->lock, flags);
}

/*
 * Whether the queue takes a record of @charge octets now: the checks of
 * ks_send(), @ks->lock held. -EAGAIN asks for tx_room.
 */
static int ks_queue_check(struct madcm_rnic_stream *t, u32 len, u32 charge)
{
	struct madcm_rnic_ks *ks = &t->ks;

	lockdep_assert_held(&ks->lock);
	if (ks->flags & (BIT(MADCM_RNIC_KS_DEAD) | BIT(MADCM_RNIC_KS_DETACHED) |
			 BIT(MADCM_RNIC_KS_FIN_DUE)))
		return -ENOTCONN;
	if (len > READ_ONCE(t->mss))
		return -EINVAL;
	/* what is queued or in the open run: one record always goes */
	if (ks->tx_mem && ks->tx_mem + charge > MADCM_RNIC_KS_TXQ_MAX) {
		set_bit(MADCM_RNIC_KS_ROOM, &ks->flags);
		return -EAGAIN;
	}
	return 0;
}

/* One record for the socket, copied: any context. */
static int ks_send(struct madcm_rnic_stream *t, const struct kvec *vec,
		   unsigned int nvec, u32 len)
{
	struct madcm_rnic_ks *ks = &t->ks;
	struct madcm_rnic_ks_rec *r;
	u32 charge = ks_charge(len), off = 0;
	unsigned long flags;
	bool kick = false;
	unsigned int i;
	int ret = 0;

	if (!len || len > U16_MAX)
		return -EINVAL;
	r = kmalloc(charge, GFP_ATOMIC);
	if (!r)
		return -ENOMEM;
	for (i = 0; i < nvec && off < len; i++) {
		u32 n = min_t(size_t, vec[i].iov_len, len - off);

		memcpy(r->data + off, vec[i].iov_base, n);
		off += n;
	}
	if (off != len) {
		kfree(r);
		return -EINVAL;
	}
	r->len = len;
	r->kind = MADCM_RNIC_KS_REC_COPY;
	r->zc = NULL;
	r->fpdus = 1;

	spin_lock_irqsave(&ks->lock, flags);
	ret = ks_queue_check(t, len, charge);
	if (!ret) {
		/* after the FPDUs built before it */
		kick = ks_queue_run(ks);
		kick |= list_empty(&ks->txq);
		ks->tx_mem += charge;
		list_add_tail(&r->list, &ks->txq);
		r = NULL;
	}
	spin_unlock_irqrestore(&ks->lock, flags);
	kfree(r);
	if (kick)
		ks_kick(ks);
	return ret;
}

/*
 * Where the send side may build its next FPDU in place: behind the FPDUs
 * of the open run, a record in a page of the QP's fragment cache that
 * the socket takes by reference once it is queued. The FPDU's bytes, its
 * CRC computed over them, are the bytes TCP sends and resends, and
 * nothing writes them again while TCP holds the page. A run that has no
 * room for @size octets more is queued, and a new one opened: room for
 * rnic_tx_run_max octets (at most MADCM_RNIC_KS_RUN_MAX, at least
 * @size), or for @size only when the cache has no page that large. The
 * same place comes back until an FPDU is taken there. NULL: the stream
 * is not on its socket yet, or is ending, or no page (the caller builds
 * elsewhere and sends a copy). The QP's lock is held: one builder at a
 * time.
 */
static u8 *ks_build_buf(struct madcm_rnic_stream *t, u32 size)
{
	struct madcm_rnic_ks *ks = &t->ks;
	struct madcm_rnic_ks_rec *r;
	unsigned long flags;
	bool kick = false;
	u8 *at = NULL;
	u32 room;

	spin_lock_irqsave(&ks->lock, flags);
	if (!test_bit(MADCM_RNIC_KS_LIVE, &ks->flags) ||
	    (ks->flags & (BIT(MADCM_RNIC_KS_DEAD) |
			  BIT(MADCM_RNIC_KS_DETACHED) |
			  BIT(MADCM_RNIC_KS_FIN_DUE))))
		goto out;
	r = ks->build;
	if (r && ks->build_size - r->len >= size) {
		at = r->data + r->len;
		goto out;
	}
	kick = ks_queue_run(ks);
	if (ks->build)
		page_frag_free(ks->build);
	ks->build = NULL;
	ks->build_size = 0;
	/* 8-octet sizes keep every record of a page aligned */
	room = min_t(u32, READ_ONCE(madcm_rnic_tx_run_max),
		     MADCM_RNIC_KS_RUN_MAX);
	room = max(room, size);
	r = page_frag_alloc(&ks->frags, ALIGN(sizeof(*r) + room, 8),
			    GFP_ATOMIC | __GFP_NOWARN);
	if (!r && room > size) {
		room = size;
		r = page_frag_alloc(&ks->frags, ALIGN(sizeof(*r) + room, 8),
				    GFP_ATOMIC | __GFP_NOWARN);
	}
	if (r) {
		r->kind = MADCM_RNIC_KS_REC_FRAG;
		r->zc = NULL;
		r->len = 0;
		r->fpdus = 0;
		ks->build = r;
		ks->build_size = room;
		at = r->data;
	}
out:
	spin_unlock_irqrestore(&ks->lock, flags);
	if (kick)
		ks_kick(ks);
	return at;
}

/*
 * The FPDU built at @buf, the place ks_build_buf() gave, joins the open
 * run, without a copy; the run is queued when full or flushed. On an
 * error the place stays the builder's, and comes back from the next
 * ks_build_buf().
 */
static int ks_send_built(struct madcm_rnic_stream *t, u8 *buf, u32 len)
{
	struct madcm_rnic_ks *ks = &t->ks;
	struct madcm_rnic_ks_rec *r;
	unsigned long flags;
	u32 charge;
	int ret;

	spin_lock_irqsave(&ks->lock, flags);
	r = ks->build;
	if (!r || buf != r->data + r->len || !len ||
	    len > ks->build_size - r->len) {
		ret = -EINVAL;
	} else {
		/* the run's head is charged with its first FPDU */
		charge = r->len ? len : ks_charge(len);
		ret = ks_queue_check(t, len, charge);
	}
	if (!ret) {
		r->len += len;
		r->fpdus++;
		ks->tx_mem += charge;
	}
	spin_unlock_irqrestore(&ks->lock, flags);
	return ret;
}

/*
 * The open run, if any, to the socket: the send side paused. With
 * @push, the caller pushes next (ks_push()): the work is not woken.
 */
static void ks_flush(struct madcm_rnic_stream *t, bool push)
{
	struct madcm_rnic_ks *ks = &t->ks;
	unsigned long flags;
	bool kick;

	spin_lock_irqsave(&ks->lock, flags);
	kick = ks_queue_run(ks);
	spin_unlock_irqrestore(&ks->lock, flags);
	if (kick && !push)
		ks_kick(ks);
}

/*
 * A user QP's doorbell, in its process, after ks_flush() with push: the
 * records queued go to the socket from here, as siw writes a user QP's
 * send queue in the system call, without a worker's wake-up on the way
 * of every Send. Where the work is writing (or loading the socket), or
 * the socket is not loaded yet, the work does it: it is kicked, and
 * finds the records (a record queued behind others kicks nothing, so
 * the records of a flush without its kick are always someone's).
 */
static void ks_push(struct madcm_rnic_stream *t)
{
	struct madcm_rnic_ks *ks = &t->ks;
	bool written = false;

	if (mutex_trylock(&ks->tx_mutex)) {
		/*
		 * Loaded, out of repair, the CM's steering gone (a hand-off
		 * that failed half-way may leave LIVE set until DEAD is).
		 */
		if ((READ_ONCE(ks->flags) & (BIT(MADCM_RNIC_KS_LIVE) |
					     BIT(MADCM_RNIC_KS_UNSTEERED) |
					     BIT(MADCM_RNIC_KS_DEAD) |
					     BIT(MADCM_RNIC_KS_DETACHED))) ==
		    (BIT(MADCM_RNIC_KS_LIVE) | BIT(MADCM_RNIC_KS_UNSTEERED))) {
			ks_tx(t);
			written = true;
		}
		mutex_unlock(&ks->tx_mutex);
	}
	if (!written)
		ks_kick(ks);
}

/*
 * Queue an FPDU whose payload stays in its pages (rnic/zc.h): its header
 * and trailer copied into @ks->glue, behind the last record's, its
 * pieces' page references and a reference to its ticket taken over; the
 * record itself (the pieces' list) in a page of the fragment cache. The
 * QP's lock is held (one builder at a time).
 */
static int ks_send_zc(struct madcm_rnic_stream *t, struct madcm_rnic_zc_fpdu *f)
{
	struct madcm_rnic_ks *ks = &t->ks;
	u32 charge = ks_charge(f->len), glue = f->head_len + f->tail_len;
	struct madcm_rnic_ks_rec *r = NULL;
	unsigned long flags;
	bool kick = false;
	u8 *at;
	int ret;

	if (f->len > U16_MAX)
		return -EINVAL;
	spin_lock_irqsave(&ks->lock, flags);
	ret = ks_queue_check(t, f->len, charge);
	if (!ret && !test_bit(MADCM_RNIC_KS_LIVE, &ks->flags))
		ret = -ENOTCONN;
	if (!ret)
		r = page_frag_alloc(&ks->frags,
				    ALIGN(sizeof(*r) + f->nbv * sizeof(*r->bv),
					  8), GFP_ATOMIC | __GFP_NOWARN);
	if (!ret && (!r || !skb_page_frag_refill(glue, &ks->glue, GFP_ATOMIC)))
		ret = -ENOMEM;
	if (ret) {
		spin_unlock_irqrestore(&ks->lock, flags);
		if (r)
			page_frag_free(r);
		return ret;
	}
	r->len = f->len;
	r->kind = MADCM_RNIC_KS_REC_ZC;
	r->fpdus = 1;
	r->nbv = f->nbv;
	r->head_len = f->head_len;
	r->tail_len = f->tail_len;
	r->glue = ks->glue.page;
	r->glue_off = ks->glue.offset;
	get_page(r->glue);
	at = page_address(r->glue) + r->glue_off;
	memcpy(at, f->head, f->head_len);
	memcpy(at + f->head_len, f->tail, f->tail_len);
	ks->glue.offset += glue;
	r->bv = (struct bio_vec *)(r + 1);
	memcpy(r->bv, f->bv, f->nbv * sizeof(*r->bv));
	f->nbv = 0;
	madcm_rnic_zc_get(f->zc);
	r->zc = f->zc;
	/* after the FPDUs built before it */
	kick = ks_queue_run(ks);
	kick |= list_empty(&ks->txq);
	ks->tx_mem += charge;
	list_add_tail(&r->list, &ks->txq);
	spin_unlock_irqrestore(&ks->lock, flags);
	if (kick)
		ks_kick(ks);
	return 0;
}

/*
 * The largest record the socket's stream takes: the MSS of the hand-off,
 * or the socket's own when smaller (RFC 5044 5.2 sizes an FPDU to one
 * segment).
 */
static u32 ks_max_record(struct madcm_rnic_stream *t)
{
	u32 cur = READ_ONCE(t->ks.mss_cache), mss = READ_ONCE(t->mss);

	/* the socket's, as the work last saw it: never the socket itself */
	if (cur >= MADCM_RNIC_STREAM_MSS_FLOOR && cur < mss)
		mss = cur;
	return mss;
}

/* What the queue takes now; U32_MAX when it is empty (one record always). */
static u32 ks_send_room(struct madcm_rnic_stream *t)
{
	struct madcm_rnic_ks *ks = &t->ks;
	unsigned long flags;
	u32 room = 0;

	spin_lock_irqsave(&ks->lock, flags);
	/* what is queued or in the open run (which the flush queues) */
	if (!ks->tx_mem)
		room = U32_MAX;
	else if (ks->tx_mem + ks_charge(0) < MADCM_RNIC_KS_TXQ_MAX)
		room = MADCM_RNIC_KS_TXQ_MAX - ks->tx_mem - ks_charge(0);
	/* whoever asks may wait: tell it when records leave */
	if (ks->tx_mem)
		set_bit(MADCM_RNIC_KS_ROOM, &ks->flags);
	spin_unlock_irqrestore(&ks->lock, flags);
	return room;
}

/* FIN once the queue is written. */
static void ks_close_after_queue(struct madcm_rnic_stream *t)
{
	ks_fin_due(&t->ks);
	ks_kick(&t->ks);
}

/* Reset the stream now: any context, the upper layer's rx_data included. */
static void ks_abort(struct madcm_rnic_stream *t, int status)
{
	if (test_bit(MADCM_RNIC_KS_DETACHED, &t->ks.flags))
		return;
	ks_end(t, status ?: -ECONNABORTED);
}

const struct madcm_rnic_stream_ops madcm_rnic_ks_ops = {
	.offload = ks_offload,
	.rx = ks_rx,
	.close = ks_close,
	.detach = ks_detach,
	.send = ks_send,
	.build_buf = ks_build_buf,
	.send_built = ks_send_built,
	.flush = ks_flush,
	.push = ks_push,
	.send_zc = ks_send_zc,
	.max_record = ks_max_record,
	.send_room = ks_send_room,
	.close_after_queue = ks_close_after_queue,
	.abort = ks_abort,
};
