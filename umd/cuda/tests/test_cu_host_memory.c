// SPDX-License-Identifier: GPL-2.0
/*
 * test_cu_host_memory.c - the host-memory paths of libcuda, end to end:
 * data integrity of every kind of host memory (pageable, pinned,
 * write-combined, registered) at sizes and offsets that are not page
 * multiples, kernels working on mapped memory, registered pages that
 * outlive the process's mapping, RLIMIT_MEMLOCK, portable memory used from
 * a second device, and the driver's accounting after programs end however
 * they end.
 *
 * The API's flags and error codes are tested in test_cu_memory.c; this
 * file is about what happens to the bytes.  It runs with two vgpu devices
 * (test_cu_host_memory.vmargs: num_devices=2) and starts a firmware for
 * each.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>

#include "cuda_test.h"

#define KiB 1024ul
#define MiB (1024ul * KiB)
#define PAGE 4096ul

static void fill_pattern(uint8_t *p, size_t n, unsigned int seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 13 + seed + (i >> 12) * 7);
}

/* Index of the first byte that differs from the pattern, or -1. */
static long check_pattern(const uint8_t *p, size_t n, unsigned int seed)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != (uint8_t)(i * 13 + seed + (i >> 12) * 7))
			return (long)i;
	return -1;
}

/* A number from /sys/class/misc/vgpuN/@name, or -1. */
static long sysfs_num(unsigned int dev, const char *name)
{
	char path[96];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/misc/vgpu%u/%s", dev, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* VmPin of this process, in bytes: what the driver charged to it. */
static long vm_pin_bytes(void)
{
	char line[128];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmPin: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb < 0 ? -1 : kb * 1024;
}

/*
 * @fn(@arg) once it has settled at @want (up to 5 s): the driver drops its
 * last references to freed memory when the firmware has let go of the
 * GPU mappings, a little after the free returns.
 */
static long settled(long (*fn)(unsigned int), unsigned int arg, long want)
{
	long v = fn(arg);

	for (int i = 0; i < 500 && v != want; i++) {
		usleep(10000);
		v = fn(arg);
	}
	return v;
}

static long pinned_pages(unsigned int dev)
{
	return sysfs_num(dev, "pinned_pages");
}

static long vm_pin(unsigned int unused)
{
	(void)unused;
	return vm_pin_bytes();
}

/* Root pins without limit through CAP_IPC_LOCK: drop it. */
/* Drop @cap from the effective set of the calling thread. */
static int drop_cap(int cap)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data))
		return -errno;
	data[cap / 32].effective &= ~(1u << (cap % 32));
	if (syscall(SYS_capset, &hdr, data))
		return -errno;
	return 0;
}

static CUfunction load_scale(CUmodule *m)
{
	CUfunction f = NULL;

	if (cuModuleLoad(m, DRV_PTX) ||
	    cuModuleGetFunction(&f, *m, "scale_by_const"))
		return NULL;
	return f;
}

/* data[i] = data[i] * 3 + 7 on the device (scale_by_const), synchronised. */
static CUresult run_scale(CUfunction f, CUdeviceptr data, int n)
{
	void *params[] = { &data, &n };
	CUresult res = cuLaunchKernel(f, (unsigned int)(n + 127) / 128, 1, 1,
				      128, 1, 1, 0, NULL, params, NULL);

	return res ? res : cuCtxSynchronize();
}

/* ---- one kind of host memory, as a test sees it ---------------------------- */

enum host_kind { HOST_PAGEABLE, HOST_PINNED, HOST_WC, HOST_REGISTERED,
		 HOST_KINDS };
static const char *const host_kind_name[HOST_KINDS] = {
	"pageable", "pinned", "write-combined", "registered"
};

struct host_buf {
	enum host_kind kind;
	uint8_t *mem;		/* what the copies use */
	uint8_t *map;		/* the mmap behind pageable/registered */
	size_t size, map_size;
};

