/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core_internal.h - data structures shared by the parts of the core.
 *
 *  module.c     loading: validation (validate.c) and pre-decoding
 *  grid.c       a grid's life: submit, complete, stop; TLB shootdown
 *  dispatch.c   which block an SM takes next, contexts and time slices
 *  sched.c      SM worker threads, resident blocks, barriers
 *  fault.c      a grid's first fault, with its PTX line
 *  warp.c       the interpreter loop, reconvergence stack, calls
 *  reg_init.c   which registers a warp zeroes when it enters a function
 *  exec_*.c     instruction semantics, one file per class
 *  memory.c     address resolution per state space, the per-SM TLB
 *  printf_device.c  vprintf records into the FIFO
 */
#ifndef VGPU_CORE_INTERNAL_H
#define VGPU_CORE_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

#include "vgpu_core.h"

#define WARP_SIZE	32
#define FULL_MASK	0xffffffffu
#define NUM_BARRIERS	16
/* Warp-instructions a warp runs before the block scheduler switches. */
#define WARP_QUANTUM	2048
/* Bounds that keep a runaway (recursive) kernel from eating the host. */
#define MAX_CALL_DEPTH	4096
#define MAX_RSTACK	65536
#define MAX_REG_ROWS	16384	/* register rows per warp, all windows: 4 MiB */
#define TLB_ENTRIES	64	/* first level: the native tier inlines it */
#define TLB2_ENTRIES	1024	/* second level (memory.c: tlb_lookup()) */
/* An SM reads the clock after this much work (sched.c: preempted()). */
#define CLOCK_EVERY_QUANTA	32
#define CLOCK_EVERY_INSNS	(2 * WARP_QUANTUM)

/*
 * A pre-decoded instruction.  Literal operands are resolved to pointers to
 * 32-lane broadcast rows, so executing code reads every source the same
 * way: lit ? lit : regs + index * 32.
 */
struct dinsn {
	uint16_t op;
	uint8_t type;
	uint8_t type2;
	uint32_t mod;
	uint16_t guard, pd, pa, d;
	uint16_t a, b, c, e;
	uint32_t func;			/* function this instruction is in */
	const uint64_t *lit[4];		/* a, b, c, e: literal rows or NULL */
	uint64_t imm;
};

/* Register rows [start, start + count) (reg_init.c). */
struct zero_run {
	uint32_t start, count;
};

struct mfunc {
	uint32_t name;
	uint32_t code_start, code_count;
	uint32_t num_regs, num_preds;
	uint32_t frame_size;
	const uint64_t *lits;		/* lit_count rows of 32 */
	/* the rows a warp zeroes on entry (reg_init.c), or all of them */
	bool zero_all;
	uint32_t nzero_runs;
	struct zero_run *zero_runs;
};

struct vgpu_module {
	void *image;			/* private copy */
	size_t size;
	const struct visa_image_header *hdr;
	const char *strtab;
	uint32_t strtab_size;
	struct dinsn *code;
	uint32_t ncode;
	struct mfunc *funcs;
	uint32_t nfuncs;
	const struct visa_kernel *kernels;	/* in the image copy */
	uint32_t nkernels;
	uint32_t kernel_entsize;
	const struct visa_line *lines;
	uint32_t nlines;
	uint64_t *litrows;
	struct jit_module *jit;		/* native tier (firmware_sim/jit/),
					 * NULL: interpreter only */
};

/* Reconvergence stack entry (see "Reconvergence" in vgpu_visa.h). */
struct rentry {
	uint32_t pc;
	uint32_t rpc;		/* VISA_RECONV_EXIT for "never by pc" */
	uint32_t mask;
	uint16_t is_call;	/* marker of a call: frame below to restore */
	uint16_t sync_wait;	/* parked at the WARPSYNC at pc, waiting
				 * for a sibling path (see exec_warp.c) */
};

/* A saved caller activation. */
struct frame {
	uint32_t func;
	uint32_t reg_base;	/* row of the caller's window */
	uint32_t pred_base;
	uint32_t fp;		/* caller's local frame base */
};

enum warp_state { WARP_RUNNABLE, WARP_AT_BARRIER, WARP_DONE };

struct block;

