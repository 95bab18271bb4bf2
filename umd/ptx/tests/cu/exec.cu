// Kernels that test_ptx_exec runs on the execution core and checks against
// a CPU reference: each one exercises code the compiler has to lower with
// care (calls and frames, carry chains, register splitting, divergence).
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_pipeline.h>

struct S { int a[3]; double d; };

__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__device__ __noinline__ S bump(S s, int k)
{
	S r = s;
	r.a[k % 3] += k;
	r.d *= 2;
	return r;
}

// Calls: recursion, a struct passed and returned by value, a local array
// indexed at run time.
extern "C" __global__ void exec_calls(int *o, const int *in, S s, int n)
{
	int t = threadIdx.x + blockIdx.x * blockDim.x;
	int loc[16];

	for (int i = 0; i < 16; i++)
		loc[i] = in[(t + i) % n] * i;
	int acc = loc[in[t] & 15];
	if (t & 1)
		acc += fib(t % 12);
	else
		acc -= 3;
	S r = bump(s, t);
	o[t] = acc + r.a[0] + r.a[1] + r.a[2] + (int)r.d;
}

// Bits: 64-bit high multiply (mad.cc chains), double split into halves,
// bit-manipulation intrinsics, half-precision rounding.
extern "C" __global__ void exec_bits(unsigned *o, const int *in)
{
	int t = threadIdx.x + blockIdx.x * blockDim.x;
	unsigned long long x = (unsigned long long)in[t] * 0x9E3779B97F4A7C15ull;
	unsigned long long h = __umul64hi(x, 0x123456789ABCDEFull);
	double d = (double)in[t] * 1.5;
	unsigned u = (unsigned)in[t] * 2654435761u;

	o[8 * t + 0] = (unsigned)h ^ (unsigned)(h >> 32);
	o[8 * t + 1] = (unsigned)__double2hiint(d) ^ (unsigned)__double2loint(d);
	o[8 * t + 2] = __brev(u) + __popc(u) + __clz(u);
	o[8 * t + 3] = __byte_perm(u, ~u, 0x7531);
	o[8 * t + 4] = __funnelshift_l(u, ~u, t) ^ __funnelshift_r(u, u >> 3, t);
	o[8 * t + 5] = (u >> (t % 7)) & 0x3ff;
	o[8 * t + 6] = (unsigned)(int)(__half2float(__float2half((float)in[t] / 7.0f)) * 1000.0f);
	o[8 * t + 7] = (unsigned)((long long)in[t] * -3 / 7) + (u % 13u);
}

// Divergence: a loop with break and continue, an early return, a call on
// one side of a branch, then a warp-wide shuffle reduction of the result.
__device__ __noinline__ int side(int v) { return v * 7 + 1; }

extern "C" __global__ void exec_diverge(int *o, const int *in, int n)
{
	int t = threadIdx.x;
	int acc = 0;

	for (int i = 0; i < n; i++) {
		if (in[i] % 5 == t % 5)
			break;
		if (in[i] & 1)
			continue;
		acc += in[i];
	}
	if (t % 3 == 0)
		acc = side(acc);
	for (int off = 16; off > 0; off /= 2)
		acc += __shfl_down_sync(0xffffffff, acc, off);
	if (t % 32 == 0)
		o[t / 32] = acc;
	if (t >= 48)
		return;
	o[8 + t] = __ballot_sync(0xffffffff >> (t >= 32 ? 16 : 0), in[t] > 50);
}

// Dynamic shared memory, shared and global atomics, printf.
extern "C" __global__ void exec_hist(int *hist, const int *in, int n)
{
	extern __shared__ int sh[];
	int t = threadIdx.x;

	if (t < 16)
		sh[t] = 0;
	__syncthreads();
	for (int i = t; i < n; i += blockDim.x)
		atomicAdd(&sh[in[i] & 15], 1);
	__syncthreads();
	if (t < 16)
		atomicAdd(&hist[t], sh[t]);
	if (t == 0)
		printf("block %d: %d %.2f\n", blockIdx.x, sh[0], 0.5);
}

// Indirect calls: a table of function pointers and a virtual function.
typedef int (*binop)(int, int);
__device__ __noinline__ int op_add(int a, int b) { return a + b; }
__device__ __noinline__ int op_mul(int a, int b) { return a * b; }
__device__ binop op_table[2] = { op_add, op_mul };

struct Shape {
	__device__ virtual int area(int x) { return x + 1; }
};
struct Square : Shape {
	__device__ int area(int x) override { return x * x; }
};

extern "C" __global__ void exec_indirect(int *o, const int *in)
{
	int t = threadIdx.x;
	binop f = op_table[in[t] & 1];
	Square sq;
	Shape sh;
	Shape *s = (t & 2) ? (Shape *)&sq : &sh;

	o[t] = f(t, 3) + s->area(in[t] % 10);
}