/* @size usable bytes; registered memory starts mid-page. */
static CUresult host_buf_get(struct host_buf *b, enum host_kind kind,
			     size_t size)
{
	CUresult res = CUDA_SUCCESS;

	memset(b, 0, sizeof(*b));
	b->kind = kind;
	b->size = size;
	switch (kind) {
	case HOST_PINNED:
	case HOST_WC:
		return cuMemHostAlloc((void **)&b->mem, size,
				      kind == HOST_WC ?
				      CU_MEMHOSTALLOC_WRITECOMBINED : 0);
	case HOST_PAGEABLE:
	case HOST_REGISTERED:
		b->map_size = (size + 1000 + 2 * PAGE) & ~(PAGE - 1);
		b->map = mmap(NULL, b->map_size, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (b->map == MAP_FAILED)
			return CUDA_ERROR_OUT_OF_MEMORY;
		b->mem = b->map + 1000;
		if (kind == HOST_REGISTERED)
			res = cuMemHostRegister(b->mem, size, 0);
		return res;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

static CUresult host_buf_put(struct host_buf *b)
{
	CUresult res = CUDA_SUCCESS;

	if (b->kind == HOST_PINNED || b->kind == HOST_WC)
		return cuMemFreeHost(b->mem);
	if (b->kind == HOST_REGISTERED)
		res = cuMemHostUnregister(b->mem);
	munmap(b->map, b->map_size);
	return res;
}

/*
 * host(@from)+@so -> device -> device -> host(@to)+@dso, @n bytes, with
 * the synchronous unified cuMemcpy or async copies on @s.  Returns the
 * first wrong byte, -1 if all are right, or -2 - error.
 */
static long round_trip(struct host_buf *from, struct host_buf *to,
		       CUdeviceptr d1, CUdeviceptr d2, size_t n, size_t so,
		       size_t dso, CUstream s, unsigned int seed)
{
	CUresult res;

	fill_pattern(from->mem + so, n, seed);
	memset(to->mem + dso, 0xee, n);
	if (s) {
		res = cuMemcpyHtoDAsync(d1 + (so % 256), from->mem + so, n, s);
		if (!res)
			res = cuMemcpyDtoDAsync(d2 + (dso % 512),
						d1 + (so % 256), n, s);
		if (!res)
			res = cuMemcpyDtoHAsync(to->mem + dso,
						d2 + (dso % 512), n, s);
		if (!res)
			res = cuStreamSynchronize(s);
	} else {
		res = cuMemcpy(d1 + (so % 256), (CUdeviceptr)(from->mem + so),
			       n);
		if (!res)
			res = cuMemcpy(d2 + (dso % 512), d1 + (so % 256), n);
		if (!res)
			res = cuMemcpy((CUdeviceptr)(to->mem + dso),
				       d2 + (dso % 512), n);
	}
	if (res)
		return -2 - (long)res;
	return check_pattern(to->mem + dso, n, seed);
}

/*
 * Every pair of kinds, both ways of copying, sizes around page and
 * staging-buffer boundaries, at offsets that start mid-page.
 */
TEST(copies_every_kind_size_and_offset)
{
	static const size_t sizes[] = { 1, 7, 4095, 4096, 4097, 12289,
					65536 + 3, (1 << 20) + 5,
					(2 << 20) + 4093 };
	static const size_t offs[] = { 0, 1, 2049, 4095 };
	const size_t max = (2 << 20) + 4093 + 4096;
	struct host_buf h[HOST_KINDS], out[HOST_KINDS];
	CUdeviceptr d1, d2;
	unsigned int seed = 1;
	CUcontext ctx;
	CUstream s;
	int a, b;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d1, max + 256));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d2, max + 512));
	for (a = 0; a < HOST_KINDS; a++) {
		ASSERT_EQ(CUDA_SUCCESS, host_buf_get(&h[a], a, max));
		ASSERT_EQ(CUDA_SUCCESS, host_buf_get(&out[a], a, max));
	}
	for (a = 0; a < HOST_KINDS; a++) {
		for (b = 0; b < HOST_KINDS; b++) {
			for (size_t i = 0; i < sizeof(sizes) / sizeof(*sizes); i++) {
				size_t so = offs[(i + a) % 4], dso = offs[(i + b + 1) % 4];
				long bad = round_trip(&h[a], &out[b], d1, d2,
						      sizes[i], so, dso,
						      (i & 1) ? s : NULL, seed++);

				if (bad != -1) {
					TH_LOG("%s -> %s, %zu bytes at +%zu/+%zu (%s): %ld",
					       host_kind_name[a],
					       host_kind_name[b], sizes[i], so,
					       dso, (i & 1) ? "async" : "sync",
					       bad);
				}
				ASSERT_EQ(-1, bad);
			}
		}
	}
	/* Host to host through cuMemcpy, pinned <-> pageable. */
	fill_pattern(h[HOST_PINNED].mem + 3, 100000, 99);
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpy((CUdeviceptr)h[HOST_PAGEABLE].mem + 5,
					 (CUdeviceptr)h[HOST_PINNED].mem + 3,
					 100000));
	ASSERT_EQ(-1, check_pattern(h[HOST_PAGEABLE].mem + 5, 100000, 99));
	for (a = 0; a < HOST_KINDS; a++) {
		ASSERT_EQ(CUDA_SUCCESS, host_buf_put(&h[a]));
		ASSERT_EQ(CUDA_SUCCESS, host_buf_put(&out[a]));
	}
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(d1));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(d2));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s));
}

