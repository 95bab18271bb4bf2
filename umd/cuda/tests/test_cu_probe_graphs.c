// SPDX-License-Identifier: GPL-2.0
/*
 * Our libcuda against NVIDIA's, on the answers of tools/cuda-probe/
 * probe_graphs.c: child-graph, event, memory and conditional nodes,
 * clones, cuGraphExecUpdate, instantiation flags and upload, user
 * objects, cuGraphDebugDotPrint and the graph memory footprint.
 *
 * The probe was run on a real H100; its output is kept in
 * tools/cuda-probe/golden/probe_graphs.h100.txt (first line: the GPU).
 * Here the same probe, built against our libcuda (umd/cuda/build.mk),
 * runs and its output is compared line by line (probe_compare.h).  The
 * lines where vGPU answers otherwise on purpose are listed below with
 * vGPU's answer, and checked to be that.
 */
#define PROBE_BIN	PROBE_GRAPHS_BIN
#define PROBE_GOLDEN	PROBE_GRAPHS_GOLDEN
#define PROBE_PRINTS_GPU
/*
 * Releasing more references than a graph holds is undefined in CUDA; an
 * H100 takes them from the object anyway (and so destroys it while an
 * executable graph still holds a reference).  vGPU refuses the release.
 *
 * A SWITCH node of three bodies on a fresh handle was refused on the
 * H100 after the probe's failed attempts with the same handle; CUDA's
 * documentation allows any number of bodies, and vGPU accepts it (the
 * reason for the H100's answer is not known: Documentation/umd-graphs.rst).
 */
#define PROBE_ON_PURPOSE						\
	{ "graph release 3: CUDA_SUCCESS (0)",				\
	  "graph release 3: CUDA_ERROR_INVALID_VALUE (1)" },		\
	{ "destroyed with exec alive: 1",				\
	  "destroyed with exec alive: 0" },				\
	{ "switch size 3: CUDA_ERROR_INVALID_VALUE (1)",		\
	  "switch size 3: CUDA_SUCCESS (0)" }
#include "probe_compare.h"
