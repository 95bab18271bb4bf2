// SPDX-License-Identifier: GPL-2.0
/*
 * Least-recently-used eviction.
 *
 * An entry's modification time is its "last used" time: stores create
 * it, hits refresh it with futimens() (access times are unreliable on
 * noatime mounts).  After each store the directory is scanned; if the
 * entries' total size is over the limit, the oldest are unlinked until it
 * is not.  Readers are never disturbed: a reader that already opened an
 * entry keeps reading it after the unlink, and one that comes later just
 * misses.  The scan runs under an exclusive flock() so that two processes
 * do not both evict for the same excess.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cache_internal.h"

/* A temporary file older than this belongs to a writer that died. */
#define STALE_TMP_SECONDS	3600

struct cached_file {
	int subdir;			/* index into the subdirectory fds */
	char name[65];			/* key in hex */
	uint64_t size;
	struct timespec used;
};

struct scan {
	struct cached_file *files;
	size_t count, capacity;
	uint64_t total;
	int subdir_fds[256];
	int subdirs;
};

static int is_key_name(const char *name)
{
	size_t n = strspn(name, "0123456789abcdef");

	return n == 64 && name[64] == '\0';
}

static int remember(struct scan *s, int subdir, const char *name,
		    const struct stat *st)
{
	struct cached_file *f;

	if (s->count == s->capacity) {
		size_t cap = s->capacity ? 2 * s->capacity : 64;
		struct cached_file *grown = realloc(s->files, cap * sizeof(*f));

		if (!grown)
			return -ENOMEM;
		s->files = grown;
		s->capacity = cap;
	}
	f = &s->files[s->count++];
	f->subdir = subdir;
	memcpy(f->name, name, 65);
	f->size = (uint64_t)st->st_size;
	f->used = st->st_mtim;
	s->total += f->size;
	return 0;
}

static void scan_subdir(struct scan *s, int dfd, time_t now)
{
	int idx = s->subdirs;
	struct dirent *de;
	struct stat st;
	int copy = dup(dfd);	/* closedir() closes the fd it is given */
	DIR *d;

	if (copy < 0)
		return;
	d = fdopendir(copy);
	if (!d) {
		close(copy);
		return;
	}
	while ((de = readdir(d))) {
		if (fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode))
			continue;
		if (!strncmp(de->d_name, CACHE_TMP_PREFIX,
			     strlen(CACHE_TMP_PREFIX))) {
			if (now - st.st_mtim.tv_sec > STALE_TMP_SECONDS)
				unlinkat(dfd, de->d_name, 0);
			continue;
		}
		if (is_key_name(de->d_name) && remember(s, idx, de->d_name, &st))
			break;
	}
	closedir(d);
}

static void scan_cache(struct scan *s, int root)
{
	time_t now = time(NULL);
	char name[3];

	/* the subdirectories are the 256 two-digit hex prefixes */
	for (int i = 0; i < 256; i++) {
		int dfd;

		snprintf(name, sizeof(name), "%02x", i);
		dfd = openat(root, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd < 0)
			continue;
		s->subdir_fds[s->subdirs] = dfd;
		scan_subdir(s, dfd, now);
		s->subdirs++;
	}
}

static int older_first(const void *a, const void *b)
{
	const struct cached_file *x = a, *y = b;

	if (x->used.tv_sec != y->used.tv_sec)
		return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
	if (x->used.tv_nsec != y->used.tv_nsec)
		return x->used.tv_nsec < y->used.tv_nsec ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void evict_oldest(struct vgpu_cache *c, struct scan *s)
{
	qsort(s->files, s->count, sizeof(*s->files), older_first);
	for (size_t i = 0; i < s->count && s->total > c->max_size; i++) {
		struct cached_file *f = &s->files[i];

		if (!unlinkat(s->subdir_fds[f->subdir], f->name, 0))
			atomic_fetch_add(&c->evictions, 1);
		/* ENOENT: another process removed it; it is gone either way */
		s->total -= f->size;
	}
}

int cache_evict(struct vgpu_cache *c)
{
	struct scan s = { 0 };
	int root, lock, ret;

	root = open(c->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root < 0)
		return -errno;
	lock = openat(root, CACHE_LOCK_NAME, O_RDWR | O_CREAT | O_CLOEXEC,
		      0600);
	if (lock < 0) {
		ret = -errno;
		close(root);
		return ret;
	}
	while ((ret = flock(lock, LOCK_EX)) && errno == EINTR)
		;
	if (ret) {
		ret = -errno;
	} else {
		scan_cache(&s, root);
		if (s.total > c->max_size)
			evict_oldest(c, &s);
	}

	for (int i = 0; i < s.subdirs; i++)
		close(s.subdir_fds[i]);
	free(s.files);
	close(lock);	/* releases the flock */
	close(root);
	return ret;
}
