// SPDX-License-Identifier: GPL-2.0
/*
 * context_current.c - the per-thread context stack.
 *
 * Every CUDA call works on the calling thread's current context: the top
 * of a per-thread stack (cuCtxPushCurrent / cuCtxPopCurrent; cuCtxSetCurrent
 * replaces the top).  It lives in thread-local storage, so threads never
 * contend for it.  A handle on the stack may have been destroyed by
 * another thread since; every user checks it with cu_ctx_valid().
 *
 * A thread running a host function has no current context and cannot get
 * one: on an H100, cuCtxGetCurrent there answers CUDA_ERROR_NOT_PERMITTED,
 * and so does every call that would use the current context
 * (tools/cuda-probe/golden/probe_hostfn.h100.txt).
 */
#include "cuda_internal.h"
#include "handles.h"

#define CU_CTX_STACK_DEPTH	64

static __thread struct cu_ctx *cu_tls_stack[CU_CTX_STACK_DEPTH];
static __thread unsigned int cu_tls_depth;

struct cu_ctx *cu_ctx_current(void)
{
	return cu_tls_depth ? cu_tls_stack[cu_tls_depth - 1] : NULL;
}

void cu_ctx_set_current(struct cu_ctx *ctx)
{
	if (!cu_tls_depth) {
		if (ctx)
			cu_tls_stack[cu_tls_depth++] = ctx;
		return;
	}
	if (ctx)
		cu_tls_stack[cu_tls_depth - 1] = ctx;
	else
		cu_tls_depth--;
}

/* Drop @ctx from this thread's stack (it is being destroyed). */
void cu_ctx_forget(struct cu_ctx *ctx)
{
	unsigned int i, j = 0;

	for (i = 0; i < cu_tls_depth; i++)
		if (cu_tls_stack[i] != ctx)
			cu_tls_stack[j++] = cu_tls_stack[i];
	cu_tls_depth = j;
}

bool cu_ctx_valid(const struct cu_ctx *ctx)
{
	return cu_handle_valid(ctx, CU_HANDLE_CTX);
}

CUresult cu_ctx_get(struct cu_ctx **out)
{
	CUresult res = cu_initialized();
	struct cu_ctx *ctx;

	*out = NULL;
	if (res != CUDA_SUCCESS)
		return res;
	/* A host function's thread has no context to take (host_func.c). */
	if (cu_in_host_func())
		return CUDA_ERROR_NOT_PERMITTED;
	ctx = cu_ctx_current();
	if (!ctx || !cu_ctx_valid(ctx))
		return CUDA_ERROR_INVALID_CONTEXT;
	*out = ctx;
	return cu_ctx_check(ctx);
}

CU_EXPORT CUresult CUDAAPI cuCtxPushCurrent(CUcontext ctx)
{
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	res = cu_host_func_forbid();
	if (res != CUDA_SUCCESS)
		return res;
	if (!ctx || !cu_ctx_valid((struct cu_ctx *)ctx))
		return CUDA_ERROR_INVALID_CONTEXT;
	if (cu_tls_depth == CU_CTX_STACK_DEPTH)
		return CUDA_ERROR_OUT_OF_MEMORY;
	cu_tls_stack[cu_tls_depth++] = (struct cu_ctx *)ctx;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuCtxPopCurrent(CUcontext *pctx)
{
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	res = cu_host_func_forbid();
	if (res != CUDA_SUCCESS)
		return res;
	if (!cu_tls_depth)
		return CUDA_ERROR_INVALID_CONTEXT;
	cu_tls_depth--;
	if (pctx)
		*pctx = (CUcontext)cu_tls_stack[cu_tls_depth];
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuCtxSetCurrent(CUcontext ctx)
{
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	res = cu_host_func_forbid();
	if (res != CUDA_SUCCESS)
		return res;
	if (ctx && !cu_ctx_valid((struct cu_ctx *)ctx))
		return CUDA_ERROR_INVALID_CONTEXT;
	cu_ctx_set_current((struct cu_ctx *)ctx);
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuCtxGetCurrent(CUcontext *pctx)
{
	CUresult res = cu_initialized();
	struct cu_ctx *ctx;

	if (res != CUDA_SUCCESS)
		return res;
	res = cu_host_func_forbid();
	if (res != CUDA_SUCCESS)
		return res;
	if (!pctx)
		return CUDA_ERROR_INVALID_VALUE;
	ctx = cu_ctx_current();
	*pctx = ctx && cu_ctx_valid(ctx) ? (CUcontext)ctx : NULL;
	return CUDA_SUCCESS;
}

/* The CUDA 3.x names, still looked up by name by older programs. */
#undef cuCtxPushCurrent
#undef cuCtxPopCurrent
CU_EXPORT CUresult CUDAAPI cuCtxPushCurrent(CUcontext ctx);
CU_EXPORT CUresult CUDAAPI cuCtxPopCurrent(CUcontext *pctx);
CU_EXPORT CUresult CUDAAPI cuCtxPushCurrent(CUcontext ctx)
{
	return cuCtxPushCurrent_v2(ctx);
}

CU_EXPORT CUresult CUDAAPI cuCtxPopCurrent(CUcontext *pctx)
{
	return cuCtxPopCurrent_v2(pctx);
}
