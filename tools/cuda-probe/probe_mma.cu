// SPDX-License-Identifier: GPL-2.0
/*
 * probe_mma.cu - what the tensor cores of a real GPU do, for the
 * tests of vGPU's warp-collective matrix instructions.
 *
 * Three parts, one line per result, so that a run on vGPU can be compared
 * with the recording (golden/probe_mma.h100.txt) line by line:
 *
 *  L  fragment layouts: every WMMA fragment (shape, matrix, layout, type)
 *     is loaded from a matrix whose elements hold their row, then from one
 *     whose elements hold their column; each lane prints, for each of its
 *     fragment elements, the (row,col) it received.  Sub-byte fragments
 *     (u4, s4, b1) pack several elements per 32-bit word: there the matrix
 *     holds its 32-bit word numbers and each lane prints the word it got.
 *  S  stores: each lane writes (lane, element) into its accumulator
 *     fragment and stores it; the line says whether every element landed
 *     where the load layout says it came from.
 *  D  arithmetic: D = A * B + C of inputs drawn by a fixed generator
 *     (awkward ones: subnormals, cancellation, huge and tiny terms, f16
 *     overflow, f32 values that are not tf32), for WMMA and mma.sync of
 *     every type; the bits of D in hex.
 *  X  ldmatrix, stmatrix and movmatrix: which element each lane gets.
 *
 * Build: nvcc -cudart shared -gencode arch=compute_90,code=compute_90 \
 *        -o probe_mma probe_mma.cu
 */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <math.h>
#include <mma.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <type_traits>

using namespace nvcuda;
namespace wx = nvcuda::wmma::experimental;

#define CK(x)								\
	do {								\
		cudaError_t e_ = (x);					\
		if (e_ != cudaSuccess) {				\
			printf("error %s at line %d: %s\n", #x, __LINE__, \
			       cudaGetErrorName(e_));			\
			exit(1);					\
		}							\
	} while (0)

/* ---------------------------------------------------------------- */
/* L and S: layouts                                                  */
/* ---------------------------------------------------------------- */

/* A fragment element as a double (its value), or its raw 32 bits. */
__device__ double elem_value(__half v) { return __half2float(v); }
__device__ double elem_value(__nv_bfloat16 v) { return __bfloat162float(v); }
__device__ double elem_value(float v) { return v; }
__device__ double elem_value(double v) { return v; }
__device__ double elem_value(signed char v) { return v; }
__device__ double elem_value(unsigned char v) { return v; }
__device__ double elem_value(int v) { return v; }
__device__ double elem_value(unsigned v) { return v; }

template <typename Frag, typename S>
__global__ void k_load(const S *mem, unsigned ld, double *out)
{
	Frag f;
	int lane = threadIdx.x;

	wmma::load_matrix_sync(f, mem, ld);
	for (int i = 0; i < Frag::num_storage_elements; i++)
		out[lane * Frag::num_storage_elements + i] = elem_value(f.x[i]);
}

template <typename Frag, typename S>
__global__ void k_load_acc(const S *mem, unsigned ld, double *out,
			   wmma::layout_t layout)
{
	Frag f;
	int lane = threadIdx.x;

	wmma::load_matrix_sync(f, mem, ld, layout);
	for (int i = 0; i < Frag::num_storage_elements; i++)
		out[lane * Frag::num_storage_elements + i] = elem_value(f.x[i]);
}

template <typename Frag, typename S>
__global__ void k_store_acc(S *mem, unsigned ld, wmma::layout_t layout)
{
	Frag f;
	int lane = threadIdx.x;

	for (int i = 0; i < Frag::num_storage_elements; i++)
		f.x[i] = (S)(lane * Frag::num_storage_elements + i);
	wmma::store_matrix_sync(mem, f, ld, layout);
}

template <typename S> static S from_double(double v) { return (S)v; }
template <> __half from_double<__half>(double v) { return __float2half((float)v); }
template <> __nv_bfloat16 from_double<__nv_bfloat16>(double v)
{
	return __float2bfloat16((float)v);
}
template <typename S> static double to_double(S v) { return (double)v; }
template <> double to_double<__half>(__half v) { return __half2float(v); }

/*
 * Load a rows x cols matrix (col_major: stored by columns) twice, once
 * holding row numbers and once column numbers, and print each lane's
 * elements as row,col.  acc: an accumulator (layout given at run time).
 */
template <typename Frag, typename S, bool Acc>
static void layout_one(const char *name, int rows, int cols, bool col_major)
{
	const int n = Frag::num_storage_elements;
	size_t cnt = (size_t)rows * cols;
	S *h = (S *)malloc(cnt * sizeof(S)), *d;
	double *out, *res[2];
	unsigned ld = col_major ? rows : cols;

	CK(cudaMalloc(&d, cnt * sizeof(S)));
	CK(cudaMalloc(&out, 32 * n * sizeof(double)));
	for (int pass = 0; pass < 2; pass++) {
		for (int r = 0; r < rows; r++)
			for (int c = 0; c < cols; c++)
				h[col_major ? c * rows + r : r * cols + c] =
					from_double<S>(pass ? c : r);
		CK(cudaMemcpy(d, h, cnt * sizeof(S), cudaMemcpyHostToDevice));
		if constexpr (Acc)
			k_load_acc<Frag, S><<<1, 32>>>(d, ld, out,
				col_major ? wmma::mem_col_major :
					    wmma::mem_row_major);
		else
			k_load<Frag, S><<<1, 32>>>(d, ld, out);
		CK(cudaGetLastError());
		res[pass] = (double *)malloc(32 * n * sizeof(double));
		CK(cudaMemcpy(res[pass], out, 32 * n * sizeof(double),
			      cudaMemcpyDeviceToHost));
	}
	for (int lane = 0; lane < 32; lane++) {
		printf("L %s %s lane %d:", name, col_major ? "col" : "row",
		       lane);
		for (int i = 0; i < n; i++)
			printf(" %g,%g", res[0][lane * n + i],
			       res[1][lane * n + i]);
		printf("\n");
	}
	if constexpr (Acc) {
		/* Store (lane, element) numbers and look where they went. */
		bool same = true;

		CK(cudaMemset(d, 0, cnt * sizeof(S)));
		k_store_acc<Frag, S><<<1, 32>>>(d, ld,
			col_major ? wmma::mem_col_major : wmma::mem_row_major);
		CK(cudaGetLastError());
		CK(cudaMemcpy(h, d, cnt * sizeof(S), cudaMemcpyDeviceToHost));
		for (int lane = 0; lane < 32; lane++)
			for (int i = 0; i < n; i++) {
				int r = (int)res[0][lane * n + i];
				int c = (int)res[1][lane * n + i];
				S v = h[col_major ? c * rows + r : r * cols + c];

				if (to_double<S>(v) != lane * n + i)
					same = false;
			}
		printf("S %s %s: %s\n", name, col_major ? "col" : "row",
		       same ? "as loaded" : "DIFFERENT");
	}
	free(res[0]);
	free(res[1]);
	free(h);
	CK(cudaFree(d));
	CK(cudaFree(out));
}

/* Sub-byte fragments: the matrix holds its word numbers. */
template <typename Frag>
static void layout_words(const char *name, int words, unsigned ld)
{
	const int n = Frag::num_storage_elements;
	unsigned *h = (unsigned *)malloc(words * 4), *d;
	double *out, res[32 * 8];

	for (int i = 0; i < words; i++)
		h[i] = i;
	CK(cudaMalloc(&d, words * 4));
	CK(cudaMalloc(&out, 32 * n * sizeof(double)));
	CK(cudaMemcpy(d, h, words * 4, cudaMemcpyHostToDevice));
	/* ld in elements: the row (col) length of the 8 x K matrix */
	k_load<Frag, unsigned><<<1, 32>>>(d, ld, out);
	CK(cudaGetLastError());
	CK(cudaMemcpy(res, out, 32 * n * sizeof(double),
		      cudaMemcpyDeviceToHost));
	for (int lane = 0; lane < 32; lane++) {
		printf("L %s lane %d:", name, lane);
		for (int i = 0; i < n; i++)
			printf(" w%g", res[lane * n + i]);
		printf("\n");
	}
	free(h);
	CK(cudaFree(d));
	CK(cudaFree(out));
}

