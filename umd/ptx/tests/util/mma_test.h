/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mma_test.h - what the tensor-core tests (test_ptx_mma, test_ptx_mma_ext,
 * test_ptx_mma_qs) share: reading the probe's hex lines, running one
 * kernel on one warp of the native test GPU, PTX register lists, and the
 * PTX ISA's mma.sync register packing.
 *
 * The packing is written out from the PTX ISA's figures on purpose, not
 * taken from include/vgpu_mma.h: the tests check vgpu_mma.h's layouts
 * against the documented ones and the recordings, not against
 * themselves.  Header-only (static inline): each test is one program.
 */
#ifndef MMA_TEST_H
#define MMA_TEST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_test.h"
#include "test_gpu.h"

/*
 * Parse "I x: hex hex ..." (or a "D ...:" line) into @buf, @max elements
 * of @es bytes each.  Returns how many were read.
 */
static inline unsigned int mma_parse_hex(const char *line, uint8_t *buf,
					 unsigned int es, unsigned int max)
{
	const char *q = strrchr(line, ':');
	unsigned int n = 0;

	while (q && n < max) {
		unsigned long long v;
		int used;

		if (sscanf(q + 1, " %llx%n", &v, &used) != 1)
			break;
		memcpy(buf + (size_t)n * es, &v, es);
		n++;
		q += used;
	}
	return n;
}

/* The PTX register list {%P0, %P1, ..., %Pn-1} for prefix @p ("ra", ...). */
static inline void mma_regs(char *buf, size_t len, const char *p,
			    unsigned int n)
{
	size_t o = (size_t)snprintf(buf, len, "{");

	for (unsigned int i = 0; i < n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%%%s%u",
				      i ? ", " : "", p, i);
	if (o < len)
		snprintf(buf + o, len - o, "}");
}

/*
 * Compile @text and run its kernel "k" on one warp with the four
 * pointers @p.  A compiler message goes to @msg when given (the error
 * tests read it), else it is printed as a diagnostic.
 */
static inline bool mma_run(struct test_gpu *gpu, const char *what,
			   const char *text, const uint64_t p[4], char *msg,
			   size_t msglen)
{
	const uint32_t grid[3] = { 1, 1, 1 }, block[3] = { 32, 1, 1 };
	char own[512], err[256];
	struct vgpu_core_fault f;
	struct tg_module m;
	void *img = NULL;
	size_t size;
	int r;

	if (t_compile("mma.ptx", text, &img, &size, msg ? msg : own,
		      msg ? msglen : sizeof(own))) {
		if (!msg)
			t_diag("%s: %s", what, own);
		free(img);
		return false;
	}
	if (tg_load(gpu, img, size, &m, err, sizeof(err))) {
		t_diag("%s: load: %s", what, err);
		free(img);
		return false;
	}
	free(img);
	r = tg_launch(gpu, &m, "k", grid, block, 0, p, 4 * sizeof(uint64_t),
		      &f);
	if (r)
		t_diag("%s: launch %d: %s", what, r, f.message);
	tg_unload(&m);
	return r == 0;
}

/*
 * The PTX ISA's mma.sync fragments (m16n8k* and m8n8k16/32/128, not
 * m8n8k4 f16, whose quad pairs test_ptx_mma_qs reads from the record).
 * g = lane / 4, t = lane % 4, e elements per register (32 / bits; f64:
 * one per 64-bit register), M rows (16 or 8):
 *   A: register r, element j at (g + 8 (r % 2), e t + j + 4e (r / 2))
 *      (8 rows: (g, e t + j + 4e r))
 *   B: register r, element j at (k, n) = (e t + j + 4e r, g)
 *   C: register r at (g + 8 (r / 2), 2t + r % 2)  (8 rows: (g, 2t + r))
 *   C of f16x2: register r holds (g + 8r, 2t) and (g + 8r, 2t + 1)
 */
static inline void mma_sync_a_pos(unsigned int m, unsigned int e,
				  unsigned int lane, unsigned int r,
				  unsigned int j, unsigned int *row,
				  unsigned int *col)
{
	unsigned int g = lane / 4, t = lane % 4;

	*row = m == 16 ? g + 8 * (r % 2) : g;
	*col = e * t + j + 4 * e * (m == 16 ? r / 2 : r);
}

static inline void mma_sync_b_pos(unsigned int e, unsigned int lane,
				  unsigned int r, unsigned int j,
				  unsigned int *k, unsigned int *n)
{
	*k = e * (lane % 4) + j + 4 * e * r;
	*n = lane / 4;
}

static inline void mma_sync_c_pos(unsigned int m, bool c16,
				  unsigned int lane, unsigned int r,
				  unsigned int *row, unsigned int *col)
{
	unsigned int g = lane / 4, t = lane % 4;

	if (c16) {
		*row = g + 8 * r;
		*col = 2 * t;
	} else {
		*row = m == 16 ? g + 8 * (r / 2) : g;
		*col = 2 * t + (m == 16 ? r % 2 : r);
	}
}

#endif /* MMA_TEST_H */
