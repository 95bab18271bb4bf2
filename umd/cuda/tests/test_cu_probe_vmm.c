// SPDX-License-Identifier: GPL-2.0
/*
 * Our libcuda against NVIDIA's, on the answers of tools/cuda-probe/
 * probe_vmm.c: virtual memory management (granularity, cuMemCreate,
 * cuMemAddressReserve, cuMemMap, cuMemSetAccess/GetAccess, unmapping,
 * release, export and import by file descriptor, a kernel writing
 * through a VMM mapping and one faulting on an address without access)
 * and the driver's peer-access answers with one device.
 *
 * Recorded on an H100 80GB HBM3, driver 580.159.04:
 * tools/cuda-probe/golden/probe_vmm.h100.txt (first line: the GPU).
 * The same probe, built against our libcuda, runs here and its output is
 * compared line by line (probe_compare.h).
 */
#define PROBE_BIN	PROBE_VMM_BIN
#define PROBE_GOLDEN	PROBE_VMM_GOLDEN
#define PROBE_PRINTS_GPU
/*
 * vGPU has no fabric handles, no compression and no RDMA peer: it says
 * so (Documentation/vmm-peer.rst).
 */
#define PROBE_ON_PURPOSE						\
	{ "HANDLE_TYPE_FABRIC_SUPPORTED 1 (0)",				\
	  "HANDLE_TYPE_FABRIC_SUPPORTED 0 (0)" },			\
	{ "GENERIC_COMPRESSION_SUPPORTED 1 (0)",			\
	  "GENERIC_COMPRESSION_SUPPORTED 0 (0)" },			\
	{ "GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED 1 (0)",		\
	  "GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED 0 (0)" }
#include "probe_compare.h"
