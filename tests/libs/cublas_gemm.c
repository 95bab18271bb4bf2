// SPDX-License-Identifier: GPL-2.0
/*
 * cuBLAS on the GPU: cublasSgemm 64x64, cublasGemmEx (f32, f16 and bf16
 * inputs with f32 accumulation) and cublasSgemmStridedBatched, each
 * checked against a CPU reference with a tolerance that follows from the
 * input type.
 */
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>

#define M 64
#define BATCH 4

static int failures;

#define CHECK(call) do { int e_ = (int)(call); if (e_) { \
	printf("FAIL %s = %d (line %d)\n", #call, e_, __LINE__); \
	failures++; return; } } while (0)

static float a[BATCH][M * M], b[BATCH][M * M], c[BATCH][M * M];

/* The inputs are exact in both 16-bit formats (see main), so the
 * conversions need only handle normal numbers and zero, without rounding. */
static uint16_t to_bf16(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return (uint16_t)(u >> 16);
}

static uint16_t to_f16(float f)
{
	uint32_t u;
	int e;

	memcpy(&u, &f, 4);
	if (!(u & 0x7fffffff))
		return (uint16_t)(u >> 16);
	e = (int)((u >> 23) & 0xff) - 127 + 15;
	return (uint16_t)(((u >> 16) & 0x8000) | (e << 10) |
			  ((u >> 13) & 0x3ff));
}

static void ref(const float *x, const float *y, float *z)
{
	for (int i = 0; i < M; i++)
		for (int j = 0; j < M; j++) {
			double s = 0;

			for (int k = 0; k < M; k++)	/* column major */
				s += (double)x[k * M + i] * y[j * M + k];
			z[j * M + i] = (float)s;
		}
}

static void compare(const char *what, const float *got, const float *want,
		    float tol)
{
	double worst = 0;

	for (int i = 0; i < M * M; i++)
		worst = fmax(worst, fabs(got[i] - want[i]));
	printf("%s %s max-error=%g\n", worst <= tol ? "ok  " : "FAIL", what,
	       worst);
	if (!(worst <= tol))
		failures++;
}

static void run(cublasHandle_t h)
{
	float *da, *db, *dc, *out = malloc(sizeof(c));
	const float one = 1.0f, zero = 0.0f;

	CHECK(cudaMalloc((void **)&da, sizeof(a)));
	CHECK(cudaMalloc((void **)&db, sizeof(b)));
	CHECK(cudaMalloc((void **)&dc, sizeof(c)));
	CHECK(cudaMemcpy(da, a, sizeof(a), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(db, b, sizeof(b), cudaMemcpyHostToDevice));

	CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, M, M, M, &one, da, M,
			  db, M, &zero, dc, M));
	CHECK(cudaMemcpy(out, dc, 4 * M * M, cudaMemcpyDeviceToHost));
	compare("cublasSgemm", out, c[0], 1e-3f);

	CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, M, M, M, &one, da,
			   CUDA_R_32F, M, db, CUDA_R_32F, M, &zero, dc,
			   CUDA_R_32F, M, CUBLAS_COMPUTE_32F,
			   CUBLAS_GEMM_DEFAULT));
	CHECK(cudaMemcpy(out, dc, 4 * M * M, cudaMemcpyDeviceToHost));
	compare("cublasGemmEx f32", out, c[0], 1e-3f);

	/* f16 / bf16 inputs: the inputs are small integers/8, exact in both. */
	static uint16_t ha[M * M], hb[M * M], ba[M * M], bb[M * M];
	void *d16a, *d16b;

	for (int i = 0; i < M * M; i++) {
		ha[i] = to_f16(a[0][i]);
		hb[i] = to_f16(b[0][i]);
		ba[i] = to_bf16(a[0][i]);
		bb[i] = to_bf16(b[0][i]);
	}
	CHECK(cudaMalloc(&d16a, sizeof(ha)));
	CHECK(cudaMalloc(&d16b, sizeof(hb)));
	CHECK(cudaMemcpy(d16a, ha, sizeof(ha), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(d16b, hb, sizeof(hb), cudaMemcpyHostToDevice));
	CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, M, M, M, &one, d16a,
			   CUDA_R_16F, M, d16b, CUDA_R_16F, M, &zero, dc,
			   CUDA_R_32F, M, CUBLAS_COMPUTE_32F,
			   CUBLAS_GEMM_DEFAULT));
	CHECK(cudaMemcpy(out, dc, 4 * M * M, cudaMemcpyDeviceToHost));
	compare("cublasGemmEx f16", out, c[0], 1e-3f);
	CHECK(cudaMemcpy(d16a, ba, sizeof(ba), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(d16b, bb, sizeof(bb), cudaMemcpyHostToDevice));
	CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, M, M, M, &one, d16a,
			   CUDA_R_16BF, M, d16b, CUDA_R_16BF, M, &zero, dc,
			   CUDA_R_32F, M, CUBLAS_COMPUTE_32F,
			   CUBLAS_GEMM_DEFAULT));
	CHECK(cudaMemcpy(out, dc, 4 * M * M, cudaMemcpyDeviceToHost));
	compare("cublasGemmEx bf16", out, c[0], 1e-3f);

	CHECK(cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, M, M, M,
					&one, da, M, M * M, db, M, M * M,
					&zero, dc, M, M * M, BATCH));
	CHECK(cudaMemcpy(out, dc, sizeof(c), cudaMemcpyDeviceToHost));
	for (int k = 0; k < BATCH; k++) {
		char what[64];

		snprintf(what, sizeof(what), "cublasSgemmStridedBatched[%d]", k);
		compare(what, out + k * M * M, c[k], 1e-3f);
	}
	cudaFree(da);
	cudaFree(db);
	cudaFree(dc);
	cudaFree(d16a);
	cudaFree(d16b);
	free(out);
}

int main(void)
{
	cublasHandle_t h;
	cublasStatus_t st;

	/* Small integers / 8: exact in f16 and bf16, sums exact in f32. */
	for (int k = 0; k < BATCH; k++) {
		for (int i = 0; i < M * M; i++) {
			a[k][i] = (float)((i * 7 + k * 3) % 9 - 4) / 8;
			b[k][i] = (float)((i * 5 + k) % 7 - 3) / 8;
		}
		ref(a[k], b[k], c[k]);
	}
	st = cublasCreate(&h);
	printf("%s cublasCreate = %d\n", st ? "FAIL" : "ok  ", (int)st);
	if (st)
		return 1;
	run(h);
	cublasDestroy(h);
	printf("%s\n", failures ? "FAIL" : "PASS");
	return failures ? 1 : 0;
}
