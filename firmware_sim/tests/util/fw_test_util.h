/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fw_test_util.h - what the firmware's guest tests share: starting and
 * killing the real firmware (build/bin/vgpu-fw), a client with VRAM, pinned
 * host memory and two queues, and kernels compiled from PTX with
 * libvgpu-ptx and launched with raw LAUNCH packets (include/vgpu_launch.h).
 *
 * Queue submission itself is the driver selftests' (selftests/vgpu_lib.h).
 */
#ifndef FW_TEST_UTIL_H
#define FW_TEST_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "vgpu_lib.h"

/* Where the client maps its VRAM (device-only addresses, 64 KiB aligned). */
#define FW_TEST_VRAM_VA		0x100000000000ull

/* Start vgpu-fw on /dev/vgpu0 (extra args may be NULL); pid or -errno. */
pid_t fw_start(const char *const *extra_args);
/* SIGTERM it and reap it; returns its exit status or -1. */
int fw_stop(pid_t pid);
/* SIGKILL it, as a crash would, and reap it. */
void fw_kill(pid_t pid);
/* Is a firmware attached to /dev/vgpu0? */
bool fw_attached(void);
/* Path of vgpu-fw (next to the test binary's build tree). */
const char *fw_path(void);

struct fw_client {
	int fd;
	uint32_t ctx;
	uint32_t ctx_id;
	uint32_t vram_handle;
	uint64_t vram_size;
	uint64_t vram_next;		/* bump allocator in the VRAM range */
	uint32_t host_handle;
	uint8_t *host;			/* pinned, mapped at GPU VA == host */
	uint64_t host_size;
	struct vgpu_tq gr;		/* compute queue */
	struct vgpu_tq ce;		/* copy queue */
	uint64_t next_image_id;
};

int fw_client_open(struct fw_client *c, uint64_t vram_size,
		   uint64_t host_size);
void fw_client_close(struct fw_client *c);
/* VRAM from the client's range (64 KiB granules); its GPU VA. */
uint64_t fw_client_vram(struct fw_client *c, uint64_t size);
/* Fence, submit and wait up to @ms; 0 or -errno of the wait. */
int fw_sync(struct vgpu_tq *q, unsigned int ms);
void fw_emit_copy(struct vgpu_tq *q, uint64_t dst, uint64_t src,
		  uint64_t size);
void fw_emit_memset(struct vgpu_tq *q, uint64_t dst, uint32_t value,
		    uint32_t elem_size, uint64_t count);
/* The context's sticky state (VGPU_IOCTL_CTX_STATUS). */
int fw_ctx_status(struct fw_client *c, struct vgpu_ctx_status *st);

/* A PTX module compiled and uploaded into a client's VRAM. */
struct fw_module {
	void *image;
	size_t size;
	uint64_t code_va;
	uint64_t image_id;
	uint64_t global_base;
	uint64_t const_base;
	uint64_t spin_flag;		/* for the tests' spin() kernel */
};

/* Compile FW_TEST_DATA/@ptx_file and upload it; 0 or -1 (message out). */
int fw_module_load(struct fw_client *c, const char *ptx_file,
		   struct fw_module *m);
void fw_module_free(struct fw_module *m);
/* Index of the kernel @name in the image, or -1. */
int fw_module_kernel(const struct fw_module *m, const char *name);
/* Its parameter buffer size, or 0 if there is no such kernel. */
uint32_t fw_module_param_size(const struct fw_module *m, const char *name);

struct fw_launch_args {
	uint32_t grid[3];
	uint32_t block[3];
	const void *params;
	uint32_t param_size;
	uint64_t printf_fifo_va;
	uint64_t printf_fifo_size;
	int32_t priority;		/* vgpu_launch_v1.priority */
	uint32_t flags;			/* more VGPU_LAUNCH_F_* */
	uint32_t counters_size;		/* vgpu_launch_v1.counters_* */
	uint64_t counters_va;
};

/* Queue a LAUNCH of @kernel with inline parameters on the GR queue. */
int fw_emit_launch(struct fw_client *c, const struct fw_module *m,
		   const char *kernel, const struct fw_launch_args *a);

#endif /* FW_TEST_UTIL_H */
