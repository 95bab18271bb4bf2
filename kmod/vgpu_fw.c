// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_fw.c - the firmware link: attach, detach, interrupts
 *
 * The "hardware" of a vGPU is a privileged user-space process, the
 * firmware.  It attaches to a device by VGPU_IOCTL_FW_ATTACH on an open
 * file, which from then on is the device end of the driver:
 *
 *  - read() returns struct vgpu_fw_event records: contexts and queues
 *    appearing and going, doorbell kicks, TLB flushes, contexts to stop
 *    (the mailbox, vgpu_fw_mbox.c);
 *  - mmap() gives it all of VRAM, the GART aperture, and each queue's ring
 *    and doorbell (the offsets come in the records);
 *  - VGPU_IOCTL_FW_SIGNAL and VGPU_IOCTL_FW_FAULT are its interrupts
 *    (here: they act on queues and contexts).
 *
 * Closing the file (or dying) detaches it: every context that exists is
 * marked lost, waiters fail with -ENODEV, and a firmware that attaches
 * later is told about all surviving contexts and queues, so the device
 * serves new work again.  A firmware that stops sending heartbeats is
 * detached the same way by the hang detector (vgpu_watchdog.c), without
 * waiting for it to close its file: its mappings are revoked, and
 * whatever it does later with the file fails with -ENODEV.
 *
 * Without a firmware the device cannot run anything, so no context can be
 * created (-ENODEV): a program learns at once that the GPU is unusable.
 *
 * This file calls down into contexts, queues and the mailbox; none of
 * them calls up into it (see the figure in vgpu_fw_mbox.c).
 */
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/mm.h>

#include "vgpu_drv.h"

/* Tell a new firmware about every context and queue; dev->lock held. */
static void vgpu_fw_replay(struct vgpu_dev *dev)
{
	struct vgpu_queue *q;
	struct vgpu_ctx *ctx;
	unsigned long id;

	xa_for_each(&dev->ctxs, id, ctx) {
		vgpu_fw_post(dev, &ctx->create_ev);
		list_for_each_entry(q, &ctx->queues, node)
			vgpu_fw_post(dev, &q->create_ev);
		if (vgpu_ctx_usable(ctx))
			vgpu_fw_post(dev, &ctx->stop_ev);
	}
}

/*
 * Set the firmware file whose VRAM and GART mappings may be filled, and the
 * address space they live in (NULL: none).
 */
static void vgpu_fw_set_mapping(struct vgpu_dev *dev, struct file *file)
{
	mutex_lock(&dev->vram.lock);
	mutex_lock(&dev->gart.lock);
	mutex_lock(&vgpu_peer_lock);	/* peers read them too: vgpu_peer.c */
	dev->fw_map_file = file;
	dev->fw_mapping = file ? file->f_mapping : NULL;
	mutex_unlock(&vgpu_peer_lock);
	mutex_unlock(&dev->gart.lock);
	mutex_unlock(&dev->vram.lock);
}

/*
 * Remove every firmware mapping (VRAM, GART, rings, doorbells) of the
 * device's files: they are kinds VGPU_MMAP_FW_VRAM..FW_PEER_VRAM of the
 * offset space.  Client mappings are other kinds and stay.
 */
static void vgpu_fw_zap_mappings(struct address_space *mapping)
{
	loff_t first = vgpu_mmap_offset(VGPU_MMAP_FW_VRAM, 0);
	loff_t end = vgpu_mmap_offset(VGPU_MMAP_FW_PEER_VRAM + 1, 0);

	unmap_mapping_range(mapping, first, end - first, 1);
}

/**
 * vgpu_fw_post_config() - tell the firmware the parameters it enforces
 * @dev: the device; dev->lock held.
 *
 * Only a firmware that said it reads CONFIG records gets them; a pending
 * record is updated in place, so the firmware always reads the newest
 * value.
 */
