// SPDX-License-Identifier: GPL-2.0
/*
 * cuSPARSE's generic API on the GPU: SpMV (y = A x) and SpMM (C = A B)
 * with a 256x256 CSR matrix of 5 diagonals, checked against a CPU
 * reference.  Values are small integers / 4, so every sum is exact.
 */
#include <cuda_runtime_api.h>
#include <cusparse.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define N 256
#define NCOL 8		/* columns of B in SpMM */

static int failures;

#define CHECK(call) do { int e_ = (int)(call); if (e_) { \
	printf("FAIL %s = %d (line %d)\n", #call, e_, __LINE__); \
	failures++; return; } } while (0)

static int rowptr[N + 1], col[5 * N];
static float val[5 * N], x[N * NCOL], yref[N * NCOL], y[N * NCOL];

static void compare(const char *what, int n)
{
	int bad = 0;

	for (int i = 0; i < n; i++)
		bad += y[i] != yref[i];
	printf("%s %s (%d of %d differ)\n", bad ? "FAIL" : "ok  ", what, bad,
	       n);
	failures += bad != 0;
}

static void run(void)
{
	cusparseHandle_t h;
	cusparseSpMatDescr_t A;
	cusparseDnVecDescr_t vx, vy;
	cusparseDnMatDescr_t mb, mc;
	int *drow, *dcol, nnz = rowptr[N];
	float *dval, *dx, *dy, one = 1.0f, zero = 0.0f;
	size_t sz = 0;
	void *buf = NULL;

	CHECK(cusparseCreate(&h));
	CHECK(cudaMalloc((void **)&drow, sizeof(rowptr)));
	CHECK(cudaMalloc((void **)&dcol, sizeof(col)));
	CHECK(cudaMalloc((void **)&dval, sizeof(val)));
	CHECK(cudaMalloc((void **)&dx, sizeof(x)));
	CHECK(cudaMalloc((void **)&dy, sizeof(y)));
	CHECK(cudaMemcpy(drow, rowptr, sizeof(rowptr), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(dcol, col, sizeof(col), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(dval, val, sizeof(val), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(dx, x, sizeof(x), cudaMemcpyHostToDevice));
	CHECK(cusparseCreateCsr(&A, N, N, nnz, drow, dcol, dval,
				CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
				CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));

	CHECK(cusparseCreateDnVec(&vx, N, dx, CUDA_R_32F));
	CHECK(cusparseCreateDnVec(&vy, N, dy, CUDA_R_32F));
	CHECK(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE,
				      &one, A, vx, &zero, vy, CUDA_R_32F,
				      CUSPARSE_SPMV_ALG_DEFAULT, &sz));
	CHECK(cudaMalloc(&buf, sz ? sz : 1));
	CHECK(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, vx,
			   &zero, vy, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT,
			   buf));
	CHECK(cudaMemcpy(y, dy, 4 * N, cudaMemcpyDeviceToHost));
	compare("cusparseSpMV", N);
	cudaFree(buf);

	for (int i = 0; i < N; i++)
		for (int j = 0; j < NCOL; j++) {
			float s = 0;

			for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
				s += val[k] * x[j * N + col[k]];
			yref[j * N + i] = s;
		}
	CHECK(cusparseCreateDnMat(&mb, N, NCOL, N, dx, CUDA_R_32F,
				  CUSPARSE_ORDER_COL));
	CHECK(cusparseCreateDnMat(&mc, N, NCOL, N, dy, CUDA_R_32F,
				  CUSPARSE_ORDER_COL));
	CHECK(cusparseSpMM_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE,
				      CUSPARSE_OPERATION_NON_TRANSPOSE, &one,
				      A, mb, &zero, mc, CUDA_R_32F,
				      CUSPARSE_SPMM_ALG_DEFAULT, &sz));
	CHECK(cudaMalloc(&buf, sz ? sz : 1));
	CHECK(cusparseSpMM(h, CUSPARSE_OPERATION_NON_TRANSPOSE,
			   CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, mb,
			   &zero, mc, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT,
			   buf));
	CHECK(cudaMemcpy(y, dy, sizeof(y), cudaMemcpyDeviceToHost));
	compare("cusparseSpMM", N * NCOL);
	cudaFree(buf);
	cusparseDestroySpMat(A);
	cusparseDestroyDnVec(vx);
	cusparseDestroyDnVec(vy);
	cusparseDestroyDnMat(mb);
	cusparseDestroyDnMat(mc);
	cusparseDestroy(h);
}

int main(void)
{
	int k = 0;

	for (int i = 0; i < N; i++) {
		rowptr[i] = k;
		for (int d = -2; d <= 2; d++)
			if (i + d >= 0 && i + d < N) {
				col[k] = i + d;
				val[k++] = (float)((i * 3 + d * 5) % 7 - 3) / 4;
			}
	}
	rowptr[N] = k;
	for (int i = 0; i < N * NCOL; i++)
		x[i] = (float)(i % 5 - 2) / 4;
	for (int i = 0; i < N; i++) {
		float s = 0;

		for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
			s += val[j] * x[col[j]];
		yref[i] = s;
	}
	run();
	printf("%s\n", failures ? "FAIL" : "PASS");
	return failures ? 1 : 0;
}
