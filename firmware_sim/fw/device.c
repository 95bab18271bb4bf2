// SPDX-License-Identifier: GPL-2.0
/*
 * device.c - attaching to a /dev/vgpuN and serving its firmware channel.
 *
 * Attaching (VGPU_IOCTL_FW_ATTACH) makes the open file the device end of
 * the driver.  The firmware maps VRAM and the GART aperture, starts the
 * execution core's SM threads and the three engine threads, and then its
 * event thread reads the driver's records (struct vgpu_fw_event) and keeps
 * the tables of contexts and queues up to date.  After a firmware restart
 * the driver replays every existing context and queue, so the tables are
 * rebuilt the same way.
 *
 * The event thread also enforces stop orders (CTX_STOP, sent by the driver
 * when a context faulted, or ran on an engine that hung): every grid of a
 * stopped context that is active on GR is asked to stop
 * (vgpu_core_stop_ctx()), and asked again on every tick until it has, so
 * no race between the order and a grid's start can leave one running.
 * CONFIG records carry the parameters the firmware enforces (the
 * per-kernel execution limit).
 *
 * The firmware attaches saying what it does (VGPU_FW_ATTACH_*): it sends
 * heartbeats (heartbeat.c), reads CONFIG records, and - once GR enforces
 * it - the execution limit.  A driver older than uAPI 1.2 refuses those
 * flags; the firmware then attaches without them and sends no heartbeat.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fw.h"
#include "log.h"
#include "vgpu_barrier.h"
#include "vgpu_core.h"

/* How often the event thread re-checks stop orders (ms). */
#define FW_EVENT_TICK_MS	50
#define FW_EVENT_BATCH		16

void fw_ctx_put(struct fw_ctx *ctx)
{
	if (atomic_fetch_sub(&ctx->refs, 1) != 1)
		return;
	fw_images_destroy(ctx);
	free(ctx);
}

static struct fw_ctx *find_ctx(struct fw_device *dev, uint32_t id)
{
	struct fw_ctx *ctx;

	for (ctx = dev->ctxs; ctx && ctx->id != id; ctx = ctx->next)
		;
	return ctx;
}

static struct fw_queue *find_queue(struct fw_device *dev, uint32_t id,
				   bool unlink)
{
	struct fw_queue *q, **link;

	for (link = &dev->queues; (q = *link); link = &q->next) {
		if (q->id == id) {
			if (unlink)
				*link = q->next;
			return q;
		}
	}
	return NULL;
}

static void ctx_create(struct fw_device *dev, const struct vgpu_fw_event *ev)
{
	struct fw_ctx *ctx = calloc(1, sizeof(*ctx));

	if (!ctx) {
		fw_log_err("%s: out of memory for context %u", dev->path,
			   ev->ctx_id);
		return;
	}
	ctx->dev = dev;
	ctx->id = ev->ctx_id;
	ctx->pd = ev->arg0;
	atomic_init(&ctx->refs, 1);
	ctx->next = dev->ctxs;
	dev->ctxs = ctx;
}

static void ctx_destroy(struct fw_device *dev, uint32_t id)
{
	struct fw_ctx *ctx, **link;

	for (link = &dev->ctxs; (ctx = *link); link = &ctx->next) {
		if (ctx->id == id) {
			*link = ctx->next;
			atomic_store(&ctx->stopped, true);
			vgpu_core_stop_ctx(dev->core, id);
			fw_ctx_put(ctx);
			return;
		}
	}
}

/* Stop the grids of every context that must not run any more. */
static void enforce_stops(struct fw_device *dev)
{
	if (!vgpu_core_busy(dev->core))
		return;
	for (struct fw_ctx *ctx = dev->ctxs; ctx; ctx = ctx->next)
		if (atomic_load(&ctx->stopped))
			vgpu_core_stop_ctx(dev->core, ctx->id);
}

static void ctx_stop(struct fw_device *dev, uint32_t id)
{
	struct fw_ctx *ctx = find_ctx(dev, id);

	if (!ctx)
		return;
	/* A context we faulted ourselves is stopped already and was logged. */
	if (!atomic_exchange(&ctx->stopped, true))
		fw_log_warn("%s: context %u stopped by the driver (a hung "
			    "engine, or lost in a firmware restart)",
			    dev->path, id);
	enforce_stops(dev);
}

