// SPDX-License-Identifier: GPL-2.0-only
/*
 * madcm's software RNIC: memory regions.
 *
 * A DMA MR (all of memory; ib_alloc_pd() makes one for each kernel PD) and
 * fast-registration MRs (alloc_mr, map_mr_sg). An MR's STag is both its
 * lkey and its rkey: a 24-bit index into the device's MR table and an
 * 8-bit key, both drawn at random when the MR is made (a peer must not
 * predict STags, RFC 5042 5.1.2); a fast-registration MR's key is the
 * consumer's from its first REG_MR on. A fast-registration STag starts
 * invalid; the REG_MR work request makes it valid with the request's key
 * and access rights, LOCAL_INV makes it invalid again (RFC 5040 "STag";
 * the send queue in verbs.c runs both in order with the QP's other work).
 * A user MR (reg_user_mr) pins the process's pages (ib_umem_get()); the
 * data path reaches them page by page, only inside the MR, only with
 * its rights, and never after dereg_mr took the STag out of the table.
 * Neither a DMA MR nor a user MR can be invalidated (only STags of
 * fast-registration MRs, RFC 5040 6.10; IBTA vol. 1 10.6.5).
 */
#include <linux/bvec.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/net.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_verbs.h>
#include "rnic/rnic.h"

/*
 * STags a peer cannot predict (RFC 5042 5.1.2): a peer that shares the
 * PD, or one that saw an earlier STag, must not guess a live one. The
 * index is drawn at random from the 24-bit space and the first free one
 * from there taken (with at most MADCM_RNIC_MAX_MR of 2^24 in use, that
 * is the draw itself almost always); the key byte is drawn too, for
 * every MR. A fast-registration MR's key is the consumer's from its
 * first REG_MR on (ib_update_fast_reg_key(), the work request's key).
 */
static int madcm_rnic_mr_insert(struct madcm_rnic_dev *dev,
				struct madcm_rnic_mr *mr)
{
	u32 from = get_random_u32() & MADCM_RNIC_ID_MAX;
	int ret;

	ret = xa_alloc_cyclic_irq(&dev->mrs, &mr->index, mr,
				  XA_LIMIT(1, MADCM_RNIC_ID_MAX), &from,
				  GFP_KERNEL);
	return ret < 0 ? ret : 0;
}

static u32 madcm_rnic_mr_key(void)
{
	return get_random_u32() & 0xff;
}

/* A new MR; @udata: a process's (charged to its share and memcg). */
static struct madcm_rnic_mr *madcm_rnic_mr_new(struct ib_pd *pd, u32 max_pages,
					       struct ib_udata *udata)
{
	struct madcm_rnic_dev *dev = to_madcm_rnic(pd->device);
	struct madcm_rnic_ucontext *uctx;
	struct madcm_rnic_mr *mr;
	int ret;

	ret = madcm_rnic_user_charge(dev, udata, MADCM_RNIC_RES_MR, &uctx);
	if (ret)
		return ERR_PTR(ret);
	ret = -ENOMEM;
	if (atomic_inc_return(&dev->n_mr) > MADCM_RNIC_MAX_MR)
		goto err_count;
	mr = kzalloc(sizeof(*mr), madcm_rnic_gfp(uctx));
	if (!mr)
		goto err_count;
	mr->uctx = uctx;
	if (max_pages) {
		mr->pages = kcalloc(max_pages, sizeof(*mr->pages), GFP_KERNEL);
		if (!mr->pages)
			goto err_free;
		mr->max_pages = max_pages;
	}
	ret = madcm_rnic_mr_insert(dev, mr);
	if (ret)
		goto err_free;
	mr->ibmr.lkey = (mr->index << 8) | madcm_rnic_mr_key();
	mr->ibmr.rkey = mr->ibmr.lkey;
	return mr;

err_free:
	kfree(mr->pages);
	kfree(mr);
err_count:
	atomic_dec(&dev->n_mr);
	madcm_rnic_user_uncharge(dev, uctx, MADCM_RNIC_RES_MR);
	return ERR_PTR(ret);
}

