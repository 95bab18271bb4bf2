// SPDX-License-Identifier: GPL-2.0
/*
 * copy.c - memory copies, in every direction.
 *
 * What a copy becomes depends on where its two sides are:
 *
 *  - both reachable by the device (VRAM, or pinned host memory in the
 *    GART): one COPY packet on the stream's copy queue.  The copy engine
 *    does the work - true DMA, nothing for the CPU to do;
 *  - one side pageable (plain malloc memory, which the device cannot
 *    reach): staged through two pinned bounce buffers, in chunks, so
 *    that the CPU fills (or drains) one buffer while the copy engine
 *    works on the other - the pipeline NVIDIA's driver uses;
 *  - both on the host: after the stream's earlier work, memcpy();
 *  - one side in device memory of another context (another device):
 *    that context's copy engine does it (copy_peer.c).
 */
#include <string.h>

#include "cuda_internal.h"

/*
 * Where [ptr, ptr + size) is, as seen from device @d (NULL: any device).
 * Pinned memory that @d cannot reach (registered with another device and
 * not portable) is pageable as far as @d's copy engine is concerned.
 */
enum cu_where cu_classify_for(const struct cu_device *d, uint64_t ptr,
			      size_t size, bool *in_range)
{
	struct cu_mem m;

	*in_range = true;
	if (!cu_registry_find(ptr, &m)) {
		/* Inside the device range but no allocation: wild. */
		if (cu_va_contains(ptr))
			*in_range = false;
		return cu_va_contains(ptr) ? CU_WHERE_DEVICE : CU_WHERE_PAGEABLE;
	}
	if (ptr + size > m.base + m.size || ptr + size < ptr)
		*in_range = m.vmm && cu_vmm_covers(ptr, size);
	if (m.kind == CU_MEM_DEVICE)
		return CU_WHERE_DEVICE;
	return !d || cu_host_reachable(&m, d) ? CU_WHERE_PINNED :
						CU_WHERE_PAGEABLE;
}

enum cu_where cu_classify(uint64_t ptr, size_t size, bool *in_range)
{
	return cu_classify_for(NULL, ptr, size, in_range);
}

/*
 * Both sides device-visible: one DMA operation, after @also if not NULL
 * (the last user of a bounce buffer, which may be on another queue).
 */
CUresult cu_copy_dma(struct cu_stream *s, uint64_t dst, uint64_t src,
			    size_t size, const struct cu_point *also,
			    struct cu_point *done)
{
	struct cu_op op;
	CUresult res;
	int ret;

	res = cu_op_begin(s, CU_ENGINE_COPY, also, &op);
	if (res != CUDA_SUCCESS)
		return res;
	cu_san_written(dst, size);	/* vgpu-sanitizer's initcheck */
	ret = vgpu_emit_copy(op.queue->vq, dst, src, size, op.deadline);
	if (ret) {
		cu_op_abort(&op, ret);
		return cu_from_errno(ret);
	}
	return cu_op_end(&op, done);
}

CUresult cu_stage_get(struct cu_ctx *ctx)
{
	void *p;
	CUresult res;

	if (ctx->stage)
		return CUDA_SUCCESS;
	res = cu_mem_internal_host(ctx, (size_t)CU_STAGE_BUFFERS * CU_STAGE_SIZE,
				   &ctx->stage_handle, &p);
	if (res == CUDA_SUCCESS)
		ctx->stage = p;
	return res;
}

/* Pageable host -> device-visible memory, pipelined through the stage. */
static CUresult cu_copy_staged_in(struct cu_stream *s, uint64_t dst,
				  const uint8_t *src, size_t size)
{
	struct cu_ctx *ctx = s->ctx;
	CUresult res;
	size_t off, n;
	unsigned int b = 0;

	pthread_mutex_lock(&ctx->stage_lock);
	res = cu_stage_get(ctx);
	for (off = 0; res == CUDA_SUCCESS && off < size; off += n) {
		uint8_t *buf = ctx->stage + (size_t)b * CU_STAGE_SIZE;

		n = size - off < CU_STAGE_SIZE ? size - off : CU_STAGE_SIZE;
		/* The copy engine may still be reading this buffer. */
		res = cu_point_wait(ctx, &ctx->stage_busy[b]);
		if (res != CUDA_SUCCESS)
			break;
		memcpy(buf, src + off, n);
		res = cu_copy_dma(s, dst + off, (uintptr_t)buf, n, NULL,
				  &ctx->stage_busy[b]);
		b = (b + 1) % CU_STAGE_BUFFERS;
	}
	pthread_mutex_unlock(&ctx->stage_lock);
	return res;
}

