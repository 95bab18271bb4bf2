// SPDX-License-Identifier: GPL-2.0
/*
 * test_l2_model - the L2 model (firmware_sim/core/l2.c) on its own.
 *
 * 1. What a cache must do, exactly: a region that fits is all misses
 *    once and all hits after; sectors of a present line miss until they
 *    are touched; a persisting window keeps its lines through a stream
 *    twice the L2, a reset or a zero set-aside does not; hitRatio keeps
 *    that share of the window's lines; streaming lines go first.
 * 2. The CUDA Best Practices Guide's experiment (tools/cuda-probe/
 *    probe_l2.cu, l2_window) replayed through the model warp by warp at
 *    the size the device reports, against the H100's Nsight Compute
 *    recording of the same program (tests/golden/probe_l2.h100.csv,
 *    sizes in fractions of each L2).  The model is not the H100's L2
 *    (Documentation/profiler.rst says where it differs), so the test
 *    compares the shape: every assertion is checked on the recording
 *    too, and must hold on both.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "vgpu_l2.h"
#include "vgpu_counters.h"
#include "../tools/prof/tests/ncu_csv.h"

#ifndef GOLDEN_CSV
#error "build with -DGOLDEN_CSV"
#endif

#define L		((uint64_t)VGPU_L2_BYTES)
#define SECTOR		VGPU_L2_SECTOR_BYTES
#define BASE_A		0x100000000ull	/* regions far apart */
#define BASE_B		0x200000000ull
#define BASE_P		0x300000000ull
#define BASE_S		0x400000000ull

static struct tap t;

struct tally {
	uint64_t hits, misses, persisting;
};

static void touch(struct vgpu_l2 *l2, const struct vgpu_l2_window *w,
		  uint64_t addr, struct tally *c)
{
	switch (vgpu_l2_access(l2, w, addr / SECTOR)) {
	case VGPU_L2_HIT_PERSISTING:
		c->persisting++;
		/* fallthrough */
	case VGPU_L2_HIT:
		c->hits++;
		break;
	case VGPU_L2_MISS:
		c->misses++;
		break;
	}
}

/* Every sector of [base, base + bytes) once, in order. */
static struct tally sweep(struct vgpu_l2 *l2, const struct vgpu_l2_window *w,
			  uint64_t base, uint64_t bytes)
{
	struct tally c = { 0 };

	for (uint64_t a = 0; a < bytes; a += SECTOR)
		touch(l2, w, base + a, &c);
	return c;
}

static double rate(const struct tally *c)
{
	uint64_t n = c->hits + c->misses;

	return n ? 100.0 * (double)c->hits / (double)n : 0;
}

static void test_basics(void)
{
	struct vgpu_l2 *l2 = vgpu_l2_create(L);
	struct tally c;

	tap_ok(&t, l2 != NULL, "an L2 of the device's size is created");
	tap_ok(&t, vgpu_l2_create(L + 128) == NULL && vgpu_l2_create(0) == NULL,
	       "a size that is not whole sets is refused");
	vgpu_l2_configure(l2, 0, false);
	c = sweep(l2, NULL, BASE_A, L / 4);
	tap_ok(&t, c.hits == 0 && c.misses == L / 4 / SECTOR,
	       "a cold quarter of the L2: every sector misses (%llu)",
	       (unsigned long long)c.misses);
	c = sweep(l2, NULL, BASE_A, L / 4);
	tap_ok(&t, c.misses == 0 && c.hits == L / 4 / SECTOR,
	       "read again: every sector hits (%llu misses)",
	       (unsigned long long)c.misses);

	/* sectors of a present line: the other three still miss */
	c = (struct tally){ 0 };
	touch(l2, NULL, BASE_B, &c);
	touch(l2, NULL, BASE_B + 32, &c);
	touch(l2, NULL, BASE_B, &c);
	touch(l2, NULL, BASE_B + 96, &c);
	tap_ok(&t, c.hits == 1 && c.misses == 3,
	       "32-byte sectors of a 128-byte line are filled one by one");

	/* twice the L2 in a cycle: LRU keeps almost nothing */
	sweep(l2, NULL, BASE_B, 2 * L);
	c = sweep(l2, NULL, BASE_B, 2 * L);
	tap_ok(&t, rate(&c) < 2.0,
	       "a stream twice the L2 read twice: %.2f %% hits (< 2)", rate(&c));
	c = sweep(l2, NULL, BASE_A, L / 4);
	tap_ok(&t, rate(&c) < 2.0,
	       "... and it evicted the quarter: %.2f %% hits", rate(&c));
	vgpu_l2_destroy(l2);
}

