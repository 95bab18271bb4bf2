/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fw_launcher.h - start the firmware for a guest test, and stop it.
 *
 * tools/check runs each guest test without a firmware: a test that needs
 * one starts build/bin/vgpu-fw itself (found from /proc/self/exe, or
 * $VGPU_FW), waits until /sys/class/misc/vgpu0/firmware says "attached",
 * and stops it at the end.  If a firmware is attached already (the test
 * was run with tools/vgpu-vm --fw), it is used and left alone.
 *
 * Used by the driver-API and runtime-API guest tests.
 */
#ifndef VGPU_FW_LAUNCHER_H
#define VGPU_FW_LAUNCHER_H

#include <stdbool.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the sysfs attribute of /dev/vgpu<index> says: "attached"... */
bool fw_launcher_attached(unsigned int index);

/*
 * Make sure a firmware serves /dev/vgpu0.  Returns the pid of the one
 * started (> 0), 0 if one was already attached, or -errno.
 */
pid_t fw_launcher_start(void);
/* The same for /dev/vgpu<index> (a test that uses a second device). */
pid_t fw_launcher_start_on(unsigned int index);

/* Stop a firmware fw_launcher_start() started (SIGTERM, then reap). */
void fw_launcher_stop(pid_t pid);
void fw_launcher_stop_on(pid_t pid, unsigned int index);

/* Kill it as a crash would (SIGKILL), and reap it. */
void fw_launcher_kill(pid_t pid);

#ifdef __cplusplus
}
#endif

#endif /* VGPU_FW_LAUNCHER_H */
