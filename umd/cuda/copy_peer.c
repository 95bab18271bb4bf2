// SPDX-License-Identifier: GPL-2.0
/*
 * copy_peer.c - copies that involve device memory of another context:
 * cuMemcpyPeer, and cuMemcpy between the allocations of two devices.
 *
 * Each context has its own GPU address space and each device its own
 * VRAM, and a copy engine reaches only what is mapped in its context.
 * With peer access enabled (peer.c) the other context's memory is mapped
 * too: a copy whose sides the caller's context reaches never comes here
 * (copy.c), and one where either side's context reaches the other's is
 * one packet of that context's copy engine.  Without peer access, real
 * CUDA copies between devices through host memory, and so does this
 * file:
 *
 *  - device memory of context X <-> host memory: X's copy engine does it,
 *    as if X were current;
 *  - device memory of X -> device memory of Y: through pinned host memory
 *    that both devices reach (a portable allocation, pinned in both
 *    GARTs at the same address).  X's copy engine copies a chunk in, Y's
 *    copies it out; two buffers, so that X fills one while Y drains the
 *    other.
 *
 * A 2D or 3D box across contexts works the same way with the whole box
 * (cu_box_across()): between two devices it is packed into a contiguous
 * buffer on the source's device, copied as one staged copy, and unpacked
 * on the destination's.
 *
 * Order.  The part of a context that is the caller's runs on the caller's
 * stream, in its order; the part of another context runs on that
 * context's legacy stream.  The two devices cannot wait for each other's
 * fences (a WAIT_MEM names a GPU address of the waiting context), so the
 * host joins them: it waits for each chunk to be in before it is copied
 * out, it waits for the caller's stream first when none of the work is
 * on it, and the call returns once the last byte arrived.  So the *Async
 * forms keep stream order but are synchronous with the host - allowed,
 * and the price of having no peer path.
 */
#include "cuda_internal.h"

struct cu_ctx *cu_copy_owner(uint64_t ptr)
{
	struct cu_mem m;

	if (!cu_registry_find(ptr, &m) || m.kind != CU_MEM_DEVICE)
		return NULL;
	/*
	 * A VMM mapping is in every context of its device (vmm.c): the
	 * caller's own when it is on that device, else any of the device's.
	 */
	if (m.vmm)
		return cu_vmm_owner(m.dev);
	return m.ctx;
}

/* The stream that does @ctx's part of a copy on @s. */
static struct cu_stream *cu_side_stream(struct cu_stream *s,
					struct cu_ctx *ctx)
{
	return ctx == s->ctx ? s : &ctx->null_stream;
}

/*
 * @size bytes from device memory at @src (of @ss's context) to device
 * memory at @dst (of @ds's context), through a portable pinned buffer.
 */
static CUresult cu_copy_staged_peer(struct cu_stream *ds, uint64_t dst,
				    struct cu_stream *ss, uint64_t src,
				    size_t size)
{
	struct cu_point out[CU_STAGE_BUFFERS] = { 0 };
	struct cu_point in;
	size_t chunk = size < CU_STAGE_SIZE ? size : CU_STAGE_SIZE;
	size_t off, n;
	unsigned int b = 0, i;
	CUresult res, res2;
	void *stage;

	res = cuMemHostAlloc(&stage, chunk * CU_STAGE_BUFFERS,
			     CU_MEMHOSTALLOC_PORTABLE);
	if (res != CUDA_SUCCESS)
		return res;
	for (off = 0; off < size && res == CUDA_SUCCESS; off += n) {
		uint64_t buf = (uintptr_t)stage + (uint64_t)b * chunk;

		n = size - off < chunk ? size - off : chunk;
		/* Y's engine may still be reading this buffer. */
		res = cu_point_wait(ds->ctx, &out[b]);
		if (res == CUDA_SUCCESS)
			res = cu_copy_dma(ss, buf, src + off, n, NULL, &in);
		if (res == CUDA_SUCCESS)
			res = cu_point_wait(ss->ctx, &in);
		if (res == CUDA_SUCCESS)
			res = cu_copy_dma(ds, dst + off, buf, n, NULL, &out[b]);
		b = (b + 1) % CU_STAGE_BUFFERS;
	}
	/* Drained before the buffers go, after an error too. */
	for (i = 0; i < CU_STAGE_BUFFERS; i++) {
		res2 = cu_point_wait(ds->ctx, &out[i]);
		if (res == CUDA_SUCCESS)
			res = res2;
	}
	cuMemFreeHost(stage);
	return res;
}

