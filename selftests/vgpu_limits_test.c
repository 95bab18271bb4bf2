// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_limits_test.c - no user can take the device from the others
 *
 * Each exhaustion path of the per-user limits (kmod/vgpu_user.c): VRAM,
 * GART entries and queue memory.  The tests run as root and lower the
 * limits through the writable module parameters, so that a limit is
 * reached with a few MiB; the work that must be refused runs in a child
 * that opened the device as root and then became an unprivileged user
 * (setuid drops CAP_SYS_RESOURCE, which would lift the limits).  Each test
 * checks that:
 *
 *  - the user is refused with -EDQUOT at its limit, not before;
 *  - another process of the same user is refused too (the limit is the
 *    user's, not the process's or the file's);
 *  - another user can still create its first context and use the device;
 *  - everything is given back when the processes exit.
 *
 * And the kernel's own limit: every allocation the driver makes for a
 * process is charged to the process's memory cgroup, so a process in a
 * cgroup with a small memory.max cannot take more than that through the
 * driver - it is refused or OOM-killed within its cgroup - while the
 * firmware, outside it, keeps serving everyone.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "vgpu_lib.h"

#define MiB		(1024ull * 1024)
#define USER_A		65534
#define USER_B		65533

/* Exit statuses of the children. */
#define CHILD_OK	0
#define CHILD_SETUP	10	/* open, setuid, rlimit */
#define CHILD_EARLY	11	/* refused before the limit */
#define CHILD_ERRNO	12	/* refused with something else than -EDQUOT */
#define CHILD_NEVER	13	/* never refused */
#define CHILD_USE	14	/* could not use the device */

FIXTURE(limits) {
	long long vram_limit, gart_limit, queue_limit;
	pid_t fw;	/* contexts need a firmware */
};

static void set_param(const char *name, const char *value)
{
	if (vgpu_param_write(name, value))
		fprintf(stderr, "# cannot set %s=%s\n", name, value);
}

FIXTURE_SETUP(limits)
{
	self->fw = vgpu_test_fw_start();
	ASSERT_LT(0, self->fw) TH_LOG("test firmware: %s", strerror(-self->fw));
	ASSERT_EQ(0, vgpu_param_write("user_vram_pct", "5"));
	ASSERT_EQ(0, vgpu_param_write("user_gart_pct", "1"));
	ASSERT_EQ(0, vgpu_param_write("user_queue_mb", "4"));
	self->vram_limit = vgpu_sysfs_num("user_vram_limit_bytes");
	self->gart_limit = vgpu_sysfs_num("user_gart_limit_entries");
	self->queue_limit = vgpu_sysfs_num("user_queue_limit_bytes");
}

FIXTURE_TEARDOWN(limits)
{
	set_param("user_vram_pct", "50");
	set_param("user_gart_pct", "50");
	set_param("user_queue_mb", "64");
	vgpu_test_fw_kill(self->fw);
	EXPECT_TRUE(vgpu_accounting_idle());
}

/* Open the device as root, then become @uid for good; -1 on failure. */
static int open_as(uid_t uid)
{
	struct rlimit unlimited = { RLIM_INFINITY, RLIM_INFINITY };
	int fd = vgpu_open();

	/* Let the per-user GART limit, not RLIMIT_MEMLOCK, be what stops. */
	if (fd < 0 || setrlimit(RLIMIT_MEMLOCK, &unlimited) ||
	    setresgid(uid, uid, uid) || setresuid(uid, uid, uid))
		return -1;
	return fd;
}

/* What one step of an exhaustion loop allocates. */
enum what { VRAM, HOST, QUEUE };

static int alloc_one(int fd, enum what what, uint64_t size, uint32_t ctx)
{
	struct vgpu_host_alloc h = { .size = size };
	struct vgpu_queue_create q = { .ctx = ctx, .ring_size = size };
	uint32_t handle;

	switch (what) {
	case VRAM:
		return vgpu_vram_alloc(fd, size, &handle);
	case HOST:
		return vgpu_ioctl(fd, VGPU_IOCTL_HOST_ALLOC, &h);
	default:
		return vgpu_ioctl(fd, VGPU_IOCTL_QUEUE_CREATE, &q);
	}
}

/*
 * As @uid, allocate @size at a time until refused; the refusal must be
 * -EDQUOT and come only when @cost more bytes would pass @limit.  Then
 * tell the parent (@ready) and hold everything until it says so (@go).
 */
static int exhaust(uid_t uid, enum what what, uint64_t size, uint64_t cost,
		   uint64_t limit, int ready, int go)
{
	int fd = open_as(uid);
	uint64_t held = 0;
	uint32_t ctx = 0;
	char c = 0;
	int ret;

	if (fd < 0)
		return CHILD_SETUP;
	if (what == QUEUE && vgpu_ctx_create(fd, &ctx))
		return CHILD_USE;
	while (!(ret = alloc_one(fd, what, size, ctx))) {
		held += cost;
		if (held > limit)
			return CHILD_NEVER;
	}
	if (ret != -EDQUOT) {
		fprintf(stderr, "# uid %u: %s after %llu bytes\n", uid,
			strerror(-ret), (unsigned long long)held);
		return CHILD_ERRNO;
	}
	if (held + cost <= limit)
		return CHILD_EARLY;
	if (write(ready, &c, 1) != 1 || read(go, &c, 1) != 1)
		return CHILD_SETUP;
	return CHILD_OK;
}

/* As @uid, in a fresh process: one more allocation must be refused. */
static int refused_at_once(uid_t uid, enum what what, uint64_t size)
{
	int fd = open_as(uid);
	uint32_t ctx = 0;
	int ret;

	if (fd < 0)
		return CHILD_SETUP;
	if (what == QUEUE) {
		/* The context's root table is VRAM, not queue memory. */
		if (vgpu_ctx_create(fd, &ctx))
			return CHILD_USE;
	}
	ret = alloc_one(fd, what, size, ctx);
	return ret == -EDQUOT ? CHILD_OK : ret ? CHILD_ERRNO : CHILD_NEVER;
}

/* As @uid: a first context, a queue, VRAM and host memory all work. */
static int first_context_works(uid_t uid)
{
	struct vgpu_host_alloc h = { .size = 65536 };
	struct vgpu_tq q;
	uint32_t ctx, bo;
	int fd = open_as(uid);

	if (fd < 0)
		return CHILD_SETUP;
	if (vgpu_ctx_create(fd, &ctx) ||
	    vgpu_tq_create(&q, fd, ctx, VGPU_ENGINE_COMPUTE, 65536) ||
	    vgpu_vram_alloc(fd, MiB, &bo) ||
	    vgpu_ioctl(fd, VGPU_IOCTL_HOST_ALLOC, &h))
		return CHILD_USE;
	return CHILD_OK;
}

static int wait_child(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

#define RUN_CHILD(expr) ({						\
	pid_t pid_ = fork();						\
	if (!pid_)							\
		_exit(expr);						\
	wait_child(pid_);						\
})