static struct ib_mr *madcm_rnic_get_dma_mr(struct ib_pd *pd, int access)
{
	struct madcm_rnic_mr *mr;

	if (access & ~MADCM_RNIC_ACCESS)
		return ERR_PTR(-EOPNOTSUPP);
	mr = madcm_rnic_mr_new(pd, 0, NULL);
	if (IS_ERR(mr))
		return ERR_CAST(mr);
	mr->dma = true;
	mr->valid = true;
	mr->access = access;
	return &mr->ibmr;
}

static struct ib_mr *madcm_rnic_alloc_mr(struct ib_pd *pd,
					 enum ib_mr_type type, u32 max_num_sg)
{
	struct madcm_rnic_mr *mr;

	if (type != IB_MR_TYPE_MEM_REG)
		return ERR_PTR(-EOPNOTSUPP);
	if (!max_num_sg || max_num_sg > MADCM_RNIC_MAX_FR_PAGES)
		return ERR_PTR(-EINVAL);
	mr = madcm_rnic_mr_new(pd, max_num_sg, NULL);
	if (IS_ERR(mr))
		return ERR_CAST(mr);
	return &mr->ibmr;
}

static int madcm_rnic_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata);

/* The pinned pages of @umem, in order; its first @npages. */
static int madcm_rnic_umem_pages(struct ib_umem *umem, struct page **pages,
				 u32 npages)
{
	struct sg_page_iter it;
	u32 n = 0;

	for_each_sgtable_page(&umem->sgt_append.sgt, &it, 0) {
		if (n == npages)
			break;
		pages[n++] = sg_page_iter_page(&it);
	}
	return n == npages ? 0 : -EFAULT;
}

static struct ib_mr *madcm_rnic_reg_user_mr(struct ib_pd *pd, u64 start,
					    u64 length, u64 virt, int access,
					    struct ib_udata *udata)
{
	struct madcm_rnic_dev *dev = to_madcm_rnic(pd->device);
	struct siw_uresp_reg_mr resp = {};
	struct madcm_rnic_mr *mr;
	struct ib_umem *umem;
	unsigned long flags;
	u64 npages;
	int ret;

	/* optional rights may be ignored; the others must be ours */
	access &= ~IB_ACCESS_OPTIONAL;
	if (access & ~MADCM_RNIC_ACCESS)
		return ERR_PTR(-EOPNOTSUPP);
	if (!length || length > MADCM_RNIC_MAX_MR_SIZE ||
	    virt > U64_MAX - length || start > U64_MAX - length)
		return ERR_PTR(-EINVAL);
	npages = DIV_ROUND_UP((start & ~PAGE_MASK) + length, PAGE_SIZE);
	if (npages > U32_MAX)
		return ERR_PTR(-EINVAL);
	umem = ib_umem_get(pd->device, start, length, access);
	if (IS_ERR(umem))
		return ERR_CAST(umem);
	mr = madcm_rnic_mr_new(pd, 0, udata);
	if (IS_ERR(mr)) {
		ret = PTR_ERR(mr);
		goto err_umem;
	}
	ret = -ENOMEM;
	mr->upages = kvmalloc_array(npages, sizeof(*mr->upages),
				    madcm_rnic_gfp(mr->uctx));
	if (!mr->upages)
		goto err_mr;
	ret = madcm_rnic_umem_pages(umem, mr->upages, npages);
	if (ret)
		goto err_mr;
	mr->umem = umem;
	mr->uoff = start & ~PAGE_MASK;
	mr->ibmr.iova = virt;
	mr->ibmr.length = length;
	mr->ibmr.page_size = PAGE_SIZE;
	if (udata && udata->outlen) {
		resp.stag = mr->ibmr.lkey;
		ret = ib_copy_to_udata(udata, &resp,
				       min(udata->outlen, sizeof(resp)));
		if (ret)
			goto err_mr;
	}
	/* Last: the data path may use it from here on. */
	xa_lock_irqsave(&dev->mrs, flags);
	mr->access = access;
	mr->npages = npages;
	mr->valid = true;
	xa_unlock_irqrestore(&dev->mrs, flags);
	return &mr->ibmr;

err_mr:
	mr->umem = NULL;
	madcm_rnic_dereg_mr(&mr->ibmr, NULL);
err_umem:
	ib_umem_release(umem);
	return ERR_PTR(ret);
}

