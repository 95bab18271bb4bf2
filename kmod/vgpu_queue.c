// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_queue.c - user-mode queues, fences and waits
 *
 * A queue is three things shared with user space (vgpu_hw.h): a ring of
 * packets, a doorbell page (the application's write pointer; the
 * firmware's read pointer and "sleeping" flag) and a fence page (the last
 * completed fence, written only by the driver).  Submitting work needs no
 * system call: the application writes packets and the doorbell, and the
 * firmware, which polls doorbells, picks them up.  Only when the firmware
 * said it sleeps does the application call VGPU_IOCTL_QUEUE_KICK.
 *
 * Completion runs the other way: the firmware reports a fence with
 * VGPU_IOCTL_FW_SIGNAL (the "interrupt"); the driver publishes it in the
 * fence page and wakes the queue's waiters, its eventfd and poll() on the
 * owning file.
 *
 * A queue may wait as long as its work takes: a kernel that runs for hours,
 * or a queue waiting behind another process's kernel, is not a hang.  What
 * really hangs - a firmware that stops answering, an engine that stops
 * making progress - is caught by the hang detector (vgpu_watchdog.c), and a
 * per-kernel execution limit exists only when the administrator sets one.
 *
 * Ordering.  Every barrier of the queue protocol pairs with one on another
 * side of the stack; the comment at each names its partner (user space
 * spells them with the names of its own barrier header):
 *
 *   application (libvgpu)       driver (here)            firmware (vgpu-fw)
 *   ---------------------       -------------            ------------------
 *   vgpu_queue_submit():                                 engine.c
 *     wptr store-release  ..............................> wptr load-acquire
 *     full fence                                          set_sleeping(1),
 *     load fw_sleeping    <..............................   full fence,
 *     set: QUEUE_KICK ---> vgpu_ioctl_queue_kick()          reload wptrs
 *                          posts under dev->lock ------> read() in device.c
 *                                                          wakes the engine
 *
 *                                                        packets.c FENCE:
 *                                                          earlier work done,
 *                          vgpu_queue_signal()  <------- fw_signal_fence()
 *   vgpu_queue_completed()   (FW_SIGNAL ioctl)
 *     load-acquire  <......  smp_store_release(completed)
 *   vgpu_queue_error()       vgpu_queue_set_error():
 *     load-acquire  <......  smp_store_release(error)
 *
 *   (....> a barrier pair through shared memory; ---> a system call, whose
 *   locks order everything before it with everything after.)
 *
 * The driver never reads the doorbell: the wptr/fw_sleeping handshake is
 * between the application and the firmware alone (vgpu_hw.h).
 */
#include <linux/eventfd.h>
#include <linux/file.h>
#include <linux/gfp.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#include "vgpu_drv.h"

#define VGPU_RING_MIN	SZ_4K
#define VGPU_RING_MAX	SZ_1M

/* Queue destroyed while someone waited on it (internal error value). */
#define VGPU_QUEUE_ERROR_DESTROYED	0x100

static void vgpu_eventfd_notify(struct eventfd_ctx *efd)
{
#ifdef VGPU_EVENTFD_SIGNAL_NO_COUNT
	eventfd_signal(efd);
#else
	eventfd_signal(efd, 1);
#endif
}

void vgpu_queue_get(struct vgpu_queue *q)
{
	kref_get(&q->ref);
}

static void vgpu_queue_release(struct kref *ref)
{
	struct vgpu_queue *q = container_of(ref, struct vgpu_queue, ref);
	unsigned int i;

	if (q->ring) {
		for (i = 0; i < q->ring_size >> PAGE_SHIFT; i++)
			if (q->ring[i])
				__free_page(q->ring[i]);
		kfree(q->ring);
	}
	if (q->doorbell)
		__free_page(q->doorbell);
	if (q->fence)
		__free_page(q->fence);
	if (q->eventfd)
		eventfd_ctx_put(q->eventfd);
	if (q->user) {
		vgpu_user_uncharge(q->user, VGPU_RES_QUEUE, q->charged);
		vgpu_user_put(q->user);
	}
	kfree(q->destroy_ev);
	vgpu_ctx_put(q->ctx);
	kfree(q);
}

void vgpu_queue_put(struct vgpu_queue *q)
{
	kref_put(&q->ref, vgpu_queue_release);
}

static struct vgpu_fence_page *vgpu_fence_page(struct vgpu_queue *q)
{
	return page_address(q->fence);
}

/*
 * Queue pages are charged to the memory cgroup of the process asking, and
 * refused rather than OOM-killed for (VGPU_GFP_USER_PAGES).
 */
