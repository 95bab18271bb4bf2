// SPDX-License-Identifier: GPL-2.0
/*
 * ipc_event.c - events shared between processes: cuIpcGetEventHandle,
 * cuIpcOpenEventHandle.
 *
 * An ordinary event is a point (queue, sequence number) in one context,
 * completed when that queue's fence passes it: nothing another process
 * can see.  An interprocess event (CU_EVENT_INTERPROCESS) therefore also
 * owns one page of shared memory - a memfd, mapped by each process that
 * uses the event and pinned for its device - holding two counters:
 *
 *   page[0]  records so far: the host adds one when it records the event;
 *   page[1]  records complete: the record's operation ends with a
 *            WRITE_MEM packet that stores its number there, so the device
 *            writes it once every earlier operation of the stream is done.
 *
 * The event is complete when page[1] >= page[0].  The process that opens
 * the handle fetches the memfd with pidfd_getfd (as for memory handles,
 * ipc.c), maps it, and then: cuEventQuery compares the counters,
 * cuEventSynchronize polls them, cuStreamWaitEvent queues a WAIT_MEM
 * packet on page[1] for the number recorded at the time of the call - the
 * device waits, not the host.  The exporter's own uses of the event go
 * through its point as for any event (event.c).
 *
 * A record waits for the event's previous record, so that the numbers are
 * written in order; records of the same event from two processes at once
 * are not ordered with each other.  Like any WAIT_MEM, a stream waiting
 * for another process's work waits as long as that work takes: waiting is
 * not a hang.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cuda_internal.h"
#include "handles.h"

#define CU_IPC_EVENT_MAGIC	0x45504956u	/* "VIPE" */

enum { CU_IPC_RECORDED = 0, CU_IPC_COMPLETED = 1 };

struct cu_ipc_event {
	volatile uint64_t *page;	/* the two counters, GPU VA == host VA */
	size_t size;			/* of the mapping */
	struct cu_device *dev;		/* whose file pinned it */
	uint32_t handle;		/* the pinned page on that device */
	int memfd;			/* exporter: what importers fetch, or -1 */
	int pidfd;			/* importer: the exporting process */
	bool imported;
};

/* What we put in the 64 bytes of a CUipcEventHandle. */
struct cu_ipc_event_handle {
	uint32_t magic;
	int32_t pid;		/* exporting process */
	int32_t memfd;		/* its descriptor of the shared page */
};

_Static_assert(sizeof(struct cu_ipc_event_handle) <= sizeof(CUipcEventHandle),
	       "IPC event handle layout");

static uint64_t cu_ipc_load(const struct cu_ipc_event *ie, int which)
{
	return __atomic_load_n(&ie->page[which], __ATOMIC_ACQUIRE);
}

/* Map the shared page @memfd here and in @ctx, at one address. */
static CUresult cu_ipc_event_map(struct cu_ctx *ctx, int memfd,
				 struct cu_ipc_event *ie)
{
	size_t size = VGPU_SMALL_PAGE_SIZE;
	void *p;
	int ret;

	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
	if (p == MAP_FAILED)
		return CUDA_ERROR_OUT_OF_MEMORY;
	ret = vgpu_mem_register(ctx->dev->vdev, p, size, 0, &ie->handle);
	if (!ret) {
		ret = vgpu_mem_map(ctx->dev->vdev, ctx->vctx, ie->handle,
				   (uintptr_t)p, 0, size, 0);
		if (ret)
			vgpu_mem_free(ctx->dev->vdev, ie->handle, NULL, 0);
	}
	if (ret) {
		munmap(p, size);
		return cu_from_errno(ret);
	}
	ie->page = p;
	ie->size = size;
	ie->dev = ctx->dev;
	return CUDA_SUCCESS;
}