/* Device-visible memory -> pageable host, pipelined through the stage. */
static CUresult cu_copy_staged_out(struct cu_stream *s, uint8_t *dst,
				   uint64_t src, size_t size)
{
	struct cu_ctx *ctx = s->ctx;
	size_t chunk_off[CU_STAGE_BUFFERS], chunk_len[CU_STAGE_BUFFERS];
	size_t issued = 0, drained = 0;
	struct cu_point busy;
	unsigned int b;
	CUresult res;

	pthread_mutex_lock(&ctx->stage_lock);
	res = cu_stage_get(ctx);
	while (res == CUDA_SUCCESS && drained < size) {
		/* Keep every buffer busy, then empty the oldest. */
		for (b = 0; b < CU_STAGE_BUFFERS && issued < size; b++) {
			unsigned int i = (unsigned int)
				((issued / CU_STAGE_SIZE) % CU_STAGE_BUFFERS);
			size_t n = size - issued < CU_STAGE_SIZE ?
				   size - issued : CU_STAGE_SIZE;

			if (issued - drained >= (size_t)CU_STAGE_BUFFERS *
						CU_STAGE_SIZE)
				break;
			chunk_off[i] = issued;
			chunk_len[i] = n;
			/*
			 * The buffer's previous user may be a copy of another
			 * stream still reading it: the device waits for it.
			 */
			busy = ctx->stage_busy[i];
			res = cu_copy_dma(s, (uintptr_t)ctx->stage +
					  (size_t)i * CU_STAGE_SIZE,
					  src + issued, n, &busy,
					  &ctx->stage_busy[i]);
			if (res != CUDA_SUCCESS)
				break;
			issued += n;
		}
		if (res != CUDA_SUCCESS)
			break;
		b = (unsigned int)((drained / CU_STAGE_SIZE) % CU_STAGE_BUFFERS);
		res = cu_point_wait(ctx, &ctx->stage_busy[b]);
		if (res != CUDA_SUCCESS)
			break;
		memcpy(dst + chunk_off[b],
		       ctx->stage + (size_t)b * CU_STAGE_SIZE, chunk_len[b]);
		drained += chunk_len[b];
	}
	pthread_mutex_unlock(&ctx->stage_lock);
	return res;
}

/* An asynchronous copy on a capturing stream becomes a memcpy node. */
static CUresult cu_copy_capture(struct cu_stream *s, uint64_t dst,
				uint64_t src, size_t size, bool *recorded)
{
	CUDA_MEMCPY3D node = {
		.srcMemoryType = CU_MEMORYTYPE_UNIFIED,
		.srcDevice = src,
		.dstMemoryType = CU_MEMORYTYPE_UNIFIED,
		.dstDevice = dst,
		.WidthInBytes = size,
		.Height = 1,
		.Depth = 1,
	};

	return cu_capture_op(s, CU_GRAPH_NODE_TYPE_MEMCPY, &node,
			     (CUcontext)s->ctx, recorded);
}

CUresult cu_copy(struct cu_stream *s, uint64_t dst, uint64_t src,
		 size_t size, bool sync)
{
	bool dok, sok;
	enum cu_where wd = cu_classify_for(s->ctx->dev, dst, size, &dok);
	enum cu_where ws = cu_classify_for(s->ctx->dev, src, size, &sok);
	struct cu_ctx *dctx = cu_copy_owner(dst), *sctx = cu_copy_owner(src);
	struct cu_point done;
	bool recorded = false;
	CUresult res;

	if (!dok || !sok)
		return CUDA_ERROR_INVALID_VALUE;
	res = sync ? cu_capture_forbid(s) :
	      cu_copy_capture(s, dst, src, size, &recorded);
	if (res != CUDA_SUCCESS || recorded)
		return res;
	/* Device memory of another context: not in this address space. */
	if ((dctx && dctx != s->ctx) || (sctx && sctx != s->ctx))
		return cu_copy_across(s, dst, dctx, src, sctx, size);
	if (wd != CU_WHERE_PAGEABLE && ws != CU_WHERE_PAGEABLE &&
	    (wd == CU_WHERE_DEVICE || ws == CU_WHERE_DEVICE)) {
		res = cu_copy_dma(s, dst, src, size, NULL, &done);
		if (res == CUDA_SUCCESS && sync)
			res = cu_point_wait(s->ctx, &done);
		return res;
	}
	if (wd == CU_WHERE_DEVICE)
		return cu_copy_staged_in(s, dst, (const void *)(uintptr_t)src,
					 size);
	if (ws == CU_WHERE_DEVICE)
		return cu_copy_staged_out(s, (void *)(uintptr_t)dst, src, size);
	/* Host to host: in stream order, by the CPU. */
	res = cu_stream_sync(s);
	if (res == CUDA_SUCCESS)
		memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src,
			size);
	return res;
}

CUresult cu_copy_from_host(struct cu_ctx *ctx, uint64_t dst, const void *src,
			   size_t size)
{
	CUresult res = cu_copy_staged_in(&ctx->null_stream, dst, src, size);

	if (res == CUDA_SUCCESS)
		res = cu_stream_sync(&ctx->null_stream);
	return res;
}