/*
 * CUDA's rules for pageable memory and async copies: a host-to-device
 * copy returns once the source has been read (it may be reused at once),
 * a device-to-host copy returns with the data in place, after the
 * stream's earlier work.
 */
TEST(pageable_async_semantics)
{
	const size_t n = (3 << 20) + 17;
	uint8_t *src = malloc(n), *dst = malloc(n);
	CUdeviceptr d;
	CUcontext ctx;
	CUstream s;

	ASSERT_NE(NULL, src);
	ASSERT_NE(NULL, dst);
	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, n));
	fill_pattern(src, n, 5);
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoDAsync(d, src, n, s));
	memset(src, 0, n);		/* the device must have the old bytes */
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD8Async(d, 0x5a, 1000, s));
	memset(dst, 0, n);
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoHAsync(dst, d, n, s));
	/* No synchronisation: the data are there when the call returns. */
	for (size_t i = 0; i < 1000; i++)
		ASSERT_EQ(0x5a, dst[i]);
	/* The rest is the source as it was before it was cleared. */
	fill_pattern(dst, 1000, 5);
	ASSERT_EQ(-1, check_pattern(dst, n, 5));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(d));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamDestroy(s));
	free(src);
	free(dst);
}

/*
 * Zero copy: a kernel reads and writes host memory through the GART.
 * Host writes made before the launch are what it reads; what it writes
 * is what the host reads after synchronising - round after round.
 */
TEST(mapped_memory_kernel_access)
{
	const int n = 3000;
	const size_t bytes = (size_t)n * sizeof(int);
	unsigned int kinds[] = { CU_MEMHOSTALLOC_DEVICEMAP,
				 CU_MEMHOSTALLOC_DEVICEMAP |
				 CU_MEMHOSTALLOC_WRITECOMBINED,
				 0, /* mapped anyway: unified addressing */
				 ~0u /* registered, from mid-page */ };
	CUcontext ctx;
	CUmodule m;
	CUfunction f;
	char *map = NULL;

	CU_SETUP(&ctx);
	f = load_scale(&m);
	ASSERT_NE(NULL, f);
	for (unsigned int k = 0; k < sizeof(kinds) / sizeof(*kinds); k++) {
		CUdeviceptr dp;
		int *h;

		if (kinds[k] == ~0u) {
			map = mmap(NULL, bytes + 2 * PAGE,
				   PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			ASSERT_NE(MAP_FAILED, map);
			h = (int *)(map + 1028);
			ASSERT_EQ(CUDA_SUCCESS, cuMemHostRegister(h, bytes,
				  CU_MEMHOSTREGISTER_DEVICEMAP));
		} else {
			ASSERT_EQ(CUDA_SUCCESS,
				  cuMemHostAlloc((void **)&h, bytes, kinds[k]));
		}
		ASSERT_EQ(CUDA_SUCCESS, cuMemHostGetDevicePointer(&dp, h, 0));
		for (int round = 0; round < 3; round++) {
			for (int i = 0; i < n; i++)
				h[i] = i - 1000 * round;
			ASSERT_EQ(CUDA_SUCCESS, run_scale(f, dp, n));
			for (int i = 0; i < n; i++) {
				if (h[i] != (i - 1000 * round) * 3 + 7) {
					TH_LOG("kind %u round %d [%d] = %d",
					       k, round, i, h[i]);
				}
				ASSERT_EQ((i - 1000 * round) * 3 + 7, h[i]);
			}
		}
		if (kinds[k] == ~0u) {
			ASSERT_EQ(CUDA_SUCCESS, cuMemHostUnregister(h));
			munmap(map, bytes + 2 * PAGE);
		} else {
			ASSERT_EQ(CUDA_SUCCESS, cuMemFreeHost(h));
		}
	}
	ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(m));
}

/*
 * Read-only pages (PROT_READ) registered READ_ONLY: the copy engine and
 * kernels read them; the results land in device memory.
 */
