// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_managed_test.c - managed memory that migrates (uAPI 1.4), evicted
 * under VRAM pressure and mapped where it is when advised accessed-by (1.6)
 *
 * The test firmware (vgpu_test_fw.c) runs the packets; its MMU reports a
 * missing PTE as a replayable fault (VGPU_IOCTL_FW_MMU_FAULT), as vgpu-fw
 * does.  Each test checks where the blocks live (VGPU_IOCTL_MANAGED_QUERY),
 * the data against what was written, and the counters in sysfs
 * (managed/...), and every test ends with all accounting back at zero.
 */
#include <errno.h>
#include <stdio.h>
#include <linux/capability.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "vgpu_lib.h"

#define BLOCK	VGPU_MANAGED_BLOCK_SIZE
#define NBLOCKS	4
#define VA_M	(1ull << 33)	/* the managed object in the contexts */

static int map_bo(int fd, uint32_t ctx, uint32_t h, uint64_t va,
		  uint64_t size)
{
	struct vgpu_map m = { .ctx = ctx, .handle = h, .va = va, .size = size };

	return vgpu_ioctl(fd, VGPU_IOCTL_MAP, &m);
}

static int where(int fd, uint32_t h, uint64_t off)
{
	struct vgpu_managed_query q = { .handle = h, .offset = off };
	int ret = vgpu_ioctl(fd, VGPU_IOCTL_MANAGED_QUERY, &q);

	return ret ? ret : (int)q.location;
}

static int migrate(int fd, uint32_t h, uint64_t off, uint64_t size,
		   uint32_t target)
{
	struct vgpu_managed_migrate m = { .handle = h, .offset = off,
					  .size = size, .target = target };

	return vgpu_ioctl(fd, VGPU_IOCTL_MANAGED_MIGRATE, &m);
}

static int advise(int fd, uint32_t h, uint64_t off, uint64_t size,
		  uint32_t advice)
{
	struct vgpu_managed_advise a = { .handle = h, .offset = off,
					 .size = size, .advice = advice };

	return vgpu_ioctl(fd, VGPU_IOCTL_MANAGED_ADVISE, &a);
}

static long long mstat(const char *name)
{
	char attr[64];

	snprintf(attr, sizeof(attr), "managed/%s", name);
	return vgpu_sysfs_num(attr);
}

/* A driver-allocated host buffer mapped at its own address in @ctx. */
static uint8_t *host_buffer(int fd, uint32_t ctx, size_t size)
{
	struct vgpu_host_alloc a = { .size = size };
	struct vgpu_map m = { .ctx = ctx, .size = size };
	uint8_t *p;

	if (vgpu_ioctl(fd, VGPU_IOCTL_HOST_ALLOC, &a))
		return NULL;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 a.mmap_offset);
	if (p == MAP_FAILED)
		return NULL;
	m.handle = a.handle;
	m.va = (uintptr_t)p;
	return vgpu_ioctl(fd, VGPU_IOCTL_MAP, &m) ? NULL : p;
}

static void emit_copy(struct vgpu_tq *q, uint64_t dst, uint64_t src,
		      uint64_t size)
{
	struct vgpu_pkt_copy c = {
		.hdr = { .opcode = VGPU_PKT_COPY, .size = sizeof(c) },
		.dst = dst, .src = src, .size = size,
	};

	vgpu_tq_emit(q, &c, sizeof(c));
}

static void emit_write(struct vgpu_tq *q, uint64_t va, uint64_t value)
{
	struct vgpu_pkt_write_mem w = {
		.hdr = { .opcode = VGPU_PKT_WRITE_MEM, .size = sizeof(w) },
		.va = va, .value = value,
	};

	vgpu_tq_emit(q, &w, sizeof(w));
}

static int run(struct vgpu_tq *q)
{
	uint64_t f = vgpu_tq_fence(q);
	int ret = vgpu_tq_submit(q);

	return ret ? ret : vgpu_tq_wait(q, f, 10000);
}

static uint8_t pattern(size_t i)
{
	return (uint8_t)(i * 131 + 17);
}

/* --- the ioctls' errors -------------------------------------------------- */

FIXTURE(managed_api) {
	int fd;
	pid_t fw;
	uint32_t ctx;
};

