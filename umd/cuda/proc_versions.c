// SPDX-License-Identifier: GPL-2.0
/*
 * proc_versions.c - cuGetProcAddress for names whose signature changed
 * between CUDA versions.
 *
 * The runtime asks for a name together with the CUDA version it was
 * written against, and NVIDIA's runtime asks for several versions of the
 * same name (tools/cuda-probe/golden/trace-driver-programs.log):
 * "cuStreamGetCaptureInfo" as 10010, 11030 and 12030 expects three
 * different signatures (cuda.h: _v1, _v2, _v3).  The driver must answer
 * each with the function of that version: the newest one whose "since"
 * is not above the version asked.  vGPU implements the newest version of
 * each; the older ones here are adapters onto it (no edge data, a device
 * number instead of a CUmemLocation, a default capture mode...).
 *
 *   name                  since  function
 *   cuStreamBeginCapture  10000  begin_capture_v1 ──> cuStreamBeginCapture_v2
 *                         10010  cuStreamBeginCapture_v2
 */
#include <string.h>

#include "cuda_internal.h"
#include "graph_internal.h"

/* ---- contexts ----------------------------------------------------------- */

static CUresult CUDAAPI ctx_create_v2(CUcontext *pctx, unsigned int flags,
				      CUdevice dev)
{
	return cuCtxCreate_v4(pctx, NULL, flags, dev);
}

/* Execution-affinity parameters are not supported: only an empty list. */
static CUresult CUDAAPI ctx_create_v3(CUcontext *pctx, void *params,
				      int num_params, unsigned int flags,
				      CUdevice dev)
{
	if (num_params < 0 || (num_params && !params))
		return CUDA_ERROR_INVALID_VALUE;
	if (num_params)
		return CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY;
	return cuCtxCreate_v4(pctx, NULL, flags, dev);
}

/* ---- graphs: the versions before edge data (12.3) ------------------------ */

static CUresult CUDAAPI graph_add_dependencies_v1(CUgraph g,
		const CUgraphNode *from, const CUgraphNode *to, size_t n)
{
	return cuGraphAddDependencies_v2(g, from, to, NULL, n);
}

static CUresult CUDAAPI graph_remove_dependencies_v1(CUgraph g,
		const CUgraphNode *from, const CUgraphNode *to, size_t n)
{
	return cuGraphRemoveDependencies_v2(g, from, to, NULL, n);
}

static CUresult CUDAAPI graph_get_edges_v1(CUgraph g, CUgraphNode *from,
					   CUgraphNode *to, size_t *n)
{
	return cuGraphGetEdges_v2(g, from, to, NULL, n);
}

static CUresult CUDAAPI node_get_dependencies_v1(CUgraphNode node,
		CUgraphNode *deps, size_t *n)
{
	return cuGraphNodeGetDependencies_v2(node, deps, NULL, n);
}

/*
 * The nodes that depend on @node (the reverse of its dependencies), in
 * the order they were added to the graph; the query convention of
 * cuGraphGetNodes: with @out NULL the count, else up to *@n of them.
 * Edge data is always the default (zero) in vGPU's graphs.
 */
static CUresult CUDAAPI node_get_dependent_nodes_v2(CUgraphNode node,
		CUgraphNode *out, CUgraphEdgeData *edge_data, size_t *n)
{
	struct cu_graph_node *nd = (struct cu_graph_node *)node;
	size_t found = 0, cap;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!cu_graph_node_valid(nd) || !n)
		return CUDA_ERROR_INVALID_VALUE;
	cap = out ? *n : 0;
	for (size_t i = 0; i < nd->graph->num_nodes; i++) {
		struct cu_graph_node *m = nd->graph->nodes[i];

		for (size_t j = 0; j < m->num_deps; j++) {
			if (m->deps[j] != nd)
				continue;
			if (found < cap) {
				out[found] = (CUgraphNode)m;
				if (edge_data)
					memset(&edge_data[found], 0,
					       sizeof(edge_data[found]));
			}
			found++;
			break;
		}
	}
	for (size_t i = found; i < cap; i++)
		out[i] = NULL;
	*n = out && found > cap ? cap : found;
	return CUDA_SUCCESS;
}

static CUresult CUDAAPI node_get_dependent_nodes_v1(CUgraphNode node,
		CUgraphNode *out, size_t *n)
{
	return node_get_dependent_nodes_v2(node, out, NULL, n);
}

static CUresult CUDAAPI graph_add_node_v1(CUgraphNode *node, CUgraph g,
		const CUgraphNode *deps, size_t n, CUgraphNodeParams *params)
{
	return cuGraphAddNode_v2(node, g, deps, NULL, n, params);
}

/*
 * cuGraphInstantiate before 12.0: (exec, graph, error node, log, log
 * size).  vGPU reports no failing node and writes no log.
 */
static CUresult CUDAAPI graph_instantiate_v2(CUgraphExec *exec, CUgraph g,
					     CUgraphNode *error_node,
					     char *log, size_t log_size)
{
	if (error_node)
		*error_node = NULL;
	if (log && log_size)
		log[0] = '\0';
	return cuGraphInstantiateWithFlags(exec, g, 0);
}

/* ---- streams and capture -------------------------------------------------- */

static CUresult CUDAAPI begin_capture_v1(CUstream s)
{
	return cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
}

static CUresult CUDAAPI get_capture_info_v1(CUstream s,
		CUstreamCaptureStatus *status, cuuint64_t *id)
{
	return cuStreamGetCaptureInfo_v3(s, status, id, NULL, NULL, NULL,
					 NULL);
}

