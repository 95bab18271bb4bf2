// SPDX-License-Identifier: GPL-2.0
/*
 * test_core_sched.c - the GR engine's scheduler, observed from kernels
 * (tests/sched/sched_kernels.cu, compiled by nvcc and the PTX compiler):
 *
 *  - two grids active at once: every block of one waits for a flag the
 *    other sets (a one-grid-at-a-time engine never finishes the first);
 *  - the number of blocks alive at once on an SM is the occupancy
 *    formula, computed here by hand for each limit (threads, warps,
 *    blocks, shared memory) and also by include/vgpu_occupancy.h;
 *  - a high-priority grid submitted behind a long low-priority one gets
 *    its blocks before the low grid's remaining ones; among equal
 *    priorities the older grid goes first;
 *  - at most VGPU_CORE_MAX_GRIDS grids are active; one more is -EAGAIN;
 *  - two contexts: one spins forever, the other's grid still completes
 *    with correct results (time slices), then the spinner is stopped;
 *  - results computed under a tiny time slice with constant preemption
 *    equal the CPU reference, as do those of an undisturbed run;
 *  - the unmap grace period: after vgpu_core_tlb_synced() a running grid
 *    no longer writes the unmapped page, and faults on it instead;
 *  - progress and busy for the heartbeat, the execution time limit.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ptx/ptx_compiler.h"
#include "tap.h"
#include "test_gpu.h"
#include "vgpu_jit.h"
#include "vgpu_occupancy.h"

#ifndef SCHED_PTX
#define SCHED_PTX "build/tests/sched/sched_kernels.ptx"
#endif

static struct tap t;

/* ---- waiting for asynchronous grids --------------------------------------- */

struct waiter {
	pthread_mutex_t lock;
	pthread_cond_t cv;
	bool done;
	int result;
	struct vgpu_core_fault fault;
};

static void waiter_init(struct waiter *w)
{
	memset(w, 0, sizeof(*w));
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cv, NULL);
}

static void on_done(void *arg, int result, const struct vgpu_core_fault *f)
{
	struct waiter *w = arg;

	pthread_mutex_lock(&w->lock);
	w->result = result;
	w->fault = *f;
	w->done = true;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->lock);
}

/* Wait up to @secs for the grid; false if it has not ended by then. */
static bool wait_for(struct waiter *w, int secs)
{
	struct timespec ts;
	bool done;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += secs;
	pthread_mutex_lock(&w->lock);
	while (!w->done)
		if (pthread_cond_timedwait(&w->cv, &w->lock, &ts) == ETIMEDOUT)
			break;
	done = w->done;
	pthread_mutex_unlock(&w->lock);
	return done;
}

static bool is_done(struct waiter *w)
{
	bool done;

	pthread_mutex_lock(&w->lock);
	done = w->done;
	pthread_mutex_unlock(&w->lock);
	return done;
}

static int load(struct test_gpu *g, struct tg_module *m)
{
	static char *text;
	struct vgpu_ptx_source src;
	struct vgpu_ptx_diag diag;
	char err[256];
	void *img = NULL;
	size_t size = 0;
	int ret;

	if (!text)
		text = tg_read_text(SCHED_PTX);
	if (!text) {
		tap_diag("cannot read %s", SCHED_PTX);
		return -1;
	}
	memset(&src, 0, sizeof(src));
	src.name = SCHED_PTX;
	src.text = text;
	src.len = strlen(text);
	if (vgpu_ptx_compile(&src, 1, NULL, &img, &size, &diag)) {
		vgpu_ptx_format_diag(&diag, err, sizeof(err));
		tap_diag("compile: %s", err);
		return -1;
	}
	ret = tg_load(g, img, size, m, err, sizeof(err));
	if (ret)
		tap_diag("load: %s", err);
	free(img);
	return ret;
}

/* Submit kernel @name as a 1-D grid; 0 or the submit error. */
static int submit(struct test_gpu *g, struct tg_module *m, const char *name,
		  uint32_t blocks, uint32_t threads, uint32_t dyn,
		  const void *params, uint32_t psize, uint32_t ctx, int prio,
		  struct waiter *w)
{
	uint32_t grid[3] = { blocks, 1, 1 }, block[3] = { threads, 1, 1 };
	struct vgpu_core_launch l;
	struct vgpu_core_fault f;
	int ret = tg_launch_desc(g, m, name, grid, block, dyn, params, psize,
				 &l);

