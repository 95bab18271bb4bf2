// SPDX-License-Identifier: GPL-2.0
/*
 * Our libcuda against NVIDIA's, on the answers of tools/cuda-probe/
 * probe_pools.c: memory pools, stream-ordered allocation and CUDA 12
 * libraries.
 *
 * The probe was run on a real H100; its output is kept in
 * tools/cuda-probe/golden/probe_pools.h100.txt (first line: the GPU).
 * Here the same probe, built against our libcuda (umd/cuda/build.mk),
 * runs and its output is compared line by line (probe_compare.h).  The
 * probe prints the GPU's name first, as in the recording.  The lines where
 * vGPU answers otherwise on purpose are listed below with vGPU's answer,
 * and checked to be that.
 */
#define PROBE_BIN	PROBE_POOLS_BIN
#define PROBE_GOLDEN	PROBE_POOLS_GOLDEN
#define PROBE_PRINTS_GPU
/*
 * vGPU shares pools by file descriptor only, not through a fabric
 * (Documentation/umd-mem-pools.rst).
 */
#define PROBE_ON_PURPOSE						\
	{ "MEMPOOL_SUPPORTED_HANDLE_TYPES 9",				\
	  "MEMPOOL_SUPPORTED_HANDLE_TYPES 1" }
#include "probe_compare.h"