static struct page *vgpu_zeroed_page(void)
{
	return alloc_page(VGPU_GFP_USER_PAGES);
}

/* Charge the pages of @q (ring, doorbell, fence) to the calling user. */
static int vgpu_queue_charge(struct vgpu_queue *q)
{
	unsigned long npages = (q->ring_size >> PAGE_SHIFT) + 2;
	int ret;

	q->user = vgpu_user_get(q->dev);
	if (!q->user)
		return -ENOMEM;
	ret = vgpu_user_charge(q->user, VGPU_RES_QUEUE, npages);
	if (!ret)
		q->charged = npages;
	return ret;
}

/*
 * A queue with its memory; @ctx's reference moves to the queue.  Returns
 * ERR_PTR(-ENOMEM), or ERR_PTR(-EDQUOT) when the user has its share of
 * queue memory.
 */
static struct vgpu_queue *vgpu_queue_new(struct vgpu_ctx *ctx, u32 engine,
					 u32 ring_size)
{
	unsigned int i, npages = ring_size >> PAGE_SHIFT;
	struct vgpu_queue *q = kzalloc(sizeof(*q), GFP_KERNEL_ACCOUNT);
	int ret;

	if (!q) {
		vgpu_ctx_put(ctx);
		return ERR_PTR(-ENOMEM);
	}
	kref_init(&q->ref);
	q->dev = ctx->dev;
	q->ctx = ctx;
	q->engine = engine;
	q->ring_size = ring_size;
	init_waitqueue_head(&q->wq);
	INIT_LIST_HEAD(&q->node);
	INIT_LIST_HEAD(&q->create_ev.node);
	INIT_LIST_HEAD(&q->kick_ev.node);
	q->create_ev.ev.type = VGPU_FW_EV_QUEUE_CREATE;
	q->kick_ev.ev.type = VGPU_FW_EV_QUEUE_KICK;

	ret = vgpu_queue_charge(q);
	if (ret)
		goto err;
	ret = -ENOMEM;
	q->ring = kcalloc(npages, sizeof(*q->ring), GFP_KERNEL_ACCOUNT);
	q->doorbell = vgpu_zeroed_page();
	q->fence = vgpu_zeroed_page();
	q->destroy_ev = kzalloc(sizeof(*q->destroy_ev), GFP_KERNEL_ACCOUNT);
	if (!q->ring || !q->doorbell || !q->fence || !q->destroy_ev)
		goto err;
	for (i = 0; i < npages; i++) {
		q->ring[i] = vgpu_zeroed_page();
		if (!q->ring[i])
			goto err;
	}
	INIT_LIST_HEAD(&q->destroy_ev->node);
	q->destroy_ev->ev.type = VGPU_FW_EV_QUEUE_DESTROY;
	q->destroy_ev->kfree_after_read = true;
	return q;
err:
	vgpu_queue_put(q);
	return ERR_PTR(ret);
}

/* Fill in the firmware's records once the id is known. */
static void vgpu_queue_set_id(struct vgpu_queue *q, u32 id)
{
	struct vgpu_fw_event *ev = &q->create_ev.ev;

	q->id = id;
	ev->ctx_id = q->ctx->id;
	ev->queue_id = id;
	ev->engine = q->engine;
	ev->arg0 = q->ring_size;
	ev->arg1 = vgpu_mmap_offset(VGPU_MMAP_FW_RING, id);
	ev->arg2 = vgpu_mmap_offset(VGPU_MMAP_FW_DOORBELL, id);
	q->kick_ev.ev.ctx_id = q->ctx->id;
	q->kick_ev.ev.queue_id = id;
	q->destroy_ev->ev.ctx_id = q->ctx->id;
	q->destroy_ev->ev.queue_id = id;
}

/*
 * Make @q known to the device and the firmware; dev->lock held.  The id is
 * reserved first, the queue stored under it once it is on its context's
 * list and its records name it.
 */
static int vgpu_queue_publish(struct vgpu_file *vf, struct vgpu_queue *q)
{
	struct vgpu_dev *dev = vf->dev;
	u32 id;
	int ret;

	/* The context may have been destroyed since it was looked up. */
	if (!q->ctx->published)
		return vgpu_refuse(dev, -ENOENT,
				   "QUEUE_CREATE: context %u destroyed meanwhile",
				   q->ctx->id);
	ret = vgpu_ctx_usable(q->ctx);
	if (ret)
		return vgpu_refuse(dev, ret,
				   "QUEUE_CREATE: context %u is %s", q->ctx->id,
				   ret == -ENODEV ? "lost" : "stopped by a fault");
	/* Cyclic, for the reason vgpu_ctx_publish() gives. */
	ret = xa_alloc_cyclic(&dev->queues, &id, NULL, xa_limit_31b,
			      &dev->next_queue_id, GFP_KERNEL_ACCOUNT);
	if (ret == -EBUSY)
		return vgpu_refuse(dev, -ENOSPC,
				   "QUEUE_CREATE: the device has no queue ids left");
	if (ret < 0)
		return ret;
	vgpu_queue_set_id(q, id);
	q->file = vf;
	list_add_tail(&q->node, &q->ctx->queues);
	/* Storing into a reserved slot allocates nothing: it cannot fail. */
	xa_store(&dev->queues, id, q, GFP_KERNEL);
	vgpu_fw_post(dev, &q->create_ev);
	return 0;
}

