// SPDX-License-Identifier: GPL-2.0
//
// surfaceWrite: kernels write a CUDA array through a surface object
// (surf2Dwrite: the x coordinate is in bytes), then read it back through
// the same surface and update it in place (surf2Dread), as a surface is
// a texture that kernels may also store to.  The array is copied back
// with cudaMemcpy2DFromArray and compared with the CPU's picture.
#include "../common/sample_check.h"

#define W 200
#define H 120

__global__ void draw(cudaSurfaceObject_t s)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;

	if (x < W && y < H)
		surf2Dwrite(make_uchar4(x, y, (x ^ y) & 0xff, 255), s,
			    x * (int)sizeof(uchar4), y);
}

__global__ void invert_disc(cudaSurfaceObject_t s)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	int dx = x - W / 2, dy = y - H / 2;

	if (x >= W || y >= H || dx * dx + dy * dy > 50 * 50)
		return;
	uchar4 p = surf2Dread<uchar4>(s, x * (int)sizeof(uchar4), y);

	p.x = 255 - p.x;
	p.y = 255 - p.y;
	p.z = 255 - p.z;
	surf2Dwrite(p, s, x * (int)sizeof(uchar4), y);
}

int main(void)
{
	static uchar4 out[W * H];
	cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>();
	cudaArray_t arr;
	cudaResourceDesc res = {};
	cudaSurfaceObject_t s;
	int bad = 0;

	CHECK(cudaMallocArray(&arr, &cd, W, H, cudaArraySurfaceLoadStore));
	res.resType = cudaResourceTypeArray;
	res.res.array.array = arr;
	CHECK(cudaCreateSurfaceObject(&s, &res));
	dim3 block(16, 16), grid((W + 15) / 16, (H + 15) / 16);
	draw<<<grid, block>>>(s);
	invert_disc<<<grid, block>>>(s);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy2DFromArray(out, W * sizeof(uchar4), arr, 0, 0,
				    W * sizeof(uchar4), H, cudaMemcpyDeviceToHost));
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			int dx = x - W / 2, dy = y - H / 2;
			bool in = dx * dx + dy * dy <= 50 * 50;
			uchar4 p = out[y * W + x];
			int r = x & 0xff, g = y, b = (x ^ y) & 0xff;

			if (in) {
				r = 255 - r;
				g = 255 - g;
				b = 255 - b;
			}
			bad += p.x != r || p.y != g || p.z != b || p.w != 255;
		}
	printf("surfaceWrite: %dx%d uchar4 surface drawn and partly inverted, %d pixels differ from the CPU\n",
	       W, H, bad);
	CHECK(cudaDestroySurfaceObject(s));
	CHECK(cudaFreeArray(arr));
	return sample_result(bad == 0);
}
