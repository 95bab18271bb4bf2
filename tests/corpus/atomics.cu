// SPDX-License-Identifier: GPL-2.0
// Every atomic flavour on global memory, contended by all threads.
// r[0] add, r[1] max, r[2] min, r[3] or, r[4] and, r[5] xor, r[6] inc
// (wrapping at 1000), r[7] count of successful CAS increments, f[0] float
// add of 0.5 (exact), u[0] 64-bit add, r[8] exch (some thread id).

extern "C" __global__ void atomics(int *r, float *f, unsigned long long *u)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;

	atomicAdd(&r[0], t);
	atomicMax(&r[1], t * 7 % 1009);
	atomicMin(&r[2], 5000 - t);
	atomicOr(&r[3], 1 << (t % 31));
	atomicAnd(&r[4], ~(1 << (t % 17)));
	atomicXor(&r[5], t);
	atomicInc((unsigned *)&r[6], 999u);
	for (;;) {
		int old = r[7];
		if (atomicCAS(&r[7], old, old + 1) == old)
			break;
	}
	atomicAdd(&f[0], 0.5f);
	atomicAdd(&u[0], 1ull << 33);
	atomicExch(&r[8], t);
}
