// SPDX-License-Identifier: GPL-2.0
//
// simpleTexture: rotate an image by reading it through a 2D texture
// object, as NVIDIA's simpleTexture does.  The image lives in a CUDA
// array; the texture has normalized coordinates, wrap addressing and
// bilinear filtering, so each output pixel is the texture unit's blend of
// the four texels around the rotated point.  The result is checked
// against the same rotation done on the CPU, with the texture unit's
// filtering written out (texel centres at i + 0.5, weights from the
// fraction; the hardware quantizes weights to 1/256, hence the tolerance).
#include <math.h>

#include "../common/sample_check.h"

#define W 128
#define H 96

__global__ void transform(float *out, cudaTextureObject_t tex, float theta)
{
	unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;

	if (x >= W || y >= H)
		return;
	float u = (float)x / W - 0.5f, v = (float)y / H - 0.5f;
	float tu = u * cosf(theta) - v * sinf(theta) + 0.5f;
	float tv = v * cosf(theta) + u * sinf(theta) + 0.5f;

	out[y * W + x] = tex2D<float>(tex, tu, tv);
}

static float image(int x, int y)
{
	return 0.5f + 0.5f * sinf(x * 0.11f) * cosf(y * 0.07f);
}

// Wrap-mode bilinear fetch of the image at normalized (u, v).
static float cpu_fetch(float u, float v)
{
	float x = u * W - 0.5f, y = v * H - 0.5f;
	int x0 = (int)floorf(x), y0 = (int)floorf(y);
	float a = x - x0, b = y - y0;
	int xs[2] = { ((x0 % W) + W) % W, (((x0 + 1) % W) + W) % W };
	int ys[2] = { ((y0 % H) + H) % H, (((y0 + 1) % H) + H) % H };

	return (1 - a) * (1 - b) * image(xs[0], ys[0]) +
	       a * (1 - b) * image(xs[1], ys[0]) +
	       (1 - a) * b * image(xs[0], ys[1]) + a * b * image(xs[1], ys[1]);
}

int main(void)
{
	const float theta = 0.5f;
	static float host[W * H], out[W * H];
	cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
	cudaArray_t arr;
	cudaTextureObject_t tex;
	cudaResourceDesc res = {};
	cudaTextureDesc td = {};
	float *dout, maxerr = 0;

	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			host[y * W + x] = image(x, y);
	CHECK(cudaMallocArray(&arr, &cd, W, H));
	CHECK(cudaMemcpy2DToArray(arr, 0, 0, host, W * sizeof(float),
				  W * sizeof(float), H, cudaMemcpyHostToDevice));
	res.resType = cudaResourceTypeArray;
	res.res.array.array = arr;
	td.addressMode[0] = td.addressMode[1] = cudaAddressModeWrap;
	td.filterMode = cudaFilterModeLinear;
	td.readMode = cudaReadModeElementType;
	td.normalizedCoords = 1;
	CHECK(cudaCreateTextureObject(&tex, &res, &td, NULL));
	CHECK(cudaMalloc(&dout, sizeof(out)));

	dim3 block(16, 16), grid((W + 15) / 16, (H + 15) / 16);
	transform<<<grid, block>>>(dout, tex, theta);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));

	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			float u = (float)x / W - 0.5f, v = (float)y / H - 0.5f;
			float tu = u * cosf(theta) - v * sinf(theta) + 0.5f;
			float tv = v * cosf(theta) + u * sinf(theta) + 0.5f;
			float e = fabsf(out[y * W + x] - cpu_fetch(tu, tv));

			maxerr = e > maxerr ? e : maxerr;
		}
	printf("simpleTexture: %dx%d image rotated by %.2f rad through a texture, max difference from the CPU %.2e\n",
	       W, H, theta, maxerr);
	CHECK(cudaDestroyTextureObject(tex));
	CHECK(cudaFreeArray(arr));
	CHECK(cudaFree(dout));
	return sample_result(maxerr < 4e-3f);
}
