// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_share.c - sharing memory objects between open files
 *
 * An object belongs to the open file that created it.  To share it with
 * another process (CUDA IPC: cuIpcGetMemHandle / cuIpcOpenMemHandle), the
 * owner exports it as a file descriptor, an anonymous-inode file that holds
 * a reference to the object; the descriptor travels like any other
 * (SCM_RIGHTS, pidfd_getfd), and whoever holds it can import the object
 * into an open file of the same device, getting a handle of its own.  The
 * descriptor is the capability, as a dma-buf descriptor is.
 *
 * Objects are not shared across devices: VRAM and GART entries belong to
 * one device (-EXDEV).
 */
#include <linux/anon_inodes.h>
#include <linux/fcntl.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/module.h>

#include "vgpu_drv.h"

static int vgpu_export_release(struct inode *inode, struct file *file)
{
	vgpu_bo_put(file->private_data);
	return 0;
}

/* Also the exported file's identity: see vgpu_ioctl_mem_import(). */
static const struct file_operations vgpu_export_fops = {
	.owner = THIS_MODULE,
	.release = vgpu_export_release,
};

int vgpu_ioctl_mem_export(struct vgpu_file *vf, void *data)
{
	struct vgpu_mem_export *args = data;
	struct vgpu_bo *bo;
	int fd;

	if (args->flags & ~VGPU_MEM_EXPORT_CLOEXEC || args->pad)
		return vgpu_refuse(vf->dev, -EINVAL,
				   "MEM_EXPORT: unknown flags 0x%x or pad 0x%x not zero",
				   args->flags & ~VGPU_MEM_EXPORT_CLOEXEC,
				   args->pad);
	bo = vgpu_bo_lookup(vf, args->handle);
	if (!bo)
		return vgpu_refuse(vf->dev, -ENOENT,
				   "MEM_EXPORT: handle %u: no such memory object",
				   args->handle);
	/* Its process mappings are found by handle (vgpu_managed.c). */
	if (bo->kind == VGPU_BO_MANAGED) {
		vgpu_bo_put(bo);
		return vgpu_refuse(vf->dev, -EINVAL,
				   "MEM_EXPORT: handle %u is managed memory",
				   args->handle);
	}
	fd = anon_inode_getfd("[vgpu-mem]", &vgpu_export_fops, bo,
			      O_RDWR | (args->flags & VGPU_MEM_EXPORT_CLOEXEC ?
					O_CLOEXEC : 0));
	if (fd < 0) {
		vgpu_bo_put(bo);
		return fd;
	}
	/* The file holds the lookup's reference from now on. */
	args->fd = fd;
	return 0;
}

int vgpu_ioctl_mem_import(struct vgpu_file *vf, void *data)
{
	struct vgpu_mem_import *args = data;
	struct vgpu_bo *bo;
	struct file *file;
	int ret;

	if (args->flags)
		return vgpu_refuse(vf->dev, -EINVAL,
				   "MEM_IMPORT: flags 0x%x: none defined",
				   args->flags);
	file = fget(args->fd);
	if (!file)
		return vgpu_refuse(vf->dev, -EBADF,
				   "MEM_IMPORT: fd %d is not open", args->fd);
	if (file->f_op != &vgpu_export_fops) {
		ret = vgpu_refuse(vf->dev, -EINVAL,
				  "MEM_IMPORT: fd %d is not an exported memory object",
				  args->fd);
		goto out;
	}
	bo = file->private_data;
	if (bo->dev != vf->dev) {
		ret = vgpu_refuse(vf->dev, -EXDEV,
				  "MEM_IMPORT: fd %d is memory of another device",
				  args->fd);
		goto out;
	}
	/* The file's reference keeps @bo alive until fput(). */
	ret = vgpu_bo_add_handle(vf, bo, &args->handle);
	if (ret)
		goto out;
	args->kind = bo->kind;
	args->size = bo->size;
	args->mmap_offset = bo->kind == VGPU_BO_HOST ?
		vgpu_mmap_offset(VGPU_MMAP_HOST_BO, args->handle) : 0;
out:
	fput(file);
	return ret;
}
