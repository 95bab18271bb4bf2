// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_fw_test.c - the firmware channel and end-to-end submission
 *
 * Groups:
 *  - fw_*:  the test itself is the firmware: attach rules, the event
 *           stream, VRAM/GART apertures and page-table format, signals,
 *           faults, detach (device lost) and re-attach, waiting is not
 *           hanging;
 *  - hb_*:  the test is a firmware with heartbeats: CONFIG records, the
 *           heartbeat's rules, a silent firmware detached as hung, a
 *           stalled engine stopping only its running context;
 *  - e2e_*: a test firmware process (vgpu_test_fw.c) executes packets:
 *           doorbell -> firmware -> FW_SIGNAL -> wait/poll/eventfd, data
 *           through VRAM and GART, MMU faults, a job waiting on memory,
 *           firmware death, a frozen firmware.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <stddef.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "vgpu_lib.h"

#define BIG	VGPU_BIG_PAGE_SIZE
#define VA0	(1ull << 32)

static int map_bo(int fd, uint32_t ctx, uint32_t h, uint64_t va,
		  uint64_t size, uint32_t flags)
{
	struct vgpu_map m = { .ctx = ctx, .handle = h, .va = va,
			      .size = size, .flags = flags };

	return vgpu_ioctl(fd, VGPU_IOCTL_MAP, &m);
}

/* Read one event within @ms, or return -errno. */
static int next_event(int fw, struct vgpu_fw_event *ev, int ms)
{
	struct pollfd pfd = { .fd = fw, .events = POLLIN };
	ssize_t n;

	if (poll(&pfd, 1, ms) != 1)
		return -ETIMEDOUT;
	n = read(fw, ev, sizeof(*ev));
	if (n < 0)
		return -errno;
	return n == sizeof(*ev) ? 0 : -EIO;
}

/* Skip events until one of @type arrives. */
static int wait_event_type(int fw, uint32_t type, struct vgpu_fw_event *ev)
{
	int ret;

	while (!(ret = next_event(fw, ev, 3000)))
		if (ev->type == type)
			return 0;
	return ret;
}

static bool events_empty(int fw)
{
	struct vgpu_fw_event ev;

	return read(fw, &ev, sizeof(ev)) < 0 && errno == EAGAIN;
}

/*
 * The hang timeout of the hang-detection tests: 30 heartbeats of 100 ms,
 * so that a guest starved for a moment on a loaded host is not declared
 * hung.  Every check of it is a lower bound (nothing is declared hung
 * sooner) or a deadline far beyond it.
 */
#define HANG_MS		3000
#define HANG_MS_STR	"3000"
#define HANG_NS		(HANG_MS * 1000000ull)
/* Detection is at least HANG_MS after the last heartbeat, sent <= 100 ms
 * before the test's clock starts. */
#define HANG_MIN_NS	(HANG_NS - 100000000ull)
#define HANG_DEADLINE_NS	(10 * HANG_NS)

/* The defaults of the parameters the tests change. */
static void restore_watchdog(void)
{
	vgpu_param_write("hang_timeout_ms", "10000");
	vgpu_param_write("kernel_exec_timeout_ms", "0");
}

/* ---- the test process is the firmware ------------------------------------ */

FIXTURE(fw) {
	int fd;
	int fw;
	struct vgpu_fw_attach a;
};

FIXTURE_SETUP(fw)
{
	self->fd = vgpu_open();
	self->fw = open(VGPU_DEV, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	ASSERT_LE(0, self->fw);
	ASSERT_EQ(0, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_ATTACH, &self->a));
}

FIXTURE_TEARDOWN(fw)
{
	if (self->fd >= 0)
		close(self->fd);
	if (self->fw >= 0)
		close(self->fw);
	restore_watchdog();
	EXPECT_TRUE(vgpu_accounting_idle());
}

TEST(fw_attach_rules)
{
	struct vgpu_fw_attach a = { 0 };
	int fd = vgpu_open(), fd2 = vgpu_open();
	uint32_t ctx;

	ASSERT_LE(0, fd);
	/* A file that already has client objects cannot become firmware. */
	ASSERT_EQ(0, vgpu_vram_alloc(fd, BIG, &ctx));
	EXPECT_EQ(-EBUSY, vgpu_ioctl(fd, VGPU_IOCTL_FW_ATTACH, &a));
	a.flags = VGPU_FW_ATTACH_EXEC_LIMIT << 1;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(fd2, VGPU_IOCTL_FW_ATTACH, &a));
	a.flags = 0;
	a.pad = 1;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(fd2, VGPU_IOCTL_FW_ATTACH, &a));
	/* Only CAP_SYS_ADMIN may be the hardware. */
	ASSERT_EQ(0, vgpu_drop_cap(CAP_SYS_ADMIN));
	a.pad = 0;
	EXPECT_EQ(-EPERM, vgpu_ioctl(fd2, VGPU_IOCTL_FW_ATTACH, &a));
	close(fd);
	close(fd2);
	EXPECT_TRUE(vgpu_accounting_idle());
}

TEST_F(fw, one_firmware_per_device)
{
	struct vgpu_fw_attach a = { 0 };
	int other = vgpu_open();
	char state[32];

	EXPECT_EQ(-EBUSY, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_ATTACH, &a));
	EXPECT_EQ(-EBUSY, vgpu_ioctl(other, VGPU_IOCTL_FW_ATTACH, &a));
	close(other);
	EXPECT_EQ(0, vgpu_sysfs_str("firmware", state, sizeof(state)));
	EXPECT_STREQ("attached", state);
	EXPECT_EQ(self->a.vram_size, (uint64_t)vgpu_sysfs_num("vram_total_bytes"));
	EXPECT_EQ(self->a.gart_entries, (uint64_t)vgpu_sysfs_num("gart_entries"));
	{
		struct vgpu_info info;

		ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_GET_INFO, &info));
		EXPECT_EQ(VGPU_INFO_FW_ATTACHED, info.flags);
	}
}

TEST_F(fw, firmware_file_rules)
{
	struct vgpu_fw_signal s = { .queue_id = 12345, .fence = 1 };
	struct vgpu_fw_fault f = { .fault = { .kind = VGPU_FAULT_TRAP,
					      .queue_id = 12345 } };
	struct vgpu_info info;
	struct vgpu_fw_event ev[2];
	uint32_t h;

	/* The firmware's file is not a client... */
	EXPECT_EQ(-EPERM, vgpu_ctx_create(self->fw, &h));
	EXPECT_EQ(-EPERM, vgpu_vram_alloc(self->fw, BIG, &h));
	EXPECT_EQ(0, vgpu_ioctl(self->fw, VGPU_IOCTL_GET_INFO, &info));
	/* ...and clients are not the firmware. */
	EXPECT_EQ(-EPERM, vgpu_ioctl(self->fd, VGPU_IOCTL_FW_SIGNAL, &s));
	EXPECT_EQ(-EPERM, vgpu_ioctl(self->fd, VGPU_IOCTL_FW_FAULT, &f));
	/* Unknown queues, flags, kinds. */
	EXPECT_EQ(-ENOENT, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_SIGNAL, &s));
	s.flags = 1;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_SIGNAL, &s));
	EXPECT_EQ(-ENOENT, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_FAULT, &f));
	f.fault.kind = VGPU_FAULT_NONE;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_FAULT, &f));
	/* Since 1.2 the firmware reports the exec limit: a known kind. */
	f.fault.kind = VGPU_FAULT_WATCHDOG;
	EXPECT_EQ(-ENOENT, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_FAULT, &f));
	f.fault.kind = 99;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_FAULT, &f));
	f.fault.kind = VGPU_FAULT_TRAP;
	f.fault.engine = 7;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_FAULT, &f));
	f.fault.engine = 0;
	f.flags = 1;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_FAULT, &f));
	/* read(): whole records only; nothing pending yet. */
	EXPECT_EQ(-1, read(self->fw, ev, sizeof(ev[0]) - 1));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_TRUE(events_empty(self->fw));
	/* Client mappings make no sense on the firmware's file. */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 4096, PROT_READ, MAP_SHARED,
				   self->fw, 1ull << 58 | 1ull << 36));
	/* Apertures are bounded. */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, self->a.vram_size + 4096, PROT_READ,
				   MAP_SHARED, self->fw, self->a.vram_offset));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->fw,
				   self->a.gart_offset +
				   self->a.gart_entries * 4096));
}

