// SPDX-License-Identifier: GPL-2.0
/*
 * CUDA graphs and stream capture in the runtime: thin layers over the
 * driver's (umd/cuda/graph.c, graph_exec.c, stream_capture.c).
 *
 * cudaGraph_t, cudaGraphNode_t and cudaGraphExec_t are the driver's
 * CUgraph, CUgraphNode and CUgraphExec (the same structs), so most calls
 * pass straight through.  What the runtime adds is translation of its
 * parameter structs: a kernel node names its kernel by host stub, which
 * is resolved to the driver function of the current device (loading the
 * module on first use) when the node is added; copy nodes describe both
 * sides as unified addresses, which the driver classifies itself, so the
 * cudaMemcpyKind only needs to be a valid one.
 *
 * Kernels launched with <<<>>> into a capturing stream need nothing
 * here: nvcc's stub calls __cudaLaunchKernel -> cuLaunchKernel, which
 * records the launch instead of submitting it.
 */
#include <string.h>

#include "cudart_abi.h"
#include "cudart_internal.h"

/* The driver's view of a runtime kernel node. */
static cudaError_t rt_kernel_node(const struct cudaKernelNodeParams *p,
				  CUDA_KERNEL_NODE_PARAMS *out)
{
	CUfunction fn;
	cudaError_t err;

	if (!p)
		return cudaErrorInvalidValue;
	if (!p->func)
		return cudaErrorInvalidDeviceFunction;
	err = rt_function_resolve(p->func, &fn);
	if (err != cudaSuccess)
		return err;
	*out = (CUDA_KERNEL_NODE_PARAMS){
		.func = fn,
		.gridDimX = p->gridDim.x, .gridDimY = p->gridDim.y,
		.gridDimZ = p->gridDim.z,
		.blockDimX = p->blockDim.x, .blockDimY = p->blockDim.y,
		.blockDimZ = p->blockDim.z,
		.sharedMemBytes = p->sharedMemBytes,
		.kernelParams = p->kernelParams,
		.extra = p->extra,
	};
	return cudaSuccess;
}

/* The current device's primary context, for copy and memset nodes. */
static cudaError_t rt_current_context(CUcontext *ctx)
{
	int dev;
	cudaError_t err = rt_enter(&dev);

	if (err != cudaSuccess)
		return err;
	return rt_primary_context(dev, ctx);
}

cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphCreate(pGraph, flags));
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphDestroy(graph));
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode,
				   cudaGraph_t graph,
				   const cudaGraphNode_t *pDependencies,
				   size_t numDependencies,
				   const struct cudaKernelNodeParams *pNodeParams)
{
	CUDA_KERNEL_NODE_PARAMS kp;
	cudaError_t err = rt_kernel_node(pNodeParams, &kp);

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return_cu(cuGraphAddKernelNode(pGraphNode, graph,
						 pDependencies,
						 numDependencies, &kp));
}

cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec,
		cudaGraphNode_t node, const struct cudaKernelNodeParams *pNodeParams)
{
	CUDA_KERNEL_NODE_PARAMS kp;
	cudaError_t err = rt_kernel_node(pNodeParams, &kp);

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return_cu(cuGraphExecKernelNodeSetParams(hGraphExec, node,
							   &kp));
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
		const struct cudaKernelNodeParams *pNodeParams)
{
	CUDA_KERNEL_NODE_PARAMS kp;
	cudaError_t err = rt_kernel_node(pNodeParams, &kp);

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return_cu(cuGraphKernelNodeSetParams(node, &kp));
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode,
				   cudaGraph_t graph,
				   const cudaGraphNode_t *pDependencies,
				   size_t numDependencies,
				   const struct cudaMemcpy3DParms *p)
{
	CUDA_MEMCPY3D c = { 0 };
	CUcontext ctx;
	cudaError_t err;

	/* Memcpy nodes with CUDA arrays: not yet (textures.rst). */
	if (!p || p->srcArray || p->dstArray || !rt_memcpy_kind_valid(p->kind))
		return rt_return(cudaErrorInvalidValue);
	err = rt_current_context(&ctx);
	if (err != cudaSuccess)
		return rt_return(err);
	RT_MEMCPY3D_FILL(c, p, CU_MEMORYTYPE_UNIFIED, CU_MEMORYTYPE_UNIFIED);
	return rt_return_cu(cuGraphAddMemcpyNode(pGraphNode, graph,
						 pDependencies,
						 numDependencies, &c, ctx));
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode,
				     cudaGraph_t graph,
				     const cudaGraphNode_t *pDependencies,
				     size_t numDependencies, void *dst,
				     const void *src, size_t count,
				     enum cudaMemcpyKind kind)
{
	struct cudaMemcpy3DParms p = {
		.srcPtr = { .ptr = (void *)src, .pitch = count,
			    .xsize = count, .ysize = 1 },
		.dstPtr = { .ptr = dst, .pitch = count, .xsize = count,
			    .ysize = 1 },
		.extent = { .width = count, .height = 1, .depth = 1 },
		.kind = kind,
	};

