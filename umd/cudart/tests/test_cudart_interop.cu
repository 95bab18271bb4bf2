// SPDX-License-Identifier: GPL-2.0
/*
 * The runtime's interop calls (umd/cudart/interop_*.c) against Mesa in
 * the guest: what each passes down and gives back (pointers, arrays, the
 * runtime's error codes for the driver's), and the descriptors it copies
 * field by field.  The work itself is tested at the driver API
 * (test_cu_interop_gl, test_cu_interop_ext); the error codes are the
 * H100's (tools/cuda-probe/golden/probe_interop.h100.txt) in the
 * runtime's names.
 */
#include <cuda_gl_interop.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "interop_egl.h"
#include "rt_tap.h"
#include "rt_test_util.h"

/* Each answer is a TAP result of its own. */
#define T_IS(err, call) TAP(IS(err, call), "%s: %s", #call, #err)
#define T_OK(call) T_IS(cudaSuccess, call)

__global__ void add_one(int *p, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		p[i] += 1;
}

static void test_gl(struct egl_gl *g)
{
	enum { N = 1024 };
	static int data[N], back[N];
	struct cudaGraphicsResource *r, *img, *none = NULL;
	cudaArray_t a, level;
	cudaMipmappedArray_t mm;
	unsigned int count = 0;
	int devs[4], *p, i, same = 1;
	size_t size = 0;
	GLuint b, t;

	for (i = 0; i < N; i++)
		data[i] = i;
	g->GenBuffers(1, &b);
	g->BindBuffer(GL_ARRAY_BUFFER, b);
	g->BufferData(GL_ARRAY_BUFFER, sizeof(data), data, GL_DYNAMIC_DRAW);
	T_OK(cudaGLGetDevices(&count, devs, 4, cudaGLDeviceListAll));
	TAP(count >= 1 && devs[0] == 0, "cudaGLGetDevices: %u device(s)", count);

	T_IS(cudaErrorInvalidResourceHandle,
	   cudaGraphicsGLRegisterBuffer(&r, 4242, cudaGraphicsRegisterFlagsNone));
	T_OK(cudaGraphicsGLRegisterBuffer(&r, b, cudaGraphicsRegisterFlagsNone));
	T_IS(cudaErrorNotMapped, cudaGraphicsResourceGetMappedPointer((void **)&p,
								    &size, r));
	T_IS(cudaErrorNotMapped, cudaGraphicsUnmapResources(1, &r, 0));
	T_IS(cudaErrorInvalidValue, cudaGraphicsMapResources(-1, &r, 0));
	T_OK(cudaGraphicsMapResources(1, &r, 0));
	T_IS(cudaErrorAlreadyMapped, cudaGraphicsMapResources(1, &r, 0));
	T_OK(cudaGraphicsResourceGetMappedPointer((void **)&p, &size, r));
	TAP(size == sizeof(data), "mapped size %zu", size);
	T_IS(cudaErrorNotMappedAsArray,
	   cudaGraphicsSubResourceGetMappedArray(&a, r, 0, 0));
	T_IS(cudaErrorAlreadyMapped,
	   cudaGraphicsResourceSetMapFlags(r, cudaGraphicsMapFlagsReadOnly));
	add_one<<<N / 128, 128>>>(p, N);
	T_OK(cudaGraphicsUnmapResources(1, &r, 0));
	g->GetBufferSubData(GL_ARRAY_BUFFER, 0, sizeof(back), back);
	for (i = 0; i < N; i++)
		same &= back[i] == i + 1;
	TAP(same, "GL sees the kernel's increments after the unmap");
	T_OK(cudaGraphicsUnregisterResource(r));
	T_IS(cudaErrorInvalidResourceHandle, cudaGraphicsUnregisterResource(r));
	T_IS(cudaErrorInvalidResourceHandle, cudaGraphicsMapResources(1, &none, 0));

	g->GenTextures(1, &t);
	g->BindTexture(GL_TEXTURE_2D, t);
	g->TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 16, 8, 0, GL_RGBA,
		      GL_UNSIGNED_BYTE, NULL);
	g->BindTexture(GL_TEXTURE_2D, 0);
	T_OK(cudaGraphicsGLRegisterImage(&img, t, GL_TEXTURE_2D,
				       cudaGraphicsRegisterFlagsSurfaceLoadStore));
	T_OK(cudaGraphicsMapResources(1, &img, 0));
	T_OK(cudaGraphicsSubResourceGetMappedArray(&a, img, 0, 0));
	T_OK(cudaGraphicsResourceGetMappedMipmappedArray(&mm, img));
	T_OK(cudaGetMipmappedArrayLevel(&level, mm, 0));
	TAP(a == level, "the mipmapped array's level 0 is the mapped array");
	T_IS(cudaErrorNotMappedAsPointer,
	   cudaGraphicsResourceGetMappedPointer((void **)&p, &size, img));
	T_OK(cudaGraphicsUnmapResources(1, &img, 0));
	T_OK(cudaGraphicsUnregisterResource(img));
}

