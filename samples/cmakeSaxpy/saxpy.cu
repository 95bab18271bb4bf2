// SPDX-License-Identifier: GPL-2.0
//
// cmakeSaxpy: y = a * x + y, built by CMake as a CUDA project (see
// CMakeLists.txt) and checked against the CPU.  Uses a stream and
// asynchronous copies, the usual shape of real programs.
#include <math.h>

#include "../common/sample_check.h"

__global__ void saxpy(int n, float a, const float *x, float *y)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x)
		y[i] = a * x[i] + y[i];
}

int main(void)
{
	const int n = 1 << 14;
	const float a = 2.5f;
	size_t bytes = n * sizeof(float);
	float *x, *y, *dx, *dy;
	cudaStream_t s;
	bool ok = true;

	CHECK(cudaMallocHost(&x, bytes));
	CHECK(cudaMallocHost(&y, bytes));
	for (int i = 0; i < n; i++) {
		x[i] = (float)i;
		y[i] = 1.0f;
	}
	CHECK(cudaStreamCreate(&s));
	CHECK(cudaMalloc(&dx, bytes));
	CHECK(cudaMalloc(&dy, bytes));
	CHECK(cudaMemcpyAsync(dx, x, bytes, cudaMemcpyHostToDevice, s));
	CHECK(cudaMemcpyAsync(dy, y, bytes, cudaMemcpyHostToDevice, s));
	saxpy<<<32, 128, 0, s>>>(n, a, dx, dy);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpyAsync(y, dy, bytes, cudaMemcpyDeviceToHost, s));
	CHECK(cudaStreamSynchronize(s));
	for (int i = 0; i < n; i++) {
		if (fabsf(y[i] - (a * (float)i + 1.0f)) > 1e-3f) {
			fprintf(stderr, "y[%d] = %f, expected %f\n", i, y[i],
				a * (float)i + 1.0f);
			ok = false;
			break;
		}
	}
	printf("saxpy of %d elements with a = %.1f\n", n, a);
	CHECK(cudaFree(dx));
	CHECK(cudaFree(dy));
	CHECK(cudaFreeHost(x));
	CHECK(cudaFreeHost(y));
	CHECK(cudaStreamDestroy(s));
	return sample_result(ok);
}
