// SPDX-License-Identifier: GPL-2.0
/*
 * test_prof_counters - vGPU's counters against an H100's, end to end.
 *
 * Runs tools/cuda-probe/probe_counters (89 launches of reference kernels:
 * strided, offset and vector copies of f32/f64/u8, broadcasts, shared
 * memory strides, transposes with and without padding) under
 * `vgpu-prof --csv`, and compares every launch's address-determined
 * counters with the recording Nsight Compute made of the same binary on
 * an H100 (tests/golden/probe_counters.h100.csv): global load/store
 * requests and sectors, shared-memory requests, wavefronts and bank
 * conflicts, grid and block size must be equal.  Instruction counts are
 * not compared (vISA is not SASS), nor is local memory: ptxas keeps
 * local_array's array in registers, so the H100 has no local traffic;
 * vGPU's local counters are checked against the interleaved layout
 * instead (Documentation/profiler.rst).  Also: the tool's exit status is
 * the program's, --metrics selects, an unknown metric is refused, and
 * --trace writes a JSON trace whose spans nest as they should.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ncu_csv.h"
#include "rt_test_util.h"

#ifndef VGPU_PROF_BIN
#error "build with -DVGPU_PROF_BIN, -DPROBE_BIN and -DGOLDEN_CSV"
#endif

/* The metrics that depend on addresses alone: equal to the H100's. */
static const char *const exact[] = {
	"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
	"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
	"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
	"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
	"smsp__sass_inst_executed_op_shared_ld.sum",
	"smsp__sass_inst_executed_op_shared_st.sum",
	"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
	"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
	"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
	"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
	"launch__grid_size",
	"launch__block_size",
};
#define NEXACT (sizeof(exact) / sizeof(exact[0]))

struct row {
	char kernel[128];
	long long v[NEXACT];
	bool have[NEXACT];
};

