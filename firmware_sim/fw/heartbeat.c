// SPDX-License-Identifier: GPL-2.0
/*
 * heartbeat.c - telling the driver that the firmware lives, and how each
 * engine does.
 *
 * Every FW_HEARTBEAT_MS a small thread sends VGPU_IOCTL_FW_HEARTBEAT with
 * one record per engine (GR, CE0, CE1, the order of the uAPI):
 *
 *   progress  a counter that moves whenever the engine works: packets
 *             handled (fw_engine.epoch), plus the bytes COPY and MEMSET
 *             packets moved (fw_device.bytes_moved: one packet may copy
 *             gigabytes), plus for GR the warp-instructions the SMs
 *             retired (vgpu_core_progress()).  The bytes are counted for
 *             the whole device, so a copy on one engine also counts for
 *             the others: a stuck engine is found once the copying stops,
 *             never one that is moving data;
 *   RUNNABLE  the engine is inside a packet, or GR has a grid active: work
 *             it is doing now.  A queue stalled in WAIT_MEM costs the
 *             engine one quick look per millisecond and is not counted;
 *   ctx_id    the context whose grids run on GR now (the one holding the
 *             time slice, vgpu_core_running_ctx()).  Copy engines name none:
 *             a copy packet cannot wait on anything, so a copy engine
 *             stuck inside one is the firmware's fault, not a context's.
 *
 * The driver (kmod/vgpu_watchdog.c) declares the firmware hung when the
 * heartbeats stop, and stops the running context of an engine that is
 * RUNNABLE without progress.  The thread reads only atomics and takes the
 * execution core's lock for a moment, so a grid that spins forever, or an
 * engine stuck in a packet, does not stop the heartbeat: that is what lets
 * the driver tell "busy" from "hung".
 */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>

#include "fw.h"
#include "log.h"
#include "vgpu_core.h"

/* A quarter of the smallest hang_timeout_ms the driver accepts (1 s). */
#define FW_HEARTBEAT_MS		250

static void engine_status(struct fw_device *dev, enum fw_engine_id id,
			  struct vgpu_fw_engine_status *st)
{
	struct fw_engine *eng = &dev->engines[id];
	uint64_t progress = atomic_load(&eng->epoch) +
			    atomic_load(&dev->bytes_moved);
	bool runnable = atomic_load(&eng->busy);

	memset(st, 0, sizeof(*st));
	if (id == FW_ENGINE_GR) {
		progress += vgpu_core_progress(dev->core);
		runnable |= vgpu_core_busy(dev->core);
		st->ctx_id = vgpu_core_running_ctx(dev->core);
	}
	st->progress = progress;
	st->flags = runnable ? VGPU_FW_ENGINE_RUNNABLE : 0;
}

static void *heartbeat_main(void *arg)
{
	struct fw_device *dev = arg;
	bool warned = false;

	for (;;) {
		struct vgpu_fw_engine_status st[FW_NUM_ENGINES];
		struct vgpu_fw_heartbeat hb = {
			.num_engines = FW_NUM_ENGINES,
			.engines = (uintptr_t)st,
		};
		struct pollfd pfd = { .fd = dev->stop_fd, .events = POLLIN };

		for (int i = 0; i < FW_NUM_ENGINES; i++)
			engine_status(dev, (enum fw_engine_id)i, &st[i]);
		if (ioctl(dev->fd, VGPU_IOCTL_FW_HEARTBEAT, &hb)) {
			/*
			 * ENODEV: the driver declared us hung and detached us;
			 * the event thread's read() fails the same way and
			 * shuts the daemon down.
			 */
			if (errno == ENODEV)
				return NULL;
			if (!warned)
				fw_log_warn("%s: heartbeat: %s", dev->path,
					    strerror(errno));
			warned = true;
		}
		if (poll(&pfd, 1, FW_HEARTBEAT_MS) > 0)
			return NULL;
	}
}

int fw_heartbeat_start(struct fw_device *dev)
{
	return -pthread_create(&dev->heartbeat_thread, NULL, heartbeat_main,
			       dev);
}

/* After dev->stop_fd was signalled. */
void fw_heartbeat_stop(struct fw_device *dev)
{
	pthread_join(dev->heartbeat_thread, NULL);
}
