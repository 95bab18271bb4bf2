/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prof_managed.h - migrations of managed memory while the program ran,
 * from the driver's counters (/sys/class/misc/vgpu0/managed/,
 * Documentation/managed-memory.rst).
 */
#ifndef VGPU_PROF_MANAGED_H
#define VGPU_PROF_MANAGED_H

#include <stdbool.h>
#include <stdio.h>

struct prof_managed {
	bool valid;		/* the driver has the counters */
	long long gpu_faults, cpu_faults, prefetches;
	long long to_device_bytes, to_host_bytes;
	long long evictions;	/* 0 with a driver that never evicts */
};

void prof_managed_snapshot(struct prof_managed *s);
/* The differences, if any migration happened; nothing otherwise. */
void prof_managed_print(FILE *out, const struct prof_managed *before,
			const struct prof_managed *after);

#endif /* VGPU_PROF_MANAGED_H */
