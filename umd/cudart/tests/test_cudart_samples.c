// SPDX-License-Identifier: GPL-2.0
/*
 * Unmodified nvcc binaries on our runtime (guest test).
 *
 * The samples are built by the real nvcc with `-cudart shared` against
 * the toolkit's libcudart, so they know nothing of vGPU.  With build/lib
 * first on the library path, the dynamic loader must bind them to our
 * libcudart.so.13 and libcuda.so.1 - checked first, by asking the loader
 * (LD_TRACE_LOADED_OBJECTS) - and then each must run and print PASSED.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "rt_test_util.h"

/* Run @cmd, keep the last @size bytes of its output; its exit status. */
static int run(const char *cmd, char *out, size_t size)
{
	FILE *p = popen(cmd, "r");
	size_t len = 0;
	int c, status;

	out[0] = '\0';
	if (!p)
		return -1;
	while ((c = fgetc(p)) != EOF) {
		if (len == size - 1) {
			memmove(out, out + size / 2, len - size / 2);
			len -= size / 2;
		}
		out[len++] = (char)c;
	}
	out[len] = '\0';
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The path the loader resolves @lib to for @prog, or "". */
static void resolved(const char *prog, const char *lib, char *path,
		     size_t size)
{
	char cmd[1024], out[8192], *hit, *end;

	snprintf(cmd, sizeof(cmd), "LD_TRACE_LOADED_OBJECTS=1 %s", prog);
	path[0] = '\0';
	if (run(cmd, out, sizeof(out)) != 0)
		return;
	hit = strstr(out, lib);
	if (!hit || !(hit = strstr(hit, "=> ")))
		return;
	hit += 3;
	end = strchr(hit, ' ');
	snprintf(path, size, "%.*s", end ? (int)(end - hit) : (int)strlen(hit),
		 hit);
}

int main(void)
{
	static const char *const samples[] = {
		"deviceQuery", "vectorAdd", "matrixMul", "simplePrintf",
		"separateCompilation", "cmakeSaxpy", "graphs",
		"graphConditional", "gridSyncReduction", "clusterHistogram",
		"tmaTranspose",
	};
	char lib[2048], prog[1024], path[1024], out[16384];
	const char *build = rt_test_build_dir();
	pid_t fw = fw_launcher_start();
	const char *old = getenv("LD_LIBRARY_PATH");

	tap_plan(-1);
	if (fw < 0)
		tap_diag("cannot start the firmware");
	/* build/lib first, whatever the caller had. */
	snprintf(lib, sizeof(lib), "%s/lib%s%s", build, old ? ":" : "",
		 old ? old : "");
	setenv("LD_LIBRARY_PATH", lib, 1);

	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		snprintf(prog, sizeof(prog), "%s/bin/samples/%s", build,
			 samples[i]);
		resolved(prog, "libcudart.so.13", path, sizeof(path));
		tap_ok(strstr(path, "/lib/libcudart.so.13") &&
		       strstr(path, build), "%s binds libcudart.so.13 to %s",
		       samples[i], path[0] ? path : "nothing");
		resolved(prog, "libcuda.so.1", path, sizeof(path));
		tap_ok(strstr(path, build) != NULL,
		       "%s binds libcuda.so.1 to %s", samples[i],
		       path[0] ? path : "nothing");
		snprintf(prog + strlen(prog), sizeof(prog) - strlen(prog),
			 " 2>&1");
		int status = run(prog, out, sizeof(out));

		if (!tap_ok(status == 0 && strstr(out, "PASSED\n"),
			    "%s runs and passes (exit %d)", samples[i], status))
			for (char *l = strtok(out, "\n"); l; l = strtok(NULL, "\n"))
				tap_diag("%s", l);
	}
	fw_launcher_stop(fw);
	return tap_finish();
}
