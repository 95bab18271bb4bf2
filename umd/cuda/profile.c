// SPDX-License-Identifier: GPL-2.0
/*
 * profile.c - per-launch hardware counters for vgpu-prof.
 *
 * When the environment names a file in VGPU_PROF_OUT (vgpu-prof sets it
 * for the program it runs), every kernel launch asks the GR engine to
 * count (VGPU_LAUNCH_F_COUNTERS, include/vgpu_launch.h), waits for the
 * kernel as Nsight Compute does (launches are serialised while
 * profiling), and appends one line to the file:
 *
 *   vgpu-prof 1 pid ctx stream gx gy gz bx by bz shared kernel f=v f=v ...
 *
 * with the counters of include/vgpu_counters.h by field name, then
 * api_start_ns and api_end_ns: CLOCK_MONOTONIC when the launch call began
 * and when its grid was seen complete (vgpu-prof --trace).  Without
 * the variable nothing changes: no memory, no lock, no wait.
 *
 * The counters land in one pinned page of the context (host memory
 * mapped at the same GPU VA), which the firmware writes before the
 * queue passes the LAUNCH; the stream's synchronisation then makes them
 * visible.  One global lock keeps two threads' launches from sharing it.
 *
 * VGPU_TIMING=model counts launches the same way, for the model clock
 * (timing_model.c), with or without the file.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cuda_internal.h"
#include "vgpu_counters.h"
#include "vgpu_sanitizer.h"

static pthread_once_t prof_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t prof_lock = PTHREAD_MUTEX_INITIALIZER;
static int prof_fd = -1;
static uint64_t prof_api_start;	/* under prof_lock: the launch's call */

static uint64_t prof_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void prof_open(void)
{
	const char *path = getenv("VGPU_PROF_OUT");

	if (path && *path)
		prof_fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
			       0644);
}

/* Counting: for vgpu-prof's file, or for the timing model. */
bool cu_prof_enabled(void)
{
	pthread_once(&prof_once, prof_open);
	return prof_fd >= 0 || cu_timing_model() || cu_san_enabled();
}

CUresult cu_prof_begin(struct cu_ctx *ctx, struct cu_stream *s,
		       const struct cu_launch_cfg *c,
		       struct vgpu_launch_counters **out)
{
	CUresult res = CUDA_SUCCESS;
	void *p;

	*out = NULL;
	if (!cu_prof_enabled())
		return CUDA_SUCCESS;
	pthread_mutex_lock(&prof_lock);
	if (!ctx->prof_counters) {
		res = cu_mem_internal_host(ctx, VGPU_SMALL_PAGE_SIZE,
					   &ctx->prof_handle, &p);
		if (res != CUDA_SUCCESS) {
			pthread_mutex_unlock(&prof_lock);
			return res;
		}
		ctx->prof_counters = p;
	}
	memset(ctx->prof_counters, 0, sizeof(*ctx->prof_counters));
	cu_l2_policy_fill(ctx, s, c, (char *)ctx->prof_counters +
			  VGPU_L2_POLICY_OFFSET);
	res = cu_san_fill(ctx, (char *)ctx->prof_counters +
			  VGPU_SAN_DESC_OFFSET);
	if (res != CUDA_SUCCESS) {
		pthread_mutex_unlock(&prof_lock);
		return res;
	}
	*out = ctx->prof_counters;
	prof_api_start = prof_now_ns();
	return CUDA_SUCCESS;
}

