/* SPDX-License-Identifier: GPL-2.0 */
/* The cache handle, shared by the files of umd/cache only. */
#ifndef VGPU_CACHE_INTERNAL_H
#define VGPU_CACHE_INTERNAL_H

#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>

#include "compute_cache.h"

/*
 * Entries live in <root>/vgpu-v1/<first two hex digits>/<key in hex>, so
 * that NVIDIA's own files in the same root never clash with ours and a
 * change of entry format can move to a new directory.  The fan-out keeps
 * directories small.
 */
#define CACHE_SUBDIR		"vgpu-v1"
#define CACHE_LOCK_NAME		"lock"
#define CACHE_TMP_PREFIX	".tmp-"

/*
 * Nothing here changes after vgpu_cache_open() except the statistics,
 * which are atomic: one handle may be used by many threads at once.
 */
struct vgpu_cache {
	char dir[PATH_MAX];		/* <root>/vgpu-v1 */
	uint64_t max_size;
	int enabled;
	_Atomic uint64_t hits;
	_Atomic uint64_t misses;
	_Atomic uint64_t stores;
	_Atomic uint64_t store_failures;
	_Atomic uint64_t corrupt;
	_Atomic uint64_t evictions;
};

/*
 * Bring the cache under its size limit by removing the least recently
 * used entries (and temporary files abandoned by crashed writers).
 * Serialised between processes by an flock() on <dir>/lock.  Returns 0 or
 * a negative errno.
 */
int cache_evict(struct vgpu_cache *cache);

#endif /* VGPU_CACHE_INTERNAL_H */
