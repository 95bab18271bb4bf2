// SPDX-License-Identifier: GPL-2.0
/*
 * Our libcuda against NVIDIA's, on the answers of tools/cuda-probe/
 * probe_capture.c: stream capture, graphs, 3D copies and IPC events.
 *
 * The probe was run on a real H100; its output is kept in
 * tools/cuda-probe/golden/probe_capture.h100.txt (first line: the GPU).
 * Here the same probe, built against our libcuda (umd/cuda/build.mk),
 * runs and its output is compared line by line (probe_compare.h).
 */
#define PROBE_BIN	PROBE_CAPTURE_BIN
#define PROBE_GOLDEN	PROBE_CAPTURE_GOLDEN
#include "probe_compare.h"
