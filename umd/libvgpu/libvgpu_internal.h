/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libvgpu_internal.h - what the files of libvgpu share, not exported.
 */
#ifndef VGPU_LIBVGPU_INTERNAL_H
#define VGPU_LIBVGPU_INTERNAL_H

#include "libvgpu.h"

struct vgpu_device {
	int fd;
	unsigned int index;
	struct vgpu_info info;
};

struct vgpu_queue {
	struct vgpu_device *dev;
	uint32_t handle;
	uint32_t queue_id;
	unsigned int engine;
	uint32_t ring_size;
	uint8_t *ring;
	struct vgpu_doorbell *doorbell;
	const struct vgpu_fence_page *fence;
	uint64_t wptr;		/* reserved so far; published at submit */
};

/* ioctl() restarted on EINTR; returns 0 or -errno. */
int vgpu_ioctl(int fd, unsigned long cmd, void *arg);

#endif /* VGPU_LIBVGPU_INTERNAL_H */
