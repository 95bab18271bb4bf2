// SPDX-License-Identifier: GPL-2.0
/*
 * probe_assert_printf: what a failed device assert prints and returns,
 * and the printf FIFO: its default size and what is printed when a
 * kernel writes more than it holds.  One mode per run (the assert
 * poisons the context):
 *
 *   limits    the default cudaLimitPrintfFifoSize and cudaLimitMallocHeapSize,
 *             and what setting the FIFO to small sizes reads back
 *   small     FIFO set to 4096 bytes (read back: the smallest size);
 *             16384 threads print 4 lines each with four formats (a
 *             long one, a short one, four int arguments, a double): how
 *             many lines fit tells a record's size
 *   default   default FIFO; 65536 threads print 4 lines of ~48 bytes each
 *   assert    2 blocks of 64 threads; threads 5, 21, 37, 53 of each fail
 *             assert(); the error codes that follow
 *
 * Build: nvcc -arch=sm_90 -o probe_assert_printf probe_assert_printf.cu
 */
#include <cassert>
#include <cstdio>
#include <cstring>

__global__ void print_lines(int lines)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;

	for (int i = 0; i < lines; i++)
		printf("thread %6d line %d of the printf fifo test....\n", t, i);
}

__global__ void print_short(void)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;

	for (int i = 0; i < 4; i++)
		printf("%d\n", t);
}

__global__ void print_four(void)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;

	for (int i = 0; i < 4; i++)
		printf("%d %d %d %d\n", t, i, t + 1, i + 1);
}

__global__ void print_double(void)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;

	for (int i = 0; i < 4; i++)
		printf("%f\n", (double)t);
}

static void marker(const char *what)
{
	printf("=== %s\n", what);
	fflush(stdout);
}

__global__ void fail_some(int *out)
{
	assert(threadIdx.x % 16 != 5);
	out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

static void show(const char *what, cudaError_t e)
{
	printf("%s: %s (%d)\n", what, cudaGetErrorName(e), (int)e);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "limits";
	size_t v = 0;

	if (!strcmp(mode, "limits")) {
		static const size_t sizes[] = { 0, 1, 100, 4096, 5000, 65536 };

		show("get fifo", cudaDeviceGetLimit(&v, cudaLimitPrintfFifoSize));
		printf("default printf fifo size: %zu\n", v);
		show("get heap", cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize));
		printf("default malloc heap size: %zu\n", v);
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			cudaError_t e = cudaDeviceSetLimit(cudaLimitPrintfFifoSize,
							   sizes[i]);

			v = 0;
			cudaDeviceGetLimit(&v, cudaLimitPrintfFifoSize);
			printf("set fifo %zu: %s, reads back %zu\n", sizes[i],
			       cudaGetErrorName(e), v);
		}
		print_lines<<<1, 1>>>(1);
		show("sync", cudaDeviceSynchronize());
		show("set fifo after a launch",
		     cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 8192));
		cudaDeviceGetLimit(&v, cudaLimitPrintfFifoSize);
		printf("reads back %zu\n", v);
	} else if (!strcmp(mode, "small")) {
		show("set fifo 4096",
		     cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 4096));
		marker("long");
		print_lines<<<64, 256>>>(4);
		show("sync", cudaDeviceSynchronize());
		marker("short");
		print_short<<<64, 256>>>();
		show("sync", cudaDeviceSynchronize());
		marker("four");
		print_four<<<64, 256>>>();
		show("sync", cudaDeviceSynchronize());
		marker("double");
		print_double<<<64, 256>>>();
		show("sync", cudaDeviceSynchronize());
		marker("end");
	} else if (!strcmp(mode, "default")) {
		print_lines<<<256, 256>>>(4);
		show("sync", cudaDeviceSynchronize());
		print_lines<<<1, 2>>>(1);
		show("sync again", cudaDeviceSynchronize());
	} else if (!strcmp(mode, "assert")) {
		int *out = NULL;

		cudaMalloc(&out, 128 * sizeof(int));
		fail_some<<<2, 64>>>(out);
		show("sync", cudaDeviceSynchronize());
		show("get last error", cudaGetLastError());
		show("get last error again", cudaGetLastError());
		show("malloc after", cudaMalloc(&out, 16));
		show("sync after", cudaDeviceSynchronize());
	}
	return 0;
}
