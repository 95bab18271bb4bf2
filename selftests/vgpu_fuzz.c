// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_fuzz.c - a seeded ioctl/mmap fuzzer for /dev/vgpu0
 *
 * For a while, several threads issue random commands with random argument
 * bytes on a few shared open files (and one private file each, which they
 * also close and reopen): mostly known commands with arguments biased
 * towards interesting values (small handles, page multiples, zero,
 * all-ones), some entirely random command numbers and sizes, random mmap
 * offsets (and a read of what was mapped), munmap of any thread's mapping,
 * read and poll.  The threads race on the same handles, which is the point.
 * Around them:
 *
 *  - privilege drops: a thread may give up root for good (its own
 *    credentials only: the raw setresuid system call), so objects created
 *    by root are freed, mapped and charged by an unprivileged user on the
 *    same file, and the other way round;
 *  - fork: a thread forks a child that fuzzes the inherited files for a
 *    moment and exits, or is killed with SIGKILL mid-call;
 *  - close: a shared file is replaced (dup2) under the threads using it;
 *  - fault injection: where the kernel has failslab and fail_page_alloc
 *    (the debug kernel), a few per cent of the fuzzing threads' kernel
 *    allocations fail, so the driver's error paths run.
 *
 * Afterwards every file is closed, and the device's accounting must be
 * back to zero.  The guest runner fails the run if the kernel log shows an
 * oops, a WARN or a KASAN/lockdep/kmemleak report.  The selftests' test
 * firmware serves the device meanwhile (contexts need one), and runs
 * whatever the fuzzer writes into rings.
 *
 *   VGPU_FUZZ_SEED     seed (default 1); printed.  With one thread
 *                      (VGPU_FUZZ_THREADS=1) and no forks a run replays.
 *   VGPU_FUZZ_SECONDS  duration (default 3; `make fuzz DURATION=...`)
 *   VGPU_FUZZ_THREADS  threads (default 3)
 *   VGPU_FUZZ_FAULTS   percentage of failed allocations when the kernel
 *                      can inject them (default 2; 0: none)
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vgpu_lib.h"

#define NFILES		3	/* shared by all threads */
#define NMAPS		64
#define ARGBUF		16384
#define SCRATCH		(64 * 4096)
#define MAX_THREADS	8

#define UNPRIVILEGED	65534	/* nobody */

static int shared_fds[NFILES];
static uint8_t *scratch;
static uint64_t end_ns;

/*
 * Mappings, shared by all threads: any thread may unmap any of them while
 * another maps or fuzzes.  A slot is taken with an atomic exchange, so each
 * mapping is unmapped exactly once.
 */
struct map {
	_Atomic(void *) addr;
	size_t len;	/* written before addr is published */
};
static struct map maps[NMAPS];

/* One thread's state: nothing here is shared. */
struct fuzz {
	uint64_t rng;
	int own_fd;
	uint8_t *arg;
	bool dropped;
	unsigned long calls, ok, forks, kills, drops, reopens, touches;
	unsigned long touch_faults;
	unsigned long errs[256];
};

/* A read of a fresh mapping may fault (SIGBUS): the thread recovers. */
static __thread sigjmp_buf touch_env;
static __thread volatile sig_atomic_t touching;