#define AB(M, N, K, T, S, tname)					\
	do {								\
		layout_one<wmma::fragment<wmma::matrix_a, M, N, K, T,	\
			wmma::row_major>, S, false>(			\
			"m" #M "n" #N "k" #K " a " tname, M, K, false);	\
		layout_one<wmma::fragment<wmma::matrix_a, M, N, K, T,	\
			wmma::col_major>, S, false>(			\
			"m" #M "n" #N "k" #K " a " tname, M, K, true);	\
		layout_one<wmma::fragment<wmma::matrix_b, M, N, K, T,	\
			wmma::row_major>, S, false>(			\
			"m" #M "n" #N "k" #K " b " tname, K, N, false);	\
		layout_one<wmma::fragment<wmma::matrix_b, M, N, K, T,	\
			wmma::col_major>, S, false>(			\
			"m" #M "n" #N "k" #K " b " tname, K, N, true);	\
	} while (0)

#define ACC(M, N, K, S, tname)						\
	do {								\
		layout_one<wmma::fragment<wmma::accumulator, M, N, K, S>,\
			S, true>("m" #M "n" #N "k" #K " c " tname, M, N,	\
				 false);				\
		layout_one<wmma::fragment<wmma::accumulator, M, N, K, S>,\
			S, true>("m" #M "n" #N "k" #K " c " tname, M, N,	\
				 true);					\
	} while (0)

static void layouts(void)
{
	AB(16, 16, 16, __half, __half, "f16");
	AB(32, 8, 16, __half, __half, "f16");
	AB(8, 32, 16, __half, __half, "f16");
	AB(16, 16, 16, __nv_bfloat16, __nv_bfloat16, "bf16");
	AB(32, 8, 16, __nv_bfloat16, __nv_bfloat16, "bf16");
	AB(8, 32, 16, __nv_bfloat16, __nv_bfloat16, "bf16");
	AB(16, 16, 16, signed char, signed char, "s8");
	AB(32, 8, 16, signed char, signed char, "s8");
	AB(8, 32, 16, signed char, signed char, "s8");
	AB(16, 16, 16, unsigned char, unsigned char, "u8");
	AB(16, 16, 8, wmma::precision::tf32, float, "tf32");
	AB(8, 8, 4, double, double, "f64");
	ACC(16, 16, 16, __half, "f16");
	ACC(32, 8, 16, __half, "f16");
	ACC(8, 32, 16, __half, "f16");
	ACC(16, 16, 16, float, "f32");
	ACC(32, 8, 16, float, "f32");
	ACC(8, 32, 16, float, "f32");
	ACC(16, 16, 8, float, "f32");
	ACC(16, 16, 16, int, "s32");
	ACC(32, 8, 16, int, "s32");
	ACC(8, 32, 16, int, "s32");
	ACC(8, 8, 32, int, "s32");
	ACC(8, 8, 128, int, "s32");
	ACC(8, 8, 4, double, "f64");
	/* 8 x 32 u4 = 8 rows of 4 words; 8 x 128 b1 = 8 rows of 4 words */
	layout_words<wmma::fragment<wmma::matrix_a, 8, 8, 32, wx::precision::u4,
		wmma::row_major>>("m8n8k32 a u4 row", 32, 32);
	layout_words<wmma::fragment<wmma::matrix_b, 8, 8, 32, wx::precision::u4,
		wmma::col_major>>("m8n8k32 b u4 col", 32, 32);
	layout_words<wmma::fragment<wmma::matrix_a, 8, 8, 32, wx::precision::s4,
		wmma::row_major>>("m8n8k32 a s4 row", 32, 32);
	layout_words<wmma::fragment<wmma::matrix_a, 8, 8, 128, wx::precision::b1,
		wmma::row_major>>("m8n8k128 a b1 row", 32, 128);
	layout_words<wmma::fragment<wmma::matrix_b, 8, 8, 128, wx::precision::b1,
		wmma::col_major>>("m8n8k128 b b1 col", 32, 128);
}

/* ---------------------------------------------------------------- */
/* D: arithmetic                                                     */
/* ---------------------------------------------------------------- */

static uint64_t rng_state;

static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 16);
}

/* A random float with its exponent in [lo, hi] (powers of two). */
static double rnd_exp(int lo, int hi)
{
	double m = 1.0 + (rnd() & 0xffffff) / 16777216.0;
	int e = lo + (int)(rnd() % (uint32_t)(hi - lo + 1));

	return ((rnd() & 1) ? -m : m) * ldexp(1.0, e);
}

/*
 * Input modes.  Values are drawn as doubles and converted to the input
 * type (round to nearest) on the host; for tf32 the full f32 goes in.
 *  0  uniform in (-1, 1)
 *  1  wide exponents: f16 subnormals to large, zeros
 *  2  cancellation: A's row k+1 is -A's row k with B's equal rows,
 *     so big products cancel and the small ones and C remain
 *  3  C large, products tiny: what survives the alignment
 *  4  one big product among many small ones, C small
 *  5  overflow: products beyond the f16 (bf16: f32) range
 *  6  C subnormal (f32) and products near the f32 subnormal range
 *  7  one product per element against C = +-1.x: the product of row m
 *     and column n is about 2^-(m+n), so the bits of it that survive
 *     next to C show the adder's width and rounding
 *  8  two products, no C: about 1 and 2^-(m+n+8)
 *  9  as 8, the second product at k = K-1 (another block of k?)
 * 10  NaN and infinities in A and B (inf * 0, inf - inf)
 */
static double draw(int mode, char which, int type_exp_max)
{
	switch (mode) {
	case 0:
		return ((int)(rnd() % 20001) - 10000) / 10000.0;
	case 1:
		if (rnd() % 8 == 0)
			return 0.0;
		return rnd_exp(-24, type_exp_max < 15 ? type_exp_max : 15);
	case 3:
		return which == 'c' ? rnd_exp(10, 20) : rnd_exp(-12, -6);
	case 4:
		return which == 'c' ? rnd_exp(-8, -4) : rnd_exp(-10, 0);
	case 5:
		return which == 'c' ? rnd_exp(0, 4) :
		       rnd_exp(type_exp_max - 4, type_exp_max);
	case 6:
		return which == 'c' ? rnd_exp(-140, -127) : rnd_exp(-63, -60);
	default:
		return rnd_exp(-4, 4);
	}
}

/*
 * Modes 11-15 (probe part F, fp8 only) isolate the adder: one big
 * product 2^(2h) at k = 0 and small ones whose distance below it grows
 * with m and n (8 to about 40 bits), with random signs.
 * 11  the small ones in the big one's block of 16 (k = 3, 7, 12), C = 0
 * 12  the small ones in the other block (k = 17, 23, 30; k mod K), C = 0
 * 13  as 11, with C = +-2^(2h-3)
 * 14  as 11, and at k = 1 a product that nearly cancels the big one, so
 *     the sum's exponent lies 3 to 5 below the largest product's
 * 15  the big product at k = 0 cancelled exactly at k = K/2 (the other
 *     block), small ones in both blocks and C = +-2^(2h-10)
 */
static void gen_adder(int mode, int M, int N, int K, double *A, double *B,
		      double *C, int type_exp_max)
{
	int h = type_exp_max / 2, lo = type_exp_max == 15 ? -14 : -6;
	static const int same[3] = {3, 7, 12}, other[3] = {17, 23, 30};

	for (int i = 0; i < M * K; i++)
		A[i] = 0;
	for (int i = 0; i < K * N; i++)
		B[i] = 0;
	for (int m = 0; m < M; m++) {
		int ea = h - 2 - m * (h - 2 - lo) / (M - 1);

		A[m * K] = rnd_exp(h, h);
		for (int j = 0; j < 3; j++) {
			int k = (mode == 12 ? other[j] : same[j]) % K;

			A[m * K + k] = rnd_exp(ea, ea);
			if (mode == 15)
				A[m * K + other[j] % K] = rnd_exp(ea, ea);
		}
		if (mode == 14)
			A[m * K + 1] = -A[m * K];
		if (mode == 15)
			A[m * K + K / 2] = -A[m * K];
	}
	for (int n = 0; n < N; n++) {
		int eb = h - 2 - n * (h - 2 - lo) / (N - 1);

		B[n] = rnd_exp(h, h);
		for (int k = 1; k < K; k++)
			B[k * N + n] = rnd_exp(eb, eb);
		/* 14: one to three mantissa steps (of 8) less than B[0] */
		if (mode == 14)
			B[N + n] = B[n] * (1.0 - (1 + rnd() % 3) / 8.0);
		if (mode == 15)
			B[K / 2 * N + n] = B[n];
	}
	for (int i = 0; i < M * N; i++)
		C[i] = mode == 13 ? rnd_exp(2 * h - 3, 2 * h - 3) :
		       mode == 15 ? rnd_exp(2 * h - 10, 2 * h - 10) : 0.0;
}

/* Fill A (M x K, row major), B (K x N, row major), C (M x N). */
static void gen(int mode, int M, int N, int K, double *A, double *B,
		double *C, int type_exp_max)
{
	for (int i = 0; i < M * K; i++)
		A[i] = draw(mode, 'a', type_exp_max);
	for (int i = 0; i < K * N; i++)
		B[i] = draw(mode, 'b', type_exp_max);
	for (int i = 0; i < M * N; i++)
		C[i] = draw(mode, 'c', type_exp_max);
	if (mode == 2) {
		/* pairs of k: A[.][k+1] = -A[.][k], B[k+1][.] = B[k][.] */
		for (int k = 0; k + 1 < K; k += 2) {
			for (int m = 0; m < M; m++)
				A[m * K + k + 1] = -A[m * K + k] *
					((rnd() % 4) ? 1.0 : 1.0009765625);
			for (int n = 0; n < N; n++)
				B[(k + 1) * N + n] = B[k * N + n];
		}
		for (int i = 0; i < M * N; i++)
			C[i] = rnd_exp(-20, -10);
	}
	if (mode == 4)
		for (int m = 0; m < M; m++)
			A[m * K + rnd() % K] = rnd_exp(6, 10);
	if (mode >= 7 && mode <= 9) {
		int k2 = mode == 9 ? K - 1 : 1;

		for (int i = 0; i < M * K; i++)
			A[i] = 0;
		for (int i = 0; i < K * N; i++)
			B[i] = 0;
		for (int m = 0; m < M; m++) {
			A[m * K] = mode == 7 ? rnd_exp(-m, -m) : rnd_exp(0, 0);
			if (mode != 7)
				A[m * K + k2] = rnd_exp(-m, -m);
		}
		for (int n = 0; n < N; n++) {
			B[n] = mode == 7 ? rnd_exp(-n, -n) : rnd_exp(0, 0);
			if (mode != 7)
				B[k2 * N + n] = rnd_exp(-n - 8, -n - 8);
		}
		for (int i = 0; i < M * N; i++)
			C[i] = mode == 7 ? rnd_exp(0, 0) : 0.0;
	}
	if (mode >= 11 && mode <= 15)
		gen_adder(mode, M, N, K, A, B, C, type_exp_max);
	if (mode == 10) {
		for (int n = 0; n < N; n++)
			B[n] = (n % 3 == 0) ? 0.0 : B[n];
		A[0] = NAN;
		if (M > 1)
			A[K] = INFINITY;
		if (M > 2)
			A[2 * K] = -INFINITY;
		if (M > 3) {
			A[3 * K] = INFINITY;
			A[3 * K + 1] = INFINITY;
			B[N] = -B[0];
		}
		C[M * N - 1] = -INFINITY;
	}
}

template <typename S> static void conv(const double *v, S *o, int n)
{
	for (int i = 0; i < n; i++)
		o[i] = from_double<S>(v[i]);
}

static void print_hex(const char *name, int mode, const void *d, int n,
		      int size)
{
	printf("D %s mode %d:", name, mode);
	for (int i = 0; i < n; i++) {
		if (size == 2)
			printf(" %04x", ((const uint16_t *)d)[i]);
		else if (size == 4)
			printf(" %08x", ((const uint32_t *)d)[i]);
		else
			printf(" %016llx",
			       (unsigned long long)((const uint64_t *)d)[i]);
	}
	printf("\n");
}

/*
 * The inputs of the next D line, as the GPU got them: A (M x K), B
 * (K x N) and C (M x N), each row major, in the bits of their types
 * (sub-byte types: the 32-bit words of A by rows, B by columns).
 */
static void print_in(char which, const void *d, int n, int size)
{
	printf("I %c:", which);
	for (int i = 0; i < n; i++) {
		if (size == 1)
			printf(" %02x", ((const uint8_t *)d)[i]);
		else if (size == 2)
			printf(" %04x", ((const uint16_t *)d)[i]);
		else if (size == 4)
			printf(" %08x", ((const uint32_t *)d)[i]);
		else
			printf(" %016llx",
			       (unsigned long long)((const uint64_t *)d)[i]);
	}
	printf("\n");
}

/* WMMA: A row major, B row major (or col major), C and D row major. */
template <int M, int N, int K, typename TA, typename SA, typename TC,
	  typename BL>
__global__ void k_wmma(const SA *A, const SA *B, const TC *C, TC *D,
		       bool satf)
{
	wmma::fragment<wmma::matrix_a, M, N, K, TA, wmma::row_major> a;
	wmma::fragment<wmma::matrix_b, M, N, K, TA, BL> b;
	wmma::fragment<wmma::accumulator, M, N, K, TC> c;

	wmma::load_matrix_sync(a, A, K);
	/* B row major: ld N; col major: B^T row major, ld K */
	wmma::load_matrix_sync(b, B, std::is_same<BL, wmma::row_major>::value
				     ? N : K);
	wmma::load_matrix_sync(c, C, N, wmma::mem_row_major);
	if constexpr (std::is_same<TC, int>::value)
		wmma::mma_sync(c, a, b, c, satf);
	else
		wmma::mma_sync(c, a, b, c);
	wmma::store_matrix_sync(D, c, N, wmma::mem_row_major);
}

template <int M, int N, int K, typename TA, typename SA, typename TC,
	  typename BL = wmma::row_major>
static void arith_wmma(const char *name, int mode, int exp_max,
		       bool satf = false)
{
	double A[M * K], B[K * N], C[M * N];
	SA hA[M * K], hB[K * N];
	TC hC[M * N], hD[M * N];
	SA *dA, *dB;
	TC *dC, *dD;

	gen(mode, M, N, K, A, B, C, exp_max);
	if (std::is_same<TC, int>::value) {
		/* integers: A, B random bytes, C near the limits */
		for (int i = 0; i < M * K; i++)
			A[i] = (double)(std::is_same<SA, signed char>::value ?
				(int)(rnd() % 256) - 128 : (int)(rnd() % 256));
		for (int i = 0; i < K * N; i++)
			B[i] = (double)(std::is_same<SA, signed char>::value ?
				(int)(rnd() % 256) - 128 : (int)(rnd() % 256));
		for (int i = 0; i < M * N; i++)
			C[i] = mode ? ((rnd() & 1) ? 2147400000.0 :
					-2147400000.0) :
				(double)((int)(rnd() % 200001) - 100000);
	}
	conv<SA>(A, hA, M * K);
	conv<SA>(B, hB, K * N);
	conv<TC>(C, hC, M * N);
	print_in('a', hA, M * K, sizeof(SA));
	print_in('b', hB, K * N, sizeof(SA));
	print_in('c', hC, M * N, sizeof(TC));
	if (std::is_same<BL, wmma::col_major>::value) {
		/* store B transposed: element (k, n) at n * K + k */
		SA T[K * N];

		for (int k = 0; k < K; k++)
			for (int n = 0; n < N; n++)
				T[n * K + k] = hB[k * N + n];
		memcpy(hB, T, sizeof(T));
	}
	CK(cudaMalloc(&dA, sizeof(hA)));
	CK(cudaMalloc(&dB, sizeof(hB)));
	CK(cudaMalloc(&dC, sizeof(hC)));
	CK(cudaMalloc(&dD, sizeof(hD)));
	CK(cudaMemcpy(dA, hA, sizeof(hA), cudaMemcpyHostToDevice));
	CK(cudaMemcpy(dB, hB, sizeof(hB), cudaMemcpyHostToDevice));
	CK(cudaMemcpy(dC, hC, sizeof(hC), cudaMemcpyHostToDevice));
	k_wmma<M, N, K, TA, SA, TC, BL><<<1, 32>>>(dA, dB, dC, dD, satf);
	CK(cudaGetLastError());
	CK(cudaMemcpy(hD, dD, sizeof(hD), cudaMemcpyDeviceToHost));
	print_hex(name, mode, hD, M * N, sizeof(TC));
	CK(cudaFree(dA));
	CK(cudaFree(dB));
	CK(cudaFree(dC));
	CK(cudaFree(dD));
}

/* tf32: the f32 inputs go in unrounded (the low 13 bits set). */
__global__ void k_tf32(const float *A, const float *B, const float *C,
		       float *D, bool convert)
{
	wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32,
		       wmma::row_major> a;
	wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32,
		       wmma::row_major> b;
	wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;

	wmma::load_matrix_sync(a, A, 8);
	wmma::load_matrix_sync(b, B, 16);
	wmma::load_matrix_sync(c, C, 16, wmma::mem_row_major);
	if (convert) {
		for (int i = 0; i < a.num_elements; i++)
			a.x[i] = wmma::__float_to_tf32(a.x[i]);
		for (int i = 0; i < b.num_elements; i++)
			b.x[i] = wmma::__float_to_tf32(b.x[i]);
	}
	wmma::mma_sync(c, a, b, c);
	wmma::store_matrix_sync(D, c, 16, wmma::mem_row_major);
}

static void arith_tf32(int mode, bool convert)
{
	double A[16 * 8], B[8 * 16], C[256];
	float hA[16 * 8], hB[8 * 16], hC[256], hD[256];
	float *dA, *dB, *dC, *dD;

	gen(mode, 16, 16, 8, A, B, C, 127);
	for (int i = 0; i < 128; i++) {
		hA[i] = (float)A[i];
		hB[i] = (float)B[i];
		/* the 13 bits tf32 drops: make them matter */
		if (mode != 6 && hA[i] != 0 && isfinite(hA[i]) &&
		    hB[i] != 0 && isfinite(hB[i])) {
			uint32_t u;

			memcpy(&u, &hA[i], 4);
			u |= rnd() & 0x1fff;
			memcpy(&hA[i], &u, 4);
			memcpy(&u, &hB[i], 4);
			u |= rnd() & 0x1fff;
			memcpy(&hB[i], &u, 4);
		}
	}
	for (int i = 0; i < 256; i++)
		hC[i] = (float)C[i];
	print_in('a', hA, 128, 4);
	print_in('b', hB, 128, 4);
	print_in('c', hC, 256, 4);
	CK(cudaMalloc(&dA, sizeof(hA)));
	CK(cudaMalloc(&dB, sizeof(hB)));
	CK(cudaMalloc(&dC, sizeof(hC)));
	CK(cudaMalloc(&dD, sizeof(hD)));
	CK(cudaMemcpy(dA, hA, sizeof(hA), cudaMemcpyHostToDevice));
	CK(cudaMemcpy(dB, hB, sizeof(hB), cudaMemcpyHostToDevice));
	CK(cudaMemcpy(dC, hC, sizeof(hC), cudaMemcpyHostToDevice));
	k_tf32<<<1, 32>>>(dA, dB, dC, dD, convert);
	CK(cudaGetLastError());
	CK(cudaMemcpy(hD, dD, sizeof(hD), cudaMemcpyDeviceToHost));
	print_hex(convert ? "wmma m16n16k8 tf32 cvt" : "wmma m16n16k8 tf32",
		  mode, hD, 256, 4);
	CK(cudaFree(dA));
	CK(cudaFree(dB));
	CK(cudaFree(dC));
	CK(cudaFree(dD));
}

/* Sub-byte and b1: A and B as words, random. */
template <bool B1, typename T>
__global__ void k_sub(const unsigned *A, const unsigned *B, const int *C,
		      int *D, int op)
{
	wmma::fragment<wmma::matrix_a, 8, 8, B1 ? 128 : 32, T, wmma::row_major> a;
	wmma::fragment<wmma::matrix_b, 8, 8, B1 ? 128 : 32, T, wmma::col_major> b;
	wmma::fragment<wmma::accumulator, 8, 8, B1 ? 128 : 32, int> c;

	wmma::load_matrix_sync(a, A, B1 ? 128 : 32);
	wmma::load_matrix_sync(b, B, B1 ? 128 : 32);
	wmma::load_matrix_sync(c, C, 8, wmma::mem_row_major);
	if constexpr (B1)
		wmma::bmma_sync(c, a, b, c, (wx::bmmaBitOp)op);
	else
		wmma::mma_sync(c, a, b, c);
	wmma::store_matrix_sync(D, c, 8, wmma::mem_row_major);
}

template <bool B1, typename T>
static void arith_sub(const char *name, int op)
{
	unsigned hA[32], hB[32];
	int hC[64], hD[64];
	unsigned *dA, *dB;
	int *dC, *dD;

	for (int i = 0; i < 32; i++) {
		hA[i] = rnd() ^ (rnd() << 16);
		hB[i] = rnd() ^ (rnd() << 16);
	}
	for (int i = 0; i < 64; i++)
		hC[i] = (int)(rnd() % 2001) - 1000;
	print_in('a', hA, 32, 4);
	print_in('b', hB, 32, 4);
	print_in('c', hC, 64, 4);
	CK(cudaMalloc(&dA, sizeof(hA)));
	CK(cudaMalloc(&dB, sizeof(hB)));
	CK(cudaMalloc(&dC, sizeof(hC)));
	CK(cudaMalloc(&dD, sizeof(hD)));
	CK(cudaMemcpy(dA, hA, sizeof(hA), cudaMemcpyHostToDevice));
	CK(cudaMemcpy(dB, hB, sizeof(hB), cudaMemcpyHostToDevice));
	CK(cudaMemcpy(dC, hC, sizeof(hC), cudaMemcpyHostToDevice));
	k_sub<B1, T><<<1, 32>>>(dA, dB, dC, dD, op);
	CK(cudaGetLastError());
	CK(cudaMemcpy(hD, dD, sizeof(hD), cudaMemcpyDeviceToHost));
	print_hex(name, op, hD, 64, 4);
	CK(cudaFree(dA));
	CK(cudaFree(dB));
	CK(cudaFree(dC));
	CK(cudaFree(dD));
}

/* ---------------------------------------------------------------- */
/* mma.sync: fragments gathered by the PTX ISA's documented layouts   */
/* ---------------------------------------------------------------- */

/*
 * Generic kernel: every lane fills its A, B, C registers from matrices
 * in memory by index tables the host computed (the documented layout),
 * runs one mma.sync, and writes its D registers back by the same table.
 * Tables: for each lane and register slot, the element index of each of
 * the (up to 4) elements packed in the 32-bit register, or -1.
 */
struct mma_tab {
	short a[32][8][4], b[32][8][4], c[32][8][2];
	int na, nb, nc, ea, eb, ec;	/* registers; element bytes */
};

__device__ uint32_t pack_reg(const uint8_t *m, const short *idx, int esize)
{
	uint32_t v = 0;
	int per = 4 / esize;

	for (int j = 0; j < per; j++) {
		uint32_t e = 0;

		if (idx[j] < 0)
			continue;
		memcpy(&e, m + idx[j] * esize, esize);
		v |= e << (8 * esize * j);
	}
	return v;
}

#define MMA_KERNEL(kname, CT, ...)			\
	__global__ void kname(const uint8_t *A, const uint8_t *B,	\
			      const uint8_t *C, uint8_t *D,		\
			      const mma_tab *t)				\
	{								\
		int l = threadIdx.x;					\
		uint32_t a[4] = {0}, b[4] = {0};			\
		CT c[4] = {0}, d[4] = {0};				\
		for (int i = 0; i < t->na; i++)				\
			a[i] = pack_reg(A, t->a[l][i], t->ea);		\
		for (int i = 0; i < t->nb; i++)				\
			b[i] = pack_reg(B, t->b[l][i], t->eb);		\
		for (int i = 0; i < t->nc; i++)				\
			memcpy(&c[i], C + t->c[l][i][0] * sizeof(CT),	\
			       sizeof(CT));				\
		asm volatile(__VA_ARGS__);					\
		for (int i = 0; i < t->nc; i++)				\
			memcpy(D + t->c[l][i][0] * sizeof(CT), &d[i],	\
			       sizeof(CT));				\
	}

/* f16 -> f32, m16n8k16: a 4 regs, b 2, c/d 4 f32 */
MMA_KERNEL(k_mma_16816_f32, float,
	   "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
	   "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
	   : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
	   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
	     "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]))
/* bf16 -> f32, m16n8k16 */
MMA_KERNEL(k_mma_16816_bf16, float,
	   "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
	   "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
	   : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
	   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
	     "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]))
/* f16 -> f32, m16n8k8: a 2 regs, b 1 */
MMA_KERNEL(k_mma_1688_f32, float,
	   "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 "
	   "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
	   : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
	   : "r"(a[0]), "r"(a[1]), "r"(b[0]), "f"(c[0]), "f"(c[1]),
	     "f"(c[2]), "f"(c[3]))
/* tf32 -> f32, m16n8k8: a 4 regs, b 2 */
MMA_KERNEL(k_mma_1688_tf32, float,
	   "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
	   "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
	   : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
	   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
	     "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]))
/* s8 -> s32 satfinite, m16n8k32: a 4 regs, b 2, c 4 */
MMA_KERNEL(k_mma_16832_s8, int,
	   "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 "
	   "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
	   : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
	   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
	     "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]))
/* f16 -> f16, m16n8k16: c/d 2 regs of f16x2 */
MMA_KERNEL(k_mma_16816_f16, uint32_t,
	   "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 "
	   "{%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
	   : "=r"(d[0]), "=r"(d[1])
	   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
	     "r"(b[1]), "r"(c[0]), "r"(c[1]))
/* f64, m8n8k4: a 1 f64, b 1, c 2 */
__global__ void k_mma_884_f64(const double *A, const double *B,
			      const double *C, double *D)
{
	int l = threadIdx.x, g = l >> 2, t = l & 3;
	double a = A[g * 4 + t], b = B[t * 8 + g], c0, c1, d0, d1;

	c0 = C[g * 8 + 2 * t];
	c1 = C[g * 8 + 2 * t + 1];
	asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 "
		     "{%0,%1}, {%2}, {%3}, {%4,%5};"
		     : "=d"(d0), "=d"(d1) : "d"(a), "d"(b), "d"(c0), "d"(c1));
	D[g * 8 + 2 * t] = d0;
	D[g * 8 + 2 * t + 1] = d1;
}

/*
 * The documented layouts (PTX ISA, "Matrix Fragments for mma.m16n8k*"),
 * for A (M x K, row major), B (K x N, stored column major: index
 * n * K + k) and C (M x N row major); g = lane >> 2, t = lane & 3.
 * Registers of 16-bit elements hold two, of 8-bit elements four.
 */
static void tab_16816(mma_tab *t, int K, int epr, int nc_f16)
{
	memset(t, -1, sizeof(*t));
	/* A: K = 8*epr/... regs i: row g + 8*(i&1), col block i>>1 */
	int kchunk = 4 * epr;	/* columns covered by one t-row of regs */

	t->na = K == 8 * epr / 2 ? 2 : 4;
	for (int l = 0; l < 32; l++) {
		int g = l >> 2, q = l & 3;

		for (int i = 0; i < t->na; i++)
			for (int j = 0; j < epr; j++) {
				int row = g + 8 * (i & 1);
				int col = q * epr + j + kchunk * (i >> 1);

				t->a[l][i][j] = row * K + col;
			}
		t->nb = t->na / 2;
		for (int i = 0; i < t->nb; i++)
			for (int j = 0; j < epr; j++) {
				int k = q * epr + j + kchunk * i;

				t->b[l][i][j] = g * K + k;	/* n = g */
			}
		if (nc_f16) {
			t->nc = 2;
			for (int i = 0; i < 2; i++) {
				/* f16x2: elements (row, 2q), (row, 2q+1) */
				t->c[l][i][0] = ((g + 8 * i) * 8 + 2 * q) / 2;
			}
		} else {
			t->nc = 4;
			for (int i = 0; i < 4; i++)
				t->c[l][i][0] = (g + 8 * (i >> 1)) * 8 +
						2 * q + (i & 1);
		}
	}
}

template <typename SA>
static void arith_mma(const char *name, void (*kern)(const uint8_t *,
		      const uint8_t *, const uint8_t *, uint8_t *,
		      const mma_tab *), int K, int mode, int exp_max,
		      bool int_in, bool c_f16)
{
	const int M = 16, N = 8;
	double A[16 * 32], B[32 * 8], C[16 * 8], T[32 * 8];
	SA hA[16 * 32], hB[32 * 8];
	uint8_t hC[16 * 8 * 4], hD[16 * 8 * 4];
	uint8_t *dA, *dB, *dC, *dD;
	mma_tab tab, *dt;
	int esize = sizeof(SA), csize = c_f16 ? 2 : 4;

	gen(mode, M, N, K, A, B, C, exp_max);
	if (int_in) {
		for (int i = 0; i < M * K; i++)
			A[i] = (int)(rnd() % 256) - 128;
		for (int i = 0; i < K * N; i++)
			B[i] = (int)(rnd() % 256) - 128;
		for (int i = 0; i < M * N; i++)
			C[i] = (rnd() & 1) ? 2147400000.0 : -2147400000.0;
	}
	/* B column major */
	for (int k = 0; k < K; k++)
		for (int n = 0; n < N; n++)
			T[n * K + k] = B[k * N + n];
	conv<SA>(A, hA, M * K);
	conv<SA>(T, hB, K * N);
	for (int i = 0; i < M * N; i++) {
		if (int_in) {
			int32_t v = (int32_t)C[i];

			memcpy(hC + 4 * i, &v, 4);
		} else if (c_f16) {
			__half v = __float2half((float)C[i]);

			memcpy(hC + 2 * i, &v, 2);
		} else {
			float v = (float)C[i];

			memcpy(hC + 4 * i, &v, 4);
		}
	}
	if (std::is_same<SA, float>::value) {
		/* tf32 operands with their low bits set */
		for (int i = 0; i < M * K; i++)
			if (A[i] != 0 && isfinite(A[i]))
				((uint32_t *)hA)[i] |= rnd() & 0x1fff;
		for (int i = 0; i < K * N; i++)
			if (T[i] != 0 && isfinite(T[i]))
				((uint32_t *)hB)[i] |= rnd() & 0x1fff;
	}
	{
		SA L[32 * 8];

		for (int k = 0; k < K; k++)
			for (int n = 0; n < N; n++)
				L[k * N + n] = hB[n * K + k];
		print_in('a', hA, M * K, esize);
		print_in('b', L, K * N, esize);
		print_in('c', hC, M * N, csize);
	}
	tab_16816(&tab, K, 4 / esize, c_f16);
	tab.ea = esize;
	tab.eb = esize;
	tab.ec = csize;
	CK(cudaMalloc(&dA, sizeof(hA)));
	CK(cudaMalloc(&dB, sizeof(hB)));
	CK(cudaMalloc(&dC, sizeof(hC)));
	CK(cudaMalloc(&dD, sizeof(hD)));
	CK(cudaMalloc(&dt, sizeof(tab)));
	CK(cudaMemcpy(dA, hA, sizeof(hA), cudaMemcpyHostToDevice));
	CK(cudaMemcpy(dB, hB, sizeof(hB), cudaMemcpyHostToDevice));
	CK(cudaMemcpy(dC, hC, sizeof(hC), cudaMemcpyHostToDevice));
	CK(cudaMemcpy(dt, &tab, sizeof(tab), cudaMemcpyHostToDevice));
	kern<<<1, 32>>>(dA, dB, dC, dD, dt);
	CK(cudaGetLastError());
	CK(cudaMemcpy(hD, dD, sizeof(hD), cudaMemcpyDeviceToHost));
	print_hex(name, mode, hD, M * N, csize);
	CK(cudaFree(dA));
	CK(cudaFree(dB));
	CK(cudaFree(dC));
	CK(cudaFree(dD));
	CK(cudaFree(dt));
}

static void arith_f64(int mode)
{
	double A[32], B[32], C[64], hD[64], T[32];
	double *dA, *dB, *dC, *dD;

	gen(mode, 8, 8, 4, A, B, C, 1000);
	for (int k = 0; k < 4; k++)
		for (int n = 0; n < 8; n++)
			T[k * 8 + n] = B[k * 8 + n];
	print_in('a', A, 32, 8);
	print_in('b', T, 32, 8);
	print_in('c', C, 64, 8);
	CK(cudaMalloc(&dA, sizeof(A)));
	CK(cudaMalloc(&dB, sizeof(T)));
	CK(cudaMalloc(&dC, sizeof(C)));
	CK(cudaMalloc(&dD, sizeof(hD)));
	CK(cudaMemcpy(dA, A, sizeof(A), cudaMemcpyHostToDevice));
	CK(cudaMemcpy(dB, T, sizeof(T), cudaMemcpyHostToDevice));
	CK(cudaMemcpy(dC, C, sizeof(C), cudaMemcpyHostToDevice));
	k_mma_884_f64<<<1, 32>>>(dA, dB, dC, dD);
	CK(cudaGetLastError());
	CK(cudaMemcpy(hD, dD, sizeof(hD), cudaMemcpyDeviceToHost));
	print_hex("mma m8n8k4 f64", mode, hD, 64, 8);
	CK(cudaFree(dA));
	CK(cudaFree(dB));
	CK(cudaFree(dC));
	CK(cudaFree(dD));
}

/*
 * f16 A and B fragments of WMMA hold every element two or four times
 * (16 halves per lane).  Which copy does the multiply read?  Zero the
 * elements of copy @zap (of A when @in_b is false, else of B) and
 * multiply: the copies the result still sees are the ones it reads.
 */
template <int M, int N, int K>
__global__ void k_copies(const __half *A, const __half *B, float *D,
			 int zap, bool in_b, int per)
{
	wmma::fragment<wmma::matrix_a, M, N, K, __half, wmma::row_major> a;
	wmma::fragment<wmma::matrix_b, M, N, K, __half, wmma::row_major> b;
	wmma::fragment<wmma::accumulator, M, N, K, float> c;

	wmma::load_matrix_sync(a, A, K);
	wmma::load_matrix_sync(b, B, N);
	wmma::fill_fragment(c, 0.0f);
	/* the copies are consecutive runs of @per elements */
	if (in_b) {
		for (int i = zap * per; i < (zap + 1) * per; i++)
			b.x[i] = __float2half(0.0f);
	} else {
		for (int i = zap * per; i < (zap + 1) * per; i++)
			a.x[i] = __float2half(0.0f);
	}
	wmma::mma_sync(c, a, b, c);
	wmma::store_matrix_sync(D, c, N, wmma::mem_row_major);
}

template <int M, int N, int K>
static void copies(const char *name, int ncopies, bool in_b)
{
	__half hA[M * K], hB[K * N];
	float hD[M * N];
	__half *dA, *dB;
	float *dD;

	for (int i = 0; i < M * K; i++)
		hA[i] = __float2half((float)(1 + rnd() % 8));
	for (int i = 0; i < K * N; i++)
		hB[i] = __float2half((float)(1 + rnd() % 8));
	print_in('a', hA, M * K, 2);
	print_in('b', hB, K * N, 2);
	CK(cudaMalloc(&dA, sizeof(hA)));
	CK(cudaMalloc(&dB, sizeof(hB)));
	CK(cudaMalloc(&dD, sizeof(hD)));
	CK(cudaMemcpy(dA, hA, sizeof(hA), cudaMemcpyHostToDevice));
	CK(cudaMemcpy(dB, hB, sizeof(hB), cudaMemcpyHostToDevice));
	for (int zap = 0; zap < ncopies; zap++) {
		k_copies<M, N, K><<<1, 32>>>(dA, dB, dD, zap, in_b,
					     16 / ncopies);
		CK(cudaGetLastError());
		CK(cudaMemcpy(hD, dD, sizeof(hD), cudaMemcpyDeviceToHost));
		print_hex(name, zap, hD, M * N, 4);
	}
	CK(cudaFree(dA));
	CK(cudaFree(dB));
	CK(cudaFree(dD));
}

static void arithmetic(void)
{
	copies<16, 16, 16>("wmma m16n16k16 f16 a copy zeroed", 2, false);
	copies<16, 16, 16>("wmma m16n16k16 f16 b copy zeroed", 2, true);
	copies<32, 8, 16>("wmma m32n8k16 f16 b copy zeroed", 4, true);
	copies<8, 32, 16>("wmma m8n32k16 f16 a copy zeroed", 4, false);

	for (int mode = 0; mode <= 10; mode++) {
		if (mode != 5)
			arith_wmma<16, 16, 16, __half, __half, float>(
				"wmma m16n16k16 f16 f32", mode, 15);
		arith_wmma<16, 16, 16, __half, __half, __half>(
			"wmma m16n16k16 f16 f16", mode, 15);
		arith_wmma<16, 16, 16, __nv_bfloat16, __nv_bfloat16, float>(
			"wmma m16n16k16 bf16 f32", mode, 127);
		if (mode != 5)
			arith_tf32(mode, false);
	}
	arith_tf32(0, true);
	arith_tf32(1, true);
	for (int mode = 0; mode <= 2; mode++) {
		arith_wmma<32, 8, 16, __half, __half, float>(
			"wmma m32n8k16 f16 f32", mode, 15);
		arith_wmma<8, 32, 16, __half, __half, float>(
			"wmma m8n32k16 f16 f32", mode, 15);
		arith_wmma<16, 16, 16, __half, __half, float,
			   wmma::col_major>("wmma m16n16k16 f16 f32 bcol",
					    mode, 15);
		arith_wmma<32, 8, 16, __nv_bfloat16, __nv_bfloat16, float>(
			"wmma m32n8k16 bf16 f32", mode, 127);
		arith_wmma<8, 32, 16, __half, __half, __half>(
			"wmma m8n32k16 f16 f16", mode, 15);
	}
	for (int mode = 0; mode <= 1; mode++) {
		arith_wmma<16, 16, 16, signed char, signed char, int>(
			"wmma m16n16k16 s8 s32", mode, 0, false);
		arith_wmma<16, 16, 16, signed char, signed char, int>(
			"wmma m16n16k16 s8 s32 satf", mode, 0, true);
		arith_wmma<16, 16, 16, unsigned char, unsigned char, int>(
			"wmma m16n16k16 u8 s32 satf", mode, 0, true);
		arith_wmma<32, 8, 16, signed char, signed char, int>(
			"wmma m32n8k16 s8 s32", mode, 0, false);
		arith_wmma<8, 32, 16, unsigned char, unsigned char, int>(
			"wmma m8n32k16 u8 s32", mode, 0, false);
	}
	arith_sub<false, wx::precision::u4>("wmma m8n8k32 u4", 0);
	arith_sub<false, wx::precision::s4>("wmma m8n8k32 s4", 0);
	arith_sub<true, wx::precision::b1>("wmma m8n8k128 b1 xor", 1);
	arith_sub<true, wx::precision::b1>("wmma m8n8k128 b1 and", 2);
	for (int mode = 0; mode <= 10; mode++) {
		if (mode != 5)
			arith_mma<__half>("mma m16n8k16 f16 f32",
					  k_mma_16816_f32, 16, mode, 15,
					  false, false);
		arith_mma<__half>("mma m16n8k16 f16 f16", k_mma_16816_f16,
				  16, mode, 15, false, true);
		arith_mma<__half>("mma m16n8k8 f16 f32", k_mma_1688_f32, 8,
				  mode, 15, false, false);
		arith_mma<__nv_bfloat16>("mma m16n8k16 bf16 f32",
					 k_mma_16816_bf16, 16, mode, 127,
					 false, false);
		arith_mma<float>("mma m16n8k8 tf32 f32", k_mma_1688_tf32, 8,
				 mode == 5 ? 0 : mode, 127, false, false);
	}
	arith_mma<signed char>("mma m16n8k32 s8 s32 satf", k_mma_16832_s8,
			       32, 0, 0, true, false);
	for (int mode = 0; mode <= 10; mode++)
		arith_f64(mode);
}

/* ---------------------------------------------------------------- */
/* X: ldmatrix, stmatrix, movmatrix                                  */
/* ---------------------------------------------------------------- */

/*
 * Shared memory holds four 8x8 matrices of b16, element (m, r, c) =
 * m * 64 + r * 8 + c, each row 16 bytes; lane i gives the address of
 * row i % 8 of matrix i / 8 (rows of matrix m in reverse order, to see
 * that the addresses are used and not assumed).
 */
__global__ void k_ldmatrix(uint32_t *out)
{
	__shared__ uint16_t s[4 * 64];
	int l = threadIdx.x;
	uint32_t r[4];

	for (int i = l; i < 256; i += 32)
		s[i] = i;
	__syncwarp();
	unsigned a = (unsigned)__cvta_generic_to_shared(
		&s[(l / 8) * 64 + (7 - l % 8) * 8]);

	asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];"
		     : "=r"(r[0]) : "r"(a));
	out[0 * 32 + l] = r[0];
	asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];"
		     : "=r"(r[0]), "=r"(r[1]) : "r"(a));
	out[1 * 32 + l] = r[0];
	out[2 * 32 + l] = r[1];
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 "
		     "{%0,%1,%2,%3}, [%4];"
		     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
		     : "r"(a));
	for (int i = 0; i < 4; i++)
		out[(3 + i) * 32 + l] = r[i];
	asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];"
		     : "=r"(r[0]) : "r"(a));
	out[7 * 32 + l] = r[0];
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 "
		     "{%0,%1,%2,%3}, [%4];"
		     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
		     : "r"(a));
	for (int i = 0; i < 4; i++)
		out[(8 + i) * 32 + l] = r[i];
	/* movmatrix: lane l holds elements l*2, l*2+1 of an 8x8 matrix */
	uint32_t m = (uint32_t)(2 * l) | (uint32_t)(2 * l + 1) << 16, mt;

	asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;"
		     : "=r"(mt) : "r"(m));
	out[12 * 32 + l] = mt;
	/* stmatrix x4 (and .trans): lane l stores (l << 8 | i) */
	__syncwarp();
	for (int i = l; i < 256; i += 32)
		s[i] = 0xffff;
	__syncwarp();
	asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 "
		     "[%0], {%1,%2,%3,%4};"
		     :: "r"(a), "r"(l << 8 | 0 | (l << 8 | 1) << 16),
		        "r"(l << 8 | 2 | (l << 8 | 3) << 16),
		        "r"(l << 8 | 4 | (l << 8 | 5) << 16),
		        "r"(l << 8 | 6 | (l << 8 | 7) << 16) : "memory");
	__syncwarp();
	for (int i = l; i < 128; i += 32)
		out[13 * 32 + i] = s[2 * i] | (uint32_t)s[2 * i + 1] << 16;
	__syncwarp();
	asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 "
		     "[%0], {%1,%2};"
		     :: "r"(a), "r"(l << 8 | 0 | (l << 8 | 1) << 16),
		        "r"(l << 8 | 2 | (l << 8 | 3) << 16) : "memory");
	__syncwarp();
	for (int i = l; i < 128; i += 32)
		out[17 * 32 + i] = s[2 * i] | (uint32_t)s[2 * i + 1] << 16;
}

