/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * vgpu_visa_async.h - the sub-operations and the object layouts of the
 * asynchronous-copy instructions (CP_ASYNC*, MBAR, CP_BULK) and of the
 * device heap (MALLOC, FREE).  Included by vgpu_visa.h; the semantics are
 * in firmware_sim/core/exec_async.c and exec_heap.c, the manual is
 * Documentation/async-copies.rst.
 */
#ifndef VGPU_VISA_ASYNC_H
#define VGPU_VISA_ASYNC_H

#include <stdint.h>

/* MBAR's sub-operation (VISA_MOD_SUB); a = the barrier's address. */
enum visa_mbar {
	VISA_MBAR_INIT = 0,		/* expected = pending = b, phase 0 */
	VISA_MBAR_ARRIVE,		/* d = state; pending -= b */
	VISA_MBAR_ARRIVE_NOCOMPLETE,	/* the same, never completes */
	VISA_MBAR_ARRIVE_DROP,		/* and expected -= b */
	VISA_MBAR_ARRIVE_DROP_NOCOMPLETE,
	VISA_MBAR_ARRIVE_EXPECT_TX,	/* tx += b, then arrive 1 */
	VISA_MBAR_EXPECT_TX,		/* tx += b */
	VISA_MBAR_COMPLETE_TX,		/* tx -= b */
	VISA_MBAR_TEST_WAIT,		/* pd = phase of state b completed */
	VISA_MBAR_TEST_WAIT_PARITY,	/* pd = phase of parity b completed */
	VISA_MBAR_TRY_WAIT,		/* as TEST_WAIT; false also yields */
	VISA_MBAR_TRY_WAIT_PARITY,
	VISA_MBAR_INVAL,		/* the object is no barrier any more */
	VISA_MBAR_PENDING_COUNT,	/* d = pending count of state a */
	VISA_MBAR_COUNT
};

/*
 * The 64-bit mbarrier object in shared memory (the hardware's layout is
 * opaque to programs, which only see it through mbarrier instructions;
 * this one is vGPU's):
 *
 *   63   62            42 41            21 20             0
 *  +-----+----------------+----------------+----------------+
 *  |phase|  tx-count (s21)| expected (u21) | pending (u21)  |
 *  +-----+----------------+----------------+----------------+
 *
 * The state an arrive returns is the object as it was before the arrive.
 * expected == 0 means "not a barrier" (never initialised, or invalidated).
 */
#define VISA_MBAR_FIELD_BITS	21
#define VISA_MBAR_FIELD_MASK	((1u << VISA_MBAR_FIELD_BITS) - 1)
#define VISA_MBAR_PENDING_SHIFT	0
#define VISA_MBAR_EXPECTED_SHIFT	21
#define VISA_MBAR_TX_SHIFT	42
#define VISA_MBAR_PHASE_SHIFT	63
/* Arrival counts: 1 .. 2^20 - 1 (PTX ISA); tx-count: +-(2^20 - 1). */
#define VISA_MBAR_MAX_COUNT	((1u << 20) - 1)

/* CP_ASYNC_ARRIVE's sub-operation: .noinc. */
#define VISA_CPA_ARRIVE_NOINC	1

/*
 * TMA's sub-operation (cp.async.bulk.tensor and friends, exec_tma.c):
 * a = shared address, b = the tensor map's address (space type2), c =
 * the mbarrier (LOAD), e = the multicast mask (unused: refused by the
 * compiler); the coordinates are staged in MMAPUT slots 0..4, the
 * im2col offsets in slots 5..7.  imm: VISA_TMA_IMM_*.
 */
enum visa_tma {
	VISA_TMA_LOAD = 0,	/* global -> shared, complete_tx on c */
	VISA_TMA_STORE,		/* shared -> global */
	VISA_TMA_REDUCE,	/* global op= shared (op: VISA_TMA_IMM_OP) */
	VISA_TMA_PREFETCH,	/* the map is checked; nothing moves */
	VISA_TMA_COUNT
};
#define VISA_TMA_SLOT_COORD	0
#define VISA_TMA_SLOT_OFFSET	5
#define VISA_TMA_IMM_RANK(imm)	((uint32_t)(imm) & 7u)		/* 1..5 */
#define VISA_TMA_IMM_IM2COL	(1u << 3)			/* im2col mode */
#define VISA_TMA_IMM_OP_SHIFT	4				/* REDUCE: */
#define VISA_TMA_IMM_OP(imm)	(((uint32_t)(imm) >> 4) & 15u)	/* enum visa_tma_red */

enum visa_tma_red {
	VISA_TMA_RED_ADD = 0, VISA_TMA_RED_MIN, VISA_TMA_RED_MAX,
	VISA_TMA_RED_INC, VISA_TMA_RED_DEC, VISA_TMA_RED_AND,
	VISA_TMA_RED_OR, VISA_TMA_RED_XOR, VISA_TMA_RED_COUNT
};

/*
 * The device heap's descriptor: a 16-byte module variable that the
 * compiler adds to every module calling malloc/free (VISA_HEAP_SYMBOL),
 * and whose value the UMD writes when it loads the module into a
 * context: the context's heap (operand b of MALLOC and FREE is its
 * address).  va 0 means no heap: malloc returns NULL.
 */
struct visa_heap_desc {
	uint64_t va;		/* GPU VA of the heap (VRAM), 0: none */
	uint64_t size;		/* bytes, cudaLimitMallocHeapSize */
};
#define VISA_HEAP_SYMBOL	"__vgpu_device_heap"
/*
 * struct visa_kernel.flags: the kernel can reach MALLOC or FREE (the
 * loader makes the heap first).  A high bit, clear of the flags of
 * vgpu_visa.h.
 */
#define VISA_KERNEL_USES_HEAP	(1u << 8)

#endif /* VGPU_VISA_ASYNC_H */
