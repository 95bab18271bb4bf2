// SPDX-License-Identifier: GPL-2.0
/*
 * Our libcudart and libcuda against NVIDIA's, on the answers of
 * tools/cuda-probe/probe_peer.c: cudaDeviceCanAccessPeer,
 * cudaDeviceEnablePeerAccess/Disable and cudaDeviceGetP2PAttribute when
 * there is one device (recorded on an H100 80GB HBM3, driver 580.159.04:
 * tools/cuda-probe/golden/probe_peer.h100.txt), compared line by line
 * (probe_compare.h).
 */
#define PROBE_BIN	PROBE_PEER_BIN
#define PROBE_GOLDEN	PROBE_PEER_GOLDEN
#define PROBE_PRINTS_GPU
#include "probe_compare.h"
