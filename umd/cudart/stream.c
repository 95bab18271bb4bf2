// SPDX-License-Identifier: GPL-2.0
/*
 * Streams: cudaStream_t is the driver's CUstream (the same struct
 * CUstream_st), so these are thin: enter the current device, call the
 * driver, translate the result.  Stream 0 is the legacy default stream,
 * cudaStreamLegacy and cudaStreamPerThread are the driver's
 * CU_STREAM_LEGACY and CU_STREAM_PER_THREAD handles, and the flags
 * (cudaStreamNonBlocking) have the CU_STREAM_* values.
 */
#include <stdlib.h>

#include "cudart_internal.h"

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream,
					 unsigned int flags, int priority)
{
	if (!pStream || (flags & ~cudaStreamNonBlocking))
		return rt_return(cudaErrorInvalidValue);
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuStreamCreateWithPriority(pStream, flags,
						       priority));
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream,
				      unsigned int flags)
{
	if (!pStream || (flags & ~cudaStreamNonBlocking))
		return rt_return(cudaErrorInvalidValue);
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuStreamCreate(pStream, flags));
}

cudaError_t cudaStreamCreate(cudaStream_t *pStream)
{
	return cudaStreamCreateWithFlags(pStream, cudaStreamDefault);
}

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
	RT_ENTER_OR_RETURN();
	/* The default streams are not objects one can destroy. */
	if (!stream || stream == cudaStreamLegacy ||
	    stream == cudaStreamPerThread)
		return rt_return(cudaErrorInvalidResourceHandle);
	return rt_return_cu(cuStreamDestroy(stream));
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuStreamSynchronize(stream));
}

cudaError_t cudaStreamQuery(cudaStream_t stream)
{
	cudaError_t err;

	RT_ENTER_OR_RETURN();
	err = rt_error_from_cu(cuStreamQuery(stream));
	/* "Not ready" is an answer, not a failure: not a last error. */
	return err == cudaErrorNotReady ? err : rt_return(err);
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
				unsigned int flags)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuStreamWaitEvent(stream, event, flags));
}

cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int *priority)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuStreamGetPriority(hStream, priority));
}

cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuStreamGetFlags(hStream, flags));
}

/*
 * cudaStreamAttrValue is cudaLaunchAttributeValue, laid out as the
 * driver's CUlaunchAttributeValue, and the attribute ids are the same
 * numbers: the access policy window (libcuda's l2_policy.c) passes on.
 */
cudaError_t cudaStreamSetAttribute(cudaStream_t hStream, cudaStreamAttrID attr,
				   const cudaStreamAttrValue *value)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuStreamSetAttribute(
		hStream, (CUstreamAttrID)attr,
		(const CUstreamAttrValue *)value));
}

cudaError_t cudaStreamGetAttribute(cudaStream_t hStream, cudaStreamAttrID attr,
				   cudaStreamAttrValue *value)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuStreamGetAttribute(hStream, (CUstreamAttrID)attr,
						 (CUstreamAttrValue *)value));
}

cudaError_t cudaStreamGetId(cudaStream_t hStream, unsigned long long *streamId)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuStreamGetId(hStream, streamId));
}

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn,
			       void *userData)
{
	if (!fn)
		return rt_return(cudaErrorInvalidValue);
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuLaunchHostFunc(stream, fn, userData));
}

/*
 * The older callback form also receives the stream and a status.  The
 * driver's cuStreamAddCallback has the same shape with a CUresult, so a
 * small trampoline carries the program's callback and translates the
 * status on the way.
 */
struct rt_stream_callback {
	cudaStreamCallback_t fn;
	void *user_data;
};

static void rt_stream_callback_trampoline(CUstream stream, CUresult status,
					  void *data)
{
	struct rt_stream_callback cb = *(struct rt_stream_callback *)data;

	free(data);
	cb.fn(stream, rt_error_from_cu(status), cb.user_data);
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream,
				  cudaStreamCallback_t callback,
				  void *userData, unsigned int flags)
{
	struct rt_stream_callback *cb;
	cudaError_t err;

	/* flags is reserved and must be 0. */
	if (!callback || flags)
		return rt_return(cudaErrorInvalidValue);
	RT_ENTER_OR_RETURN();
	cb = malloc(sizeof(*cb));
	if (!cb)
		return rt_return(cudaErrorMemoryAllocation);
	cb->fn = callback;
	cb->user_data = userData;
	err = rt_return_cu(cuStreamAddCallback(stream,
			rt_stream_callback_trampoline, cb, 0));
	if (err != cudaSuccess)
		free(cb);
	return err;
}