/* One line of the profile file. */
static void prof_write(const struct cu_ctx *ctx, const struct cu_stream *s,
		       const struct cu_function *f, const unsigned int grid[3],
		       const unsigned int block[3], unsigned int shared,
		       const struct vgpu_launch_counters *c)
{
	char line[2048];
	int n;

	n = snprintf(line, sizeof(line),
		     "vgpu-prof 1 %d %llu %llu %u %u %u %u %u %u %u %s",
		     (int)getpid(), ctx->id,
		     s->is_null ? 0ull : (unsigned long long)(uintptr_t)s,
		     grid[0], grid[1], grid[2], block[0], block[1], block[2],
		     shared, f->name ? f->name : "?");
#define PROF_FIELD(fld, metric, unit, desc)					\
	if (n > 0 && (size_t)n < sizeof(line) &&			\
	    offsetof(struct vgpu_launch_counters, fld) + 8 <= c->size)	\
		n += snprintf(line + n, sizeof(line) - n, " %s=%" PRIu64, \
			      #fld, (uint64_t)c->fld);
	VGPU_COUNTERS(PROF_FIELD)
#undef PROF_FIELD
	/* the launch call, from the packet to the grid's end, for --trace */
	if (n > 0 && (size_t)n < sizeof(line))
		n += snprintf(line + n, sizeof(line) - n,
			      " api_start_ns=%" PRIu64 " api_end_ns=%" PRIu64,
			      prof_api_start, prof_now_ns());
	if (n <= 0 || (size_t)n >= sizeof(line) - 1)
		return;
	line[n++] = '\n';
	/* one write(): lines of several processes (O_APPEND) do not mix */
	if (write(prof_fd, line, (size_t)n) != n)
		return;	/* a full disk loses the line, not the program */
}

CUresult cu_prof_end(struct cu_ctx *ctx, struct cu_stream *s,
		     const struct cu_function *f, const unsigned int grid[3],
		     const unsigned int block[3], unsigned int shared,
		     struct vgpu_launch_counters *c, CUresult launched)
{
	if (!c)
		return launched;
	/* The counters are written when the grid completed: wait for it. */
	if (launched == CUDA_SUCCESS && cu_stream_sync(s) == CUDA_SUCCESS &&
	    c->size) {
		if (cu_timing_model())
			cu_timing_advance(ctx, cu_timing_kernel_ns(c, grid));
		if (prof_fd >= 0)
			prof_write(ctx, s, f, grid, block, shared, c);
	}
	/* findings are written also when the grid faulted */
	if (launched == CUDA_SUCCESS)
		cu_san_collect(ctx, f);
	pthread_mutex_unlock(&prof_lock);
	return launched;
}

/*
 * Copies and memsets (copy.c, memset.c): with the file, each one is waited
 * for, as ncu serialises them, and leaves a line
 *
 *   vgpu-prof-copy 1 pid ctx stream kind bytes start_ns end_ns
 *
 * kind being HtoD, DtoH, DtoD, HtoH or memset; start and end are the
 * call's (CLOCK_MONOTONIC), the copy engine's work inside it.
 */
uint64_t cu_prof_copy_begin(void)
{
	pthread_once(&prof_once, prof_open);
	return prof_fd >= 0 ? prof_now_ns() : 0;
}

CUresult cu_prof_copy_end(struct cu_stream *s, const char *kind,
			  size_t bytes, uint64_t start, CUresult res)
{
	char line[256];
	int n;

	if (!start || res != CUDA_SUCCESS)
		return res;
	res = cu_stream_sync(s);
	if (res != CUDA_SUCCESS)
		return res;
	n = snprintf(line, sizeof(line),
		     "vgpu-prof-copy 1 %d %llu %llu %s %zu %" PRIu64 " %" PRIu64
		     "\n", (int)getpid(), s->ctx->id,
		     s->is_null ? 0ull : (unsigned long long)(uintptr_t)s,
		     kind, bytes, start, prof_now_ns());
	if (n > 0 && (size_t)n < sizeof(line) &&
	    write(prof_fd, line, (size_t)n) != n)
		return res;	/* a full disk loses the line, not the copy */
	return res;
}

void cu_prof_ctx_fini(struct cu_ctx *ctx)
{
	cu_san_ctx_fini(ctx);
	if (!ctx->prof_counters)
		return;
	cu_mem_internal_free(ctx, ctx->prof_handle, ctx->prof_counters,
			     VGPU_SMALL_PAGE_SIZE);
	ctx->prof_counters = NULL;
}
