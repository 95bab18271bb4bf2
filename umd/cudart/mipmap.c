// SPDX-License-Identifier: GPL-2.0
/*
 * Mipmapped arrays in the runtime: cudaMallocMipmappedArray,
 * cudaGetMipmappedArrayLevel, cudaFreeMipmappedArray.
 *
 * A cudaMipmappedArray_t is the driver's CUmipmappedArray
 * (umd/cuda/mipmap.c: the levels as one VRAM chain, each level a
 * cudaArray_t of its own).  The codes are an H100's
 * (tests/golden/probe_tex.h100.txt): a NULL mipmapped array is
 * cudaErrorInvalidResourceHandle for GetLevel and a success for Free; a
 * freed one cudaErrorContextIsDestroyed.
 */
#include <stdint.h>

#include "cudart_internal.h"

cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t *mipmappedArray,
				     const struct cudaChannelFormatDesc *desc,
				     struct cudaExtent extent,
				     unsigned int numLevels,
				     unsigned int flags)
{
	CUDA_ARRAY3D_DESCRIPTOR d = {
		.Width = extent.width, .Height = extent.height,
		.Depth = extent.depth, .Flags = flags,
	};
	CUmipmappedArray m;
	cudaError_t err;
	int dev;

	if (!mipmappedArray || !desc)
		return rt_return(cudaErrorInvalidValue);
	if (!rt_desc_format(desc, &d.Format, &d.NumChannels))
		return rt_return(cudaErrorInvalidChannelDescriptor);
	err = rt_enter(&dev);
	if (err != cudaSuccess)
		return rt_return(err);
	err = rt_error_from_cu(cuMipmappedArrayCreate(&m, &d, numLevels));
	if (err == cudaSuccess)
		*mipmappedArray = (cudaMipmappedArray_t)m;
	return rt_return(err);
}

cudaError_t cudaGetMipmappedArrayLevel(cudaArray_t *levelArray,
				       cudaMipmappedArray_const_t mipmappedArray,
				       unsigned int level)
{
	CUarray a;
	CUresult r;

	RT_ENTER_OR_RETURN();
	if (!mipmappedArray)
		return rt_return(cudaErrorInvalidResourceHandle);
	if (!levelArray)
		return rt_return(cudaErrorInvalidValue);
	r = cuMipmappedArrayGetLevel(&a, (CUmipmappedArray)mipmappedArray,
				     level);
	if (r == CUDA_SUCCESS)
		*levelArray = (cudaArray_t)a;
	return rt_return_cu(r);
}

cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t mipmappedArray)
{
	RT_ENTER_OR_RETURN();
	if (!mipmappedArray)
		return rt_return(cudaSuccess);
	return rt_return_cu(cuMipmappedArrayDestroy(
		(CUmipmappedArray)mipmappedArray));
}
