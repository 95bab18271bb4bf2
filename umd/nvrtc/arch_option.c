// SPDX-License-Identifier: GPL-2.0
/*
 * arch_option.c - "-arch=sm_90" becomes "-arch=compute_90".
 *
 * A real architecture makes NVRTC and nvJitLink run ptxas and hand back
 * SASS, which no software GPU can run; the virtual architecture of the
 * same number gives PTX with the same __CUDA_ARCH__ (900 for both), so
 * the source compiles exactly as it would for the real one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch_option.h"

static const char *const arch_names[] = {
	"-arch", "--gpu-architecture", "-arch=", "--gpu-architecture=",
};

/* Length of the option name before an "sm_" value, or 0 when none. */
static size_t arch_prefix(const char *opt)
{
	for (size_t i = 2; i < 4; i++) {
		size_t len = strlen(arch_names[i]);

		if (!strncmp(opt, arch_names[i], len) &&
		    !strncmp(opt + len, "sm_", 3))
			return len;
	}
	return 0;
}

static int arch_is_bare(const char *opt)
{
	return !strcmp(opt, arch_names[0]) || !strcmp(opt, arch_names[1]);
}

static char *arch_join(const char *name, size_t len, const char *sm)
{
	char *s;

	/* sm_XX -> compute_XX: "sm" gives way to "compute". */
	if (asprintf(&s, "%.*scompute%s", (int)len, name, sm + 2) < 0)
		return NULL;
	return s;
}

int vgpu_arch_rewrite(const char * const *opts, int n, char ***out)
{
	char **v = calloc(n > 0 ? (size_t)n : 1, sizeof(*v));
	int changed = 0;

	*out = v;
	if (!v)
		return -1;
	for (int i = 0; i < n; i++) {
		const char *o = opts[i] ? opts[i] : "";
		size_t len = arch_prefix(o);

		if (len) {
			v[i] = arch_join(o, len, o + len);
			changed++;
		} else if (i > 0 && opts[i - 1] && arch_is_bare(opts[i - 1]) &&
			   !strncmp(o, "sm_", 3)) {
			v[i] = arch_join("", 0, o);
			changed++;
		} else {
			v[i] = opts[i] ? strdup(opts[i]) : NULL;
			if (!opts[i])
				continue;
		}
		if (!v[i]) {
			vgpu_arch_free(v, n);
			*out = NULL;
			return -1;
		}
	}
	return changed;
}

void vgpu_arch_free(char **opts, int n)
{
	if (!opts)
		return;
	for (int i = 0; i < n; i++)
		free(opts[i]);
	free(opts);
}
