// SPDX-License-Identifier: GPL-2.0
//
// layeredTexture: a layered 2D texture (cudaMalloc3DArray with
// cudaArrayLayered: several 2D images of one size, filtered within a
// layer, never across layers), as NVIDIA's simpleLayeredTexture.  Each
// block reads one layer with tex2DLayered and writes -texel + layer; the
// CPU computes the same from its copy of the layers.
#include "../common/sample_check.h"

#define W 64
#define H 32
#define LAYERS 5

__global__ void transform(float *out, cudaTextureObject_t t)
{
	int x = threadIdx.x + blockIdx.x * blockDim.x;
	int y = threadIdx.y + blockIdx.y * blockDim.y;
	int l = blockIdx.z;

	out[(l * H + y) * W + x] =
		-tex2DLayered<float>(t, (x + 0.5f) / W, (y + 0.5f) / H, l) + l;
}

int main(void)
{
	static float host[W * H * LAYERS], out[W * H * LAYERS];
	cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
	cudaArray_t arr;
	cudaMemcpy3DParms p = {};
	cudaResourceDesc r = {};
	cudaTextureDesc td = {};
	cudaTextureObject_t t;
	float *dout;
	int bad = 0;

	for (int i = 0; i < W * H * LAYERS; i++)
		host[i] = (float)(i % (W * H)) * 0.25f + (float)(i / (W * H));
	CHECK(cudaMalloc3DArray(&arr, &cd, make_cudaExtent(W, H, LAYERS),
				cudaArrayLayered));
	p.srcPtr = make_cudaPitchedPtr(host, W * sizeof(float), W, H);
	p.dstArray = arr;
	p.extent = make_cudaExtent(W, H, LAYERS);
	p.kind = cudaMemcpyHostToDevice;
	CHECK(cudaMemcpy3D(&p));
	r.resType = cudaResourceTypeArray;
	r.res.array.array = arr;
	td.addressMode[0] = td.addressMode[1] = cudaAddressModeWrap;
	td.filterMode = cudaFilterModeLinear;	/* at texel centres: exact */
	td.readMode = cudaReadModeElementType;
	td.normalizedCoords = 1;
	CHECK(cudaCreateTextureObject(&t, &r, &td, NULL));
	CHECK(cudaMalloc(&dout, sizeof(out)));

	transform<<<dim3(W / 8, H / 8, LAYERS), dim3(8, 8)>>>(dout, t);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
	for (int i = 0; i < W * H * LAYERS; i++)
		bad += out[i] != -host[i] + (float)(i / (W * H));
	printf("layeredTexture: %d layers of %dx%d through tex2DLayered, %d differences from the CPU\n",
	       LAYERS, W, H, bad);
	CHECK(cudaDestroyTextureObject(t));
	CHECK(cudaFreeArray(arr));
	CHECK(cudaFree(dout));
	return sample_result(bad == 0);
}