/* P (half the L2) read, a 2L stream, P again: how much of P is left. */
static double persisted(struct vgpu_l2 *l2, const struct vgpu_l2_window *w,
			struct tally *last)
{
	sweep(l2, w, BASE_P, L / 2);
	sweep(l2, w, BASE_S, 2 * L);
	*last = sweep(l2, w, BASE_P, L / 2);
	return rate(last);
}

static void test_persisting(void)
{
	struct vgpu_l2 *l2 = vgpu_l2_create(L);
	struct vgpu_l2_window w = {
		.base = BASE_P, .bytes = L / 2, .hit_ratio = 1u << 24,
		.hit_prop = VGPU_L2_PROP_PERSISTING,
		.miss_prop = VGPU_L2_PROP_STREAMING,
	};
	struct tally c;
	double r;

	vgpu_l2_configure(l2, VGPU_L2_PERSIST_MAX, true);
	r = persisted(l2, NULL, &c);
	tap_ok(&t, r < 2.0, "no window: half the L2 does not survive a 2L "
	       "stream (%.2f %% hits)", r);
	r = persisted(l2, &w, &c);
	/* sets get 8 of its lines on average: those given more than 10
	 * (hashing is not even) keep 10 */
	tap_ok(&t, r > 90.0 && c.persisting == c.hits,
	       "a persisting window of it (set-aside 10/16): %.2f %% hits, "
	       "all on persisting lines", r);

	/* the lines stay persisting without the window, until a reset */
	sweep(l2, NULL, BASE_S, 2 * L);
	c = sweep(l2, NULL, BASE_P, L / 2);
	tap_ok(&t, rate(&c) > 90.0, "they persist for launches without the "
	       "window too (%.2f %%)", rate(&c));
	vgpu_l2_configure(l2, VGPU_L2_PERSIST_MAX, true);
	sweep(l2, NULL, BASE_S, 2 * L);
	c = sweep(l2, NULL, BASE_P, L / 2);
	tap_ok(&t, rate(&c) < 2.0, "a reset makes them normal: evicted "
	       "(%.2f %%)", rate(&c));

	/* no set-aside: the window persists nothing */
	vgpu_l2_configure(l2, 0, true);
	r = persisted(l2, &w, &c);
	tap_ok(&t, r < 2.0 && c.persisting == 0,
	       "a zero set-aside persists nothing (%.2f %%)", r);

	/* a set-aside smaller than the window: at most its share stays */
	vgpu_l2_configure(l2, 4 * VGPU_L2_PERSIST_UNIT, true);
	r = persisted(l2, &w, &c);
	tap_ok(&t, r > 40.0 && r <= 50.0,
	       "a set-aside of a quarter keeps at most half of a half-L2 "
	       "window (%.2f %%)", r);

	/* hitRatio 0.5: half of the window's lines persist */
	vgpu_l2_configure(l2, VGPU_L2_PERSIST_MAX, true);
	w.hit_ratio = 1u << 23;
	r = persisted(l2, &w, &c);
	tap_ok(&t, r > 45.0 && r < 55.0,
	       "hitRatio 0.5 keeps half of the window (%.2f %%)", r);

	/* streaming: inserted as the oldest, the first to go */
	vgpu_l2_configure(l2, 0, true);
	w.hit_ratio = 1u << 24;
	w.hit_prop = VGPU_L2_PROP_STREAMING;
	w.base = BASE_S;
	w.bytes = 2 * L;
	sweep(l2, NULL, BASE_P, L / 2);
	sweep(l2, &w, BASE_S, 2 * L);
	c = sweep(l2, NULL, BASE_P, L / 2);
	tap_ok(&t, rate(&c) > 90.0, "a 2L stream marked streaming leaves the "
	       "normal half-L2 in place (%.2f %% hits)", rate(&c));
	vgpu_l2_destroy(l2);
}

/*
 * The guide's kernel, warp by warp: each thread loads and stores
 * persistent[tid % freq] and then streaming[tid % data] (ints).
 */
static double guide_launch(struct vgpu_l2 *l2, const struct vgpu_l2_window *w,
			   uint64_t data, uint64_t freq)
{
	struct tally c = { 0 };

	for (uint64_t warp = 0; warp < data / 32; warp++) {
		uint64_t p = warp * 32 % freq * 4, s = warp * 32 % data * 4;

		for (int rep = 0; rep < 2; rep++)	/* ld, st */
			for (uint64_t a = 0; a < 128; a += SECTOR)
				touch(l2, w, BASE_P + p + a, &c);
		for (int rep = 0; rep < 2; rep++)
			for (uint64_t a = 0; a < 128; a += SECTOR)
				touch(l2, w, BASE_S + s + a, &c);
	}
	return rate(&c);
}

#define MAX8	12

