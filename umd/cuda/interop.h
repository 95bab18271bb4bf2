/* SPDX-License-Identifier: GPL-2.0 */
/*
 * interop.h - what the rest of libcuda asks of the interoperability
 * files (interop_gl.c, interop_ext.c, interop_sem.c).
 */
#ifndef VGPU_CUDA_INTEROP_H
#define VGPU_CUDA_INTEROP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda.h>

/*
 * cuMemFree of a pointer cuExternalMemoryGetMappedBuffer returned: forget
 * it (the memory stays with its external memory object) and say true;
 * false for any other pointer.
 */
bool cu_ext_buffer_free(CUdeviceptr ptr);

/* ---- external semaphores (interop_sem.c) -------------------------------- */

/* The two directions of an external-semaphore operation. */
enum cu_ext_sem_dir {
	CU_EXT_SEM_SIGNAL,
	CU_EXT_SEM_WAIT,
};

/*
 * What the common path knows of a direction: the size of its parameter
 * struct (CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS or _WAIT_PARAMS), where
 * the fence value and the flags are in it, and its graph node's type.
 */
struct cu_ext_sem_way {
	size_t param_size;
	size_t value_off;
	size_t flags_off;
	CUgraphNodeType node;
};
extern const struct cu_ext_sem_way cu_ext_sem_ways[2];

/* The fence value of params[@i] (an array of @d's parameter struct). */
uint64_t cu_ext_sem_value(enum cu_ext_sem_dir d, const void *params,
			  unsigned int i);
/*
 * Check @n semaphores and their parameters as the async calls do: arrays
 * not NULL, @n not 0, no flags, every handle live; else INVALID_VALUE.
 */
CUresult cu_ext_sem_check(enum cu_ext_sem_dir d,
			  const CUexternalSemaphore *sems, const void *params,
			  unsigned int n);
/*
 * Queue the signals or waits on stream @h (not captured), unchecked:
 * handles that are not live semaphores are skipped, flags ignored.
 */
CUresult cu_ext_sem_enqueue(enum cu_ext_sem_dir d,
			    const CUexternalSemaphore *sems,
			    const void *params, unsigned int n, CUstream h);

#endif /* VGPU_CUDA_INTEROP_H */