/* Before a copy across contexts: their health, the caller's order. */
static CUresult cu_across_begin(struct cu_stream *s, struct cu_ctx *dctx,
				struct cu_ctx *sctx)
{
	CUresult res = CUDA_SUCCESS;

	/* A context that faulted does no more work, for anyone. */
	if (dctx && dctx != s->ctx)
		res = cu_ctx_check(dctx);
	if (res == CUDA_SUCCESS && sctx && sctx != s->ctx)
		res = cu_ctx_check(sctx);
	/* The caller's stream's earlier work, when no part is on it. */
	if (res == CUDA_SUCCESS && dctx != s->ctx && sctx != s->ctx)
		res = cu_stream_sync(s);
	return res;
}

CUresult cu_copy_across(struct cu_stream *s, uint64_t dst,
			struct cu_ctx *dctx, uint64_t src,
			struct cu_ctx *sctx, size_t size)
{
	struct cu_stream *side;
	CUresult res = cu_across_begin(s, dctx, sctx);

	if (res != CUDA_SUCCESS)
		return res;
	/*
	 * One side's context has peer access to the other's memory: one
	 * packet of its copy engine reads (or writes) the peer's VRAM.
	 */
	if (dctx && sctx && dctx != sctx &&
	    (cu_peer_linked(dctx, sctx) || cu_peer_linked(sctx, dctx))) {
		struct cu_point done;

		side = cu_side_stream(s, cu_peer_linked(dctx, sctx) ? dctx :
									sctx);
		res = cu_peer_order(side, dctx, sctx);
		if (res == CUDA_SUCCESS)
			res = cu_copy_dma(side, dst, src, size, NULL, &done);
		if (res == CUDA_SUCCESS)
			res = cu_point_wait(side->ctx, &done);
		return res;
	}
	if (dctx && sctx && dctx != sctx)
		return cu_copy_staged_peer(cu_side_stream(s, dctx), dst,
					   cu_side_stream(s, sctx), src, size);
	/* One context's memory and host memory (or its own): its engine. */
	side = cu_side_stream(s, dctx ? dctx : sctx);
	res = cu_copy(side, dst, src, size, true);
	/* A copy from pageable memory returns once staged: wait it out. */
	if (res == CUDA_SUCCESS)
		res = cu_stream_sync(side);
	return res;
}

/*
 * A box with a side in another context.  One context's memory and host
 * memory: that context's copy engine does the whole box.  Two contexts'
 * memory: the source's context packs the box into a contiguous buffer of
 * its VRAM, one staged copy takes that to a buffer in the destination's
 * VRAM, and the destination's context unpacks it - three operations and
 * one staged copy instead of a staged copy per row.
 */
CUresult cu_box_across(struct cu_stream *s, const struct cu_copy_box *b,
		       struct cu_ctx *dctx, struct cu_ctx *sctx)
{
	size_t bytes = b->width * b->height * b->depth;
	struct cu_copy_box pack = *b, unpack = *b;
	CUdeviceptr packed_s = 0, packed_d = 0;
	struct cu_stream *side;
	CUresult res = cu_across_begin(s, dctx, sctx);