/* Run @cmd; stdout in @out (NUL-terminated), the exit status returned. */
static int run(const char *cmd, char *out, size_t cap)
{
	FILE *p = popen(cmd, "r");
	size_t n = 0, r;
	int status;

	if (!p)
		return -1;
	while (n < cap - 1 && (r = fread(out + n, 1, cap - 1 - n, p)) > 0)
		n += r;
	out[n] = 0;
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

struct rows {
	struct row *r;
};

static void take_row(void *arg, int id, const char *kernel,
		     const char *metric, long long value)
{
	struct row *r = &((struct rows *)arg)->r[id];

	snprintf(r->kernel, sizeof(r->kernel), "%s", kernel);
	for (size_t k = 0; k < NEXACT; k++) {
		if (!strcmp(metric, exact[k])) {
			r->v[k] = value;
			r->have[k] = true;
		}
	}
}

static int parse_csv(char *text, struct row *rows)
{
	struct rows a = { rows };

	return ncu_rows(text, take_row, &a);
}

static void test_against_h100(void)
{
	static struct row ours[NCU_MAX_LAUNCHES], h100[NCU_MAX_LAUNCHES];
	static char out[1 << 20];
	char *golden = ncu_read_file(GOLDEN_CSV);
	int n_ours, n_h100, differ = 0, compared = 0, rc;

	rc = run(VGPU_PROF_BIN " --csv " PROBE_BIN, out, sizeof(out));
	tap_ok(rc == 0, "vgpu-prof --csv probe_counters exits 0 (%d)", rc);
	n_ours = parse_csv(out, ours);
	n_h100 = golden ? parse_csv(golden, h100) : 0;
	free(golden);
	tap_ok(n_h100 == 89 && n_ours == n_h100,
	       "as many launches as the H100 recording (%d, %d)", n_ours,
	       n_h100);
	for (int id = 0; id < n_h100 && id < n_ours; id++) {
		if (strcmp(ours[id].kernel, h100[id].kernel)) {
			tap_diag("launch %d: kernel %s, H100 %s", id,
				 ours[id].kernel, h100[id].kernel);
			differ++;
			continue;
		}
		for (size_t k = 0; k < NEXACT; k++) {
			if (!h100[id].have[k])
				continue;
			compared++;
			if (ours[id].have[k] && ours[id].v[k] == h100[id].v[k])
				continue;
			tap_diag("launch %d %s: %s = %lld, H100 %lld", id,
				 h100[id].kernel, exact[k], ours[id].v[k],
				 h100[id].v[k]);
			differ++;
		}
	}
	tap_ok(compared >= 89 * 10 && !differ,
	       "sectors, requests, wavefronts and bank conflicts equal the "
	       "H100's (%d values, %d differ)", compared, differ);
}

struct one {
	const char *kernel, *metric;
	long long value;
};

static void take_one(void *arg, int id, const char *kernel,
		     const char *metric, long long value)
{
	struct one *o = arg;

	(void)id;
	if (!strcmp(kernel, o->kernel) && !strcmp(metric, o->metric))
		o->value = value;
}

/* A metric of the launch of @kernel, from a --csv run with --metrics. */
static long long metric_of(char *csv, const char *kernel, const char *metric)
{
	struct one o = { kernel, metric, -1 };

	ncu_rows(csv, take_one, &o);
	return o.value;
}

/*
 * local_array: 8 st.local.v4 per warp (16 bytes a lane: 4 words x 32
 * lanes interleaved = 16 sectors each) and one ld.local.f32 of word
 * (7 * lane) % 32, all different words: 32 sectors.  256 warps.
 */
static void test_local_layout(void)
{
	static char out[1 << 20], copy[1 << 20];
	int rc = run(VGPU_PROF_BIN " --csv --metrics "
		     "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum,"
		     "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,"
		     "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum,"
		     "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum "
		     PROBE_BIN, out, sizeof(out));
	long long v[4];
	static const char *const m[4] = {
		"l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum",
		"l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
		"l1tex__t_requests_pipe_lsu_mem_local_op_st.sum",
		"l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
	};

	for (int i = 0; i < 4; i++) {
		memcpy(copy, out, sizeof(copy));
		v[i] = metric_of(copy, "local_array", m[i]);
	}
	memcpy(copy, out, sizeof(copy));
	tap_ok(rc == 0 && metric_of(copy, "local_array",
				    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") < 0,
	       "--metrics prints only the metrics asked for");
	tap_ok(v[0] == 256 && v[1] == 256 * 32 && v[2] == 256 * 8 &&
	       v[3] == 256 * 8 * 16,
	       "local memory: interleaved per word across the warp "
	       "(ld %lld req %lld sectors, st %lld req %lld sectors)",
	       v[0], v[1], v[2], v[3]);
}

/* Braces and brackets balance outside strings: the JSON's skeleton. */
static bool json_balanced(const char *s)
{
	int depth = 0;
	bool in_str = false;

	for (; *s; s++) {
		if (in_str) {
			if (*s == '\\' && s[1])
				s++;
			else if (*s == '"')
				in_str = false;
			continue;
		}
		if (*s == '"')
			in_str = true;
		else if (*s == '{' || *s == '[')
			depth++;
		else if ((*s == '}' || *s == ']') && --depth < 0)
			return false;
	}
	return !depth && !in_str;
}

/*
 * --trace: a Chrome/Perfetto JSON trace, one launch-call span and one GR
 * span per launch, the grid inside its call (the same clock).
 */
static void test_trace(void)
{
	static char out[1 << 16];
	static const char head[] = "{\"displayTimeUnit\":\"ns\","
				   "\"traceEvents\":[";
	const char *path = "/tmp/test_prof_counters.json";
	char *json, *save = NULL, *line;
	int api = 0, gr = 0, outside = 0, rc;
	double api_ts = 0, api_dur = 0;

	unlink(path);
	rc = run(VGPU_PROF_BIN " --trace /tmp/test_prof_counters.json --metrics "
		 "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum " PROBE_BIN,
		 out, sizeof(out));
	json = ncu_read_file(path);
	tap_ok(rc == 0 && json && !strncmp(json, head, sizeof(head) - 1) &&
	       json_balanced(json),
	       "--trace writes a JSON object with traceEvents");
	for (line = json ? strtok_r(json, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *t = strstr(line, "\"ts\":");
		double ts, dur;

		if (!t || sscanf(t, "\"ts\":%lf,\"dur\":%lf", &ts, &dur) != 2)
			continue;
		if (strstr(line, "\"cat\":\"api\"")) {
			api++;
			api_ts = ts;
			api_dur = dur;
		} else if (strstr(line, "\"cat\":\"GR\"") &&
			   strstr(line, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")) {
			gr++;
			if (ts < api_ts || ts + dur > api_ts + api_dur + 0.002)
				outside++;
		}
	}
	free(json);
	unlink(path);
	tap_ok(api == 89 && gr == 89 && !outside,
	       "a launch-call span and a GR span with the counters per launch, "
	       "the grid within the call (%d, %d, %d outside)", api, gr,
	       outside);
}

static void test_tool_errors(void)
{
	static char out[65536];
	int rc;

	rc = run(VGPU_PROF_BIN " --metrics no_such_metric " PROBE_BIN " 2>&1",
		 out, sizeof(out));
	tap_ok(rc == 2 && strstr(out, "unknown metric 'no_such_metric'") &&
	       !strstr(out, "probe: launch"),
	       "an unknown metric is refused before the program runs");
	rc = run(VGPU_PROF_BIN " /bin/sh -c 'exit 7'", out, sizeof(out));
	tap_ok(rc == 7 && strstr(out, "0 kernel launches counted"),
	       "the exit status is the program's; no launch, none counted");
	rc = run(VGPU_PROF_BIN " /no/such/program 2>&1", out, sizeof(out));
	tap_ok(rc == 127 && strstr(out, "/no/such/program"),
	       "a program that cannot run: 127 and its name");
}

int main(void)
{
	pid_t fw = fw_launcher_start();

	tap_plan(-1);
	if (fw < 0) {
		tap_diag("cannot start the firmware");
		return 1;
	}
	test_against_h100();
	test_local_layout();
	test_trace();
	test_tool_errors();
	fw_launcher_stop(fw);
	return tap_finish();
}
