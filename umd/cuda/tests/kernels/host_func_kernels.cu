// SPDX-License-Identifier: GPL-2.0
/*
 * Kernels of test_cu_host_func.c: each leaves a trace that tells whether
 * it ran before or after a host function of its stream.  (The same
 * kernels are in tools/cuda-probe/probe_hostfn.c, as PTX.)
 */

/* Spins until the host sets *flag, then says it ended: *done = 1. */
extern "C" __global__ void hf_wait(volatile int *flag, int *done)
{
	while (*flag == 0)
		;
	*done = 1;
}

/* *dst = *src: what a host function wrote before, if it ran before. */
extern "C" __global__ void hf_copy(int *dst, const volatile int *src)
{
	*dst = *src;
}

/* A store 1 TiB past @p: an illegal address. */
extern "C" __global__ void hf_wild(int *p)
{
	*(volatile int *)((char *)p + 0x10000000000ll) = 1;
}