TEST_F(fw, event_stream)
{
	struct vgpu_handle_arg h = { 0 };
	struct vgpu_fw_event ev;
	struct vgpu_ctx_create c = { 0 };
	struct vgpu_tq q;
	uint32_t bo;
	void *ring;

	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_CREATE, &c));
	ASSERT_EQ(0, next_event(self->fw, &ev, 1000));
	EXPECT_EQ(VGPU_FW_EV_CTX_CREATE, ev.type);
	EXPECT_EQ(c.ctx_id, ev.ctx_id);
	EXPECT_EQ(0, ev.arg0 % 4096);
	EXPECT_GT(self->a.vram_size, ev.arg0);

	ASSERT_EQ(0, vgpu_tq_create(&q, self->fd, c.handle, VGPU_ENGINE_COPY,
				    8192));
	ASSERT_EQ(0, next_event(self->fw, &ev, 1000));
	EXPECT_EQ(VGPU_FW_EV_QUEUE_CREATE, ev.type);
	EXPECT_EQ(q.id, ev.queue_id);
	EXPECT_EQ(c.ctx_id, ev.ctx_id);
	EXPECT_EQ(VGPU_ENGINE_COPY, ev.engine);
	EXPECT_EQ(8192, ev.arg0);
	/* The firmware sees the application's ring. */
	ring = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, self->fw,
		    ev.arg1);
	ASSERT_NE(MAP_FAILED, ring);
	q.ring[100] = 0x5a;
	EXPECT_EQ(0x5a, ((uint8_t *)ring)[100]);
	munmap(ring, 8192);

	/* Kicks coalesce while pending. */
	h.handle = q.handle;
	EXPECT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_QUEUE_KICK, &h));
	EXPECT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_QUEUE_KICK, &h));
	ASSERT_EQ(0, next_event(self->fw, &ev, 1000));
	EXPECT_EQ(VGPU_FW_EV_QUEUE_KICK, ev.type);
	EXPECT_EQ(q.id, ev.queue_id);
	EXPECT_TRUE(events_empty(self->fw));

	/* Removing PTEs asks for a TLB flush. */
	ASSERT_EQ(0, vgpu_vram_alloc(self->fd, BIG, &bo));
	ASSERT_EQ(0, map_bo(self->fd, c.handle, bo, VA0, BIG, 0));
	EXPECT_TRUE(events_empty(self->fw));
	{
		struct vgpu_unmap u = { .ctx = c.handle, .va = VA0 };

		ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_UNMAP, &u));
	}
	ASSERT_EQ(0, next_event(self->fw, &ev, 1000));
	EXPECT_EQ(VGPU_FW_EV_TLB_FLUSH, ev.type);
	EXPECT_EQ(c.ctx_id, ev.ctx_id);

	EXPECT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_QUEUE_DESTROY, &h));
	ASSERT_EQ(0, next_event(self->fw, &ev, 1000));
	EXPECT_EQ(VGPU_FW_EV_QUEUE_DESTROY, ev.type);
	EXPECT_EQ(q.id, ev.queue_id);
	vgpu_tq_unmap(&q);	/* the last reference to the queue */
	h.handle = c.handle;
	EXPECT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_DESTROY, &h));
	ASSERT_EQ(0, next_event(self->fw, &ev, 1000));
	EXPECT_EQ(VGPU_FW_EV_CTX_DESTROY, ev.type);
	EXPECT_EQ(c.ctx_id, ev.ctx_id);
	EXPECT_TRUE(events_empty(self->fw));
	/* Its page tables go when the firmware says it let go. */
	{
		struct vgpu_fw_ack ack = { .seq = ev.seq };
		long long used = vgpu_sysfs_num("vram_used_bytes");

		EXPECT_EQ(0, vgpu_sysfs_num("contexts"));
		EXPECT_EQ(0, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_ACK, &ack));
		EXPECT_LE(4096 * 4, used - vgpu_sysfs_num("vram_used_bytes"));
	}
}

TEST_F(fw, unread_create_and_destroy_cancel_out)
{
	struct vgpu_handle_arg h = { 0 };
	struct vgpu_tq q;
	uint32_t ctx;
	int i;

	for (i = 0; i < 100; i++) {
		ASSERT_EQ(0, vgpu_ctx_create(self->fd, &ctx));
		ASSERT_EQ(0, vgpu_tq_create(&q, self->fd, ctx,
					    VGPU_ENGINE_COMPUTE, 4096));
		h.handle = q.handle;
		ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_QUEUE_KICK, &h));
		ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_QUEUE_DESTROY, &h));
		h.handle = ctx;
		ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_DESTROY, &h));
		vgpu_tq_unmap(&q);
	}
	EXPECT_TRUE(events_empty(self->fw));
}

static sigjmp_buf sigbus_env;

static void on_sigbus(int sig)
{
	siglongjmp(sigbus_env, sig);
}

/* Does reading @p raise SIGBUS? */
static bool read_faults(const volatile uint64_t *p)
{
	struct sigaction sa = { .sa_handler = on_sigbus }, old;
	bool faulted = false;

	sigaction(SIGBUS, &sa, &old);
	if (sigsetjmp(sigbus_env, 1) == 0)
		(void)*p;
	else
		faulted = true;
	sigaction(SIGBUS, &old, NULL);
	return faulted;
}

TEST_F(fw, apertures_and_page_tables)
{
	struct vgpu_host_alloc a = { .size = 2 * 4096 };
	struct vgpu_fw_event ev;
	uint64_t *vram, *gart, *host;
	uint64_t pd3, pde, pd1, big, small, pte;
	uint32_t ctx, bo;

	vram = mmap(NULL, self->a.vram_size, PROT_READ | PROT_WRITE,
		    MAP_SHARED, self->fw, self->a.vram_offset);
	gart = mmap(NULL, self->a.gart_entries * 4096, PROT_READ | PROT_WRITE,
		    MAP_SHARED, self->fw, self->a.gart_offset);
	ASSERT_NE(MAP_FAILED, vram);
	ASSERT_NE(MAP_FAILED, gart);
	/* VRAM nobody allocated is not there. */
	EXPECT_TRUE(read_faults(vram + self->a.vram_size / 8 - 1));
	EXPECT_TRUE(read_faults(gart));

	ASSERT_EQ(0, vgpu_ctx_create(self->fd, &ctx));
	ASSERT_EQ(0, wait_event_type(self->fw, VGPU_FW_EV_CTX_CREATE, &ev));
	pd3 = ev.arg0;
	ASSERT_EQ(0, vgpu_vram_alloc(self->fd, BIG, &bo));
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_HOST_ALLOC, &a));
	host = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		    a.mmap_offset);
	ASSERT_NE(MAP_FAILED, host);
	host[512 + 3] = 0x1122334455667788ull;
	/* 64 KiB VRAM page and 4 KiB host pages in one 2 MiB range. */
	ASSERT_EQ(0, map_bo(self->fd, ctx, bo, VA0, BIG, 0));
	ASSERT_EQ(0, map_bo(self->fd, ctx, a.handle, VA0 + BIG, 8192,
			    VGPU_MAP_NO_ATOMIC));

	/* Walk as the MMU does (vgpu_hw.h). */
	pde = vram[(pd3 + VGPU_PD3_INDEX(VA0) * 8) / 8];
	ASSERT_TRUE(pde & VGPU_PDE_VALID);
	pde = vram[(VGPU_PDE_ADDR(pde) + VGPU_PD2_INDEX(VA0) * 8) / 8];
	ASSERT_TRUE(pde & VGPU_PDE_VALID);
	pd1 = VGPU_PDE_ADDR(pde) + VGPU_PD1_INDEX(VA0) * 16;
	big = vram[pd1 / 8];
	small = vram[pd1 / 8 + 1];
	ASSERT_TRUE(big & VGPU_PDE_VALID);
	ASSERT_TRUE(small & VGPU_PDE_VALID);

	pte = vram[(VGPU_PDE_ADDR(big) + VGPU_BIG_INDEX(VA0) * 8) / 8];
	EXPECT_EQ(VGPU_PTE_VALID | VGPU_PTE_WRITE | VGPU_PTE_ATOMIC |
		  VGPU_PTE_APERTURE_VRAM, pte & ~VGPU_PTE_FRAME_MASK);
	EXPECT_EQ(0, (VGPU_PTE_FRAME(pte) << 12) % BIG);
	/* The VRAM page is the firmware's to use. */
	vram[(VGPU_PTE_FRAME(pte) << 12) / 8] = 7;

	pte = vram[(VGPU_PDE_ADDR(small) + VGPU_SMALL_INDEX(VA0 + BIG + 4096) *
		    8) / 8];
	EXPECT_EQ(VGPU_PTE_VALID | VGPU_PTE_WRITE | VGPU_PTE_APERTURE_GART,
		  pte & ~VGPU_PTE_FRAME_MASK);
	ASSERT_GT(self->a.gart_entries, VGPU_PTE_FRAME(pte));
	/* Through the GART, the firmware sees what the application wrote. */
	EXPECT_EQ(0x1122334455667788ull, gart[VGPU_PTE_FRAME(pte) * 512 + 3]);
	gart[VGPU_PTE_FRAME(pte) * 512 + 4] = 99;
	EXPECT_EQ(99, host[512 + 4]);

	/* Unmapped: PTE cleared, flush requested. */
	{
		struct vgpu_unmap u = { .ctx = ctx, .va = VA0 + BIG };
		uint64_t frame = VGPU_PTE_FRAME(pte);
		struct vgpu_handle_arg f = { .handle = a.handle };

		ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_UNMAP, &u));
		EXPECT_EQ(0, vram[(VGPU_PDE_ADDR(small) +
				   VGPU_SMALL_INDEX(VA0 + BIG + 4096) * 8) / 8]);
		EXPECT_EQ(0, wait_event_type(self->fw, VGPU_FW_EV_TLB_FLUSH,
					     &ev));
		/*
		 * Freed and unmapped by the application: the pages stay in
		 * the GART until the firmware acknowledged the flush.
		 */
		ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_MEM_FREE, &f));
		munmap(host, 8192);
		EXPECT_EQ(2, vgpu_sysfs_num("gart_entries_used"));
		EXPECT_FALSE(read_faults(gart + frame * 512));
		{
			struct vgpu_fw_ack ack = { .seq = ev.seq + 1000 };

			EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fw,
						      VGPU_IOCTL_FW_ACK, &ack));
			ack.seq = ev.seq;
			ack.flags = 1;
			EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fw,
						      VGPU_IOCTL_FW_ACK, &ack));
			ack.flags = 0;
			EXPECT_EQ(-EPERM, vgpu_ioctl(self->fd,
						     VGPU_IOCTL_FW_ACK, &ack));
			EXPECT_EQ(0, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_ACK,
						&ack));
		}
		EXPECT_EQ(0, vgpu_sysfs_num("gart_entries_used"));
		EXPECT_TRUE(read_faults(gart + frame * 512));
	}
	munmap(vram, self->a.vram_size);
	munmap(gart, self->a.gart_entries * 4096);
}