/* ---- the API --------------------------------------------------------------- */

enum cu_dir { CU_DIR_ANY, CU_DIR_HTOD, CU_DIR_DTOH, CU_DIR_DTOD };

static bool cu_device_visible(uint64_t p)
{
	bool ok;

	return cu_classify(p, 0, &ok) != CU_WHERE_PAGEABLE;
}

/* cu_copy(), and its line for vgpu-prof when profiling (profile.c). */
static CUresult cu_memcpy_profiled(struct cu_stream *s, uint64_t dst,
				   uint64_t src, size_t n, bool sync)
{
	uint64_t start = cu_prof_copy_begin();
	bool ok;
	bool dd = cu_classify(dst, 0, &ok) == CU_WHERE_DEVICE;
	bool sd = cu_classify(src, 0, &ok) == CU_WHERE_DEVICE;

	return cu_prof_copy_end(s, dd ? (sd ? "DtoD" : "HtoD") :
				(sd ? "DtoH" : "HtoH"), n, start,
				cu_copy(s, dst, src, n, sync));
}

static CUresult cu_memcpy_api(uint64_t dst, uint64_t src, size_t n,
			      CUstream h, bool async, enum cu_dir dir)
{
	struct cu_ctx *ctx;
	struct cu_stream *s;
	/* Refused inside a host function, as on an H100 (host_func.c). */
	CUresult res = cu_host_func_forbid();

	if (res == CUDA_SUCCESS)
		res = cu_stream_current(h, &ctx, &s);
	if (res != CUDA_SUCCESS)
		return res;
	if (!n)
		return CUDA_SUCCESS;
	if (!dst || !src)
		return CUDA_ERROR_INVALID_VALUE;
	/*
	 * Measured: a declared device side must be memory the device can
	 * reach - device memory, or pinned host memory (unified
	 * addressing) - not pageable memory.  A declared host side may be
	 * anything.
	 */
	if ((dir == CU_DIR_HTOD || dir == CU_DIR_DTOD) && !cu_device_visible(dst))
		return CUDA_ERROR_INVALID_VALUE;
	if ((dir == CU_DIR_DTOH || dir == CU_DIR_DTOD) && !cu_device_visible(src))
		return CUDA_ERROR_INVALID_VALUE;
	return cu_memcpy_profiled(s, dst, src, n, !async);
}

CU_EXPORT CUresult CUDAAPI cuMemcpy(CUdeviceptr dst, CUdeviceptr src,
				    size_t ByteCount)
{
	return cu_memcpy_api(dst, src, ByteCount, NULL, false, CU_DIR_ANY);
}

CU_EXPORT CUresult CUDAAPI cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src,
					 size_t ByteCount, CUstream hStream)
{
	return cu_memcpy_api(dst, src, ByteCount, hStream, true, CU_DIR_ANY);
}

CU_EXPORT CUresult CUDAAPI cuMemcpyHtoD(CUdeviceptr dstDevice,
					const void *srcHost, size_t ByteCount)
{
	return cu_memcpy_api(dstDevice, (uintptr_t)srcHost, ByteCount, NULL,
			     false, CU_DIR_HTOD);
}

CU_EXPORT CUresult CUDAAPI cuMemcpyDtoH(void *dstHost, CUdeviceptr srcDevice,
					size_t ByteCount)
{
	return cu_memcpy_api((uintptr_t)dstHost, srcDevice, ByteCount, NULL,
			     false, CU_DIR_DTOH);
}

CU_EXPORT CUresult CUDAAPI cuMemcpyDtoD(CUdeviceptr dstDevice,
					CUdeviceptr srcDevice,
					size_t ByteCount)
{
	return cu_memcpy_api(dstDevice, srcDevice, ByteCount, NULL, true,
			     CU_DIR_DTOD);
}

CU_EXPORT CUresult CUDAAPI cuMemcpyHtoDAsync(CUdeviceptr dstDevice,
					     const void *srcHost,
					     size_t ByteCount,
					     CUstream hStream)
{
	return cu_memcpy_api(dstDevice, (uintptr_t)srcHost, ByteCount,
			     hStream, true, CU_DIR_HTOD);
}

CU_EXPORT CUresult CUDAAPI cuMemcpyDtoHAsync(void *dstHost,
					     CUdeviceptr srcDevice,
					     size_t ByteCount,
					     CUstream hStream)
{
	return cu_memcpy_api((uintptr_t)dstHost, srcDevice, ByteCount,
			     hStream, true, CU_DIR_DTOH);
}

CU_EXPORT CUresult CUDAAPI cuMemcpyDtoDAsync(CUdeviceptr dstDevice,
					     CUdeviceptr srcDevice,
					     size_t ByteCount,
					     CUstream hStream)
{
	return cu_memcpy_api(dstDevice, srcDevice, ByteCount, hStream, true,
			     CU_DIR_DTOD);
}
