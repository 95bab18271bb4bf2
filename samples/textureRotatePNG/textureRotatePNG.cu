// SPDX-License-Identifier: GPL-2.0
//
// textureRotatePNG: rotate a colour image by 30 degrees through a texture
// with bilinear filtering and write the result as a PNG a learner can
// open (default /tmp/textureRotate.png, or the path given).  The texture
// reads a uchar4 CUDA array as normalized floats (cudaReadModeNormalizedFloat:
// 0..255 become 0..1), with unnormalized pixel coordinates and border
// addressing (outside the image: the border colour, transparent black).
// The result is compared with the same rotation on the CPU; the texture
// unit's 8-bit filter weights allow a difference of a few 1/255 steps.
//
// The PNG writer is zlib's deflate and crc32 around the five chunks a
// PNG needs: signature, IHDR, IDAT (rows, each with filter byte 0), IEND.
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <zlib.h>

#include "../common/sample_check.h"

#define W 256
#define H 256

__global__ void rotate(uchar4 *out, cudaTextureObject_t t, float c, float s)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	float dx = x + 0.5f - W / 2, dy = y + 0.5f - H / 2;

	if (x >= W || y >= H)
		return;
	float4 p = tex2D<float4>(t, c * dx - s * dy + W / 2,
				 s * dx + c * dy + H / 2);

	out[y * W + x] = make_uchar4(p.x * 255 + 0.5f, p.y * 255 + 0.5f,
				     p.z * 255 + 0.5f, p.w * 255 + 0.5f);
}

static uchar4 source(int x, int y)
{
	int dx = x - 128, dy = y - 100;
	bool disc = dx * dx + dy * dy < 60 * 60;
	bool check = ((x / 32) ^ (y / 32)) & 1;

	return make_uchar4(disc ? 240 : x, check ? 200 : 40,
			   disc ? 30 : 255 - y, 255);
}

// Channel @k of the bilinear, border-black fetch at pixel coordinates.
static float cpu_fetch(float u, float v, int k)
{
	float x = u - 0.5f, y = v - 0.5f, acc = 0;
	int x0 = (int)floorf(x), y0 = (int)floorf(y);
	float a = x - x0, b = y - y0;

	for (int j = 0; j < 2; j++)
		for (int i = 0; i < 2; i++) {
			int xi = x0 + i, yj = y0 + j;
			float w = (i ? a : 1 - a) * (j ? b : 1 - b);
			uchar4 p;
			unsigned char ch;

			if (xi < 0 || yj < 0 || xi >= W || yj >= H)
				continue;
			p = source(xi, yj);
			ch = k == 0 ? p.x : k == 1 ? p.y : k == 2 ? p.z : p.w;
			acc += w * ch / 255.0f;
		}
	return acc;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24; p[1] = v >> 16; p[2] = v >> 8; p[3] = v;
}

static bool chunk(FILE *f, const char *type, const uint8_t *data, uint32_t n)
{
	uint8_t hdr[8], crc[4];
	uLong c = crc32(0, (const Bytef *)type, 4);

	put32(hdr, n);
	memcpy(hdr + 4, type, 4);
	if (n)
		c = crc32(c, data, n);
	put32(crc, (uint32_t)c);
	return fwrite(hdr, 8, 1, f) == 1 && (!n || fwrite(data, n, 1, f) == 1) &&
	       fwrite(crc, 4, 1, f) == 1;
}

static bool write_png(const char *path, const uchar4 *img)
{
	static const uint8_t sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	uint8_t ihdr[13] = { 0 };
	size_t raw_n = (size_t)H * (1 + W * 4);
	uLongf z_n = compressBound(raw_n);
	uint8_t *raw = (uint8_t *)malloc(raw_n), *z = (uint8_t *)malloc(z_n);
	FILE *f = fopen(path, "wb");
	bool ok = f && raw && z;

	for (int y = 0; ok && y < H; y++) {
		raw[y * (1 + W * 4)] = 0;	/* filter: none */
		memcpy(raw + y * (1 + W * 4) + 1, img + y * W, W * 4);
	}
	put32(ihdr, W);
	put32(ihdr + 4, H);
	ihdr[8] = 8;	/* bits per channel */
	ihdr[9] = 6;	/* RGBA */
	ok = ok && compress2(z, &z_n, raw, raw_n, 9) == Z_OK &&
	     fwrite(sig, 8, 1, f) == 1 && chunk(f, "IHDR", ihdr, 13) &&
	     chunk(f, "IDAT", z, (uint32_t)z_n) && chunk(f, "IEND", NULL, 0);
	if (f && fclose(f))
		ok = false;
	free(raw);
	free(z);
	return ok;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "/tmp/textureRotate.png";
	const float angle = 30.0f * 3.14159265f / 180.0f;
	float c = cosf(angle), s = sinf(angle), maxerr = 0;
	static uchar4 host[W * H], out[W * H];
	cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>();
	cudaArray_t arr;
	cudaResourceDesc r = {};
	cudaTextureDesc td = {};
	cudaTextureObject_t t;
	uchar4 *dout;

	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			host[y * W + x] = source(x, y);
	CHECK(cudaMallocArray(&arr, &cd, W, H));
	CHECK(cudaMemcpy2DToArray(arr, 0, 0, host, W * 4, W * 4, H,
				  cudaMemcpyHostToDevice));
	r.resType = cudaResourceTypeArray;
	r.res.array.array = arr;
	td.addressMode[0] = td.addressMode[1] = cudaAddressModeBorder;
	td.filterMode = cudaFilterModeLinear;
	td.readMode = cudaReadModeNormalizedFloat;
	CHECK(cudaCreateTextureObject(&t, &r, &td, NULL));
	CHECK(cudaMalloc(&dout, sizeof(out)));
	rotate<<<dim3(W / 16, H / 16), dim3(16, 16)>>>(dout, t, c, s);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));

	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			float dx = x + 0.5f - W / 2, dy = y + 0.5f - H / 2;
			float u = c * dx - s * dy + W / 2, v = s * dx + c * dy + H / 2;
			const unsigned char *p = &out[y * W + x].x;

			for (int k = 0; k < 4; k++) {
				float e = fabsf(p[k] - cpu_fetch(u, v, k) * 255);

				maxerr = e > maxerr ? e : maxerr;
			}
		}
	if (!write_png(path, out)) {
		fprintf(stderr, "textureRotatePNG: cannot write %s\n", path);
		return sample_result(false);
	}
	printf("textureRotatePNG: %dx%d RGBA image rotated by 30 degrees with bilinear filtering, written to %s; max difference from the CPU %.2f/255\n",
	       W, H, path, maxerr);
	CHECK(cudaDestroyTextureObject(t));
	CHECK(cudaFreeArray(arr));
	CHECK(cudaFree(dout));
	return sample_result(maxerr <= 3.0f);
}
