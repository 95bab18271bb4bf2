// SPDX-License-Identifier: GPL-2.0
/*
 * probe_mufu: the H100's answers of the PTX .approx functions (the MUFU
 * unit and what ptxas wraps around it) for every one of the 2^32 f32
 * input patterns.  The table itself would be 16 GiB per function, so
 * what is recorded is, per function,
 *
 *   - 256 range hashes: inputs whose top 8 bits are r (sign and the top
 *     7 exponent bits) hash to H[r] = sum over x of mix(x << 32 | f(x))
 *     (mod 2^64, mix = splitmix64's finalizer): order does not matter,
 *     so the device sums with atomics and a host model can be checked
 *     range by range, and a difference located to a range;
 *   - the whole-range hash (the sum of the 256);
 *   - exact values: 1024 inputs spread over all patterns (x = i *
 *     2654435761) and 512 consecutive ones from 1.0f (0x3f800000), for
 *     fitting a model.
 *
 * Output lines: "hash OP RANGE HEX", "total OP HEX", "value OP X Y".
 *
 * Build: nvcc -arch=sm_90 -O2 -o probe_mufu probe_mufu.cu
 */
#include <cstdint>
#include <cstdio>
#include <cstring>

__host__ __device__ static inline uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

#define OPS(X) \
	X(0, "sin.approx.f32") X(1, "sin.approx.ftz.f32") \
	X(2, "cos.approx.f32") X(3, "cos.approx.ftz.f32") \
	X(4, "ex2.approx.f32") X(5, "ex2.approx.ftz.f32") \
	X(6, "lg2.approx.f32") X(7, "lg2.approx.ftz.f32") \
	X(8, "rcp.approx.f32") X(9, "rcp.approx.ftz.f32") \
	X(10, "rsqrt.approx.f32") X(11, "rsqrt.approx.ftz.f32") \
	X(12, "sqrt.approx.f32") X(13, "sqrt.approx.ftz.f32") \
	X(14, "tanh.approx.f32")

static const char *const op_names[] = {
#define NAME(i, s) s,
	OPS(NAME)
#undef NAME
};
#define NUM_OPS ((int)(sizeof(op_names) / sizeof(op_names[0])))

template <int OP> __device__ static inline float apply(float x)
{
	float y;

#define CASE(i, s) if (OP == i) asm volatile(s " %0, %1;" : "=f"(y) : "f"(x));
	OPS(CASE)
#undef CASE
	return y;
}

#define PER_THREAD 64u

/* Thread t hashes inputs t * 64 .. t * 64 + 63; a warp's 2048 inputs lie
 * in one range of 2^24. */
template <int OP> __global__ void hash_all(unsigned long long *sums)
{
	uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
	uint32_t x0 = t * PER_THREAD;
	uint64_t h = 0;

	for (uint32_t k = 0; k < PER_THREAD; k++) {
		uint32_t x = x0 + k;
		float y = apply<OP>(__uint_as_float(x));

		h += mix64(((uint64_t)x << 32) | __float_as_uint(y));
	}
	for (int o = 16; o; o >>= 1)
		h += __shfl_xor_sync(0xffffffffu, h, o);
	if ((threadIdx.x & 31) == 0)
		atomicAdd(&sums[x0 >> 24], (unsigned long long)h);
}

#define SAMPLES 1536

template <int OP> __global__ void values(const uint32_t *in, uint32_t *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < SAMPLES)
		out[i] = __float_as_uint(apply<OP>(__uint_as_float(in[i])));
}

template <int OP> static void run(unsigned long long *sums, uint32_t *din,
				  uint32_t *dout, const uint32_t *in)
{
	unsigned long long h[256], total = 0;
	uint32_t out[SAMPLES];
	const uint32_t threads = 256, blocks =
		(uint32_t)((1ull << 32) / PER_THREAD / threads);

	cudaMemset(sums, 0, sizeof(h));
	hash_all<OP><<<blocks, threads>>>(sums);
	values<OP><<<SAMPLES / 256, 256>>>(din, dout);
	printf("status %s: %s\n", op_names[OP],
	       cudaGetErrorName(cudaDeviceSynchronize()));
	cudaMemcpy(h, sums, sizeof(h), cudaMemcpyDeviceToHost);
	cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost);
	for (int r = 0; r < 256; r++) {
		printf("hash %s %02x %016llx\n", op_names[OP], r, h[r]);
		total += h[r];
	}
	printf("total %s %016llx\n", op_names[OP], total);
	for (int i = 0; i < SAMPLES; i++)
		printf("value %s %08x %08x\n", op_names[OP], in[i], out[i]);
}

int main(void)
{
	static uint32_t in[SAMPLES];
	unsigned long long *sums;
	uint32_t *din, *dout;
	cudaDeviceProp prop;
	cudaError_t err;

	cudaGetDeviceProperties(&prop, 0);
	printf("device: %s\n", prop.name);
	for (uint32_t i = 0; i < 1024; i++)
		in[i] = i * 2654435761u;
	for (uint32_t i = 0; i < 512; i++)
		in[1024 + i] = 0x3f800000u + i;
	cudaMalloc(&sums, 256 * sizeof(*sums));
	cudaMalloc(&din, sizeof(in));
	cudaMalloc(&dout, sizeof(in));
	cudaMemcpy(din, in, sizeof(in), cudaMemcpyHostToDevice);
#define RUN(i, s) run<i>(sums, din, dout, in);
	OPS(RUN)
#undef RUN
	err = cudaDeviceSynchronize();
	printf("status: %s\n", cudaGetErrorName(err));
	return err != cudaSuccess;
}
