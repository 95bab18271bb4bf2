// SPDX-License-Identifier: GPL-2.0
/*
 * packets.c - fetch, check and run one packet of a queue.
 *
 * The ring lives in memory the client can write at any time, so the packet
 * is first copied out of the ring and only the copy is checked and used
 * (no time-of-check/time-of-use games).  Anything malformed - a write
 * pointer that makes no sense, a size that is not a multiple of 8 or runs
 * past the ring, an unknown opcode, non-zero flags or reserved bytes -
 * faults the queue's context with VGPU_FAULT_BAD_PACKET, and nothing of
 * it runs.  Memory packets fault precisely (kind and address) through the
 * MMU.  Every other context carries on.
 */
#include <stddef.h>
#include <string.h>
#include <time.h>

#include "fw.h"
#include "mmu.h"
#include "vgpu_barrier.h"
#include "vgpu_launch.h"

static void fault_bad_packet(struct fw_queue *q)
{
	struct vgpu_fault f = { .kind = VGPU_FAULT_BAD_PACKET };

	fw_fault_queue(q, &f);
}

static void fault_memory(struct fw_queue *q, int kind, uint64_t va)
{
	struct vgpu_fault f = { .kind = (uint32_t)kind, .va = va };

	fw_fault_queue(q, &f);
}

static uint64_t device_time_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The size each fixed-size opcode must have; 0 for variable ones. */
static uint32_t packet_size(uint16_t opcode)
{
	switch (opcode) {
	case VGPU_PKT_FENCE:
		return sizeof(struct vgpu_pkt_fence);
	case VGPU_PKT_WAIT_MEM:
		return sizeof(struct vgpu_pkt_wait_mem);
	case VGPU_PKT_WRITE_MEM:
		return sizeof(struct vgpu_pkt_write_mem);
	case VGPU_PKT_COPY:
		return sizeof(struct vgpu_pkt_copy);
	case VGPU_PKT_MEMSET:
		return sizeof(struct vgpu_pkt_memset);
	case VGPU_PKT_TIMESTAMP:
		return sizeof(struct vgpu_pkt_timestamp);
	case VGPU_PKT_COPY_TILED:
		return sizeof(struct vgpu_pkt_copy_tiled);
	default:
		return 0;
	}
}

/*
 * Run the checked copy @pkt.  Returns FW_PKT_DONE, FW_PKT_STALL, or
 * FW_PKT_STOPPED after faulting the queue.
 */
static enum fw_pkt_result run_packet(struct fw_engine *eng, struct fw_queue *q,
				     const void *pkt, uint32_t size)
{
	const struct vgpu_pkt_header *hdr = pkt;
	struct fw_ctx *ctx = q->ctx;
	uint64_t fault_va = 0, value;
	int kind = 0;

	switch (hdr->opcode) {
	case VGPU_PKT_NOP:
		return FW_PKT_DONE;
	case VGPU_PKT_FENCE: {
		const struct vgpu_pkt_fence *p = pkt;

		/* Every earlier packet of this queue has completed. */
		if (fw_signal_fence(q, p->value)) {
			fault_bad_packet(q);
			return FW_PKT_STOPPED;
		}
		return FW_PKT_DONE;
	}
	case VGPU_PKT_WAIT_MEM: {
		const struct vgpu_pkt_wait_mem *p = pkt;

		if (p->va & 7) {
			kind = VGPU_FAULT_MISALIGNED;
			fault_va = p->va;
			break;
		}
		kind = fw_mem_read(ctx, p->va, &value, 8, &fault_va);
		if (!kind && value < p->value)
			return FW_PKT_STALL;
		break;
	}
	case VGPU_PKT_WRITE_MEM:
	case VGPU_PKT_TIMESTAMP: {
		const struct vgpu_pkt_write_mem *p = pkt;

		/* Same layout up to @va; TIMESTAMP stores the time. */
		value = hdr->opcode == VGPU_PKT_TIMESTAMP ? device_time_ns() :
							   p->value;
		if (p->va & 7) {
			kind = VGPU_FAULT_MISALIGNED;
			fault_va = p->va;
			break;
		}
		kind = fw_mem_write(ctx, p->va, &value, 8, &fault_va);
		break;
	}
	case VGPU_PKT_COPY: {
		const struct vgpu_pkt_copy *p = pkt;

		kind = fw_mem_copy(ctx, p->dst, p->src, p->size, &fault_va);
		break;
	}
	case VGPU_PKT_COPY_TILED:
		kind = fw_copy_tiled(ctx, pkt, &fault_va);
		if (kind < 0) {
			fault_bad_packet(q);
			return FW_PKT_STOPPED;
		}
		break;
	case VGPU_PKT_MEMSET: {
		const struct vgpu_pkt_memset *p = pkt;

		if (p->elem_size != 1 && p->elem_size != 2 &&
		    p->elem_size != 4) {
			fault_bad_packet(q);
			return FW_PKT_STOPPED;
		}
		if (p->dst & (p->elem_size - 1)) {
			kind = VGPU_FAULT_MISALIGNED;
			fault_va = p->dst;
			break;
		}
		if (p->count > (UINT64_MAX >> 2)) {
			fault_bad_packet(q);
			return FW_PKT_STOPPED;
		}
		kind = fw_mem_fill(ctx, p->dst, p->value, p->elem_size,
				   p->count, &fault_va);
		break;
	}
	case VGPU_PKT_LAUNCH: {
		struct vgpu_fault f;
		int ret;

		memset(&f, 0, sizeof(f));
		ret = fw_launch(eng, q, pkt, size, &f);
		if (ret == 2)
			return FW_PKT_STALL;	/* the core is full */
		if (ret == 1) {
			fw_fault_queue(q, &f);
			return FW_PKT_STOPPED;
		}
		/* < 0: stopped by CTX_STOP; the driver already knows.  0:
		 * the grid runs; the queue stays here until it ends. */
		return ret ? FW_PKT_STOPPED : FW_PKT_BUSY;
	}
	}
	if (kind) {
		fault_memory(q, kind, fault_va);
		return FW_PKT_STOPPED;
	}
	return FW_PKT_DONE;
}

