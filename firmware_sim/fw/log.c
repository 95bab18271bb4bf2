// SPDX-License-Identifier: GPL-2.0
/*
 * log.c - one line per event, whole lines only (a single write each, so
 * lines from several threads never interleave).
 */
#include <stdarg.h>
#include <stdio.h>
#include <syslog.h>
#include <unistd.h>

#include "log.h"

static bool log_to_syslog;

void fw_log_init(bool use_syslog)
{
	log_to_syslog = use_syslog;
	if (use_syslog)
		openlog("vgpu-fw", LOG_PID, LOG_DAEMON);
}

static void fw_vlog(int prio, const char *fmt, va_list ap)
{
	char line[512];
	int n;

	if (log_to_syslog) {
		vsyslog(prio, fmt, ap);
		return;
	}
	n = snprintf(line, sizeof(line), "vgpu-fw: %s",
		     prio == LOG_ERR ? "error: " :
		     prio == LOG_WARNING ? "warning: " : "");
	n += vsnprintf(line + n, sizeof(line) - n - 1, fmt, ap);
	if (n > (int)sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	if (write(STDERR_FILENO, line, n) < 0)
		return;	/* nowhere left to complain */
}

#define FW_LOG_FN(name, prio)				\
	void name(const char *fmt, ...)			\
	{						\
		va_list ap;				\
		va_start(ap, fmt);			\
		fw_vlog(prio, fmt, ap);			\
		va_end(ap);				\
	}

FW_LOG_FN(fw_log_info, LOG_INFO)
FW_LOG_FN(fw_log_warn, LOG_WARNING)
FW_LOG_FN(fw_log_err, LOG_ERR)
