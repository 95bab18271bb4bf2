// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_fuzz.c - a bounded, seeded ioctl/mmap fuzzer for /dev/vgpu0
 *
 * For a few seconds, several threads issue random commands with random
 * argument bytes on a few shared open files (and one private file each,
 * which they also close and reopen): mostly known commands with arguments
 * biased towards interesting values (small handles, page multiples, zero,
 * all-ones), some entirely random command numbers and sizes, random mmap
 * offsets, munmap, read and poll.  The threads race on the same handles,
 * which is the point.  Afterwards every file is closed, and the device's
 * accounting must be back to zero.  The guest runner fails the run if the
 * kernel log shows an oops or a WARN.  The selftests' test firmware serves
 * the device meanwhile (contexts need one), and runs whatever the fuzzer
 * writes into rings.
 *
 *   VGPU_FUZZ_SEED     seed (default 1); printed.  With one thread
 *                      (VGPU_FUZZ_THREADS=1) a run replays exactly.
 *   VGPU_FUZZ_SECONDS  duration (default 3)
 *   VGPU_FUZZ_THREADS  threads (default 3)
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "vgpu_lib.h"

#define NFILES		3	/* shared by all threads */
#define NMAPS		64
#define ARGBUF		16384
#define SCRATCH		(64 * 4096)
#define MAX_THREADS	8

static int shared_fds[NFILES];
static uint8_t *scratch;
static uint64_t end_ns;

/* One thread's state: nothing here is shared. */
struct fuzz {
	uint64_t rng;
	int own_fd;
	struct { void *addr; size_t len; } maps[NMAPS];
	uint8_t *arg;
	unsigned long calls, ok;
	unsigned long errs[256];
};

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
	VGPU_IOCTL_FW_ACK,
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

	if (p == MAP_FAILED)
		return;
	if (fz->maps[slot].addr)
		munmap(fz->maps[slot].addr, fz->maps[slot].len);
	fz->maps[slot].addr = p;
	fz->maps[slot].len = len;
}

static void fuzz_other(struct fuzz *fz, int fd)
{
	uint64_t buf[8];
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	switch (rnd() % 4) {
	case 0:
		close(fz->own_fd);
		fz->own_fd = open(VGPU_DEV, O_RDWR | O_NONBLOCK | O_CLOEXEC);
		break;
	case 1:
		if (read(fd, buf, rnd() % sizeof(buf)) < 0)
			fz->errs[errno < 256 ? errno : 0]++;
		break;
	case 2:
		poll(&pfd, 1, 0);
		break;
	default: {
		int slot = rnd() % NMAPS;

		if (fz->maps[slot].addr)
			munmap(fz->maps[slot].addr, fz->maps[slot].len);
		fz->maps[slot].addr = NULL;
	}
	}
}

static void *fuzz_thread(void *arg)
{
	struct fuzz *fz = arg;

	fz->arg = malloc(ARGBUF);
	fz->own_fd = open(VGPU_DEV, O_RDWR | O_NONBLOCK | O_CLOEXEC);
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
	for (int i = 0; i < NMAPS; i++)
		if (fz->maps[i].addr)
			munmap(fz->maps[i].addr, fz->maps[i].len);
	close(fz->own_fd);
	free(fz->arg);
	return NULL;
}

int main(void)
{
	const char *s_seed = getenv("VGPU_FUZZ_SEED");
	const char *s_secs = getenv("VGPU_FUZZ_SECONDS");
	const char *s_threads = getenv("VGPU_FUZZ_THREADS");
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
		for (i = 0; i < 256; i++)
			errs[i] += fz[t].errs[i];
	}
	printf("# %lu calls, %lu succeeded\n", calls, ok);
	for (i = 1; i < 256; i++)
		if (errs[i])
			printf("#   %-10s %lu\n", strerrorname_np(i), errs[i]);
	/* Enough successes that the fuzzer reached the driver's depths. */
	printf("%s 1 fuzz_ioctls\n", ok > calls / 50 ? "ok" : "not ok");
	fails += ok <= calls / 50;

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
