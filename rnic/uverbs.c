// SPDX-License-Identifier: GPL-2.0-only
/*
 * madcm's software RNIC: soft-iWARP's user ABI.
 *
 * With rnic_uverbs=Y (the default) a madcm device registers as
 * RDMA_DRIVER_SIW with uverbs ABI 1, so unmodified rdma-core (libibverbs
 * and its libsiw provider) drives it from user space
 * (Documentation/rnic_uverbs.rst): CQs, SQs and RQs are rings in
 * vmalloc_user memory the process maps (include/uapi/rdma/siw-abi.h);
 * the doorbell is POST_SEND with no work request; poll and notify need
 * no system call.
 *
 * The rings are the process's to change at any time, also while the
 * kernel reads them. An SQE or RQE is taken by reading its flags once,
 * copying the entry once, then handing the slot back (flags 0): every
 * check after that looks at the kernel's copy only, and the flags the
 * check uses are the ones read before the copy. A copy becomes the same
 * internal WQE a kernel work request does (rnic/verbs.c, rnic/qp_tx.c),
 * so the data path has one code: a user SGE is checked against the MRs of
 * the QP's PD like a kernel one, and one the checks refuse fails its
 * work request with an error status and moves the QP to ERROR.
 *
 * siw.ko must never run next to such a device: its netdev notifier takes
 * every RDMA_DRIVER_SIW device for its own. A module notifier refuses
 * siw.ko while a madcm device speaks its ABI, and `rdma link add` refuses
 * a device while siw.ko is loaded.
 */
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>
#include "madcm_compat.h"
#include "rnic/rnic.h"

bool madcm_rnic_uverbs_on = true;
module_param_named(rnic_uverbs, madcm_rnic_uverbs_on, bool, 0444);
MODULE_PARM_DESC(rnic_uverbs,
		 "madcm RNICs speak soft-iWARP's user ABI (libsiw); siw.ko cannot load meanwhile (default Y)");

/*
 * What processes may take of a device, in percent of each limit: any one
 * context, and all of them together. The rest is kept for kernel
 * consumers (NVMe-oF, rdma_cm ULPs), whatever processes do.
 */
static unsigned int madcm_rnic_user_share = 75;
module_param_named(rnic_user_share, madcm_rnic_user_share, uint, 0444);
MODULE_PARM_DESC(rnic_user_share,
		 "percent of a madcm RNIC's PDs, CQs, QPs and MRs that processes may hold, one or all together (1..100, default 75)");

/**
 * struct madcm_rnic_umap - a ring the process may mmap
 * @rdma: the entry; its key is the mmap offset
 * @vaddr: the vmalloc_user memory, freed once no mapping is left
 */
struct madcm_rnic_umap {
	struct rdma_user_mmap_entry rdma;
	void *vaddr;
};

/* ---- siw.ko never runs next to a device with its ABI ---- */

static DEFINE_MUTEX(madcm_rnic_siw_lock);
/* Under the lock: devices speaking siw's ABI; siw.ko is coming or live. */
static unsigned int madcm_rnic_udevs;
static bool madcm_rnic_siw_coming;

static bool madcm_rnic_siw_loaded(void)
{
#ifdef MODULE
	struct kobject *kobj;
#endif

	/*
	 * Built into the kernel, siw is always there, and /sys/module/siw
	 * exists only if it has parameters: the kernel's configuration,
	 * which this module is built against, is the one sure sign.
	 */
	if (IS_BUILTIN(CONFIG_RDMA_SIW))
		return true;
#ifdef MODULE
	/* /sys/module/siw: siw.ko loaded before madcm */
	kobj = kset_find_obj(THIS_MODULE->mkobj.kobj.kset, "siw");
	if (kobj) {
		kobject_put(kobj);
		return true;
	}
#endif
	return madcm_rnic_siw_coming;
}

/**
 * madcm_rnic_uverbs_claim() - count in a new device speaking siw's ABI
 *
 * Context: Process context.
 * Return: 0 (counted in; madcm_rnic_uverbs_unclaim() counts it out once
 * it is gone), or -EBUSY while siw.ko is loaded.
 */