void vgpu_fw_post_config(struct vgpu_dev *dev)
{
	lockdep_assert_held(&dev->lock);
	dev->config_ev.ev.arg0 = READ_ONCE(vgpu_kernel_exec_timeout_ms);
	if (dev->fw_file && (dev->fw_flags & VGPU_FW_ATTACH_CONFIG))
		vgpu_fw_post(dev, &dev->config_ev);
}

int vgpu_ioctl_fw_attach(struct vgpu_file *vf, void *data)
{
	struct vgpu_fw_attach *args = data;
	struct vgpu_dev *dev = vf->dev;
	int ret = 0;

	if (!capable(CAP_SYS_ADMIN))
		return vgpu_refuse(dev, -EPERM,
				   "FW_ATTACH: needs CAP_SYS_ADMIN");
	if ((args->flags & ~VGPU_FW_ATTACH_FLAGS) || args->pad)
		return vgpu_refuse(dev, -EINVAL,
				   "FW_ATTACH: unknown flags 0x%x or pad 0x%x not zero",
				   args->flags & ~VGPU_FW_ATTACH_FLAGS, args->pad);

	mutex_lock(&vf->lock);
	if (vf->is_fw || !xa_empty(&vf->bos) || !xa_empty(&vf->ctxs)) {
		ret = vgpu_refuse(dev, -EBUSY,
				  "FW_ATTACH: the file is a firmware already or has client objects");
		goto out;
	}
	mutex_lock(&dev->lock);
	if (dev->fw_file) {
		ret = vgpu_refuse(dev, -EBUSY,
				  "FW_ATTACH: another firmware is attached");
	} else {
		WRITE_ONCE(dev->fw_file, vf->filp);
		dev->fw_lost = false;
		dev->fw_flags = args->flags;
		vgpu_fw_set_mapping(dev, vf->filp);
		WRITE_ONCE(vf->is_fw, true);
		vgpu_watchdog_reset(dev);
		/* The parameters first: they apply to everything after. */
		vgpu_fw_post_config(dev);
		vgpu_fw_replay(dev);
	}
	mutex_unlock(&dev->lock);
out:
	mutex_unlock(&vf->lock);
	if (ret)
		return ret;
	args->vram_size = (u64)dev->vram.npages << PAGE_SHIFT;
	args->vram_offset = vgpu_mmap_offset(VGPU_MMAP_FW_VRAM, 0);
	args->gart_entries = dev->gart.nentries;
	args->gart_offset = vgpu_mmap_offset(VGPU_MMAP_FW_GART, 0);
	dev_info(dev->misc.this_device, "firmware attached (pid %d%s)\n",
		 task_tgid_nr(current),
		 args->flags & VGPU_FW_ATTACH_HEARTBEAT ? ", heartbeat" : "");
	return 0;
}

/**
 * vgpu_fw_lose() - the device has lost its firmware
 * @dev: the device, with a firmware attached; dev->lock held.
 *
 * Every existing context is marked lost.  The firmware's mappings are
 * revoked before the memory it never acknowledged is released: a firmware
 * declared hung may still be running, and must not reach memory that is
 * given to someone else.
 */
void vgpu_fw_lose(struct vgpu_dev *dev)
{
	struct address_space *mapping = dev->fw_mapping;
	struct vgpu_ctx *ctx;
	unsigned long id;

	lockdep_assert_held(&dev->lock);
	WRITE_ONCE(dev->fw_file, NULL);
	dev->fw_lost = true;
	dev->fw_flags = 0;
	/* Faults fail from now on; then remove what was mapped before. */
	vgpu_fw_set_mapping(dev, NULL);
	if (mapping)
		vgpu_fw_zap_mappings(mapping);
	vgpu_fw_flush_events(dev);
	vgpu_fw_release_deferred(dev, U64_MAX);
	xa_for_each(&dev->ctxs, id, ctx)
		vgpu_ctx_kill(ctx, NULL, VGPU_CTX_STATE_LOST);
	/* A firmware blocked in read() learns that it was detached. */
	wake_up_interruptible_all(&dev->fw_wq);
}