static int madcm_rnic_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct madcm_rnic_dev *dev = to_madcm_rnic(ibmr->device);
	struct madcm_rnic_mr *mr = to_madcm_rnic_mr(ibmr);

	/* Once out of the table, no access reaches the MR (it holds it). */
	xa_erase_irq(&dev->mrs, mr->index);
	ib_umem_release(mr->umem);
	kvfree(mr->upages);
	kfree(mr->pages);
	madcm_rnic_user_uncharge(dev, mr->uctx, MADCM_RNIC_RES_MR);
	kfree(mr);
	atomic_dec(&dev->n_mr);
	return 0;
}

static int madcm_rnic_set_page(struct ib_mr *ibmr, u64 addr)
{
	struct madcm_rnic_mr *mr = to_madcm_rnic_mr(ibmr);

	if (mr->npages == mr->max_pages)
		return -ENOMEM;
	mr->pages[mr->npages++] = addr;
	return 0;
}

static int madcm_rnic_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg,
				int sg_nents, unsigned int *sg_offset)
{
	/* the page size cap the device states: PAGE_SIZE only */
	if (ibmr->page_size != PAGE_SIZE)
		return -EINVAL;
	to_madcm_rnic_mr(ibmr)->npages = 0;
	return ib_sg_to_pages(ibmr, sg, sg_nents, sg_offset,
			      madcm_rnic_set_page);
}

/*
 * REG_MR (RFC 5040's fast-register): makes an invalid STag valid with the
 * work request's key byte and access rights. The MR must be a
 * fast-registration MR of the QP's PD, its STag invalid, and the STag's
 * index unchanged.
 */
enum ib_wc_status madcm_rnic_mr_fastreg(struct madcm_rnic_qp *qp,
					const struct madcm_rnic_swqe *wqe)
{
	struct madcm_rnic_dev *dev = qp->dev;
	struct madcm_rnic_mr *mr = wqe->mr;
	enum ib_wc_status status = IB_WC_SUCCESS;
	unsigned long flags;

	if (mr->dma || mr->umem || mr->ibmr.pd != qp->ibqp.pd ||
	    wqe->key >> 8 != mr->index || wqe->access & ~MADCM_RNIC_ACCESS)
		return IB_WC_LOC_PROT_ERR;
	xa_lock_irqsave(&dev->mrs, flags);
	if (mr->valid) {
		status = IB_WC_LOC_PROT_ERR;
	} else {
		mr->ibmr.lkey = wqe->key;
		mr->ibmr.rkey = wqe->key;
		mr->access = wqe->access;
		mr->valid = true;
	}
	xa_unlock_irqrestore(&dev->mrs, flags);
	if (status == IB_WC_SUCCESS)
		madcm_rnic_count(dev, MADCM_RNIC_CNT_FASTREG);
	return status;
}

/* LOCAL_INV: the STag, named with its current key, becomes invalid. */
enum ib_wc_status madcm_rnic_mr_invalidate(struct madcm_rnic_qp *qp, u32 stag)
{
	struct madcm_rnic_dev *dev = qp->dev;
	enum ib_wc_status status = IB_WC_LOC_PROT_ERR;
	struct madcm_rnic_mr *mr;
	unsigned long flags;

