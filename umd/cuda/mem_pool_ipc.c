// SPDX-License-Identifier: GPL-2.0
/*
 * mem_pool_ipc.c - memory pools shared with other processes
 * (CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR).
 *
 * CUDA's protocol: the exporting process turns its pool into a file
 * descriptor (cuMemPoolExportToShareableHandle) and sends it over a Unix
 * socket; the importer makes a pool of it
 * (cuMemPoolImportFromShareableHandle).  Then for each allocation the
 * exporter hands out 64 opaque bytes (cuMemPoolExportPointer) and the
 * importer maps the allocation with them (cuMemPoolImportPointer).
 *
 *   exporter                              importer
 *   pool --ExportToShareableHandle--> fd --ImportFromShareableHandle--> pool'
 *   p = alloc(pool)
 *   data = ExportPointer(p) ----- 64 bytes -----> p' = ImportPointer(pool', data)
 *
 * vGPU builds it on the mechanism of cuIpcGetMemHandle (ipc.c): the
 * driver shares a VRAM object through a descriptor (VGPU_IOCTL_MEM_EXPORT,
 * MEM_IMPORT), and the importer fetches the exporter's descriptor with
 * pidfd_getfd(2).  The pool's descriptor is a small memfd that names the
 * exporting process and the pool; the pointer data names the chunk (by
 * the exporter's export descriptor of it) and the allocation's place in
 * it.  The importer maps each chunk once per context, and unmaps it when
 * its last imported pointer is freed (cuMemFreeAsync, cuMemFree): as in
 * CUDA, the importer must free before the exporter does.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mem_pool.h"

#define CU_POOL_SHARE_MAGIC	0x4c4f5053u	/* "SPOL" */
#define CU_POOL_PTR_MAGIC	0x52545053u	/* "SPTR" */

/* What the pool's descriptor holds. */
struct cu_pool_share {
	uint32_t magic;
	uint32_t device;
	int32_t pid;
	uint32_t pad;
	uint64_t id;			/* cu_mem_pool.ipc_id */
};

/* What the 64 bytes of a CUmemPoolPtrExportData hold. */
struct cu_pool_ptr_share {
	uint32_t magic;
	uint32_t device;
	int32_t pid;
	int32_t fd;			/* the exporter's, of the chunk */
	uint64_t id;
	uint64_t chunk_size;
	uint64_t offset;		/* of the allocation in the chunk */
	uint64_t size;
};

_Static_assert(sizeof(struct cu_pool_ptr_share) <=
	       sizeof(CUmemPoolPtrExportData), "pool pointer export layout");