/*
 * The runtime's external-semaphore graph nodes on timeline semaphore @s
 * (payload @payload): a signal node and a wait node after it, their
 * parameters, a launch, a change in the executable graph, and a signal
 * captured from a stream.
 */
static void test_extsem_graph(cudaExternalSemaphore_t s,
			      volatile unsigned long long *payload)
{
	cudaExternalSemaphoreSignalParams sp;
	cudaExternalSemaphoreWaitParams wp;
	cudaExternalSemaphoreSignalNodeParams snp, sgot;
	cudaExternalSemaphoreWaitNodeParams wnp, wgot;
	cudaGraph_t g, cg;
	cudaGraphExec_t e, ce;
	cudaGraphNode_t sn, wn, nodes[4];
	enum cudaGraphNodeType type;
	cudaStream_t st;
	size_t n = 4;

	memset(&sp, 0, sizeof(sp));
	memset(&wp, 0, sizeof(wp));
	sp.params.fence.value = 7;
	wp.params.fence.value = 7;
	snp.extSemArray = &s;
	snp.paramsArray = &sp;
	snp.numExtSems = 1;
	wnp.extSemArray = &s;
	wnp.paramsArray = &wp;
	wnp.numExtSems = 1;
	T_OK(cudaGraphCreate(&g, 0));
	T_IS(cudaErrorInvalidValue,
	     cudaGraphAddExternalSemaphoresSignalNode(&sn, g, NULL, 0, NULL));
	T_OK(cudaGraphAddExternalSemaphoresSignalNode(&sn, g, NULL, 0, &snp));
	T_OK(cudaGraphAddExternalSemaphoresWaitNode(&wn, g, &sn, 1, &wnp));
	T_OK(cudaGraphNodeGetType(sn, &type));
	TAP(type == cudaGraphNodeTypeExtSemaphoreSignal,
	    "a signal node's type (%d)", (int)type);
	/* The node's own copy: the caller's array may change. */
	sp.params.fence.value = 1000;
	T_OK(cudaGraphExternalSemaphoresSignalNodeGetParams(sn, &sgot));
	TAP(sgot.numExtSems == 1 && sgot.paramsArray != &sp &&
	    sgot.extSemArray[0] == s &&
	    sgot.paramsArray[0].params.fence.value == 7,
	    "a signal node keeps its own parameters");
	T_IS(cudaErrorInvalidValue,
	     cudaGraphExternalSemaphoresWaitNodeGetParams(sn, &wgot));
	T_OK(cudaGraphExternalSemaphoresWaitNodeGetParams(wn, &wgot));
	TAP(wgot.numExtSems == 1 &&
	    wgot.paramsArray[0].params.fence.value == 7,
	    "a wait node's parameters");
	T_OK(cudaGraphInstantiate(&e, g, 0));
	T_OK(cudaGraphLaunch(e, 0));
	T_OK(cudaDeviceSynchronize());
	TAP(*payload == 7, "the graph signalled 7 (%llu)", *payload);
	/* The executable graph's nodes change, the graph's stay. */
	sp.params.fence.value = 9;
	wp.params.fence.value = 9;
	T_OK(cudaGraphExecExternalSemaphoresSignalNodeSetParams(e, sn, &snp));
	T_OK(cudaGraphExecExternalSemaphoresWaitNodeSetParams(e, wn, &wnp));
	T_OK(cudaGraphLaunch(e, 0));
	T_OK(cudaDeviceSynchronize());
	TAP(*payload == 9, "the changed graph signalled 9 (%llu)", *payload);
	T_OK(cudaGraphExternalSemaphoresSignalNodeGetParams(sn, &sgot));
	TAP(sgot.paramsArray[0].params.fence.value == 7,
	    "the graph's node kept 7");
	sp.params.fence.value = 10;
	T_OK(cudaGraphExternalSemaphoresSignalNodeSetParams(sn, &snp));
	T_OK(cudaGraphExternalSemaphoresWaitNodeSetParams(wn, &wnp));
	T_OK(cudaGraphExecDestroy(e));
	T_OK(cudaGraphDestroy(g));

	/* Captured: a signal and a wait become the two nodes. */
	T_OK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
	T_OK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
	sp.params.fence.value = 11;
	wp.params.fence.value = 11;
	T_OK(cudaSignalExternalSemaphoresAsync(&s, &sp, 1, st));
	T_OK(cudaWaitExternalSemaphoresAsync(&s, &wp, 1, st));
	T_OK(cudaStreamEndCapture(st, &cg));
	T_OK(cudaGraphGetNodes(cg, nodes, &n));
	TAP(n == 2, "the capture made 2 nodes (%zu)", n);
	TAP(*payload == 9, "capturing signalled nothing (%llu)", *payload);
	T_OK(cudaGraphInstantiate(&ce, cg, 0));
	T_OK(cudaGraphLaunch(ce, st));
	T_OK(cudaStreamSynchronize(st));
	TAP(*payload == 11, "the captured graph signalled 11 (%llu)",
	    *payload);
	T_OK(cudaGraphExecDestroy(ce));
	T_OK(cudaGraphDestroy(cg));
	T_OK(cudaStreamDestroy(st));
}