CUresult cu_ipc_event_init(struct cu_event *ev)
{
	struct cu_ipc_event *ie = calloc(1, sizeof(*ie));
	CUresult res = CUDA_ERROR_OUT_OF_MEMORY;
	int fd;

	if (!ie)
		return res;
	fd = memfd_create("vgpu-ipc-event", MFD_CLOEXEC);
	if (fd >= 0 && !ftruncate(fd, VGPU_SMALL_PAGE_SIZE))
		res = cu_ipc_event_map(ev->ctx, fd, ie);
	if (res != CUDA_SUCCESS) {
		if (fd >= 0)
			close(fd);
		free(ie);
		return res;
	}
	ie->memfd = fd;
	ie->pidfd = -1;
	ev->ipc = ie;
	return CUDA_SUCCESS;
}

void cu_ipc_event_release(struct cu_event *ev)
{
	struct cu_ipc_event *ie = ev->ipc;

	if (!ie)
		return;
	/* The context's mapping goes with it when it is already gone. */
	if (cu_ctx_valid(ev->ctx))
		vgpu_mem_unmap(ie->dev->vdev, ev->ctx->vctx,
			       (uintptr_t)ie->page);
	vgpu_mem_free(ie->dev->vdev, ie->handle, NULL, 0);
	munmap((void *)ie->page, ie->size);
	if (ie->memfd >= 0)
		close(ie->memfd);
	if (ie->pidfd >= 0)
		close(ie->pidfd);
	free(ie);
	ev->ipc = NULL;
}

int cu_ipc_event_emit(struct cu_event *ev, struct vgpu_queue *q,
		      int64_t deadline)
{
	struct cu_ipc_event *ie = ev->ipc;
	uint64_t n = __atomic_add_fetch(&ie->page[CU_IPC_RECORDED], 1,
					__ATOMIC_ACQ_REL);
	int ret = vgpu_emit_write_mem(q, (uintptr_t)&ie->page[CU_IPC_COMPLETED],
				      n, deadline);

	/* Nothing will complete this record: leave no waiter hanging. */
	if (ret)
		__atomic_store_n(&ie->page[CU_IPC_COMPLETED], n,
				 __ATOMIC_RELEASE);
	return ret;
}

bool cu_ipc_event_imported(const struct cu_event *ev)
{
	return ev->ipc && ev->ipc->imported;
}

CUresult cu_ipc_event_query(struct cu_event *ev)
{
	struct cu_ipc_event *ie = ev->ipc;

	return cu_ipc_load(ie, CU_IPC_COMPLETED) >=
	       cu_ipc_load(ie, CU_IPC_RECORDED) ? CUDA_SUCCESS :
						  CUDA_ERROR_NOT_READY;
}

/*
 * Wait for the records made so far.  The exporter's fence interrupts are
 * not ours to wait on, so this polls - sleeping in poll() on the
 * exporter's pidfd, which also says when that process has ended.
 */
CUresult cu_ipc_event_sync(struct cu_event *ev)
{
	struct cu_ipc_event *ie = ev->ipc;
	uint64_t target = cu_ipc_load(ie, CU_IPC_RECORDED);
	struct pollfd pfd = { .fd = ie->pidfd, .events = POLLIN };
	int nap_ms = 0;

	while (cu_ipc_load(ie, CU_IPC_COMPLETED) < target) {
		if (poll(&pfd, 1, nap_ms) > 0) {
			/* The exporter ended: its work will not complete. */
			if (cu_ipc_load(ie, CU_IPC_COMPLETED) >= target)
				break;
			return CUDA_ERROR_INVALID_HANDLE;
		}
		nap_ms = nap_ms < 8 ? nap_ms + 1 : nap_ms;
	}
	return CUDA_SUCCESS;
}