static void matrix_moves(void)
{
	static const char *what[21] = {
		"ldmatrix x1", "ldmatrix x2 r0", "ldmatrix x2 r1",
		"ldmatrix x4 r0", "ldmatrix x4 r1", "ldmatrix x4 r2",
		"ldmatrix x4 r3", "ldmatrix x1 trans", "ldmatrix x4 trans r0",
		"ldmatrix x4 trans r1", "ldmatrix x4 trans r2",
		"ldmatrix x4 trans r3", "movmatrix trans",
		"stmatrix x4 words 0-31", "stmatrix x4 words 32-63",
		"stmatrix x4 words 64-95", "stmatrix x4 words 96-127",
		"stmatrix x2 trans words 0-31",
		"stmatrix x2 trans words 32-63",
		"stmatrix x2 trans words 64-95",
		"stmatrix x2 trans words 96-127",
	};
	uint32_t *d, h[21 * 32];

	CK(cudaMalloc(&d, sizeof(h)));
	CK(cudaMemset(d, 0, sizeof(h)));
	k_ldmatrix<<<1, 32>>>(d);
	CK(cudaGetLastError());
	CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
	for (int i = 0; i < 21; i++) {
		printf("X %s:", what[i]);
		for (int l = 0; l < 32; l++)
			printf(" %08x", h[i * 32 + l]);
		printf("\n");
	}
	CK(cudaFree(d));
}

