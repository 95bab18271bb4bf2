// SPDX-License-Identifier: GPL-2.0
/*
 * l2_policy.c - persisting L2 lines: access policy windows of streams and
 * launches, cuCtxResetPersistingL2Cache, and what a counted launch tells
 * the firmware's L2 model about them.
 *
 * The L2 model runs only for launches that count (vgpu-prof, profile.c),
 * so a window changes no result and no time otherwise; the calls still
 * check their arguments as an H100 does (tools/cuda-probe/probe_l2.cu:
 * a window over accessPolicyMaxWindowSize, a hitRatio outside [0, 1] and
 * a persisting missProp are CUDA_ERROR_INVALID_VALUE) and keep what they
 * are given, so that cuStreamGetAttribute answers it.
 *
 * A counted launch's struct vgpu_l2_policy (include/vgpu_counters.h) lies
 * in its counters page: the context's persisting limit, the launch's
 * window (its own attribute, else its stream's) and a reset asked since
 * the last counted launch.
 */
#include <string.h>

#include "cuda_internal.h"
#include "vgpu_counters.h"

CUresult cu_l2_window_check(const CUaccessPolicyWindow *w)
{
	if (w->num_bytes > VGPU_L2_WINDOW_MAX ||
	    !(w->hitRatio >= 0.0f && w->hitRatio <= 1.0f) ||
	    (unsigned int)w->hitProp > CU_ACCESS_PROPERTY_PERSISTING ||
	    (unsigned int)w->missProp > CU_ACCESS_PROPERTY_STREAMING)
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

void cu_l2_policy_fill(struct cu_ctx *ctx, struct cu_stream *s,
		       const struct cu_launch_cfg *c, void *policy)
{
	struct vgpu_l2_policy p = { .size = sizeof(p) };
	CUaccessPolicyWindow w;

	if (c && c->has_window) {
		w = c->window;
	} else {
		pthread_mutex_lock(&s->lock);
		w = s->l2_window;
		pthread_mutex_unlock(&s->lock);
	}
	p.persist_limit = ctx->limits[CU_LIMIT_PERSISTING_L2_CACHE_SIZE];
	if (__atomic_exchange_n(&ctx->l2_reset, false, __ATOMIC_ACQ_REL))
		p.flags |= VGPU_L2_POLICY_F_RESET;
	if (w.num_bytes) {
		p.window_base = (uintptr_t)w.base_ptr;
		p.window_bytes = w.num_bytes;
		p.hit_ratio = (uint32_t)(w.hitRatio * 16777216.0f + 0.5f);
		p.hit_prop = (uint8_t)w.hitProp;
		p.miss_prop = (uint8_t)w.missProp;
	}
	memcpy(policy, &p, sizeof(p));
}

/* Persisting lines become normal: the next counted launch says so. */
CU_EXPORT CUresult CUDAAPI cuCtxResetPersistingL2Cache(void)
{
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	__atomic_store_n(&ctx->l2_reset, true, __ATOMIC_RELEASE);
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuStreamSetAttribute(CUstream h,
						CUstreamAttrID attr,
						const CUstreamAttrValue *value)
{
	struct cu_ctx *ctx;
	struct cu_stream *s;
	CUresult res = cu_stream_current(h, &ctx, &s);

	if (res != CUDA_SUCCESS)
		return res;
	if (!value)
		return CUDA_ERROR_INVALID_VALUE;
	switch (attr) {
	case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
		res = cu_l2_window_check(&value->accessPolicyWindow);
		if (res != CUDA_SUCCESS)
			return res;
		pthread_mutex_lock(&s->lock);
		s->l2_window = value->accessPolicyWindow;
		pthread_mutex_unlock(&s->lock);
		return CUDA_SUCCESS;
	case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
		if ((unsigned int)value->syncPolicy < CU_SYNC_POLICY_AUTO ||
		    value->syncPolicy > CU_SYNC_POLICY_BLOCKING_SYNC)
			return CUDA_ERROR_INVALID_VALUE;
		pthread_mutex_lock(&s->lock);
		s->sync_policy = value->syncPolicy;
		pthread_mutex_unlock(&s->lock);
		return CUDA_SUCCESS;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

CU_EXPORT CUresult CUDAAPI cuStreamGetAttribute(CUstream h,
						CUstreamAttrID attr,
						CUstreamAttrValue *value)
{
	struct cu_ctx *ctx;
	struct cu_stream *s;
	CUresult res = cu_stream_current(h, &ctx, &s);

	if (res != CUDA_SUCCESS)
		return res;
	if (!value)
		return CUDA_ERROR_INVALID_VALUE;
	memset(value, 0, sizeof(*value));
	pthread_mutex_lock(&s->lock);
	switch (attr) {
	case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
		value->accessPolicyWindow = s->l2_window;
		break;
	case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
		value->syncPolicy = s->sync_policy ? s->sync_policy :
						     CU_SYNC_POLICY_AUTO;
		break;
	case CU_LAUNCH_ATTRIBUTE_PRIORITY:
		value->priority = s->priority;
		break;
	default:
		res = CUDA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_unlock(&s->lock);
	return res;
}