TEST(registered_read_only_pages)
{
	const int n = 3000;
	const size_t bytes = (size_t)n * sizeof(float), len = bytes + 2 * PAGE;
	float *ro, *sum = malloc(bytes), *copy = malloc(bytes);
	CUdeviceptr c, d;
	CUfunction f;
	CUcontext ctx;
	CUmodule m;
	char *map;

	ASSERT_NE(NULL, sum);
	ASSERT_NE(NULL, copy);
	CU_SETUP(&ctx);
	map = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, map);
	ro = (float *)(map + 500);
	for (int i = 0; i < n; i++)
		ro[i] = (float)i * 0.5f;
	ASSERT_EQ(0, mprotect(map, len, PROT_READ));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemHostRegister(ro, bytes, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostRegister(ro, bytes,
		  CU_MEMHOSTREGISTER_READ_ONLY | CU_MEMHOSTREGISTER_DEVICEMAP));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&c, bytes));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, bytes));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&m, DRV_PTX));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&f, m, "vec_add"));
	{
		CUdeviceptr a = (CUdeviceptr)ro;
		int count = n;
		void *params[] = { &a, &a, &c, &count };

		ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(f, (n + 127) / 128, 1,
			  1, 128, 1, 1, 0, NULL, params, NULL));
	}
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoD(d, ro, bytes));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(sum, c, bytes));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(copy, d, bytes));
	for (int i = 0; i < n; i++) {
		ASSERT_EQ((float)i, sum[i]);
		ASSERT_EQ((float)i * 0.5f, copy[i]);
	}
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostUnregister(ro));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(m));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(c));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(d));
	munmap(map, len);
	free(sum);
	free(copy);
}

/*
 * Registered pages stay the device's while registered, even after the
 * process has unmapped them; unregistering releases the pins.
 */
TEST(registered_pages_outlive_munmap)
{
	const size_t n = 5 * PAGE;
	uint8_t *buf, *back = malloc(n);
	long pinned0;
	CUdeviceptr d;
	CUcontext ctx;

	ASSERT_NE(NULL, back);
	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, n));
	buf = mmap(NULL, n, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, buf);
	fill_pattern(buf, n, 42);
	/* A pageable copy first: its bounce buffers are pinned for good. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(back, d, n));
	pinned0 = pinned_pages(0);
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostRegister(buf, n, 0));
	ASSERT_EQ(pinned0 + 5, sysfs_num(0, "pinned_pages"));
	ASSERT_EQ(0, munmap(buf, n));
	/* The pinned pages still hold the bytes, and the device reaches them. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoD(d, buf, n));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(back, d, n));
	ASSERT_EQ(-1, check_pattern(back, n, 42));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(buf, d, n));
	ASSERT_EQ(pinned0 + 5, sysfs_num(0, "pinned_pages"));
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostUnregister(buf));
	ASSERT_EQ(pinned0, settled(pinned_pages, 0, pinned0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(d));
	free(back);
}

/*
 * RLIMIT_MEMLOCK: what is over the limit is refused with
 * CUDA_ERROR_OUT_OF_MEMORY and charges nothing; what fits works.  Pinned
 * memory portable to the second device is pinned (and charged) once per
 * device.
 */
