// SPDX-License-Identifier: GPL-2.0
/*
 * copy_3d.c - boxes of bytes between pitched buffers: cuMemcpy3D, and
 * the engine under cuMemcpy2D (copy_2d.c) too.
 *
 * A box is @depth slices of @height rows of @width bytes.  On each side,
 * rows are a pitch apart and slices a slice pitch apart (pitch times the
 * rows a slice has there: CUDA_MEMCPY3D's srcHeight / dstHeight).  The
 * copy engine knows only linear COPY packets, so a box becomes one packet
 * per contiguous run, all in ONE stream operation (one set of waits, one
 * fence, one doorbell):
 *
 *   - rows that fill their pitch on both sides are contiguous: a slice is
 *     one run;
 *   - such slices that also fill their slice pitch on both sides make the
 *     whole box one run (one ordinary copy);
 *   - otherwise one run per row.
 *
 * That is the DMA case: both sides are device memory of the stream's
 * context or pinned host memory its device reaches.  When the host side
 * is pageable, the runs are packed into the bounce buffers (copy.c): as
 * many whole runs as fit in a 1 MiB buffer are one operation, one packet
 * per run between the buffer and the device side.  Otherwise (runs
 * larger than a buffer, both sides on the host) each run is an ordinary
 * copy (copy.c), which stages or memcpy()s it as a linear copy would.  A
 * box with a side in another context's memory is handed whole to that
 * context (copy_peer.c).
 *
 * A box with a CUDA array (CU_MEMORYTYPE_ARRAY) on a side is the copy
 * engine's block-linear conversion instead: copy_array.c.
 */
#include <string.h>

#include "array.h"
#include "cuda_internal.h"

/* Fold runs that are contiguous on both sides into longer ones. */
static void cu_box_fold(struct cu_copy_box *b)
{
	if (b->height == 1)
		b->src_pitch = b->dst_pitch = b->width;
	if (b->src_pitch == b->width && b->dst_pitch == b->width) {
		b->width *= b->height;
		b->height = 1;
		b->src_pitch = b->dst_pitch = b->width;
	}
	if (b->depth == 1)
		b->src_slice = b->dst_slice = b->width * b->height;
	if (b->height == 1 && b->src_slice == b->width &&
	    b->dst_slice == b->width) {
		b->width *= b->depth;
		b->depth = 1;
		b->src_pitch = b->dst_pitch = b->width;
		b->src_slice = b->dst_slice = b->width;
	}
}

/* Bytes from the first to the last byte of one side, plus one; 0: overflow. */
static size_t cu_box_span(size_t pitch, size_t slice, const struct cu_copy_box *b)
{
	size_t rows, slices, span;

	if (__builtin_mul_overflow(b->height - 1, pitch, &rows) ||
	    __builtin_mul_overflow(b->depth - 1, slice, &slices) ||
	    __builtin_add_overflow(rows, slices, &span) ||
	    __builtin_add_overflow(span, b->width, &span))
		return 0;
	return span;
}

/*
 * Whether the copy engine of @s's context reaches both whole sides (no
 * side is another context's: cu_copy_box() handed those over).
 */
static bool cu_box_dma(struct cu_stream *s, const struct cu_copy_box *b,
		       size_t dspan, size_t sspan)
{
	enum cu_where wd, ws;
	bool ok;

	wd = cu_classify_for(s->ctx->dev, b->dst, dspan, &ok);
	ws = cu_classify_for(s->ctx->dev, b->src, sspan, &ok);
	return wd != CU_WHERE_PAGEABLE && ws != CU_WHERE_PAGEABLE &&
	       (wd == CU_WHERE_DEVICE || ws == CU_WHERE_DEVICE);
}

enum cu_box_staging { CU_BOX_NOT_STAGED, CU_BOX_STAGED_IN, CU_BOX_STAGED_OUT };

/*
 * Pageable host memory on one side, device memory of @s's context on the
 * other: the case the bounce buffers serve.
 */
static enum cu_box_staging cu_box_staged(struct cu_stream *s,
					 const struct cu_copy_box *b,
					 size_t dspan, size_t sspan)
{
	enum cu_where wd, ws;
	bool ok;

	wd = cu_classify_for(s->ctx->dev, b->dst, dspan, &ok);
	ws = cu_classify_for(s->ctx->dev, b->src, sspan, &ok);
	if (wd == CU_WHERE_DEVICE && ws == CU_WHERE_PAGEABLE)
		return CU_BOX_STAGED_IN;
	if (ws == CU_WHERE_DEVICE && wd == CU_WHERE_PAGEABLE)
		return CU_BOX_STAGED_OUT;
	return CU_BOX_NOT_STAGED;
}