struct curve {
	double hit[2][MAX8 + 1];	/* [window][size in 8ths of the L2] */
};

/* the probe's sequence: flush, two launches, the second one counts */
static void model_curve(struct curve *m)
{
	struct vgpu_l2 *l2 = vgpu_l2_create(L);
	uint64_t lim = VGPU_L2_PERSIST_MAX, data = 2 * L / 4;

	for (int mode = 0; mode < 2; mode++) {
		for (int k = 1; k <= MAX8; k++) {
			uint64_t freq = L * (uint64_t)k / 8 / 4;
			double ratio = (double)lim / (double)(freq * 4);
			struct vgpu_l2_window w = {
				.base = BASE_P, .bytes = freq * 4,
				.hit_ratio = (uint32_t)((ratio > 1 ? 1 : ratio) *
						       16777216.0 + 0.5),
				.hit_prop = VGPU_L2_PROP_PERSISTING,
				.miss_prop = VGPU_L2_PROP_STREAMING,
			};

			vgpu_l2_configure(l2, lim, true);
			sweep(l2, NULL, BASE_B, 2 * L);
			sweep(l2, NULL, BASE_B, 2 * L);
			guide_launch(l2, mode ? &w : NULL, data, freq);
			m->hit[mode][k] = guide_launch(l2, mode ? &w : NULL,
						       data, freq);
		}
	}
	vgpu_l2_destroy(l2);
}

struct h100_rows {
	long long hit[NCU_MAX_LAUNCHES], miss[NCU_MAX_LAUNCHES];
};

static void take(void *arg, int id, const char *kernel, const char *metric,
		 long long value)
{
	struct h100_rows *r = arg;

	(void)kernel;
	if (!strcmp(metric, "lts__t_sectors_lookup_hit.sum"))
		r->hit[id] = value;
	else if (!strcmp(metric, "lts__t_sectors_lookup_miss.sum"))
		r->miss[id] = value;
}

/* launch IDs of probe_l2: 7 before the experiment, 4 per (mode, size) */
static bool h100_curve(struct curve *h)
{
	static struct h100_rows r;
	char *text = ncu_read_file(GOLDEN_CSV);
	int n;

	if (!text)
		return false;
	n = ncu_rows(text, take, &r);
	free(text);
	if (n != 7 + 4 * 2 * MAX8)
		return false;
	for (int mode = 0; mode < 2; mode++)
		for (int k = 1; k <= MAX8; k++) {
			int id = 7 + 4 * (mode * MAX8 + k - 1) + 3;

			h->hit[mode][k] = 100.0 * (double)r.hit[id] /
					  (double)(r.hit[id] + r.miss[id]);
		}
	return true;
}

/* The shape, as assertions that must hold for the H100 and the model. */
static void check_shape(const char *who, const struct curve *c)
{
	const double *no = c->hit[0], *win = c->hit[1];
	bool ok;

	tap_diag("%s: size/L2  no window  window", who);
	for (int k = 1; k <= MAX8; k++)
		tap_diag("%s:   %2d/8    %6.2f %%  %6.2f %%", who, k, no[k],
			 win[k]);
	tap_ok(&t, no[1] > 65 && win[1] > 65,
	       "%s: a persistent region of 1/8 L2 is re-read from the L2 "
	       "(> 65 %% of all sectors; 75 %% is every reuse)", who);
	tap_ok(&t, no[MAX8] > 48 && no[MAX8] < 56 && no[1] - no[MAX8] > 15,
	       "%s: without a window, a region of 12/8 L2 falls to the "
	       "stream's own reuse (~50 %%)", who);
	ok = true;
	for (int k = 1; k <= MAX8; k++)
		ok &= win[k] >= no[k] - 1.0;
	tap_ok(&t, ok, "%s: the window never costs hits", who);
	tap_ok(&t, win[4] - no[4] > 8 && win[5] - no[5] > 8,
	       "%s: at 4/8 and 5/8 (within the 10/16 set-aside) the window "
	       "keeps > 8 points more", who);
	tap_ok(&t, win[MAX8] < win[5] && win[8] < win[5] &&
	       win[MAX8] - no[MAX8] < win[5] - no[5],
	       "%s: past the set-aside (hitRatio < 1) the gain shrinks with "
	       "the window", who);
}

int main(void)
{
	struct curve h = { 0 }, m = { 0 };
	bool have;

	tap_plan(7 + 8 + 1 + 2 * 5);
	test_basics();
	test_persisting();
	have = h100_curve(&h);
	tap_ok(&t, have, "the H100 recording has the experiment's %d launches",
	       7 + 4 * 2 * MAX8);
	check_shape("H100", &h);
	model_curve(&m);
	check_shape("model", &m);
	return tap_done(&t);
}
