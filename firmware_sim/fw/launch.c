// SPDX-License-Identifier: GPL-2.0
/*
 * launch.c - the GR engine's LAUNCH packet (payload: include/vgpu_launch.h).
 *
 * The vISA image is read out of device memory through the context's MMU,
 * validated by the execution core, and cached per context under
 * (code_va, image_size, image_id), so a program launched a thousand times
 * is read and validated once.  The cache holds the firmware's own copy:
 * what the client writes to device memory later cannot change what runs.
 * A TLB_FLUSH (an unmap) empties the context's cache, because the image's
 * memory may now hold something else.
 *
 * The GR engine does not wait for the grid: fw_launch() submits it to the
 * execution core and the queue stays at its LAUNCH packet (stream order)
 * while the engine serves its other queues.  The core's completion
 * callback, on an SM thread, only records the result and wakes the
 * engine; the engine then finishes the packet (fw_launch_finish()):
 * advances the queue, or reports the fault as a synchronous launch did.
 * A running grid holds its cached image (fw_image.users), so a TLB_FLUSH
 * that empties the cache meanwhile retires the image instead of freeing
 * it under the grid.
 *
 * The event thread stops the grids of a context the driver orders
 * stopped (vgpu_core_stop_ctx(); device.c).  A launch checks the
 * context's stopped flag again after submitting, so an order that comes
 * between the check and the submission is not missed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fw.h"
#include "log.h"
#include "mmu.h"
#include "vgpu_core.h"
#include "vgpu_launch.h"
#include "counters.h"
#include "sanitizer.h"

#define FW_IMAGE_CACHE_MAX	32

struct fw_image {
	uint64_t code_va;
	uint64_t size;
	uint64_t id;
	struct vgpu_module *mod;
	unsigned int users;		/* grids in flight that run it */
	bool retired;			/* out of the cache */
	struct fw_image *next;
};

static void image_free(struct fw_image *img)
{
	vgpu_core_module_unload(img->mod);
	free(img);
}

/* Take @img out of the cache: free it, or retire it while grids use it. */
static void image_drop(struct fw_ctx *ctx, struct fw_image *img)
{
	if (!img->users) {
		image_free(img);
		return;
	}
	img->retired = true;
	img->next = ctx->retired_images;
	ctx->retired_images = img;
}

/* Empty the cache (a TLB_FLUSH: the images' memory may hold new code). */
void fw_images_free(struct fw_ctx *ctx)
{
	struct fw_image *img, *next;

	for (img = ctx->images; img; img = next) {
		next = img->next;
		image_drop(ctx, img);
	}
	ctx->images = NULL;
}

/* The context's last reference is gone: no grid of it can run. */
void fw_images_destroy(struct fw_ctx *ctx)
{
	struct fw_image *img, *next;

	fw_images_free(ctx);
	for (img = ctx->retired_images; img; img = next) {
		next = img->next;
		image_free(img);
	}
	ctx->retired_images = NULL;
}

/* A grid that ran @img ended. */
static void image_put(struct fw_ctx *ctx, struct fw_image *img)
{
	struct fw_image **link;

	if (--img->users || !img->retired)
		return;
	for (link = &ctx->retired_images; *link; link = &(*link)->next) {
		if (*link == img) {
			*link = img->next;
			image_free(img);
			return;
		}
	}
}

/* Find the image or read, validate and cache it.  0 or a VGPU_FAULT_*. */
static int get_image(struct fw_queue *q, const struct vgpu_pkt_launch *p,
		     const struct vgpu_launch_v1 *v1, struct fw_image **out,
		     struct vgpu_fault *fault)
{
	struct fw_ctx *ctx = q->ctx;
	unsigned int gen = atomic_load(&ctx->flush_gen), n = 0;
	struct fw_image *img, **link;
	uint64_t fault_va = 0;
	char err[256];
	void *bytes;
	int kind;

	if (ctx->images_gen != gen) {
		fw_images_free(ctx);
		ctx->images_gen = gen;
	}
	for (link = &ctx->images; (img = *link); link = &img->next, n++) {
		if (img->code_va == p->code_va && img->size == v1->image_size &&
		    img->id == v1->image_id) {
			/* Most recently used first. */
			*link = img->next;
			img->next = ctx->images;
			ctx->images = img;
			*out = img;
			return 0;
		}
	}

