// SPDX-License-Identifier: GPL-2.0
/*
 * test_sanitizer_samples - every sample of `make run` is clean under one
 * vgpu-sanitizer tool (TOOL, one test binary per tool so that each stays
 * well inside the guest's time limit: about 3.5 minutes in a TCG guest).
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

#if !defined(VGPU_SANITIZER_BIN) || !defined(TOOL) || !defined(SAMPLES) || \
	!defined(ROOT_DIR)
#error "build with -DVGPU_SANITIZER_BIN, -DTOOL, -DSAMPLES, -DROOT_DIR"
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

int main(void)
{
	char list[] = SAMPLES, cmd[1024], *save = NULL;
	const char *clean = !strcmp(TOOL, "racecheck") ?
		"========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, "
		"0 warnings)\n" : "========= ERROR SUMMARY: 0 errors\n";
	int n = 0;
	pid_t fw;

	for (const char *p = list; *p; p++)
		n += *p == ' ';
	tap_plan(n + 1);
	fw = fw_launcher_start();
	if (fw < 0 || chdir(ROOT_DIR)) {
		tap_diag("cannot start the firmware");
		return 1;
	}
	for (char *s = strtok_r(list, " ", &save); s;
	     s = strtok_r(NULL, " ", &save)) {
		const char *name = strrchr(s, '/') ? strrchr(s, '/') + 1 : s;
		int rc;

		snprintf(cmd, sizeof(cmd), "%s --tool %s %s 2>&1",
			 VGPU_SANITIZER_BIN, TOOL, s);
		rc = run(cmd, out, sizeof(out));
		if (!tap_ok(rc == 0 && strstr(out, clean),
			    "%s under %s: exit 0, nothing found (exit %d)",
			    name, TOOL, rc)) {
			const char *p = strstr(out, "========= ");

			tap_diag("%.2000s", p ? p : out);
		}
	}
	fw_launcher_stop(fw);
	return tap_finish();
}
