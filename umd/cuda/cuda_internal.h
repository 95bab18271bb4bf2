/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cuda_internal.h - the objects behind libcuda.so.1's handles.
 *
 * The driver API hands out opaque pointers (CUcontext, CUstream, CUevent,
 * CUmodule, CUfunction); each points at one of the structures below.  A
 * handle is checked against the set of live handles (handles.c) before it
 * is dereferenced, so a stale or foreign one is refused with
 * CUDA_ERROR_INVALID_HANDLE / INVALID_CONTEXT.  The magic numbers in the
 * structures are for whoever looks at them in a debugger (freed objects
 * read CU_DEAD_MAGIC).
 *
 *   cu_device   one /dev/vgpuN, opened by cuInit
 *   cu_ctx      a CUDA context = one vGPU context (GPU address space),
 *               its streams, its queues and its modules
 *   cu_queue    one vGPU user-mode queue and the sequence numbers of the
 *               operations submitted on it
 *   cu_stream   an ordered series of operations, spread over a compute
 *               queue and a copy queue
 *   cu_mem      one allocation in the process-wide pointer registry
 *
 * Locks, outermost first: cu_device.lock (contexts of a device), then
 * cu_stream.lock, then cu_ctx.lock (lists of a context), then one
 * cu_queue.lock (never two at once), then the registry's and the VA
 * allocator's.  Nothing is called with a lock held that could take an
 * outer one.  cu_ctx.host_lock (the queue of host functions) is taken
 * with no other lock held, and nothing else is taken under it.
 */
#ifndef VGPU_CUDA_INTERNAL_H
#define VGPU_CUDA_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <cuda.h>

#include "libvgpu/libvgpu.h"
#include "vgpu_occupancy.h"
#include "vgpu_visa.h"

#define CU_EXPORT __attribute__((visibility("default")))

#define CU_CTX_MAGIC		0x43545843u	/* "CXTC" */
#define CU_STREAM_MAGIC		0x4d525453u	/* "STRM" */
#define CU_EVENT_MAGIC		0x544e5645u	/* "EVNT" */
#define CU_MODULE_MAGIC		0x444f4d43u	/* "CMOD" */
#define CU_FUNC_MAGIC		0x434e5546u	/* "FUNC" */
#define CU_DEAD_MAGIC		0xdeadbeefu

/* Limits of the device we present: those of the execution core. */
#define CU_WARP_SIZE			32
#define CU_MAX_THREADS_PER_BLOCK	1024
#define CU_MAX_BLOCK_X			1024
#define CU_MAX_BLOCK_Y			1024
#define CU_MAX_BLOCK_Z			64
#define CU_MAX_GRID_X			0x7fffffffu
#define CU_MAX_GRID_YZ			65535u
#define CU_SHARED_PER_BLOCK		(48u << 10)
#define CU_SHARED_PER_BLOCK_OPTIN	(227u << 10)
#define CU_SHARED_PER_SM		VGPU_SM_SHARED_BYTES
#define CU_REGS_PER_BLOCK		65536
#define CU_REGS_PER_SM			65536
#define CU_MAX_THREADS_PER_SM		VGPU_SM_MAX_THREADS
#define CU_MAX_BLOCKS_PER_SM		VGPU_SM_MAX_BLOCKS
#define CU_CC_MAJOR			9
#define CU_CC_MINOR			0
#define CU_CONST_BYTES			(64u << 10)
#define CU_DRIVER_VERSION		13000

/* Queues and their rings. */
#define CU_COMPUTE_RING_SIZE		(256u << 10)
#define CU_COPY_RING_SIZE		(64u << 10)
#define CU_MAX_QUEUES			64	/* the driver's default limit */
#define CU_ENGINE_COMPUTE		0
#define CU_ENGINE_COPY			1

/*
 * The sync page: one u64 per queue, one per queue that host functions
 * write (host_func.c), then event timestamps.
 */
#define CU_SYNC_PAGE_SIZE		(64u << 10)
#define CU_SYNC_QUEUE_SLOTS		CU_MAX_QUEUES
#define CU_SYNC_HOST_FUNC_FIRST		CU_SYNC_QUEUE_SLOTS
/* grid.sync()'s workspace of a queue's cooperative grids (launch_coop.c):
 * one u64 per queue, since a queue runs one grid at a time */
#define CU_SYNC_GRID_SYNC_FIRST		(CU_SYNC_HOST_FUNC_FIRST + CU_MAX_QUEUES)
#define CU_SYNC_TS_FIRST		512	/* first u64 of timestamps */
#define CU_SYNC_TS_SLOTS		(CU_SYNC_PAGE_SIZE / 8 - CU_SYNC_TS_FIRST)

/* Pageable copies go through two pinned bounce buffers. */
#define CU_STAGE_BUFFERS		2
#define CU_STAGE_SIZE			(1u << 20)

