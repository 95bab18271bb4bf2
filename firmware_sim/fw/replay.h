/* SPDX-License-Identifier: GPL-2.0 */
/*
 * replay.h - replayable MMU faults (replay.c): a translation that found no
 * valid PTE asks the driver to migrate managed memory, then walks again.
 */
#ifndef VGPU_FW_REPLAY_H
#define VGPU_FW_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

struct fw_ctx;

/*
 * How often one access may be replayed: a block can move back to the
 * host between the driver's answer and the walk (a process touching it
 * at the same time), and each round trip makes progress for one side.
 */
#define FW_REPLAY_TRIES	64

/* Report a fault at @va of @ctx; true when the driver made it valid. */
bool fw_mmu_replay(struct fw_ctx *ctx, uint64_t va);

/* Faults the driver resolved since the firmware started. */
uint64_t fw_mmu_replays(void);

#endif /* VGPU_FW_REPLAY_H */
