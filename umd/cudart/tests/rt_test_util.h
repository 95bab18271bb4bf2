/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the runtime's guest tests share: TAP output, and starting the real
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

/* --- firmware ---------------------------------------------------------------- */

/*
 * Make sure a firmware serves /dev/vgpu0: if none is attached, start
 * build/bin/vgpu-fw (found relative to the test binary) and wait until it
 * is.  Returns the pid started, 0 if one was already attached, or a
 * negative errno.
 */
pid_t rt_test_fw_start(void);
/* Stop a firmware rt_test_fw_start() started (pid > 0). */
void rt_test_fw_stop(pid_t pid);

/* Directory of the running test binary's build tree ("<root>/build"). */
const char *rt_test_build_dir(void);

#ifdef __cplusplus
}
#endif

#endif /* RT_TEST_UTIL_H */
