// SPDX-License-Identifier: GPL-2.0
/*
 * test_cu_managed.c - managed memory that migrates, through the driver
 * API: a kernel's first touch moves blocks into VRAM (replayable faults),
 * the host's moves them back, cuMemPrefetchAsync moves them in stream
 * order, a preferred location moves them at once, cuMemFree returns the
 * VRAM, and the hints' errors.  Where the blocks live is read from the
 * driver's counters (/sys/class/misc/vgpu0/managed/), the data is checked
 * against CPU references.
 */
#include <stdio.h>
#include <string.h>

#include "cuda_test.h"

#define BLOCK	(64 << 10)
#define N	(8 * BLOCK / (int)sizeof(int))	/* 8 blocks of ints */

static long long counter(const char *name)
{
	char path[128];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/misc/vgpu0/managed/%s", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/*
 * The counter once it equals @want, or its value after 5 s: memory taken
 * from the device is freed once the firmware acknowledged the unmap's
 * TLB flush, a moment after cuMemFree returns.
 */
static long long counter_settle(const char *name, long long want)
{
	long long v;

	for (int i = 0; (v = counter(name)) != want && i < 500; i++)
		usleep(10000);
	return v;
}

struct mt {
	CUcontext ctx;
	CUmodule mod;
	CUfunction scale;	/* data[i] = data[i] * 3 + 7 */
};

static CUresult scale(const struct mt *t, CUdeviceptr p, int n, CUstream s)
{
	void *args[] = { &p, &n };

	return cuLaunchKernel(t->scale, (n + 255) / 256, 1, 1, 256, 1, 1, 0, s,
			      args, NULL);
}

/*
 * The module's global segment is managed memory too (it has a __managed__
 * variable): one launch on device memory faults it in first, so that the
 * counters below move for the tests' own allocations only.
 */
static void mt_setup(struct __test_metadata *_metadata, struct mt *t)
{
	CUdeviceptr d;

	CU_SETUP(&t->ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&t->mod, DRV_PTX));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&t->scale, t->mod,
						    "scale_by_const"));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, 256 * sizeof(int)));
	ASSERT_EQ(CUDA_SUCCESS, scale(t, d, 256, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(d));
}

TEST(attributes_say_what_the_design_supports)
{
	CUcontext ctx;
	int v = -1;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetAttribute(&v,
			CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, 0));
	EXPECT_EQ(1, v);
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetAttribute(&v,
			CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, 0));
	EXPECT_EQ(1, v);
	/* No HMM: memory the driver did not allocate stays out of reach. */
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetAttribute(&v,
			CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS, 0));
	EXPECT_EQ(0, v);
}

TEST(kernel_faults_blocks_in_and_host_faults_them_back)
{
	long long faults, vram0, back;
	CUdeviceptr m;
	struct mt t;
	int *p;

	mt_setup(_metadata, &t);
	vram0 = counter("resident_bytes");
	ASSERT_LE(0, vram0);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocManaged(&m, N * sizeof(int),
						  CU_MEM_ATTACH_GLOBAL));
	p = (int *)(uintptr_t)m;
	EXPECT_EQ(0, m % BLOCK);	/* one address, 64 KiB aligned */
	for (int i = 0; i < N; i++)
		p[i] = i;
	EXPECT_EQ(vram0, counter("resident_bytes"));
	faults = counter("gpu_faults");
	ASSERT_EQ(CUDA_SUCCESS, scale(&t, m, N, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	EXPECT_LE(faults + 8, counter("gpu_faults"));
	EXPECT_EQ(vram0 + 8 * BLOCK, counter("resident_bytes"));
	/* The host reads one block: that block, and only it, comes back. */
	back = counter("to_host");
	EXPECT_EQ(5 * 3 + 7, p[5]);
	EXPECT_EQ(back + 1, counter("to_host"));
	EXPECT_EQ(vram0 + 7 * BLOCK, counter("resident_bytes"));
	for (int i = 0; i < N; i++)
		ASSERT_EQ(i * 3 + 7, p[i]);
	EXPECT_EQ(vram0, counter("resident_bytes"));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(m));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(t.mod));
}

