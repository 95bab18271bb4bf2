// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_admin_test.c - what the administrator sets and sees
 *
 * Compute modes (kmod/vgpu_ctx.c, sysfs compute_mode): who may create a
 * context on the device.
 *
 *  - the sysfs file takes the names and CUDA's numbers, refuses anything
 *    else with -EINVAL, and only root with CAP_SYS_ADMIN may write it;
 *  - GET_INFO reports the mode (the UMD's CU_DEVICE_ATTRIBUTE_COMPUTE_MODE);
 *  - PROHIBITED refuses every new context with -EACCES, and leaves the
 *    contexts that exist working;
 *  - EXCLUSIVE_PROCESS lets the process that has contexts create more, on
 *    any file and from any thread, and refuses another process with
 *    -EBUSY until the first one has none left; then the other one gets
 *    the device and the first is refused.
 *
 * Dynamic debug (vgpu_refuse() in kmod/vgpu_drv.h): with
 * 'module vgpu +p' written to the dynamic debug control file, a refused
 * ioctl leaves a message in the kernel log that names the field and why;
 * without it, none.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "vgpu_lib.h"

#define DYNDBG_CONTROL	"/sys/kernel/debug/dynamic_debug/control"

/* Write @value to vgpu0's sysfs @attr: 0 or -errno. */
static int sysfs_write(const char *attr, const char *value)
{
	char path[256];
	int fd, ret = 0;

	snprintf(path, sizeof(path), VGPU_SYSFS "%s", attr);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, value, strlen(value)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static int set_mode(const char *mode)
{
	return sysfs_write("compute_mode", mode);
}

static uint32_t info_mode(void)
{
	struct vgpu_info info = { 0 };
	int fd = vgpu_open();

	if (fd < 0)
		return ~0u;
	if (vgpu_ioctl(fd, VGPU_IOCTL_GET_INFO, &info))
		info.compute_mode = ~0u;
	close(fd);
	return info.compute_mode;
}

/*
 * In a child process: open the device and try to create a context.
 * Exits with the negated errno (0 on success), so that the parent sees
 * what another process is told.
 */
static int ctx_create_in_child(void)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		uint32_t h;
		int fd = vgpu_open();

		if (fd < 0)
			_exit(100);
		_exit(-vgpu_ctx_create(fd, &h));
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1000;
	return -WEXITSTATUS(status);
}

FIXTURE(mode) {
	pid_t fw;	/* contexts need a firmware */
	int fd;
};

FIXTURE_SETUP(mode)
{
	self->fw = vgpu_test_fw_start();
	ASSERT_LT(0, self->fw) TH_LOG("test firmware: %s", strerror(-self->fw));
	self->fd = vgpu_open();
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(mode)
{
	if (set_mode("default"))
		fprintf(stderr, "# cannot reset compute_mode\n");
	close(self->fd);
	vgpu_test_fw_kill(self->fw);
	EXPECT_TRUE(vgpu_accounting_idle());
}

TEST_F(mode, sysfs_names_numbers_and_errors)
{
	char buf[64];

	ASSERT_EQ(0, vgpu_sysfs_str("compute_mode", buf, sizeof(buf)));
	EXPECT_STREQ("default", buf);
	EXPECT_EQ(VGPU_COMPUTE_MODE_DEFAULT, info_mode());

	ASSERT_EQ(0, set_mode("prohibited\n"));
	ASSERT_EQ(0, vgpu_sysfs_str("compute_mode", buf, sizeof(buf)));
	EXPECT_STREQ("prohibited", buf);
	EXPECT_EQ(VGPU_COMPUTE_MODE_PROHIBITED, info_mode());

	/* CUDA's numbers, as nvidia-smi -c takes them. */
	ASSERT_EQ(0, set_mode("3"));
	ASSERT_EQ(0, vgpu_sysfs_str("compute_mode", buf, sizeof(buf)));
	EXPECT_STREQ("exclusive_process", buf);
	EXPECT_EQ(VGPU_COMPUTE_MODE_EXCLUSIVE_PROCESS, info_mode());
	ASSERT_EQ(0, set_mode("0"));
	EXPECT_EQ(VGPU_COMPUTE_MODE_DEFAULT, info_mode());

	/* 1 was exclusive-thread, gone from CUDA; the rest never existed. */
	EXPECT_EQ(-EINVAL, set_mode("1"));
	EXPECT_EQ(-EINVAL, set_mode("4"));
	EXPECT_EQ(-EINVAL, set_mode("exclusive"));
	EXPECT_EQ(-EINVAL, set_mode("\n"));
	EXPECT_EQ(VGPU_COMPUTE_MODE_DEFAULT, info_mode());
}

TEST_F(mode, only_root_with_cap_sys_admin_sets_it)
{
	pid_t pid = fork();
	int status;

	ASSERT_LE(0, pid);
	if (pid == 0) {
		/* Root without CAP_SYS_ADMIN: the file opens, the write fails. */
		if (vgpu_drop_cap(CAP_SYS_ADMIN))
			_exit(10);
		if (set_mode("prohibited") != -EPERM)
			_exit(11);
		/* Another user cannot even open it (0644). */
		if (setgid(65534) || setuid(65534))
			_exit(12);
		if (set_mode("prohibited") != -EACCES)
			_exit(13);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(VGPU_COMPUTE_MODE_DEFAULT, info_mode());
}

TEST_F(mode, prohibited_refuses_new_contexts_only)
{
	uint32_t before, after, bo;
	struct vgpu_ctx_status st = { 0 };
	struct vgpu_tq tq;
	uint64_t fence;

	ASSERT_EQ(0, vgpu_ctx_create(self->fd, &before));
	ASSERT_EQ(0, set_mode("prohibited"));
	EXPECT_EQ(-EACCES, vgpu_ctx_create(self->fd, &after));
	EXPECT_EQ(-EACCES, ctx_create_in_child());

	/* The context that existed works on: memory, a queue, a fence. */
	EXPECT_EQ(0, vgpu_vram_alloc(self->fd, 65536, &bo));
	ASSERT_EQ(0, vgpu_tq_create(&tq, self->fd, before,
				    VGPU_ENGINE_COMPUTE, 4096));
	fence = vgpu_tq_fence(&tq);
	ASSERT_EQ(0, vgpu_tq_submit(&tq));
	EXPECT_EQ(0, vgpu_tq_wait(&tq, fence, 5000));
	st.handle = before;
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_STATUS, &st));
	EXPECT_EQ(0, st.state);
	vgpu_tq_unmap(&tq);
	EXPECT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_QUEUE_DESTROY,
				&(struct vgpu_handle_arg){ .handle = tq.handle }));
	EXPECT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_MEM_FREE,
				&(struct vgpu_handle_arg){ .handle = bo }));
	EXPECT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_DESTROY,
				&(struct vgpu_handle_arg){ .handle = before }));

	ASSERT_EQ(0, set_mode("default"));
	EXPECT_EQ(0, vgpu_ctx_create(self->fd, &after));
	EXPECT_EQ(0, ctx_create_in_child());
}