	if (ret)
		return ret;
	l.ctx_id = ctx;
	l.priority = prio;
	waiter_init(w);
	ret = vgpu_core_submit(g->core, &l, on_done, w, &f);
	if (ret)
		tap_diag("submit %s: %d (%s)", name, ret, f.message);
	return ret;
}

static uint32_t *u32(struct test_gpu *g, uint64_t va)
{
	return tg_host(g, va);
}

/* ---- two grids at once ---------------------------------------------------- */

static void test_handshake(unsigned int sms)
{
	struct test_gpu g;
	struct tg_module m;
	struct waiter w1, w2;
	uint64_t flag, out;
	uint32_t nblocks = 4 * sms, ok = 0;
	struct { uint64_t flag, out; } p1;
	uint64_t p2;

	if (tg_init(&g, sms) || load(&g, &m)) {
		tap_ok(&t, 0, "handshake (%u SMs): setup", sms);
		return;
	}
	flag = tg_alloc(&g, 4096);
	out = tg_alloc(&g, 4096);
	p1.flag = flag;
	p1.out = out;
	p2 = flag;
	tap_ok(&t, !submit(&g, &m, "wait_flag", nblocks, 32, 0, &p1,
			   sizeof(p1), 0, 0, &w1) &&
		   !submit(&g, &m, "set_flag", 1, 1, 0, &p2, sizeof(p2), 0, 0,
			   &w2),
	       "handshake (%u SMs): both grids submitted", sms);
	tap_ok(&t, wait_for(&w1, 120) && wait_for(&w2, 120) &&
		   w1.result == 0 && w2.result == 0,
	       "handshake (%u SMs): both grids complete", sms);
	for (uint32_t i = 0; i < nblocks; i++)
		ok += u32(&g, out)[i] == 1;
	tap_ok(&t, ok == nblocks,
	       "handshake (%u SMs): %u of %u waiting blocks saw the flag the "
	       "second grid set", sms, ok, nblocks);
	tg_unload(&m);
	tg_fini(&g);
}

/* ---- resident blocks ------------------------------------------------------- */

struct occ_case {
	uint32_t threads, dyn;
	uint32_t expect;	/* worked out by hand: see the comment */
	const char *limit;
};

static const struct occ_case occ_cases[] = {
	/* 8 warps each: 64 / 8 = 8 (2048 threads / 256 = 8 as well) */
	{ 256, 16, 8, "threads/warps" },
	/* 2 warps each: 64 / 2 = 32 = the block limit */
	{ 64, 16, 32, "blocks" },
	/* 1 warp each: the block limit, 32, not 64 */
	{ 32, 16, 32, "blocks" },
	/* 3 warps each: 64 / 3 = 21 */
	{ 96, 16, 21, "warps" },
	/* 32 warps each: 2 */
	{ 1024, 16, 2, "threads" },
	/* 100 KiB + 1 KiB reserved each: 228 / 101 = 2 */
	{ 32, 100 << 10, 2, "shared memory" },
	/* 7000 + 1024 bytes each: 233472 / 8024 = 29 */
	{ 32, 7000, 29, "shared memory" },
	/* 227 KiB + 1 KiB: exactly one */
	{ 32, 227 << 10, 1, "shared memory" },
};

static void test_occupancy(unsigned int sms)
{
	struct test_gpu g;
	struct tg_module m;

	if (tg_init(&g, sms) || load(&g, &m)) {
		tap_ok(&t, 0, "occupancy (%u SMs): setup", sms);
		return;
	}
	for (size_t i = 0; i < sizeof(occ_cases) / sizeof(occ_cases[0]); i++) {
		const struct occ_case *c = &occ_cases[i];
		const struct visa_kernel *k = vgpu_core_module_kernel(m.mod,
			(uint32_t)vgpu_core_module_find_kernel(m.mod,
							       "count_live"));
		uint32_t formula = vgpu_occupancy_blocks_per_sm(c->threads,
				vgpu_occupancy_block_shared(k, c->dyn));
		uint64_t cnt = tg_alloc(&g, 4096);
		struct { uint64_t c; uint32_t expect, pad; } p = {
			cnt, c->expect * sms, 0
		};
		struct waiter w;
		uint32_t *h = u32(&g, cnt);

		tap_ok(&t, formula == c->expect,
		       "occupancy: %u threads, %u B dynamic shared: header "
		       "formula %u, by hand %u (%s)", c->threads, c->dyn,
		       formula, c->expect, c->limit);
		/* two waves: the second must not overlap the first */
		/* the kernel's parameters: a pointer and a u32, 12 bytes */
		if (submit(&g, &m, "count_live", 2 * c->expect * sms,
			   c->threads, c->dyn, &p, 12, 0, 0, &w) ||
		    !wait_for(&w, 300) || w.result) {
			tap_ok(&t, 0, "occupancy (%u SMs): %u threads: ran (%s)",
			       sms, c->threads, w.fault.message);
			continue;
		}
		tap_ok(&t, h[1] == c->expect * sms && h[0] == 0 &&
			   h[2] == 2 * c->expect * sms,
		       "occupancy (%u SMs): %u threads, %u B shared: %u blocks "
		       "alive at once, expected %u", sms, c->threads, c->dyn,
		       h[1], c->expect * sms);
	}
	tg_unload(&m);
	tg_fini(&g);
}

