// SPDX-License-Identifier: GPL-2.0
/*
 * queue.c - user-mode queues: rings, doorbells, fences.
 *
 * Submission never needs a system call while the firmware is awake: the
 * packets go into the ring, the write pointer into the doorbell page, and
 * the firmware, which polls doorbells, finds them.  The protocol with a
 * firmware about to sleep is the io_uring SQPOLL one (include/vgpu_hw.h):
 *
 *     application                     firmware
 *     store wptr (release)            store fw_sleeping = 1
 *     full barrier                    full barrier
 *     load fw_sleeping                load every wptr
 *     -> kick ioctl if set            -> sleep only if none moved
 *
 * With both barriers, at least one side sees the other's store, so work
 * is never left in a ring while the firmware sleeps.  The barriers and
 * their partners on the firmware's and the kernel's side: vgpu_barrier.h.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "libvgpu.h"
#include "libvgpu_internal.h"
#include "vgpu_barrier.h"

#define VGPU_PAGE	4096

int64_t vgpu_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void *vgpu_queue_mmap(struct vgpu_device *dev, size_t len, int prot,
			     uint64_t offset)
{
	void *p = mmap(NULL, len, prot, MAP_SHARED, dev->fd, (off_t)offset);

	return p == MAP_FAILED ? NULL : p;
}

int vgpu_queue_create(struct vgpu_device *dev, uint32_t ctx,
		      unsigned int engine, uint32_t ring_size,
		      struct vgpu_queue **out)
{
	struct vgpu_queue_create args = {
		.ctx = ctx,
		.engine = engine,
		.ring_size = ring_size,
	};
	struct vgpu_queue *q;
	int ret;

	*out = NULL;
	q = calloc(1, sizeof(*q));
	if (!q)
		return -ENOMEM;
	ret = vgpu_ioctl(dev->fd, VGPU_IOCTL_QUEUE_CREATE, &args);
	if (ret) {
		free(q);
		return ret;
	}
	q->dev = dev;
	q->handle = args.handle;
	q->queue_id = args.queue_id;
	q->engine = engine;
	q->ring_size = ring_size;
	q->ring = vgpu_queue_mmap(dev, ring_size, PROT_READ | PROT_WRITE,
				  args.ring_offset);
	q->doorbell = vgpu_queue_mmap(dev, VGPU_PAGE, PROT_READ | PROT_WRITE,
				      args.doorbell_offset);
	q->fence = vgpu_queue_mmap(dev, VGPU_PAGE, PROT_READ,
				   args.fence_offset);
	if (!q->ring || !q->doorbell || !q->fence) {
		ret = -errno;
		vgpu_queue_destroy(q);
		return ret ? ret : -ENOMEM;
	}
	q->wptr = vgpu_smp_load_acquire(&q->doorbell->wptr);
	*out = q;
	return 0;
}

void vgpu_queue_destroy(struct vgpu_queue *q)
{
	struct vgpu_handle_arg args;

	if (!q)
		return;
	if (q->ring)
		munmap(q->ring, q->ring_size);
	if (q->doorbell)
		munmap(q->doorbell, VGPU_PAGE);
	if (q->fence)
		munmap((void *)q->fence, VGPU_PAGE);
	args.handle = q->handle;
	args.flags = 0;
	vgpu_ioctl(q->dev->fd, VGPU_IOCTL_QUEUE_DESTROY, &args);
	free(q);
}

uint32_t vgpu_queue_id(const struct vgpu_queue *q)
{
	return q->queue_id;
}

unsigned int vgpu_queue_engine(const struct vgpu_queue *q)
{
	return q->engine;
}

uint64_t vgpu_queue_completed(const struct vgpu_queue *q)
{
	/* pairs with the kernel's vgpu_queue_signal() (vgpu_barrier.h (4)) */
	return vgpu_smp_load_acquire(&q->fence->completed);
}

uint32_t vgpu_queue_error(const struct vgpu_queue *q)
{
	/* pairs with the kernel's vgpu_queue_set_error() */
	return vgpu_smp_load_acquire(&q->fence->error);
}

static int vgpu_queue_error_code(const struct vgpu_queue *q)
{
	switch (vgpu_queue_error(q)) {
	case 0:
		return 0;
	case VGPU_QUEUE_ERROR_DEVICE_LOST:
		return -ENODEV;
	default:
		return -ECANCELED;
	}
}