int madcm_rnic_uverbs_claim(void)
{
	int ret = 0;

	mutex_lock(&madcm_rnic_siw_lock);
	if (madcm_rnic_siw_loaded())
		ret = -EBUSY;
	else
		madcm_rnic_udevs++;
	mutex_unlock(&madcm_rnic_siw_lock);
	if (ret && IS_BUILTIN(CONFIG_RDMA_SIW))
		pr_err("madcm: siw is built into this kernel: a madcm RNIC speaks siw's user ABI and cannot run next to it (load madcm with rnic_uverbs=0)\n");
	else if (ret)
		pr_err("madcm: siw.ko is loaded: a madcm RNIC speaks siw's user ABI and cannot run next to it (unload siw, or load madcm with rnic_uverbs=0)\n");
	return ret;
}

/**
 * madcm_rnic_uverbs_unclaim() - a device with siw's ABI is gone
 * @dev: the device (counted in by madcm_rnic_uverbs_claim())
 */
void madcm_rnic_uverbs_unclaim(struct madcm_rnic_dev *dev)
{
	mutex_lock(&madcm_rnic_siw_lock);
	if (!WARN_ON(!madcm_rnic_udevs))
		madcm_rnic_udevs--;
	mutex_unlock(&madcm_rnic_siw_lock);
}

#ifdef CONFIG_MODULES
static int madcm_rnic_module_event(struct notifier_block *nb,
				   unsigned long state, void *data)
{
	struct module *mod = data;
	int ret = 0;

	if (strcmp(mod->name, "siw"))
		return NOTIFY_DONE;
	mutex_lock(&madcm_rnic_siw_lock);
	switch (state) {
	case MODULE_STATE_COMING:
		if (madcm_rnic_udevs)
			ret = -EBUSY;
		else
			madcm_rnic_siw_coming = true;
		break;
	case MODULE_STATE_GOING:
		madcm_rnic_siw_coming = false;
		break;
	default:
		break;
	}
	mutex_unlock(&madcm_rnic_siw_lock);
	if (ret) {
		pr_err("madcm: siw refused: madcm RNICs speak siw's user ABI (rdma link delete them, or load madcm with rnic_uverbs=0)\n");
		return notifier_from_errno(ret);
	}
	return NOTIFY_OK;
}

static struct notifier_block madcm_rnic_module_nb = {
	.notifier_call = madcm_rnic_module_event,
};

/**
 * madcm_rnic_uverbs_init() - watch for siw.ko
 *
 * Return: 0 or a negative errno.
 */
int madcm_rnic_uverbs_init(void)
{
	return register_module_notifier(&madcm_rnic_module_nb);
}

/**
 * madcm_rnic_uverbs_exit() - stop watching for siw.ko
 */
void madcm_rnic_uverbs_exit(void)
{
	unregister_module_notifier(&madcm_rnic_module_nb);
}
#else
/* No loadable modules: no siw.ko to watch for (a built-in siw is not seen). */
int madcm_rnic_uverbs_init(void)
{
	return 0;
}

void madcm_rnic_uverbs_exit(void)
{
}
#endif

/* ---- a process's share of the device ---- */

static const unsigned int madcm_rnic_res_max[MADCM_RNIC_RES_MAX] = {
	[MADCM_RNIC_RES_PD] = MADCM_RNIC_MAX_PD,
	[MADCM_RNIC_RES_CQ] = MADCM_RNIC_MAX_CQ,
	[MADCM_RNIC_RES_QP] = MADCM_RNIC_MAX_QP,
	[MADCM_RNIC_RES_MR] = MADCM_RNIC_MAX_MR,
};

/* How many of @res processes may hold: one of them, or all together. */
static unsigned int madcm_rnic_user_limit(enum madcm_rnic_res res)
{
	unsigned int pct = clamp_val(madcm_rnic_user_share, 1, 100);

	return max(madcm_rnic_res_max[res] * pct / 100, 1U);
}

