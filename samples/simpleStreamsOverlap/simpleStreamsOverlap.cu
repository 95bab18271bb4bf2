// SPDX-License-Identifier: GPL-2.0
//
// simpleStreamsOverlap: staged concurrent copy and execute (CUDA C++ Best
// Practices Guide, 9.1.2).
//
// The same work - copy an array in, run a kernel on it, copy it out - done
// twice:
//
//   serial:  H2D(all) -> kernel(all) -> D2H(all), on one stream;
//   staged:  the array cut into chunks, chunk i on stream i % N, each
//            stream doing H2D(chunk) -> kernel(chunk) -> D2H(chunk).
//
// In the staged version the copy engines move one chunk while the compute
// engine works on another, so the total time approaches that of the
// longest of the three phases instead of their sum.  This needs pinned host
// memory: an asynchronous copy of pageable memory cannot overlap (the
// driver has to stage it through its own buffers with the CPU).
//
//   simpleStreamsOverlap [elements] [streams] [rounds]
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "../common/sample_check.h"

// A few rounds of an integer hash per element: exact, so the CPU can check
// every result bit for bit, and enough work to be worth overlapping.
__host__ __device__ static uint32_t mix(uint32_t v, int rounds)
{
	for (int r = 0; r < rounds; r++) {
		v = v * 1664525u + 1013904223u;
		v ^= v >> 13;
	}
	return v;
}

__global__ void mix_kernel(uint32_t *data, int n, int rounds)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		data[i] = mix(data[i], rounds);
}

#define TRIALS 3

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

// Copy @n elements of @host in, mix them, copy them back, as @chunks
// chunks spread round-robin over @streams; returns milliseconds.
static double run(uint32_t *host, uint32_t *dev, int n, int rounds,
		  cudaStream_t *streams, int nstreams, int chunks)
{
	int per = (n + chunks - 1) / chunks;
	double t0 = now_ms();

	for (int c = 0; c < chunks; c++) {
		int off = c * per, len = n - off < per ? n - off : per;
		cudaStream_t s = streams[c % nstreams];

		if (len <= 0)
			break;
		CHECK(cudaMemcpyAsync(dev + off, host + off,
				      (size_t)len * sizeof(*host),
				      cudaMemcpyHostToDevice, s));
		mix_kernel<<<(len + 255) / 256, 256, 0, s>>>(dev + off, len,
							      rounds);
		CHECK(cudaGetLastError());
		CHECK(cudaMemcpyAsync(host + off, dev + off,
				      (size_t)len * sizeof(*host),
				      cudaMemcpyDeviceToHost, s));
	}
	CHECK(cudaDeviceSynchronize());
	return now_ms() - t0;
}

static void fill(uint32_t *p, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint32_t)i * 2654435761u;
}

static bool check(const uint32_t *p, int n, int rounds, const char *how)
{
	for (int i = 0; i < n; i++) {
		uint32_t want = mix((uint32_t)i * 2654435761u, rounds);

		if (p[i] != want) {
			fprintf(stderr, "%s: element %d is 0x%08x, expected "
				"0x%08x\n", how, i, p[i], want);
			return false;
		}
	}
	return true;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1 << 18;
	int nstreams = argc > 2 ? atoi(argv[2]) : 4;
	int rounds = argc > 3 ? atoi(argv[3]) : 16;
	cudaStream_t *streams;
	cudaDeviceProp prop;
	uint32_t *host, *dev;
	double serial, staged;
	bool ok;

	if (n <= 0 || nstreams <= 0 || rounds < 0) {
		fprintf(stderr, "usage: simpleStreamsOverlap [elements] "
			"[streams] [rounds]\n");
		return sample_result(false);
	}
	CHECK(cudaGetDeviceProperties(&prop, 0));
	printf("[simpleStreamsOverlap] %d elements, %d streams, %s: "
	       "%d copy engine(s), concurrent kernels %s\n", n, nstreams,
	       prop.name, prop.asyncEngineCount,
	       prop.concurrentKernels ? "yes" : "no");

	streams = (cudaStream_t *)malloc(nstreams * sizeof(*streams));
	if (!streams)
		return sample_result(false);
	for (int i = 0; i < nstreams; i++)
		CHECK(cudaStreamCreate(&streams[i]));
	CHECK(cudaMallocHost(&host, (size_t)n * sizeof(*host)));
	CHECK(cudaMalloc(&dev, (size_t)n * sizeof(*dev)));

	// Once untimed, so that the kernel's compilation is not measured.
	fill(host, n);
	run(host, dev, n, rounds, streams, 1, 1);

	// Best of a few runs of each: timers on a shared machine are noisy.
	serial = staged = 1e30;
	ok = true;
	for (int t = 0; t < TRIALS; t++) {
		double ms;

		fill(host, n);
		ms = run(host, dev, n, rounds, streams, 1, 1);
		serial = ms < serial ? ms : serial;
		ok &= check(host, n, rounds, "serial");

		fill(host, n);
		ms = run(host, dev, n, rounds, streams, nstreams, nstreams);
		staged = ms < staged ? ms : staged;
		ok &= check(host, n, rounds, "staged");
	}

	printf("  serial (1 stream):    %8.2f ms\n", serial);
	printf("  staged (%d streams):   %8.2f ms\n", nstreams, staged);
	printf("  speed-up:             %8.2f x\n", serial / staged);
	// vGPU's engines are threads of the firmware: they overlap only if
	// there are CPUs to run them at the same time.
	printf("  (%ld CPUs online, shared by this program and the firmware's "
	       "engine threads)\n", sysconf(_SC_NPROCESSORS_ONLN));

	CHECK(cudaFree(dev));
	CHECK(cudaFreeHost(host));
	for (int i = 0; i < nstreams; i++)
		CHECK(cudaStreamDestroy(streams[i]));
	free(streams);
	return sample_result(ok);
}
