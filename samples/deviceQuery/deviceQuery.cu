// SPDX-License-Identifier: GPL-2.0
//
// deviceQuery: print what the runtime reports about each device, and
// check that the two ways of asking agree - every cudaDeviceProp field
// printed here is compared with cudaDeviceGetAttribute() for the same
// property - and that the values make sense for a CUDA device.
#include <string.h>

#include "../common/sample_check.h"

struct prop_check {
	const char *what;
	long long from_props;
	enum cudaDeviceAttr attr;
};

static bool check_device(int dev)
{
	struct cudaDeviceProp p;
	int driver, runtime;
	bool ok = true;

	CHECK(cudaGetDeviceProperties(&p, dev));
	CHECK(cudaDriverGetVersion(&driver));
	CHECK(cudaRuntimeGetVersion(&runtime));
	printf("\nDevice %d: \"%s\"\n", dev, p.name);
	printf("  CUDA Driver Version / Runtime Version          %d.%d / %d.%d\n",
	       driver / 1000, driver % 1000 / 10, runtime / 1000,
	       runtime % 1000 / 10);
	printf("  CUDA Capability Major/Minor version number:    %d.%d\n",
	       p.major, p.minor);
	printf("  Total amount of global memory:                 %.0f MBytes "
	       "(%zu bytes)\n", (double)p.totalGlobalMem / 1048576.0,
	       p.totalGlobalMem);
	printf("  Multiprocessors:                               %d\n",
	       p.multiProcessorCount);
	printf("  Total amount of constant memory:               %zu bytes\n",
	       p.totalConstMem);
	printf("  Total amount of shared memory per block:       %zu bytes\n",
	       p.sharedMemPerBlock);
	printf("  Total number of registers available per block: %d\n",
	       p.regsPerBlock);
	printf("  Warp size:                                     %d\n",
	       p.warpSize);
	printf("  Maximum number of threads per multiprocessor:  %d\n",
	       p.maxThreadsPerMultiProcessor);
	printf("  Maximum number of threads per block:           %d\n",
	       p.maxThreadsPerBlock);
	printf("  Max dimension size of a thread block (x,y,z): (%d, %d, %d)\n",
	       p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2]);
	printf("  Max dimension size of a grid size    (x,y,z): (%d, %d, %d)\n",
	       p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
	printf("  Concurrent copy and kernel execution:          %s with %d "
	       "copy engine(s)\n", p.asyncEngineCount ? "Yes" : "No",
	       p.asyncEngineCount);
	printf("  Device has unified addressing (UVA):           %s\n",
	       p.unifiedAddressing ? "Yes" : "No");
	printf("  Support host page-locked memory mapping:       %s\n",
	       p.canMapHostMemory ? "Yes" : "No");
	printf("  Device PCI Domain ID / Bus ID / location ID:   %d / %d / %d\n",
	       p.pciDomainID, p.pciBusID, p.pciDeviceID);

	const struct prop_check checks[] = {
		{ "major", p.major, cudaDevAttrComputeCapabilityMajor },
		{ "minor", p.minor, cudaDevAttrComputeCapabilityMinor },
		{ "multiProcessorCount", p.multiProcessorCount,
		  cudaDevAttrMultiProcessorCount },
		{ "warpSize", p.warpSize, cudaDevAttrWarpSize },
		{ "maxThreadsPerBlock", p.maxThreadsPerBlock,
		  cudaDevAttrMaxThreadsPerBlock },
		{ "maxThreadsDim[0]", p.maxThreadsDim[0],
		  cudaDevAttrMaxBlockDimX },
		{ "maxGridSize[1]", p.maxGridSize[1], cudaDevAttrMaxGridDimY },
		{ "sharedMemPerBlock", (long long)p.sharedMemPerBlock,
		  cudaDevAttrMaxSharedMemoryPerBlock },
		{ "totalConstMem", (long long)p.totalConstMem,
		  cudaDevAttrTotalConstantMemory },
		{ "regsPerBlock", p.regsPerBlock,
		  cudaDevAttrMaxRegistersPerBlock },
		{ "asyncEngineCount", p.asyncEngineCount,
		  cudaDevAttrAsyncEngineCount },
		{ "unifiedAddressing", p.unifiedAddressing,
		  cudaDevAttrUnifiedAddressing },
		{ "pciBusID", p.pciBusID, cudaDevAttrPciBusId },
	};
	for (size_t i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
		int v;

		CHECK(cudaDeviceGetAttribute(&v, checks[i].attr, dev));
		if (v != checks[i].from_props) {
			fprintf(stderr, "  %s: property %lld, attribute %d\n",
				checks[i].what, checks[i].from_props, v);
			ok = false;
		}
	}
	// What every CUDA device of compute capability >= 3 guarantees.
	if (p.warpSize != 32 || p.maxThreadsPerBlock < 1 ||
	    p.maxThreadsDim[0] < 1 || p.multiProcessorCount < 1 ||
	    p.totalGlobalMem == 0 || p.major < 3 || strlen(p.name) == 0) {
		fprintf(stderr, "  implausible device properties\n");
		ok = false;
	}
	return ok;
}

int main(void)
{
	int count = 0;
	bool ok = true;

	printf("deviceQuery Starting...\n\n CUDA Device Query (Runtime API)\n");
	CHECK(cudaGetDeviceCount(&count));
	if (count == 0) {
		printf("There are no available device(s) that support CUDA\n");
		return sample_result(false);
	}
	printf("Detected %d CUDA Capable device(s)\n", count);
	for (int dev = 0; dev < count; dev++)
		ok = check_device(dev) && ok;
	return sample_result(ok);
}