/* ---- priorities ---------------------------------------------------------- */

static void test_priority(void)
{
	struct test_gpu g;
	struct tg_module m;
	struct waiter wl, wh;
	const uint32_t nlow = 200, nhigh = 4, dyn = 200 << 10;
	uint64_t counter, olow, ohigh;
	struct tparams { uint64_t counter, order; uint32_t work, pad; } pl, ph;
	uint32_t c0, c1, first = UINT32_MAX, last = 0, low_after = 0;
	bool contiguous;

	/* one SM, one block at a time (200 KiB of shared memory each) */
	if (tg_init(&g, 1) || load(&g, &m)) {
		tap_ok(&t, 0, "priority: setup");
		return;
	}
	counter = tg_alloc(&g, 4096);
	olow = tg_alloc(&g, 4096);
	ohigh = tg_alloc(&g, 4096);
	pl = (struct tparams){ counter, olow, 20000, 0 };
	ph = (struct tparams){ counter, ohigh, 10, 0 };
	/* two pointers and a u32: 20 bytes of parameters */
	if (submit(&g, &m, "ticket", nlow, 32, dyn, &pl, 20, 0,
		   VGPU_CORE_PRIO_LOWEST, &wl)) {
		tap_ok(&t, 0, "priority: low grid submitted");
		return;
	}
	while (!__atomic_load_n(u32(&g, counter), __ATOMIC_ACQUIRE))
		usleep(100);
	c0 = __atomic_load_n(u32(&g, counter), __ATOMIC_ACQUIRE);
	tap_ok(&t, !submit(&g, &m, "ticket", nhigh, 32, dyn, &ph, 20,
			   0, VGPU_CORE_PRIO_HIGHEST, &wh),
	       "priority: high grid submitted behind %u started low blocks",
	       c0);
	/* tickets drawn once it was active: one more low block at most
	 * (dispatched, not started yet) may come before it */
	c1 = __atomic_load_n(u32(&g, counter), __ATOMIC_ACQUIRE);
	tap_ok(&t, wait_for(&wh, 300) && wait_for(&wl, 300) && !wh.result &&
		   !wl.result, "priority: both grids complete");
	for (uint32_t i = 0; i < nhigh; i++) {
		uint32_t v = u32(&g, ohigh)[i];

		first = v < first ? v : first;
		last = v > last ? v : last;
	}
	contiguous = last - first == nhigh - 1;
	for (uint32_t i = 0; i < nlow; i++)
		low_after += u32(&g, olow)[i] > last;
	tap_ok(&t, c1 + 2 < nlow && first <= c1 + 1 && contiguous &&
		   low_after == nlow + nhigh - 1 - last,
	       "priority: high blocks drew tickets %u..%u (low had drawn %u "
	       "when it was active); %u low blocks came after", first,
	       last, c1, low_after);
	tg_unload(&m);
	tg_fini(&g);
}

