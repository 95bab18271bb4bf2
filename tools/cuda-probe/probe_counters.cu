// SPDX-License-Identifier: GPL-2.0
//
// probe_counters: reference kernels whose memory counters are a function
// of their addresses alone (global requests and 32-byte sectors, shared
// wavefronts and bank conflicts, local requests and sectors), launched
// once each in a fixed order.  Recorded on an H100 with Nsight Compute
// (tests/golden/probe_counters.h100.csv, command in tools/cuda-probe/README.md);
// vGPU's counters for the same launches must be equal (test_prof_counters).
//
// Every kernel does one access per thread and source line, so that the
// PTX instruction and the SASS instruction are the same access (checked in
// golden/probe_counters.h100.sass-memory.txt).
//
// Build: nvcc -cudart shared -arch=sm_90 -gencode arch=compute_90,code=sm_90
//        -gencode arch=compute_90,code=compute_90 -o probe_counters probe_counters.cu
#include <cstdio>
#include <cstdlib>

#define N 8192			/* threads of the global kernels */
#define BLK 256

extern "C" __global__ void ld_f32_stride(float *out, const float *in, int s)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	out[i] = in[(size_t)i * s];
}

extern "C" __global__ void st_f32_stride(float *out, const float *in, int s)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	out[(size_t)i * s] = in[i];
}

extern "C" __global__ void copy_f32_offset(float *out, const float *in,
					   int off, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x + off;

	if (i < n)
		out[i] = in[i];
}

extern "C" __global__ void ld_f64_stride(double *out, const double *in, int s)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	out[i] = in[(size_t)i * s];
}

extern "C" __global__ void copy_f64_offset(double *out, const double *in,
					   int off, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x + off;

	if (i < n)
		out[i] = in[i];
}

extern "C" __global__ void copy_u8_stride(unsigned char *out,
					  const unsigned char *in, int s)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	out[i] = in[(size_t)i * s];
}

extern "C" __global__ void copy_u8_offset(unsigned char *out,
					  const unsigned char *in, int off)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x + off;

	out[i] = in[i];
}

extern "C" __global__ void copy_f32x2_stride(float2 *out, const float2 *in,
					     int s)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	out[i] = in[(size_t)i * s];
}

extern "C" __global__ void copy_f32x4_stride(float4 *out, const float4 *in,
					     int s)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	out[i] = in[(size_t)i * s];
}

/* every lane of a block reads one word, and lanes read words 17 apart */
extern "C" __global__ void ld_f32_bcast_perm(float *out, const float *in)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float a = in[blockIdx.x];
	float b = in[(i * 17) % N];

	out[i] = a + b;
}

/* shared memory: each thread stores word t*s, then reads word (t+1)*s of
 * its warp's neighbour (the same conflicts, no store-to-load forwarding) */
extern "C" __global__ void smem_f32_stride(float *out, int s)
{
	__shared__ float sh[64 * 33 + 64];
	int t = threadIdx.x;
	int u = (t & ~31) | ((t + 1) & 31);

	sh[t * s] = (float)t;
	__syncthreads();
	out[blockIdx.x * blockDim.x + t] = sh[u * s];
}

extern "C" __global__ void smem_f64_stride(double *out, int s)
{
	__shared__ double sh[64 * 17 + 64];
	int t = threadIdx.x;
	int u = (t & ~31) | ((t + 1) & 31);

	sh[t * s] = (double)t;
	__syncthreads();
	out[blockIdx.x * blockDim.x + t] = sh[u * s];
}

extern "C" __global__ void smem_u8_stride(unsigned char *out, int s)
{
	__shared__ unsigned char sh[64 * 132];
	int t = threadIdx.x;
	int u = (t & ~31) | ((t + 1) & 31);

	sh[t * s] = (unsigned char)t;
	__syncthreads();
	out[blockIdx.x * blockDim.x + t] = sh[u * s];
}

