// SPDX-License-Identifier: GPL-2.0
/*
 * Interprocess communication: device memory and events shared between
 * processes (cudaIpcGetMemHandle, cudaIpcOpenMemHandle,
 * cudaIpcCloseMemHandle, cudaIpcGetEventHandle, cudaIpcOpenEventHandle),
 * on the driver's cuIpc* calls.
 *
 * A handle is 64 opaque bytes that the application carries to the other
 * process however it likes.  The driver fills it with what the importer
 * needs to fetch the exporter's descriptor of the memory object
 * (umd/cuda/ipc.c: the exporting process and descriptor number, fetched
 * with pidfd_getfd); the runtime's and the driver's handles are the same
 * bytes.  The importer gets the same device memory at an address of its
 * own; closing the handle unmaps it, and the memory lives until both
 * processes are done with it.
 *
 * An event made with cudaEventInterprocess | cudaEventDisableTiming has
 * a page of shared memory where its records are counted; the handle lets
 * the other process map that page, and the event it opens completes when
 * the exporter's recorded work has (umd/cuda/ipc_event.c).
 */
#include <stdint.h>
#include <string.h>

#include "cudart_internal.h"

_Static_assert(sizeof(cudaIpcMemHandle_t) == sizeof(CUipcMemHandle) &&
	       sizeof(cudaIpcEventHandle_t) == sizeof(CUipcEventHandle),
	       "the runtime's IPC handles are the driver's");

cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *handle, void *devPtr)
{
	CUipcMemHandle h;
	cudaError_t err;

	if (!handle)
		return rt_return(cudaErrorInvalidValue);
	RT_ENTER_OR_RETURN();
	err = rt_return_cu(cuIpcGetMemHandle(&h,
					     (CUdeviceptr)(uintptr_t)devPtr));
	if (err == cudaSuccess)
		memcpy(handle, &h, sizeof(h));
	return err;
}

cudaError_t cudaIpcOpenMemHandle(void **devPtr, cudaIpcMemHandle_t handle,
				 unsigned int flags)
{
	CUipcMemHandle h;
	CUdeviceptr d;
	cudaError_t err;

	if (!devPtr)
		return rt_return(cudaErrorInvalidValue);
	RT_ENTER_OR_RETURN();
	memcpy(&h, &handle, sizeof(h));
	err = rt_return_cu(cuIpcOpenMemHandle(&d, h, flags));
	if (err == cudaSuccess)
		*devPtr = (void *)(uintptr_t)d;
	return err;
}

cudaError_t cudaIpcCloseMemHandle(void *devPtr)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuIpcCloseMemHandle((CUdeviceptr)(uintptr_t)devPtr));
}

cudaError_t cudaIpcGetEventHandle(cudaIpcEventHandle_t *handle,
				  cudaEvent_t event)
{
	CUipcEventHandle h;
	cudaError_t err;

	if (!handle)
		return rt_return(cudaErrorInvalidValue);
	RT_ENTER_OR_RETURN();
	err = rt_return_cu(cuIpcGetEventHandle(&h, event));
	if (err == cudaSuccess)
		memcpy(handle, &h, sizeof(h));
	return err;
}

cudaError_t cudaIpcOpenEventHandle(cudaEvent_t *event,
				   cudaIpcEventHandle_t handle)
{
	CUipcEventHandle h;

	if (!event)
		return rt_return(cudaErrorInvalidValue);
	RT_ENTER_OR_RETURN();
	memcpy(&h, &handle, sizeof(h));
	return rt_return_cu(cuIpcOpenEventHandle(event, h));
}
