// SPDX-License-Identifier: GPL-2.0
/*
 * attributes.c - cuDeviceGetAttribute: one coherent description of the
 * software GPU.
 *
 * The limits are those the execution core enforces (firmware_sim/core):
 * 1024 threads per block, warps of 32, 48 KiB of static shared memory and
 * up to 227 KiB with the opt-in, a 64 KiB constant bank.  The compute
 * capability is 9.0, so that PTX built for sm_75 ... sm_90 is usable.
 * Features the device does not have (textures, cluster launch, IPC...)
 * read 0, as they do on a GPU without them.  Managed memory migrates on
 * faults with a driver of uAPI 1.4 or later (memory.c, managed_hints.c):
 * the process and the device may then touch it at the same time, each
 * access moving the 64 KiB block it needs, so CONCURRENT_MANAGED_ACCESS
 * reads 1; with an older driver it is pinned host memory that never
 * moves, and it reads 0.  PAGEABLE_MEMORY_ACCESS reads 0: the device
 * cannot reach memory the driver did not allocate or pin (no HMM).
 */
#include "array.h"
#include "cuda_internal.h"
#include "vgpu_counters.h"

/* Clock rates in kHz: informative only (timers use real nanoseconds). */
#define CU_CLOCK_KHZ		1000000
#define CU_MEM_CLOCK_KHZ	1000000