extern "C" __global__ void smem_f32x4_stride(float4 *out, int s)
{
	__shared__ float4 sh[64 * 9 + 64];
	int t = threadIdx.x;
	int u = (t & ~31) | ((t + 1) & 31);

	sh[t * s] = make_float4(t, t + 1, t + 2, t + 3);
	__syncthreads();
	out[blockIdx.x * blockDim.x + t] = sh[u * s];
}

/* broadcasts: all lanes one word, four lanes per word, bytes of a word */
extern "C" __global__ void smem_bcast(float *out)
{
	__shared__ float sh[64];
	__shared__ unsigned char b[64];
	int t = threadIdx.x;

	sh[t] = (float)t;
	b[t] = (unsigned char)t;
	__syncthreads();
	out[blockIdx.x * blockDim.x + t] = sh[0] + sh[t / 4] + b[(t + 1) & 63];
}

#define TILE 32
#define ROWS 8
#define DIM 256

extern "C" __global__ void transpose_naive(float *out, const float *in)
{
	int x = blockIdx.x * TILE + threadIdx.x;
	int y = blockIdx.y * TILE + threadIdx.y;

	for (int j = 0; j < TILE; j += ROWS)
		out[x * DIM + (y + j)] = in[(y + j) * DIM + x];
}

extern "C" __global__ void transpose_tiled(float *out, const float *in)
{
	__shared__ float tile[TILE][TILE];
	int x = blockIdx.x * TILE + threadIdx.x;
	int y = blockIdx.y * TILE + threadIdx.y;

	for (int j = 0; j < TILE; j += ROWS)
		tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * DIM + x];
	__syncthreads();
	x = blockIdx.y * TILE + threadIdx.x;
	y = blockIdx.x * TILE + threadIdx.y;
	for (int j = 0; j < TILE; j += ROWS)
		out[(y + j) * DIM + x] = tile[threadIdx.x][threadIdx.y + j];
}

extern "C" __global__ void transpose_padded(float *out, const float *in)
{
	__shared__ float tile[TILE][TILE + 1];
	int x = blockIdx.x * TILE + threadIdx.x;
	int y = blockIdx.y * TILE + threadIdx.y;

	for (int j = 0; j < TILE; j += ROWS)
		tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * DIM + x];
	__syncthreads();
	x = blockIdx.y * TILE + threadIdx.x;
	y = blockIdx.x * TILE + threadIdx.y;
	for (int j = 0; j < TILE; j += ROWS)
		out[(y + j) * DIM + x] = tile[threadIdx.x][threadIdx.y + j];
}

/* a per-thread array indexed by data: local memory */
extern "C" __global__ void local_array(float *out, const int *idx)
{
	float a[32];
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	for (int k = 0; k < 32; k++)
		a[k] = (float)(k * threadIdx.x);
	out[i] = a[idx[i] & 31];
}

static void check(cudaError_t e, const char *what)
{
	if (e != cudaSuccess) {
		printf("probe: %s: %s\n", what, cudaGetErrorString(e));
		exit(1);
	}
}

static int launches;

/* one line per launch, in order: the test pairs them with the CSV's IDs */
static void done(const char *what)
{
	check(cudaDeviceSynchronize(), what);
	printf("probe: launch %d %s\n", launches++, what);
}

