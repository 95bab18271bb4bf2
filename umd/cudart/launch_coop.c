// SPDX-License-Identifier: GPL-2.0
/*
 * Cooperative launches and the cluster occupancy API of the runtime:
 * each is its driver twin (umd/cuda/launch_coop.c) on the function of the
 * current device.  cudaLaunchCooperativeKernel is cudaLaunchKernelExC
 * with the cooperative attribute, as the runtime documents it.
 */
#include <string.h>

#include "cudart_abi.h"
#include "cudart_internal.h"

cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim,
					dim3 blockDim, void **args,
					size_t sharedMem, cudaStream_t stream)
{
	cudaLaunchAttribute attr = { .id = cudaLaunchAttributeCooperative };
	cudaLaunchConfig_t cfg = {
		.gridDim = gridDim, .blockDim = blockDim,
		.dynamicSmemBytes = sharedMem, .stream = stream,
		.attrs = &attr, .numAttrs = 1,
	};

	attr.val.cooperative = 1;
	return cudaLaunchKernelExC(&cfg, func, args);
}

/* The driver's view of @config (cudaLaunchAttribute shares its layout). */
static cudaError_t rt_cluster_query(const void *func,
				    const cudaLaunchConfig_t *config,
				    CUfunction *fn, CUlaunchConfig *cfg)
{
	if (!config)
		return cudaErrorInvalidValue;
	if (!func)
		return cudaErrorInvalidDeviceFunction;
	*cfg = (CUlaunchConfig){
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
	return rt_function_resolve(func, fn);
}

cudaError_t cudaOccupancyMaxActiveClusters(int *numClusters, const void *func,
					   const cudaLaunchConfig_t *config)
{
	CUlaunchConfig cfg;
	CUfunction fn;
	cudaError_t err = rt_cluster_query(func, config, &fn, &cfg);

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return_cu(cuOccupancyMaxActiveClusters(numClusters, fn, &cfg));
}

cudaError_t cudaOccupancyMaxPotentialClusterSize(int *clusterSize,
		const void *func, const cudaLaunchConfig_t *config)
{
	CUlaunchConfig cfg;
	CUfunction fn;
	cudaError_t err = rt_cluster_query(func, config, &fn, &cfg);

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return_cu(cuOccupancyMaxPotentialClusterSize(clusterSize, fn,
							       &cfg));
}
