// SPDX-License-Identifier: GPL-2.0
/*
 * interop_ext.c - external memory and semaphores: cuImportExternalMemory,
 * cuExternalMemoryGetMappedBuffer/MipmappedArray, cuImportExternalSemaphore,
 * cuSignal/WaitExternalSemaphoresAsync, cuDestroyExternal*.
 *
 * Memory.  What a Vulkan driver on this machine exports as an OPAQUE_FD
 * is a file descriptor of its host memory (lavapipe: a memfd, laid out
 * as below).  vGPU's
 * device reaches host memory through the GART, so an import is a host
 * registration of that memory: the fd is mapped into the process
 * (MAP_SHARED, the same pages the exporter uses), the range is pinned and
 * entered in the GART by the existing cuMemHostRegister path, and mapped
 * at the same address on the GPU (unified addressing).  A mapped buffer
 * is then a pointer into that range: zero copy, the device and the
 * exporter read and write the same physical pages.
 *
 * Arrays cannot be mapped this way: a CUDA array lives in VRAM in the
 * block-linear layout only the copy engines and the texture unit know
 * (array.h), while an exporter's image has its own layout in host
 * memory; cuExternalMemoryGetMappedMipmappedArray says NOT_SUPPORTED.
 *
 * Semaphores.  lavapipe exports no semaphore at all (its
 * vkGetPhysicalDeviceExternalSemaphoreProperties reports no handle type),
 * and there is no kernel object both sides could wait on.  So vGPU's
 * external semaphore is the simplest shared object that has the
 * semantics: a u64 payload at offset 0 of a shared mapping of the fd
 * (a memfd the application makes and shares with the other side).
 * Timeline: signal stores the value, wait waits until the payload is at
 * least the value.  Binary: signal stores 1, wait waits for non-zero and
 * takes it back to 0.  Both run in stream order as host functions
 * (host_func.c): a signal after the stream's earlier work, a wait before
 * its later work; not in a stream capture, where a host node would run at
 * every launch of the graph with an argument freed after the first.  A
 * waiter sleeps on a futex of the payload's low word,
 * which the signaller wakes (the mapping is shared, so the futex works
 * across processes too).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cuda_internal.h"
#include "interop.h"

/* ---- memory -------------------------------------------------------------- */

struct cu_ext_mem {
	struct cu_ext_mem *next;	/* in cu_ext_mems */
	void *map;			/* the fd's pages, mapped and pinned */
	size_t map_size;		/* rounded up to pages */
	char *base;			/* the memory's first byte in @map */
	size_t size;			/* as the application gave it */
};

/*
 * Mesa's exported memory (os_malloc_aligned_fd, src/util/os_memory_fd.c,
 * which lavapipe uses for every exportable allocation) is a memfd that
 * starts with a header and has the memory at an aligned offset after it:
 *
 *   0         8          16              32        offset         size
 *   | size    | offset   | driver uuid   | ...     | the memory ... |
 *
 * and is sealed against growing and shrinking.  lavapipe's own import
 * reads the header the same way.  Any other fd is memory from byte 0.
 */
struct cu_mesa_memfd_header {
	uint64_t size;			/* of the whole file */
	uint64_t offset;		/* of the memory */
	uint8_t uuid[16];
};

/* Where the memory of @fd (of @file_size bytes) starts. */
static uint64_t cu_ext_mem_start(int fd, uint64_t file_size)
{
	struct cu_mesa_memfd_header h;
	int seals = fcntl(fd, F_GET_SEALS);

	if (seals < 0 || (seals & (F_SEAL_GROW | F_SEAL_SHRINK)) !=
	    (F_SEAL_GROW | F_SEAL_SHRINK))
		return 0;
	if (pread(fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h) ||
	    h.size != file_size || h.offset < sizeof(h) ||
	    h.offset >= h.size)
		return 0;
	return h.offset;
}