/* All runs in one operation on the stream's copy queue. */
static CUresult cu_box_emit(struct cu_stream *s, const struct cu_copy_box *b,
			    bool sync)
{
	struct cu_point done;
	struct cu_op op;
	size_t y, z;
	CUresult res;
	int ret = 0;

	res = cu_op_begin(s, CU_ENGINE_COPY, NULL, &op);
	if (res != CUDA_SUCCESS)
		return res;
	for (z = 0; z < b->depth && !ret; z++)
		for (y = 0; y < b->height && !ret; y++) {
			cu_san_written(b->dst + z * b->dst_slice +
				       y * b->dst_pitch, b->width);
			ret = vgpu_emit_copy(op.queue->vq,
				b->dst + z * b->dst_slice + y * b->dst_pitch,
				b->src + z * b->src_slice + y * b->src_pitch,
				b->width, op.deadline);
		}
	if (ret) {
		cu_op_abort(&op, ret);
		return cu_from_errno(ret);
	}
	res = cu_op_end(&op, &done);
	if (res == CUDA_SUCCESS && sync)
		res = cu_point_wait(s->ctx, &done);
	return res;
}

/* Where run @k (row k % height of slice k / height) starts on a side. */
static uint64_t cu_run(const struct cu_copy_box *b, bool dst, size_t k)
{
	size_t y = k % b->height, z = k / b->height;

	return dst ? b->dst + z * b->dst_slice + y * b->dst_pitch :
		     b->src + z * b->src_slice + y * b->src_pitch;
}

/* Runs [k, k + n) between bounce buffer @buf and device-visible memory. */
static CUresult cu_runs_emit(struct cu_stream *s, const struct cu_copy_box *b,
			     size_t k, size_t n, uint64_t buf, bool to_device,
			     const struct cu_point *also, struct cu_point *done)
{
	struct cu_op op;
	CUresult res;
	size_t i;
	int ret = 0;

	res = cu_op_begin(s, CU_ENGINE_COPY, also, &op);
	if (res != CUDA_SUCCESS)
		return res;
	for (i = 0; i < n && !ret; i++) {
		uint64_t packed = buf + i * b->width;

		if (to_device)	/* vgpu-sanitizer's initcheck */
			cu_san_written(cu_run(b, true, k + i), b->width);
		ret = to_device ?
		      vgpu_emit_copy(op.queue->vq, cu_run(b, true, k + i),
				     packed, b->width, op.deadline) :
		      vgpu_emit_copy(op.queue->vq, packed,
				     cu_run(b, false, k + i), b->width,
				     op.deadline);
	}
	if (ret) {
		cu_op_abort(&op, ret);
		return cu_from_errno(ret);
	}
	return cu_op_end(&op, done);
}

/*
 * Pageable host -> device: the CPU packs runs into one buffer while the
 * copy engine scatters the other's.  Returns once all are staged, as a
 * linear copy from pageable memory does.
 */
static CUresult cu_box_staged_in(struct cu_stream *s,
				 const struct cu_copy_box *b)
{
	struct cu_ctx *ctx = s->ctx;
	size_t runs = b->height * b->depth, per = CU_STAGE_SIZE / b->width;
	size_t k, n, i;
	unsigned int buf = 0;
	CUresult res;

	pthread_mutex_lock(&ctx->stage_lock);
	res = cu_stage_get(ctx);
	for (k = 0; res == CUDA_SUCCESS && k < runs; k += n) {
		uint8_t *p = ctx->stage + (size_t)buf * CU_STAGE_SIZE;

		n = runs - k < per ? runs - k : per;
		/* The copy engine may still be reading this buffer. */
		res = cu_point_wait(ctx, &ctx->stage_busy[buf]);
		for (i = 0; res == CUDA_SUCCESS && i < n; i++)
			memcpy(p + i * b->width,
			       (const void *)(uintptr_t)cu_run(b, false, k + i),
			       b->width);
		if (res == CUDA_SUCCESS)
			res = cu_runs_emit(s, b, k, n, (uintptr_t)p, true, NULL,
					   &ctx->stage_busy[buf]);
		buf = (buf + 1) % CU_STAGE_BUFFERS;
	}
	pthread_mutex_unlock(&ctx->stage_lock);
	return res;
}