TEST_F(fw, signal_wakes_wait_poll_eventfd)
{
	struct vgpu_queue_eventfd e = { .fd = eventfd(0, EFD_CLOEXEC) };
	struct pollfd pfd = { .fd = self->fd, .events = POLLIN };
	struct vgpu_fw_signal s = { .fence = 5 };
	uint64_t n = 0;
	struct vgpu_tq q;
	uint32_t ctx;

	ASSERT_EQ(0, vgpu_ctx_create(self->fd, &ctx));
	ASSERT_EQ(0, vgpu_tq_create(&q, self->fd, ctx, VGPU_ENGINE_COMPUTE,
				    4096));
	e.queue = q.handle;
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_QUEUE_EVENTFD, &e));
	EXPECT_EQ(0, poll(&pfd, 1, 0));

	s.queue_id = q.id;
	ASSERT_EQ(0, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_SIGNAL, &s));
	EXPECT_EQ(5, q.fence->completed);
	EXPECT_EQ(0, vgpu_tq_wait(&q, 5, 0));
	EXPECT_EQ(0, vgpu_tq_wait(&q, 4, 0));
	EXPECT_EQ(-ETIME, vgpu_tq_wait(&q, 6, 20));
	/* Fences never go backwards. */
	s.fence = 3;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_SIGNAL, &s));
	EXPECT_EQ(5, q.fence->completed);
	s.fence = 5;
	EXPECT_EQ(0, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_SIGNAL, &s));

	EXPECT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_EQ((ssize_t)sizeof(n), read(self->fd, &n, sizeof(n)));
	EXPECT_EQ(2, n);
	EXPECT_EQ(0, poll(&pfd, 1, 0));
	EXPECT_EQ((ssize_t)sizeof(n), read(e.fd, &n, sizeof(n)));
	EXPECT_EQ(2, n);
	close(e.fd);
	vgpu_tq_unmap(&q);
}

struct waiter {
	struct vgpu_tq *q;
	uint64_t fence;
	int ret;
	uint64_t ns;
};

static void *wait_thread(void *arg)
{
	struct waiter *w = arg;
	uint64_t t0 = vgpu_now_ns();

	w->ret = vgpu_tq_wait(w->q, w->fence, 5000);
	w->ns = vgpu_now_ns() - t0;
	return NULL;
}

TEST_F(fw, blocked_wait_is_woken)
{
	struct vgpu_fw_signal s = { .fence = 1 };
	struct waiter w = { .fence = 1 };
	struct vgpu_tq q;
	pthread_t t;
	uint32_t ctx;

	ASSERT_EQ(0, vgpu_ctx_create(self->fd, &ctx));
	ASSERT_EQ(0, vgpu_tq_create(&q, self->fd, ctx, VGPU_ENGINE_COMPUTE,
				    4096));
	w.q = &q;
	ASSERT_EQ(0, pthread_create(&t, NULL, wait_thread, &w));
	usleep(100 * 1000);
	s.queue_id = q.id;
	ASSERT_EQ(0, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_SIGNAL, &s));
	pthread_join(t, NULL);
	EXPECT_EQ(0, w.ret);
	EXPECT_GT(3000000000ull, w.ns);
	vgpu_tq_unmap(&q);
}

static void on_alarm(int sig)
{
	(void)sig;
}

TEST_F(fw, wait_deadline_is_absolute)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct vgpu_wait w = { .fence = 1 };
	struct itimerval it = { .it_value = { .tv_usec = 50000 } };
	struct vgpu_tq q;
	uint64_t t0, dt;
	uint32_t ctx;

	ASSERT_EQ(0, vgpu_ctx_create(self->fd, &ctx));
	ASSERT_EQ(0, vgpu_tq_create(&q, self->fd, ctx, VGPU_ENGINE_COMPUTE,
				    4096));
	w.queue = q.handle;
	/* Without SA_RESTART a signal ends the wait with EINTR. */
	sigaction(SIGALRM, &sa, NULL);
	t0 = vgpu_now_ns();
	w.timeout_ns = t0 + 2000000000ull;
	setitimer(ITIMER_REAL, &it, NULL);
	EXPECT_EQ(-EINTR, vgpu_ioctl(self->fd, VGPU_IOCTL_WAIT, &w));
	EXPECT_GT(1500000000ull, vgpu_now_ns() - t0);
	/* With SA_RESTART it goes on, to the same deadline. */
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	t0 = vgpu_now_ns();
	w.timeout_ns = t0 + 400000000ull;
	it.it_interval.tv_usec = 50000;
	setitimer(ITIMER_REAL, &it, NULL);
	EXPECT_EQ(-ETIME, vgpu_ioctl(self->fd, VGPU_IOCTL_WAIT, &w));
	dt = vgpu_now_ns() - t0;
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	EXPECT_LE(400000000ull, dt);
	EXPECT_GT(1000000000ull, dt) TH_LOG("restarted wait took %llu ns",
					    (unsigned long long)dt);
	vgpu_tq_unmap(&q);
}

TEST_F(fw, fault_stops_only_its_context)
{
	struct vgpu_fw_fault f = { .fault = {
		.kind = VGPU_FAULT_MMU_UNMAPPED, .engine = VGPU_ENGINE_COMPUTE,
		.va = 0xdead0000, .ptx_line = 42, .block = { 1, 2, 3 },
		.thread = { 4, 5, 6 }, .pc = 0x80, .kernel_name = "saxpy",
	} };
	struct vgpu_ctx_status st = { 0 };
	struct vgpu_fw_signal s = { .fence = 1 };
	struct vgpu_handle_arg h = { 0 };
	struct vgpu_fw_event ev;
	struct vgpu_tq q, good;
	uint32_t ctx, ctx2;

	ASSERT_EQ(0, vgpu_ctx_create(self->fd, &ctx));
	ASSERT_EQ(0, vgpu_ctx_create(self->fd, &ctx2));
	ASSERT_EQ(0, vgpu_tq_create(&q, self->fd, ctx, VGPU_ENGINE_COMPUTE,
				    4096));
	ASSERT_EQ(0, vgpu_tq_create(&good, self->fd, ctx2,
				    VGPU_ENGINE_COMPUTE, 4096));
	f.fault.queue_id = q.id;
	ASSERT_EQ(0, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_FAULT, &f));
	f.fault.kind = VGPU_FAULT_TRAP;	/* a second fault is counted */
	ASSERT_EQ(0, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_FAULT, &f));

	EXPECT_EQ(-ECANCELED, vgpu_tq_wait(&q, 1, 1000));
	EXPECT_EQ(VGPU_QUEUE_ERROR_CTX_DEAD, q.fence->error);
	st.handle = ctx;
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_STATUS, &st));
	EXPECT_EQ(VGPU_CTX_STATE_FAULTED, st.state);
	EXPECT_EQ(2, st.fault_count);
	EXPECT_EQ(VGPU_FAULT_MMU_UNMAPPED, st.fault.kind);
	EXPECT_EQ(q.id, st.fault.queue_id);
	EXPECT_EQ(0xdead0000, st.fault.va);
	EXPECT_EQ(42, st.fault.ptx_line);
	EXPECT_EQ(3, st.fault.block[2]);
	EXPECT_EQ(6, st.fault.thread[2]);
	EXPECT_STREQ("saxpy", st.fault.kernel_name);
	/* Sticky: no new work in that context. */
	h.handle = q.handle;
	EXPECT_EQ(-ECANCELED, vgpu_ioctl(self->fd, VGPU_IOCTL_QUEUE_KICK, &h));
	{
		struct vgpu_queue_create c = { .ctx = ctx, .ring_size = 4096 };

		EXPECT_EQ(-ECANCELED, vgpu_ioctl(self->fd,
						 VGPU_IOCTL_QUEUE_CREATE, &c));
	}
	EXPECT_EQ(0, wait_event_type(self->fw, VGPU_FW_EV_CTX_STOP, &ev));
	EXPECT_EQ(st.fault.queue_id, q.id);
	/* The other context is fine. */
	s.queue_id = good.id;
	EXPECT_EQ(0, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_SIGNAL, &s));
	EXPECT_EQ(0, vgpu_tq_wait(&good, 1, 1000));
	st.handle = ctx2;
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_STATUS, &st));
	EXPECT_EQ(0, st.state);
	vgpu_tq_unmap(&q);
	vgpu_tq_unmap(&good);
}

/*
 * uAPI 1.1: the precise kinds and the message travel to the client, which
 * is how libcuda tells a failed assert() from a __trap() and prints the
 * assert's line.  Programs built against 1.0 (smaller structs, other ioctl
 * numbers) keep working and get no more than they asked for.
 */
#define VGPU_IOCTL_CTX_STATUS_1_0 \
	_IOC(_IOC_READ | _IOC_WRITE, VGPU_IOCTL_BASE, 0x03, \
	     offsetof(struct vgpu_ctx_status, fault.message))
#define VGPU_IOCTL_FW_FAULT_1_0 \
	_IOC(_IOC_WRITE, VGPU_IOCTL_BASE, 0x42, \
	     offsetof(struct vgpu_fw_fault, fault.message))

