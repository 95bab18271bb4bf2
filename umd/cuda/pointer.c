// SPDX-License-Identifier: GPL-2.0
/*
 * pointer.c - cuPointerGetAttribute(s): what unified addressing knows
 * about a pointer, answered from the registry.
 */
#include <string.h>

#include "cuda_internal.h"

/* Write one attribute of @ptr; @m is NULL for memory we do not know. */
static CUresult cu_pointer_attr(void *data, CUpointer_attribute attr,
				CUdeviceptr ptr, const struct cu_mem *m,
				bool strict)
{
	struct cu_ctx *cur = cu_ctx_current();
	bool dev = m && m->kind == CU_MEM_DEVICE;

	switch (attr) {
	case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
		if (!m && strict)
			return CUDA_ERROR_INVALID_VALUE;
		*(unsigned int *)data = !m ? 0 : dev ? CU_MEMORYTYPE_DEVICE :
					CU_MEMORYTYPE_HOST;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_CONTEXT:
		if (!m && strict)
			return CUDA_ERROR_INVALID_VALUE;
		*(CUcontext *)data = !m ? NULL : dev ? (CUcontext)m->ctx :
				     (CUcontext)cur;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
		if (!m && strict)
			return CUDA_ERROR_INVALID_VALUE;
		*(CUdeviceptr *)data = m ? ptr : 0;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_HOST_POINTER:
		if ((!m || dev) && strict)
			return CUDA_ERROR_INVALID_VALUE;
		*(void **)data = dev ? NULL : (void *)(uintptr_t)ptr;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS:
		*(int *)data = 1;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_BUFFER_ID:
		if (!m && strict)
			return CUDA_ERROR_INVALID_VALUE;
		*(unsigned long long *)data = m ? m->id : 0;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_IS_MANAGED:
		*(int *)data = m && m->managed;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
		if (!m && strict)
			return CUDA_ERROR_INVALID_VALUE;
		*(int *)data = m ? (int)m->dev->ordinal : -2;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_MAPPED:
		*(int *)data = m != NULL;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
		if (!m && strict)
			return CUDA_ERROR_INVALID_VALUE;
		*(CUdeviceptr *)data = m ? m->base : 0;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
		if (!m && strict)
			return CUDA_ERROR_INVALID_VALUE;
		*(size_t *)data = m ? m->size : 0;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE:
	case CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE:
	case CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE:
		*(int *)data = 0;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES:
		*(unsigned long long *)data = 0;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_ACCESS_FLAGS:
		*(unsigned int *)data = m && m->kind == CU_MEM_REGISTERED &&
			(m->flags & CU_MEMHOSTREGISTER_READ_ONLY) ?
			CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READ :
			CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
		*(void **)data = m ? cu_pool_of(m->base) : NULL;
		return CUDA_SUCCESS;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

CU_EXPORT CUresult CUDAAPI cuPointerGetAttribute(void *data,
						 CUpointer_attribute attribute,
						 CUdeviceptr ptr)
{
	struct cu_mem m;
	bool known;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	/* Refused inside a host function, as on an H100 (host_func.c). */
	res = cu_host_func_forbid();
	if (res != CUDA_SUCCESS)
		return res;
	if (!data)
		return CUDA_ERROR_INVALID_VALUE;
	known = cu_registry_find(ptr, &m) && (ptr < m.base + m.size);
	return cu_pointer_attr(data, attribute, ptr, known ? &m : NULL, true);
}

CU_EXPORT CUresult CUDAAPI cuPointerGetAttributes(unsigned int numAttributes,
						  CUpointer_attribute *attributes,
						  void **data, CUdeviceptr ptr)
{
	struct cu_mem m;
	unsigned int i;
	bool known;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!numAttributes || !attributes || !data)
		return CUDA_ERROR_INVALID_VALUE;
	known = cu_registry_find(ptr, &m) && (ptr < m.base + m.size);
	/* Unknown memory is no error here: every attribute reads "none". */
	for (i = 0; i < numAttributes; i++) {
		if (!data[i])
			continue;
		res = cu_pointer_attr(data[i], attributes[i], ptr,
				      known ? &m : NULL, false);
		if (res != CUDA_SUCCESS)
			return res;
	}
	return CUDA_SUCCESS;
}
