// SPDX-License-Identifier: GPL-2.0
// Recursion with per-thread call stacks in local memory, and divergent
// calls: threads recurse to different depths at the same time.

__device__ __noinline__ unsigned fib(unsigned n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

struct pair { int a, b; };

__device__ __noinline__ pair gcd_steps(int a, int b, int depth)
{
	if (b == 0)
		return pair{ a, depth };
	return gcd_steps(b, a % b, depth + 1);
}

__device__ __noinline__ int ackermann(int m, int n)
{
	if (m == 0)
		return n + 1;
	if (n == 0)
		return ackermann(m - 1, 1);
	return ackermann(m - 1, ackermann(m, n - 1));
}

extern "C" __global__ void recurse(unsigned *out)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	pair p = gcd_steps(t * 7 + 12, t % 13 + 5, 0);

	out[t * 4 + 0] = fib(t % 16);
	out[t * 4 + 1] = p.a;
	out[t * 4 + 2] = p.b;
	out[t * 4 + 3] = (t & 1) ? ackermann(1 + t % 2, t % 4) : 0;
}