FIXTURE_SETUP(managed_api)
{
	/* The firmware first: it must not inherit our file (see teardown). */
	self->fw = vgpu_test_fw_start();
	ASSERT_LT(0, self->fw);
	self->fd = vgpu_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, vgpu_ctx_create(self->fd, &self->ctx));
}

FIXTURE_TEARDOWN(managed_api)
{
	close(self->fd);
	EXPECT_TRUE(vgpu_accounting_idle());
	vgpu_test_fw_kill(self->fw);
}

TEST_F(managed_api, alloc_rounds_to_blocks_and_refuses_bad_arguments)
{
	struct vgpu_managed_alloc a = { .size = 1 };
	struct vgpu_info info;

	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_GET_INFO, &info));
	EXPECT_LE(4, info.version_minor);
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_MANAGED_ALLOC, &a));
	EXPECT_EQ(BLOCK, a.alloc_size);
	EXPECT_EQ(VGPU_MANAGED_LOC_HOST, where(self->fd, a.handle, 0));

	/* debugfs names the kind (when debugfs is mounted). */
	FILE *f = fopen("/sys/kernel/debug/vgpu/vgpu0/objects", "r");

	if (f) {
		char line[256];
		bool seen = false;

		while (fgets(line, sizeof(line), f))
			seen |= !strncmp(line, "managed ", 8);
		fclose(f);
		EXPECT_TRUE(seen);
	}

	a = (struct vgpu_managed_alloc){ .size = 0 };
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_MANAGED_ALLOC, &a));
	a = (struct vgpu_managed_alloc){ .size = BLOCK, .flags = 1 };
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_MANAGED_ALLOC, &a));
	a = (struct vgpu_managed_alloc){ .size = info.gart_entries * 4096 + 1 };
	EXPECT_EQ(-ENOSPC, vgpu_ioctl(self->fd, VGPU_IOCTL_MANAGED_ALLOC, &a));
}

TEST_F(managed_api, migrate_query_map_export_errors)
{
	struct vgpu_managed_alloc a = { .size = 2 * BLOCK };
	struct vgpu_managed_migrate m;
	struct vgpu_managed_query q;
	struct vgpu_mem_export e;
	uint32_t vram;

	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_MANAGED_ALLOC, &a));
	ASSERT_EQ(0, vgpu_vram_alloc(self->fd, BLOCK, &vram));

	EXPECT_EQ(-ENOENT, migrate(self->fd, 999, 0, 1, 1));
	EXPECT_EQ(-EINVAL, migrate(self->fd, vram, 0, 1, 1));
	EXPECT_EQ(-EINVAL, migrate(self->fd, a.handle, 0, 0, 1));
	EXPECT_EQ(-EINVAL, migrate(self->fd, a.handle, 2 * BLOCK, 1, 1));
	EXPECT_EQ(-EINVAL, migrate(self->fd, a.handle, BLOCK, BLOCK + 1, 1));
	EXPECT_EQ(-EINVAL, migrate(self->fd, a.handle, 0, 1, 2));
	m = (struct vgpu_managed_migrate){ .handle = a.handle, .size = 1,
					   .pad = 1 };
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_MANAGED_MIGRATE, &m));
	m.pad = 0;
	m.flags = 4;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_MANAGED_MIGRATE, &m));

	EXPECT_EQ(-EINVAL, where(self->fd, a.handle, 2 * BLOCK));
	EXPECT_EQ(-EINVAL, where(self->fd, vram, 0));
	q = (struct vgpu_managed_query){ .handle = a.handle, .flags = 1 };
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_MANAGED_QUERY, &q));

	/* Mapped in 64 KiB blocks only. */
	EXPECT_EQ(-EINVAL, map_bo(self->fd, self->ctx, a.handle, VA_M, 4096));
	EXPECT_EQ(-EINVAL, map_bo(self->fd, self->ctx, a.handle,
				  VA_M + 4096, BLOCK));
	/* Its process mappings are the owner's: no export. */
	e = (struct vgpu_mem_export){ .handle = a.handle };
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_MEM_EXPORT, &e));
	/* The firmware's ioctl, on a client file. */
	struct vgpu_fw_mmu_fault f = { .ctx_id = 1, .va = VA_M };

	EXPECT_EQ(-EPERM, vgpu_ioctl(self->fd, VGPU_IOCTL_FW_MMU_FAULT, &f));
	/* mmap past the object, and of a non-managed handle as managed. */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 3 * BLOCK, PROT_READ, MAP_SHARED,
				   self->fd, a.mmap_offset));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, BLOCK, PROT_READ, MAP_SHARED,
				   self->fd, a.mmap_offset -
				   ((uint64_t)a.handle << 36) +
				   ((uint64_t)vram << 36)));
}

