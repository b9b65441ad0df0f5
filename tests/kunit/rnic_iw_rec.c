// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: a recording iw_cm_id (tests/kunit/rnic_iw_rec.h).
 */
#include <linux/in.h>
#include <linux/in6.h>
#include <net/ipv6.h>
#include "tests/kunit/rnic_iw_rec.h"

static int iw_rec_event(struct iw_cm_id *id, struct iw_cm_event *ev)
{
	struct iw_rec *r = container_of(id, struct iw_rec, id);
	unsigned long flags;
	int i;

	spin_lock_irqsave(&r->lock, flags);
	if (r->nev < IW_MAX_EV) {
		i = r->nev++;
		r->ev[i] = ev->event;
		r->status[i] = ev->status;
		r->provider_data[i] = ev->provider_data;
		r->pdata_len[i] = min_t(u8, ev->private_data_len, IW_PDATA);
		if (r->pdata_len[i])
			memcpy(r->pdata[i], ev->private_data, r->pdata_len[i]);
		r->ird[i] = ev->ird;
		r->ord[i] = ev->ord;
		r->local[i] = ev->local_addr;
		r->remote[i] = ev->remote_addr;
	}
	spin_unlock_irqrestore(&r->lock, flags);
	wake_up(&r->wq);
	return 0;
}

static void iw_rec_add_ref(struct iw_cm_id *id)
{
	atomic_inc(&container_of(id, struct iw_rec, id)->refs);
}

static void iw_rec_rem_ref(struct iw_cm_id *id)
{
	atomic_dec(&container_of(id, struct iw_rec, id)->refs);
}

/* A cm_id of @ibdev that records its events; freed with the test. */
struct iw_rec *iw_rec_new(struct kunit *test, struct ib_device *ibdev)
{
	struct iw_rec *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	spin_lock_init(&r->lock);
	init_waitqueue_head(&r->wq);
	r->id.device = ibdev;
	r->id.event_handler = iw_rec_event;
	r->id.add_ref = iw_rec_add_ref;
	r->id.rem_ref = iw_rec_rem_ref;
	return r;
}

/* Until @r has recorded @n events, IW_WAIT at most. */
bool iw_wait(struct iw_rec *r, int n)
{
	return wait_event_timeout(r->wq, READ_ONCE(r->nev) >= n, IW_WAIT) > 0;
}

/* @ip (IPv4-mapped for IPv4) and @port as a socket address. */
void iw_sin(struct sockaddr_storage *ss, const struct in6_addr *ip, u16 port)
{
	memset(ss, 0, sizeof(*ss));
	if (ipv6_addr_v4mapped(ip)) {
		struct sockaddr_in *s = (struct sockaddr_in *)ss;

		s->sin_family = AF_INET;
		s->sin_addr.s_addr = ip->s6_addr32[3];
		s->sin_port = htons(port);
	} else {
		struct sockaddr_in6 *s = (struct sockaddr_in6 *)ss;

		s->sin6_family = AF_INET6;
		s->sin6_addr = *ip;
		s->sin6_port = htons(port);
	}
}
