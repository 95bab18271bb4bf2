// SPDX-License-Identifier: GPL-2.0
/*
 * device.c - opening /dev/vgpuN, the device description, contexts.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "libvgpu.h"
#include "libvgpu_internal.h"

/* The device nodes a process may find; the driver allows at most 8. */
#define VGPU_MAX_DEVICES	8

int vgpu_ioctl(int fd, unsigned long cmd, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, cmd, arg);
	} while (ret < 0 && errno == EINTR);
	return ret < 0 ? -errno : 0;
}

static void vgpu_device_path(unsigned int index, char *buf, size_t len)
{
	snprintf(buf, len, "/dev/vgpu%u", index);
}

unsigned int vgpu_device_count(void)
{
	char path[32];
	unsigned int n;

	for (n = 0; n < VGPU_MAX_DEVICES; n++) {
		vgpu_device_path(n, path, sizeof(path));
		if (access(path, F_OK) != 0)
			break;
	}
	return n;
}

int vgpu_device_open(unsigned int index, struct vgpu_device **out)
{
	struct vgpu_device *dev;
	char path[32];
	int ret;

	*out = NULL;
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return -ENOMEM;
	vgpu_device_path(index, path, sizeof(path));
	dev->fd = open(path, O_RDWR | O_CLOEXEC);
	if (dev->fd < 0) {
		ret = -errno;
		free(dev);
		return ret;
	}
	dev->index = index;
	ret = vgpu_ioctl(dev->fd, VGPU_IOCTL_GET_INFO, &dev->info);
	if (!ret && dev->info.version_major != VGPU_UAPI_VERSION_MAJOR)
		ret = -EPROTO;
	if (ret) {
		close(dev->fd);
		free(dev);
		return ret;
	}
	*out = dev;
	return 0;
}

void vgpu_device_close(struct vgpu_device *dev)
{
	if (!dev)
		return;
	close(dev->fd);
	free(dev);
}

int vgpu_device_fd(const struct vgpu_device *dev)
{
	return dev->fd;
}

unsigned int vgpu_device_index(const struct vgpu_device *dev)
{
	return dev->index;
}

const struct vgpu_info *vgpu_device_info(const struct vgpu_device *dev)
{
	return &dev->info;
}

int vgpu_device_query(struct vgpu_device *dev, struct vgpu_info *info)
{
	memset(info, 0, sizeof(*info));
	return vgpu_ioctl(dev->fd, VGPU_IOCTL_GET_INFO, info);
}

int vgpu_ctx_create(struct vgpu_device *dev, uint32_t *handle,
		    uint32_t *ctx_id)
{
	struct vgpu_ctx_create args = { 0 };
	int ret;

	ret = vgpu_ioctl(dev->fd, VGPU_IOCTL_CTX_CREATE, &args);
	if (ret)
		return ret;
	*handle = args.handle;
	if (ctx_id)
		*ctx_id = args.ctx_id;
	return 0;
}

int vgpu_ctx_destroy(struct vgpu_device *dev, uint32_t handle)
{
	struct vgpu_handle_arg args = { .handle = handle };

	return vgpu_ioctl(dev->fd, VGPU_IOCTL_CTX_DESTROY, &args);
}

int vgpu_ctx_status(struct vgpu_device *dev, uint32_t handle,
		    struct vgpu_ctx_status *status)
{
	memset(status, 0, sizeof(*status));
	status->handle = handle;
	return vgpu_ioctl(dev->fd, VGPU_IOCTL_CTX_STATUS, status);
}