/* One more of @res in @n, unless that passes @limit. */
static bool madcm_rnic_take(atomic_t *n, unsigned int limit)
{
	if (atomic_inc_return(n) <= limit)
		return true;
	atomic_dec(n);
	return false;
}

/**
 * madcm_rnic_user_charge() - count a new object against its process's share
 * @dev: the device
 * @udata: the verb's udata; NULL for a kernel consumer's object
 * @res: the kind of object
 * @uctx: the context it is charged to (NULL for a kernel object)
 *
 * A process's context may hold rnic_user_share percent of each of the
 * device's limits, and so may all contexts together, so that kernel
 * consumers keep the rest.
 * Context: Process context.
 * Return: 0, or -ENOMEM (counted in user_limit) beyond the share.
 */
int madcm_rnic_user_charge(struct madcm_rnic_dev *dev, struct ib_udata *udata,
			   enum madcm_rnic_res res,
			   struct madcm_rnic_ucontext **uctx)
{
	unsigned int limit = madcm_rnic_user_limit(res);
	struct madcm_rnic_ucontext *muc;

	*uctx = NULL;
	if (!udata)
		return 0;
	muc = rdma_udata_to_drv_context(udata, struct madcm_rnic_ucontext,
					ibuc);
	if (!muc)
		return 0;
	if (!madcm_rnic_take(&muc->n_res[res], limit))
		goto refused;
	if (!madcm_rnic_take(&dev->n_ures[res], limit)) {
		atomic_dec(&muc->n_res[res]);
		goto refused;
	}
	*uctx = muc;
	return 0;

refused:
	madcm_rnic_count(dev, MADCM_RNIC_CNT_USER_LIMIT);
	return -ENOMEM;
}

/**
 * madcm_rnic_user_uncharge() - a charged object is gone
 * @dev: the device
 * @uctx: what madcm_rnic_user_charge() gave (NULL: nothing to do)
 * @res: the kind of object
 */
void madcm_rnic_user_uncharge(struct madcm_rnic_dev *dev,
			      struct madcm_rnic_ucontext *uctx,
			      enum madcm_rnic_res res)
{
	if (!uctx)
		return;
	atomic_dec(&uctx->n_res[res]);
	atomic_dec(&dev->n_ures[res]);
}

/* ---- ring entries: fetched once, then checked (rnic/uwqe.c) ---- */

/**
 * madcm_rnic_usq_fetch_locked() - take what the process posted on its SQ
 * @qp: a user QP, @qp->lock held
 *
 * Valid SQEs from the ring, in order, while the send queue has room: at
 * most one ring's worth per call, however fast the process refills it
 * (madcm_rnic_usq_take()).
 */
void madcm_rnic_usq_fetch_locked(struct madcm_rnic_qp *qp)
{
	lockdep_assert_held(&qp->lock);
	madcm_rnic_usq_take(&qp->sq, qp->usq, qp->swqe);
}

/**
 * madcm_rnic_usq_pending() - does the SQ ring hold an SQE to fetch?
 * @qp: a user QP, @qp->lock held
 *
 * Return: the next slot is marked valid (it is checked when fetched).
 */
bool madcm_rnic_usq_pending(struct madcm_rnic_qp *qp)
{
	return READ_ONCE(qp->usq[qp->sq.tail % qp->sq.size].flags) &
	       SIW_WQE_VALID;
}

/**
 * madcm_rnic_urq_fetch_locked() - take what the process posted on its RQ
 * @qp: a user QP, @qp->lock held
 *
 * As madcm_rnic_usq_fetch_locked(), for receives.
 */
void madcm_rnic_urq_fetch_locked(struct madcm_rnic_qp *qp)
{
	lockdep_assert_held(&qp->lock);
	madcm_rnic_urq_take(&qp->rq, qp->urq, qp->rwqe);
}

/* ---- user CQs: siw_cqe rings and the notification word ---- */

