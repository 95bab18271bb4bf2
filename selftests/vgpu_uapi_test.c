// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_uapi_test.c - the driver's client ioctl ABI
 *
 * Groups: ABI rules (unknown commands, flags, padding, struct sizes),
 * contexts, VRAM objects, host memory (allocated and registered,
 * RLIMIT_MEMLOCK), mmap rules, GPU mappings, queues and waits with no work
 * submitted, handle isolation between open files, fork, and release of
 * everything on close and on process exit.  A context needs a firmware, so
 * each test runs beside the selftests' test firmware (vgpu_test_fw.c),
 * which never sees a packet here.  Every test ends by checking, after
 * closing its file and stopping the firmware, that the device's accounting
 * is back to zero.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "vgpu_lib.h"

#define KiB	1024ull
#define MiB	(1024ull * KiB)
#define BIG	VGPU_BIG_PAGE_SIZE
#define VA0	(1ull << 32)	/* a comfortable GPU VA */

/*
 * A device counter has (or reaches) @want: memory taken from the device
 * is freed once the firmware acknowledged it, a moment later.
 */
#define EXPECT_SYSFS(want, attr) \
	EXPECT_EQ((long long)(want), vgpu_sysfs_settle(attr, (long long)(want)))

FIXTURE(dev) {
	int fd;
	pid_t fw;
	struct vgpu_info info;
};

FIXTURE_SETUP(dev)
{
	self->fw = vgpu_test_fw_start();
	ASSERT_LT(0, self->fw) TH_LOG("test firmware: %s", strerror(-self->fw));
	self->fd = vgpu_open();
	ASSERT_LE(0, self->fd) TH_LOG("open " VGPU_DEV ": %s", strerror(errno));
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_GET_INFO, &self->info));
}

FIXTURE_TEARDOWN(dev)
{
	if (self->fd >= 0)
		close(self->fd);
	vgpu_test_fw_kill(self->fw);
	EXPECT_TRUE(vgpu_accounting_idle());
}

/* Run @fn in a child process; return its wait status. */
static int run_child(void (*fn)(void *), void *arg)
{
	int status;
	pid_t pid = fork();

	if (!pid) {
		fn(arg);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	return status;
}

static void touch_byte(void *p)
{
	*(volatile char *)p = 1;
}

/* ---- ABI rules ----------------------------------------------------------- */

TEST_F(dev, info)
{
	struct vgpu_info *i = &self->info;

	EXPECT_EQ(VGPU_UAPI_VERSION_MAJOR, i->version_major);
	EXPECT_EQ(0, i->device_index);
	EXPECT_EQ(vgpu_sysfs_num("vram_total_bytes"), (long long)i->vram_size);
	EXPECT_EQ(vgpu_sysfs_num("gart_entries"), (long long)i->gart_entries);
	EXPECT_EQ(BIG, i->vram_page_size);
	EXPECT_EQ(4096, i->host_page_size);
	EXPECT_EQ(48, i->va_bits);
	EXPECT_EQ(VGPU_HW_VERSION, i->hw_version);
	EXPECT_LE(1, i->num_compute_engines);
	EXPECT_LE(1, i->num_copy_engines);
	/* The test firmware serves the device; it enforces no limit. */
	EXPECT_EQ(VGPU_INFO_FW_ATTACHED, i->flags);
	EXPECT_EQ(0, i->pad);
	EXPECT_EQ(VGPU_COMPUTE_MODE_DEFAULT, i->compute_mode);
}

TEST_F(dev, unknown_ioctl_is_enotty)
{
	char buf[64] = { 0 };

	EXPECT_EQ(-ENOTTY, vgpu_ioctl(self->fd, _IOWR(VGPU_IOCTL_BASE, 0x3f,
						      struct vgpu_info), buf));
	EXPECT_EQ(-ENOTTY, vgpu_ioctl(self->fd, _IOR('x', 0x00,
						      struct vgpu_info), buf));
	/* A known number with another direction is another command. */
	EXPECT_EQ(-ENOTTY, vgpu_ioctl(self->fd, _IOW(VGPU_IOCTL_BASE, 0x00,
						      struct vgpu_info), buf));
	EXPECT_EQ(-ENOTTY, vgpu_ioctl(self->fd, _IO(VGPU_IOCTL_BASE, 0x01),
				      NULL));
	EXPECT_EQ(-ENOTTY, vgpu_ioctl(self->fd, TCGETS, buf));
}

TEST_F(dev, struct_size_rules)
{
	struct {
		struct vgpu_ctx_create c;
		uint64_t tail;
	} big = { 0 };
	unsigned long cmd_big = _IOWR(VGPU_IOCTL_BASE, 0x01, big);
	unsigned long cmd_small = _IOWR(VGPU_IOCTL_BASE, 0x01, uint64_t);
	struct vgpu_handle_arg d = { 0 };

	/* Older than version 1: refused. */
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, cmd_small, &big));
	/* Newer, with a zero tail: accepted. */
	ASSERT_EQ(0, vgpu_ioctl(self->fd, cmd_big, &big));
	EXPECT_NE(0, big.c.handle);
	d.handle = big.c.handle;
	EXPECT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_DESTROY, &d));
	/* Newer, with something we do not know: refused. */
	memset(&big, 0, sizeof(big));
	big.tail = 1;
	EXPECT_EQ(-E2BIG, vgpu_ioctl(self->fd, cmd_big, &big));
	EXPECT_SYSFS(0, "contexts");
	/* Bad pointer. */
	EXPECT_EQ(-EFAULT, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_CREATE,
				      (void *)8));
	EXPECT_EQ(-EFAULT, vgpu_ioctl(self->fd, VGPU_IOCTL_GET_INFO,
				      (void *)8));
}

/* ---- contexts ------------------------------------------------------------ */

TEST_F(dev, ctx_create_destroy)
{
	struct vgpu_ctx_create a = { 0 }, b = { 0 };
	struct vgpu_handle_arg d = { 0 };
	struct vgpu_ctx_status st = { 0 };

	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_CREATE, &a));
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_CREATE, &b));
	EXPECT_NE(a.handle, b.handle);
	EXPECT_NE(a.ctx_id, b.ctx_id);
	EXPECT_SYSFS(2, "contexts");
	/* Each context's page directory is in VRAM. */
	EXPECT_LE(2 * 4096, vgpu_sysfs_num("vram_used_bytes"));

	st.handle = a.handle;
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_STATUS, &st));
	EXPECT_EQ(0, st.state);
	EXPECT_EQ(0, st.fault_count);
	EXPECT_EQ(VGPU_FAULT_NONE, st.fault.kind);

	d.handle = a.handle;
	EXPECT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_DESTROY, &d));
	EXPECT_EQ(-ENOENT, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_DESTROY, &d));
	EXPECT_EQ(-ENOENT, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_STATUS, &st));
	d.handle = 0;
	EXPECT_EQ(-ENOENT, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_DESTROY, &d));
	EXPECT_SYSFS(1, "contexts");
	/* b is left for close() to clean up. */
}