/* --- migration ------------------------------------------------------------ */

FIXTURE(managed) {
	int fd;
	pid_t fw;
	uint32_t ctx;
	uint32_t handle;
	uint8_t *cpu;
	struct vgpu_tq q;
};

FIXTURE_SETUP(managed)
{
	struct vgpu_managed_alloc a = { .size = NBLOCKS * BLOCK };

	/* The firmware first: it must not inherit our file (see teardown). */
	self->fw = vgpu_test_fw_start();
	ASSERT_LT(0, self->fw);
	self->fd = vgpu_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, vgpu_ctx_create(self->fd, &self->ctx));
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_MANAGED_ALLOC, &a));
	self->handle = a.handle;
	self->cpu = mmap(NULL, a.alloc_size, PROT_READ | PROT_WRITE,
			 MAP_SHARED, self->fd, a.mmap_offset);
	ASSERT_NE(MAP_FAILED, self->cpu);
	ASSERT_EQ(0, map_bo(self->fd, self->ctx, a.handle, VA_M, a.alloc_size));
	ASSERT_EQ(0, vgpu_tq_create(&self->q, self->fd, self->ctx,
				    VGPU_ENGINE_COPY, 4096));
	for (size_t i = 0; i < NBLOCKS * BLOCK; i++)
		self->cpu[i] = pattern(i);
}

FIXTURE_TEARDOWN(managed)
{
	vgpu_tq_unmap(&self->q);
	munmap(self->cpu, NBLOCKS * BLOCK);
	close(self->fd);
	/* Blocks in VRAM go with the object, with the firmware alive. */
	EXPECT_TRUE(vgpu_accounting_idle());
	vgpu_test_fw_kill(self->fw);
}

TEST_F(managed, device_read_faults_the_block_into_vram)
{
	long long faults = mstat("gpu_faults"), moved = mstat("to_device");
	uint8_t *dst = host_buffer(self->fd, self->ctx, BLOCK);

	ASSERT_NE(NULL, dst);
	for (int b = 0; b < NBLOCKS; b++)
		EXPECT_EQ(VGPU_MANAGED_LOC_HOST, where(self->fd, self->handle,
						       b * BLOCK));
	emit_copy(&self->q, (uintptr_t)dst, VA_M + BLOCK + 100, 5000);
	ASSERT_EQ(0, run(&self->q));
	for (size_t i = 0; i < 5000; i++)
		ASSERT_EQ(pattern(BLOCK + 100 + i), dst[i]);
	EXPECT_EQ(VGPU_MANAGED_LOC_HOST, where(self->fd, self->handle, 0));
	EXPECT_EQ(VGPU_MANAGED_LOC_DEVICE, where(self->fd, self->handle,
						 BLOCK));
	EXPECT_EQ(VGPU_MANAGED_LOC_HOST, where(self->fd, self->handle,
					       2 * BLOCK));
	EXPECT_EQ(faults + 1, mstat("gpu_faults"));
	EXPECT_EQ(moved + 1, mstat("to_device"));
	EXPECT_EQ(BLOCK, mstat("resident_bytes"));
	EXPECT_EQ((moved + 1) * BLOCK, mstat("to_device_bytes"));
	munmap(dst, BLOCK);	/* a mapping holds the file open */
}

