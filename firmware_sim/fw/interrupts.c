// SPDX-License-Identifier: GPL-2.0
/*
 * interrupts.c - the device's two interrupts: "fence completed"
 * (VGPU_IOCTL_FW_SIGNAL) and "queue faulted" (VGPU_IOCTL_FW_FAULT).
 *
 * Both may race with the queue going away (its client died): the driver
 * then answers -ENOENT, which is nothing to worry about.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#include "fw.h"
#include "log.h"

static const char *const fault_names[] = {
	[VGPU_FAULT_MMU_UNMAPPED] = "unmapped address",
	[VGPU_FAULT_MMU_PERMISSION] = "permission",
	[VGPU_FAULT_MISALIGNED] = "misaligned address",
	[VGPU_FAULT_ILLEGAL_INSTRUCTION] = "illegal instruction",
	[VGPU_FAULT_TRAP] = "trap",
	[VGPU_FAULT_BARRIER] = "barrier deadlock",
	[VGPU_FAULT_BAD_PACKET] = "bad packet",
	[VGPU_FAULT_ASSERT] = "device-side assert",
	[VGPU_FAULT_STACK_OVERFLOW] = "stack overflow",
	[VGPU_FAULT_OUT_OF_RANGE] = "out-of-range shared/local/const access",
};

int fw_signal_fence(struct fw_queue *q, uint64_t value)
{
	struct vgpu_fw_signal sig = { .queue_id = q->id, .fence = value };

	if (!ioctl(q->ctx->dev->fd, VGPU_IOCTL_FW_SIGNAL, &sig) ||
	    errno == ENOENT)
		return 0;
	/* -EINVAL: the fence went backwards, the client's mistake. */
	return -errno;
}

void fw_fault_queue(struct fw_queue *q, struct vgpu_fault *fault)
{
	struct vgpu_fw_fault args = { .fault = *fault };
	const char *name = fault->kind < sizeof(fault_names) /
			   sizeof(fault_names[0]) && fault_names[fault->kind] ?
			   fault_names[fault->kind] : "fault";

	args.fault.queue_id = q->id;
	args.fault.engine = q->engine;
	q->faulted = true;
	atomic_store(&q->ctx->stopped, true);
	/* the context's grids on other queues stop too, as they would on a
	 * GPU whose context faulted */
	vgpu_core_stop_ctx(q->ctx->dev->core, q->ctx->id);
	fw_log_warn("%s: context %u queue %u: %s at va 0x%llx%s%s (line %u)",
		    q->ctx->dev->path, q->ctx->id, q->id, name,
		    (unsigned long long)fault->va,
		    fault->kernel_name[0] ? " in kernel " : "",
		    fault->kernel_name, fault->ptx_line);
	if (ioctl(q->ctx->dev->fd, VGPU_IOCTL_FW_FAULT, &args) &&
	    errno != ENOENT)
		fw_log_warn("%s: queue %u: report fault: %s",
			    q->ctx->dev->path, q->id, strerror(errno));
}
