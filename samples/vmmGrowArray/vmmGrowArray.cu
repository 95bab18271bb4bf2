// SPDX-License-Identifier: GPL-2.0
//
// vmmGrowArray: an array on the device that grows without ever being
// copied, with CUDA's virtual memory management.
//
// cudaMalloc gives memory and its address together, so growing an array
// means allocating a bigger one and copying.  The driver's VMM API splits
// the two: the program reserves a large range of addresses once
// (cuMemAddressReserve, no memory behind it), creates physical chunks
// (cuMemCreate) and maps them one after the other at the end of what is
// already mapped (cuMemMap), then lets the device use them
// (cuMemSetAccess).  The array's address never changes, and what was in
// it stays where it is:
//
//   reserved:  |<------------------- RESERVE bytes ------------------->|
//   mapped:    [chunk 0][chunk 1][chunk 2]...                           |
//              ^ base, the same pointer after every growth
//
// Each growth appends one chunk and a kernel fills the new elements; at
// the end every element is checked against the CPU, so data written
// before a growth must have survived it untouched.
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/sample_check.h"

#define CHECK_CU(call)							\
	do {								\
		CUresult r_ = (call);					\
		if (r_ != CUDA_SUCCESS) {				\
			const char *n_ = "?";				\
			cuGetErrorName(r_, &n_);			\
			fprintf(stderr, "%s:%d: %s failed: %s\n",	\
				__FILE__, __LINE__, #call, n_);		\
			printf("FAILED\n");				\
			exit(EXIT_FAILURE);				\
		}							\
	} while (0)

#define CHUNKS	8		// growths
#define RESERVE	(64ull << 20)	// addresses reserved up front

__global__ void fill(unsigned int *a, size_t from, size_t to)
{
	size_t i = from + blockIdx.x * (size_t)blockDim.x + threadIdx.x;

	if (i < to)
		a[i] = (unsigned int)(i * 2654435761u);
}

int main(void)
{
	CUmemGenericAllocationHandle chunk[CHUNKS];
	CUmemAllocationProp prop = {};
	CUmemAccessDesc access = {};
	CUdeviceptr base;
	size_t gran, mapped = 0;
	int dev = 0, vmm = 0;

	CHECK(cudaSetDevice(dev));
	CHECK(cudaFree(0));	// the runtime's context is the driver's too
	CHECK_CU(cuDeviceGetAttribute(&vmm,
		CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, dev));
	if (!vmm) {
		printf("device %d has no virtual memory management\n", dev);
		return sample_result(false);
	}

	prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
	prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	prop.location.id = dev;
	CHECK_CU(cuMemGetAllocationGranularity(&gran, &prop,
		CU_MEM_ALLOC_GRANULARITY_MINIMUM));
	access.location = prop.location;
	access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;

	CHECK_CU(cuMemAddressReserve(&base, RESERVE, 0, 0, 0));
	printf("granularity %zu KiB, %llu MiB of addresses reserved\n",
	       gran >> 10, RESERVE >> 20);

	for (int c = 0; c < CHUNKS; c++) {
		size_t from = mapped / sizeof(unsigned int), to;

		if (mapped + gran > RESERVE)
			break;
		// One more chunk of memory, right after the last one.
		CHECK_CU(cuMemCreate(&chunk[c], gran, &prop, 0));
		CHECK_CU(cuMemMap(base + mapped, gran, 0, chunk[c], 0));
		CHECK_CU(cuMemSetAccess(base + mapped, gran, &access, 1));
		mapped += gran;
		to = mapped / sizeof(unsigned int);
		fill<<<(unsigned int)((to - from + 255) / 256), 256>>>(
			(unsigned int *)base, from, to);
		CHECK(cudaGetLastError());
		printf("grown to %zu elements (%zu MiB), still at the same "
		       "address\n", to, mapped >> 20);
	}
	CHECK(cudaDeviceSynchronize());

	// Everything the kernels wrote, old and new, read back at once.
	size_t n = mapped / sizeof(unsigned int), bad = 0;
	unsigned int *host = (unsigned int *)malloc(mapped);

	if (!host)
		return sample_result(false);
	CHECK(cudaMemcpy(host, (void *)base, mapped, cudaMemcpyDeviceToHost));
	for (size_t i = 0; i < n; i++)
		if (host[i] != (unsigned int)(i * 2654435761u))
			bad++;
	printf("%zu elements checked, %zu wrong\n", n, bad);
	free(host);

	// Tear down in reverse: unmap, release the chunks, free the range.
	CHECK_CU(cuMemUnmap(base, mapped));
	for (size_t c = 0; c < mapped / gran; c++)
		CHECK_CU(cuMemRelease(chunk[c]));
	CHECK_CU(cuMemAddressFree(base, RESERVE));
	return sample_result(n == (size_t)CHUNKS * gran / 4 && !bad);
}
