// SPDX-License-Identifier: GPL-2.0
// Shared-memory tiled matrix multiply C = A * B (row-major), TILE x TILE
// blocks with __syncthreads between the load and compute phases.  Sizes
// need not be multiples of the tile.
#define TILE 16

extern "C" __global__ void matmul(const float *A, const float *B, float *C,
				  int M, int N, int K)
{
	__shared__ float As[TILE][TILE];
	__shared__ float Bs[TILE][TILE];
	int row = blockIdx.y * TILE + threadIdx.y;
	int col = blockIdx.x * TILE + threadIdx.x;
	float acc = 0.0f;

	for (int t = 0; t < (K + TILE - 1) / TILE; t++) {
		int ka = t * TILE + threadIdx.x, kb = t * TILE + threadIdx.y;

		As[threadIdx.y][threadIdx.x] = row < M && ka < K ? A[row * K + ka] : 0.0f;
		Bs[threadIdx.y][threadIdx.x] = kb < K && col < N ? B[kb * N + col] : 0.0f;
		__syncthreads();
		for (int k = 0; k < TILE; k++)
			acc = fmaf(As[threadIdx.y][k], Bs[k][threadIdx.x], acc);
		__syncthreads();
	}
	if (row < M && col < N)
		C[row * N + col] = acc;
}
