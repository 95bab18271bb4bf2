// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_peer_test.c - peer access between two devices (num_devices=2):
 * a peer handle, the PEER PTE it maps as, the firmware's view of the
 * peer's VRAM, and who keeps the memory alive when files, mappings and
 * firmwares go in either order.
 *
 * The test is both devices' firmware itself (FW_ATTACH on a second open
 * of each device), so that it can look at the page tables and at both
 * views of the same VRAM byte.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "vgpu_lib.h"

#define VGPU_DEV1	"/dev/vgpu1"
#define SIZE		(64 * 1024ull)
#define VA		(1ull << 32)

static sigjmp_buf bus_jmp;

static void on_sigbus(int sig)
{
	(void)sig;
	siglongjmp(bus_jmp, 1);
}

/* Read a u32 through a firmware mapping; -1 if the page is gone. */
static long long peek(volatile uint32_t *p)
{
	struct sigaction sa = { .sa_handler = on_sigbus }, old;
	long long v = -1;

	sigaction(SIGBUS, &sa, &old);
	if (!sigsetjmp(bus_jmp, 1))
		v = *p;
	sigaction(SIGBUS, &old, NULL);
	return v;
}

FIXTURE(peer) {
	int c0, c1;		/* client files of devices 0 and 1 */
	int fw0, fw1;		/* the test as each device's firmware */
	struct vgpu_fw_attach a0, a1;
	uint8_t *vram0;		/* fw0's view of VRAM 0 */
	uint8_t *peer0;		/* fw1's view of VRAM 0 */
	struct vgpu_fw_peer p;
	uint64_t seq1;		/* last record fw1 read */
};

