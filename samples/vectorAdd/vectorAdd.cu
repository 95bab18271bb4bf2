// SPDX-License-Identifier: GPL-2.0
//
// vectorAdd: C = A + B on the GPU, checked element by element against the
// same sum computed on the CPU.  The smallest complete CUDA program:
// allocate, copy in, launch, check the launch, copy out, free.
#include <math.h>

#include "../common/sample_check.h"

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		c[i] = a[i] + b[i];
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 50000;
	size_t bytes = (size_t)n * sizeof(float);
	float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes);
	float *c = (float *)malloc(bytes);
	float *da, *db, *dc;
	bool ok = true;

	if (n <= 0 || !a || !b || !c) {
		fprintf(stderr, "vectorAdd: bad size or out of memory\n");
		return sample_result(false);
	}
	printf("[Vector addition of %d elements]\n", n);
	for (int i = 0; i < n; i++) {
		a[i] = (float)rand() / (float)RAND_MAX;
		b[i] = (float)rand() / (float)RAND_MAX;
	}
	CHECK(cudaMalloc(&da, bytes));
	CHECK(cudaMalloc(&db, bytes));
	CHECK(cudaMalloc(&dc, bytes));
	CHECK(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));

	int threads = 256, blocks = (n + threads - 1) / threads;
	printf("CUDA kernel launch with %d blocks of %d threads\n", blocks,
	       threads);
	vector_add<<<blocks, threads>>>(da, db, dc, n);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));

	for (int i = 0; i < n; i++) {
		if (fabsf(a[i] + b[i] - c[i]) > 1e-5f) {
			fprintf(stderr, "mismatch at %d: %f + %f != %f\n", i,
				a[i], b[i], c[i]);
			ok = false;
			break;
		}
	}
	CHECK(cudaFree(da));
	CHECK(cudaFree(db));
	CHECK(cudaFree(dc));
	free(a);
	free(b);
	free(c);
	return sample_result(ok);
}
