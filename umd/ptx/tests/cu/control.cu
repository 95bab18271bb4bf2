// Control flow, calls, recursion, local memory, warp-level operations,
// special registers, printf and assert, launch-bounds metadata.
#include <cstdio>
#include <cassert>
#include <cooperative_groups.h>

__device__ __noinline__ int ackermann(int m, int n)
{
	if (m == 0)
		return n + 1;
	if (n == 0)
		return ackermann(m - 1, 1);
	return ackermann(m - 1, ackermann(m, n - 1));
}

__device__ __noinline__ float4 make4(float a, int b, double c)
{
	float4 r = { a, (float)b, (float)c, a * b };
	return r;
}

struct Pair { long long a; int b; };

__device__ __noinline__ Pair swap_pair(Pair p, int *scratch)
{
	int arr[9];
	for (int i = 0; i < 9; i++)
		arr[i] = scratch[i] * p.b;
	Pair q = { p.b + arr[p.b % 9], (int)p.a };
	return q;
}

__global__ void __launch_bounds__(256, 2) flow(int *o, const int *in, int n)
{
	int t = threadIdx.x + blockIdx.x * blockDim.x;
	int acc = 0;

	for (int i = 0; i < n; i++) {
		if (in[i] == t)
			break;
		if (in[i] & 1)
			continue;
		acc += in[i];
	}
	if (t > 1000)
		return;
	switch (in[t] & 3) {
	case 0: acc *= 3; break;
	case 1: acc -= 7; break;
	case 2: acc ^= 0x55; break;
	default: acc = ackermann(1, acc & 3);
	}
	float4 f = make4(1.5f, acc, 2.5);
	int scratch[9];
	for (int i = 0; i < 9; i++)
		scratch[i] = in[i] + t;
	Pair p = { acc, t };
	Pair q = swap_pair(p, scratch);
	o[t] = acc + (int)f.w + (int)q.a + q.b;
	if (in[0] == -12345)
		asm volatile("trap;");
	if (in[0] == -54321)
		asm volatile("brkpt;");
}

__global__ void warp_ops(unsigned *o, const int *in)
{
	int t = threadIdx.x;
	int v = in[t];
	unsigned mask = __activemask();
	int s = __shfl_sync(mask, v, 3);
	s += __shfl_up_sync(0xffffffff, v, 1);
	s += __shfl_down_sync(0xffffffff, v, 2, 16);
	s += __shfl_xor_sync(0xffffffff, v, 4);
	unsigned b = __ballot_sync(0xffffffff, v > 0);
	int all = __all_sync(0xffffffff, v > 0);
	int any = __any_sync(0xffffffff, v < 0);
	int uni = __uni_sync(0xffffffff, v);
	unsigned m = __match_any_sync(0xffffffff, v);
	int pred;
	unsigned ma = __match_all_sync(0xffffffff, v, &pred);
	__syncwarp();
	if (t & 1)
		__syncwarp(0x55555555);
	unsigned lm;
	asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lm));
	unsigned lane, warp, sm;
	asm("mov.u32 %0, %%laneid;" : "=r"(lane));
	asm("mov.u32 %0, %%warpid;" : "=r"(warp));
	asm("mov.u32 %0, %%smid;" : "=r"(sm));
	unsigned dyn;
	asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dyn));
	long long c0 = clock64();
	unsigned c1 = clock();
	unsigned long long gt;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(gt));
	o[t] = s + b + all + any + uni + m + ma + pred + lm + lane + warp + sm + dyn +
	       (unsigned)(c0 & 1) + (c1 & 1) + (unsigned)(gt & 1) + gridDim.x + blockDim.y +
	       blockIdx.z + threadIdx.y;
#if __CUDA_ARCH__ >= 800
	o[t] += __reduce_add_sync(0xffffffff, (unsigned)v) + __reduce_max_sync(0xffffffff, v) +
		__reduce_or_sync(0xffffffff, (unsigned)v);
#endif
	__nanosleep(100);
}

__global__ void messages(const int *in)
{
	int t = threadIdx.x;
	if (in[t] > 5)
		printf("thread %d sees %d (%f, %s, %lld, %c)\n", t, in[t], 1.5 * t, "str", (long long)t << 40, 'x');
	assert(in[t] != 42);
}

__global__ void __launch_bounds__(128) bounded(int *o) { o[threadIdx.x] = threadIdx.x; }