/* A buffer handed out by cuExternalMemoryGetMappedBuffer. */
struct cu_ext_buf {
	struct cu_ext_buf *next;
	struct cu_ext_mem *mem;
	CUdeviceptr ptr;
};

static pthread_mutex_t cu_ext_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cu_ext_mem *cu_ext_mems;
static struct cu_ext_buf *cu_ext_bufs;

static struct cu_ext_mem *cu_ext_mem_find(CUexternalMemory h)
{
	struct cu_ext_mem *m;

	for (m = cu_ext_mems; m; m = m->next)
		if ((CUexternalMemory)m == h)
			return m;
	return NULL;
}

CU_EXPORT CUresult CUDAAPI cuImportExternalMemory(CUexternalMemory *extMem_out,
	const CUDA_EXTERNAL_MEMORY_HANDLE_DESC *memHandleDesc)
{
	long page = sysconf(_SC_PAGESIZE);
	struct cu_ext_mem *m;
	struct cu_ctx *ctx;
	struct stat st;
	uint64_t start = 0, delta;
	CUresult res = cu_ctx_get(&ctx);
	int fd;

	if (res != CUDA_SUCCESS)
		return res;
	if (!extMem_out || !memHandleDesc || !memHandleDesc->size ||
	    (memHandleDesc->flags & ~CUDA_EXTERNAL_MEMORY_DEDICATED))
		return CUDA_ERROR_INVALID_VALUE;
	/* Windows, D3D and NvSci handles are types CUDA knows, not here. */
	if (memHandleDesc->type != CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD)
		return memHandleDesc->type >= 1 && memHandleDesc->type <=
		       CU_EXTERNAL_MEMORY_HANDLE_TYPE_NVSCIBUF ?
		       CUDA_ERROR_NOT_SUPPORTED : CUDA_ERROR_INVALID_VALUE;
	/* A descriptor that is no file: UNKNOWN, as the H100 answers. */
	fd = memHandleDesc->handle.fd;
	if (fd < 0 || fstat(fd, &st))
		return CUDA_ERROR_UNKNOWN;
	if (S_ISREG(st.st_mode)) {
		start = cu_ext_mem_start(fd, (uint64_t)st.st_size);
		/* Memory the fd does not have. */
		if ((unsigned long long)st.st_size - start < memHandleDesc->size)
			return CUDA_ERROR_INVALID_VALUE;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		return CUDA_ERROR_OUT_OF_MEMORY;
	m->size = memHandleDesc->size;
	/* mmap's offset is in pages: map from the page the memory starts in. */
	delta = start & ((uint64_t)page - 1);
	m->map_size = (delta + m->size + (size_t)page - 1) &
		      ~((size_t)page - 1);
	m->map = mmap(NULL, m->map_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		      fd, (off_t)(start - delta));
	if (m->map == MAP_FAILED) {
		free(m);
		return CUDA_ERROR_INVALID_VALUE;	/* not memory */
	}
	m->base = (char *)m->map + delta;
	res = cuMemHostRegister(m->map, m->map_size, 0);
	if (res != CUDA_SUCCESS) {
		munmap(m->map, m->map_size);
		free(m);
		return res;
	}
	/* The driver owns the fd once the import succeeded (as CUDA's). */
	close(fd);
	pthread_mutex_lock(&cu_ext_lock);
	m->next = cu_ext_mems;
	cu_ext_mems = m;
	pthread_mutex_unlock(&cu_ext_lock);
	*extMem_out = (CUexternalMemory)m;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuExternalMemoryGetMappedBuffer(CUdeviceptr *devPtr,
	CUexternalMemory extMem, const CUDA_EXTERNAL_MEMORY_BUFFER_DESC *bufferDesc)
{
	struct cu_ext_mem *m;
	struct cu_ext_buf *b;
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!devPtr || !bufferDesc || bufferDesc->flags || !bufferDesc->size)
		return CUDA_ERROR_INVALID_VALUE;
	b = calloc(1, sizeof(*b));
	if (!b)
		return CUDA_ERROR_OUT_OF_MEMORY;
	pthread_mutex_lock(&cu_ext_lock);
	m = cu_ext_mem_find(extMem);
	if (!m) {
		res = CUDA_ERROR_INVALID_HANDLE;
	} else if (bufferDesc->offset > m->size ||
		   bufferDesc->size > m->size - bufferDesc->offset) {
		res = CUDA_ERROR_INVALID_VALUE;
	} else {
		b->mem = m;
		b->ptr = (CUdeviceptr)(uintptr_t)m->base + bufferDesc->offset;
		b->next = cu_ext_bufs;
		cu_ext_bufs = b;
		*devPtr = b->ptr;
	}
	pthread_mutex_unlock(&cu_ext_lock);
	if (res != CUDA_SUCCESS)
		free(b);
	return res;
}

bool cu_ext_buffer_free(CUdeviceptr ptr)
{
	struct cu_ext_buf **pp, *b = NULL;

	pthread_mutex_lock(&cu_ext_lock);
	for (pp = &cu_ext_bufs; *pp; pp = &(*pp)->next) {
		if ((*pp)->ptr == ptr) {
			b = *pp;
			*pp = b->next;
			break;
		}
	}
	pthread_mutex_unlock(&cu_ext_lock);
	free(b);
	return b != NULL;
}

CU_EXPORT CUresult CUDAAPI cuExternalMemoryGetMappedMipmappedArray(
	CUmipmappedArray *mipmap, CUexternalMemory extMem,
	const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC *mipmapDesc)
{
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!mipmap || !mipmapDesc || !mipmapDesc->numLevels)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&cu_ext_lock);
	res = cu_ext_mem_find(extMem) ? CUDA_ERROR_NOT_SUPPORTED :
	      CUDA_ERROR_INVALID_HANDLE;
	pthread_mutex_unlock(&cu_ext_lock);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuDestroyExternalMemory(CUexternalMemory extMem)
{
	struct cu_ext_mem **pp, *m = NULL;
	struct cu_ext_buf **bp;
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	pthread_mutex_lock(&cu_ext_lock);
	for (pp = &cu_ext_mems; *pp; pp = &(*pp)->next) {
		if ((CUexternalMemory)*pp == extMem) {
			m = *pp;
			*pp = m->next;
			break;
		}
	}
	/* Buffers not freed yet die with it (CUDA: no longer to be used). */
	for (bp = &cu_ext_bufs; m && *bp;) {
		struct cu_ext_buf *b = *bp;

		if (b->mem == m) {
			*bp = b->next;
			free(b);
		} else {
			bp = &b->next;
		}
	}
	pthread_mutex_unlock(&cu_ext_lock);
	if (!m)
		return CUDA_ERROR_INVALID_HANDLE;
	/* Unregistering waits for the device's work on the range. */
	res = cuMemHostUnregister(m->map);
	munmap(m->map, m->map_size);
	free(m);
	return res;
}