struct warp {
	/* hot: the current window */
	uint64_t *regs;		/* num_regs rows of 32 lanes */
	uint32_t *preds;	/* one lane mask per predicate */
	uint32_t fp;		/* local frame base (uniform per warp) */
	uint32_t func;

	uint32_t live;		/* lanes that exist and have not exited */
	uint32_t tid[3][WARP_SIZE];	/* threadIdx of each lane */
	uint32_t warp_id;
	enum warp_state state;
	struct block *blk;

	uint64_t *reg_arena;
	uint32_t reg_cap, reg_top;	/* rows */
	uint32_t *pred_arena;
	uint32_t pred_cap, pred_top;
	uint32_t reg_base, pred_base;

	struct rentry *rs;
	uint32_t rs_n, rs_cap;
	struct frame *frames;
	uint32_t nframes, frames_cap;

	/*
	 * The tensor-core staging slots (include/vgpu_mma.h): allocated by
	 * the first matrix instruction, VISA_MMA_SLOTS rows of 32 lanes.
	 */
	uint64_t *mma_stage;
	struct cpa_state *cpa;	/* pending cp.async copies (exec_async.c),
				 * NULL until the first */

	/* pending bar.red result */
	uint16_t red_d, red_pd;
	uint32_t red_mask;

	uint64_t insns, lane_insns;	/* statistics */

	/* cluster barrier (exec_cluster.c): the lanes that arrived in
	 * phase @cl_phase of the block's cluster */
	uint32_t cl_arrived;
	uint32_t cl_phase;

	/* each thread's last device-runtime error (exec_cdp.c) */
	uint32_t cdp_err[WARP_SIZE];
};

struct barrier {
	uint32_t arrived_warps;
	uint32_t arrived_threads;
	uint32_t expected;	/* thread count, 0: all live warps */
	uint32_t red_op;
	uint32_t popc;
	bool red_and, red_or;
	uint64_t waiting;	/* bit per warp (up to 64 warps... see block) */
};

struct grid;
struct sm;

/*
 * A thread-block cluster while its blocks are resident
 * (Documentation/cooperative-groups.rst): made when its blocks are
 * admitted together (dispatch.c), freed when the last one retires.
 * @blocks and @size are written before any of its blocks runs and only
 * read afterwards; the barrier's fields are under @lock.
 */
struct cluster {
	struct block *blocks[VGPU_CORE_MAX_CLUSTER];	/* by rank */
	uint32_t size;
	uint32_t resident;		/* blocks not retired (core->lock) */
	pthread_mutex_t lock;
	atomic_uint phase;		/* completed barrier phases */
	uint32_t pending;		/* threads yet to arrive this phase */
	uint32_t live;			/* threads that have not exited */
};

/*
 * A resident block: everything it needs to resume exactly where it was
 * (warps, barriers, shared and local memory), so that an SM can
 * interleave many and a context switch can leave them in memory.  Block
 * objects keep their buffers when they retire and go back to their SM's
 * pool, so a steady stream of blocks does not allocate.
 */
struct block {
	struct grid *g;
	struct sm *sm;
	uint32_t idx[3];
	uint32_t nthreads, nwarps;
	struct warp *warps;
	uint32_t warps_cap;
	uint8_t *shared;
	uint32_t shared_size;
	size_t shared_cap;
	uint8_t *local;		/* nthreads * local_size */
	size_t local_cap;
	struct barrier bars[NUM_BARRIERS];
	uint32_t *bar_wait;	/* per warp: barrier id + 1 it waits on, 0 */
	uint32_t live_warps;
	uint32_t next_warp;	/* round robin: the warp to run next */
	bool ready;		/* set up (block_setup() done) */
	bool counting;		/* the grid counts: @cnt, interpreter only */
	struct vgpu_core_counters cnt;	/* this block's, added to the
					 * grid's when it retires */
	void *san_shadow;	/* racecheck: a word per shared word */
	struct block *pool_next;	/* SM's pool of free blocks, or its
					 * inbox (dispatch.c) */
	/* thread-block cluster: rank, %cluster_ctaid, %clusterid */
	struct cluster *cl;	/* NULL: a cluster of one */
	uint32_t cl_rank;
	uint32_t cl_idx[3];
	uint32_t cl_id[3];
};

struct tlb_entry {
	uint64_t va;		/* page start; ~0 when empty */
	uint64_t size;
	uint8_t *host;
	uint32_t perm;
};