static u8 madcm_rnic_siw_opcode(enum ib_wc_opcode op)
{
	switch (op) {
	case IB_WC_RDMA_WRITE:
		return SIW_OP_WRITE;
	case IB_WC_RDMA_READ:
		return SIW_OP_READ;
	case IB_WC_RECV:
		return SIW_OP_RECEIVE;
	case IB_WC_REG_MR:
		return SIW_OP_REG_MR;
	case IB_WC_LOCAL_INV:
		return SIW_OP_INVAL_STAG;
	default:
		return SIW_OP_SEND;
	}
}

static u16 madcm_rnic_siw_status(enum ib_wc_status status)
{
	switch (status) {
	case IB_WC_SUCCESS:
		return SIW_WC_SUCCESS;
	case IB_WC_LOC_LEN_ERR:
		return SIW_WC_LOC_LEN_ERR;
	case IB_WC_LOC_PROT_ERR:
		return SIW_WC_LOC_PROT_ERR;
	case IB_WC_LOC_QP_OP_ERR:
		return SIW_WC_LOC_QP_OP_ERR;
	case IB_WC_WR_FLUSH_ERR:
		return SIW_WC_WR_FLUSH_ERR;
	case IB_WC_BAD_RESP_ERR:
		return SIW_WC_BAD_RESP_ERR;
	case IB_WC_LOC_ACCESS_ERR:
		return SIW_WC_LOC_ACCESS_ERR;
	case IB_WC_REM_ACCESS_ERR:
		return SIW_WC_REM_ACCESS_ERR;
	case IB_WC_REM_INV_REQ_ERR:
		return SIW_WC_REM_INV_REQ_ERR;
	default:
		return SIW_WC_GENERAL_ERR;
	}
}

/**
 * madcm_rnic_ucqe_put() - write a completion into a user CQ ring
 * @ring: the ring of siw_cqe
 * @size: its slots
 * @idx: the producer count (free running): slot @idx % @size
 * @wc: the completion
 *
 * The slot must be the kernel's (flags 0: the process polled it); the
 * CQE's fields go first, its flags (SIW_WQE_VALID) last.
 * Context: Any; the CQ's lock held.
 * Return: true when written; false when the ring is full.
 */
bool madcm_rnic_ucqe_put(struct siw_cqe *ring, u32 size, u32 idx,
			 const struct ib_wc *wc)
{
	struct siw_cqe *cqe = &ring[idx % size];
	u8 flags = SIW_WQE_VALID;

	if (READ_ONCE(cqe->flags))
		return false;
	cqe->id = wc->wr_id;
	cqe->opcode = madcm_rnic_siw_opcode(wc->opcode);
	cqe->status = madcm_rnic_siw_status(wc->status);
	cqe->bytes = wc->byte_len;
	cqe->imm_data = 0;
	if (wc->wc_flags & IB_WC_WITH_INVALIDATE) {
		cqe->inval_stag = wc->ex.invalidate_rkey;
		flags |= SIW_WQE_REM_INVAL;
	}
	cqe->qp_id = wc->qp ? wc->qp->qp_num : 0;
	/* the fields before the flags that hand the CQE to the process */
	smp_wmb();
	WRITE_ONCE(cqe->flags, flags);
	return true;
}

/**
 * madcm_rnic_ucq_notify() - is a user CQ's handler due for a completion?
 * @ctrl: the CQ's notification word (the process writes it to arm)
 * @solicited: the completion is of a Send with Solicited Event
 *
 * Armed with SIW_NOTIFY_NEXT_COMPLETION: any completion is due; with
 * SIW_NOTIFY_SOLICITED: a solicited one. A due completion disarms it
 * (SIW_NOTIFY_NOT): one event per arming.
 * Context: Any; the CQ's lock held.
 * Return: true when the completion handler is due.
 */
