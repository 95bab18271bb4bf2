// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_test_fw.c - a minimal firmware for the selftests
 *
 * It does what the real firmware (firmware_sim/) does, in the smallest
 * form that exercises the driver's side of the hardware interface:
 *
 *   - attach with VGPU_IOCTL_FW_ATTACH, map VRAM and the GART aperture;
 *   - read the event stream: contexts (page directory), queues (map ring
 *     and doorbell), stops, destroys; acknowledge what it handled;
 *   - poll every doorbell, execute packets in order, advance rptr;
 *   - translate GPU VAs by walking the page tables in VRAM, as the MMU
 *     would, report an address with no valid PTE to the driver as a
 *     replayable fault (managed memory) and walk again, and report a
 *     fault for unmapped or read-only addresses;
 *   - sleep (fw_sleeping = 1) when idle until a kick or an event arrives;
 *   - send a heartbeat every TFW_HEARTBEAT_MS (packets run count as the
 *     progress of every engine; between packets nothing runs), and exit
 *     when the driver says it detached us as hung (-ENODEV).
 *
 * Single-threaded and slow on purpose; it only has to be right.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vgpu_lib.h"

#define TFW_MAX	256
#define TFW_HEARTBEAT_MS	100

struct tfw_ctx {
	uint32_t id;
	uint64_t pd3;
	bool stopped;
};

struct tfw_queue {
	uint32_t id;
	uint32_t ctx_id;
	uint32_t engine;
	uint32_t ring_size;
	uint8_t *ring;
	struct vgpu_doorbell *db;
};

struct tfw {
	int fd;
	uint8_t *vram;
	uint64_t vram_size;
	uint8_t *gart;
	uint64_t gart_entries;
	struct tfw_ctx ctxs[TFW_MAX];
	struct tfw_queue queues[TFW_MAX];
	uint64_t packets;	/* progress, for the heartbeat */
	uint64_t next_heartbeat_ns;
};

static struct tfw_ctx *tfw_ctx(struct tfw *fw, uint32_t id)
{
	for (int i = 0; i < TFW_MAX; i++)
		if (fw->ctxs[i].id == id)
			return &fw->ctxs[i];
	return NULL;
}

static struct tfw_queue *tfw_queue(struct tfw *fw, uint32_t id)
{
	for (int i = 0; i < TFW_MAX; i++)
		if (fw->queues[i].id == id)
			return &fw->queues[i];
	return NULL;
}

static uint64_t tfw_vram64(struct tfw *fw, uint64_t off)
{
	if (off + 8 > fw->vram_size)
		return 0;
	return __atomic_load_n((uint64_t *)(fw->vram + off), __ATOMIC_ACQUIRE);
}

/*
 * The MMU: a host pointer for @va valid up to the end of its page (*@left
 * bytes), or NULL with *@fault set to the fault kind.
 */
static uint8_t *tfw_walk(struct tfw *fw, struct tfw_ctx *ctx,
			 uint64_t va, bool write, uint64_t *left,
			 uint32_t *fault)
{
	uint64_t pde, pd1, pte = 0, page;

	*fault = VGPU_FAULT_MMU_UNMAPPED;
	if (va >> VGPU_VA_BITS)
		return NULL;
	pde = tfw_vram64(fw, ctx->pd3 + VGPU_PD3_INDEX(va) * 8);
	if (!(pde & VGPU_PDE_VALID))
		return NULL;
	pde = tfw_vram64(fw, VGPU_PDE_ADDR(pde) + VGPU_PD2_INDEX(va) * 8);
	if (!(pde & VGPU_PDE_VALID))
		return NULL;
	pd1 = VGPU_PDE_ADDR(pde) + VGPU_PD1_INDEX(va) * 16;
	pde = tfw_vram64(fw, pd1);	/* big-page table first */
	if (pde & VGPU_PDE_VALID) {
		pte = tfw_vram64(fw, VGPU_PDE_ADDR(pde) + VGPU_BIG_INDEX(va) * 8);
		page = VGPU_BIG_PAGE_SIZE;
	}
	if (!(pte & VGPU_PTE_VALID)) {
		pde = tfw_vram64(fw, pd1 + 8);
		if (!(pde & VGPU_PDE_VALID))
			return NULL;
		pte = tfw_vram64(fw, VGPU_PDE_ADDR(pde) +
				 VGPU_SMALL_INDEX(va) * 8);
		page = VGPU_SMALL_PAGE_SIZE;
	}
	if (!(pte & VGPU_PTE_VALID))
		return NULL;
	if (write && !(pte & VGPU_PTE_WRITE)) {
		*fault = VGPU_FAULT_MMU_PERMISSION;
		return NULL;
	}
	*left = page - (va & (page - 1));
	switch (pte & VGPU_PTE_APERTURE_MASK) {
	case VGPU_PTE_APERTURE_VRAM:
		return fw->vram + (VGPU_PTE_FRAME(pte) << 12) + (va & (page - 1));
	case VGPU_PTE_APERTURE_GART:
		if (VGPU_PTE_FRAME(pte) >= fw->gart_entries)
			return NULL;
		return fw->gart + (VGPU_PTE_FRAME(pte) << 12) + (va & (page - 1));
	}
	return NULL;
}

