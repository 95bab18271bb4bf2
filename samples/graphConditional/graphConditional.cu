// SPDX-License-Identifier: GPL-2.0
//
// graphConditional: a CUDA graph with a loop in it.
//
// The Collatz rule (n even: n / 2, odd: 3n + 1) takes every number we
// know of down to 1; how many steps it takes varies wildly.  Here the
// device runs the rule on a whole array, one step per iteration of a
// WHILE conditional node, until every element has reached 1:
//
//   [copy in] -> [reset] -> [WHILE h] -> [copy out]
//                              |
//                        body: [step] -> [decide]
//
// "step" applies the rule once to every element not yet at 1 and counts
// its steps; "decide" sets the loop's condition with
// cudaGraphSetConditional(h, more), from device code: the host never
// looks at the data between iterations.  The graph is launched for three
// inputs; each result is checked against the CPU, and so is the number
// of times the body ran.
#include <stdio.h>
#include <string.h>

#include "../common/sample_check.h"

#define N 4096
#define THREADS 256

struct state {
	unsigned int more;	// an element is still above 1
	unsigned int rounds;	// body iterations so far
};

__global__ void reset(struct state *st)
{
	st->more = 0;
	st->rounds = 0;
}

__global__ void step(unsigned long long *n, unsigned int *steps,
		     struct state *st)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i >= N || n[i] == 1)
		return;
	n[i] = n[i] % 2 ? 3 * n[i] + 1 : n[i] / 2;
	steps[i]++;
	if (n[i] != 1)
		st->more = 1;	// any writer will do: all write 1
}

// One thread: go round again while some element is above 1.
__global__ void decide(cudaGraphConditionalHandle h, struct state *st)
{
	st->rounds++;
	cudaGraphSetConditional(h, st->more);
	st->more = 0;
}

static unsigned int cpu_steps(unsigned long long v)
{
	unsigned int s = 0;

	for (; v != 1; s++)
		v = v % 2 ? 3 * v + 1 : v / 2;
	return s;
}

static cudaGraphNode_t add_kernel(cudaGraph_t g, cudaGraphNode_t dep,
				  void *func, unsigned int blocks,
				  unsigned int threads, void **args)
{
	cudaKernelNodeParams p = {};
	cudaGraphNode_t node;

	p.func = func;
	p.gridDim = dim3(blocks);
	p.blockDim = dim3(threads);
	p.kernelParams = args;
	CHECK(cudaGraphAddKernelNode(&node, g, dep ? &dep : NULL, dep ? 1 : 0,
				     &p));
	return node;
}

int main(void)
{
	unsigned long long *h_n, *d_n;
	unsigned int *h_steps, *d_steps;
	struct state *d_st, h_st;
	cudaGraphConditionalHandle cond;
	cudaGraphNode_t in, zero, rst, loop, stp, out;
	cudaGraph_t graph, body;
	cudaGraphExec_t exec;
	cudaStream_t stream;
	bool ok = true;

	CHECK(cudaMallocHost(&h_n, N * sizeof(*h_n)));
	CHECK(cudaMallocHost(&h_steps, N * sizeof(*h_steps)));
	CHECK(cudaMalloc(&d_n, N * sizeof(*d_n)));
	CHECK(cudaMalloc(&d_steps, N * sizeof(*d_steps)));
	CHECK(cudaMalloc(&d_st, sizeof(*d_st)));
	CHECK(cudaStreamCreate(&stream));

	CHECK(cudaGraphCreate(&graph, 0));
	// The loop runs at least once: the condition is 1 at each launch.
	CHECK(cudaGraphConditionalHandleCreate(&cond, graph, 1,
					       cudaGraphCondAssignDefault));
	CHECK(cudaGraphAddMemcpyNode1D(&in, graph, NULL, 0, d_n, h_n,
				       N * sizeof(*h_n),
				       cudaMemcpyHostToDevice));
	cudaMemsetParams ms = {};
	ms.dst = d_steps;
	ms.elementSize = 4;
	ms.width = N;
	ms.height = 1;
	CHECK(cudaGraphAddMemsetNode(&zero, graph, &in, 1, &ms));
	void *reset_args[] = { &d_st };
	rst = add_kernel(graph, zero, (void *)reset, 1, 1, reset_args);

	cudaGraphNodeParams cp = {};
	cp.type = cudaGraphNodeTypeConditional;
	cp.conditional.handle = cond;
	cp.conditional.type = cudaGraphCondTypeWhile;
	cp.conditional.size = 1;
	CHECK(cudaGraphAddNode(&loop, graph, &rst, NULL, 1, &cp));
	body = cp.conditional.phGraph_out[0];
	void *step_args[] = { &d_n, &d_steps, &d_st };
	stp = add_kernel(body, NULL, (void *)step, (N + THREADS - 1) / THREADS,
			 THREADS, step_args);
	void *decide_args[] = { &cond, &d_st };
	add_kernel(body, stp, (void *)decide, 1, 1, decide_args);

	CHECK(cudaGraphAddMemcpyNode1D(&out, graph, &loop, 1, h_steps,
				       d_steps, N * sizeof(*h_steps),
				       cudaMemcpyDeviceToHost));
	CHECK(cudaGraphInstantiate(&exec, graph, 0));

	for (int run = 0; run < 3; run++) {
		unsigned int longest = 0;

		for (int i = 0; i < N; i++)
			h_n[i] = 1 + (unsigned long long)i * (run * 7 + 3);
		CHECK(cudaGraphLaunch(exec, stream));
		CHECK(cudaStreamSynchronize(stream));
		CHECK(cudaMemcpy(&h_st, d_st, sizeof(h_st),
				 cudaMemcpyDeviceToHost));
		for (int i = 0; i < N; i++) {
			unsigned int want = cpu_steps(1 + (unsigned long long)i *
						      (run * 7 + 3));

			if (want > longest)
				longest = want;
			if (h_steps[i] != want) {
				printf("run %d: element %d took %u steps, "
				       "expected %u\n", run, i, h_steps[i],
				       want);
				ok = false;
				break;
			}
		}
		// Every element above 1 needs longest steps; the body runs
		// once more than that only if some element starts at 1 and
		// all others are done in 0 steps, which no input here does.
		printf("run %d: %u loop iterations, longest chain %u steps\n",
		       run, h_st.rounds, longest);
		if (h_st.rounds != longest)
			ok = false;
	}

	CHECK(cudaGraphExecDestroy(exec));
	CHECK(cudaGraphDestroy(graph));
	CHECK(cudaStreamDestroy(stream));
	CHECK(cudaFree(d_st));
	CHECK(cudaFree(d_steps));
	CHECK(cudaFree(d_n));
	CHECK(cudaFreeHost(h_steps));
	CHECK(cudaFreeHost(h_n));
	return sample_result(ok);
}