	xa_lock_irqsave(&dev->mrs, flags);
	mr = xa_load(&dev->mrs, stag >> 8);
	if (mr && !mr->dma && !mr->umem && mr->ibmr.pd == qp->ibqp.pd &&
	    mr->ibmr.rkey == stag) {
		mr->valid = false;
		status = IB_WC_SUCCESS;
	}
	xa_unlock_irqrestore(&dev->mrs, flags);
	if (status == IB_WC_SUCCESS)
		madcm_rnic_count(dev, MADCM_RNIC_CNT_LOCAL_INV);
	return status;
}

/* ---- The data path's access to registered memory ---- */

/*
 * Finds the MR an STag names and checks it for an access of @len octets
 * at @addr. Called with the MR table locked; the MR cannot go away (or
 * be invalidated or re-registered) until it is unlocked.
 */
static int madcm_rnic_mr_lookup(struct madcm_rnic_qp *qp, u32 stag, u64 addr,
				u32 len, int access,
				struct madcm_rnic_mr **out)
{
	struct madcm_rnic_mr *mr;
	u64 end;

	lockdep_assert_held(&qp->dev->mrs.xa_lock);
	mr = xa_load(&qp->dev->mrs, stag >> 8);
	if (!mr || !mr->valid || mr->ibmr.rkey != stag)
		return -ENOENT;
	if (mr->ibmr.pd != qp->ibqp.pd)
		return -EPERM;
	if ((mr->access & access) != access)
		return -EACCES;
	if (addr > U64_MAX - len)
		return -EOVERFLOW;
	end = addr + len;
	if (mr->dma) {
		/*
		 * All of memory, as kernel virtual addresses (the device has
		 * no DMA device): the range must at least be mapped memory.
		 */
		if (!virt_addr_valid((void *)(uintptr_t)addr) ||
		    !virt_addr_valid((void *)(uintptr_t)(end - 1)))
			return -ERANGE;
	} else if (addr < mr->ibmr.iova ||
		   end > mr->ibmr.iova + mr->ibmr.length ||
		   !mr->npages) {
		return -ERANGE;
	}
	*out = mr;
	return 0;
}

/*
 * Copies between @buf and [@addr, @addr + @len) of a checked MR: a DMA
 * MR's addresses are kernel virtual; an FRMR's pages each hold
 * ibmr.page_size octets, the first from ibmr.iova's offset in a page.
 */
static void madcm_rnic_mr_copy(struct madcm_rnic_mr *mr, u64 addr, u8 *buf,
			       u32 len, bool to_mr)
{
	u64 psize, off;
	u32 idx, n;
	u8 *kva;

	if (mr->dma) {
		kva = (u8 *)(uintptr_t)addr;
		if (to_mr)
			memcpy(kva, buf, len);
		else
			memcpy(buf, kva, len);
		return;
	}
	if (mr->upages) {
		/* the pinned user pages; page 0 holds ibmr.iova at uoff */
		off = addr - mr->ibmr.iova + mr->uoff;
		while (len) {
			idx = off >> PAGE_SHIFT;
			if (WARN_ON_ONCE(idx >= mr->npages))
				return;
			n = min_t(u64, len, PAGE_SIZE - offset_in_page(off));
			kva = kmap_local_page(mr->upages[idx]);
			if (to_mr)
				memcpy(kva + offset_in_page(off), buf, n);
			else
				memcpy(buf, kva + offset_in_page(off), n);
			kunmap_local(kva);
			buf += n;
			off += n;
			len -= n;
		}
		return;
	}
	psize = mr->ibmr.page_size;
	off = addr - mr->ibmr.iova + (mr->ibmr.iova & (psize - 1));
	while (len) {
		idx = div64_u64(off, psize);
		if (WARN_ON_ONCE(idx >= mr->npages))
			return;
		n = min_t(u64, len, psize - (off & (psize - 1)));
		kva = (u8 *)(uintptr_t)(mr->pages[idx] + (off & (psize - 1)));
		if (to_mr)
			memcpy(kva, buf, n);
		else
			memcpy(buf, kva, n);
		buf += n;
		off += n;
		len -= n;
	}
}