/* What the SM's resident blocks of the running context occupy. */
struct sm_usage {
	uint32_t warps, blocks;
	uint64_t shared;
};

/*
 * One per SM thread, in an array: each starts on a cache line of its own
 * (vgpu_core_create() allocates them aligned), so that one SM's writes
 * (its TLB, its counters) never invalidate the line another SM reads its
 * own fields from.
 */
struct sm {
	_Alignas(64) struct vgpu_core *core;
	unsigned int id;
	pthread_t thread;
	struct tlb_entry tlb[TLB_ENTRIES];
	struct tlb_entry tlb2[TLB2_ENTRIES];
	/* whose translations the TLB holds, and the invalidation seen */
	vgpu_core_translate_fn tlb_fn;
	void *tlb_ctx;
	uint64_t tlb_gen;
	atomic_ullong tlb_seen;	/* tlb_gen, or UINT64_MAX while idle */
	uint64_t tlb_misses;
	/* resident blocks of every context (under core->lock) */
	struct block **res;
	uint32_t nres, res_cap;
	uint32_t rr;		/* round robin: the block to run next */
	struct sm_usage used;	/* of the running context */
	uint64_t ctx_gen;	/* core->ctx_gen @used was counted for */
	struct block *pool;
	/* blocks another SM admitted here with their gang (dispatch.c);
	 * moved into @res by this SM, under core->lock */
	struct block *inbox;
	atomic_ullong progress;	/* warp-instructions retired */
	/* work since the SM last read the clock (sched.c: preempted()) */
	uint32_t clock_quanta;
	uint64_t clock_insns;
};

/* Why a grid stops before its end. */
enum grid_stop { GRID_RUN, GRID_STOP, GRID_TIMEOUT };

struct grid {
	struct vgpu_core_launch lc;	/* the caller's launch, copied */
	const struct vgpu_core_launch *l;	/* &lc */
	const struct vgpu_module *mod;
	const struct visa_kernel *k;
	uint32_t nblocks;
	uint32_t local_size;
	uint32_t shared_size;
	uint32_t warps;			/* per block */
	uint64_t occ_shared;		/* per block, vgpu_occupancy.h */
	uint32_t csize;			/* blocks per cluster (1: none) */
	uint32_t ncl[3];		/* clusters per grid dimension */
	uint32_t gang;			/* blocks admitted together: the
					 * grid (cooperative), a cluster,
					 * or 1 */
	/*
	 * under core->lock; on cache lines of their own (the grid is
	 * allocated aligned), apart from what every SM reads before every
	 * quantum (@faulted, @stop, the launch above): dispatching and
	 * retiring blocks writes them
	 */
	_Alignas(64) struct grid *next;	/* core's list: dispatch order */
	uint64_t seq;			/* submission order */
	uint32_t next_block;		/* next block index to dispatch */
	uint32_t live_blocks;		/* dispatched, not retired */
	uint64_t sched_ns;		/* scheduled time before @sched_mark */
	uint64_t sched_mark;		/* start of its current slice, or 0 */
	_Alignas(64) atomic_int faulted; /* 0, then 1 once a fault is
					 * recorded */
	atomic_int stop;		/* enum grid_stop */
	vgpu_core_done_fn done;
	void *done_arg;
	struct vgpu_core_fault fault;
	struct cdp_grid *cdp;		/* device-side launches (exec_cdp.c) */
	uint64_t param_copy[];		/* the kernel's parameter bytes */
};

struct vgpu_core {
	unsigned int num_sms;
	struct sm *sms;
	uint32_t max_shared, max_threads;
	uint64_t timeslice_ns;
	/*
	 * Three groups on cache lines of their own (the core is allocated
	 * aligned): what the lock protects; what every SM reads before every
	 * quantum and is rarely written (@ctx_gen, @next_tick, @tlb_gen);
	 * the counters the SMs add to.
	 */
	_Alignas(64) pthread_mutex_t lock; /* protects the fields below */
	pthread_cond_t work_cv;		/* SMs: new work, a switch, a stop */
	pthread_cond_t done_cv;		/* a grid ended */
	struct grid *grids;		/* active, by (priority, seq) */
	unsigned int ngrids;
	uint64_t seq;
	bool have_ctx;			/* @cur_ctx is set */
	uint32_t cur_ctx;		/* the context that runs on GR */
	uint64_t slice_start;		/* ns: when @cur_ctx got GR */
	bool quit;
	_Alignas(64) atomic_ullong ctx_gen; /* bumped by every context
					    * switch */
	atomic_ullong next_tick;	/* ns: when an SM runs sched_tick() */
	atomic_ullong tlb_gen;		/* bumped by vgpu_core_tlb_invalidate */
	_Alignas(64) atomic_uint active; /* grids, for vgpu_core_busy() */
	atomic_ullong warp_insns, thread_insns, tlb_misses;
};

