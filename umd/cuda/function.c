// SPDX-License-Identifier: GPL-2.0
/*
 * function.c - kernel attributes and occupancy, from the vISA metadata.
 *
 * Occupancy is include/vgpu_occupancy.h's formula, the very one the GR
 * engine's block scheduler applies, so a grid sized by
 * cuOccupancyMaxActiveBlocksPerMultiprocessor() is resident at once: the
 * limits of the device we present (attributes.c), threads (2048), warps
 * (64) and blocks (32) per SM, and shared memory per SM with the 1 KiB
 * reserved per block.  Registers do not limit it: vISA registers live in
 * the SM worker thread's memory, not in a register file.
 */
#include "cuda_internal.h"

static CUresult cu_func_lookup(CUfunction h, struct cu_function **out)
{
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!cu_function_valid((struct cu_function *)h))
		return CUDA_ERROR_INVALID_HANDLE;
	*out = (struct cu_function *)h;
	return CUDA_SUCCESS;
}

static int cu_func_max_threads(const struct cu_function *f)
{
	unsigned int m = f->kernel->max_threads;

	return (int)(m && m < CU_MAX_THREADS_PER_BLOCK ? m :
		     CU_MAX_THREADS_PER_BLOCK);
}

CU_EXPORT CUresult CUDAAPI cuFuncGetAttribute(int *pi,
					      CUfunction_attribute attrib,
					      CUfunction hfunc)
{
	struct cu_function *f;
	const struct visa_kernel *k;
	CUresult res = cu_func_lookup(hfunc, &f);

	if (res != CUDA_SUCCESS)
		return res;
	if (!pi)
		return CUDA_ERROR_INVALID_VALUE;
	k = f->kernel;
	switch (attrib) {
	case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
		*pi = cu_func_max_threads(f);
		break;
	case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
		*pi = (int)cu_kernel_user_shared(k);
		break;
	case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES:
		*pi = (int)f->module->hdr->const_size;
		break;
	case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES:
		*pi = (int)k->local_size;
		break;
	case CU_FUNC_ATTRIBUTE_NUM_REGS:
		*pi = (int)(k->num_regs < 255 ? k->num_regs : 255);
		break;
	case CU_FUNC_ATTRIBUTE_PTX_VERSION:
		*pi = (int)(f->module->ptx_arch ? f->module->ptx_arch :
			    CU_CC_MAJOR * 10 + CU_CC_MINOR);
		break;
	case CU_FUNC_ATTRIBUTE_BINARY_VERSION:
		*pi = CU_CC_MAJOR * 10 + CU_CC_MINOR;
		break;
	case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA:
		*pi = 0;
		break;
	case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
		*pi = (int)f->max_dynamic_shared;
		break;
	case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
		*pi = f->preferred_carveout;
		break;
	/* as an H100 answers (tools/cuda-probe/golden/probe_coop.h100.txt) */
	case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET:
		*pi = (k->flags & VISA_KERNEL_EXPLICIT_CLUSTER) ||
		      f->cluster_dim[0];
		break;
	case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
	case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
	case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
		*pi = (int)f->cluster_dim[attrib -
				CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH];
		break;
	case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
		*pi = f->cluster_non_portable;
		break;
	case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
		*pi = 0;
		break;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuFuncSetAttribute(CUfunction hfunc,
					      CUfunction_attribute attrib,
					      int value)
{
	struct cu_function *f;
	CUresult res = cu_func_lookup(hfunc, &f);

	if (res != CUDA_SUCCESS)
		return res;
	switch (attrib) {
	case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
		if (value < 0 || (uint64_t)value + cu_kernel_user_shared(f->kernel) >
				 CU_SHARED_PER_BLOCK_OPTIN)
			return CUDA_ERROR_INVALID_VALUE;
		f->max_dynamic_shared = (unsigned int)value;
		return CUDA_SUCCESS;
	case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
		if (value < -1 || value > 100)
			return CUDA_ERROR_INVALID_VALUE;
		f->preferred_carveout = value;
		return CUDA_SUCCESS;
	case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
		if (value != 0 && value != 1)
			return CUDA_ERROR_INVALID_VALUE;
		f->cluster_non_portable = value;
		return CUDA_SUCCESS;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

CU_EXPORT CUresult CUDAAPI cuFuncSetCacheConfig(CUfunction hfunc,
						CUfunc_cache config)
{
	struct cu_function *f;
	CUresult res = cu_func_lookup(hfunc, &f);

	if (res != CUDA_SUCCESS)
		return res;
	if ((unsigned int)config > CU_FUNC_CACHE_PREFER_EQUAL)
		return CUDA_ERROR_INVALID_VALUE;
	f->cache_config = (int)config;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuFuncGetName(const char **name, CUfunction hfunc)
{
	struct cu_function *f;
	CUresult res = cu_func_lookup(hfunc, &f);

	if (res != CUDA_SUCCESS)
		return res;
	if (!name)
		return CUDA_ERROR_INVALID_VALUE;
	*name = f->name;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuFuncGetModule(CUmodule *hmod, CUfunction hfunc)
{
	struct cu_function *f;
	CUresult res = cu_func_lookup(hfunc, &f);

	if (res != CUDA_SUCCESS)
		return res;
	if (!hmod)
		return CUDA_ERROR_INVALID_VALUE;
	*hmod = (CUmodule)f->module;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuFuncGetParamInfo(CUfunction hfunc,
					      size_t paramIndex,
					      size_t *paramOffset,
					      size_t *paramSize)
{
	const struct visa_param *p;
	struct cu_function *f;
	CUresult res = cu_func_lookup(hfunc, &f);

	if (res != CUDA_SUCCESS)
		return res;
	if (paramIndex >= f->kernel->param_count)
		return CUDA_ERROR_INVALID_VALUE;
	p = (const void *)(f->params + paramIndex * f->param_entsize);
	if (paramOffset)
		*paramOffset = p->offset;
	if (paramSize)
		*paramSize = p->size;
	return CUDA_SUCCESS;
}

/* ---- occupancy ----------------------------------------------------------- */

static int cu_blocks_per_sm(const struct cu_function *f, int block_size,
			    size_t dyn_smem)
{
	return (int)vgpu_occupancy_blocks_per_sm((uint32_t)block_size,
			vgpu_occupancy_block_shared(f->kernel, dyn_smem));
}

CU_EXPORT CUresult CUDAAPI
cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks,
						     CUfunction func,
						     int blockSize,
						     size_t dynamicSMemSize,
						     unsigned int flags)
{
	struct cu_function *f;
	CUresult res = cu_func_lookup(func, &f);

	if (res != CUDA_SUCCESS)
		return res;
	if (!numBlocks || blockSize <= 0 ||
	    (flags & ~(unsigned int)CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE))
		return CUDA_ERROR_INVALID_VALUE;
	if (blockSize > cu_func_max_threads(f) ||
	    dynamicSMemSize + cu_kernel_user_shared(f->kernel) >
	    CU_SHARED_PER_BLOCK_OPTIN) {
		*numBlocks = 0;
		return CUDA_SUCCESS;
	}
	*numBlocks = cu_blocks_per_sm(f, blockSize, dynamicSMemSize);
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI
cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction func,
					    int blockSize,
					    size_t dynamicSMemSize)
{
	return cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
		numBlocks, func, blockSize, dynamicSMemSize, 0);
}

CU_EXPORT CUresult CUDAAPI
cuOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize,
					  CUfunction func,
					  CUoccupancyB2DSize dynSMemFn,
					  size_t dynamicSMemSize,
					  int blockSizeLimit,
					  unsigned int flags)
{
	struct cu_function *f;
	int limit, bs, best_bs = 0, best_blocks = 0, best_threads = 0;
	CUresult res = cu_func_lookup(func, &f);

	if (res != CUDA_SUCCESS)
		return res;
	if (!minGridSize || !blockSize ||
	    (flags & ~(unsigned int)CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE))
		return CUDA_ERROR_INVALID_VALUE;
	limit = cu_func_max_threads(f);
	if (blockSizeLimit > 0 && blockSizeLimit < limit)
		limit = blockSizeLimit;
	/* Largest block size (a warp multiple) with the most threads per SM. */
	for (bs = limit - limit % CU_WARP_SIZE; bs > 0; bs -= CU_WARP_SIZE) {
		size_t smem = dynSMemFn ? dynSMemFn(bs) : dynamicSMemSize;
		int blocks;

		if (smem + cu_kernel_user_shared(f->kernel) >
		    CU_SHARED_PER_BLOCK_OPTIN)
			continue;
		blocks = cu_blocks_per_sm(f, bs, smem);
		if (blocks * bs > best_threads) {
			best_threads = blocks * bs;
			best_bs = bs;
			best_blocks = blocks;
		}
	}
	*blockSize = best_bs;
	*minGridSize = best_blocks * (int)f->module->ctx->dev->sm_count;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI
cuOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize,
				 CUfunction func, CUoccupancyB2DSize dynSMemFn,
				 size_t dynamicSMemSize, int blockSizeLimit)
{
	return cuOccupancyMaxPotentialBlockSizeWithFlags(
		minGridSize, blockSize, func, dynSMemFn, dynamicSMemSize,
		blockSizeLimit, 0);
}

CU_EXPORT CUresult CUDAAPI
cuOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize,
					CUfunction func, int numBlocks,
					int blockSize)
{
	struct cu_function *f;
	size_t per_block;
	CUresult res = cu_func_lookup(func, &f);

	if (res != CUDA_SUCCESS)
		return res;
	if (!dynamicSmemSize || numBlocks <= 0 || blockSize <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	per_block = CU_SHARED_PER_SM / (size_t)numBlocks;
	if (per_block > CU_SHARED_PER_BLOCK_OPTIN)
		per_block = CU_SHARED_PER_BLOCK_OPTIN;
	*dynamicSmemSize = per_block > f->kernel->shared_size ?
			   per_block - f->kernel->shared_size : 0;
	return CUDA_SUCCESS;
}

/* Modules load eagerly (cuModuleGetLoadingMode): a function is loaded. */
CU_EXPORT CUresult CUDAAPI cuFuncIsLoaded(CUfunctionLoadingState *state,
					  CUfunction function)
{
	struct cu_function *f;
	CUresult res = cu_func_lookup(function, &f);

	if (res != CUDA_SUCCESS)
		return res;
	if (!state)
		return CUDA_ERROR_INVALID_VALUE;
	*state = CU_FUNCTION_LOADING_STATE_LOADED;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuFuncLoad(CUfunction function)
{
	struct cu_function *f;

	return cu_func_lookup(function, &f);
}

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* Bank width is fixed at four bytes (see cuCtxSetSharedMemConfig). */
CU_EXPORT CUresult CUDAAPI cuFuncSetSharedMemConfig(CUfunction hfunc,
						    CUsharedconfig config)
{
	struct cu_function *f;
	CUresult res = cu_func_lookup(hfunc, &f);

	if (res != CUDA_SUCCESS)
		return res;
	if ((unsigned int)config > CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE)
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}
