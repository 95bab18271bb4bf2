// SPDX-License-Identifier: GPL-2.0
/*
 * launch.c - cuLaunchKernel: checking the configuration, laying out the
 * parameters, and writing one LAUNCH packet (include/vgpu_launch.h).
 *
 * The parameter buffer is built from the kernel's metadata in the vISA
 * image (offset and size of every parameter, from the PTX .entry list)
 * and travels inline in the packet, so the launch needs no memory of its
 * own and the caller's arguments may change as soon as we return.
 */
#include <stdlib.h>
#include <string.h>

#include "graph_internal.h"
#include "vgpu_counters.h"
#include "vgpu_launch.h"

/* The checks real CUDA makes, with the error codes it returns for them. */
static CUresult cu_launch_check(const struct cu_function *f,
				const struct cu_launch_cfg *c)
{
	const struct visa_kernel *k = f->kernel;
	uint64_t threads = (uint64_t)c->block[0] * c->block[1] * c->block[2];
	unsigned int dyn_limit;

	if (!c->grid[0] || !c->grid[1] || !c->grid[2] || !threads)
		return CUDA_ERROR_INVALID_VALUE;
	if (c->block[0] > CU_MAX_BLOCK_X || c->block[1] > CU_MAX_BLOCK_Y ||
	    c->block[2] > CU_MAX_BLOCK_Z || threads > CU_MAX_THREADS_PER_BLOCK)
		return CUDA_ERROR_INVALID_VALUE;
	if (c->grid[0] > CU_MAX_GRID_X || c->grid[1] > CU_MAX_GRID_YZ ||
	    c->grid[2] > CU_MAX_GRID_YZ)
		return CUDA_ERROR_INVALID_VALUE;
	/* __launch_bounds__ / .maxntid: "too many resources requested". */
	if (k->max_threads && threads > k->max_threads)
		return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
	if (k->reqntid[0] && (c->block[0] != k->reqntid[0] ||
			      c->block[1] != (k->reqntid[1] ? k->reqntid[1] : 1) ||
			      c->block[2] != (k->reqntid[2] ? k->reqntid[2] : 1)))
		return CUDA_ERROR_INVALID_VALUE;
	dyn_limit = f->max_dynamic_shared;
	if (c->shared > dyn_limit ||
	    (uint64_t)cu_kernel_user_shared(k) + c->shared >
	    CU_SHARED_PER_BLOCK_OPTIN)
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

/*
 * Fill @buf (param_size bytes) from kernelParams or the extra buffer;
 * with @buf NULL only check that it can be done.  Graph kernel nodes
 * copy their arguments with it too (graph.c).
 */
CUresult cu_launch_params(const struct cu_function *f, void **params,
				 void **extra, uint8_t *buf)
{
	const struct visa_kernel *k = f->kernel;
	const void *ebuf = NULL;
	size_t esize = 0;
	bool have_size = false;
	uint32_t i;

	if (params && extra)
		return CUDA_ERROR_INVALID_VALUE;
	if (params) {
		for (i = 0; i < k->param_count; i++) {
			const struct visa_param *p = (const void *)
				(f->params + (size_t)i * f->param_entsize);

			if (!params[i] || p->offset > k->param_size ||
			    k->param_size - p->offset < p->size)
				return CUDA_ERROR_INVALID_VALUE;
			if (buf)
				memcpy(buf + p->offset, params[i], p->size);
		}
		return CUDA_SUCCESS;
	}
	if (!extra)
		return k->param_count ? CUDA_ERROR_INVALID_VALUE :
		       CUDA_SUCCESS;
	for (i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
		if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER) {
			ebuf = extra[i + 1];
		} else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE) {
			if (!extra[i + 1])
				return CUDA_ERROR_INVALID_VALUE;
			esize = *(const size_t *)extra[i + 1];
			have_size = true;
		} else {
			return CUDA_ERROR_INVALID_VALUE;
		}
	}
	if ((!ebuf || !have_size) && k->param_size)
		return CUDA_ERROR_INVALID_VALUE;
	/* Measured: a buffer of the wrong size is "out of resources". */
	if (have_size && esize != k->param_size)
		return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
	if (buf && k->param_size)
		memcpy(buf, ebuf, k->param_size);
	return CUDA_SUCCESS;
}

