// SPDX-License-Identifier: GPL-2.0
//
// probe_devrt: what the device runtime answers to device-side calls, one
// line per question, compared with what the host API answers.  Built as
// NVIDIA's samples are (-rdc=true, PTX for compute_90), so that it runs
// against NVIDIA's libcudadevrt on a real GPU and against vGPU's own
// (umd/cuda/devrt.ptx) in the guest.  The first line names the GPU;
// test_cudart_devrt compares the rest with golden/probe_devrt.h100.txt.
//
// Left out on purpose, because vGPU does not copy them: on an H100 with
// one GPU, device ordinal 1 answers cudaSuccess and 0 (ordinals from 2 on
// are cudaErrorInvalidDevice), and attribute 148 answers cudaSuccess with
// a value that is not an attribute (a read past NVIDIA's table).
//
// Build: nvcc -cudart shared -rdc=true -gencode arch=compute_90,code=compute_90 \
//        -o probe_devrt probe_devrt.cu
#include <cuda_runtime.h>
#include <stdio.h>

#define NATTR 148	/* attributes 0 ... 147 */

struct answers {
	int version_err, version;
	int count_err, count;
	int attr_err[NATTR], attr[NATTR];
	int dev_err[3], dev_value[3];
};

__global__ void ask(struct answers *a, int count)
{
	const int devs[3] = { -1, count + 1, 64 };

	a->version_err = cudaRuntimeGetVersion(&a->version);
	a->count_err = cudaGetDeviceCount(&a->count);
	for (int i = 0; i < NATTR; i++) {
		a->attr[i] = -7;
		a->attr_err[i] = cudaDeviceGetAttribute(&a->attr[i],
							(cudaDeviceAttr)i, 0);
	}
	for (int i = 0; i < 3; i++) {
		a->dev_value[i] = -7;
		a->dev_err[i] = cudaDeviceGetAttribute(&a->dev_value[i],
						       cudaDevAttrWarpSize,
						       devs[i]);
	}
}

int main(void)
{
	struct answers *d, a;
	cudaDeviceProp prop;
	int count = 0;

	cudaGetDeviceCount(&count);
	cudaGetDeviceProperties(&prop, 0);
	printf("gpu: %s\n", prop.name);
	cudaMalloc(&d, sizeof(a));
	ask<<<1, 1>>>(d, count);
	printf("launch: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
	cudaMemcpy(&a, d, sizeof(a), cudaMemcpyDeviceToHost);
	printf("cudaRuntimeGetVersion: %d, %d\n", a.version_err, a.version);
	printf("cudaGetDeviceCount: %d, equal to host: %s\n", a.count_err,
	       a.count == count ? "yes" : "no");
	for (int i = 0; i < NATTR; i++) {
		int host = -7, host_err;

		host_err = cudaDeviceGetAttribute(&host, (cudaDeviceAttr)i, 0);
		printf("attribute %d: device %d, host %d", i, a.attr_err[i],
		       host_err);
		if (!a.attr_err[i] && !host_err)
			printf(", %s\n", a.attr[i] == host ? "same value" :
			       "different values");
		else if (!a.attr_err[i])
			printf(", device value %d\n", a.attr[i]);
		else
			printf(", device value %s\n", a.attr[i] == -7 ?
			       "untouched" : "written");
	}
	for (int i = 0; i < 3; i++)
		printf("device %s: %d, value %s\n",
		       i == 0 ? "-1" : i == 1 ? "count + 1" : "64",
		       a.dev_err[i], a.dev_value[i] == -7 ? "untouched" :
		       "written");
	return 0;
}
