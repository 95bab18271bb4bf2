// SPDX-License-Identifier: GPL-2.0
/*
 * The compute cache: lookups and stores.
 *
 * Concurrency without a lock on the common paths:
 *   - a store writes a private temporary file in the entry's directory
 *     and rename()s it over the final name, which is atomic, so a reader
 *     sees either the old complete entry, the new complete entry, or none;
 *   - a reader verifies the header, the exact size and the SHA-256 of
 *     what it read, so a torn or damaged file (disk full, crash, someone
 *     editing the cache) is a miss, and is removed so that the next
 *     compile replaces it.
 * Only eviction takes a lock (see cache_evict.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache_entry.h"
#include "cache_internal.h"

/* mkdir -p, for the cache root: ~/.nv may not exist yet. */
static int make_dirs(const char *path)
{
	char buf[PATH_MAX];
	size_t len = strlen(path);

	if (len >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0700) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0700) && errno != EEXIST)
		return -errno;
	return 0;
}

static int is_directory(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

struct vgpu_cache *vgpu_cache_open(const struct vgpu_cache_config *cfg)
{
	struct vgpu_cache_config env;
	struct vgpu_cache *c;
	int n;

	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	if (!cfg) {
		vgpu_cache_config_from_env(&env);
		cfg = &env;
	}
	c->max_size = cfg->max_size > VGPU_CACHE_LIMIT_MAXSIZE ?
		      VGPU_CACHE_LIMIT_MAXSIZE : cfg->max_size;
	if (cfg->disabled || !cfg->path[0])
		return c;

	n = snprintf(c->dir, sizeof(c->dir), "%s/%s", cfg->path, CACHE_SUBDIR);
	if (n < 0 || (size_t)n >= sizeof(c->dir) || make_dirs(c->dir) ||
	    !is_directory(c->dir)) {
		c->dir[0] = '\0';
		return c;	/* unusable: behave as disabled */
	}
	c->enabled = 1;
	return c;
}

void vgpu_cache_close(struct vgpu_cache *c)
{
	free(c);
}

int vgpu_cache_enabled(const struct vgpu_cache *c)
{
	return c && c->enabled;
}

const char *vgpu_cache_dir(const struct vgpu_cache *c)
{
	return c ? c->dir : "";
}

/* <dir>/<ab>/<key hex> */
static int entry_path(const struct vgpu_cache *c,
		      const struct vgpu_cache_key *key, char *path)
{
	char hex[65];
	int n;

	vgpu_cache_key_hex(key, hex);
	n = snprintf(path, PATH_MAX, "%s/%.2s/%s", c->dir, hex, hex);
	if (n < 0 || n >= PATH_MAX)
		return -ENAMETOOLONG;
	return 0;
}

/* Remove a damaged entry, unless a writer has already replaced it. */
static void remove_damaged(const char *path, int fd)
{
	struct stat opened, current;

	if (fstat(fd, &opened) || stat(path, &current))
		return;
	if (opened.st_dev == current.st_dev && opened.st_ino == current.st_ino)
		unlink(path);
}

int vgpu_cache_lookup(struct vgpu_cache *c, const struct vgpu_cache_key *key,
		      void **blob, size_t *size)
{
	char path[PATH_MAX];
	int fd, ret;

	if (!c || !key || !blob || !size)
		return 0;
	*blob = NULL;
	*size = 0;
	if (!c->enabled || entry_path(c, key, path))
		goto miss;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		goto miss;
	ret = cache_entry_read(fd, key, VGPU_CACHE_LIMIT_MAXSIZE, blob, size);
	if (ret == -EBADMSG) {
		remove_damaged(path, fd);
		atomic_fetch_add(&c->corrupt, 1);
	}
	if (!ret)
		futimens(fd, NULL);	/* now "recently used" for LRU */
	close(fd);
	if (ret)
		goto miss;
	atomic_fetch_add(&c->hits, 1);
	return 1;
miss:
	atomic_fetch_add(&c->misses, 1);
	return 0;
}

/* Write the entry to a temporary file and rename it into place. */
static int publish(const struct vgpu_cache *c,
		   const struct vgpu_cache_key *key, const void *blob,
		   size_t size)
{
	char path[PATH_MAX], dir[PATH_MAX], tmp[PATH_MAX + 16];
	int fd, ret;

	ret = entry_path(c, key, path);
	if (ret)
		return ret;
	memcpy(dir, path, sizeof(dir));
	*strrchr(dir, '/') = '\0';
	if (mkdir(dir, 0700) && errno != EEXIST)
		return -errno;
	snprintf(tmp, sizeof(tmp), "%s/%sXXXXXX", dir, CACHE_TMP_PREFIX);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;

	ret = cache_entry_write(fd, key, blob, size);
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

int vgpu_cache_store(struct vgpu_cache *c, const struct vgpu_cache_key *key,
		     const void *blob, size_t size)
{
	int ret;

	if (!c || !key || (!blob && size))
		return -EINVAL;
	if (!c->enabled)
		return -ENOTSUP;
	/* NVIDIA: a binary larger than the whole cache is not cached */
	if (size > c->max_size ||
	    c->max_size - size < CACHE_ENTRY_HDR_SIZE) {
		atomic_fetch_add(&c->store_failures, 1);
		return -EFBIG;
	}

	ret = publish(c, key, blob, size);
	if (ret) {
		atomic_fetch_add(&c->store_failures, 1);
		return ret;
	}
	atomic_fetch_add(&c->stores, 1);
	cache_evict(c);	/* best effort: a failure only delays eviction */
	return 0;
}

void vgpu_cache_get_stats(const struct vgpu_cache *c,
			  struct vgpu_cache_stats *st)
{
	if (!st)
		return;
	*st = (struct vgpu_cache_stats){ 0 };
	if (!c)
		return;
	st->hits = atomic_load(&c->hits);
	st->misses = atomic_load(&c->misses);
	st->stores = atomic_load(&c->stores);
	st->store_failures = atomic_load(&c->store_failures);
	st->corrupt = atomic_load(&c->corrupt);
	st->evictions = atomic_load(&c->evictions);
}