/*
 * The printf FIFO: an H100's default size, and the least it makes of a
 * smaller cudaLimitPrintfFifoSize (probe_assert_printf.h100.txt).
 */
#define CU_PRINTF_FIFO_DEFAULT		8650752u
#define CU_PRINTF_FIFO_MIN		(512u << 10)

/* Extra streams a context lends to graph launches for parallel branches. */
#define CU_GRAPH_LANES			2

struct cu_ctx;
struct cu_queue;
struct cu_capture_point;
struct cu_host_call;

struct cu_device {
	unsigned int ordinal;
	struct vgpu_device *vdev;
	char name[64];
	CUuuid uuid;
	unsigned int sm_count;

	pthread_mutex_t lock;		/* the fields below */
	struct cu_ctx *primary;		/* NULL until retained */
	unsigned int primary_refs;
	unsigned int primary_flags;
	struct cu_ctx *contexts;	/* every live context, linked by next */
};

/* One position in one queue: "the operation with sequence @seq". */
struct cu_point {
	struct cu_queue *queue;		/* NULL: nothing, already complete */
	uint64_t seq;
};

struct cu_queue {
	struct cu_ctx *ctx;
	struct vgpu_queue *vq;
	unsigned int engine;
	unsigned int slot;		/* index of its u64 in the sync page */
	uint64_t slot_va;		/* GPU VA (= host VA) of that u64 */
	bool in_use;			/* owned by a stream (ctx->lock) */

	pthread_mutex_t lock;		/* writing packets; the fields below */
	uint64_t seq;			/* last sequence number submitted */
	uint64_t written;		/* last seq whose slot write is queued */
};

struct cu_stream {
	uint32_t magic;
	struct cu_ctx *ctx;
	unsigned int flags;		/* CU_STREAM_* */
	int priority;
	bool is_null;			/* the legacy default stream */
	/* l2_policy.c: cuStreamSetAttribute's, under @lock */
	CUaccessPolicyWindow l2_window;
	CUsynchronizationPolicy sync_policy;
	pthread_mutex_t lock;
	struct cu_queue *compute;
	struct cu_queue *copy;		/* created on the first copy */
	struct cu_point last;		/* the last operation, in order */
	struct cu_capture_point *capture;	/* while capturing (stream_capture.c) */
	bool per_thread;		/* a thread's CU_STREAM_PER_THREAD */
	pthread_t owner;		/* ... that thread */
	struct cu_pool_clock *pool_clock;	/* mem_pool_order.c */
	struct cu_stream *next;		/* in ctx->streams */
};

struct cu_event {
	uint32_t magic;
	struct cu_ctx *ctx;
	unsigned int flags;		/* CU_EVENT_* */
	bool recorded;
	struct cu_point point;		/* where it was recorded */
	int ts_slot;			/* timestamp u64, -1 with DISABLE_TIMING */
	struct cu_capture_point *captured;	/* recorded in a capture */
	struct cu_ipc_event *ipc;	/* CU_EVENT_INTERPROCESS (ipc_event.c) */
	struct cu_pool_clock *pool_clock;	/* frees its record follows */
};

struct cu_function {
	uint32_t magic;
	struct cu_module *module;
	unsigned int index;		/* in the image's KERNELS table */
	const struct visa_kernel *kernel;
	const uint8_t *params;		/* first visa_param of the kernel */
	uint32_t param_entsize;		/* bytes between two of them */
	const char *name;
	unsigned int max_dynamic_shared;	/* cuFuncSetAttribute */
	int preferred_carveout;
	int cache_config;
	/* State of the pre-4.0 launch API (legacy_launch.c), or NULL. */
	struct cu_legacy_launch *legacy;
	/* Clusters (launch_coop.c): __cluster_dims__ (0: none), and
	 * CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED. */
	uint32_t cluster_dim[3];
	bool cluster_non_portable;
};

/* A launch's shape and kind (launch.c, launch_coop.c). */
struct cu_launch_cfg {
	unsigned int grid[3];
	unsigned int block[3];
	unsigned int shared;
	bool cooperative;		/* CU_LAUNCH_ATTRIBUTE_COOPERATIVE */
	unsigned int cluster[3];	/* the attribute's, 0: not given */
	bool has_window;		/* CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW */
	CUaccessPolicyWindow window;
};

/*
 * launch_coop.c: the cluster shape a launch of @f gets (its attribute or
 * the kernel's; 0 0 0: none) after the checks an H100 makes, and the
 * cooperative size check; CUDA_ERROR_INVALID_CLUSTER_SIZE,
 * CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE or CUDA_SUCCESS.
 */
CUresult cu_launch_coop_check(const struct cu_function *f,
			      const struct cu_launch_cfg *c,
			      uint32_t cluster[3]);
/* launch.c: cuLaunchKernel with a whole configuration. */
CUresult cu_launch_cfg_run(CUfunction f, const struct cu_launch_cfg *c,
			   CUstream hStream, void **kernelParams, void **extra);


