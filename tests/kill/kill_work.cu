// SPDX-License-Identifier: GPL-2.0
/*
 * kill_work.cu - CUDA work to be killed: the workload of the kill trials
 *
 *   kill_work MODE [ROUNDS]
 *
 * Does one kind of work, checking every result against the CPU, for ROUNDS
 * rounds (0, the default: until killed).  MODE is one of
 *
 *   copy    pageable host <-> device and device <-> device copies
 *   kernel  kernel launches
 *   hostfn  host functions in a stream (cudaLaunchHostFunc)
 *   pinned  page-locked host memory, asynchronous copies, a stream
 *   mapped  mapped page-locked memory a kernel reads and writes directly
 *   graph   a captured graph (copy in, kernel, copy out) launched again
 *   ipc     a second process opens device memory through an IPC handle
 *           and runs a kernel on it
 *   all     each of the above in turn
 *   check   each of the above once; prints PASSED (what the trials run
 *           after a kill: the next program must compute correctly)
 *
 * Exits 0 when done, 1 on a wrong result, 2 on a CUDA error.
 */
#include <cuda_runtime.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define N	(1 << 16)
#define A	2.0f
#define B	1.0f

#define CK(x) do {							\
	cudaError_t e_ = (x);						\
	if (e_ != cudaSuccess) {					\
		fprintf(stderr, "kill_work: %s:%d: %s: %s\n", __FILE__, \
			__LINE__, #x, cudaGetErrorString(e_));		\
		exit(2);						\
	}								\
} while (0)

__global__ void axpb(float *y, const float *x, float a, float b, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		y[i] = a * x[i] + b;
}

static void launch(float *y, const float *x, cudaStream_t s = 0)
{
	axpb<<<(N + 255) / 256, 256, 0, s>>>(y, x, A, B, N);
	CK(cudaGetLastError());
}

/* Small integers: every result is exact in float. */
static void fill(float *h, unsigned int round)
{
	for (int i = 0; i < N; i++)
		h[i] = (float)((i * 7u + round) % 1000u);
}

/* y == A * x + B (times @times) for the input fill() made. */
static void verify(const float *y, unsigned int round, int times,
		   const char *what)
{
	for (int i = 0; i < N; i++) {
		float want = (float)((i * 7u + round) % 1000u);

		for (int t = 0; t < times; t++)
			want = A * want + B;
		if (y[i] != want) {
			fprintf(stderr, "kill_work: %s: y[%d] = %g, expected %g\n",
				what, i, y[i], want);
			exit(1);
		}
	}
}

static float *host_in, *host_out;

static void work_copy(unsigned int r)
{
	float *d1, *d2;

	fill(host_in, r);
	CK(cudaMalloc(&d1, N * sizeof(float)));
	CK(cudaMalloc(&d2, N * sizeof(float)));
	CK(cudaMemcpy(d1, host_in, N * sizeof(float), cudaMemcpyHostToDevice));
	CK(cudaMemcpy(d2, d1, N * sizeof(float), cudaMemcpyDeviceToDevice));
	memset(host_out, 0, N * sizeof(float));
	CK(cudaMemcpy(host_out, d2, N * sizeof(float), cudaMemcpyDeviceToHost));
	verify(host_out, r, 0, "copy");
	CK(cudaFree(d1));
	CK(cudaFree(d2));
}

static void work_kernel(unsigned int r)
{
	float *x, *y;

	fill(host_in, r);
	CK(cudaMalloc(&x, N * sizeof(float)));
	CK(cudaMalloc(&y, N * sizeof(float)));
	CK(cudaMemcpy(x, host_in, N * sizeof(float), cudaMemcpyHostToDevice));
	launch(y, x);
	launch(x, y);
	CK(cudaMemcpy(host_out, x, N * sizeof(float), cudaMemcpyDeviceToHost));
	verify(host_out, r, 2, "kernel");
	CK(cudaFree(x));
	CK(cudaFree(y));
}

static void CUDART_CB count_call(void *arg)
{
	++*(volatile int *)arg;
}