/* Equal priorities: the older grid's blocks all come first. */
static void test_fifo_among_equals(void)
{
	struct test_gpu g;
	struct tg_module m;
	struct waiter w1, w2;
	const uint32_t n1 = 12, n2 = 4, dyn = 200 << 10;
	uint64_t counter, o1, o2;
	struct tparams { uint64_t counter, order; uint32_t work, pad; } p1, p2;
	uint32_t max1 = 0, min2 = UINT32_MAX;

	if (tg_init(&g, 1) || load(&g, &m)) {
		tap_ok(&t, 0, "fifo: setup");
		return;
	}
	counter = tg_alloc(&g, 4096);
	o1 = tg_alloc(&g, 4096);
	o2 = tg_alloc(&g, 4096);
	p1 = (struct tparams){ counter, o1, 2000, 0 };
	p2 = (struct tparams){ counter, o2, 10, 0 };
	tap_ok(&t, !submit(&g, &m, "ticket", n1, 32, dyn, &p1, 20, 0, -2, &w1) &&
		   !submit(&g, &m, "ticket", n2, 32, dyn, &p2, 20, 0, -2, &w2) &&
		   wait_for(&w1, 300) && wait_for(&w2, 300) && !w1.result &&
		   !w2.result, "fifo: two grids of priority -2 complete");
	for (uint32_t i = 0; i < n1; i++)
		max1 = u32(&g, o1)[i] > max1 ? u32(&g, o1)[i] : max1;
	for (uint32_t i = 0; i < n2; i++)
		min2 = u32(&g, o2)[i] < min2 ? u32(&g, o2)[i] : min2;
	tap_ok(&t, max1 == n1 - 1 && min2 == n1,
	       "fifo: the older grid's blocks drew tickets 0..%u, the younger "
	       "one's from %u", max1, min2);
	tg_unload(&m);
	tg_fini(&g);
}

/* VGPU_CORE_MAX_GRIDS grids at once; one more is refused until one ends. */
static void test_grid_limit(void)
{
	static struct waiter w[VGPU_CORE_MAX_GRIDS + 1];
	struct test_gpu g;
	struct tg_module m;
	uint64_t flag, spins;
	struct { uint64_t flag, spins; } ps;
	uint32_t grid[3] = { 1, 1, 1 }, block[3] = { 32, 1, 1 };
	struct vgpu_core_launch l;
	struct vgpu_core_fault f;
	unsigned int ok = 0, done = 0;
	int ret;

	if (tg_init(&g, 2) || load(&g, &m)) {
		tap_ok(&t, 0, "grid limit: setup");
		return;
	}
	flag = tg_alloc(&g, 4096);
	spins = tg_alloc(&g, 4096);
	ps.flag = flag;
	ps.spins = spins;
	tg_launch_desc(&g, &m, "spin_forever", grid, block, 0, &ps, sizeof(ps),
		       &l);
	for (unsigned int i = 0; i < VGPU_CORE_MAX_GRIDS; i++) {
		waiter_init(&w[i]);
		ok += !vgpu_core_submit(g.core, &l, on_done, &w[i], &f);
	}
	waiter_init(&w[VGPU_CORE_MAX_GRIDS]);
	ret = vgpu_core_submit(g.core, &l, on_done, &w[VGPU_CORE_MAX_GRIDS],
			       &f);
	tap_ok(&t, ok == VGPU_CORE_MAX_GRIDS && ret == -EAGAIN,
	       "grid limit: %u grids active, the next one: %d (-EAGAIN)", ok,
	       ret);
	__atomic_store_n(u32(&g, flag), 1u, __ATOMIC_RELEASE);
	for (unsigned int i = 0; i < VGPU_CORE_MAX_GRIDS; i++)
		done += wait_for(&w[i], 300) && !w[i].result;
	tap_ok(&t, done == VGPU_CORE_MAX_GRIDS,
	       "grid limit: all %u complete once the flag is set", done);
	tap_ok(&t, !vgpu_core_submit(g.core, &l, on_done,
				     &w[VGPU_CORE_MAX_GRIDS], &f) &&
		   wait_for(&w[VGPU_CORE_MAX_GRIDS], 300) &&
		   !w[VGPU_CORE_MAX_GRIDS].result,
	       "grid limit: then a new grid is accepted and runs");
	tg_unload(&m);
	tg_fini(&g);
}

/* ---- contexts and time slices ---------------------------------------------- */

static void lcg_reference(uint32_t *out, uint32_t blocks, uint32_t threads,
			  uint32_t rounds)
{
	uint32_t x[256], s[256];

	for (uint32_t b = 0; b < blocks; b++) {
		for (uint32_t t = 0; t < threads; t++)
			x[t] = b * threads + t;
		for (uint32_t r = 0; r < rounds; r++) {
			for (uint32_t t = 0; t < threads; t++) {
				x[t] = x[t] * 1664525u + 1013904223u;
				s[t] = x[t];
			}
			for (uint32_t t = 0; t < threads; t++)
				x[t] ^= s[(t + 1) % threads] >> 3;
		}
		memcpy(out + b * threads, x, threads * sizeof(*x));
	}
}

/*
 * Context 1 runs spin_forever on every SM slot it can get; context 2's
 * lcg_mix must still complete, and match the CPU.  @slice_us small:
 * preempted all the time.
 */