/*
 * Device -> pageable host: the copy engine gathers runs into one buffer
 * while the CPU unpacks the other's.
 */
static CUresult cu_box_staged_out(struct cu_stream *s,
				  const struct cu_copy_box *b)
{
	struct cu_ctx *ctx = s->ctx;
	size_t runs = b->height * b->depth, per = CU_STAGE_SIZE / b->width;
	size_t first[CU_STAGE_BUFFERS] = { 0 }, count[CU_STAGE_BUFFERS] = { 0 };
	size_t k = 0, i;
	unsigned int buf = 0, next;
	struct cu_point busy;
	CUresult res;

	pthread_mutex_lock(&ctx->stage_lock);
	res = cu_stage_get(ctx);
	while (res == CUDA_SUCCESS && (k < runs || count[buf])) {
		next = (buf + 1) % CU_STAGE_BUFFERS;
		/* Gather the next runs into the other buffer... */
		if (k < runs && !count[next]) {
			count[next] = runs - k < per ? runs - k : per;
			first[next] = k;
			/* ...after its previous user (maybe another stream). */
			busy = ctx->stage_busy[next];
			res = cu_runs_emit(s, b, k, count[next],
					   (uintptr_t)ctx->stage +
					   (size_t)next * CU_STAGE_SIZE, false,
					   &busy, &ctx->stage_busy[next]);
			k += count[next];
		}
		/* ...then unpack this one. */
		if (res == CUDA_SUCCESS && count[buf]) {
			uint8_t *p = ctx->stage + (size_t)buf * CU_STAGE_SIZE;

			res = cu_point_wait(ctx, &ctx->stage_busy[buf]);
			for (i = 0; res == CUDA_SUCCESS && i < count[buf]; i++)
				memcpy((void *)(uintptr_t)cu_run(b, true,
							first[buf] + i),
				       p + i * b->width, b->width);
			count[buf] = 0;
		}
		buf = next;
	}
	pthread_mutex_unlock(&ctx->stage_lock);
	return res;
}

/*
 * On a capturing stream an asynchronous box is one memcpy node of the
 * graph (stream_capture.c); the graph copies it with cuMemcpy2DAsync.
 */
static CUresult cu_box_capture(struct cu_stream *s,
			       const struct cu_copy_box *b, bool *recorded)
{
	CUDA_MEMCPY3D node = {
		.srcMemoryType = CU_MEMORYTYPE_UNIFIED,
		.srcDevice = b->src,
		.srcPitch = b->src_pitch,
		.srcHeight = b->src_pitch ? b->src_slice / b->src_pitch : 0,
		.dstMemoryType = CU_MEMORYTYPE_UNIFIED,
		.dstDevice = b->dst,
		.dstPitch = b->dst_pitch,
		.dstHeight = b->dst_pitch ? b->dst_slice / b->dst_pitch : 0,
		.WidthInBytes = b->width,
		.Height = b->height,
		.Depth = b->depth,
	};

	return cu_capture_op(s, CU_GRAPH_NODE_TYPE_MEMCPY, &node,
			     (CUcontext)s->ctx, recorded);
}

