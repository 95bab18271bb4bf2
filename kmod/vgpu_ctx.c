// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_ctx.c - contexts
 *
 * A context is a GPU address space plus the queues that run in it.  It has
 * a handle in its open file and a device-wide id under which the firmware
 * knows it.  Errors are sticky per context, as in CUDA: once a fault, the
 * execution limit, a hung engine or the loss of the device stopped it,
 * every queue of the context reports the error and waits fail; other
 * contexts carry on.  A context needs a firmware: without one, creation
 * fails with -ENODEV.
 *
 * The administrator decides who may create contexts with the device's
 * compute mode (sysfs compute_mode, CUDA's compute modes): anyone
 * (DEFAULT), no one (PROHIBITED, -EACCES), or one process at a time
 * (EXCLUSIVE_PROCESS, -EBUSY while another process has a context).  A
 * process is a thread group, as CUDA's: its threads share the device.
 */
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "vgpu_drv.h"

static void vgpu_ctx_free(struct vgpu_ctx *ctx)
{
	vgpu_mmu_fini(ctx);
	put_pid(ctx->owner);
	if (ctx->user)
		vgpu_user_put(ctx->user);
	kfree(ctx->destroy_ev);
	kfree(ctx);
}

static void vgpu_ctx_release(struct kref *ref)
{
	vgpu_ctx_free(container_of(ref, struct vgpu_ctx, ref));
}

void vgpu_ctx_put(struct vgpu_ctx *ctx)
{
	kref_put(&ctx->ref, vgpu_ctx_release);
}

/**
 * vgpu_ctx_free_work() - tear down the contexts released under the lock
 * @work: vgpu_dev.ctx_free_work.
 */
void vgpu_ctx_free_work(struct work_struct *work)
{
	struct vgpu_dev *dev = container_of(work, struct vgpu_dev,
					    ctx_free_work);
	struct llist_node *list = llist_del_all(&dev->ctx_free);
	struct vgpu_ctx *ctx, *tmp;

	llist_for_each_entry_safe(ctx, tmp, list, free_node)
		vgpu_ctx_free(ctx);
}

/**
 * vgpu_ctx_reap() - finish the teardown of contexts released under the lock
 * @dev: the device; vgpu_dev.lock not held.
 *
 * Called when an ioctl returns and when a file is released, so that a
 * program sees the memory of a context it destroyed (or the firmware
 * let go of) accounted back by then, as when the teardown ran in place.
 */
void vgpu_ctx_reap(struct vgpu_dev *dev)
{
	if (!llist_empty(&dev->ctx_free))
		flush_work(&dev->ctx_free_work);
}

static void vgpu_ctx_release_locked(struct kref *ref)
{
	struct vgpu_ctx *ctx = container_of(ref, struct vgpu_ctx, ref);

	llist_add(&ctx->free_node, &ctx->dev->ctx_free);
	schedule_work(&ctx->dev->ctx_free_work);
}

/*
 * The firmware acknowledged the context's destruction: drop the reference
 * its page tables were kept for.  This runs under vgpu_dev.lock (from
 * FW_ACK, or at once from vgpu_fw_defer()), but tearing the tables down
 * takes a managed object's lock, which ranks above vgpu_dev.lock (the
 * lock order in vgpu_managed.c: a CPU fault on a managed page holds the
 * object's lock while it posts a TLB flush).  So when this is the last
 * reference, the teardown runs from a work item instead, outside the lock
 * (lockdep on the debug kernel found the inversion), which the ioctl that
 * released it waits for on its way out (vgpu_ctx_reap()).
 */
static void vgpu_ctx_release_deferred(struct vgpu_deferred *d)
{
	struct vgpu_ctx *ctx = container_of(d, struct vgpu_ctx, destroyed);

	lockdep_assert_held(&ctx->dev->lock);
	kref_put(&ctx->ref, vgpu_ctx_release_locked);
}

static void vgpu_event_init(struct vgpu_event *e, u32 type)
{
	INIT_LIST_HEAD(&e->node);
	e->ev.type = type;
}

/* A new context, or ERR_PTR(-ENOMEM or -EDQUOT for its page tables). */
static struct vgpu_ctx *vgpu_ctx_new(struct vgpu_dev *dev)
{
	struct vgpu_ctx *ctx = kzalloc(sizeof(*ctx), GFP_KERNEL_ACCOUNT);
	int ret;

	if (!ctx)
		return ERR_PTR(-ENOMEM);
	kref_init(&ctx->ref);
	ctx->dev = dev;
	ctx->owner_pid = task_tgid_nr(current);
	ctx->owner = get_pid(task_tgid(current));
	mutex_init(&ctx->lock);
	INIT_LIST_HEAD(&ctx->queues);
	INIT_LIST_HEAD(&ctx->tables);
	mt_init(&ctx->mappings);
	vgpu_event_init(&ctx->create_ev, VGPU_FW_EV_CTX_CREATE);
	vgpu_event_init(&ctx->stop_ev, VGPU_FW_EV_CTX_STOP);
	vgpu_event_init(&ctx->flush_ev, VGPU_FW_EV_TLB_FLUSH);
	ctx->user = vgpu_user_get(dev);
	ctx->destroy_ev = kzalloc(sizeof(*ctx->destroy_ev),
				  GFP_KERNEL_ACCOUNT);
	ret = -ENOMEM;
	if (ctx->user && ctx->destroy_ev)
		ret = vgpu_mmu_init(ctx);
	if (ret) {
		vgpu_ctx_put(ctx);
		return ERR_PTR(ret);
	}
	vgpu_event_init(ctx->destroy_ev, VGPU_FW_EV_CTX_DESTROY);
	ctx->destroy_ev->kfree_after_read = true;
	ctx->create_ev.ev.arg0 = ctx->pd3;
	return ctx;
}

/*
 * May @ctx's creator have a context on @dev, in its compute mode?
 * dev->lock held: the check and the publication are one step, so two
 * processes racing for an exclusive device cannot both win.
 */
static int vgpu_ctx_admit(struct vgpu_dev *dev, struct vgpu_ctx *ctx)
{
	struct vgpu_ctx *other;
	unsigned long id;

	lockdep_assert_held(&dev->lock);
	switch (dev->compute_mode) {
	case VGPU_COMPUTE_MODE_PROHIBITED:
		return vgpu_refuse(dev, -EACCES,
				   "CTX_CREATE: compute mode is prohibited");
	case VGPU_COMPUTE_MODE_EXCLUSIVE_PROCESS:
		xa_for_each(&dev->ctxs, id, other)
			if (other->owner != ctx->owner)
				return vgpu_refuse(dev, -EBUSY,
						   "CTX_CREATE: compute mode is exclusive-process and pid %d has context %u",
						   other->owner_pid, other->id);
		break;
	}
	return 0;
}

/*
 * Give @ctx its device-wide id and tell the firmware; dev->lock held.  The
 * id is reserved first and the context stored under it last, when every
 * record names it: nothing can find a half-built context.
 */
static int vgpu_ctx_publish(struct vgpu_dev *dev, struct vgpu_ctx *ctx)
{
	int ret;

	/* Under dev->lock: a firmware detaching now kills us as lost. */
	if (!dev->fw_file)
		return vgpu_refuse(dev, -ENODEV, "CTX_CREATE: no firmware");
	ret = vgpu_ctx_admit(dev, ctx);
	if (ret)
		return ret;
	/*
	 * Cyclic: the firmware names contexts by id in its fault records, and
	 * may still name one that was just destroyed; a new context must not
	 * take the blame.  1 means the ids wrapped, which is fine.
	 */
	ret = xa_alloc_cyclic(&dev->ctxs, &ctx->id, NULL, xa_limit_31b,
			      &dev->next_ctx_id, GFP_KERNEL_ACCOUNT);
	if (ret == -EBUSY)
		return vgpu_refuse(dev, -ENOSPC,
				   "CTX_CREATE: the device has no context ids left");
	if (ret < 0)
		return ret;
	ctx->create_ev.ev.ctx_id = ctx->id;
	ctx->stop_ev.ev.ctx_id = ctx->id;
	ctx->flush_ev.ev.ctx_id = ctx->id;
	ctx->destroy_ev->ev.ctx_id = ctx->id;
	/* Storing into a reserved slot allocates nothing: it cannot fail. */
	xa_store(&dev->ctxs, ctx->id, ctx, GFP_KERNEL);
	atomic_inc(&dev->nr_ctxs);
	ctx->published = true;
	vgpu_fw_post(dev, &ctx->create_ev);
	return 0;
}

/*
 * The handle is reserved before the context is published to the device
 * (so that running out of handles needs no undoing of the publication)
 * and filled in last.  Everything the caller returns is read before
 * vf->lock is dropped: from then on another thread may destroy the
 * context through its handle.
 */
int vgpu_ioctl_ctx_create(struct vgpu_file *vf, void *data)
{
	struct vgpu_ctx_create *args = data;
	struct vgpu_dev *dev = vf->dev;
	struct vgpu_ctx *ctx;
	u32 handle;
	int ret;

	if (args->flags || args->pad)
		return vgpu_refuse(dev, -EINVAL,
				   "CTX_CREATE: flags 0x%x, pad 0x%x: must be zero",
				   args->flags, args->pad);
	/*
	 * No firmware, no GPU: say so now rather than fail the first piece
	 * of work later.  Checked again where it counts, in publish.
	 */
	if (!READ_ONCE(dev->fw_file))
		return vgpu_refuse(dev, -ENODEV, "CTX_CREATE: no firmware");
	ctx = vgpu_ctx_new(dev);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);

	mutex_lock(&vf->lock);
	ret = xa_alloc(&vf->ctxs, &handle, NULL, xa_limit_31b,
		       GFP_KERNEL_ACCOUNT);
	if (ret) {
		if (ret == -EBUSY)
			ret = vgpu_refuse(dev, -ENOSPC,
					  "CTX_CREATE: the file has no context handles left");
		goto err;
	}
	mutex_lock(&dev->lock);
	ret = vgpu_ctx_publish(dev, ctx);
	mutex_unlock(&dev->lock);
	if (ret) {
		xa_erase(&vf->ctxs, handle);
		goto err;
	}
	xa_store(&vf->ctxs, handle, ctx, GFP_KERNEL);
	args->handle = handle;
	args->ctx_id = ctx->id;
	mutex_unlock(&vf->lock);
	return 0;
err:
	mutex_unlock(&vf->lock);
	vgpu_ctx_put(ctx);
	return ret;
}

