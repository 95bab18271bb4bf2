// SPDX-License-Identifier: GPL-2.0
/*
 * test_sanitizer_samples - samples of `make run` are clean under
 * vgpu-sanitizer tools (TOOLS and SAMPLES: space-separated lists).  `make
 * check` runs every tool over a few samples; `make sanitizer-sweep` runs
 * one binary per tool over every sample (about 3.5 minutes each in a TCG
 * guest).
 *
 * For each sample: it exits with 0, as without the sanitizer, and the
 * tool's summary says there was nothing ("ERROR SUMMARY: 0 errors", or
 * for racecheck "RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0
 * warnings)").  A finding here is either a bug in the sample or a false
 * report of the sanitizer; both must be looked at.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rt_test_util.h"

#if !defined(VGPU_SANITIZER_BIN) || !defined(TOOLS) || !defined(SAMPLES) || \
	!defined(ROOT_DIR)
#error "build with -DVGPU_SANITIZER_BIN, -DTOOLS, -DSAMPLES, -DROOT_DIR"
#endif

static char out[1 << 20];

static int run(const char *cmd, char *buf, size_t cap)
{
	FILE *p = popen(cmd, "r");
	size_t n = 0, r;
	int status;

	if (!p)
		return -1;
	while ((r = fread(buf + n, 1, cap - 1 - n, p)) > 0) {
		n += r;
		if (n == cap - 1) {	/* keep the later half: the summary */
			memmove(buf, buf + cap / 2, n - cap / 2);
			n -= cap / 2;
		}
	}
	buf[n] = 0;
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Run every sample of SAMPLES under @tool. */
static void run_tool(const char *tool)
{
	char list[] = SAMPLES, cmd[1024], *save = NULL;
	const char *clean = !strcmp(tool, "racecheck") ?
		"========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, "
		"0 warnings)\n" : "========= ERROR SUMMARY: 0 errors\n";

	for (char *s = strtok_r(list, " ", &save); s;
	     s = strtok_r(NULL, " ", &save)) {
		const char *name = strrchr(s, '/') ? strrchr(s, '/') + 1 : s;
		int rc;

		snprintf(cmd, sizeof(cmd), "%s --tool %s %s 2>&1",
			 VGPU_SANITIZER_BIN, tool, s);
		rc = run(cmd, out, sizeof(out));
		if (!tap_ok(rc == 0 && strstr(out, clean),
			    "%s under %s: exit 0, nothing found (exit %d)",
			    name, tool, rc)) {
			const char *p = strstr(out, "========= ");

			tap_diag("%.2000s", p ? p : out);
		}
	}
}

static int words(const char *s)
{
	int n = 1;

	for (; *s; s++)
		n += *s == ' ';
	return n;
}

int main(void)
{
	char tools[] = TOOLS, *save = NULL;
	pid_t fw;

	tap_plan(words(TOOLS) * words(SAMPLES));
	fw = fw_launcher_start();
	if (fw < 0 || chdir(ROOT_DIR)) {
		tap_diag("cannot start the firmware");
		return 1;
	}
	for (char *t = strtok_r(tools, " ", &save); t;
	     t = strtok_r(NULL, " ", &save))
		run_tool(t);
	fw_launcher_stop(fw);
	return tap_finish();
}
