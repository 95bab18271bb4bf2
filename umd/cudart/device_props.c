// SPDX-License-Identifier: GPL-2.0
/*
 * Device properties and attributes.
 *
 * Every runtime device attribute has the value of the driver attribute
 * it mirrors (cudaDevAttrMaxThreadsPerBlock == CU_DEVICE_ATTRIBUTE_
 * MAX_THREADS_PER_BLOCK, ...), so cudaDeviceGetAttribute() passes them
 * on, also the few the runtime's enum does not name, as NVIDIA's does.
 * cudaGetDeviceProperties() fills the CUDA 13 cudaDeviceProp field by
 * field from the driver's attributes, following the table below.
 */
#include <stddef.h>
#include <string.h>

#include "cudart_internal.h"

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr,
				   int device)
{
	cudaError_t err = rt_check_device(device);

	if (err != cudaSuccess)
		return rt_return(err);
	/*
	 * Every driver attribute, also those cudaDeviceAttr has no name for
	 * (an H100 answers them: tools/cuda-probe/golden/probe_devrt.h100.txt).
	 */
	if (!value || attr <= 0 || attr >= cudaDevAttrMax)
		return rt_return(cudaErrorInvalidValue);
	return rt_return_cu(cuDeviceGetAttribute(value,
			(CUdevice_attribute)attr, (CUdevice)device));
}

enum rt_prop_kind { RT_PROP_INT, RT_PROP_UINT, RT_PROP_SIZE };

struct rt_prop {
	size_t offset;			/* in struct cudaDeviceProp */
	enum rt_prop_kind kind;
	CUdevice_attribute attr;
};

#define P(field, kind, attr) \
	{ offsetof(struct cudaDeviceProp, field), kind, attr }

