// SPDX-License-Identifier: GPL-2.0
/*
 * The compute cache: configuration from the environment, hits and misses,
 * key sensitivity, LRU eviction under CUDA_CACHE_MAXSIZE, damaged entries,
 * several processes and threads at once, and unusable directories.  Each
 * test works in its own fresh directory under $TMPDIR (or /tmp).
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"
#include "compute_cache.h"

static char root[256];

static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st; (void)flag; (void)ftw;
	return remove(path);
}

/* A new empty directory for one test, removed by the next call. */
static const char *fresh_dir(void)
{
	const char *tmp = getenv("TMPDIR");

	if (root[0]) {
		chmod(root, 0700);
		nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	}
	snprintf(root, sizeof(root), "%s/vgpu-cache-test-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(root))
		ksft_exit_fail_msg("mkdtemp: %s\n", strerror(errno));
	return root;
}

static struct vgpu_cache *open_at(const char *dir, uint64_t max_size)
{
	struct vgpu_cache_config cfg = { .max_size = max_size };

	snprintf(cfg.path, sizeof(cfg.path), "%s", dir);
	return vgpu_cache_open(&cfg);
}

static void key_of(const char *ptx, struct vgpu_cache_key *key)
{
	size_t len = strlen(ptx);
	struct vgpu_cache_compile_inputs in = {
		.ptx = &ptx, .ptx_len = &len, .ptx_count = 1,
		.options = "-O3", .compiler_version = "test 1",
		.sm_arch = 90, .device_name = "vgpu",
	};

	vgpu_cache_key_for_compile(&in, key);
}

/* Path of the entry file of @key in the cache rooted at @dir. */
static void entry_file(const char *dir, const struct vgpu_cache_key *key,
		       char *path, size_t len)
{
	char hex[65];

	vgpu_cache_key_hex(key, hex);
	snprintf(path, len, "%s/vgpu-v1/%.2s/%s", dir, hex, hex);
}

static int has_blob(struct vgpu_cache *c, const struct vgpu_cache_key *key,
		    const void *expect, size_t expect_size)
{
	size_t size;
	void *blob;
	int same;

	if (!vgpu_cache_lookup(c, key, &blob, &size))
		return 0;
	same = size == expect_size && !memcmp(blob, expect, size);
	free(blob);
	return same;
}

static void test_config(void)
{
	struct vgpu_cache_config cfg;
	int ok;

	unsetenv("CUDA_CACHE_PATH");
	unsetenv("CUDA_CACHE_MAXSIZE");
	unsetenv("CUDA_CACHE_DISABLE");
	setenv("HOME", "/home/someone", 1);
	vgpu_cache_config_from_env(&cfg);
	ksft_test_result(!strcmp(cfg.path, "/home/someone/.nv/ComputeCache") &&
			 cfg.max_size == 1ull << 30 && !cfg.disabled,
			 "defaults: ~/.nv/ComputeCache, 1 GiB, enabled\n");

	setenv("CUDA_CACHE_PATH", "/somewhere/else", 1);
	setenv("CUDA_CACHE_MAXSIZE", "123456", 1);
	vgpu_cache_config_from_env(&cfg);
	ok = !strcmp(cfg.path, "/somewhere/else") && cfg.max_size == 123456;
	setenv("CUDA_CACHE_MAXSIZE", "99999999999", 1);
	vgpu_cache_config_from_env(&cfg);
	ok &= cfg.max_size == 4ull << 30;
	setenv("CUDA_CACHE_MAXSIZE", "12abc", 1);
	vgpu_cache_config_from_env(&cfg);
	ok &= cfg.max_size == 1ull << 30;
	setenv("CUDA_CACHE_MAXSIZE", "-1", 1);
	vgpu_cache_config_from_env(&cfg);
	ok &= cfg.max_size == 1ull << 30;
	ksft_test_result(ok, "CUDA_CACHE_PATH; CUDA_CACHE_MAXSIZE capped at 4 GiB, garbage ignored\n");

	setenv("CUDA_CACHE_DISABLE", "1", 1);
	vgpu_cache_config_from_env(&cfg);
	ok = cfg.disabled;
	setenv("CUDA_CACHE_DISABLE", "0", 1);
	vgpu_cache_config_from_env(&cfg);
	ok &= !cfg.disabled;
	ksft_test_result(ok, "CUDA_CACHE_DISABLE=1 disables, =0 does not\n");
	unsetenv("CUDA_CACHE_PATH");
	unsetenv("CUDA_CACHE_MAXSIZE");
	unsetenv("CUDA_CACHE_DISABLE");
}

static void test_keys(void)
{
	const char *ab_c[] = { "ab", "c" }, *a_bc[] = { "a", "bc" };
	size_t len_ab_c[] = { 2, 1 }, len_a_bc[] = { 1, 2 };
	const char *ptx = ".entry k()";
	size_t ptx_len = strlen(ptx);
	struct vgpu_cache_compile_inputs base = {
		.ptx = &ptx, .ptx_len = &ptx_len, .ptx_count = 1,
		.options = "-O3", .compiler_version = "test 1",
		.sm_arch = 90, .device_name = "vgpu",
	}, in;
	struct vgpu_cache_key k0, k1, k;
	const char *other_ptx = ".entry j()";
	int distinct = 1;

	vgpu_cache_key_for_compile(&base, &k0);
	vgpu_cache_key_for_compile(&base, &k1);

	in = base; in.ptx = &other_ptx;
	vgpu_cache_key_for_compile(&in, &k);
	distinct &= !!memcmp(&k, &k0, sizeof(k));
	in = base; in.options = "-O0";
	vgpu_cache_key_for_compile(&in, &k);
	distinct &= !!memcmp(&k, &k0, sizeof(k));
	in = base; in.compiler_version = "test 2";
	vgpu_cache_key_for_compile(&in, &k);
	distinct &= !!memcmp(&k, &k0, sizeof(k));
	in = base; in.sm_arch = 89;
	vgpu_cache_key_for_compile(&in, &k);
	distinct &= !!memcmp(&k, &k0, sizeof(k));
	in = base; in.device_name = "other";
	vgpu_cache_key_for_compile(&in, &k);
	distinct &= !!memcmp(&k, &k0, sizeof(k));

	ksft_test_result(!memcmp(&k0, &k1, sizeof(k0)) && distinct,
			 "key: stable, and changes with PTX, options, compiler, arch, device\n");

	in = base; in.ptx = ab_c; in.ptx_len = len_ab_c; in.ptx_count = 2;
	vgpu_cache_key_for_compile(&in, &k0);
	in.ptx = a_bc; in.ptx_len = len_a_bc;
	vgpu_cache_key_for_compile(&in, &k1);
	ksft_test_result(memcmp(&k0, &k1, sizeof(k0)) != 0,
			 "key: modules (\"ab\",\"c\") and (\"a\",\"bc\") differ\n");
}

static void test_hit_miss(void)
{
	struct vgpu_cache *c = open_at(fresh_dir(), 1 << 20);
	static const char image[] = "vISA image bytes";
	struct vgpu_cache_key key, other;
	struct vgpu_cache_stats st;
	size_t size = 1;
	void *blob = &size;
	int ok;

	key_of("a", &key);
	key_of("b", &other);
	ok = vgpu_cache_enabled(c) &&
	     !vgpu_cache_lookup(c, &key, &blob, &size) && !blob && !size;
	ok &= !vgpu_cache_store(c, &key, image, sizeof(image));
	ok &= has_blob(c, &key, image, sizeof(image));
	ok &= !vgpu_cache_lookup(c, &other, &blob, &size);
	vgpu_cache_get_stats(c, &st);
	ksft_test_result(ok && st.hits == 1 && st.misses == 2 && st.stores == 1,
			 "miss, store, hit returns the image; other keys miss\n");
	vgpu_cache_close(c);

	/* a second handle (another process, later) sees the entry */
	c = open_at(root, 1 << 20);
	ok = has_blob(c, &key, image, sizeof(image));
	ok &= !vgpu_cache_store(c, &key, "new", 3) && has_blob(c, &key, "new", 3);
	ok &= !vgpu_cache_store(c, &other, "", 0) && has_blob(c, &other, "", 0);
	ksft_test_result(ok, "entries persist; a store replaces; empty images work\n");
	vgpu_cache_close(c);
}

static void test_env_path_and_disable(void)
{
	const char *dir = fresh_dir();
	struct vgpu_cache_key key;
	char path[512];
	struct vgpu_cache *c;
	struct stat st;
	int ok;

	key_of("env", &key);
	setenv("CUDA_CACHE_PATH", dir, 1);
	c = vgpu_cache_open(NULL);
	entry_file(dir, &key, path, sizeof(path));
	ok = !vgpu_cache_store(c, &key, "x", 1) && !stat(path, &st);
	vgpu_cache_close(c);
	ksft_test_result(ok, "CUDA_CACHE_PATH: entries go to that directory\n");

	setenv("CUDA_CACHE_PATH", fresh_dir(), 1);
	setenv("CUDA_CACHE_DISABLE", "1", 1);
	c = vgpu_cache_open(NULL);
	ok = !vgpu_cache_enabled(c) &&
	     vgpu_cache_store(c, &key, "x", 1) == -ENOTSUP;
	{
		size_t size;
		void *blob;

		ok &= !vgpu_cache_lookup(c, &key, &blob, &size);
	}
	snprintf(path, sizeof(path), "%s/vgpu-v1", root);
	ok &= stat(path, &st) && errno == ENOENT;
	vgpu_cache_close(c);
	ksft_test_result(ok, "CUDA_CACHE_DISABLE=1: no store, no lookup, no files\n");
	unsetenv("CUDA_CACHE_DISABLE");
	unsetenv("CUDA_CACHE_PATH");
}

/* Set an entry's "last used" time to @age seconds ago. */
static void age_entry(const char *dir, const struct vgpu_cache_key *key,
		      int age)
{
	struct timespec t[2];
	char path[512];

	clock_gettime(CLOCK_REALTIME, &t[0]);
	t[0].tv_sec -= age;
	t[1] = t[0];
	entry_file(dir, key, path, sizeof(path));
	utimensat(AT_FDCWD, path, t, 0);
}

static void test_eviction(void)
{
	const char *dir = fresh_dir();
	struct vgpu_cache_key k[4];
	char image[1000];
	/* room for three entries of 1000 bytes plus their 88-byte headers */
	struct vgpu_cache *c = open_at(dir, 3 * 1088 + 500);
	struct vgpu_cache_stats st;
	void *blob, *big;
	size_t size;
	int ok = 1;

	memset(image, 'v', sizeof(image));
	for (int i = 0; i < 4; i++) {
		char name[8];

		snprintf(name, sizeof(name), "k%d", i);
		key_of(name, &k[i]);
	}
	for (int i = 0; i < 3; i++) {
		ok &= !vgpu_cache_store(c, &k[i], image, sizeof(image));
		age_entry(dir, &k[i], 30 - 10 * i);	/* k0 oldest */
	}
	/* using k0 makes k1 the least recently used */
	ok &= vgpu_cache_lookup(c, &k[0], &blob, &size);
	free(blob);
	ok &= !vgpu_cache_store(c, &k[3], image, sizeof(image));
	ok &= has_blob(c, &k[0], image, sizeof(image)) &&
	      !vgpu_cache_lookup(c, &k[1], &blob, &size) &&
	      has_blob(c, &k[2], image, sizeof(image)) &&
	      has_blob(c, &k[3], image, sizeof(image));
	vgpu_cache_get_stats(c, &st);
	ksft_test_result(ok && st.evictions == 1,
			 "MAXSIZE: the least recently used entry is evicted\n");

	big = calloc(1, 4000);
	ksft_test_result(vgpu_cache_store(c, &k[1], big, 4000) == -EFBIG &&
			 !vgpu_cache_lookup(c, &k[1], &blob, &size),
			 "an image larger than MAXSIZE is not cached\n");
	vgpu_cache_close(c);
	free(big);
}

static int rewrite_entry(const char *path, off_t off, const char *bytes,
			 size_t len, off_t truncate_to)
{
	int fd = open(path, O_RDWR), ok;

	if (fd < 0)
		return 0;
	ok = len ? pwrite(fd, bytes, len, off) == (ssize_t)len : 1;
	if (truncate_to >= 0)
		ok &= !ftruncate(fd, truncate_to);
	close(fd);
	return ok;
}

static void test_damaged_entries(void)
{
	const char *dir = fresh_dir();
	struct vgpu_cache *c = open_at(dir, 1 << 20);
	static const char image[] = "the compiled image";
	struct vgpu_cache_key key, other;
	char path[512], other_path[512];
	struct vgpu_cache_stats st;
	struct stat sb;
	size_t size;
	void *blob;
	int ok;

	key_of("damaged", &key);
	key_of("other", &other);
	entry_file(dir, &key, path, sizeof(path));
	entry_file(dir, &other, other_path, sizeof(other_path));

	/* one flipped bit in the image */
	ok = !vgpu_cache_store(c, &key, image, sizeof(image)) &&
	     rewrite_entry(path, 88 + 3, "X", 1, -1) &&
	     !vgpu_cache_lookup(c, &key, &blob, &size) &&
	     stat(path, &sb) && errno == ENOENT;
	ok &= !vgpu_cache_store(c, &key, image, sizeof(image)) &&
	      has_blob(c, &key, image, sizeof(image));
	ksft_test_result(ok, "corrupt image: miss, entry removed, replaced by the next store\n");

	ok = rewrite_entry(path, 0, NULL, 0, 50) &&
	     !vgpu_cache_lookup(c, &key, &blob, &size);
	ok &= !vgpu_cache_store(c, &key, image, sizeof(image)) &&
	      rewrite_entry(path, 0, NULL, 0, 88 + 5) &&
	      !vgpu_cache_lookup(c, &key, &blob, &size);
	ksft_test_result(ok, "truncated header or image: miss\n");

	/* an entry file moved under another key's name */
	ok = !vgpu_cache_store(c, &key, image, sizeof(image)) &&
	     !vgpu_cache_store(c, &other, "x", 1) &&
	     !rename(path, other_path) &&
	     !vgpu_cache_lookup(c, &other, &blob, &size);
	vgpu_cache_get_stats(c, &st);
	ksft_test_result(ok && st.corrupt == 4,
			 "entry under the wrong key: miss (4 damaged entries counted)\n");
	vgpu_cache_close(c);
}

#define WORKERS		6
#define ROUNDS		150
#define KEYS		24

/* Each key's image is recognisable, so a mixed-up read is detected. */
static size_t image_for(int k, char *buf)
{
	size_t len = 500 + 97 * (size_t)k;

	for (size_t i = 0; i < len; i++)
		buf[i] = (char)(k * 31 + i);
	return len;
}

/* Look up, verify or store; returns the number of bad reads. */
static int worker(struct vgpu_cache *c, unsigned int seed)
{
	char expect[500 + 97 * KEYS];
	int bad = 0;

	for (int r = 0; r < ROUNDS; r++) {
		int k = (int)(rand_r(&seed) % KEYS);
		size_t len = image_for(k, expect), size;
		struct vgpu_cache_key key;
		char name[16];
		void *blob;

		snprintf(name, sizeof(name), "shared%d", k);
		key_of(name, &key);
		if (vgpu_cache_lookup(c, &key, &blob, &size)) {
			bad += size != len || memcmp(blob, expect, len);
			free(blob);
		} else {
			vgpu_cache_store(c, &key, expect, len);
		}
	}
	return bad;
}

static int count_tmp_files(const char *dir)
{
	char cmd[512];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "find '%s' -name '.tmp-*' | wc -l", dir);
	p = popen(cmd, "r");
	if (p && fscanf(p, "%d", &n) != 1)
		n = -1;
	if (p)
		pclose(p);
	return n;
}