static void *ctx_create_thread(void *arg)
{
	uint32_t h;

	return (void *)(long)vgpu_ctx_create(*(int *)arg, &h);
}

TEST_F(mode, exclusive_process_admits_one_process)
{
	uint32_t a, b, c;
	pthread_t t;
	void *ret;
	int fd2;

	ASSERT_EQ(0, set_mode("exclusive_process"));
	/* A free device: the first process to come takes it. */
	ASSERT_EQ(0, vgpu_ctx_create(self->fd, &a));
	EXPECT_EQ(1, vgpu_sysfs_num("contexts"));

	/* More contexts of the same process: another file, another thread. */
	fd2 = vgpu_open();
	ASSERT_LE(0, fd2);
	EXPECT_EQ(0, vgpu_ctx_create(fd2, &b));
	ASSERT_EQ(0, pthread_create(&t, NULL, ctx_create_thread, &fd2));
	ASSERT_EQ(0, pthread_join(t, &ret));
	EXPECT_EQ(0, (long)ret);

	/* Another process is refused while this one has any context. */
	EXPECT_EQ(-EBUSY, ctx_create_in_child());
	close(fd2);	/* its two contexts go with the file */
	EXPECT_EQ(1, vgpu_sysfs_num("contexts"));
	EXPECT_EQ(-EBUSY, ctx_create_in_child());

	/* The last one gone, another process takes the device... */
	EXPECT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_DESTROY,
				&(struct vgpu_handle_arg){ .handle = a }));
	{
		int to_child[2], to_parent[2];
		pid_t pid;
		char c1 = 0;
		int status;

		ASSERT_EQ(0, pipe(to_child));
		ASSERT_EQ(0, pipe(to_parent));
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			/* ... and holds it until the parent has tried. */
			int fd = vgpu_open();
			char r = vgpu_ctx_create(fd, &c) == 0 ? 'y' : 'n';

			if (write(to_parent[1], &r, 1) != 1 ||
			    read(to_child[0], &r, 1) != 1)
				_exit(1);
			_exit(0);
		}
		ASSERT_EQ(1, read(to_parent[0], &c1, 1));
		EXPECT_EQ('y', c1);
		/* ... and this one is refused now, on either of its files. */
		EXPECT_EQ(-EBUSY, vgpu_ctx_create(self->fd, &a));
		ASSERT_EQ(1, write(to_child[1], "x", 1));
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		close(to_child[0]);
		close(to_child[1]);
		close(to_parent[0]);
		close(to_parent[1]);
	}
	/* The child exited: its context went with its file. */
	EXPECT_EQ(0, vgpu_sysfs_settle("contexts", 0));
	EXPECT_EQ(0, vgpu_ctx_create(self->fd, &a));
}

