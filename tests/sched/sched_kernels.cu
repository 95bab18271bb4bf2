// SPDX-License-Identifier: GPL-2.0
/*
 * sched_kernels.cu - kernels that observe the GR engine's scheduler from
 * inside (tests/test_core_sched.c): blocks that wait for each other or
 * for another grid, count how many of them are alive at once, take
 * tickets in dispatch order, or compute something whose result must not
 * depend on when they were preempted.
 *
 * Spin loops are bounded (SPIN_LIMIT) so that a scheduler that does not
 * run the waited-for work shows up as a wrong result, not a hang.
 */
#define SPIN_LIMIT 200000000u

/* Every block waits for *flag != 0 (set by another grid), then out = 1. */
extern "C" __global__ void wait_flag(volatile unsigned int *flag,
				     unsigned int *out)
{
	unsigned int i = 0;

	if (threadIdx.x)
		return;
	while (!*flag && ++i < SPIN_LIMIT)
		;
	out[blockIdx.x] = *flag ? 1 : 2;
}

extern "C" __global__ void set_flag(unsigned int *flag)
{
	atomicExch(flag, 1u);
}

/* Spins until *flag != 0, without limit: only a stop ends it. */
extern "C" __global__ void spin_forever(volatile unsigned int *flag,
					unsigned int *spins)
{
	if (threadIdx.x)
		return;
	while (!*flag)
		atomicAdd(spins, 1u);
}

/*
 * c[0] = blocks alive now, c[1] = most ever alive, c[2] = blocks that
 * arrived.  Each block stays until @expect blocks arrived, so all blocks
 * the SMs can hold are alive at once.
 */
extern "C" __global__ void count_live(unsigned int *c, unsigned int expect)
{
	extern __shared__ unsigned int dyn[];
	unsigned int i = 0;

	if (threadIdx.x)
		return;
	dyn[0] = atomicAdd(&c[0], 1u) + 1;
	atomicMax(&c[1], dyn[0]);
	atomicAdd(&c[2], 1u);
	while (*(volatile unsigned int *)&c[2] < expect && ++i < SPIN_LIMIT)
		;
	atomicSub(&c[0], 1u);
}

/* order[block] = the ticket it drew when it started; then some work. */
extern "C" __global__ void ticket(unsigned int *counter, unsigned int *order,
				  unsigned int work)
{
	extern __shared__ unsigned int dyn[];
	volatile unsigned int *v = dyn;

	if (threadIdx.x)
		return;
	order[blockIdx.x] = atomicAdd(counter, 1u);
	for (unsigned int i = 0; i < work; i++)
		v[0] = v[0] * 3 + i;
}

/*
 * A computation whose result depends on every instruction and barrier:
 * rounds of a linear congruential step, exchanged through shared memory
 * with the neighbour thread.  tests/test_core_sched.c has the same in C.
 */
extern "C" __global__ void lcg_mix(unsigned int *out, unsigned int rounds)
{
	__shared__ unsigned int s[256];
	unsigned int t = threadIdx.x;
	unsigned int x = blockIdx.x * blockDim.x + t;

	for (unsigned int r = 0; r < rounds; r++) {
		x = x * 1664525u + 1013904223u;
		s[t] = x;
		__syncthreads();
		x ^= s[(t + 1) % blockDim.x] >> 3;
		__syncthreads();
	}
	out[blockIdx.x * blockDim.x + t] = x;
}

/* Writes *p = i, i + 1, ... until *stop != 0 (or a fault). */
extern "C" __global__ void keep_writing(volatile unsigned int *p,
					volatile unsigned int *stop)
{
	unsigned int i = 1;

	if (threadIdx.x)
		return;
	while (!*stop)
		*p = i++;
}

/* started[0] = 1, then spin until the host writes *flag (mapped memory). */
extern "C" __global__ void spin_host(volatile unsigned int *flag,
				     volatile unsigned int *started)
{
	if (threadIdx.x)
		return;
	*started = 1;
	while (!*flag)
		;
}

/*
 * ticket, but the block waits for *gate != 0 between drawing its ticket
 * and working: a grid that holds its SMs until the host says so.
 */
extern "C" __global__ void ticket_gated(unsigned int *counter,
					unsigned int *order, unsigned int work,
					volatile unsigned int *gate)
{
	extern __shared__ unsigned int dyn[];
	volatile unsigned int *v = dyn;
	unsigned int i = 0;

	if (threadIdx.x)
		return;
	order[blockIdx.x] = atomicAdd(counter, 1u);
	while (!*gate && ++i < SPIN_LIMIT)
		;
	for (i = 0; i < work; i++)
		v[0] = v[0] * 3 + i;
}