struct cu_module {
	uint32_t magic;
	struct cu_ctx *ctx;
	void *image;			/* our copy of the vISA image */
	size_t image_size;
	const struct visa_image_header *hdr;
	uint64_t image_id;		/* vgpu_launch_v1.image_id */
	unsigned int ptx_arch;		/* sm_NN the PTX targeted, or 0 */
	CUdeviceptr code_va;		/* where the image lies in VRAM */
	CUdeviceptr global_va;		/* the module's segments, or 0 */
	bool global_managed;		/* global_va is managed memory */
	CUdeviceptr const_va;
	bool heap_ready;		/* its heap descriptor is written */
	unsigned int num_functions;
	struct cu_function *functions;
	struct cu_module *next;		/* in ctx->modules */
};

struct cu_ctx {
	uint32_t magic;
	struct cu_device *dev;
	uint32_t vctx;			/* vGPU context handle */
	unsigned int flags;		/* CU_CTX_* given at creation */
	bool is_primary;
	unsigned long long id;
	struct cu_ctx *next;		/* in dev->contexts */

	pthread_mutex_t lock;		/* lists, queues, sticky error */
	CUresult sticky;		/* CUDA_SUCCESS until a fault */
	struct cu_stream null_stream;
	struct cu_stream *streams;	/* created streams */
	struct cu_queue queues[CU_MAX_QUEUES];
	unsigned int num_queues;
	struct cu_module *modules;
	/* Streams graph launches run parallel branches on (graph_launch.c),
	 * created on first use; also in @streams. */
	struct cu_stream *graph_lanes[CU_GRAPH_LANES];
	uint64_t next_image_id;
	size_t limits[CU_LIMIT_MAX];
	/* the device heap (device_heap.c), under its lock */
	bool heap_made;
	CUdeviceptr heap_va;
	size_t heap_size;

	/* Pinned memory the context's queues and events use. */
	uint32_t sync_handle;
	volatile uint64_t *sync;	/* CU_SYNC_PAGE_SIZE bytes */
	uint8_t ts_used[CU_SYNC_TS_SLOTS];

	/* Bounce buffers of pageable copies (lazily allocated). */
	pthread_mutex_t stage_lock;
	uint32_t stage_handle;
	uint8_t *stage;			/* CU_STAGE_BUFFERS * CU_STAGE_SIZE */
	struct cu_point stage_busy[CU_STAGE_BUFFERS];

	/* Device printf. */
	pthread_mutex_t printf_lock;
	uint32_t printf_handle;
	struct visa_printf_fifo *printf_fifo;
	size_t printf_size;
	bool printf_launched;		/* a kernel that prints was launched */

	/* vgpu-prof's counters page (profile.c), or NULL. */
	uint32_t prof_handle;
	struct vgpu_launch_counters *prof_counters;
	/* cuCtxResetPersistingL2Cache asked; the next counted launch tells
	 * the firmware (l2_policy.c) */
	bool l2_reset;			/* __atomic_* */
	/* VGPU_TIMING=model: the model clock (timing_model.c) */
	uint64_t model_clock_ns;	/* __atomic_* */
	/* vgpu-sanitizer's buffers (sanitizer.c), or NULL */
	struct cu_san_ctx *san;

	/* Host functions (host_func.c): their thread, started on first use. */
	pthread_mutex_t host_lock;	/* the fields below */
	pthread_cond_t host_cond;	/* a call was queued, or stop */
	struct cu_host_call *host_calls;	/* queued, oldest first */
	struct cu_host_call **host_tail;
	bool host_started;
	bool host_stop;			/* the context is being destroyed */
	pid_t host_pid;			/* the process that started it */
	pthread_t host_thread;
};

/* ---- vgpu-prof (profile.c) --------------------------------------------- */

struct vgpu_launch_counters;
/* True when VGPU_PROF_OUT names the file of per-launch counters. */
bool cu_prof_enabled(void);
/* Before a launch: *out is the counters page to name in the packet (and
 * the profile lock is held), or NULL when not profiling. */
CUresult cu_prof_begin(struct cu_ctx *ctx, struct cu_stream *s,
		       const struct cu_launch_cfg *c,
		       struct vgpu_launch_counters **out);
/* l2_policy.c: a window's checks, and a counted launch's L2 policy */
CUresult cu_l2_window_check(const CUaccessPolicyWindow *w);
void cu_l2_policy_fill(struct cu_ctx *ctx, struct cu_stream *s,
		       const struct cu_launch_cfg *c, void *policy);
/* After it: wait, write the line, unlock; returns @launched. */
CUresult cu_prof_end(struct cu_ctx *ctx, struct cu_stream *s,
		     const struct cu_function *f, const unsigned int grid[3],
		     const unsigned int block[3], unsigned int shared,
		     struct vgpu_launch_counters *c, CUresult launched);
