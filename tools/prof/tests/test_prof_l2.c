// SPDX-License-Identifier: GPL-2.0
/*
 * test_prof_l2 - the L2 model end to end, against an H100.
 *
 * Runs tools/cuda-probe/probe_l2 under `vgpu-prof --csv` with only the
 * persistent region of half the L2 (of the guide's experiment; the whole
 * sweep is tests/test_l2_model.c's, natively) and compares with the
 * H100's recording of the same binary:
 *  - the answers to bad calls (limit over the maximum, window over the
 *    maximum, hitRatio 1.5, a persisting missProp) are the H100's codes;
 *  - the device attributes and the limits kept are the H100's in
 *    fractions of each one's L2 (set-aside in sixteenths, rounded up);
 *  - hit rates: a quarter of the L2 read again hits (H100 87 %), a stream
 *    twice the L2 read again does not (H100 0.9 %), a broadcast hits;
 *    a persisting window over half the L2 gains more than 8 points over
 *    no window (H100 63.0 % against 50.6 %).
 * The model's hit rates are not the H100's (Documentation/profiler.rst,
 * "The L2 model"): the thresholds are the shape both must have.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "ncu_csv.h"
#include "rt_test_util.h"

#ifndef VGPU_PROF_BIN
#error "build with -DVGPU_PROF_BIN, -DPROBE_BIN, -DGOLDEN_CSV, -DGOLDEN_TXT"
#endif

static char out[1 << 20];

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

/* The probe's line that starts with @prefix in @text, copied, or "". */
static const char *line_of(const char *text, const char *prefix, char *buf,
			   size_t cap)
{
	const char *p = text;

	buf[0] = 0;
	while ((p = strstr(p, prefix))) {
		if (p == text || p[-1] == '\n') {
			size_t n = strcspn(p, "\n");

			snprintf(buf, cap, "%.*s", (int)n, p);
			break;
		}
		p++;
	}
	return buf;
}

/* The last number of a line. */
static long long last_number(const char *s)
{
	const char *p = s + strlen(s);

	while (p > s && (p[-1] < '0' || p[-1] > '9'))
		p--;
	while (p > s && p[-1] >= '0' && p[-1] <= '9')
		p--;
	return atoll(p);
}

struct hits {
	long long hit[NCU_MAX_LAUNCHES], miss[NCU_MAX_LAUNCHES];
	char kernel[NCU_MAX_LAUNCHES][32];
};

static void take(void *arg, int id, const char *kernel, const char *metric,
		 long long value)
{
	struct hits *h = arg;

	snprintf(h->kernel[id], sizeof(h->kernel[id]), "%s", kernel);
	if (!strcmp(metric, "lts__t_sectors_lookup_hit.sum"))
		h->hit[id] = value;
	else if (!strcmp(metric, "lts__t_sectors_lookup_miss.sum"))
		h->miss[id] = value;
}

static double rate(const struct hits *h, int id)
{
	long long n = h->hit[id] + h->miss[id];

	return n ? 100.0 * (double)h->hit[id] / (double)n : -1;
}