static void queue_create(struct fw_device *dev, const struct vgpu_fw_event *ev)
{
	struct fw_ctx *ctx = find_ctx(dev, ev->ctx_id);
	uint64_t size = ev->arg0;
	struct fw_queue *q;
	void *ring, *db;

	if (!ctx || size < 4096 || size > (1u << 20) || (size & (size - 1))) {
		fw_log_warn("%s: ignoring queue %u (context %u, ring %llu)",
			    dev->path, ev->queue_id, ev->ctx_id,
			    (unsigned long long)size);
		return;
	}
	q = calloc(1, sizeof(*q));
	ring = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, dev->fd,
		    (off_t)ev->arg1);
	db = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, dev->fd,
		  (off_t)ev->arg2);
	if (!q || ring == MAP_FAILED || db == MAP_FAILED) {
		/* Most likely destroyed already: its DESTROY record follows. */
		if (ring != MAP_FAILED)
			munmap(ring, size);
		if (db != MAP_FAILED)
			munmap(db, 4096);
		free(q);
		return;
	}
	q->ctx = ctx;
	atomic_fetch_add(&ctx->refs, 1);
	q->id = ev->queue_id;
	q->engine = ev->engine;
	q->ring = ring;
	q->ring_size = (uint32_t)size;
	q->db = db;
	q->rptr = vgpu_smp_load_acquire(&q->db->rptr);
	q->next = dev->queues;
	dev->queues = q;
	fw_engine_add_queue(&dev->engines[ev->engine == VGPU_ENGINE_COMPUTE ?
			    FW_ENGINE_GR : FW_ENGINE_CE0 + (q->id & 1)], q);
}

static void handle_event(struct fw_device *dev, const struct vgpu_fw_event *ev)
{
	struct fw_queue *q;
	struct fw_ctx *ctx;

	switch (ev->type) {
	case VGPU_FW_EV_CTX_CREATE:
		ctx_create(dev, ev);
		break;
	case VGPU_FW_EV_CTX_DESTROY:
		ctx_destroy(dev, ev->ctx_id);
		dev->tlb_ticket = vgpu_core_tlb_invalidate(dev->core);
		break;
	case VGPU_FW_EV_CTX_STOP:
		ctx_stop(dev, ev->ctx_id);
		break;
	case VGPU_FW_EV_TLB_FLUSH:
		ctx = find_ctx(dev, ev->ctx_id);
		if (ctx)
			atomic_fetch_add(&ctx->flush_gen, 1);
		/* the SMs drop their cached translations at their next
		 * quantum boundary */
		dev->tlb_ticket = vgpu_core_tlb_invalidate(dev->core);
		break;
	case VGPU_FW_EV_QUEUE_CREATE:
		queue_create(dev, ev);
		break;
	case VGPU_FW_EV_QUEUE_DESTROY:
		q = find_queue(dev, ev->queue_id, true);
		if (q) {
			/* From now on the queue belongs to its engine alone. */
			atomic_store(&q->destroyed, true);
			fw_engine_wake(q->eng);
		}
		break;
	case VGPU_FW_EV_QUEUE_KICK:
		q = find_queue(dev, ev->queue_id, false);
		if (q)
			fw_engine_wake(q->eng);
		break;
	case VGPU_FW_EV_CONFIG:
		atomic_store(&dev->exec_limit_ms, ev->arg0 > UINT32_MAX ?
			     UINT32_MAX : (unsigned int)ev->arg0);
		fw_log_info("%s: kernel execution limit %llu ms%s", dev->path,
			    (unsigned long long)ev->arg0,
			    ev->arg0 ? "" : " (none)");
		break;
	default:
		fw_log_warn("%s: unknown event type %u", dev->path, ev->type);
	}
}

/*
 * Acknowledging records (VGPU_IOCTL_FW_ACK, when the driver has it).
 *
 * An unmap or a context's destruction takes memory away from the device,
 * and the driver frees it only once the firmware acknowledged the record:
 * the firmware must first be sure that no engine still uses a translation
 * made before.  Handling the record updates the state every engine reads
 * before a packet (the context's stopped flag, its flush generation), so
 * what remains is a grace period, as in RCU: every engine that was inside
 * a packet when the records were handled must have left it.  Engines mark
 * "inside a packet" (busy) and count the packets they finished (epoch);
 * the event thread takes a snapshot after handling a batch and acks once
 * each engine was seen idle or its epoch moved.
 *
 * Grids run on the SMs outside any packet, so a batch that took memory
 * away (TLB_FLUSH, CTX_DESTROY) also waits for the SMs: the core's TLB
 * shootdown (vgpu_core_tlb_invalidate()) makes each SM drop its cached
 * translations at its next warp-quantum boundary, and the ack waits
 * until every SM has crossed one or is idle (vgpu_core_tlb_synced()).
 * A grid of a destroyed context was stopped before, and an SM checks
 * for that after its TLB, so it runs no further quantum either.
 *
 *     event thread          SM 0               SM 1
 *     unmap record
 *     stop/flush gen        quantum ...        idle
 *     tlb_invalidate -> T   quantum boundary:
 *                            drop TLB, seen=T
 *     synced(T)? yes -> FW_ACK -> driver frees the pages
 */