/*
 * The walk, with replayable faults: an address with no valid PTE may be
 * managed memory in host pages; the driver moves it into VRAM
 * (VGPU_IOCTL_FW_MMU_FAULT) and the walk is replayed, as vgpu-fw does.
 */
static uint8_t *tfw_translate(struct tfw *fw, struct tfw_ctx *ctx,
			      uint64_t va, bool write, uint64_t *left,
			      uint32_t *fault)
{
	struct vgpu_fw_mmu_fault f = { .ctx_id = ctx->id, .va = va };
	uint8_t *p = tfw_walk(fw, ctx, va, write, left, fault);

	for (int tries = 0; !p && *fault == VGPU_FAULT_MMU_UNMAPPED &&
	     tries < 64 && !ioctl(fw->fd, VGPU_IOCTL_FW_MMU_FAULT, &f); tries++)
		p = tfw_walk(fw, ctx, va, write, left, fault);
	return p;
}

static void tfw_fault(struct tfw *fw, struct tfw_queue *q, uint32_t kind,
		      uint64_t va)
{
	struct vgpu_fw_fault f = {
		.fault = {
			.kind = kind, .engine = q->engine, .queue_id = q->id,
			.va = va, .kernel_name = "tfw",
		},
	};

	vgpu_ioctl(fw->fd, VGPU_IOCTL_FW_FAULT, &f);
	tfw_ctx(fw, q->ctx_id)->stopped = true;
}

/* Copy between two GPU VAs page piece by page piece; 0 or a fault kind. */
static uint32_t tfw_copy(struct tfw *fw, struct tfw_ctx *ctx, uint64_t dst,
			 uint64_t src, uint64_t size, uint64_t *bad_va)
{
	while (size) {
		uint64_t ls, ld, n;
		uint32_t fault;
		uint8_t *s = tfw_translate(fw, ctx, src, false, &ls, &fault);
		uint8_t *d;

		if (!s) {
			*bad_va = src;
			return fault;
		}
		d = tfw_translate(fw, ctx, dst, true, &ld, &fault);
		if (!d) {
			*bad_va = dst;
			return fault;
		}
		n = size < ls ? size : ls;
		n = n < ld ? n : ld;
		memmove(d, s, n);
		src += n;
		dst += n;
		size -= n;
	}
	return 0;
}

/* Execute the packet at rptr.  Returns false if the queue must wait. */
static bool tfw_exec(struct tfw *fw, struct tfw_queue *q, struct tfw_ctx *ctx,
		     const uint8_t *p, uint32_t room)
{
	const struct vgpu_pkt_header *h = (const void *)p;
	uint32_t fault = 0;
	uint64_t left, bad = 0;
	uint64_t *mem;

	if (h->size < sizeof(*h) || h->size % 8 || h->size > room) {
		tfw_fault(fw, q, VGPU_FAULT_BAD_PACKET, 0);
		return false;
	}
	switch (h->opcode) {
	case VGPU_PKT_NOP:
		break;
	case VGPU_PKT_FENCE: {
		const struct vgpu_pkt_fence *f = (const void *)p;
		struct vgpu_fw_signal s = { .queue_id = q->id, .fence = f->value };

		vgpu_ioctl(fw->fd, VGPU_IOCTL_FW_SIGNAL, &s);
		break;
	}
	case VGPU_PKT_WRITE_MEM:
	case VGPU_PKT_TIMESTAMP: {
		const struct vgpu_pkt_write_mem *w = (const void *)p;
		uint64_t val = w->value;

		if (h->opcode == VGPU_PKT_TIMESTAMP)
			val = vgpu_now_ns();
		mem = (void *)tfw_translate(fw, ctx, w->va, true, &left, &fault);
		if (!mem || w->va % 8) {
			tfw_fault(fw, q, mem ? VGPU_FAULT_MISALIGNED : fault,
				  w->va);
			return false;
		}
		__atomic_store_n(mem, val, __ATOMIC_RELEASE);
		break;
	}
	case VGPU_PKT_WAIT_MEM: {
		const struct vgpu_pkt_wait_mem *w = (const void *)p;

		mem = (void *)tfw_translate(fw, ctx, w->va, false, &left, &fault);
		if (!mem || w->va % 8) {
			tfw_fault(fw, q, mem ? VGPU_FAULT_MISALIGNED : fault,
				  w->va);
			return false;
		}
		if (__atomic_load_n(mem, __ATOMIC_ACQUIRE) < w->value)
			return false;
		break;
	}
	case VGPU_PKT_COPY: {
		const struct vgpu_pkt_copy *c = (const void *)p;

		fault = tfw_copy(fw, ctx, c->dst, c->src, c->size, &bad);
		if (fault) {
			tfw_fault(fw, q, fault, bad);
			return false;
		}
		break;
	}
	default:
		tfw_fault(fw, q, VGPU_FAULT_ILLEGAL_INSTRUCTION, 0);
		return false;
	}
	return true;
}