TEST_F(dev, ctx_flags_and_padding)
{
	struct vgpu_ctx_create c = { .flags = 1 };
	struct vgpu_handle_arg d = { .flags = 1 };
	struct vgpu_ctx_status st = { .flags = 1 };
	uint32_t h;

	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_CREATE, &c));
	c.flags = 0;
	c.pad = 1;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_CREATE, &c));
	ASSERT_EQ(0, vgpu_ctx_create(self->fd, &h));
	d.handle = h;
	st.handle = h;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_DESTROY, &d));
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_STATUS, &st));
	EXPECT_SYSFS(1, "contexts");
}

TEST_F(dev, ctx_with_queue_is_busy)
{
	struct vgpu_handle_arg d = { 0 };
	struct vgpu_tq q;
	uint32_t ctx;

	ASSERT_EQ(0, vgpu_ctx_create(self->fd, &ctx));
	ASSERT_EQ(0, vgpu_tq_create(&q, self->fd, ctx, VGPU_ENGINE_COMPUTE,
				    4096));
	d.handle = ctx;
	EXPECT_EQ(-EBUSY, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_DESTROY, &d));
	d.handle = q.handle;
	EXPECT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_QUEUE_DESTROY, &d));
	EXPECT_EQ(-ENOENT, vgpu_ioctl(self->fd, VGPU_IOCTL_QUEUE_DESTROY, &d));
	d.handle = ctx;
	EXPECT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_DESTROY, &d));
	vgpu_tq_unmap(&q);
}

/* ---- VRAM ---------------------------------------------------------------- */

TEST_F(dev, vram_alloc_free)
{
	struct vgpu_vram_alloc a = { .size = 1 };
	struct vgpu_handle_arg f = { 0 };

	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_VRAM_ALLOC, &a));
	EXPECT_EQ(BIG, a.alloc_size);
	EXPECT_SYSFS((long long)BIG, "vram_used_bytes");
	/* Not committed until used. */
	EXPECT_SYSFS(0, "vram_resident_bytes");
	f.handle = a.handle;
	EXPECT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_MEM_FREE, &f));
	EXPECT_EQ(-ENOENT, vgpu_ioctl(self->fd, VGPU_IOCTL_MEM_FREE, &f));
	EXPECT_SYSFS(0, "vram_used_bytes");
	f.flags = 1;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_MEM_FREE, &f));

	a = (struct vgpu_vram_alloc){ .size = 4096, .flags = 1 };
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_VRAM_ALLOC, &a));
	a = (struct vgpu_vram_alloc){ .size = 0 };
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_VRAM_ALLOC, &a));
}

TEST_F(dev, vram_exhaustion)
{
	uint64_t size = self->info.vram_size;
	struct vgpu_handle_arg f = { 0 };
	uint32_t all, more;

	EXPECT_EQ(-ENOMEM, vgpu_vram_alloc(self->fd, size + 1, &more));
	EXPECT_EQ(-ENOMEM, vgpu_vram_alloc(self->fd, ~0ull, &more));
	ASSERT_EQ(0, vgpu_vram_alloc(self->fd, size, &all));
	EXPECT_SYSFS((long long)size, "vram_used_bytes");
	EXPECT_EQ(-ENOMEM, vgpu_vram_alloc(self->fd, BIG, &more));
	/* A context needs VRAM for its page directory. */
	EXPECT_EQ(-ENOMEM, vgpu_ctx_create(self->fd, &more));
	f.handle = all;
	EXPECT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_MEM_FREE, &f));
	ASSERT_EQ(0, vgpu_vram_alloc(self->fd, BIG, &more));
	EXPECT_SYSFS(0, "vram_resident_bytes");
}

/* ---- host memory ----------------------------------------------------------- */

TEST_F(dev, host_alloc_mmap)
{
	struct vgpu_host_alloc a = { .size = 3 * 4096 + 1 };
	struct vgpu_handle_arg f = { 0 };
	uint32_t *p;
	int i;

	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_HOST_ALLOC, &a));
	EXPECT_EQ(4 * 4096, a.alloc_size);
	EXPECT_SYSFS(4, "pinned_pages");
	EXPECT_SYSFS(4, "gart_entries_used");
	p = mmap(NULL, a.alloc_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		 self->fd, a.mmap_offset);
	ASSERT_NE(MAP_FAILED, p);
	for (i = 0; i < 4096; i++)
		ASSERT_EQ(0, p[i]);	/* zeroed */
	for (i = 0; i < 4096; i++)
		p[i] = i * 7;
	munmap(p, a.alloc_size);
	/* A second mapping of the last page sees the same memory. */
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->fd,
		 a.mmap_offset + 3 * 4096);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(3072u * 7, p[0]);
	munmap(p, 4096);
	f.handle = a.handle;
	EXPECT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_MEM_FREE, &f));
	EXPECT_SYSFS(0, "pinned_pages");
}

TEST_F(dev, host_alloc_write_combined)
{
	struct vgpu_host_alloc a = { .size = 64 * KiB,
				     .flags = VGPU_HOST_ALLOC_WC };
	uint64_t *p;

	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_HOST_ALLOC, &a));
	p = mmap(NULL, a.alloc_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		 self->fd, a.mmap_offset);
	ASSERT_NE(MAP_FAILED, p);
	for (int i = 0; i < 8192; i++)
		p[i] = ~(uint64_t)i;
	for (int i = 0; i < 8192; i++)
		ASSERT_EQ(~(uint64_t)i, p[i]);
	munmap(p, a.alloc_size);
}

TEST_F(dev, host_alloc_errors)
{
	struct vgpu_host_alloc a = { .size = 4096, .flags = 2 };

	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_HOST_ALLOC, &a));
	a = (struct vgpu_host_alloc){ .size = 0 };
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_HOST_ALLOC, &a));
	a = (struct vgpu_host_alloc){
		.size = (self->info.gart_entries + 1) * 4096 };
	EXPECT_EQ(-ENOSPC, vgpu_ioctl(self->fd, VGPU_IOCTL_HOST_ALLOC, &a));
	a = (struct vgpu_host_alloc){ .size = ~0ull };
	EXPECT_EQ(-ENOSPC, vgpu_ioctl(self->fd, VGPU_IOCTL_HOST_ALLOC, &a));
}