static void ack_start(struct fw_device *dev, uint64_t seq)
{
	dev->ack_seq = seq;
	/* tickets grow: the newest covers every earlier shootdown */
	dev->ack_tlb = dev->tlb_ticket;
	for (int i = 0; i < FW_NUM_ENGINES; i++) {
		struct fw_engine *eng = &dev->engines[i];

		dev->ack_epoch[i] = atomic_load(&eng->epoch);
		dev->ack_done[i] = !atomic_load(&eng->busy);
	}
}

static void ack_poll(struct fw_device *dev)
{
	if (!dev->ack_seq)
		return;
	if (dev->ack_tlb && !vgpu_core_tlb_synced(dev->core, dev->ack_tlb))
		return;
	for (int i = 0; i < FW_NUM_ENGINES; i++) {
		struct fw_engine *eng = &dev->engines[i];

		if (!dev->ack_done[i])
			dev->ack_done[i] =
				atomic_load(&eng->epoch) != dev->ack_epoch[i] ||
				!atomic_load(&eng->busy);
		if (!dev->ack_done[i])
			return;
	}
#ifdef VGPU_IOCTL_FW_ACK
	struct vgpu_fw_ack ack = { .seq = dev->ack_seq };

	if (!dev->ack_unsupported && ioctl(dev->fd, VGPU_IOCTL_FW_ACK, &ack)) {
		/* An older driver frees memory without waiting for us. */
		if (errno == ENOTTY)
			dev->ack_unsupported = true;
		else
			fw_log_warn("%s: acknowledging record %llu: %s",
				    dev->path, (unsigned long long)ack.seq,
				    strerror(errno));
	}
#endif
	dev->ack_seq = 0;
}

/* The sequence number of a record, 0 if the driver has none. */
static uint64_t event_seq(const struct vgpu_fw_event *ev)
{
#ifdef VGPU_IOCTL_FW_ACK
	return ev->seq;
#else
	(void)ev;
	return 0;
#endif
}

static void *event_main(void *arg)
{
	struct fw_device *dev = arg;
	struct vgpu_fw_event evs[FW_EVENT_BATCH];

	for (;;) {
		struct pollfd pfd[2] = {
			{ .fd = dev->fd, .events = POLLIN },
			{ .fd = dev->stop_fd, .events = POLLIN },
		};
		ssize_t n;

		enforce_stops(dev);
		ack_poll(dev);
		if (poll(pfd, 2, FW_EVENT_TICK_MS) < 0 && errno != EINTR)
			break;
		if (pfd[1].revents)
			return NULL;
		/* POLLERR: the driver detached us (declared hung). */
		if (pfd[0].revents & POLLERR) {
			errno = ENODEV;
			break;
		}
		if (!(pfd[0].revents & POLLIN))
			continue;
		n = read(dev->fd, evs, sizeof(evs));
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			break;
		}
		n /= (ssize_t)sizeof(evs[0]);
		for (ssize_t i = 0; i < n; i++)
			handle_event(dev, &evs[i]);
		/* A newer grace period covers the pending one too. */
		if (n && event_seq(&evs[n - 1])) {
			ack_start(dev, event_seq(&evs[n - 1]));
			ack_poll(dev);
		}
	}
	fw_log_err("%s: firmware channel failed: %s; shutting down", dev->path,
		   strerror(errno));
	kill(getpid(), SIGTERM);
	return NULL;
}

