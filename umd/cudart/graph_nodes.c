// SPDX-License-Identifier: GPL-2.0
/*
 * The runtime's side of the graph API beyond kernels, copies and host
 * functions: child graphs, event nodes, clones, executable-graph update,
 * upload, user objects, DOT files, graph memory and conditional nodes.
 * Thin layers over the driver's (umd/cuda/graph*.c): the runtime's
 * structs for these share the driver's layout, except where noted.
 */
#include <string.h>

#include "cudart_abi.h"
#include "cudart_internal.h"

_Static_assert(sizeof(cudaGraphExecUpdateResultInfo) ==
	       sizeof(CUgraphExecUpdateResultInfo),
	       "the update result infos differ");
_Static_assert(sizeof(cudaGraphInstantiateParams) ==
	       sizeof(CUDA_GRAPH_INSTANTIATE_PARAMS),
	       "the instantiate params differ");
_Static_assert(sizeof(struct cudaMemAllocNodeParams) ==
	       sizeof(CUDA_MEM_ALLOC_NODE_PARAMS),
	       "the allocation node params differ");

cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode,
				       cudaGraph_t graph,
				       const cudaGraphNode_t *pDependencies,
				       size_t numDependencies,
				       cudaGraph_t childGraph)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphAddChildGraphNode(pGraphNode, graph,
			pDependencies, numDependencies, childGraph));
}

cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node,
					    cudaGraph_t *pGraph)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphChildGraphNodeGetGraph(node, pGraph));
}

cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode,
					cudaGraph_t graph,
					const cudaGraphNode_t *pDependencies,
					size_t numDependencies, cudaEvent_t event)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphAddEventRecordNode(pGraphNode, graph,
			pDependencies, numDependencies, event));
}

cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode,
				      cudaGraph_t graph,
				      const cudaGraphNode_t *pDependencies,
				      size_t numDependencies, cudaEvent_t event)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphAddEventWaitNode(pGraphNode, graph,
			pDependencies, numDependencies, event));
}

cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node,
					     cudaEvent_t *event_out)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphEventRecordNodeGetEvent(node, event_out));
}

cudaError_t cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node,
					     cudaEvent_t event)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphEventRecordNodeSetEvent(node, event));
}

cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node,
					   cudaEvent_t *event_out)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphEventWaitNodeGetEvent(node, event_out));
}

cudaError_t cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node,
					   cudaEvent_t event)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphEventWaitNodeSetEvent(node, event));
}

cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphClone(pGraphClone, originalGraph));
}

cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *pNode,
				     cudaGraphNode_t originalNode,
				     cudaGraph_t clonedGraph)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphNodeFindInClone(pNode, originalNode,
						   clonedGraph));
}

cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from,
			      cudaGraphNode_t *to, cudaGraphEdgeData *edgeData,
			      size_t *numEdges)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphGetEdges(graph, from, to,
			(CUgraphEdgeData *)edgeData, numEdges));
}

cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
				cudaGraphExecUpdateResultInfo *resultInfo)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphExecUpdate(hGraphExec, hGraph,
			(CUgraphExecUpdateResultInfo *)resultInfo));
}

cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t *pGraphExec,
		cudaGraph_t graph, cudaGraphInstantiateParams *instantiateParams)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphInstantiateWithParams(pGraphExec, graph,
			(CUDA_GRAPH_INSTANTIATE_PARAMS *)instantiateParams));
}

cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t graphExec,
				  unsigned long long *flags)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphExecGetFlags(graphExec,
						(cuuint64_t *)flags));
}

cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphUpload(graphExec, stream));
}

cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path,
				   unsigned int flags)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphDebugDotPrint(graph, path, flags));
}

/* ---- user objects ------------------------------------------------------- */

cudaError_t cudaUserObjectCreate(cudaUserObject_t *object_out, void *ptr,
				 cudaHostFn_t destroy,
				 unsigned int initialRefcount,
				 unsigned int flags)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuUserObjectCreate(object_out, ptr, destroy,
					       initialRefcount, flags));
}

