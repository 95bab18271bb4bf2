// SPDX-License-Identifier: GPL-2.0
/*
 * legacy_launch.c - the launch API before CUDA 4.0, still declared
 * (deprecated) in cuda.h: the block shape, dynamic shared memory and the
 * parameter bytes are set on the function one call at a time
 * (cuFuncSetBlockShape, cuFuncSetSharedSize, cuParamSet*), then
 * cuLaunch / cuLaunchGrid(Async) launch with them.  Each launch here is a
 * cuLaunchKernel with the parameter buffer passed as "extra", so it makes
 * exactly the checks of a modern launch.
 *
 * The state belongs to the function, as in NVIDIA's driver: two threads
 * preparing the same function at once race there too.  A lock keeps our
 * own state consistent all the same.
 */
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"

/* cuda.h marks the whole API deprecated; it is still part of it. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* CUDA's limit on the bytes of a legacy parameter list. */
#define CU_LEGACY_PARAM_MAX	4096

struct cu_legacy_launch {
	unsigned int block[3];
	unsigned int shared;
	unsigned int param_size;	/* cuParamSetSize */
	uint8_t params[CU_LEGACY_PARAM_MAX];
};

static pthread_mutex_t cu_legacy_lock = PTHREAD_MUTEX_INITIALIZER;

/* The function's state, created on first use; cu_legacy_lock held. */
static CUresult cu_legacy_get(CUfunction h, struct cu_legacy_launch **out)
{
	struct cu_function *f = (struct cu_function *)h;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!cu_function_valid(f))
		return CUDA_ERROR_INVALID_HANDLE;
	if (!f->legacy) {
		f->legacy = calloc(1, sizeof(*f->legacy));
		if (!f->legacy)
			return CUDA_ERROR_OUT_OF_MEMORY;
		f->legacy->block[0] = f->legacy->block[1] =
			f->legacy->block[2] = 1;
	}
	*out = f->legacy;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuFuncSetBlockShape(CUfunction hfunc, int x, int y,
					       int z)
{
	struct cu_legacy_launch *l;
	CUresult res;

	pthread_mutex_lock(&cu_legacy_lock);
	res = cu_legacy_get(hfunc, &l);
	if (res == CUDA_SUCCESS && (x <= 0 || y <= 0 || z <= 0))
		res = CUDA_ERROR_INVALID_VALUE;
	if (res == CUDA_SUCCESS) {
		l->block[0] = (unsigned int)x;
		l->block[1] = (unsigned int)y;
		l->block[2] = (unsigned int)z;
	}
	pthread_mutex_unlock(&cu_legacy_lock);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuFuncSetSharedSize(CUfunction hfunc,
					       unsigned int bytes)
{
	struct cu_legacy_launch *l;
	CUresult res;

	pthread_mutex_lock(&cu_legacy_lock);
	res = cu_legacy_get(hfunc, &l);
	if (res == CUDA_SUCCESS)
		l->shared = bytes;	/* checked by the launch */
	pthread_mutex_unlock(&cu_legacy_lock);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuParamSetSize(CUfunction hfunc,
					  unsigned int numbytes)
{
	struct cu_legacy_launch *l;
	CUresult res;

	pthread_mutex_lock(&cu_legacy_lock);
	res = cu_legacy_get(hfunc, &l);
	if (res == CUDA_SUCCESS && numbytes > CU_LEGACY_PARAM_MAX)
		res = CUDA_ERROR_INVALID_VALUE;
	if (res == CUDA_SUCCESS)
		l->param_size = numbytes;
	pthread_mutex_unlock(&cu_legacy_lock);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuParamSetv(CUfunction hfunc, int offset,
				       void *ptr, unsigned int numbytes)
{
	struct cu_legacy_launch *l;
	CUresult res;

	pthread_mutex_lock(&cu_legacy_lock);
	res = cu_legacy_get(hfunc, &l);
	if (res == CUDA_SUCCESS &&
	    (offset < 0 || (!ptr && numbytes) ||
	     numbytes > CU_LEGACY_PARAM_MAX ||
	     (unsigned int)offset > CU_LEGACY_PARAM_MAX - numbytes))
		res = CUDA_ERROR_INVALID_VALUE;
	if (res == CUDA_SUCCESS && numbytes)
		memcpy(l->params + offset, ptr, numbytes);
	pthread_mutex_unlock(&cu_legacy_lock);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuParamSeti(CUfunction hfunc, int offset,
				       unsigned int value)
{
	return cuParamSetv(hfunc, offset, &value, sizeof(value));
}

CU_EXPORT CUresult CUDAAPI cuParamSetf(CUfunction hfunc, int offset,
				       float value)
{
	return cuParamSetv(hfunc, offset, &value, sizeof(value));
}

/* The device has no texture units: no texture reference can be bound. */
CU_EXPORT CUresult CUDAAPI cuParamSetTexRef(CUfunction hfunc, int texunit,
					    CUtexref hTexRef)
{
	(void)hfunc;
	(void)texunit;
	(void)hTexRef;
	return CUDA_ERROR_NOT_SUPPORTED;
}

CU_EXPORT CUresult CUDAAPI cuLaunchGridAsync(CUfunction f, int grid_width,
					     int grid_height, CUstream hStream)
{
	struct cu_legacy_launch *l, copy;
	size_t size;
	void *extra[] = {
		CU_LAUNCH_PARAM_BUFFER_POINTER, copy.params,
		CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
		CU_LAUNCH_PARAM_END,
	};
	CUresult res;

	if (grid_width <= 0 || grid_height <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&cu_legacy_lock);
	res = cu_legacy_get(f, &l);
	if (res == CUDA_SUCCESS)
		copy = *l;	/* launch without holding the lock */
	pthread_mutex_unlock(&cu_legacy_lock);
	if (res != CUDA_SUCCESS)
		return res;
	size = copy.param_size;
	return cuLaunchKernel(f, (unsigned int)grid_width,
			      (unsigned int)grid_height, 1, copy.block[0],
			      copy.block[1], copy.block[2], copy.shared,
			      hStream, NULL, extra);
}

CU_EXPORT CUresult CUDAAPI cuLaunchGrid(CUfunction f, int grid_width,
					int grid_height)
{
	return cuLaunchGridAsync(f, grid_width, grid_height, NULL);
}

CU_EXPORT CUresult CUDAAPI cuLaunch(CUfunction f)
{
	return cuLaunchGridAsync(f, 1, 1, NULL);
}