/* ---------------------------------------------------------------- */
/* E: mma.sync kinds beyond the first recording (run with "E" only)  */
/* ---------------------------------------------------------------- */

/*
 * Mixed-signedness integers, fp8 (e4m3/e5m2) and f64 m16n8k*.  Each lane
 * packs its registers from one-element-per-byte matrices by a table of
 * the PTX ISA's documented layout (elements of @bits bits packed from
 * bit 0 up); A is M x K row major, B is stored by columns (n * K + k).
 * Output: the I lines (A and B row major, one element per hex field in
 * its own width, C and D as the accumulator's bits) and a D line.
 */
struct ext_tab {
	short a[32][4][8], b[32][2][8], c[32][4];
	int na, nb, nc, bits;
};

__device__ uint32_t pack_bits(const uint8_t *m, const short *idx, int bits)
{
	uint32_t v = 0;

	for (int j = 0; j < 32 / bits; j++)
		if (idx[j] >= 0)
			v |= (uint32_t)(m[idx[j]] & ((1u << bits) - 1))
			     << (bits * j);
	return v;
}

#define EXT_KERNEL(kname, CON, ...)					\
	__global__ void kname(const uint8_t *A, const uint8_t *B,	\
			      const uint32_t *C, uint32_t *D,		\
			      const ext_tab *t)				\
	{								\
		int l = threadIdx.x;					\
		uint32_t a[4] = {0}, b[2] = {0}, c[4] = {0}, d[4] = {0}; \
		for (int i = 0; i < t->na; i++)				\
			a[i] = pack_bits(A, t->a[l][i], t->bits);	\
		for (int i = 0; i < t->nb; i++)				\
			b[i] = pack_bits(B, t->b[l][i], t->bits);	\
		for (int i = 0; i < t->nc; i++)				\
			c[i] = C[t->c[l][i]];				\
		asm volatile(__VA_ARGS__);				\
		for (int i = 0; i < t->nc; i++)				\
			D[t->c[l][i]] = d[i];				\
	}