TEST(prefetch_moves_in_stream_order)
{
	CUmemLocation dev = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = 0 };
	CUmemLocation host = { .type = CU_MEM_LOCATION_TYPE_HOST };
	long long faults, vram0;
	CUdeviceptr m;
	struct mt t;
	CUstream s;
	int *p;

	mt_setup(_metadata, &t);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	vram0 = counter("resident_bytes");
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocManaged(&m, N * sizeof(int),
						  CU_MEM_ATTACH_GLOBAL));
	p = (int *)(uintptr_t)m;
	for (int i = 0; i < N; i++)
		p[i] = 2 * i;
	ASSERT_EQ(CUDA_SUCCESS, cuMemPrefetchAsync(m, N * sizeof(int), dev, 0,
						   s));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s));
	EXPECT_EQ(vram0 + 8 * BLOCK, counter("resident_bytes"));
	/* Already there: the kernel takes no fault. */
	faults = counter("gpu_faults");
	ASSERT_EQ(CUDA_SUCCESS, scale(&t, m, N, s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemPrefetchAsync(m, N * sizeof(int), host, 0,
						   s));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s));
	EXPECT_EQ(faults, counter("gpu_faults"));
	/* The prefetch to the host ran after the kernel, in stream order. */
	EXPECT_EQ(vram0, counter("resident_bytes"));
	for (int i = 0; i < N; i++)
		ASSERT_EQ(2 * i * 3 + 7, p[i]);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(m));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(t.mod));
}

TEST(preferred_location_and_free_while_in_vram)
{
	CUmemLocation dev = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = 0 };
	long long vram0, used0;
	CUcontext ctx;
	CUdeviceptr m;

	CU_SETUP(&ctx);
	vram0 = counter("resident_bytes");
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocManaged(&m, 3 * BLOCK,
						  CU_MEM_ATTACH_GLOBAL));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAdvise(m + BLOCK, BLOCK,
			CU_MEM_ADVISE_SET_PREFERRED_LOCATION, dev));
	EXPECT_EQ(vram0 + BLOCK, counter("resident_bytes"));
	used0 = counter("to_device");
	ASSERT_EQ(CUDA_SUCCESS, cuMemAdvise(m, 3 * BLOCK,
			CU_MEM_ADVISE_SET_PREFERRED_LOCATION, dev));
	EXPECT_EQ(used0 + 2, counter("to_device"));
	/* Freed with its blocks in VRAM: they go with it. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(m));
	EXPECT_EQ(vram0, counter_settle("resident_bytes", vram0));
}

TEST(hint_errors)
{
	CUmemLocation dev9 = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = 9 };
	CUmemLocation dev = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = 0 };
	CUmemLocation bad = { .type = CU_MEM_LOCATION_TYPE_INVALID };
	CUdeviceptr m, d;
	CUcontext ctx;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocManaged(&m, BLOCK,
						  CU_MEM_ATTACH_GLOBAL));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, BLOCK));
	EXPECT_EQ(CUDA_ERROR_INVALID_DEVICE,
		  cuMemPrefetchAsync(m, BLOCK, dev9, 0, NULL));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuMemPrefetchAsync(m, BLOCK, bad, 0, NULL));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuMemPrefetchAsync(m, BLOCK, dev, 1, NULL));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuMemPrefetchAsync(m, BLOCK + 1, dev, 0, NULL));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuMemPrefetchAsync(m, 0, dev, 0, NULL));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuMemPrefetchAsync(d, BLOCK, dev, 0, NULL));
	EXPECT_EQ(CUDA_ERROR_INVALID_DEVICE,
		  cuMemAdvise(m, BLOCK, CU_MEM_ADVISE_SET_PREFERRED_LOCATION,
			      dev9));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuMemAdvise(m, BLOCK, CU_MEM_ADVISE_SET_PREFERRED_LOCATION,
			      bad));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuMemAdvise(d, BLOCK, CU_MEM_ADVISE_SET_READ_MOSTLY, dev));
	EXPECT_EQ(CUDA_SUCCESS,
		  cuMemAdvise(m, BLOCK, CU_MEM_ADVISE_SET_READ_MOSTLY, dev));
	EXPECT_EQ(CUDA_SUCCESS,
		  cuMemAdvise(m, BLOCK, CU_MEM_ADVISE_SET_ACCESSED_BY, dev));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(d));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(m));
}

/* One 32-bit answer of cuMemRangeGetAttribute, or -100 on an error. */
static int range_attr(CUmem_range_attribute attr, CUdeviceptr p, size_t n)
{
	int v = -100;

	return cuMemRangeGetAttribute(&v, sizeof(v), attr, p, n) ==
	       CUDA_SUCCESS ? v : -100;
}