TEST_F(fw, fault_kinds_and_message)
{
	static const char line[] = "t.cu:7: void k(): block: [1,0,0], "
				   "thread: [2,0,0] Assertion `x` failed.";
	struct vgpu_fw_fault f = { .fault = {
		.kind = VGPU_FAULT_ASSERT, .engine = VGPU_ENGINE_COMPUTE,
		.kernel_name = "k",
	} };
	struct {
		struct vgpu_ctx_status st;
		char canary[sizeof(struct vgpu_fault)];
	} old;
	struct vgpu_ctx_status st = { 0 };
	struct vgpu_tq q[4];
	uint32_t ctx[4];
	const uint32_t kinds[4] = { VGPU_FAULT_ASSERT, VGPU_FAULT_STACK_OVERFLOW,
				    VGPU_FAULT_OUT_OF_RANGE, VGPU_FAULT_TRAP };

	for (int i = 0; i < 4; i++) {
		ASSERT_EQ(0, vgpu_ctx_create(self->fd, &ctx[i]));
		ASSERT_EQ(0, vgpu_tq_create(&q[i], self->fd, ctx[i],
					    VGPU_ENGINE_COMPUTE, 4096));
	}
	/* An unterminated message is cut, not read past. */
	memset(f.fault.message, 'x', sizeof(f.fault.message));
	f.fault.queue_id = q[0].id;
	ASSERT_EQ(0, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_FAULT, &f));
	st.handle = ctx[0];
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_STATUS, &st));
	EXPECT_EQ(VGPU_FAULT_ASSERT, st.fault.kind);
	EXPECT_EQ(sizeof(st.fault.message) - 1, strlen(st.fault.message));

	/* Each new kind is accepted and reported as given, with its text. */
	for (int i = 1; i < 4; i++) {
		memset(&f.fault.message, 0, sizeof(f.fault.message));
		strcpy(f.fault.message, line);
		f.fault.kind = kinds[i];
		f.fault.queue_id = q[i].id;
		ASSERT_EQ(0, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_FAULT, &f));
		st.handle = ctx[i];
		ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_STATUS, &st));
		EXPECT_EQ(kinds[i], st.fault.kind);
		EXPECT_STREQ(line, st.fault.message);
	}
	f.fault.kind = VGPU_FAULT_KIND_MAX + 1;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_FAULT, &f));

	/* A 1.0 client: the record without the message, nothing beyond. */
	memset(&old, 0x5a, sizeof(old));
	memset(&old.st, 0, offsetof(struct vgpu_ctx_status, fault.message));
	old.st.handle = ctx[1];
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_STATUS_1_0, &old));
	EXPECT_EQ(VGPU_FAULT_STACK_OVERFLOW, old.st.fault.kind);
	EXPECT_STREQ("k", old.st.fault.kernel_name);
	EXPECT_EQ(0x5a, (unsigned char)old.st.fault.message[0]);
	/* A 1.0 firmware: its faults arrive, with an empty message. */
	f.fault.kind = VGPU_FAULT_TRAP;
	f.fault.queue_id = q[1].id;
	EXPECT_EQ(0, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_FAULT_1_0, &f));
	/* Smaller than 1.0 is no struct of ours. */
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fd,
				      _IOC(_IOC_READ | _IOC_WRITE,
					   VGPU_IOCTL_BASE, 0x03, 16), &st));
	/* Larger than ours: fine while the unknown tail is zero. */
	{
		struct {
			struct vgpu_ctx_status st;
			__u64 future;
		} big = { .st.handle = ctx[2] };
		unsigned long cmd = _IOC(_IOC_READ | _IOC_WRITE,
					 VGPU_IOCTL_BASE, 0x03, sizeof(big));

		EXPECT_EQ(0, vgpu_ioctl(self->fd, cmd, &big));
		EXPECT_EQ(VGPU_FAULT_OUT_OF_RANGE, big.st.fault.kind);
		big.future = 1;
		EXPECT_EQ(-E2BIG, vgpu_ioctl(self->fd, cmd, &big));
	}
	for (int i = 0; i < 4; i++)
		vgpu_tq_unmap(&q[i]);
}

/*
 * A queue whose work the firmware does not complete for a long time is
 * waiting, not hung: a kernel may run for hours.  Nothing stops it (the
 * driver before 1.2 stopped it after watchdog_ms).
 */
TEST_F(fw, a_long_wait_is_not_a_hang)
{
	struct vgpu_ctx_status st = { 0 };
	struct vgpu_fw_signal s = { .fence = 1 };
	struct vgpu_tq q;
	uint32_t ctx;

	ASSERT_EQ(0, vgpu_param_write("hang_timeout_ms", "1000"));
	ASSERT_EQ(0, vgpu_ctx_create(self->fd, &ctx));
	ASSERT_EQ(0, vgpu_tq_create(&q, self->fd, ctx, VGPU_ENGINE_COPY,
				    4096));
	/* Work is pending and the firmware (us) takes 2.5 s over it. */
	vgpu_tq_fence(&q);
	q.db->wptr = q.wptr;
	EXPECT_EQ(-ETIME, vgpu_tq_wait(&q, 1, 2500));
	st.handle = ctx;
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_STATUS, &st));
	EXPECT_EQ(0, st.state);
	EXPECT_EQ(0, st.fault_count);
	s.queue_id = q.id;
	EXPECT_EQ(0, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_SIGNAL, &s));
	EXPECT_EQ(0, vgpu_tq_wait(&q, 1, 1000));
	vgpu_tq_unmap(&q);
}

TEST_F(fw, detach_loses_device_and_reattach_recovers)
{
	struct vgpu_ctx_status st = { 0 };
	struct vgpu_handle_arg h = { 0 };
	struct vgpu_fw_signal s = { .fence = 1 };
	struct vgpu_ctx_create c = { 0 };
	struct vgpu_fw_event ev;
	struct vgpu_tq q, q2;
	uint32_t ctx, ctx2;
	char state[32];
	int replayed = 0;

	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_CREATE, &c));
	ctx = c.handle;
	ASSERT_EQ(0, vgpu_tq_create(&q, self->fd, ctx, VGPU_ENGINE_COMPUTE,
				    4096));
	close(self->fw);
	self->fw = -1;
	EXPECT_EQ(0, vgpu_sysfs_str("firmware", state, sizeof(state)));
	EXPECT_STREQ("lost", state);
	EXPECT_EQ(-ENODEV, vgpu_tq_wait(&q, 1, 1000));
	EXPECT_EQ(VGPU_QUEUE_ERROR_DEVICE_LOST, q.fence->error);
	st.handle = ctx;
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_STATUS, &st));
	EXPECT_EQ(VGPU_CTX_STATE_LOST, st.state);
	h.handle = q.handle;
	EXPECT_EQ(-ENODEV, vgpu_ioctl(self->fd, VGPU_IOCTL_QUEUE_KICK, &h));

	/* A new firmware hears about what survived, and serves new work. */
	self->fw = open(VGPU_DEV, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	ASSERT_EQ(0, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_ATTACH, &self->a));
	while (!next_event(self->fw, &ev, 200)) {
		if (ev.type == VGPU_FW_EV_CTX_CREATE && ev.ctx_id == c.ctx_id)
			replayed |= 1;
		if (ev.type == VGPU_FW_EV_QUEUE_CREATE && ev.queue_id == q.id)
			replayed |= 2;
		if (ev.type == VGPU_FW_EV_CTX_STOP && ev.ctx_id == c.ctx_id)
			replayed |= 4;
	}
	EXPECT_EQ(7, replayed);
	EXPECT_EQ(-ENODEV, vgpu_tq_wait(&q, 1, 0));
	{
		struct vgpu_queue_create c = { .ctx = ctx, .ring_size = 4096 };

		EXPECT_EQ(-ENODEV, vgpu_ioctl(self->fd,
					      VGPU_IOCTL_QUEUE_CREATE, &c));
	}
	ASSERT_EQ(0, vgpu_ctx_create(self->fd, &ctx2));
	ASSERT_EQ(0, vgpu_tq_create(&q2, self->fd, ctx2, VGPU_ENGINE_COMPUTE,
				    4096));
	s.queue_id = q2.id;
	EXPECT_EQ(0, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_SIGNAL, &s));
	EXPECT_EQ(0, vgpu_tq_wait(&q2, 1, 1000));
	vgpu_tq_unmap(&q);
	vgpu_tq_unmap(&q2);
}

/* ---- a firmware with heartbeats: hang detection -------------------------- */

TEST(ctx_create_needs_a_firmware)
{
	struct vgpu_fw_attach a = { 0 };
	int fd = vgpu_open(), fw;
	uint64_t t0, dt;
	uint32_t ctx;
	char state[32];

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vgpu_sysfs_str("firmware", state, sizeof(state)));
	ASSERT_STRNE("attached", state);
	/* Refused at once, and nothing is left behind. */
	t0 = vgpu_now_ns();
	EXPECT_EQ(-ENODEV, vgpu_ctx_create(fd, &ctx));
	dt = vgpu_now_ns() - t0;
	TH_LOG("CTX_CREATE without a firmware: -ENODEV in %llu us",
	       (unsigned long long)dt / 1000);
	EXPECT_EQ(0, vgpu_sysfs_num("contexts"));
	EXPECT_EQ(0, vgpu_sysfs_num("vram_used_bytes"));
	/* A firmware attaches: contexts work, without reloading anything. */
	fw = open(VGPU_DEV, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	ASSERT_LE(0, fw);
	ASSERT_EQ(0, vgpu_ioctl(fw, VGPU_IOCTL_FW_ATTACH, &a));
	EXPECT_EQ(0, vgpu_ctx_create(fd, &ctx));
	EXPECT_EQ(1, vgpu_sysfs_num("contexts"));
	/* It goes: the old context is lost, new ones are refused again. */
	close(fw);
	EXPECT_EQ(-ENODEV, vgpu_ctx_create(fd, &ctx));
	EXPECT_EQ(1, vgpu_sysfs_num("contexts"));
	close(fd);
	EXPECT_TRUE(vgpu_accounting_idle());
}

