// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel launches, function attributes and occupancy.
 *
 * nvcc's stub for a kernel gets a handle for it once (__cudaGetKernel,
 * cached in a static), then launches through __cudaLaunchKernel with the
 * configuration it popped and an array of pointers to its argument
 * copies.  The handle is our registry record; the launch resolves it to
 * the driver function of the current device (loading the module on first
 * use) and calls cuLaunchKernel, which knows the parameter layout from
 * the PTX.  Launch errors are not returned to the program (the stub drops
 * them): they land in the thread's last error, where cudaGetLastError()
 * finds them.
 *
 * The public entry points that name a kernel take the host stub's
 * address (or, since CUDA 12, a cudaKernel_t); both are accepted.
 */
#include <string.h>

#include "cudart_abi.h"
#include "cudart_internal.h"

cudaError_t rt_launch(CUfunction fn, dim3 grid, dim3 block, void **args,
		      size_t shmem, CUstream stream)
{
	/* A configuration the device cannot run is the driver's to judge:
	 * it answers CUDA_ERROR_INVALID_VALUE as NVIDIA's does. */
	if (shmem > 0xffffffffu)
		return cudaErrorInvalidValue;
	return rt_error_from_cu(cuLaunchKernel(fn, grid.x, grid.y, grid.z,
					       block.x, block.y, block.z,
					       (unsigned int)shmem, stream,
					       args, NULL));
}

cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun)
{
	struct rt_function *f = rt_function_lookup(hostFun);

	if (!kernel)
		return rt_return(cudaErrorInvalidValue);
	*kernel = (cudaKernel_t)f;
	if (!f)
		return rt_return(cudaErrorInvalidDeviceFunction);
	return cudaSuccess;
}

cudaError_t cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr)
{
	return __cudaGetKernel(kernelPtr, entryFuncAddr);
}

static cudaError_t rt_launch_registered(struct rt_function *f, dim3 grid,
					dim3 block, void **args, size_t shmem,
					CUstream stream)
{
	CUfunction fn;
	int dev;
	cudaError_t err;

	if (!f)
		return cudaErrorInvalidDeviceFunction;
	err = rt_enter(&dev);
	if (err == cudaSuccess)
		err = rt_function_get(f, dev, &fn);
	if (err == cudaSuccess)
		err = rt_launch(fn, grid, block, args, shmem, stream);
	return err;
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim,
			       dim3 blockDim, void **args, size_t sharedMem,
			       cudaStream_t stream)
{
	return rt_return(rt_launch_registered((struct rt_function *)kernel,
					      gridDim, blockDim, args,
					      sharedMem, stream));
}

/*
 * Code compiled with --default-stream per-thread: stream 0 means the
 * calling thread's default stream rather than the legacy one.
 */
cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim,
				    dim3 blockDim, void **args,
				    size_t sharedMem, cudaStream_t stream)
{
	if (!stream)
		stream = CU_STREAM_PER_THREAD;
	return __cudaLaunchKernel(kernel, gridDim, blockDim, args, sharedMem,
				  stream);
}

/* A kernel named by host stub address or cudaKernel_t. */
static struct rt_function *rt_function_named(const void *func)
{
	struct rt_function *f = rt_function_lookup(func);

	return f ? f : rt_function_from_kernel((cudaKernel_t)func);
}

/* What clang-compiled CUDA calls for <<<>>>, and the public launch API. */
cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim,
			     void **args, size_t sharedMem,
			     cudaStream_t stream)
{
	struct rt_function *f = rt_function_named(func);
	CUfunction fn;
	cudaError_t err;
	int dev;

	/* A library's kernel (cudaLibraryGetKernel). */
	if (!f) {
		err = rt_enter(&dev);
		if (err == cudaSuccess && rt_library_function(func, &fn, &err) &&
		    err == cudaSuccess)
			err = rt_launch(fn, gridDim, blockDim, args, sharedMem,
					stream);
		else if (err == cudaSuccess)
			err = cudaErrorInvalidDeviceFunction;
		return rt_return(err);
	}
	return rt_return(rt_launch_registered(f, gridDim, blockDim, args,
					      sharedMem, stream));
}

cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config,
				const void *func, void **args)
{
	struct rt_function *f = rt_function_named(func);
	CUlaunchConfig cfg;
	CUfunction fn;
	int dev;
	cudaError_t err;

	if (!config)
		return rt_return(cudaErrorInvalidValue);
	if (!config->numAttrs)
		return rt_return(rt_launch_registered(f, config->gridDim,
				config->blockDim, args,
				config->dynamicSmemBytes, config->stream));
	if (!f)
		return rt_return(cudaErrorInvalidDeviceFunction);
	err = rt_enter(&dev);
	if (err == cudaSuccess)
		err = rt_function_get(f, dev, &fn);
	if (err != cudaSuccess)
		return rt_return(err);
	/* cudaLaunchAttribute and CUlaunchAttribute share their layout. */
	cfg = (CUlaunchConfig){
		.gridDimX = config->gridDim.x, .gridDimY = config->gridDim.y,
		.gridDimZ = config->gridDim.z,
		.blockDimX = config->blockDim.x,
		.blockDimY = config->blockDim.y,
		.blockDimZ = config->blockDim.z,
		.sharedMemBytes = (unsigned int)config->dynamicSmemBytes,
		.hStream = config->stream,
		.attrs = (CUlaunchAttribute *)config->attrs,
		.numAttrs = config->numAttrs,
	};
	return rt_return_cu(cuLaunchKernelEx(&cfg, fn, args, NULL));
}

