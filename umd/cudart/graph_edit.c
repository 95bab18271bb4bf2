// SPDX-License-Identifier: GPL-2.0
/*
 * The runtime's side of editing graphs and executable graphs after they
 * are made (umd/cuda/graph_edit.c) and of capturing into a graph of the
 * program's own (umd/cuda/stream_capture.c).  Copy and memset nodes are
 * described as when they are added (graph.c): both sides of a copy as
 * unified addresses, so an executable copy node keeps its memory types
 * whatever the new addresses are.
 */
#include <string.h>

#include "cudart_abi.h"
#include "cudart_internal.h"

cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphDestroyNode(node));
}

/* cudaGraphEdgeData and CUgraphEdgeData share their layout. */
cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph,
					const cudaGraphNode_t *from,
					const cudaGraphNode_t *to,
					const cudaGraphEdgeData *edgeData,
					size_t numDependencies)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphRemoveDependencies(graph, from, to,
			(const CUgraphEdgeData *)edgeData, numDependencies));
}

/* The query of a node's edges (the driver's convention: graph.c). */
cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node,
					 cudaGraphNode_t *pDependencies,
					 cudaGraphEdgeData *edgeData,
					 size_t *pNumDependencies)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphNodeGetDependencies(node, pDependencies,
			(CUgraphEdgeData *)edgeData, pNumDependencies));
}

/* ---- the runtime's parameter structs ---------------------------------------- */

static cudaError_t rt_memcpy_node(const struct cudaMemcpy3DParms *p,
				  CUDA_MEMCPY3D *c)
{
	/* Memcpy nodes with CUDA arrays: not yet (as cudaGraphAddMemcpyNode). */
	if (!p || p->srcArray || p->dstArray || !rt_memcpy_kind_valid(p->kind))
		return cudaErrorInvalidValue;
	memset(c, 0, sizeof(*c));
	RT_MEMCPY3D_FILL(*c, p, CU_MEMORYTYPE_UNIFIED, CU_MEMORYTYPE_UNIFIED);
	return cudaSuccess;
}

/* The 1D copy as the 3D description cudaGraphAddMemcpyNode1D makes. */
static struct cudaMemcpy3DParms rt_memcpy_1d(void *dst, const void *src,
					     size_t count,
					     enum cudaMemcpyKind kind)
{
	return (struct cudaMemcpy3DParms){
		.srcPtr = { .ptr = (void *)src, .pitch = count,
			    .xsize = count, .ysize = 1 },
		.dstPtr = { .ptr = dst, .pitch = count, .xsize = count,
			    .ysize = 1 },
		.extent = { .width = count, .height = 1, .depth = 1 },
		.kind = kind,
	};
}

static cudaError_t rt_memset_node(const struct cudaMemsetParams *p,
				  CUDA_MEMSET_NODE_PARAMS *m)
{
	if (!p)
		return cudaErrorInvalidValue;
	*m = (CUDA_MEMSET_NODE_PARAMS){
		.dst = (CUdeviceptr)(uintptr_t)p->dst, .pitch = p->pitch,
		.value = p->value, .elementSize = p->elementSize,
		.width = p->width, .height = p->height,
	};
	return cudaSuccess;
}

static cudaError_t rt_host_node(const struct cudaHostNodeParams *p,
				CUDA_HOST_NODE_PARAMS *h)
{
	if (!p)
		return cudaErrorInvalidValue;
	*h = (CUDA_HOST_NODE_PARAMS){ .fn = p->fn, .userData = p->userData };
	return cudaSuccess;
}

/* ---- a graph's nodes ---------------------------------------------------------- */

cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node,
		const struct cudaMemcpy3DParms *pNodeParams)
{
	CUDA_MEMCPY3D c;
	cudaError_t err;

	RT_ENTER_OR_RETURN();
	err = rt_memcpy_node(pNodeParams, &c);
	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return_cu(cuGraphMemcpyNodeSetParams(node, &c));
}

cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void *dst,
					   const void *src, size_t count,
					   enum cudaMemcpyKind kind)
{
	struct cudaMemcpy3DParms p = rt_memcpy_1d(dst, src, count, kind);

	return cudaGraphMemcpyNodeSetParams(node, &p);
}

cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node,
		const struct cudaMemsetParams *pNodeParams)
{
	CUDA_MEMSET_NODE_PARAMS m;
	cudaError_t err;

	RT_ENTER_OR_RETURN();
	err = rt_memset_node(pNodeParams, &m);
	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return_cu(cuGraphMemsetNodeSetParams(node, &m));
}

cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node,
		const struct cudaHostNodeParams *pNodeParams)
{
	CUDA_HOST_NODE_PARAMS h;
	cudaError_t err;

	RT_ENTER_OR_RETURN();
	err = rt_host_node(pNodeParams, &h);
	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return_cu(cuGraphHostNodeSetParams(node, &h));
}

cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node,
		struct cudaMemsetParams *pNodeParams)
{
	CUDA_MEMSET_NODE_PARAMS m;
	CUresult r;

	RT_ENTER_OR_RETURN();
	if (!pNodeParams)
		return rt_return(cudaErrorInvalidValue);
	r = cuGraphMemsetNodeGetParams(node, &m);
	if (r == CUDA_SUCCESS)
		*pNodeParams = (struct cudaMemsetParams){
			.dst = (void *)(uintptr_t)m.dst, .pitch = m.pitch,
			.value = m.value, .elementSize = m.elementSize,
			.width = m.width, .height = m.height,
		};
	return rt_return_cu(r);
}

cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node,
		struct cudaHostNodeParams *pNodeParams)
{
	CUDA_HOST_NODE_PARAMS h;
	CUresult r;

	RT_ENTER_OR_RETURN();
	if (!pNodeParams)
		return rt_return(cudaErrorInvalidValue);
	r = cuGraphHostNodeGetParams(node, &h);
	if (r == CUDA_SUCCESS) {
		pNodeParams->fn = h.fn;
		pNodeParams->userData = h.userData;
	}
	return rt_return_cu(r);
}

/* ---- an executable graph's nodes ------------------------------------------------ */

cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hGraphExec,
		cudaGraphNode_t node, const struct cudaMemcpy3DParms *pNodeParams)
{
	CUDA_MEMCPY3D c;
	cudaError_t err;

	RT_ENTER_OR_RETURN();
	err = rt_memcpy_node(pNodeParams, &c);
	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return_cu(cuGraphExecMemcpyNodeSetParams(hGraphExec, node, &c,
							   NULL));
}

cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t hGraphExec,
		cudaGraphNode_t node, void *dst, const void *src, size_t count,
		enum cudaMemcpyKind kind)
{
	struct cudaMemcpy3DParms p = rt_memcpy_1d(dst, src, count, kind);

	return cudaGraphExecMemcpyNodeSetParams(hGraphExec, node, &p);
}

cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec,
		cudaGraphNode_t node, const struct cudaMemsetParams *pNodeParams)
{
	CUDA_MEMSET_NODE_PARAMS m;
	cudaError_t err;

	RT_ENTER_OR_RETURN();
	err = rt_memset_node(pNodeParams, &m);
	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return_cu(cuGraphExecMemsetNodeSetParams(hGraphExec, node, &m,
							   NULL));
}

cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec,
		cudaGraphNode_t node, const struct cudaHostNodeParams *pNodeParams)
{
	CUDA_HOST_NODE_PARAMS h;
	cudaError_t err;

	RT_ENTER_OR_RETURN();
	err = rt_host_node(pNodeParams, &h);
	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return_cu(cuGraphExecHostNodeSetParams(hGraphExec, node, &h));
}

cudaError_t cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t hGraphExec,
		cudaGraphNode_t node, cudaGraph_t childGraph)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphExecChildGraphNodeSetParams(hGraphExec, node,
							       childGraph));
}

cudaError_t cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t hGraphExec,
		cudaGraphNode_t hNode, cudaEvent_t event)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphExecEventRecordNodeSetEvent(hGraphExec,
							       hNode, event));
}

cudaError_t cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t hGraphExec,
		cudaGraphNode_t hNode, cudaEvent_t event)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphExecEventWaitNodeSetEvent(hGraphExec, hNode,
							     event));
}

cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t hGraphExec,
				    cudaGraphNode_t hNode,
				    unsigned int isEnabled)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphNodeSetEnabled(hGraphExec, hNode,
						  isEnabled));
}

cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t hGraphExec,
				    cudaGraphNode_t hNode,
				    unsigned int *isEnabled)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphNodeGetEnabled(hGraphExec, hNode,
						  isEnabled));
}

/* ---- the generic setters (CUDA 12.2) ------------------------------------------ */

/*
 * The runtime's parameter union differs from the driver's for kernels,
 * copies, memsets and host functions, which go through the calls above;
 * the others (events, child graphs) share the driver's layout.  A @exec
 * of NULL sets the graph's node.
 */
static cudaError_t rt_node_set_params(cudaGraphExec_t exec,
				      cudaGraphNode_t node,
				      struct cudaGraphNodeParams *p)
{
	enum cudaGraphNodeType type;
	CUgraphNodeParams cp;
	cudaError_t err;

