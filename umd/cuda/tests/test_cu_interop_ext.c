// SPDX-License-Identifier: GPL-2.0
/*
 * test_cu_interop_ext.c - external memory and semaphores of libcuda:
 * memory a Vulkan driver (Mesa's lavapipe in the guest) exports as an
 * OPAQUE_FD, shared with the device without a copy (a kernel's results
 * are in Vulkan's mapping, checked against a CPU reference); a memfd the
 * same way; timeline and binary semaphores in stream order (a wait holds
 * the stream's later work until the other side signals; a signal reaches
 * the other side after the stream's earlier work); and every call's
 * errors, with the codes an H100 answered where it answered
 * (tools/cuda-probe/golden/probe_interop.h100.txt).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>

#include "cuda_test.h"
#include "interop_vk.h"
#include "vgpu_array.h"

#define MIB (1u << 20)

static CUfunction scale_kernel(struct __test_metadata *_metadata)
{
	CUmodule m;
	CUfunction f = NULL;

	EXPECT_EQ(CUDA_SUCCESS, cuModuleLoad(&m, DRV_PTX));
	EXPECT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&f, m, "scale_by_const"));
	return f;
}

static CUresult import_fd(CUexternalMemory *m, int fd, unsigned long long size)
{
	CUDA_EXTERNAL_MEMORY_HANDLE_DESC d;

	memset(&d, 0, sizeof(d));
	d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
	d.handle.fd = fd;
	d.size = size;
	return cuImportExternalMemory(m, &d);
}

static CUresult map_buffer(CUdeviceptr *p, CUexternalMemory m,
			   unsigned long long offset, unsigned long long size)
{
	CUDA_EXTERNAL_MEMORY_BUFFER_DESC b;

	memset(&b, 0, sizeof(b));
	b.offset = offset;
	b.size = size;
	return cuExternalMemoryGetMappedBuffer(p, m, &b);
}

/* A kernel writes Vulkan's memory; Vulkan's own mapping has the results. */
TEST(vulkan_memory_zero_copy)
{
	enum { N = 16384 };
	struct vk_dev v;
	VkDeviceMemory mem;
	int *host, fd, n = N, i;
	const char *why;
	CUcontext ctx;
	CUexternalMemory m;
	CUdeviceptr p;
	CUfunction f;
	void *args[] = { &p, &n };

	CU_SETUP(&ctx);
	if (vk_dev_setup(&v, &why))
		SKIP(return, "Vulkan: %s", why);
	ASSERT_EQ(0, vk_export_memory(&v, MIB, &mem, NULL, &fd));
	ASSERT_EQ(VK_SUCCESS, VK_FN(&v, vkMapMemory)(v.dev, mem, 0, MIB, 0,
						     (void **)&host));
	for (i = 0; i < N; i++)
		host[4096 / 4 + i] = i;
	f = scale_kernel(_metadata);
	ASSERT_EQ(CUDA_SUCCESS, import_fd(&m, fd, MIB));
	/* The driver owns the fd now: it is closed. */
	EXPECT_EQ(-1, fcntl(fd, F_GETFD));
	ASSERT_EQ(CUDA_SUCCESS, map_buffer(&p, m, 4096, N * sizeof(int)));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(f, N / 256, 1, 1, 256, 1, 1, 0,
					       NULL, args, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	for (i = 0; i < N; i++)
		ASSERT_EQ(i * 3 + 7, host[4096 / 4 + i]);
	/* Bytes around the buffer are untouched. */
	ASSERT_EQ(0, host[4096 / 4 - 1]);
	ASSERT_EQ(0, host[4096 / 4 + N]);
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(p));
	ASSERT_EQ(CUDA_SUCCESS, cuDestroyExternalMemory(m));
	/* Vulkan's memory outlives the import. */
	ASSERT_EQ(7, host[4096 / 4]);
}

