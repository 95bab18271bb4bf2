// SPDX-License-Identifier: GPL-2.0
/*
 * packets.c - one helper per packet type of include/vgpu_hw.h.
 *
 * Each reserves space for its packet in the ring and fills every field;
 * nothing is visible to the device before vgpu_queue_submit().
 */
#include "libvgpu.h"

#define VGPU_EMIT(q, type, op, deadline, p)				\
	do {								\
		void *mem__;						\
		int ret__ = vgpu_queue_reserve((q), sizeof(type),	\
					       (deadline), &mem__);	\
		if (ret__)						\
			return ret__;					\
		(p) = mem__;						\
		(p)->hdr.opcode = (op);					\
		(p)->hdr.size = sizeof(type);				\
	} while (0)

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