static const struct rt_prop rt_props[] = {
	P(sharedMemPerBlock, RT_PROP_SIZE, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK),
	P(regsPerBlock, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK),
	P(warpSize, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_WARP_SIZE),
	P(memPitch, RT_PROP_SIZE, CU_DEVICE_ATTRIBUTE_MAX_PITCH),
	P(maxThreadsPerBlock, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK),
	P(maxThreadsDim[0], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X),
	P(maxThreadsDim[1], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y),
	P(maxThreadsDim[2], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z),
	P(maxGridSize[0], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X),
	P(maxGridSize[1], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y),
	P(maxGridSize[2], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z),
	P(totalConstMem, RT_PROP_SIZE, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY),
	P(major, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
	P(minor, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR),
	P(textureAlignment, RT_PROP_SIZE, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT),
	P(texturePitchAlignment, RT_PROP_SIZE, CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT),
	P(multiProcessorCount, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT),
	P(integrated, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_INTEGRATED),
	P(canMapHostMemory, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY),
	P(maxTexture1D, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH),
	P(maxTexture1DMipmap, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH),
	P(maxTexture2D[0], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH),
	P(maxTexture2D[1], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT),
	P(maxTexture2DMipmap[0], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH),
	P(maxTexture2DMipmap[1], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT),
	P(maxTexture2DLinear[0], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH),
	P(maxTexture2DLinear[1], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT),
	P(maxTexture2DLinear[2], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH),
	P(maxTexture2DGather[0], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH),
	P(maxTexture2DGather[1], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT),
	P(maxTexture3D[0], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH),
	P(maxTexture3D[1], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT),
	P(maxTexture3D[2], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH),
	P(maxTexture3DAlt[0], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE),
	P(maxTexture3DAlt[1], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE),
	P(maxTexture3DAlt[2], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE),
	P(maxTextureCubemap, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH),
	P(maxTexture1DLayered[0], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH),
	P(maxTexture1DLayered[1], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS),
	P(maxTexture2DLayered[0], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH),
	P(maxTexture2DLayered[1], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT),
	P(maxTexture2DLayered[2], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS),
	P(maxTextureCubemapLayered[0], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH),
	P(maxTextureCubemapLayered[1], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS),
	P(maxSurface1D, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH),
	P(maxSurface2D[0], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH),
	P(maxSurface2D[1], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT),
	P(maxSurface3D[0], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH),
	P(maxSurface3D[1], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT),
	P(maxSurface3D[2], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH),
	P(maxSurface1DLayered[0], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH),
	P(maxSurface1DLayered[1], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS),
	P(maxSurface2DLayered[0], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH),
	P(maxSurface2DLayered[1], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT),
	P(maxSurface2DLayered[2], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS),
	P(maxSurfaceCubemap, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH),
	P(maxSurfaceCubemapLayered[0], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH),
	P(maxSurfaceCubemapLayered[1], RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS),
	P(surfaceAlignment, RT_PROP_SIZE, CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT),
	P(concurrentKernels, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS),
	P(ECCEnabled, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_ECC_ENABLED),
	P(pciBusID, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID),
	P(pciDeviceID, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID),
	P(pciDomainID, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID),
	P(tccDriver, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_TCC_DRIVER),
	P(asyncEngineCount, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT),
	P(unifiedAddressing, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING),
	P(memoryBusWidth, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH),
	P(l2CacheSize, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE),
	P(persistingL2CacheMaxSize, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE),
	P(maxThreadsPerMultiProcessor, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR),
	P(streamPrioritiesSupported, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED),
	P(globalL1CacheSupported, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED),
	P(localL1CacheSupported, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED),
	P(sharedMemPerMultiprocessor, RT_PROP_SIZE, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR),
	P(regsPerMultiprocessor, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR),
	P(managedMemory, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY),
	P(isMultiGpuBoard, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD),
	P(multiGpuBoardGroupID, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID),
	P(hostNativeAtomicSupported, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED),
	P(pageableMemoryAccess, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS),
	P(concurrentManagedAccess, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS),
	P(computePreemptionSupported, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED),
	P(canUseHostPointerForRegisteredMem, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM),
	P(cooperativeLaunch, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH),
	P(sharedMemPerBlockOptin, RT_PROP_SIZE, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN),
	P(pageableMemoryAccessUsesHostPageTables, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES),
	P(directManagedMemAccessFromHost, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST),
	P(maxBlocksPerMultiProcessor, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR),
	P(accessPolicyMaxWindowSize, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE),
	P(reservedSharedMemPerBlock, RT_PROP_SIZE, CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK),
	P(hostRegisterSupported, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED),
	P(sparseCudaArraySupported, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED),
	P(hostRegisterReadOnlySupported, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED),
	P(timelineSemaphoreInteropSupported, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_TIMELINE_SEMAPHORE_INTEROP_SUPPORTED),
	P(memoryPoolsSupported, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED),
	P(gpuDirectRDMASupported, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED),
	P(gpuDirectRDMAFlushWritesOptions, RT_PROP_UINT, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS),
	P(gpuDirectRDMAWritesOrdering, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING),
	P(memoryPoolSupportedHandleTypes, RT_PROP_UINT, CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES),
	P(deferredMappingCudaArraySupported, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED),
	P(ipcEventSupported, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED),
	P(clusterLaunch, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH),
	P(unifiedFunctionPointers, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS),
	P(deviceNumaConfig, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_NUMA_CONFIG),
	P(deviceNumaId, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_NUMA_ID),
	P(mpsEnabled, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_MPS_ENABLED),
	P(hostNumaId, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID),
	P(gpuPciDeviceID, RT_PROP_UINT, CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID),
	P(gpuPciSubsystemID, RT_PROP_UINT, CU_DEVICE_ATTRIBUTE_GPU_PCI_SUBSYSTEM_ID),
	P(hostNumaMultinodeIpcSupported, RT_PROP_INT, CU_DEVICE_ATTRIBUTE_HOST_NUMA_MULTINODE_IPC_SUPPORTED),
};

#undef P

static void rt_prop_store(struct cudaDeviceProp *prop, const struct rt_prop *p,
			  int value)
{
	char *field = (char *)prop + p->offset;

	switch (p->kind) {
	case RT_PROP_INT:
		memcpy(field, &value, sizeof(int));
		break;
	case RT_PROP_UINT: {
		unsigned int u = (unsigned int)value;

		memcpy(field, &u, sizeof(u));
		break;
	}
	case RT_PROP_SIZE: {
		/* Driver attributes are int; sizes are never negative. */
		size_t s = (size_t)(unsigned int)value;

		memcpy(field, &s, sizeof(s));
		break;
	}
	}
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
	cudaError_t err = rt_check_device(device);
	CUdevice dev = (CUdevice)device;
	CUuuid uuid;
	size_t total;
	CUresult r;

	if (err != cudaSuccess)
		return rt_return(err);
	if (!prop)
		return rt_return(cudaErrorInvalidValue);
	memset(prop, 0, sizeof(*prop));
	r = cuDeviceGetName(prop->name, sizeof(prop->name), dev);
	if (r == CUDA_SUCCESS)
		r = cuDeviceGetUuid(&uuid, dev);
	if (r == CUDA_SUCCESS)
		r = cuDeviceTotalMem(&total, dev);
	for (size_t i = 0; r == CUDA_SUCCESS &&
	     i < sizeof(rt_props) / sizeof(rt_props[0]); i++) {
		int value;

		r = cuDeviceGetAttribute(&value, rt_props[i].attr, dev);
		if (r == CUDA_SUCCESS)
			rt_prop_store(prop, &rt_props[i], value);
	}
	if (r != CUDA_SUCCESS)
		return rt_return_cu(r);
	memcpy(&prop->uuid, &uuid, sizeof(prop->uuid));
	prop->totalGlobalMem = total;
	/* luid and luidDeviceNodeMask are Windows-only: left zero. */
	return cudaSuccess;
}
