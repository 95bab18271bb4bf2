// SPDX-License-Identifier: GPL-2.0
/*
 * The launch attributes a kernel node carries: cooperative, the cluster
 * shape and the L2 access policy window.  They come from
 * cuGraphKernelNodeSetAttribute or from a captured cuLaunchKernelEx /
 * cuLaunchCooperativeKernel (the window also from the capturing stream's
 * attribute, as the H100 copies it into the node), travel with the
 * node when it is cloned, instantiated or used to update an executable
 * graph, and are handed to the launch when the node runs, which then
 * makes every check a direct launch makes (launch_coop.c): a cluster
 * shape that does not divide the grid fails the graph launch with
 * CUDA_ERROR_INVALID_CLUSTER_SIZE, a cooperative grid that does not fit
 * with CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE.
 *
 *   cuLaunchKernelEx(attrs) --capture--> node {p, cooperative, cluster}
 *   cuGraphKernelNodeSetAttribute ------------^         |
 *                                   cuGraphLaunch: cu_launch_cfg_run()
 *
 * The window is checked as a stream's is (l2_policy.c) and reaches the
 * firmware's L2 model in the launch's policy, as a cuLaunchKernelEx
 * attribute does: a node with a window uses it, one without uses the
 * stream it is launched into.
 *
 * Only these three attributes are kept; the others a kernel node could
 * carry (priority, ...) are CUDA_ERROR_NOT_SUPPORTED here rather than
 * accepted and then silently dropped.
 */
#include <string.h>

#include "graph_internal.h"

void cu_kernel_node_copy_attrs(struct cu_kernel_node *dst,
			       const struct cu_kernel_node *src)
{
	dst->cooperative = src->cooperative;
	memcpy(dst->cluster, src->cluster, sizeof(dst->cluster));
	dst->window = src->window;
}

/*
 * After a launch was recorded into a capture: the stream's only leaf is
 * the node it made, which takes the configuration's attributes.
 */
CUresult cu_kernel_node_capture_attrs(CUstream h,
				      const struct cu_launch_cfg *c)
{
	CUstreamCaptureStatus st;
	const CUgraphNode *leaves;
	struct cu_graph_node *n;
	CUaccessPolicyWindow w = { 0 };
	struct cu_stream *s;
	struct cu_ctx *ctx;
	size_t num;
	CUresult res;

	if (c->has_window) {
		w = c->window;
	} else if (cu_stream_current(h, &ctx, &s) == CUDA_SUCCESS) {
		pthread_mutex_lock(&s->lock);
		w = s->l2_window;
		pthread_mutex_unlock(&s->lock);
	}
	if (!c->cooperative && !c->cluster[0] && !w.num_bytes)
		return CUDA_SUCCESS;
	res = cuStreamGetCaptureInfo(h, &st, NULL, NULL, &leaves, NULL, &num);
	if (res != CUDA_SUCCESS)
		return res;
	if (st != CU_STREAM_CAPTURE_STATUS_ACTIVE || num != 1)
		return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
	n = (struct cu_graph_node *)leaves[0];
	if (n->type != CU_GRAPH_NODE_TYPE_KERNEL)
		return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
	n->u.kernel.cooperative = c->cooperative;
	memcpy(n->u.kernel.cluster, c->cluster, sizeof(c->cluster));
	n->u.kernel.window = w;
	return CUDA_SUCCESS;
}

CUresult cu_kernel_node_launch(const struct cu_kernel_node *k, CUstream h)
{
	const CUDA_KERNEL_NODE_PARAMS *p = &k->p;
	struct cu_launch_cfg c = {
		.grid = { p->gridDimX, p->gridDimY, p->gridDimZ },
		.block = { p->blockDimX, p->blockDimY, p->blockDimZ },
		.shared = p->sharedMemBytes,
		.cooperative = k->cooperative,
		.has_window = k->window.num_bytes != 0,
		.window = k->window,
	};

	memcpy(c.cluster, k->cluster, sizeof(c.cluster));
	return cu_launch_cfg_run(p->func, &c, h, p->kernelParams, NULL);
}

/*
 * New parameters for a cooperative node: a grid that could not all be
 * resident at once is refused when it is set, as an H100 refuses it
 * (test_cudart_graph_coop.h100.txt), not only when the graph runs.  A
 * bad function is left to cu_kernel_node_set(), a bad cluster shape to
 * the launch.
 */