TEST(rlimit_memlock)
{
	struct rlimit rl;
	long base, pinned0, pinned1;
	int ndev;
	void *p, *q;
	char *buf;
	CUcontext ctx;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetCount(&ndev));
	ASSERT_EQ(0, drop_cap(CAP_IPC_LOCK));
	base = vm_pin_bytes();
	ASSERT_LE(0, base);
	rl.rlim_cur = rl.rlim_max = (rlim_t)base + 4 * MiB;
	ASSERT_EQ(0, setrlimit(RLIMIT_MEMLOCK, &rl));
	pinned0 = sysfs_num(0, "pinned_pages");
	pinned1 = sysfs_num(1, "pinned_pages");
	buf = mmap(NULL, 8 * MiB, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, buf);

	ASSERT_EQ(CUDA_ERROR_OUT_OF_MEMORY, cuMemHostAlloc(&p, 8 * MiB, 0));
	ASSERT_EQ(CUDA_ERROR_OUT_OF_MEMORY, cuMemAllocHost(&p, 5 * MiB));
	ASSERT_EQ(CUDA_ERROR_OUT_OF_MEMORY, cuMemHostRegister(buf, 8 * MiB, 0));
	ASSERT_EQ(CUDA_ERROR_OUT_OF_MEMORY,
		  cuMemHostRegister(buf, 5 * MiB, CU_MEMHOSTREGISTER_PORTABLE));
	/* Fits on device 0 but not twice: refused, nothing kept. */
	ASSERT_EQ(ndev >= 2 ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_SUCCESS,
		  cuMemHostAlloc(&p, 3 * MiB, CU_MEMHOSTALLOC_PORTABLE));
	if (ndev < 2) {
		ASSERT_EQ(CUDA_SUCCESS, cuMemFreeHost(p));
	}
	ASSERT_EQ(base, settled(vm_pin, 0, base));
	ASSERT_EQ(pinned0, settled(pinned_pages, 0, pinned0));
	ASSERT_EQ(pinned1, settled(pinned_pages, 1, pinned1));

	/* Within the limit. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostAlloc(&q, 1 * MiB, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostRegister(buf, 1 * MiB, 0));
	ASSERT_LE(base + (ndev >= 2 ? 3 : 2) * (long)MiB, vm_pin_bytes());
	ASSERT_EQ(CUDA_ERROR_OUT_OF_MEMORY,
		  cuMemHostRegister(buf + 2 * MiB, 2 * MiB, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostUnregister(buf));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeHost(q));
	ASSERT_EQ(base, settled(vm_pin, 0, base));
	ASSERT_EQ(pinned0, settled(pinned_pages, 0, pinned0));
	ASSERT_EQ(pinned1, settled(pinned_pages, 1, pinned1));
	munmap(buf, 8 * MiB);
}

/* Write a module parameter of vgpu; 0 or -1. */
static int vgpu_param_set(const char *name, const char *value)
{
	char path[128];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "/sys/module/vgpu/parameters/%s", name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	ret = fputs(value, f) < 0;
	return fclose(f) || ret ? -1 : 0;
}

/*
 * A GART that cannot take the memory, or a user whose share of the GART
 * is used up (the driver's -ENOSPC and -EDQUOT): CUDA's answer is
 * CUDA_ERROR_OUT_OF_MEMORY, for registration as for allocation.
 */
