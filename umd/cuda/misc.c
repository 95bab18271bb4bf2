// SPDX-License-Identifier: GPL-2.0
/*
 * misc.c - the small rest of the API: the profiler hooks.  (Peers:
 * peer.c.)  (Stream-ordered allocation: mem_pool*.c.)
 */
#include <cudaProfiler.h>

#include "cuda_internal.h"

CU_EXPORT CUresult CUDAAPI cuProfilerStart(void)
{
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuProfilerStop(void)
{
	return CUDA_SUCCESS;
}

/* NVIDIA's private tables for its own runtime: export_tables.c. */
CU_EXPORT CUresult CUDAAPI cuGetExportTable(const void **ppExportTable,
					    const CUuuid *pExportTableId)
{
	return cu_export_table(ppExportTable, pExportTableId);
}

/* Deprecated (cuda.h still declares them); the device has one bank width. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/*
 * Shared memory banks are four bytes wide, as on every GPU since Maxwell;
 * their width cannot be configured, so a request is accepted and changes
 * nothing, which is what the documentation says such devices do.
 */
CU_EXPORT CUresult CUDAAPI cuCtxGetSharedMemConfig(CUsharedconfig *pConfig)
{
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!pConfig)
		return CUDA_ERROR_INVALID_VALUE;
	*pConfig = CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuCtxSetSharedMemConfig(CUsharedconfig config)
{
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if ((unsigned int)config > CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE)
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

