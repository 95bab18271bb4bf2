// SPDX-License-Identifier: GPL-2.0
/*
 * interop_ext.c - external memory: cuImportExternalMemory,
 * cuExternalMemoryGetMappedBuffer/MipmappedArray, cuDestroyExternalMemory.
 * (External semaphores: interop_sem.c.)
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
 * A mapped mipmapped array is an array whose storage is that range too:
 * its levels are vGPU's block-linear chain (include/vgpu_array.h, the
 * layout of every CUDA array here), starting at the descriptor's offset
 * in the memory.  The copy engines and the texture unit reach an array
 * through its device address, so they read and write the exporter's
 * pages directly; an exporter that wants to see the texels must lay its
 * image out the same way (Documentation/interop.rst says how).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
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

/*
 * The H100's answers (probe_extsem.h100.txt): any offset, a chain larger
 * than the memory past the offset INVALID_VALUE, NULL out or descriptor
 * INVALID_VALUE; 0 levels crashed its driver (here INVALID_VALUE).
 */
CU_EXPORT CUresult CUDAAPI cuExternalMemoryGetMappedMipmappedArray(
	CUmipmappedArray *mipmap, CUexternalMemory extMem,
	const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC *mipmapDesc)
{
	struct cu_ext_mem *m;
	struct cu_ctx *ctx;
	CUdeviceptr storage = 0;
	uint64_t room = 0;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!mipmap || !mipmapDesc || !mipmapDesc->numLevels)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&cu_ext_lock);
	m = cu_ext_mem_find(extMem);
	if (!m) {
		res = CUDA_ERROR_INVALID_HANDLE;
	} else if (mipmapDesc->offset >= m->size) {
		res = CUDA_ERROR_INVALID_VALUE;
	} else {
		storage = (CUdeviceptr)(uintptr_t)m->base + mipmapDesc->offset;
		room = m->size - mipmapDesc->offset;
	}
	pthread_mutex_unlock(&cu_ext_lock);
	if (res != CUDA_SUCCESS)
		return res;
	return cu_mipmap_make(mipmap, &mipmapDesc->arrayDesc,
			      mipmapDesc->numLevels, storage, room);
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
