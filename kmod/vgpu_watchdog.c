// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_watchdog.c - hang detection: the firmware's heartbeat and the
 * progress of its engines
 *
 * A compute GPU has no time limit on kernels: a kernel may run for hours,
 * and a queue may wait as long as the kernels before it take.  A limit
 * exists only when the administrator sets kernel_exec_timeout_ms, and the
 * firmware enforces it per grid, counting only the time the grid was
 * scheduled (VGPU_FW_EV_CONFIG tells it the value).  The driver watches
 * what really hangs, from heartbeats the firmware sends (if it attached
 * with VGPU_FW_ATTACH_HEARTBEAT):
 *
 *   firmware                                   driver
 *   heartbeat thread, every 250 ms
 *     FW_HEARTBEAT { GR:  progress, RUNNABLE, ctx
 *                    CE0: progress, RUNNABLE, ctx
 *                    CE1: progress, RUNNABLE, ctx }
 *          ---------------------------------->  last heartbeat = now
 *                                               per engine: progress moved,
 *                                               or nothing runnable:
 *                                                 stall starts now
 *
 *                                               every hang_timeout_ms / 4:
 *                                               no heartbeat for T:
 *                                                 firmware hung -> detach,
 *                                                 device lost
 *                                               engine stalled for T:
 *                                                 stop the ctx running on
 *                                                 it (GUILTY, WATCHDOG);
 *                                                 no ctx, or stalled T more:
 *                                                 firmware hung
 *
 * Progress is the firmware's count of warp-instructions retired (GR) and
 * packets handled; a kernel spinning on a flag retires instructions, so it
 * is never a hang, and a queue stalled in WAIT_MEM is not runnable work.
 * Only the context the firmware names as running is ever blamed.
 */
#include <linux/jiffies.h>
#include <linux/uaccess.h>

#include "vgpu_drv.h"

/**
 * vgpu_watchdog_reset() - start every clock now
 * @dev: the device; dev->lock held.
 *
 * At attach: the new firmware has hang_timeout_ms for its first heartbeat.
 */
void vgpu_watchdog_reset(struct vgpu_dev *dev)
{
	unsigned int i;

	lockdep_assert_held(&dev->lock);
	dev->fw_heartbeat = jiffies;
	for (i = 0; i < VGPU_NUM_ENGINES; i++) {
		memset(&dev->engines[i], 0, sizeof(dev->engines[i]));
		dev->engines[i].since = jiffies;
	}
}

int vgpu_ioctl_fw_heartbeat(struct vgpu_file *vf, void *data)
{
	struct vgpu_fw_engine_status st[VGPU_NUM_ENGINES];
	struct vgpu_fw_heartbeat *args = data;
	struct vgpu_dev *dev = vf->dev;
	unsigned int i;
	int ret = 0;

	if (!READ_ONCE(vf->is_fw))
		return vgpu_refuse(dev, -EPERM,
				   "FW_HEARTBEAT: not the firmware's file");
	if (args->flags || args->num_engines != VGPU_NUM_ENGINES)
		return vgpu_refuse(dev, -EINVAL,
				   "FW_HEARTBEAT: flags 0x%x (none defined) or num_engines %u (the device has %u)",
				   args->flags, args->num_engines,
				   VGPU_NUM_ENGINES);
	if (copy_from_user(st, u64_to_user_ptr(args->engines), sizeof(st)))
		return vgpu_refuse(dev, -EFAULT,
				   "FW_HEARTBEAT: engines 0x%llx not readable",
				   args->engines);
	for (i = 0; i < VGPU_NUM_ENGINES; i++)
		if ((st[i].flags & ~VGPU_FW_ENGINE_RUNNABLE) || st[i].pad)
			return vgpu_refuse(dev, -EINVAL,
					   "FW_HEARTBEAT: engine %u: unknown flags 0x%x or pad 0x%x not zero",
					   i, st[i].flags & ~VGPU_FW_ENGINE_RUNNABLE,
					   st[i].pad);

	mutex_lock(&dev->lock);
	if (!vgpu_fw_is_current(vf)) {
		ret = vgpu_refuse(dev, -ENODEV,
				  "FW_HEARTBEAT: this firmware was detached");
		goto out;
	}
	dev->fw_heartbeat = jiffies;
	for (i = 0; i < VGPU_NUM_ENGINES; i++) {
		struct vgpu_engine_watch *w = &dev->engines[i];
		bool runnable = st[i].flags & VGPU_FW_ENGINE_RUNNABLE;

		if (!runnable || st[i].progress != w->progress) {
			w->since = jiffies;
			w->blamed = false;
		}
		w->progress = st[i].progress;
		w->ctx_id = st[i].ctx_id;
		w->runnable = runnable;
	}
out:
	mutex_unlock(&dev->lock);
	return ret;
}