void cu_prof_ctx_fini(struct cu_ctx *ctx);
/* A copy or memset for vgpu-prof: begin (0: not profiling), end: wait for
 * it and write its line; returns @res or the wait's error. */
uint64_t cu_prof_copy_begin(void);
CUresult cu_prof_copy_end(struct cu_stream *s, const char *kind,
			  size_t bytes, uint64_t start, CUresult res);
/* sanitizer.c: VGPU_SANITIZER (vgpu-sanitizer); a counted launch's
 * descriptor at @desc_at, its findings afterwards; cuMemAlloc's and
 * cuMemFree's allocations (use after free, --leak-check) */
struct cu_mem;
bool cu_san_enabled(void);
CUresult cu_san_fill(struct cu_ctx *ctx, void *desc_at);
void cu_san_collect(struct cu_ctx *ctx, const struct cu_function *f);
void cu_san_ctx_fini(struct cu_ctx *ctx);
void cu_san_user_alloc(struct cu_ctx *ctx, uint64_t base, uint64_t size);
void cu_san_freed(const struct cu_mem *m);
/* initcheck: a copy or memset writes [dst, dst + size) */
void cu_san_written(uint64_t dst, uint64_t size);
/* timing_model.c: VGPU_TIMING=model, a kernel's modelled ns, the clock */
bool cu_timing_model(void);
uint64_t cu_timing_kernel_ns(const struct vgpu_launch_counters *c,
			     const unsigned int grid[3]);
void cu_timing_advance(struct cu_ctx *ctx, uint64_t ns);
uint64_t cu_timing_now(struct cu_ctx *ctx);

/* ---- process state (init.c) ------------------------------------------- */

/* CUDA_ERROR_NOT_INITIALIZED until cuInit succeeded. */
CUresult cu_initialized(void);
struct cu_device *cu_device_get(CUdevice ordinal);
int cu_device_count(void);

/* ---- errors (errors.c) ------------------------------------------------ */

/* The CUresult for a negative errno of libvgpu. */
CUresult cu_from_errno(int err);
/* The CUresult that a vGPU fault record stands for. */
CUresult cu_from_fault(const struct vgpu_ctx_status *status);
void cu_report_fault(const struct vgpu_ctx_status *status,
		     unsigned int assert_lines);

/* ---- contexts (context.c, context_current.c) -------------------------- */

/* The calling thread's current context, or NULL. */
struct cu_ctx *cu_ctx_current(void);
void cu_ctx_set_current(struct cu_ctx *ctx);
/* Current context, checked: INVALID_CONTEXT if none, the sticky error. */
CUresult cu_ctx_get(struct cu_ctx **ctx);
bool cu_ctx_valid(const struct cu_ctx *ctx);
CUresult cu_ctx_new(struct cu_device *dev, unsigned int flags,
		    bool primary, struct cu_ctx **out);
void cu_ctx_free(struct cu_ctx *ctx);
/* Refresh the sticky error from the driver; returns it. */
CUresult cu_ctx_check(struct cu_ctx *ctx);
/* Wait for everything submitted in the context. */
CUresult cu_ctx_sync(struct cu_ctx *ctx);
/* Forget the current context of every thread that has @ctx current. */
void cu_ctx_forget(struct cu_ctx *ctx);
/* export_tables.c: cuGetExportTable; the runtime's per-context state goes. */
CUresult cu_export_table(const void **table, const CUuuid *id);
void cu_export_ctx_gone(struct cu_ctx *ctx);
/* proc_versions.c: the function of a versioned name at a CUDA version. */
bool cu_proc_versioned(const char *name, int version, void **fn);
/* api_rest.c: a found-but-unsupported stand-in for @name, or NULL. */
void *cu_proc_unsupported(const char *name);

/* ---- queues and streams (queue.c, stream.c) --------------------------- */

CUresult cu_queue_get(struct cu_ctx *ctx, unsigned int engine,
		      struct cu_queue **out);
void cu_queue_put(struct cu_queue *q);
bool cu_point_done(const struct cu_point *p);
/* Have @p written to its queue's sync slot (see queue.c). */
int cu_point_publish(const struct cu_point *p, int64_t deadline);
/* Wait for @p as the context's CU_CTX_SCHED_* flag says (queue.c). */
CUresult cu_point_wait(struct cu_ctx *ctx, const struct cu_point *p);
/* Wait for @p with the given CU_CTX_SCHED_* policy. */
CUresult cu_point_wait_sched(struct cu_ctx *ctx, const struct cu_point *p,
			     unsigned int sched);
/* The calling thread's CU_STREAM_PER_THREAD in @ctx (stream_per_thread.c). */
CUresult cu_stream_per_thread(struct cu_ctx *ctx, struct cu_stream **out);
CUresult cu_stream_init(struct cu_ctx *ctx, struct cu_stream *s,
			unsigned int flags, int priority, bool is_null);
