// SPDX-License-Identifier: GPL-2.0
// Device printf (records in the printf FIFO, formatted by the host) and a
// failing assert().
#include <cstdio>
#include <cassert>

extern "C" __global__ void hello(int base)
{
	int t = threadIdx.x;

	if (t < 3)
		printf("thread %d: %d %u %s %.2f %lld %c\n", t, base + t,
		       (unsigned)(t * 10), t == 1 ? "one" : "other",
		       t * 1.25f, (long long)t << 40, 'a' + t);
}

extern "C" __global__ void check(const int *v)
{
	assert(v[threadIdx.x] < 5);
}

// Threads that pass run on after others failed; failing ones stop there.
extern "C" __global__ void check_store(const int *v, int *out)
{
	assert(v[threadIdx.x] < 5);
	out[threadIdx.x] = 1;
}
