// SPDX-License-Identifier: GPL-2.0
//
// The tensor memory accelerator through the whole stack (guest test):
// tools/cuda-probe/probe_tma.cu, built with nvcc for compute_90 (PTX
// JIT-compiled by our libcuda), encodes tensor maps with
// cuTensorMapEncodeTiled/Im2col and moves boxes with inline
// cp.async.bulk.tensor PTX; its output must be the H100's
// (tools/cuda-probe/golden/probe_tma.h100.txt) line for line: the error
// code of every bad encoding, the shared memory of every load (swizzles,
// out-of-bounds fill, element strides, 1d to 5d, im2col), the illegal
// instruction of a misaligned box, the words a swizzled store writes.
//
// Two recorded lines differ and are reported, not compared: the 32-byte
// interleave (the H100 fills rows the box does not name) and a store
// partly above the tensor (the H100 stops with an illegal instruction,
// vGPU writes the part inside, as the PTX ISA describes);
// Documentation/async-copies.rst says more.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "rt_tap.h"

#if !defined(PROBE_TMA_BIN) || !defined(PROBE_TMA_GOLDEN)
#error "the build names the probe and its recording"
#endif

/* The sections, each in its own process, as the recording was made. */
#define SECTIONS "errors im2col loads 3d-b 3d-c 3d 5d il16 il32 store0 store1 store2"

/* Lines known to differ, by the text before their ':'. */
static const char *const known[] = {
	"load interleave 32B swizzle 32B box 8x4x2 at (0,14,1)",
	"store oob box 8x4 at (60,-2)",
	"store1",
};

static bool is_known(const char *line)
{
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		size_t n = strlen(known[i]);

		if (!strncmp(line, known[i], n) && line[n] == ':')
			return true;
	}
	return false;
}

static char *slurp(FILE *f, size_t cap)
{
	char *buf = (char *)malloc(cap);
	size_t n = 0;

	if (!buf)
		return NULL;
	if (f)
		n = fread(buf, 1, cap - 1, f);
	buf[n] = '\0';
	return buf;
}

int main(void)
{
	pid_t fw = fw_launcher_start();
	char cmd[1024], *ours, *golden, *o, *g, *so, *sg;
	int line = 1, differ = 0, skipped = 0;
	FILE *p, *f;

	if (fw < 0)
		tap_diag("cannot start the firmware: %d", (int)fw);
	tap_plan(-1);
	snprintf(cmd, sizeof(cmd),
		 "%s 2>&1; for s in " SECTIONS "; do %s $s 2>&1 || echo \"$s: exit $?\"; done",
		 PROBE_TMA_BIN, PROBE_TMA_BIN);
	p = popen(cmd, "r");
	ours = slurp(p, 1 << 20);
	if (p)
		pclose(p);
	f = fopen(PROBE_TMA_GOLDEN, "r");
	golden = slurp(f, 1 << 20);
	if (f)
		fclose(f);
	TAP(ours && golden && *golden, "the probe ran and the recording was read");
	if (!ours || !golden)
		return tap_finish();
	/* the known lines are dropped from both sides, then line by line */
	o = strtok_r(ours, "\n", &so);
	g = strtok_r(golden, "\n", &sg);
	while (o || g) {
		while (o && is_known(o))
			o = strtok_r(NULL, "\n", &so);
		while (g && is_known(g)) {
			tap_diag("known difference: H100 \"%.120s\"", g);
			skipped++;
			g = strtok_r(NULL, "\n", &sg);
		}
		if (!o && !g)
			break;
		if (line > 1 && (!o || !g || strcmp(o, g))) {
			tap_diag("probe line %d: ours \"%.200s\", H100 \"%.200s\"",
				 line, o ? o : "(none)", g ? g : "(none)");
			differ++;
		}
		o = o ? strtok_r(NULL, "\n", &so) : NULL;
		g = g ? strtok_r(NULL, "\n", &sg) : NULL;
		line++;
	}
	TAP(!differ, "probe_tma answers as the H100 recording (%d lines, %d differ, %d known differences)",
	    line - 1, differ, skipped);
	free(ours);
	free(golden);
	fw_launcher_stop(fw);
	return tap_finish();
}
