// SPDX-License-Identifier: GPL-2.0
/*
 * interop_sem.c - external semaphores: cuImportExternalSemaphore,
 * cuSignal/WaitExternalSemaphoresAsync, cuDestroyExternalSemaphore, and
 * the one path that the two async calls, stream capture and the graph
 * nodes of external semaphores (graph_extsem.c) share.
 *
 * What is imported.  No Vulkan driver on this machine exports a
 * semaphore: Debian's lavapipe (Mesa 22.3.6, and 25.0.7 of
 * bookworm-backports too) has VK_KHR_external_semaphore but not
 * VK_KHR_external_semaphore_fd, and its
 * vkGetPhysicalDeviceExternalSemaphoreProperties reports no handle type,
 * binary or timeline (Documentation/interop.rst gives the details).  So
 * vGPU's external semaphore is the simplest shared object with the
 * semantics: a u64 payload at offset 0 of a shared mapping of the fd (a
 * memfd the application makes and shares with the other side).
 *
 * Where it is signalled and waited for: on the device, in stream order,
 * as NVIDIA's GPU does with its semaphores.  The payload's page is
 * registered like host memory (GART, unified addressing: its device
 * address is its host address), and the stream's copy queue gets
 *
 *   timeline signal v   WRITE_MEM payload = v      (after earlier work)
 *   timeline wait v     WAIT_MEM  payload >= v     (later work waits)
 *   binary signal       WRITE_MEM payload = 1
 *   binary wait         WAIT_MEM  payload >= 1, WRITE_MEM payload = 0
 *
 * A signal stores its value, lower or not: the H100 does the same (its
 * Vulkan counter went from 5 back to 3; probe_extsem.h100.txt).  A stalled
 * WAIT_MEM holds only its own queue (the firmware looks at it every
 * millisecond), so a wait is released by a signal of any other stream or
 * process, and no CPU thread of ours waits: the context's host-function
 * thread stays free.  A waiter on the other side polls the payload.
 *
 * Errors are the H100's (tools/cuda-probe/golden/probe_extsem.h100.txt):
 * a count of 0, NULL arrays, any flag (the only flag is for NvSciBuf
 * memory) and a handle that is not a live semaphore are INVALID_VALUE.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuda_internal.h"
#include "interop.h"

struct cu_ext_sem {
	struct cu_ext_sem *next;	/* in cu_ext_sems */
	bool timeline;
	uint64_t *payload;		/* offset 0 of the shared mapping */
	size_t map_size;
};

static pthread_mutex_t cu_ext_sem_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cu_ext_sem *cu_ext_sems;

/*
 * The two directions, one row each.  The driver's two parameter structs
 * differ only in their keyed-mutex part; a row says where the fence value
 * and the flags are in its struct.
 */
const struct cu_ext_sem_way cu_ext_sem_ways[2] = {
	[CU_EXT_SEM_SIGNAL] = {
		.param_size = sizeof(CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS),
		.value_off = offsetof(CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS,
				      params.fence.value),
		.flags_off = offsetof(CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS,
				      flags),
		.node = CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL,
	},
	[CU_EXT_SEM_WAIT] = {
		.param_size = sizeof(CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS),
		.value_off = offsetof(CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS,
				      params.fence.value),
		.flags_off = offsetof(CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS,
				      flags),
		.node = CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT,
	},
};

uint64_t cu_ext_sem_value(enum cu_ext_sem_dir d, const void *params,
			  unsigned int i)
{
	const struct cu_ext_sem_way *w = &cu_ext_sem_ways[d];
	const char *p = (const char *)params + (size_t)i * w->param_size;
	unsigned long long v;

	memcpy(&v, p + w->value_off, sizeof(v));
	return v;
}

static unsigned int cu_ext_sem_flags(enum cu_ext_sem_dir d,
				     const void *params, unsigned int i)
{
	const struct cu_ext_sem_way *w = &cu_ext_sem_ways[d];
	const char *p = (const char *)params + (size_t)i * w->param_size;
	unsigned int f;

	memcpy(&f, p + w->flags_off, sizeof(f));
	return f;
}