/* Is the packet's header acceptable for this queue? */
static bool header_ok(const struct fw_queue *q,
		      const struct vgpu_pkt_header *hdr)
{
	uint32_t want = packet_size(hdr->opcode);

	if (hdr->flags)
		return false;
	switch (hdr->opcode) {
	case VGPU_PKT_NOP:
		return true;
	case VGPU_PKT_LAUNCH:
		/* Copy engines do not run kernels. */
		return q->engine == VGPU_ENGINE_COMPUTE &&
		       hdr->size >= sizeof(struct vgpu_pkt_launch);
	default:
		return want && hdr->size == want;
	}
}

static void advance(struct fw_queue *q, uint32_t size)
{
	q->rptr += size;
	/* the packet is read: libvgpu may reuse it (vgpu_barrier.h (2)) */
	vgpu_smp_store_release(&q->db->rptr, q->rptr);
}

/* The LAUNCH at the head of @q has a grid on the SMs: is it over? */
static enum fw_pkt_result finish_launch(struct fw_queue *q)
{
	struct vgpu_fault f;
	int ret;

	if (!atomic_load_explicit(&q->grid_done, memory_order_acquire))
		return FW_PKT_BUSY;
	memset(&f, 0, sizeof(f));
	ret = fw_launch_finish(q, &f);
	if (ret > 0) {
		fw_fault_queue(q, &f);
		return FW_PKT_STOPPED;
	}
	if (ret < 0)
		return FW_PKT_STOPPED;
	advance(q, q->grid_pkt_size);
	return FW_PKT_DONE;
}

enum fw_pkt_result fw_queue_run_one(struct fw_engine *eng, struct fw_queue *q)
{
	struct vgpu_pkt_header hdr;
	uint64_t wptr, avail, off;
	enum fw_pkt_result res;

	/* before the stopped checks: a stopped grid's end is collected too */
	if (q->grid_inflight)
		return finish_launch(q);
	if (q->faulted || atomic_load(&q->ctx->stopped))
		return FW_PKT_STOPPED;
	/* pairs with vgpu_queue_submit() (vgpu_barrier.h (1)) */
	wptr = vgpu_smp_load_acquire(&q->db->wptr);
	if (wptr == q->rptr)
		return FW_PKT_IDLE;
	avail = wptr - q->rptr;
	off = q->rptr & (q->ring_size - 1);
	if (avail > q->ring_size || avail & 7) {
		fault_bad_packet(q);
		return FW_PKT_STOPPED;
	}
	memcpy(&hdr, q->ring + off, sizeof(hdr));
	if (hdr.size < sizeof(hdr) || hdr.size & 7 || hdr.size > avail ||
	    off + hdr.size > q->ring_size || hdr.size > FW_MAX_PACKET) {
		fault_bad_packet(q);
		return FW_PKT_STOPPED;
	}
	memcpy(eng->pkt, q->ring + off, hdr.size);
	/* Check the copy: the client may rewrite the ring meanwhile. */
	memcpy(&hdr, eng->pkt, sizeof(hdr));
	if (!header_ok(q, &hdr)) {
		fault_bad_packet(q);
		return FW_PKT_STOPPED;
	}
	res = run_packet(eng, q, eng->pkt, hdr.size);
	if (res == FW_PKT_DONE)
		advance(q, hdr.size);
	return res;
}
