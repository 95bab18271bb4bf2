// SPDX-License-Identifier: GPL-2.0
/*
 * counters.c - hardware counters computed from the accesses themselves.
 *
 * exec_mem.c calls counters_access() for every warp-level ld and st of a
 * grid that counts (vgpu_core_launch.counters), with the address of each
 * active lane.  What a request costs on NVIDIA's L1TEX is a function of
 * these addresses alone, so it is computed here exactly as Nsight
 * Compute defines it (include/vgpu_counters.h): distinct 32-byte sectors
 * for global and local memory, wavefronts and bank conflicts for shared
 * memory.  Counts go to the block (one SM thread runs all of a block's
 * warps: no atomics) and into the grid's counters when it retires.
 *
 * Documentation/profiler.rst compares the results with an H100.
 */
#include "core_internal.h"

/* Sort @v (n <= 128) and keep each value once; returns how many remain. */
static unsigned int distinct(uint64_t *v, unsigned int n)
{
	unsigned int k = 0;

	for (unsigned int i = 1; i < n; i++) {
		uint64_t x = v[i];
		unsigned int j = i;

		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	for (unsigned int i = 0; i < n; i++)
		if (!k || v[k - 1] != v[i])
			v[k++] = v[i];
	return k;
}

/*
 * The 4-byte words each active lane's @bytes touch (up to 4 per lane:
 * accesses are at most 16 bytes).  For local memory a lane's word w is
 * at (w * 32 + lane) in the warp's interleaved layout.
 */
static unsigned int lane_words(const uint64_t *addr, uint32_t mask,
			       uint32_t bytes, bool local, uint64_t *out)
{
	unsigned int n = 0;

	for (int l = 0; l < WARP_SIZE; l++) {
		uint64_t first, last;

		if (!((mask >> l) & 1))
			continue;
		first = addr[l] >> 2;
		last = (addr[l] + bytes - 1) >> 2;
		for (uint64_t w = first; w <= last && w < first + 4; w++)
			out[n++] = local ? w * WARP_SIZE + (uint64_t)l : w;
	}
	return n;
}

/* Distinct 32-byte sectors of the access (8 words to a sector). */
static uint64_t sectors(uint64_t *words, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		words[i] >>= 3;
	return distinct(words, n);
}

/* Wavefronts: the most distinct words any one bank must deliver. */
static void shared_cost(uint64_t *words, unsigned int n, uint64_t *wavefronts,
			uint64_t *conflicts)
{
	unsigned int per_bank[32] = { 0 }, most = 0, ideal;

	n = distinct(words, n);
	for (unsigned int i = 0; i < n; i++) {
		unsigned int c = ++per_bank[words[i] % 32];

		if (c > most)
			most = c;
	}
	ideal = (n + 31) / 32;
	if (!ideal)
		ideal = 1;
	*wavefronts += most;
	*conflicts += most - ideal;
}

/* Lanes of a generic access, split by the window their address is in. */
static uint32_t window_lanes(const uint64_t *addr, uint32_t mask,
			     uint64_t base, uint64_t *rel)
{
	uint32_t m = 0;

	for (int l = 0; l < WARP_SIZE; l++) {
		if (((mask >> l) & 1) && addr[l] - base < VISA_GENERIC_WINDOW_SIZE) {
			m |= 1u << l;
			rel[l] = addr[l] - base;
		}
	}
	return m;
}

/* The distinct sectors of a global request, through the L2 model. */
static void count_l2(struct block *b, const uint64_t *sector, unsigned int n)
{
	const struct vgpu_core_launch *l = b->g->l;
	struct vgpu_core_counters *c = &b->cnt;

	if (!l->l2)
		return;
	for (unsigned int i = 0; i < n; i++) {
		switch (vgpu_l2_access(l->l2, &l->l2_window, sector[i])) {
		case VGPU_L2_HIT_PERSISTING:
			c->l2_persisting_hits++;
			/* fallthrough */
		case VGPU_L2_HIT:
			c->l2_hits++;
			break;
		case VGPU_L2_MISS:
			c->l2_misses++;
			break;
		}
	}
	c->l2_sectors += n;
}

/*
 * Local memory through the L2 model: a real GPU backs each thread's local
 * memory with device memory, interleaved per warp, and caches it in the
 * L2 like any other line.  vGPU's local memory has no GPU address, so the
 * model gets one: past every GPU virtual address, a region of local_size
 * sectors (32 lanes x local_size bytes) per warp of the grid.  A real GPU
 * gives the region to a resident warp slot, which the next block on the
 * SM reuses; here every warp of the grid has its own, so a grid of many
 * spilling blocks reuses fewer lines than on the GPU.
 */
#define LOCAL_L2_BASE_SECTOR	((1ull << 56) >> 5)

static void count_local_l2(struct block *b, uint32_t warp, uint64_t *sector,
			   unsigned int n)
{
	const uint32_t *gd = b->g->l->grid;
	uint64_t blk = b->idx[0] + (uint64_t)gd[0] *
		       (b->idx[1] + (uint64_t)gd[1] * b->idx[2]);
	uint64_t base = LOCAL_L2_BASE_SECTOR +
			(blk * b->nwarps + warp) * b->g->local_size;

	for (unsigned int i = 0; i < n; i++)
		sector[i] += base;
	count_l2(b, sector, n);
}

static void count_space(struct block *b, uint32_t warp, int space,
			const uint64_t *addr, uint32_t mask, uint32_t bytes,
			bool store)
{
	struct vgpu_core_counters *c = &b->cnt;
	uint64_t words[WARP_SIZE * 4];
	unsigned int n;

	if (!mask)
		return;
	switch (space) {
	case VISA_SPACE_GLOBAL:
		n = lane_words(addr, mask, bytes, false, words);
		n = (unsigned int)sectors(words, n);
		if (store) {
			c->gst_requests++;
			c->gst_sectors += n;
		} else {
			c->gld_requests++;
			c->gld_sectors += n;
		}
		count_l2(b, words, n);
		break;
	case VISA_SPACE_LOCAL:
		n = lane_words(addr, mask, bytes, true, words);
		n = (unsigned int)sectors(words, n);
		if (store) {
			c->lst_requests++;
			c->lst_sectors += n;
		} else {
			c->lld_requests++;
			c->lld_sectors += n;
		}
		count_local_l2(b, warp, words, n);
		break;
	case VISA_SPACE_SHARED:
		n = lane_words(addr, mask, bytes, false, words);
		if (store) {
			c->sst_requests++;
			shared_cost(words, n, &c->sst_wavefronts,
				    &c->sst_conflicts);
		} else {
			c->sld_requests++;
			shared_cost(words, n, &c->sld_wavefronts,
				    &c->sld_conflicts);
		}
		break;
	}
	/* const and param reads are not L1TEX data traffic: not counted */
}

void counters_access(struct block *b, uint32_t warp, int space,
		     const uint64_t *addr, uint32_t mask, uint32_t bytes,
		     bool store)
{
	uint64_t rel[WARP_SIZE];
	uint32_t sh, lo;

	if (space != VISA_SPACE_GENERIC) {
		count_space(b, warp, space, addr, mask, bytes, store);
		return;
	}
	/* A generic access is a request to each space its lanes reach. */
	sh = window_lanes(addr, mask, VISA_GENERIC_SHARED_BASE, rel);
	count_space(b, warp, VISA_SPACE_SHARED, rel, sh, bytes, store);
	lo = window_lanes(addr, mask, VISA_GENERIC_LOCAL_BASE, rel);
	count_space(b, warp, VISA_SPACE_LOCAL, rel, lo, bytes, store);
	mask &= ~(sh | lo | window_lanes(addr, mask, VISA_GENERIC_PARAM_BASE,
					 rel));
	count_space(b, warp, VISA_SPACE_GLOBAL, addr, mask, bytes, store);
}

void counters_retire(struct block *b)
{
	struct vgpu_core_counters *g = b->g->l->counters;

	for (uint32_t w = 0; w < b->nwarps; w++) {
		b->cnt.warp_insns += b->warps[w].insns;
		b->cnt.thread_insns += b->warps[w].lane_insns;
	}
#define ADD_COUNTER(f, metric, unit, desc) \
	__atomic_fetch_add(&g->f, b->cnt.f, __ATOMIC_RELAXED);
	VGPU_COUNTERS(ADD_COUNTER)
#undef ADD_COUNTER
	memset(&b->cnt, 0, sizeof(b->cnt));
}
