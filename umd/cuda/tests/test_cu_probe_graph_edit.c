// SPDX-License-Identifier: GPL-2.0
/*
 * Our libcuda against NVIDIA's, on the answers of tools/cuda-probe/
 * probe_graph_edit.c: cuGraphDestroyNode, cuGraphRemoveDependencies, the
 * node setters of graphs and executable graphs, enabling and disabling
 * nodes, cuStreamBeginCaptureToGraph and cuStreamUpdateCaptureDependencies
 * (umd/cuda/graph_edit.c), with the values the launches computed.
 *
 * The probe was run on a real H100; its output is kept in
 * tools/cuda-probe/golden/probe_graph_edit.h100.txt (first line: the
 * GPU).  Here the same probe, built against our libcuda
 * (umd/cuda/build.mk), runs and its output is compared line by line
 * (probe_compare.h).
 */
#define PROBE_BIN	PROBE_GRAPH_EDIT_BIN
#define PROBE_GOLDEN	PROBE_GRAPH_EDIT_GOLDEN
#define PROBE_PRINTS_GPU
#include "probe_compare.h"