/* A launch on a capturing stream becomes a kernel node. */
static CUresult cu_launch_capture(struct cu_function *f,
				  const struct cu_launch_cfg *c,
				  struct cu_stream *s, void **params,
				  void **extra, bool *recorded)
{
	CUDA_KERNEL_NODE_PARAMS node = {
		.func = (CUfunction)f,
		.gridDimX = c->grid[0], .gridDimY = c->grid[1],
		.gridDimZ = c->grid[2],
		.blockDimX = c->block[0], .blockDimY = c->block[1],
		.blockDimZ = c->block[2],
		.sharedMemBytes = c->shared,
		.kernelParams = params,
		.extra = extra,
	};

	return cu_capture_op(s, CU_GRAPH_NODE_TYPE_KERNEL, &node, NULL,
			     recorded);
}

/*
 * Write the LAUNCH packet: @cluster from cu_launch_coop_check(); with
 * @cnt, one that counts into it (vgpu-prof).
 */
static CUresult cu_launch_submit(struct cu_function *f,
				 const struct cu_launch_cfg *c,
				 const uint32_t cluster[3],
				 struct cu_stream *s, void **params,
				 void **extra, uint32_t payload_size,
				 struct vgpu_launch_counters *cnt)
{
	struct cu_module *m = f->module;
	struct cu_ctx *ctx = m->ctx;
	uint32_t psize = f->kernel->param_size;
	struct vgpu_pkt_launch pkt = {
		.isa_version = VGPU_LAUNCH_ISA_V1,
		.shared_bytes = c->shared,
		.code_va = m->code_va,
	};
	struct vgpu_launch_v1 *v1;
	struct cu_op op;
	void *payload;
	CUresult res;
	int ret;

	memcpy(pkt.grid, c->grid, sizeof(pkt.grid));
	memcpy(pkt.block, c->block, sizeof(pkt.block));
	res = cu_op_begin(s, CU_ENGINE_COMPUTE, NULL, &op);
	if (res != CUDA_SUCCESS)
		return res;
	ret = vgpu_emit_launch(op.queue->vq, &pkt, payload_size, op.deadline,
			       &payload);
	if (ret) {
		cu_op_abort(&op, ret);
		return cu_from_errno(ret);
	}
	/* The payload comes zeroed: only what is not 0 is written. */
	v1 = payload;
	/* The parameters go straight into the ring: no copy in between. */
	cu_launch_params(f, params, extra, (uint8_t *)(v1 + 1));
	v1->kernel_index = f->index;
	v1->flags = VGPU_LAUNCH_F_INLINE_PARAMS;
	v1->image_size = m->image_size;
	v1->image_id = m->image_id;
	v1->global_base = m->global_va;
	v1->const_base = m->const_va;
	/*
	 * Only kernels that print get the FIFO: the firmware has less to
	 * set up for the others, which makes their launches cheaper.  A
	 * failed assert prints its line through the FIFO too.
	 */
	if (f->kernel->flags &
	    (VISA_KERNEL_USES_PRINTF | VISA_KERNEL_USES_ASSERT)) {
		v1->printf_fifo_va = (uintptr_t)ctx->printf_fifo;
		v1->printf_fifo_size = ctx->printf_fifo ? ctx->printf_size : 0;
		/* Its size is fixed from now on, as on an H100. */
		__atomic_store_n(&ctx->printf_launched, true, __ATOMIC_RELAXED);
	}
	v1->param_size = psize;
	/* cuStreamCreateWithPriority's range [-5, 0] is the packet's. */
	v1->priority = s->priority;
	for (int i = 0; i < 3; i++)
		v1->cluster_dim[i] = (uint8_t)cluster[i];
	if (c->cooperative) {
		/* the queue's grid-sync word (launch_coop.c) */
		v1->flags |= VGPU_LAUNCH_F_COOPERATIVE;
		v1->grid_sync_va = op.queue->slot_va +
				   CU_SYNC_GRID_SYNC_FIRST * 8;
	}
	if (cnt) {
		/* pinned host memory: its GPU VA is its host address */
		v1->flags |= VGPU_LAUNCH_F_COUNTERS;
		/* the page: counters, and the L2 policy (l2_policy.c) */
		v1->counters_size = VGPU_SMALL_PAGE_SIZE;
		v1->counters_va = (uintptr_t)cnt;
	}
	return cu_op_end(&op, NULL);
}

