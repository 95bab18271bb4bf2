// SPDX-License-Identifier: GPL-2.0
/*
 * kill_trials.c - SIGKILL CUDA programs at random moments; the device must
 * give everything back and keep computing
 *
 *   kill_trials            (in a guest with the firmware running: the
 *                           kill_trials.vmargs beside it says --fw)
 *
 * Each trial starts kill_work (beside this program) doing one kind of work
 * - copies, kernels, host functions, pinned or mapped memory, graphs, IPC
 * between two processes, or all of them in turn - kills it with SIGKILL
 * after a random delay (anywhere from before CUDA is initialised to deep in
 * its work), and then checks that
 *
 *  1. the workload had not failed on its own before the kill;
 *  2. all of the device's accounting returns to zero (sysfs: VRAM used and
 *     resident, GART entries, pinned pages, contexts, queues), with the
 *     firmware still attached;
 *  3. the next program computes correctly (kill_work check: every kind of
 *     work once, each result compared with the CPU's).
 *
 *   KILL_TRIALS   number of trials (default 20: what make check runs;
 *                 make kill-test runs 1000)
 *   KILL_SEED     seed of the delays (default 1); printed
 *   KILL_MAX_MS   longest delay before the kill (default 2000)
 *
 * Prints TAP: one case per check, the figures (trials, kills, time,
 * findings) as comments.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vgpu_lib.h"

static const char *const modes[] = {
	"copy", "kernel", "hostfn", "pinned", "mapped", "graph", "ipc", "all",
};
#define NMODES	(sizeof(modes) / sizeof(modes[0]))

static uint64_t rng;

static uint64_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dull;
}

static unsigned long env_num(const char *name, unsigned long dflt)
{
	const char *s = getenv(name);

	return s && *s ? strtoul(s, NULL, 0) : dflt;
}

/* Run @prog @mode; its output (PASSED) is not ours: only its errors. */
static pid_t start(const char *prog, const char *mode)
{
	pid_t pid = fork();

	if (!pid) {
		if (!freopen("/dev/null", "w", stdout))
			_exit(127);
		execl(prog, prog, mode, (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* Sleep up to @ms, or until @pid exits; its wait status, or -1 if alive. */
static int sleep_or_exit(pid_t pid, unsigned long ms)
{
	uint64_t end = vgpu_now_ns() + ms * 1000000ull;
	int status;

	do {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return status;
		usleep(2000);
	} while (vgpu_now_ns() < end);
	return -1;
}

/* Settle for up to @s seconds: an exiting process's memory is given back
 * once the firmware has acknowledged the destruction of its objects. */
static bool accounting_idle(unsigned int s)
{
	uint64_t end = vgpu_now_ns() + s * 1000000000ull;

	while (vgpu_now_ns() < end) {
		if (!vgpu_sysfs_num("vram_used_bytes") &&
		    !vgpu_sysfs_num("vram_resident_bytes") &&
		    !vgpu_sysfs_num("gart_entries_used") &&
		    !vgpu_sysfs_num("pinned_pages") &&
		    !vgpu_sysfs_num("contexts") && !vgpu_sysfs_num("queues"))
			return true;
		usleep(10000);
	}
	return vgpu_accounting_idle();	/* prints what is left */
}

static bool firmware_attached(void)
{
	char buf[32] = "";

	return !vgpu_sysfs_str("firmware", buf, sizeof(buf)) &&
	       !strncmp(buf, "attached", 8);
}

int main(int argc, char **argv)
{
	unsigned long trials = env_num("KILL_TRIALS", 20);
	unsigned long seed = env_num("KILL_SEED", 1);
	unsigned long max_ms = env_num("KILL_MAX_MS", 2000);
	unsigned long killed = 0, early = 0, leaks = 0, wrong = 0;
	unsigned long per_mode[NMODES] = { 0 };
	char work[PATH_MAX], self[PATH_MAX];
	uint64_t t0 = vgpu_now_ns();
	ssize_t n;

	(void)argc;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0) {
		perror("kill_trials: /proc/self/exe");
		return 1;
	}
	self[n] = 0;
	snprintf(work, sizeof(work), "%s/kill_work", dirname(self));
	(void)argv;
	rng = seed * 0x9e3779b97f4a7c15ull + 1;
	printf("TAP version 13\n1..3\n");
	printf("# %lu trials, seed %lu, kills within %lu ms\n", trials, seed,
	       max_ms);
	if (!firmware_attached()) {
		printf("not ok 1 # no firmware attached (run with --fw)\n");
		return 1;
	}

	for (unsigned long t = 0; t < trials; t++) {
		unsigned int m = t % NMODES;
		unsigned long ms = rnd() % (max_ms + 1);
		pid_t pid = start(work, modes[m]);
		int status = sleep_or_exit(pid, ms);
		pid_t check;

		per_mode[m]++;
		if (status == -1) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			killed++;
		} else {
			/* It ends only by failing: rounds are unbounded. */
			printf("# trial %lu (%s): exited on its own (status %#x) before the kill at %lu ms\n",
			       t, modes[m], status, ms);
			early++;
		}
		if (!accounting_idle(30) || !firmware_attached()) {
			printf("# trial %lu (%s, killed at %lu ms): accounting not back to zero or firmware gone\n",
			       t, modes[m], ms);
			leaks++;
		}
		check = start(work, "check");
		if (waitpid(check, &status, 0) != check || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			printf("# trial %lu (%s, killed at %lu ms): the next program failed (status %#x)\n",
			       t, modes[m], ms, status);
			wrong++;
		}
		if (!accounting_idle(30)) {
			printf("# trial %lu: accounting not back to zero after the check\n",
			       t);
			leaks++;
		}
		if ((t + 1) % 100 == 0)
			printf("# %lu trials, %.0f s\n", t + 1,
			       (vgpu_now_ns() - t0) / 1e9);
		fflush(stdout);
	}

	printf("# per kind of work:");
	for (unsigned int m = 0; m < NMODES; m++)
		printf(" %s %lu", modes[m], per_mode[m]);
	printf("\n# %lu trials, %lu killed, %lu failed before the kill, %lu not back to zero, %lu wrong next programs, %.0f s\n",
	       trials, killed, early, leaks, wrong,
	       (vgpu_now_ns() - t0) / 1e9);
	printf("%s 1 workloads_run_until_killed\n", early ? "not ok" : "ok");
	printf("%s 2 accounting_returns_to_zero\n", leaks ? "not ok" : "ok");
	printf("%s 3 next_program_computes\n", wrong ? "not ok" : "ok");
	printf("# Totals: pass:%d fail:%d\n", !early + !leaks + !wrong,
	       !!early + !!leaks + !!wrong);
	return early || leaks || wrong;
}
