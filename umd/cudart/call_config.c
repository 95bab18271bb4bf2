// SPDX-License-Identifier: GPL-2.0
/*
 * The <<<grid, block, shmem, stream>>> configuration of a launch.
 *
 * nvcc turns `k<<<g, b, s, st>>>(args)` into
 *
 *	__cudaPushCallConfiguration(g, b, s, st) ? (void)0 : k_stub(args);
 *
 * and the stub, after copying its arguments, pops the configuration and
 * launches.  The arguments are evaluated between push and pop, and an
 * argument may itself contain a launch (`k<<<1,1>>>(f(), g<<<1,1>>>(...)`
 * is unusual but legal), so the configurations form a stack.  Each host
 * thread launches independently: the stack is per thread.
 *
 * The depth is bounded: a configuration that does not fit is refused, the
 * push returns non-zero (so the stub is skipped and nothing is
 * launched) and the thread's last error says why.
 */
#include "cudart_abi.h"
#include "cudart_internal.h"

/* Deeper nesting of <<<>>> inside launch arguments than any real program. */
#define RT_CALL_CONFIG_DEPTH 32

struct rt_call_config {
	dim3 grid;
	dim3 block;
	size_t shmem;
	struct CUstream_st *stream;
};

struct rt_call_stack {
	unsigned int depth;
	struct rt_call_config entry[RT_CALL_CONFIG_DEPTH];
};

static _Thread_local struct rt_call_stack rt_calls;

unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim,
				     size_t sharedMem,
				     struct CUstream_st *stream)
{
	struct rt_call_config *c;

	if (rt_calls.depth == RT_CALL_CONFIG_DEPTH) {
		rt_return(cudaErrorLaunchOutOfResources);
		return 1;
	}
	c = &rt_calls.entry[rt_calls.depth++];
	c->grid = gridDim;
	c->block = blockDim;
	c->shmem = sharedMem;
	c->stream = stream;
	return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim,
				       size_t *sharedMem, void *stream)
{
	const struct rt_call_config *c;

	if (rt_calls.depth == 0)
		return rt_return(cudaErrorMissingConfiguration);
	c = &rt_calls.entry[--rt_calls.depth];
	*gridDim = c->grid;
	*blockDim = c->block;
	*sharedMem = c->shmem;
	/* The header declares it void *; it is the stub's cudaStream_t. */
	*(cudaStream_t *)stream = c->stream;
	return cudaSuccess;
}