TEST_F(managed, cpu_access_brings_a_device_block_back)
{
	long long cpu = mstat("cpu_faults"), back = mstat("to_host");

	/* The device writes into block 2: it moves, the write lands. */
	emit_write(&self->q, VA_M + 2 * BLOCK + 64, 0x1122334455667788ull);
	ASSERT_EQ(0, run(&self->q));
	EXPECT_EQ(VGPU_MANAGED_LOC_DEVICE, where(self->fd, self->handle,
						 2 * BLOCK));
	/* The process reads it: the block comes back with the write. */
	EXPECT_EQ(0x1122334455667788ull,
		  *(volatile uint64_t *)(self->cpu + 2 * BLOCK + 64));
	EXPECT_EQ(VGPU_MANAGED_LOC_HOST, where(self->fd, self->handle,
					       2 * BLOCK));
	EXPECT_EQ(cpu + 1, mstat("cpu_faults"));
	EXPECT_EQ(back + 1, mstat("to_host"));
	EXPECT_EQ(0, mstat("resident_bytes"));
	for (size_t i = 2 * BLOCK; i < 3 * BLOCK; i++)
		if (i < 2 * BLOCK + 64 || i >= 2 * BLOCK + 72)
			ASSERT_EQ(pattern(i), self->cpu[i]);
	/* And back to the device on its next access. */
	emit_write(&self->q, VA_M + 2 * BLOCK, 5);
	ASSERT_EQ(0, run(&self->q));
	EXPECT_EQ(VGPU_MANAGED_LOC_DEVICE, where(self->fd, self->handle,
						 2 * BLOCK));
	self->cpu[2 * BLOCK + 8] = 9;	/* a write faults it back too */
	EXPECT_EQ(5, *(uint64_t *)(self->cpu + 2 * BLOCK));
	EXPECT_EQ(9, self->cpu[2 * BLOCK + 8]);
}

TEST_F(managed, prefetch_moves_and_maps_without_faults)
{
	long long faults, prefetches = mstat("prefetches");
	uint8_t *dst = host_buffer(self->fd, self->ctx, NBLOCKS * BLOCK);

	ASSERT_NE(NULL, dst);
	/* An unaligned range covers the blocks it touches. */
	ASSERT_EQ(0, migrate(self->fd, self->handle, 10, NBLOCKS * BLOCK - 20,
			     VGPU_MANAGED_LOC_DEVICE));
	EXPECT_EQ(prefetches + 1, mstat("prefetches"));
	for (int b = 0; b < NBLOCKS; b++)
		EXPECT_EQ(VGPU_MANAGED_LOC_DEVICE,
			  where(self->fd, self->handle, b * BLOCK));
	EXPECT_EQ(NBLOCKS * BLOCK, mstat("resident_bytes"));
	faults = mstat("gpu_faults");
	emit_copy(&self->q, (uintptr_t)dst, VA_M, NBLOCKS * BLOCK);
	ASSERT_EQ(0, run(&self->q));
	EXPECT_EQ(faults, mstat("gpu_faults"));
	for (size_t i = 0; i < NBLOCKS * BLOCK; i++)
		ASSERT_EQ(pattern(i), dst[i]);
	/* Device writes, then everything back to the host at once. */
	emit_write(&self->q, VA_M + 3 * BLOCK, 42);
	ASSERT_EQ(0, run(&self->q));
	ASSERT_EQ(0, migrate(self->fd, self->handle, 0, NBLOCKS * BLOCK,
			     VGPU_MANAGED_LOC_HOST));
	for (int b = 0; b < NBLOCKS; b++)
		EXPECT_EQ(VGPU_MANAGED_LOC_HOST,
			  where(self->fd, self->handle, b * BLOCK));
	EXPECT_EQ(0, mstat("resident_bytes"));
	EXPECT_EQ(42, *(uint64_t *)(self->cpu + 3 * BLOCK));
	EXPECT_EQ(pattern(BLOCK), self->cpu[BLOCK]);
	/* A migration to where a block is already moves nothing. */
	ASSERT_EQ(0, migrate(self->fd, self->handle, 0, BLOCK,
			     VGPU_MANAGED_LOC_HOST));
	munmap(dst, NBLOCKS * BLOCK);
}

