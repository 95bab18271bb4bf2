// SPDX-License-Identifier: GPL-2.0
/*
 * ipc.c - CUDA IPC: device memory shared between processes.
 *
 * The driver shares a memory object through a file descriptor
 * (VGPU_IOCTL_MEM_EXPORT / MEM_IMPORT), but a CUipcMemHandle is 64 plain
 * bytes that the application sends however it likes (a pipe, shared
 * memory...), which cannot carry a descriptor.  So the handle names the
 * exporting process and the number of its export descriptor, and the
 * importer fetches the descriptor itself with pidfd_getfd(2) - which, like
 * ptrace, needs the same user (and, under Yama's ptrace_scope 1, that the
 * exporter be a descendant or CAP_SYS_PTRACE).  The exporter keeps the
 * descriptor open for as long as the allocation lives.
 */
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cuda_internal.h"

#define CU_IPC_MAGIC	0x43504956u	/* "VIPC" */

/* What we put in the 64 bytes of a CUipcMemHandle. */
struct cu_ipc_mem {
	uint32_t magic;
	uint32_t device;	/* ordinal: must be the same device */
	int32_t pid;		/* exporting process */
	int32_t fd;		/* its export descriptor */
	uint64_t size;		/* bytes the allocation has */
};

_Static_assert(sizeof(struct cu_ipc_mem) <= sizeof(CUipcMemHandle),
	       "IPC handle layout");

CU_EXPORT CUresult CUDAAPI cuIpcGetMemHandle(CUipcMemHandle *pHandle,
					     CUdeviceptr dptr)
{
	struct cu_ipc_mem h = { .magic = CU_IPC_MAGIC };
	struct cu_ctx *ctx;
	struct cu_mem m;
	CUresult res = cu_ctx_get(&ctx);
	int fd, current, ret;

	if (res != CUDA_SUCCESS)
		return res;
	/*
	 * Measured on an H100: a pointer inside an allocation is accepted;
	 * the handle stands for the whole allocation.
	 */
	if (!pHandle || !cu_registry_find(dptr, &m) ||
	    m.kind != CU_MEM_DEVICE || m.imported)
		return CUDA_ERROR_INVALID_VALUE;
	dptr = m.base;
	if (m.export_fd < 0) {
		ret = vgpu_mem_export(m.dev->vdev, m.handle,
				      VGPU_MEM_EXPORT_CLOEXEC, &fd);
		if (ret)
			return cu_from_errno(ret);
		/* Another thread may have exported it meanwhile. */
		if (!cu_registry_set_export(dptr, fd, &current))
			close(fd);
		if (current < 0)
			return CUDA_ERROR_INVALID_VALUE;	/* freed */
		m.export_fd = current;
	}
	h.device = m.dev->ordinal;
	h.pid = (int32_t)getpid();
	h.fd = m.export_fd;
	h.size = m.size;
	memset(pHandle, 0, sizeof(*pHandle));
	memcpy(pHandle, &h, sizeof(h));
	return CUDA_SUCCESS;
}

/* The exporter's descriptor @fd of process @pid, as one of ours. */
int cu_ipc_fetch_fd(int32_t pid, int32_t fd)
{
	int pidfd, ours, err;

	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0)
		return -errno;
	ours = (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
	err = errno;
	close(pidfd);
	return ours < 0 ? -err : ours;
}

CU_EXPORT CUresult CUDAAPI cuIpcOpenMemHandle(CUdeviceptr *pdptr,
					      CUipcMemHandle handle,
					      unsigned int Flags)
{
	struct cu_ipc_mem h;
	struct cu_ctx *ctx;
	uint32_t vh, kind;
	uint64_t size;
	CUresult res = cu_ctx_get(&ctx);
	int fd, ret;

	if (res != CUDA_SUCCESS)
		return res;
	memcpy(&h, &handle, sizeof(h));
	if (!pdptr || (Flags & ~(unsigned int)CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS) ||
	    h.magic != CU_IPC_MAGIC)
		return CUDA_ERROR_INVALID_VALUE;
	if (h.device != ctx->dev->ordinal)
		return CUDA_ERROR_INVALID_DEVICE;
	/* A process cannot open its own handles (measured on an H100). */
	if (h.pid == (int32_t)getpid())
		return CUDA_ERROR_INVALID_VALUE;
	fd = cu_ipc_fetch_fd(h.pid, h.fd);
	if (fd < 0)
		return fd == -EPERM ? CUDA_ERROR_NOT_PERMITTED :
		       CUDA_ERROR_INVALID_HANDLE;
	ret = vgpu_mem_import(ctx->dev->vdev, fd, &vh, &kind, &size);
	close(fd);
	if (ret)
		return CUDA_ERROR_INVALID_HANDLE;	/* not a vGPU object */
	if (kind != VGPU_MEM_KIND_VRAM || size < h.size) {
		vgpu_mem_free(ctx->dev->vdev, vh, NULL, 0);
		return CUDA_ERROR_INVALID_HANDLE;
	}
	res = cu_mem_device_map(ctx, vh, h.size, size, true, pdptr);
	if (res != CUDA_SUCCESS)
		vgpu_mem_free(ctx->dev->vdev, vh, NULL, 0);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuIpcCloseMemHandle(CUdeviceptr dptr)
{
	struct cu_ctx *ctx;
	struct cu_mem m;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!cu_registry_find(dptr, &m) || m.kind != CU_MEM_DEVICE ||
	    m.base != dptr || !m.imported)
		return CUDA_ERROR_INVALID_VALUE;
	cu_ctx_sync(m.ctx);
	if (!cu_registry_remove(dptr, CU_MEM_DEVICE, &m))
		return CUDA_ERROR_INVALID_VALUE;
	cu_mem_device_release(&m, true);
	return CUDA_SUCCESS;
}