/*
 * RUN_CHILD until it reports CHILD_OK, for up to 5 s: what a process gave
 * back when it exited returns to its user once the firmware has let go of
 * it too (its mappings of the rings, its acknowledgment of the destroys).
 */
#define RUN_CHILD_SETTLED(expr) ({					\
	uint64_t end_ = vgpu_now_ns() + 5000000000ull;			\
	int ret_;							\
	while ((ret_ = RUN_CHILD(expr)) != CHILD_OK &&			\
	       vgpu_now_ns() < end_)					\
		usleep(10000);						\
	ret_;								\
})

/*
 * The whole scenario for one resource: user A exhausts its share and
 * holds it; another process of A is refused at once; user B gets its
 * first context; root is not limited; A's exit gives everything back.
 */
static void scenario(struct __test_metadata *_metadata, enum what what,
		     uint64_t size, uint64_t cost, uint64_t limit)
{
	int ready[2], go[2];
	char c = 0;
	pid_t a;

	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	a = fork();
	if (!a)
		_exit(exhaust(USER_A, what, size, cost, limit, ready[1],
			      go[0]));
	/* A reports once it holds its whole share (or exits on failure). */
	close(ready[1]);
	EXPECT_EQ(1, read(ready[0], &c, 1));

	EXPECT_EQ(CHILD_OK, RUN_CHILD(refused_at_once(USER_A, what, size)));
	EXPECT_EQ(CHILD_OK, RUN_CHILD(first_context_works(USER_B)));
	/* Root (CAP_SYS_RESOURCE) is counted, not limited. */
	{
		int fd = vgpu_open();

		ASSERT_LE(0, fd);
		if (what == QUEUE) {
			uint32_t ctx;
			struct vgpu_queue_create q = { .ring_size = size };

			ASSERT_EQ(0, vgpu_ctx_create(fd, &ctx));
			q.ctx = ctx;
			for (uint64_t n = 0; n <= limit / cost; n++)
				EXPECT_EQ(0, vgpu_ioctl(fd,
							VGPU_IOCTL_QUEUE_CREATE,
							&q));
		} else {
			EXPECT_EQ(0, alloc_one(fd, what, limit + size, 0));
		}
		close(fd);
	}

	EXPECT_EQ(1, write(go[1], &c, 1));
	EXPECT_EQ(CHILD_OK, wait_child(a));
	close(ready[0]);
	close(go[0]);
	close(go[1]);
	/* A's share came back: A can allocate again. */
	EXPECT_EQ(CHILD_OK, RUN_CHILD_SETTLED(first_context_works(USER_A)));
}