/* Free bytes in the ring, counting packets reserved but not submitted. */
static uint64_t vgpu_queue_space(const struct vgpu_queue *q)
{
	/* pairs with the firmware's advance() (vgpu_barrier.h (2)) */
	uint64_t rptr = vgpu_smp_load_acquire(&q->doorbell->rptr);

	return q->ring_size - (q->wptr - rptr);
}

/*
 * Wait for @need bytes of space.  The firmware advances rptr as packets
 * complete; there is no interrupt for that, so a full ring is polled with
 * a short sleep (it only happens when the application runs far ahead).
 */
static int vgpu_queue_wait_space(struct vgpu_queue *q, uint64_t need,
				 int64_t deadline_ns)
{
	struct timespec nap = { .tv_sec = 0, .tv_nsec = 20000 };
	int ret;

	/* Published packets are what will free space: make sure they are. */
	ret = vgpu_queue_submit(q);
	if (ret)
		return ret;
	while (vgpu_queue_space(q) < need) {
		ret = vgpu_queue_error_code(q);
		if (ret)
			return ret;
		if (vgpu_now_ns() >= deadline_ns)
			return -ETIME;
		nanosleep(&nap, NULL);
	}
	return 0;
}

int vgpu_queue_reserve(struct vgpu_queue *q, uint32_t bytes,
		       int64_t deadline_ns, void **pkt)
{
	struct vgpu_pkt_header *nop;
	uint64_t off, tail;
	int ret;

	*pkt = NULL;
	if (bytes < sizeof(struct vgpu_pkt_header) || bytes % 8 ||
	    bytes > q->ring_size / 2)
		return -EINVAL;
	ret = vgpu_queue_error_code(q);
	if (ret)
		return ret;
	off = q->wptr & (q->ring_size - 1);
	tail = q->ring_size - off;
	if (tail < bytes) {
		/* A packet never wraps: fill the end of the ring with a NOP. */
		if (vgpu_queue_space(q) < tail) {
			ret = vgpu_queue_wait_space(q, tail, deadline_ns);
			if (ret)
				return ret;
		}
		nop = (struct vgpu_pkt_header *)(q->ring + off);
		nop->opcode = VGPU_PKT_NOP;
		nop->flags = 0;
		nop->size = (uint32_t)tail;
		q->wptr += tail;
		off = 0;
	}
	if (vgpu_queue_space(q) < bytes) {
		ret = vgpu_queue_wait_space(q, bytes, deadline_ns);
		if (ret)
			return ret;
	}
	*pkt = q->ring + off;
	memset(*pkt, 0, bytes);
	q->wptr += bytes;
	return 0;
}

int vgpu_queue_submit(struct vgpu_queue *q)
{
	struct vgpu_handle_arg args = { .handle = q->handle };

	if (VGPU_READ_ONCE(q->doorbell->wptr) == q->wptr)
		return 0;
	/* the packets, then wptr: fw_queue_run_one() (vgpu_barrier.h (1)) */
	vgpu_smp_store_release(&q->doorbell->wptr, q->wptr);
	/* the handshake with the engine's sleep (vgpu_barrier.h (3)) */
	vgpu_smp_mb();
	if (!VGPU_READ_ONCE(q->doorbell->fw_sleeping))
		return 0;
	return vgpu_ioctl(q->dev->fd, VGPU_IOCTL_QUEUE_KICK, &args);
}

/* The PAUSE of a spin-wait loop: lets a sibling hyperthread run. */
static inline void vgpu_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#endif
}

bool vgpu_queue_spin(const struct vgpu_queue *q, uint64_t fence,
		     int64_t deadline_ns, bool yield)
{
	for (unsigned int n = 0;; n++) {
		if (vgpu_queue_completed(q) >= fence || vgpu_queue_error(q))
			return true;
		/* Reading the clock costs more than a look at the page. */
		if (n % 16 == 15 && vgpu_now_ns() >= deadline_ns)
			return false;
		if (yield)
			sched_yield();
		else
			vgpu_cpu_relax();
	}
}

int vgpu_queue_wait(struct vgpu_queue *q, uint64_t fence, int64_t deadline_ns)
{
	struct vgpu_wait args = {
		.queue = q->handle,
		.fence = fence,
		.timeout_ns = deadline_ns,
	};

	if (vgpu_queue_completed(q) >= fence)
		return 0;
	/* A deadline in the past would mean "poll once" only for 0. */
	if (args.timeout_ns <= 0)
		args.timeout_ns = 1;
	return vgpu_ioctl(q->dev->fd, VGPU_IOCTL_WAIT, &args);
}