/* Run @q as far as it goes; true if it advanced. */
static bool tfw_run_queue(struct tfw *fw, struct tfw_queue *q)
{
	struct tfw_ctx *ctx = tfw_ctx(fw, q->ctx_id);
	bool progress = false;

	while (ctx && !ctx->stopped) {
		uint64_t rptr = q->db->rptr;
		uint64_t wptr = __atomic_load_n(&q->db->wptr, __ATOMIC_ACQUIRE);
		uint32_t pos = rptr % q->ring_size;
		const struct vgpu_pkt_header *h;

		if (rptr == wptr || wptr - rptr < sizeof(*h))
			break;
		h = (const void *)(q->ring + pos);
		if (!tfw_exec(fw, q, ctx, q->ring + pos, q->ring_size - pos))
			break;
		__atomic_store_n(&q->db->rptr, rptr + h->size,
				 __ATOMIC_RELEASE);
		progress = true;
	}
	return progress;
}

static void tfw_event(struct tfw *fw, const struct vgpu_fw_event *ev)
{
	struct tfw_queue *q;
	struct tfw_ctx *c;

	switch (ev->type) {
	case VGPU_FW_EV_CTX_CREATE:
		c = tfw_ctx(fw, 0);
		if (c)
			*c = (struct tfw_ctx){ .id = ev->ctx_id, .pd3 = ev->arg0 };
		break;
	case VGPU_FW_EV_CTX_STOP:
		c = tfw_ctx(fw, ev->ctx_id);
		if (c)
			c->stopped = true;
		break;
	case VGPU_FW_EV_CTX_DESTROY:
		c = tfw_ctx(fw, ev->ctx_id);
		if (c)
			c->id = 0;
		break;
	case VGPU_FW_EV_QUEUE_CREATE:
		q = tfw_queue(fw, 0);
		if (!q)
			break;
		q->ring = mmap(NULL, ev->arg0, PROT_READ | PROT_WRITE,
			       MAP_SHARED, fw->fd, ev->arg1);
		q->db = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
			     fw->fd, ev->arg2);
		if (q->ring == MAP_FAILED || q->db == MAP_FAILED) {
			/*
			 * Destroyed since the record was read (its DESTROY
			 * record follows), as the real firmware allows.
			 */
			if (q->ring != MAP_FAILED)
				munmap(q->ring, ev->arg0);
			if (q->db != MAP_FAILED)
				munmap(q->db, 4096);
			break;
		}
		q->id = ev->queue_id;
		q->ctx_id = ev->ctx_id;
		q->engine = ev->engine;
		q->ring_size = ev->arg0;
		break;
	case VGPU_FW_EV_QUEUE_DESTROY:
		q = tfw_queue(fw, ev->queue_id);
		if (q) {
			munmap(q->ring, q->ring_size);
			munmap(q->db, 4096);
			q->id = 0;
		}
		break;
	default:	/* kicks and TLB flushes: nothing cached here */
		break;
	}
}