TEST_F(limits, limits_follow_the_parameters)
{
	long long vram = vgpu_sysfs_num("vram_total_bytes");
	long long gart = vgpu_sysfs_num("gart_entries");

	EXPECT_EQ(vram / 4096 * 5 / 100 * 4096, self->vram_limit);
	EXPECT_EQ(gart / 100, self->gart_limit);
	EXPECT_EQ(4 * MiB, self->queue_limit);
	EXPECT_EQ(-EINVAL, vgpu_param_write("user_vram_pct", "0"));
	EXPECT_EQ(-EINVAL, vgpu_param_write("user_vram_pct", "101"));
	EXPECT_EQ(-EINVAL, vgpu_param_write("user_gart_pct", "0"));
	EXPECT_EQ(-EINVAL, vgpu_param_write("user_queue_mb", "0"));
	EXPECT_EQ(vram / 4096 * 5 / 100 * 4096,
		  vgpu_sysfs_num("user_vram_limit_bytes"));
	ASSERT_EQ(0, vgpu_param_write("user_vram_pct", "100"));
	EXPECT_EQ(vram, vgpu_sysfs_num("user_vram_limit_bytes"));
}

TEST_F(limits, vram_per_user)
{
	/* 4 MiB objects: VRAM costs no host memory until touched. */
	scenario(_metadata, VRAM, 4 * MiB, 4 * MiB, self->vram_limit);
}

TEST_F(limits, gart_per_user)
{
	/* 1 MiB host objects: 1% of the GART is about 10 MiB. */
	scenario(_metadata, HOST, MiB, MiB, self->gart_limit * 4096);
}

TEST_F(limits, queue_memory_per_user)
{
	/* A 1 MiB ring costs its pages, a doorbell and a fence page. */
	scenario(_metadata, QUEUE, MiB, MiB + 2 * 4096, self->queue_limit);
}

/* --- memory cgroup ------------------------------------------------------- */

#define CGROOT		"/sys/fs/cgroup"
#define CG		CGROOT "/vgpu_limits_test"
#define CG_MAX		(32 * MiB)