int fw_device_attach(struct fw_device *dev, const char *path,
		     const struct fw_options *opt)
{
	struct vgpu_core_config cfg = { .num_sms = opt->num_sms,
					 .timeslice_us = opt->timeslice_us };
	struct vgpu_fw_attach args = {
		.flags = VGPU_FW_ATTACH_HEARTBEAT | VGPU_FW_ATTACH_CONFIG |
			 (FW_EXEC_LIMIT_ENFORCED ? VGPU_FW_ATTACH_EXEC_LIMIT : 0),
	};
	int ret, i;

	memset(dev, 0, sizeof(*dev));
	snprintf(dev->path, sizeof(dev->path), "%s", path);
	dev->stop_fd = -1;
	dev->poll_us = opt->poll_us;
	dev->fd = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK);
	if (dev->fd < 0) {
		ret = -errno;
		fw_log_err("%s: %s", path, strerror(errno));
		return ret;
	}
	ret = ioctl(dev->fd, VGPU_IOCTL_FW_ATTACH, &args);
	/* A driver before uAPI 1.2 knows no flags: serve it without them. */
	if (ret && errno == EINVAL) {
		fw_log_info("%s: the driver predates heartbeats and CONFIG",
			    path);
		args.flags = 0;
		ret = ioctl(dev->fd, VGPU_IOCTL_FW_ATTACH, &args);
	}
	if (ret) {
		ret = -errno;
		fw_log_err("%s: attach: %s%s", path, strerror(errno),
			   errno == EBUSY ? " (another firmware serves it)" :
			   "");
		goto err_close;
	}
	ret = fw_aperture_map(&dev->vram, dev->fd, args.vram_offset,
			      args.vram_size);
	if (!ret)
		ret = fw_aperture_map(&dev->gart, dev->fd, args.gart_offset,
				      args.gart_entries * 4096);
	if (ret) {
		fw_log_err("%s: mapping VRAM/GART: %s", path, strerror(-ret));
		goto err_unmap;
	}
	fw_peers_map(dev);
	dev->core = vgpu_core_create(&cfg);
	dev->l2 = vgpu_l2_create(VGPU_L2_BYTES);
	dev->stop_fd = eventfd(0, EFD_CLOEXEC);
	if (!dev->core || !dev->l2 || dev->stop_fd < 0) {
		ret = -ENOMEM;
		fw_log_err("%s: cannot start the execution core", path);
		goto err_core;
	}
	for (i = 0; i < FW_NUM_ENGINES; i++) {
		ret = fw_engine_start(&dev->engines[i], dev, i);
		if (ret)
			goto err_engines;
	}
	ret = -pthread_create(&dev->event_thread, NULL, event_main, dev);
	if (ret)
		goto err_engines;
	if (args.flags & VGPU_FW_ATTACH_HEARTBEAT) {
		ret = fw_heartbeat_start(dev);
		if (ret)
			goto err_event;
		dev->heartbeat = true;
	}
	fw_log_info("%s: attached: %llu MiB VRAM, %llu GART pages, %u SMs, "
		    "engines GR CE0 CE1%s", path,
		    (unsigned long long)(args.vram_size >> 20),
		    (unsigned long long)args.gart_entries,
		    vgpu_core_num_sms(dev->core),
		    dev->heartbeat ? ", heartbeat" : "");
	return 0;

err_event:
	{
		uint64_t one = 1;

		if (write(dev->stop_fd, &one, sizeof(one)) != sizeof(one))
			fw_log_err("%s: cannot stop the event thread", path);
		pthread_join(dev->event_thread, NULL);
	}
err_engines:
	while (--i >= 0)
		fw_engine_stop(&dev->engines[i]);
err_core:
	if (dev->stop_fd >= 0)
		close(dev->stop_fd);
	if (dev->core)
		vgpu_core_destroy(dev->core);
	vgpu_l2_destroy(dev->l2);
err_unmap:
	fw_peers_unmap(dev);
	fw_aperture_unmap(&dev->gart);
	fw_aperture_unmap(&dev->vram);
err_close:
	close(dev->fd);
	dev->fd = -1;
	return ret;
}

void fw_device_detach(struct fw_device *dev)
{
	uint64_t one = 1;
	struct fw_ctx *ctx;

	if (dev->fd < 0)
		return;
	/* Stop whatever runs: the grid first, so GR can return. */
	for (ctx = dev->ctxs; ctx; ctx = ctx->next)
		atomic_store(&ctx->stopped, true);
	vgpu_core_stop(dev->core);
	if (write(dev->stop_fd, &one, sizeof(one)) != sizeof(one))
		fw_log_err("%s: cannot stop the event thread", dev->path);
	pthread_join(dev->event_thread, NULL);
	if (dev->heartbeat)
		fw_heartbeat_stop(dev);
	/*
	 * Every context is stopped, so GR submits no new grid; keep stopping
	 * those it may have submitted just before, until none is active
	 * (their completion callbacks have run).
	 */
	while (vgpu_core_busy(dev->core)) {
		vgpu_core_stop(dev->core);
		usleep(10000);
	}
	for (int i = 0; i < FW_NUM_ENGINES; i++)
		fw_engine_stop(&dev->engines[i]);
	dev->queues = NULL;	/* freed by their engines */
	while ((ctx = dev->ctxs)) {
		dev->ctxs = ctx->next;
		fw_ctx_put(ctx);
	}
	vgpu_core_destroy(dev->core);
	vgpu_l2_destroy(dev->l2);
	close(dev->stop_fd);
	fw_peers_unmap(dev);
	fw_aperture_unmap(&dev->gart);
	fw_aperture_unmap(&dev->vram);
	close(dev->fd);
	dev->fd = -1;
	fw_log_info("%s: detached", dev->path);
}
