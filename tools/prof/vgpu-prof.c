// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu-prof - run a CUDA program on vGPU and report its kernels' counters.
 *
 *   vgpu-prof [--csv|--table] [--metrics a,b,c] [--list-metrics] [-o FILE]
 *             [--trace FILE.json] ./app ...
 *
 * It runs the program with VGPU_PROF_OUT naming a temporary file; vGPU's
 * libcuda then asks the GR engine to count every launch, waits for it,
 * and appends one line per launch (umd/cuda/profile.c).  Once the program
 * has exited, vgpu-prof prints a summary per kernel (launches, time,
 * grid and block, counters summed), or with --csv one row per launch and
 * metric in the layout of `ncu --csv --metrics ...`, so that the two can
 * be compared; with --table one row per launch and a column per metric;
 * --trace also writes a Chrome/Perfetto trace of the launches.  The
 * summary ends with the managed-memory migrations of the run, from the
 * driver's counters (prof_managed.c).
 * Metrics are Nsight Compute's names (include/
 * vgpu_counters.h and the derived ones below).  The exit status is the
 * program's.  Documentation/profiler.rst.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "prof_managed.h"
#include "vgpu_counters.h"

enum {
#define RAW_INDEX(f, metric, unit, desc) C_##f,
	VGPU_COUNTERS(RAW_INDEX)
#undef RAW_INDEX
	C_COUNT
};

struct launch {
	int pid;
	unsigned long long ctx, stream;
	unsigned int grid[3], block[3], shared;
	char name[512];
	uint64_t c[C_COUNT];
	bool have[C_COUNT];
	uint64_t api_start_ns, api_end_ns;
};

/* A copy or memset (umd/cuda/profile.c's vgpu-prof-copy line). */
struct copy {
	int pid;
	char kind[8];			/* HtoD DtoH DtoD HtoH memset */
	unsigned long long bytes;
	uint64_t start_ns, end_ns;
};

static struct copy *copies;
static size_t ncopies, copies_cap;

/* A vgpu-prof-copy line: kept; returns 0, or -1 for another line. */
static int parse_copy(const char *line)
{
	unsigned long long ctx, stream;
	struct copy c;

	if (sscanf(line, "vgpu-prof-copy 1 %d %llu %llu %7s %llu %" SCNu64
		   " %" SCNu64, &c.pid, &ctx, &stream, c.kind, &c.bytes,
		   &c.start_ns, &c.end_ns) != 7)
		return -1;
	if (ncopies == copies_cap) {
		size_t cap = copies_cap ? 2 * copies_cap : 64;
		struct copy *p = realloc(copies, cap * sizeof(*p));

		if (!p)
			return 0;
		copies = p;
		copies_cap = cap;
	}
	copies[ncopies++] = c;
	return 0;
}

/* The copy summary: per kind, count, bytes, time (the calls') and rate. */
static void print_copies(FILE *out)
{
	static const char *const kinds[] = { "HtoD", "DtoH", "DtoD", "HtoH",
					     "memset" };

	if (!ncopies)
		return;
	fprintf(out, "\n==PROF== vgpu-prof: %zu cop%s and memset%s\n",
		ncopies, ncopies == 1 ? "y" : "ies", ncopies == 1 ? "" : "s");
	fprintf(out, "    %-8s %8s %16s %14s %12s\n", "Kind", "Count",
		"Bytes", "Time (ms)", "GB/s");
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		unsigned long long count = 0, bytes = 0;
		uint64_t ns = 0;

		for (size_t i = 0; i < ncopies; i++) {
			if (strcmp(copies[i].kind, kinds[k]))
				continue;
			count++;
			bytes += copies[i].bytes;
			ns += copies[i].end_ns - copies[i].start_ns;
		}
		if (count)
			fprintf(out, "    %-8s %8llu %16llu %14.3f %12.3f\n",
				kinds[k], count, bytes, ns / 1e6,
				ns ? bytes / (double)ns : 0.0);
	}
}

/* A metric: a raw counter, or derived from the raw ones of a launch. */
struct metric {
	const char *name;
	const char *unit;
	const char *desc;
	int raw;			/* C_*, or -1: derived by @fn */
	double (*fn)(const struct launch *l);
	bool pct;			/* printed with two decimals */
};

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0;
}

static double occupancy(const struct launch *l)
{
	return 100 * ratio(l->c[C_warps_resident], l->c[C_warp_insns]) /
	       VGPU_COUNTERS_MAX_WARPS_PER_SM;
}