static void on_fault(int sig)
{
	if (!touching) {
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	siglongjmp(touch_env, 1);
}

static uint64_t rnd_r(struct fuzz *fz)
{
	/* xorshift64* */
	fz->rng ^= fz->rng >> 12;
	fz->rng ^= fz->rng << 25;
	fz->rng ^= fz->rng >> 27;
	return fz->rng * 0x2545f4914f6cdd1dull;
}

#define rnd() rnd_r(fz)

static const unsigned long known_cmds[] = {
	VGPU_IOCTL_GET_INFO, VGPU_IOCTL_CTX_CREATE, VGPU_IOCTL_CTX_DESTROY,
	VGPU_IOCTL_CTX_STATUS, VGPU_IOCTL_VRAM_ALLOC, VGPU_IOCTL_HOST_ALLOC,
	VGPU_IOCTL_HOST_REGISTER, VGPU_IOCTL_MEM_FREE, VGPU_IOCTL_MAP,
	VGPU_IOCTL_UNMAP, VGPU_IOCTL_QUEUE_CREATE, VGPU_IOCTL_QUEUE_DESTROY,
	VGPU_IOCTL_QUEUE_KICK, VGPU_IOCTL_WAIT, VGPU_IOCTL_QUEUE_EVENTFD,
	VGPU_IOCTL_MEM_EXPORT, VGPU_IOCTL_MEM_IMPORT,
	VGPU_IOCTL_FW_ATTACH, VGPU_IOCTL_FW_SIGNAL, VGPU_IOCTL_FW_FAULT,
	VGPU_IOCTL_FW_ACK, VGPU_IOCTL_FW_PEER,
};
#define NKNOWN	(sizeof(known_cmds) / sizeof(known_cmds[0]))

/* One 32-bit word, biased towards values the driver treats specially. */
static uint32_t interesting_word(struct fuzz *fz)
{
	switch (rnd() % 10) {
	case 0: case 1: case 2: case 3:
		return 0;
	case 4: case 5: case 6:
		return rnd() % 9;
	case 7:
		return (rnd() % 256) << 12;
	case 8:
		return ~0u;
	default:
		return rnd();
	}
}

static void fill_args(struct fuzz *fz, unsigned long cmd)
{
	uint32_t *w = (uint32_t *)fz->arg;
	uint64_t now = vgpu_now_ns();

	for (size_t i = 0; i < ARGBUF / 4; i++)
		w[i] = i < 64 ? interesting_word(fz) : rnd();
	/* Keep the fuzzer bounded in time, and let it pin real memory. */
	if (cmd == VGPU_IOCTL_WAIT) {
		struct vgpu_wait *a = (void *)fz->arg;

		a->timeout_ns = now + rnd() % 2000000;
	} else if (cmd == VGPU_IOCTL_HOST_REGISTER && rnd() % 2) {
		struct vgpu_host_register *a = (void *)fz->arg;

		a->addr = (uintptr_t)scratch + (rnd() % 64) * 4096;
		a->size = (rnd() % 16) * 4096;
	}
}

static void fuzz_ioctl(struct fuzz *fz, int fd)
{
	unsigned long cmd;
	int ret;

	if (rnd() % 8) {
		cmd = known_cmds[rnd() % NKNOWN];
	} else {
		/* Any number, direction and size (and sometimes type). */
		cmd = _IOC(rnd() % 4, rnd() % 8 ? VGPU_IOCTL_BASE : rnd() % 256,
			   rnd() % 0x50, rnd() % 512);
		if (cmd == VGPU_IOCTL_WAIT)
			return;
	}
	fill_args(fz, cmd);
	ret = ioctl(fd, cmd, fz->arg);
	fz->calls++;
	if (!ret)
		fz->ok++;
	else if (errno < 256)
		fz->errs[errno]++;
}

static void unmap_slot(int slot)
{
	void *old = atomic_exchange(&maps[slot].addr, NULL);

	if (old)
		munmap(old, maps[slot].len);
}

static void fuzz_mmap(struct fuzz *fz, int fd)
{
	static const unsigned int kinds[] = { 1, 2, 3, 4, 8, 9, 10, 11, 0, 31 };
	uint64_t off = (uint64_t)kinds[rnd() % 10] << 58 |
		       (rnd() % 8) << 36 | (rnd() % 4) << 12;
	size_t len = (1 + rnd() % 4) * 4096;
	int prot = (rnd() % 2 ? PROT_READ : 0) | (rnd() % 2 ? PROT_WRITE : 0);
	int flags = rnd() % 8 ? MAP_SHARED : MAP_PRIVATE;
	int slot = rnd() % NMAPS;
	void *p = mmap(NULL, len, prot, flags, fd, off);
	void *expect = NULL;

	if (p == MAP_FAILED)
		return;
	/* Fault a page in while the mapping is still only ours. */
	if (prot & PROT_READ) {
		fz->touches++;
		touching = 1;
		if (!sigsetjmp(touch_env, 1))
			(void)*(volatile uint8_t *)(p + (rnd() % (len / 4096)) * 4096);
		else
			fz->touch_faults++;
		touching = 0;
	}
	/* Publish it in a free slot, or unmap it again. */
	if (atomic_load(&maps[slot].addr) ||
	    (maps[slot].len = len,
	     !atomic_compare_exchange_strong(&maps[slot].addr, &expect, p)))
		munmap(p, len);
}

/*
 * Give up root for good, in this thread only: the raw system calls change
 * the calling thread's credentials (glibc's wrappers would change every
 * thread's).  Losing uid 0 drops every capability.
 */
static void drop_privileges(struct fuzz *fz)
{
	if (fz->dropped)
		return;
	if (syscall(SYS_setresgid, UNPRIVILEGED, UNPRIVILEGED, UNPRIVILEGED) ||
	    syscall(SYS_setresuid, UNPRIVILEGED, UNPRIVILEGED, UNPRIVILEGED))
		return;
	fz->dropped = true;
	fz->drops++;
}

/* A new file: opened, or (without the right to open) a copy of one. */
static int new_file(void)
{
	int fd = open(VGPU_DEV, O_RDWR | O_NONBLOCK | O_CLOEXEC);

	return fd >= 0 ? fd : fcntl(shared_fds[0], F_DUPFD_CLOEXEC, 0);
}

/*
 * A child that fuzzes the files it inherited (its mappings are not
 * inherited: VM_DONTCOPY), then exits; or is killed while it does.
 */
static void fuzz_fork(struct fuzz *fz)
{
	pid_t pid = fork();

	if (pid < 0)
		return;
	if (!pid) {
		fz->rng ^= (uint64_t)getpid() << 32;
		for (int n = 0; n < 32; n++)
			fuzz_ioctl(fz, rnd() % 2 ? fz->own_fd :
				   shared_fds[rnd() % NFILES]);
		_exit(0);
	}
	fz->forks++;
	if (rnd() % 2) {
		usleep(rnd() % 2000);
		kill(pid, SIGKILL);
		fz->kills++;
	}
	waitpid(pid, NULL, 0);
}

static void fuzz_other(struct fuzz *fz, int fd)
{
	uint64_t buf[8];
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	switch (rnd() % 8) {
	case 0:
		close(fz->own_fd);
		fz->own_fd = new_file();
		break;
	case 1: {
		/* Replace a shared file under the threads using it. */
		int nfd = new_file();

		if (nfd >= 0) {
			dup3(nfd, shared_fds[rnd() % NFILES], O_CLOEXEC);
			close(nfd);
			fz->reopens++;
		}
		break;
	}
	case 2:
		if (read(fd, buf, rnd() % sizeof(buf)) < 0)
			fz->errs[errno < 256 ? errno : 0]++;
		break;
	case 3:
		poll(&pfd, 1, 0);
		break;
	case 4:
		fuzz_fork(fz);
		break;
	case 5:
		/* Rare: most of a run keeps root's rights. */
		if (rnd() % 16 == 0)
			drop_privileges(fz);
		break;
	default:
		unmap_slot(rnd() % NMAPS);
	}
}

static bool inject_faults;

/* Fault injection applies to the tasks that ask for it: the fuzzers. */
static void make_it_fail(void)
{
	FILE *f;

	if (!inject_faults)
		return;
	f = fopen("/proc/thread-self/make-it-fail", "w");
	if (f) {
		fputs("1", f);
		fclose(f);
	}
}

static void *fuzz_thread(void *arg)
{
	struct fuzz *fz = arg;

	fz->arg = malloc(ARGBUF);
	fz->own_fd = open(VGPU_DEV, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	make_it_fail();
	while (fz->arg && vgpu_now_ns() < end_ns) {
		for (int n = 0; n < 64; n++) {
			unsigned int op = rnd() % 100;
			unsigned int i = rnd() % (NFILES + 1);
			int fd = i < NFILES ? shared_fds[i] : fz->own_fd;

			if (op < 85)
				fuzz_ioctl(fz, fd);
			else if (op < 95)
				fuzz_mmap(fz, fd);
			else
				fuzz_other(fz, fd);
		}
	}
	close(fz->own_fd);
	free(fz->arg);
	return NULL;
}

/*
 * failslab and fail_page_alloc (debugfs), when the kernel has them: fail
 * @pct per cent of the allocations of the tasks that ask (make-it-fail),
 * sleeping ones included, silently (a stack trace per failure would flood
 * the log the runner judges).  "times" counts down with each failure, so
 * what is left of it says how many were injected.
 */
#define FAULT_TIMES	1000000000L
static const char *const fault_dirs[] = {
	"/sys/kernel/debug/failslab", "/sys/kernel/debug/fail_page_alloc",
};

static int write_attr(const char *dir, const char *attr, const char *val)
{
	char path[128];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	f = fopen(path, "w");
	if (!f)
		return -1;
	ret = fputs(val, f) < 0;
	return fclose(f) || ret ? -1 : 0;
}

static bool faults_setup(unsigned int pct)
{
	char p[16], times[24];
	FILE *kmsg;

	snprintf(p, sizeof(p), "%u", pct);
	snprintf(times, sizeof(times), "%ld", FAULT_TIMES);
	for (size_t i = 0; i < 2; i++) {
		const char *d = fault_dirs[i];

		if (access(d, F_OK))
			return false;
		if (write_attr(d, "task-filter", "Y") ||
		    write_attr(d, "verbose", "0") ||
		    write_attr(d, "ignore-gfp-wait", "N") ||
		    write_attr(d, "interval", "1") ||
		    write_attr(d, "times", times) ||
		    write_attr(d, "probability", p))
			return false;
	}
	/* Tell the guest runner (tools/vgpu-vm) the warnings are ours. */
	kmsg = fopen("/dev/kmsg", "w");
	if (kmsg) {
		fputs("vgpu-vm: allocation failures expected\n", kmsg);
		fclose(kmsg);
	}
	return true;
}

/* Stop injecting; the number of failures injected so far. */
static long faults_stop(void)
{
	long injected = 0;

	for (size_t i = 0; i < 2; i++) {
		char path[128];
		long left = FAULT_TIMES;
		FILE *f;

		write_attr(fault_dirs[i], "probability", "0");
		snprintf(path, sizeof(path), "%s/times", fault_dirs[i]);
		f = fopen(path, "r");
		if (f) {
			if (fscanf(f, "%ld", &left) != 1)
				left = FAULT_TIMES;
			fclose(f);
		}
		injected += FAULT_TIMES - left;
	}
	return injected;
}

int main(void)
{
	const char *s_seed = getenv("VGPU_FUZZ_SEED");
	const char *s_secs = getenv("VGPU_FUZZ_SECONDS");
	const char *s_threads = getenv("VGPU_FUZZ_THREADS");
	const char *s_faults = getenv("VGPU_FUZZ_FAULTS");
	unsigned int fault_pct = s_faults ? atoi(s_faults) : 2;
	unsigned long forks = 0, kills = 0, drops = 0, reopens = 0;
	unsigned long touches = 0, touch_faults = 0;
	struct sigaction sa = { .sa_handler = on_fault };
	long injected = 0;
	uint64_t seed = s_seed ? strtoull(s_seed, NULL, 0) : 1;
	uint64_t secs = s_secs ? strtoull(s_secs, NULL, 0) : 3;
	int nthreads = s_threads ? atoi(s_threads) : 3;
	struct rlimit rl = { 8 << 20, 8 << 20 };
	static struct fuzz fz[MAX_THREADS];
	pthread_t tids[MAX_THREADS];
	unsigned long calls = 0, ok = 0, errs[256] = { 0 };
	int i, t, fails = 0;
	pid_t fw;

	if (nthreads < 1 || nthreads > MAX_THREADS)
		nthreads = 3;
	printf("TAP version 13\n1..2\n# seed %llu, %llu s, %d threads\n",
	       (unsigned long long)seed, (unsigned long long)secs, nthreads);
	/* Bound what pinning may take from the guest. */
	vgpu_drop_cap(CAP_IPC_LOCK);
	setrlimit(RLIMIT_MEMLOCK, &rl);
	scratch = mmap(NULL, SCRATCH, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	fw = vgpu_test_fw_start();
	for (i = 0; i < NFILES; i++)
		shared_fds[i] = open(VGPU_DEV, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (scratch == MAP_FAILED || shared_fds[0] < 0 || fw < 0) {
		printf("not ok 1 fuzz setup\nnot ok 2 accounting\n");
		return 1;
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGSEGV, &sa, NULL);
	inject_faults = fault_pct && faults_setup(fault_pct);
	printf("# fault injection: %s\n", inject_faults ?
	       "failslab and fail_page_alloc" : fault_pct ?
	       "not in this kernel" : "off");

	end_ns = vgpu_now_ns() + secs * 1000000000ull;
	for (t = 0; t < nthreads; t++) {
		fz[t].rng = (seed + t) * 0x9e3779b97f4a7c15ull + 1;
		if (pthread_create(&tids[t], NULL, fuzz_thread, &fz[t]))
			return 1;
	}
	for (t = 0; t < nthreads; t++) {
		pthread_join(tids[t], NULL);
		calls += fz[t].calls;
		ok += fz[t].ok;
		forks += fz[t].forks;
		kills += fz[t].kills;
		drops += fz[t].drops;
		reopens += fz[t].reopens;
		touches += fz[t].touches;
		touch_faults += fz[t].touch_faults;
		for (i = 0; i < 256; i++)
			errs[i] += fz[t].errs[i];
	}
	if (inject_faults)
		injected = faults_stop();
	printf("# %lu calls, %lu succeeded\n", calls, ok);
	printf("# %lu forks (%lu killed), %lu threads dropped root, %lu shared files replaced\n",
	       forks, kills, drops, reopens);
	printf("# %lu mapped pages read (%lu faulted), %ld allocations failed on purpose\n",
	       touches, touch_faults, injected);
	for (i = 1; i < 256; i++)
		if (errs[i])
			printf("#   %-10s %lu\n", strerrorname_np(i), errs[i]);
	/* Enough successes that the fuzzer reached the driver's depths. */
	printf("%s 1 fuzz_ioctls\n", ok > calls / 50 ? "ok" : "not ok");
	fails += ok <= calls / 50;

	for (i = 0; i < NMAPS; i++)
		unmap_slot(i);
	for (i = 0; i < NFILES; i++)
		close(shared_fds[i]);
	/* Descriptors of exported objects hold memory too. */
	for (i = 3; i < 1024; i++)
		close(i);
	vgpu_test_fw_kill(fw);
	if (vgpu_accounting_idle()) {
		printf("ok 2 accounting_idle_after_fuzz\n");
	} else {
		printf("not ok 2 accounting_idle_after_fuzz\n");
		fails++;
	}
	printf("# Totals: pass:%d fail:%d\n", 2 - fails, fails);
	return fails ? 1 : 0;
}