TEST_F(dev, mmap_rules)
{
	struct vgpu_host_alloc a = { .size = 8192 };
	struct vgpu_handle_arg f = { 0 };
	uint32_t vram;
	void *p;

	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_HOST_ALLOC, &a));
	/* Larger than the object. */
	p = mmap(NULL, 3 * 4096, PROT_READ, MAP_SHARED, self->fd,
		 a.mmap_offset);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	/* Starting past its end. */
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->fd,
		 a.mmap_offset + 2 * 4096);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	/* Private mappings of device memory make no sense. */
	p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, self->fd, a.mmap_offset);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	/* Offsets that name nothing. */
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->fd, 0);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->fd,
		 a.mmap_offset + (1ull << 36));
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	/* The firmware's apertures (kind 8, 9) are not for clients. */
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->fd, 8ull << 58);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EACCES, errno);
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->fd, 9ull << 58);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EACCES, errno);
	/* VRAM is never mapped by applications. */
	ASSERT_EQ(0, vgpu_vram_alloc(self->fd, BIG, &vram));
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->fd,
		 (1ull << 58) | ((uint64_t)vram << 36));
	EXPECT_EQ(MAP_FAILED, p);
	/* A freed object cannot be mapped any more. */
	f.handle = a.handle;
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_MEM_FREE, &f));
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->fd, a.mmap_offset);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(dev, mmap_keeps_object_alive)
{
	struct vgpu_host_alloc a = { .size = 4 * 4096 };
	struct vgpu_handle_arg f = { 0 };
	int *p;

	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_HOST_ALLOC, &a));
	p = mmap(NULL, a.alloc_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		 self->fd, a.mmap_offset);
	ASSERT_NE(MAP_FAILED, p);
	f.handle = a.handle;
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_MEM_FREE, &f));
	EXPECT_SYSFS(4, "pinned_pages");
	p[4095] = 42;
	EXPECT_EQ(42, p[4095]);
	/* Splitting the VMA takes another reference, dropped on unmap. */
	munmap(p, 4096);
	EXPECT_SYSFS(4, "pinned_pages");
	munmap(p + 1024, 3 * 4096);
	EXPECT_SYSFS(0, "pinned_pages");
}

TEST_F(dev, host_register)
{
	size_t size = 16 * 4096;
	struct vgpu_host_register r = { .size = size };
	struct vgpu_handle_arg f = { 0 };
	char *buf = mmap(NULL, size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *ro = mmap(NULL, size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
			-1, 0);

	ASSERT_NE(MAP_FAILED, buf);
	ASSERT_NE(MAP_FAILED, ro);
	r.addr = (uintptr_t)buf;
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_HOST_REGISTER, &r));
	EXPECT_SYSFS(16, "pinned_pages");
	EXPECT_SYSFS(16, "gart_entries_used");
	f.handle = r.handle;
	EXPECT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_MEM_FREE, &f));
	EXPECT_SYSFS(0, "pinned_pages");

	/* Read-only memory: only a read-only registration. */
	r = (struct vgpu_host_register){ .addr = (uintptr_t)ro, .size = size };
	EXPECT_EQ(-EFAULT, vgpu_ioctl(self->fd, VGPU_IOCTL_HOST_REGISTER, &r));
	r.flags = VGPU_HOST_REGISTER_READONLY;
	r.handle = 0;
	EXPECT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_HOST_REGISTER, &r));
	EXPECT_SYSFS(16, "pinned_pages");
	/* Left registered: close() unpins it. */
	munmap(buf, size);
}

TEST_F(dev, host_register_errors)
{
	char *buf = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct vgpu_host_register r = { .addr = (uintptr_t)buf + 1,
					.size = 4096 };

	ASSERT_NE(MAP_FAILED, buf);
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_HOST_REGISTER, &r));
	r.addr = (uintptr_t)buf;
	r.size = 100;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_HOST_REGISTER, &r));
	r.size = 0;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_HOST_REGISTER, &r));
	r.size = 4096;
	r.flags = 2;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_HOST_REGISTER, &r));
	r.flags = 0;
	/* Partly unmapped range: nothing stays pinned. */
	munmap(buf + 4096, 4096);
	r.size = 8192;
	EXPECT_EQ(-EFAULT, vgpu_ioctl(self->fd, VGPU_IOCTL_HOST_REGISTER, &r));
	EXPECT_SYSFS(0, "pinned_pages");
	/* Kernel addresses and wrap-around. */
	r.addr = 0xffff888000000000ull;
	r.size = 4096;
	EXPECT_EQ(-EFAULT, vgpu_ioctl(self->fd, VGPU_IOCTL_HOST_REGISTER, &r));
	r.addr = (uintptr_t)buf;
	r.size = -4096ull;
	EXPECT_NE(0, vgpu_ioctl(self->fd, VGPU_IOCTL_HOST_REGISTER, &r));
	EXPECT_SYSFS(0, "pinned_pages");
	munmap(buf, 4096);
}

TEST_F(dev, rlimit_memlock)
{
	struct rlimit rl = { .rlim_cur = 64 * KiB, .rlim_max = 64 * KiB };
	struct vgpu_host_alloc a = { .size = 128 * KiB };
	char *buf = mmap(NULL, 128 * KiB, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct vgpu_host_register r = { .addr = (uintptr_t)buf,
					.size = 128 * KiB };

	/* Root bypasses the limit through CAP_IPC_LOCK: drop it. */
	ASSERT_EQ(0, vgpu_drop_cap(CAP_IPC_LOCK));
	ASSERT_EQ(0, setrlimit(RLIMIT_MEMLOCK, &rl));
	EXPECT_EQ(-ENOMEM, vgpu_ioctl(self->fd, VGPU_IOCTL_HOST_ALLOC, &a));
	EXPECT_EQ(-ENOMEM, vgpu_ioctl(self->fd, VGPU_IOCTL_HOST_REGISTER, &r));
	EXPECT_SYSFS(0, "pinned_pages");
	/* Within the limit, and the limit counts both kinds together. */
	a.size = 32 * KiB;
	EXPECT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_HOST_ALLOC, &a));
	r.size = 32 * KiB;
	EXPECT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_HOST_REGISTER, &r));
	r.handle = 0;
	r.addr += 32 * KiB;
	r.size = 4096;
	EXPECT_EQ(-ENOMEM, vgpu_ioctl(self->fd, VGPU_IOCTL_HOST_REGISTER, &r));
	EXPECT_SYSFS(16, "pinned_pages");
}