/* dispatch.c: residency, dispatch order, the context that runs */
uint64_t core_now_ns(void);
bool grid_stopping(const struct grid *g);
void sched_tick(struct vgpu_core *core, uint64_t now);
void sched_dispatch(struct sm *sm);
void sm_recount(struct sm *sm);
void sched_retire(struct sm *sm);
struct grid *sched_reap(struct vgpu_core *core);
/* grid.c */
void grid_complete(struct vgpu_core *core, struct grid *g);

/* reg_init.c: the rows a function's warps zero at entry (module load),
 * and zeroing them */
void reg_init_plan(const struct vgpu_module *m, struct mfunc *f);
void reg_init_free(struct mfunc *f);
void reg_init_zero(const struct mfunc *f, uint64_t *regs);

/* fault.c: keep @g's first fault (the others are dropped) */
void core_record_fault(struct grid *g, const struct warp *w, int lane,
		       uint32_t pc, uint32_t kind, uint64_t addr,
		       const char *msg);

/* warp.c: run up to @quantum instructions.  Returns an enum run_result. */
enum run_result { RUN_YIELD, RUN_BARRIER, RUN_DONE, RUN_FAULT };
int warp_run(struct warp *w, uint32_t quantum);
/*
 * The interpreter itself (warp_run without the native tier), and the
 * pieces of it the native tier (firmware_sim/jit/) calls so that both
 * tiers share one implementation of the hard parts: one instruction
 * (returns an enum exec_status), a divergent BRA (0, or -1 on a fault),
 * and popping finished reconvergence entries (false: the warp is done).
 */
int warp_interp(struct warp *w, uint32_t quantum);
int warp_exec_insn(struct warp *w, const struct dinsn *in, uint32_t pc,
		   uint32_t mask);
int warp_branch(struct warp *w, const struct dinsn *in, uint32_t pc);
bool warp_settle(struct warp *w);
int warp_init(struct warp *w, struct block *b, uint32_t warp_id);
void warp_release(struct warp *w);
void warp_thread_idx(const struct warp *w, int lane, uint32_t tid[3]);

/* Status codes of executing one instruction. */
enum exec_status {
	EXEC_OK = 0,
	EXEC_FAULT,		/* fault recorded, stop the grid */
	EXEC_BARRIER,		/* warp blocked */
	EXEC_CONTROL,		/* stack changed: re-read the top entry */
	EXEC_YIELD,		/* let the block's other warps run */
};

/*
 * Run @stmt for every lane in @mask.  The full-warp case is a plain loop
 * over 32 lanes that the compiler vectorizes.
 */
#define FOR_LANES(mask, ...)						\
	do {								\
		if ((mask) == FULL_MASK) {				\
			for (int l = 0; l < WARP_SIZE; l++) {		\
				__VA_ARGS__;				\
			}						\
		} else {						\
			for (int l = 0; l < WARP_SIZE; l++) {		\
				if (((mask) >> l) & 1) {		\
					__VA_ARGS__;			\
				}					\
			}						\
		}							\
	} while (0)

/* Record "this instruction/type combination is not valid". */
int exec_bad(struct warp *w, const struct dinsn *in, uint32_t mask);

/* setp's optional .and/.or/.xor with pa. */
uint32_t combine_pred(const struct warp *w, const struct dinsn *in,
		      uint32_t r);

/* Write a predicate for the lanes in @mask only. */
static inline void pred_write(uint32_t *p, uint32_t mask, uint32_t value)
{
	*p = (*p & ~mask) | (value & mask);
}