/* Several processes at once, with a limit small enough to evict often. */
static void test_processes(void)
{
	const char *dir = fresh_dir();
	uint64_t limit = 8 * 1500;
	pid_t pids[WORKERS];
	int ok = 1;

	for (int i = 0; i < WORKERS; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			struct vgpu_cache *c = open_at(dir, limit);
			int bad = worker(c, 1234 + i);

			vgpu_cache_close(c);
			_exit(bad ? 1 : 0);
		}
	}
	for (int i = 0; i < WORKERS; i++) {
		int status;

		ok &= pids[i] > 0 && waitpid(pids[i], &status, 0) == pids[i] &&
		      WIFEXITED(status) && WEXITSTATUS(status) == 0;
	}
	ok &= count_tmp_files(dir) == 0;
	ksft_test_result(ok, "%d processes: every hit has the right image, no temporaries left\n",
			 WORKERS);
}

struct thread_arg {
	struct vgpu_cache *cache;
	unsigned int seed;
	int bad;
};

static void *thread_main(void *p)
{
	struct thread_arg *arg = p;

	arg->bad = worker(arg->cache, arg->seed);
	return NULL;
}

static void test_threads(void)
{
	struct vgpu_cache *c = open_at(fresh_dir(), 8 * 1500);
	struct thread_arg args[4];
	pthread_t t[4];
	struct vgpu_cache_stats st;
	int ok = 1;

	for (int i = 0; i < 4; i++) {
		args[i] = (struct thread_arg){ .cache = c, .seed = 99 + i };
		ok &= !pthread_create(&t[i], NULL, thread_main, &args[i]);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		ok &= !args[i].bad;
	}
	vgpu_cache_get_stats(c, &st);
	ok &= st.hits + st.misses == 4 * ROUNDS;
	ksft_test_result(ok, "4 threads sharing one handle: correct images, counts add up\n");
	vgpu_cache_close(c);
}

