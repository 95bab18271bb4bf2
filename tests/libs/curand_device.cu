// SPDX-License-Identifier: GPL-2.0
/*
 * cuRAND's device API (curand_kernel.h): each of 64 threads draws 16
 * words from its own XORWOW and Philox4_32_10 state (curand_init with seed
 * 1234, subsequence = thread, offset 0).  The words are printed as an
 * FNV-1a hash and first words; with a golden file as argv[1] (the H100's
 * output of this program) the lines must match exactly.
 */
#include <curand_kernel.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define T 64
#define K 16

template <typename S> __global__ void draw(unsigned *out)
{
	S s;
	int t = threadIdx.x;

	curand_init(1234, t, 0, &s);
	for (int k = 0; k < K; k++)
		out[t * K + k] = curand(&s);
}

static uint64_t fnv(const void *p, size_t n)
{
	const unsigned char *b = (const unsigned char *)p;
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

int main(int argc, char **argv)
{
	static char lines[2][160];
	unsigned *d, h[T * K];
	int failures = 0;

	if (cudaMalloc(&d, sizeof(h))) {
		printf("FAIL cudaMalloc\n");
		return 1;
	}
	for (int g = 0; g < 2; g++) {
		if (g == 0)
			draw<curandStateXORWOW_t><<<1, T>>>(d);
		else
			draw<curandStatePhilox4_32_10_t><<<1, T>>>(d);
		cudaError_t e = cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
		if (e) {
			printf("FAIL %s: %s\n", g ? "philox" : "xorwow",
			       cudaGetErrorString(e));
			return 1;
		}
		snprintf(lines[g], sizeof(lines[g]),
			 "device-%s n=%d fnv=%016llx first=%08x %08x %08x %08x",
			 g ? "philox" : "xorwow", T * K,
			 (unsigned long long)fnv(h, sizeof(h)), h[0], h[1],
			 h[2], h[3]);
		printf("%s\n", lines[g]);
	}
	if (argc > 1) {
		FILE *f = fopen(argv[1], "r");
		char l[256];

		while (f && fgets(l, sizeof(l), f)) {
			l[strcspn(l, "\n")] = 0;
			for (int g = 0; g < 2; g++)
				if (!strncmp(l, lines[g], 14) && strcmp(l, lines[g])) {
					printf("FAIL H100 %s\n     vGPU %s\n", l, lines[g]);
					failures++;
				}
		}
		if (f)
			fclose(f);
	}
	printf("%s\n", failures ? "FAIL" : "PASS");
	return failures;
}
