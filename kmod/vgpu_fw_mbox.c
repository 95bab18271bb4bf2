// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_fw_mbox.c - the firmware's mailbox: records out, acknowledgments in
 *
 * The driver talks to its firmware through one mailbox per device, the
 * way ivpu_ipc.c carries messages for the code that uses them: this file
 * knows records and sequence numbers, not contexts or queues.  Contexts,
 * queues and the MMU post records here (vgpu_fw_post()) and hand over what
 * must outlive the firmware's view of it (vgpu_fw_defer()); the firmware
 * read()s the records and acknowledges them (VGPU_IOCTL_FW_ACK).  The
 * firmware's other ioctls, which act on contexts and queues, are in
 * vgpu_fw.c, above both:
 *
 *      vgpu_fw.c  (attach, detach, interrupts: SIGNAL, FAULT)
 *        |     \
 *        v      v
 *   vgpu_ctx.c, vgpu_queue.c, vgpu_mmu.c
 *        |      /
 *        v     v
 *      vgpu_fw_mbox.c  (post, cancel, defer; read, ACK)
 *
 * Taking memory away from the device is a two-step affair, as on real GPUs
 * where the driver waits for a TLB invalidation to complete: UNMAP and
 * CTX_DESTROY post a record, and the memory stays allocated (struct
 * vgpu_deferred) until the firmware acknowledges with VGPU_IOCTL_FW_ACK
 * that it handled the record.  So a kernel still running with a stale
 * translation can neither reach memory given to someone else nor crash the
 * firmware with a SIGBUS.  Without a firmware, or when it detaches, there
 * is no one to wait for and the memory goes at once.
 *
 * Records live in a list of struct vgpu_event.  Most are embedded in their
 * object and re-posted at most once while pending, so a flood of kicks or
 * unmaps costs no memory; destroy records are allocated when the object is
 * created, so destroying never fails; and an object destroyed before the
 * firmware read its creation simply vanishes from the list.
 */
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "vgpu_drv.h"

/**
 * vgpu_fw_post() - queue a record for the firmware
 * @dev: the device; dev->lock held.
 * @e: the record; a record already pending is not queued twice.
 *
 * Without a firmware the record is dropped (freed if it is one-shot).  A
 * record posted again while pending keeps its place and takes the new
 * sequence number.  Only records of published objects may be posted: an
 * embedded record must never stay queued after its object is gone.
 *
 * Return: the record's sequence number, 0 if it was dropped.
 */
u64 vgpu_fw_post(struct vgpu_dev *dev, struct vgpu_event *e)
{
	lockdep_assert_held(&dev->lock);
	if (!dev->fw_file) {
		if (e->kfree_after_read)
			kfree(e);
		return 0;
	}
	e->ev.seq = ++dev->post_seq;
	if (list_empty(&e->node)) {
		list_add_tail(&e->node, &dev->events);
		wake_up_interruptible(&dev->fw_wq);
	}
	return e->ev.seq;
}

/**
 * vgpu_fw_defer() - release something once the firmware acknowledged
 * @dev: the device; dev->lock held.
 * @d: what to release.
 * @seq: the record whose acknowledgment allows it; 0 if the firmware
 *	never heard of it.
 *
 * Without a firmware, for @seq 0, or for a record acknowledged already,
 * @d is released at once.  The list is
 * in @seq order but for items deferred on an older record (see
 * vgpu_ioctl_unmap()); those are released late, never early.
 */
void vgpu_fw_defer(struct vgpu_dev *dev, struct vgpu_deferred *d, u64 seq)
{
	lockdep_assert_held(&dev->lock);
	if (!dev->fw_file || !seq || seq <= dev->acked_seq) {
		d->release(d);
		return;
	}
	d->seq = seq;
	list_add_tail(&d->node, &dev->deferred);
}

/**
 * vgpu_fw_release_deferred() - release what the firmware acknowledged
 * @dev: the device; dev->lock held.
 * @seq: the last record acknowledged (U64_MAX: everything, the firmware
 *	is gone).
 */
void vgpu_fw_release_deferred(struct vgpu_dev *dev, u64 seq)
{
	struct vgpu_deferred *d, *tmp;

	/* Not past what was posted: a later firmware acks its own records. */
	dev->acked_seq = max(dev->acked_seq, min(seq, dev->post_seq));
	list_for_each_entry_safe(d, tmp, &dev->deferred, node) {
		if (d->seq > seq)
			break;
		list_del(&d->node);
		d->release(d);
	}
}