cudaError_t cudaUserObjectRetain(cudaUserObject_t object, unsigned int count)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuUserObjectRetain(object, count));
}

cudaError_t cudaUserObjectRelease(cudaUserObject_t object, unsigned int count)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuUserObjectRelease(object, count));
}

cudaError_t cudaGraphRetainUserObject(cudaGraph_t graph,
				      cudaUserObject_t object,
				      unsigned int count, unsigned int flags)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphRetainUserObject(graph, object, count,
						    flags));
}

cudaError_t cudaGraphReleaseUserObject(cudaGraph_t graph,
				       cudaUserObject_t object,
				       unsigned int count)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphReleaseUserObject(graph, object, count));
}

/* ---- graph memory ----------------------------------------------------------- */

cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode,
				     cudaGraph_t graph,
				     const cudaGraphNode_t *pDependencies,
				     size_t numDependencies,
				     struct cudaMemAllocNodeParams *nodeParams)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphAddMemAllocNode(pGraphNode, graph,
			pDependencies, numDependencies,
			(CUDA_MEM_ALLOC_NODE_PARAMS *)nodeParams));
}

cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node,
		struct cudaMemAllocNodeParams *params_out)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphMemAllocNodeGetParams(node,
			(CUDA_MEM_ALLOC_NODE_PARAMS *)params_out));
}

cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode,
				    cudaGraph_t graph,
				    const cudaGraphNode_t *pDependencies,
				    size_t numDependencies, void *dptr)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphAddMemFreeNode(pGraphNode, graph,
			pDependencies, numDependencies,
			(CUdeviceptr)(uintptr_t)dptr));
}

cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node,
					  void *dptr_out)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphMemFreeNodeGetParams(node,
						(CUdeviceptr *)dptr_out));
}

/* cudaGraphMemAttributeType has the CUgraphMem_attribute values. */
cudaError_t cudaDeviceGetGraphMemAttribute(int device,
		enum cudaGraphMemAttributeType attr, void *value)
{
	RT_CHECK_DEVICE_OR_RETURN(device);
	return rt_return_cu(cuDeviceGetGraphMemAttribute(device,
			(CUgraphMem_attribute)attr, value));
}

cudaError_t cudaDeviceSetGraphMemAttribute(int device,
		enum cudaGraphMemAttributeType attr, void *value)
{
	RT_CHECK_DEVICE_OR_RETURN(device);
	return rt_return_cu(cuDeviceSetGraphMemAttribute(device,
			(CUgraphMem_attribute)attr, value));
}

cudaError_t cudaDeviceGraphMemTrim(int device)
{
	RT_CHECK_DEVICE_OR_RETURN(device);
	return rt_return_cu(cuDeviceGraphMemTrim(device));
}

/* ---- conditional nodes and cudaGraphAddNode ---------------------------------- */

/* The handle's cell is mapped into the current device's context. */
cudaError_t cudaGraphConditionalHandleCreate(
		cudaGraphConditionalHandle *pHandle_out, cudaGraph_t graph,
		unsigned int defaultLaunchValue, unsigned int flags)
{
	CUcontext ctx;
	int dev;
	cudaError_t err = rt_enter(&dev);

	if (err != cudaSuccess)
		return rt_return(err);
	if (cuCtxGetCurrent(&ctx) != CUDA_SUCCESS)
		return rt_return(cudaErrorInvalidValue);
	return rt_return_cu(cuGraphConditionalHandleCreate(
			(CUgraphConditionalHandle *)pHandle_out, graph,
			ctx, defaultLaunchValue, flags));
}

/*
 * The generic node call.  The runtime's parameter union differs from the
 * driver's for kernels (a host stub), copies and memsets, which go
 * through the runtime's own calls; a conditional node gets the current
 * context, which the runtime's struct does not carry.
 */
cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
			     const cudaGraphNode_t *pDependencies,
			     const cudaGraphEdgeData *dependencyData,
			     size_t numDependencies,
			     struct cudaGraphNodeParams *nodeParams)
{
	static const cudaGraphEdgeData none;
	CUgraphNodeParams p;
	CUcontext ctx;
	cudaError_t err;
	CUresult r;
	size_t i;
	int dev;

	err = rt_enter(&dev);
	if (err != cudaSuccess)
		return rt_return(err);
	if (!nodeParams)
		return rt_return(cudaErrorInvalidValue);
	for (i = 0; dependencyData && i < numDependencies; i++)
		if (memcmp(&dependencyData[i], &none, sizeof(none)))
			return rt_return(cudaErrorNotSupported);
	switch (nodeParams->type) {
	case cudaGraphNodeTypeKernel: {
		struct cudaKernelNodeParams k = {
			.func = nodeParams->kernel.func,
			.gridDim = nodeParams->kernel.gridDim,
			.blockDim = nodeParams->kernel.blockDim,
			.sharedMemBytes = nodeParams->kernel.sharedMemBytes,
			.kernelParams = nodeParams->kernel.kernelParams,
			.extra = nodeParams->kernel.extra,
		};

		return cudaGraphAddKernelNode(pGraphNode, graph, pDependencies,
					      numDependencies, &k);
	}
	case cudaGraphNodeTypeMemcpy:
		return cudaGraphAddMemcpyNode(pGraphNode, graph, pDependencies,
					      numDependencies,
					      &nodeParams->memcpy.copyParams);
	case cudaGraphNodeTypeMemset: {
		struct cudaMemsetParams m = {
			.dst = nodeParams->memset.dst,
			.pitch = nodeParams->memset.pitch,
			.value = nodeParams->memset.value,
			.elementSize = nodeParams->memset.elementSize,
			.width = nodeParams->memset.width,
			.height = nodeParams->memset.height,
		};

		return cudaGraphAddMemsetNode(pGraphNode, graph, pDependencies,
					      numDependencies, &m);
	}
	case cudaGraphNodeTypeHost: {
		struct cudaHostNodeParams h = {
			.fn = nodeParams->host.fn,
			.userData = nodeParams->host.userData,
		};

		return cudaGraphAddHostNode(pGraphNode, graph, pDependencies,
					    numDependencies, &h);
	}
	case cudaGraphNodeTypeMemAlloc: {
		struct cudaMemAllocNodeParams a = {
			.poolProps = nodeParams->alloc.poolProps,
			.accessDescs = nodeParams->alloc.accessDescs,
			.accessDescCount = nodeParams->alloc.accessDescCount,
			.bytesize = nodeParams->alloc.bytesize,
		};

		err = cudaGraphAddMemAllocNode(pGraphNode, graph,
					       pDependencies, numDependencies,
					       &a);
		if (err == cudaSuccess)
			nodeParams->alloc.dptr = a.dptr;
		return err;
	}
	case cudaGraphNodeTypeConditional:
		if (cuCtxGetCurrent(&ctx) != CUDA_SUCCESS)
			return rt_return(cudaErrorInvalidValue);
		memset(&p, 0, sizeof(p));
		p.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
		p.conditional.handle = nodeParams->conditional.handle;
		p.conditional.type = (CUgraphConditionalNodeType)
				     nodeParams->conditional.type;
		p.conditional.size = nodeParams->conditional.size;
		p.conditional.ctx = ctx;
		r = cuGraphAddNode(pGraphNode, graph, pDependencies, NULL,
				   numDependencies, &p);
		if (r == CUDA_SUCCESS)
			nodeParams->conditional.phGraph_out =
				p.conditional.phGraph_out;
		return rt_return_cu(r);
	default:
		/* Child graphs, events, frees, empty: the driver's layout. */
		memcpy(&p, nodeParams, sizeof(p));
		return rt_return_cu(cuGraphAddNode(pGraphNode, graph,
				pDependencies, NULL, numDependencies, &p));
	}
}
