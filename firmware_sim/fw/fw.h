/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fw.h - the objects of the firmware daemon vgpu-fw.
 *
 * One struct fw_device per attached /dev/vgpuN.  Its event thread reads the
 * driver's records (contexts and queues appearing and going, kicks, TLB
 * flushes, stop orders) and keeps the tables of struct fw_ctx and struct
 * fw_queue.  Each queue is served by exactly one engine thread: compute
 * queues by GR, copy queues by CE0 or CE1.  An engine thread is the only
 * thread that executes its queues' packets and the only one that frees
 * them, so packet execution needs no locks; the event thread only flags
 * queues and contexts (dead, stopped) and wakes engines.
 *
 * Lifetimes:
 *  - a queue is created by the event thread (QUEUE_CREATE), handed to its
 *    engine, flagged @destroyed by the event thread (QUEUE_DESTROY) and
 *    unmapped and freed by the engine when it next looks at it;
 *  - a context is reference counted: one reference for the event thread's
 *    table (dropped at CTX_DESTROY) and one per queue.
 */
#ifndef VGPU_FW_H
#define VGPU_FW_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "vgpu_hw.h"
#include "linux/vgpu.h"

#include "aperture.h"
#include "vgpu_core.h"

struct fw_image;

/* Engines of one device: GR runs everything, CEs run copy queues. */
enum fw_engine_id {
	FW_ENGINE_GR = 0,
	FW_ENGINE_CE0 = 1,
	FW_ENGINE_CE1 = 2,
	FW_NUM_ENGINES
};

/* A GPU context: one address space, as the driver created it. */
struct fw_ctx {
	struct fw_device *dev;
	uint32_t id;
	uint64_t pd;			/* VRAM offset of the root table */
	atomic_uint refs;
	atomic_bool stopped;		/* fault or CTX_STOP: run nothing */
	atomic_uint flush_gen;		/* bumped by every TLB_FLUSH */
	/* Validated images; touched only by the GR engine (launch.c). */
	struct fw_image *images;
	unsigned int images_gen;	/* flush_gen the cache belongs to */
	/* Images dropped from the cache that a running grid still uses. */
	struct fw_image *retired_images;
	struct fw_ctx *next;		/* device table */
};

/* A user-mode queue. */
struct fw_queue {
	struct fw_ctx *ctx;
	uint32_t id;
	uint32_t engine;		/* enum vgpu_engine */
	uint8_t *ring;
	uint32_t ring_size;
	struct vgpu_doorbell *db;
	uint64_t rptr;			/* our copy of db->rptr */
	atomic_bool destroyed;		/* QUEUE_DESTROY seen */
	bool faulted;			/* stopped by a bad packet */
	bool stalled;			/* WAIT_MEM not satisfied yet */
	/*
	 * The LAUNCH at the head of the queue whose grid runs on the SMs
	 * (launch.c): the queue stays at that packet until the grid's
	 * completion callback sets @grid_done and wakes the engine.
	 */
	bool grid_inflight;
	atomic_bool grid_done;
	uint32_t grid_id;
	uint32_t grid_pkt_size;		/* to advance rptr by when done */
	struct fw_image *grid_img;	/* holds the module alive */
	int grid_result;		/* of the callback */
	struct vgpu_core_fault grid_fault;	/* of the callback */
	/* VGPU_LAUNCH_F_COUNTERS: where they go, and the grid's count */
	uint64_t counters_va;		/* 0: the launch does not count */
	uint32_t counters_size;
	uint64_t grid_start_ns;
	struct vgpu_core_counters grid_counters;
	struct fw_san *san;		/* a sanitized launch (sanitizer.c) */
	struct vgpu_fault launch_fault;	/* kernel name and va, so far */
	struct fw_engine *eng;
	struct fw_queue *next;		/* device table (event thread) */
	struct fw_queue *eng_next;	/* engine list (engine) */
};

/* One engine thread and the queues it serves. */
struct fw_engine {
	struct fw_device *dev;
	enum fw_engine_id id;
	const char *name;
	pthread_t thread;
	pthread_mutex_t lock;		/* @incoming, @wake, @quit */
	pthread_cond_t cond;
	struct fw_queue *incoming;	/* new queues, from the event thread */
	bool wake;
	bool quit;
	struct fw_queue *queues;	/* engine-private list */
	uint8_t *pkt;			/* copy of the packet being run */
	/* For grace periods (device.c): packets finished, and "in one now". */
	atomic_ullong epoch;
	atomic_bool busy;
};