/* The uAPI engine kind of hang-detector engine @i. */
static u32 vgpu_engine_kind(unsigned int i)
{
	return i < VGPU_NUM_COMPUTE_ENGINES ? VGPU_ENGINE_COMPUTE :
					      VGPU_ENGINE_COPY;
}

/*
 * Engine @i stalled for @ms: stop the context running on it.  Returns
 * false when there is nobody to blame - no context named, a context that
 * is gone or stopped already, or the same stall again after blaming one -
 * so the firmware itself is hung.  dev->lock held.
 */
static bool vgpu_engine_blame(struct vgpu_dev *dev, unsigned int i,
			      unsigned int ms)
{
	struct vgpu_engine_watch *w = &dev->engines[i];
	struct vgpu_fault fault = {
		.kind = VGPU_FAULT_WATCHDOG,
		.engine = vgpu_engine_kind(i),
	};
	struct vgpu_ctx *ctx;

	if (w->blamed || !w->ctx_id)
		return false;
	ctx = xa_load(&dev->ctxs, w->ctx_id);
	if (!ctx || vgpu_ctx_usable(ctx))
		return false;
	snprintf(fault.message, sizeof(fault.message),
		 "engine %u (%s) made no progress for %u ms", i,
		 fault.engine == VGPU_ENGINE_COMPUTE ? "GR" : "CE", ms);
	dev_warn(dev->misc.this_device,
		 "engine %u hung for %u ms: context %u stopped\n", i, ms,
		 ctx->id);
	vgpu_ctx_kill(ctx, &fault, VGPU_CTX_STATE_GUILTY);
	/* The firmware now has another hang_timeout_ms to let go of it. */
	w->blamed = true;
	w->since = jiffies;
	return true;
}

/* The firmware is hung: detach it as if it had died. */
static void vgpu_fw_hung(struct vgpu_dev *dev, unsigned int ms,
			 const char *why)
{
	dev_warn(dev->misc.this_device,
		 "firmware hung (%s for %u ms): detached, device lost\n", why,
		 ms);
	vgpu_fw_lose(dev);
}

/* One look at the device; dev->lock held. */
static void vgpu_hang_check(struct vgpu_dev *dev, unsigned int ms)
{
	unsigned long timeout = msecs_to_jiffies(ms);
	unsigned int i;

	if (!dev->fw_file || !(dev->fw_flags & VGPU_FW_ATTACH_HEARTBEAT))
		return;
	if (time_after(jiffies, dev->fw_heartbeat + timeout)) {
		vgpu_fw_hung(dev, ms, "no heartbeat");
		return;
	}
	for (i = 0; i < VGPU_NUM_ENGINES; i++) {
		struct vgpu_engine_watch *w = &dev->engines[i];

		if (!w->runnable || !time_after(jiffies, w->since + timeout))
			continue;
		if (!vgpu_engine_blame(dev, i, ms)) {
			vgpu_fw_hung(dev, ms, "an engine made no progress");
			return;
		}
	}
}

void vgpu_watchdog_work(struct work_struct *work)
{
	struct vgpu_dev *dev = container_of(to_delayed_work(work),
					    struct vgpu_dev, watchdog);
	/* The parameter is writable: read it once per round. */
	unsigned int ms = READ_ONCE(vgpu_hang_timeout_ms);

	if (ms) {
		mutex_lock(&dev->lock);
		vgpu_hang_check(dev, ms);
		mutex_unlock(&dev->lock);
	}
	/* Look four times per timeout; once a second while disabled. */
	schedule_delayed_work(&dev->watchdog,
			      msecs_to_jiffies(ms ? clamp(ms / 4, 10U, 1000U) :
						    1000));
}