/* A memfd the program makes is memory of the same kind. */
TEST(memfd_zero_copy)
{
	int fd = memfd_create("interop", 0), *host, i, dup_fd;
	CUcontext ctx;
	CUexternalMemory m;
	CUdeviceptr p, p2;
	int back[64];

	CU_SETUP(&ctx);
	ASSERT_EQ(0, ftruncate(fd, 3 * 4096));
	dup_fd = dup(fd);
	host = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, host);
	for (i = 0; i < 64; i++)
		host[i] = 100 + i;
	/* A size that is not a page multiple. */
	ASSERT_EQ(CUDA_SUCCESS, import_fd(&m, dup_fd, 2 * 4096 + 100));
	ASSERT_EQ(CUDA_SUCCESS, map_buffer(&p, m, 0, 256));
	ASSERT_EQ(CUDA_SUCCESS, map_buffer(&p2, m, 2 * 4096, 100));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(back, p, sizeof(back)));
	for (i = 0; i < 64; i++)
		ASSERT_EQ(100 + i, back[i]);
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32(p2, 0x01020304, 25));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	for (i = 0; i < 25; i++)
		ASSERT_EQ(0x01020304, host[2 * 1024 + i]);
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(p));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(p2));
	ASSERT_EQ(CUDA_SUCCESS, cuDestroyExternalMemory(m));
	munmap(host, 3 * 4096);
	close(fd);
}

TEST(memory_errors)
{
	CUDA_EXTERNAL_MEMORY_HANDLE_DESC d;
	CUDA_EXTERNAL_MEMORY_BUFFER_DESC b;
	CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC a;
	CUmipmappedArray mm;
	CUexternalMemory m;
	CUdeviceptr p;
	CUcontext ctx;
	int fd = memfd_create("interop", 0);

	CU_SETUP(&ctx);
	ASSERT_EQ(0, ftruncate(fd, 65536));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&m, NULL));
	memset(&d, 0, sizeof(d));
	d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
	d.handle.fd = fd;
	d.size = 65536;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(NULL, &d));
	d.size = 0;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&m, &d));
	d.size = 65536;
	d.flags = 2;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&m, &d));
	d.flags = 0;
	d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32;
	EXPECT_EQ(CUDA_ERROR_NOT_SUPPORTED, cuImportExternalMemory(&m, &d));
	d.type = (CUexternalMemoryHandleType)99;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&m, &d));
	d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
	d.handle.fd = -1;
	EXPECT_EQ(CUDA_ERROR_UNKNOWN, cuImportExternalMemory(&m, &d));
	/* More than the file holds, and a file that is no memory. */
	d.handle.fd = fd;
	d.size = 65536 + 1;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&m, &d));
	d.size = 65536;
	{
		int pipefd[2];

		ASSERT_EQ(0, pipe(pipefd));
		d.handle.fd = pipefd[0];
		EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
			  cuImportExternalMemory(&m, &d));
		/* A failed import leaves the fd with the caller. */
		EXPECT_EQ(0, close(pipefd[0]));
		close(pipefd[1]);
	}
	d.handle.fd = fd;
	ASSERT_EQ(CUDA_SUCCESS, cuImportExternalMemory(&m, &d));

	memset(&b, 0, sizeof(b));
	b.offset = 65536;
	b.size = 4096;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuExternalMemoryGetMappedBuffer(&p, m, &b));
	b.offset = 4096;
	b.size = 65536;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuExternalMemoryGetMappedBuffer(&p, m, &b));
	b.size = 4096;
	b.flags = 1;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuExternalMemoryGetMappedBuffer(&p, m, &b));
	b.flags = 0;
	b.size = 0;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuExternalMemoryGetMappedBuffer(&p, m, &b));
	b.size = 4096;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuExternalMemoryGetMappedBuffer(NULL, m, &b));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuExternalMemoryGetMappedBuffer(&p, m, NULL));
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE,
		  cuExternalMemoryGetMappedBuffer(&p, NULL, &b));

	memset(&a, 0, sizeof(a));
	a.arrayDesc.Width = 64;
	a.arrayDesc.Height = 64;
	a.arrayDesc.Format = CU_AD_FORMAT_UNSIGNED_INT8;
	a.arrayDesc.NumChannels = 4;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuExternalMemoryGetMappedMipmappedArray(&mm, m, &a));
	a.numLevels = 1;
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE,
		  cuExternalMemoryGetMappedMipmappedArray(&mm, NULL, &a));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuExternalMemoryGetMappedMipmappedArray(NULL, m, &a));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuExternalMemoryGetMappedMipmappedArray(&mm, m, NULL));
	/* More than the memory has past the offset (H100: too_big). */
	a.arrayDesc.Width = 4096;
	a.arrayDesc.Height = 4096;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuExternalMemoryGetMappedMipmappedArray(&mm, m, &a));
	a.arrayDesc.Width = 64;
	a.arrayDesc.Height = 64;

	ASSERT_EQ(CUDA_SUCCESS, cuExternalMemoryGetMappedBuffer(&p, m, &b));
	ASSERT_EQ(CUDA_SUCCESS, cuMemFree(p));
	EXPECT_NE(CUDA_SUCCESS, cuMemFree(p));	/* freed once */
	ASSERT_EQ(CUDA_SUCCESS, cuDestroyExternalMemory(m));
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, cuDestroyExternalMemory(m));
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, cuDestroyExternalMemory(NULL));
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE,
		  cuExternalMemoryGetMappedBuffer(&p, m, &b));
}