/* Run @fn in a child; as root the child first becomes "nobody". */
static int as_unprivileged_child(int (*fn)(const char *), const char *dir)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		if (geteuid() == 0 && (setgid(65534) || setuid(65534)))
			_exit(2);
		_exit(fn(dir) ? 0 : 1);
	}
	return pid > 0 && waitpid(pid, &status, 0) == pid &&
	       WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int store_fails_quietly(const char *dir)
{
	struct vgpu_cache *c = open_at(dir, 1 << 20);
	struct vgpu_cache_key key;
	size_t size;
	void *blob;
	int good;

	key_of("ro", &key);
	good = vgpu_cache_store(c, &key, "x", 1) < 0 &&
	       !vgpu_cache_lookup(c, &key, &blob, &size);
	vgpu_cache_close(c);
	return good;
}

static int read_only_hits(const char *dir)
{
	struct vgpu_cache *c = open_at(dir, 1 << 20);
	struct vgpu_cache_key key, other;
	int good;

	key_of("shared", &key);
	key_of("new", &other);
	good = vgpu_cache_enabled(c) && has_blob(c, &key, "image", 5) &&
	       vgpu_cache_store(c, &other, "x", 1) < 0;
	vgpu_cache_close(c);
	return good;
}

/*
 * A directory the process may not write.  Root may write anywhere, so as
 * root the checks run in a child that has become "nobody".
 */