// SIMD on 16-bit halves (sm_90 PTX uses add.u16x2 / max.s16x2 for these).
extern "C" __global__ void exec_simd(unsigned *o, const int *in)
{
	int t = threadIdx.x;
	unsigned a = (unsigned)in[t] * 0x9E3779B9u, b = (unsigned)in[t + 1] * 0x85EBCA6Bu;

	o[3 * t + 0] = __vadd2(a, b);
	o[3 * t + 1] = __vsub2(a, b);
	o[3 * t + 2] = __vmaxs2(a, b) ^ __vminu2(a, b);
}

// Asynchronous copies to shared memory (cp.async in sm_90 PTX), including
// the zero-filling form.
extern "C" __global__ void exec_async(int *o, const int4 *in)
{
	__shared__ int4 tile[64];
	__shared__ int words[64];
	int t = threadIdx.x;

	__pipeline_memcpy_async(&tile[t], &in[t], sizeof(int4));
	__pipeline_memcpy_async(&words[t], (const int *)in + 3 * t, sizeof(int),
				(t & 1) ? 0 : sizeof(int));
	__pipeline_commit();
	__pipeline_wait_prior(0);
	__syncthreads();
	o[t] = tile[63 - t].x + tile[t].w + words[(t + 1) & 63];
}

// bmsk (CUB's radix sort writes it as inline asm), at the edge values.
extern "C" __global__ void exec_bmsk(unsigned *o)
{
	unsigned a = threadIdx.x % 40, b = threadIdx.x / 40 * 5, r, w;

	asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
	asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(w) : "r"(a), "r"(b));
	o[2 * threadIdx.x] = r;
	o[2 * threadIdx.x + 1] = w;
}

// Instructions whose lowering is a single vISA instruction with an unusual
// operand layout (selection, predicates as values, block reductions,
// warp matching, permutations), written as inline PTX so that every one
// appears whatever nvcc would choose.
extern "C" __global__ void exec_misc(unsigned *o, const int *in)
{
	__shared__ int sh;
	int t = threadIdx.x, v = in[t];
	float f = (float)(v - 50) / 8.0f;
	unsigned r[12];

	asm("set.lt.u32.f32 %0, %1, 0f00000000;" : "=r"(r[0]) : "f"(f));
	asm("{ .reg .f32 x; set.gt.f32.s32 x, %1, 49; mov.b32 %0, x; }"
	    : "=r"(r[1]) : "r"(v));
	asm("slct.s32.s32 %0, %1, %2, %3;" : "=r"(r[2]) : "r"(v), "r"(-v), "r"(v - 50));
	asm("{ .reg .pred p; testp.finite.f32 p, %1; selp.u32 %0, 7, 9, p; }"
	    : "=r"(r[3]) : "f"(f / (float)(v % 3)));
	asm("{ .reg .f32 x; copysign.f32 x, %1, 0f40400000; mov.b32 %0, x; }"
	    : "=r"(r[4]) : "f"(f));
	asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(r[5]) : "r"(v * 0x01010101), "r"(~v), "r"(t));
	asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r[6]) : "r"(v), "r"(t), "r"(v * t));
	r[7] = __match_any_sync(0xffffffff, v % 4);
	int pred;
	r[8] = __match_all_sync(0xffffffff, v / 1000, &pred) + pred;
	r[9] = __isShared(&sh) + 2 * __isGlobal(in) + 4 * __isShared(in);
	r[10] = __syncthreads_count(v & 1) + (__syncthreads_and(v < 100) << 8) +
		(__syncthreads_or(v == 42) << 9);
	r[11] = __sad(v, 37, 5) + __mul24(v, -3) + __fns(0xf0f0f0f0u, t, 3);
	for (int i = 0; i < 12; i++)
		o[12 * t + i] = r[i];
	atomicAdd(&o[12 * 64], 1u);	/* result unused: red.global.add */
}

// Vector atomics (atom.global.add.v4.f32 in sm_90 PTX; scalar before).
extern "C" __global__ void exec_vatomic(float4 *acc, float2 *acc2, const int *in)
{
	int t = threadIdx.x;
	float x = (float)(in[t] % 8);
	float4 v = { x, 2.0f * x, 1.0f, -x };
	float2 w = { 0.5f, x };

#if __CUDA_ARCH__ >= 900
	atomicAdd(acc, v);
	atomicAdd(acc2, w);
#else
	atomicAdd(&acc->x, v.x);
	atomicAdd(&acc->y, v.y);
	atomicAdd(&acc->z, v.z);
	atomicAdd(&acc->w, v.w);
	atomicAdd(&acc2->x, w.x);
	atomicAdd(&acc2->y, w.y);
#endif
}