	return cudaGraphAddMemcpyNode(pGraphNode, graph, pDependencies,
				      numDependencies, &p);
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode,
				   cudaGraph_t graph,
				   const cudaGraphNode_t *pDependencies,
				   size_t numDependencies,
				   const struct cudaMemsetParams *p)
{
	CUDA_MEMSET_NODE_PARAMS m;
	CUcontext ctx;
	cudaError_t err;

	if (!p)
		return rt_return(cudaErrorInvalidValue);
	err = rt_current_context(&ctx);
	if (err != cudaSuccess)
		return rt_return(err);
	m = (CUDA_MEMSET_NODE_PARAMS){
		.dst = (CUdeviceptr)(uintptr_t)p->dst, .pitch = p->pitch,
		.value = p->value, .elementSize = p->elementSize,
		.width = p->width, .height = p->height,
	};
	return rt_return_cu(cuGraphAddMemsetNode(pGraphNode, graph,
						 pDependencies,
						 numDependencies, &m, ctx));
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode,
				 cudaGraph_t graph,
				 const cudaGraphNode_t *pDependencies,
				 size_t numDependencies,
				 const struct cudaHostNodeParams *p)
{
	CUDA_HOST_NODE_PARAMS h;

	RT_ENTER_OR_RETURN();
	if (!p)
		return rt_return(cudaErrorInvalidValue);
	h = (CUDA_HOST_NODE_PARAMS){ .fn = p->fn, .userData = p->userData };
	return rt_return_cu(cuGraphAddHostNode(pGraphNode, graph,
					       pDependencies,
					       numDependencies, &h));
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode,
				  cudaGraph_t graph,
				  const cudaGraphNode_t *pDependencies,
				  size_t numDependencies)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphAddEmptyNode(pGraphNode, graph,
						pDependencies,
						numDependencies));
}

/* cudaGraphEdgeData and CUgraphEdgeData share their layout. */
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph,
				     const cudaGraphNode_t *from,
				     const cudaGraphNode_t *to,
				     const cudaGraphEdgeData *edgeData,
				     size_t numDependencies)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphAddDependencies(graph, from, to,
			(const CUgraphEdgeData *)edgeData, numDependencies));
}

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes,
			      size_t *numNodes)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphGetNodes(graph, nodes, numNodes));
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph,
				  cudaGraphNode_t *pRootNodes,
				  size_t *pNumRootNodes)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphGetRootNodes(graph, pRootNodes,
						pNumRootNodes));
}

/* cudaGraphNodeType has the CUgraphNodeType values. */
cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node,
				 enum cudaGraphNodeType *pType)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphNodeGetType(node, (CUgraphNodeType *)pType));
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec,
				 cudaGraph_t graph, unsigned long long flags)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphInstantiateWithFlags(pGraphExec, graph,
							flags));
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec,
					  cudaGraph_t graph,
					  unsigned long long flags)
{
	return cudaGraphInstantiate(pGraphExec, graph, flags);
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphLaunch(graphExec, stream));
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphExecDestroy(graphExec));
}

/* ---- stream capture ------------------------------------------------------ */

/* cudaStreamCaptureMode and cudaStreamCaptureStatus: the CU values. */
cudaError_t cudaStreamBeginCapture(cudaStream_t stream,
				   enum cudaStreamCaptureMode mode)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuStreamBeginCapture(stream,
						 (CUstreamCaptureMode)mode));
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuStreamEndCapture(stream, pGraph));
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream,
				  enum cudaStreamCaptureStatus *pCaptureStatus)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuStreamIsCapturing(stream,
			(CUstreamCaptureStatus *)pCaptureStatus));
}

cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream,
		enum cudaStreamCaptureStatus *captureStatus_out,
		unsigned long long *id_out, cudaGraph_t *graph_out,
		const cudaGraphNode_t **dependencies_out,
		const cudaGraphEdgeData **edgeData_out,
		size_t *numDependencies_out)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuStreamGetCaptureInfo(stream,
			(CUstreamCaptureStatus *)captureStatus_out,
			(cuuint64_t *)id_out, graph_out, dependencies_out,
			(const CUgraphEdgeData **)edgeData_out,
			numDependencies_out));
}

cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode)
{
	return rt_return_cu(cuThreadExchangeStreamCaptureMode(
			(CUstreamCaptureMode *)mode));
}

/*
 * The per-thread-default-stream forms (nvcc --default-stream per-thread):
 * stream 0 is the calling thread's default stream.
 */
#define RT_PTSZ(name) __typeof__(name) name##_ptsz

static cudaStream_t rt_graph_ptsz(cudaStream_t stream)
{
	return stream ? stream : cudaStreamPerThread;
}

RT_PTSZ(cudaGraphLaunch);
RT_PTSZ(cudaStreamBeginCapture);
RT_PTSZ(cudaStreamEndCapture);
RT_PTSZ(cudaStreamIsCapturing);
RT_PTSZ(cudaStreamGetCaptureInfo);

cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t graphExec,
				 cudaStream_t stream)
{
	return cudaGraphLaunch(graphExec, rt_graph_ptsz(stream));
}

cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t stream,
					enum cudaStreamCaptureMode mode)
{
	return cudaStreamBeginCapture(rt_graph_ptsz(stream), mode);
}

cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t stream,
				      cudaGraph_t *pGraph)
{
	return cudaStreamEndCapture(rt_graph_ptsz(stream), pGraph);
}

cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t stream,
				       enum cudaStreamCaptureStatus *status)
{
	return cudaStreamIsCapturing(rt_graph_ptsz(stream), status);
}

cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream,
		enum cudaStreamCaptureStatus *captureStatus_out,
		unsigned long long *id_out, cudaGraph_t *graph_out,
		const cudaGraphNode_t **dependencies_out,
		const cudaGraphEdgeData **edgeData_out,
		size_t *numDependencies_out)
{
	return cudaStreamGetCaptureInfo(rt_graph_ptsz(stream),
					captureStatus_out, id_out, graph_out,
					dependencies_out, edgeData_out,
					numDependencies_out);
}