CUresult cu_copy_box(struct cu_stream *s, const struct cu_copy_box *box,
		     bool sync)
{
	struct cu_copy_box b = *box;
	struct cu_ctx *dctx, *sctx;
	size_t dspan, sspan, y, z;
	bool dok, sok, recorded = false;
	CUresult res = CUDA_SUCCESS;

	if (!b.width || !b.height || !b.depth)
		return CUDA_SUCCESS;
	cu_box_fold(&b);
	dspan = cu_box_span(b.dst_pitch, b.dst_slice, &b);
	sspan = cu_box_span(b.src_pitch, b.src_slice, &b);
	if (!dspan || !sspan || b.dst + dspan < b.dst || b.src + sspan < b.src)
		return CUDA_ERROR_INVALID_VALUE;
	/* The whole extent of each side must lie in one allocation. */
	cu_classify_for(s->ctx->dev, b.dst, dspan, &dok);
	cu_classify_for(s->ctx->dev, b.src, sspan, &sok);
	if (!dok || !sok)
		return CUDA_ERROR_INVALID_VALUE;
	res = sync ? cu_capture_forbid(s) : cu_box_capture(s, box, &recorded);
	if (res != CUDA_SUCCESS || recorded)
		return res;
	if (b.height == 1 && b.depth == 1)
		return cu_copy(s, b.dst, b.src, b.width, sync);
	dctx = cu_copy_owner(b.dst);
	sctx = cu_copy_owner(b.src);
	if ((dctx && dctx != s->ctx) || (sctx && sctx != s->ctx))
		return cu_box_across(s, &b, dctx, sctx);
	if (cu_box_dma(s, &b, dspan, sspan))
		return cu_box_emit(s, &b, sync);
	if (b.width <= CU_STAGE_SIZE) {
		switch (cu_box_staged(s, &b, dspan, sspan)) {
		case CU_BOX_STAGED_IN:
			return cu_box_staged_in(s, &b);
		case CU_BOX_STAGED_OUT:
			return cu_box_staged_out(s, &b);
		default:
			break;
		}
	}
	for (z = 0; z < b.depth && res == CUDA_SUCCESS; z++)
		for (y = 0; y < b.height && res == CUDA_SUCCESS; y++)
			res = cu_copy(s, b.dst + z * b.dst_slice + y * b.dst_pitch,
				      b.src + z * b.src_slice + y * b.src_pitch,
				      b.width, false);
	if (res == CUDA_SUCCESS && sync)
		res = cu_stream_sync(s);
	return res;
}

/* ---- cuMemcpy3D ------------------------------------------------------------ */

/*
 * The first byte of one side, @x bytes, @y rows and @z slices in; 0 for a
 * side that cannot be used (an unknown memory type, NULL).
 * A side declared device memory must be memory the device reaches.
 */
static uint64_t cu_3d_side(CUmemorytype type, const void *host,
			   CUdeviceptr dev, size_t x, size_t y, size_t z,
			   size_t pitch, size_t slice)
{
	uint64_t base, off, row;
	bool ok;

	switch (type) {
	case CU_MEMORYTYPE_HOST:
		base = (uintptr_t)host;
		break;
	case CU_MEMORYTYPE_DEVICE:
		base = dev;
		if (base && cu_classify(base, 0, &ok) == CU_WHERE_PAGEABLE)
			return 0;
		break;
	case CU_MEMORYTYPE_UNIFIED:
		base = dev;
		break;
	default:
		return 0;	/* unknown memory types */
	}
	if (!base || __builtin_mul_overflow(z, slice, &off) ||
	    __builtin_mul_overflow(y, pitch, &row) ||
	    __builtin_add_overflow(off, row, &off) ||
	    __builtin_add_overflow(off, x, &off) ||
	    __builtin_add_overflow(base, off, &base))
		return 0;
	return base;
}

/*
 * The checks of CUDA_MEMCPY3D that do not depend on the pointers.  A
 * mipmap level (srcLOD, dstLOD) means something only for an array side;
 * on any other side NVIDIA's driver ignores it (recorded on an H100:
 * probe_capture.h100.txt).  Array sides never come here.
 */
static bool cu_3d_shape_ok(const CUDA_MEMCPY3D *c)
{
	if (c->reserved0 || c->reserved1)
		return false;
	/* A pitch must hold a row, a slice must hold the box's rows. */
	if ((c->Height > 1 || c->Depth > 1) &&
	    (c->srcPitch < c->WidthInBytes + c->srcXInBytes ||
	     c->dstPitch < c->WidthInBytes + c->dstXInBytes ||
	     c->WidthInBytes + c->srcXInBytes < c->WidthInBytes ||
	     c->WidthInBytes + c->dstXInBytes < c->WidthInBytes))
		return false;
	if (c->Depth > 1 && (c->srcHeight < c->Height + c->srcY ||
			     c->dstHeight < c->Height + c->dstY))
		return false;
	return true;
}

