// SPDX-License-Identifier: GPL-2.0
/*
 * engine.c - an engine thread: the scheduler of the queues it serves.
 *
 * The loop takes one packet from each queue in turn (round robin, so a
 * queue full of work cannot starve the others of the same engine), and
 * repeats while anything made progress.  When nothing did, the engine
 * goes to sleep with the doorbell handshake of include/vgpu_hw.h:
 *
 *     engine                              application
 *     fw_sleeping = 1 (every queue)       wptr = new (release)
 *     full barrier                        full barrier
 *     re-read every wptr                  read fw_sleeping: kick if set
 *
 * Either the engine sees the new wptr, or the application sees the flag
 * and kicks (the driver's QUEUE_KICK record wakes us), so no submission
 * is ever missed, and a busy application makes no system call at all.
 * A queue stalled on WAIT_MEM is polled every millisecond instead.
 *
 * A LAUNCH does not hold the engine: its grid goes to the execution core
 * and the queue waits at the packet (FW_PKT_BUSY) while the engine serves
 * the other queues, so grids of different queues (CUDA streams) run at
 * the same time.  Such a queue is not runnable, whatever its wptr says,
 * until the grid's completion callback sets grid_done and wakes the
 * engine (fw_engine_wake(): the same wake-up as a kick, so it cannot be
 * lost between the last check and the sleep).
 *
 * Before sleeping, the engine keeps polling for --poll-us microseconds
 * (SQPOLL's idle time): a client that submits again right after its last
 * fence completed - the common synchronous pattern - then needs no kick.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "fw.h"
#include "log.h"
#include "vgpu_barrier.h"
#include "vgpu_core.h"

static const char *const engine_names[FW_NUM_ENGINES] = {
	[FW_ENGINE_GR] = "GR", [FW_ENGINE_CE0] = "CE0", [FW_ENGINE_CE1] = "CE1",
};

/* Release a queue: only its engine (or the engine's last act) does this. */
static void queue_free(struct fw_queue *q)
{
	fw_launch_abandon(q);
	munmap(q->ring, q->ring_size);
	munmap(q->db, sizeof(*q->db) > 4096 ? sizeof(*q->db) : 4096);
	fw_ctx_put(q->ctx);
	free(q);
}

/*
 * A queue whose grid runs needs no kick for what is queued behind it:
 * nothing of it can run before the grid ends, and the grid's end wakes
 * the engine anyway.  So it is never marked sleeping, and a stream that
 * queues work behind a running kernel makes no system call.
 */
static void set_sleeping(struct fw_engine *eng, uint32_t value)
{
	for (struct fw_queue *q = eng->queues; q; q = q->eng_next)
		VGPU_WRITE_ONCE(q->db->fw_sleeping,
				value && !q->grid_inflight);
}

/* Could a queue make progress without a kick? */
static bool has_runnable_work(struct fw_engine *eng)
{
	for (struct fw_queue *q = eng->queues; q; q = q->eng_next) {
		uint64_t wptr;

		if (q->grid_inflight) {
			if (atomic_load(&q->grid_done))
				return true;
			continue;
		}
		if (q->stalled || q->faulted || atomic_load(&q->ctx->stopped))
			continue;
		wptr = VGPU_READ_ONCE(q->db->wptr);
		if (wptr != q->rptr)
			return true;
	}
	return false;
}

/* Adopt new queues and drop destroyed ones; true if told to quit. */
static bool update_queues(struct fw_engine *eng)
{
	struct fw_queue *q, **link, *in;
	bool quit;

	pthread_mutex_lock(&eng->lock);
	in = eng->incoming;
	eng->incoming = NULL;
	eng->wake = false;
	quit = eng->quit;
	pthread_mutex_unlock(&eng->lock);

	while (in) {
		q = in;
		in = in->eng_next;
		q->eng_next = eng->queues;
		eng->queues = q;
	}
	for (link = &eng->queues; (q = *link);) {
		/* A queue whose grid still runs goes when the grid has. */
		if (atomic_load(&q->destroyed) && q->grid_inflight &&
		    !atomic_load(&q->grid_done)) {
			vgpu_core_stop_grid(eng->dev->core, q->grid_id);
			link = &q->eng_next;
			continue;
		}
		if (atomic_load(&q->destroyed)) {
			*link = q->eng_next;
			queue_free(q);
		} else {
			link = &q->eng_next;
		}
	}
	return quit;
}

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000;
}

