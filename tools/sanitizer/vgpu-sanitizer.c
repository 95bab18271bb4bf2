// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu-sanitizer - compute-sanitizer for vGPU (Documentation/sanitizer.rst).
 *
 *   vgpu-sanitizer [--tool memcheck|racecheck|synccheck|initcheck]
 *                  [--leak-check full]
 *                  [--error-exitcode N] [--print-limit N] ./app [args...]
 *
 * Runs the program with VGPU_SANITIZER naming the check and
 * VGPU_SANITIZER_OUT a temporary file; libcuda (umd/cuda/sanitizer.c) makes
 * every launch a checked one and appends one line per finding, which this
 * tool prints, once the program has exited, in the words and layout of
 * NVIDIA's compute-sanitizer (recorded on an H100:
 * tools/cuda-probe/golden/probe_sanitizer.h100.txt), with its summary
 * lines.  The exit status is the program's, or N of --error-exitcode when
 * there were errors; 2 for a bad option, 127 when the program cannot run.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../include/vgpu_sanitizer.h"

#define PFX "========= "

static const char *tool = "memcheck";
static bool leak_full;
static int error_exitcode;
static long print_limit = 10000;	/* compute-sanitizer's default */

static void usage(void)
{
	fprintf(stderr,
		"usage: vgpu-sanitizer [--tool memcheck|racecheck|synccheck|"
		"initcheck] [--leak-check full|no]\n"
		"                      [--error-exitcode N] [--print-limit N] "
		"program [args...]\n");
}

/* ---- a small Itanium demangler: f(int *, const float *, ...) ---------- */

struct dm {
	const char *p;
	char subs[16][64];
	int nsubs;
};

static const char *builtin(char c)
{
	switch (c) {
	case 'v': return "void";
	case 'b': return "bool";
	case 'c': return "char";
	case 'a': return "signed char";
	case 'h': return "unsigned char";
	case 's': return "short";
	case 't': return "unsigned short";
	case 'i': return "int";
	case 'j': return "unsigned int";
	case 'l': return "long";
	case 'm': return "unsigned long";
	case 'x': return "long long";
	case 'y': return "unsigned long long";
	case 'f': return "float";
	case 'd': return "double";
	default: return NULL;
	}
}

/* One type into @out; false when it is one this demangler does not know. */
static bool dm_type(struct dm *d, char *out, size_t len)
{
	char inner[64];
	const char *b = builtin(*d->p);

	if (b) {
		d->p++;
		snprintf(out, len, "%s", b);
		return true;
	}
	if (*d->p == 'P' || *d->p == 'K') {
		char c = *d->p++;

		if (!dm_type(d, inner, sizeof(inner)))
			return false;
		if ((c == 'P' ?
		     snprintf(out, len, "%s%s*", inner,
			      inner[strlen(inner) - 1] == '*' ? "" : " ") :
		     snprintf(out, len, "const %s", inner)) >= (int)len)
			return false;
		if (d->nsubs < 16 &&
		    snprintf(d->subs[d->nsubs++], sizeof(d->subs[0]), "%s",
			     out) >= (int)sizeof(d->subs[0]))
			return false;
		return true;
	}
	if (*d->p == 'S') {
		int i = 0;

		d->p++;
		if (*d->p != '_') {
			if (*d->p < '0' || *d->p > '9')
				return false;
			i = *d->p++ - '0' + 1;
		}
		if (*d->p++ != '_' || i >= d->nsubs)
			return false;
		snprintf(out, len, "%s", d->subs[i]);
		return true;
	}
	return false;
}

static void demangle(const char *m, char *out, size_t len)
{
	struct dm d = { .p = m };
	char name[256], ty[64];
	size_t n = 0;
	char *end;
	long k;

	snprintf(out, len, "%s", m);
	if (strncmp(m, "_Z", 2))
		return;
	k = strtol(m + 2, &end, 10);
	if (k <= 0 || (size_t)k >= sizeof(name) || strlen(end) < (size_t)k)
		return;
	n = (size_t)snprintf(name, sizeof(name), "%.*s(", (int)k, end);
	d.p = end + k;
	if (*d.p == 'v' && !d.p[1]) {
		d.p++;
	} else {
		for (bool first = true; *d.p; first = false) {
			if (!dm_type(&d, ty, sizeof(ty)))
				return;
			n += (size_t)snprintf(name + n, n < sizeof(name) ?
					      sizeof(name) - n : 0, "%s%s",
					      first ? "" : ", ", ty);
		}
	}
	if (n + 1 < sizeof(name)) {
		snprintf(out, len, "%s)", name);
	}
}

/* ---- the findings ------------------------------------------------------ */

struct finding {
	unsigned int kind, space, write, size, pc, line, pc2, line2, count;
	unsigned int block[3], thread[3], thread2[3];
	uint64_t addr, alloc_base, alloc_size;
	char file[80], kernel[512];
};