TEST(info_reports_the_limits)
{
	int fd = vgpu_open();
	struct vgpu_info info;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vgpu_ioctl(fd, VGPU_IOCTL_GET_INFO, &info));
	/* The driver speaks the uAPI of the header it was built with. */
	EXPECT_EQ(VGPU_UAPI_VERSION_MAJOR, info.version_major);
	EXPECT_EQ(VGPU_UAPI_VERSION_MINOR, info.version_minor);
	/* Defaults: no kernel execution limit, 10 s hang detection. */
	EXPECT_EQ(0, info.kernel_exec_timeout_ms);
	EXPECT_EQ(10000, info.hang_timeout_ms);
	EXPECT_EQ(VGPU_COMPUTE_MODE_DEFAULT, info.compute_mode);
	ASSERT_EQ(0, vgpu_param_write("kernel_exec_timeout_ms", "2500"));
	ASSERT_EQ(0, vgpu_param_write("hang_timeout_ms", "3000"));
	ASSERT_EQ(0, vgpu_ioctl(fd, VGPU_IOCTL_GET_INFO, &info));
	EXPECT_EQ(2500, info.kernel_exec_timeout_ms);
	EXPECT_EQ(3000, info.hang_timeout_ms);
	/* The old name is an alias of the hang timeout. */
	ASSERT_EQ(0, vgpu_param_write("watchdog_ms", "4000"));
	ASSERT_EQ(0, vgpu_ioctl(fd, VGPU_IOCTL_GET_INFO, &info));
	EXPECT_EQ(4000, info.hang_timeout_ms);
	/* Shorter than four heartbeats would call a live firmware hung. */
	EXPECT_EQ(-EINVAL, vgpu_param_write("hang_timeout_ms", "500"));
	EXPECT_EQ(0, vgpu_param_write("hang_timeout_ms", "0"));
	/* A 1.1 program passes the 64-byte struct and gets its fields. */
	{
		struct vgpu_info old;
		unsigned long cmd = _IOC(_IOC_READ, VGPU_IOCTL_BASE, 0x00, 64);

		memset(&old, 0xa5, sizeof(old));
		EXPECT_EQ(0, vgpu_ioctl(fd, cmd, &old));
		EXPECT_EQ(2500, old.kernel_exec_timeout_ms);
		EXPECT_EQ(0xa5a5a5a5u, old.hang_timeout_ms);	/* untouched */
	}
	restore_watchdog();
	close(fd);
}

FIXTURE(hb) {
	int fd;
	int fw;
	struct vgpu_fw_attach a;
	struct vgpu_ctx_create c[2];
	struct vgpu_fw_engine_status st[3];
};

FIXTURE_SETUP(hb)
{
	self->fd = vgpu_open();
	self->fw = open(VGPU_DEV, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	ASSERT_LE(0, self->fw);
	self->a.flags = VGPU_FW_ATTACH_HEARTBEAT | VGPU_FW_ATTACH_CONFIG;
	ASSERT_EQ(0, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_ATTACH, &self->a));
	for (int i = 0; i < 2; i++)
		ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_CREATE,
					&self->c[i]));
	memset(self->st, 0, sizeof(self->st));
}

FIXTURE_TEARDOWN(hb)
{
	restore_watchdog();
	if (self->fd >= 0)
		close(self->fd);
	if (self->fw >= 0)
		close(self->fw);
	EXPECT_TRUE(vgpu_accounting_idle());
}

static int send_heartbeat(int fw, struct vgpu_fw_engine_status *st)
{
	struct vgpu_fw_heartbeat hb = { .num_engines = 3,
					.engines = (uintptr_t)st };

	return vgpu_ioctl(fw, VGPU_IOCTL_FW_HEARTBEAT, &hb);
}

/* Send heartbeats of @st every 100 ms for @ms, or until one fails. */
static int heartbeats_for(int fw, struct vgpu_fw_engine_status *st,
			  unsigned int ms, bool progress)
{
	uint64_t end = vgpu_now_ns() + ms * 1000000ull;
	int ret;

	do {
		if (progress)
			st[0].progress += 1000;
		ret = send_heartbeat(fw, st);
		usleep(100 * 1000);
	} while (!ret && vgpu_now_ns() < end);
	return ret;
}

/*
 * The short hang timeout, applied at once: a heartbeat first, or the
 * setup's silence would already count.
 */
static int hang_timeout_short(int fw, struct vgpu_fw_engine_status *st)
{
	int ret = send_heartbeat(fw, st);

	return ret ? ret : vgpu_param_write("hang_timeout_ms", HANG_MS_STR);
}

static void ctx_state(int fd, uint32_t handle, struct vgpu_ctx_status *st)
{
	memset(st, 0, sizeof(*st));
	st->handle = handle;
	vgpu_ioctl(fd, VGPU_IOCTL_CTX_STATUS, st);
}

TEST_F(hb, config_records_carry_the_exec_limit)
{
	struct vgpu_info info;
	struct vgpu_fw_event ev;
	int fw2, fd2;

	/* The value at attach comes first, before any other record. */
	ASSERT_EQ(0, next_event(self->fw, &ev, 1000));
	EXPECT_EQ(VGPU_FW_EV_CONFIG, ev.type);
	EXPECT_EQ(0, ev.arg0);
	ASSERT_EQ(0, vgpu_param_write("kernel_exec_timeout_ms", "2000"));
	ASSERT_EQ(0, wait_event_type(self->fw, VGPU_FW_EV_CONFIG, &ev));
	EXPECT_EQ(2000, ev.arg0);
	EXPECT_EQ(0, ev.ctx_id);
	/* Unread records coalesce: the firmware reads the newest value. */
	ASSERT_EQ(0, vgpu_param_write("kernel_exec_timeout_ms", "3000"));
	ASSERT_EQ(0, vgpu_param_write("kernel_exec_timeout_ms", "4000"));
	ASSERT_EQ(0, wait_event_type(self->fw, VGPU_FW_EV_CONFIG, &ev));
	EXPECT_EQ(4000, ev.arg0);
	EXPECT_TRUE(events_empty(self->fw));
	/* This firmware does not enforce it: user space can tell. */
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_GET_INFO, &info));
	EXPECT_EQ(VGPU_INFO_FW_ATTACHED, info.flags);

	/* One that enforces it says so; one without CONFIG hears nothing. */
	close(self->fw);
	fw2 = open(VGPU_DEV, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	ASSERT_LE(0, fw2);
	self->a.flags = VGPU_FW_ATTACH_CONFIG | VGPU_FW_ATTACH_EXEC_LIMIT;
	ASSERT_EQ(0, vgpu_ioctl(fw2, VGPU_IOCTL_FW_ATTACH, &self->a));
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_GET_INFO, &info));
	EXPECT_EQ(VGPU_INFO_FW_ATTACHED | VGPU_INFO_EXEC_LIMIT, info.flags);
	ASSERT_EQ(0, wait_event_type(fw2, VGPU_FW_EV_CONFIG, &ev));
	EXPECT_EQ(4000, ev.arg0);
	close(fw2);
	fd2 = open(VGPU_DEV, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	self->fw = fd2;
	self->a.flags = 0;
	ASSERT_EQ(0, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_ATTACH, &self->a));
	ASSERT_EQ(0, vgpu_param_write("kernel_exec_timeout_ms", "0"));
	while (!next_event(self->fw, &ev, 200))
		EXPECT_NE(VGPU_FW_EV_CONFIG, ev.type);
}

TEST_F(hb, heartbeat_rules)
{
	struct vgpu_fw_heartbeat hb = { .num_engines = 3,
					.engines = (uintptr_t)self->st };

	EXPECT_EQ(0, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_HEARTBEAT, &hb));
	/* Only the firmware's file. */
	EXPECT_EQ(-EPERM, vgpu_ioctl(self->fd, VGPU_IOCTL_FW_HEARTBEAT, &hb));
	hb.flags = 1;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_HEARTBEAT, &hb));
	hb.flags = 0;
	/* GR, CE0 and CE1: no more, no fewer. */
	hb.num_engines = 2;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_HEARTBEAT, &hb));
	hb.num_engines = 4;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_HEARTBEAT, &hb));
	hb.num_engines = 3;
	self->st[1].flags = VGPU_FW_ENGINE_RUNNABLE << 1;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_HEARTBEAT, &hb));
	self->st[1].flags = 0;
	self->st[2].pad = 1;
	EXPECT_EQ(-EINVAL, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_HEARTBEAT, &hb));
	self->st[2].pad = 0;
	hb.engines = 16;
	EXPECT_EQ(-EFAULT, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_HEARTBEAT, &hb));
	hb.engines = (uintptr_t)self->st;
	EXPECT_EQ(0, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_HEARTBEAT, &hb));
}

TEST_F_TIMEOUT(hb, silent_firmware_is_detached_as_hung, 120)
{
	struct vgpu_ctx_status st;
	struct vgpu_fw_event ev;
	struct pollfd pfd = { .fd = self->fw, .events = POLLIN };
	struct vgpu_tq q;
	uint64_t *vram, t0, dt, pd3;
	char state[32];
	uint32_t ctx;
	int fw2;

	vram = mmap(NULL, self->a.vram_size, PROT_READ | PROT_WRITE,
		    MAP_SHARED, self->fw, self->a.vram_offset);
	ASSERT_NE(MAP_FAILED, vram);
	ASSERT_EQ(0, vgpu_tq_create(&q, self->fd, self->c[0].handle,
				    VGPU_ENGINE_COMPUTE, 4096));
	ASSERT_EQ(0, wait_event_type(self->fw, VGPU_FW_EV_CTX_CREATE, &ev));
	pd3 = ev.arg0;
	EXPECT_FALSE(read_faults(vram + pd3 / 8));	/* a page table */
	ASSERT_EQ(0, hang_timeout_short(self->fw, self->st));
	/* Beating, idle, for twice the timeout: nothing happens. */
	EXPECT_EQ(0, heartbeats_for(self->fw, self->st, 2 * HANG_MS, false));
	EXPECT_EQ(0, vgpu_sysfs_str("firmware", state, sizeof(state)));
	EXPECT_STREQ("attached", state);
	/* Silence. */
	t0 = vgpu_now_ns();
	EXPECT_EQ(-ENODEV, vgpu_tq_wait(&q, 1, 10 * HANG_MS));
	dt = vgpu_now_ns() - t0;
	/* The last heartbeat went 100 ms before t0. */
	TH_LOG("detached %llu ms after the heartbeats stopped",
	       (unsigned long long)dt / 1000000 + 100);
	EXPECT_LE(HANG_MIN_NS, dt);
	EXPECT_EQ(0, vgpu_sysfs_str("firmware", state, sizeof(state)));
	EXPECT_STREQ("lost", state);
	ctx_state(self->fd, self->c[1].handle, &st);
	EXPECT_EQ(VGPU_CTX_STATE_LOST, st.state);
	EXPECT_EQ(-ENODEV, vgpu_ctx_create(self->fd, &ctx));
	/* The hung firmware lost its file's powers and its mappings. */
	EXPECT_EQ(-ENODEV, send_heartbeat(self->fw, self->st));
	EXPECT_EQ(-1, read(self->fw, &ev, sizeof(ev)));
	EXPECT_EQ(ENODEV, errno);
	EXPECT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_TRUE(pfd.revents & POLLERR);
	EXPECT_TRUE(read_faults(vram + pd3 / 8));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 4096, PROT_READ, MAP_SHARED,
				   self->fw, self->a.vram_offset));
	{
		struct vgpu_fw_ack ack = { .seq = 1 };

		EXPECT_EQ(-ENODEV, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_ACK,
					      &ack));
	}
	/* A new firmware serves at once; the old file's close is harmless. */
	fw2 = open(VGPU_DEV, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	ASSERT_LE(0, fw2);
	self->a.flags = 0;
	ASSERT_EQ(0, vgpu_ioctl(fw2, VGPU_IOCTL_FW_ATTACH, &self->a));
	munmap(vram, self->a.vram_size);
	close(self->fw);
	self->fw = fw2;
	EXPECT_EQ(0, vgpu_sysfs_str("firmware", state, sizeof(state)));
	EXPECT_STREQ("attached", state);
	EXPECT_EQ(0, vgpu_ctx_create(self->fd, &ctx));
	vgpu_tq_unmap(&q);
}