/* ---- semaphores ---------------------------------------------------------- */

struct cu_ext_sem {
	struct cu_ext_sem *next;	/* in cu_ext_sems */
	bool timeline;
	_Atomic uint64_t *payload;	/* offset 0 of the shared mapping */
	size_t map_size;
	atomic_uint refs;		/* the handle, and each queued op */
};

/* One queued signal or wait: the host function's argument. */
struct cu_ext_sem_op {
	struct cu_ext_sem *sem;
	uint64_t value;
};

static struct cu_ext_sem *cu_ext_sems;

static struct cu_ext_sem *cu_ext_sem_find(CUexternalSemaphore h)
{
	struct cu_ext_sem *s;

	for (s = cu_ext_sems; s; s = s->next)
		if ((CUexternalSemaphore)s == h)
			return s;
	return NULL;
}

static void cu_ext_sem_put(struct cu_ext_sem *s)
{
	if (atomic_fetch_sub(&s->refs, 1) != 1)
		return;
	munmap((void *)s->payload, s->map_size);
	free(s);
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
	s = calloc(1, sizeof(*s));
	if (!s) {
		munmap(p, (size_t)page);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	s->timeline = semHandleDesc->type ==
		      CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD;
	s->payload = p;
	s->map_size = (size_t)page;
	atomic_init(&s->refs, 1);
	close(fd);
	pthread_mutex_lock(&cu_ext_lock);
	s->next = cu_ext_sems;
	cu_ext_sems = s;
	pthread_mutex_unlock(&cu_ext_lock);
	*extSem_out = (CUexternalSemaphore)s;
	return CUDA_SUCCESS;
}

/* The futex word: the payload's low 32 bits (x86-64 is little-endian). */
static uint32_t *cu_ext_sem_word(struct cu_ext_sem *s)
{
	return (uint32_t *)(void *)s->payload;
}

static void cu_ext_sem_signal_fn(void *arg)
{
	struct cu_ext_sem_op *op = arg;
	struct cu_ext_sem *s = op->sem;

	if (s->timeline) {
		uint64_t cur = atomic_load(s->payload);

		/* A timeline only moves forward. */
		while (cur < op->value &&
		       !atomic_compare_exchange_weak(s->payload, &cur,
						     op->value))
			;
	} else {
		atomic_store(s->payload, 1);
	}
	syscall(SYS_futex, cu_ext_sem_word(s), FUTEX_WAKE, INT_MAX, NULL,
		NULL, 0);
	cu_ext_sem_put(s);
	free(op);
}

/* Whether @op's condition holds; a binary semaphore's is consumed. */
static bool cu_ext_sem_try(struct cu_ext_sem_op *op)
{
	struct cu_ext_sem *s = op->sem;
	uint64_t cur = atomic_load(s->payload);

	if (s->timeline)
		return cur >= op->value;
	while (cur) {
		if (atomic_compare_exchange_weak(s->payload, &cur, 0))
			return true;
	}
	return false;
}

static void cu_ext_sem_wait_fn(void *arg)
{
	struct cu_ext_sem_op *op = arg;
	struct cu_ext_sem *s = op->sem;

	/*
	 * The futex compares only the low word, so a 64-bit value can move
	 * between the test and the sleep without waking it: sleep in slices.
	 */
	while (!cu_ext_sem_try(op)) {
		struct timespec slice = { 0, 10 * 1000 * 1000 };
		uint32_t low = (uint32_t)atomic_load(s->payload);

		syscall(SYS_futex, cu_ext_sem_word(s), FUTEX_WAIT, low, &slice,
			NULL, 0);
	}
	cu_ext_sem_put(s);
	free(op);
}

/* Queue @fn for each of @n semaphores, with the value each param gives. */
static CUresult cu_ext_sem_queue(const CUexternalSemaphore *sems,
				 const uint64_t *values, unsigned int n,
				 CUstream stream, CUhostFn fn)
{
	struct cu_ext_sem_op **ops;
	unsigned int i;
	CUresult res = CUDA_SUCCESS;

	CUstreamCaptureStatus capturing = CU_STREAM_CAPTURE_STATUS_NONE;

	res = cuStreamIsCapturing(stream, &capturing);
	if (res != CUDA_SUCCESS)
		return res;
	if (capturing != CU_STREAM_CAPTURE_STATUS_NONE)
		return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
	ops = calloc(n, sizeof(*ops));
	if (!ops)
		return CUDA_ERROR_OUT_OF_MEMORY;
	pthread_mutex_lock(&cu_ext_lock);
	for (i = 0; i < n && res == CUDA_SUCCESS; i++) {
		struct cu_ext_sem *s = cu_ext_sem_find(sems[i]);

		ops[i] = s ? calloc(1, sizeof(*ops[i])) : NULL;
		if (!s) {
			res = CUDA_ERROR_INVALID_HANDLE;
		} else if (!ops[i]) {
			res = CUDA_ERROR_OUT_OF_MEMORY;
		} else {
			ops[i]->sem = s;
			ops[i]->value = values[i];
			atomic_fetch_add(&s->refs, 1);
		}
	}
	pthread_mutex_unlock(&cu_ext_lock);
	for (i = 0; i < n && res == CUDA_SUCCESS; i++) {
		res = cuLaunchHostFunc(stream, fn, ops[i]);
		if (res == CUDA_SUCCESS)
			ops[i] = NULL;		/* the host function owns it */
	}
	for (i = 0; i < n; i++) {
		if (ops[i]) {
			cu_ext_sem_put(ops[i]->sem);
			free(ops[i]);
		}
	}
	free(ops);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuSignalExternalSemaphoresAsync(
	const CUexternalSemaphore *extSemArray,
	const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *paramsArray,
	unsigned int numExtSems, CUstream stream)
{
	uint64_t *values;
	unsigned int i;
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	/* NULL arrays are refused even for none (H100). */
	if (!extSemArray || !paramsArray)
		return CUDA_ERROR_INVALID_VALUE;
	if (!numExtSems)
		return CUDA_SUCCESS;
	values = calloc(numExtSems, sizeof(*values));
	if (!values)
		return CUDA_ERROR_OUT_OF_MEMORY;
	for (i = 0; i < numExtSems; i++) {
		if (paramsArray[i].flags &
		    ~CUDA_EXTERNAL_SEMAPHORE_SIGNAL_SKIP_NVSCIBUF_MEMSYNC)
			res = CUDA_ERROR_INVALID_VALUE;
		values[i] = paramsArray[i].params.fence.value;
	}
	if (res == CUDA_SUCCESS)
		res = cu_ext_sem_queue(extSemArray, values, numExtSems, stream,
				       cu_ext_sem_signal_fn);
	free(values);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuWaitExternalSemaphoresAsync(
	const CUexternalSemaphore *extSemArray,
	const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *paramsArray,
	unsigned int numExtSems, CUstream stream)
{
	uint64_t *values;
	unsigned int i;
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	/* NULL arrays are refused even for none (H100). */
	if (!extSemArray || !paramsArray)
		return CUDA_ERROR_INVALID_VALUE;
	if (!numExtSems)
		return CUDA_SUCCESS;
	values = calloc(numExtSems, sizeof(*values));
	if (!values)
		return CUDA_ERROR_OUT_OF_MEMORY;
	for (i = 0; i < numExtSems; i++) {
		if (paramsArray[i].flags &
		    ~CUDA_EXTERNAL_SEMAPHORE_WAIT_SKIP_NVSCIBUF_MEMSYNC)
			res = CUDA_ERROR_INVALID_VALUE;
		values[i] = paramsArray[i].params.fence.value;
	}
	if (res == CUDA_SUCCESS)
		res = cu_ext_sem_queue(extSemArray, values, numExtSems, stream,
				       cu_ext_sem_wait_fn);
	free(values);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuDestroyExternalSemaphore(CUexternalSemaphore extSem)
{
	struct cu_ext_sem **pp, *s = NULL;
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	pthread_mutex_lock(&cu_ext_lock);
	for (pp = &cu_ext_sems; *pp; pp = &(*pp)->next) {
		if ((CUexternalSemaphore)*pp == extSem) {
			s = *pp;
			*pp = s->next;
			break;
		}
	}
	pthread_mutex_unlock(&cu_ext_lock);
	if (!s)
		return CUDA_ERROR_INVALID_HANDLE;
	/* Queued signals and waits keep it alive until they ran. */
	cu_ext_sem_put(s);
	return CUDA_SUCCESS;
}