/**
 * vgpu_ctx_destroy() - destroy a context that has no queues left
 * @vf: its file; vf->lock held.
 * @ctx: the context; on success the caller's reference (the handle's) is
 *	dropped and the caller removes the handle.
 *
 * Return: 0, or -EBUSY if the context still has queues.
 */
int vgpu_ctx_destroy(struct vgpu_file *vf, struct vgpu_ctx *ctx)
{
	struct vgpu_dev *dev = vf->dev;

	mutex_lock(&dev->lock);
	if (!list_empty(&ctx->queues)) {
		mutex_unlock(&dev->lock);
		return vgpu_refuse(dev, -EBUSY,
				   "CTX_DESTROY: context %u still has queues",
				   ctx->id);
	}
	xa_erase(&dev->ctxs, ctx->id);
	ctx->published = false;
	atomic_dec(&dev->nr_ctxs);
	vgpu_fw_cancel(dev, &ctx->stop_ev);
	vgpu_fw_cancel(dev, &ctx->flush_ev);
	if (!list_empty(&ctx->create_ev.node)) {
		/* The firmware never heard of it: it needs no farewell. */
		vgpu_fw_cancel(dev, &ctx->create_ev);
		mutex_unlock(&dev->lock);
		vgpu_ctx_put(ctx);
		return 0;
	}
	ctx->destroy_seq = vgpu_fw_post(dev, ctx->destroy_ev);
	ctx->destroy_ev = NULL;
	/* Page tables and mappings stay until the firmware let go. */
	ctx->destroyed.release = vgpu_ctx_release_deferred;
	vgpu_fw_defer(dev, &ctx->destroyed, ctx->destroy_seq);
	mutex_unlock(&dev->lock);
	return 0;
}