static void work_hostfn(unsigned int r)
{
	cudaStream_t s;
	float *x, *y;
	int calls = 0;

	fill(host_in, r);
	CK(cudaStreamCreate(&s));
	CK(cudaMalloc(&x, N * sizeof(float)));
	CK(cudaMalloc(&y, N * sizeof(float)));
	CK(cudaMemcpyAsync(x, host_in, N * sizeof(float),
			   cudaMemcpyHostToDevice, s));
	CK(cudaLaunchHostFunc(s, count_call, &calls));
	launch(y, x, s);
	CK(cudaLaunchHostFunc(s, count_call, &calls));
	CK(cudaMemcpyAsync(host_out, y, N * sizeof(float),
			   cudaMemcpyDeviceToHost, s));
	CK(cudaStreamSynchronize(s));
	if (calls != 2) {
		fprintf(stderr, "kill_work: hostfn: %d calls, expected 2\n",
			calls);
		exit(1);
	}
	verify(host_out, r, 1, "hostfn");
	CK(cudaFree(x));
	CK(cudaFree(y));
	CK(cudaStreamDestroy(s));
}

static void work_pinned(unsigned int r)
{
	float *hin, *hout, *x, *y;
	cudaStream_t s;

	CK(cudaHostAlloc(&hin, N * sizeof(float), cudaHostAllocDefault));
	CK(cudaMallocHost(&hout, N * sizeof(float)));
	CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	CK(cudaMalloc(&x, N * sizeof(float)));
	CK(cudaMalloc(&y, N * sizeof(float)));
	fill(hin, r);
	CK(cudaMemcpyAsync(x, hin, N * sizeof(float), cudaMemcpyHostToDevice,
			   s));
	launch(y, x, s);
	CK(cudaMemcpyAsync(hout, y, N * sizeof(float), cudaMemcpyDeviceToHost,
			   s));
	CK(cudaStreamSynchronize(s));
	verify(hout, r, 1, "pinned");
	CK(cudaFree(x));
	CK(cudaFree(y));
	CK(cudaStreamDestroy(s));
	CK(cudaFreeHost(hin));
	CK(cudaFreeHost(hout));
}

static void work_mapped(unsigned int r)
{
	float *hin, *hout, *din, *dout;

	CK(cudaHostAlloc(&hin, N * sizeof(float), cudaHostAllocMapped));
	CK(cudaHostAlloc(&hout, N * sizeof(float), cudaHostAllocMapped));
	CK(cudaHostGetDevicePointer((void **)&din, hin, 0));
	CK(cudaHostGetDevicePointer((void **)&dout, hout, 0));
	fill(hin, r);
	launch(dout, din);
	CK(cudaDeviceSynchronize());
	verify(hout, r, 1, "mapped");
	CK(cudaFreeHost(hin));
	CK(cudaFreeHost(hout));
}

static void work_graph(unsigned int r)
{
	cudaGraphExec_t exec;
	cudaGraph_t graph;
	cudaStream_t s;
	float *x, *y;

	CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	CK(cudaMalloc(&x, N * sizeof(float)));
	CK(cudaMalloc(&y, N * sizeof(float)));
	CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	CK(cudaMemcpyAsync(x, host_in, N * sizeof(float),
			   cudaMemcpyHostToDevice, s));
	launch(y, x, s);
	CK(cudaMemcpyAsync(host_out, y, N * sizeof(float),
			   cudaMemcpyDeviceToHost, s));
	CK(cudaStreamEndCapture(s, &graph));
	CK(cudaGraphInstantiate(&exec, graph, 0));
	for (unsigned int k = 0; k < 3; k++) {
		fill(host_in, r + k);
		CK(cudaGraphLaunch(exec, s));
		CK(cudaStreamSynchronize(s));
		verify(host_out, r + k, 1, "graph");
	}
	CK(cudaGraphExecDestroy(exec));
	CK(cudaGraphDestroy(graph));
	CK(cudaFree(x));
	CK(cudaFree(y));
	CK(cudaStreamDestroy(s));
}

