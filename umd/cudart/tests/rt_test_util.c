// SPDX-License-Identifier: GPL-2.0
/*
 * TAP output and the build directory of the runtime's guest tests.
 * See rt_test_util.h.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rt_test_util.h"

static int tap_count, tap_failed;
static bool tap_plan_given;

void tap_plan(int count)
{
	printf("TAP version 13\n");
	if (count >= 0)
		printf("1..%d\n", count);
	tap_plan_given = count >= 0;
	fflush(stdout);
}

static void tap_line(bool ok, const char *directive, const char *fmt,
		     va_list ap)
{
	printf("%s %d ", ok ? "ok" : "not ok", ++tap_count);
	vprintf(fmt, ap);
	if (directive)
		printf(" # %s", directive);
	printf("\n");
	fflush(stdout);
}

bool tap_ok(bool ok, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_line(ok, NULL, fmt, ap);
	va_end(ap);
	tap_failed += !ok;
	return ok;
}

void tap_skip(const char *why, const char *fmt, ...)
{
	char directive[256];
	va_list ap;

	snprintf(directive, sizeof(directive), "SKIP %s", why);
	va_start(ap, fmt);
	tap_line(true, directive, fmt, ap);
	va_end(ap);
}

void tap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

void rt_test_in_child(const char *name, void (*fn)(void))
{
	int counts[2] = { 0, 0 }, fds[2], status;
	pid_t pid;

	fflush(stdout);
	if (pipe(fds)) {
		tap_ok(false, "%s: pipe: %s", name, strerror(errno));
		return;
	}
	pid = fork();
	if (pid < 0) {
		tap_ok(false, "%s: fork: %s", name, strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (pid == 0) {
		close(fds[0]);
		fn();
		counts[0] = tap_count;
		counts[1] = tap_failed;
		fflush(stdout);
		_exit(write(fds[1], counts, sizeof(counts)) == sizeof(counts) ?
		      0 : 1);
	}
	close(fds[1]);
	if (read(fds[0], counts, sizeof(counts)) == sizeof(counts)) {
		tap_count = counts[0];
		tap_failed = counts[1];
	}
	close(fds[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		tap_ok(false, "%s: the child process ended abnormally (status "
		       "%#x)", name, status);
}

pid_t rt_test_start_fw_vgpu1(void)
{
	pid_t pid = access("/dev/vgpu1", F_OK) ? 0 : fw_launcher_start_on(1);

	if (pid < 0)
		tap_diag("cannot start the firmware of vgpu1: %s",
			 strerror((int)-pid));
	return pid;
}

int tap_finish(void)
{
	if (!tap_plan_given)
		printf("1..%d\n", tap_count);
	printf("# Totals: pass:%d fail:%d\n", tap_count - tap_failed,
	       tap_failed);
	return tap_failed ? 1 : 0;
}

const char *rt_test_build_dir(void)
{
	static char dir[PATH_MAX];
	char exe[PATH_MAX], up[PATH_MAX + 8];
	ssize_t n;

	if (dir[0])
		return dir;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return "build";
	exe[n] = '\0';
	/* <root>/build/tests/cudart/<test> -> <root>/build */
	snprintf(up, sizeof(up), "%s/../..", dirname(exe));
	if (!realpath(up, dir))
		memcpy(dir, "build", sizeof("build"));
	return dir;
}