static void test_contexts(unsigned int slice_us, bool spinner)
{
	struct vgpu_core_config cfg = { .num_sms = 1, .timeslice_us = slice_us };
	const uint32_t blocks = 6, threads = 128, rounds = 300;
	struct test_gpu g;
	struct tg_module m;
	struct waiter ws, ww;
	uint64_t flag, spins, out;
	struct { uint64_t flag, spins; } ps;
	struct { uint64_t out; uint32_t rounds, pad; } pw;
	uint32_t *ref = calloc(blocks * threads, sizeof(*ref));
	uint32_t spun;

	if (!ref || tg_init_cfg(&g, &cfg) || load(&g, &m)) {
		tap_ok(&t, 0, "contexts: setup");
		free(ref);
		return;
	}
	flag = tg_alloc(&g, 4096);
	spins = tg_alloc(&g, 4096);
	out = tg_alloc(&g, blocks * threads * 4);
	ps.flag = flag;
	ps.spins = spins;
	pw.out = out;
	pw.rounds = rounds;
	pw.pad = 0;
	lcg_reference(ref, blocks, threads, rounds);
	/* 2 blocks of 1024 threads fill the SM's 64 warps */
	if (spinner && submit(&g, &m, "spin_forever", 2, 1024, 0, &ps,
			      sizeof(ps), 1, 0, &ws)) {
		tap_ok(&t, 0, "contexts: spinner submitted");
		return;
	}
	if (spinner)
		while (!__atomic_load_n(u32(&g, spins), __ATOMIC_ACQUIRE))
			usleep(100);
	/* a pointer and a u32: 12 bytes */
	if (submit(&g, &m, "lcg_mix", blocks, threads, 0, &pw, 12, 2,
		   0, &ww)) {
		tap_ok(&t, 0, "contexts: worker submitted");
		return;
	}
	tap_ok(&t, wait_for(&ww, 300) && !ww.result,
	       "slice %u us%s: the working context's grid completes",
	       slice_us, spinner ? ", other context spinning" : "");
	tap_ok(&t, !memcmp(ref, u32(&g, out), blocks * threads * 4),
	       "slice %u us%s: its results equal the CPU's", slice_us,
	       spinner ? ", preempted" : "");
	if (spinner) {
		spun = __atomic_load_n(u32(&g, spins), __ATOMIC_ACQUIRE);
		for (int i = 0; i < 100000 &&
		     __atomic_load_n(u32(&g, spins), __ATOMIC_ACQUIRE) == spun;
		     i++)
			usleep(100);
		tap_ok(&t, !is_done(&ws) &&
			   __atomic_load_n(u32(&g, spins), __ATOMIC_ACQUIRE) >
			   spun,
		       "slice %u us: the spinner still runs after it", slice_us);
		tap_ok(&t, vgpu_core_busy(g.core), "busy while a grid is active");
		tap_ok(&t, vgpu_core_stop_ctx(g.core, 1) && wait_for(&ws, 60) &&
			   ws.result == 1 && ws.fault.kind == VISA_FAULT_STOPPED,
		       "slice %u us: stopping its context ends the spinner",
		       slice_us);
		/* busy until the callback has returned */
		for (int i = 0; i < 10000 && vgpu_core_busy(g.core); i++)
			usleep(100);
		tap_ok(&t, !vgpu_core_busy(g.core),
		       "not busy once every grid ended");
	}
	free(ref);
	tg_unload(&m);
	tg_fini(&g);
}

/* ---- the unmap grace period ------------------------------------------------ */