/* ---- GPU mappings ----------------------------------------------------------- */

static int do_map(int fd, uint32_t ctx, uint32_t h, uint64_t va,
		  uint64_t off, uint64_t size, uint32_t flags)
{
	struct vgpu_map m = { .ctx = ctx, .handle = h, .va = va,
			      .offset = off, .size = size, .flags = flags };

	return vgpu_ioctl(fd, VGPU_IOCTL_MAP, &m);
}

static int do_unmap(int fd, uint32_t ctx, uint64_t va)
{
	struct vgpu_unmap u = { .ctx = ctx, .va = va };

	return vgpu_ioctl(fd, VGPU_IOCTL_UNMAP, &u);
}

TEST_F(dev, map_vram_rules)
{
	int fd = self->fd;
	struct vgpu_map m = { 0 };
	uint32_t ctx, bo;

	ASSERT_EQ(0, vgpu_ctx_create(fd, &ctx));
	ASSERT_EQ(0, vgpu_vram_alloc(fd, 4 * BIG, &bo));
	ASSERT_EQ(0, do_map(fd, ctx, bo, VA0, 0, 4 * BIG, 0));
	/* Alignment of va, offset, size to 64 KiB. */
	EXPECT_EQ(-EINVAL, do_map(fd, ctx, bo, VA0 + 8 * BIG + 4096, 0, BIG, 0));
	EXPECT_EQ(-EINVAL, do_map(fd, ctx, bo, VA0 + 8 * BIG, 4096, BIG, 0));
	EXPECT_EQ(-EINVAL, do_map(fd, ctx, bo, VA0 + 8 * BIG, 0, 4096, 0));
	EXPECT_EQ(-EINVAL, do_map(fd, ctx, bo, VA0 + 8 * BIG, 0, 0, 0));
	/* Inside the object. */
	EXPECT_EQ(-EINVAL, do_map(fd, ctx, bo, VA0 + 8 * BIG, BIG, 4 * BIG, 0));
	EXPECT_EQ(-EINVAL, do_map(fd, ctx, bo, VA0 + 8 * BIG, 4 * BIG, BIG, 0));
	EXPECT_EQ(-EINVAL, do_map(fd, ctx, bo, VA0 + 8 * BIG, -BIG, 2 * BIG, 0));
	/* Inside the 48-bit VA space, above the NULL guard. */
	EXPECT_EQ(-EINVAL, do_map(fd, ctx, bo, 0, 0, BIG, 0));
	EXPECT_EQ(-EINVAL, do_map(fd, ctx, bo, (1ull << 48) - BIG, 0,
				  2 * BIG, 0));
	EXPECT_EQ(-EINVAL, do_map(fd, ctx, bo, 1ull << 48, 0, BIG, 0));
	EXPECT_EQ(0, do_map(fd, ctx, bo, (1ull << 48) - BIG, 0, BIG, 0));
	EXPECT_EQ(0, do_map(fd, ctx, bo, BIG, 0, BIG, 0));
	/* Overlap: same range, straddling either end, inside. */
	EXPECT_EQ(-EEXIST, do_map(fd, ctx, bo, VA0, 0, 4 * BIG, 0));
	EXPECT_EQ(-EEXIST, do_map(fd, ctx, bo, VA0 - BIG, 0, 2 * BIG, 0));
	EXPECT_EQ(-EEXIST, do_map(fd, ctx, bo, VA0 + 3 * BIG, 0, 2 * BIG, 0));
	EXPECT_EQ(-EEXIST, do_map(fd, ctx, bo, VA0 + BIG, 0, BIG, 0));
	/* Adjacent is fine, and the same object may be mapped twice. */
	EXPECT_EQ(0, do_map(fd, ctx, bo, VA0 + 4 * BIG, 0, BIG,
			    VGPU_MAP_READONLY));
	EXPECT_EQ(0, do_map(fd, ctx, bo, VA0 - BIG, BIG, BIG,
			    VGPU_MAP_NO_ATOMIC));
	/* Flags and padding. */
	EXPECT_EQ(-EINVAL, do_map(fd, ctx, bo, VA0 + 16 * BIG, 0, BIG, 4));
	m = (struct vgpu_map){ .ctx = ctx, .handle = bo, .va = VA0 + 16 * BIG,
			       .size = BIG, .pad = 1 };
	EXPECT_EQ(-EINVAL, vgpu_ioctl(fd, VGPU_IOCTL_MAP, &m));
	/* Bad handles. */
	EXPECT_EQ(-ENOENT, do_map(fd, ctx + 100, bo, VA0 + 16 * BIG, 0, BIG, 0));
	EXPECT_EQ(-ENOENT, do_map(fd, ctx, bo + 100, VA0 + 16 * BIG, 0, BIG, 0));

	/* Unmap takes the start of a mapping, once. */
	EXPECT_EQ(-ENOENT, do_unmap(fd, ctx, VA0 + BIG));
	EXPECT_EQ(-ENOENT, do_unmap(fd, ctx, VA0 + 64 * BIG));
	EXPECT_EQ(0, do_unmap(fd, ctx, VA0));
	EXPECT_EQ(-ENOENT, do_unmap(fd, ctx, VA0));
	EXPECT_EQ(-ENOENT, do_unmap(fd, ctx + 100, VA0 + 4 * BIG));
	{
		struct vgpu_unmap u = { .ctx = ctx, .flags = 1,
					.va = VA0 + 4 * BIG };

		EXPECT_EQ(-EINVAL, vgpu_ioctl(fd, VGPU_IOCTL_UNMAP, &u));
	}
	/* The range is free again. */
	EXPECT_EQ(0, do_map(fd, ctx, bo, VA0, 0, 4 * BIG, 0));
}

