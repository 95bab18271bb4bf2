// SPDX-License-Identifier: GPL-2.0
/*
 * native_arch_option.c - vgpu_arch_rewrite() turns each spelling of a
 * real architecture into the virtual one and leaves all else alone.
 */
#include <stdio.h>
#include <string.h>

#include "arch_option.h"

struct arch_case {
	const char *in[3];
	int n;
	const char *want[3];
	int changed;
};

static const struct arch_case cases[] = {
	{ { "-arch=sm_90" }, 1, { "-arch=compute_90" }, 1 },
	{ { "--gpu-architecture=sm_90a" }, 1,
	  { "--gpu-architecture=compute_90a" }, 1 },
	{ { "-arch", "sm_100f" }, 2, { "-arch", "compute_100f" }, 1 },
	{ { "--gpu-architecture", "sm_75", "-G" }, 3,
	  { "--gpu-architecture", "compute_75", "-G" }, 1 },
	/* Already virtual, or not an architecture: unchanged. */
	{ { "-arch=compute_90" }, 1, { "-arch=compute_90" }, 0 },
	{ { "-default-device", "sm_90" }, 2, { "-default-device", "sm_90" }, 0 },
	{ { "-arch=native", "-lto" }, 2, { "-arch=native", "-lto" }, 0 },
	{ { "-archx=sm_90" }, 1, { "-archx=sm_90" }, 0 },
	{ { "-arch=sm_90", "-ftz=true" }, 2,
	  { "-arch=compute_90", "-ftz=true" }, 1 },
};

int main(void)
{
	int n = (int)(sizeof(cases) / sizeof(cases[0])), fail = 0;

	printf("TAP version 13\n1..%d\n", n);
	for (int i = 0; i < n; i++) {
		const struct arch_case *c = &cases[i];
		char **out;
		int changed = vgpu_arch_rewrite(c->in, c->n, &out), ok;

		ok = changed == c->changed && out;
		for (int k = 0; ok && k < c->n; k++)
			ok = !strcmp(out[k], c->want[k]);
		printf("%sok %d %s%s%s -> %s%s%s (%d changed)\n", ok ? "" : "not ",
		       i + 1, c->in[0], c->n > 1 ? " " : "",
		       c->n > 1 ? c->in[1] : "", out ? out[0] : "(null)",
		       out && c->n > 1 ? " " : "", out && c->n > 1 ? out[1] : "",
		       changed);
		fail |= !ok;
		vgpu_arch_free(out, c->n);
	}
	return fail;
}
