// SPDX-License-Identifier: GPL-2.0-only
/*
 * The memory a connection needs only while it is being set up: the MPA
 * frame we send, the reassembly of the peer's frame (RFC 5044 7.1: a
 * header and at most 512 octets of private data; RFC 6581's RTR FPDU
 * after it), and the setup's event slots. An idle established
 * connection holds none of it: the node alone.
 */
#include <linux/slab.h>
#include "irdma_cm/cm_core.h"
#include "irdma_cm/tcp_seq.h"

/**
 * irdma_cm_setup_alloc() - the setup context of a new node
 * @node: the node, being made
 * @gfp: allocation flags
 *
 * Return: 0 or -ENOMEM.
 */
int irdma_cm_setup_alloc(struct irdma_cm_node *node, gfp_t gfp)
{
	node->setup = kzalloc(sizeof(*node->setup), gfp);
	if (!node->setup)
		return -ENOMEM;
	atomic_inc(&node->core->setup_bufs);
	return 0;
}

static void irdma_cm_buf_free(struct irdma_cm_node *node, void *buf)
{
	if (!buf)
		return;
	kfree(buf);
	atomic_dec(&node->core->setup_bufs);
}

/**
 * irdma_cm_setup_free() - the setup is over: free what only it needed
 * @node: the node, locked or no longer reachable
 *
 * Frees the setup context with the peer's frame; the received private
 * data goes with it. The MPA frame we sent stays until acknowledged
 * (irdma_cm_tx_done()).
 */
void irdma_cm_setup_free(struct irdma_cm_node *node)
{
	struct irdma_cm_setup *setup = node->setup;

	if (!setup)
		return;
	node->rcvd_pdata = NULL;
	node->rcvd_pdata_len = 0;
	irdma_cm_buf_free(node, setup->rx_frame);
	node->setup = NULL;
	irdma_cm_buf_free(node, setup);
}

/* Allocate or grow one of the node's buffers (atomic context). */
static void *irdma_cm_buf_grow(struct irdma_cm_node *node, void *old,
			       size_t size)
{
	void *buf = krealloc(old, size, GFP_ATOMIC);

	if (!buf) {
		irdma_cm_count(node->core, IRDMA_CM_CNT_NOMEM);
		return NULL;
	}
	if (!old)
		atomic_inc(&node->core->setup_bufs);
	return buf;
}

/**
 * irdma_cm_tx_alloc() - a buffer for the MPA frame we send
 * @node: the node, locked
 * @pdata_len: the private data the frame carries
 *
 * Room for the header of either revision, @pdata_len octets and, for a
 * peer-to-peer initiator, the RTR FPDU that follows the frame.
 *
 * Return: 0 or -ENOMEM.
 */
int irdma_cm_tx_alloc(struct irdma_cm_node *node, u16 pdata_len)
{
	u32 size = sizeof(struct ietf_mpa_v2) + pdata_len;
	u8 *buf;

	if (node->role == IRDMA_CM_ROLE_INITIATOR &&
	    (node->mpa_opts & IRDMA_MPA_OPT_P2P))
		size += IRDMA_RTR_MAX_FPDU;
	buf = irdma_cm_buf_grow(node, node->tx_buf, size);
	if (!buf)
		return -ENOMEM;
	node->tx_buf = buf;
	node->tx_size = size;
	return 0;
}

/**
 * irdma_cm_tx_done() - free the frame we sent once nothing needs it
 * @node: the node, locked
 *
 * Once the exchange is over nothing is added to the CM data; once the
 * peer acknowledged all of it, nothing is sent again.
 */
void irdma_cm_tx_done(struct irdma_cm_node *node)
{
	if (!node->tx_buf || node->mpa_result == IRDMA_MPA_PENDING ||
	    !test_bit(IRDMA_CM_F_TX_QUEUED, &node->flags) ||
	    irdma_seq_lt(node->snd_una, node->tx_seq + node->tx_len))
		return;
	irdma_cm_tx_free(node);
}

/**
 * irdma_cm_tx_free() - free the frame we sent
 * @node: the node, locked, its CM data handed over or not to be sent
 *	again
 */
void irdma_cm_tx_free(struct irdma_cm_node *node)
{
	irdma_cm_buf_free(node, node->tx_buf);
	node->tx_buf = NULL;
	node->tx_size = 0;
	node->pdata.addr = NULL;
}

/**
 * irdma_cm_rx_room() - room for @len more octets of the peer's frame
 * @node: the node, locked, reassembling the peer's MPA frame or RTR FPDU
 * @len: octets about to be added at @node->rx_buf + @node->rx_len
 *
 * The buffer is allocated with the first octets and grown to what the
 * frame's header announces, so it is never larger than the frame.
 *
 * Return: true, or false (counted) when the octets cannot be kept: the
 * caller drops them unacknowledged, and the peer sends them again.
 */
bool irdma_cm_rx_room(struct irdma_cm_node *node, u32 len)
{
	u32 need = node->rx_len + len;
	u8 *buf;

	if (need <= node->rx_size)
		return true;
#ifdef MADCM_FAULT_INJECTION
	/* KUnit's hook: the core's next @fail_rx allocations fail. */
	if (atomic_add_unless(&node->core->fail_rx, -1, 0)) {
		irdma_cm_count(node->core, IRDMA_CM_CNT_NOMEM);
		return false;
	}
#endif
	buf = irdma_cm_buf_grow(node, node->rx_buf, need);
	if (!buf)
		return false;
	node->rx_buf = buf;
	node->rx_size = need;
	return true;
}

/**
 * irdma_cm_rx_free() - free the reassembly buffer
 * @node: the node, locked
 */
void irdma_cm_rx_free(struct irdma_cm_node *node)
{
	irdma_cm_buf_free(node, node->rx_buf);
	node->rx_buf = NULL;
	node->rx_size = 0;
	node->rx_len = 0;
}

/**
 * irdma_cm_rx_keep() - the peer's frame is complete: keep it
 * @node: the node, locked
 *
 * The frame moves to the setup context, where the received private data
 * stays readable until the setup is over; the next frame (a peer-to-peer
 * responder's RTR FPDU) starts a buffer of its own.
 */
void irdma_cm_rx_keep(struct irdma_cm_node *node)
{
	if (node->setup && !node->setup->rx_frame) {
		node->setup->rx_frame = node->rx_buf;
		node->rx_buf = NULL;
		node->rx_size = 0;
		node->rx_len = 0;
		return;
	}
	irdma_cm_rx_free(node);
}

/**
 * irdma_cm_node_free_bufs() - free every buffer of a node being freed
 * @node: the node, unreachable
 */
void irdma_cm_node_free_bufs(struct irdma_cm_node *node)
{
	irdma_cm_tx_free(node);
	irdma_cm_rx_free(node);
	irdma_cm_setup_free(node);
}

/**
 * irdma_cm_node_mem() - the memory a connection holds
 * @node: the node, locked
 *
 * What the allocator gave for the node and each buffer it holds (their
 * slab object sizes, not the sizes asked for).
 *
 * Return: the number of octets.
 */
size_t irdma_cm_node_mem(const struct irdma_cm_node *node)
{
	size_t n = ksize(node);

	if (node->setup)
		n += ksize(node->setup) + ksize(node->setup->rx_frame);
	return n + ksize(node->tx_buf) + ksize(node->rx_buf);
}