/**
 * vgpu_fw_detach() - the firmware's file is being released
 * @vf: a firmware's file.
 *
 * If it still serves the device (it was not detached as hung), the device
 * loses its firmware.
 */
void vgpu_fw_detach(struct vgpu_file *vf)
{
	struct vgpu_dev *dev = vf->dev;
	bool lost = false;

	mutex_lock(&dev->lock);
	if (vgpu_fw_is_current(vf)) {
		vgpu_fw_lose(dev);
		lost = true;
	}
	mutex_unlock(&dev->lock);
	if (lost)
		dev_info(dev->misc.this_device,
			 "firmware detached: device lost\n");
}

int vgpu_ioctl_fw_signal(struct vgpu_file *vf, void *data)
{
	struct vgpu_fw_signal *args = data;
	struct vgpu_dev *dev = vf->dev;
	struct vgpu_queue *q;
	int ret;

	if (!READ_ONCE(vf->is_fw))
		return vgpu_refuse(dev, -EPERM,
				   "FW_SIGNAL: not the firmware's file");
	if (args->flags)
		return vgpu_refuse(dev, -EINVAL,
				   "FW_SIGNAL: flags 0x%x: none defined",
				   args->flags);
	mutex_lock(&dev->lock);
	q = xa_load(&dev->queues, args->queue_id);
	if (!vgpu_fw_is_current(vf))
		ret = vgpu_refuse(dev, -ENODEV,
				  "FW_SIGNAL: this firmware was detached");
	else if (!q)
		ret = vgpu_refuse(dev, -ENOENT,
				  "FW_SIGNAL: queue_id %u: no such queue",
				  args->queue_id);
	else
		ret = vgpu_queue_signal(q, args->fence);
	mutex_unlock(&dev->lock);
	return ret;
}

int vgpu_ioctl_fw_fault(struct vgpu_file *vf, void *data)
{
	struct vgpu_fw_fault *args = data;
	struct vgpu_fault *fault = &args->fault;
	struct vgpu_dev *dev = vf->dev;
	struct vgpu_queue *q;
	int ret = 0;

	if (!READ_ONCE(vf->is_fw))
		return vgpu_refuse(dev, -EPERM,
				   "FW_FAULT: not the firmware's file");
	if (args->flags || args->pad)
		return vgpu_refuse(dev, -EINVAL,
				   "FW_FAULT: flags 0x%x, pad 0x%x: must be zero",
				   args->flags, args->pad);
	/* WATCHDOG too: the firmware enforces the per-kernel limit. */
	if (fault->kind == VGPU_FAULT_NONE ||
	    fault->kind > VGPU_FAULT_KIND_MAX || fault->engine > VGPU_ENGINE_MAX)
		return vgpu_refuse(dev, -EINVAL,
				   "FW_FAULT: kind %u (1..%u) or engine %u (at most %u)",
				   fault->kind, VGPU_FAULT_KIND_MAX,
				   fault->engine, VGPU_ENGINE_MAX);
	fault->kernel_name[sizeof(fault->kernel_name) - 1] = '\0';
	fault->message[sizeof(fault->message) - 1] = '\0';

	mutex_lock(&dev->lock);
	q = xa_load(&dev->queues, fault->queue_id);
	if (!vgpu_fw_is_current(vf))
		ret = vgpu_refuse(dev, -ENODEV,
				  "FW_FAULT: this firmware was detached");
	else if (q)
		vgpu_ctx_kill(q->ctx, fault, VGPU_CTX_STATE_FAULTED);
	else
		ret = vgpu_refuse(dev, -ENOENT,
				  "FW_FAULT: queue_id %u: no such queue",
				  fault->queue_id);
	mutex_unlock(&dev->lock);
	return ret;
}
