/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * vgpu_visa_cdp.h - dynamic parallelism (CUDA's CDP2): the CDP opcode's
 * sub-operations and the launch descriptor that device code hands to the
 * GR engine (firmware_sim/core/exec_cdp.c; Documentation/dynamic-parallelism.rst).
 *
 * A device-side launch is two calls of the device runtime (umd/cuda/
 * devrt.ptx): cudaGetParameterBufferV2() takes a block of the device heap,
 * writes this descriptor at its start and returns the parameter area
 * after it; the kernel fills in the parameters; cudaLaunchDeviceV2()
 * gives the descriptor to CDP LAUNCH, which copies everything and queues
 * the child grid, and frees the block.
 */
#ifndef VGPU_VISA_CDP_H
#define VGPU_VISA_CDP_H

#include <stdint.h>

/* Sub-operations of VISA_OP_CDP (per lane). */
enum visa_cdp {
	VISA_CDP_PSIZE = 0,	/* d = parameter bytes of the kernel whose
				 * function pointer is a; ~0 and the lane's
				 * error set when a is no kernel */
	VISA_CDP_LAUNCH,	/* d = cudaError_t of launching descriptor a
				 * (generic address) into stream b */
	VISA_CDP_GET_ERROR,	/* d = the lane's last error, then cleared */
	VISA_CDP_PEEK_ERROR,	/* d = the lane's last error */
	VISA_CDP_SET_ERROR,	/* the lane's last error = a (if not 0) */
	VISA_CDP_COUNT
};

/* The descriptor: VISA_CDP_DESC_SIZE bytes, the parameters follow it. */
struct visa_cdp_desc {
	uint64_t func;		/* VISA_FUNCPTR_BASE + function index */
	uint32_t grid[3];
	uint32_t block[3];
	uint32_t shared;	/* dynamic shared memory bytes */
	uint32_t param_size;	/* what CDP PSIZE answered */
	uint32_t pending_limit;	/* cudaLimitDevRuntimePendingLaunchCount */
	uint32_t reserved[5];	/* 0 */
};
#define VISA_CDP_DESC_SIZE	64u

/* CUDA's named device streams (cuda_device_runtime_api.h). */
#define VISA_CDP_STREAM_NULL		0x0ull
#define VISA_CDP_STREAM_PER_THREAD	0x2ull
#define VISA_CDP_STREAM_TAIL		0x3ull
#define VISA_CDP_STREAM_FIRE_AND_FORGET	0x4ull

/* Grids nest at most this deep (the host's grid is depth 0). */
#define VISA_CDP_MAX_DEPTH	24u

/* The cudaError_t values the device runtime answers. */
#define VISA_CDP_ERR_INVALID_CONFIGURATION	9u
#define VISA_CDP_ERR_LAUNCH_MAX_DEPTH		65u
#define VISA_CDP_ERR_LAUNCH_PENDING_COUNT	69u
#define VISA_CDP_ERR_INVALID_DEVICE_FUNCTION	98u
#define VISA_CDP_ERR_MEMORY_ALLOCATION		2u
#define VISA_CDP_ERR_INVALID_RESOURCE_HANDLE	400u

#endif /* VGPU_VISA_CDP_H */
