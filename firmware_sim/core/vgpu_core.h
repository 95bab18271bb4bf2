/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgpu_core.h - the SIMT execution core: the GR engine's SMs.
 *
 * The core runs vISA images (include/vgpu_visa.h).  Its user (the firmware's
 * GR engine, or a native test) gives it:
 *
 *  - an address-translation callback: the core never touches global memory
 *    except through host pointers this callback returns (in the firmware it
 *    walks the driver's GPU page tables; in tests it is a small page table);
 *  - validated modules (vgpu_core_module_load() validates every image);
 *  - grids (vgpu_core_submit()), which join the core's set of active
 *    grids and run concurrently on the SM worker threads; a callback says
 *    when each has finished, faulted or was stopped.  vgpu_core_launch()
 *    is the synchronous form (submit and wait);
 *  - stop requests (vgpu_core_stop*()) from a watchdog or the firmware.
 *
 * How the SMs share out the grids (resident blocks, priorities, time
 * slices between contexts) is Documentation/scheduler.rst.
 *
 * Thread safety: every function may be called from any thread at any
 * time, except vgpu_core_destroy().  Completion callbacks run on an SM
 * worker thread and must not block for long.
 */
#ifndef VGPU_CORE_H
#define VGPU_CORE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vgpu_counters.h"
#include "vgpu_sanitizer.h"
#include "vgpu_l2.h"
#include "vgpu_visa.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Page permissions reported by the translate callback. */
#define VGPU_CORE_PERM_READ	(1u << 0)
#define VGPU_CORE_PERM_WRITE	(1u << 1)
/* Atomics (ATOM, RED) allowed; they also need READ and WRITE. */
#define VGPU_CORE_PERM_ATOMIC	(1u << 2)

/*
 * The result of one translation: the page that contains the address.
 * Pages are 64 KiB (VRAM) or 4 KiB (GART: pinned host memory); the core's
 * TLB caches whole pages of whatever size is returned.
 */
struct vgpu_core_page {
	uint64_t va;		/* GPU VA of the page start (size-aligned) */
	uint64_t size;		/* page size: a power of two, >= 4096 */
	void *host;		/* host address of the page start */
	uint32_t perm;		/* VGPU_CORE_PERM_* */
};

/*
 * Translate @va.  Return 0 and fill @page, or -1 if @va is not mapped.  It is
 * called from the SM worker threads concurrently, so it must be thread-safe.
 * Page tables may change while grids run (an unmap on another stream): the
 * user then calls vgpu_core_tlb_invalidate() and frees the memory only once
 * vgpu_core_tlb_synced() says no SM can still use an older translation.
 */
typedef int (*vgpu_core_translate_fn)(void *ctx, uint64_t va,
				      struct vgpu_core_page *page);

struct vgpu_core_config {
	unsigned int num_sms;		/* SM worker threads (>= 1) */
	uint32_t max_shared_per_block;	/* 0: 48 KiB + dynamic up to 228 KiB */
	uint32_t max_threads_per_block;	/* 0: 1024 */
	uint32_t timeslice_us;		/* time slice between contexts;
					 * 0: VGPU_CORE_TIMESLICE_US */
};

/* Default time slice of a context when others have grids to run. */
#define VGPU_CORE_TIMESLICE_US	2000u
/* Grids that may be active at once (an H100's concurrent kernels). */
#define VGPU_CORE_MAX_GRIDS	128u
/* Stream priorities a launch may carry: lower number, higher priority. */
#define VGPU_CORE_PRIO_HIGHEST	(-5)
#define VGPU_CORE_PRIO_LOWEST	0

struct vgpu_core;
struct vgpu_module;

/** Create a core with its SM worker threads.  NULL on failure (errno). */
struct vgpu_core *vgpu_core_create(const struct vgpu_core_config *cfg);
/**
 * vgpu_core_destroy() - stop every active grid (their callbacks run),
 * stop the workers and free everything.  Nothing may submit meanwhile.
 */
void vgpu_core_destroy(struct vgpu_core *core);
unsigned int vgpu_core_num_sms(const struct vgpu_core *core);

/**
 * vgpu_core_module_load() - validate an image and pre-decode it.
 * @image, @size: the vISA image (copied; the caller keeps its buffer)
 * @out:  on success the module
 * @err:  on failure a one-line reason ("instruction 12 of foo: ...")
 *
 * Return: 0, or -EINVAL (invalid image: nothing allocated), -ENOMEM.
 */
int vgpu_core_module_load(const void *image, size_t size,
			  struct vgpu_module **out, char *err, size_t errlen);
void vgpu_core_module_unload(struct vgpu_module *mod);

/* Kernel lookup and metadata (pointers stay valid while @mod is loaded). */
int vgpu_core_module_find_kernel(const struct vgpu_module *mod,
				 const char *name);
const struct visa_kernel *vgpu_core_module_kernel(const struct vgpu_module *m,
						  unsigned int index);
unsigned int vgpu_core_module_num_kernels(const struct vgpu_module *mod);
const char *vgpu_core_module_string(const struct vgpu_module *mod,
				    uint32_t offset);
const struct visa_image_header *
vgpu_core_module_header(const struct vgpu_module *mod);

/*
 * The first fault of a grid: precise to the instruction and thread.
 * Strings are NUL-terminated (truncated if longer).
 */
struct vgpu_core_fault {
	uint32_t kind;		/* enum visa_fault_kind */
	uint32_t kernel;	/* kernel index */
	uint64_t address;	/* faulting address (memory faults) */
	uint32_t block[3];	/* blockIdx */
	uint32_t thread[3];	/* threadIdx (first faulting lane) */
	uint32_t pc;		/* instruction index */
	uint32_t line;		/* PTX line of the instruction (0: unknown) */
	uint32_t column;	/* PTX column (0: unknown) */
	uint32_t assert_line;	/* __assertfail: the line argument */
	char file[128];		/* PTX file name of the instruction */
	char message[256];	/* human-readable detail; for asserts the
				 * message, file and function */
};

/*
 * The counters of one grid, as include/vgpu_counters.h defines them
 * (Documentation/profiler.rst says how each is computed).
 */
struct vgpu_core_counters {
#define VGPU_CORE_COUNTER(f, metric, unit, desc) uint64_t f;
	VGPU_COUNTERS(VGPU_CORE_COUNTER)
#undef VGPU_CORE_COUNTER
};

/*
 * vgpu-sanitizer's checks of one grid (include/vgpu_sanitizer.h,
 * firmware_sim/core/sanitizer.c), filled by the caller: @tools, the
 * allocation table (sorted by map_base) with initcheck's bitmaps, and
 * room for @cap findings;
 * the core adds them at @reports under @lock (@count, then @dropped).
 */
struct vgpu_core_sanitizer {
	uint32_t tools;			/* VGPU_SAN_* */
	const struct vgpu_san_alloc *allocs;
	uint32_t nallocs;
	/* initcheck: per entry, its bitmap of bytes written (or NULL) */
	uint8_t **init;
	uint32_t cap;
	struct vgpu_san_report *reports;
	pthread_mutex_t lock;
	uint32_t count, dropped;
};

/* A grid to run. */
struct vgpu_core_launch {
	const struct vgpu_module *module;
	uint32_t kernel;		/* index in the module */
	uint32_t grid[3];		/* gridDim */
	uint32_t block[3];		/* blockDim */
	uint32_t dynamic_shared;	/* bytes of dynamic shared memory */
	const void *params;		/* parameter buffer, param_size bytes */
	uint32_t param_size;		/* must equal the kernel's */
	uint32_t local_size;		/* local bytes per thread (stack);
					 * 0: kernel's local_size, min 1 KiB */
	uint64_t global_base;		/* GPU VA of the module's segments */
	uint64_t const_base;
	uint64_t printf_fifo;		/* GPU VA of a struct
					 * visa_printf_fifo, or 0 */
	vgpu_core_translate_fn translate;	/* this context's MMU */
	void *translate_ctx;
	uint32_t grid_id;		/* %gridid; vgpu_core_stop_grid() */
	/*
	 * Scheduling.  Grids of one @ctx_id run at the same time; grids of
	 * different ones take turns in time slices.  Grids of one context
	 * must share @translate and @translate_ctx.  @priority is CUDA's
	 * stream priority (VGPU_CORE_PRIO_HIGHEST .. _LOWEST; values
	 * outside are clamped): free SM room goes to the next block of the
	 * highest-priority grid, the oldest first among equals.
	 */
	uint32_t ctx_id;
	int32_t priority;
	/* Scheduled time (its context's slices) after which the grid stops
	 * with VISA_FAULT_TIMEOUT; 0: no limit. */
	uint64_t exec_limit_us;
	/*
	 * Counting: when not NULL, the grid runs on the interpreter (the
	 * native tier does not count) and its counters are added to
	 * *@counters (which the caller zeroes) before @done runs;
	 * @duration_ns and @start_ns are left to the caller.  NULL costs
	 * nothing.
	 */
	struct vgpu_core_counters *counters;
	/*
	 * With @counters: the L2 model (vgpu_l2.h) the grid's global
	 * sectors go through, or NULL (no L2 counters), and the launch's
	 * access policy window.
	 */
	struct vgpu_l2 *l2;
	struct vgpu_l2_window l2_window;
	/*
	 * With @counters: the sanitizer's checks, or NULL (none).  Its
	 * findings are complete when @done runs.
	 */
	struct vgpu_core_sanitizer *sanitizer;
	/*
	 * Cooperative grids and clusters (Documentation/cooperative-groups.rst).
	 * A @cooperative grid's blocks are all resident at once: it waits
	 * until they fit together, and is refused when they never can on
	 * this core's SMs.  @grid_sync_va is what %envreg1:%envreg2 read.
	 * @cluster (all 0: none) groups blocks into clusters that are
	 * resident together and share shared memory; each dimension divides
	 * the grid's, at most VGPU_CORE_MAX_CLUSTER blocks in all.
	 */
	bool cooperative;
	uint64_t grid_sync_va;
	uint32_t cluster[3];
};

#define VGPU_CORE_MAX_CLUSTER	16

/*
 * A grid's end: @result 0 when every thread exited, 1 when it faulted or
 * was stopped (@fault says how: VISA_FAULT_STOPPED, VISA_FAULT_TIMEOUT,
 * or what the kernel did).  @fault is valid during the call only.
 */
typedef void (*vgpu_core_done_fn)(void *arg, int result,
				  const struct vgpu_core_fault *fault);

/**
 * vgpu_core_submit() - make a grid active; it runs alongside the others.
 * @launch: copied (with its parameter buffer); the module must stay
 *	loaded until @done has run.
 * @done, @arg: called once, on an SM worker thread, when the grid's last
 *	block has retired or the grid faulted or was stopped.
 * @fault: when the launch itself is invalid, why.
 *
 * Return: 0 (the grid is active; @done will run), -EINVAL when the
 * launch is invalid (nothing ran; @fault says why with
 * VISA_FAULT_OUT_OF_RESOURCES or VISA_FAULT_INVALID_IMAGE), -EAGAIN when
 * VGPU_CORE_MAX_GRIDS grids are active (try again after one ended), or
 * -ENOMEM.  @done is not called when the return is not 0.
 */
int vgpu_core_submit(struct vgpu_core *core,
		     const struct vgpu_core_launch *launch,
		     vgpu_core_done_fn done, void *arg,
		     struct vgpu_core_fault *fault);

/**
 * vgpu_core_launch() - run a grid to completion (submit and wait).
 *
 * Return 0 when every thread has exited, 1 when the grid faulted or was
 * stopped (the first fault is in @fault), or -EINVAL when the launch
 * itself is invalid (as vgpu_core_submit()).  Waits while the core has
 * VGPU_CORE_MAX_GRIDS active grids.
 */
int vgpu_core_launch(struct vgpu_core *core,
		     const struct vgpu_core_launch *launch,
		     struct vgpu_core_fault *fault);

/**
 * vgpu_core_stop() - ask every active grid to stop.  Each stops within a
 * warp quantum per resident warp and ends with VISA_FAULT_STOPPED.  Safe
 * from any thread, including a signal-free watchdog thread.
 */
void vgpu_core_stop(struct vgpu_core *core);

/**
 * vgpu_core_stop_grid() - stop the active grid whose launch had @grid_id,
 * if there is one, so that a watchdog that fires as its grid ends cannot
 * stop the next one.  Returns true if a grid was asked to stop.
 */
bool vgpu_core_stop_grid(struct vgpu_core *core, uint32_t grid_id);

/** vgpu_core_stop_ctx() - stop every active grid of context @ctx_id. */
bool vgpu_core_stop_ctx(struct vgpu_core *core, uint32_t ctx_id);

/**
 * vgpu_core_tlb_invalidate() - the page tables changed (an unmap): every
 * SM drops its cached translations at its next quantum boundary.
 * Returns a ticket for vgpu_core_tlb_synced().
 */
uint64_t vgpu_core_tlb_invalidate(struct vgpu_core *core);

/**
 * vgpu_core_tlb_synced() - true once no SM can use a translation made
 * before the vgpu_core_tlb_invalidate() that returned @ticket: each one
 * has crossed a quantum boundary since, or is idle.  This is the grace
 * period after which unmapped memory may be freed.
 */
bool vgpu_core_tlb_synced(struct vgpu_core *core, uint64_t ticket);

/**
 * vgpu_core_progress() - warp-instructions retired by all SMs since the
 * core was created; monotonic, updated at least once per warp quantum
 * (a heartbeat compares two readings).
 */
uint64_t vgpu_core_progress(const struct vgpu_core *core);

/** vgpu_core_busy() - true while any grid is active. */
bool vgpu_core_busy(const struct vgpu_core *core);

/**
 * vgpu_core_running_ctx() - the context that holds GR's time slice while
 * grids are active (launch ctx_id), 0 when none is active.
 */
uint32_t vgpu_core_running_ctx(struct vgpu_core *core);

/* Counters for the benchmark and tools: of every grid that ran since the
 * last vgpu_core_launch() began. */
struct vgpu_core_stats {
	uint64_t warp_insns;	/* warp-instructions executed */
	uint64_t thread_insns;	/* sum of active lanes over them */
	uint64_t tlb_misses;
};
void vgpu_core_get_stats(struct vgpu_core *core, struct vgpu_core_stats *st);

const char *vgpu_core_fault_name(uint32_t kind);

#ifdef __cplusplus
}
#endif

#endif /* VGPU_CORE_H */
