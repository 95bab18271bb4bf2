/* SPDX-License-Identifier: GPL-2.0 */
/*
 * log.h - what the firmware tells its user: to stderr ("vgpu-fw: ..."),
 * or to syslog with --syslog.
 */
#ifndef VGPU_FW_LOG_H
#define VGPU_FW_LOG_H

#include <stdbool.h>

void fw_log_init(bool use_syslog);
void fw_log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void fw_log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void fw_log_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* VGPU_FW_LOG_H */