/*
 * A mipmapped array whose storage is the external memory: level 0 is
 * written by a copy into the array and lands in the exporter's pages in
 * vGPU's block-linear layout (include/vgpu_array.h, the CPU reference);
 * level 1 is written by the exporter in that layout and read back by a
 * copy out of the array.
 */
TEST(mipmapped_array_in_external_memory)
{
	enum { W = 80, H = 40, ELEM = 4, OFF = 8192, SIZE = 1 << 20 };
	CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC a;
	struct vgpu_bl_layout l0, l1;
	uint64_t off1;
	uint8_t *host, src[W * H * ELEM], back[W / 2 * H / 2 * ELEM];
	int fd = memfd_create("interop-mip", 0), dup_fd;
	CUDA_MEMCPY2D c;
	CUexternalMemory m;
	CUmipmappedArray mm;
	CUarray lv0, lv1;
	CUcontext ctx;
	unsigned int x, y;

	CU_SETUP(&ctx);
	ASSERT_EQ(0, ftruncate(fd, SIZE));
	dup_fd = dup(fd);
	host = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, host);
	ASSERT_EQ(CUDA_SUCCESS, import_fd(&m, dup_fd, SIZE));
	memset(&a, 0, sizeof(a));
	a.offset = OFF;
	a.arrayDesc.Width = W;
	a.arrayDesc.Height = H;
	a.arrayDesc.Format = CU_AD_FORMAT_UNSIGNED_INT8;
	a.arrayDesc.NumChannels = ELEM;
	a.numLevels = 3;
	ASSERT_EQ(CUDA_SUCCESS,
		  cuExternalMemoryGetMappedMipmappedArray(&mm, m, &a));
	ASSERT_EQ(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&lv0, mm, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&lv1, mm, 1));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuMipmappedArrayGetLevel(&lv1, mm, 3));
	vgpu_mip_level(W, H, 1, ELEM, 0, 0, &l0);
	off1 = vgpu_mip_level(W, H, 1, ELEM, 0, 1, &l1);

	for (x = 0; x < sizeof(src); x++)
		src[x] = (uint8_t)(x * 7 + 3);
	memset(&c, 0, sizeof(c));
	c.srcMemoryType = CU_MEMORYTYPE_HOST;
	c.srcHost = src;
	c.srcPitch = W * ELEM;
	c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
	c.dstArray = lv0;
	c.WidthInBytes = W * ELEM;
	c.Height = H;
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpy2D(&c));
	for (y = 0; y < H; y++)
		for (x = 0; x < W * ELEM; x++)
			ASSERT_EQ(src[y * W * ELEM + x],
				  host[OFF + vgpu_bl_offset(&l0, x, y, 0)])
				TH_LOG("level 0 byte %u of row %u", x, y);
	/* Nothing before the offset was touched. */
	for (x = 0; x < OFF; x++)
		ASSERT_EQ(0, host[x]);

	for (y = 0; y < H / 2; y++)
		for (x = 0; x < W / 2 * ELEM; x++)
			host[OFF + off1 + vgpu_bl_offset(&l1, x, y, 0)] =
				(uint8_t)(x ^ (y * 5));
	memset(&c, 0, sizeof(c));
	c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
	c.srcArray = lv1;
	c.dstMemoryType = CU_MEMORYTYPE_HOST;
	c.dstHost = back;
	c.dstPitch = W / 2 * ELEM;
	c.WidthInBytes = W / 2 * ELEM;
	c.Height = H / 2;
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpy2D(&c));
	for (y = 0; y < H / 2; y++)
		for (x = 0; x < W / 2 * ELEM; x++)
			ASSERT_EQ((uint8_t)(x ^ (y * 5)),
				  back[y * W / 2 * ELEM + x]);

	/* The array goes; the memory and what it holds stay. */
	ASSERT_EQ(CUDA_SUCCESS, cuMipmappedArrayDestroy(mm));
	EXPECT_EQ(src[0], host[OFF + vgpu_bl_offset(&l0, 0, 0, 0)]);
	ASSERT_EQ(CUDA_SUCCESS, cuDestroyExternalMemory(m));
	munmap(host, SIZE);
	close(fd);
}