static CUresult cu_memcpy_3d(const CUDA_MEMCPY3D *c, CUstream h, bool async)
{
	struct cu_copy_box b;
	struct cu_ctx *ctx;
	struct cu_stream *s;
	CUresult res = cu_stream_current(h, &ctx, &s);

	if (res != CUDA_SUCCESS)
		return res;
	if (c && (c->srcMemoryType == CU_MEMORYTYPE_ARRAY ||
		  c->dstMemoryType == CU_MEMORYTYPE_ARRAY))
		return cu_memcpy_3d_array(s, c, !async);
	if (!c || !cu_3d_shape_ok(c))
		return CUDA_ERROR_INVALID_VALUE;
	if (!c->WidthInBytes || !c->Height || !c->Depth)
		return CUDA_SUCCESS;
	if (__builtin_mul_overflow(c->srcPitch, c->srcHeight, &b.src_slice) ||
	    __builtin_mul_overflow(c->dstPitch, c->dstHeight, &b.dst_slice))
		return CUDA_ERROR_INVALID_VALUE;
	b.src = cu_3d_side(c->srcMemoryType, c->srcHost, c->srcDevice,
			   c->srcXInBytes, c->srcY, c->srcZ, c->srcPitch,
			   b.src_slice);
	b.dst = cu_3d_side(c->dstMemoryType, c->dstHost, c->dstDevice,
			   c->dstXInBytes, c->dstY, c->dstZ, c->dstPitch,
			   b.dst_slice);
	if (!b.src || !b.dst)
		return CUDA_ERROR_INVALID_VALUE;
	b.src_pitch = c->srcPitch;
	b.dst_pitch = c->dstPitch;
	b.width = c->WidthInBytes;
	b.height = c->Height;
	b.depth = c->Depth;
	return cu_copy_box(s, &b, !async);
}

CU_EXPORT CUresult CUDAAPI cuMemcpy3D(const CUDA_MEMCPY3D *pCopy)
{
	return cu_memcpy_3d(pCopy, NULL, false);
}

CU_EXPORT CUresult CUDAAPI cuMemcpy3DAsync(const CUDA_MEMCPY3D *pCopy,
					   CUstream hStream)
{
	return cu_memcpy_3d(pCopy, hStream, true);
}

/* ---- cuMemcpy3DPeer ------------------------------------------------------- */

/* A side of a peer copy: device memory must be the named context's. */
static bool cu_3d_peer_side_ok(CUmemorytype type, CUdeviceptr dev,
			       CUcontext ctx)
{
	struct cu_ctx *owner;

	if (!cu_ctx_valid((struct cu_ctx *)ctx))
		return false;
	if (type != CU_MEMORYTYPE_DEVICE)
		return true;
	owner = cu_copy_owner(dev);
	return owner == (struct cu_ctx *)ctx;
}

static CUresult cu_memcpy_3d_peer(const CUDA_MEMCPY3D_PEER *p, CUstream h,
				  bool async)
{
	CUDA_MEMCPY3D c;

	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	if (!cu_ctx_valid((struct cu_ctx *)p->srcContext) ||
	    !cu_ctx_valid((struct cu_ctx *)p->dstContext))
		return CUDA_ERROR_INVALID_CONTEXT;
	if (!cu_3d_peer_side_ok(p->srcMemoryType, p->srcDevice,
				p->srcContext) ||
	    !cu_3d_peer_side_ok(p->dstMemoryType, p->dstDevice,
				p->dstContext))
		return CUDA_ERROR_INVALID_VALUE;
	/* The same box without the contexts: pointers say where they are. */
	c = (CUDA_MEMCPY3D) {
		.srcXInBytes = p->srcXInBytes, .srcY = p->srcY,
		.srcZ = p->srcZ, .srcLOD = p->srcLOD,
		.srcMemoryType = p->srcMemoryType, .srcHost = p->srcHost,
		.srcDevice = p->srcDevice, .srcArray = p->srcArray,
		.srcPitch = p->srcPitch, .srcHeight = p->srcHeight,
		.dstXInBytes = p->dstXInBytes, .dstY = p->dstY,
		.dstZ = p->dstZ, .dstLOD = p->dstLOD,
		.dstMemoryType = p->dstMemoryType, .dstHost = p->dstHost,
		.dstDevice = p->dstDevice, .dstArray = p->dstArray,
		.dstPitch = p->dstPitch, .dstHeight = p->dstHeight,
		.WidthInBytes = p->WidthInBytes, .Height = p->Height,
		.Depth = p->Depth,
	};
	return cu_memcpy_3d(&c, h, async);
}

CU_EXPORT CUresult CUDAAPI cuMemcpy3DPeer(const CUDA_MEMCPY3D_PEER *pCopy)
{
	return cu_memcpy_3d_peer(pCopy, NULL, false);
}

CU_EXPORT CUresult CUDAAPI cuMemcpy3DPeerAsync(const CUDA_MEMCPY3D_PEER *pCopy,
					       CUstream hStream)
{
	return cu_memcpy_3d_peer(pCopy, hStream, true);
}