static int cg_write(const char *file, const char *val)
{
	FILE *f = fopen(file, "w");
	int ret;

	if (!f)
		return -errno;
	ret = fputs(val, f) < 0 ? -EIO : 0;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

static long long cg_read(const char *file, const char *key)
{
	char line[128];
	long long v = -1;
	FILE *f = fopen(file, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		size_t n = key ? strlen(key) : 0;

		if (!key) {
			v = atoll(line);
			break;
		}
		if (!strncmp(line, key, n) && line[n] == ' ') {
			v = atoll(line + n + 1);
			break;
		}
	}
	fclose(f);
	return v;
}

/* A cgroup v2 hierarchy with the memory controller, and CG in it. */
static bool cg_setup(void)
{
	mkdir(CGROOT, 0755);
	if (access(CGROOT "/cgroup.controllers", F_OK) &&
	    mount("cgroup2", CGROOT, "cgroup2", 0, NULL))
		return false;
	if (cg_write(CGROOT "/cgroup.subtree_control", "+memory"))
		return false;
	rmdir(CG);
	if (mkdir(CG, 0755))
		return false;
	return true;
}

/* Exit statuses of the child in the cgroup, besides CHILD_*. */
#define CHILD_UNCHARGED	20	/* host memory not charged to the cgroup */
#define CHILD_RING	21	/* ring not charged to the cgroup */

/*
 * In CG (memory.max CG_MAX): host memory and a ring must each raise the
 * cgroup's memory.current by at least their size; then host memory is
 * allocated until refused, which must come before the cgroup's limit is
 * passed (the parent checks the peak).  Runs as root: no per-user limit
 * or RLIMIT_MEMLOCK stops it first.
 */
static int charge_in_cgroup(void)
{
	struct vgpu_host_alloc h = { .size = 8 * MiB };
	struct vgpu_queue_create q = { .ring_size = MiB };
	long long before, after;
	char pid[24];
	uint32_t ctx;
	int fd, ret;

	snprintf(pid, sizeof(pid), "%d", getpid());
	if (cg_write(CG "/cgroup.procs", pid))
		return CHILD_SETUP;
	fd = vgpu_open();
	if (fd < 0 || vgpu_ctx_create(fd, &ctx))
		return CHILD_USE;
	q.ctx = ctx;

	before = cg_read(CG "/memory.current", NULL);
	if (vgpu_ioctl(fd, VGPU_IOCTL_HOST_ALLOC, &h))
		return CHILD_USE;
	after = cg_read(CG "/memory.current", NULL);
	if (after - before < (long long)(8 * MiB)) {
		fprintf(stderr, "# 8 MiB of host memory: memory.current %lld -> %lld\n",
			before, after);
		return CHILD_UNCHARGED;
	}

	before = after;
	if (vgpu_ioctl(fd, VGPU_IOCTL_QUEUE_CREATE, &q))
		return CHILD_USE;
	after = cg_read(CG "/memory.current", NULL);
	if (after - before < (long long)MiB) {
		fprintf(stderr, "# a 1 MiB ring: memory.current %lld -> %lld\n",
			before, after);
		return CHILD_RING;
	}

	/* More than the cgroup may hold, 1 MiB at a time. */
	h.size = MiB;
	for (int i = 0; i < 2 * (int)(CG_MAX / MiB); i++) {
		ret = vgpu_ioctl(fd, VGPU_IOCTL_HOST_ALLOC, &h);
		if (ret)
			return ret == -ENOMEM ? CHILD_OK : CHILD_ERRNO;
	}
	return CHILD_NEVER;
}

TEST_F(limits, memcg_charges_driver_memory)
{
	char max[24];
	int status;
	pid_t pid;

	if (!cg_setup())
		SKIP(return, "no cgroup v2 memory controller");
	snprintf(max, sizeof(max), "%llu", CG_MAX);
	ASSERT_EQ(0, cg_write(CG "/memory.max", max));

	pid = fork();
	if (!pid)
		_exit(charge_in_cgroup());
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	/*
	 * Refused with -ENOMEM at the cgroup's limit, and without the OOM
	 * killer: the driver's bulk pages are __GFP_RETRY_MAYFAIL.
	 */
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(CHILD_OK, WEXITSTATUS(status));
	EXPECT_EQ(0, cg_read(CG "/memory.events", "oom_kill"));
	if (access(CG "/memory.peak", F_OK) == 0)
		EXPECT_GE((long long)CG_MAX, cg_read(CG "/memory.peak", NULL));

	/* The firmware, outside the cgroup, was not touched: others go on. */
	EXPECT_EQ(0, kill(self->fw, 0));
	EXPECT_EQ(CHILD_OK, RUN_CHILD_SETTLED(first_context_works(USER_B)));
	/* And the cgroup got back what the driver had charged to it. */
	EXPECT_TRUE(vgpu_accounting_idle());
	EXPECT_GT((long long)(4 * MiB), cg_read(CG "/memory.current", NULL));
	EXPECT_EQ(0, rmdir(CG));
}

TEST_HARNESS_MAIN
