// SPDX-License-Identifier: GPL-2.0
//
// wmmaGemm: C = A * B + C on the tensor cores through WMMA, the way the
// CUDA Programming Guide's "Warp Matrix Functions" section does it: each
// warp owns one 16 x 16 tile of C, walks k in steps of 16, loads the A
// and B tiles into fragments, multiplies-accumulates, and stores its tile.
// A and B are half precision, C single.  The inputs are small multiples
// of 1/4, so every product and every partial sum is exact in f32 and the
// result must equal the CPU's reference bit for bit.  The rate is printed
// as TFLOP/s (2 M N K operations per multiply).
#include <cuda_fp16.h>
#include <mma.h>

#include "../common/sample_check.h"

using namespace nvcuda;

// One warp per 16 x 16 tile of C; all matrices row major.
__global__ void wmma_gemm(const __half *a, const __half *b, float *c,
			  int m, int n, int k)
{
	int tile_row = blockIdx.y * 16, tile_col = blockIdx.x * 16;
	wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
	wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
	wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;

	if (tile_row >= m || tile_col >= n)
		return;
	wmma::load_matrix_sync(acc, c + tile_row * n + tile_col, n,
			       wmma::mem_row_major);
	for (int i = 0; i < k; i += 16) {
		wmma::load_matrix_sync(fa, a + tile_row * k + i, k);
		wmma::load_matrix_sync(fb, b + i * n + tile_col, n);
		wmma::mma_sync(acc, fa, fb, acc);
	}
	wmma::store_matrix_sync(c + tile_row * n + tile_col, acc, n,
				wmma::mem_row_major);
}

int main(int argc, char **argv)
{
	int m = 128, n = 128, k = 128;

	if (argc > 1)
		m = n = k = atoi(argv[1]) / 16 * 16;
	if (m <= 0) {
		fprintf(stderr, "usage: wmmaGemm [size, a multiple of 16]\n");
		return sample_result(false);
	}
	size_t sa = (size_t)m * k, sb = (size_t)k * n, sc = (size_t)m * n;
	__half *ha = (__half *)malloc(sa * sizeof(__half));
	__half *hb = (__half *)malloc(sb * sizeof(__half));
	float *hc = (float *)malloc(sc * sizeof(float));
	float *out = (float *)malloc(sc * sizeof(float));
	__half *da, *db;
	float *dc, ms;
	cudaEvent_t start, stop;
	bool ok = true;

	for (size_t i = 0; i < sa; i++)
		ha[i] = __float2half((float)((int)(i * 7 % 9) - 4) / 4);
	for (size_t i = 0; i < sb; i++)
		hb[i] = __float2half((float)((int)(i * 5 % 7) - 3) / 4);
	for (size_t i = 0; i < sc; i++)
		hc[i] = (float)((int)(i % 11) - 5);
	CHECK(cudaMalloc(&da, sa * sizeof(__half)));
	CHECK(cudaMalloc(&db, sb * sizeof(__half)));
	CHECK(cudaMalloc(&dc, sc * sizeof(float)));
	CHECK(cudaMemcpy(da, ha, sa * sizeof(__half), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(db, hb, sb * sizeof(__half), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(dc, hc, sc * sizeof(float), cudaMemcpyHostToDevice));

	dim3 grid(n / 16, m / 16);

	CHECK(cudaEventCreate(&start));
	CHECK(cudaEventCreate(&stop));
	CHECK(cudaEventRecord(start, 0));
	wmma_gemm<<<grid, 32>>>(da, db, dc, m, n, k);
	CHECK(cudaGetLastError());
	CHECK(cudaEventRecord(stop, 0));
	CHECK(cudaEventSynchronize(stop));
	CHECK(cudaEventElapsedTime(&ms, start, stop));
	CHECK(cudaMemcpy(out, dc, sc * sizeof(float), cudaMemcpyDeviceToHost));

	// The reference: exact, since every term is a multiple of 1/16.
	for (int i = 0; i < m && ok; i++)
		for (int j = 0; j < n; j++) {
			double s = hc[(size_t)i * n + j];

			for (int l = 0; l < k; l++)
				s += (double)__half2float(ha[(size_t)i * k + l]) *
				     __half2float(hb[(size_t)l * n + j]);
			if ((float)s != out[(size_t)i * n + j]) {
				printf("C[%d][%d] = %g, expected %g\n", i, j,
				       out[(size_t)i * n + j], s);
				ok = false;
				break;
			}
		}
	printf("wmmaGemm: %d x %d x %d (f16 in, f32 accumulate) in %.3f ms: "
	       "%.3e TFLOP/s\n", m, n, k, ms,
	       2.0 * m * n * k / (ms * 1e-3) / 1e12);
	CHECK(cudaEventDestroy(start));
	CHECK(cudaEventDestroy(stop));
	CHECK(cudaFree(da));
	CHECK(cudaFree(db));
	CHECK(cudaFree(dc));
	free(ha);
	free(hb);
	free(hc);
	free(out);
	return sample_result(ok);
}
