// SPDX-License-Identifier: GPL-2.0
/*
 * replay.c - replayable MMU faults: ask the driver to make a page valid.
 *
 * A translation that finds no valid PTE may be managed memory that lives
 * in host pages now (kmod/vgpu_managed.c).  Before the access becomes a
 * fatal VGPU_FAULT_MMU_UNMAPPED, the engine thread that made it reports
 * it with VGPU_IOCTL_FW_MMU_FAULT and stalls in the call: the driver
 * moves the block into VRAM and writes its PTEs, and the caller walks the
 * page tables again - the replay.  The warp (and the SM worker thread
 * running it, as a GPU's uTLB stalls on a pending fault) waits meanwhile;
 * no other context is affected, and the access is not retried from the
 * start of the instruction, because no lane's result was written yet: a
 * translation happens before its access.
 *
 * An older driver answers ENOTTY once; from then on nothing is reported.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/ioctl.h>

#include "fw.h"
#include "replay.h"

static atomic_bool replay_unsupported;
static atomic_ullong replays;

bool fw_mmu_replay(struct fw_ctx *ctx, uint64_t va)
{
#ifdef VGPU_IOCTL_FW_MMU_FAULT
	struct vgpu_fw_mmu_fault f = { .ctx_id = ctx->id, .va = va };

	if (atomic_load_explicit(&replay_unsupported, memory_order_relaxed))
		return false;
	if (!ioctl(ctx->dev->fd, VGPU_IOCTL_FW_MMU_FAULT, &f)) {
		atomic_fetch_add_explicit(&replays, 1, memory_order_relaxed);
		return true;
	}
	if (errno == ENOTTY)
		atomic_store(&replay_unsupported, true);
#else
	(void)ctx;
	(void)va;
#endif
	return false;
}

uint64_t fw_mmu_replays(void)
{
	return atomic_load_explicit(&replays, memory_order_relaxed);
}
