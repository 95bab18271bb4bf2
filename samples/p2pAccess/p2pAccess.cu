// SPDX-License-Identifier: GPL-2.0
//
// p2pAccess: two devices sharing memory, as the CUDA guide's
// "Peer-to-Peer Memory Access" describes.
//
// After cudaDeviceEnablePeerAccess(0) on device 1, a kernel of device 1
// may use pointers to device 0's memory as they are (unified addressing:
// the pointer is the same on both devices), and copies between the two
// devices go from one device's memory to the other's without passing
// through the host:
//
//   device 1 kernel --load/store/atomic--> device 0's memory
//   cudaMemcpyPeer(dev1 <- dev0): one copy-engine operation
//
// The sample copies an array from device 0 to device 1 with peer access
// and again without it (staged through host memory), prints both
// bandwidths, then runs a kernel on device 1 that reads device 0's array,
// writes three times each element into device 0's memory and adds every
// element atomically to a sum in device 0's memory, while device 0 adds
// the same elements to the same sum.  Everything is checked against the
// CPU.  With fewer than two devices it says so and is waived.
#include <chrono>
#include <stdio.h>
#include <stdlib.h>

#include "../common/sample_check.h"

#define N (1 << 20)
#define REPS 4

__global__ void useMemoryOfDevice0(const int *in, int *out,
				   unsigned long long *sum, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n) {
		out[i] = 3 * in[i];
		atomicAdd(sum, (unsigned long long)in[i]);
	}
}

__global__ void addOnDevice0(const int *in, unsigned long long *sum, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		atomicAdd(sum, (unsigned long long)in[i]);
}

// Milliseconds of REPS peer copies of @bytes from device 0 to device 1.
static double timeCopies(int *dst1, const int *src0, size_t bytes)
{
	auto t0 = std::chrono::steady_clock::now();

	for (int r = 0; r < REPS; r++)
		CHECK(cudaMemcpyPeer(dst1, 1, src0, 0, bytes));
	CHECK(cudaDeviceSynchronize());
	return std::chrono::duration<double, std::milli>(
		std::chrono::steady_clock::now() - t0).count();
}

int main(void)
{
	size_t bytes = N * sizeof(int);
	int count = 0, can10 = 0, can01 = 0;
	int *host, *back, *in0, *out0, *copy1;
	unsigned long long *sum0, sum = 0, want = 0;
	bool ok = true;

	CHECK(cudaGetDeviceCount(&count));
	if (count < 2) {
		printf("p2pAccess: %d device(s); needs two (load vgpu.ko with "
		       "num_devices=2). WAIVED\n", count);
		return EXIT_SUCCESS;
	}
	CHECK(cudaDeviceCanAccessPeer(&can10, 1, 0));
	CHECK(cudaDeviceCanAccessPeer(&can01, 0, 1));
	printf("device 1 can access device 0: %d, device 0 can access "
	       "device 1: %d\n", can10, can01);
	if (!can10)
		return sample_result(false);

	host = (int *)malloc(bytes);
	back = (int *)malloc(bytes);
	for (int i = 0; i < N; i++) {
		host[i] = (i * 37) % 1001 - 500;
		want += 2ull * (unsigned long long)host[i];
	}
	CHECK(cudaSetDevice(0));
	CHECK(cudaMalloc(&in0, bytes));
	CHECK(cudaMalloc(&out0, bytes));
	CHECK(cudaMalloc(&sum0, sizeof(*sum0)));
	CHECK(cudaMemcpy(in0, host, bytes, cudaMemcpyHostToDevice));
	CHECK(cudaMemset(out0, 0, bytes));
	CHECK(cudaMemset(sum0, 0, sizeof(*sum0)));
	CHECK(cudaSetDevice(1));
	CHECK(cudaMalloc(&copy1, bytes));

	// Staged (no peer access yet), then peer.
	double staged = timeCopies(copy1, in0, bytes);
	CHECK(cudaDeviceEnablePeerAccess(0, 0));
	double peer = timeCopies(copy1, in0, bytes);
	double mib = (double)bytes * REPS / (1 << 20);
	printf("cudaMemcpyPeer device 0 -> 1, %d x %zu KiB:\n", REPS,
	       bytes >> 10);
	printf("  staged through the host: %8.1f MiB/s\n", mib / staged * 1e3);
	printf("  peer (copy engine):      %8.1f MiB/s  (%.2fx)\n",
	       mib / peer * 1e3, staged / peer);
	CHECK(cudaMemcpy(back, copy1, bytes, cudaMemcpyDeviceToHost));
	for (int i = 0; i < N && ok; i++)
		ok = back[i] == host[i];
	printf("peer copy: %s\n", ok ? "matches" : "differs");

	// Device 1's kernel on device 0's memory, then device 0's own.
	useMemoryOfDevice0<<<(N + 255) / 256, 256>>>(in0, out0, sum0, N);
	CHECK(cudaGetLastError());
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaSetDevice(0));
	addOnDevice0<<<(N + 255) / 256, 256>>>(in0, sum0, N);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(back, out0, bytes, cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(&sum, sum0, sizeof(sum), cudaMemcpyDeviceToHost));
	for (int i = 0; i < N && ok; i++)
		ok = back[i] == 3 * host[i];
	printf("device 1 wrote device 0's memory: %s\n",
	       ok ? "3 x every element" : "wrong");
	printf("atomic sum of both devices: %llu (CPU: %llu)\n", sum, want);
	ok = ok && sum == want;

	CHECK(cudaSetDevice(1));
	CHECK(cudaDeviceDisablePeerAccess(0));
	CHECK(cudaFree(copy1));
	CHECK(cudaSetDevice(0));
	CHECK(cudaFree(in0));
	CHECK(cudaFree(out0));
	CHECK(cudaFree(sum0));
	free(host);
	free(back);
	return sample_result(ok);
}
