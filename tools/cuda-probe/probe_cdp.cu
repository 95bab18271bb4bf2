// SPDX-License-Identifier: GPL-2.0
// probe_cdp: what dynamic parallelism (CDP2, CUDA 12+) answers on real
// hardware.  One line per question: the default device-runtime limits
// and setting them; the order of children launched into a block's NULL
// stream, into cudaStreamFireAndForget and cudaStreamTailLaunch; how deep
// launches nest and the error of the first one too deep; how many
// launches one thread can leave pending under a small
// cudaLimitDevRuntimePendingLaunchCount and the error after; the errors
// of bad configurations launched from the device; what the host sees
// when a child faults.
// Build: nvcc -cudart shared -rdc=true -arch=sm_90 -o probe_cdp probe_cdp.cu -lcudadevrt
#include <cstdio>
#include <cuda_runtime.h>

__device__ unsigned int stamp;

__global__ void record(unsigned int *slot)
{
	if (threadIdx.x == 0 && blockIdx.x == 0)
		*slot = atomicAdd(&stamp, 1);
}

// Thread 0 launches three children into the NULL stream, one
// fire-and-forget, then one tail launch; the stamps give the order.
__global__ void order(unsigned int *slots, int *err)
{
	if (threadIdx.x)
		return;
	record<<<1, 1, 0, cudaStreamTailLaunch>>>(&slots[0]);
	record<<<1, 1>>>(&slots[1]);
	record<<<1, 1>>>(&slots[2]);
	record<<<1, 1, 0, cudaStreamFireAndForget>>>(&slots[3]);
	record<<<1, 1>>>(&slots[4]);
	err[0] = cudaGetLastError();
	slots[5] = atomicAdd(&stamp, 1);	// the parent, before it ends
}

// Each level launches the next until a launch fails.
__global__ void nest(int depth, int *deepest, int *err)
{
	*deepest = depth;
	nest<<<1, 1>>>(depth + 1, deepest, err);
	cudaError_t e = cudaGetLastError();

	if (e != cudaSuccess)
		err[0] = e, err[1] = depth;
}

__global__ void empty(void) { }

// One thread launches n children; how many succeed, first error, where.
__global__ void pending(int n, int *out)
{
	int ok = 0, first = 0, at = -1;

	for (int i = 0; i < n; i++) {
		empty<<<1, 1>>>();
		cudaError_t e = cudaGetLastError();

		if (e == cudaSuccess)
			ok++;
		else if (!first)
			first = e, at = i;
	}
	out[0] = ok, out[1] = first, out[2] = at;
}

__global__ void badcfg(int *out)
{
	out[0] = cudaGetLastError();
	empty<<<1, 2048>>>();
	out[1] = cudaGetLastError();
	empty<<<0, 1>>>();
	out[2] = cudaGetLastError();
	empty<<<1, 1, 1 << 20>>>();
	out[3] = cudaGetLastError();
	empty<<<1, 1>>>();
	out[4] = cudaPeekAtLastError();
	out[5] = cudaGetLastError();
	empty<<<dim3(1, 70000), 1>>>();
	out[6] = cudaGetLastError();
}

__global__ void faulty(int *p) { *p = 1; }
__global__ void fault_parent(void) { faulty<<<1, 1>>>((int *)8); }

int main(void)
{
	cudaDeviceProp prop;
	size_t v;
	int *err, *out;
	unsigned int *slots;

	cudaGetDeviceProperties(&prop, 0);
	printf("device: %s\n", prop.name);
	cudaDeviceGetLimit(&v, cudaLimitDevRuntimePendingLaunchCount);
	printf("default pending launch count: %zu\n", v);
	cudaDeviceGetLimit(&v, cudaLimitDevRuntimeSyncDepth);
	printf("default sync depth: %zu\n", v);
	printf("set sync depth 30: %d\n",
	       (int)cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, 30));
	printf("set sync depth 0: %d\n",
	       (int)cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, 0));
	cudaDeviceGetLimit(&v, cudaLimitDevRuntimeSyncDepth);
	printf("sync depth now: %zu\n", v);
	cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, 2);
	printf("set pending 0: %d\n",
	       (int)cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 0));
	cudaDeviceGetLimit(&v, cudaLimitDevRuntimePendingLaunchCount);
	printf("pending now: %zu\n", v);
	cudaGetLastError();

	cudaMallocHost(&err, 64 * sizeof(int));
	cudaMallocHost(&out, 64 * sizeof(int));
	cudaMallocHost(&slots, 64 * sizeof(unsigned int));
	for (int i = 0; i < 64; i++)
		err[i] = out[i] = -1, slots[i] = ~0u;

	order<<<1, 32>>>(slots, err);
	printf("launch order: %d\n", (int)cudaGetLastError());
	printf("order: %d err %d stamps tail %u null %u %u faf %u null %u parent %u\n",
	       (int)cudaDeviceSynchronize(), err[0], slots[0], slots[1],
	       slots[2], slots[3], slots[4], slots[5]);

	err[0] = err[1] = -1;
	out[0] = -1;
	nest<<<1, 1>>>(0, out, err);
	printf("launch nest: %d\n", (int)cudaGetLastError());
	printf("nest: %d deepest grid %d error %d launched from depth %d\n",
	       (int)cudaDeviceSynchronize(), out[0], err[0], err[1]);

	for (int lim = 4; lim <= 4096; lim *= 32) {
		printf("set pending %d: %d\n", lim,
		       (int)cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, lim));
		out[0] = out[1] = out[2] = -1;
		pending<<<1, 1>>>(3 * lim, out);
		printf("launch pending: %d\n", (int)cudaGetLastError());
		printf("pending %d: %d ok %d first error %d at %d\n", 3 * lim,
		       (int)cudaDeviceSynchronize(), out[0], out[1], out[2]);
	}

	for (int i = 0; i < 8; i++)
		out[i] = -1;
	badcfg<<<1, 1>>>(out);
	printf("launch badcfg: %d\n", (int)cudaGetLastError());
	printf("badcfg: %d start %d block2048 %d grid0 %d shared1M %d peek %d get %d gridy70000 %d\n",
	       (int)cudaDeviceSynchronize(), out[0], out[1], out[2], out[3],
	       out[4], out[5], out[6]);

	fault_parent<<<1, 1>>>();
	printf("launch fault_parent: %d\n", (int)cudaGetLastError());
	printf("child fault: sync %d last %d\n", (int)cudaDeviceSynchronize(),
	       (int)cudaGetLastError());
	return 0;
}