/* The other side of a semaphore: the payload in its own mapping. */
struct sem_peer {
	int fd;
	volatile uint64_t *payload;
};

static CUresult import_sem(CUexternalSemaphore *s, struct sem_peer *peer,
			   CUexternalSemaphoreHandleType type)
{
	CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC d;

	peer->fd = memfd_create("sem", 0);
	if (ftruncate(peer->fd, 4096))
		return CUDA_ERROR_UNKNOWN;
	peer->payload = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
			     peer->fd, 0);
	memset(&d, 0, sizeof(d));
	d.type = type;
	d.handle.fd = dup(peer->fd);
	return cuImportExternalSemaphore(s, &d);
}

/* The other side's signal: a store (the device polls its WAIT_MEM). */
static void peer_signal(struct sem_peer *peer, uint64_t v)
{
	__atomic_store_n(peer->payload, v, __ATOMIC_SEQ_CST);
}

static void sleep_ms(int ms)
{
	struct timespec t = { 0, ms * 1000000L };

	nanosleep(&t, NULL);
}

TEST(timeline_semaphore_in_stream_order)
{
	CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS w;
	CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sig;
	CUexternalSemaphore sem;
	struct sem_peer peer;
	CUcontext ctx;
	CUstream s;
	CUdeviceptr p;
	int v = 0;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, import_sem(&sem, &peer,
		  CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&p, 4));
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32(p, 0, 1));
	memset(&w, 0, sizeof(w));
	w.params.fence.value = 5;
	ASSERT_EQ(CUDA_SUCCESS, cuWaitExternalSemaphoresAsync(&sem, &w, 1, s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32Async(p, 42, 1, s));
	memset(&sig, 0, sizeof(sig));
	sig.params.fence.value = 9;
	ASSERT_EQ(CUDA_SUCCESS,
		  cuSignalExternalSemaphoresAsync(&sem, &sig, 1, s));
	/* The memset waits for value 5: 3 is not enough. */
	peer_signal(&peer, 3);
	sleep_ms(200);
	EXPECT_EQ(CUDA_ERROR_NOT_READY, cuStreamQuery(s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(&v, p, 4));
	EXPECT_EQ(0, v);
	EXPECT_EQ(3, *peer.payload);
	peer_signal(&peer, 5);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(&v, p, 4));
	EXPECT_EQ(42, v);
	/* The signal came after the memset, with its value. */
	EXPECT_EQ(9, *peer.payload);
	/*
	 * A signal stores its value even when lower: the H100's did (its
	 * Vulkan counter went from 5 back to 3, probe_extsem.h100.txt).
	 */
	sig.params.fence.value = 4;
	ASSERT_EQ(CUDA_SUCCESS,
		  cuSignalExternalSemaphoresAsync(&sem, &sig, 1, s));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s));
	EXPECT_EQ(4, *peer.payload);
	ASSERT_EQ(CUDA_SUCCESS, cuDestroyExternalSemaphore(sem));
}

