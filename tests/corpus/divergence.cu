// SPDX-License-Identifier: GPL-2.0
// Divergence torture: data-dependent nested branches, loops with break
// and continue, switch, early return, and warp votes/ballots/shuffles
// inside divergent code with explicit masks (Volta-style).  The CPU
// reference in tests/test_corpus.c replays the same logic per thread.

__device__ __noinline__ int collatz_steps(unsigned x)
{
	int s = 0;

	while (x != 1 && s < 500) {
		x = (x & 1) ? 3 * x + 1 : x / 2;
		s++;
	}
	return s;
}

extern "C" __global__ void torture(const int *in, int *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;			/* early exit of the tail */
	int v = in[i], acc = 0;

	for (int k = 0; k < (v & 15); k++) {
		if (k == 11)
			break;
		if ((k ^ v) & 1)
			continue;
		switch ((v + k) % 4) {
		case 0: acc += k; break;
		case 1: acc -= 2 * k; break;
		case 2: acc ^= k << 3; break;
		default:
			if (acc > 10)
				acc /= 2;
			else
				acc += 7;
		}
	}
	if (v % 3 == 0) {
		acc += collatz_steps((unsigned)v % 1000 + 1);
		if (v % 9 == 0)
			goto done;
		acc *= 3;
	} else if (v % 3 == 1) {
		int j = 0;
		do {
			acc += j;
		} while (++j < (v % 7));
	}
	acc += 1;
done:
	out[i] = acc;
}

// Votes and shuffles on the lanes of one side of a branch, named by the
// branch's own mask (__activemask) as well as by a computed mask.
extern "C" __global__ void warp_sync_ops(const int *in, unsigned *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int lane = threadIdx.x & 31, v = in[i];
	unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0;

	if (v & 1) {
		unsigned m = __activemask();
		r0 = __ballot_sync(m, v > 50);
		r1 = __any_sync(m, v > 90) | (__all_sync(m, v > 0) << 1);
		r2 = __shfl_sync(m, v, __ffs(m) - 1);	/* lowest odd lane */
		r3 = __popc(m);
	} else {
		if (lane < 16) {
			unsigned m2 = __activemask();
			r0 = __ballot_sync(m2, v % 4 == 0);
			r2 = __shfl_sync(m2, v, 31 - __clz(m2));	/* highest */
			__syncwarp(m2);
		}
		r3 = 100;
	}
	out[i * 4 + 0] = r0;
	out[i * 4 + 1] = r1;
	out[i * 4 + 2] = r2;
	out[i * 4 + 3] = r3;
}

// __syncwarp() on both sides of a branch (Volta-style): each half of the
// warp writes shared memory, meets the other half at its own __syncwarp,
// then reads what the other half wrote.
extern "C" __global__ void syncwarp_exchange(int *out)
{
	__shared__ int s[64];
	int lane = threadIdx.x & 31;
	int *ws = s + (threadIdx.x / 32) * 32;
	int y;

	if (lane < 16) {
		ws[lane] = lane * 3;
		__syncwarp();
		y = ws[lane + 16];
	} else {
		ws[lane] = lane * 5 + 1;
		__syncwarp();
		y = ws[lane - 16];
	}
	out[threadIdx.x] = y;
}

// Shuffles and ballots on both sides of a branch with the full mask: on
// Volta and later each lane takes part through its own instruction.
extern "C" __global__ void shfl_both_sides(const int *in, int *out)
{
	int x = in[threadIdx.x], v;
	unsigned b;

	if (x & 1) {
		v = __shfl_xor_sync(0xffffffffu, x * 2, 1);
		b = __ballot_sync(0xffffffffu, x > 50);
	} else {
		v = __shfl_xor_sync(0xffffffffu, x * 3 + 1, 1) + 1000;
		b = __ballot_sync(0xffffffffu, x > 20) ^ 0xf0f0f0f0u;
	}
	out[threadIdx.x * 2] = v;
	out[threadIdx.x * 2 + 1] = (int)b;
}