	err = cudaGraphNodeGetType(node, &type);
	if (err != cudaSuccess)
		return err;
	if (!p || p->type != type || p->reserved0[0] || p->reserved0[1] ||
	    p->reserved0[2] || p->reserved2)
		return rt_return(cudaErrorInvalidValue);
	switch (type) {
	case cudaGraphNodeTypeKernel: {
		struct cudaKernelNodeParams k = {
			.func = p->kernel.func,
			.gridDim = p->kernel.gridDim,
			.blockDim = p->kernel.blockDim,
			.sharedMemBytes = p->kernel.sharedMemBytes,
			.kernelParams = p->kernel.kernelParams,
			.extra = p->kernel.extra,
		};

		return exec ? cudaGraphExecKernelNodeSetParams(exec, node, &k) :
		       cudaGraphKernelNodeSetParams(node, &k);
	}
	case cudaGraphNodeTypeMemcpy:
		return exec ? cudaGraphExecMemcpyNodeSetParams(exec, node,
					&p->memcpy.copyParams) :
		       cudaGraphMemcpyNodeSetParams(node, &p->memcpy.copyParams);
	case cudaGraphNodeTypeMemset: {
		struct cudaMemsetParams m = {
			.dst = p->memset.dst, .pitch = p->memset.pitch,
			.value = p->memset.value,
			.elementSize = p->memset.elementSize,
			.width = p->memset.width, .height = p->memset.height,
		};

		return exec ? cudaGraphExecMemsetNodeSetParams(exec, node, &m) :
		       cudaGraphMemsetNodeSetParams(node, &m);
	}
	case cudaGraphNodeTypeHost: {
		struct cudaHostNodeParams h = {
			.fn = p->host.fn, .userData = p->host.userData,
		};

		return exec ? cudaGraphExecHostNodeSetParams(exec, node, &h) :
		       cudaGraphHostNodeSetParams(node, &h);
	}
	default:
		memcpy(&cp, p, sizeof(cp));
		return rt_return_cu(exec ? cuGraphExecNodeSetParams(exec, node,
								    &cp) :
				    cuGraphNodeSetParams(node, &cp));
	}
}

_Static_assert(sizeof(struct cudaGraphNodeParams) == sizeof(CUgraphNodeParams),
	       "the generic node params differ");

cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t node,
				   struct cudaGraphNodeParams *nodeParams)
{
	RT_ENTER_OR_RETURN();
	return rt_node_set_params(NULL, node, nodeParams);
}

cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t graphExec,
				       cudaGraphNode_t node,
				       struct cudaGraphNodeParams *nodeParams)
{
	RT_ENTER_OR_RETURN();
	if (!graphExec)
		return rt_return(cudaErrorInvalidValue);
	return rt_node_set_params(graphExec, node, nodeParams);
}

/* ---- capture ------------------------------------------------------------------ */

cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream,
		cudaGraph_t graph, const cudaGraphNode_t *dependencies,
		const cudaGraphEdgeData *dependencyData, size_t numDependencies,
		enum cudaStreamCaptureMode mode)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuStreamBeginCaptureToGraph(stream, graph,
			dependencies, (const CUgraphEdgeData *)dependencyData,
			numDependencies, (CUstreamCaptureMode)mode));
}

cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream,
		cudaGraphNode_t *dependencies,
		const cudaGraphEdgeData *dependencyData,
		size_t numDependencies, unsigned int flags)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuStreamUpdateCaptureDependencies(stream,
			dependencies, (const CUgraphEdgeData *)dependencyData,
			numDependencies, flags));
}

/* The per-thread-default-stream forms: stream 0 is the thread's stream. */
__typeof__(cudaStreamBeginCaptureToGraph) cudaStreamBeginCaptureToGraph_ptsz;
__typeof__(cudaStreamUpdateCaptureDependencies)
	cudaStreamUpdateCaptureDependencies_ptsz;

cudaError_t cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t stream,
		cudaGraph_t graph, const cudaGraphNode_t *dependencies,
		const cudaGraphEdgeData *dependencyData, size_t numDependencies,
		enum cudaStreamCaptureMode mode)
{
	return cudaStreamBeginCaptureToGraph(stream ? stream :
					     cudaStreamPerThread, graph,
					     dependencies, dependencyData,
					     numDependencies, mode);
}

cudaError_t cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t stream,
		cudaGraphNode_t *dependencies,
		const cudaGraphEdgeData *dependencyData,
		size_t numDependencies, unsigned int flags)
{
	return cudaStreamUpdateCaptureDependencies(stream ? stream :
						   cudaStreamPerThread,
						   dependencies, dependencyData,
						   numDependencies, flags);
}