TEST_F_TIMEOUT(hb, busy_and_waiting_engines_are_not_hung, 120)
{
	struct vgpu_ctx_status st;
	char state[32];

	ASSERT_EQ(0, hang_timeout_short(self->fw, self->st));
	/* GR runs context 0's grid for 3 s, retiring instructions. */
	self->st[0].ctx_id = self->c[0].ctx_id;
	self->st[0].flags = VGPU_FW_ENGINE_RUNNABLE;
	EXPECT_EQ(0, heartbeats_for(self->fw, self->st, 2 * HANG_MS, true));
	/* Then nothing runnable (waiting on memory), no progress, 3 s. */
	self->st[0].flags = 0;
	EXPECT_EQ(0, heartbeats_for(self->fw, self->st, 2 * HANG_MS, false));
	ctx_state(self->fd, self->c[0].handle, &st);
	EXPECT_EQ(0, st.state);
	EXPECT_EQ(0, vgpu_sysfs_str("firmware", state, sizeof(state)));
	EXPECT_STREQ("attached", state);
}

TEST_F_TIMEOUT(hb, stalled_engine_stops_only_its_running_context, 120)
{
	struct vgpu_fw_signal s = { .fence = 1 };
	struct vgpu_ctx_status st;
	struct vgpu_fw_event ev;
	struct vgpu_tq other;
	uint64_t t0, dt;
	char state[32];
	bool seen_stop = false;

	ASSERT_EQ(0, vgpu_tq_create(&other, self->fd, self->c[1].handle,
				    VGPU_ENGINE_COPY, 4096));
	ASSERT_EQ(0, hang_timeout_short(self->fw, self->st));
	/* GR says context 0 runs, and retires nothing. */
	self->st[0].ctx_id = self->c[0].ctx_id;
	self->st[0].flags = VGPU_FW_ENGINE_RUNNABLE;
	self->st[0].progress = 42;
	t0 = vgpu_now_ns();
	do {
		ASSERT_EQ(0, send_heartbeat(self->fw, self->st));
		usleep(100 * 1000);
		ctx_state(self->fd, self->c[0].handle, &st);
	} while (!st.state && vgpu_now_ns() - t0 < HANG_DEADLINE_NS);
	dt = vgpu_now_ns() - t0;
	TH_LOG("context stopped after %llu ms of stall",
	       (unsigned long long)dt / 1000000);
	EXPECT_LE(HANG_MIN_NS, dt);
	EXPECT_EQ(VGPU_CTX_STATE_GUILTY, st.state);
	EXPECT_EQ(VGPU_FAULT_WATCHDOG, st.fault.kind);
	EXPECT_EQ(VGPU_ENGINE_COMPUTE, st.fault.engine);
	EXPECT_EQ(0, st.fault.queue_id);
	EXPECT_NE(0, st.fault.message[0]);
	TH_LOG("fault message: %s", st.fault.message);
	/* The firmware obeys the stop: GR is idle. */
	self->st[0].flags = 0;
	ASSERT_EQ(0, send_heartbeat(self->fw, self->st));
	while (!next_event(self->fw, &ev, 200))
		seen_stop |= ev.type == VGPU_FW_EV_CTX_STOP &&
			     ev.ctx_id == self->c[0].ctx_id;
	EXPECT_TRUE(seen_stop);
	/* The other context was never blamed, and works. */
	ctx_state(self->fd, self->c[1].handle, &st);
	EXPECT_EQ(0, st.state);
	s.queue_id = other.id;
	EXPECT_EQ(0, vgpu_ioctl(self->fw, VGPU_IOCTL_FW_SIGNAL, &s));
	EXPECT_EQ(0, vgpu_tq_wait(&other, 1, 1000));

	/*
	 * GR stalls again on the context it was told to stop: there is no one
	 * left to blame but the firmware.
	 */
	self->st[0].flags = VGPU_FW_ENGINE_RUNNABLE;
	t0 = vgpu_now_ns();
	while (!send_heartbeat(self->fw, self->st) &&
	       vgpu_now_ns() - t0 < HANG_DEADLINE_NS)
		usleep(100 * 1000);
	EXPECT_EQ(0, vgpu_sysfs_str("firmware", state, sizeof(state)));
	EXPECT_STREQ("lost", state);
	ctx_state(self->fd, self->c[1].handle, &st);
	EXPECT_EQ(VGPU_CTX_STATE_LOST, st.state);
	vgpu_tq_unmap(&other);
}

TEST_F_TIMEOUT(hb, stall_with_no_context_to_blame_is_a_firmware_hang, 120)
{
	struct vgpu_ctx_status st;
	char state[32];
	uint64_t t0 = vgpu_now_ns();

	ASSERT_EQ(0, hang_timeout_short(self->fw, self->st));
	/* CE0 says it is inside a packet, and never leaves it. */
	self->st[1].flags = VGPU_FW_ENGINE_RUNNABLE;
	while (!send_heartbeat(self->fw, self->st) &&
	       vgpu_now_ns() - t0 < HANG_DEADLINE_NS)
		usleep(100 * 1000);
	EXPECT_LE(HANG_MIN_NS, vgpu_now_ns() - t0);
	EXPECT_EQ(0, vgpu_sysfs_str("firmware", state, sizeof(state)));
	EXPECT_STREQ("lost", state);
	for (int i = 0; i < 2; i++) {
		ctx_state(self->fd, self->c[i].handle, &st);
		EXPECT_EQ(VGPU_CTX_STATE_LOST, st.state);
		EXPECT_EQ(0, st.fault_count);
	}
}

/* ---- end to end, with the test firmware ---------------------------------- */

FIXTURE(e2e) {
	int fd;
	pid_t fw;
	uint32_t ctx;
};

FIXTURE_SETUP(e2e)
{
	self->fd = vgpu_open();
	ASSERT_LE(0, self->fd);
	self->fw = vgpu_test_fw_start();
	ASSERT_LT(0, self->fw) TH_LOG("test firmware: %s", strerror(-self->fw));
	ASSERT_EQ(0, vgpu_ctx_create(self->fd, &self->ctx));
}

FIXTURE_TEARDOWN(e2e)
{
	vgpu_test_fw_kill(self->fw);
	close(self->fd);
	restore_watchdog();
	EXPECT_TRUE(vgpu_accounting_idle());
}

TEST_F(e2e, fences_through_the_ring)
{
	struct vgpu_tq q;
	uint64_t last = 0;

	ASSERT_EQ(0, vgpu_tq_create(&q, self->fd, self->ctx,
				    VGPU_ENGINE_COMPUTE, 4096));
	/* 300 fences of 16 bytes wrap a 4 KiB ring; some batched. */
	for (int i = 0; i < 100; i++) {
		vgpu_tq_fence(&q);
		if (i % 3 == 0)
			vgpu_tq_fence(&q);
		last = vgpu_tq_fence(&q);
		ASSERT_EQ(0, vgpu_tq_submit(&q));
		ASSERT_EQ(0, vgpu_tq_wait(&q, last, 5000));
	}
	EXPECT_EQ(last, q.fence->completed);
	/* The firmware moves rptr right after signalling the last fence. */
	for (int i = 0; i < 100 && q.db->rptr != q.wptr; i++)
		usleep(10000);
	EXPECT_EQ(q.wptr, q.db->rptr);
	vgpu_tq_unmap(&q);
}

/* A "Vm...:" field of /proc/PID/status in KiB, -1 if unreadable. */
static long proc_status_kib(pid_t pid, const char *field)
{
	char path[64], line[256];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, strlen(field)))
			v = strtol(line + strlen(field), NULL, 10);
	fclose(f);
	return v;
}

/*
 * The firmware maps every client ring; those pages are the clients' and
 * must not count in the firmware's RSS, or the OOM killer would see the
 * firmware as the sum of all clients (kmod/vgpu_mmap.c).
 */
