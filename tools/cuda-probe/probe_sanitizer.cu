// SPDX-License-Identifier: GPL-2.0
/*
 * probe_sanitizer.cu - planted bugs, one per argument, to record what
 * NVIDIA's compute-sanitizer prints for each (report text, summary line,
 * exit code), so that vgpu-sanitizer can print the same.
 *
 *   probe_sanitizer oob-write|oob-read|misaligned|uaf|race|divergent|
 *                   shfl-mask|uninit|leak|heap-leak|clean
 *
 * Built with -lineinfo so that the reports name source lines:
 *   nvcc -cudart shared -lineinfo -gencode arch=compute_90,code=compute_90 \
 *        -o probe_sanitizer probe_sanitizer.cu
 * (PTX only, so vGPU's PTX compiler and the H100's driver both see .loc.)
 */
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void oob_write(int *a)
{
	a[threadIdx.x + 1] = threadIdx.x;	/* thread 31 writes a[32] */
}

__global__ void oob_read(const int *a, int *out)
{
	out[threadIdx.x] = a[threadIdx.x + 1];	/* thread 31 reads a[32] */
}

__global__ void misaligned(int *a)
{
	if (threadIdx.x == 3)
		*(int *)((char *)a + 2) = 7;
}

__global__ void use_after_free(int *a)
{
	a[threadIdx.x] = 1;
}

__global__ void smem_race(int *out)
{
	__shared__ int s[64];

	s[threadIdx.x] = threadIdx.x;
	/* no __syncthreads(): thread t reads what thread t + 1 wrote */
	out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}

__global__ void divergent_barrier(int *out)
{
	if (threadIdx.x < 16)
		__syncthreads();
	out[threadIdx.x] = 1;
}

__global__ void shfl_bad_mask(int *out)
{
	int v = threadIdx.x;

	if (threadIdx.x < 16)
		v = __shfl_sync(0xffffffffu, v, 0);
	out[threadIdx.x] = v;
}

__global__ void read_uninit(const int *a, int *out)
{
	out[threadIdx.x] = a[threadIdx.x];
}

__global__ void heap_leak(void)
{
	if (threadIdx.x == 0)
		(void)malloc(100);
}

__global__ void clean(int *a)
{
	a[threadIdx.x] = threadIdx.x;
}

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "clean";
	int *a, *b;

	cudaMalloc(&a, 32 * sizeof(int));
	cudaMalloc(&b, 64 * sizeof(int));
	cudaMemset(b, 0, 64 * sizeof(int));
	if (!strcmp(m, "oob-write")) {
		oob_write<<<1, 32>>>(a);
	} else if (!strcmp(m, "oob-read")) {
		cudaMemset(a, 0, 32 * sizeof(int));
		oob_read<<<1, 32>>>(a, b);
	} else if (!strcmp(m, "misaligned")) {
		misaligned<<<1, 32>>>(a);
	} else if (!strcmp(m, "uaf")) {
		cudaFree(a);
		use_after_free<<<1, 32>>>(a);
	} else if (!strcmp(m, "race")) {
		smem_race<<<1, 64>>>(b);
	} else if (!strcmp(m, "divergent")) {
		divergent_barrier<<<1, 32>>>(b);
	} else if (!strcmp(m, "shfl-mask")) {
		shfl_bad_mask<<<1, 32>>>(b);
	} else if (!strcmp(m, "uninit")) {
		read_uninit<<<1, 32>>>(a, b);
	} else if (!strcmp(m, "leak")) {
		clean<<<1, 32>>>(a);
	} else if (!strcmp(m, "heap-leak")) {
		heap_leak<<<1, 32>>>();
	} else {
		clean<<<1, 32>>>(a);
	}
	cudaError_t e = cudaDeviceSynchronize();
	printf("%s: %s\n", m, cudaGetErrorName(e));
	if (strcmp(m, "leak")) {
		if (strcmp(m, "uaf"))
			cudaFree(a);
		cudaFree(b);
	}
	return 0;
}
