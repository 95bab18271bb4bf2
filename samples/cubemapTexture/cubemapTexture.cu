// SPDX-License-Identifier: GPL-2.0
//
// cubemapTexture: a cubemap texture (cudaMalloc3DArray with
// cudaArrayCubemap: six square faces) read with texCubemap, as NVIDIA's
// simpleCubemapTexture.  For every texel of every face the kernel builds
// the direction through that texel's centre and reads the cubemap there,
// which must give back the texel itself: the CPU knows each texel's value.
// The face and the face coordinates of a direction follow the cube-map
// convention CUDA documents (the major axis picks the face; OpenGL's
// table of sc, tc and ma).
//
// Needs cubemap sampling in the texture unit (firmware_sim/core/
// tex_sampler.c): until then the fetch faults and the sample fails.
#include "../common/sample_check.h"

#define N 32

__global__ void readback(float *out, cudaTextureObject_t t)
{
	int x = threadIdx.x, y = threadIdx.y, face = blockIdx.x;
	float s = 2.0f * (x + 0.5f) / N - 1, tt = 2.0f * (y + 0.5f) / N - 1;
	float cx, cy, cz;

	switch (face) {
	case 0: cx = 1; cy = -tt; cz = -s; break;	/* +x */
	case 1: cx = -1; cy = -tt; cz = s; break;	/* -x */
	case 2: cx = s; cy = 1; cz = tt; break;		/* +y */
	case 3: cx = s; cy = -1; cz = -tt; break;	/* -y */
	case 4: cx = s; cy = -tt; cz = 1; break;	/* +z */
	default: cx = -s; cy = -tt; cz = -1; break;	/* -z */
	}
	out[(face * N + y) * N + x] = texCubemap<float>(t, cx, cy, cz);
}

int main(void)
{
	static float host[6 * N * N], out[6 * N * N];
	cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
	cudaArray_t arr;
	cudaMemcpy3DParms p = {};
	cudaResourceDesc r = {};
	cudaTextureDesc td = {};
	cudaTextureObject_t t;
	float *dout;
	int bad = 0;

	for (int i = 0; i < 6 * N * N; i++)
		host[i] = (float)i;
	CHECK(cudaMalloc3DArray(&arr, &cd, make_cudaExtent(N, N, 6),
				cudaArrayCubemap));
	p.srcPtr = make_cudaPitchedPtr(host, N * sizeof(float), N, N);
	p.dstArray = arr;
	p.extent = make_cudaExtent(N, N, 6);
	p.kind = cudaMemcpyHostToDevice;
	CHECK(cudaMemcpy3D(&p));
	r.resType = cudaResourceTypeArray;
	r.res.array.array = arr;
	td.filterMode = cudaFilterModePoint;
	td.readMode = cudaReadModeElementType;
	td.normalizedCoords = 1;
	CHECK(cudaCreateTextureObject(&t, &r, &td, NULL));
	CHECK(cudaMalloc(&dout, sizeof(out)));
	readback<<<6, dim3(N, N)>>>(dout, t);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
	for (int i = 0; i < 6 * N * N; i++)
		bad += out[i] != host[i];
	printf("cubemapTexture: 6 faces of %dx%d read back through texCubemap, %d differences\n",
	       N, N, bad);
	CHECK(cudaDestroyTextureObject(t));
	CHECK(cudaFreeArray(arr));
	CHECK(cudaFree(dout));
	return sample_result(bad == 0);
}