CUresult cu_kernel_node_check(const struct cu_kernel_node *k,
			      const CUDA_KERNEL_NODE_PARAMS *p)
{
	const struct cu_function *f = cu_kernel_as_function(p->func);
	struct cu_launch_cfg c = {
		.grid = { p->gridDimX, p->gridDimY, p->gridDimZ },
		.block = { p->blockDimX, p->blockDimY, p->blockDimZ },
		.shared = p->sharedMemBytes,
		.cooperative = true,
	};
	uint32_t cluster[3];
	CUresult res;

	if (!k->cooperative || !f || !cu_function_valid(f))
		return CUDA_SUCCESS;
	res = cu_launch_coop_check(f, &c, cluster);
	return res == CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE ? res :
	       CUDA_SUCCESS;
}

static CUresult cu_kernel_node_get(CUgraphNode h, const void *value,
				   struct cu_kernel_node **out)
{
	struct cu_graph_node *n;
	CUresult res = cu_graph_node_of_type(h, CU_GRAPH_NODE_TYPE_KERNEL,
					     value, &n);

	*out = n ? &n->u.kernel : NULL;
	return res;
}

CU_EXPORT CUresult CUDAAPI cuGraphKernelNodeSetAttribute(CUgraphNode hNode,
		CUkernelNodeAttrID attr, const CUkernelNodeAttrValue *value)
{
	struct cu_kernel_node *k;
	CUresult res = cu_kernel_node_get(hNode, value, &k);

	if (res != CUDA_SUCCESS)
		return res;
	switch (attr) {
	case CU_LAUNCH_ATTRIBUTE_COOPERATIVE:
		k->cooperative = value->cooperative != 0;
		return CUDA_SUCCESS;
	case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
		/* a 0 anywhere is "no cluster", as for cuLaunchKernelEx */
		if (value->clusterDim.x && value->clusterDim.y &&
		    value->clusterDim.z) {
			k->cluster[0] = value->clusterDim.x;
			k->cluster[1] = value->clusterDim.y;
			k->cluster[2] = value->clusterDim.z;
		} else {
			memset(k->cluster, 0, sizeof(k->cluster));
		}
		return CUDA_SUCCESS;
	case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
		res = cu_l2_window_check(&value->accessPolicyWindow);
		if (res == CUDA_SUCCESS)
			k->window = value->accessPolicyWindow;
		return res;
	default:
		return CUDA_ERROR_NOT_SUPPORTED;
	}
}

CU_EXPORT CUresult CUDAAPI cuGraphKernelNodeGetAttribute(CUgraphNode hNode,
		CUkernelNodeAttrID attr, CUkernelNodeAttrValue *value_out)
{
	struct cu_kernel_node *k;
	CUresult res = cu_kernel_node_get(hNode, value_out, &k);

	if (res != CUDA_SUCCESS)
		return res;
	switch (attr) {
	case CU_LAUNCH_ATTRIBUTE_COOPERATIVE:
		memset(value_out, 0, sizeof(*value_out));
		value_out->cooperative = k->cooperative;
		return CUDA_SUCCESS;
	case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
		memset(value_out, 0, sizeof(*value_out));
		value_out->clusterDim.x = k->cluster[0];
		value_out->clusterDim.y = k->cluster[1];
		value_out->clusterDim.z = k->cluster[2];
		return CUDA_SUCCESS;
	case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
		memset(value_out, 0, sizeof(*value_out));
		value_out->accessPolicyWindow = k->window;
		return CUDA_SUCCESS;
	default:
		return CUDA_ERROR_NOT_SUPPORTED;
	}
}

CU_EXPORT CUresult CUDAAPI cuGraphKernelNodeCopyAttributes(CUgraphNode dst,
							   CUgraphNode src)
{
	struct cu_kernel_node *d, *s;
	CUresult res = cu_kernel_node_get(dst, dst, &d);

	if (res == CUDA_SUCCESS)
		res = cu_kernel_node_get(src, src, &s);
	if (res != CUDA_SUCCESS)
		return res;
	cu_kernel_node_copy_attrs(d, s);
	return CUDA_SUCCESS;
}