static CUresult CUDAAPI get_capture_info_v2(CUstream s,
		CUstreamCaptureStatus *status, cuuint64_t *id, CUgraph *graph,
		const CUgraphNode **deps, size_t *n)
{
	return cuStreamGetCaptureInfo_v3(s, status, id, graph, deps, NULL, n);
}

static CUresult CUDAAPI update_capture_dependencies_v1(CUstream s,
		CUgraphNode *deps, size_t n, unsigned int flags)
{
	return cuStreamUpdateCaptureDependencies_v2(s, deps, NULL, n, flags);
}

/* ---- unified memory: a device number before CUmemLocation (12.2) --------- */

static CUmemLocation location_of_device(CUdevice dev)
{
	CUmemLocation loc = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = dev };

	if (dev == CU_DEVICE_CPU) {
		loc.type = CU_MEM_LOCATION_TYPE_HOST;
		loc.id = 0;
	}
	return loc;
}

static CUresult CUDAAPI mem_advise_v1(CUdeviceptr p, size_t count,
				      CUmem_advise advice, CUdevice dev)
{
	return cuMemAdvise_v2(p, count, advice, location_of_device(dev));
}

static CUresult CUDAAPI mem_prefetch_v1(CUdeviceptr p, size_t count,
					CUdevice dev, CUstream s)
{
	return cuMemPrefetchAsync_v2(p, count, location_of_device(dev), 0, s);
}

/* ---- the table ---------------------------------------------------------- */

struct cu_proc_version {
	const char *name;
	int since;		/* the CUDA version that introduced it */
	void *fn;
};

/* Sorted by name, then by version. */
static const struct cu_proc_version cu_proc_versions[] = {
	{ "cuCtxCreate", 3020, (void *)ctx_create_v2 },
	{ "cuCtxCreate", 11040, (void *)ctx_create_v3 },
	{ "cuCtxCreate", 12050, (void *)cuCtxCreate_v4 },
	{ "cuCtxGetDevice", 2000, (void *)cuCtxGetDevice },
	{ "cuCtxGetDevice", 13000, (void *)cuCtxGetDevice_v2 },
	{ "cuCtxSynchronize", 2000, (void *)cuCtxSynchronize },
	{ "cuCtxSynchronize", 13000, (void *)cuCtxSynchronize_v2 },
	{ "cuGraphAddDependencies", 10000, (void *)graph_add_dependencies_v1 },
	{ "cuGraphAddDependencies", 12030, (void *)cuGraphAddDependencies_v2 },
	{ "cuGraphAddNode", 12020, (void *)graph_add_node_v1 },
	{ "cuGraphAddNode", 12030, (void *)cuGraphAddNode_v2 },
	{ "cuGraphGetEdges", 10000, (void *)graph_get_edges_v1 },
	{ "cuGraphGetEdges", 12030, (void *)cuGraphGetEdges_v2 },
	{ "cuGraphInstantiate", 10000, (void *)graph_instantiate_v2 },
	{ "cuGraphNodeGetDependencies", 10000,
	  (void *)node_get_dependencies_v1 },
	{ "cuGraphNodeGetDependencies", 12030,
	  (void *)cuGraphNodeGetDependencies_v2 },
	{ "cuGraphNodeGetDependentNodes", 10000,
	  (void *)node_get_dependent_nodes_v1 },
	{ "cuGraphNodeGetDependentNodes", 12030,
	  (void *)node_get_dependent_nodes_v2 },
	{ "cuGraphRemoveDependencies", 10000,
	  (void *)graph_remove_dependencies_v1 },
	{ "cuGraphRemoveDependencies", 12030,
	  (void *)cuGraphRemoveDependencies_v2 },
	{ "cuMemAdvise", 8000, (void *)mem_advise_v1 },
	{ "cuMemAdvise", 12020, (void *)cuMemAdvise_v2 },
	{ "cuMemPrefetchAsync", 8000, (void *)mem_prefetch_v1 },
	{ "cuMemPrefetchAsync", 12020, (void *)cuMemPrefetchAsync_v2 },
	{ "cuStreamBeginCapture", 10000, (void *)begin_capture_v1 },
	{ "cuStreamBeginCapture", 10010, (void *)cuStreamBeginCapture_v2 },
	{ "cuStreamGetCaptureInfo", 10010, (void *)get_capture_info_v1 },
	{ "cuStreamGetCaptureInfo", 11030, (void *)get_capture_info_v2 },
	{ "cuStreamGetCaptureInfo", 12030, (void *)cuStreamGetCaptureInfo_v3 },
	{ "cuStreamUpdateCaptureDependencies", 11030,
	  (void *)update_capture_dependencies_v1 },
	{ "cuStreamUpdateCaptureDependencies", 12030,
	  (void *)cuStreamUpdateCaptureDependencies_v2 },
};

/*
 * The function @name means at @version, if @name is one of the versioned
 * names: *@fn is set (NULL when @version predates the name) and true is
 * returned; false for other names (the plain table answers them).
 */
bool cu_proc_versioned(const char *name, int version, void **fn)
{
	bool known = false;

	*fn = NULL;
	for (size_t i = 0; i < sizeof(cu_proc_versions) /
	     sizeof(cu_proc_versions[0]); i++) {
		if (strcmp(cu_proc_versions[i].name, name))
			continue;
		known = true;
		if (cu_proc_versions[i].since <= version)
			*fn = cu_proc_versions[i].fn;
	}
	return known;
}