TEST(binary_semaphore)
{
	CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS w;
	CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sig;
	CUexternalSemaphore sem;
	struct sem_peer peer;
	CUcontext ctx;
	CUstream s;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, import_sem(&sem, &peer,
		  CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	memset(&w, 0, sizeof(w));
	memset(&sig, 0, sizeof(sig));
	ASSERT_EQ(CUDA_SUCCESS,
		  cuSignalExternalSemaphoresAsync(&sem, &sig, 1, s));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s));
	EXPECT_EQ(1, *peer.payload);
	/* A wait takes the signal (payload back to 0). */
	ASSERT_EQ(CUDA_SUCCESS, cuWaitExternalSemaphoresAsync(&sem, &w, 1, s));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s));
	EXPECT_EQ(0, *peer.payload);
	/* The next wait blocks until the other side signals. */
	ASSERT_EQ(CUDA_SUCCESS, cuWaitExternalSemaphoresAsync(&sem, &w, 1, s));
	sleep_ms(100);
	EXPECT_EQ(CUDA_ERROR_NOT_READY, cuStreamQuery(s));
	peer_signal(&peer, 1);
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(s));
	EXPECT_EQ(0, *peer.payload);
	/* Destroyed with nothing queued: its handle is gone (H100). */
	ASSERT_EQ(CUDA_SUCCESS, cuDestroyExternalSemaphore(sem));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuSignalExternalSemaphoresAsync(&sem, &sig, 1, s));
}

/*
 * A wait is the device's (a WAIT_MEM on the stream's queue), not a host
 * thread's: a wait that nothing has signalled yet holds its stream only,
 * and a signal on another stream of the same context releases it (the
 * H100 does so: binary.signal_other_stream, probe_extsem.h100.txt).
 * Host functions of that context still run meanwhile.
 */
static void set_flag(void *arg)
{
	__atomic_store_n((int *)arg, 1, __ATOMIC_SEQ_CST);
}

TEST(wait_released_by_another_stream)
{
	CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS w;
	CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sig;
	CUexternalSemaphore sem;
	struct sem_peer peer;
	CUcontext ctx;
	CUstream a, b;
	int ran = 0;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, import_sem(&sem, &peer,
		  CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&b, CU_STREAM_NON_BLOCKING));
	memset(&w, 0, sizeof(w));
	memset(&sig, 0, sizeof(sig));
	ASSERT_EQ(CUDA_SUCCESS, cuWaitExternalSemaphoresAsync(&sem, &w, 1, a));
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchHostFunc(b, set_flag, &ran));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(b));
	EXPECT_EQ(1, ran);
	EXPECT_EQ(CUDA_ERROR_NOT_READY, cuStreamQuery(a));
	ASSERT_EQ(CUDA_SUCCESS,
		  cuSignalExternalSemaphoresAsync(&sem, &sig, 1, b));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(a));
	EXPECT_EQ(0, *peer.payload);
	ASSERT_EQ(CUDA_SUCCESS, cuDestroyExternalSemaphore(sem));
}

