// SPDX-License-Identifier: GPL-2.0
/*
 * Events: cudaEvent_t is the driver's CUevent, and the cudaEvent* flags
 * have the CU_EVENT_* values (BlockingSync, DisableTiming, Interprocess).
 * Real CUDA's answers for unusual uses (querying an event never recorded
 * succeeds, elapsed time of one is an invalid handle, destroying twice
 * says "context is destroyed") come from the driver, whose results are
 * translated unchanged.
 */
#include "cudart_internal.h"

#define RT_EVENT_FLAGS (cudaEventBlockingSync | cudaEventDisableTiming | \
			cudaEventInterprocess)

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
	if (!event || (flags & ~RT_EVENT_FLAGS))
		return rt_return(cudaErrorInvalidValue);
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuEventCreate(event, flags));
}

cudaError_t cudaEventCreate(cudaEvent_t *event)
{
	return cudaEventCreateWithFlags(event, cudaEventDefault);
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuEventRecord(event, stream));
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream,
				     unsigned int flags)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuEventRecordWithFlags(event, stream, flags));
}

cudaError_t cudaEventQuery(cudaEvent_t event)
{
	cudaError_t err;

	RT_ENTER_OR_RETURN();
	err = rt_error_from_cu(cuEventQuery(event));
	return err == cudaErrorNotReady ? err : rt_return(err);
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuEventSynchronize(event));
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
	if (!ms)
		return rt_return(cudaErrorInvalidValue);
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuEventElapsedTime(ms, start, end));
}

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuEventDestroy(event));
}
