// SPDX-License-Identifier: GPL-2.0
/*
 * device_properties.c - the older ways of describing a device:
 * cuDeviceGetProperties (deprecated since CUDA 5, still in cuda.h) and
 * the peer-link attributes of cuDeviceGetP2PAttribute.  Every value comes
 * from cuDeviceGetAttribute (attributes.c), the one description.
 */
#include <stddef.h>

#include "cuda_internal.h"

/* cuda.h marks it deprecated; it is still part of the API. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

CU_EXPORT CUresult CUDAAPI cuDeviceGetProperties(CUdevprop *prop,
						 CUdevice dev)
{
	static const struct {
		CUdevice_attribute attrib;
		size_t offset;
	} fields[] = {
		{ CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
		  offsetof(CUdevprop, maxThreadsPerBlock) },
		{ CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X,
		  offsetof(CUdevprop, maxThreadsDim[0]) },
		{ CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y,
		  offsetof(CUdevprop, maxThreadsDim[1]) },
		{ CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z,
		  offsetof(CUdevprop, maxThreadsDim[2]) },
		{ CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X,
		  offsetof(CUdevprop, maxGridSize[0]) },
		{ CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y,
		  offsetof(CUdevprop, maxGridSize[1]) },
		{ CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z,
		  offsetof(CUdevprop, maxGridSize[2]) },
		{ CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK,
		  offsetof(CUdevprop, sharedMemPerBlock) },
		{ CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY,
		  offsetof(CUdevprop, totalConstantMemory) },
		{ CU_DEVICE_ATTRIBUTE_WARP_SIZE,
		  offsetof(CUdevprop, SIMDWidth) },
		{ CU_DEVICE_ATTRIBUTE_MAX_PITCH,
		  offsetof(CUdevprop, memPitch) },
		{ CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK,
		  offsetof(CUdevprop, regsPerBlock) },
		{ CU_DEVICE_ATTRIBUTE_CLOCK_RATE,
		  offsetof(CUdevprop, clockRate) },
		{ CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT,
		  offsetof(CUdevprop, textureAlign) },
	};
	CUdevprop p;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!prop)
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		res = cuDeviceGetAttribute((int *)((char *)&p +
						   fields[i].offset),
					   fields[i].attrib, dev);
		if (res != CUDA_SUCCESS)
			return res;
	}
	*prop = p;
	return CUDA_SUCCESS;
}

/*
 * Between two vGPU devices the "link" is host memory that both firmwares
 * map (peer.c): access and native atomics are supported (both firmwares'
 * atomics are CPU atomics on the same pages), one link kind so one
 * performance rank (0, the best), and CUDA arrays are not reached across
 * devices (texture fetches read the own device's VRAM only).
 */
CU_EXPORT CUresult CUDAAPI cuDeviceGetP2PAttribute(int *value,
						   CUdevice_P2PAttribute attrib,
						   CUdevice srcDevice,
						   CUdevice dstDevice)
{
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!value)	/* checked first on an H100 */
		return CUDA_ERROR_INVALID_VALUE;
	if (!cu_device_get(srcDevice) || !cu_device_get(dstDevice) ||
	    srcDevice == dstDevice)
		return CUDA_ERROR_INVALID_DEVICE;
	switch (attrib) {
	case CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED:
	case CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED:
		*value = 1;
		return CUDA_SUCCESS;
	case CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK:
	case CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED:
	case CU_DEVICE_P2P_ATTRIBUTE_ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED:
		*value = 0;
		return CUDA_SUCCESS;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}
