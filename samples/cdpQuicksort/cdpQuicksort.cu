// SPDX-License-Identifier: GPL-2.0
//
// cdpQuicksort: a quicksort in which the GPU decides the work as it goes
// (CUDA dynamic parallelism, CDP2).  The host launches one kernel for the
// whole array; it partitions its range around a pivot and launches itself
// on each half from the device, into cudaStreamFireAndForget (the halves
// are independent).  Ranges of fewer than 32 elements, and every range
// below depth 16, are sorted in place by insertion sort, as NVIDIA's
// cdpSimpleQuicksort sample does, well inside CUDA's 24 nesting levels.
// The host's cudaDeviceSynchronize() returns once the whole tree of grids
// has finished: a parent grid completes only after its children.  The
// result is compared with qsort().
//
// Built with -rdc=true (device-side launches need the device runtime,
// libcudadevrt, which nvcc links; vGPU substitutes its own).
#include <stdio.h>
#include <stdlib.h>

#include "../common/sample_check.h"

#define N		(1 << 14)
#define SMALL		32
#define MAX_DEPTH	16

__device__ static void insertion_sort(int *a, int lo, int hi)
{
	for (int i = lo + 1; i <= hi; i++) {
		int v = a[i], j = i - 1;

		while (j >= lo && a[j] > v) {
			a[j + 1] = a[j];
			j--;
		}
		a[j + 1] = v;
	}
}

__global__ void quicksort(int *a, int lo, int hi, int depth)
{
	if (hi - lo < SMALL || depth >= MAX_DEPTH) {
		insertion_sort(a, lo, hi);
		return;
	}
	int pivot = a[lo + (hi - lo) / 2], i = lo, j = hi;

	while (i <= j) {
		while (a[i] < pivot)
			i++;
		while (a[j] > pivot)
			j--;
		if (i <= j) {
			int t = a[i];

			a[i] = a[j];
			a[j] = t;
			i++;
			j--;
		}
	}
	if (lo < j)
		quicksort<<<1, 1, 0, cudaStreamFireAndForget>>>(a, lo, j,
								depth + 1);
	if (i < hi)
		quicksort<<<1, 1, 0, cudaStreamFireAndForget>>>(a, i, hi,
								depth + 1);
}

static int cmp_int(const void *x, const void *y)
{
	int a = *(const int *)x, b = *(const int *)y;

	return (a > b) - (a < b);
}

int main(void)
{
	int *h = (int *)malloc(N * sizeof(int));
	int *ref = (int *)malloc(N * sizeof(int));
	unsigned int seed = 2026;
	cudaEvent_t start, stop;
	float ms = 0;
	int *d, wrong = 0;

	if (!h || !ref)
		return sample_result(false);
	for (int i = 0; i < N; i++) {
		seed = seed * 1664525u + 1013904223u;
		h[i] = ref[i] = (int)(seed >> 4);
	}
	CHECK(cudaMalloc(&d, N * sizeof(int)));
	CHECK(cudaMemcpy(d, h, N * sizeof(int), cudaMemcpyHostToDevice));
	CHECK(cudaEventCreate(&start));
	CHECK(cudaEventCreate(&stop));
	CHECK(cudaEventRecord(start));
	quicksort<<<1, 1>>>(d, 0, N - 1, 0);
	CHECK(cudaGetLastError());
	CHECK(cudaEventRecord(stop));
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaEventElapsedTime(&ms, start, stop));
	CHECK(cudaMemcpy(h, d, N * sizeof(int), cudaMemcpyDeviceToHost));
	qsort(ref, N, sizeof(int), cmp_int);
	for (int i = 0; i < N; i++)
		wrong += h[i] != ref[i];
	printf("cdpQuicksort: %d ints sorted by a tree of device-launched grids in %.1f ms; %d differ from qsort\n",
	       N, ms, wrong);
	CHECK(cudaFree(d));
	free(h);
	free(ref);
	return sample_result(wrong == 0);
}