/* --- dynamic debug ---------------------------------------------------------- */

static int dyndbg(const char *cmd)
{
	int fd = open(DYNDBG_CONTROL, O_WRONLY | O_CLOEXEC);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, cmd, strlen(cmd)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* /dev/kmsg positioned at its end: what is logged from now on. */
static int kmsg_open_at_end(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0 && lseek(fd, 0, SEEK_END) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Did the kernel log a line containing @needle since @fd was opened? */
static bool kmsg_has(int fd, const char *needle)
{
	char rec[2048];
	ssize_t n;

	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)	/* overwritten: read on */
			continue;
		if (n <= 0)
			return false;
		rec[n] = '\0';
		if (strstr(rec, needle))
			return true;
	}
}

FIXTURE(dyndbg) {
	pid_t fw;
	int fd;
};

FIXTURE_SETUP(dyndbg)
{
	if (access(DYNDBG_CONTROL, W_OK))
		SKIP(return, "no dynamic debug control (debugfs)");
	self->fw = vgpu_test_fw_start();
	ASSERT_LT(0, self->fw) TH_LOG("test firmware: %s", strerror(-self->fw));
	self->fd = vgpu_open();
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(dyndbg)
{
	if (access(DYNDBG_CONTROL, W_OK))
		return;
	dyndbg("module vgpu -p");
	set_mode("default");
	close(self->fd);
	vgpu_test_fw_kill(self->fw);
}

TEST_F(dyndbg, a_refusal_says_why_when_asked)
{
	struct vgpu_ctx_create bad = { .flags = 0x40 };
	struct vgpu_map map = { 0 };
	uint32_t ctx;
	int kmsg;

	/* Off (the default): a refusal leaves no trace. */
	ASSERT_EQ(0, dyndbg("module vgpu -p"));
	kmsg = kmsg_open_at_end();
	ASSERT_LE(0, kmsg);
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_CREATE, &bad));
	EXPECT_FALSE(kmsg_has(kmsg, "CTX_CREATE: flags"));
	close(kmsg);

	/* On: each refusal names the ioctl, the field and why. */
	ASSERT_EQ(0, dyndbg("module vgpu +p"));
	kmsg = kmsg_open_at_end();
	ASSERT_LE(0, kmsg);
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_CREATE, &bad));
	EXPECT_TRUE(kmsg_has(kmsg, "CTX_CREATE: flags 0x40"));

	ASSERT_EQ(0, vgpu_ctx_create(self->fd, &ctx));
	map.ctx = ctx;
	map.handle = 0x7ffff;	/* no such memory object */
	map.va = 1ull << 32;
	map.size = 65536;
	EXPECT_EQ(-ENOENT, vgpu_ioctl(self->fd, VGPU_IOCTL_MAP, &map));
	EXPECT_TRUE(kmsg_has(kmsg, "MAP: handle"));

	ASSERT_EQ(0, set_mode("prohibited"));
	EXPECT_EQ(-EACCES, vgpu_ctx_create(self->fd, &ctx));
	EXPECT_TRUE(kmsg_has(kmsg, "CTX_CREATE: compute mode is prohibited"));
	close(kmsg);
}

TEST_HARNESS_MAIN