/* A signal node of one graph: @n semaphores, all @sem, value @v. */
static CUresult add_signal_node(CUgraph g, CUgraphNode *node,
				CUexternalSemaphore sem, unsigned int n,
				uint64_t v)
{
	CUexternalSemaphore sems[2] = { sem, sem };
	CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp[2];
	CUDA_EXT_SEM_SIGNAL_NODE_PARAMS np = { sems, sp, n };

	memset(sp, 0, sizeof(sp));
	sp[0].params.fence.value = v;
	sp[1].params.fence.value = v;
	return cuGraphAddExternalSemaphoresSignalNode(node, g, NULL, 0, &np);
}

/*
 * A signal node cloned keeps its own copy of the parameters; an
 * executable graph takes another graph's node by cuGraphExecUpdate if
 * the count is the same; a node whose semaphore was destroyed runs as
 * nothing (the H100 launched nodes with bad handles: SUCCESS).
 */
TEST(semaphore_node_clone_and_update)
{
	CUDA_EXT_SEM_SIGNAL_NODE_PARAMS got, cgot;
	CUexternalSemaphore sem;
	struct sem_peer peer;
	CUgraph g, g2, g3, clone;
	CUgraphNode n, n2, n3, cn;
	CUgraphExec e;
	CUgraphExecUpdateResultInfo why;
	CUcontext ctx;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, import_sem(&sem, &peer,
		  CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	ASSERT_EQ(CUDA_SUCCESS, add_signal_node(g, &n, sem, 1, 3));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphClone(&clone, g));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphNodeFindInClone(&cn, n, clone));
	ASSERT_EQ(CUDA_SUCCESS,
		  cuGraphExternalSemaphoresSignalNodeGetParams(n, &got));
	ASSERT_EQ(CUDA_SUCCESS,
		  cuGraphExternalSemaphoresSignalNodeGetParams(cn, &cgot));
	EXPECT_EQ(1, cgot.numExtSems);
	EXPECT_EQ(sem, cgot.extSemArray[0]);
	EXPECT_EQ(3, cgot.paramsArray[0].params.fence.value);
	EXPECT_NE(got.paramsArray, cgot.paramsArray);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphDestroy(clone));

	ASSERT_EQ(CUDA_SUCCESS, cuGraphInstantiate(&e, g, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphCreate(&g2, 0));
	ASSERT_EQ(CUDA_SUCCESS, add_signal_node(g2, &n2, sem, 1, 5));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphExecUpdate(e, g2, &why));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphLaunch(e, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	EXPECT_EQ(5, *peer.payload);
	/* Another count: the executable graph cannot take it. */
	ASSERT_EQ(CUDA_SUCCESS, cuGraphCreate(&g3, 0));
	ASSERT_EQ(CUDA_SUCCESS, add_signal_node(g3, &n3, sem, 2, 6));
	EXPECT_EQ(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE,
		  cuGraphExecUpdate(e, g3, &why));
	EXPECT_EQ(CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED, why.result);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphLaunch(e, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	EXPECT_EQ(5, *peer.payload);

	/* The semaphore goes; the node stays and runs as nothing. */
	ASSERT_EQ(CUDA_SUCCESS, cuDestroyExternalSemaphore(sem));
	*peer.payload = 0;
	EXPECT_EQ(CUDA_SUCCESS, cuGraphLaunch(e, NULL));
	EXPECT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	EXPECT_EQ(0, *peer.payload);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphExecDestroy(e));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphDestroy(g));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphDestroy(g2));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphDestroy(g3));
}

