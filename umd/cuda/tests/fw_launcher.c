// SPDX-License-Identifier: GPL-2.0
/*
 * fw_launcher.c - start the firmware for a guest test (fw_launcher.h).
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fw_launcher.h"

/* TCG guests are slow: allow attaching to take this long. */
#define FW_ATTACH_TIMEOUT_MS	20000

bool fw_launcher_attached(unsigned int index)
{
	char path[64], state[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/misc/vgpu%u/firmware", index);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (!fgets(state, sizeof(state), f))
		state[0] = '\0';
	fclose(f);
	return !strncmp(state, "attached", 8);
}

/* build/tests/<dir>/<test> or build/tests/<test>: look for build/bin. */
static int fw_launcher_path(char *path, size_t len)
{
	const char *env = getenv("VGPU_FW");
	char exe[PATH_MAX], *dir;
	const char *up[] = { "/../bin/vgpu-fw", "/../../bin/vgpu-fw",
			     "/../../../bin/vgpu-fw" };
	ssize_t n;
	size_t i;

	if (env && *env) {
		snprintf(path, len, "%s", env);
		return 0;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return -errno;
	exe[n] = '\0';
	dir = dirname(exe);
	for (i = 0; i < sizeof(up) / sizeof(up[0]); i++) {
		snprintf(path, len, "%s%s", dir, up[i]);
		if (!access(path, X_OK))
			return 0;
	}
	return -ENOENT;
}

pid_t fw_launcher_start_on(unsigned int index)
{
	char path[PATH_MAX + 32], dev[32];
	int status, i, ret;
	pid_t pid;

	if (fw_launcher_attached(index))
		return 0;
	snprintf(dev, sizeof(dev), "/dev/vgpu%u", index);
	ret = fw_launcher_path(path, sizeof(path));
	if (ret)
		return ret;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		/* A test that dies must not leave its firmware running. */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		execl(path, "vgpu-fw", dev, (char *)NULL);
		_exit(127);
	}
	for (i = 0; i < FW_ATTACH_TIMEOUT_MS / 10; i++) {
		if (fw_launcher_attached(index))
			return pid;
		if (waitpid(pid, &status, WNOHANG) == pid)
			return -ECHILD;
		usleep(10000);
	}
	if (!kill(pid, SIGKILL))
		waitpid(pid, NULL, 0);
	return -ETIMEDOUT;
}

pid_t fw_launcher_start(void)
{
	return fw_launcher_start_on(0);
}

static void fw_launcher_wait_detached(unsigned int index)
{
	int i;

	/* The driver marks the device detached when the file closes. */
	for (i = 0; i < 500 && fw_launcher_attached(index); i++)
		usleep(10000);
}

void fw_launcher_stop_on(pid_t pid, unsigned int index)
{
	if (pid <= 0)
		return;
	if (!kill(pid, SIGTERM))
		waitpid(pid, NULL, 0);
	fw_launcher_wait_detached(index);
}

void fw_launcher_stop(pid_t pid)
{
	fw_launcher_stop_on(pid, 0);
}

void fw_launcher_kill(pid_t pid)
{
	if (pid <= 0)
		return;
	if (!kill(pid, SIGKILL))
		waitpid(pid, NULL, 0);
	fw_launcher_wait_detached(0);
}