#define EA4 "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3])
#define EA2 "r"(a[0]), "r"(a[1])
#define EB2 "r"(b[0]), "r"(b[1])
#define ED4 "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
#define EC4 "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])
#define S4(x) "mma.sync.aligned." x " {%0,%1,%2,%3}, {%4,%5,%6,%7}, "	\
	      "{%8,%9}, {%10,%11,%12,%13};"
#define S2(x) "mma.sync.aligned." x " {%0,%1,%2,%3}, {%4,%5}, {%6}, "	\
	      "{%7,%8,%9,%10};"
#define S1(x) "mma.sync.aligned." x " {%0,%1}, {%2}, {%3}, {%4,%5};"
#define K4(n, s) EXT_KERNEL(n, 0, S4(s) : ED4 : EA4, EB2, EC4)
#define K2(n, s) EXT_KERNEL(n, 0, S2(s) : ED4 : EA2, "r"(b[0]), EC4)
#define K1(n, s) EXT_KERNEL(n, 0, S1(s) : "=r"(d[0]), "=r"(d[1])	\
			     : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1]))

K4(ke_16832_s8u8, "m16n8k32.row.col.satfinite.s32.s8.u8.s32")
K4(ke_16832_u8s8, "m16n8k32.row.col.s32.u8.s8.s32")
K2(ke_16816_s8u8, "m16n8k16.row.col.satfinite.s32.s8.u8.s32")
K2(ke_16816_u8s8, "m16n8k16.row.col.s32.u8.s8.s32")
K1(ke_8816_u8s8, "m8n8k16.row.col.satfinite.s32.u8.s8.s32")
K4(ke_16864_s4u4, "m16n8k64.row.col.satfinite.s32.s4.u4.s32")
K4(ke_16864_u4s4, "m16n8k64.row.col.s32.u4.s4.s32")
K2(ke_16832_u4s4, "m16n8k32.row.col.satfinite.s32.u4.s4.s32")
K1(ke_8832_s4u4, "m8n8k32.row.col.s32.s4.u4.s32")
K4(ke_16832_e4m3, "m16n8k32.row.col.f32.e4m3.e4m3.f32")
K4(ke_16832_e5m2, "m16n8k32.row.col.f32.e5m2.e5m2.f32")
K4(ke_16832_e4e5, "m16n8k32.row.col.f32.e4m3.e5m2.f32")
K4(ke_16832_e5e4, "m16n8k32.row.col.f32.e5m2.e4m3.f32")
K2(ke_16816_e4m3, "m16n8k16.row.col.f32.e4m3.e4m3.f32")
EXT_KERNEL(ke_16832_e4m3_f16, 0,
	   "mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16 "
	   "{%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
	   : "=r"(d[0]), "=r"(d[1]) : EA4, EB2, "r"(c[0]), "r"(c[1]))