void cu_stream_fini(struct cu_stream *s);
/* Resolve a CUstream (NULL = legacy default) of the current context. */
CUresult cu_stream_resolve(struct cu_ctx *ctx, CUstream h,
			   struct cu_stream **out);
/* The current context (checked) and the stream @h of it. */
CUresult cu_stream_current(CUstream h, struct cu_ctx **ctx,
			   struct cu_stream **s);
/* cu_stream_current(), then an answer pointer @out not NULL. */
CUresult cu_stream_query_args(CUstream h, const void *out,
			      struct cu_ctx **ctx, struct cu_stream **s);
CUresult cu_stream_sync(struct cu_stream *s);

/*
 * One operation on a stream: begin (takes the stream's lock, picks the
 * queue of @engine and makes it wait for what must come first, and for
 * @also if not NULL), then the caller emits its packets on op->queue,
 * then end (sequence number, fence, doorbell; releases the locks).
 * cu_op_abort() releases on an error.
 */
struct cu_op {
	struct cu_stream *stream;
	struct cu_queue *queue;		/* locked between begin and end */
	int64_t deadline;
};
CUresult cu_op_begin(struct cu_stream *s, unsigned int engine,
		     const struct cu_point *also, struct cu_op *op);
CUresult cu_op_end(struct cu_op *op, struct cu_point *done);
void cu_op_abort(struct cu_op *op, int err);

/* ---- host functions (host_func.c) ------------------------------------ */

void cu_host_func_init(struct cu_ctx *ctx);
/* Stop the context's thread once it ran what is queued (context freed). */
void cu_host_func_fini(struct cu_ctx *ctx);
/*
 * Queue @fn(@user_data), or @callback(@handle, status, @user_data), on @s:
 * it runs on the context's thread after the stream's earlier work, and
 * the stream's later work waits for it.  Returns at once.
 */
CUresult cu_host_func_enqueue(struct cu_stream *s, CUstream handle,
			      CUhostFn fn, CUstreamCallback callback,
			      void *user_data);
/* Whether the calling thread is running a host function. */
bool cu_in_host_func(void);
/*
 * CUDA_ERROR_NOT_PERMITTED inside a host function, else CUDA_SUCCESS:
 * for the calls an H100 refuses there although they name their stream
 * (tools/cuda-probe/golden/probe_hostfn.h100.txt); calls that take the
 * thread's current context are refused by cu_ctx_get().
 */
CUresult cu_host_func_forbid(void);

/* ---- stream capture (stream_capture.c) -------------------------------- */

/*
 * Every enqueuing path asks cu_capture_op() first, with the parameters
 * the operation would have as a graph node (@type's struct).  *@recorded
 * true: the stream captures and the operation was recorded as a node (or
 * failed: the result says) - the caller must not submit it.  Otherwise
 * the operation goes to the device; an error then means it may not
 * happen at all (the legacy stream while a blocking stream captures).
 */
CUresult cu_capture_op(struct cu_stream *s, CUgraphNodeType type,
		       const void *params, CUcontext ctx, bool *recorded);
/* An operation that cannot be captured (a synchronisation, a query). */
CUresult cu_capture_forbid(struct cu_stream *s);
/*
 * cuMemAllocAsync / cuMemFreeAsync on @s: in a capture, an allocation or
 * free node (*@recorded, and the allocation's address in *@dptr).
 */
CUresult cu_capture_mem_alloc(struct cu_stream *s, size_t size,
			      CUdeviceptr *dptr, bool *recorded);
CUresult cu_capture_mem_free(struct cu_stream *s, CUdeviceptr dptr,
			     bool *recorded);
/* Whether @ptr is a graph allocation; end its life (graph_mem.c). */
bool cu_graph_alloc_known(CUdeviceptr ptr);
void cu_graph_alloc_free_ptr(CUdeviceptr ptr);
/* Synchronising with, querying @s: also unsafe calls (capture modes). */
CUresult cu_capture_forbid_sync(struct cu_stream *s);
/* Synchronising the whole context: refused while any stream captures. */
CUresult cu_capture_forbid_ctx(struct cu_ctx *ctx);
/* Event record and stream-wait-event, which fork and join captures. */
CUresult cu_capture_event_record(struct cu_stream *s, struct cu_event *ev,
				 bool *recorded);
CUresult cu_capture_wait_event(struct cu_stream *s, struct cu_event *ev,
			       bool *recorded);
/* cuMemAlloc, cuMemFree: refused by the rules of the capture modes. */
CUresult cu_capture_unsafe_call(void);
/* Querying or waiting for an event recorded in a live capture: refused. */
CUresult cu_capture_event_check(struct cu_event *ev);
void cu_capture_event_release(struct cu_event *ev);
void cu_capture_stream_release(struct cu_stream *s);

/* ---- interprocess events (ipc_event.c, ipc.c) ------------------------- */