/*
 * As for contexts (vgpu_ioctl_ctx_create()): the handle is reserved first,
 * filled in last, and the results are read before vf->lock is dropped.
 */
int vgpu_ioctl_queue_create(struct vgpu_file *vf, void *data)
{
	struct vgpu_queue_create *args = data;
	struct vgpu_dev *dev = vf->dev;
	struct vgpu_queue *q;
	struct vgpu_ctx *ctx;
	u32 handle;
	int ret;

	if (args->flags || args->engine > VGPU_ENGINE_MAX)
		return vgpu_refuse(dev, -EINVAL,
				   "QUEUE_CREATE: flags 0x%x (none defined) or engine %u (at most %u)",
				   args->flags, args->engine, VGPU_ENGINE_MAX);
	if (args->ring_size < VGPU_RING_MIN || args->ring_size > VGPU_RING_MAX ||
	    !is_power_of_2(args->ring_size))
		return vgpu_refuse(dev, -EINVAL,
				   "QUEUE_CREATE: ring_size %u not a power of two in [%u, %u]",
				   args->ring_size, VGPU_RING_MIN, VGPU_RING_MAX);
	ctx = vgpu_ctx_lookup(vf, args->ctx);
	if (!ctx)
		return vgpu_refuse(dev, -ENOENT,
				   "QUEUE_CREATE: ctx %u: no such context",
				   args->ctx);
	ret = vgpu_ctx_usable(ctx);
	if (ret) {
		vgpu_ctx_put(ctx);
		return vgpu_refuse(dev, ret, "QUEUE_CREATE: context %u is %s",
				   args->ctx,
				   ret == -ENODEV ? "lost" : "stopped by a fault");
	}
	q = vgpu_queue_new(ctx, args->engine, args->ring_size);
	if (IS_ERR(q))
		return PTR_ERR(q);

	mutex_lock(&vf->lock);
	if (vf->nr_queues >= vgpu_max_queues) {
		ret = vgpu_refuse(dev, -ENOSPC,
				  "QUEUE_CREATE: the file has max_queues (%u) queues",
				  vgpu_max_queues);
		goto err;
	}
	ret = xa_alloc(&vf->queues, &handle, NULL, VGPU_HANDLE_LIMIT,
		       GFP_KERNEL_ACCOUNT);
	if (ret) {
		if (ret == -EBUSY)
			ret = vgpu_refuse(dev, -ENOSPC,
					  "QUEUE_CREATE: the file has no queue handles left");
		goto err;
	}
	mutex_lock(&dev->lock);
	ret = vgpu_queue_publish(vf, q);
	mutex_unlock(&dev->lock);
	if (ret) {
		xa_erase(&vf->queues, handle);
		goto err;
	}
	xa_store(&vf->queues, handle, q, GFP_KERNEL);
	vf->nr_queues++;
	args->handle = handle;
	args->queue_id = q->id;
	mutex_unlock(&vf->lock);

	args->ring_offset = vgpu_mmap_offset(VGPU_MMAP_RING, handle);
	args->doorbell_offset = vgpu_mmap_offset(VGPU_MMAP_DOORBELL, handle);
	args->fence_offset = vgpu_mmap_offset(VGPU_MMAP_FENCE, handle);
	return 0;
err:
	mutex_unlock(&vf->lock);
	vgpu_queue_put(q);
	return ret;
}

/**
 * vgpu_queue_destroy() - unpublish a queue and drop its handle's reference
 * @vf: the owning file; vf->lock held, the handle already removed.
 * @q: the queue.
 *
 * Waiters still inside VGPU_IOCTL_WAIT return -ENOENT.  mmaps keep the
 * queue's memory until they go away.
 */