FIXTURE_SETUP(peer)
{
	if (access(VGPU_DEV1, F_OK))
		SKIP(return, "one device only (needs num_devices=2)");
	self->c0 = vgpu_open();
	self->c1 = open(VGPU_DEV1, O_RDWR | O_CLOEXEC);
	self->fw0 = open(VGPU_DEV, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	self->fw1 = open(VGPU_DEV1, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	ASSERT_LE(0, self->c0);
	ASSERT_LE(0, self->c1);
	ASSERT_LE(0, self->fw0);
	ASSERT_LE(0, self->fw1);
	ASSERT_EQ(0, vgpu_ioctl(self->fw0, VGPU_IOCTL_FW_ATTACH, &self->a0));
	ASSERT_EQ(0, vgpu_ioctl(self->fw1, VGPU_IOCTL_FW_ATTACH, &self->a1));
	self->vram0 = mmap(NULL, self->a0.vram_size, PROT_READ | PROT_WRITE,
			   MAP_SHARED, self->fw0, self->a0.vram_offset);
	ASSERT_NE(MAP_FAILED, self->vram0);
	self->p.index = 0;
	ASSERT_EQ(0, vgpu_ioctl(self->fw1, VGPU_IOCTL_FW_PEER, &self->p));
	EXPECT_EQ(self->a0.vram_size, self->p.vram_size);
	self->peer0 = mmap(NULL, self->p.vram_size, PROT_READ | PROT_WRITE,
			   MAP_SHARED, self->fw1, self->p.vram_offset);
	ASSERT_NE(MAP_FAILED, self->peer0);
}

FIXTURE_TEARDOWN(peer)
{
	if (self->peer0 && self->peer0 != MAP_FAILED)
		munmap(self->peer0, self->p.vram_size);
	if (self->vram0 && self->vram0 != MAP_FAILED)
		munmap(self->vram0, self->a0.vram_size);
	close(self->c0);
	close(self->c1);
	close(self->fw0);
	close(self->fw1);
}

/* fw1 reads its records until one of @type (for @ctx_id) comes. */
static int fw1_wait(struct _test_data_peer *self, uint32_t type,
		    uint32_t ctx_id, struct vgpu_fw_event *out)
{
	struct vgpu_fw_event ev;

	for (int tries = 0; tries < 1000; tries++) {
		ssize_t n = read(self->fw1, &ev, sizeof(ev));

		if (n == sizeof(ev)) {
			self->seq1 = ev.seq;
			if (ev.type == type && ev.ctx_id == ctx_id) {
				*out = ev;
				return 0;
			}
			continue;
		}
		usleep(1000);
	}
	return -1;
}

/* fw1's VRAM at byte @off. */
static uint64_t vram1_read64(uint8_t *vram1, uint64_t off)
{
	return *(volatile uint64_t *)(vram1 + off);
}

/* The big-page PTE of @va in the context whose root table is @pd3. */
static uint64_t pte_of(uint8_t *vram1, uint64_t pd3, uint64_t va)
{
	uint64_t pd2 = VGPU_PDE_ADDR(vram1_read64(vram1,
						  pd3 + VGPU_PD3_INDEX(va) * 8));
	uint64_t pd1 = VGPU_PDE_ADDR(vram1_read64(vram1,
						  pd2 + VGPU_PD2_INDEX(va) * 8));
	uint64_t pt = VGPU_PDE_ADDR(vram1_read64(vram1,
						 pd1 + VGPU_PD1_INDEX(va) * 16));

	return vram1_read64(vram1, pt + VGPU_BIG_INDEX(va) * 8);
}

/* VRAM of device 0 allocated, exported and imported into device 1. */
static void share(struct _test_data_peer *self,
		  struct __test_metadata *_metadata, uint32_t *h0,
		  struct vgpu_mem_import *imp)
{
	struct vgpu_mem_export e = { 0 };

	ASSERT_EQ(0, vgpu_vram_alloc(self->c0, SIZE, h0));
	e.handle = *h0;
	ASSERT_EQ(0, vgpu_ioctl(self->c0, VGPU_IOCTL_MEM_EXPORT, &e));
	memset(imp, 0, sizeof(*imp));
	imp->fd = e.fd;
	ASSERT_EQ(0, vgpu_ioctl(self->c1, VGPU_IOCTL_MEM_IMPORT, imp));
	close(e.fd);
	EXPECT_EQ(VGPU_MEM_KIND_VRAM, imp->kind);
	EXPECT_EQ(SIZE, imp->size);
	EXPECT_EQ(0, imp->mmap_offset);	/* a peer handle is not mmap()ed */
}

TEST_F(peer, map_writes_peer_pte_and_both_views_meet)
{
	uint8_t *vram1 = mmap(NULL, self->a1.vram_size, PROT_READ, MAP_SHARED,
			      self->fw1, self->a1.vram_offset);
	long long used = vgpu_sysfs_num("vram_used_bytes");
	struct vgpu_ctx_create cc = { 0 };
	struct vgpu_mem_import imp;
	struct vgpu_fw_event ev;
	struct vgpu_map m = { 0 };
	struct vgpu_unmap um = { 0 };
	struct vgpu_handle_arg fr = { 0 };
	struct vgpu_fw_ack ack = { 0 };
	uint64_t pte, off;
	_Atomic uint32_t *a, *b;
	uint32_t h0;

	ASSERT_NE(MAP_FAILED, vram1);
	share(self, _metadata, &h0, &imp);
	ASSERT_EQ(used + (long long)SIZE, vgpu_sysfs_num("vram_used_bytes"));
	ASSERT_EQ(0, vgpu_ioctl(self->c1, VGPU_IOCTL_CTX_CREATE, &cc));
	m.ctx = cc.handle;
	m.handle = imp.handle;
	m.va = VA;
	m.size = SIZE;
	ASSERT_EQ(0, vgpu_ioctl(self->c1, VGPU_IOCTL_MAP, &m));

	/* The PTE: valid, writable, atomic, PEER aperture naming device 0. */
	ASSERT_EQ(0, fw1_wait(self, VGPU_FW_EV_CTX_CREATE, cc.ctx_id, &ev));
	pte = pte_of(vram1, ev.arg0, VA);
	EXPECT_EQ(VGPU_PTE_APERTURE_PEER, pte & VGPU_PTE_APERTURE_MASK);
	EXPECT_EQ(0, VGPU_PTE_PEER(pte));
	EXPECT_EQ(VGPU_PTE_VALID | VGPU_PTE_WRITE | VGPU_PTE_ATOMIC,
		  pte & (VGPU_PTE_VALID | VGPU_PTE_WRITE | VGPU_PTE_ATOMIC));
	off = VGPU_PTE_FRAME(pte) << VGPU_PTE_FRAME_SHIFT;
	ASSERT_LT(off, self->a0.vram_size);

	/* fw1's peer view and fw0's own view are the same memory. */
	a = (_Atomic uint32_t *)(self->vram0 + off);
	b = (_Atomic uint32_t *)(self->peer0 + off);
	atomic_store(a, 0x12345678);
	EXPECT_EQ(0x12345678, atomic_load(b));
	atomic_store(b, 100);
	EXPECT_EQ(100, atomic_load(a));
	for (int i = 0; i < 1000; i++) {
		atomic_fetch_add(a, 1);
		atomic_fetch_add(b, 2);
	}
	EXPECT_EQ(3100, atomic_load(a));

	/* The owner lets go: the peer handle and mapping keep the memory. */
	fr.handle = h0;
	ASSERT_EQ(0, vgpu_ioctl(self->c0, VGPU_IOCTL_MEM_FREE, &fr));
	fr.handle = imp.handle;
	ASSERT_EQ(0, vgpu_ioctl(self->c1, VGPU_IOCTL_MEM_FREE, &fr));
	EXPECT_EQ(used + (long long)SIZE, vgpu_sysfs_num("vram_used_bytes"));
	EXPECT_EQ(3100, peek((volatile uint32_t *)b));

	/* Unmapped: the memory stays until fw1 acknowledged the flush. */
	um.ctx = cc.handle;
	um.va = VA;
	ASSERT_EQ(0, vgpu_ioctl(self->c1, VGPU_IOCTL_UNMAP, &um));
	EXPECT_EQ(used + (long long)SIZE, vgpu_sysfs_num("vram_used_bytes"));
	ASSERT_EQ(0, fw1_wait(self, VGPU_FW_EV_TLB_FLUSH, cc.ctx_id, &ev));
	ack.seq = self->seq1;
	ASSERT_EQ(0, vgpu_ioctl(self->fw1, VGPU_IOCTL_FW_ACK, &ack));
	EXPECT_EQ(used, vgpu_sysfs_num("vram_used_bytes"));
	/* Freed: gone from the peer's view as from the owner's. */
	EXPECT_EQ(-1, peek((volatile uint32_t *)b));
	EXPECT_EQ(-1, peek((volatile uint32_t *)a));
	munmap(vram1, self->a1.vram_size);
}

TEST_F(peer, importer_outlives_owner_file_and_firmware)
{
	long long used = vgpu_sysfs_num("vram_used_bytes");
	struct vgpu_mem_import imp;
	uint32_t h0;

	share(self, _metadata, &h0, &imp);
	/* Device 0's client and firmware go first. */
	close(self->c0);
	self->c0 = -1;
	munmap(self->vram0, self->a0.vram_size);
	self->vram0 = NULL;
	close(self->fw0);
	self->fw0 = -1;
	EXPECT_EQ(used + (long long)SIZE, vgpu_sysfs_num("vram_used_bytes"));
	/* The importer's file goes: nothing maps it, the VRAM is free. */
	close(self->c1);
	self->c1 = -1;
	EXPECT_EQ(used, vgpu_sysfs_num("vram_used_bytes"));
}

TEST_F(peer, importing_firmware_lost_releases_the_memory)
{
	long long used = vgpu_sysfs_num("vram_used_bytes");
	struct vgpu_ctx_create cc = { 0 };
	struct vgpu_mem_import imp;
	struct vgpu_map m = { 0 };
	struct vgpu_handle_arg fr = { 0 };
	struct vgpu_unmap um = { 0 };
	uint32_t h0;

	share(self, _metadata, &h0, &imp);
	ASSERT_EQ(0, vgpu_ioctl(self->c1, VGPU_IOCTL_CTX_CREATE, &cc));
	m.ctx = cc.handle;
	m.handle = imp.handle;
	m.va = VA;
	m.size = SIZE;
	ASSERT_EQ(0, vgpu_ioctl(self->c1, VGPU_IOCTL_MAP, &m));
	fr.handle = h0;
	ASSERT_EQ(0, vgpu_ioctl(self->c0, VGPU_IOCTL_MEM_FREE, &fr));
	fr.handle = imp.handle;
	ASSERT_EQ(0, vgpu_ioctl(self->c1, VGPU_IOCTL_MEM_FREE, &fr));
	um.ctx = cc.handle;
	um.va = VA;
	ASSERT_EQ(0, vgpu_ioctl(self->c1, VGPU_IOCTL_UNMAP, &um));
	EXPECT_EQ(used + (long long)SIZE, vgpu_sysfs_num("vram_used_bytes"));
	/* Device 1's firmware dies without acknowledging: released then. */
	munmap(self->peer0, self->p.vram_size);
	self->peer0 = NULL;
	close(self->fw1);
	self->fw1 = -1;
	EXPECT_EQ(used, vgpu_sysfs_num("vram_used_bytes"));
}

TEST_F(peer, errors)
{
	struct vgpu_host_alloc ha = { .size = 4096 };
	struct vgpu_mem_export e = { 0 };
	struct vgpu_mem_import imp = { 0 };
	struct vgpu_fw_peer p = { 0 };
	struct vgpu_map m = { 0 };
	struct vgpu_ctx_create cc = { 0 };
	uint32_t h0;
	void *x;

	/* FW_PEER: firmware only, another existing device, no flags. */
	EXPECT_EQ(-EPERM, vgpu_ioctl(self->c1, VGPU_IOCTL_FW_PEER, &p));
	p.index = 1;
	EXPECT_EQ(-ENODEV, vgpu_ioctl(self->fw1, VGPU_IOCTL_FW_PEER, &p));
	p.index = VGPU_PTE_PEER_MAX;
	EXPECT_EQ(-ENODEV, vgpu_ioctl(self->fw1, VGPU_IOCTL_FW_PEER, &p));
	p.index = 0;
	p.flags = 1;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fw1, VGPU_IOCTL_FW_PEER, &p));

	/* The peer view: on the firmware's file, of a peer, inside it. */
	x = mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->c1,
		 self->p.vram_offset);
	EXPECT_EQ(MAP_FAILED, x);
	EXPECT_EQ(EACCES, errno);
	x = mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->fw0,
		 self->p.vram_offset);	/* device 0's own VRAM as a peer */
	EXPECT_EQ(MAP_FAILED, x);
	EXPECT_EQ(EINVAL, errno);
	x = mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->fw1,
		 self->p.vram_offset + self->p.vram_size);
	EXPECT_EQ(MAP_FAILED, x);
	EXPECT_EQ(EINVAL, errno);

	/* Host memory of another device does not import. */
	ASSERT_EQ(0, vgpu_ioctl(self->c0, VGPU_IOCTL_HOST_ALLOC, &ha));
	e.handle = ha.handle;
	ASSERT_EQ(0, vgpu_ioctl(self->c0, VGPU_IOCTL_MEM_EXPORT, &e));
	imp.fd = e.fd;
	EXPECT_EQ(-EXDEV, vgpu_ioctl(self->c1, VGPU_IOCTL_MEM_IMPORT, &imp));
	close(e.fd);

	/* VGPU_MEM_IMPORT_OWN_DEVICE refuses a peer's object. */
	ASSERT_EQ(0, vgpu_vram_alloc(self->c0, SIZE, &h0));
	e.handle = h0;
	ASSERT_EQ(0, vgpu_ioctl(self->c0, VGPU_IOCTL_MEM_EXPORT, &e));
	memset(&imp, 0, sizeof(imp));
	imp.fd = e.fd;
	imp.flags = VGPU_MEM_IMPORT_OWN_DEVICE;
	EXPECT_EQ(-EXDEV, vgpu_ioctl(self->c1, VGPU_IOCTL_MEM_IMPORT, &imp));
	EXPECT_EQ(0, vgpu_ioctl(self->c0, VGPU_IOCTL_MEM_IMPORT, &imp));
	close(e.fd);

	/* A peer handle maps only as VRAM does, and is not mmap()ed. */
	share(self, _metadata, &h0, &imp);
	x = mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->c1,
		 (off_t)1 << 58 | (off_t)imp.handle << 36);
	EXPECT_EQ(MAP_FAILED, x);
	ASSERT_EQ(0, vgpu_ioctl(self->c1, VGPU_IOCTL_CTX_CREATE, &cc));
	m.ctx = cc.handle;
	m.handle = imp.handle;
	m.va = VA;
	m.size = 4096;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->c1, VGPU_IOCTL_MAP, &m));
	m.size = 2 * SIZE;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->c1, VGPU_IOCTL_MAP, &m));
	m.size = SIZE;
	EXPECT_EQ(0, vgpu_ioctl(self->c1, VGPU_IOCTL_MAP, &m));
	EXPECT_EQ(-EEXIST, vgpu_ioctl(self->c1, VGPU_IOCTL_MAP, &m));
}

TEST_HARNESS_MAIN
