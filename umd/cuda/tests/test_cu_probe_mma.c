// SPDX-License-Identifier: GPL-2.0
/*
 * The tensor cores against an H100's, on tools/cuda-probe/probe_mma.cu:
 * every WMMA fragment layout (which element of which matrix each lane
 * holds), stores, the bits of D = A * B + C for awkward inputs of every
 * type through WMMA and mma.sync (the H100's order of accumulation and
 * rounding), ldmatrix, stmatrix and movmatrix.
 *
 * The probe, built by nvcc as users build programs (PTX for compute_90,
 * which our libcuda compiles), runs against our libraries; its output is
 * compared with the recording tools/cuda-probe/golden/probe_mma.h100.txt
 * (probe_compare.h), one result per fragment, per product and per matrix
 * move.
 */
#define PROBE_BIN	PROBE_MMA_BIN
#define PROBE_GOLDEN	PROBE_MMA_GOLDEN
#define PROBE_PRINTS_GPU
#define PROBE_GROUPED
#include "probe_compare.h"