TEST_F(dev, map_host_memory)
{
	int fd = self->fd;
	struct vgpu_host_alloc a = { .size = 3 * 4096 };
	char *buf = mmap(NULL, 4 * 4096, PROT_READ,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct vgpu_host_register r = { .addr = (uintptr_t)buf,
					.size = 4 * 4096,
					.flags = VGPU_HOST_REGISTER_READONLY };
	uint32_t ctx;
	void *p;

	ASSERT_EQ(0, vgpu_ctx_create(fd, &ctx));
	ASSERT_EQ(0, vgpu_ioctl(fd, VGPU_IOCTL_HOST_ALLOC, &a));
	p = mmap(NULL, a.alloc_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 a.mmap_offset);
	ASSERT_NE(MAP_FAILED, p);
	/* Unified addressing: GPU VA == host VA, 4 KiB granularity. */
	EXPECT_EQ(0, do_map(fd, ctx, a.handle, (uintptr_t)p, 0, a.alloc_size,
			    0));
	EXPECT_EQ(-EEXIST, do_map(fd, ctx, a.handle, (uintptr_t)p + 4096,
				  4096, 4096, 0));
	EXPECT_EQ(-EINVAL, do_map(fd, ctx, a.handle, VA0 + 512, 0, 4096, 0));
	/* A read-only registration maps only read-only. */
	ASSERT_EQ(0, vgpu_ioctl(fd, VGPU_IOCTL_HOST_REGISTER, &r));
	EXPECT_EQ(-EACCES, do_map(fd, ctx, r.handle, (uintptr_t)buf, 0,
				  r.size, 0));
	EXPECT_EQ(0, do_map(fd, ctx, r.handle, (uintptr_t)buf, 0, r.size,
			    VGPU_MAP_READONLY));
	/* A 4 KiB page next to a 64 KiB one in the same 2 MiB: dual PDE. */
	{
		uint32_t bo;

		ASSERT_EQ(0, vgpu_vram_alloc(fd, BIG, &bo));
		EXPECT_EQ(0, do_map(fd, ctx, bo, VA0, 0, BIG, 0));
		EXPECT_EQ(0, do_map(fd, ctx, a.handle, VA0 + BIG, 0, 4096, 0));
	}
	munmap(p, a.alloc_size);
}

TEST_F(dev, mapping_keeps_object_alive)
{
	struct vgpu_handle_arg f = { 0 };
	uint32_t ctx, bo;

	ASSERT_EQ(0, vgpu_ctx_create(self->fd, &ctx));
	ASSERT_EQ(0, vgpu_vram_alloc(self->fd, 2 * BIG, &bo));
	ASSERT_EQ(0, do_map(self->fd, ctx, bo, VA0, 0, 2 * BIG, 0));
	f.handle = bo;
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_MEM_FREE, &f));
	EXPECT_EQ(-ENOENT, vgpu_ioctl(self->fd, VGPU_IOCTL_MEM_FREE, &f));
	/* Still mapped: its VRAM stays allocated until unmapped. */
	EXPECT_LE((long long)(2 * BIG), vgpu_sysfs_num("vram_used_bytes"));
	long long before = vgpu_sysfs_num("vram_used_bytes");

	EXPECT_EQ(0, do_unmap(self->fd, ctx, VA0));
	EXPECT_SYSFS(before - (long long)(2 * BIG), "vram_used_bytes");
}

/* ---- handles belong to their file --------------------------------------- */

TEST_F(dev, foreign_handles)
{
	int other = vgpu_open();
	struct vgpu_host_alloc a = { .size = 4096 };
	struct vgpu_handle_arg h = { 0 };
	struct vgpu_ctx_status st = { 0 };
	struct vgpu_tq q;
	uint32_t ctx, bo, octx;
	void *p;

	ASSERT_LE(0, other);
	ASSERT_EQ(0, vgpu_ctx_create(self->fd, &ctx));
	ASSERT_EQ(0, vgpu_vram_alloc(self->fd, BIG, &bo));
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_HOST_ALLOC, &a));
	ASSERT_EQ(0, vgpu_tq_create(&q, self->fd, ctx, VGPU_ENGINE_COPY,
				    4096));
	/* The other file has a context of its own, but not ours. */
	ASSERT_EQ(0, vgpu_ctx_create(other, &octx));
	EXPECT_EQ(-ENOENT, do_map(other, octx, bo, VA0, 0, BIG, 0));
	h.handle = bo;
	EXPECT_EQ(-ENOENT, vgpu_ioctl(other, VGPU_IOCTL_MEM_FREE, &h));
	h.handle = q.handle;
	EXPECT_EQ(-ENOENT, vgpu_ioctl(other, VGPU_IOCTL_QUEUE_KICK, &h));
	EXPECT_EQ(-ENOENT, vgpu_ioctl(other, VGPU_IOCTL_QUEUE_DESTROY, &h));
	{
		struct vgpu_wait w = { .queue = q.handle, .fence = 1 };

		EXPECT_EQ(-ENOENT, vgpu_ioctl(other, VGPU_IOCTL_WAIT, &w));
	}
	if (ctx != octx) {
		st.handle = ctx;
		EXPECT_EQ(-ENOENT, vgpu_ioctl(other, VGPU_IOCTL_CTX_STATUS,
					      &st));
	}
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, other, a.mmap_offset);
	EXPECT_EQ(MAP_FAILED, p);
	close(other);
	/* Closing the other file left ours intact. */
	EXPECT_EQ(0, do_map(self->fd, ctx, bo, VA0, 0, BIG, 0));
	EXPECT_SYSFS(1, "queues");
	vgpu_tq_unmap(&q);
}

/* ---- sharing between files (CUDA IPC) ----------------------------------- */

TEST_F(dev, mem_export_import)
{
	struct vgpu_host_alloc a = { .size = 2 * 4096 };
	struct vgpu_mem_export ev = { .flags = VGPU_MEM_EXPORT_CLOEXEC };
	struct vgpu_mem_export eh = { 0 };
	struct vgpu_mem_import iv = { 0 }, ih = { 0 };
	struct vgpu_handle_arg f = { 0 };
	int other = vgpu_open();
	uint32_t vram, octx;
	int *p, *q;

	ASSERT_LE(0, other);
	ASSERT_EQ(0, vgpu_vram_alloc(self->fd, 2 * BIG, &vram));
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_HOST_ALLOC, &a));
	ev.handle = vram;
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_MEM_EXPORT, &ev));
	EXPECT_EQ(FD_CLOEXEC, fcntl(ev.fd, F_GETFD));
	eh.handle = a.handle;
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_MEM_EXPORT, &eh));
	EXPECT_EQ(0, fcntl(eh.fd, F_GETFD));

	/* The exporting file may go: the descriptors hold the objects. */
	close(self->fd);
	self->fd = -1;
	EXPECT_SYSFS(2, "pinned_pages");

	iv.fd = ev.fd;
	ASSERT_EQ(0, vgpu_ioctl(other, VGPU_IOCTL_MEM_IMPORT, &iv));
	EXPECT_EQ(VGPU_MEM_KIND_VRAM, iv.kind);
	EXPECT_EQ(2 * BIG, iv.size);
	EXPECT_EQ(0, iv.mmap_offset);
	ASSERT_EQ(0, vgpu_ctx_create(other, &octx));
	EXPECT_EQ(0, do_map(other, octx, iv.handle, VA0, 0, 2 * BIG, 0));

	ih.fd = eh.fd;
	ASSERT_EQ(0, vgpu_ioctl(other, VGPU_IOCTL_MEM_IMPORT, &ih));
	EXPECT_EQ(VGPU_MEM_KIND_HOST, ih.kind);
	EXPECT_NE(0, ih.mmap_offset);
	/* Importing twice gives two handles of one object. */
	{
		struct vgpu_mem_import again = { .fd = eh.fd };

		ASSERT_EQ(0, vgpu_ioctl(other, VGPU_IOCTL_MEM_IMPORT, &again));
		EXPECT_NE(ih.handle, again.handle);
		p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, other,
			 ih.mmap_offset);
		q = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, other,
			 again.mmap_offset);
		ASSERT_NE(MAP_FAILED, p);
		ASSERT_NE(MAP_FAILED, q);
		p[2000] = 1234;
		EXPECT_EQ(1234, q[2000]);
		munmap(p, 8192);
		munmap(q, 8192);
	}
	close(ev.fd);
	close(eh.fd);
	EXPECT_SYSFS(2, "pinned_pages");
	f.handle = ih.handle;
	EXPECT_EQ(0, vgpu_ioctl(other, VGPU_IOCTL_MEM_FREE, &f));
	close(other);
}

