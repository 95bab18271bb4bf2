// SPDX-License-Identifier: GPL-2.0
/*
 * The cache configuration, from NVIDIA's environment variables.
 *
 * The defaults follow NVIDIA's documentation of its JIT cache: the cache
 * lives in ~/.nv/ComputeCache, is enabled, and is limited to 1 GiB; a
 * larger CUDA_CACHE_MAXSIZE is honoured up to 4 GiB.
 */
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "compute_cache.h"

/* Home directory from $HOME, else the password database. */
static const char *home_dir(char *buf, size_t len)
{
	struct passwd pw, *found = NULL;
	const char *home = getenv("HOME");

	if (home && *home)
		return home;
	if (getpwuid_r(getuid(), &pw, buf, len, &found) || !found)
		return NULL;
	return found->pw_dir;
}

static void config_path(struct vgpu_cache_config *cfg)
{
	const char *path = getenv("CUDA_CACHE_PATH");
	char pwbuf[1024];
	const char *home;
	int n;

	if (path && *path) {
		n = snprintf(cfg->path, sizeof(cfg->path), "%s", path);
	} else {
		home = home_dir(pwbuf, sizeof(pwbuf));
		if (!home) {
			cfg->path[0] = '\0';
			return;
		}
		n = snprintf(cfg->path, sizeof(cfg->path), "%s/.nv/ComputeCache",
			     home);
	}
	if (n < 0 || (size_t)n >= sizeof(cfg->path))
		cfg->path[0] = '\0';	/* too long to use: no cache */
}

static uint64_t config_max_size(void)
{
	const char *s = getenv("CUDA_CACHE_MAXSIZE");
	unsigned long long v;
	char *end;

	/* digits only: strtoull() would accept " -1" as a huge number */
	if (!s || *s < '0' || *s > '9')
		return VGPU_CACHE_DEFAULT_MAXSIZE;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return VGPU_CACHE_DEFAULT_MAXSIZE;
	return v > VGPU_CACHE_LIMIT_MAXSIZE ? VGPU_CACHE_LIMIT_MAXSIZE : v;
}

static int config_disabled(void)
{
	const char *s = getenv("CUDA_CACHE_DISABLE");
	char *end;
	long v;

	if (!s || !*s)
		return 0;
	v = strtol(s, &end, 10);
	return *end ? 0 : v != 0;
}

void vgpu_cache_config_from_env(struct vgpu_cache_config *cfg)
{
	config_path(cfg);
	cfg->max_size = config_max_size();
	cfg->disabled = config_disabled() || !cfg->path[0];
}