CUresult cu_ipc_event_wait(struct cu_stream *s, struct cu_event *ev)
{
	struct cu_ipc_event *ie = ev->ipc;
	uint64_t target = cu_ipc_load(ie, CU_IPC_RECORDED);
	struct cu_op op;
	CUresult res;
	int ret;

	if (cu_ipc_load(ie, CU_IPC_COMPLETED) >= target)
		return CUDA_SUCCESS;
	/* The page is mapped in the event's context only. */
	if (s->ctx != ev->ctx)
		return cu_ipc_event_sync(ev);
	res = cu_op_begin(s, CU_ENGINE_COMPUTE, NULL, &op);
	if (res != CUDA_SUCCESS)
		return res;
	ret = vgpu_emit_wait_mem(op.queue->vq,
				 (uintptr_t)&ie->page[CU_IPC_COMPLETED], target,
				 op.deadline);
	if (ret) {
		cu_op_abort(&op, ret);
		return cu_from_errno(ret);
	}
	return cu_op_end(&op, NULL);
}

/* ---- the API --------------------------------------------------------------- */

CU_EXPORT CUresult CUDAAPI cuIpcGetEventHandle(CUipcEventHandle *pHandle,
					       CUevent event)
{
	struct cu_event *ev = (struct cu_event *)event;
	struct cu_ipc_event_handle h = { .magic = CU_IPC_EVENT_MAGIC };
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!pHandle)
		return CUDA_ERROR_INVALID_VALUE;
	if (!cu_handle_valid(ev, CU_HANDLE_EVENT))
		return CUDA_ERROR_INVALID_HANDLE;
	/*
	 * Only events made with CU_EVENT_INTERPROCESS have something to
	 * share: any other is the wrong kind of handle (as an H100 answers:
	 * probe_capture.h100.txt).  An imported event is the exporter's.
	 */
	if (!ev->ipc)
		return CUDA_ERROR_INVALID_HANDLE;
	if (ev->ipc->imported)
		return CUDA_ERROR_INVALID_VALUE;
	h.pid = (int32_t)getpid();
	h.memfd = ev->ipc->memfd;
	memset(pHandle, 0, sizeof(*pHandle));
	memcpy(pHandle, &h, sizeof(h));
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuIpcOpenEventHandle(CUevent *phEvent,
						CUipcEventHandle handle)
{
	struct cu_ipc_event_handle h;
	struct cu_ipc_event *ie;
	struct cu_event *ev;
	struct cu_ctx *ctx;
	struct stat st;
	CUresult res = cu_ctx_get(&ctx);
	int fd;

	if (res != CUDA_SUCCESS)
		return res;
	memcpy(&h, &handle, sizeof(h));
	if (!phEvent || h.magic != CU_IPC_EVENT_MAGIC)
		return CUDA_ERROR_INVALID_VALUE;
	fd = cu_ipc_fetch_fd(h.pid, h.memfd);
	if (fd < 0)
		return fd == -EPERM ? CUDA_ERROR_NOT_PERMITTED :
		       CUDA_ERROR_INVALID_HANDLE;
	/* The exporter's page is a memfd of (at least) one page. */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    st.st_size < (off_t)VGPU_SMALL_PAGE_SIZE) {
		close(fd);
		return CUDA_ERROR_INVALID_HANDLE;
	}
	ev = calloc(1, sizeof(*ev));
	ie = calloc(1, sizeof(*ie));
	res = ev && ie ? cu_ipc_event_map(ctx, fd, ie) :
			 CUDA_ERROR_OUT_OF_MEMORY;
	close(fd);
	if (res != CUDA_SUCCESS) {
		free(ie);
		free(ev);
		return res;
	}
	ie->memfd = -1;
	ie->pidfd = (int)syscall(SYS_pidfd_open, h.pid, 0);
	ie->imported = true;
	/* What CUDA says it is: an event made with these two flags. */
	ev->magic = CU_EVENT_MAGIC;
	ev->ctx = ctx;
	ev->flags = CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING;
	ev->ts_slot = -1;
	ev->ipc = ie;
	res = cu_handle_add(ev, CU_HANDLE_EVENT);
	if (res != CUDA_SUCCESS) {
		cu_ipc_event_release(ev);
		free(ev);
		return res;
	}
	*phEvent = (CUevent)ev;
	return CUDA_SUCCESS;
}