TEST_F(dev, mem_export_import_errors)
{
	struct vgpu_mem_export e = { .flags = 2 };
	struct vgpu_mem_import i = { 0 };
	int null = open("/dev/null", O_RDONLY);
	uint32_t vram;

	ASSERT_EQ(0, vgpu_vram_alloc(self->fd, BIG, &vram));
	e.handle = vram;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_MEM_EXPORT, &e));
	e.flags = 0;
	e.pad = 1;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_MEM_EXPORT, &e));
	e.pad = 0;
	e.handle = vram + 1;
	EXPECT_EQ(-ENOENT, vgpu_ioctl(self->fd, VGPU_IOCTL_MEM_EXPORT, &e));

	i.fd = -1;
	EXPECT_EQ(-EBADF, vgpu_ioctl(self->fd, VGPU_IOCTL_MEM_IMPORT, &i));
	i.fd = null;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_MEM_IMPORT, &i));
	i.fd = self->fd;	/* a device file is not an exported object */
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_MEM_IMPORT, &i));
	e.handle = vram;
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_MEM_EXPORT, &e));
	i.fd = e.fd;
	i.flags = 1u << 1;	/* not VGPU_MEM_IMPORT_OWN_DEVICE */
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_MEM_IMPORT, &i));
	close(e.fd);
	close(null);
}

/* ---- queues with no work submitted --------------------------------------- */

TEST_F(dev, queue_create_and_mmap)
{
	struct vgpu_queue_create c = { .engine = VGPU_ENGINE_COMPUTE,
				       .ring_size = 16384 };
	uint32_t ctx;
	char *ring;
	void *p;

	ASSERT_EQ(0, vgpu_ctx_create(self->fd, &ctx));
	c.ctx = ctx;
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_QUEUE_CREATE, &c));
	EXPECT_NE(0, c.queue_id);
	EXPECT_SYSFS(1, "queues");
	ring = mmap(NULL, 16384, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		    c.ring_offset);
	ASSERT_NE(MAP_FAILED, ring);
	ring[16383] = 1;
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 32768, PROT_READ, MAP_SHARED,
				   self->fd, c.ring_offset));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 8192, PROT_READ, MAP_SHARED,
				   self->fd, c.doorbell_offset));
	/* The fence page is the driver's: read-only, for good. */
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		 c.fence_offset);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EPERM, errno);
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->fd, c.fence_offset);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(-1, mprotect(p, 4096, PROT_READ | PROT_WRITE));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(0, ((const struct vgpu_fence_page *)p)->completed);
	munmap(p, 4096);
	/* The ring mapping outlives the queue. */
	{
		struct vgpu_handle_arg d = { .handle = c.handle };

		EXPECT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_QUEUE_DESTROY, &d));
	}
	EXPECT_SYSFS(0, "queues");
	EXPECT_EQ(1, ring[16383]);
	munmap(ring, 16384);
}

TEST_F(dev, queue_create_errors)
{
	struct vgpu_queue_create c = { .engine = VGPU_ENGINE_COMPUTE,
				       .ring_size = 4096 };
	uint32_t ctx;

	ASSERT_EQ(0, vgpu_ctx_create(self->fd, &ctx));
	c.ctx = ctx + 1;
	EXPECT_EQ(-ENOENT, vgpu_ioctl(self->fd, VGPU_IOCTL_QUEUE_CREATE, &c));
	c.ctx = ctx;
	c.engine = VGPU_ENGINE_MAX + 1;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_QUEUE_CREATE, &c));
	c.engine = VGPU_ENGINE_COPY;
	c.flags = 1;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_QUEUE_CREATE, &c));
	c.flags = 0;
	c.ring_size = 2048;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_QUEUE_CREATE, &c));
	c.ring_size = 3 * 4096;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_QUEUE_CREATE, &c));
	c.ring_size = 2 * 1024 * 1024;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_QUEUE_CREATE, &c));
	EXPECT_SYSFS(0, "queues");
}

TEST_F(dev, queue_limit)
{
	struct vgpu_queue_create c = { .ring_size = 4096 };
	unsigned int i;

	ASSERT_EQ(0, vgpu_ctx_create(self->fd, &c.ctx));
	for (i = 0; i < self->info.max_queues; i++)
		ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_QUEUE_CREATE, &c));
	EXPECT_EQ(-ENOSPC, vgpu_ioctl(self->fd, VGPU_IOCTL_QUEUE_CREATE, &c));
	EXPECT_SYSFS((long long)self->info.max_queues, "queues");
}