static double lanes_per_insn(const struct launch *l)
{
	return ratio(l->c[C_thread_insns], l->c[C_warp_insns]);
}

static double warp_efficiency(const struct launch *l)
{
	return 100 * lanes_per_insn(l) / 32;
}

static double gld_sectors_per_req(const struct launch *l)
{
	return ratio(l->c[C_gld_sectors], l->c[C_gld_requests]);
}

static double gst_sectors_per_req(const struct launch *l)
{
	return ratio(l->c[C_gst_sectors], l->c[C_gst_requests]);
}

static double l2_hit_rate(const struct launch *l)
{
	return 100 * ratio(l->c[C_l2_hits], l->c[C_l2_hits] + l->c[C_l2_misses]);
}

static double gld_insns(const struct launch *l)
{
	return (double)l->c[C_gld_requests];
}

static double gst_insns(const struct launch *l)
{
	return (double)l->c[C_gst_requests];
}

static double grid_size(const struct launch *l)
{
	return (double)l->grid[0] * l->grid[1] * l->grid[2];
}

static double block_size(const struct launch *l)
{
	return (double)l->block[0] * l->block[1] * l->block[2];
}

static const struct metric metrics[] = {
#define RAW_METRIC(f, metric, unit, desc) { metric, unit, desc, C_##f, NULL, false },
	VGPU_COUNTERS(RAW_METRIC)
#undef RAW_METRIC
	{ "sm__warps_active.avg.pct_of_peak_sustained_active", "%",
	  "achieved occupancy: resident warps per SM over its 64 slots, "
	  "weighted by the instructions executed", -1, occupancy, true },
	{ "smsp__thread_inst_executed_per_inst_executed.ratio", "",
	  "active lanes per warp instruction", -1, lanes_per_insn, true },
	{ "smsp__thread_inst_executed_per_inst_executed.pct", "%",
	  "warp execution efficiency", -1, warp_efficiency, true },
	{ "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio",
	  "sector", "sectors per global load request", -1,
	  gld_sectors_per_req, true },
	{ "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio",
	  "sector", "sectors per global store request", -1,
	  gst_sectors_per_req, true },
	{ "lts__t_sector_hit_rate.pct", "%",
	  "L2 sector hit rate (the L2 model)", -1, l2_hit_rate, true },
	{ "smsp__sass_inst_executed_op_global_ld.sum", "inst",
	  "global load instructions", -1, gld_insns, false },
	{ "smsp__sass_inst_executed_op_global_st.sum", "inst",
	  "global store instructions", -1, gst_insns, false },
	{ "launch__grid_size", "", "blocks in the grid", -1, grid_size,
	  false },
	{ "launch__block_size", "", "threads in a block", -1, block_size,
	  false },
};
#define NMETRICS (sizeof(metrics) / sizeof(metrics[0]))

static double metric_value(const struct metric *m, const struct launch *l)
{
	return m->raw >= 0 ? (double)l->c[m->raw] : m->fn(l);
}