TEST(full_gart_is_out_of_memory)
{
	CUcontext ctx;
	size_t size, share;
	long entries;
	char *buf;
	void *p;

	CU_SETUP(&ctx);
	entries = sysfs_num(0, "gart_entries");
	ASSERT_LT(0, entries);
	/* Never touched, never pinned: refused before the first page. */
	size = (size_t)entries * PAGE + MiB;
	buf = mmap(NULL, size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	ASSERT_NE(MAP_FAILED, buf);
	ASSERT_EQ(CUDA_ERROR_OUT_OF_MEMORY, cuMemHostRegister(buf, size, 0));
	ASSERT_EQ(CUDA_ERROR_OUT_OF_MEMORY, cuMemHostAlloc(&p, size, 0));

	/* 1% of the GART per user; CAP_SYS_RESOURCE would lift the limit. */
	ASSERT_EQ(0, vgpu_param_set("user_gart_pct", "1"));
	share = (size_t)sysfs_num(0, "user_gart_limit_entries") * PAGE;
	ASSERT_EQ(0, drop_cap(CAP_SYS_RESOURCE));
	EXPECT_EQ(CUDA_ERROR_OUT_OF_MEMORY,
		  cuMemHostRegister(buf, share + MiB, 0));
	EXPECT_EQ(CUDA_ERROR_OUT_OF_MEMORY,
		  cuMemHostAlloc(&p, share + MiB, 0));
	/* Within the share: fine. */
	EXPECT_EQ(CUDA_SUCCESS, cuMemHostRegister(buf, MiB, 0));
	EXPECT_EQ(CUDA_SUCCESS, cuMemHostUnregister(buf));
	/* Writing the parameter back needs no capability beyond root's. */
	ASSERT_EQ(0, vgpu_param_set("user_gart_pct", "50"));
	munmap(buf, size);
}

/*
 * Portable memory: allocated (or registered PORTABLE) while device 0 is
 * current, used by kernels and copies of device 1 - in a context that
 * existed before and in one created after.  Registered memory that is not
 * portable stays device 0's; device 1 still copies it, as pageable memory.
 */
TEST(portable_memory_on_second_device)
{
	const int n = 2000;
	const size_t bytes = (size_t)n * sizeof(int);
	CUcontext ctx0, ctx1, ctx1b;
	CUdevice dev1;
	CUmodule m;
	CUfunction f;
	CUdeviceptr d;
	int ndev, ordinal, *alloc, *plain, *reg, *own, *back;
	char *map;
	long pinned1, ctx1_pinned;

	CU_SETUP(&ctx0);
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetCount(&ndev));
	ASSERT_LE(2, ndev);	/* test_cu_host_memory.vmargs asks for two */
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGet(&dev1, 1));
	pinned1 = pinned_pages(1);
	/* A context of device 1 that exists before the allocations. */
	ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&ctx1, NULL, 0, dev1));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(ctx0));
	ctx1_pinned = pinned_pages(1);

	back = malloc(bytes);
	ASSERT_NE(NULL, back);
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostAlloc((void **)&alloc, bytes,
		  CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP));
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostAlloc((void **)&plain, bytes,
		  CU_MEMHOSTALLOC_WRITECOMBINED));
	map = mmap(NULL, 2 * bytes + 3 * PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, map);
	reg = (int *)(map + 100);
	own = (int *)(map + bytes + 2 * PAGE + 200);
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostRegister(reg, bytes,
		  CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP));
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostRegister(own, bytes, 0));
	/* The same pages, pinned for device 1 too (all but "own"). */
	ASSERT_LT(ctx1_pinned, pinned_pages(1));

	for (int c = 0; c < 2; c++) {
		int *bufs[] = { alloc, plain, reg };

		if (c == 1) {
			ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&ctx1b, NULL, 0,
							    dev1));
		} else {
			ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(ctx1));
		}
		ASSERT_EQ(CUDA_SUCCESS, cuCtxGetDevice(&ordinal));
		ASSERT_EQ(1, ordinal);
		f = load_scale(&m);
		ASSERT_NE(NULL, f);
		for (unsigned int b = 0; b < 3; b++) {
			for (int i = 0; i < n; i++)
				bufs[b][i] = i + (int)b * 10 + c;
			ASSERT_EQ(CUDA_SUCCESS,
				  run_scale(f, (CUdeviceptr)bufs[b], n));
			for (int i = 0; i < n; i++)
				ASSERT_EQ((i + (int)b * 10 + c) * 3 + 7,
					  bufs[b][i]);
		}
		/* Copies on device 1, DMA and staged. */
		ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, bytes));
		for (int i = 0; i < n; i++)
			own[i] = -i;
		ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoD(d, own, bytes));
		ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(alloc, d, bytes));
		ASSERT_EQ(CUDA_SUCCESS, run_scale(f, d, n));
		ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(reg, d, bytes));
		ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(own, d, bytes));
		for (int i = 0; i < n; i++) {
			ASSERT_EQ(-i, alloc[i]);
			ASSERT_EQ(-i * 3 + 7, reg[i]);
			ASSERT_EQ(-i * 3 + 7, own[i]);
		}
		ASSERT_EQ(CUDA_SUCCESS, cuMemFree(d));
		ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(m));
	}
	ASSERT_EQ(CUDA_SUCCESS, cuCtxDestroy(ctx1b));
	/* Freed from device 1's side too. */
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(ctx0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeHost(alloc));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeHost(plain));
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostUnregister(reg));
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostUnregister(own));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxDestroy(ctx1));
	ASSERT_EQ(pinned1, settled(pinned_pages, 1, pinned1));
	munmap(map, 2 * bytes + 3 * PAGE);
	free(back);
}

