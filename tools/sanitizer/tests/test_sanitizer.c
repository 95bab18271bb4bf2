// SPDX-License-Identifier: GPL-2.0
/*
 * test_sanitizer - vgpu-sanitizer finds the planted bugs of
 * tools/cuda-probe/probe_sanitizer.cu with compute-sanitizer's reports.
 *
 * The same binary was run under NVIDIA's compute-sanitizer on an H100
 * (tools/cuda-probe/golden/probe_sanitizer.h100.txt).  For each bug the
 * test runs it under vgpu-sanitizer and requires the H100's report text,
 * line for line, once both are brought to what is comparable:
 *  - addresses become 0x? (each GPU has its own) and instruction offsets
 *    too (SASS there, vISA here); a source file keeps its name only;
 *  - host backtraces ("Saved host backtrace", "Host Frame") go: vGPU
 *    prints none;
 *  - compute-sanitizer's memcheck kills a kernel at its first error, and
 *    then reports every CUDA call that returns the error ("Program hit
 *    cudaErrorLaunchFailure ..."), each counted in its ERROR SUMMARY;
 *    vGPU lets the kernel go on (the access is to mapped memory), so
 *    those blocks go and the H100's summary loses as many errors;
 *  - the program's own output goes (it says what the kernel returned).
 * Use after free is reported differently on purpose (the H100 reports an
 * out-of-bounds access near the next allocation; vGPU names the freed
 * allocation): its report is checked against the text written here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "rt_test_util.h"

#ifndef VGPU_SANITIZER_BIN
#error "build with -DVGPU_SANITIZER_BIN, -DPROBE_BIN, -DGOLDEN_TXT"
#endif

static char out[1 << 20];
static char golden[1 << 20];

static int run(const char *cmd, char *buf, size_t cap)
{
	FILE *p = popen(cmd, "r");
	size_t n = 0, r;
	int status;

	if (!p)
		return -1;
	while (n < cap - 1 && (r = fread(buf + n, 1, cap - 1 - n, p)) > 0)
		n += r;
	buf[n] = 0;
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static bool read_file(const char *path, char *buf, size_t cap)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return false;
	n = fread(buf, 1, cap - 1, f);
	buf[n] = 0;
	fclose(f);
	return n > 0;
}

/* One line, made comparable (see the top of the file), into @o. */
static void normalize_line(const char *s, size_t len, char *o, size_t cap)
{
	size_t k = 0;

	for (size_t i = 0; i < len && k + 4 < cap;) {
		if (s[i] == '0' && i + 1 < len && s[i + 1] == 'x') {
			i += 2;
			while (i < len && strchr("0123456789abcdef", s[i]))
				i++;
			memcpy(o + k, "0x?", 3);
			k += 3;
			continue;
		}
		/* " in /a/b/file.cu:12": the file's name */
		if (!strncmp(s + i, " in ", 4)) {
			size_t j = i + 4, slash = 0;

			while (j < len && s[j] != ':' && s[j] != ' ') {
				if (s[j] == '/')
					slash = j + 1;
				j++;
			}
			if (slash) {
				memcpy(o + k, " in ", 4);
				k += 4;
				i = slash;
				continue;
			}
		}
		o[k++] = s[i++];
	}
	o[k] = 0;
}

/*
 * The report lines of @text, normalized, into @o; "Program hit" blocks
 * dropped and subtracted from the ERROR SUMMARY.
 */
static void normalize(const char *text, char *o, size_t cap)
{
	const char *p = text;
	size_t k = 0;
	int skipping = 0, dropped = 0;

	o[0] = 0;
	while (*p) {
		size_t len = strcspn(p, "\n");
		char line[1024];
		int errors;

		normalize_line(p, len, line, sizeof(line));
		p += len + (p[len] == '\n');
		if (strncmp(line, "========= ", 10) && strcmp(line, "========="))
			continue;	/* the program's output */
		if (skipping) {
			if (!strcmp(line, "========= "))
				skipping = 0;
			continue;
		}
		if (strstr(line, "Program hit ")) {
			skipping = 1;
			dropped++;
			continue;
		}
		if (strstr(line, "Saved host backtrace") ||
		    strstr(line, "Host Frame") ||
		    strstr(line, "COMPUTE-SANITIZER") ||
		    strstr(line, "VGPU-SANITIZER"))
			continue;
		if (sscanf(line, "========= ERROR SUMMARY: %d", &errors) == 1)
			snprintf(line, sizeof(line),
				 "========= ERROR SUMMARY: %d error%s",
				 errors - dropped,
				 errors - dropped == 1 ? "" : "s");
		k += (size_t)snprintf(o + k, k < cap ? cap - k : 0, "%s\n",
				      line);
	}
}