static int cu_attribute_value(const struct cu_device *d,
			      CUdevice_attribute attrib, int *value)
{
	const struct vgpu_info *info = vgpu_device_info(d->vdev);

	switch (attrib) {
	case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
		return *value = CU_MAX_THREADS_PER_BLOCK, 0;
	case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X:
		return *value = CU_MAX_BLOCK_X, 0;
	case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y:
		return *value = CU_MAX_BLOCK_Y, 0;
	case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z:
		return *value = CU_MAX_BLOCK_Z, 0;
	case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X:
		return *value = (int)CU_MAX_GRID_X, 0;
	case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y:
	case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z:
		return *value = (int)CU_MAX_GRID_YZ, 0;
	case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK:
		return *value = CU_SHARED_PER_BLOCK, 0;
	case CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY:
		return *value = CU_CONST_BYTES, 0;
	case CU_DEVICE_ATTRIBUTE_WARP_SIZE:
		return *value = CU_WARP_SIZE, 0;
	case CU_DEVICE_ATTRIBUTE_MAX_PITCH:
		return *value = 0x7fffffff, 0;
	case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK:
		return *value = CU_REGS_PER_BLOCK, 0;
	case CU_DEVICE_ATTRIBUTE_CLOCK_RATE:
		return *value = CU_CLOCK_KHZ, 0;
	case CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT:
		return *value = 512, 0;
	case CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT:
	case CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT:
		return *value = 32, 0;
	/* the array limits (array.c) */
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH:
		return *value = (int)cu_array_limits[CU_ARRAY_1D].w, 0;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH:
		return *value = (int)cu_array_limits[CU_ARRAY_2D].w, 0;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT:
		return *value = (int)cu_array_limits[CU_ARRAY_2D].h, 0;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH:
		return *value = (int)cu_array_limits[CU_ARRAY_3D].w, 0;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT:
		return *value = (int)cu_array_limits[CU_ARRAY_3D].h, 0;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH:
		return *value = (int)cu_array_limits[CU_ARRAY_3D].d, 0;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH:
		return *value = (int)cu_array_limits[CU_ARRAY_2D_LAYERED].w, 0;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT:
		return *value = (int)cu_array_limits[CU_ARRAY_2D_LAYERED].h, 0;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS:
		return *value = (int)cu_array_limits[CU_ARRAY_2D_LAYERED].d, 0;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH:
		return *value = (int)cu_array_limits[CU_ARRAY_1D_LAYERED].w, 0;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS:
		return *value = (int)cu_array_limits[CU_ARRAY_1D_LAYERED].d, 0;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH:
		return *value = (int)cu_array_limits[CU_ARRAY_CUBEMAP].w, 0;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH:
		return *value = (int)cu_array_limits[CU_ARRAY_CUBEMAP_LAYERED].w, 0;
	case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS:
		return *value = (int)cu_array_limits[CU_ARRAY_CUBEMAP_LAYERED].d, 0;
	case CU_DEVICE_ATTRIBUTE_GPU_OVERLAP:
	case CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS:
		return *value = 1, 0;
	case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
		return *value = (int)d->sm_count, 0;
	case CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT: {
		/*
		 * The administrator may set or clear the limit at any time
		 * (module parameter kernel_exec_timeout_ms): ask afresh.
		 */
		struct vgpu_info now;

		if (vgpu_device_query(d->vdev, &now))
			now = *info;
		return *value = now.kernel_exec_timeout_ms != 0, 0;
	}
	case CU_DEVICE_ATTRIBUTE_COMPUTE_MODE: {
		/*
		 * The administrator sets it at any time (sysfs compute_mode);
		 * the driver's VGPU_COMPUTE_MODE_* are CUDA's numbers.
		 */
		struct vgpu_info now;

		if (vgpu_device_query(d->vdev, &now))
			now = *info;
		return *value = (int)now.compute_mode, 0;
	}
	case CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY:
	case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING:
	case CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED:
	case CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED:
	case CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED:
	case CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED:
	case CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED:
	case CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM:
	case CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED:
	case CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY:
		return *value = 1, 0;
	case CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS:
		return *value = info->version_major == 1 &&
				info->version_minor >= 4, 0;
	case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID:
		return *value = 0x80 + (int)d->ordinal, 0;
	case CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID:
	case CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID:
		return *value = 0, 0;
	case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE:
		return *value = CU_MEM_CLOCK_KHZ, 0;
	case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH:
		return *value = 64, 0;
	/* The L2 model of the firmware (include/vgpu_counters.h). */
	case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE:
		return *value = VGPU_L2_BYTES, 0;
	case CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE:
		return *value = VGPU_L2_PERSIST_MAX, 0;
	case CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE:
		return *value = VGPU_L2_WINDOW_MAX, 0;
	case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR:
		return *value = CU_MAX_THREADS_PER_SM, 0;
	case CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT:
		return *value = info->num_copy_engines, 0;
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
		return *value = CU_CC_MAJOR, 0;
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
		return *value = CU_CC_MINOR, 0;
	case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR:
		return *value = CU_SHARED_PER_SM, 0;
	case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR:
		return *value = CU_REGS_PER_SM, 0;
	case CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO:
		return *value = 2, 0;
	case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
		return *value = CU_SHARED_PER_BLOCK_OPTIN, 0;
	case CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR:
		return *value = CU_MAX_BLOCKS_PER_SM, 0;
	case CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK:
		return *value = 0, 0;
	case CU_DEVICE_ATTRIBUTE_NUMA_ID:
	case CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID:
		return *value = -1, 0;
	/* Stream-ordered pools (mem_pool.c), shared by descriptor. */
	case CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED:
		return *value = 1, 0;
	case CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES:
		return *value = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0;
	/* Virtual memory management (vmm.c), shared by descriptor. */
	case CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED:
	case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED:
		return *value = 1, 0;
	/* Cooperative grids and clusters (launch_coop.c). */
	case CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH:
	case CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH:
		return *value = 1, 0;
	default:
		/* Every other defined attribute is a feature we do not have. */
		if (attrib > 0 && attrib < CU_DEVICE_ATTRIBUTE_MAX)
			return *value = 0, 0;
		return -1;
	}
}

CU_EXPORT CUresult CUDAAPI cuDeviceGetAttribute(int *pi,
						CUdevice_attribute attrib,
						CUdevice dev)
{
	CUresult res = cu_initialized();
	struct cu_device *d;

	if (res != CUDA_SUCCESS)
		return res;
	/* Refused inside a host function, as on an H100 (host_func.c). */
	res = cu_host_func_forbid();
	if (res != CUDA_SUCCESS)
		return res;
	if (!pi)
		return CUDA_ERROR_INVALID_VALUE;
	d = cu_device_get(dev);
	if (!d)
		return CUDA_ERROR_INVALID_DEVICE;
	if (cu_attribute_value(d, attrib, pi))
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}
