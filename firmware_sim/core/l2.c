// SPDX-License-Identifier: GPL-2.0
/*
 * l2.c - the L2 model (vgpu_l2.h): set-associative, 128-byte lines of
 * four 32-byte sectors, LRU within a set, persisting lines in a set-aside
 * of ways.
 *
 *   set = hash(line) % sets      (NVIDIA hashes addresses over the
 *                                 slices; a plain modulo would make
 *                                 power-of-two strides meet in one set)
 *   +------ way 0 .. VGPU_L2_WAYS-1 -------------------------------+
 *   | tag | sector valid bits | LRU stamp | persisting              |
 *   +--------------------------------------------------------------+
 *
 * An access in a launch's access policy window takes hitProp for a
 * hitRatio share of the window's lines (chosen by a hash of the line, so
 * the same lines every time, as the hardware picks a fixed share) and
 * missProp for the rest; outside the window it is normal.
 *  - normal: a miss replaces the least recently used line that is not
 *    persisting;
 *  - streaming: the same, but the line is inserted as the least recently
 *    used (first to go);
 *  - persisting: while the set holds fewer persisting lines than the
 *    set-aside's share of ways, a miss takes a normal line and marks it
 *    persisting; at the share, it is a normal access (the lines that
 *    persist stay; a window larger than the set-aside does not thrash
 *    them, it just gets no more).
 * Persisting lines stay so until a reset (cuCtxResetPersistingL2Cache);
 * normal accesses may replace them only where a smaller set-aside left a
 * set with more of them than its share.
 *
 * A sector hits when its line is present and the sector valid; a store
 * allocates like a load (write-back L2, whole sectors).
 */
#include <pthread.h>
#include <stdlib.h>

#include "vgpu_l2.h"
#include "vgpu_counters.h"

#define L2_LOCKS	256	/* sets share locks: a lock per set is
				 * a lot of memory for little gain */

struct l2_line {
	uint64_t tag;		/* line address + 1; 0: empty */
	uint64_t stamp;		/* LRU: larger is more recent */
	uint8_t valid;		/* sectors present */
	uint8_t persist;
};

struct vgpu_l2 {
	uint64_t bytes;
	uint32_t sets;
	unsigned int persist_ways;	/* under every lock */
	uint64_t *clock;		/* per set */
	struct l2_line *lines;		/* sets * VGPU_L2_WAYS */
	pthread_mutex_t lock[L2_LOCKS];
};

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

struct vgpu_l2 *vgpu_l2_create(uint64_t bytes)
{
	uint64_t set_bytes = (uint64_t)VGPU_L2_LINE_BYTES * VGPU_L2_WAYS;
	struct vgpu_l2 *l2;

	if (!bytes || bytes % set_bytes)
		return NULL;
	l2 = calloc(1, sizeof(*l2));
	if (!l2)
		return NULL;
	l2->bytes = bytes;
	l2->sets = (uint32_t)(bytes / set_bytes);
	l2->clock = calloc(l2->sets, sizeof(*l2->clock));
	l2->lines = calloc((size_t)l2->sets * VGPU_L2_WAYS,
			   sizeof(*l2->lines));
	if (!l2->clock || !l2->lines) {
		vgpu_l2_destroy(l2);
		return NULL;
	}
	for (int i = 0; i < L2_LOCKS; i++)
		pthread_mutex_init(&l2->lock[i], NULL);
	return l2;
}

void vgpu_l2_destroy(struct vgpu_l2 *l2)
{
	if (!l2)
		return;
	if (l2->lines)
		for (int i = 0; i < L2_LOCKS; i++)
			pthread_mutex_destroy(&l2->lock[i]);
	free(l2->clock);
	free(l2->lines);
	free(l2);
}