int vgpu_ioctl_ctx_destroy(struct vgpu_file *vf, void *data)
{
	struct vgpu_handle_arg *args = data;
	struct vgpu_ctx *ctx;
	int ret;

	if (args->flags)
		return vgpu_refuse(vf->dev, -EINVAL,
				   "CTX_DESTROY: flags 0x%x: none defined",
				   args->flags);
	mutex_lock(&vf->lock);
	ctx = xa_load(&vf->ctxs, args->handle);
	if (!ctx) {
		ret = vgpu_refuse(vf->dev, -ENOENT,
				  "CTX_DESTROY: handle %u: no such context",
				  args->handle);
	} else {
		ret = vgpu_ctx_destroy(vf, ctx);
		if (!ret)
			xa_erase(&vf->ctxs, args->handle);
	}
	mutex_unlock(&vf->lock);
	return ret;
}

int vgpu_ioctl_ctx_status(struct vgpu_file *vf, void *data)
{
	struct vgpu_ctx_status *args = data;
	struct vgpu_ctx *ctx;

	if (args->flags)
		return vgpu_refuse(vf->dev, -EINVAL,
				   "CTX_STATUS: flags 0x%x: none defined",
				   args->flags);
	ctx = vgpu_ctx_lookup(vf, args->handle);
	if (!ctx)
		return vgpu_refuse(vf->dev, -ENOENT,
				   "CTX_STATUS: handle %u: no such context",
				   args->handle);
	spin_lock(&vf->dev->state_lock);
	args->state = ctx->state;
	args->fault_count = ctx->fault_count;
	args->fault = ctx->fault;
	spin_unlock(&vf->dev->state_lock);
	vgpu_ctx_put(ctx);
	return 0;
}

