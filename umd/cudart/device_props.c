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
	RT_CHECK_DEVICE_OR_RETURN(device);
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

/*
 * One entry a field: INT, UINT or SIZE by the field's C type; an array
 * field (maxGridSize[3] ...) takes one attribute an element, in order.
 */
#define P(field, kind, attr) \
	{ offsetof(struct cudaDeviceProp, field), RT_PROP_##kind, attr }
#define INT(field, attr)	P(field, INT, attr)
#define UINT(field, attr)	P(field, UINT, attr)
#define SIZE(field, attr)	P(field, SIZE, attr)
#define INT_2(field, a0, a1)	P(field[0], INT, a0), P(field[1], INT, a1)
#define INT_3(field, a0, a1, a2) \
	INT_2(field, a0, a1), P(field[2], INT, a2)

static const struct rt_prop rt_props[] = {
	SIZE(sharedMemPerBlock, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK),
	INT(regsPerBlock, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK),
	INT(warpSize, CU_DEVICE_ATTRIBUTE_WARP_SIZE),
	SIZE(memPitch, CU_DEVICE_ATTRIBUTE_MAX_PITCH),
	INT(maxThreadsPerBlock, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK),
	INT_3(maxThreadsDim,
	      CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X,
	      CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y,
	      CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z),
	INT_3(maxGridSize,
	      CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X,
	      CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y,
	      CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z),
	SIZE(totalConstMem, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY),
	INT(major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
	INT(minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR),
	SIZE(textureAlignment, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT),
	SIZE(texturePitchAlignment, CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT),
	INT(multiProcessorCount, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT),
	INT(integrated, CU_DEVICE_ATTRIBUTE_INTEGRATED),
	INT(canMapHostMemory, CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY),
	INT(maxTexture1D, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH),
	INT(maxTexture1DMipmap, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH),
	INT_2(maxTexture2D,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT),
	INT_2(maxTexture2DMipmap,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT),
	INT_3(maxTexture2DLinear,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH),
	INT_2(maxTexture2DGather,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT),
	INT_3(maxTexture3D,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH),
	INT_3(maxTexture3DAlt,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE),
	INT(maxTextureCubemap, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH),
	INT_2(maxTexture1DLayered,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS),
	INT_3(maxTexture2DLayered,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS),
	INT_2(maxTextureCubemapLayered,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS),
	INT(maxSurface1D, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH),
	INT_2(maxSurface2D,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT),
	INT_3(maxSurface3D,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH),
	INT_2(maxSurface1DLayered,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS),
	INT_3(maxSurface2DLayered,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS),
	INT(maxSurfaceCubemap, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH),
	INT_2(maxSurfaceCubemapLayered,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH,
	      CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS),
	SIZE(surfaceAlignment, CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT),
	INT(concurrentKernels, CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS),
	INT(ECCEnabled, CU_DEVICE_ATTRIBUTE_ECC_ENABLED),
	INT(pciBusID, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID),
	INT(pciDeviceID, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID),
	INT(pciDomainID, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID),
	INT(tccDriver, CU_DEVICE_ATTRIBUTE_TCC_DRIVER),
	INT(asyncEngineCount, CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT),
	INT(unifiedAddressing, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING),
	INT(memoryBusWidth, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH),
	INT(l2CacheSize, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE),
	INT(persistingL2CacheMaxSize, CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE),
	INT(maxThreadsPerMultiProcessor, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR),
	INT(streamPrioritiesSupported, CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED),
	INT(globalL1CacheSupported, CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED),
	INT(localL1CacheSupported, CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED),
	SIZE(sharedMemPerMultiprocessor, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR),
	INT(regsPerMultiprocessor, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR),
	INT(managedMemory, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY),
	INT(isMultiGpuBoard, CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD),
	INT(multiGpuBoardGroupID, CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID),
	INT(hostNativeAtomicSupported, CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED),
	INT(pageableMemoryAccess, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS),
	INT(concurrentManagedAccess, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS),
	INT(computePreemptionSupported, CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED),
	INT(canUseHostPointerForRegisteredMem, CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM),
	INT(cooperativeLaunch, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH),
	SIZE(sharedMemPerBlockOptin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN),
	INT(pageableMemoryAccessUsesHostPageTables, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES),
	INT(directManagedMemAccessFromHost, CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST),
	INT(maxBlocksPerMultiProcessor, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR),
	INT(accessPolicyMaxWindowSize, CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE),
	SIZE(reservedSharedMemPerBlock, CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK),
	INT(hostRegisterSupported, CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED),
	INT(sparseCudaArraySupported, CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED),
	INT(hostRegisterReadOnlySupported, CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED),
	INT(timelineSemaphoreInteropSupported, CU_DEVICE_ATTRIBUTE_TIMELINE_SEMAPHORE_INTEROP_SUPPORTED),
	INT(memoryPoolsSupported, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED),
	INT(gpuDirectRDMASupported, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED),
	UINT(gpuDirectRDMAFlushWritesOptions, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS),
	INT(gpuDirectRDMAWritesOrdering, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING),
	UINT(memoryPoolSupportedHandleTypes, CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES),
	INT(deferredMappingCudaArraySupported, CU_DEVICE_ATTRIBUTE_DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED),
	INT(ipcEventSupported, CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED),
	INT(clusterLaunch, CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH),
	INT(unifiedFunctionPointers, CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS),
	INT(deviceNumaConfig, CU_DEVICE_ATTRIBUTE_NUMA_CONFIG),
	INT(deviceNumaId, CU_DEVICE_ATTRIBUTE_NUMA_ID),
	INT(mpsEnabled, CU_DEVICE_ATTRIBUTE_MPS_ENABLED),
	INT(hostNumaId, CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID),
	UINT(gpuPciDeviceID, CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID),
	UINT(gpuPciSubsystemID, CU_DEVICE_ATTRIBUTE_GPU_PCI_SUBSYSTEM_ID),
	INT(hostNumaMultinodeIpcSupported, CU_DEVICE_ATTRIBUTE_HOST_NUMA_MULTINODE_IPC_SUPPORTED),
};

#undef INT_3
#undef INT_2
#undef SIZE
#undef UINT
#undef INT
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
