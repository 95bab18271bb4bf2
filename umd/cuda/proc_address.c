// SPDX-License-Identifier: GPL-2.0
/*
 * proc_address.c - cuGetProcAddress: the driver API by name.
 *
 * The runtime (and programs that load the driver themselves) ask for
 * functions by their base name, "cuMemAlloc", and get the newest version
 * this library implements: the name below is the base name, and cuda.h's
 * macros turn the expression into the versioned function (cuMemAlloc_v2).
 * Per-thread-default-stream variants are the same functions here: the
 * runtime passes CU_STREAM_PER_THREAD itself where a program compiled
 * with --default-stream per-thread means stream 0.
 *
 * tests/test_exports checks that every exported function is in this table.
 */
#include <string.h>

#include <cudaProfiler.h>

#include "cuda_internal.h"

struct cu_proc {
	const char *name;
	void *fn;
};

#define CU_PROC(f) { #f, (void *)f }

/* Deprecated functions are still part of the API a program may ask for. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static const struct cu_proc cu_procs[] = {
	CU_PROC(cuCtxCreate),
	CU_PROC(cuCtxDestroy),
	CU_PROC(cuCtxDisablePeerAccess),
	CU_PROC(cuCtxEnablePeerAccess),
	CU_PROC(cuCtxGetApiVersion),
	CU_PROC(cuCtxGetCacheConfig),
	CU_PROC(cuCtxGetCurrent),
	CU_PROC(cuCtxGetDevice),
	CU_PROC(cuCtxGetFlags),
	CU_PROC(cuCtxGetId),
	CU_PROC(cuCtxGetLimit),
	CU_PROC(cuCtxGetSharedMemConfig),
	CU_PROC(cuCtxGetStreamPriorityRange),
	CU_PROC(cuCtxPopCurrent),
	CU_PROC(cuCtxPushCurrent),
	CU_PROC(cuCtxResetPersistingL2Cache),
	CU_PROC(cuCtxSetCacheConfig),
	CU_PROC(cuCtxSetCurrent),
	CU_PROC(cuCtxSetFlags),
	CU_PROC(cuCtxSetLimit),
	CU_PROC(cuCtxSetSharedMemConfig),
	CU_PROC(cuCtxSynchronize),
	CU_PROC(cuDeviceCanAccessPeer),
	CU_PROC(cuDeviceComputeCapability),
	CU_PROC(cuDeviceGet),
	CU_PROC(cuDeviceGetAttribute),
	CU_PROC(cuDeviceGetByPCIBusId),
	CU_PROC(cuDeviceGetCount),
	CU_PROC(cuDeviceGetDefaultMemPool),
	CU_PROC(cuDeviceGetGraphMemAttribute),
	CU_PROC(cuDeviceGetMemPool),
	CU_PROC(cuDeviceGetName),
	CU_PROC(cuDeviceGetP2PAttribute),
	CU_PROC(cuDeviceGetPCIBusId),
	CU_PROC(cuDeviceGetProperties),
	CU_PROC(cuDeviceGetUuid),
	CU_PROC(cuDeviceGraphMemTrim),
	CU_PROC(cuDevicePrimaryCtxGetState),
	CU_PROC(cuDevicePrimaryCtxRelease),
	CU_PROC(cuDevicePrimaryCtxReset),
	CU_PROC(cuDevicePrimaryCtxRetain),
	CU_PROC(cuDevicePrimaryCtxSetFlags),
	CU_PROC(cuDeviceSetGraphMemAttribute),
	CU_PROC(cuDeviceSetMemPool),
	CU_PROC(cuDeviceTotalMem),
	CU_PROC(cuDriverGetVersion),
	CU_PROC(cuEventCreate),
	CU_PROC(cuEventDestroy),
	CU_PROC(cuEventElapsedTime),
	CU_PROC(cuEventQuery),
	CU_PROC(cuEventRecord),
	CU_PROC(cuEventRecordWithFlags),
	CU_PROC(cuEventSynchronize),
	CU_PROC(cuFuncGetAttribute),
	CU_PROC(cuFuncGetModule),
	CU_PROC(cuFuncGetName),
	CU_PROC(cuFuncGetParamInfo),
	CU_PROC(cuFuncIsLoaded),
	CU_PROC(cuFuncLoad),
	CU_PROC(cuFuncSetAttribute),
	CU_PROC(cuFuncSetBlockShape),
	CU_PROC(cuFuncSetCacheConfig),
	CU_PROC(cuFuncSetSharedMemConfig),
	CU_PROC(cuFuncSetSharedSize),
	CU_PROC(cuGetErrorName),
	CU_PROC(cuGetErrorString),
	CU_PROC(cuGetExportTable),
	CU_PROC(cuGetProcAddress),
	CU_PROC(cuGraphAddChildGraphNode),
	CU_PROC(cuGraphAddDependencies),
	CU_PROC(cuGraphAddEmptyNode),
	CU_PROC(cuGraphAddEventRecordNode),
	CU_PROC(cuGraphAddEventWaitNode),
	CU_PROC(cuGraphAddHostNode),
	CU_PROC(cuGraphAddKernelNode),
	CU_PROC(cuGraphAddMemAllocNode),
	CU_PROC(cuGraphAddMemFreeNode),
	CU_PROC(cuGraphAddMemcpyNode),
	CU_PROC(cuGraphAddMemsetNode),
	CU_PROC(cuGraphAddNode),
	CU_PROC(cuGraphChildGraphNodeGetGraph),
	CU_PROC(cuGraphClone),
	CU_PROC(cuGraphConditionalHandleCreate),
	CU_PROC(cuGraphCreate),
	CU_PROC(cuGraphDebugDotPrint),
	CU_PROC(cuGraphDestroy),
	CU_PROC(cuGraphEventRecordNodeGetEvent),
	CU_PROC(cuGraphEventRecordNodeSetEvent),
	CU_PROC(cuGraphEventWaitNodeGetEvent),
	CU_PROC(cuGraphEventWaitNodeSetEvent),
	CU_PROC(cuGraphExecDestroy),
	CU_PROC(cuGraphExecGetFlags),
	CU_PROC(cuGraphExecKernelNodeSetParams),
	CU_PROC(cuGraphExecUpdate),
	CU_PROC(cuGraphGetEdges),
	CU_PROC(cuGraphGetNodes),
	CU_PROC(cuGraphGetRootNodes),
	CU_PROC(cuGraphHostNodeGetParams),
	CU_PROC(cuGraphInstantiate),
	CU_PROC(cuGraphInstantiateWithFlags),
	CU_PROC(cuGraphInstantiateWithParams),
	CU_PROC(cuGraphKernelNodeGetParams),
	CU_PROC(cuGraphKernelNodeSetParams),
	CU_PROC(cuGraphLaunch),
	CU_PROC(cuGraphMemAllocNodeGetParams),
	CU_PROC(cuGraphMemFreeNodeGetParams),
	CU_PROC(cuGraphMemcpyNodeGetParams),
	CU_PROC(cuGraphMemsetNodeGetParams),
	CU_PROC(cuGraphNodeFindInClone),
	CU_PROC(cuGraphNodeGetDependencies),
	CU_PROC(cuGraphNodeGetType),
	CU_PROC(cuGraphReleaseUserObject),
	CU_PROC(cuGraphRetainUserObject),
	CU_PROC(cuGraphUpload),
	CU_PROC(cuInit),
	CU_PROC(cuIpcCloseMemHandle),
	CU_PROC(cuIpcGetEventHandle),
	CU_PROC(cuIpcGetMemHandle),
	CU_PROC(cuIpcOpenEventHandle),
	CU_PROC(cuIpcOpenMemHandle),
	CU_PROC(cuKernelGetAttribute),
	CU_PROC(cuKernelGetFunction),
	CU_PROC(cuKernelGetLibrary),
	CU_PROC(cuKernelGetName),
	CU_PROC(cuKernelSetAttribute),
	CU_PROC(cuKernelSetCacheConfig),
	CU_PROC(cuLaunch),
	CU_PROC(cuLaunchCooperativeKernel),
	CU_PROC(cuLaunchGrid),
	CU_PROC(cuLaunchGridAsync),
	CU_PROC(cuLaunchHostFunc),
	CU_PROC(cuLaunchKernel),
	CU_PROC(cuLaunchKernelEx),
	CU_PROC(cuLibraryEnumerateKernels),
	CU_PROC(cuLibraryGetGlobal),
	CU_PROC(cuLibraryGetKernel),
	CU_PROC(cuLibraryGetKernelCount),
	CU_PROC(cuLibraryGetManaged),
	CU_PROC(cuLibraryGetModule),
	CU_PROC(cuLibraryGetUnifiedFunction),
	CU_PROC(cuLibraryLoadData),
	CU_PROC(cuLibraryLoadFromFile),
	CU_PROC(cuLibraryUnload),
	CU_PROC(cuLinkAddData),
	CU_PROC(cuLinkAddFile),
	CU_PROC(cuLinkComplete),
	CU_PROC(cuLinkCreate),
	CU_PROC(cuLinkDestroy),
	CU_PROC(cuMemAdvise),
	CU_PROC(cuMemAlloc),
	CU_PROC(cuMemAllocAsync),
	CU_PROC(cuMemAllocFromPoolAsync),
	CU_PROC(cuMemAllocHost),
	CU_PROC(cuMemAllocManaged),
	CU_PROC(cuMemAllocPitch),
	CU_PROC(cuMemFree),
	CU_PROC(cuMemFreeAsync),
	CU_PROC(cuMemFreeHost),
	CU_PROC(cuMemGetAddressRange),
	CU_PROC(cuMemGetInfo),
	CU_PROC(cuMemHostAlloc),
	CU_PROC(cuMemHostGetDevicePointer),
	CU_PROC(cuMemHostGetFlags),
	CU_PROC(cuMemHostRegister),
	CU_PROC(cuMemHostUnregister),
	CU_PROC(cuMemPoolCreate),
	CU_PROC(cuMemPoolDestroy),
	CU_PROC(cuMemPoolExportPointer),
	CU_PROC(cuMemPoolExportToShareableHandle),
	CU_PROC(cuMemPoolGetAccess),
	CU_PROC(cuMemPoolGetAttribute),
	CU_PROC(cuMemPoolImportFromShareableHandle),
	CU_PROC(cuMemPoolImportPointer),
	CU_PROC(cuMemPoolSetAccess),
	CU_PROC(cuMemPoolSetAttribute),
	CU_PROC(cuMemPoolTrimTo),
	CU_PROC(cuMemPrefetchAsync),
	CU_PROC(cuMemcpy),
	CU_PROC(cuMemcpy2D),
	CU_PROC(cuMemcpy2DAsync),
	CU_PROC(cuMemcpy2DUnaligned),
	CU_PROC(cuMemcpy3D),
	CU_PROC(cuMemcpy3DAsync),
	CU_PROC(cuMemcpy3DPeer),
	CU_PROC(cuMemcpy3DPeerAsync),
	CU_PROC(cuMemcpyAsync),
	CU_PROC(cuMemcpyDtoD),
	CU_PROC(cuMemcpyDtoDAsync),
	CU_PROC(cuMemcpyDtoH),
	CU_PROC(cuMemcpyDtoHAsync),
	CU_PROC(cuMemcpyHtoD),
	CU_PROC(cuMemcpyHtoDAsync),
	CU_PROC(cuMemcpyPeer),
	CU_PROC(cuMemcpyPeerAsync),
	CU_PROC(cuMemsetD16),
	CU_PROC(cuMemsetD16Async),
	CU_PROC(cuMemsetD2D16),
	CU_PROC(cuMemsetD2D16Async),
	CU_PROC(cuMemsetD2D32),
	CU_PROC(cuMemsetD2D32Async),
	CU_PROC(cuMemsetD2D8),
	CU_PROC(cuMemsetD2D8Async),
	CU_PROC(cuMemsetD32),
	CU_PROC(cuMemsetD32Async),
	CU_PROC(cuMemsetD8),
	CU_PROC(cuMemsetD8Async),
	CU_PROC(cuModuleEnumerateFunctions),
	CU_PROC(cuModuleGetFunction),
	CU_PROC(cuModuleGetFunctionCount),
	CU_PROC(cuModuleGetGlobal),
	CU_PROC(cuModuleGetLoadingMode),
	CU_PROC(cuModuleLoad),
	CU_PROC(cuModuleLoadData),
	CU_PROC(cuModuleLoadDataEx),
	CU_PROC(cuModuleLoadFatBinary),
	CU_PROC(cuModuleUnload),
	CU_PROC(cuOccupancyAvailableDynamicSMemPerBlock),
	CU_PROC(cuOccupancyMaxActiveBlocksPerMultiprocessor),
	CU_PROC(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags),
	CU_PROC(cuOccupancyMaxActiveClusters),
	CU_PROC(cuOccupancyMaxPotentialBlockSize),
	CU_PROC(cuOccupancyMaxPotentialBlockSizeWithFlags),
	CU_PROC(cuOccupancyMaxPotentialClusterSize),
	CU_PROC(cuParamSetSize),
	CU_PROC(cuParamSetTexRef),
	CU_PROC(cuParamSetf),
	CU_PROC(cuParamSeti),
	CU_PROC(cuParamSetv),
	CU_PROC(cuPointerGetAttribute),
	CU_PROC(cuPointerGetAttributes),
	CU_PROC(cuProfilerStart),
	CU_PROC(cuProfilerStop),
	CU_PROC(cuStreamAddCallback),
	CU_PROC(cuStreamAttachMemAsync),
	CU_PROC(cuStreamBeginCapture),
	CU_PROC(cuStreamCreate),
	CU_PROC(cuStreamCreateWithPriority),
	CU_PROC(cuStreamDestroy),
	CU_PROC(cuStreamEndCapture),
	CU_PROC(cuStreamGetCaptureInfo),
	CU_PROC(cuStreamGetCtx),
	CU_PROC(cuStreamGetDevice),
	CU_PROC(cuStreamGetFlags),
	CU_PROC(cuStreamGetId),
	CU_PROC(cuStreamGetPriority),
	CU_PROC(cuStreamIsCapturing),
	CU_PROC(cuStreamQuery),
	CU_PROC(cuStreamSynchronize),
	CU_PROC(cuStreamWaitEvent),
	CU_PROC(cuThreadExchangeStreamCaptureMode),
	CU_PROC(cuUserObjectCreate),
	CU_PROC(cuUserObjectRelease),
	CU_PROC(cuUserObjectRetain),
};

static const struct cu_proc *cu_proc_find(const char *name)
{
	size_t lo = 0, hi = sizeof(cu_procs) / sizeof(cu_procs[0]);

	/* The table is sorted by name. */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(name, cu_procs[mid].name);

		if (!c)
			return &cu_procs[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

CU_EXPORT CUresult CUDAAPI cuGetProcAddress(const char *symbol, void **pfn,
					    int cudaVersion, cuuint64_t flags,
					    CUdriverProcAddressQueryResult *status)
{
	const struct cu_proc *p;

	(void)cudaVersion;
	if (!symbol || !pfn ||
	    (flags & ~(cuuint64_t)(CU_GET_PROC_ADDRESS_LEGACY_STREAM |
				   CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM)))
		return CUDA_ERROR_INVALID_VALUE;
	p = cu_proc_find(symbol);
	*pfn = p ? p->fn : NULL;
	if (status)
		*status = p ? CU_GET_PROC_ADDRESS_SUCCESS :
			  CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
	return p ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}
