// SPDX-License-Identifier: GPL-2.0
/*
 * oom.c - keep the OOM killer away from the firmware
 *
 * The firmware is the GPU of every client: if the OOM killer picks it,
 * every client of every device loses its device at once.  Like other
 * system daemons that everything depends on (dbus-daemon uses the same
 * value), the firmware asks for an oom_score_adj of -900: killed only when
 * nothing else is left, rather than -1000 (never), so that a runaway
 * firmware can still be stopped by the kernel.  The memory clients ask
 * for (rings, host memory, VRAM pages) does not count in the firmware's
 * RSS: the driver maps it into the firmware as PFN mappings.
 *
 * Lowering the value needs CAP_SYS_RESOURCE.  Under systemd the unit sets
 * OOMScoreAdjust= itself (firmware_sim/vgpu-fw.service); without the
 * capability the firmware says so and carries on.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fw.h"
#include "log.h"

#define FW_OOM_SCORE_ADJ	-900

/* The current oom_score_adj, or 0 if it cannot be read. */
static int fw_oom_score_adj(void)
{
	char buf[16] = "";
	int fd = open("/proc/self/oom_score_adj", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (read(fd, buf, sizeof(buf) - 1) < 0)
		buf[0] = '\0';
	close(fd);
	return atoi(buf);
}

void fw_protect_from_oom(void)
{
	char val[16];
	int fd, len, ok;

	/* Already as low (systemd's OOMScoreAdjust=, a parent): keep it. */
	if (fw_oom_score_adj() <= FW_OOM_SCORE_ADJ)
		return;
	fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		fw_log_warn("cannot open /proc/self/oom_score_adj: %s",
			    strerror(errno));
		return;
	}
	len = snprintf(val, sizeof(val), "%d", FW_OOM_SCORE_ADJ);
	ok = write(fd, val, len) == len;
	if (!ok)
		fw_log_info("oom_score_adj stays %d (%s): the OOM killer may pick the firmware",
			    fw_oom_score_adj(), strerror(errno));
	close(fd);
}