void vgpu_queue_destroy(struct vgpu_file *vf, struct vgpu_queue *q)
{
	struct vgpu_dev *dev = vf->dev;

	mutex_lock(&dev->lock);
	xa_erase(&dev->queues, q->id);
	list_del_init(&q->node);
	vgpu_fw_cancel(dev, &q->kick_ev);
	if (!list_empty(&q->create_ev.node)) {
		vgpu_fw_cancel(dev, &q->create_ev);
	} else {
		vgpu_fw_post(dev, q->destroy_ev);
		q->destroy_ev = NULL;
	}
	q->file = NULL;
	spin_lock(&dev->state_lock);
	if (!q->error)
		q->error = VGPU_QUEUE_ERROR_DESTROYED;
	spin_unlock(&dev->state_lock);
	wake_up_all(&q->wq);
	mutex_unlock(&dev->lock);
	vf->nr_queues--;
	vgpu_queue_put(q);
}

int vgpu_ioctl_queue_destroy(struct vgpu_file *vf, void *data)
{
	struct vgpu_handle_arg *args = data;
	struct vgpu_queue *q;

	if (args->flags)
		return vgpu_refuse(vf->dev, -EINVAL,
				   "QUEUE_DESTROY: flags 0x%x: none defined",
				   args->flags);
	mutex_lock(&vf->lock);
	q = xa_erase(&vf->queues, args->handle);
	if (q)
		vgpu_queue_destroy(vf, q);
	mutex_unlock(&vf->lock);
	if (!q)
		return vgpu_refuse(vf->dev, -ENOENT,
				   "QUEUE_DESTROY: handle %u: no such queue",
				   args->handle);
	return 0;
}

/**
 * vgpu_queue_lookup() - find a queue of an open file
 * @vf: the file.
 * @handle: its handle.
 *
 * Return: the queue with a new reference, or NULL.
 */
struct vgpu_queue *vgpu_queue_lookup(struct vgpu_file *vf, u32 handle)
{
	struct vgpu_queue *q;

	mutex_lock(&vf->lock);
	q = xa_load(&vf->queues, handle);
	if (q)
		vgpu_queue_get(q);
	mutex_unlock(&vf->lock);
	return q;
}

int vgpu_ioctl_queue_kick(struct vgpu_file *vf, void *data)
{
	struct vgpu_handle_arg *args = data;
	struct vgpu_dev *dev = vf->dev;
	struct vgpu_queue *q;
	int ret;

	if (args->flags)
		return vgpu_refuse(dev, -EINVAL,
				   "QUEUE_KICK: flags 0x%x: none defined",
				   args->flags);
	q = vgpu_queue_lookup(vf, args->handle);
	if (!q)
		return vgpu_refuse(dev, -ENOENT,
				   "QUEUE_KICK: handle %u: no such queue",
				   args->handle);
	mutex_lock(&dev->lock);
	/* Destroyed since the lookup: its record must not be queued again. */
	ret = q->file ? vgpu_ctx_usable(q->ctx) : -ENOENT;
	if (!ret && !dev->fw_file)
		ret = -ENODEV;
	if (!ret)
		vgpu_fw_post(dev, &q->kick_ev);
	mutex_unlock(&dev->lock);
	if (ret)
		vgpu_refuse(dev, ret,
			    "QUEUE_KICK: queue %u destroyed, its context stopped, or no firmware",
			    q->id);
	vgpu_queue_put(q);
	return ret;
}

/* The errno a wait returns for a queue's error state. */
static int vgpu_queue_errno(u32 error)
{
	switch (error) {
	case VGPU_QUEUE_ERROR_DEVICE_LOST:
		return -ENODEV;
	case VGPU_QUEUE_ERROR_CTX_DEAD:
		return -ECANCELED;
	default:
		return -ENOENT;
	}
}

/*
 * Pairs with the WRITE_ONCE()s of vgpu_queue_signal() and
 * vgpu_queue_set_error(): wait_event and wake_up_all() order the condition
 * with the sleep, so plain once-loads suffice here.
 */
static bool vgpu_wait_done(struct vgpu_queue *q, u64 fence)
{
	return READ_ONCE(q->completed) >= fence || READ_ONCE(q->error);
}

int vgpu_ioctl_wait(struct vgpu_file *vf, void *data)
{
	struct vgpu_wait *args = data;
	struct vgpu_queue *q;
	s64 left;
	int ret = 0;

	if (args->flags)
		return vgpu_refuse(vf->dev, -EINVAL,
				   "WAIT: flags 0x%x: none defined", args->flags);
	q = vgpu_queue_lookup(vf, args->queue);
	if (!q)
		return vgpu_refuse(vf->dev, -ENOENT,
				   "WAIT: queue %u: no such queue", args->queue);
	/*
	 * The deadline is absolute: if a signal interrupts the wait and the
	 * system call is restarted, the same deadline still holds.
	 */
	left = args->timeout_ns - ktime_get_ns();
	if (left > 0)
		ret = wait_event_interruptible_hrtimeout(q->wq,
							 vgpu_wait_done(q, args->fence),
							 ns_to_ktime(left));
	if (ret != -ERESTARTSYS) {
		if (READ_ONCE(q->completed) >= args->fence)
			ret = 0;
		else if (READ_ONCE(q->error))
			ret = vgpu_queue_errno(READ_ONCE(q->error));
		else
			ret = -ETIME;
	}
	vgpu_queue_put(q);
	return ret;
}

