/* SPDX-License-Identifier: GPL-2.0 */
/* handles.h - the set of live handles (see handles.c). */
#ifndef VGPU_CUDA_HANDLES_H
#define VGPU_CUDA_HANDLES_H

#include <stdbool.h>

#include <cuda.h>

enum cu_handle_type {
	CU_HANDLE_CTX = 1,
	CU_HANDLE_STREAM,
	CU_HANDLE_EVENT,
	CU_HANDLE_MODULE,
	CU_HANDLE_FUNCTION,
	CU_HANDLE_GRAPH,
	CU_HANDLE_GRAPH_NODE,
	CU_HANDLE_GRAPH_EXEC,
	CU_HANDLE_LINK,
	CU_HANDLE_MEMPOOL,
	CU_HANDLE_LIBRARY,
	CU_HANDLE_KERNEL,
	CU_HANDLE_ARRAY,
	CU_HANDLE_MIPMAP,
};

CUresult cu_handle_add(const void *p, enum cu_handle_type type);
/* False if @p was not a live handle of @type. */
bool cu_handle_remove(const void *p, enum cu_handle_type type);
bool cu_handle_valid(const void *p, enum cu_handle_type type);

#endif /* VGPU_CUDA_HANDLES_H */