static void test_unwritable(void)
{
	const char *dir = fresh_dir();
	struct vgpu_cache_key key;
	struct vgpu_cache *c;
	char sub[300], cmd[700];

	snprintf(sub, sizeof(sub), "%s/ro", dir);
	mkdir(sub, 0555);
	chmod(dir, 0755);
	ksft_test_result(as_unprivileged_child(store_fails_quietly, sub),
			 "unwritable directory: stores fail quietly, lookups miss\n");

	/* a cache filled by someone else, readable but not writable by us */
	snprintf(sub, sizeof(sub), "%s/shared", dir);
	c = open_at(sub, 1 << 20);
	key_of("shared", &key);
	vgpu_cache_store(c, &key, "image", 5);
	vgpu_cache_close(c);
	snprintf(cmd, sizeof(cmd),
		 "chmod -R a+rX,go-w '%s' && chmod 0555 '%s/vgpu-v1'", sub, sub);
	ksft_test_result(!system(cmd) &&
			 as_unprivileged_child(read_only_hits, sub),
			 "read-only cache: hits are served, stores fail quietly\n");
}

static void test_not_a_directory(void)
{
	struct vgpu_cache *c = open_at("/dev/null/cache", 1 << 20);
	struct vgpu_cache_key key;
	size_t size;
	void *blob;

	key_of("x", &key);
	ksft_test_result(c && !vgpu_cache_enabled(c) &&
			 vgpu_cache_store(c, &key, "x", 1) == -ENOTSUP &&
			 !vgpu_cache_lookup(c, &key, &blob, &size) &&
			 vgpu_cache_store(NULL, &key, "x", 1) == -EINVAL &&
			 !vgpu_cache_lookup(NULL, &key, &blob, &size),
			 "path under a file, or no handle: disabled, no errors\n");
	vgpu_cache_close(c);
}

int main(void)
{
	ksft_print_header();
	ksft_set_plan(19);
	test_config();
	test_keys();
	test_hit_miss();
	test_env_path_and_disable();
	test_eviction();
	test_damaged_entries();
	test_processes();
	test_threads();
	test_unwritable();
	test_not_a_directory();
	fresh_dir();	/* removes the last test's directory */
	rmdir(root);
	ksft_finished();
}