static bool parse(const char *s, struct finding *f)
{
	return sscanf(s, "vgpu-san 1 kind=%u space=%u write=%u size=%u "
		      "addr=0x%" SCNx64 " block=%u,%u,%u thread=%u,%u,%u pc=%u "
		      "line=%u alloc=0x%" SCNx64 ",%" SCNu64 " pc2=%u line2=%u "
		      "thread2=%u,%u,%u count=%u file=%79s kernel=%511s",
		      &f->kind, &f->space, &f->write, &f->size, &f->addr,
		      &f->block[0], &f->block[1], &f->block[2], &f->thread[0],
		      &f->thread[1], &f->thread[2], &f->pc, &f->line,
		      &f->alloc_base, &f->alloc_size, &f->pc2, &f->line2,
		      &f->thread2[0], &f->thread2[1], &f->thread2[2],
		      &f->count, f->file, f->kernel) == 23;
}

static const char *space_name(unsigned int s)
{
	return s == VGPU_SAN_SPACE_SHARED ? "__shared__" :
	       s == VGPU_SAN_SPACE_LOCAL ? "__local__" : "__global__";
}

/* "kernel(args)+0xOFF in file:line": the vISA offset of the instruction */
static void where(char *out, size_t len, const struct finding *f,
		  unsigned int pc, unsigned int line)
{
	char k[512];

	demangle(f->kernel, k, sizeof(k));
	if (line)
		snprintf(out, len, "%s+0x%x in %s:%u", k, pc * 32, f->file,
			 line);
	else
		snprintf(out, len, "%s+0x%x", k, pc * 32);
}

static void print_memcheck(const struct finding *f)
{
	char at[700];
	uint64_t end = f->alloc_base + f->alloc_size;

	where(at, sizeof(at), f, f->pc, f->line);
	printf(PFX "Invalid %s %s of size %u bytes\n", space_name(f->space),
	       f->write ? "write" : "read", f->size);
	printf(PFX "    at %s\n", at);
	printf(PFX "    by thread (%u,%u,%u) in block (%u,%u,%u)\n",
	       f->thread[0], f->thread[1], f->thread[2], f->block[0],
	       f->block[1], f->block[2]);
	printf(PFX "    Access to 0x%" PRIx64 " is %s\n", f->addr,
	       f->kind == VGPU_SAN_MISALIGNED ? "misaligned" : "out of bounds");
	if (!f->alloc_size && !f->alloc_base)
		;
	else if (f->kind == VGPU_SAN_USE_AFTER_FREE)
		printf(PFX "    and is %" PRIu64 " bytes into a freed allocation "
		       "at 0x%" PRIx64 " of size %" PRIu64 " bytes\n",
		       f->addr - f->alloc_base, f->alloc_base, f->alloc_size);
	else if (f->addr >= end)
		printf(PFX "    and is %" PRIu64 " bytes after the nearest "
		       "allocation at 0x%" PRIx64 " of size %" PRIu64 " bytes\n",
		       f->addr - end + 1, f->alloc_base, f->alloc_size);
	else if (f->addr < f->alloc_base)
		printf(PFX "    and is %" PRIu64 " bytes before the nearest "
		       "allocation at 0x%" PRIx64 " of size %" PRIu64 " bytes\n",
		       f->alloc_base - f->addr, f->alloc_base, f->alloc_size);
	else
		printf(PFX "    and is inside the nearest allocation at 0x%"
		       PRIx64 " of size %" PRIu64 " bytes\n", f->alloc_base,
		       f->alloc_size);
	printf(PFX "\n");
}

static void print_race(const struct finding *f)
{
	char a[700], b[700];
	bool waw = f->kind == VGPU_SAN_RACE_WAW;
	/* the write first: the earlier access of a read after write */
	bool now_first = f->kind == VGPU_SAN_RACE_WAR;

	where(a, sizeof(a), f, now_first ? f->pc : f->pc2,
	      now_first ? f->line : f->line2);
	where(b, sizeof(b), f, now_first ? f->pc2 : f->pc,
	      now_first ? f->line2 : f->line);
	printf(PFX "Error: Race reported between Write access at %s\n", a);
	printf(PFX "    and %s access at %s [%u hazards]\n",
	       waw ? "Write" : "Read", b, f->count);
	printf(PFX "\n");
}

static void print_sync(const struct finding *f)
{
	char at[700];

	where(at, sizeof(at), f, f->pc, f->line);
	printf(PFX "Barrier error detected. Divergent thread(s) in warp.\n");
	printf(PFX "    at %s\n", at);
	printf(PFX "    by thread (%u,%u,%u) in block (%u,%u,%u)\n",
	       f->thread[0], f->thread[1], f->thread[2], f->block[0],
	       f->block[1], f->block[2]);
	printf(PFX "\n");
}