TEST_F(managed, every_context_sees_the_moved_block)
{
	uint32_t ctx2;
	struct vgpu_tq q2;
	long long faults;
	uint8_t *dst;

	ASSERT_EQ(0, vgpu_ctx_create(self->fd, &ctx2));
	ASSERT_EQ(0, map_bo(self->fd, ctx2, self->handle, VA_M + BLOCK,
			    NBLOCKS * BLOCK));
	ASSERT_EQ(0, vgpu_tq_create(&q2, self->fd, ctx2, VGPU_ENGINE_COPY,
				    4096));
	dst = host_buffer(self->fd, ctx2, 4096);
	ASSERT_NE(NULL, dst);
	emit_write(&self->q, VA_M + 8, 77);	/* ctx 1 faults block 0 in */
	ASSERT_EQ(0, run(&self->q));
	faults = mstat("gpu_faults");
	/* ctx 2 maps block 0 at VA_M + BLOCK: valid there already. */
	emit_copy(&q2, (uintptr_t)dst, VA_M + BLOCK + 8, 8);
	ASSERT_EQ(0, run(&q2));
	EXPECT_EQ(77, *(uint64_t *)dst);
	EXPECT_EQ(faults, mstat("gpu_faults"));
	vgpu_tq_unmap(&q2);
	munmap(dst, 4096);
}

TEST_F(managed, unmanaged_faults_stay_fatal)
{
	struct vgpu_ctx_status st = { .handle = self->ctx };

	/* Past the managed mapping: no replay, the context stops. */
	emit_write(&self->q, VA_M + NBLOCKS * BLOCK, 1);
	EXPECT_EQ(-ECANCELED, run(&self->q));
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_STATUS, &st));
	EXPECT_EQ(VGPU_FAULT_MMU_UNMAPPED, st.fault.kind);
	EXPECT_EQ(VA_M + NBLOCKS * BLOCK, st.fault.va);
}

TEST_F(managed, teardown_while_in_vram_returns_everything)
{
	struct vgpu_handle_arg h = { .handle = self->handle };
	struct vgpu_unmap u = { .ctx = self->ctx, .va = VA_M };

	ASSERT_EQ(0, migrate(self->fd, self->handle, 0, NBLOCKS * BLOCK,
			     VGPU_MANAGED_LOC_DEVICE));
	EXPECT_LT(0, vgpu_sysfs_num("vram_used_bytes"));
	/* Unmapped and freed while its blocks are in VRAM: the process
	 * mapping alone keeps it; its pages still read what was written. */
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_UNMAP, &u));
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_MEM_FREE, &h));
	EXPECT_EQ(pattern(3 * BLOCK + 5), self->cpu[3 * BLOCK + 5]);
	/* The rest goes in the teardown, which checks the accounting. */
}

TEST_F(managed, vram_share_limits_migration)
{
	struct vgpu_managed_alloc a = { 0 };
	long long limit;
	int ret;

	/*
	 * The creator's capability counts, not the firmware's: without
	 * CAP_SYS_RESOURCE, blocks stop moving in at the user's share.
	 */
	if (vgpu_drop_cap(CAP_SYS_RESOURCE))
		SKIP(return, "cannot drop CAP_SYS_RESOURCE");
	ASSERT_EQ(0, vgpu_param_write("user_vram_pct", "1"));
	limit = vgpu_sysfs_num("user_vram_limit_bytes");
	a.size = limit + 2 * BLOCK;
	ret = vgpu_ioctl(self->fd, VGPU_IOCTL_MANAGED_ALLOC, &a);
	if (!ret)
		ret = migrate(self->fd, a.handle, 0, a.alloc_size,
			      VGPU_MANAGED_LOC_DEVICE);
	ASSERT_EQ(0, vgpu_param_write("user_vram_pct", "50"));
	EXPECT_EQ(-EDQUOT, ret);
	/* What moved stays accounted, and goes with the object. */
	EXPECT_LT(0, mstat("resident_bytes"));
	EXPECT_GE(limit, mstat("resident_bytes"));
}

/* --- eviction under VRAM pressure ---------------------------------------- */

static long long vram_free(void)
{
	return vgpu_sysfs_num("vram_total_bytes") -
	       vgpu_sysfs_num("vram_used_bytes");
}

/*
 * Allocate VRAM until managed block @b of @h left it.  Large chunks while
 * the free space is far larger than them (first fit: the tail of VRAM is
 * one free run), then single blocks, each of which either finds a free
 * run or makes the driver evict exactly one managed block.
 */