/* Say we live, every TFW_HEARTBEAT_MS; exit once detached as hung. */
static void tfw_heartbeat(struct tfw *fw)
{
	struct vgpu_fw_engine_status st[3];
	struct vgpu_fw_heartbeat hb = {
		.num_engines = 3,
		.engines = (uintptr_t)st,
	};
	uint64_t now = vgpu_now_ns();

	if (now < fw->next_heartbeat_ns)
		return;
	fw->next_heartbeat_ns = now + TFW_HEARTBEAT_MS * 1000000ull;
	memset(st, 0, sizeof(st));
	for (int i = 0; i < 3; i++)
		st[i].progress = fw->packets;
	if (vgpu_ioctl(fw->fd, VGPU_IOCTL_FW_HEARTBEAT, &hb) == -ENODEV)
		_exit(0);
}

/*
 * Handle every pending record, then acknowledge them: nothing cached here
 * outlives a record, so the driver may free what they took away.
 */
static void tfw_read_events(struct tfw *fw)
{
	struct vgpu_fw_ack ack = { 0 };
	struct vgpu_fw_event ev[16];
	ssize_t n;

	for (;;) {
		n = read(fw->fd, ev, sizeof(ev));
		if (n < 0 && errno == ENODEV)	/* detached as hung */
			_exit(0);
		if (n <= 0)
			break;
		tfw_heartbeat(fw);	/* also under a flood of records */
		for (ssize_t i = 0; i < n / (ssize_t)sizeof(ev[0]); i++) {
			tfw_event(fw, &ev[i]);
			if (ev[i].seq > ack.seq)
				ack.seq = ev[i].seq;
		}
	}
	if (ack.seq)
		vgpu_ioctl(fw->fd, VGPU_IOCTL_FW_ACK, &ack);
}

static void tfw_set_sleeping(struct tfw *fw, uint32_t v)
{
	for (int i = 0; i < TFW_MAX; i++)
		if (fw->queues[i].id)
			__atomic_store_n(&fw->queues[i].db->fw_sleeping, v,
					 __ATOMIC_SEQ_CST);
}

static bool tfw_pending(struct tfw *fw)
{
	for (int i = 0; i < TFW_MAX; i++) {
		struct tfw_queue *q = &fw->queues[i];

		if (q->id && __atomic_load_n(&q->db->wptr, __ATOMIC_SEQ_CST) !=
			     q->db->rptr)
			return true;
	}
	return false;
}

static void __attribute__((noreturn)) tfw_main(int ready_fd)
{
	struct tfw *fw = calloc(1, sizeof(*fw));
	struct vgpu_fw_attach a = { .flags = VGPU_FW_ATTACH_HEARTBEAT };
	struct pollfd pfd;
	int err = 0;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	fw->fd = open(VGPU_DEV, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fw->fd < 0 || vgpu_ioctl(fw->fd, VGPU_IOCTL_FW_ATTACH, &a))
		err = errno ? errno : EIO;
	if (!err) {
		fw->vram_size = a.vram_size;
		fw->gart_entries = a.gart_entries;
		fw->vram = mmap(NULL, a.vram_size, PROT_READ | PROT_WRITE,
				MAP_SHARED, fw->fd, a.vram_offset);
		fw->gart = mmap(NULL, a.gart_entries * 4096,
				PROT_READ | PROT_WRITE, MAP_SHARED, fw->fd,
				a.gart_offset);
		if (fw->vram == MAP_FAILED || fw->gart == MAP_FAILED)
			err = errno;
	}
	if (write(ready_fd, &err, sizeof(err)) != sizeof(err) || err)
		_exit(1);
	close(ready_fd);

	pfd.fd = fw->fd;
	pfd.events = POLLIN;
	for (;;) {
		bool progress = false;

		tfw_heartbeat(fw);
		tfw_read_events(fw);
		for (int i = 0; i < TFW_MAX; i++)
			if (fw->queues[i].id)
				progress |= tfw_run_queue(fw, &fw->queues[i]);
		fw->packets += progress;
		if (progress)
			continue;
		/* Say we sleep, then look once more (SQPOLL handshake). */
		tfw_set_sleeping(fw, 1);
		if (!tfw_pending(fw))
			poll(&pfd, 1, 20);
		else
			poll(&pfd, 1, 5);	/* a queue waits on memory */
		tfw_set_sleeping(fw, 0);
	}
}

pid_t vgpu_test_fw_start(void)
{
	int pipefd[2], err = 0;
	pid_t pid;

	if (pipe(pipefd))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		close(pipefd[0]);
		tfw_main(pipefd[1]);
	}
	close(pipefd[1]);
	if (read(pipefd[0], &err, sizeof(err)) != sizeof(err))
		err = EIO;
	close(pipefd[0]);
	if (err) {
		waitpid(pid, NULL, 0);
		return -err;
	}
	return pid;
}

void vgpu_test_fw_kill(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}
