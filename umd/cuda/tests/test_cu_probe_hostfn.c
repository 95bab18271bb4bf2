// SPDX-License-Identifier: GPL-2.0
/*
 * Our libcuda and libcudart against NVIDIA's, on the answers of
 * tools/cuda-probe/probe_hostfn.c: host functions and stream callbacks -
 * that the call returns before the function runs, the stream order around
 * it, cuStreamQuery while it blocks, one thread for all streams, the
 * status a callback gets after a fault, and which CUDA calls made from
 * inside a host function answer CUDA_ERROR_NOT_PERMITTED.
 *
 * The probe was run on a real H100; its output is kept in
 * tools/cuda-probe/golden/probe_hostfn.h100.txt (first line: the GPU).
 * Here the same probe, built against our libraries (umd/cuda/build.mk),
 * runs and its output is compared line by line (probe_compare.h).
 */
#define PROBE_BIN	PROBE_HOSTFN_BIN
#define PROBE_GOLDEN	PROBE_HOSTFN_GOLDEN
#include "probe_compare.h"