/**
 * vgpu_ctx_lookup() - find a context of an open file
 * @vf: the file.
 * @handle: its handle.
 *
 * Return: the context with a new reference, or NULL.
 */
struct vgpu_ctx *vgpu_ctx_lookup(struct vgpu_file *vf, u32 handle)
{
	struct vgpu_ctx *ctx;

	mutex_lock(&vf->lock);
	ctx = xa_load(&vf->ctxs, handle);
	if (ctx)
		kref_get(&ctx->ref);
	mutex_unlock(&vf->lock);
	return ctx;
}

/**
 * vgpu_ctx_usable() - can new work run in this context?
 * @ctx: the context.
 *
 * Return: 0, -ENODEV if the device was lost under it, or -ECANCELED if a
 * fault, the execution limit or a hung engine stopped it.
 */
int vgpu_ctx_usable(struct vgpu_ctx *ctx)
{
	u32 state = READ_ONCE(ctx->state);

	if (state & VGPU_CTX_STATE_LOST)
		return -ENODEV;
	if (state & (VGPU_CTX_STATE_FAULTED | VGPU_CTX_STATE_GUILTY))
		return -ECANCELED;
	return 0;
}

/**
 * vgpu_ctx_kill() - stop a context for good
 * @ctx: the context; vgpu_dev.lock held.
 * @fault: the fault record, or NULL (device lost).
 * @state: VGPU_CTX_STATE_* bits to set.
 *
 * The first fault is kept for VGPU_IOCTL_CTX_STATUS; every queue of the
 * context is stopped and its waiters woken; the firmware is told to stop
 * running the context's work.
 */
void vgpu_ctx_kill(struct vgpu_ctx *ctx, const struct vgpu_fault *fault,
		   u32 state)
{
	struct vgpu_dev *dev = ctx->dev;
	u32 error = state & VGPU_CTX_STATE_LOST ?
		VGPU_QUEUE_ERROR_DEVICE_LOST : VGPU_QUEUE_ERROR_CTX_DEAD;
	struct vgpu_queue *q;

	lockdep_assert_held(&dev->lock);
	spin_lock(&dev->state_lock);
	if (fault) {
		if (!ctx->fault_count)
			ctx->fault = *fault;
		ctx->fault_count++;
	}
	WRITE_ONCE(ctx->state, ctx->state | state);
	spin_unlock(&dev->state_lock);

	list_for_each_entry(q, &ctx->queues, node)
		vgpu_queue_set_error(q, error);
	if (!(state & VGPU_CTX_STATE_LOST) && ctx->published)
		vgpu_fw_post(dev, &ctx->stop_ev);
}