static void test_grace_period(void)
{
	struct test_gpu g;
	struct tg_module m;
	struct waiter w;
	uint64_t page, stop, ticket;
	struct { uint64_t p, stop; } pp;
	uint32_t seen, later, *hp;
	int tries = 0;

	if (tg_init(&g, 2) || load(&g, &m)) {
		tap_ok(&t, 0, "grace period: setup");
		return;
	}
	page = tg_alloc(&g, 65536);
	stop = tg_alloc(&g, 4096);
	pp.p = page;
	pp.stop = stop;
	if (submit(&g, &m, "keep_writing", 1, 32, 0, &pp, sizeof(pp), 0, 0,
		   &w)) {
		tap_ok(&t, 0, "grace period: grid submitted");
		return;
	}
	hp = u32(&g, page);	/* tg_host() knows no unmapped page */
	while (!__atomic_load_n(hp, __ATOMIC_ACQUIRE))
		usleep(100);
	/* the driver's unmap: page tables first, then the shootdown */
	tg_unmap(&g, page);
	ticket = vgpu_core_tlb_invalidate(g.core);
	while (!vgpu_core_tlb_synced(g.core, ticket) && tries++ < 100000)
		usleep(100);
	tap_ok(&t, vgpu_core_tlb_synced(g.core, ticket),
	       "grace period: every SM dropped its translations");
	/* from here the memory could be freed: nothing may write it */
	seen = __atomic_load_n(hp, __ATOMIC_ACQUIRE);
	tap_ok(&t, wait_for(&w, 60) && w.result == 1 &&
		   w.fault.kind == VISA_FAULT_UNMAPPED && w.fault.address == page,
	       "grace period: the running grid faults on the unmapped page "
	       "(%s at 0x%llx)", vgpu_core_fault_name(w.fault.kind),
	       (unsigned long long)w.fault.address);
	usleep(20000);
	later = __atomic_load_n(hp, __ATOMIC_ACQUIRE);
	tap_ok(&t, later == seen,
	       "grace period: no write after it ended (%u, then %u)", seen,
	       later);
	tg_unload(&m);
	tg_fini(&g);
}

/* ---- progress, stop by grid id, execution limit -------------------------- */

static void test_progress_and_limit(void)
{
	struct test_gpu g;
	struct tg_module m;
	struct waiter w;
	uint64_t flag, spins, p0, p1;
	struct { uint64_t flag, spins; } ps;
	uint32_t grid[3] = { 1, 1, 1 }, block[3] = { 32, 1, 1 };
	struct vgpu_core_launch l;
	struct vgpu_core_fault f;

	if (tg_init(&g, 1) || load(&g, &m)) {
		tap_ok(&t, 0, "progress: setup");
		return;
	}
	/*
	 * The native code first: compiling spin_forever in the SM thread
	 * took 0.2-1.2 s under ASan on a loaded host, and the grid's 500 ms
	 * limit then ran out before its first quantum was retired.
	 */
	vgpu_jit_module_compile(m.mod, -1);
	flag = tg_alloc(&g, 4096);
	spins = tg_alloc(&g, 4096);
	ps.flag = flag;
	ps.spins = spins;
	tap_ok(&t, !vgpu_core_busy(g.core) && vgpu_core_progress(g.core) == 0,
	       "progress: idle core, nothing retired");
	tg_launch_desc(&g, &m, "spin_forever", grid, block, 0, &ps, sizeof(ps),
		       &l);
	l.grid_id = 77;
	/*
	 * Long enough that the grid still runs when the loop below looks,
	 * on a loaded host under ASan too (at 50 ms it sometimes ended
	 * first); the grid still ends by this limit, checked below.
	 */
	l.exec_limit_us = 500000;
	waiter_init(&w);
	tap_ok(&t, !vgpu_core_submit(g.core, &l, on_done, &w, &f),
	       "progress: spinner with a 500 ms execution limit submitted");
	while (!__atomic_load_n(u32(&g, spins), __ATOMIC_ACQUIRE) &&
	       !is_done(&w))
		usleep(100);
	/* it moves while the grid runs (however slowly the machine goes) */
	p0 = vgpu_core_progress(g.core);
	p1 = p0;
	while (p1 == p0 && !is_done(&w)) {
		usleep(100);
		p1 = vgpu_core_progress(g.core);
	}
	tap_ok(&t, p1 > p0,
	       "progress: grows while a grid runs (%llu, then %llu)",
	       (unsigned long long)p0, (unsigned long long)p1);
	tap_ok(&t, !vgpu_core_stop_grid(g.core, 78),
	       "stop_grid of another grid id stops nothing");
	tap_ok(&t, wait_for(&w, 120) && w.result == 1 &&
		   w.fault.kind == VISA_FAULT_TIMEOUT,
	       "execution limit: the grid ends with %s",
	       vgpu_core_fault_name(w.fault.kind));
	tap_ok(&t, !vgpu_core_stop_grid(g.core, 77),
	       "stop_grid of an ended grid stops nothing");
	tg_unload(&m);
	tg_fini(&g);
}

int main(void)
{
	printf("TAP version 13\n");
	test_handshake(1);
	test_handshake(2);
	test_occupancy(1);
	test_occupancy(2);
	test_priority();
	test_fifo_among_equals();
	test_grid_limit();
	test_contexts(20, true);
	test_contexts(1000000, false);
	test_contexts(2000, true);
	test_grace_period();
	test_progress_and_limit();
	printf("1..%d\n", t.n);
	return tap_done(&t);
}
