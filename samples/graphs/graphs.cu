// SPDX-License-Identifier: GPL-2.0
//
// graphs: one step of a computation, defined once as a CUDA graph and
// launched many times.  The step forks into two independent kernels and
// joins them in a third:
//
//            +-> a = 3 * x + 1 --+
//   x  ------+                   +--> x = (a + b) % 9973
//            +-> b = x * x % 101 +
//
// The graph is built twice: by stream capture (the kernels launched with
// <<<>>> into two streams, forked and joined with events, exactly as the
// work would be enqueued without graphs) and with the explicit graph API.
// Both graphs are launched ITERATIONS times and the results compared with
// the same steps computed on the CPU.
#include <string.h>

#include "../common/sample_check.h"

#define N		(1 << 16)
#define ITERATIONS	20
#define THREADS		256
#define BLOCKS		((N + THREADS - 1) / THREADS)

__global__ void linear(const int *x, int *a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		a[i] = 3 * x[i] + 1;
}

__global__ void square_mod(const int *x, int *b, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		b[i] = x[i] * x[i] % 101;
}

__global__ void combine(int *x, const int *a, const int *b, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		x[i] = (a[i] + b[i]) % 9973;
}

static void cpu_step(int *x)
{
	for (int i = 0; i < N; i++)
		x[i] = ((3 * x[i] + 1) + x[i] * x[i] % 101) % 9973;
}

// Record one step by capturing what two streams are given.
static cudaGraph_t capture_step(int *x, int *a, int *b)
{
	cudaStream_t s1, s2;
	cudaEvent_t fork, join;
	cudaGraph_t g;

	CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
	CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
	CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
	CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));

	CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
	CHECK(cudaEventRecord(fork, s1));		// fork s2 off s1
	CHECK(cudaStreamWaitEvent(s2, fork, 0));
	linear<<<BLOCKS, THREADS, 0, s1>>>(x, a, N);
	square_mod<<<BLOCKS, THREADS, 0, s2>>>(x, b, N);
	CHECK(cudaEventRecord(join, s2));		// join s2 back
	CHECK(cudaStreamWaitEvent(s1, join, 0));
	combine<<<BLOCKS, THREADS, 0, s1>>>(x, a, b, N);
	CHECK(cudaGetLastError());
	CHECK(cudaStreamEndCapture(s1, &g));

	CHECK(cudaEventDestroy(fork));
	CHECK(cudaEventDestroy(join));
	CHECK(cudaStreamDestroy(s1));
	CHECK(cudaStreamDestroy(s2));
	return g;
}

// The same step, node by node.
static cudaGraph_t build_step(int *x, int *a, int *b)
{
	cudaGraph_t g;
	cudaGraphNode_t lin, sq, comb, deps[2];
	cudaKernelNodeParams p = {};
	int n = N;
	void *lin_args[] = { &x, &a, &n };
	void *sq_args[] = { &x, &b, &n };
	void *comb_args[] = { &x, &a, &b, &n };

	p.gridDim = dim3(BLOCKS);
	p.blockDim = dim3(THREADS);
	CHECK(cudaGraphCreate(&g, 0));
	p.func = (void *)linear;
	p.kernelParams = lin_args;
	CHECK(cudaGraphAddKernelNode(&lin, g, NULL, 0, &p));
	p.func = (void *)square_mod;
	p.kernelParams = sq_args;
	CHECK(cudaGraphAddKernelNode(&sq, g, NULL, 0, &p));
	p.func = (void *)combine;
	p.kernelParams = comb_args;
	deps[0] = lin;
	deps[1] = sq;
	CHECK(cudaGraphAddKernelNode(&comb, g, deps, 2, &p));
	return g;
}

// Run @g ITERATIONS times from @init; the result is left in @out.
static void run(cudaGraph_t g, const char *how, const int *init, int *out,
		int *x)
{
	cudaGraphExec_t exec;
	cudaStream_t s;
	size_t nodes, roots;

	CHECK(cudaGraphGetNodes(g, NULL, &nodes));
	CHECK(cudaGraphGetRootNodes(g, NULL, &roots));
	printf("%-9s graph: %zu nodes, %zu roots, %d launches\n", how, nodes,
	       roots, ITERATIONS);
	CHECK(cudaGraphInstantiate(&exec, g, 0));
	CHECK(cudaStreamCreate(&s));
	CHECK(cudaMemcpyAsync(x, init, N * sizeof(int), cudaMemcpyHostToDevice,
			      s));
	for (int i = 0; i < ITERATIONS; i++)
		CHECK(cudaGraphLaunch(exec, s));
	CHECK(cudaMemcpyAsync(out, x, N * sizeof(int), cudaMemcpyDeviceToHost,
			      s));
	CHECK(cudaStreamSynchronize(s));
	CHECK(cudaStreamDestroy(s));
	CHECK(cudaGraphExecDestroy(exec));
}

int main(void)
{
	int *init, *captured, *built, *ref = (int *)malloc(N * sizeof(int));
	int *x, *a, *b;
	cudaGraph_t g;
	bool ok = true;

	CHECK(cudaMallocHost(&init, N * sizeof(int)));
	CHECK(cudaMallocHost(&captured, N * sizeof(int)));
	CHECK(cudaMallocHost(&built, N * sizeof(int)));
	CHECK(cudaMalloc(&x, N * sizeof(int)));
	CHECK(cudaMalloc(&a, N * sizeof(int)));
	CHECK(cudaMalloc(&b, N * sizeof(int)));
	for (int i = 0; i < N; i++)
		init[i] = ref[i] = i % 9973;
	for (int i = 0; i < ITERATIONS; i++)
		cpu_step(ref);

	g = capture_step(x, a, b);
	run(g, "captured", init, captured, x);
	CHECK(cudaGraphDestroy(g));
	g = build_step(x, a, b);
	run(g, "explicit", init, built, x);
	CHECK(cudaGraphDestroy(g));

	for (int i = 0; i < N && ok; i++) {
		if (captured[i] != ref[i] || built[i] != ref[i]) {
			fprintf(stderr, "x[%d]: captured %d, explicit %d, "
				"CPU %d\n", i, captured[i], built[i], ref[i]);
			ok = false;
		}
	}
	CHECK(cudaFree(x));
	CHECK(cudaFree(a));
	CHECK(cudaFree(b));
	CHECK(cudaFreeHost(init));
	CHECK(cudaFreeHost(captured));
	CHECK(cudaFreeHost(built));
	free(ref);
	return sample_result(ok);
}