void vgpu_l2_configure(struct vgpu_l2 *l2, uint64_t persist_limit,
		       bool reset)
{
	unsigned int ways;

	if (persist_limit > l2->bytes)
		persist_limit = l2->bytes;
	/* the set-aside's share of each set, rounded up */
	ways = (unsigned int)((persist_limit * VGPU_L2_WAYS + l2->bytes - 1) /
			      l2->bytes);
	for (int i = 0; i < L2_LOCKS; i++)
		pthread_mutex_lock(&l2->lock[i]);
	l2->persist_ways = ways;
	if (reset)
		for (size_t i = 0; i < (size_t)l2->sets * VGPU_L2_WAYS; i++)
			l2->lines[i].persist = 0;
	for (int i = L2_LOCKS - 1; i >= 0; i--)
		pthread_mutex_unlock(&l2->lock[i]);
}

/* The property an access to @line has under window @w. */
static int line_prop(const struct vgpu_l2_window *w, uint64_t line)
{
	uint64_t addr = line * VGPU_L2_LINE_BYTES;

	if (!w || !w->bytes || addr - w->base >= w->bytes)
		return VGPU_L2_PROP_NORMAL;
	/* a fixed hitRatio share of the window's lines */
	if ((mix64(line ^ 0x9e3779b97f4a7c15ull) >> 40) < w->hit_ratio)
		return w->hit_prop;
	return w->miss_prop;
}

/* The least recently used way of @set among those @persist selects. */
static int lru_way(const struct l2_line *set, int persist)
{
	int best = -1;

	for (int i = 0; i < VGPU_L2_WAYS; i++) {
		if (persist >= 0 && set[i].tag && set[i].persist != persist)
			continue;
		if (!set[i].tag)
			return i;
		if (best < 0 || set[i].stamp < set[best].stamp)
			best = i;
	}
	return best;
}

enum vgpu_l2_result vgpu_l2_access(struct vgpu_l2 *l2,
				   const struct vgpu_l2_window *w,
				   uint64_t sector)
{
	uint64_t line = sector / (VGPU_L2_LINE_BYTES / VGPU_L2_SECTOR_BYTES);
	uint8_t bit = (uint8_t)(1u << (sector % (VGPU_L2_LINE_BYTES /
						  VGPU_L2_SECTOR_BYTES)));
	uint32_t s = (uint32_t)(mix64(line) % l2->sets);
	struct l2_line *set = &l2->lines[(size_t)s * VGPU_L2_WAYS];
	pthread_mutex_t *lock = &l2->lock[s % L2_LOCKS];
	enum vgpu_l2_result r = VGPU_L2_MISS;
	int prop = line_prop(w, line), way = -1;
	unsigned int npersist = 0;

	pthread_mutex_lock(lock);
	if (prop == VGPU_L2_PROP_PERSISTING && !l2->persist_ways)
		prop = VGPU_L2_PROP_NORMAL;	/* no set-aside */
	for (int i = 0; i < VGPU_L2_WAYS; i++) {
		npersist += set[i].tag && set[i].persist;
		if (set[i].tag == line + 1)
			way = i;
	}
	if (way >= 0) {
		if (set[way].valid & bit)
			r = set[way].persist ? VGPU_L2_HIT_PERSISTING :
					       VGPU_L2_HIT;
		set[way].valid |= bit;
		if (prop == VGPU_L2_PROP_PERSISTING && !set[way].persist &&
		    npersist < l2->persist_ways)
			set[way].persist = 1;
	} else {
		/* normal ways; all of them where a smaller set-aside left
		 * more persisting lines than the share */
		way = lru_way(set, npersist > l2->persist_ways ? -1 : 0);
		if (way < 0)	/* every way persisting, none to take */
			way = lru_way(set, -1);
		set[way].persist = prop == VGPU_L2_PROP_PERSISTING &&
				   npersist < l2->persist_ways;
		set[way].tag = line + 1;
		set[way].valid = bit;
	}
	/* streaming lines are the first to go; others become the newest */
	if (prop == VGPU_L2_PROP_STREAMING && !set[way].persist)
		set[way].stamp = 0;
	else
		set[way].stamp = ++l2->clock[s];
	pthread_mutex_unlock(lock);
	return r;
}
