// SPDX-License-Identifier: GPL-2.0
//
// A program whose kernel calls device-side cudaMalloc, which vGPU's
// device runtime does not provide yet (test_cudart_devrt.cu runs it).
// Its exit status is the launch's error code.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void allocate(void **out)
{
	cudaMalloc(out, 64);
}

int main(void)
{
	void **d = NULL;
	cudaError_t err = cudaMalloc(&d, sizeof(*d));

	if (err == cudaSuccess) {
		allocate<<<1, 1>>>(d);
		err = cudaGetLastError();
	}
	printf("launch: %s\n", cudaGetErrorName(err));
	return (int)err;
}