TEST(range_attributes_report_the_advice)
{
	CUmemLocation dev = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = 0 };
	CUmemLocation host = { .type = CU_MEM_LOCATION_TYPE_HOST };
	CUmem_range_attribute attrs[2] = {
		CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY,
		CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY,
	};
	int by[3], rm = -100;
	void *data[2] = { &rm, by };
	size_t sizes[2] = { sizeof(rm), sizeof(by) };
	CUcontext ctx;
	CUdeviceptr m;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocManaged(&m, 3 * BLOCK,
						  CU_MEM_ATTACH_GLOBAL));
	/* Nothing advised, nothing prefetched. */
	EXPECT_EQ(0, range_attr(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 1));
	EXPECT_EQ(CU_DEVICE_INVALID,
		  range_attr(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, 1));
	EXPECT_EQ(CU_MEM_LOCATION_TYPE_INVALID,
		  range_attr(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE,
			     m, 3 * BLOCK));
	EXPECT_EQ(CU_DEVICE_INVALID,
		  range_attr(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION,
			     m, 3 * BLOCK));
	ASSERT_EQ(CUDA_SUCCESS, cuMemRangeGetAttribute(by, sizeof(by),
			CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, 3 * BLOCK));
	EXPECT_EQ(CU_DEVICE_INVALID, by[0]);
	EXPECT_EQ(CU_DEVICE_INVALID, by[2]);

	/* Read-mostly on blocks 0-1: 1 there, 0 for a range past them. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemAdvise(m, 2 * BLOCK,
			CU_MEM_ADVISE_SET_READ_MOSTLY, dev));
	EXPECT_EQ(1, range_attr(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m,
				2 * BLOCK));
	EXPECT_EQ(0, range_attr(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m,
				2 * BLOCK + 1));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAdvise(m + 4096, 1,
			CU_MEM_ADVISE_UNSET_READ_MOSTLY, dev));
	EXPECT_EQ(1, range_attr(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 4096));
	EXPECT_EQ(0, range_attr(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 4097));

	/* Preferred: device 0 for block 1, the host for block 2. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemAdvise(m + BLOCK, BLOCK,
			CU_MEM_ADVISE_SET_PREFERRED_LOCATION, dev));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAdvise(m + 2 * BLOCK, BLOCK,
			CU_MEM_ADVISE_SET_PREFERRED_LOCATION, host));
	EXPECT_EQ(0, range_attr(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION,
				m + BLOCK, BLOCK));
	EXPECT_EQ(CU_MEM_LOCATION_TYPE_DEVICE,
		  range_attr(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE,
			     m + BLOCK, BLOCK));
	EXPECT_EQ(0, range_attr(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID,
				m + BLOCK, BLOCK));
	EXPECT_EQ(CU_DEVICE_CPU,
		  range_attr(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION,
			     m + 2 * BLOCK, 8));
	EXPECT_EQ(CU_MEM_LOCATION_TYPE_HOST,
		  range_attr(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE,
			     m + 2 * BLOCK, 8));
	/* Pages that differ, or have none: CU_DEVICE_INVALID. */
	EXPECT_EQ(CU_DEVICE_INVALID,
		  range_attr(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION,
			     m + BLOCK, 2 * BLOCK));
	EXPECT_EQ(CU_DEVICE_INVALID,
		  range_attr(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION,
			     m, 2 * BLOCK));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAdvise(m + BLOCK, 2 * BLOCK,
			CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION, dev));
	EXPECT_EQ(CU_DEVICE_INVALID,
		  range_attr(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION,
			     m + 2 * BLOCK, 8));

	/* Accessed-by: device 0 everywhere, the host on block 0 only. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemAdvise(m, 3 * BLOCK,
			CU_MEM_ADVISE_SET_ACCESSED_BY, dev));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAdvise(m, BLOCK,
			CU_MEM_ADVISE_SET_ACCESSED_BY, host));
	ASSERT_EQ(CUDA_SUCCESS, cuMemRangeGetAttribute(by, sizeof(by),
			CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, BLOCK));
	EXPECT_EQ(CU_DEVICE_CPU, by[0]);
	EXPECT_EQ(0, by[1]);
	EXPECT_EQ(CU_DEVICE_INVALID, by[2]);
	ASSERT_EQ(CUDA_SUCCESS, cuMemRangeGetAttribute(by, sizeof(by),
			CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, 3 * BLOCK));
	EXPECT_EQ(0, by[0]);
	EXPECT_EQ(CU_DEVICE_INVALID, by[1]);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAdvise(m, 3 * BLOCK,
			CU_MEM_ADVISE_UNSET_ACCESSED_BY, dev));
	ASSERT_EQ(CUDA_SUCCESS, cuMemRangeGetAttribute(by, sizeof(by),
			CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m + 4096, 4096));
	EXPECT_EQ(CU_DEVICE_CPU, by[0]);
	EXPECT_EQ(CU_DEVICE_INVALID, by[1]);

	/* The last prefetch asked for, per page. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemPrefetchAsync(m, 3 * BLOCK, host, 0,
						   NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuMemPrefetchAsync(m + BLOCK, BLOCK, dev, 0,
						   NULL));
	EXPECT_EQ(CU_DEVICE_CPU,
		  range_attr(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION,
			     m, BLOCK));
	EXPECT_EQ(0, range_attr(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION,
				m + BLOCK, BLOCK));
	EXPECT_EQ(CU_MEM_LOCATION_TYPE_DEVICE,
		  range_attr(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE,
			     m + BLOCK, BLOCK));
	EXPECT_EQ(CU_DEVICE_INVALID,
		  range_attr(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION,
			     m, 2 * BLOCK));

	/* Several at once. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemRangeGetAttributes(data, sizes, attrs, 2,
							m + 8, 16));
	EXPECT_EQ(1, rm);
	EXPECT_EQ(CU_DEVICE_CPU, by[0]);

	/* Errors: CUDA_ERROR_INVALID_VALUE for each. */
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemRangeGetAttribute(&rm, 8,
			CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, BLOCK));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemRangeGetAttribute(by, 6,
			CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, BLOCK));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemRangeGetAttribute(NULL, 4,
			CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, BLOCK));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemRangeGetAttribute(&rm, 4,
			(CUmem_range_attribute)99, m, BLOCK));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemRangeGetAttribute(&rm, 4,
			CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemRangeGetAttribute(&rm, 4,
			CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 3 * BLOCK + 1));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemRangeGetAttributes(data,
			sizes, attrs, 0, m, BLOCK));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(m));
	/* Freed: the advice went with it. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocManaged(&m, 3 * BLOCK,
						  CU_MEM_ATTACH_GLOBAL));
	EXPECT_EQ(0, range_attr(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 1));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(m));
}

TEST(accessed_by_reaches_host_blocks_without_faults)
{
	CUmemLocation dev = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = 0 };
	long long faults, to_dev, cpu;
	CUdeviceptr m;
	struct mt t;
	int *p;

	mt_setup(_metadata, &t);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocManaged(&m, N * sizeof(int),
						  CU_MEM_ATTACH_GLOBAL));
	p = (int *)(uintptr_t)m;
	for (int i = 0; i < N; i++)
		p[i] = i;
	ASSERT_EQ(CUDA_SUCCESS, cuMemAdvise(m, N * sizeof(int),
			CU_MEM_ADVISE_SET_ACCESSED_BY, dev));
	faults = counter("gpu_faults");
	to_dev = counter("to_device");
	cpu = counter("cpu_faults");
	/* The kernel works on the host pages in place: nothing moves. */
	ASSERT_EQ(CUDA_SUCCESS, scale(&t, m, N, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	EXPECT_EQ(faults, counter("gpu_faults"));
	EXPECT_EQ(to_dev, counter("to_device"));
	for (int i = 0; i < N; i++)
		ASSERT_EQ(i * 3 + 7, p[i]);
	EXPECT_EQ(cpu, counter("cpu_faults"));
	/* A prefetch still moves it; a kernel there, the host back. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemPrefetchAsync(m, N * sizeof(int), dev, 0,
						   NULL));
	ASSERT_EQ(CUDA_SUCCESS, scale(&t, m, N, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	EXPECT_EQ(to_dev + 8, counter("to_device"));
	for (int i = 0; i < N; i++)
		ASSERT_EQ((i * 3 + 7) * 3 + 7, p[i]);
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(m));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(t.mod));
}

CUDA_TEST_MAIN