TEST_F(dev, wait_with_no_work_and_without_firmware)
{
	struct vgpu_wait w = { 0 };
	struct vgpu_tq q;
	uint64_t t0;
	uint32_t ctx;

	ASSERT_EQ(0, vgpu_ctx_create(self->fd, &ctx));
	ASSERT_EQ(0, vgpu_tq_create(&q, self->fd, ctx, VGPU_ENGINE_COMPUTE,
				    4096));
	/* Fence 0 is always complete. */
	EXPECT_EQ(0, vgpu_tq_wait(&q, 0, 0));
	/* The deadline is absolute CLOCK_MONOTONIC. */
	t0 = vgpu_now_ns();
	EXPECT_EQ(-ETIME, vgpu_tq_wait(&q, 1, 50));
	EXPECT_LE(50000000ull, vgpu_now_ns() - t0);
	w.queue = q.handle;
	w.fence = 1;
	w.timeout_ns = 0;	/* in the past: just look */
	EXPECT_EQ(-ETIME, vgpu_ioctl(self->fd, VGPU_IOCTL_WAIT, &w));
	w.timeout_ns = -1;
	EXPECT_EQ(-ETIME, vgpu_ioctl(self->fd, VGPU_IOCTL_WAIT, &w));
	w.flags = 1;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_WAIT, &w));
	w.flags = 0;
	w.queue = 9999;
	EXPECT_EQ(-ENOENT, vgpu_ioctl(self->fd, VGPU_IOCTL_WAIT, &w));
	/* Nothing happened: no interrupt to read or poll. */
	{
		struct pollfd pfd = { .fd = self->fd, .events = POLLIN };
		uint64_t n;
		int fl = fcntl(self->fd, F_GETFL);

		EXPECT_EQ(0, poll(&pfd, 1, 0));
		fcntl(self->fd, F_SETFL, fl | O_NONBLOCK);
		EXPECT_EQ(-1, read(self->fd, &n, sizeof(n)));
		EXPECT_EQ(EAGAIN, errno);
		EXPECT_EQ(-1, read(self->fd, &n, 4));
		EXPECT_EQ(EINVAL, errno);
		fcntl(self->fd, F_SETFL, fl);
	}
	/* No firmware: the context is lost, nobody to kick. */
	vgpu_test_fw_kill(self->fw);
	self->fw = 0;
	{
		struct vgpu_handle_arg k = { .handle = q.handle };

		EXPECT_EQ(-ENODEV, vgpu_ioctl(self->fd, VGPU_IOCTL_QUEUE_KICK,
					      &k));
		k.flags = 1;
		EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_QUEUE_KICK,
					      &k));
	}
	EXPECT_EQ(-ENODEV, vgpu_tq_wait(&q, 1, 0));
	vgpu_tq_unmap(&q);
}

TEST_F(dev, queue_eventfd_errors)
{
	struct vgpu_queue_eventfd e = { 0 };
	int efd = eventfd(0, EFD_CLOEXEC), null = open("/dev/null", O_RDONLY);
	struct vgpu_tq q;
	uint32_t ctx;

	ASSERT_EQ(0, vgpu_ctx_create(self->fd, &ctx));
	ASSERT_EQ(0, vgpu_tq_create(&q, self->fd, ctx, VGPU_ENGINE_COMPUTE,
				    4096));
	e.queue = q.handle;
	e.fd = -2;
	EXPECT_EQ(-EBADF, vgpu_ioctl(self->fd, VGPU_IOCTL_QUEUE_EVENTFD, &e));
	e.fd = 1000;
	EXPECT_EQ(-EBADF, vgpu_ioctl(self->fd, VGPU_IOCTL_QUEUE_EVENTFD, &e));
	e.fd = null;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_QUEUE_EVENTFD, &e));
	e.fd = efd;
	EXPECT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_QUEUE_EVENTFD, &e));
	EXPECT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_QUEUE_EVENTFD, &e));
	e.fd = -1;
	EXPECT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_QUEUE_EVENTFD, &e));
	e.fd = efd;
	e.queue = 777;
	EXPECT_EQ(-ENOENT, vgpu_ioctl(self->fd, VGPU_IOCTL_QUEUE_EVENTFD, &e));
	/* Left registered: close() drops the eventfd reference. */
	e.queue = q.handle;
	EXPECT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_QUEUE_EVENTFD, &e));
	close(efd);
	close(null);
	vgpu_tq_unmap(&q);
}

/* ---- fork, close, exit ---------------------------------------------------- */

TEST_F(dev, fork_does_not_inherit_mappings)
{
	struct vgpu_host_alloc a = { .size = 4096 };
	struct vgpu_tq q;
	uint32_t ctx;
	char *p;
	int status;

	ASSERT_EQ(0, vgpu_ctx_create(self->fd, &ctx));
	ASSERT_EQ(0, vgpu_tq_create(&q, self->fd, ctx, VGPU_ENGINE_COMPUTE,
				    4096));
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_HOST_ALLOC, &a));
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		 a.mmap_offset);
	ASSERT_NE(MAP_FAILED, p);
	p[0] = 1;
	status = run_child(touch_byte, p);
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
	status = run_child(touch_byte, q.ring);
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
	status = run_child(touch_byte, q.db);
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
	/* The parent's mappings are intact. */
	EXPECT_EQ(1, p[0]);
	q.ring[0] = 2;
	munmap(p, 4096);
	vgpu_tq_unmap(&q);
}

/* Exit 0 if /proc/self/maps shows no mapping of a vgpu device. */
static void no_vgpu_mapping(void *unused)
{
	char line[512];
	FILE *f = fopen("/proc/self/maps", "re");
	int found = 0;

	(void)unused;
	if (!f)
		_exit(2);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "/dev/vgpu"))
			found = 1;
	fclose(f);
	_exit(found);
}

/*
 * VM_IO: madvise(MADV_DOFORK) cannot take back VM_DONTCOPY, so a child
 * never inherits the parent's host memory, ring, doorbell or fence page.
 */
TEST_F(dev, madvise_dofork_is_refused)
{
	struct vgpu_host_alloc a = { .size = 4096 };
	struct vgpu_tq q;
	uint32_t ctx;
	char *p;
	int status;

	ASSERT_EQ(0, vgpu_ctx_create(self->fd, &ctx));
	ASSERT_EQ(0, vgpu_tq_create(&q, self->fd, ctx, VGPU_ENGINE_COMPUTE,
				    4096));
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_HOST_ALLOC, &a));
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		 a.mmap_offset);
	ASSERT_NE(MAP_FAILED, p);
	p[0] = 1;
	errno = 0;
	EXPECT_EQ(-1, madvise(p, 4096, MADV_DOFORK));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(-1, madvise(q.ring, 4096, MADV_DOFORK));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(-1, madvise(q.db, 4096, MADV_DOFORK));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(-1, madvise((void *)q.fence, 4096, MADV_DOFORK));
	EXPECT_EQ(EINVAL, errno);
	/* DONTFORK is what they are already: accepted. */
	EXPECT_EQ(0, madvise(p, 4096, MADV_DONTFORK));

	status = run_child(touch_byte, p);
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
	status = run_child(touch_byte, q.ring);
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
	status = run_child(touch_byte, q.db);
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
	status = run_child(no_vgpu_mapping, NULL);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* The parent's own mappings still work. */
	EXPECT_EQ(1, p[0]);
	q.ring[0] = 2;
	munmap(p, 4096);
	vgpu_tq_unmap(&q);
}