static CUresult cu_launch(struct cu_function *f, const struct cu_launch_cfg *c,
			  CUstream hStream, void **params, void **extra)
{
	struct vgpu_launch_counters *cnt;
	struct cu_module *m;
	struct cu_stream *s;
	struct cu_ctx *ctx;
	uint32_t psize, payload_size, cluster[3];
	bool recorded;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	/* A CUkernel stands for its function in this context (library.c). */
	f = cu_kernel_as_function(f);
	if (!cu_function_valid(f))
		return CUDA_ERROR_INVALID_HANDLE;
	m = f->module;
	if (m->ctx != ctx)
		return CUDA_ERROR_INVALID_CONTEXT;
	res = cu_stream_resolve(ctx, hStream, &s);
	if (res != CUDA_SUCCESS)
		return res;
	res = cu_launch_check(f, c);
	if (res == CUDA_SUCCESS)
		res = cu_launch_coop_check(f, c, cluster);
	if (res != CUDA_SUCCESS)
		return res;
	psize = f->kernel->param_size;
	if (psize > VGPU_LAUNCH_MAX_PARAMS)
		return CUDA_ERROR_INVALID_VALUE;
	payload_size = (uint32_t)(sizeof(struct vgpu_launch_v1) +
				  cu_align_up(psize, 8));
	res = cu_launch_params(f, params, extra, NULL);
	if (res != CUDA_SUCCESS)
		return res;
	res = cu_launch_capture(f, c, s, params, extra, &recorded);
	/* The node carries the launch attributes (graph_kernel_attr.c). */
	if (res == CUDA_SUCCESS && recorded)
		res = cu_kernel_node_capture_attrs(hStream, c);
	if (res != CUDA_SUCCESS || recorded)
		return res;
	if (f->kernel->flags & VISA_KERNEL_USES_HEAP) {
		res = cu_heap_prepare(m);
		if (res != CUDA_SUCCESS)
			return res;
	}
	/* vgpu-prof: count this launch and wait for it (profile.c) */
	res = cu_prof_begin(ctx, s, c, &cnt);
	if (res != CUDA_SUCCESS)
		return res;
	res = cu_launch_submit(f, c, cluster, s, params, extra, payload_size,
			       cnt);
	return cu_prof_end(ctx, s, f, c->grid, c->block, c->shared, cnt, res);
}

CU_EXPORT CUresult CUDAAPI cuLaunchKernel(CUfunction f,
					  unsigned int gridDimX,
					  unsigned int gridDimY,
					  unsigned int gridDimZ,
					  unsigned int blockDimX,
					  unsigned int blockDimY,
					  unsigned int blockDimZ,
					  unsigned int sharedMemBytes,
					  CUstream hStream, void **kernelParams,
					  void **extra)
{
	struct cu_launch_cfg c = {
		.grid = { gridDimX, gridDimY, gridDimZ },
		.block = { blockDimX, blockDimY, blockDimZ },
		.shared = sharedMemBytes,
	};

	return cu_launch((struct cu_function *)f, &c, hStream, kernelParams,
			 extra);
}

/* cuLaunchCooperativeKernel (launch_coop.c) is a launch with the flag. */
CUresult cu_launch_cfg_run(CUfunction f, const struct cu_launch_cfg *c,
			   CUstream hStream, void **kernelParams, void **extra)
{
	return cu_launch((struct cu_function *)f, c, hStream, kernelParams,
			 extra);
}

CU_EXPORT CUresult CUDAAPI cuLaunchKernelEx(const CUlaunchConfig *config,
					    CUfunction f, void **kernelParams,
					    void **extra)
{
	struct cu_launch_cfg c = { 0 };
	unsigned int i;

	if (!config)
		return CUDA_ERROR_INVALID_VALUE;
	if (config->numAttrs && !config->attrs)
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < config->numAttrs; i++) {
		const CUlaunchAttributeValue *v = &config->attrs[i].value;

		switch (config->attrs[i].id) {
		case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
			if (cu_l2_window_check(&v->accessPolicyWindow))
				return CUDA_ERROR_INVALID_VALUE;
			c.has_window = true;
			c.window = v->accessPolicyWindow;
			break;
		case CU_LAUNCH_ATTRIBUTE_IGNORE:
		case CU_LAUNCH_ATTRIBUTE_PRIORITY:
		case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
		case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
			break;
		case CU_LAUNCH_ATTRIBUTE_COOPERATIVE:
			c.cooperative = v->cooperative != 0;
			break;
		case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
			/* a 0 anywhere is "no cluster", as on an H100 */
			if (v->clusterDim.x && v->clusterDim.y &&
			    v->clusterDim.z) {
				c.cluster[0] = v->clusterDim.x;
				c.cluster[1] = v->clusterDim.y;
				c.cluster[2] = v->clusterDim.z;
			}
			break;
		default:
			return CUDA_ERROR_NOT_SUPPORTED;
		}
	}
	c.grid[0] = config->gridDimX;
	c.grid[1] = config->gridDimY;
	c.grid[2] = config->gridDimZ;
	c.block[0] = config->blockDimX;
	c.block[1] = config->blockDimY;
	c.block[2] = config->blockDimZ;
	c.shared = config->sharedMemBytes;
	return cu_launch((struct cu_function *)f, &c, config->hStream,
			 kernelParams, extra);
}