int main(void)
{
	static struct hits ours, h100;
	static const char *const codes[] = {
		"probe: set limit max+1 -> ", "probe: set limit 1000 -> ",
		"probe: window max+1 -> ", "probe: window hitRatio 1.5 -> ",
		"probe: window missProp persisting -> ",
		"probe: window 0 bytes -> ",
	};
	static const char *const limits[] = {
		"probe: persisting limit default ",
		"probe: persisting limit after max+1 ",
		"probe: persisting limit after 1000 ",
		"probe: persisting limit set ",
	};
	char *golden_txt = ncu_read_file(GOLDEN_TXT);
	char *golden_csv = ncu_read_file(GOLDEN_CSV);
	char a[256], b[256];
	long long l2_ours, l2_h100;
	int rc, n, bad = 0;

	pid_t fw = fw_launcher_start();

	tap_plan(9);
	if (fw < 0) {
		tap_diag("cannot start the firmware");
		return 1;
	}
	/* the experiment at 4/8 of the L2 only: launches 7-10 and 11-14 */
	rc = run(VGPU_PROF_BIN " --csv --metrics "
		 "lts__t_sectors_lookup_hit.sum,lts__t_sectors_lookup_miss.sum "
		 PROBE_BIN " 4 4", out, sizeof(out));
	tap_ok(rc == 0 && golden_txt && golden_csv,
	       "vgpu-prof --csv probe_l2 4 4 exits 0 (%d); recordings read", rc);
	if (!golden_txt || !golden_csv) {
		fw_launcher_stop(fw);
		return tap_finish();
	}

	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		line_of(out, codes[i], a, sizeof(a));
		line_of(golden_txt, codes[i], b, sizeof(b));
		if (!a[0] || strcmp(a, b)) {
			tap_diag("'%s', H100 '%s'", a, b);
			bad++;
		}
	}
	tap_ok(!bad, "limit and window errors are the H100's codes");

	line_of(out, "probe: l2CacheSize ", a, sizeof(a));
	line_of(golden_txt, "probe: l2CacheSize ", b, sizeof(b));
	l2_ours = atoll(a + strlen("probe: l2CacheSize "));
	l2_h100 = atoll(b + strlen("probe: l2CacheSize "));
	tap_diag("vGPU: %s", a);
	tap_diag("H100: %s", b);
	tap_ok(l2_ours > 0 && l2_h100 > 0 &&
	       atoll(strstr(a, "MaxSize ") + 8) * l2_h100 ==
	       atoll(strstr(b, "MaxSize ") + 8) * l2_ours &&
	       last_number(a) == last_number(b),
	       "persistingL2CacheMaxSize is the H100's share of the L2, "
	       "accessPolicyMaxWindowSize its value");
	bad = 0;
	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		line_of(out, limits[i], a, sizeof(a));
		line_of(golden_txt, limits[i], b, sizeof(b));
		if (!a[0] || last_number(a) * l2_h100 !=
			     last_number(b) * l2_ours) {
			tap_diag("'%s', H100 '%s'", a, b);
			bad++;
		}
	}
	tap_ok(!bad, "the persisting limits kept are the H100's share of the "
	       "L2 (default, refused, rounded up, set)");

	n = ncu_rows(out, take, &ours);
	ncu_rows(golden_csv, take, &h100);
	tap_ok(n == 15 && !strcmp(ours.kernel[14], "l2_window"),
	       "15 launches counted (%d)", n);
	/* the H100 ran the whole sweep: 4/8 is its launches 19-22, 67-70 */
	for (int id = 0; id < 15; id++) {
		int hid = id < 7 ? id : id < 11 ? id + 12 : id + 56;

		tap_diag("launch %2d %-12s hit rate %6.2f %% (H100 %6.2f %%)",
			 id, ours.kernel[id], rate(&ours, id),
			 rate(&h100, hid));
	}
	tap_ok(rate(&ours, 3) > 80 && rate(&h100, 3) > 80,
	       "a quarter of the L2 read again hits: %.2f %% (H100 %.2f %%)",
	       rate(&ours, 3), rate(&h100, 3));
	tap_ok(rate(&ours, 5) >= 0 && rate(&ours, 5) < 5 && rate(&h100, 5) < 5,
	       "a stream twice the L2 read again misses: %.2f %% "
	       "(H100 %.2f %%)", rate(&ours, 5), rate(&h100, 5));
	tap_ok(rate(&ours, 6) > 95 && rate(&h100, 6) > 95,
	       "a broadcast hits: %.2f %% (H100 %.2f %%)", rate(&ours, 6),
	       rate(&h100, 6));
	/* H100 launch IDs of 4/8: no window 7 + 4 * 3 + 3, window 7 + 4 * 15 + 3 */
	tap_ok(rate(&ours, 14) - rate(&ours, 10) > 8 &&
	       rate(&h100, 70) - rate(&h100, 22) > 8,
	       "a persisting window over half the L2 gains > 8 points: "
	       "%.2f %% against %.2f %% (H100 %.2f %% against %.2f %%)",
	       rate(&ours, 14), rate(&ours, 10), rate(&h100, 70),
	       rate(&h100, 22));
	free(golden_txt);
	free(golden_csv);
	fw_launcher_stop(fw);
	return tap_finish();
}