/**
 * vgpu_fw_is_current() - is this file the attached firmware?
 * @vf: a file with is_fw set.
 *
 * Return: false once it was detached as hung (it stays a firmware file,
 * so that client ioctls keep failing, but serves nothing).  Stable under
 * vgpu_dev.lock.
 */
bool vgpu_fw_is_current(struct vgpu_file *vf)
{
	return READ_ONCE(vf->dev->fw_file) == vf->filp;
}

int vgpu_ioctl_fw_ack(struct vgpu_file *vf, void *data)
{
	struct vgpu_fw_ack *args = data;
	struct vgpu_dev *dev = vf->dev;
	int ret = 0;

	if (!READ_ONCE(vf->is_fw))
		return vgpu_refuse(dev, -EPERM, "FW_ACK: not the firmware's file");
	if (args->flags || args->pad)
		return vgpu_refuse(dev, -EINVAL,
				   "FW_ACK: flags 0x%x, pad 0x%x: must be zero",
				   args->flags, args->pad);
	mutex_lock(&dev->lock);
	if (!vgpu_fw_is_current(vf))
		ret = vgpu_refuse(dev, -ENODEV,
				  "FW_ACK: this firmware was detached");
	else if (args->seq > dev->post_seq)
		ret = vgpu_refuse(dev, -EINVAL,
				  "FW_ACK: seq %llu was never posted (last %llu)",
				  args->seq, dev->post_seq);
	else
		vgpu_fw_release_deferred(dev, args->seq);
	mutex_unlock(&dev->lock);
	return ret;
}

/**
 * vgpu_fw_cancel() - withdraw a pending embedded record
 * @dev: the device; dev->lock held.
 * @e: the record (its owner is going away).
 */
void vgpu_fw_cancel(struct vgpu_dev *dev, struct vgpu_event *e)
{
	lockdep_assert_held(&dev->lock);
	list_del_init(&e->node);
}

/**
 * vgpu_fw_flush_events() - drop every pending record
 * @dev: the device; dev->lock held.
 */
void vgpu_fw_flush_events(struct vgpu_dev *dev)
{
	struct vgpu_event *e, *tmp;

	list_for_each_entry_safe(e, tmp, &dev->events, node) {
		list_del_init(&e->node);
		if (e->kfree_after_read)
			kfree(e);
	}
}

#define VGPU_FW_READ_BATCH	16

/* Move up to @max records into @out; dev->lock held. */
static size_t vgpu_fw_pop(struct vgpu_dev *dev, struct vgpu_fw_event *out,
			  size_t max)
{
	size_t n = 0;

	while (n < max && !list_empty(&dev->events)) {
		struct vgpu_event *e = list_first_entry(&dev->events,
							struct vgpu_event,
							node);

		out[n++] = e->ev;
		list_del_init(&e->node);
		if (e->kfree_after_read)
			kfree(e);
	}
	return n;
}

/**
 * vgpu_fw_read() - read() on the firmware's file
 * @vf: the file.
 * @buf: user buffer.
 * @len: its size; at least one record.
 * @nonblock: O_NONBLOCK: -EAGAIN instead of sleeping.
 *
 * Return: bytes of whole records read, or a negative errno (-ENODEV once
 * the firmware was detached as hung).
 */
ssize_t vgpu_fw_read(struct vgpu_file *vf, char __user *buf, size_t len,
		     bool nonblock)
{
	struct vgpu_fw_event batch[VGPU_FW_READ_BATCH];
	struct vgpu_dev *dev = vf->dev;
	size_t n;
	int ret;

	if (len < sizeof(batch[0]))
		return vgpu_refuse(dev, -EINVAL,
				   "firmware read: length %zu below one record (%zu)",
				   len, sizeof(batch[0]));
	for (;;) {
		mutex_lock(&dev->lock);
		if (!vgpu_fw_is_current(vf)) {
			mutex_unlock(&dev->lock);
			return vgpu_refuse(dev, -ENODEV,
					   "firmware read: this firmware was detached");
		}
		n = vgpu_fw_pop(dev, batch, min_t(size_t, len / sizeof(batch[0]),
						  VGPU_FW_READ_BATCH));
		mutex_unlock(&dev->lock);
		if (n)
			break;
		if (nonblock)
			return -EAGAIN;
		ret = wait_event_interruptible(dev->fw_wq,
					       !list_empty(&dev->events) ||
					       !vgpu_fw_is_current(vf));
		if (ret)
			return ret;
	}
	if (copy_to_user(buf, batch, n * sizeof(batch[0])))
		return -EFAULT;
	return n * sizeof(batch[0]);
}
