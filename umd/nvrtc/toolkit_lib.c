// SPDX-License-Identifier: GPL-2.0
/*
 * toolkit_lib.c - find NVIDIA's own libnvrtc/libnvJitLink for our fronts.
 *
 * Our front has NVIDIA's soname, so the toolkit's library is opened by
 * absolute path (glibc then does not take it for the front that is
 * already loaded).  It is looked for, in order, in
 *
 *   $VGPU_CUDA_LIBDIR          (set by whoever installs vGPU elsewhere)
 *   $CUDA_HOME/lib64, $CUDA_PATH/lib64
 *   /usr/local/cuda/lib64, /usr/local/cuda-13/lib64
 *
 * and a candidate that is this very file (the front installed into one
 * of those directories) is skipped.  NVIDIA's libnvrtc is linked with
 * -Bsymbolic and libnvJitLink calls none of its own exports, so neither
 * calls back into the front by its exported names.
 *
 * NVIDIA's libnvrtc dlopen()s libnvrtc-builtins.so.13.0 by bare name,
 * which finds it only when the toolkit's directory is on the library
 * path.  Opened here first by absolute path, it is found by that name
 * wherever it lives (glibc matches a bare name against the sonames of
 * the objects already loaded).
 */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "toolkit_lib.h"

static pthread_mutex_t toolkit_lock = PTHREAD_MUTEX_INITIALIZER;

/* The real path of the shared object this code is in (the front). */
static int toolkit_self(char *self, size_t size)
{
	Dl_info info;
	char *real;

	if (!dladdr((void *)toolkit_self, &info) || !info.dli_fname)
		return -1;
	real = realpath(info.dli_fname, NULL);
	if (!real)
		return -1;
	snprintf(self, size, "%s", real);
	free(real);
	return 0;
}

/* @dir/@name, for the library opened from @dir; kept open for good. */
static void toolkit_companion(const char *dir, const char *name)
{
	char path[PATH_MAX];

	if (!name)
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!dlopen(path, RTLD_NOW | RTLD_GLOBAL))
		fprintf(stderr, "vgpu: %s: %s\n", path, dlerror());
}

static void *toolkit_try(const struct vgpu_toolkit_lib *lib, const char *dir,
			 const char *self, char *tried, size_t tried_size)
{
	const char *soname = lib->soname;
	char path[PATH_MAX];
	char *real;
	void *h;
	size_t used = strlen(tried);

	if (!dir || !*dir)
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", dir, soname);
	snprintf(tried + used, tried_size - used, " %s", path);
	real = realpath(path, NULL);
	if (!real)
		return NULL;
	if (!strcmp(real, self)) {	/* ourselves: not the toolkit's */
		free(real);
		return NULL;
	}
	h = dlopen(real, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		fprintf(stderr, "vgpu: %s: %s\n", real, dlerror());
	else
		toolkit_companion(dir, lib->companion);
	free(real);
	return h;
}

static void *toolkit_open(const struct vgpu_toolkit_lib *lib)
{
	char self[PATH_MAX] = "";
	char tried[4 * PATH_MAX] = "";
	char dir[PATH_MAX];
	const char *env[] = { "CUDA_HOME", "CUDA_PATH" };
	const char *fixed[] = { "/usr/local/cuda/lib64",
				"/usr/local/cuda-13/lib64" };
	void *h;

	toolkit_self(self, sizeof(self));
	h = toolkit_try(lib, getenv("VGPU_CUDA_LIBDIR"), self, tried,
			sizeof(tried));
	for (size_t i = 0; !h && i < sizeof(env) / sizeof(env[0]); i++) {
		const char *root = getenv(env[i]);

		if (!root || !*root)
			continue;
		snprintf(dir, sizeof(dir), "%s/lib64", root);
		h = toolkit_try(lib, dir, self, tried, sizeof(tried));
	}
	for (size_t i = 0; !h && i < sizeof(fixed) / sizeof(fixed[0]); i++)
		h = toolkit_try(lib, fixed[i], self, tried, sizeof(tried));
	if (!h)
		fprintf(stderr,
			"vgpu: %s: NVIDIA's library is needed for run-time compilation and was not found (looked for:%s; set VGPU_CUDA_LIBDIR)\n",
			lib->soname, tried);
	return h;
}

void *vgpu_toolkit_sym(struct vgpu_toolkit_lib *lib, const char *name)
{
	void *h, *sym;

	pthread_mutex_lock(&toolkit_lock);
	if (!lib->tried) {
		lib->handle = toolkit_open(lib);
		lib->tried = 1;
	}
	h = lib->handle;
	pthread_mutex_unlock(&toolkit_lock);
	if (!h)
		return NULL;
	sym = dlsym(h, name);
	if (!sym)
		fprintf(stderr, "vgpu: %s has no %s\n", lib->soname, name);
	return sym;
}