	bytes = malloc(v1->image_size);
	img = calloc(1, sizeof(*img));
	if (!bytes || !img) {
		free(bytes);
		free(img);
		fw_log_err("out of memory for a %llu-byte image",
			   (unsigned long long)v1->image_size);
		return VGPU_FAULT_ILLEGAL_INSTRUCTION;
	}
	kind = fw_mem_read(ctx, p->code_va, bytes, v1->image_size, &fault_va);
	fault->va = fault_va;
	if (!kind && vgpu_core_module_load(bytes, v1->image_size, &img->mod,
					   err, sizeof(err))) {
		fw_log_warn("%s: context %u: image at 0x%llx rejected: %s",
			    ctx->dev->path, ctx->id,
			    (unsigned long long)p->code_va, err);
		kind = VGPU_FAULT_ILLEGAL_INSTRUCTION;
	}
	free(bytes);
	if (kind) {
		free(img);
		return kind;
	}
	img->code_va = p->code_va;
	img->size = v1->image_size;
	img->id = v1->image_id;
	img->next = ctx->images;
	ctx->images = img;
	*out = img;

	/* Keep the cache bounded: drop the least recently used. */
	if (n + 1 > FW_IMAGE_CACHE_MAX) {
		for (link = &ctx->images; (*link)->next; link = &(*link)->next)
			;
		image_drop(ctx, *link);
		*link = NULL;
	}
	return 0;
}

static bool all_zero(const void *p, size_t len)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < len; i++)
		if (b[i])
			return false;
	return true;
}

/*
 * The cooperative flag and its workspace go together; a cluster shape is
 * all zero or divides the grid, with at most VGPU_LAUNCH_MAX_CLUSTER
 * blocks (include/vgpu_launch.h, "Cooperative grids and clusters").
 */
static bool launch_coop_ok(const struct vgpu_pkt_launch *p,
			   const struct vgpu_launch_v1 *v1)
{
	const uint8_t *c = v1->cluster_dim;
	bool coop = v1->flags & VGPU_LAUNCH_F_COOPERATIVE;

	if (coop != !!v1->grid_sync_va || (v1->grid_sync_va & 7))
		return false;
	if (!c[0] && !c[1] && !c[2])
		return true;
	if (!c[0] || !c[1] || !c[2] ||
	    c[0] * c[1] * c[2] > VGPU_LAUNCH_MAX_CLUSTER)
		return false;
	for (int i = 0; i < 3; i++)
		if (p->grid[i] % c[i])
			return false;
	return true;
}

/* Check the fixed part and the payload; false: malformed packet. */
static bool launch_packet_ok(const struct vgpu_pkt_launch *p, uint32_t size,
			     const struct vgpu_launch_v1 *v1)
{
	uint32_t payload = size - sizeof(*p), params_end;
	bool inline_params = v1->flags & VGPU_LAUNCH_F_INLINE_PARAMS;

	if (p->isa_version != VGPU_LAUNCH_ISA_V1 ||
	    !all_zero(p->reserved, sizeof(p->reserved)) ||
	    payload < sizeof(*v1) || v1->flags & ~VGPU_LAUNCH_F_ALL ||
	    v1->reserved0 || v1->reserved1 ||
	    v1->priority < VGPU_LAUNCH_PRIO_HIGHEST ||
	    v1->priority > VGPU_LAUNCH_PRIO_LOWEST)
		return false;
	if (v1->image_size < sizeof(struct visa_image_header) ||
	    v1->image_size > VGPU_LAUNCH_MAX_IMAGE || !v1->image_id ||
	    v1->param_size > VGPU_LAUNCH_MAX_PARAMS)
		return false;
	if (v1->flags & VGPU_LAUNCH_F_COUNTERS ?
	    !v1->counters_va || (v1->counters_va & 7) ||
	    v1->counters_size < 8 :
	    v1->counters_va || v1->counters_size)
		return false;
	if (!v1->printf_fifo_va != !v1->printf_fifo_size ||
	    (v1->printf_fifo_size &&
	     v1->printf_fifo_size < sizeof(struct visa_printf_fifo)))
		return false;
	if (!launch_coop_ok(p, v1))
		return false;
	if (!inline_params)
		return payload == sizeof(*v1);
	/* Inline parameters, then zero padding to the packet's end. */
	params_end = sizeof(*v1) + v1->param_size;
	return !p->params_va && payload >= params_end &&
	       payload - params_end < 8 &&
	       all_zero((const uint8_t *)(v1 + 1) + v1->param_size,
			payload - params_end);
}