TEST_F(e2e, client_rings_do_not_count_in_firmware_rss)
{
	enum { NQ = 8, RING = 1 << 20 };
	struct vgpu_tq q[NQ];
	long before, after;
	int i;

	before = proc_status_kib(self->fw, "VmRSS:");
	ASSERT_LT(0, before);
	for (i = 0; i < NQ; i++) {
		uint64_t f;

		ASSERT_EQ(0, vgpu_tq_create(&q[i], self->fd, self->ctx,
					    VGPU_ENGINE_COMPUTE, RING));
		/* Signalled: the firmware has mapped and read the ring. */
		f = vgpu_tq_fence(&q[i]);
		ASSERT_EQ(0, vgpu_tq_submit(&q[i]));
		ASSERT_EQ(0, vgpu_tq_wait(&q[i], f, 5000));
	}
	after = proc_status_kib(self->fw, "VmRSS:");
	TH_LOG("firmware VmRSS %ld KiB -> %ld KiB with %d MiB of rings",
	       before, after, NQ * RING >> 20);
	EXPECT_GT(2048, after - before);
	for (i = 0; i < NQ; i++)
		vgpu_tq_unmap(&q[i]);
}

TEST_F(e2e, kick_wakes_a_sleeping_firmware)
{
	struct vgpu_tq q;
	uint64_t f;
	int i;

	ASSERT_EQ(0, vgpu_tq_create(&q, self->fd, self->ctx,
				    VGPU_ENGINE_COMPUTE, 4096));
	for (i = 0; i < 200 && !q.db->fw_sleeping; i++)
		usleep(5000);
	ASSERT_TRUE(q.db->fw_sleeping);
	f = vgpu_tq_fence(&q);
	ASSERT_EQ(0, vgpu_tq_submit(&q));	/* sees fw_sleeping: kicks */
	EXPECT_EQ(0, vgpu_tq_wait(&q, f, 5000));
	vgpu_tq_unmap(&q);
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

/* A host object mapped in the process and at the same GPU VA. */
static uint8_t *host_buffer(int fd, uint32_t ctx, size_t size, uint32_t flags)
{
	struct vgpu_host_alloc a = { .size = size, .flags = flags };
	uint8_t *p;

	if (vgpu_ioctl(fd, VGPU_IOCTL_HOST_ALLOC, &a))
		return NULL;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 a.mmap_offset);
	if (p == MAP_FAILED || map_bo(fd, ctx, a.handle, (uintptr_t)p, size, 0))
		return NULL;
	return p;
}

TEST_F(e2e, data_through_vram_and_gart)
{
	size_t size = 3 * BIG;
	uint8_t *src = host_buffer(self->fd, self->ctx, size, 0);
	uint8_t *dst = host_buffer(self->fd, self->ctx, size,
				   VGPU_HOST_ALLOC_WC);
	struct vgpu_tq q;
	uint32_t vram;
	uint64_t f;

	ASSERT_NE(NULL, src);
	ASSERT_NE(NULL, dst);
	ASSERT_EQ(0, vgpu_vram_alloc(self->fd, size, &vram));
	ASSERT_EQ(0, map_bo(self->fd, self->ctx, vram, VA0, size, 0));
	ASSERT_EQ(0, vgpu_tq_create(&q, self->fd, self->ctx, VGPU_ENGINE_COPY,
				    4096));
	for (size_t i = 0; i < size; i++)
		src[i] = (uint8_t)(i * 31 + 7);
	/* Host -> VRAM -> host, unaligned pieces crossing pages. */
	emit_copy(&q, VA0, (uintptr_t)src, size);
	emit_copy(&q, (uintptr_t)dst + 1, VA0 + 1, size - 100);
	emit_write(&q, (uintptr_t)dst + size - 8, 0x0123456789abcdefull);
	f = vgpu_tq_fence(&q);
	ASSERT_EQ(0, vgpu_tq_submit(&q));
	ASSERT_EQ(0, vgpu_tq_wait(&q, f, 5000));
	EXPECT_EQ(0, memcmp(src + 1, dst + 1, size - 100));
	EXPECT_EQ(0, dst[0]);
	EXPECT_EQ(0x0123456789abcdefull, *(uint64_t *)(dst + size - 8));
	EXPECT_LT(0, vgpu_sysfs_num("vram_resident_bytes"));
	vgpu_tq_unmap(&q);
	munmap(src, size);
	munmap(dst, size);
}

TEST_F(e2e, registered_user_memory)
{
	size_t size = 5 * 4096;
	uint8_t *user = mmap(NULL, size, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct vgpu_host_register r = { .addr = (uintptr_t)user, .size = size };
	struct vgpu_tq q;
	uint64_t f;

	ASSERT_NE(MAP_FAILED, user);
	memset(user, 0xab, size);
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_HOST_REGISTER, &r));
	ASSERT_EQ(0, map_bo(self->fd, self->ctx, r.handle, (uintptr_t)user,
			    size, 0));
	ASSERT_EQ(0, vgpu_tq_create(&q, self->fd, self->ctx, VGPU_ENGINE_COPY,
				    4096));
	emit_copy(&q, (uintptr_t)user + 4096, (uintptr_t)user + 8, 100);
	emit_write(&q, (uintptr_t)user + 4 * 4096, 77);
	f = vgpu_tq_fence(&q);
	ASSERT_EQ(0, vgpu_tq_submit(&q));
	ASSERT_EQ(0, vgpu_tq_wait(&q, f, 5000));
	EXPECT_EQ(77, *(uint64_t *)(user + 4 * 4096));
	EXPECT_EQ(0xab, user[4096 + 99]);
	vgpu_tq_unmap(&q);
}

static void expect_mmu_fault(struct __test_metadata *_metadata, int fd,
			     uint32_t ctx, struct vgpu_tq *q, uint32_t kind,
			     uint64_t va)
{
	struct vgpu_ctx_status st = { .handle = ctx };
	uint64_t f;

	emit_write(q, va, 1);
	f = vgpu_tq_fence(q);
	ASSERT_EQ(0, vgpu_tq_submit(q));
	EXPECT_EQ(-ECANCELED, vgpu_tq_wait(q, f, 5000));
	ASSERT_EQ(0, vgpu_ioctl(fd, VGPU_IOCTL_CTX_STATUS, &st));
	EXPECT_EQ(VGPU_CTX_STATE_FAULTED, st.state);
	EXPECT_EQ(kind, st.fault.kind);
	EXPECT_EQ(va, st.fault.va);
	EXPECT_EQ(q->id, st.fault.queue_id);
}

TEST_F(e2e, mmu_fault_on_unmapped_address)
{
	struct vgpu_tq q, other;
	uint32_t ctx2;
	uint64_t f;

	ASSERT_EQ(0, vgpu_tq_create(&q, self->fd, self->ctx,
				    VGPU_ENGINE_COMPUTE, 4096));
	expect_mmu_fault(_metadata, self->fd, self->ctx, &q,
			 VGPU_FAULT_MMU_UNMAPPED, VA0 + 0x1230);
	/* Another context keeps working. */
	ASSERT_EQ(0, vgpu_ctx_create(self->fd, &ctx2));
	ASSERT_EQ(0, vgpu_tq_create(&other, self->fd, ctx2,
				    VGPU_ENGINE_COMPUTE, 4096));
	f = vgpu_tq_fence(&other);
	ASSERT_EQ(0, vgpu_tq_submit(&other));
	EXPECT_EQ(0, vgpu_tq_wait(&other, f, 5000));
	vgpu_tq_unmap(&q);
	vgpu_tq_unmap(&other);
}

TEST_F(e2e, mmu_fault_on_read_only_mapping)
{
	struct vgpu_tq q;
	uint32_t vram;

	ASSERT_EQ(0, vgpu_vram_alloc(self->fd, BIG, &vram));
	ASSERT_EQ(0, map_bo(self->fd, self->ctx, vram, VA0, BIG,
			    VGPU_MAP_READONLY));
	ASSERT_EQ(0, vgpu_tq_create(&q, self->fd, self->ctx,
				    VGPU_ENGINE_COMPUTE, 4096));
	expect_mmu_fault(_metadata, self->fd, self->ctx, &q,
			 VGPU_FAULT_MMU_PERMISSION, VA0 + 8);
	vgpu_tq_unmap(&q);
}

TEST_F(e2e, poll_and_eventfd_see_completion)
{
	struct vgpu_queue_eventfd e = { .fd = eventfd(0, EFD_CLOEXEC) };
	struct pollfd pfd[2] = { { .fd = self->fd, .events = POLLIN },
				 { .fd = e.fd, .events = POLLIN } };
	struct vgpu_tq q;
	uint64_t n;

	ASSERT_EQ(0, vgpu_tq_create(&q, self->fd, self->ctx,
				    VGPU_ENGINE_COMPUTE, 4096));
	e.queue = q.handle;
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_QUEUE_EVENTFD, &e));
	vgpu_tq_fence(&q);
	ASSERT_EQ(0, vgpu_tq_submit(&q));
	ASSERT_EQ(1, poll(&pfd[0], 1, 5000));
	ASSERT_EQ(1, poll(&pfd[1], 1, 5000));
	EXPECT_EQ((ssize_t)sizeof(n), read(e.fd, &n, sizeof(n)));
	EXPECT_EQ(1, n);
	EXPECT_EQ((ssize_t)sizeof(n), read(self->fd, &n, sizeof(n)));
	EXPECT_EQ(1, n);
	EXPECT_EQ(1, q.fence->completed);
	close(e.fd);
	vgpu_tq_unmap(&q);
}

/*
 * A job waiting on memory for longer than the hang timeout is legal
 * waiting: the test firmware keeps sending heartbeats, reports nothing
 * runnable, and the job completes when the host writes the flag.
 */