/* Tell the CPU we are spinning (frees the sibling hyperthread). */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* Poll the doorbells for a while; true as soon as one rang. */
static bool idle_poll(struct fw_engine *eng)
{
	uint64_t end = now_us() + eng->dev->poll_us;

	do {
		if (has_runnable_work(eng))
			return true;
		cpu_relax();
	} while (now_us() < end);
	return false;
}

/* Sleep until woken, or @ms milliseconds. */
static void engine_sleep(struct fw_engine *eng, unsigned int ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&eng->lock);
	while (!eng->wake && !eng->quit)
		if (pthread_cond_timedwait(&eng->cond, &eng->lock, &ts) ==
		    ETIMEDOUT)
			break;
	pthread_mutex_unlock(&eng->lock);
}

static void *engine_main(void *arg)
{
	struct fw_engine *eng = arg;

	while (!update_queues(eng)) {
		bool progress = false, stalled = false;

		for (struct fw_queue *q = eng->queues; q; q = q->eng_next) {
			enum fw_pkt_result res;

			/* Decisions made from here on see the newest state. */
			atomic_store(&eng->busy, true);
			res = fw_queue_run_one(eng, q);
			atomic_fetch_add(&eng->epoch, 1);
			atomic_store(&eng->busy, false);

			q->stalled = res == FW_PKT_STALL;
			stalled |= q->stalled;
			progress |= res == FW_PKT_DONE;
		}
		if (progress || (!stalled && idle_poll(eng)))
			continue;

		/* the handshake with vgpu_queue_submit() (vgpu_barrier.h (3)) */
		set_sleeping(eng, 1);
		vgpu_smp_mb();
		if (!has_runnable_work(eng))
			engine_sleep(eng, stalled ? 1 : 1000);
		set_sleeping(eng, 0);
	}
	return NULL;
}

int fw_engine_start(struct fw_engine *eng, struct fw_device *dev,
		    enum fw_engine_id id)
{
	pthread_condattr_t attr;
	int ret;

	eng->dev = dev;
	eng->id = id;
	eng->name = engine_names[id];
	eng->pkt = malloc(FW_MAX_PACKET);
	if (!eng->pkt)
		return -ENOMEM;
	pthread_mutex_init(&eng->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&eng->cond, &attr);
	pthread_condattr_destroy(&attr);
	ret = pthread_create(&eng->thread, NULL, engine_main, eng);
	if (ret) {
		free(eng->pkt);
		eng->pkt = NULL;
		return -ret;
	}
	return 0;
}

void fw_engine_stop(struct fw_engine *eng)
{
	struct fw_queue *q;

	if (!eng->pkt)
		return;
	pthread_mutex_lock(&eng->lock);
	eng->quit = true;
	pthread_cond_signal(&eng->cond);
	pthread_mutex_unlock(&eng->lock);
	pthread_join(eng->thread, NULL);

	/*
	 * A grid submitted just before its context was stopped may still
	 * be ending: its completion callback touches its queue, so the
	 * queues go only once no grid is active.
	 */
	if (eng->id == FW_ENGINE_GR)
		while (vgpu_core_busy(eng->dev->core)) {
			vgpu_core_stop(eng->dev->core);
			usleep(1000);
		}
	while ((q = eng->queues)) {
		eng->queues = q->eng_next;
		queue_free(q);
	}
	while ((q = eng->incoming)) {
		eng->incoming = q->eng_next;
		queue_free(q);
	}
	pthread_cond_destroy(&eng->cond);
	pthread_mutex_destroy(&eng->lock);
	free(eng->pkt);
	eng->pkt = NULL;
}

void fw_engine_add_queue(struct fw_engine *eng, struct fw_queue *q)
{
	q->eng = eng;
	pthread_mutex_lock(&eng->lock);
	q->eng_next = eng->incoming;
	eng->incoming = q;
	eng->wake = true;
	pthread_cond_signal(&eng->cond);
	pthread_mutex_unlock(&eng->lock);
}

void fw_engine_wake(struct fw_engine *eng)
{
	pthread_mutex_lock(&eng->lock);
	eng->wake = true;
	pthread_cond_signal(&eng->cond);
	pthread_mutex_unlock(&eng->lock);
}