struct cu_ipc_event;
/* Give a new CU_EVENT_INTERPROCESS event its shared page. */
CUresult cu_ipc_event_init(struct cu_event *ev);
void cu_ipc_event_release(struct cu_event *ev);
/* In a record of @ev: the packet that marks the record complete. */
int cu_ipc_event_emit(struct cu_event *ev, struct vgpu_queue *q,
		      int64_t deadline);
/* Opened from another process's handle: query, wait through the page. */
bool cu_ipc_event_imported(const struct cu_event *ev);
CUresult cu_ipc_event_query(struct cu_event *ev);
CUresult cu_ipc_event_sync(struct cu_event *ev);
CUresult cu_ipc_event_wait(struct cu_stream *s, struct cu_event *ev);
/* Descriptor @fd of process @pid, as one of ours (-errno on failure). */
int cu_ipc_fetch_fd(int32_t pid, int32_t fd);

/* ---- memory (va_space.c, registry.c, memory.c) ------------------------ */

CUresult cu_va_init(void);
uint64_t cu_va_alloc(uint64_t size);
void cu_va_free(uint64_t va, uint64_t size);
bool cu_va_contains(uint64_t ptr);
/* Take a given free range (false if any of it is in use). */
bool cu_va_take(uint64_t va, uint64_t size);

enum cu_mem_kind {
	CU_MEM_DEVICE = 1,		/* VRAM */
	CU_MEM_HOST,			/* pinned, allocated by the driver */
	CU_MEM_REGISTERED,		/* the process's pages, pinned */
};

struct cu_mem {
	uint64_t base;			/* what the user sees */
	uint64_t size;
	uint64_t map_base;		/* page-aligned range mapped on the GPU */
	uint64_t map_size;
	enum cu_mem_kind kind;
	struct cu_device *dev;
	struct cu_ctx *ctx;		/* owner (device memory) */
	uint32_t handle;
	unsigned int flags;		/* CU_MEMHOSTALLOC_* / REGISTER_* */
	unsigned long long id;		/* CU_POINTER_ATTRIBUTE_BUFFER_ID */
	bool imported;			/* cuIpcOpenMemHandle: not ours */
	bool managed;			/* cuMemAllocManaged (a HOST entry) */
	bool migrates;			/* managed, and its blocks migrate */
	bool vmm;			/* a cuMemMap mapping (vmm.c) */
	int export_fd;			/* cuIpcGetMemHandle's, or -1 */
};

/* Add, remove, look up; lookups copy the entry out under the lock. */
CUresult cu_registry_add(const struct cu_mem *m);
bool cu_registry_remove(uint64_t base, enum cu_mem_kind kind,
			struct cu_mem *out);
bool cu_registry_find(uint64_t ptr, struct cu_mem *out);
/* Whether [ptr, ptr + size) overlaps any host (pinned) entry. */
bool cu_registry_overlaps_host(uint64_t ptr, uint64_t size);
/* Call @fn on every entry (under the lock: @fn must not re-enter). */
void cu_registry_each(void (*fn)(const struct cu_mem *, void *), void *arg);
/* Remove (into @out) one device entry owned by @ctx; false when none. */
bool cu_registry_take_ctx(struct cu_ctx *ctx, struct cu_mem *out);
/*
 * The export descriptor of the device allocation at @base: the one it has,
 * or @fd if it has none (then true is returned and @fd is kept).
 */
bool cu_registry_set_export(uint64_t base, int fd, int *current);
/* Mark the host entry at @base as managed memory; false if none. */
bool cu_registry_set_managed(uint64_t base);

/*
 * The advice and prefetch locations of managed memory, per page, for
 * cuMemRangeGetAttribute(s) (managed_advice.c).  @m is the allocation's
 * registry entry; the range and location were checked.
 */
CUresult cu_advice_record(const struct cu_mem *m, CUdeviceptr ptr,
			  size_t count, CUmem_advise advice,
			  CUmemLocation loc);
CUresult cu_advice_prefetched(const struct cu_mem *m, CUdeviceptr ptr,
			      size_t count, CUmemLocation loc);
/* The allocation @m is freed: its advice goes. */
void cu_advice_forget(const struct cu_mem *m);

/* Whether device @d reaches the pages of host entry @m (portable or own). */
bool cu_host_reachable(const struct cu_mem *m, const struct cu_device *d);
/* Map every pinned host allocation @ctx's device reaches into @ctx. */
CUresult cu_mem_map_host_into(struct cu_ctx *ctx);
/*
 * Held across publishing host memory, and across a new context's mapping
 * of the published memory and its joining the device's list, so that no
 * allocation falls between the two (host_memory.c).
 */
void cu_host_publish_begin(void);
void cu_host_publish_end(void);
/* Allocate pinned memory for the library's own use, mapped in @ctx. */
CUresult cu_mem_internal_host(struct cu_ctx *ctx, size_t size,
			      uint32_t *handle, void **cpu);
void cu_mem_internal_free(struct cu_ctx *ctx, uint32_t handle, void *cpu,
			  size_t size);
