// Data movement in every state space, atomics, barriers and fences.
#include <cstdint>

__constant__ float coeffs[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
__constant__ int table[4];
__device__ int counter;
__device__ float grid_data[64] = { 1.5f, 2.5f };
__device__ int *counter_ptr = &counter;
__device__ float *grid_ptrs[2] = { grid_data, grid_data + 8 };

struct Big { int a[5]; double d; char c; };

__global__ void spaces(float4 *o, const float4 *__restrict__ in, Big big, int n)
{
	__shared__ float4 tile[64];
	__shared__ double dtile[32];
	int local[24];
	int t = threadIdx.x;

	tile[t] = in[t];
	dtile[t & 31] = big.d * t;
	for (int k = 0; k < 24; k++)
		local[k] = big.a[k % 5] + k * t;
	__syncthreads();
	float4 v = tile[(t + 1) & 63];
	v.x += coeffs[t & 7] + table[t & 3] + grid_data[t & 63] + *grid_ptrs[t & 1];
	v.y += local[n % 24] + (float)dtile[(t + 3) & 31] + big.c;
	v.z += __ldg(&in[t].z);
	o[t] = v;
	*counter_ptr += 1;
}

__global__ void atomics(int *i32, unsigned *u32, unsigned long long *u64,
			float *f32, double *f64, long long *s64)
{
	__shared__ int sh[4];
	__shared__ unsigned long long sh64;
	int t = threadIdx.x;

	if (t == 0) {
		sh[0] = 0; sh[1] = 0; sh[2] = 0; sh[3] = -1; sh64 = 0;
	}
	__syncthreads();
	atomicAdd(&sh[0], t);
	atomicMax(&sh[1], t);
	atomicMin(&sh[2], -t);
	atomicAnd(&sh[3], ~(1 << (t & 31)));
	atomicAdd(&sh64, (unsigned long long)t);
	__syncthreads();
	int old = atomicAdd(&i32[0], 1);
	atomicSub(&i32[1], 2);
	atomicExch(&i32[2], t);
	atomicMin(&i32[3], t);
	atomicMax(&i32[4], t);
	atomicInc(&u32[0], 17);
	atomicDec(&u32[1], 17);
	atomicCAS(&i32[5], t, t + 1);
	atomicAnd(&u32[2], 0xf0f0);
	atomicOr(&u32[3], 1u << (t & 31));
	atomicXor(&u32[4], t);
	atomicAdd(&u64[0], 3ull);
	atomicCAS(&u64[1], 0ull, (unsigned long long)t);
	atomicExch(&u64[2], (unsigned long long)t);
	atomicMin(&s64[0], (long long)t);
	atomicMax(&u64[3], (unsigned long long)t);
	atomicAnd(&u64[4], 7ull);
	atomicAdd(&f32[0], 1.5f);
	atomicExch(&f32[1], 2.5f);
	atomicAdd(&f64[0], 0.25);
	i32[6 + (t & 3)] = sh[t & 3] + old + (int)sh64;
	__threadfence();
	__threadfence_block();
	__threadfence_system();
	int c = __syncthreads_count(t & 1);
	int a = __syncthreads_and(t < 1000);
	int r = __syncthreads_or(t == 3);
	i32[10] = c + a + r;
	volatile int *vp = i32;
	vp[11] = vp[12] + 1;
}

__global__ void dynamic_shared(float *o, int n)
{
	extern __shared__ float dyn[];
	dyn[threadIdx.x] = (float)threadIdx.x;
	__syncthreads();
	o[threadIdx.x] = dyn[(threadIdx.x + 1) % n];
}
