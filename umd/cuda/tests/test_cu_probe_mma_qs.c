// SPDX-License-Identifier: GPL-2.0
/*
 * mma.m8n8k4 with f16 inputs (Volta's quad pairs) and sparse mma.sp
 * against an H100's, on tools/cuda-probe/probe_mma.cu, parts Q and S:
 * each lane's registers in and out, for every layout and accumulator of
 * m8n8k4 and for f16, bf16, s8 and u8 mma.sp with their selectors.
 *
 * The probe, built by nvcc as users build programs (PTX for compute_90,
 * which our libcuda compiles), runs "probe_mma QS" against our libraries;
 * its output is compared with those parts of the recording
 * tools/cuda-probe/golden/probe_mma_qs.h100.txt (the build keeps only
 * their lines: part F, the fp8 adder, is test_ptx_mma_ext's, with its
 * known gaps), one result per line.
 */
#define PROBE_BIN	PROBE_MMA_QS_BIN
#define PROBE_GOLDEN	PROBE_MMA_QS_GOLDEN
#define PROBE_PRINTS_GPU
#define PROBE_GROUPED
#include "probe_compare.h"
