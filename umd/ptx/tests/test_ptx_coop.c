// SPDX-License-Identifier: GPL-2.0
/*
 * test_ptx_coop - cooperative grids and thread-block clusters on the
 * execution core, with nvcc's PTX (cu/coop.cu) on a core of three SMs:
 *
 *  - grid.sync() in a cooperative grid as large as the SMs hold (so its
 *    blocks are spread over all of them, admitted as one gang) computes
 *    what the CPU computes; the same kernel launched without the flag
 *    traps (is_valid() is false: %envreg1:2 read 0), and one block more
 *    than the SMs hold is refused at submission;
 *  - the cluster registers of a 2x2x1 cluster shape in a 4x2x2 grid are
 *    the PTX ISA's, block by block;
 *  - a histogram in distributed shared memory (generic mapa and atomics
 *    into other blocks' shared memory, barrier.cluster), with clusters of
 *    2 and of 4 blocks of 1024 threads - two SMs' worth, so a cluster
 *    waits until two SMs have room at once - matches the CPU;
 *  - mapa.shared::cluster / st / ld.shared::cluster / getctarank pass a
 *    value around a ring of blocks;
 *  - bad cluster shapes are refused.
 *
 * The launches run on the tier the module has (native unless VGPU_TIER
 * says otherwise); `make check` runs the test on both.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_test.h"
#include "test_gpu.h"
#include "vgpu_occupancy.h"

#define SMS 3
#define BINS 64

static struct test_gpu g;
static struct tg_module m;

static int launch(const char *name, const uint32_t grid[3],
		  const uint32_t block[3], const void *params, uint32_t psize,
		  bool coop, const uint32_t *cluster,
		  struct vgpu_core_fault *f)
{
	struct vgpu_core_launch l;

	memset(f, 0, sizeof(*f));
	if (tg_launch_desc(&g, &m, name, grid, block, 0, params, psize, &l))
		return -ENOENT;
	l.cooperative = coop;
	if (coop)
		l.grid_sync_va = tg_alloc(&g, 8);
	if (cluster)
		memcpy(l.cluster, cluster, sizeof(l.cluster));
	return vgpu_core_launch(g.core, &l, f);
}

static void test_grid_sync(void)
{
	const uint32_t block[3] = { 256, 1, 1 };
	uint32_t per_sm = vgpu_occupancy_blocks_per_sm(256, 1024 + 16);
	uint32_t grid[3] = { SMS * per_sm, 1, 1 };
	int n = (int)(grid[0] * block[0]), rounds = 4;
	uint64_t a = tg_alloc(&g, n * 4), b = tg_alloc(&g, n * 4);
	int *ha = tg_host(&g, a), *want = malloc(n * 4), *tmp = malloc(n * 4);
	struct vgpu_core_fault f;
	struct { uint64_t a, b; int n, rounds; } p = { a, b, n, rounds };
	int r;

	for (int i = 0; i < n; i++)
		ha[i] = want[i] = (i * 7919) % 1000 - 500;
	for (int k = 0; k < rounds; k++) {
		for (int i = 0; i < n; i++)
			tmp[i] = want[i] + want[(i + 1) % n];
		memcpy(want, tmp, n * 4);
	}
	r = launch("grid_rounds", grid, block, &p, sizeof(p), true, NULL, &f);
	t_ok(r == 0, "cooperative grid of %u blocks over %d SMs runs (%d %s)",
	     grid[0], SMS, r, f.message);
	t_ok(!memcmp(ha, want, n * 4),
	     "%d grid.sync() rounds over %d threads match the CPU", rounds, n);

	grid[0] = 2;
	r = launch("grid_rounds", grid, block, &p, sizeof(p), false, NULL, &f);
	t_ok(r == 1 && f.kind == VISA_FAULT_TRAP,
	     "grid.sync() in a plain launch traps (%d, fault %u)", r, f.kind);

	grid[0] = SMS * per_sm + 1;
	r = launch("grid_rounds", grid, block, &p, sizeof(p), true, NULL, &f);
	t_ok(r == -EINVAL && f.kind == VISA_FAULT_OUT_OF_RESOURCES,
	     "a cooperative grid one block larger is refused: %s", f.message);
	free(want);
	free(tmp);
}

static void test_cluster_regs(void)
{
	const uint32_t grid[3] = { 4, 2, 2 }, block[3] = { 32, 1, 1 };
	const uint32_t shape[3] = { 2, 2, 1 };
	uint64_t o = tg_alloc(&g, 16 * 12 * 4);
	const uint32_t *h = tg_host(&g, o);
	struct vgpu_core_fault f;
	unsigned int bad = 0;

	t_ok(launch("cluster_regs", grid, block, &o, 8, false, shape, &f) == 0,
	     "cluster_regs with clusters of 2x2x1 runs %s", f.message);
	for (uint32_t z = 0; z < 2; z++)
		for (uint32_t y = 0; y < 2; y++)
			for (uint32_t x = 0; x < 4; x++) {
				const uint32_t *v = h + ((z * 2 + y) * 4 + x) * 12;
				uint32_t want[12] = {
					x / 2, y / 2, z, 2, 2, x % 2, y % 2, 2,
					x % 2 + (y % 2) * 2, 4, 1, 1,
				};

				for (int k = 0; k < 12; k++)
					if (v[k] != want[k] && bad++ < 4)
						t_diag("block %u,%u,%u register %d: %u, want %u",
						       x, y, z, k, v[k], want[k]);
			}
	t_ok(!bad, "every cluster register of 16 blocks is right (%u wrong)",
	     bad);
}

static void test_cluster_hist(uint32_t csize, uint32_t threads)
{
	const int n = 20000;
	const uint32_t grid[3] = { 4 * csize, 1, 1 }, block[3] = { threads, 1, 1 };
	const uint32_t shape[3] = { csize, 1, 1 };
	uint64_t in = tg_alloc(&g, n * 4), bins = tg_alloc(&g, BINS * 4);
	int *hin = tg_host(&g, in), *hb = tg_host(&g, bins), want[BINS] = { 0 };
	struct { uint64_t in; int n; int pad; uint64_t bins; } p = {
		in, n, 0, bins };
	struct vgpu_core_fault f;

	for (int i = 0; i < n; i++) {
		hin[i] = (int)(((unsigned)i * 2654435761u) >> 9 & 0xffff);
		want[hin[i] % BINS]++;
	}
	memset(hb, 0, BINS * 4);
	t_ok(launch("cluster_hist", grid, block, &p, sizeof(p), false, shape,
		    &f) == 0, "DSMEM histogram, clusters of %u x %u threads, runs %s",
	     csize, threads, f.message);
	t_ok(!memcmp(hb, want, sizeof(want)),
	     "DSMEM histogram of %d items, clusters of %u: matches the CPU", n,
	     csize);
}

static void test_cluster_ring(void)
{
	const uint32_t grid[3] = { 8, 1, 1 }, block[3] = { 64, 1, 1 };
	const uint32_t shape[3] = { 4, 1, 1 };
	uint64_t o = tg_alloc(&g, 8 * 4);
	const uint32_t *h = tg_host(&g, o);
	struct vgpu_core_fault f;
	unsigned int bad = 0;

	t_ok(launch("cluster_ring", grid, block, &o, 8, false, shape, &f) == 0,
	     "cluster_ring runs %s", f.message);
	for (uint32_t b = 0; b < 8; b++) {
		uint32_t rank = b % 4, left = (rank + 3) % 4;
		uint32_t want = (left + 100) | ((rank + 1) % 4) << 16;

		if (h[b] != want && bad++ < 4)
			t_diag("block %u: %#x, want %#x", b, h[b], want);
	}
	t_ok(!bad, "st/ld.shared::cluster through mapa and getctarank pass values around the ring");
}

static void test_bad_shapes(void)
{
	const uint32_t block[3] = { 1024, 1, 1 }, grid[3] = { 16, 1, 1 };
	const uint32_t big[3] = { 16, 1, 1 }, three[3] = { 3, 1, 1 };
	const uint32_t huge[3] = { 17, 1, 1 };
	uint64_t o = tg_alloc(&g, 4096);
	struct vgpu_core_fault f;

	t_ok(launch("cluster_regs", grid, block, &o, 8, false, big, &f) ==
	     -EINVAL && f.kind == VISA_FAULT_OUT_OF_RESOURCES,
	     "a cluster of 16 x 1024 threads on %d SMs is refused: %s", SMS,
	     f.message);
	t_ok(launch("cluster_regs", grid, block, &o, 8, false, three, &f) ==
	     -EINVAL, "a cluster of 3 in a grid of 16 is refused: %s",
	     f.message);
	t_ok(launch("cluster_regs", big, block, &o, 8, false, huge, &f) ==
	     -EINVAL, "a cluster of 17 is refused: %s", f.message);
}

int main(void)
{
	char path[512], msg[512], err[256];
	void *img = NULL;
	size_t size;
	char *text;

	t_start();
	snprintf(path, sizeof(path), "%s/sm_90/coop.ptx", PTX_TEST_DATA);
	text = t_read_file(path, NULL);
	if (!t_ok(text && !t_compile(path, text, &img, &size, msg, sizeof(msg)),
		  "nvcc's coop.ptx compiles %s", msg))
		goto out;
	if (!t_ok(!tg_init(&g, SMS), "native test GPU of %d SMs", SMS))
		goto out;
	if (!t_ok(!tg_load(&g, img, size, &m, err, sizeof(err)),
		  "the core loads coop.ptx %s", err))
		goto fini;
	test_grid_sync();
	test_cluster_regs();
	test_cluster_hist(2, 128);
	test_cluster_hist(4, 1024);
	test_cluster_ring();
	test_bad_shapes();
	tg_unload(&m);
fini:
	tg_fini(&g);
out:
	free(img);
	free(text);
	return t_done();
}