/* The live semaphore @h, or NULL (cu_ext_sem_lock held). */
static struct cu_ext_sem *cu_ext_sem_find(CUexternalSemaphore h)
{
	struct cu_ext_sem *s;

	for (s = cu_ext_sems; s; s = s->next)
		if ((CUexternalSemaphore)s == h)
			return s;
	return NULL;
}

CU_EXPORT CUresult CUDAAPI cuImportExternalSemaphore(
	CUexternalSemaphore *extSem_out,
	const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC *semHandleDesc)
{
	long page = sysconf(_SC_PAGESIZE);
	struct cu_ext_sem *s;
	struct cu_ctx *ctx;
	struct stat st;
	CUresult res = cu_ctx_get(&ctx);
	void *p;
	int fd;

	if (res != CUDA_SUCCESS)
		return res;
	if (!extSem_out || !semHandleDesc || semHandleDesc->flags)
		return CUDA_ERROR_INVALID_VALUE;
	if (semHandleDesc->type != CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD &&
	    semHandleDesc->type !=
	    CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD)
		return CUDA_ERROR_INVALID_VALUE;
	fd = semHandleDesc->handle.fd;
	if (fd < 0 || fstat(fd, &st))
		return CUDA_ERROR_UNKNOWN;	/* as the H100 answers */
	if (S_ISREG(st.st_mode) && st.st_size < (off_t)sizeof(uint64_t))
		return CUDA_ERROR_INVALID_VALUE;
	p = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return CUDA_ERROR_INVALID_VALUE;
	/* The device reaches the payload through the GART, at address p. */
	res = cuMemHostRegister(p, (size_t)page, 0);
	if (res != CUDA_SUCCESS) {
		munmap(p, (size_t)page);
		return res;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		cuMemHostUnregister(p);
		munmap(p, (size_t)page);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	s->timeline = semHandleDesc->type ==
		      CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD;
	s->payload = p;
	s->map_size = (size_t)page;
	/* The driver owns the fd once the import succeeded (as CUDA's). */
	close(fd);
	pthread_mutex_lock(&cu_ext_sem_lock);
	s->next = cu_ext_sems;
	cu_ext_sems = s;
	pthread_mutex_unlock(&cu_ext_sem_lock);
	*extSem_out = (CUexternalSemaphore)s;
	return CUDA_SUCCESS;
}

CUresult cu_ext_sem_check(enum cu_ext_sem_dir d,
			  const CUexternalSemaphore *sems, const void *params,
			  unsigned int n)
{
	CUresult res = CUDA_SUCCESS;
	unsigned int i;

	if (!sems || !params || !n)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&cu_ext_sem_lock);
	for (i = 0; i < n && res == CUDA_SUCCESS; i++)
		if (cu_ext_sem_flags(d, params, i) ||
		    !cu_ext_sem_find(sems[i]))
			res = CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_unlock(&cu_ext_sem_lock);
	return res;
}

/* The packets of one semaphore's signal or wait. */
static int cu_ext_sem_emit(enum cu_ext_sem_dir d, const struct cu_ext_sem *s,
			   uint64_t value, const struct cu_op *op)
{
	uint64_t va = (uintptr_t)s->payload;
	int ret;

	if (d == CU_EXT_SEM_SIGNAL)
		return vgpu_emit_write_mem(op->queue->vq, va,
					   s->timeline ? value : 1,
					   op->deadline);
	ret = vgpu_emit_wait_mem(op->queue->vq, va, s->timeline ? value : 1,
				 op->deadline);
	/* A binary semaphore's wait takes the signal back. */
	if (!ret && !s->timeline)
		ret = vgpu_emit_write_mem(op->queue->vq, va, 0, op->deadline);
	return ret;
}

/*
 * Unchecked: the async calls checked (a handle destroyed since is
 * skipped), and a graph node's are taken as they are, as the H100 took
 * them: its launch of a node with a flag and one with a handle that is
 * no semaphore succeeded (probe_extsem.h100.txt).  Flags are ignored.
 */
