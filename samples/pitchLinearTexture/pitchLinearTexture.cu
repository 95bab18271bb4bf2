// SPDX-License-Identifier: GPL-2.0
//
// pitchLinearTexture: a texture on ordinary pitched device memory
// (cudaMallocPitch, cudaResourceTypePitch2D) next to the same data in a
// CUDA array, as NVIDIA's simplePitchLinearTexture compares them.  Both
// are read with normalized, wrapped coordinates shifted by a few texels
// (point sampling), so every output is one input texel; both outputs
// must equal the CPU's shifted copy.
#include "../common/sample_check.h"

#define W 256
#define H 64
#define SX 5
#define SY 3

__global__ void shifted(float *out, cudaTextureObject_t t)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	float u = (x + SX + 0.5f) / W, v = (y + SY + 0.5f) / H;

	if (x < W && y < H)
		out[y * W + x] = tex2D<float>(t, u, v);
}

static cudaTextureObject_t make_tex(const cudaResourceDesc *r)
{
	cudaTextureDesc td = {};
	cudaTextureObject_t t;

	td.addressMode[0] = td.addressMode[1] = cudaAddressModeWrap;
	td.filterMode = cudaFilterModePoint;
	td.readMode = cudaReadModeElementType;
	td.normalizedCoords = 1;
	CHECK(cudaCreateTextureObject(&t, r, &td, NULL));
	return t;
}

int main(void)
{
	static float host[W * H], o1[W * H], o2[W * H];
	cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
	cudaResourceDesc r = {};
	cudaTextureObject_t tp, ta;
	cudaArray_t arr;
	float *pitched, *dout;
	size_t pitch;
	int bad = 0;

	for (int i = 0; i < W * H; i++)
		host[i] = (float)i;
	CHECK(cudaMallocPitch(&pitched, &pitch, W * sizeof(float), H));
	CHECK(cudaMemcpy2D(pitched, pitch, host, W * sizeof(float),
			   W * sizeof(float), H, cudaMemcpyHostToDevice));
	CHECK(cudaMallocArray(&arr, &cd, W, H));
	CHECK(cudaMemcpy2DToArray(arr, 0, 0, host, W * sizeof(float),
				  W * sizeof(float), H, cudaMemcpyHostToDevice));
	r.resType = cudaResourceTypePitch2D;
	r.res.pitch2D.devPtr = pitched;
	r.res.pitch2D.desc = cd;
	r.res.pitch2D.width = W;
	r.res.pitch2D.height = H;
	r.res.pitch2D.pitchInBytes = pitch;
	tp = make_tex(&r);
	memset(&r, 0, sizeof(r));
	r.resType = cudaResourceTypeArray;
	r.res.array.array = arr;
	ta = make_tex(&r);
	CHECK(cudaMalloc(&dout, sizeof(o1)));

	dim3 block(16, 16), grid(W / 16, H / 16);
	shifted<<<grid, block>>>(dout, tp);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(o1, dout, sizeof(o1), cudaMemcpyDeviceToHost));
	shifted<<<grid, block>>>(dout, ta);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(o2, dout, sizeof(o2), cudaMemcpyDeviceToHost));
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			float want = host[((y + SY) % H) * W + (x + SX) % W];

			bad += o1[y * W + x] != want || o2[y * W + x] != want;
		}
	printf("pitchLinearTexture: %dx%d, pitch %zu bytes; pitch-linear and array textures shifted by (%d, %d): %d differences\n",
	       W, H, pitch, SX, SY, bad);
	CHECK(cudaDestroyTextureObject(tp));
	CHECK(cudaDestroyTextureObject(ta));
	CHECK(cudaFree(pitched));
	CHECK(cudaFreeArray(arr));
	CHECK(cudaFree(dout));
	return sample_result(bad == 0);
}