static int fill_vram_until_evicted(int fd, uint32_t h, int b)
{
	const long long chunk = 16ll << 20;
	uint32_t handle;
	int ret;

	while (vram_free() > 2 * chunk) {
		ret = vgpu_vram_alloc(fd, chunk, &handle);
		if (ret)
			return ret;
	}
	for (long long n = vram_free() / BLOCK + 4; n > 0; n--) {
		if (where(fd, h, (uint64_t)b * BLOCK) != VGPU_MANAGED_LOC_DEVICE)
			return 0;
		ret = vgpu_vram_alloc(fd, BLOCK, &handle);
		if (ret)
			return ret;
	}
	return -ENOSPC;	/* VRAM never filled: no eviction to check */
}

TEST_F(managed, full_vram_evicts_the_oldest_block)
{
	long long evictions = mstat("evictions"), to_host = mstat("to_host");

	/* Block 2 moves in first (a device write), then 0, 1 and 3. */
	emit_write(&self->q, VA_M + 2 * BLOCK, 99);
	ASSERT_EQ(0, run(&self->q));
	ASSERT_EQ(0, migrate(self->fd, self->handle, 0, NBLOCKS * BLOCK,
			     VGPU_MANAGED_LOC_DEVICE));
	EXPECT_EQ(NBLOCKS * BLOCK, mstat("resident_bytes"));
	/* VRAM fills: the allocation that finds it full evicts block 2. */
	ASSERT_EQ(0, fill_vram_until_evicted(self->fd, self->handle, 2));
	EXPECT_EQ(evictions + 1, mstat("evictions"));
	EXPECT_EQ(BLOCK, mstat("evicted_bytes") - evictions * BLOCK);
	EXPECT_EQ(to_host + 1, mstat("to_host"));
	EXPECT_EQ(VGPU_MANAGED_LOC_HOST, where(self->fd, self->handle,
					       2 * BLOCK));
	for (int b = 0; b < NBLOCKS; b++)
		if (b != 2)
			EXPECT_EQ(VGPU_MANAGED_LOC_DEVICE,
				  where(self->fd, self->handle, b * BLOCK));
	EXPECT_EQ((NBLOCKS - 1) * BLOCK, mstat("resident_bytes"));
	/* A prefetch into full VRAM evicts the next oldest, block 0. */
	ASSERT_EQ(0, migrate(self->fd, self->handle, 2 * BLOCK, BLOCK,
			     VGPU_MANAGED_LOC_DEVICE));
	EXPECT_EQ(evictions + 2, mstat("evictions"));
	EXPECT_EQ(VGPU_MANAGED_LOC_DEVICE, where(self->fd, self->handle,
						 2 * BLOCK));
	EXPECT_EQ(VGPU_MANAGED_LOC_HOST, where(self->fd, self->handle, 0));
	/* Nothing was lost on the way: the device's write came back. */
	EXPECT_EQ(99, *(uint64_t *)(self->cpu + 2 * BLOCK));
	for (size_t i = 0; i < NBLOCKS * BLOCK; i++)
		if (i < 2 * BLOCK || i >= 2 * BLOCK + 8)
			ASSERT_EQ(pattern(i), self->cpu[i]);
	/* The VRAM goes with the file, in the teardown. */
}

/* --- accessed-by --------------------------------------------------------- */