static void test_external(void)
{
	cudaExternalMemoryHandleDesc md;
	cudaExternalMemoryBufferDesc bd;
	cudaExternalMemoryMipmappedArrayDesc ad;
	cudaExternalSemaphoreHandleDesc sd;
	cudaExternalSemaphoreSignalParams sp;
	cudaExternalSemaphoreWaitParams wp;
	cudaExternalMemory_t m;
	cudaExternalSemaphore_t s;
	cudaMipmappedArray_t mm;
	int fd = memfd_create("rt", 0), sem_fd = memfd_create("rt-sem", 0);
	int *host, *d, i, same = 1;
	volatile unsigned long long *payload;

	if (ftruncate(fd, 8192) || ftruncate(sem_fd, 4096)) {
		tap_diag("memfd");
		return;
	}
	host = (int *)mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	payload = (volatile unsigned long long *)mmap(NULL, 4096,
		PROT_READ | PROT_WRITE, MAP_SHARED, sem_fd, 0);
	for (i = 0; i < 1024; i++)
		host[1024 + i] = 10 * i;

	memset(&md, 0, sizeof(md));
	T_IS(cudaErrorInvalidValue, cudaImportExternalMemory(&m, NULL));
	md.type = cudaExternalMemoryHandleTypeOpaqueWin32;
	md.size = 8192;
	T_IS(cudaErrorNotSupported, cudaImportExternalMemory(&m, &md));
	md.type = cudaExternalMemoryHandleTypeOpaqueFd;
	md.handle.fd = -1;
	T_IS(cudaErrorUnknown, cudaImportExternalMemory(&m, &md));
	md.handle.fd = dup(fd);
	T_OK(cudaImportExternalMemory(&m, &md));
	memset(&bd, 0, sizeof(bd));
	bd.offset = 4096;
	bd.size = 8192;
	T_IS(cudaErrorInvalidValue, cudaExternalMemoryGetMappedBuffer((void **)&d, m, &bd));
	bd.size = 4096;
	T_OK(cudaExternalMemoryGetMappedBuffer((void **)&d, m, &bd));
	add_one<<<8, 128>>>(d, 1024);
	T_OK(cudaDeviceSynchronize());
	for (i = 0; i < 1024; i++)
		same &= host[1024 + i] == 10 * i + 1;
	TAP(same, "a kernel's writes through the runtime's mapped buffer");
	memset(&ad, 0, sizeof(ad));
	ad.formatDesc = cudaCreateChannelDesc<uchar4>();
	ad.extent = make_cudaExtent(16, 16, 0);
	ad.numLevels = 1;
	/* An array whose storage is the memory, at its offset 0. */
	T_OK(cudaExternalMemoryGetMappedMipmappedArray(&mm, m, &ad));
	{
		cudaArray_t lv;
		unsigned char row[64], *bytes = (unsigned char *)host;

		for (i = 0; i < 64; i++)
			row[i] = (unsigned char)(200 - i);
		T_OK(cudaGetMipmappedArrayLevel(&lv, mm, 0));
		T_OK(cudaMemcpy2DToArray(lv, 0, 0, row, 64, 64, 1,
					 cudaMemcpyHostToDevice));
		/* Row 0's first 16 bytes are the block-linear layout's first. */
		same = 1;
		for (i = 0; i < 16; i++)
			same &= bytes[i] == row[i];
		TAP(same, "the array's texels are in the external memory");
		T_OK(cudaFreeMipmappedArray(mm));
	}
	T_OK(cudaFree(d));
	T_OK(cudaDestroyExternalMemory(m));
	T_IS(cudaErrorInvalidResourceHandle, cudaDestroyExternalMemory(m));

	memset(&sd, 0, sizeof(sd));
	sd.type = cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd;
	sd.handle.fd = -1;
	T_IS(cudaErrorUnknown, cudaImportExternalSemaphore(&s, &sd));
	sd.handle.fd = dup(sem_fd);
	T_OK(cudaImportExternalSemaphore(&s, &sd));
	memset(&sp, 0, sizeof(sp));
	memset(&wp, 0, sizeof(wp));
	T_IS(cudaErrorInvalidValue, cudaSignalExternalSemaphoresAsync(NULL, NULL, 0, 0));
	sp.params.fence.value = 3;
	T_OK(cudaSignalExternalSemaphoresAsync(&s, &sp, 1, 0));
	wp.params.fence.value = 3;
	T_OK(cudaWaitExternalSemaphoresAsync(&s, &wp, 1, 0));
	T_OK(cudaDeviceSynchronize());
	TAP(*payload == 3, "the timeline's payload is 3 (%llu)", *payload);
	test_extsem_graph(s, payload);
	T_OK(cudaDestroyExternalSemaphore(s));
	/* A destroyed semaphore: INVALID_VALUE, as the H100 answers NULL. */
	T_IS(cudaErrorInvalidValue, cudaDestroyExternalSemaphore(s));
}

int main(void)
{
	pid_t fw = fw_launcher_start();
	struct egl_gl g;
	const char *why;

	tap_plan(-1);
	if (fw < 0)
		tap_diag("cannot start the firmware");
	if (egl_gl_setup(&g, &why))
		tap_skip(why, "OpenGL interop");
	else
		test_gl(&g);
	test_external();
	fw_launcher_stop(fw);
	return tap_finish();
}