/* Device memory for the library's own use (modules), in the registry. */
CUresult cu_mem_device_alloc(struct cu_ctx *ctx, size_t size,
			     CUdeviceptr *out);
CUresult cu_mem_device_free(struct cu_ctx *ctx, CUdeviceptr p);
/* Managed memory (memory.c): host-visible at the same address. */
CUresult cu_mem_managed_alloc(size_t size, CUdeviceptr *out);
/*
 * Managed memory that migrates (a driver managed object, host_memory.c);
 * CUDA_ERROR_NOT_SUPPORTED from a driver without it.
 */
CUresult cu_mem_managed_alloc_migrating(struct cu_ctx *ctx, size_t size,
					CUdeviceptr *out);
/* Enter and map device memory (a VRAM object @handle) at a new GPU VA. */
CUresult cu_mem_device_map(struct cu_ctx *ctx, uint32_t handle,
			   uint64_t size, uint64_t alloc_size, bool imported,
			   CUdeviceptr *out);
/* Unmap and release a registry entry of device memory. */
void cu_mem_device_release(const struct cu_mem *m, bool unmap);
void cu_mem_free_ctx(struct cu_ctx *ctx);
/* Map the accessible VMM mappings of @ctx's device into @ctx (vmm.c). */
CUresult cu_vmm_map_into(struct cu_ctx *ctx);
/*
 * Whether [ptr, ptr + size) lies in accessible VMM mappings of one device
 * that follow each other without a hole (a copy may span several).
 */
bool cu_vmm_covers(uint64_t ptr, uint64_t size);
/* The context to copy VMM memory of @d with (NULL: the current one). */
struct cu_ctx *cu_vmm_owner(struct cu_device *d);

/* ---- peer access (peer.c) ---------------------------------------------- */

/*
 * A device allocation was entered in the registry / is about to go: map
 * it into (unmap it from) every context with peer access to its context.
 */
CUresult cu_peer_added(const struct cu_mem *m);
void cu_peer_removed(const struct cu_mem *m);
/* @ctx is being destroyed: drop its links, both ways. */
void cu_peer_ctx_gone(struct cu_ctx *ctx);
/* Whether @ctx enabled access to @peer. */
bool cu_peer_linked(struct cu_ctx *ctx, struct cu_ctx *peer);
/* Whether memory of @owner (NULL: host memory) is mapped in @ctx. */
bool cu_peer_reaches(struct cu_ctx *ctx, struct cu_ctx *owner);
/*
 * Before a peer copy on @s touches memory of contexts @a and @b (either
 * may be NULL or s's own): the work already queued on their legacy
 * streams is done, as CUDA serializes cuMemcpyPeer with the work of both
 * contexts.  The host waits for that work only, not for the copy.
 */
CUresult cu_peer_order(struct cu_stream *s, struct cu_ctx *a,
		       struct cu_ctx *b);

/* ---- stream-ordered memory pools (mem_pool*.c) ------------------------ */

struct cu_pool_clock;
/* cuEventRecord of @ev on @s, cuStreamWaitEvent of @s on @ev. */
void cu_pool_note_record(struct cu_event *ev, struct cu_stream *s);
void cu_pool_note_wait(struct cu_stream *s, struct cu_event *ev);
void cu_pool_clock_free(struct cu_pool_clock **c);
/*
 * The host waited for @s (or for @ev, or with both NULL for all of @ctx):
 * the frees that came before are now ordered before everything, and pools
 * above their release threshold give memory back.
 */
void cu_pool_synced(struct cu_ctx *ctx, struct cu_stream *s,
		    struct cu_event *ev);
/* cuMemFree of pool memory; CUDA_ERROR_NOT_FOUND: @p is not pool memory. */
CUresult cu_pool_free_now(CUdeviceptr p);
/* The pool (CUmemoryPool) that allocation @base came from, or NULL. */
void *cu_pool_of(uint64_t base);
/* @ctx is going away with its address space: drop its chunks. */
void cu_pool_forget_ctx(struct cu_ctx *ctx);

/* ---- copies (copy.c) --------------------------------------------------- */

/* Where a pointer is, seen from the device. */
enum cu_where { CU_WHERE_PAGEABLE, CU_WHERE_DEVICE, CU_WHERE_PINNED };
enum cu_where cu_classify(uint64_t ptr, size_t size, bool *in_range);
/* The same, for the copy engine of device @d (NULL: any device). */
enum cu_where cu_classify_for(const struct cu_device *d, uint64_t ptr,
			      size_t size, bool *in_range);
/* Copy with each side already classified; @sync: wait for completion. */
CUresult cu_copy(struct cu_stream *s, uint64_t dst, uint64_t src,
		 size_t size, bool sync);