/* The driver's fault kind for the core's. */
static uint32_t fault_kind(uint32_t visa_kind)
{
	switch (visa_kind) {
	case VISA_FAULT_UNMAPPED:
		return VGPU_FAULT_MMU_UNMAPPED;
	case VISA_FAULT_OUT_OF_RANGE:
		return VGPU_FAULT_OUT_OF_RANGE;
	case VISA_FAULT_STACK_OVERFLOW:
		return VGPU_FAULT_STACK_OVERFLOW;
	case VISA_FAULT_PERMISSION:
		return VGPU_FAULT_MMU_PERMISSION;
	case VISA_FAULT_MISALIGNED:
		return VGPU_FAULT_MISALIGNED;
	case VISA_FAULT_TRAP:
	case VISA_FAULT_BREAKPOINT:	/* no debugger: a trap, as on hardware */
		return VGPU_FAULT_TRAP;
	case VISA_FAULT_ASSERT:
		return VGPU_FAULT_ASSERT;
	case VISA_FAULT_BARRIER_DEADLOCK:
		return VGPU_FAULT_BARRIER;
	case VISA_FAULT_OUT_OF_RESOURCES:
		return VGPU_FAULT_BAD_PACKET;
	case VISA_FAULT_TIMEOUT:
		return VGPU_FAULT_WATCHDOG;
	default:
		return VGPU_FAULT_ILLEGAL_INSTRUCTION;
	}
}

/*
 * The core's completion callback, on an SM thread: record, wake the
 * engine.  The queue may be freed as soon as grid_done is set, so the
 * engine pointer is read first.
 */
static void launch_done(void *arg, int result,
			const struct vgpu_core_fault *cf)
{
	struct fw_queue *q = arg;
	struct fw_engine *eng = q->eng;

	q->grid_result = result;
	q->grid_fault = *cf;
	if (q->counters_va) {
		q->grid_counters.start_ns = q->grid_start_ns;
		q->grid_counters.duration_ns = fw_counters_now_ns() -
					       q->grid_start_ns;
	}
	atomic_store_explicit(&q->grid_done, true, memory_order_release);
	fw_engine_wake(eng);
}