bool madcm_rnic_ucq_notify(struct siw_cq_ctrl *ctrl, bool solicited)
{
	u32 flags = READ_ONCE(ctrl->flags);

	if (!(flags & SIW_NOTIFY_NEXT_COMPLETION) &&
	    !(solicited && (flags & SIW_NOTIFY_SOLICITED)))
		return false;
	WRITE_ONCE(ctrl->flags, SIW_NOTIFY_NOT);
	return true;
}

/* ---- mmap ---- */

/* A ring of @len octets the process maps at *@key. */
static void *madcm_rnic_umap_new(struct ib_ucontext *uc, size_t len,
				 struct rdma_user_mmap_entry **entry, u64 *key)
{
	struct madcm_rnic_umap *m;
	int ret;

	/* the process's memory: charged to its memory cgroup */
	m = kzalloc(sizeof(*m), GFP_KERNEL_ACCOUNT);
	if (!m)
		return NULL;
	m->vaddr = __vmalloc(len, GFP_KERNEL_ACCOUNT | __GFP_ZERO);
	if (!m->vaddr)
		goto err_free;
	/* exactly what libsiw maps: rdma_user_mmap_entry_get() checks */
	ret = rdma_user_mmap_entry_insert(uc, &m->rdma, len);
	if (ret)
		goto err_vfree;
	*entry = &m->rdma;
	*key = rdma_user_mmap_get_offset(&m->rdma);
	return m->vaddr;

err_vfree:
	vfree(m->vaddr);
err_free:
	kfree(m);
	return NULL;
}

/* The kernel is done with the ring; it goes with the last mapping. */
static void madcm_rnic_umap_remove(struct rdma_user_mmap_entry *entry)
{
	if (entry)
		rdma_user_mmap_entry_remove(entry);
}

/*
 * Maps a ring's pages into @vma, which rdma_user_mmap_entry_get() found
 * no longer than the ring. The memory comes from __vmalloc() (an
 * accounted vmalloc_user() has no exported form), so the pages are
 * inserted one by one: remap_vmalloc_range() wants VM_USERMAP.
 */
static int madcm_rnic_map_pages(struct vm_area_struct *vma, void *vaddr)
{
	unsigned long addr;
	int ret;

	/* as remap_vmalloc_range(): no growing by mremap, not in core dumps */
	madcm_vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP);
	for (addr = vma->vm_start; addr < vma->vm_end; addr += PAGE_SIZE) {
		ret = vm_insert_page(vma, addr, vmalloc_to_page(vaddr));
		if (ret)
			return ret;
		vaddr += PAGE_SIZE;
	}
	return 0;
}

static int madcm_rnic_mmap(struct ib_ucontext *uc, struct vm_area_struct *vma)
{
	struct rdma_user_mmap_entry *entry;
	struct madcm_rnic_umap *m;
	int ret;

	entry = rdma_user_mmap_entry_get(uc, vma);
	if (!entry)
		return -EINVAL;
	m = container_of(entry, struct madcm_rnic_umap, rdma);
	ret = madcm_rnic_map_pages(vma, m->vaddr);
	rdma_user_mmap_entry_put(entry);
	return ret;
}

static void madcm_rnic_mmap_free(struct rdma_user_mmap_entry *entry)
{
	struct madcm_rnic_umap *m =
		container_of(entry, struct madcm_rnic_umap, rdma);

	vfree(m->vaddr);
	kfree(m);
}

/* ---- user objects ---- */

/**
 * madcm_rnic_ucq_create() - a user CQ's ring
 * @cq: the CQ, its size set
 * @udata: create_cq's udata: struct siw_uresp_create_cq out
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
int madcm_rnic_ucq_create(struct madcm_rnic_cq *cq, struct ib_udata *udata)
{
	struct madcm_rnic_ucontext *muc =
		rdma_udata_to_drv_context(udata, struct madcm_rnic_ucontext,
					  ibuc);
	struct ib_ucontext *uc = &muc->ibuc;
	struct siw_uresp_create_cq resp = {};
	size_t len = cq->size * sizeof(struct siw_cqe) +
		     sizeof(struct siw_cq_ctrl);
	int ret;

	cq->uring = madcm_rnic_umap_new(uc, len, &cq->umap, &resp.cq_key);
	if (!cq->uring)
		return -ENOMEM;
	cq->uctrl = (struct siw_cq_ctrl *)&cq->uring[cq->size];
	resp.cq_id = 0;
	resp.num_cqe = cq->size;
	ret = ib_copy_to_udata(udata, &resp, min(udata->outlen, sizeof(resp)));
	if (ret) {
		madcm_rnic_ucq_destroy(cq);
		return ret;
	}
	return 0;
}

/**
 * madcm_rnic_ucq_destroy() - a user CQ's ring goes
 * @cq: the CQ
 */
