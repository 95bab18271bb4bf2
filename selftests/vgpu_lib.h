/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgpu_lib.h - helpers shared by the vGPU driver selftests: device and
 * sysfs access, queue submission, and a small test firmware.
 */
#ifndef VGPU_SELFTEST_LIB_H
#define VGPU_SELFTEST_LIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <linux/vgpu.h>
#include <vgpu_hw.h>

#define VGPU_DEV	"/dev/vgpu0"
#define VGPU_SYSFS	"/sys/class/misc/vgpu0/"
#define VGPU_PARAMS	"/sys/module/vgpu/parameters/"

/* ioctl() returning 0 or -errno. */
int vgpu_ioctl(int fd, unsigned long cmd, void *arg);
int vgpu_open(void);

/* A sysfs attribute of vgpu0 as a number (-1 if unreadable). */
long long vgpu_sysfs_num(const char *attr);
/* A sysfs attribute of vgpu0 as a string, newline removed. */
int vgpu_sysfs_str(const char *attr, char *buf, size_t len);
/* Write a module parameter; returns 0 or -errno. */
int vgpu_param_write(const char *param, const char *value);
/*
 * The attribute once it equals @want, or its value after 5 s.  With a
 * firmware attached, memory taken from the device is freed only when the
 * firmware acknowledged the record (VGPU_IOCTL_FW_ACK): a moment later.
 */
long long vgpu_sysfs_settle(const char *attr, long long want);
/*
 * All per-device accounting (memory, GART, pins, contexts, queues) is 0,
 * or becomes 0 within 5 s.
 */
bool vgpu_accounting_idle(void);

uint64_t vgpu_now_ns(void);
/* Drop a capability from the effective set of the calling thread. */
int vgpu_drop_cap(int cap);

int vgpu_ctx_create(int fd, uint32_t *handle);
int vgpu_vram_alloc(int fd, uint64_t size, uint32_t *handle);

/* A queue as the application sees it. */
struct vgpu_tq {
	int fd;
	uint32_t handle;
	uint32_t id;
	uint32_t ring_size;
	uint8_t *ring;
	struct vgpu_doorbell *db;
	const struct vgpu_fence_page *fence;
	uint64_t wptr;
	uint64_t next_fence;
};

int vgpu_tq_create(struct vgpu_tq *tq, int fd, uint32_t ctx, uint32_t engine,
		   uint32_t ring_size);
void vgpu_tq_unmap(struct vgpu_tq *tq);
/* Append a packet (padding the ring end with NOP where needed). */
void vgpu_tq_emit(struct vgpu_tq *tq, const void *pkt, uint32_t size);
/* Append a FENCE packet with the next value; returns the value. */
uint64_t vgpu_tq_fence(struct vgpu_tq *tq);
/* Publish the write pointer; kick the firmware if it sleeps. */
int vgpu_tq_submit(struct vgpu_tq *tq);
/* VGPU_IOCTL_WAIT for @fence with a deadline @ms from now. */
int vgpu_tq_wait(struct vgpu_tq *tq, uint64_t fence, unsigned int ms);

/*
 * The test firmware, in the spirit of ublk's selftest server: a child
 * process that attaches to /dev/vgpu0, follows the event stream, polls
 * doorbells, executes NOP, FENCE, WRITE_MEM, WAIT_MEM, COPY and TIMESTAMP
 * packets through the context's page tables, reports MMU faults, and
 * sends a heartbeat every 100 ms.  Returns the child's pid (the firmware
 * is attached on return), or -errno.  A device needs a firmware for
 * contexts to be created: tests of the client uAPI start one too.
 */
pid_t vgpu_test_fw_start(void);
/* Kill it (SIGKILL, as a crash would) and reap it. */
void vgpu_test_fw_kill(pid_t pid);

#endif /* VGPU_SELFTEST_LIB_H */