TEST_F(managed, accessed_by_maps_host_blocks_without_faults)
{
	long long faults = mstat("gpu_faults"), to_dev = mstat("to_device");
	uint8_t *dst = host_buffer(self->fd, self->ctx, 4096);

	ASSERT_NE(NULL, dst);
	ASSERT_EQ(0, advise(self->fd, self->handle, 0, 2 * BLOCK,
			    VGPU_MANAGED_ADVISE_SET_ACCESSED_BY));
	/* The device writes block 1 and reads block 0 where they are. */
	emit_write(&self->q, VA_M + BLOCK + 16, 1234);
	emit_copy(&self->q, (uintptr_t)dst, VA_M + 64, 64);
	ASSERT_EQ(0, run(&self->q));
	EXPECT_EQ(faults, mstat("gpu_faults"));
	EXPECT_EQ(to_dev, mstat("to_device"));
	EXPECT_EQ(VGPU_MANAGED_LOC_HOST, where(self->fd, self->handle, 0));
	EXPECT_EQ(VGPU_MANAGED_LOC_HOST, where(self->fd, self->handle, BLOCK));
	for (int i = 0; i < 64; i++)
		ASSERT_EQ(pattern(64 + i), dst[i]);
	/* One set of pages: the process sees the write, and back. */
	EXPECT_EQ(1234, *(uint64_t *)(self->cpu + BLOCK + 16));
	*(uint64_t *)(self->cpu + BLOCK + 24) = 77;
	emit_copy(&self->q, (uintptr_t)dst, VA_M + BLOCK + 24, 8);
	ASSERT_EQ(0, run(&self->q));
	EXPECT_EQ(77, *(uint64_t *)dst);
	EXPECT_EQ(faults, mstat("gpu_faults"));
	/* Block 2 was not advised: it faults in as before. */
	emit_write(&self->q, VA_M + 2 * BLOCK, 5);
	ASSERT_EQ(0, run(&self->q));
	EXPECT_EQ(faults + 1, mstat("gpu_faults"));
	EXPECT_EQ(VGPU_MANAGED_LOC_DEVICE, where(self->fd, self->handle,
						 2 * BLOCK));
	/* A prefetch still moves an advised block, with its data. */
	ASSERT_EQ(0, migrate(self->fd, self->handle, BLOCK, BLOCK,
			     VGPU_MANAGED_LOC_DEVICE));
	EXPECT_EQ(VGPU_MANAGED_LOC_DEVICE, where(self->fd, self->handle,
						 BLOCK));
	emit_write(&self->q, VA_M + BLOCK + 32, 99);
	emit_copy(&self->q, (uintptr_t)dst, VA_M + BLOCK + 16, 16);
	ASSERT_EQ(0, run(&self->q));
	EXPECT_EQ(1234, ((uint64_t *)dst)[0]);
	EXPECT_EQ(77, ((uint64_t *)dst)[1]);
	/* Back in host pages, it is mapped through the GART again. */
	ASSERT_EQ(0, migrate(self->fd, self->handle, BLOCK, BLOCK,
			     VGPU_MANAGED_LOC_HOST));
	faults = mstat("gpu_faults");
	emit_copy(&self->q, (uintptr_t)dst, VA_M + BLOCK + 32, 8);
	ASSERT_EQ(0, run(&self->q));
	EXPECT_EQ(99, *(uint64_t *)dst);
	EXPECT_EQ(faults, mstat("gpu_faults"));
	EXPECT_EQ(VGPU_MANAGED_LOC_HOST, where(self->fd, self->handle, BLOCK));
	EXPECT_EQ(99, *(uint64_t *)(self->cpu + BLOCK + 32));
	/* Unset: the mapping in place stays until the block moves. */
	ASSERT_EQ(0, advise(self->fd, self->handle, 0, 2 * BLOCK,
			    VGPU_MANAGED_ADVISE_UNSET_ACCESSED_BY));
	munmap(dst, 4096);
}

TEST_F(managed, advise_errors)
{
	struct vgpu_managed_advise a = {
		.handle = self->handle, .size = BLOCK,
		.advice = VGPU_MANAGED_ADVISE_SET_ACCESSED_BY,
	};
	uint32_t vram;

	a.flags = 1;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_MANAGED_ADVISE, &a));
	a.flags = 0;
	a.pad = 1;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd, VGPU_IOCTL_MANAGED_ADVISE, &a));
	EXPECT_EQ(-EINVAL, advise(self->fd, self->handle, 0, BLOCK, 0));
	EXPECT_EQ(-EINVAL, advise(self->fd, self->handle, 0, BLOCK, 3));
	EXPECT_EQ(-EINVAL, advise(self->fd, self->handle, 0, 0,
				  VGPU_MANAGED_ADVISE_SET_ACCESSED_BY));
	EXPECT_EQ(-EINVAL, advise(self->fd, self->handle, BLOCK,
				  NBLOCKS * BLOCK,
				  VGPU_MANAGED_ADVISE_SET_ACCESSED_BY));
	EXPECT_EQ(-ENOENT, advise(self->fd, 999, 0, BLOCK,
				  VGPU_MANAGED_ADVISE_SET_ACCESSED_BY));
	ASSERT_EQ(0, vgpu_vram_alloc(self->fd, BLOCK, &vram));
	EXPECT_EQ(-EINVAL, advise(self->fd, vram, 0, BLOCK,
				  VGPU_MANAGED_ADVISE_SET_ACCESSED_BY));
}

TEST_HARNESS_MAIN