/* Pointer attributes of the host kinds the API tests leave out. */
TEST(pointer_attributes_host_kinds)
{
	unsigned int type, flags;
	CUdeviceptr start, dp;
	size_t size;
	int ordinal, mapped;
	char *map, *wc;
	CUcontext ctx;

	CU_SETUP(&ctx);
	map = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, map);
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostRegister(map + 10, 5000,
		  CU_MEMHOSTREGISTER_READ_ONLY));
	ASSERT_EQ(CUDA_SUCCESS, cuPointerGetAttribute(&type,
		  CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(map + 4000)));
	ASSERT_EQ(CU_MEMORYTYPE_HOST, type);
	ASSERT_EQ(CUDA_SUCCESS, cuPointerGetAttribute(&start,
		  CU_POINTER_ATTRIBUTE_RANGE_START_ADDR,
		  (CUdeviceptr)(map + 4000)));
	ASSERT_EQ((CUdeviceptr)(map + 10), start);
	ASSERT_EQ(CUDA_SUCCESS, cuPointerGetAttribute(&size,
		  CU_POINTER_ATTRIBUTE_RANGE_SIZE, (CUdeviceptr)(map + 4000)));
	ASSERT_EQ(5000, size);
	ASSERT_EQ(CUDA_SUCCESS, cuPointerGetAttribute(&flags,
		  CU_POINTER_ATTRIBUTE_ACCESS_FLAGS, (CUdeviceptr)(map + 10)));
	ASSERT_EQ(CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READ, flags);
	ASSERT_EQ(CUDA_SUCCESS, cuPointerGetAttribute(&ordinal,
		  CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, (CUdeviceptr)(map + 10)));
	ASSERT_EQ(0, ordinal);
	/* Before the start and past the end of the registration: unknown. */
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttribute(&type,
		  CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(map + 5)));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttribute(&type,
		  CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
		  (CUdeviceptr)(map + 5010)));
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostGetFlags(&flags, map + 10));
	ASSERT_EQ(CU_MEMHOSTALLOC_DEVICEMAP, flags);
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostUnregister(map + 10));
	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttribute(&type,
		  CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(map + 10)));
	munmap(map, 3 * PAGE);

	ASSERT_EQ(CUDA_SUCCESS, cuMemHostAlloc((void **)&wc, 10000,
		  CU_MEMHOSTALLOC_WRITECOMBINED));
	ASSERT_EQ(CUDA_SUCCESS, cuPointerGetAttribute(&mapped,
		  CU_POINTER_ATTRIBUTE_MAPPED, (CUdeviceptr)(wc + 9999)));
	ASSERT_EQ(1, mapped);
	ASSERT_EQ(CUDA_SUCCESS, cuPointerGetAttribute(&dp,
		  CU_POINTER_ATTRIBUTE_DEVICE_POINTER, (CUdeviceptr)(wc + 7)));
	ASSERT_EQ((CUdeviceptr)(wc + 7), dp);
	ASSERT_EQ(CUDA_SUCCESS, cuMemHostGetFlags(&flags, wc + 5000));
	ASSERT_EQ(CU_MEMHOSTALLOC_WRITECOMBINED | CU_MEMHOSTALLOC_DEVICEMAP,
		  flags);
	ASSERT_EQ(CUDA_SUCCESS, cuMemFreeHost(wc));
}

/* ---- nothing leaks, however a program ends -------------------------------- */

struct accounting {
	long pinned[2], gart[2];
};

static void accounting_read(struct accounting *a)
{
	for (unsigned int i = 0; i < 2; i++) {
		a->pinned[i] = sysfs_num(i, "pinned_pages");
		a->gart[i] = sysfs_num(i, "gart_entries_used");
	}
}

/* Wait (up to 10 s) for the counters to come back to @want. */
static bool accounting_back_to(const struct accounting *want,
			       struct accounting *now)
{
	for (int i = 0; i < 1000; i++) {
		accounting_read(now);
		if (!memcmp(want, now, sizeof(*now)))
			return true;
		usleep(10000);
	}
	return false;
}

enum ending { END_EXIT, END_KILL_IDLE, END_KILL_MID_COPY };

/*
 * In a child: pinned, write-combined, portable and registered memory on
 * both devices, then end as told.  @ready gets one byte when the memory is
 * held (and, for END_KILL_MID_COPY, copies are being issued in a loop).
 */