/* One attached device. */
struct fw_device {
	char path[64];
	int fd;
	int stop_fd;			/* eventfd: tells the event thread to quit */
	struct fw_aperture vram;
	struct fw_aperture gart;
	struct vgpu_core *core;
	struct vgpu_l2 *l2;		/* the L2 model (counted grids) */
	struct fw_engine engines[FW_NUM_ENGINES];
	unsigned int poll_us;		/* idle polling before sleeping */
	/* Per-grid execution limit from the driver (CONFIG), 0 = none: a
	 * grid scheduled longer stops with VGPU_FAULT_WATCHDOG.  Read at
	 * each launch. */
	atomic_uint exec_limit_ms;
	/* Bytes COPY and MEMSET packets moved: progress for the heartbeat. */
	atomic_ullong bytes_moved;
	pthread_t event_thread;
	pthread_t heartbeat_thread;	/* heartbeat.c */
	bool heartbeat;			/* the thread runs */
	struct fw_ctx *ctxs;		/* event thread only */
	struct fw_queue *queues;	/* event thread only */
	/* Acknowledgement waiting for the engines (event thread only). */
	uint64_t ack_seq;		/* 0: none pending */
	bool ack_unsupported;		/* the driver predates FW_ACK */
	bool ack_done[FW_NUM_ENGINES];
	unsigned long long ack_epoch[FW_NUM_ENGINES];
	uint64_t tlb_ticket;		/* of the last TLB shootdown, or 0 */
	uint64_t ack_tlb;		/* the ticket the pending ack waits for */
};

/*
 * Whether GR stops a grid that was scheduled longer than exec_limit_ms
 * (the scheduler's per-grid limit in firmware_sim/core).  Set to 1 with
 * that enforcement: the firmware then attaches with
 * VGPU_FW_ATTACH_EXEC_LIMIT and user space sees VGPU_INFO_EXEC_LIMIT (the
 * guest tests of the limit run only then).
 */
#ifndef FW_EXEC_LIMIT_ENFORCED
#define FW_EXEC_LIMIT_ENFORCED	1
#endif

/* Options of the daemon. */
struct fw_options {
	unsigned int num_sms;
	unsigned int poll_us;
	unsigned int timeslice_us;	/* 0: the core's default */
};

/* device.c */
int fw_device_attach(struct fw_device *dev, const char *path,
		     const struct fw_options *opt);
void fw_device_detach(struct fw_device *dev);
/* oom.c: lower our oom_score_adj as system daemons do (best effort). */
void fw_protect_from_oom(void);
void fw_ctx_put(struct fw_ctx *ctx);

/* packets.c: run the packet at the head of @q */
enum fw_pkt_result {
	FW_PKT_IDLE,		/* nothing queued */
	FW_PKT_DONE,		/* one packet completed */
	FW_PKT_STALL,		/* WAIT_MEM not satisfied: try again later */
	FW_PKT_STOPPED,		/* the queue or its context is stopped */
	FW_PKT_BUSY,		/* its LAUNCH's grid runs: wait for it */
};
#define FW_MAX_PACKET	(64u << 10)
enum fw_pkt_result fw_queue_run_one(struct fw_engine *eng, struct fw_queue *q);

/*
 * Run a VGPU_PKT_COPY_TILED (copy_tiled.c): 0, a VGPU_FAULT_* kind with
 * the address in *@fault_va, or -1 for a malformed packet.
 */
int fw_copy_tiled(struct fw_ctx *ctx, const struct vgpu_pkt_copy_tiled *p,
		  uint64_t *fault_va);

/* launch.c */
int fw_launch(struct fw_engine *eng, struct fw_queue *q, const void *pkt,
	      uint32_t size, struct vgpu_fault *fault);
int fw_launch_finish(struct fw_queue *q, struct vgpu_fault *fault);
void fw_launch_abandon(struct fw_queue *q);
void fw_images_free(struct fw_ctx *ctx);
void fw_images_destroy(struct fw_ctx *ctx);

/* engine.c */
int fw_engine_start(struct fw_engine *eng, struct fw_device *dev,
		    enum fw_engine_id id);
void fw_engine_stop(struct fw_engine *eng);
void fw_engine_add_queue(struct fw_engine *eng, struct fw_queue *q);
void fw_engine_wake(struct fw_engine *eng);

/* heartbeat.c: tell the driver we are alive, and how each engine does */
int fw_heartbeat_start(struct fw_device *dev);
void fw_heartbeat_stop(struct fw_device *dev);

/* interrupts.c: the two ways the device talks to the driver */
int fw_signal_fence(struct fw_queue *q, uint64_t value);
void fw_fault_queue(struct fw_queue *q, struct vgpu_fault *fault);

#endif /* VGPU_FW_H */