int fw_launch(struct fw_engine *eng, struct fw_queue *q, const void *pkt,
	      uint32_t size, struct vgpu_fault *fault)
{
	static _Atomic uint32_t grid_ids;
	const struct vgpu_pkt_launch *p = pkt;
	const struct vgpu_launch_v1 *v1 = (const void *)(p + 1);
	_Alignas(8) uint8_t params[VGPU_LAUNCH_MAX_PARAMS];
	struct fw_device *dev = q->ctx->dev;
	struct vgpu_core_launch l;
	struct vgpu_core_fault cf;
	struct fw_image *img;
	struct vgpu_module *mod;
	const struct visa_kernel *k;
	uint64_t fault_va = 0;
	int ret;

	(void)eng;
	if (!launch_packet_ok(p, size, v1)) {
		fault->kind = VGPU_FAULT_BAD_PACKET;
		return 1;
	}
	fault->kernel_va = p->code_va;
	fault->kind = get_image(q, p, v1, &img, fault);
	if (fault->kind)
		return 1;
	mod = img->mod;
	k = vgpu_core_module_kernel(mod, v1->kernel_index);
	if (!k) {
		fault->kind = VGPU_FAULT_ILLEGAL_INSTRUCTION;
		return 1;
	}
	snprintf(fault->kernel_name, sizeof(fault->kernel_name), "%s",
		 vgpu_core_module_string(mod, k->name));
	if (v1->flags & VGPU_LAUNCH_F_INLINE_PARAMS)
		memcpy(params, v1 + 1, v1->param_size);
	else if (v1->param_size)
		fault->kind = fw_mem_read(q->ctx, p->params_va, params,
					  v1->param_size, &fault_va);
	if (fault->kind) {
		fault->va = fault_va;
		return 1;
	}

	memset(&l, 0, sizeof(l));
	l.module = mod;
	l.kernel = v1->kernel_index;
	memcpy(l.grid, p->grid, sizeof(l.grid));
	memcpy(l.block, p->block, sizeof(l.block));
	l.dynamic_shared = p->shared_bytes;
	l.params = params;
	l.param_size = v1->param_size;
	l.local_size = v1->local_bytes;
	l.global_base = v1->global_base;
	l.const_base = v1->const_base;
	l.printf_fifo = v1->printf_fifo_va;
	l.translate = fw_mmu_core_translate;
	l.translate_ctx = q->ctx;
	l.grid_id = atomic_fetch_add(&grid_ids, 1) + 1;
	l.ctx_id = q->ctx->id;
	l.priority = v1->priority;
	l.cooperative = v1->flags & VGPU_LAUNCH_F_COOPERATIVE;
	l.grid_sync_va = v1->grid_sync_va;
	for (int i = 0; i < 3; i++)
		l.cluster[i] = v1->cluster_dim[i];
	l.exec_limit_us = 1000ull * atomic_load(&dev->exec_limit_ms);
	q->counters_va = 0;
	if (v1->flags & VGPU_LAUNCH_F_COUNTERS) {
		memset(&q->grid_counters, 0, sizeof(q->grid_counters));
		q->counters_va = v1->counters_va;
		q->counters_size = v1->counters_size;
		q->grid_start_ns = fw_counters_now_ns();
		l.counters = &q->grid_counters;
		if (fw_counters_policy(q, &l, fault) ||
		    fw_san_begin(q, &l, fault))
			return 1;
	}

	if (atomic_load(&q->ctx->stopped)) {
		fw_san_abandon(q);
		return -1;
	}
	q->grid_img = img;
	q->grid_id = l.grid_id;
	q->grid_pkt_size = size;
	q->launch_fault = *fault;
	atomic_store(&q->grid_done, false);
	img->users++;
	ret = vgpu_core_submit(dev->core, &l, launch_done, q, &cf);
	if (ret) {
		img->users--;
		fw_san_abandon(q);
		if (ret == -EAGAIN)
			return 2;	/* 128 grids active: try again */
		fw_log_warn("%s: context %u: launch of %s refused: %s",
			    dev->path, q->ctx->id, fault->kernel_name,
			    cf.message);
		fault->kind = fault_kind(cf.kind);
		return 1;
	}
	q->grid_inflight = true;
	/* A stop order that came after the check above finds the grid or
	 * is seen here (the core's lock orders the two). */
	if (atomic_load(&q->ctx->stopped))
		vgpu_core_stop_grid(dev->core, l.grid_id);
	return 0;
}

/* Forget the grid of @q without reporting it (the queue is going). */
void fw_launch_abandon(struct fw_queue *q)
{
	fw_san_abandon(q);
	if (!q->grid_inflight)
		return;
	image_put(q->ctx, q->grid_img);
	q->grid_img = NULL;
	q->grid_inflight = false;
}

/*
 * The grid of @q's LAUNCH has ended (grid_done): 0 when it completed, 1
 * with @fault filled when it faulted, -1 when it was stopped by a stop
 * order (the driver already knows).
 */
int fw_launch_finish(struct fw_queue *q, struct vgpu_fault *fault)
{
	const struct vgpu_core_fault *cf = &q->grid_fault;
	struct fw_ctx *ctx = q->ctx;

	struct vgpu_fault san_fault;
	/* the findings, also of a grid that faulted: they may explain it */
	int san = fw_san_finish(q, &san_fault);

	fw_launch_abandon(q);
	if (!q->grid_result) {
		if (san) {
			*fault = san_fault;
			return 1;
		}
		return fw_counters_write(q, fault);
	}
	if (cf->kind == VISA_FAULT_STOPPED)
		return -1;
	*fault = q->launch_fault;
	if (cf->message[0])
		fw_log_warn("%s: context %u: %s: %s:%u: %s", ctx->dev->path,
			    ctx->id, fault->kernel_name, cf->file, cf->line,
			    cf->message);
	fault->kind = fault_kind(cf->kind);
	fault->va = cf->address;
	fault->ptx_line = cf->line;
	fault->pc = cf->pc;
	memcpy(fault->block, cf->block, sizeof(fault->block));
	memcpy(fault->thread, cf->thread, sizeof(fault->thread));
	/* The assert's text is for the program's user; it prints it. */
	snprintf(fault->message, sizeof(fault->message), "%s", cf->message);
	return 1;
}