TEST(semaphore_errors)
{
	CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC d;
	CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sig;
	CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS w;
	CUexternalSemaphore sem, none = NULL;
	struct sem_peer peer;
	CUcontext ctx;

	CU_SETUP(&ctx);
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuImportExternalSemaphore(&sem, NULL));
	memset(&d, 0, sizeof(d));
	d.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD;
	d.handle.fd = -1;
	EXPECT_EQ(CUDA_ERROR_UNKNOWN, cuImportExternalSemaphore(&sem, &d));
	d.type = (CUexternalSemaphoreHandleType)99;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuImportExternalSemaphore(&sem, &d));
	d.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD;
	d.flags = 1;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuImportExternalSemaphore(&sem, &d));
	memset(&sig, 0, sizeof(sig));
	memset(&w, 0, sizeof(w));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuSignalExternalSemaphoresAsync(NULL, NULL, 0, NULL));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuSignalExternalSemaphoresAsync(NULL, NULL, 1, NULL));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuWaitExternalSemaphoresAsync(NULL, NULL, 1, NULL));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuSignalExternalSemaphoresAsync(&none, &sig, 1, NULL));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuWaitExternalSemaphoresAsync(&none, &w, 1, NULL));
	ASSERT_EQ(CUDA_SUCCESS, import_sem(&sem, &peer,
		  CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD));
	/* A count of 0 with good arrays is refused too (H100). */
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuSignalExternalSemaphoresAsync(&sem, &sig, 0, NULL));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuWaitExternalSemaphoresAsync(&sem, &w, 0, NULL));
	/* Any flag, SKIP_NVSCIBUF_MEMSYNC too, for an fd semaphore (H100). */
	sig.flags = CUDA_EXTERNAL_SEMAPHORE_SIGNAL_SKIP_NVSCIBUF_MEMSYNC;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuSignalExternalSemaphoresAsync(&sem, &sig, 1, NULL));
	sig.flags = 4;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuSignalExternalSemaphoresAsync(&sem, &sig, 1, NULL));
	w.flags = CUDA_EXTERNAL_SEMAPHORE_WAIT_SKIP_NVSCIBUF_MEMSYNC;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuWaitExternalSemaphoresAsync(&sem, &w, 1, NULL));
	/* A bad handle among good ones queues nothing. */
	{
		CUexternalSemaphore both[2] = { sem, NULL };
		CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp[2];

		memset(sp, 0, sizeof(sp));
		sp[0].params.fence.value = 8;
		EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
			  cuSignalExternalSemaphoresAsync(both, sp, 2, NULL));
		ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
		EXPECT_EQ(0, *peer.payload);
	}
	ASSERT_EQ(CUDA_SUCCESS, cuDestroyExternalSemaphore(sem));
	/* NULL: INVALID_VALUE on the H100 (a second destroy crashed it). */
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuDestroyExternalSemaphore(sem));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuDestroyExternalSemaphore(NULL));
}

/*
 * Why vGPU's semaphores are payload pages: lavapipe exports none, binary
 * or timeline, of any handle type (the day it does, this test says so,
 * and interop_sem.c should import its).
 */
TEST(lavapipe_exports_no_semaphore)
{
	static const VkSemaphoreType kinds[] = { VK_SEMAPHORE_TYPE_BINARY,
						 VK_SEMAPHORE_TYPE_TIMELINE };
	struct vk_dev v;
	const char *why;

	if (vk_dev_setup(&v, &why))
		SKIP(return, "Vulkan: %s", why);
	for (unsigned int k = 0; k < 2; k++) {
		for (unsigned int h = 1; h <= 0x10; h <<= 1) {
			VkSemaphoreTypeCreateInfo type = {
				VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
				NULL, kinds[k], 0 };
			VkPhysicalDeviceExternalSemaphoreInfo info = {
			VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO,
				&type, (VkExternalSemaphoreHandleTypeFlagBits)h };
			VkExternalSemaphoreProperties props = {
			.sType = VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES };

			VK_FN(&v, vkGetPhysicalDeviceExternalSemaphoreProperties)(
				v.pd, &info, &props);
			EXPECT_EQ(0, props.externalSemaphoreFeatures)
				TH_LOG("semaphore type %u, handle type 0x%x", k, h);
			EXPECT_EQ(0, props.compatibleHandleTypes);
		}
	}
}

CUDA_TEST_MAIN