int main(void)
{
	void *in, *out;
	int *idx, h_idx[N];
	char what[64];
	const size_t big = (size_t)N * 32 * 16;	/* stride 32 of float4 */
	static const int strides[] = { 1, 2, 4, 8, 32 };

	check(cudaMalloc(&in, big), "cudaMalloc");
	check(cudaMalloc(&out, big), "cudaMalloc");
	check(cudaMalloc((void **)&idx, sizeof(h_idx)), "cudaMalloc");
	check(cudaMemset(in, 1, big), "cudaMemset");
	for (int i = 0; i < N; i++)
		h_idx[i] = (i * 7) % 32;
	check(cudaMemcpy(idx, h_idx, sizeof(h_idx), cudaMemcpyHostToDevice),
	      "cudaMemcpy");

	for (int k = 0; k < 5; k++) {
		int s = strides[k];

		ld_f32_stride<<<N / BLK, BLK>>>((float *)out, (float *)in, s);
		snprintf(what, sizeof(what), "ld_f32_stride s=%d", s);
		done(what);
		st_f32_stride<<<N / BLK, BLK>>>((float *)out, (float *)in, s);
		snprintf(what, sizeof(what), "st_f32_stride s=%d", s);
		done(what);
		ld_f64_stride<<<N / BLK, BLK>>>((double *)out, (double *)in, s);
		snprintf(what, sizeof(what), "ld_f64_stride s=%d", s);
		done(what);
		copy_u8_stride<<<N / BLK, BLK>>>((unsigned char *)out,
						 (unsigned char *)in, s);
		snprintf(what, sizeof(what), "copy_u8_stride s=%d", s);
		done(what);
		copy_f32x2_stride<<<N / BLK, BLK>>>((float2 *)out,
						    (float2 *)in, s);
		snprintf(what, sizeof(what), "copy_f32x2_stride s=%d", s);
		done(what);
		copy_f32x4_stride<<<N / BLK, BLK>>>((float4 *)out,
						    (float4 *)in, s);
		snprintf(what, sizeof(what), "copy_f32x4_stride s=%d", s);
		done(what);
	}
	static const int offs[] = { 0, 1, 2, 7, 8, 16, 32 };
	for (int k = 0; k < 7; k++) {
		int o = offs[k];

		/* n - 3: the last warp is partly masked off */
		copy_f32_offset<<<N / BLK, BLK>>>((float *)out, (float *)in,
						  o, N - 3);
		snprintf(what, sizeof(what), "copy_f32_offset o=%d", o);
		done(what);
		copy_f64_offset<<<N / BLK, BLK>>>((double *)out, (double *)in,
						  o, N - 3);
		snprintf(what, sizeof(what), "copy_f64_offset o=%d", o);
		done(what);
		copy_u8_offset<<<N / BLK, BLK>>>((unsigned char *)out,
						 (unsigned char *)in, o);
		snprintf(what, sizeof(what), "copy_u8_offset o=%d", o);
		done(what);
	}
	ld_f32_bcast_perm<<<N / BLK, BLK>>>((float *)out, (float *)in);
	done("ld_f32_bcast_perm");

	static const int sstr[] = { 1, 2, 3, 4, 8, 16, 32, 33 };
	for (int k = 0; k < 8; k++) {
		int s = sstr[k];

		smem_f32_stride<<<4, 64>>>((float *)out, s);
		snprintf(what, sizeof(what), "smem_f32_stride s=%d", s);
		done(what);
		if (s <= 17) {
			smem_f64_stride<<<4, 64>>>((double *)out, s);
			snprintf(what, sizeof(what), "smem_f64_stride s=%d", s);
			done(what);
		}
		smem_u8_stride<<<4, 64>>>((unsigned char *)out, s * 4);
		snprintf(what, sizeof(what), "smem_u8_stride s=%d", s * 4);
		done(what);
		if (s <= 9) {
			smem_u8_stride<<<4, 64>>>((unsigned char *)out, s);
			snprintf(what, sizeof(what), "smem_u8_stride s=%d", s);
			done(what);
			smem_f32x4_stride<<<4, 64>>>((float4 *)out, s);
			snprintf(what, sizeof(what), "smem_f32x4_stride s=%d",
				 s);
			done(what);
		}
	}
	smem_bcast<<<4, 64>>>((float *)out);
	done("smem_bcast");

	dim3 grid(DIM / TILE, DIM / TILE), block(TILE, ROWS);

	transpose_naive<<<grid, block>>>((float *)out, (float *)in);
	done("transpose_naive");
	transpose_tiled<<<grid, block>>>((float *)out, (float *)in);
	done("transpose_tiled");
	transpose_padded<<<grid, block>>>((float *)out, (float *)in);
	done("transpose_padded");
	local_array<<<N / BLK, BLK>>>((float *)out, idx);
	done("local_array");
	return 0;
}