static void holder(int ready, enum ending how)
{
	const size_t n = 3 * MiB;
	CUcontext ctx0, ctx1;
	CUdevice dev1;
	CUdeviceptr d;
	void *p, *wc, *pageable;
	char *reg;
	int ndev;

	if (cuInit(0) || cuDevicePrimaryCtxRetain(&ctx0, 0) ||
	    cuCtxSetCurrent(ctx0) || cuDeviceGetCount(&ndev))
		_exit(2);
	if (ndev >= 2 && (cuDeviceGet(&dev1, 1) ||
			  cuCtxCreate(&ctx1, NULL, 0, dev1) ||
			  cuCtxSetCurrent(ctx0)))
		_exit(3);
	reg = mmap(NULL, n, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (reg == MAP_FAILED ||
	    cuMemHostAlloc(&p, n, CU_MEMHOSTALLOC_PORTABLE) ||
	    cuMemHostAlloc(&wc, n, CU_MEMHOSTALLOC_WRITECOMBINED) ||
	    cuMemHostRegister(reg, n / 2, CU_MEMHOSTREGISTER_PORTABLE) ||
	    cuMemHostRegister(reg + n / 2, n / 2, 0) ||
	    cuMemAlloc(&d, n))
		_exit(4);
	/*
	 * Something staged, so that the bounce buffers exist too (from
	 * mmap()ed memory: LeakSanitizer would call an unfreed malloc() a
	 * leak at exit).
	 */
	pageable = mmap(NULL, n, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pageable == MAP_FAILED || cuMemcpyHtoD(d, reg, n / 2) ||
	    cuMemcpyHtoD(d, pageable, n))
		_exit(5);
	if (write(ready, "r", 1) != 1)
		_exit(6);
	if (how == END_EXIT)
		exit(0);	/* without freeing anything */
	for (;;) {
		if (how == END_KILL_MID_COPY) {
			cuMemcpyHtoDAsync(d, p, n, NULL);
			cuMemcpyDtoHAsync(wc, d, n, NULL);
		} else {
			pause();
		}
	}
}

static void run_holder(struct __test_metadata *_metadata, enum ending how)
{
	struct accounting before, after;
	int fds[2], status;
	char c;
	pid_t pid;

	/*
	 * Nothing else uses the devices: once the processes of the tests
	 * before have been torn down, every counter reads zero.
	 */
	memset(&before, 0, sizeof(before));
	if (sysfs_num(1, "pinned_pages") < 0)
		before.pinned[1] = before.gart[1] = -1;	/* one device */
	if (!accounting_back_to(&before, &after)) {
		TH_LOG("idle: pinned %ld/%ld gart %ld/%ld", after.pinned[0],
		       after.pinned[1], after.gart[0], after.gart[1]);
	}
	ASSERT_EQ(0, memcmp(&before, &after, sizeof(after)));
	ASSERT_EQ(0, pipe(fds));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(fds[0]);
		holder(fds[1], how);
	}
	close(fds[1]);
	if (read(fds[0], &c, 1) != 1) {
		waitpid(pid, &status, 0);
		TH_LOG("the holder ended early: status %#x", status);
		ASSERT_TRUE(false);
	}
	close(fds[0]);
	if (how != END_EXIT) {
		struct accounting held;

		accounting_read(&held);
		/* It really held pinned pages on both devices. */
		ASSERT_LT(before.pinned[0], held.pinned[0]);
		ASSERT_LT(before.pinned[1], held.pinned[1]);
		ASSERT_LT(before.gart[0], held.gart[0]);
		usleep(how == END_KILL_MID_COPY ? 100000 : 0);
		ASSERT_EQ(0, kill(pid, SIGKILL));
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	if (how == END_EXIT) {
		ASSERT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	} else {
		ASSERT_TRUE(WIFSIGNALED(status));
	}
	if (!accounting_back_to(&before, &after)) {
		TH_LOG("pinned %ld/%ld gart %ld/%ld, were %ld/%ld %ld/%ld",
		       after.pinned[0], after.pinned[1], after.gart[0],
		       after.gart[1], before.pinned[0], before.pinned[1],
		       before.gart[0], before.gart[1]);
	}
	ASSERT_EQ(0, memcmp(&before, &after, sizeof(after)));
}

TEST(no_leak_after_exit_without_freeing)
{
	run_holder(_metadata, END_EXIT);
}

TEST(no_leak_after_sigkill_holding_memory)
{
	run_holder(_metadata, END_KILL_IDLE);
}

TEST(no_leak_after_sigkill_mid_copy)
{
	run_holder(_metadata, END_KILL_MID_COPY);
}

/* ---- main: a firmware for each of the two devices ---------------------------- */

static pid_t fw1_pid;

static void stop_fw1(void)
{
	if (getpid() == cuda_test_main_pid)
		fw_launcher_stop_on(fw1_pid, 1);
}

int main(int argc, char **argv)
{
	cuda_test_main_pid = getpid();
	if (cuda_test_check_libcuda())
		return 1;
	cuda_test_fw = fw_launcher_start();
	if (cuda_test_fw < 0) {
		printf("Bail out! cannot start vgpu-fw: %d\n", (int)cuda_test_fw);
		return 1;
	}
	atexit(cuda_test_stop_fw);
	/* Without a second device, the two-device test fails and says so. */
	fw1_pid = sysfs_num(1, "contexts") < 0 ? 0 : fw_launcher_start_on(1);
	if (fw1_pid < 0) {
		printf("Bail out! cannot start vgpu-fw for vgpu1: %d\n",
		       (int)fw1_pid);
		return 1;
	}
	atexit(stop_fw1);
	return test_harness_run(argc, argv);
}