CU_EXPORT CUresult CUDAAPI
cuMemPoolExportToShareableHandle(void *handle_out, CUmemoryPool pool,
				 CUmemAllocationHandleType handleType,
				 unsigned long long flags)
{
	struct cu_pool_share sh = { .magic = CU_POOL_SHARE_MAGIC };
	struct cu_mem_pool *p;
	CUresult res = cu_initialized();
	int fd;

	if (res != CUDA_SUCCESS)
		return res;
	if (!handle_out || flags)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&cu_pool_lock);
	p = cu_pool_lookup(pool);
	/* Measured: a pool made without the handle type, INVALID_VALUE. */
	if (!p || p->imported || !p->ipc_id ||
	    handleType != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) {
		pthread_mutex_unlock(&cu_pool_lock);
		return CUDA_ERROR_INVALID_VALUE;
	}
	sh.device = p->dev->ordinal;
	sh.id = p->ipc_id;
	pthread_mutex_unlock(&cu_pool_lock);
	sh.pid = (int32_t)getpid();
	fd = memfd_create("vgpu-mempool", MFD_CLOEXEC);
	if (fd < 0)
		return CUDA_ERROR_OUT_OF_MEMORY;
	if (pwrite(fd, &sh, sizeof(sh), 0) != (ssize_t)sizeof(sh)) {
		close(fd);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	*(int *)handle_out = fd;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI
cuMemPoolImportFromShareableHandle(CUmemoryPool *pool_out, void *handle,
				   CUmemAllocationHandleType handleType,
				   unsigned long long flags)
{
	struct cu_pool_share sh;
	struct cu_mem_pool *p;
	CUmemPoolProps props;
	struct cu_device *d;
	CUresult res = cu_initialized();
	int fd = (int)(intptr_t)handle;

	if (res != CUDA_SUCCESS)
		return res;
	if (!pool_out || flags ||
	    handleType != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
		return CUDA_ERROR_INVALID_VALUE;
	if (pread(fd, &sh, sizeof(sh), 0) != (ssize_t)sizeof(sh) ||
	    sh.magic != CU_POOL_SHARE_MAGIC)
		return CUDA_ERROR_INVALID_VALUE;
	d = cu_device_get((CUdevice)sh.device);
	if (!d)
		return CUDA_ERROR_INVALID_DEVICE;
	memset(&props, 0, sizeof(props));
	props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	props.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
	props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	props.location.id = (int)sh.device;
	pthread_mutex_lock(&cu_pool_lock);
	p = cu_pool_new(d, &props, false);
	if (p) {
		p->ipc_id = 0;		/* not ours to share again */
		p->imported = true;
		p->owner_pid = sh.pid;
		p->owner_id = sh.id;
	}
	pthread_mutex_unlock(&cu_pool_lock);
	if (!p)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*pool_out = (CUmemoryPool)p;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuMemPoolExportPointer(CUmemPoolPtrExportData *out,
						  CUdeviceptr ptr)
{
	struct cu_pool_ptr_share sh = { .magic = CU_POOL_PTR_MAGIC };
	struct cu_pool_chunk *c = NULL;
	struct cu_pool_block *b;
	CUresult res = cu_initialized();
	bool inside;
	int ret = 0;

	if (res != CUDA_SUCCESS)
		return res;
	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&cu_pool_lock);
	b = cu_pool_block_at(ptr, &c, &inside);
	if (!b || !b->used || c->imported || !c->pool->ipc_id) {
		pthread_mutex_unlock(&cu_pool_lock);
		return CUDA_ERROR_INVALID_VALUE;
	}
	/* The chunk's descriptor stays open as long as the chunk. */
	if (c->export_fd < 0)
		ret = vgpu_mem_export(c->ctx->dev->vdev, c->handle,
				      VGPU_MEM_EXPORT_CLOEXEC, &c->export_fd);
	if (ret) {
		c->export_fd = -1;
		pthread_mutex_unlock(&cu_pool_lock);
		return cu_from_errno(ret);
	}
	sh.device = c->pool->dev->ordinal;
	sh.pid = (int32_t)getpid();
	sh.fd = c->export_fd;
	sh.id = c->pool->ipc_id;
	sh.chunk_size = c->size;
	sh.offset = b->off;
	sh.size = b->req;
	pthread_mutex_unlock(&cu_pool_lock);
	memset(out, 0, sizeof(*out));
	memcpy(out, &sh, sizeof(sh));
	return CUDA_SUCCESS;
}

/* Map the exporter's chunk @sh names into @ctx (cu_pool_lock held). */
static CUresult cu_pool_import_chunk(struct cu_mem_pool *p, struct cu_ctx *ctx,
				     const struct cu_pool_ptr_share *sh,
				     struct cu_pool_chunk **out)
{
	struct vgpu_device *vdev = ctx->dev->vdev;
	struct cu_pool_chunk *c;
	uint32_t vh, kind;
	uint64_t size;
	int fd, ret;

	fd = cu_ipc_fetch_fd(sh->pid, sh->fd);
	if (fd < 0)
		return fd == -EPERM ? CUDA_ERROR_NOT_PERMITTED :
		       CUDA_ERROR_INVALID_VALUE;
	ret = vgpu_mem_import(vdev, fd, &vh, &kind, &size);
	close(fd);
	if (ret)
		return CUDA_ERROR_INVALID_VALUE;	/* not a vGPU object */
	c = calloc(1, sizeof(*c));
	if (!c || kind != VGPU_MEM_KIND_VRAM || size < sh->chunk_size)
		goto fail;
	c->va = cu_va_alloc(size);
	if (!c->va)
		goto fail;
	if (vgpu_mem_map(vdev, ctx->vctx, vh, c->va, 0, size, 0)) {
		cu_va_free(c->va, size);
		goto fail;
	}
	c->pool = p;
	c->ctx = ctx;
	c->handle = vh;
	c->size = size;
	c->map_size = size;
	c->export_fd = -1;
	c->imported = true;
	c->owner_fd = sh->fd;
	c->next = p->chunks;
	p->chunks = c;
	*out = c;
	return CUDA_SUCCESS;
fail:
	free(c);
	vgpu_mem_free(vdev, vh, NULL, 0);
	return CUDA_ERROR_INVALID_VALUE;
}

CU_EXPORT CUresult CUDAAPI cuMemPoolImportPointer(CUdeviceptr *ptr_out,
						  CUmemoryPool pool,
						  CUmemPoolPtrExportData *data)
{
	struct cu_pool_ptr_share sh;
	struct cu_pool_chunk *c;
	struct cu_pool_block *b;
	struct cu_mem_pool *p;
	struct cu_mem m = { 0 };
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!ptr_out || !data)
		return CUDA_ERROR_INVALID_VALUE;
	memcpy(&sh, data, sizeof(sh));
	if (sh.magic != CU_POOL_PTR_MAGIC || sh.offset > sh.chunk_size ||
	    sh.chunk_size - sh.offset < sh.size)
		return CUDA_ERROR_INVALID_VALUE;
	if (sh.device != ctx->dev->ordinal)
		return CUDA_ERROR_INVALID_DEVICE;
	pthread_mutex_lock(&cu_pool_lock);
	p = cu_pool_lookup(pool);
	if (!p || !p->imported || p->owner_pid != sh.pid ||
	    p->owner_id != sh.id) {
		res = CUDA_ERROR_INVALID_VALUE;
		goto out;
	}
	for (c = p->chunks; c; c = c->next)
		if (c->ctx == ctx && c->owner_fd == sh.fd)
			break;
	if (!c) {
		res = cu_pool_import_chunk(p, ctx, &sh, &c);
		if (res != CUDA_SUCCESS)
			goto out;
	}
	/* The same pointer imported again is the same mapping. */
	for (b = c->blocks; b; b = b->next)
		if (b->off == sh.offset)
			break;
	if (!b) {
		b = calloc(1, sizeof(*b));
		if (!b) {
			res = CUDA_ERROR_OUT_OF_MEMORY;
			goto drop;
		}
		b->off = sh.offset;
		b->size = b->req = sh.size;
		b->used = true;
		m.base = c->va + sh.offset;
		m.size = sh.size;
		m.map_base = c->va;
		m.map_size = c->map_size;
		m.kind = CU_MEM_DEVICE;
		m.dev = ctx->dev;
		m.ctx = ctx;
		m.handle = c->handle;
		m.imported = true;
		m.export_fd = -1;
		res = cu_registry_add(&m);
		if (res != CUDA_SUCCESS) {
			free(b);
			goto drop;
		}
		b->next = c->blocks;
		c->blocks = b;
	}
	*ptr_out = c->va + sh.offset;
	goto out;
drop:
	if (!c->blocks)
		cu_chunk_free(c, true);
out:
	pthread_mutex_unlock(&cu_pool_lock);
	return res;
}

void cu_pool_unimport(CUdeviceptr ptr)
{
	struct cu_pool_chunk *c = NULL;
	struct cu_pool_block *b, **bp;
	struct cu_mem_pool *p;
	bool inside;

	pthread_mutex_lock(&cu_pool_lock);
	b = cu_pool_block_at(ptr, &c, &inside);
	if (b && c->imported) {
		for (bp = &c->blocks; *bp; bp = &(*bp)->next) {
			if (*bp == b) {
				*bp = b->next;
				break;
			}
		}
		cu_registry_remove(ptr, CU_MEM_DEVICE, NULL);
		free(b);
		p = c->pool;
		if (!c->blocks)
			cu_chunk_free(c, true);
		cu_pool_reap(p);
	}
	pthread_mutex_unlock(&cu_pool_lock);
}
