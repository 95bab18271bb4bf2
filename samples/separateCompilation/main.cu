// SPDX-License-Identifier: GPL-2.0
//
// separateCompilation: a kernel in this file calls transform(), a device
// function compiled separately in transform.cu (nvcc -rdc=true, then a
// device link).  The runtime receives one registration covering both
// objects and the driver links their PTX.  The result is checked against
// the same arithmetic on the CPU, including the device variable's
// initial value and a value written to it with cudaMemcpyToSymbol.
#include <math.h>

#include "../common/sample_check.h"
#include "transform.cuh"

__global__ void apply(float *v, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		v[i] = transform(v[i]);
}

static bool run(float *dv, float *h, int n, float offset)
{
	for (int i = 0; i < n; i++)
		h[i] = (float)i * 0.5f;
	CHECK(cudaMemcpy(dv, h, n * sizeof(float), cudaMemcpyHostToDevice));
	apply<<<(n + 127) / 128, 128>>>(dv, n);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(h, dv, n * sizeof(float), cudaMemcpyDeviceToHost));
	for (int i = 0; i < n; i++) {
		float want = 2.0f * ((float)i * 0.5f) + offset;

		if (fabsf(h[i] - want) > 1e-5f) {
			fprintf(stderr, "element %d: %f, expected %f\n", i,
				h[i], want);
			return false;
		}
	}
	printf("offset %.2f: %d elements correct\n", offset, n);
	return true;
}

int main(void)
{
	const int n = 1000;
	float h[1000], *dv;
	float offset = 3.25f;
	bool ok;

	CHECK(cudaMalloc(&dv, sizeof(h)));
	// First with the initializer from transform.cu, then a new value.
	ok = run(dv, h, n, 1.5f);
	CHECK(cudaMemcpyToSymbol(transform_offset, &offset, sizeof(offset)));
	ok = ok && run(dv, h, n, offset);
	CHECK(cudaFree(dv));
	return sample_result(ok);
}
