// SPDX-License-Identifier: GPL-2.0
/*
 * The runtime's external-semaphore graph nodes:
 * cudaGraphAddExternalSemaphoresSignalNode / WaitNode, their Get/SetParams
 * and cudaGraphExecExternalSemaphores*NodeSetParams.
 *
 * The node parameters hold the runtime's semaphore parameters, which are
 * the driver's field for field (asserted in interop_ext.c), so a struct
 * passes to libcuda as it is (umd/cuda/graph_extsem.c does the work), and
 * Get hands back the node's own arrays as the runtime's.  The generic
 * cudaGraphAddNode / cudaGraph(Exec)NodeSetParams pass these types to the
 * driver through their default path (graph_nodes.c, graph_edit.c).
 */
#include <stddef.h>

#include "cudart_internal.h"

_Static_assert(sizeof(struct cudaExternalSemaphoreSignalNodeParams) ==
	       sizeof(CUDA_EXT_SEM_SIGNAL_NODE_PARAMS) &&
	       offsetof(struct cudaExternalSemaphoreSignalNodeParams,
			paramsArray) ==
	       offsetof(CUDA_EXT_SEM_SIGNAL_NODE_PARAMS, paramsArray) &&
	       offsetof(struct cudaExternalSemaphoreSignalNodeParams,
			numExtSems) ==
	       offsetof(CUDA_EXT_SEM_SIGNAL_NODE_PARAMS, numExtSems),
	       "the signal node parameters are the driver's");
_Static_assert(sizeof(struct cudaExternalSemaphoreWaitNodeParams) ==
	       sizeof(CUDA_EXT_SEM_WAIT_NODE_PARAMS) &&
	       offsetof(struct cudaExternalSemaphoreWaitNodeParams,
			paramsArray) ==
	       offsetof(CUDA_EXT_SEM_WAIT_NODE_PARAMS, paramsArray) &&
	       offsetof(struct cudaExternalSemaphoreWaitNodeParams,
			numExtSems) ==
	       offsetof(CUDA_EXT_SEM_WAIT_NODE_PARAMS, numExtSems),
	       "the wait node parameters are the driver's");

cudaError_t cudaGraphAddExternalSemaphoresSignalNode(
	cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
	const cudaGraphNode_t *pDependencies, size_t numDependencies,
	const struct cudaExternalSemaphoreSignalNodeParams *nodeParams)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphAddExternalSemaphoresSignalNode(
		pGraphNode, graph, pDependencies, numDependencies,
		(const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *)nodeParams));
}

cudaError_t cudaGraphAddExternalSemaphoresWaitNode(
	cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
	const cudaGraphNode_t *pDependencies, size_t numDependencies,
	const struct cudaExternalSemaphoreWaitNodeParams *nodeParams)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphAddExternalSemaphoresWaitNode(
		pGraphNode, graph, pDependencies, numDependencies,
		(const CUDA_EXT_SEM_WAIT_NODE_PARAMS *)nodeParams));
}

cudaError_t cudaGraphExternalSemaphoresSignalNodeGetParams(
	cudaGraphNode_t hNode,
	struct cudaExternalSemaphoreSignalNodeParams *params_out)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphExternalSemaphoresSignalNodeGetParams(
		hNode, (CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *)params_out));
}

cudaError_t cudaGraphExternalSemaphoresWaitNodeGetParams(
	cudaGraphNode_t hNode,
	struct cudaExternalSemaphoreWaitNodeParams *params_out)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphExternalSemaphoresWaitNodeGetParams(
		hNode, (CUDA_EXT_SEM_WAIT_NODE_PARAMS *)params_out));
}

cudaError_t cudaGraphExternalSemaphoresSignalNodeSetParams(
	cudaGraphNode_t hNode,
	const struct cudaExternalSemaphoreSignalNodeParams *nodeParams)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphExternalSemaphoresSignalNodeSetParams(
		hNode, (const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *)nodeParams));
}

cudaError_t cudaGraphExternalSemaphoresWaitNodeSetParams(
	cudaGraphNode_t hNode,
	const struct cudaExternalSemaphoreWaitNodeParams *nodeParams)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphExternalSemaphoresWaitNodeSetParams(
		hNode, (const CUDA_EXT_SEM_WAIT_NODE_PARAMS *)nodeParams));
}

cudaError_t cudaGraphExecExternalSemaphoresSignalNodeSetParams(
	cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
	const struct cudaExternalSemaphoreSignalNodeParams *nodeParams)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphExecExternalSemaphoresSignalNodeSetParams(
		hGraphExec, hNode,
		(const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *)nodeParams));
}

cudaError_t cudaGraphExecExternalSemaphoresWaitNodeSetParams(
	cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
	const struct cudaExternalSemaphoreWaitNodeParams *nodeParams)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphExecExternalSemaphoresWaitNodeSetParams(
		hGraphExec, hNode,
		(const CUDA_EXT_SEM_WAIT_NODE_PARAMS *)nodeParams));
}
