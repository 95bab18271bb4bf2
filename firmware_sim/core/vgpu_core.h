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
 *  - launches (vgpu_core_launch()), which run a whole grid on the SM worker
 *    threads and return when it is finished or has faulted;
 *  - an optional stop request (vgpu_core_stop()) from a watchdog.
 *
 * Thread safety: one core may be used from several threads; launches on one
 * core are serialised (the GR engine runs one grid at a time, spread over
 * all SMs).  vgpu_core_stop() may be called from any thread at any time.
 */
#ifndef VGPU_CORE_H
#define VGPU_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
 * called from the SM worker threads concurrently, so it must be thread-safe
 * (page tables are not changed while a grid runs that uses them).
 */
typedef int (*vgpu_core_translate_fn)(void *ctx, uint64_t va,
				      struct vgpu_core_page *page);

struct vgpu_core_config {
	unsigned int num_sms;		/* SM worker threads (>= 1) */
	uint32_t max_shared_per_block;	/* 0: 48 KiB + dynamic up to 228 KiB */
	uint32_t max_threads_per_block;	/* 0: 1024 */
};

struct vgpu_core;
struct vgpu_module;

/** Create a core with its SM worker threads.  NULL on failure (errno). */
struct vgpu_core *vgpu_core_create(const struct vgpu_core_config *cfg);
/** Stop the workers and free everything.  No launch may be running. */
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
	uint32_t grid_id;		/* %gridid */
};

/**
 * vgpu_core_launch() - run a grid to completion.
 *
 * Blocks are spread over the SM worker threads.  Return 0 when every
 * thread has exited, 1 when the grid faulted (the first fault is in
 * @fault; the rest of the grid was stopped), or -EINVAL when the launch
 * itself is invalid (nothing ran; @fault says why with
 * VISA_FAULT_OUT_OF_RESOURCES or VISA_FAULT_INVALID_IMAGE).
 */
int vgpu_core_launch(struct vgpu_core *core,
		     const struct vgpu_core_launch *launch,
		     struct vgpu_core_fault *fault);

/**
 * vgpu_core_stop() - ask the running grid (if any) to stop.  It stops
 * within a few thousand instructions per warp, and vgpu_core_launch()
 * returns 1 with fault kind VISA_FAULT_STOPPED.  Safe from any thread,
 * including a signal-free watchdog thread.
 */
void vgpu_core_stop(struct vgpu_core *core);

/**
 * vgpu_core_stop_grid() - stop the running grid only if it is @grid_id
 * (struct vgpu_core_launch.grid_id), so that a watchdog that fires as
 * its grid ends cannot stop the next one.  Returns true if a grid was
 * asked to stop.
 */
bool vgpu_core_stop_grid(struct vgpu_core *core, uint32_t grid_id);

/*
 * For the firmware's heartbeat (hang detection): a monotonic count of
 * warp-instructions retired by all SMs since the core was created (updated
 * at least once per warp quantum), and whether a grid is active.  Safe
 * from any thread.
 */
uint64_t vgpu_core_progress(const struct vgpu_core *core);
bool vgpu_core_busy(const struct vgpu_core *core);

/* Counters for the benchmark and tools. */
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