EXT_KERNEL(ke_16832_e5m2_f16, 0,
	   "mma.sync.aligned.m16n8k32.row.col.f16.e5m2.e5m2.f16 "
	   "{%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
	   : "=r"(d[0]), "=r"(d[1]) : EA4, EB2, "r"(c[0]), "r"(c[1]))

/* The m16n8k / m8n8k layouts: @bits per element, M 16 or 8. */
static void ext_layout(ext_tab *t, int M, int K, int bits, bool c_f16)
{
	int epr = 32 / bits, kc = 4 * epr;

	memset(t, -1, sizeof(*t));
	t->bits = bits;
	t->na = (M / 8) * (K / kc);
	t->nb = K / kc;
	t->nc = c_f16 ? M / 8 : M / 4;
	for (int l = 0; l < 32; l++) {
		int g = l >> 2, q = l & 3;

		for (int i = 0; i < t->na; i++)
			for (int j = 0; j < epr; j++)
				t->a[l][i][j] = (g + 8 * (i % (M / 8))) * K +
					q * epr + j + kc * (i / (M / 8));
		for (int i = 0; i < t->nb; i++)
			for (int j = 0; j < epr; j++)
				t->b[l][i][j] = g * K + q * epr + j + kc * i;
		for (int i = 0; i < t->nc; i++)
			t->c[l][i] = c_f16 ? (g + 8 * i) * 4 + q :
				     (g + 8 * (i >> 1)) * 8 + 2 * q + (i & 1);
	}
}

/*
 * (The accumulators go in as .b32 registers whatever their type: PTX
 * takes a bit-size register for any type of its size.)
 */

/* fp8 <-> double; to fp8: the nearest finite code (ties: even code). */
static double fp8_value(uint8_t v, bool e5m2)
{
	int s = v >> 7, eb = e5m2 ? 5 : 4, mb = 7 - eb;
	int e = (v >> mb) & ((1 << eb) - 1), m = v & ((1 << mb) - 1);
	int bias = e5m2 ? 15 : 7;
	double x;

	if (e5m2 && e == 31)
		x = m ? NAN : INFINITY;
	else if (!e5m2 && e == 15 && m == 7)
		x = NAN;
	else if (!e)
		x = ldexp(m, 1 - bias - mb);
	else
		x = ldexp(1.0 + m / (double)(1 << mb), e - bias);
	return s ? -x : x;
}

static uint8_t fp8_code(double x, bool e5m2)
{
	int best = -1;
	double bd = 0;

	if (isnan(x))
		return e5m2 ? 0x7e : 0x7f;
	if (isinf(x) && e5m2)
		return x < 0 ? 0xfc : 0x7c;
	for (int c = 0; c < 256; c++) {
		double v = fp8_value((uint8_t)c, e5m2), dd;

		if (!isfinite(v) || signbit(v) != signbit(x))
			continue;
		dd = fabs(v - x);
		if (best < 0 || dd < bd || (dd == bd && !(c & 1))) {
			best = c;
			bd = dd;
		}
	}
	return (uint8_t)best;
}

enum ext_kind { EXT_INT, EXT_FP8, EXT_FP8_F16 };

/*
 * One product.  at, bt: for integers 's' or 'u' (with @bits 8 or 4), for
 * fp8 '4' (e4m3) or '5' (e5m2).
 */
static void ext_one(const char *name, void (*kern)(const uint8_t *,
		    const uint8_t *, const uint32_t *, uint32_t *,
		    const ext_tab *), int M, int K, int bits, char at,
		    char bt, enum ext_kind kind, int mode)
{
	const int N = 8;
	double A[16 * 64], B[64 * 8], C[16 * 8];
	uint8_t hA[16 * 64], hB[64 * 8], hT[64 * 8];
	uint32_t hC[16 * 8], hD[16 * 8];
	uint8_t *dA, *dB;
	uint32_t *dC, *dD;
	ext_tab tab, *dt;
	int nc = kind == EXT_FP8_F16 ? M * N / 2 : M * N;

	memset(hC, 0, sizeof(hC));
	if (kind == EXT_INT) {
		int lim = 1 << bits;

		for (int i = 0; i < M * K; i++)
			hA[i] = (uint8_t)(rnd() % lim);
		for (int i = 0; i < K * N; i++)
			hB[i] = (uint8_t)(rnd() % lim);
		for (int i = 0; i < M * N; i++)
			hC[i] = (uint32_t)(mode ? ((rnd() & 1) ? 2147480000 :
					   -2147480000) :
				  (int)(rnd() % 200001) - 100000);
	} else {
		gen(mode, M, N, K, A, B, C, at == '5' ? 15 : 8);
		for (int i = 0; i < M * K; i++)
			hA[i] = fp8_code(A[i], at == '5');
		for (int i = 0; i < K * N; i++)
			hB[i] = fp8_code(B[i], bt == '5');
		for (int i = 0; i < M * N; i++) {
			if (kind == EXT_FP8) {
				float f = (float)C[i];

				memcpy(&hC[i], &f, 4);
			} else {
				__half h = __float2half((float)C[i]);
				uint16_t u;

				memcpy(&u, &h, 2);
				hC[i / 2] |= (uint32_t)u << (16 * (i & 1));
			}
		}
	}
	print_in('a', hA, M * K, 1);
	print_in('b', hB, K * N, 1);
	if (kind == EXT_FP8_F16)
		print_in('c', hC, nc * 2, 2);
	else
		print_in('c', hC, nc, 4);
	for (int k = 0; k < K; k++)
		for (int n = 0; n < N; n++)
			hT[n * K + k] = hB[k * N + n];
	ext_layout(&tab, M, K, bits, kind == EXT_FP8_F16);
	CK(cudaMalloc(&dA, sizeof(hA)));
	CK(cudaMalloc(&dB, sizeof(hT)));
	CK(cudaMalloc(&dC, sizeof(hC)));
	CK(cudaMalloc(&dD, sizeof(hD)));
	CK(cudaMalloc(&dt, sizeof(tab)));
	CK(cudaMemcpy(dA, hA, sizeof(hA), cudaMemcpyHostToDevice));
	CK(cudaMemcpy(dB, hT, sizeof(hT), cudaMemcpyHostToDevice));
	CK(cudaMemcpy(dC, hC, sizeof(hC), cudaMemcpyHostToDevice));
	CK(cudaMemcpy(dt, &tab, sizeof(tab), cudaMemcpyHostToDevice));
	kern<<<1, 32>>>(dA, dB, dC, dD, dt);
	CK(cudaGetLastError());
	CK(cudaMemcpy(hD, dD, sizeof(hD), cudaMemcpyDeviceToHost));
	if (kind == EXT_FP8_F16)
		print_hex(name, mode, hD, nc * 2, 2);
	else
		print_hex(name, mode, hD, nc, 4);
	CK(cudaFree(dA));
	CK(cudaFree(dB));
	CK(cudaFree(dC));
	CK(cudaFree(dD));
	CK(cudaFree(dt));
}

