// SPDX-License-Identifier: GPL-2.0
/*
 * prof_managed.c - what the driver moved for managed memory while the
 * profiled program ran: replayable device faults, host faults,
 * prefetches, evictions under VRAM pressure and the bytes each way.  The counters are the device's
 * (every process's migrations in the window count), read before the
 * program starts and after it exits.
 */
#include "prof_managed.h"

static long long read_counter(const char *name, bool *ok)
{
	char path[128];
	long long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/misc/vgpu0/managed/%s", name);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%lld", &v) != 1)
		*ok = false;
	if (f)
		fclose(f);
	return v;
}

void prof_managed_snapshot(struct prof_managed *s)
{
	bool ok = true;

	s->gpu_faults = read_counter("gpu_faults", &ok);
	s->cpu_faults = read_counter("cpu_faults", &ok);
	s->prefetches = read_counter("prefetches", &ok);
	s->to_device_bytes = read_counter("to_device_bytes", &ok);
	s->to_host_bytes = read_counter("to_host_bytes", &ok);
	s->valid = ok;
	/* An older driver has no such counter: it never evicts. */
	ok = true;
	s->evictions = read_counter("evictions", &ok);
	if (!ok)
		s->evictions = 0;
}

void prof_managed_print(FILE *out, const struct prof_managed *b,
			const struct prof_managed *a)
{
	long long to_dev = a->to_device_bytes - b->to_device_bytes;
	long long to_host = a->to_host_bytes - b->to_host_bytes;

	if (!b->valid || !a->valid || (!to_dev && !to_host &&
				       a->gpu_faults == b->gpu_faults))
		return;
	fprintf(out, "\nManaged memory (device-wide): %lld device faults, "
		"%lld host faults, %lld prefetches; %lld bytes to the device, "
		"%lld bytes to the host\n", a->gpu_faults - b->gpu_faults,
		a->cpu_faults - b->cpu_faults, a->prefetches - b->prefetches,
		to_dev, to_host);
	if (a->evictions != b->evictions)
		fprintf(out, "  %lld blocks evicted to the host to make room "
			"in VRAM\n", a->evictions - b->evictions);
}
