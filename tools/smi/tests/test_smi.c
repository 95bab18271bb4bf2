// SPDX-License-Identifier: GPL-2.0
/*
 * test_smi - vgpu-smi's output, parsed, against the driver's own files.
 *
 * With the firmware running and a context of this process holding 8 MiB,
 * checks the CSV of --query-gpu (header, units, noheader/nounits, values
 * equal to the files of /sys/class/misc/vgpu0), --query-compute-apps (this process,
 * its memory), the table and -q (the device, this process), -l (keeps
 * printing until stopped), the compute mode (-c, where the driver has
 * it; exit 3 where it does not) and the errors: an unknown field or
 * format (2), a query without --format=csv (2), no such device (6).
 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rt_test_util.h"

#ifndef VGPU_SMI_BIN
#error "build with -DVGPU_SMI_BIN"
#endif

#define SYSFS "/sys/class/misc/vgpu0/"

static char out[1 << 18];

static int run(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	size_t n = 0, r;
	int status;

	out[0] = 0;
	if (!p)
		return -1;
	while (n < sizeof(out) - 1 &&
	       (r = fread(out + n, 1, sizeof(out) - 1 - n, p)) > 0)
		n += r;
	out[n] = 0;
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static unsigned long long sysfs_u64(const char *file)
{
	char path[128];
	unsigned long long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), SYSFS "%s", file);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%llu", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void test_query_gpu(void)
{
	static const char hdr[] = "index, name, memory.total [MiB], "
		"memory.used [MiB], memory.free [MiB], contexts, firmware\n";
	unsigned long long total = sysfs_u64("vram_total_bytes") >> 20;
	unsigned long long t, u, f, ctx;
	char fw[32];
	int idx, rc;

	rc = run(VGPU_SMI_BIN " --query-gpu=index,name,memory.total,"
		 "memory.used,memory.free,contexts,firmware --format=csv");
	tap_ok(rc == 0 && !strncmp(out, hdr, strlen(hdr)),
	       "--query-gpu --format=csv: nvidia-smi's header, units in "
	       "brackets (rc %d)", rc);
	rc = sscanf(strchr(out, '\n') ? strchr(out, '\n') + 1 : out,
		    "%d, vGPU vgpu0, %llu MiB, %llu MiB, %llu MiB, %llu, %31s",
		    &idx, &t, &u, &f, &ctx, fw);
	tap_ok(rc == 6 && idx == 0 &&
	       t == total && u + f == t && u >= 8 && ctx >= 1 &&
	       !strcmp(fw, "attached"),
	       "the row: device 0, total %llu MiB as sysfs says, used + free "
	       "= total, a context, firmware attached", total);
	rc = run(VGPU_SMI_BIN " --query-gpu=memory.total,contexts "
		 "--format=csv,noheader,nounits");
	tap_ok(rc == 0 && sscanf(out, "%llu, %llu", &t, &ctx) == 2 &&
	       t == total && count_lines(out) == 1 && !strstr(out, "MiB"),
	       "noheader,nounits: one bare row");
}

static void test_apps(void)
{
	char want[64];
	int rc;

	rc = run(VGPU_SMI_BIN " --query-compute-apps=pid,used_memory,contexts,"
		 "gpu_index --format=csv,noheader,nounits");
	snprintf(want, sizeof(want), "%d, ", (int)getpid());
	tap_ok(rc == 0 && strstr(out, want),
	       "--query-compute-apps lists this process (%s)", want);
	if (strstr(out, want)) {
		unsigned long long mem = 0;
		unsigned int ctx = 0;
		int gpu = -1, k;

		k = sscanf(strstr(out, want) + strlen(want), "%llu, %u, %d",
			   &mem, &ctx, &gpu);
		tap_ok(k == 3 && mem >= 8 && ctx == 1 && gpu == 0,
		       "with its 8 MiB (%llu), one context, on GPU 0", mem);
	} else {
		tap_ok(false, "with its 8 MiB, one context, on GPU 0");
	}
}

static void test_table_and_q(void)
{
	char pid[32];
	int rc;

	snprintf(pid, sizeof(pid), " %d ", (int)getpid());
	rc = run(VGPU_SMI_BIN);
	tap_ok(rc == 0 && strstr(out, "VGPU-SMI") && strstr(out, " vgpu0 ") &&
	       strstr(out, "Processes:") && strstr(out, pid),
	       "the table shows the device and this process");
	rc = run(VGPU_SMI_BIN " -q");
	tap_ok(rc == 0 &&
	       strstr(out, "Attached GPUs                         : 1\n") &&
	       strstr(out, "    Compute Mode                      : ") &&
	       strstr(out, "        Total                         : "),
	       "-q: one device, its compute mode and memory");
}

static void test_loop(void)
{
	int rc = run("timeout 5 " VGPU_SMI_BIN " -l 1 --query-compute-apps=pid "
		     "--format=csv");

	/* timeout's status, or busybox's (killed by SIGTERM) */
	tap_ok((rc == 124 || rc == 143) && count_lines(out) >= 2,
	       "-l keeps running until stopped (rc %d, %d lines)", rc,
	       count_lines(out));
}