/* f64 m16n8k{4,8,16}: A regs 2, 4, 8; B 1, 2, 4; C and D 4. */
template <int K>
__global__ void ke_f64(const double *A, const double *B, const double *C,
		       double *D)
{
	int l = threadIdx.x, g = l >> 2, q = l & 3;
	double a[8], b[4], c[4], d[4];

	for (int i = 0; i < K / 2; i++)
		a[i] = A[(g + 8 * (i & 1)) * K + q + 4 * (i >> 1)];
	for (int i = 0; i < K / 4; i++)
		b[i] = B[(q + 4 * i) * 8 + g];
	for (int i = 0; i < 4; i++)
		c[i] = C[(g + 8 * (i >> 1)) * 8 + 2 * q + (i & 1)];
	if constexpr (K == 4)
		asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 "
			     "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
			     : "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3])
			     : "d"(a[0]), "d"(a[1]), "d"(b[0]), "d"(c[0]),
			       "d"(c[1]), "d"(c[2]), "d"(c[3]));
	else if constexpr (K == 8)
		asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 "
			     "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
			     "{%10,%11,%12,%13};"
			     : "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3])
			     : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]),
			       "d"(b[0]), "d"(b[1]), "d"(c[0]), "d"(c[1]),
			       "d"(c[2]), "d"(c[3]));
	else
		asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 "
			     "{%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, "
			     "{%12,%13,%14,%15}, {%16,%17,%18,%19};"
			     : "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3])
			     : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]),
			       "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]),
			       "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]),
			       "d"(c[0]), "d"(c[1]), "d"(c[2]), "d"(c[3]));
	for (int i = 0; i < 4; i++)
		D[(g + 8 * (i >> 1)) * 8 + 2 * q + (i & 1)] = d[i];
}

template <int K>
static void ext_f64(int mode)
{
	double A[16 * K], B[K * 8], C[128], hD[128];
	double *dA, *dB, *dC, *dD;
	char name[64];

	gen(mode, 16, 8, K, A, B, C, 1000);
	print_in('a', A, 16 * K, 8);
	print_in('b', B, K * 8, 8);
	print_in('c', C, 128, 8);
	CK(cudaMalloc(&dA, sizeof(A)));
	CK(cudaMalloc(&dB, sizeof(B)));
	CK(cudaMalloc(&dC, sizeof(C)));
	CK(cudaMalloc(&dD, sizeof(hD)));
	CK(cudaMemcpy(dA, A, sizeof(A), cudaMemcpyHostToDevice));
	CK(cudaMemcpy(dB, B, sizeof(B), cudaMemcpyHostToDevice));
	CK(cudaMemcpy(dC, C, sizeof(C), cudaMemcpyHostToDevice));
	ke_f64<K><<<1, 32>>>(dA, dB, dC, dD);
	CK(cudaGetLastError());
	CK(cudaMemcpy(hD, dD, sizeof(hD), cudaMemcpyDeviceToHost));
	snprintf(name, sizeof(name), "mma m16n8k%d f64", K);
	print_hex(name, mode, hD, 128, 8);
	CK(cudaFree(dA));
	CK(cudaFree(dB));
	CK(cudaFree(dC));
	CK(cudaFree(dD));
}

static void extended(void)
{
	rng_state = 0x243f6a8885a308d3ull;	/* its own stream */
	for (int mode = 0; mode <= 1; mode++) {
		ext_one("mma m16n8k32 s8.u8 s32 satf", ke_16832_s8u8, 16, 32,
			8, 's', 'u', EXT_INT, mode);
		ext_one("mma m16n8k32 u8.s8 s32", ke_16832_u8s8, 16, 32, 8,
			'u', 's', EXT_INT, mode);
		ext_one("mma m16n8k16 s8.u8 s32 satf", ke_16816_s8u8, 16, 16,
			8, 's', 'u', EXT_INT, mode);
		ext_one("mma m16n8k16 u8.s8 s32", ke_16816_u8s8, 16, 16, 8,
			'u', 's', EXT_INT, mode);
		ext_one("mma m8n8k16 u8.s8 s32 satf", ke_8816_u8s8, 8, 16, 8,
			'u', 's', EXT_INT, mode);
		ext_one("mma m16n8k64 s4.u4 s32 satf", ke_16864_s4u4, 16, 64,
			4, 's', 'u', EXT_INT, mode);
		ext_one("mma m16n8k64 u4.s4 s32", ke_16864_u4s4, 16, 64, 4,
			'u', 's', EXT_INT, mode);
		ext_one("mma m16n8k32 u4.s4 s32 satf", ke_16832_u4s4, 16, 32,
			4, 'u', 's', EXT_INT, mode);
		ext_one("mma m8n8k32 s4.u4 s32", ke_8832_s4u4, 8, 32, 4, 's',
			'u', EXT_INT, mode);
	}
	for (int mode = 0; mode <= 10; mode++) {
		ext_one("mma m16n8k32 e4m3 f32", ke_16832_e4m3, 16, 32, 8,
			'4', '4', EXT_FP8, mode);
		ext_one("mma m16n8k32 e5m2 f32", ke_16832_e5m2, 16, 32, 8,
			'5', '5', EXT_FP8, mode);
		ext_one("mma m16n8k32 e4m3.e5m2 f32", ke_16832_e4e5, 16, 32,
			8, '4', '5', EXT_FP8, mode);
		ext_one("mma m16n8k32 e5m2.e4m3 f32", ke_16832_e5e4, 16, 32,
			8, '5', '4', EXT_FP8, mode);
		ext_one("mma m16n8k16 e4m3 f32", ke_16816_e4m3, 16, 16, 8,
			'4', '4', EXT_FP8, mode);
		ext_one("mma m16n8k32 e4m3 f16", ke_16832_e4m3_f16, 16, 32, 8,
			'4', '4', EXT_FP8_F16, mode);
		ext_one("mma m16n8k32 e5m2 f16", ke_16832_e5m2_f16, 16, 32, 8,
			'5', '5', EXT_FP8_F16, mode);
		ext_f64<4>(mode);
		ext_f64<8>(mode);
		ext_f64<16>(mode);
	}
}

/* ---------------------------------------------------------------- */
/* F, Q, S: the fp8 adder, m8n8k4 and mma.sp (golden/probe_mma_qs...) */
/* ---------------------------------------------------------------- */

/* F: the fp8 kinds of part E with the adder-isolating modes 11-15. */
static void fp8_adder(void)
{
	rng_state = 0x452821e638d01377ull;
	for (int mode = 11; mode <= 15; mode++) {
		ext_one("mma m16n8k32 e4m3 f32", ke_16832_e4m3, 16, 32, 8,
			'4', '4', EXT_FP8, mode);
		ext_one("mma m16n8k32 e5m2 f32", ke_16832_e5m2, 16, 32, 8,
			'5', '5', EXT_FP8, mode);
		ext_one("mma m16n8k32 e4m3.e5m2 f32", ke_16832_e4e5, 16, 32,
			8, '4', '5', EXT_FP8, mode);
		ext_one("mma m16n8k32 e5m2.e4m3 f32", ke_16832_e5e4, 16, 32,
			8, '5', '4', EXT_FP8, mode);
		ext_one("mma m16n8k16 e4m3 f32", ke_16816_e4m3, 16, 16, 8,
			'4', '4', EXT_FP8, mode);
		ext_one("mma m16n8k32 e4m3 f16", ke_16832_e4m3_f16, 16, 32, 8,
			'4', '4', EXT_FP8_F16, mode);
		ext_one("mma m16n8k32 e5m2 f16", ke_16832_e5m2_f16, 16, 32, 8,
			'5', '5', EXT_FP8_F16, mode);
	}
}

/*
 * Q and S record registers, not matrices: each lane's input registers
 * (A, B, C and, for mma.sp, the metadata E) and its output registers, so
 * that the recording holds whatever layout the hardware uses; the tests
 * fit the PTX ISA's documented layouts to it.  Lines: "I r: " then for
 * each lane its RW_IN input words (a0-3 b0-3 c0-7 e), and "D name mode
 * M: " then for each lane its RW_OUT output words.
 */
#define RW_IN	17
#define RW_OUT	8

#define RAW_KERNEL(kname, ...)						\
	__global__ void kname(const uint32_t *in, uint32_t *out)	\
	{								\
		const uint32_t *r = in + threadIdx.x * RW_IN;		\
		uint32_t a[4], b[4], c[8], e = r[16], d[8] = {0};	\
		for (int i = 0; i < 4; i++) {				\
			a[i] = r[i];					\
			b[i] = r[4 + i];				\
		}							\
		for (int i = 0; i < 8; i++)				\
			c[i] = r[8 + i];				\
		asm volatile("" : : "r"(e));				\
		asm volatile(__VA_ARGS__);				\
		for (int i = 0; i < 8; i++)				\
			out[threadIdx.x * RW_OUT + i] = d[i];		\
	}
#define D8 "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]),		\
	   "=r"(d[4]), "=r"(d[5]), "=r"(d[6]), "=r"(d[7])
#define D4 "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
#define D2 "=r"(d[0]), "=r"(d[1])
#define C8 "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]),			\
	   "r"(c[4]), "r"(c[5]), "r"(c[6]), "r"(c[7])
#define C4 "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])
#define C2 "r"(c[0]), "r"(c[1])
#define A4 "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3])
#define A2 "r"(a[0]), "r"(a[1])
#define B4 "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3])
#define B2 "r"(b[0]), "r"(b[1])

/* m8n8k4 with f16 inputs: D f32 (8 regs) or f16 (4), C likewise. */
#define Q_FF(n, lay)							\
	RAW_KERNEL(n, "mma.sync.aligned.m8n8k4." lay ".f32.f16.f16.f32 " \
		   "{%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9}, {%10,%11}, "	\
		   "{%12,%13,%14,%15,%16,%17,%18,%19};"			\
		   : D8 : A2, B2, C8)
#define Q_HH(n, lay)							\
	RAW_KERNEL(n, "mma.sync.aligned.m8n8k4." lay ".f16.f16.f16.f16 " \
		   "{%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11};"	\
		   : D4 : A2, B2, C4)
Q_FF(kq_ff_rc, "row.col")
Q_FF(kq_ff_rr, "row.row")
Q_FF(kq_ff_cc, "col.col")
Q_FF(kq_ff_cr, "col.row")
Q_HH(kq_hh_rc, "row.col")
Q_HH(kq_hh_rr, "row.row")
Q_HH(kq_hh_cc, "col.col")
Q_HH(kq_hh_cr, "col.row")
RAW_KERNEL(kq_fh_rc, "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f16 "
	   "{%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9}, {%10,%11}, "
	   "{%12,%13,%14,%15};" : D8 : A2, B2, C4)