int vgpu_ioctl_queue_eventfd(struct vgpu_file *vf, void *data)
{
	struct vgpu_queue_eventfd *args = data;
	struct vgpu_dev *dev = vf->dev;
	struct eventfd_ctx *efd = NULL, *old;
	struct vgpu_queue *q;

	if (args->fd < -1)
		return vgpu_refuse(dev, -EBADF,
				   "QUEUE_EVENTFD: fd %d (-1 clears)", args->fd);
	q = vgpu_queue_lookup(vf, args->queue);
	if (!q)
		return vgpu_refuse(dev, -ENOENT,
				   "QUEUE_EVENTFD: queue %u: no such queue",
				   args->queue);
	if (args->fd >= 0) {
		efd = eventfd_ctx_fdget(args->fd);
		if (IS_ERR(efd)) {
			vgpu_queue_put(q);
			return vgpu_refuse(dev, PTR_ERR(efd),
					   "QUEUE_EVENTFD: fd %d is not an eventfd",
					   args->fd);
		}
	}
	mutex_lock(&dev->lock);
	old = q->eventfd;
	q->eventfd = efd;
	mutex_unlock(&dev->lock);
	if (old)
		eventfd_ctx_put(old);
	vgpu_queue_put(q);
	return 0;
}

/**
 * vgpu_queue_interrupt() - tell everyone who listens to @q that it changed
 * @q: a published queue; vgpu_dev.lock held.
 */
void vgpu_queue_interrupt(struct vgpu_queue *q)
{
	lockdep_assert_held(&q->dev->lock);
	wake_up_all(&q->wq);
	if (q->eventfd)
		vgpu_eventfd_notify(q->eventfd);
	if (q->file) {
		atomic64_inc(&q->file->irqs);
		wake_up_interruptible(&q->file->irq_wq);
	}
}

/**
 * vgpu_queue_set_error() - stop a queue
 * @q: a published queue; vgpu_dev.lock held.
 * @error: VGPU_QUEUE_ERROR_*; the first error stays.
 */
void vgpu_queue_set_error(struct vgpu_queue *q, u32 error)
{
	spin_lock(&q->dev->state_lock);
	if (!q->error) {
		WRITE_ONCE(q->error, error);
		/*
		 * Pairs with the load-acquire of vgpu_queue_error() in
		 * umd/libvgpu/queue.c: a program that sees the error sees
		 * the fault record stored before it (vgpu_ctx_kill()).
		 */
		smp_store_release(&vgpu_fence_page(q)->error, error);
	}
	spin_unlock(&q->dev->state_lock);
	vgpu_queue_interrupt(q);
}

/**
 * vgpu_queue_signal() - the firmware completed @fence on @q
 * @q: a published queue; vgpu_dev.lock held.
 * @fence: the new completed value.
 *
 * Return: 0, or -EINVAL if @fence goes backwards.
 */
int vgpu_queue_signal(struct vgpu_queue *q, u64 fence)
{
	spin_lock(&q->dev->state_lock);
	if (fence < q->completed) {
		spin_unlock(&q->dev->state_lock);
		return vgpu_refuse(q->dev, -EINVAL,
				   "FW_SIGNAL: queue %u fence %llu goes back from %llu",
				   q->id, fence, q->completed);
	}
	/* In-kernel waiters: wake_up_all() orders it (vgpu_wait_done()). */
	WRITE_ONCE(q->completed, fence);
	/*
	 * Pairs with the load-acquire of vgpu_queue_completed() in
	 * umd/libvgpu/queue.c.  The firmware stored the fence's results
	 * (through its VRAM and GART mappings) before fw_signal_fence()
	 * (firmware_sim/fw/interrupts.c) made this system call; the release
	 * is cumulative, so a program that sees @fence also sees them, on
	 * CPUs that order stores less strictly than x86.
	 */
	smp_store_release(&vgpu_fence_page(q)->completed, fence);
	spin_unlock(&q->dev->state_lock);
	vgpu_queue_interrupt(q);
	return 0;
}