static void print_init(const struct finding *f)
{
	char at[700];

	where(at, sizeof(at), f, f->pc, f->line);
	printf(PFX "Uninitialized __global__ memory read of size %u bytes\n",
	       f->size);
	printf(PFX "    at %s\n", at);
	printf(PFX "    by thread (%u,%u,%u) in block (%u,%u,%u)\n",
	       f->thread[0], f->thread[1], f->thread[2], f->block[0],
	       f->block[1], f->block[2]);
	printf(PFX "    Address 0x%" PRIx64 "\n", f->addr);
	printf(PFX "\n");
}

static const char *plural(unsigned long n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* Print the findings of @path; returns the number of errors. */
static unsigned long report(const char *path)
{
	FILE *fp = fopen(path, "r");
	char line[2048];
	unsigned long errors = 0, shown = 0, leaks = 0, dropped = 0;
	uint64_t leaked = 0;

	if (!fp)
		return 0;
	while (fgets(line, sizeof(line), fp)) {
		struct finding f;
		uint64_t size, addr;
		unsigned int n;

		if (sscanf(line, "vgpu-san-leak 1 size=%" SCNu64 " addr=0x%"
			   SCNx64, &size, &addr) == 2) {
			printf(PFX "Leaked %" PRIu64 " bytes at 0x%" PRIx64 "\n",
			       size, addr);
			printf(PFX "\n");
			leaks++;
			leaked += size;
			errors++;
			continue;
		}
		if (sscanf(line, "vgpu-san-dropped 1 %u", &n) == 1) {
			dropped += n;
			continue;
		}
		if (!parse(line, &f))
			continue;
		errors++;
		if ((long)shown >= print_limit)
			continue;
		shown++;
		if (f.kind >= VGPU_SAN_RACE_RAW && f.kind <= VGPU_SAN_RACE_WAW)
			print_race(&f);
		else if (f.kind == VGPU_SAN_DIVERGENT_BARRIER)
			print_sync(&f);
		else if (f.kind == VGPU_SAN_UNINIT_READ)
			print_init(&f);
		else
			print_memcheck(&f);
	}
	fclose(fp);
	if (dropped)
		printf(PFX "%lu more findings were not recorded (a launch "
		       "has room for %u)\n", dropped, VGPU_SAN_MAX_REPORTS);
	errors += dropped;
	if (leak_full)
		printf(PFX "LEAK SUMMARY: %" PRIu64 " bytes leaked in %lu "
		       "allocations\n", leaked, leaks);
	if (!strcmp(tool, "racecheck"))
		printf(PFX "RACECHECK SUMMARY: %lu %s displayed (%lu %s, "
		       "0 warnings)\n", shown, plural(shown, "hazard", "hazards"),
		       errors, plural(errors, "error", "errors"));
	else
		printf(PFX "ERROR SUMMARY: %lu %s\n", errors,
		       plural(errors, "error", "errors"));
	return errors;
}

int main(int argc, char **argv)
{
	char path[] = "/tmp/vgpu-sanitizer-XXXXXX";
	unsigned long errors;
	int i, fd, status;
	pid_t pid;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
			usage();
			return 0;
		}
		if (!v) {
			usage();
			return 2;
		}
		i++;
		if (!strcmp(o, "--tool")) {
			if (strcmp(v, "memcheck") && strcmp(v, "racecheck") &&
			    strcmp(v, "synccheck") && strcmp(v, "initcheck")) {
				fprintf(stderr, "vgpu-sanitizer: unknown tool "
					"'%s' (memcheck, racecheck, synccheck, "
					"initcheck)\n", v);
				return 2;
			}
			tool = v;
		} else if (!strcmp(o, "--leak-check")) {
			if (strcmp(v, "full") && strcmp(v, "no")) {
				usage();
				return 2;
			}
			leak_full = !strcmp(v, "full");
		} else if (!strcmp(o, "--error-exitcode")) {
			error_exitcode = atoi(v);
		} else if (!strcmp(o, "--print-limit")) {
			print_limit = atol(v);
		} else {
			fprintf(stderr, "vgpu-sanitizer: unknown option %s\n",
				o);
			usage();
			return 2;
		}
	}
	if (i >= argc) {
		usage();
		return 2;
	}
	if (leak_full && strcmp(tool, "memcheck")) {
		fprintf(stderr, "vgpu-sanitizer: --leak-check is memcheck's\n");
		return 2;
	}
	fd = mkstemp(path);
	if (fd < 0) {
		perror("vgpu-sanitizer: mkstemp");
		return 127;
	}
	close(fd);
	printf(PFX "VGPU-SANITIZER\n");
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("vgpu-sanitizer: fork");
		unlink(path);
		return 127;
	}
	if (!pid) {
		setenv("VGPU_SANITIZER", tool, 1);
		setenv("VGPU_SANITIZER_OUT", path, 1);
		if (leak_full)
			setenv("VGPU_SANITIZER_LEAKS", "1", 1);
		execvp(argv[i], argv + i);
		fprintf(stderr, "vgpu-sanitizer: %s: %s\n", argv[i],
			strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	errors = report(path);
	fflush(stdout);
	unlink(path);
	if (errors && error_exitcode)
		return error_exitcode;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