/*
 * IPC: the second process is forked before this one touches CUDA (a
 * CUDA process cannot fork a CUDA user), and dies with it.  Each round the
 * parent sends a handle of memory it filled; the child opens it, runs
 * y = A * x + B in place, closes it and answers.
 */
static int ipc_to_child = -1, ipc_from_child = -1;

static void ipc_child(int in, int out)
{
	cudaIpcMemHandle_t h;
	float *x;
	char ok = 1;

	while (read(in, &h, sizeof(h)) == (ssize_t)sizeof(h)) {
		CK(cudaIpcOpenMemHandle((void **)&x, h,
					cudaIpcMemLazyEnablePeerAccess));
		launch(x, x);
		CK(cudaDeviceSynchronize());
		CK(cudaIpcCloseMemHandle(x));
		if (write(out, &ok, 1) != 1)
			break;
	}
	exit(0);
}

static void ipc_start(void)
{
	int down[2], up[2];
	pid_t parent = getpid();

	if (pipe(down) || pipe(up)) {
		perror("kill_work: pipe");
		exit(2);
	}
	if (!fork()) {
		/* Die with the parent, even when it is killed. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			exit(0);
		close(down[1]);
		close(up[0]);
		ipc_child(down[0], up[1]);
	}
	close(down[0]);
	close(up[1]);
	ipc_to_child = down[1];
	ipc_from_child = up[0];
}

static void work_ipc(unsigned int r)
{
	cudaIpcMemHandle_t h;
	float *x;
	char ok;

	fill(host_in, r);
	CK(cudaMalloc(&x, N * sizeof(float)));
	CK(cudaMemcpy(x, host_in, N * sizeof(float), cudaMemcpyHostToDevice));
	/*
	 * A copy from pageable memory may return before it reaches the
	 * device (CUDA's rule): another process sees it only after a sync.
	 */
	CK(cudaDeviceSynchronize());
	CK(cudaIpcGetMemHandle(&h, x));
	if (write(ipc_to_child, &h, sizeof(h)) != (ssize_t)sizeof(h) ||
	    read(ipc_from_child, &ok, 1) != 1) {
		fprintf(stderr, "kill_work: ipc: the other process is gone\n");
		exit(1);
	}
	CK(cudaMemcpy(host_out, x, N * sizeof(float), cudaMemcpyDeviceToHost));
	verify(host_out, r, 1, "ipc");
	CK(cudaFree(x));
}

static const struct {
	const char *name;
	void (*work)(unsigned int round);
} works[] = {
	{ "copy", work_copy }, { "kernel", work_kernel },
	{ "hostfn", work_hostfn }, { "pinned", work_pinned },
	{ "mapped", work_mapped }, { "graph", work_graph },
	{ "ipc", work_ipc },
};
#define NWORKS	(int)(sizeof(works) / sizeof(works[0]))

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "check";
	unsigned long rounds = argc > 2 ? strtoul(argv[2], NULL, 0) : 0;
	bool all = !strcmp(mode, "all"), check = !strcmp(mode, "check");
	int only = -1;

	for (int i = 0; i < NWORKS; i++)
		if (!strcmp(mode, works[i].name))
			only = i;
	if (only < 0 && !all && !check) {
		fprintf(stderr, "usage: kill_work copy|kernel|hostfn|pinned|"
			"mapped|graph|ipc|all|check [ROUNDS]\n");
		return 2;
	}
	if (check)
		rounds = 1;
	if (all || check || only == NWORKS - 1)
		ipc_start();
	host_in = (float *)malloc(N * sizeof(float));
	host_out = (float *)malloc(N * sizeof(float));
	if (!host_in || !host_out)
		return 2;
	CK(cudaSetDevice(0));
	for (unsigned long r = 0; !rounds || r < rounds; r++) {
		for (int i = 0; i < NWORKS; i++)
			if (i == only || all || check)
				works[i].work((unsigned int)r);
	}
	if (check)
		printf("PASSED\n");
	return 0;
}
