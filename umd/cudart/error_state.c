// SPDX-License-Identifier: GPL-2.0
/*
 * The last-error state and the translation of driver results.
 *
 * CUDA keeps one "last error" per host thread: every runtime call that
 * fails records its error there, cudaPeekAtLastError() reads it and
 * cudaGetLastError() reads and clears it.  Kernel launches return nothing
 * to the program (the <<<>>> stub discards the result), so this is how a
 * bad launch configuration is seen.
 *
 * "Sticky" errors - a kernel faulted and the context is unusable - are not
 * kept here: the driver returns the fault from every later call on the
 * context until cudaDeviceReset() destroys it, and each of those calls
 * records it again.  That matches real CUDA 13, where cudaGetLastError()
 * reports a fault once and then success, while every synchronising or
 * allocating call keeps failing (tools/cuda-probe/golden).
 */
#include "cudart_internal.h"

static _Thread_local cudaError_t rt_last_error = cudaSuccess;

cudaError_t rt_return(cudaError_t err)
{
	if (err != cudaSuccess)
		rt_last_error = err;
	return err;
}

cudaError_t rt_return_cu(CUresult r)
{
	return rt_return(rt_error_from_cu(r));
}

/*
 * Since CUDA 11 the runtime's codes were given the values of the driver's
 * codes they correspond to, so the translation is the identity for every
 * driver result that has a runtime counterpart.  The few driver results
 * without one, and values this toolkit does not know, become
 * cudaErrorUnknown.
 */
cudaError_t rt_error_from_cu(CUresult r)
{
	switch (r) {
	case CUDA_ERROR_CONTEXT_ALREADY_CURRENT:	/* deprecated, no twin */
	case CUDA_ERROR_KEY_ROTATION:
		return cudaErrorUnknown;
	default:
		break;
	}
	if (!rt_error_name((cudaError_t)r))
		return cudaErrorUnknown;
	return (cudaError_t)r;
}

cudaError_t cudaGetLastError(void)
{
	cudaError_t err = rt_last_error;

	rt_last_error = cudaSuccess;
	return err;
}

cudaError_t cudaPeekAtLastError(void)
{
	return rt_last_error;
}
