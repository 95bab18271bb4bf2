// SPDX-License-Identifier: GPL-2.0
/*
 * A kernel node's launch attributes in the runtime: the driver's
 * (umd/cuda/graph_kernel_attr.c).  cudaKernelNodeAttrValue is
 * cudaLaunchAttributeValue, whose layout is CUlaunchAttributeValue's, and
 * the attribute numbers are the same, so the calls pass straight through.
 */
#include "cudart_abi.h"
#include "cudart_internal.h"

_Static_assert(sizeof(cudaKernelNodeAttrValue) ==
	       sizeof(CUkernelNodeAttrValue),
	       "runtime and driver attribute values share their layout");
_Static_assert((int)cudaLaunchAttributeCooperative ==
	       (int)CU_LAUNCH_ATTRIBUTE_COOPERATIVE &&
	       (int)cudaLaunchAttributeClusterDimension ==
	       (int)CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION,
	       "runtime and driver attribute numbers agree");

cudaError_t cudaGraphKernelNodeSetAttribute(cudaGraphNode_t hNode,
		cudaKernelNodeAttrID attr, const cudaKernelNodeAttrValue *value)
{
	return rt_return_cu(cuGraphKernelNodeSetAttribute(hNode,
			(CUkernelNodeAttrID)attr,
			(const CUkernelNodeAttrValue *)value));
}

cudaError_t cudaGraphKernelNodeGetAttribute(cudaGraphNode_t hNode,
		cudaKernelNodeAttrID attr, cudaKernelNodeAttrValue *value_out)
{
	return rt_return_cu(cuGraphKernelNodeGetAttribute(hNode,
			(CUkernelNodeAttrID)attr,
			(CUkernelNodeAttrValue *)value_out));
}

cudaError_t cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t hDst,
					      cudaGraphNode_t hSrc)
{
	return rt_return_cu(cuGraphKernelNodeCopyAttributes(hDst, hSrc));
}
