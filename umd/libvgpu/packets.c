// SPDX-License-Identifier: GPL-2.0
/*
 * packets.c - one helper per packet type of include/vgpu_hw.h.
 *
 * Each reserves space for its packet in the ring and fills every field
 * (as liburing's io_uring_prep_*); nothing is visible to the device
 * before vgpu_queue_submit().  Nothing else in the user-mode driver
 * writes a packet header: tests/test_libvgpu_packets checks that every
 * opcode of enum vgpu_pkt_opcode has its helper here.
 */
#include <errno.h>

#include "libvgpu.h"

/* Reserve @bytes for a packet @p of opcode @op and write its header. */
#define VGPU_EMIT_SIZED(q, bytes, op, deadline, p)			\
	do {								\
		void *mem__;						\
		int ret__ = vgpu_queue_reserve((q), (bytes),		\
					       (deadline), &mem__);	\
		if (ret__)						\
			return ret__;					\
		(p) = mem__;						\
		(p)->hdr.opcode = (op);					\
		(p)->hdr.size = (bytes);				\
	} while (0)

#define VGPU_EMIT(q, type, op, deadline, p)				\
	VGPU_EMIT_SIZED(q, (uint32_t)sizeof(type), op, deadline, p)

/* NOP: @bytes (header included, a multiple of 8) the firmware skips. */
int vgpu_emit_nop(struct vgpu_queue *q, uint32_t bytes, int64_t deadline)
{
	struct vgpu_pkt_nop {
		struct vgpu_pkt_header hdr;
	} *p;

	VGPU_EMIT_SIZED(q, bytes, VGPU_PKT_NOP, deadline, p);
	return 0;
}

int vgpu_emit_fence(struct vgpu_queue *q, uint64_t value, int64_t deadline)
{
	struct vgpu_pkt_fence *p;

	VGPU_EMIT(q, struct vgpu_pkt_fence, VGPU_PKT_FENCE, deadline, p);
	p->value = value;
	return 0;
}

int vgpu_emit_write_mem(struct vgpu_queue *q, uint64_t va, uint64_t value,
			int64_t deadline)
{
	struct vgpu_pkt_write_mem *p;

	VGPU_EMIT(q, struct vgpu_pkt_write_mem, VGPU_PKT_WRITE_MEM, deadline, p);
	p->va = va;
	p->value = value;
	return 0;
}

int vgpu_emit_wait_mem(struct vgpu_queue *q, uint64_t va, uint64_t value,
		       int64_t deadline)
{
	struct vgpu_pkt_wait_mem *p;

	VGPU_EMIT(q, struct vgpu_pkt_wait_mem, VGPU_PKT_WAIT_MEM, deadline, p);
	p->va = va;
	p->value = value;
	return 0;
}

int vgpu_emit_copy(struct vgpu_queue *q, uint64_t dst, uint64_t src,
		   uint64_t size, int64_t deadline)
{
	struct vgpu_pkt_copy *p;

	VGPU_EMIT(q, struct vgpu_pkt_copy, VGPU_PKT_COPY, deadline, p);
	p->dst = dst;
	p->src = src;
	p->size = size;
	return 0;
}

int vgpu_emit_memset(struct vgpu_queue *q, uint64_t dst, uint32_t value,
		     uint32_t elem_size, uint64_t count, int64_t deadline)
{
	struct vgpu_pkt_memset *p;

	VGPU_EMIT(q, struct vgpu_pkt_memset, VGPU_PKT_MEMSET, deadline, p);
	p->dst = dst;
	p->count = count;
	p->value = value;
	p->elem_size = elem_size;
	return 0;
}

int vgpu_emit_timestamp(struct vgpu_queue *q, uint64_t va, int64_t deadline)
{
	struct vgpu_pkt_timestamp *p;

	VGPU_EMIT(q, struct vgpu_pkt_timestamp, VGPU_PKT_TIMESTAMP, deadline, p);
	p->va = va;
	return 0;
}

/* @tmpl holds every field but the header (COPY_TILED has many). */
int vgpu_emit_copy_tiled(struct vgpu_queue *q,
			 const struct vgpu_pkt_copy_tiled *tmpl,
			 int64_t deadline)
{
	struct vgpu_pkt_copy_tiled *p;
	struct vgpu_pkt_header hdr;

	VGPU_EMIT(q, struct vgpu_pkt_copy_tiled, VGPU_PKT_COPY_TILED, deadline,
		  p);
	hdr = p->hdr;
	*p = *tmpl;
	p->hdr = hdr;
	return 0;
}

/*
 * LAUNCH: @tmpl holds the fixed part but the header; @payload_size bytes
 * of the ISA version's payload follow it, zeroed, and *@payload points at
 * them so that the caller writes the payload, kernel parameters included,
 * straight into the ring (no copy in between).
 */
int vgpu_emit_launch(struct vgpu_queue *q, const struct vgpu_pkt_launch *tmpl,
		     uint32_t payload_size, int64_t deadline, void **payload)
{
	struct vgpu_pkt_launch *p;
	struct vgpu_pkt_header hdr;

	*payload = NULL;
	if (payload_size > UINT32_MAX - sizeof(*p))
		return -EINVAL;
	VGPU_EMIT_SIZED(q, (uint32_t)(sizeof(*p) + payload_size),
			VGPU_PKT_LAUNCH, deadline, p);
	hdr = p->hdr;
	*p = *tmpl;
	p->hdr = hdr;
	*payload = p + 1;
	return 0;
}