/* Allocate @ctx's bounce buffers if needed (ctx->stage_lock held). */
CUresult cu_stage_get(struct cu_ctx *ctx);
/* One COPY packet on @s, both sides reachable, after @also if not NULL. */
CUresult cu_copy_dma(struct cu_stream *s, uint64_t dst, uint64_t src,
		     size_t size, const struct cu_point *also,
		     struct cu_point *done);

/* ---- copies between contexts and devices (copy_peer.c) ------------------ */

/* The context whose device memory holds @ptr, or NULL (host memory). */
struct cu_ctx *cu_copy_owner(uint64_t ptr);
/*
 * A copy on @s of which at least one side is device memory of another
 * context (@dctx, @sctx: the owners, NULL for host memory).  Returns once
 * the copy is complete.
 */
CUresult cu_copy_across(struct cu_stream *s, uint64_t dst,
			struct cu_ctx *dctx, uint64_t src,
			struct cu_ctx *sctx, size_t size);
struct cu_copy_box;
/* The same for a 2D/3D box (copy_3d.c), whole. */
CUresult cu_box_across(struct cu_stream *s, const struct cu_copy_box *b,
		       struct cu_ctx *dctx, struct cu_ctx *sctx);

/* ---- rectangles and boxes (copy_3d.c) ----------------------------------- */

/*
 * @depth slices of @height rows of @width bytes; on each side rows are
 * @pitch bytes apart and slices @slice bytes apart; @src and @dst are the
 * addresses of the first byte.
 */
struct cu_copy_box {
	uint64_t src, dst;
	size_t src_pitch, dst_pitch;
	size_t src_slice, dst_slice;
	size_t width, height, depth;
};
/* Copy a box on @s; @sync: wait for completion. */
CUresult cu_copy_box(struct cu_stream *s, const struct cu_copy_box *b,
		     bool sync);
/* Host -> device-visible memory from a buffer (module upload). */
CUresult cu_copy_from_host(struct cu_ctx *ctx, uint64_t dst, const void *src,
			   size_t size);

/* ---- printf (printf.c) ------------------------------------------------- */

/*
 * device_heap.c: make the context's device heap (once) and fill @m's
 * descriptor, before a launch of a kernel that uses malloc/free; and
 * whether the heap exists (its size limit is fixed then).
 */
CUresult cu_heap_prepare(struct cu_module *m);
bool cu_heap_in_use(struct cu_ctx *ctx);

CUresult cu_printf_init(struct cu_ctx *ctx, size_t size);
void cu_printf_fini(struct cu_ctx *ctx);
/* Format and print the records in the FIFO; called after a sync. */
void cu_printf_flush(struct cu_ctx *ctx);
unsigned int cu_printf_flush_stopped(struct cu_ctx *ctx);

/* ---- modules (module.c, visa_image.c) ---------------------------------- */

/* Check that a vISA image is self-consistent enough to read. */
int cu_visa_check(const void *image, size_t size, char *err, size_t errlen);
/*
 * A kernel's static shared memory as the program sees it: without the
 * region reserved for the system (VISA_KERNEL_RESERVED_SMEM), which on
 * NVIDIA's GPUs counts neither in cuFuncGetAttribute nor against the
 * per-block limits.  The block still occupies all of k->shared_size.
 */
static inline uint32_t cu_kernel_user_shared(const struct visa_kernel *k)
{
	return k->shared_size - (k->flags & VISA_KERNEL_RESERVED_SMEM ?
				 VISA_RESERVED_SMEM_BYTES : 0);
}

const char *cu_visa_string(const struct visa_image_header *h, uint32_t off);
/* The variable @name defines in the global or const segment, or NULL. */
const struct visa_symbol *cu_visa_data_symbol(const struct visa_image_header *h,
					       const char *name);
const void *cu_visa_section(const struct visa_image_header *h,
			    unsigned int id, uint32_t *count);
void cu_module_free(struct cu_module *m);
/*
 * Read a whole file into a malloc()ed buffer with a NUL after its @size
 * bytes; CUDA_ERROR_FILE_NOT_FOUND if it cannot be opened.
 */
CUresult cu_read_file(const char *path, void **data, size_t *size);
bool cu_function_valid(const struct cu_function *f);

/*
 * A CUkernel (library.c) as the CUfunction of the current context, loaded
 * there if need be (NULL if that fails); any other handle as it is.
 */
struct cu_function *cu_kernel_as_function(void *h);

/* ---- launches (launch.c) ------------------------------------------------ */

/*
 * Pack @f's arguments (kernelParams or extra) into @buf, the kernel's
 * param_size bytes; with @buf NULL only check that they can be packed.
 */
CUresult cu_launch_params(const struct cu_function *f, void **params,
			  void **extra, uint8_t *buf);

/* ---- small helpers ----------------------------------------------------- */

static inline uint64_t cu_align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

static inline uint64_t cu_align_down(uint64_t v, uint64_t a)
{
	return v & ~(a - 1);
}

#endif /* VGPU_CUDA_INTERNAL_H */
