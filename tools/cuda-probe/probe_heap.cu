// SPDX-License-Identifier: GPL-2.0
// probe_heap: what the device heap of real CUDA answers.  One line per
// question: the default cudaLimitMallocHeapSize, how a set value is
// rounded, when the limit stops being settable (after a kernel of the
// module that does not call malloc, after one that does) and with which
// error, how much of the heap malloc can hand out in blocks of several
// sizes, malloc(0), an allocation larger than the heap, the alignment of
// what malloc returns, free(NULL), and new/delete.
// Its first run (2026-11-24, H100) printed nothing in 120 s: stdout was
// fully buffered and the 1-byte and 16-byte rounds ran too long; it now
// prints line by line and takes at most 4096 blocks per round.
// Build: nvcc -cudart shared -arch=sm_90 -o probe_heap probe_heap.cu
#include <cstdio>
#include <cuda_runtime.h>

__global__ void nop(int *p)
{
	if (p)
		*p = 1;
}

// How many blocks of @size one thread gets before malloc returns NULL;
// then all are freed.  out[0] = count, out[1] = OR of (ptr & 255) over
// the blocks (the alignment), out[2] = 1 if the pointers ascend.
__global__ void fill(unsigned long long size, unsigned long long *out)
{
	void **list = nullptr;
	unsigned long long n = 0, orbits = 0, asc = 1, cap = 0;
	char *last = nullptr;

	/* at most 4096 blocks: device malloc is slow, one thread runs it */
	while (n < 4096) {
		char *p = (char *)malloc(size);

		if (!p)
			break;
		if (n == cap) {
			void **nl;

			cap = cap ? 2 * cap : 64;
			nl = (void **)malloc(cap * sizeof(void *));
			if (!nl) {
				free(p);
				break;
			}
			for (unsigned long long i = 0; i < n; i++)
				nl[i] = list[i];
			free(list);
			list = nl;
		}
		list[n++] = p;
		orbits |= (unsigned long long)p & 255;
		if (last && p < last)
			asc = 0;
		last = p;
	}
	for (unsigned long long i = 0; i < n; i++)
		free(list[i]);
	free(list);
	out[0] = n;
	out[1] = orbits;
	out[2] = asc;
}

__global__ void edge(unsigned long long *out, unsigned long long huge)
{
	void *z = malloc(0);
	void *h = malloc(huge);
	int *a = new int[4];

	out[0] = z != nullptr;
	out[1] = h != nullptr;
	out[2] = a != nullptr;
	free(z);
	free(nullptr);
	delete[] a;
	out[3] = 1;
}

static void limit(const char *what)
{
	size_t v = 0;
	cudaError_t e = cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize);

	printf("%s: get %d %zu\n", what, (int)e, v);
}

static void set(const char *what, size_t v)
{
	cudaError_t e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, v);

	printf("%s: set %zu -> %d (%s)\n", what, v, (int)e,
	       cudaGetErrorName(e));
	limit(what);
}

int main(void)
{
	unsigned long long *d, h[4];
	static const unsigned long long sizes[] = { 4096, 65536, 1 << 20 };

	/* line by line: a run cut short still shows what it got to */
	setvbuf(stdout, NULL, _IOLBF, 0);

	limit("default");
	set("unaligned", 1000000);
	set("zero", 0);
	set("small", 4096);
	set("4MiB", 4 << 20);
	cudaMalloc(&d, 64);
	nop<<<1, 1>>>(nullptr);
	printf("nop: %d\n", (int)cudaDeviceSynchronize());
	set("after nop", 6 << 20);
	for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		fill<<<1, 1>>>(sizes[i], d);
		cudaError_t e = cudaDeviceSynchronize();

		cudaMemcpy(h, d, 24, cudaMemcpyDeviceToHost);
		printf("fill %llu: %d count %llu align-bits %llx ascending %llu\n",
		       sizes[i], (int)e, h[0], h[1], h[2]);
	}
	set("after malloc", 16 << 20);
	edge<<<1, 1>>>(d, 1ull << 40);
	printf("edge: %d\n", (int)cudaDeviceSynchronize());
	cudaMemcpy(h, d, 32, cudaMemcpyDeviceToHost);
	printf("malloc(0) non-null %llu, malloc(1 TiB) non-null %llu, new %llu, done %llu\n",
	       h[0], h[1], h[2], h[3]);
	printf("last error: %d\n", (int)cudaGetLastError());
	cudaDeviceReset();
	limit("after reset");
	set("after reset", 8 << 20);
	return 0;
}