static int madcm_rnic_mr_access(struct madcm_rnic_qp *qp, u32 stag, u64 addr,
				u8 *buf, u32 len, int access, bool to_mr)
{
	struct madcm_rnic_mr *mr;
	unsigned long flags;
	int ret;

	if (!len)
		return 0;
	xa_lock_irqsave(&qp->dev->mrs, flags);
	ret = madcm_rnic_mr_lookup(qp, stag, addr, len, access, &mr);
	if (!ret && buf)
		madcm_rnic_mr_copy(mr, addr, buf, len, to_mr);
	xa_unlock_irqrestore(&qp->dev->mrs, flags);
	return ret;
}

/**
 * madcm_rnic_mr_check() - check an access to registered memory
 * @qp: the QP (its PD)
 * @stag: the STag (lkey or rkey)
 * @addr: the first octet
 * @len: octets
 * @access: the IB_ACCESS_* rights needed; 0 for a local read
 *
 * Return: 0, or -ENOENT (no valid MR with this STag and key), -EPERM
 * (another PD), -EACCES (rights), -ERANGE (outside the MR), -EOVERFLOW
 * (the range wraps). 0 for @len 0 without a lookup.
 */
int madcm_rnic_mr_check(struct madcm_rnic_qp *qp, u32 stag, u64 addr,
			u32 len, int access)
{
	return madcm_rnic_mr_access(qp, stag, addr, NULL, len, access, false);
}

/**
 * madcm_rnic_mr_copy_to() - write into registered memory
 * @qp: the QP (its PD)
 * @stag: the STag (lkey or rkey)
 * @addr: where in the MR
 * @buf: the octets
 * @len: how many
 * @access: the IB_ACCESS_* rights needed
 *
 * All or nothing: nothing is written unless the whole range passes
 * madcm_rnic_mr_check()'s checks, under the same lock.
 *
 * Return: as madcm_rnic_mr_check().
 */
int madcm_rnic_mr_copy_to(struct madcm_rnic_qp *qp, u32 stag, u64 addr,
			  const void *buf, u32 len, int access)
{
	return madcm_rnic_mr_access(qp, stag, addr, (u8 *)buf, len, access,
				    true);
}

/**
 * madcm_rnic_mr_copy_from() - read from registered memory
 * @qp: the QP (its PD)
 * @stag: the STag (lkey or rkey)
 * @addr: where in the MR
 * @buf: where to put the octets
 * @len: how many
 * @access: the IB_ACCESS_* rights needed; 0 for a local read
 *
 * Return: as madcm_rnic_mr_check(); @buf is untouched on error.
 */
int madcm_rnic_mr_copy_from(struct madcm_rnic_qp *qp, u32 stag, u64 addr,
			    void *buf, u32 len, int access)
{
	return madcm_rnic_mr_access(qp, stag, addr, buf, len, access, false);
}

/* The page under @addr of a checked MR, and @addr's offset in it. */
static struct page *madcm_rnic_mr_page(struct madcm_rnic_mr *mr, u64 addr,
				       u32 *pgoff)
{
	u64 psize, off;
	void *kva;
	u32 idx;

	if (mr->upages) {
		off = addr - mr->ibmr.iova + mr->uoff;
		idx = off >> PAGE_SHIFT;
		if (WARN_ON_ONCE(idx >= mr->npages))
			return NULL;
		*pgoff = offset_in_page(off);
		return mr->upages[idx];
	}
	if (mr->dma) {
		kva = (void *)(uintptr_t)addr;
	} else {
		psize = mr->ibmr.page_size;
		off = addr - mr->ibmr.iova + (mr->ibmr.iova & (psize - 1));
		idx = div64_u64(off, psize);
		if (WARN_ON_ONCE(idx >= mr->npages))
			return NULL;
		kva = (void *)(uintptr_t)(mr->pages[idx] + (off & (psize - 1)));
	}
	if (!virt_addr_valid(kva))
		return NULL;
	*pgoff = offset_in_page(kva);
	return virt_to_page(kva);
}