/* Resolve @func for the current device, reporting as CUDA 13 does. */
static cudaError_t rt_func(const void *func, CUfunction *fn)
{
	if (!func)
		return cudaErrorInvalidDeviceFunction;
	return rt_function_resolve(func, fn);
}

struct rt_func_attr {
	size_t offset;			/* in struct cudaFuncAttributes */
	bool is_size;			/* size_t field, else int */
	CUfunction_attribute attr;
};

#define FA(field, is_size, attr) \
	{ offsetof(struct cudaFuncAttributes, field), is_size, attr }

static const struct rt_func_attr rt_func_attrs[] = {
	FA(sharedSizeBytes, true, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES),
	FA(constSizeBytes, true, CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES),
	FA(localSizeBytes, true, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES),
	FA(maxThreadsPerBlock, false, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK),
	FA(numRegs, false, CU_FUNC_ATTRIBUTE_NUM_REGS),
	FA(ptxVersion, false, CU_FUNC_ATTRIBUTE_PTX_VERSION),
	FA(binaryVersion, false, CU_FUNC_ATTRIBUTE_BINARY_VERSION),
	FA(cacheModeCA, false, CU_FUNC_ATTRIBUTE_CACHE_MODE_CA),
	FA(maxDynamicSharedSizeBytes, false,
	   CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES),
	FA(preferredShmemCarveout, false,
	   CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT),
	FA(clusterDimMustBeSet, false, CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET),
	FA(requiredClusterWidth, false, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH),
	FA(requiredClusterHeight, false,
	   CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT),
	FA(requiredClusterDepth, false, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH),
	FA(clusterSchedulingPolicyPreference, false,
	   CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE),
	FA(nonPortableClusterSizeAllowed, false,
	   CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED),
};

#undef FA

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr,
				  const void *func)
{
	CUfunction fn;
	cudaError_t err;

	if (!attr)
		return rt_return(cudaErrorInvalidValue);
	err = rt_func(func, &fn);
	if (err != cudaSuccess)
		return rt_return(err);
	memset(attr, 0, sizeof(*attr));
	for (size_t i = 0; i < sizeof(rt_func_attrs) / sizeof(rt_func_attrs[0]);
	     i++) {
		const struct rt_func_attr *a = &rt_func_attrs[i];
		char *field = (char *)attr + a->offset;
		int value;
		CUresult r = cuFuncGetAttribute(&value, a->attr, fn);

		if (r != CUDA_SUCCESS)
			return rt_return_cu(r);
		if (a->is_size) {
			size_t s = (size_t)(unsigned int)value;

			memcpy(field, &s, sizeof(s));
		} else {
			memcpy(field, &value, sizeof(value));
		}
	}
	return cudaSuccess;
}

cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr,
				 int value)
{
	CUfunction fn;
	cudaError_t err = rt_func(func, &fn);

	if (err != cudaSuccess)
		return rt_return(err);
	/* The settable cudaFuncAttribute values are the CU_FUNC_ATTRIBUTE
	 * values of the same meaning (MaxDynamicSharedMemorySize = 8...). */
	if (attr < cudaFuncAttributeMaxDynamicSharedMemorySize ||
	    attr >= cudaFuncAttributeMax)
		return rt_return(cudaErrorInvalidValue);
	return rt_return_cu(cuFuncSetAttribute(fn, (CUfunction_attribute)attr,
					       value));
}

cudaError_t cudaFuncGetName(const char **name, const void *func)
{
	CUfunction fn;
	cudaError_t err;

	if (!name)
		return rt_return(cudaErrorInvalidValue);
	err = rt_func(func, &fn);
	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return_cu(cuFuncGetName(name, fn));
}

cudaError_t cudaFuncSetCacheConfig(const void *func,
				   enum cudaFuncCache cacheConfig)
{
	CUfunction fn;
	cudaError_t err = rt_func(func, &fn);

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return_cu(cuFuncSetCacheConfig(fn, (CUfunc_cache)cacheConfig));
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
		int *numBlocks, const void *func, int blockSize,
		size_t dynamicSMemSize, unsigned int flags)
{
	CUfunction fn;
	cudaError_t err;

	if (!numBlocks)
		return rt_return(cudaErrorInvalidValue);
	err = rt_func(func, &fn);
	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return_cu(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
			numBlocks, fn, blockSize, dynamicSMemSize, flags));
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks,
		const void *func, int blockSize, size_t dynamicSMemSize)
{
	return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks,
			func, blockSize, dynamicSMemSize, cudaOccupancyDefault);
}

cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize,
		const void *func, int numBlocks, int blockSize)
{
	CUfunction fn;
	cudaError_t err;

	if (!dynamicSmemSize)
		return rt_return(cudaErrorInvalidValue);
	err = rt_func(func, &fn);
	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return_cu(cuOccupancyAvailableDynamicSMemPerBlock(
			dynamicSmemSize, fn, numBlocks, blockSize));
}
