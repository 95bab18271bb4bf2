// SPDX-License-Identifier: GPL-2.0
/*
 * test_mufu: firmware_sim/core/mufu.c against the H100's answers of the
 * PTX .approx functions (tools/cuda-probe/probe_mufu.cu):
 *
 *   - the 1536 recorded values per function: how many the model gets
 *     bit-exact, which must not fall below what it reached when this test
 *     was written (the floors below: a regression fails);
 *   - range hashes (sum of splitmix64(x << 32 | f(x)) over the 2^24 inputs
 *     whose top 8 bits are the range): the ranges listed below must match
 *     the recording exactly.
 *
 * With --all it hashes all 256 ranges of every function instead
 * and prints, per function, how many ranges match and the total
 * (make mufu-hash-all; about 0.2 s a range on one core, a quarter of an
 * hour for all 15 functions).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mufu.h"
#include "visa_types.h"

struct fn {
	const char *name;
	unsigned int op;
	bool ftz;
	int floor;		/* exact values of 1536, at least */
	const int *ranges;	/* ranges that hash exactly, -1 ends */
};

/*
 * Ranges whose hash matches: 0x00/0x80 hold +-0, subnormals and tiny
 * inputs, 0x7f/0xff the largest inputs, inf and NaN.  sin/cos match there
 * because mufu.c follows the reduction of the hardware; the negative
 * ranges of lg2/rsqrt/sqrt are all NaN (and -0 results); the others still
 * differ somewhere inside (the H100's table interpolation).
 */
static const int edge_ranges[] = { 0x00, 0x80, 0x7f, 0xff, -1 };
static const int negative_ranges[] = { 0x80, 0xff, -1 };
static const int rcp_ftz_ranges[] = { 0x7f, 0xff, -1 };
static const int none[] = { -1 };

static const struct fn fns[] = {
	{ "sin.approx.f32", VISA_OP_SIN, false, 1318, edge_ranges },
	{ "sin.approx.ftz.f32", VISA_OP_SIN, true, 1318, edge_ranges },
	{ "cos.approx.f32", VISA_OP_COS, false, 916, edge_ranges },
	{ "cos.approx.ftz.f32", VISA_OP_COS, true, 916, edge_ranges },
	{ "ex2.approx.f32", VISA_OP_EX2, false, 1262, edge_ranges },
	{ "ex2.approx.ftz.f32", VISA_OP_EX2, true, 1262, edge_ranges },
	{ "lg2.approx.f32", VISA_OP_LG2, false, 794, negative_ranges },
	{ "lg2.approx.ftz.f32", VISA_OP_LG2, true, 795, negative_ranges },
	{ "rcp.approx.f32", VISA_OP_RCP, false, 1388, none },
	{ "rcp.approx.ftz.f32", VISA_OP_RCP, true, 1390, rcp_ftz_ranges },
	{ "rsqrt.approx.f32", VISA_OP_RSQRT, false, 921, negative_ranges },
	{ "rsqrt.approx.ftz.f32", VISA_OP_RSQRT, true, 921, negative_ranges },
	{ "sqrt.approx.f32", VISA_OP_SQRT, false, 1456, negative_ranges },
	{ "sqrt.approx.ftz.f32", VISA_OP_SQRT, true, 1456, negative_ranges },
	{ "tanh.approx.f32", VISA_OP_TANH, false, 967, edge_ranges },
};
#define NUM_FNS ((int)(sizeof(fns) / sizeof(fns[0])))

/* the recorded range hashes and totals */
static uint64_t rec_hash[NUM_FNS][256], rec_total[NUM_FNS];

static int fn_index(const char *name)
{
	for (int i = 0; i < NUM_FNS; i++)
		if (!strcmp(fns[i].name, name))
			return i;
	return -1;
}

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t range_hash(const struct fn *f, uint32_t r)
{
	uint64_t h = 0;

	for (uint32_t k = 0; k < (1u << 24); k++) {
		uint32_t x = r << 24 | k;

		h += mix64((uint64_t)x << 32 | mufu_f32(f->op, x, f->ftz));
	}
	return h;
}

static int load_hashes(void)
{
	FILE *fp = fopen(HASH_FILE, "r");
	char line[256], name[64];
	unsigned int r;
	unsigned long long h;
	int n = 0, i;

	if (!fp) {
		perror(HASH_FILE);
		return -1;
	}
	while (fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "hash %63s %x %llx", name, &r, &h) == 3 &&
		    r < 256 && (i = fn_index(name)) >= 0) {
			rec_hash[i][r] = h;
			n++;
		} else if (sscanf(line, "total %63s %llx", name, &h) == 2 &&
			   (i = fn_index(name)) >= 0) {
			rec_total[i] = h;
		}
	}
	fclose(fp);
	if (n != NUM_FNS * 256) {
		fprintf(stderr, "%s: %d range hashes, want %d\n", HASH_FILE, n,
			NUM_FNS * 256);
		return -1;
	}
	return 0;
}

static int check_values(void)
{
	FILE *fp = popen("gzip -dc " VALUES_FILE, "r");
	int exact[NUM_FNS] = { 0 }, seen[NUM_FNS] = { 0 }, fails = 0, i;
	char line[256], name[64];
	unsigned int x, y;

	if (!fp) {
		perror(VALUES_FILE);
		return 1;
	}
	while (fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "value %63s %x %x", name, &x, &y) != 3 ||
		    (i = fn_index(name)) < 0)
			continue;
		seen[i]++;
		exact[i] += mufu_f32(fns[i].op, x, fns[i].ftz) == y;
	}
	if (pclose(fp) != 0) {
		fprintf(stderr, "gzip -dc %s failed\n", VALUES_FILE);
		return 1;
	}
	for (i = 0; i < NUM_FNS; i++) {
		bool ok = seen[i] == 1536 && exact[i] >= fns[i].floor;

		printf("%-22s %4d/%d recorded values exact (floor %d)%s\n",
		       fns[i].name, exact[i], seen[i], fns[i].floor,
		       ok ? "" : "  FAIL");
		fails += !ok;
	}
	return fails;
}

static int check_ranges(bool all)
{
	int fails = 0;

	for (int i = 0; i < NUM_FNS; i++) {
		const struct fn *f = &fns[i];
		int matched = 0;
		uint64_t total = 0;

		if (all) {
			for (uint32_t r = 0; r < 256; r++) {
				uint64_t h = range_hash(f, r);

				total += h;
				matched += h == rec_hash[i][r];
			}
			printf("%-22s %3d/256 ranges match, total %016llx %s\n",
			       f->name, matched, (unsigned long long)total,
			       total == rec_total[i] ? "== H100" : "!= H100");
			continue;
		}
		for (const int *r = f->ranges; *r >= 0; r++) {
			bool ok = range_hash(f, (uint32_t)*r) ==
				  rec_hash[i][*r];

			printf("%-22s range %02x %s\n", f->name, *r,
			       ok ? "matches the H100" : "FAIL");
			fails += !ok;
		}
	}
	return fails;
}

int main(int argc, char **argv)
{
	bool all = argc > 1 && !strcmp(argv[1], "--all");
	int fails;

	if (load_hashes())
		return 1;
	fails = check_values() + check_ranges(all);
	printf("test_mufu: %s\n", fails ? "FAIL" : "ok");
	return fails ? 1 : 0;
}