CUresult cu_ext_sem_enqueue(enum cu_ext_sem_dir d,
			    const CUexternalSemaphore *sems,
			    const void *params, unsigned int n, CUstream h)
{
	struct cu_ctx *ctx;
	struct cu_stream *s;
	struct cu_op op;
	unsigned int i;
	int ret = 0;
	CUresult res = cu_stream_current(h, &ctx, &s);

	if (res == CUDA_SUCCESS)
		res = cu_op_begin(s, CU_ENGINE_COPY, NULL, &op);
	if (res != CUDA_SUCCESS)
		return res;
	/*
	 * The lock keeps a destroy out while the packets name the payload;
	 * once queued, the destroy's unregistering waits for them.
	 */
	pthread_mutex_lock(&cu_ext_sem_lock);
	for (i = 0; i < n && !ret; i++) {
		const struct cu_ext_sem *e = cu_ext_sem_find(sems[i]);

		if (e)
			ret = cu_ext_sem_emit(d, e,
					      cu_ext_sem_value(d, params, i),
					      &op);
	}
	pthread_mutex_unlock(&cu_ext_sem_lock);
	if (ret) {
		cu_op_abort(&op, ret);
		return cu_from_errno(ret);
	}
	return cu_op_end(&op, NULL);
}

/*
 * cuSignal/WaitExternalSemaphoresAsync: checked first (a refused call
 * leaves a capture valid, as on the H100), then recorded as a node of
 * the capture, or queued.
 */
static CUresult cu_ext_sem_async(enum cu_ext_sem_dir d,
				 const CUexternalSemaphore *sems,
				 const void *params, unsigned int n,
				 CUstream h)
{
	union {
		CUDA_EXT_SEM_SIGNAL_NODE_PARAMS signal;
		CUDA_EXT_SEM_WAIT_NODE_PARAMS wait;
	} node;
	struct cu_ctx *ctx;
	struct cu_stream *s;
	bool recorded;
	CUresult res = cu_stream_current(h, &ctx, &s);

	if (res == CUDA_SUCCESS)
		res = cu_ext_sem_check(d, sems, params, n);
	if (res != CUDA_SUCCESS)
		return res;
	if (d == CU_EXT_SEM_SIGNAL)
		node.signal = (CUDA_EXT_SEM_SIGNAL_NODE_PARAMS){
			(CUexternalSemaphore *)sems, params, n };
	else
		node.wait = (CUDA_EXT_SEM_WAIT_NODE_PARAMS){
			(CUexternalSemaphore *)sems, params, n };
	res = cu_capture_op(s, cu_ext_sem_ways[d].node, &node, NULL,
			    &recorded);
	if (res != CUDA_SUCCESS || recorded)
		return res;
	return cu_ext_sem_enqueue(d, sems, params, n, h);
}

CU_EXPORT CUresult CUDAAPI cuSignalExternalSemaphoresAsync(
	const CUexternalSemaphore *extSemArray,
	const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *paramsArray,
	unsigned int numExtSems, CUstream stream)
{
	return cu_ext_sem_async(CU_EXT_SEM_SIGNAL, extSemArray, paramsArray,
				numExtSems, stream);
}

CU_EXPORT CUresult CUDAAPI cuWaitExternalSemaphoresAsync(
	const CUexternalSemaphore *extSemArray,
	const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *paramsArray,
	unsigned int numExtSems, CUstream stream)
{
	return cu_ext_sem_async(CU_EXT_SEM_WAIT, extSemArray, paramsArray,
				numExtSems, stream);
}

CU_EXPORT CUresult CUDAAPI cuDestroyExternalSemaphore(CUexternalSemaphore extSem)
{
	struct cu_ext_sem **pp, *s = NULL;
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	pthread_mutex_lock(&cu_ext_sem_lock);
	for (pp = &cu_ext_sems; *pp; pp = &(*pp)->next) {
		if ((CUexternalSemaphore)*pp == extSem) {
			s = *pp;
			*pp = s->next;
			break;
		}
	}
	pthread_mutex_unlock(&cu_ext_sem_lock);
	/* NULL: INVALID_VALUE on the H100 (a second destroy crashed it). */
	if (!s)
		return CUDA_ERROR_INVALID_VALUE;
	/* Unregistering waits for the queued signals and waits. */
	res = cuMemHostUnregister(s->payload);
	munmap(s->payload, s->map_size);
	free(s);
	return res;
}