static void test_compute_mode(void)
{
	int rc;

	if (access(SYSFS "compute_mode", F_OK)) {
		rc = run(VGPU_SMI_BIN " -c default 2>/dev/null");
		tap_ok(rc == 3, "-c without the driver's compute mode: exit 3 "
		       "(%d)", rc);
		return;
	}
	rc = run(VGPU_SMI_BIN " -c EXCLUSIVE_PROCESS");
	tap_ok(rc == 0 && !run(VGPU_SMI_BIN " --query-gpu=compute_mode "
			       "--format=csv,noheader") &&
	       !strcmp(out, "exclusive_process\n"),
	       "-c EXCLUSIVE_PROCESS sets it, --query-gpu shows it");
	rc = run(VGPU_SMI_BIN " -c 0");
	tap_ok(rc == 0 && !run(VGPU_SMI_BIN " --query-gpu=compute_mode "
			       "--format=csv,noheader") &&
	       !strcmp(out, "default\n"), "-c 0 sets it back to default");
}

static void test_errors(void)
{
	tap_ok(run(VGPU_SMI_BIN " --query-gpu=index,bogus --format=csv "
		   "2>/dev/null") == 2, "an unknown field: exit 2");
	tap_ok(run(VGPU_SMI_BIN " --query-gpu=index 2>/dev/null") == 2,
	       "a query without --format=csv: exit 2");
	tap_ok(run(VGPU_SMI_BIN " --query-gpu=index --format=xml "
		   "2>/dev/null") == 2, "an unknown format: exit 2");
	tap_ok(run(VGPU_SMI_BIN " -i 9") == 6 &&
	       !strcmp(out, "No devices were found\n"),
	       "no such device: exit 6, as nvidia-smi");
	tap_ok(run(VGPU_SMI_BIN " -c turbo 2>/dev/null") == 2,
	       "an unknown compute mode: exit 2");
}

int main(void)
{
	pid_t fw = fw_launcher_start();
	CUdevice dev;
	CUcontext ctx;
	CUdeviceptr p;

	tap_plan(-1);
	if (fw < 0) {
		tap_diag("cannot start the firmware");
		return 1;
	}
	if (cuInit(0) || cuDeviceGet(&dev, 0) ||
	    cuDevicePrimaryCtxRetain(&ctx, dev) || cuCtxSetCurrent(ctx) ||
	    cuMemAlloc(&p, 8 << 20)) {
		tap_diag("cannot make a context with 8 MiB");
		fw_launcher_stop(fw);
		return 1;
	}
	test_query_gpu();
	test_apps();
	test_table_and_q();
	test_loop();
	test_compute_mode();
	test_errors();
	cuMemFree(p);
	cuDevicePrimaryCtxRelease(dev);
	fw_launcher_stop(fw);
	return tap_finish();
}