void madcm_rnic_ucq_destroy(struct madcm_rnic_cq *cq)
{
	madcm_rnic_umap_remove(cq->umap);
	cq->umap = NULL;
	cq->uring = NULL;
	cq->uctrl = NULL;
}

/**
 * madcm_rnic_uqp_create() - a user QP's rings
 * @qp: the QP, its queue sizes set
 * @udata: create_qp's udata: struct siw_uresp_create_qp out
 *
 * libsiw refuses a QP whose rq_key is SIW_INVAL_UOBJ_KEY: the RQ ring is
 * always made.
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
int madcm_rnic_uqp_create(struct madcm_rnic_qp *qp, struct ib_udata *udata)
{
	struct madcm_rnic_ucontext *muc =
		rdma_udata_to_drv_context(udata, struct madcm_rnic_ucontext,
					  ibuc);
	struct ib_ucontext *uc = &muc->ibuc;
	struct siw_uresp_create_qp resp = {};
	int ret;

	qp->usq = madcm_rnic_umap_new(uc, qp->sq.size * sizeof(struct siw_sqe),
				      &qp->usq_map, &resp.sq_key);
	qp->urq = madcm_rnic_umap_new(uc, qp->rq.size * sizeof(struct siw_rqe),
				      &qp->urq_map, &resp.rq_key);
	if (!qp->usq || !qp->urq) {
		ret = -ENOMEM;
		goto err;
	}
	resp.qp_id = qp->ibqp.qp_num;
	resp.num_sqe = qp->sq.size;
	resp.num_rqe = qp->rq.size;
	ret = ib_copy_to_udata(udata, &resp, min(udata->outlen, sizeof(resp)));
	if (ret)
		goto err;
	return 0;
err:
	madcm_rnic_uqp_destroy(qp);
	return ret;
}

/**
 * madcm_rnic_uqp_destroy() - a user QP's rings go
 * @qp: the QP, out of the data path (or a kernel QP: nothing to do)
 */
void madcm_rnic_uqp_destroy(struct madcm_rnic_qp *qp)
{
	madcm_rnic_umap_remove(qp->usq_map);
	madcm_rnic_umap_remove(qp->urq_map);
	qp->usq_map = NULL;
	qp->urq_map = NULL;
	qp->usq = NULL;
	qp->urq = NULL;
}

static int madcm_rnic_alloc_ucontext(struct ib_ucontext *uc,
				     struct ib_udata *udata)
{
	struct siw_uresp_alloc_ctx resp = {};

	resp.dev_id = uc->device->index;
	return ib_copy_to_udata(udata, &resp,
				min(udata->outlen, sizeof(resp)));
}

static void madcm_rnic_dealloc_ucontext(struct ib_ucontext *uc)
{
}

const struct ib_device_ops madcm_rnic_uverbs_ops = {
	.driver_id = RDMA_DRIVER_SIW,
	.uverbs_abi_ver = SIW_ABI_VERSION,

	.alloc_ucontext = madcm_rnic_alloc_ucontext,
	.dealloc_ucontext = madcm_rnic_dealloc_ucontext,
	.mmap = madcm_rnic_mmap,
	.mmap_free = madcm_rnic_mmap_free,

	INIT_RDMA_OBJ_SIZE(ib_ucontext, madcm_rnic_ucontext, ibuc),
};