/**
 * madcm_rnic_mr_get_pages() - the pages under registered memory, for a
 *	socket to take by reference
 * @qp: the QP (its PD)
 * @stag: the STag (an lkey: a local read)
 * @addr: the first octet
 * @len: octets
 * @bv: where the pieces go, one per page, each holding a page reference
 *	(put_page() gives it back)
 * @max: room in @bv
 * @nbv: the pieces filled
 *
 * The checks of madcm_rnic_mr_check(), under the same lock. The pieces
 * end early at @max, or at a page a socket may not hold a reference to
 * (sendpage_ok(): slab memory, for one); the caller copies the rest.
 *
 * Return: the octets the pieces cover from @addr on (0 to @len), or a
 * negative errno as madcm_rnic_mr_check() (no piece then).
 */
int madcm_rnic_mr_get_pages(struct madcm_rnic_qp *qp, u32 stag, u64 addr,
			    u32 len, struct bio_vec *bv, u32 max, u32 *nbv)
{
	struct madcm_rnic_mr *mr;
	unsigned long flags;
	u32 done = 0, pgoff = 0, n;
	struct page *page;
	int ret;

	*nbv = 0;
	if (!len)
		return 0;
	xa_lock_irqsave(&qp->dev->mrs, flags);
	ret = madcm_rnic_mr_lookup(qp, stag, addr, len, 0, &mr);
	while (!ret && done < len && *nbv < max) {
		page = madcm_rnic_mr_page(mr, addr + done, &pgoff);
		if (!page || !sendpage_ok(page))
			break;
		n = min_t(u32, len - done, PAGE_SIZE - pgoff);
		get_page(page);
		bv[*nbv].bv_page = page;
		bv[*nbv].bv_offset = pgoff;
		bv[*nbv].bv_len = n;
		(*nbv)++;
		done += n;
	}
	xa_unlock_irqrestore(&qp->dev->mrs, flags);
	return ret ?: done;
}

/**
 * madcm_rnic_mr_remote_invalidate() - a Send with Invalidate's STag
 * @qp: the QP the Send arrived on
 * @stag: the Invalidate STag
 *
 * RFC 5040 section 6.10: the STag must name a valid fast-registration MR
 * of the QP's PD (a DMA or user MR cannot be invalidated), with its
 * current key.
 *
 * Return: 0 (now invalid), or -ENOENT / -EPERM / -EACCES (a DMA or user
 * MR).
 */
int madcm_rnic_mr_remote_invalidate(struct madcm_rnic_qp *qp, u32 stag)
{
	struct madcm_rnic_dev *dev = qp->dev;
	struct madcm_rnic_mr *mr;
	unsigned long flags;
	int ret = 0;

	xa_lock_irqsave(&dev->mrs, flags);
	mr = xa_load(&dev->mrs, stag >> 8);
	if (!mr || !mr->valid || mr->ibmr.rkey != stag)
		ret = -ENOENT;
	else if (mr->ibmr.pd != qp->ibqp.pd)
		ret = -EPERM;
	else if (mr->dma || mr->umem)
		ret = -EACCES;
	else
		mr->valid = false;
	xa_unlock_irqrestore(&dev->mrs, flags);
	return ret;
}

const struct ib_device_ops madcm_rnic_mr_ops = {
	.alloc_mr = madcm_rnic_alloc_mr,
	.dereg_mr = madcm_rnic_dereg_mr,
	.get_dma_mr = madcm_rnic_get_dma_mr,
	.map_mr_sg = madcm_rnic_map_mr_sg,
	.reg_user_mr = madcm_rnic_reg_user_mr,
};