/* The warp's execution context given to instruction semantics. */
static inline uint64_t *reg_row(struct warp *w, uint16_t r)
{
	return w->regs + (size_t)r * WARP_SIZE;
}

static inline const uint64_t *src_row(struct warp *w, const struct dinsn *in,
				      int slot, uint16_t r)
{
	return in->lit[slot] ? in->lit[slot] : w->regs + (size_t)r * WARP_SIZE;
}

int exec_int(struct warp *w, const struct dinsn *in, uint32_t mask);
int exec_float(struct warp *w, const struct dinsn *in, uint32_t mask);
int exec_mem(struct warp *w, const struct dinsn *in, uint32_t mask);
int exec_warp_op(struct warp *w, const struct dinsn *in, uint32_t mask);
int exec_mma(struct warp *w, const struct dinsn *in, uint32_t mask);
int exec_misc(struct warp *w, const struct dinsn *in, uint32_t mask);
int exec_printf(struct warp *w, const struct dinsn *in, uint32_t mask);
int exec_assert(struct warp *w, const struct dinsn *in, uint32_t mask);
int block_barrier(struct warp *w, const struct dinsn *in, uint32_t mask);
/* exec_cluster.c: clusters, DSMEM, %envreg */
int exec_cluster(struct warp *w, const struct dinsn *in, uint32_t pc,
		 uint32_t mask);
uint64_t cluster_sreg(const struct block *b, uint32_t id);
void cluster_lanes_exit(struct warp *w, uint32_t mask);
uint8_t *cluster_shared(struct warp *w, uint64_t addr, uint32_t size);

/* memory.c */
/* How memory is accessed: what mem_resolve() checks the page for. */
enum { ACC_READ = 0, ACC_WRITE = 1, ACC_ATOMIC = 2 };
void *mem_resolve(struct warp *w, uint32_t pc, int lane, int space,
		  uint64_t addr, uint32_t size, int access);
int mem_read_bytes(struct warp *w, uint32_t pc, int lane, uint64_t gaddr,
		   void *dst, uint32_t len);
int mem_write_bytes(struct warp *w, uint32_t pc, int lane, uint64_t va,
		    const void *src, uint32_t len);
int mem_read_string(struct warp *w, uint32_t pc, int lane, uint64_t gaddr,
		    char *dst, uint32_t cap, uint32_t *len);
void tlb_flush(struct sm *sm);
const struct tlb_entry *tlb_peek(const struct sm *sm, uint64_t va);

/*
 * counters.c: one ld/st of warp @warp (of @b) of @bytes per lane at @addr
 * (per lane)
 */
void counters_access(struct block *b, uint32_t warp, int space,
		     const uint64_t *addr, uint32_t mask, uint32_t bytes,
		     bool store);
/* add a retiring block's counters to its grid's */
void counters_retire(struct block *b);
/* sanitizer.c: a sanitized grid's checks (launch.sanitizer not NULL) */
void san_access(struct warp *w, const struct dinsn *in, const uint64_t *addr,
		uint32_t mask, uint32_t bytes, bool store);
void san_barrier(struct warp *w, const struct dinsn *in, uint32_t mask);
void san_barrier_done(struct block *b);
int san_block_setup(struct block *b);
/* fault.c: the line table's entry of instruction @pc, or NULL */
const struct visa_line *core_find_line(const struct vgpu_module *m,
				       uint32_t pc);

/* firmware_sim/jit/: the native tier (NULL / no-op when not chosen). */
struct jit_module *jit_module_create(const struct vgpu_module *m);
/*
 * True when the tier's compile thread is translating a function of the
 * module: the thread then frees the module (core_module_free()) itself.
 */
bool jit_module_free(struct jit_module *jm);
int jit_warp_run(struct warp *w, uint32_t quantum);

/* module.c: the module's memory (the native tier's part freed first). */
void core_module_free(struct vgpu_module *m);

/* validate.c */
int visa_validate(const void *image, size_t size, char *err, size_t errlen);

/* helpers */
static inline uint32_t pc_of(const struct warp *w, const struct dinsn *in);
const struct vgpu_module *warp_module(const struct warp *w);

static inline uint32_t pc_of(const struct warp *w, const struct dinsn *in)
{
	return (uint32_t)(in - warp_module(w)->code);
}

#endif /* VGPU_CORE_INTERNAL_H */
