/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libvgpu-cache: the on-disk JIT compute cache.
 *
 * Compiling PTX to vISA at module load is slow, so, like NVIDIA's driver,
 * we keep every compiled image on disk and reuse it when the same PTX is
 * loaded again with the same options, compiler and device.  The cache is
 * controlled by NVIDIA's environment variables:
 *
 *   CUDA_CACHE_DISABLE=1     no lookups, no stores
 *   CUDA_CACHE_PATH=DIR      cache root (default ~/.nv/ComputeCache)
 *   CUDA_CACHE_MAXSIZE=N     size limit in bytes (default 1 GiB, at most
 *                            4 GiB); least recently used entries are
 *                            evicted to stay under it, and an image
 *                            larger than the limit is not cached
 *
 * The cache is an optimisation and never a reason to fail: when it is
 * disabled, unwritable, full of garbage or raced by other processes,
 * lookups miss and stores are skipped.  Entries carry a checksum; a
 * damaged one is a miss and is removed.  Several processes and threads
 * may use one cache directory at once.  See Documentation/compute-cache.rst.
 */
#ifndef VGPU_COMPUTE_CACHE_H
#define VGPU_COMPUTE_CACHE_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "sha256.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VGPU_CACHE_DEFAULT_MAXSIZE	(1ull << 30)	/* 1 GiB, as NVIDIA's */
#define VGPU_CACHE_LIMIT_MAXSIZE	(4ull << 30)	/* 4 GiB, as NVIDIA's */

struct vgpu_cache_config {
	char path[PATH_MAX];		/* cache root; "" if none can be found */
	uint64_t max_size;		/* bytes */
	int disabled;
};

/*
 * Read the configuration from the environment, applying the defaults and
 * the 4 GiB ceiling.  Unparsable values fall back to the defaults.
 */
void vgpu_cache_config_from_env(struct vgpu_cache_config *cfg);

/* --- keys -------------------------------------------------------------- */

struct vgpu_cache_key {
	uint8_t digest[SHA256_DIGEST_SIZE];
};

/*
 * A key is the SHA-256 of a sequence of fields.  Each field is hashed
 * with its length in front, so ("ab", "c") and ("a", "bc") differ.
 */
struct vgpu_cache_key_builder {
	struct sha256_ctx sha;
};

void vgpu_cache_key_begin(struct vgpu_cache_key_builder *b);
void vgpu_cache_key_add(struct vgpu_cache_key_builder *b, const void *data,
			size_t len);
void vgpu_cache_key_add_str(struct vgpu_cache_key_builder *b, const char *s);
void vgpu_cache_key_add_u64(struct vgpu_cache_key_builder *b, uint64_t v);
void vgpu_cache_key_end(struct vgpu_cache_key_builder *b,
			struct vgpu_cache_key *key);

/* Everything that changes the output of a PTX -> vISA compile. */
struct vgpu_cache_compile_inputs {
	const char *const *ptx;		/* the PTX modules linked together */
	const size_t *ptx_len;		/* their lengths */
	size_t ptx_count;
	const char *options;		/* compile options, "" or NULL if none */
	const char *compiler_version;	/* e.g. "vgpu-ptx 1.0 visa 1" */
	unsigned int sm_arch;		/* device compute capability, e.g. 90 */
	const char *device_name;	/* distinguishes device models; may be NULL */
};

void vgpu_cache_key_for_compile(const struct vgpu_cache_compile_inputs *in,
				struct vgpu_cache_key *key);

/* 64 lowercase hex digits and a NUL. */
void vgpu_cache_key_hex(const struct vgpu_cache_key *key, char hex[65]);

/* --- the cache --------------------------------------------------------- */

struct vgpu_cache;

struct vgpu_cache_stats {
	uint64_t hits;
	uint64_t misses;
	uint64_t stores;		/* images written */
	uint64_t store_failures;	/* not written: I/O error, too big... */
	uint64_t corrupt;		/* damaged entries found and removed */
	uint64_t evictions;		/* entries removed to respect the limit */
};

/*
 * Open the cache described by @cfg (the environment's if NULL).  Creates
 * the directory if needed.  Returns NULL only when out of memory; an
 * unusable directory gives a handle that is simply disabled.
 */
struct vgpu_cache *vgpu_cache_open(const struct vgpu_cache_config *cfg);
void vgpu_cache_close(struct vgpu_cache *cache);

/* Whether lookups and stores can happen at all. */
int vgpu_cache_enabled(const struct vgpu_cache *cache);

/* Directory holding the entries ("" when disabled). */
const char *vgpu_cache_dir(const struct vgpu_cache *cache);

/*
 * Look @key up.  On a hit returns 1 and a malloc()ed copy of the image in
 * @blob / @size (the caller frees it), and marks the entry recently used.
 * Returns 0 on a miss, including every kind of unusable entry.
 */
int vgpu_cache_lookup(struct vgpu_cache *cache,
		      const struct vgpu_cache_key *key, void **blob,
		      size_t *size);

/*
 * Store @size bytes at @blob under @key, replacing any previous entry, then
 * evict old entries if the cache is over its limit.  Returns 0, or a
 * negative errno saying why nothing was stored; callers may ignore it.
 */
int vgpu_cache_store(struct vgpu_cache *cache,
		     const struct vgpu_cache_key *key, const void *blob,
		     size_t size);

void vgpu_cache_get_stats(const struct vgpu_cache *cache,
			  struct vgpu_cache_stats *stats);

#ifdef __cplusplus
}
#endif

#endif /* VGPU_COMPUTE_CACHE_H */
