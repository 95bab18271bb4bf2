/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the runtime's guest tests share: TAP output, the build directory,
 * and - through the driver-API tests' fw_launcher.h - starting the real
 * firmware when no one else has (tools/check runs guest tests without
 * --fw, `make run` with it).
 *
 * Written in C and linked into nvcc-built test programs.
 */
#ifndef RT_TEST_UTIL_H
#define RT_TEST_UTIL_H

#include <stdbool.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* --- TAP ------------------------------------------------------------------- */

/* The number of cases, or -1 to print the plan at the end (TAP allows it). */
void tap_plan(int count);
/* One test case; returns @ok.  The name is a printf format. */
bool tap_ok(bool ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void tap_skip(const char *why, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A diagnostic line ("# ..."). */
void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print the totals; the exit status for main(). */
int tap_finish(void);

/*
 * The firmware: the tests start and stop it with umd/cuda/tests/fw_launcher.h
 * (fw_launcher_start(), fw_launcher_stop()), as the driver-API tests do.
 */
#include "fw_launcher.h"

/*
 * Run @fn in a child process and wait for it; its TAP lines continue the
 * numbering and count in the totals.  For what ends the process's use of
 * the device (a fault: no reset clears it, as on NVIDIA hardware): call
 * it before the parent makes any CUDA call, since a process that used
 * CUDA cannot hand the device to a forked child.
 */
void rt_test_in_child(const char *name, void (*fn)(void));

/*
 * A firmware for /dev/vgpu1, for the tests that use a second device (their
 * .vmargs ask vgpu-vm for one): its pid, 0 when there is no such device or
 * a firmware serves it already, -errno (and a TAP diagnostic) on failure.
 * Stop it with fw_launcher_stop_on(pid, 1).
 */
pid_t rt_test_start_fw_vgpu1(void);

/* Directory of the running test binary's build tree ("<root>/build"). */
const char *rt_test_build_dir(void);

#ifdef __cplusplus
}
#endif

#endif /* RT_TEST_UTIL_H */