/* The H100's output for the command line that ends with @args. */
static const char *h100(const char *args, char *buf, size_t cap)
{
	char head[512];
	const char *p, *end;

	snprintf(head, sizeof(head), "### compute-sanitizer %s\n", args);
	buf[0] = 0;
	p = strstr(golden, head);
	if (!p)
		return buf;
	p += strlen(head);
	end = strstr(p, "### exit");
	snprintf(buf, cap, "%.*s", (int)(end ? end - p : (long)strlen(p)), p);
	return buf;
}

static void show(const char *what, const char *text)
{
	const char *p = text;

	tap_diag("%s:", what);
	while (*p) {
		size_t len = strcspn(p, "\n");

		tap_diag("  %.*s", (int)len, p);
		p += len + (p[len] == '\n');
	}
}

/*
 * vgpu-sanitizer OPTS probe MODE against the H100's
 * "compute-sanitizer OPTS ./probe_sanitizer MODE"; @exit_code expected.
 */
static void compare(const char *opts, const char *mode, int exit_code)
{
	static char ours[1 << 16], theirs[1 << 16], raw[1 << 18];
	char cmd[1024], args[256];
	int rc;

	snprintf(cmd, sizeof(cmd), "%s %s %s %s 2>/dev/null",
		 VGPU_SANITIZER_BIN, opts, PROBE_BIN, mode);
	rc = run(cmd, out, sizeof(out));
	snprintf(args, sizeof(args), "%s ./probe_sanitizer %s", opts, mode);
	normalize(out, ours, sizeof(ours));
	normalize(h100(args, raw, sizeof(raw)), theirs, sizeof(theirs));
	if (!tap_ok(rc == exit_code && theirs[0] && !strcmp(ours, theirs),
		    "%s %s: the H100's report (exit %d)", opts, mode, rc)) {
		show("vGPU", ours);
		show("H100", theirs);
	}
}

/* Occurrences of @needle in @hay. */
static int count(const char *hay, const char *needle)
{
	int n = 0;

	while ((hay = strstr(hay, needle))) {
		n++;
		hay++;
	}
	return n;
}

int main(void)
{
	static char ours[1 << 16];
	pid_t fw = fw_launcher_start();
	int rc;

	tap_plan(16);
	if (fw < 0 || !read_file(GOLDEN_TXT, golden, sizeof(golden))) {
		tap_diag("cannot start the firmware or read " GOLDEN_TXT);
		return 1;
	}
	compare("--tool memcheck", "oob-write", 0);
	compare("--tool memcheck", "oob-read", 0);
	compare("--tool memcheck", "misaligned", 0);
	compare("--tool memcheck --error-exitcode 7", "oob-write", 7);
	compare("--tool memcheck --leak-check full", "leak", 0);
	compare("--tool racecheck", "race", 0);
	compare("--tool synccheck", "divergent", 0);
	compare("--tool memcheck", "clean", 0);
	compare("--tool racecheck", "clean", 0);
	compare("--tool synccheck", "clean", 0);
	compare("--tool initcheck", "uninit", 0);
	compare("--tool initcheck", "clean", 0);

	/* use after free: every thread's write into the freed 128 bytes */
	rc = run(VGPU_SANITIZER_BIN " --tool memcheck " PROBE_BIN
		 " uaf 2>/dev/null", out, sizeof(out));
	normalize(out, ours, sizeof(ours));
	if (!tap_ok(rc == 0 &&
		    count(ours, "========= Invalid __global__ write of size 4 "
			  "bytes\n=========     at use_after_free(int *)+0x? "
			  "in probe_sanitizer.cu:37\n") == 32 &&
		    strstr(ours, "=========     by thread (31,0,0) in block "
			   "(0,0,0)\n=========     Access to 0x? is out of "
			   "bounds\n=========     and is 124 bytes into a freed "
			   "allocation at 0x? of size 128 bytes\n") &&
		    strstr(ours, "========= ERROR SUMMARY: 32 errors\n"),
		    "use after free: 32 writes into the freed allocation"))
		show("vGPU", ours);

	/* an error exit code only with errors */
	rc = run(VGPU_SANITIZER_BIN " --error-exitcode 9 " PROBE_BIN
		 " clean >/dev/null 2>&1", out, sizeof(out));
	tap_ok(rc == 0, "--error-exitcode without errors: the program's 0 "
	       "(%d)", rc);
	rc = run(VGPU_SANITIZER_BIN " --tool nocheck " PROBE_BIN
		 " clean >/dev/null 2>&1", out, sizeof(out));
	tap_ok(rc == 2, "an unknown tool is refused with 2 (%d)", rc);
	rc = run(VGPU_SANITIZER_BIN " /nonexistent/program >/dev/null 2>&1",
		 out, sizeof(out));
	tap_ok(rc == 127, "a program that cannot run: 127 (%d)", rc);
	fw_launcher_stop(fw);
	return tap_finish();
}