/* (D f16 with C f32 is not a valid m8n8k4: ptxas refuses it) */

/* mma.sp: A compressed (half of k), E the metadata, SEL the selector. */
#define SP_K16(n, t, sel)						\
	RAW_KERNEL(n, "mma.sp.sync.aligned.m16n8k16.row.col.f32." t "." t \
		   ".f32 {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, "		\
		   "{%8,%9,%10,%11}, %12, " #sel ";"			\
		   : D4 : A2, B2, C4, "r"(e))
#define SP_K32(n, t, sel)						\
	RAW_KERNEL(n, "mma.sp.sync.aligned.m16n8k32.row.col.f32." t "." t \
		   ".f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, " \
		   "{%12,%13,%14,%15}, %16, " #sel ";"			\
		   : D4 : A4, B4, C4, "r"(e))
SP_K16(ks_h16_0, "f16", 0)
SP_K16(ks_h16_1, "f16", 1)
SP_K16(ks_h16_2, "f16", 2)
SP_K16(ks_h16_3, "f16", 3)
SP_K32(ks_h32_0, "f16", 0)
SP_K32(ks_h32_1, "f16", 1)
SP_K16(ks_b16_0, "bf16", 0)
SP_K32(ks_b32_1, "bf16", 1)
RAW_KERNEL(ks_hh16_0, "mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 "
	   "{%0,%1}, {%2,%3}, {%4,%5}, {%6,%7}, %8, 0;"
	   : D2 : A2, B2, C2, "r"(e))
RAW_KERNEL(ks_hh32_1, "mma.sp.sync.aligned.m16n8k32.row.col.f16.f16.f16.f16 "
	   "{%0,%1}, {%2,%3,%4,%5}, {%6,%7,%8,%9}, {%10,%11}, %12, 1;"
	   : D2 : A4, B4, C2, "r"(e))
RAW_KERNEL(ks_s8_32_0, "mma.sp.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 "
	   "{%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11}, %12, 0;"
	   : D4 : A2, B2, C4, "r"(e))
RAW_KERNEL(ks_s8_32_1, "mma.sp.sync.aligned.m16n8k32.row.col.satfinite.s32."
	   "s8.u8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11}, "
	   "%12, 1;" : D4 : A2, B2, C4, "r"(e))
RAW_KERNEL(ks_s8_64_0, "mma.sp.sync.aligned.m16n8k64.row.col.s32.s8.s8.s32 "
	   "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, "
	   "{%12,%13,%14,%15}, %16, 0;" : D4 : A4, B4, C4, "r"(e))
RAW_KERNEL(ks_u8_64_0, "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row."
	   "col.s32.u8.u8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
	   "{%8,%9,%10,%11}, {%12,%13,%14,%15}, %16, 0;"
	   : D4 : A4, B4, C4, "r"(e))
RAW_KERNEL(ks_h16o_0, "mma.sp::ordered_metadata.sync.aligned.m16n8k16.row."
	   "col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, "
	   "{%8,%9,%10,%11}, %12, 0;" : D4 : A2, B2, C4, "r"(e))

enum raw_kind { RAW_F16, RAW_BF16, RAW_I8 };

/* One 16-bit input of mode @mode, as bits of f16 or bf16. */
static uint16_t raw16(int mode, enum raw_kind k)
{
	double x = draw(mode == 2 ? 7 : mode, 'a', k == RAW_F16 ? 15 : 127);

	if (k == RAW_BF16) {
		float f = (float)x;
		uint32_t u;

		memcpy(&u, &f, 4);
		return (uint16_t)((u + 0x7fff + ((u >> 16) & 1)) >> 16);
	}
	__half h = __float2half((float)x);
	uint16_t u;

	memcpy(&u, &h, 2);
	return u;
}

/* A valid 2:4 metadata nibble: two distinct indices, increasing. */
static uint32_t meta_nibble(void)
{
	static const uint8_t ok[6] = {0x4, 0x8, 0xc, 0x9, 0xd, 0xe};

	return ok[rnd() % 6];
}

/*
 * One raw record.  A, B: 16-bit elements (f16/bf16) or bytes; C: f32
 * (c_f16: f16 pairs) or s32; E: valid metadata nibbles everywhere.
 */
static void raw_one(const char *name, void (*kern)(const uint32_t *,
		    uint32_t *), enum raw_kind k, bool c_f16, int mode)
{
	uint32_t in[32 * RW_IN], out[32 * RW_OUT], *din, *dout;

	for (int l = 0; l < 32; l++) {
		uint32_t *r = in + l * RW_IN;

		for (int i = 0; i < 8; i++)
			r[i] = k == RAW_I8 ? rnd() :
			       raw16(mode, k) | (uint32_t)raw16(mode, k) << 16;
		for (int i = 0; i < 8; i++) {
			double x = draw(mode == 2 ? 7 : mode, 'c', 15);
			float f = (float)x;

			if (k == RAW_I8)
				r[8 + i] = mode ? ((rnd() & 1) ? 2147480000u :
					   (uint32_t)-2147480000) :
					   (uint32_t)((int)(rnd() % 200001) -
						      100000);
			else if (c_f16)
				r[8 + i] = raw16(mode, RAW_F16) |
					   (uint32_t)raw16(mode, RAW_F16) << 16;
			else
				memcpy(&r[8 + i], &f, 4);
		}
		r[16] = 0;
		for (int j = 0; j < 8; j++)
			r[16] |= meta_nibble() << (4 * j);
	}
	print_in('r', in, 32 * RW_IN, 4);
	CK(cudaMalloc(&din, sizeof(in)));
	CK(cudaMalloc(&dout, sizeof(out)));
	CK(cudaMemcpy(din, in, sizeof(in), cudaMemcpyHostToDevice));
	CK(cudaMemset(dout, 0, sizeof(out)));
	kern<<<1, 32>>>(din, dout);
	CK(cudaGetLastError());
	CK(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
	print_hex(name, mode, out, 32 * RW_OUT, 4);
	CK(cudaFree(din));
	CK(cudaFree(dout));
}

/* Q: m8n8k4 with f16 inputs (Volta's quad pairs), every layout. */
static void quad_pairs(void)
{
	rng_state = 0x13198a2e03707344ull;
	for (int mode = 0; mode <= 2; mode++) {
		raw_one("mma m8n8k4 row.col f32.f32", kq_ff_rc, RAW_F16,
			false, mode);
		raw_one("mma m8n8k4 row.row f32.f32", kq_ff_rr, RAW_F16,
			false, mode);
		raw_one("mma m8n8k4 col.col f32.f32", kq_ff_cc, RAW_F16,
			false, mode);
		raw_one("mma m8n8k4 col.row f32.f32", kq_ff_cr, RAW_F16,
			false, mode);
		raw_one("mma m8n8k4 row.col f16.f16", kq_hh_rc, RAW_F16,
			true, mode);
		raw_one("mma m8n8k4 row.row f16.f16", kq_hh_rr, RAW_F16,
			true, mode);
		raw_one("mma m8n8k4 col.col f16.f16", kq_hh_cc, RAW_F16,
			true, mode);
		raw_one("mma m8n8k4 col.row f16.f16", kq_hh_cr, RAW_F16,
			true, mode);
		raw_one("mma m8n8k4 row.col f32.f16", kq_fh_rc, RAW_F16,
			true, mode);
	}
}

/* S: mma.sp, f16/bf16/int8, every sparsity selector of some. */
static void sparse(void)
{
	rng_state = 0xa4093822299f31d0ull;
	for (int mode = 0; mode <= 2; mode++) {
		raw_one("mma.sp m16n8k16 f16 f32 sel 0", ks_h16_0, RAW_F16,
			false, mode);
		raw_one("mma.sp m16n8k16 f16 f32 sel 1", ks_h16_1, RAW_F16,
			false, mode);
		raw_one("mma.sp m16n8k16 f16 f32 sel 2", ks_h16_2, RAW_F16,
			false, mode);
		raw_one("mma.sp m16n8k16 f16 f32 sel 3", ks_h16_3, RAW_F16,
			false, mode);
		raw_one("mma.sp m16n8k32 f16 f32 sel 0", ks_h32_0, RAW_F16,
			false, mode);
		raw_one("mma.sp m16n8k32 f16 f32 sel 1", ks_h32_1, RAW_F16,
			false, mode);
		raw_one("mma.sp m16n8k16 bf16 f32 sel 0", ks_b16_0, RAW_BF16,
			false, mode);
		raw_one("mma.sp m16n8k32 bf16 f32 sel 1", ks_b32_1, RAW_BF16,
			false, mode);
		raw_one("mma.sp m16n8k16 f16 f16 sel 0", ks_hh16_0, RAW_F16,
			true, mode);
		raw_one("mma.sp m16n8k32 f16 f16 sel 1", ks_hh32_1, RAW_F16,
			true, mode);
		raw_one("mma.sp::ordered_metadata m16n8k16 f16 f32 sel 0",
			ks_h16o_0, RAW_F16, false, mode);
		if (mode == 2)
			continue;
		raw_one("mma.sp m16n8k32 s8 s32 sel 0", ks_s8_32_0, RAW_I8,
			false, mode);
		raw_one("mma.sp m16n8k32 s8.u8 s32 satf sel 1", ks_s8_32_1,
			RAW_I8, false, mode);
		raw_one("mma.sp m16n8k64 s8 s32 sel 0", ks_s8_64_0, RAW_I8,
			false, mode);
		raw_one("mma.sp::ordered_metadata m16n8k64 u8 s32 sel 0",
			ks_u8_64_0, RAW_I8, false, mode);
	}
}

int main(int argc, char **argv)
{
	cudaDeviceProp p;

	CK(cudaGetDeviceProperties(&p, 0));
	printf("%s\n", p.name);
	rng_state = 0x9e3779b97f4a7c15ull;
	if (argc < 2 || strchr(argv[1], 'L'))
		layouts();
	if (argc < 2 || strchr(argv[1], 'D'))
		arithmetic();
	if (argc < 2 || strchr(argv[1], 'X'))
		matrix_moves();
	/* not in the default run: golden/probe_mma_ext.h100.txt */
	if (argc >= 2 && strchr(argv[1], 'E'))
		extended();
	/* nor these: golden/probe_mma_qs.h100.txt */
	if (argc >= 2 && strchr(argv[1], 'F'))
		fp8_adder();
	if (argc >= 2 && strchr(argv[1], 'Q'))
		quad_pairs();
	if (argc >= 2 && strchr(argv[1], 'S'))
		sparse();
	CK(cudaDeviceSynchronize());
	return 0;
}
