/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What differs between the kernel lines madcm builds on: the socket and
 * page calls of the RNIC's transmit (rnic/qp_sock.c). As in
 * madcm_compat.h, each difference is probed in the target kernel's
 * headers by Kbuild (MADCM_HAVE_*), never by version number.
 */
#ifndef _MADCM_COMPAT_NET_H
#define _MADCM_COMPAT_NET_H

#include <linux/bvec.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/net.h>
#include <linux/socket.h>
#include <linux/uio.h>
#include <net/tcp.h>

/*
 * madcm_page_frag_cache_drain() gives a page_frag_cache's page back (its
 * fragments still in use keep it): page_frag_cache_drain() since 6.12,
 * by hand before (Kbuild defines MADCM_HAVE_PAGE_FRAG_CACHE_DRAIN).
 */
static inline void madcm_page_frag_cache_drain(struct page_frag_cache *nc)
{
#ifdef MADCM_HAVE_PAGE_FRAG_CACHE_DRAIN
	page_frag_cache_drain(nc);
#else
	if (nc->va)
		__page_frag_cache_drain(virt_to_head_page(nc->va),
					nc->pagecnt_bias);
	nc->va = NULL;
#endif
}

/*
 * madcm_tcp_send_ack() sends an ACK of RCV.NXT now, from a socket whose
 * lock the caller owns: __tcp_send_ack() takes the segment's flags
 * since 6.10 (Kbuild defines MADCM_HAVE_TCP_SEND_ACK_FLAGS).
 */
static inline void madcm_tcp_send_ack(struct sock *sk)
{
#ifdef MADCM_HAVE_TCP_SEND_ACK_FLAGS
	__tcp_send_ack(sk, tcp_sk(sk)->rcv_nxt, 0);
#else
	__tcp_send_ack(sk, tcp_sk(sk)->rcv_nxt);
#endif
}

/*
 * madcm_sock_send_pages() - give a TCP socket @n pieces of pages by
 *	reference, @len octets in all, without copying them
 * @sock: the socket
 * @bv: the pieces (each of a page that sendpage_ok() takes)
 * @n: how many
 * @len: their octets
 * @flags: MSG_* (MSG_DONTWAIT, MSG_MORE for what follows the last)
 *
 * Up to 6.4, kernel_sendpage() a piece, with MSG_MORE and
 * MSG_SENDPAGE_NOTLAST on all but the last, as splice does (Kbuild
 * defines MADCM_HAVE_PROTO_OPS_SENDPAGE); since 6.5, one
 * sendmsg() with MSG_SPLICE_PAGES. The socket holds a reference to each
 * page it took until its skbs are freed (after their ACK).
 *
 * Context: process context.
 * Return: the octets taken (fewer than @len when the socket filled), or
 * a negative errno when it took none.
 */
static inline int madcm_sock_send_pages(struct socket *sock,
					struct bio_vec *bv, unsigned int n,
					size_t len, int flags)
{
#ifndef MADCM_HAVE_PROTO_OPS_SENDPAGE
	struct msghdr msg = { .msg_flags = flags | MSG_SPLICE_PAGES };

	iov_iter_bvec(&msg.msg_iter, ITER_SOURCE, bv, n, len);
	return sock_sendmsg(sock, &msg);
#else
	unsigned int i;
	int done = 0, ret = 0;

	for (i = 0; i < n; i++) {
		/*
		 * NOTLAST: no push after a piece that is not the last, so
		 * that TCP fills its skb with the pieces before it sends
		 * (a push would send each MSS-sized piece alone).
		 */
		ret = kernel_sendpage(sock, bv[i].bv_page, bv[i].bv_offset,
				      bv[i].bv_len, flags | (i + 1 < n ?
				      MSG_MORE | MSG_SENDPAGE_NOTLAST : 0));
		if (ret <= 0)
			break;
		done += ret;
		if (ret < bv[i].bv_len)
			break;
	}
	return done ?: ret;
#endif
}

/*
 * madcm_sock_send_zc() - give a TCP socket @n pieces of pages by
 *	reference, with a zero-copy ticket
 * @sock: the socket
 * @bv: the pieces (each of a page that sendpage_ok() takes)
 * @n: how many
 * @len: their octets
 * @flags: MSG_* (MSG_DONTWAIT, MSG_MORE)
 * @ubuf: the ticket: each skb that takes one of the pages references it,
 *	and its callback runs as each lets go (the caller holds a reference
 *	across the call)
 *
 * MSG_ZEROCOPY with msghdr.msg_ubuf, as io_uring's zero-copy send does
 * (since 6.0): TCP takes a page reference per piece and ties each skb to
 * @ubuf; on a route without scatter-gather it copies, and @ubuf is
 * released with the call.
 *
 * Context: process context.
 * Return: as madcm_sock_send_pages().
 */
static inline int madcm_sock_send_zc(struct socket *sock, struct bio_vec *bv,
				     unsigned int n, size_t len, int flags,
				     struct ubuf_info *ubuf)
{
	struct msghdr msg = {
		.msg_flags = flags | MSG_ZEROCOPY,
		.msg_ubuf = ubuf,
	};

	iov_iter_bvec(&msg.msg_iter, ITER_SOURCE, bv, n, len);
	return sock_sendmsg(sock, &msg);
}

#endif /* _MADCM_COMPAT_NET_H */