TEST_F_TIMEOUT(e2e, a_job_waiting_on_memory_is_not_a_hang, 120)
{
	uint64_t *flag = (uint64_t *)host_buffer(self->fd, self->ctx, 4096, 0);
	struct vgpu_pkt_wait_mem w = {
		.hdr = { .opcode = VGPU_PKT_WAIT_MEM, .size = sizeof(w) },
		.value = 1,
	};
	struct vgpu_ctx_status st = { .handle = self->ctx };
	struct vgpu_tq q;
	char state[32];
	uint64_t f;

	ASSERT_NE(NULL, flag);
	ASSERT_EQ(0, vgpu_param_write("hang_timeout_ms", HANG_MS_STR));
	ASSERT_EQ(0, vgpu_tq_create(&q, self->fd, self->ctx,
				    VGPU_ENGINE_COMPUTE, 4096));
	w.va = (uintptr_t)flag;
	vgpu_tq_emit(&q, &w, sizeof(w));
	f = vgpu_tq_fence(&q);
	ASSERT_EQ(0, vgpu_tq_submit(&q));
	/* Three hang timeouts: neither the job nor the firmware is hung. */
	EXPECT_EQ(-ETIME, vgpu_tq_wait(&q, f, 3 * HANG_MS));
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_STATUS, &st));
	EXPECT_EQ(0, st.state);
	EXPECT_EQ(0, vgpu_sysfs_str("firmware", state, sizeof(state)));
	EXPECT_STREQ("attached", state);
	*flag = 1;
	EXPECT_EQ(0, vgpu_tq_wait(&q, f, 5000));
	vgpu_tq_unmap(&q);
	munmap(flag, 4096);
}

/*
 * A firmware that freezes (SIGSTOP) sends no heartbeat: after
 * hang_timeout_ms the device is lost.  Thawed, it learns that it was
 * detached and exits; a new firmware serves again.
 */
TEST_F_TIMEOUT(e2e, frozen_firmware_is_detached_and_replaced, 120)
{
	struct vgpu_ctx_status st = { .handle = self->ctx };
	struct vgpu_tq q, q2;
	uint64_t t0, f;
	char state[32];
	uint32_t ctx2;
	bool gone;
	int status;

	ASSERT_EQ(0, vgpu_param_write("hang_timeout_ms", HANG_MS_STR));
	ASSERT_EQ(0, vgpu_tq_create(&q, self->fd, self->ctx,
				    VGPU_ENGINE_COMPUTE, 4096));
	f = vgpu_tq_fence(&q);
	ASSERT_EQ(0, vgpu_tq_submit(&q));
	ASSERT_EQ(0, vgpu_tq_wait(&q, f, 5000));
	/* Alive and idle for longer than the timeout: nothing happens. */
	usleep((HANG_MS + 1000) * 1000);
	EXPECT_EQ(0, vgpu_sysfs_str("firmware", state, sizeof(state)));
	EXPECT_STREQ("attached", state);

	ASSERT_EQ(0, kill(self->fw, SIGSTOP));
	t0 = vgpu_now_ns();
	f = vgpu_tq_fence(&q);
	ASSERT_EQ(0, vgpu_tq_submit(&q));
	EXPECT_EQ(-ENODEV, vgpu_tq_wait(&q, f, 10 * HANG_MS));
	TH_LOG("device lost %llu ms after the firmware froze",
	       (unsigned long long)(vgpu_now_ns() - t0) / 1000000);
	EXPECT_LE(HANG_MIN_NS, vgpu_now_ns() - t0);
	EXPECT_EQ(0, vgpu_sysfs_str("firmware", state, sizeof(state)));
	EXPECT_STREQ("lost", state);
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_STATUS, &st));
	EXPECT_EQ(VGPU_CTX_STATE_LOST, st.state);
	EXPECT_EQ(-ENODEV, vgpu_ctx_create(self->fd, &ctx2));

	/* Thawed, it finds itself detached and goes (exit, or SIGBUS). */
	ASSERT_EQ(0, kill(self->fw, SIGCONT));
	t0 = vgpu_now_ns();
	while (!(gone = waitpid(self->fw, &status, WNOHANG) == self->fw) &&
	       vgpu_now_ns() - t0 < 10000000000ull)
		usleep(10000);
	EXPECT_TRUE(gone);
	if (gone)
		self->fw = 0;
	else
		vgpu_test_fw_kill(self->fw);

	self->fw = vgpu_test_fw_start();
	ASSERT_LT(0, self->fw);
	ASSERT_EQ(0, vgpu_ctx_create(self->fd, &ctx2));
	ASSERT_EQ(0, vgpu_tq_create(&q2, self->fd, ctx2, VGPU_ENGINE_COPY,
				    4096));
	f = vgpu_tq_fence(&q2);
	ASSERT_EQ(0, vgpu_tq_submit(&q2));
	EXPECT_EQ(0, vgpu_tq_wait(&q2, f, 5000));
	vgpu_tq_unmap(&q);
	vgpu_tq_unmap(&q2);
}

TEST_F(e2e, firmware_death_and_restart)
{
	struct vgpu_ctx_status st = { .handle = self->ctx };
	struct vgpu_tq q, q2;
	uint32_t ctx2;
	uint64_t f;

	ASSERT_EQ(0, vgpu_tq_create(&q, self->fd, self->ctx,
				    VGPU_ENGINE_COMPUTE, 4096));
	f = vgpu_tq_fence(&q);
	ASSERT_EQ(0, vgpu_tq_submit(&q));
	ASSERT_EQ(0, vgpu_tq_wait(&q, f, 5000));

	vgpu_test_fw_kill(self->fw);	/* the GPU "falls off the bus" */
	self->fw = 0;
	f = vgpu_tq_fence(&q);
	vgpu_tq_submit(&q);
	EXPECT_EQ(-ENODEV, vgpu_tq_wait(&q, f, 5000));
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_CTX_STATUS, &st));
	EXPECT_EQ(VGPU_CTX_STATE_LOST, st.state);

	self->fw = vgpu_test_fw_start();
	ASSERT_LT(0, self->fw);
	/* The old context stays lost; a new one works. */
	EXPECT_EQ(-ENODEV, vgpu_tq_wait(&q, f, 100));
	ASSERT_EQ(0, vgpu_ctx_create(self->fd, &ctx2));
	ASSERT_EQ(0, vgpu_tq_create(&q2, self->fd, ctx2, VGPU_ENGINE_COMPUTE,
				    4096));
	f = vgpu_tq_fence(&q2);
	ASSERT_EQ(0, vgpu_tq_submit(&q2));
	EXPECT_EQ(0, vgpu_tq_wait(&q2, f, 5000));
	vgpu_tq_unmap(&q);
	vgpu_tq_unmap(&q2);
}

/* Child: import @fd's object, copy it out through its own context. */
static int ipc_child(int exported, size_t size)
{
	struct vgpu_mem_import imp = { .fd = exported };
	int fd = vgpu_open();
	struct vgpu_tq q;
	uint32_t ctx;
	uint8_t *out;
	uint64_t f;

	if (fd < 0 || vgpu_ioctl(fd, VGPU_IOCTL_MEM_IMPORT, &imp) ||
	    vgpu_ctx_create(fd, &ctx) ||
	    map_bo(fd, ctx, imp.handle, VA0, size, VGPU_MAP_READONLY) ||
	    vgpu_tq_create(&q, fd, ctx, VGPU_ENGINE_COPY, 4096))
		return 2;
	out = host_buffer(fd, ctx, size, 0);
	if (!out)
		return 3;
	emit_copy(&q, (uintptr_t)out, VA0, size);
	f = vgpu_tq_fence(&q);
	if (vgpu_tq_submit(&q) || vgpu_tq_wait(&q, f, 5000))
		return 4;
	for (size_t i = 0; i < size; i++)
		if (out[i] != (uint8_t)(i ^ 0x5a))
			return 5;
	return 0;
}

TEST_F(e2e, ipc_memory_between_processes)
{
	size_t size = BIG;
	uint8_t *src = host_buffer(self->fd, self->ctx, size, 0);
	struct vgpu_mem_export e = { .flags = VGPU_MEM_EXPORT_CLOEXEC };
	struct vgpu_tq q;
	uint32_t vram;
	uint64_t f;
	int status;
	pid_t pid;

	ASSERT_NE(NULL, src);
	ASSERT_EQ(0, vgpu_vram_alloc(self->fd, size, &vram));
	ASSERT_EQ(0, map_bo(self->fd, self->ctx, vram, VA0, size, 0));
	ASSERT_EQ(0, vgpu_tq_create(&q, self->fd, self->ctx, VGPU_ENGINE_COPY,
				    4096));
	for (size_t i = 0; i < size; i++)
		src[i] = (uint8_t)(i ^ 0x5a);
	emit_copy(&q, VA0, (uintptr_t)src, size);
	f = vgpu_tq_fence(&q);
	ASSERT_EQ(0, vgpu_tq_submit(&q));
	ASSERT_EQ(0, vgpu_tq_wait(&q, f, 5000));

	/* Another process reads our VRAM through its own address space. */
	e.handle = vram;
	ASSERT_EQ(0, vgpu_ioctl(self->fd, VGPU_IOCTL_MEM_EXPORT, &e));
	pid = fork();
	if (!pid)
		_exit(ipc_child(e.fd, size));
	waitpid(pid, &status, 0);
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	close(e.fd);
	vgpu_tq_unmap(&q);
	munmap(src, size);
}

TEST_F(e2e, queues_of_two_contexts_interleave)
{
	struct vgpu_tq q[4];
	uint64_t f[4];
	uint32_t ctx2;
	int i, round;

	ASSERT_EQ(0, vgpu_ctx_create(self->fd, &ctx2));
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, vgpu_tq_create(&q[i], self->fd,
					    i < 2 ? self->ctx : ctx2,
					    i % 2 ? VGPU_ENGINE_COPY :
						    VGPU_ENGINE_COMPUTE,
					    4096 << i));
	for (round = 0; round < 20; round++) {
		for (i = 0; i < 4; i++) {
			f[i] = vgpu_tq_fence(&q[i]);
			ASSERT_EQ(0, vgpu_tq_submit(&q[i]));
		}
		for (i = 3; i >= 0; i--)
			ASSERT_EQ(0, vgpu_tq_wait(&q[i], f[i], 5000));
	}
	for (i = 0; i < 4; i++)
		vgpu_tq_unmap(&q[i]);
}

TEST_HARNESS_MAIN