	if (res != CUDA_SUCCESS)
		return res;
	/* Peer access from one side to the other: that side's engine. */
	if (dctx && sctx && dctx != sctx &&
	    (cu_peer_linked(sctx, dctx) || cu_peer_linked(dctx, sctx))) {
		side = cu_side_stream(s, cu_peer_linked(sctx, dctx) ? sctx :
								      dctx);
		res = cu_peer_order(side, dctx, sctx);
		if (res == CUDA_SUCCESS)
			res = cu_copy_box(side, b, true);
		return res;
	}
	if (!dctx || !sctx || dctx == sctx) {
		side = cu_side_stream(s, dctx ? dctx : sctx);
		res = cu_copy_box(side, b, true);
		if (res == CUDA_SUCCESS)
			res = cu_stream_sync(side);
		return res;
	}
	pack.dst_pitch = unpack.src_pitch = b->width;
	pack.dst_slice = unpack.src_slice = b->width * b->height;
	res = cu_mem_device_alloc(sctx, bytes, &packed_s);
	if (res == CUDA_SUCCESS)
		res = cu_mem_device_alloc(dctx, bytes, &packed_d);
	pack.dst = packed_s;
	unpack.src = packed_d;
	if (res == CUDA_SUCCESS)
		res = cu_copy_box(cu_side_stream(s, sctx), &pack, false);
	if (res == CUDA_SUCCESS)
		res = cu_copy_staged_peer(cu_side_stream(s, dctx), packed_d,
					  cu_side_stream(s, sctx), packed_s,
					  bytes);
	if (res == CUDA_SUCCESS)
		res = cu_copy_box(cu_side_stream(s, dctx), &unpack, true);
	/* Freeing waits for the contexts' work, which includes the copies. */
	if (packed_s)
		cu_mem_device_free(sctx, packed_s);
	if (packed_d)
		cu_mem_device_free(dctx, packed_d);
	return res;
}

/* ---- the API --------------------------------------------------------------- */

/* [ptr, ptr + size) is device memory of context @ctx. */
static bool cu_peer_side_ok(CUdeviceptr ptr, size_t size, CUcontext ctx)
{
	struct cu_mem m;

	return cu_registry_find(ptr, &m) && m.kind == CU_MEM_DEVICE &&
	       m.ctx == (struct cu_ctx *)ctx && ptr + size >= ptr &&
	       ptr + size <= m.base + m.size;
}

static CUresult cu_memcpy_peer(CUdeviceptr dst, CUcontext dctx,
			       CUdeviceptr src, CUcontext sctx, size_t n,
			       CUstream h, bool async)
{
	struct cu_ctx *ctx;
	struct cu_stream *s;
	CUresult res = cu_stream_current(h, &ctx, &s);

	if (res != CUDA_SUCCESS)
		return res;
	if (!cu_ctx_valid((struct cu_ctx *)dctx) ||
	    !cu_ctx_valid((struct cu_ctx *)sctx))
		return CUDA_ERROR_INVALID_CONTEXT;
	if (!n)
		return CUDA_SUCCESS;
	if (!cu_peer_side_ok(dst, n, dctx) || !cu_peer_side_ok(src, n, sctx))
		return CUDA_ERROR_INVALID_VALUE;
	return cu_copy(s, dst, src, n, !async);
}

CU_EXPORT CUresult CUDAAPI cuMemcpyPeer(CUdeviceptr dstDevice,
					CUcontext dstContext,
					CUdeviceptr srcDevice,
					CUcontext srcContext, size_t ByteCount)
{
	return cu_memcpy_peer(dstDevice, dstContext, srcDevice, srcContext,
			      ByteCount, NULL, false);
}

CU_EXPORT CUresult CUDAAPI cuMemcpyPeerAsync(CUdeviceptr dstDevice,
					     CUcontext dstContext,
					     CUdeviceptr srcDevice,
					     CUcontext srcContext,
					     size_t ByteCount, CUstream hStream)
{
	return cu_memcpy_peer(dstDevice, dstContext, srcDevice, srcContext,
			      ByteCount, hStream, true);
}