/*
 * A mapping of a host object cannot be pinned (VM_IO); registering it,
 * with this device or another, shares the object's pages instead, which
 * outlive both the mapping and the object's handle.
 */
TEST_F(dev, register_a_host_object_mapping)
{
	struct vgpu_host_alloc a = { .size = 3 * 4096 };
	struct vgpu_host_register r = { .size = 2 * 4096 };
	struct vgpu_handle_arg f = { 0 };
	char *p;

	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_HOST_ALLOC, &a));
	/* Nothing mapped right after the object: a hole of one page. */
	p = mmap(NULL, 4 * 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, munmap(p + 3 * 4096, 4096));
	ASSERT_EQ(p, mmap(p, 3 * 4096, PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_FIXED, self->fd, a.mmap_offset));
	p[4096] = 7;
	/* Pages 1 and 2 of the object; from page 2 on, the range leaves it. */
	r.addr = (uintptr_t)p + 4096;
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_HOST_REGISTER, &r));
	EXPECT_SYSFS(5, "gart_entries_used");
	r.addr = (uintptr_t)p + 2 * 4096;
	EXPECT_EQ(-EFAULT, vgpu_ioctl(self->fd, VGPU_IOCTL_HOST_REGISTER, &r));
	/* A read-only mapping registers read-only only. */
	ASSERT_EQ(0, mprotect(p, 3 * 4096, PROT_READ));
	r.addr = (uintptr_t)p;
	EXPECT_EQ(-EFAULT, vgpu_ioctl(self->fd, VGPU_IOCTL_HOST_REGISTER, &r));
	/* The registration keeps the pages after munmap and MEM_FREE. */
	munmap(p, 3 * 4096);
	f.handle = a.handle;
	EXPECT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_MEM_FREE, &f));
	EXPECT_SYSFS(5, "gart_entries_used");
}

/* Without the udev rule, only root may open the node: mode 0660. */
TEST_F(dev, device_node_is_not_world_accessible)
{
	struct stat st;

	ASSERT_EQ(0, stat(VGPU_DEV, &st));
	EXPECT_EQ(0, st.st_mode & 0007);
	EXPECT_EQ(0660, st.st_mode & 0777);
}

/*
 * Everything the driver can hold for a file, left for release to clean up;
 * with @mmaps, also mappings of a host object and of a queue.
 */
static void allocate_everything(int fd, bool mmaps)
{
	struct vgpu_host_alloc a = { .size = 8192, .flags = VGPU_HOST_ALLOC_WC };
	char *buf = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct vgpu_host_register r = { .addr = (uintptr_t)buf, .size = 8192 };
	struct vgpu_queue_eventfd e = { .fd = eventfd(0, EFD_CLOEXEC) };
	struct vgpu_queue_create c = { .ring_size = 8192 };
	struct vgpu_tq q;
	uint32_t ctx, bo;

	vgpu_ctx_create(fd, &ctx);
	vgpu_vram_alloc(fd, 3 * BIG, &bo);
	do_map(fd, ctx, bo, VA0, 0, 3 * BIG, 0);
	vgpu_ioctl(fd, VGPU_IOCTL_HOST_ALLOC, &a);
	do_map(fd, ctx, a.handle, VA0 + 2 * MiB, 0, 8192, 0);
	vgpu_ioctl(fd, VGPU_IOCTL_HOST_REGISTER, &r);
	do_map(fd, ctx, r.handle, (uintptr_t)buf, 0, 8192, 0);
	if (mmaps) {
		vgpu_tq_create(&q, fd, ctx, VGPU_ENGINE_COMPUTE, 8192);
		e.queue = q.handle;
		mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		     a.mmap_offset);
	} else {
		c.ctx = ctx;
		vgpu_ioctl(fd, VGPU_IOCTL_QUEUE_CREATE, &c);
		e.queue = c.handle;
	}
	vgpu_ioctl(fd, VGPU_IOCTL_QUEUE_EVENTFD, &e);
	close(e.fd);
}

TEST_F(dev, close_releases_everything)
{
	allocate_everything(self->fd, false);
	EXPECT_SYSFS(1, "contexts");
	EXPECT_SYSFS(1, "queues");
	EXPECT_SYSFS(4, "pinned_pages");
	EXPECT_SYSFS(4, "gart_entries_used");
	EXPECT_LT(0, vgpu_sysfs_num("vram_resident_bytes"));
	close(self->fd);
	self->fd = -1;
	EXPECT_TRUE(vgpu_accounting_idle());
}

TEST_F(dev, mmaps_hold_the_file_until_exit)
{
	int status;
	pid_t pid = fork();

	if (!pid) {
		int fd = vgpu_open();

		allocate_everything(fd, true);
		close(fd);
		/* The mmaps keep the file: nothing was released yet. */
		_exit(vgpu_sysfs_num("contexts") == 1 &&
		      vgpu_sysfs_num("pinned_pages") == 4 ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_TRUE(vgpu_accounting_idle());
}

TEST_F(dev, process_kill_releases_everything)
{
	int status;
	pid_t pid = fork();

	if (!pid) {
		int fd = vgpu_open();

		allocate_everything(fd, true);
		kill(getpid(), SIGKILL);
	}
	waitpid(pid, &status, 0);
	EXPECT_TRUE(WIFSIGNALED(status));
	EXPECT_TRUE(vgpu_accounting_idle());
}

TEST_F(dev, sysfs_and_debugfs)
{
	char buf[64];

	EXPECT_EQ(0, vgpu_sysfs_str("firmware", buf, sizeof(buf)));
	EXPECT_STREQ("attached", buf);
	EXPECT_SYSFS(0, "contexts");
	if (access("/sys/kernel/debug/vgpu/vgpu0/queues", R_OK))
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	ASSERT_EQ(0, access("/sys/kernel/debug/vgpu/vgpu0/queues", R_OK));
	allocate_everything(self->fd, false);
	{
		static const char *const files[] = { "objects", "mappings",
						     "queues" };

		for (int i = 0; i < 3; i++) {
			char path[128], out[4096];
			ssize_t n;
			int fd;

			snprintf(path, sizeof(path),
				 "/sys/kernel/debug/vgpu/vgpu0/%s", files[i]);
			fd = open(path, O_RDONLY);
			ASSERT_LE(0, fd);
			n = read(fd, out, sizeof(out) - 1);
			EXPECT_LT(20, n);
			close(fd);
			out[n > 0 ? n : 0] = '\0';
			TH_LOG("%s:\n%s", files[i], out);
		}
	}
}

TEST_HARNESS_MAIN