/* ncu's number format: thousands separators, two decimals for ratios. */
static void format_value(const struct metric *m, double v, char *buf,
			 size_t len)
{
	char digits[64];
	size_t n, o = 0;

	if (m->pct) {
		snprintf(buf, len, "%.2f", v);
		return;
	}
	snprintf(digits, sizeof(digits), "%.0f", v);
	n = strlen(digits);
	for (size_t i = 0; i < n && o + 2 < len; i++) {
		if (i && (n - i) % 3 == 0 && digits[i - 1] != '-')
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = 0;
}

static int parse_line(char *line, struct launch *l)
{
	char *save = NULL, *tok;
	int n;

	memset(l, 0, sizeof(*l));
	n = sscanf(line, "vgpu-prof 1 %d %llu %llu %u %u %u %u %u %u %u %511s",
		   &l->pid, &l->ctx, &l->stream, &l->grid[0], &l->grid[1],
		   &l->grid[2], &l->block[0], &l->block[1], &l->block[2],
		   &l->shared, l->name);
	if (n != 11)
		return -1;
	for (tok = strtok_r(line, " \n", &save); tok;
	     tok = strtok_r(NULL, " \n", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq)
			continue;
		*eq = 0;
#define RAW_PARSE(f, metric, unit, desc)				\
		if (!strcmp(tok, #f)) {					\
			l->c[C_##f] = strtoull(eq + 1, NULL, 10);	\
			l->have[C_##f] = true;				\
		}
		VGPU_COUNTERS(RAW_PARSE)
#undef RAW_PARSE
		if (!strcmp(tok, "api_start_ns"))
			l->api_start_ns = strtoull(eq + 1, NULL, 10);
		if (!strcmp(tok, "api_end_ns"))
			l->api_end_ns = strtoull(eq + 1, NULL, 10);
	}
	return 0;
}

static int cmp_metric(const void *a, const void *b)
{
	const struct metric *x = *(const struct metric *const *)a;
	const struct metric *y = *(const struct metric *const *)b;

	return strcmp(x->name, y->name);
}

/* The metrics asked for, in ncu's order (by name). */
static size_t select_metrics(const char *list, const struct metric **out)
{
	size_t n = 0;

	if (!list) {
		for (size_t i = 0; i < NMETRICS; i++)
			if (strncmp(metrics[i].name, "vgpu__", 6))
				out[n++] = &metrics[i];
	} else {
		char *copy = strdup(list), *save = NULL, *tok;

		if (!copy)
			return 0;
		for (tok = strtok_r(copy, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			size_t i;

			for (i = 0; i < NMETRICS; i++)
				if (!strcmp(metrics[i].name, tok))
					break;
			if (i == NMETRICS) {
				fprintf(stderr, "vgpu-prof: unknown metric '%s' "
					"(vgpu-prof --list-metrics)\n", tok);
				free(copy);
				return 0;
			}
			out[n++] = &metrics[i];
		}
		free(copy);
	}
	qsort(out, n, sizeof(*out), cmp_metric);
	return n;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static void print_csv(FILE *out, const struct launch *ls, size_t n,
		      const struct metric **sel, size_t nsel, const char *app)
{
	fprintf(out, "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\","
		"\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
		"\"Grid Size\",\"Device\",\"CC\",\"Section Name\","
		"\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n");
	for (size_t i = 0; i < n; i++) {
		const struct launch *l = &ls[i];

		for (size_t k = 0; k < nsel; k++) {
			char v[64];

			format_value(sel[k], metric_value(sel[k], l), v,
				     sizeof(v));
			fprintf(out, "\"%zu\",\"%d\",\"%s\",\"127.0.0.1\","
				"\"%s\",\"%llu\",\"%llu\",\"(%u, %u, %u)\","
				"\"(%u, %u, %u)\",\"0\",\"9.0\","
				"\"Command line profiler metrics\",\"%s\","
				"\"%s\",\"%s\"\n", i, l->pid, app, l->name,
				l->ctx, l->stream, l->block[0], l->block[1],
				l->block[2], l->grid[0], l->grid[1], l->grid[2],
				sel[k]->name, sel[k]->unit, v);
		}
	}
}

/* A name for JSON: the kernel names vGPU reports need no escapes but '"'. */
static void json_name(FILE *out, const char *s)
{
	for (; *s; s++)
		if (*s != '"' && *s != '\\' && (unsigned char)*s >= 0x20)
			fputc(*s, out);
}

/*
 * --trace: a Chrome/Perfetto trace (JSON "traceEvents"), per process one
 * track of launch calls (from the packet to the grid seen complete, as
 * vgpu-prof serialises them) and one of the GR engine's grids, each with
 * its grid, block and counters as arguments.  Times in microseconds of
 * CLOCK_MONOTONIC, which the program and the firmware share.
 */
static int write_trace(const char *path, const struct launch *ls, size_t n,
		       const struct metric **sel, size_t nsel)
{
	FILE *out = fopen(path, "w");
	const char *sep = "";

	if (!out)
		return -1;
	fprintf(out, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[");
	for (size_t i = 0; i < n; i++) {
		const struct launch *l = &ls[i];
		bool first = true;

		for (size_t j = 0; j < i; j++)
			if (ls[j].pid == l->pid)
				first = false;
		if (first) {
			fprintf(out, "%s\n{\"name\":\"thread_name\",\"ph\":\"M\","
				"\"pid\":%d,\"tid\":1,\"args\":{\"name\":"
				"\"CUDA launches\"}},\n{\"name\":\"thread_name\","
				"\"ph\":\"M\",\"pid\":%d,\"tid\":2,\"args\":"
				"{\"name\":\"GR engine\"}}", sep, l->pid, l->pid);
			sep = ",";
		}
		fprintf(out, "%s\n{\"name\":\"cuLaunchKernel ", sep);
		json_name(out, l->name);
		fprintf(out, "\",\"cat\":\"api\",\"ph\":\"X\",\"pid\":%d,"
			"\"tid\":1,\"ts\":%.3f,\"dur\":%.3f}", l->pid,
			l->api_start_ns / 1e3,
			(l->api_end_ns - l->api_start_ns) / 1e3);
		sep = ",";
		fprintf(out, ",\n{\"name\":\"");
		json_name(out, l->name);
		fprintf(out, "\",\"cat\":\"GR\",\"ph\":\"X\",\"pid\":%d,"
			"\"tid\":2,\"ts\":%.3f,\"dur\":%.3f,\"args\":{"
			"\"grid\":\"(%u, %u, %u)\",\"block\":\"(%u, %u, %u)\"",
			l->pid, l->c[C_start_ns] / 1e3,
			l->c[C_duration_ns] / 1e3, l->grid[0], l->grid[1],
			l->grid[2], l->block[0], l->block[1], l->block[2]);
		for (size_t k = 0; k < nsel; k++)
			fprintf(out, ",\"%s\":%.15g", sel[k]->name,
				metric_value(sel[k], l));
		fprintf(out, "}}");
	}
	/* copies and memsets: a track of their own per process */
	for (size_t i = 0; i < ncopies; i++) {
		bool first = true;

		for (size_t j = 0; j < i; j++)
			if (copies[j].pid == copies[i].pid)
				first = false;
		if (first) {
			fprintf(out, "%s\n{\"name\":\"thread_name\",\"ph\":\"M\","
				"\"pid\":%d,\"tid\":3,\"args\":{\"name\":"
				"\"copies and memsets\"}}", sep, copies[i].pid);
			sep = ",";
		}
		fprintf(out, "%s\n{\"name\":\"%s\",\"cat\":\"copy\",\"ph\":\"X\","
			"\"pid\":%d,\"tid\":3,\"ts\":%.3f,\"dur\":%.3f,"
			"\"args\":{\"bytes\":%llu}}", sep, copies[i].kind,
			copies[i].pid, copies[i].start_ns / 1e3,
			(copies[i].end_ns - copies[i].start_ns) / 1e3,
			copies[i].bytes);
		sep = ",";
	}
	fprintf(out, "\n]}\n");
	return fclose(out);
}

/*
 * One row per launch, a column per metric (named in a legend first): the
 * form of the guide's experiments, one launch per parameter value.
 */
static void print_table(FILE *out, const struct launch *ls, size_t n,
			const struct metric **sel, size_t nsel)
{
	for (size_t k = 0; k < nsel; k++)
		fprintf(out, "# [%zu] %s (%s)\n", k + 1, sel[k]->name,
			sel[k]->desc);
	fprintf(out, "%4s  %-24s", "ID", "Kernel");
	for (size_t k = 0; k < nsel; k++) {
		char h[32];

		snprintf(h, sizeof(h), "[%zu]", k + 1);
		fprintf(out, " %14s", h);
	}
	fprintf(out, "\n");
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%4zu  %-24s", i, ls[i].name);
		for (size_t k = 0; k < nsel; k++) {
			char v[64];

			format_value(sel[k], metric_value(sel[k], &ls[i]), v,
				     sizeof(v));
			fprintf(out, " %14s", v);
		}
		fprintf(out, "\n");
	}
}

/* Per kernel: launches, time, the shapes, counters summed over launches. */
static void print_summary(FILE *out, const struct launch *ls, size_t n,
			  const struct metric **sel, size_t nsel)
{
	bool *done = calloc(n ? n : 1, sizeof(*done));

	if (!done)
		return;
	fprintf(out, "==PROF== vgpu-prof: %zu kernel launch%s counted "
		"(on the interpreter tier)\n", n, n == 1 ? "" : "es");
	for (size_t i = 0; i < n; i++) {
		struct launch sum;
		size_t count = 0;
		bool same_shape = true;

		if (done[i])
			continue;
		sum = ls[i];
		memset(sum.c, 0, sizeof(sum.c));
		for (size_t j = i; j < n; j++) {
			if (done[j] || strcmp(ls[j].name, ls[i].name))
				continue;
			done[j] = true;
			count++;
			if (memcmp(ls[j].grid, ls[i].grid, sizeof(ls[i].grid)) ||
			    memcmp(ls[j].block, ls[i].block,
				   sizeof(ls[i].block)))
				same_shape = false;
			for (int c = 0; c < C_COUNT; c++)
				sum.c[c] += ls[j].c[c];
		}
		fprintf(out, "\n  %s  launches %zu  time %.3f ms (avg %.3f ms)",
			ls[i].name, count, sum.c[C_duration_ns] / 1e6,
			sum.c[C_duration_ns] / 1e6 / (double)count);
		if (same_shape)
			fprintf(out, "  grid (%u, %u, %u)  block (%u, %u, %u)\n",
				ls[i].grid[0], ls[i].grid[1], ls[i].grid[2],
				ls[i].block[0], ls[i].block[1], ls[i].block[2]);
		else
			fprintf(out, "  grid and block vary\n");
		fprintf(out, "    %-70s %-8s %16s\n", "Metric Name (sum over "
			"launches)", "Unit", "Value");
		for (size_t k = 0; k < nsel; k++) {
			char v[64];

			format_value(sel[k], metric_value(sel[k], &sum), v,
				     sizeof(v));
			fprintf(out, "    %-70s %-8s %16s\n", sel[k]->name,
				sel[k]->unit, v);
		}
	}
	free(done);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: vgpu-prof [--csv|--table] [--metrics a,b,c] [-o FILE] "
		"[--trace FILE.json] "
		"[--] program [args...]\n"
		"       vgpu-prof --list-metrics\n");
}

int main(int argc, char **argv)
{
	const struct metric *sel[NMETRICS];
	const char *metric_list = NULL, *out_path = NULL, *trace = NULL;
	char tmp[] = "/tmp/vgpu-prof.XXXXXX";
	struct launch *ls = NULL;
	size_t n = 0, cap = 0, nsel;
	bool csv = false, table = false;
	struct prof_managed managed_before, managed_after;
	char line[4096];
	int i, fd, status, rc;
	FILE *in, *out = stdout;
	pid_t pid;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else if (!strcmp(argv[i], "--csv")) {
			csv = true;
		} else if (!strcmp(argv[i], "--table")) {
			table = true;
		} else if (!strcmp(argv[i], "--metrics") && i + 1 < argc) {
			metric_list = argv[++i];
		} else if (!strcmp(argv[i], "--trace") && i + 1 < argc) {
			trace = argv[++i];
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			out_path = argv[++i];
		} else if (!strcmp(argv[i], "--list-metrics")) {
			for (size_t k = 0; k < NMETRICS; k++)
				printf("%-72s %s\n", metrics[k].name,
				       metrics[k].desc);
			return 0;
		} else if (!strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "vgpu-prof: unknown option '%s'\n",
				argv[i]);
			usage(stderr);
			return 2;
		}
	}
	if (i >= argc) {
		usage(stderr);
		return 2;
	}
	nsel = select_metrics(metric_list, sel);
	if (!nsel)
		return 2;

	fd = mkstemp(tmp);
	if (fd < 0) {
		fprintf(stderr, "vgpu-prof: %s: %s\n", tmp, strerror(errno));
		return 2;
	}
	close(fd);
	fflush(stdout);
	prof_managed_snapshot(&managed_before);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "vgpu-prof: fork: %s\n", strerror(errno));
		unlink(tmp);
		return 2;
	}
	if (!pid) {
		setenv("VGPU_PROF_OUT", tmp, 1);
		execvp(argv[i], argv + i);
		fprintf(stderr, "vgpu-prof: %s: %s\n", argv[i],
			strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	prof_managed_snapshot(&managed_after);

	in = fopen(tmp, "r");
	unlink(tmp);
	while (in && fgets(line, sizeof(line), in)) {
		if (n == cap) {
			struct launch *p;

			cap = cap ? 2 * cap : 64;
			p = realloc(ls, cap * sizeof(*ls));
			if (!p)
				break;
			ls = p;
		}
		if (!parse_line(line, &ls[n]))
			n++;
		else
			parse_copy(line);
	}
	if (in)
		fclose(in);
	if (out_path) {
		out = fopen(out_path, "w");
		if (!out) {
			fprintf(stderr, "vgpu-prof: %s: %s\n", out_path,
				strerror(errno));
			free(ls);
			return 2;
		}
	}
	if (csv)
		print_csv(out, ls, n, sel, nsel, base_name(argv[i]));
	else if (table)
		print_table(out, ls, n, sel, nsel);
	else
		print_summary(out, ls, n, sel, nsel);
	if (!csv && !table) {
		print_copies(out);
		prof_managed_print(out, &managed_before, &managed_after);
	}
	if (out != stdout)
		fclose(out);
	if (trace && write_trace(trace, ls, n, sel, nsel)) {
		fprintf(stderr, "vgpu-prof: %s: %s\n", trace, strerror(errno));
		if (!rc)
			rc = 2;
	}
	free(ls);
	free(copies);
	return rc;
}
