// SPDX-License-Identifier: GPL-2.0
/*
 * cuRAND's host API on the GPU: XORWOW, Philox4_32_10 and MTGP32 device
 * generators, seed 1234, checked two ways:
 *   - against cuRAND's host generator of the same type (it runs on the CPU
 *     and produces the same u32 and uniform sequences, word for word; its
 *     normals differ from the GPU's on the H100 too, so
 *     they are reported, not counted);
 *   - against the H100's sequence (tests/golden/curand_host.txt, recorded
 *     with this program on real hardware), by FNV-1a hash and first words.
 * Prints one line per (generator, distribution); with a golden file as
 * argv[1] it compares its lines with it and exits non-zero on a mismatch.
 * CURAND_ONLY=xorwow,philox limits it to those generators.
 */
#include <curand.h>
#include <cuda_runtime_api.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 65536

static uint64_t fnv(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

static int failures;
static char lines[64][160];
static int nlines;

#define CHECK(call) do { int e_ = (int)(call); if (e_) { \
	printf("FAIL %s = %d (line %d)\n", #call, e_, __LINE__); \
	failures++; return; } } while (0)

enum dist { U32, UNIFORM, NORMAL };

static void gen(curandGenerator_t g, enum dist d, void *out)
{
	if (d == U32)
		curandGenerate(g, out, N);
	else if (d == UNIFORM)
		curandGenerateUniform(g, out, N);
	else
		curandGenerateNormal(g, out, N, 0.0f, 1.0f);
}

static void one(curandRngType_t type, const char *name, enum dist d)
{
	static const char *const dn[] = { "u32", "uniform", "normal" };
	curandGenerator_t g, h;
	uint32_t *dev, *got, *ref;

	got = malloc(4 * N);
	ref = malloc(4 * N);
	CHECK(cudaMalloc((void **)&dev, 4 * N));
	CHECK(curandCreateGenerator(&g, type));
	CHECK(curandSetPseudoRandomGeneratorSeed(g, 1234));
	gen(g, d, dev);
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaMemcpy(got, dev, 4 * N, cudaMemcpyDeviceToHost));
	CHECK(curandCreateGeneratorHost(&h, type));
	CHECK(curandSetPseudoRandomGeneratorSeed(h, 1234));
	gen(h, d, ref);
	int same = !memcmp(got, ref, 4 * N);
	snprintf(lines[nlines++], sizeof(lines[0]),
		 "%s %s n=%d fnv=%016" PRIx64 " first=%08x %08x %08x %08x",
		 name, dn[d], N, fnv(got, 4 * N), got[0], got[1], got[2],
		 got[3]);
	printf("%s host-generator=%s\n", lines[nlines - 1],
	       same ? "same" : "DIFFERENT");
	if (!same && d != NORMAL)
		failures++;
	curandDestroyGenerator(g);
	curandDestroyGenerator(h);
	cudaFree(dev);
	free(got);
	free(ref);
}

int main(int argc, char **argv)
{
	static const struct { curandRngType_t t; const char *n; } gens[] = {
		{ CURAND_RNG_PSEUDO_XORWOW, "xorwow" },
		{ CURAND_RNG_PSEUDO_PHILOX4_32_10, "philox" },
		{ CURAND_RNG_PSEUDO_MTGP32, "mtgp32" },
	};
	const char *only = getenv("CURAND_ONLY");

	for (unsigned i = 0; i < sizeof(gens) / sizeof(gens[0]); i++) {
		if (only && !strstr(only, gens[i].n))
			continue;
		for (int d = U32; d <= NORMAL; d++)
			one(gens[i].t, gens[i].n, (enum dist)d);
	}
	if (argc > 1) {
		FILE *f = fopen(argv[1], "r");
		char l[256];
		int matched = 0;

		if (!f) {
			perror(argv[1]);
			return 1;
		}
		while (fgets(l, sizeof(l), f)) {
			l[strcspn(l, "\n")] = 0;
			size_t key = strcspn(l, "f");	/* "NAME DIST n=N " */

			for (int i = 0; i < nlines; i++) {
				if (strncmp(l, lines[i], key))
					continue;
				matched++;
				if (strcmp(l, lines[i])) {
					printf("FAIL H100 %s\n     vGPU %s\n",
					       l, lines[i]);
					failures++;
				}
			}
		}
		fclose(f);
		printf("%d lines compared with %s\n", matched, argv[1]);
	}
	printf("%s\n", failures ? "FAIL" : "PASS");
	return failures ? 1 : 0;
}
