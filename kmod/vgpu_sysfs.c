// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_sysfs.c - device state in /sys/class/misc/vgpuN/
 *
 * One value per file: what a monitoring tool (tools/vgpu-smi) and the
 * selftests' leak checks read.  The user_*_limit files show the per-user
 * limits (vgpu_user.c) in the device's units, as computed from the module
 * parameters at the moment they are read.
 *
 * One file is written, by the administrator: compute_mode, what
 * `nvidia-smi -c` sets on NVIDIA's driver (vgpu_ctx.c enforces it).
 */
#include <linux/capability.h>
#include <linux/device.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "vgpu_drv.h"

static struct vgpu_dev *vgpu_sysfs_dev(struct device *d)
{
	struct miscdevice *misc = dev_get_drvdata(d);

	return container_of(misc, struct vgpu_dev, misc);
}

static ssize_t vram_total_bytes_show(struct device *d,
				     struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n",
			  (u64)vgpu_sysfs_dev(d)->vram.npages << PAGE_SHIFT);
}
static DEVICE_ATTR_RO(vram_total_bytes);

static ssize_t vram_used_bytes_show(struct device *d,
				    struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n",
			  (u64)READ_ONCE(vgpu_sysfs_dev(d)->vram.used) <<
			  PAGE_SHIFT);
}
static DEVICE_ATTR_RO(vram_used_bytes);

static ssize_t vram_resident_bytes_show(struct device *d,
					struct device_attribute *attr,
					char *buf)
{
	return sysfs_emit(buf, "%llu\n",
			  (u64)READ_ONCE(vgpu_sysfs_dev(d)->vram.resident) <<
			  PAGE_SHIFT);
}
static DEVICE_ATTR_RO(vram_resident_bytes);

static ssize_t gart_entries_show(struct device *d,
				 struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lu\n", vgpu_sysfs_dev(d)->gart.nentries);
}
static DEVICE_ATTR_RO(gart_entries);

static ssize_t gart_entries_used_show(struct device *d,
				      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lu\n", READ_ONCE(vgpu_sysfs_dev(d)->gart.used));
}
static DEVICE_ATTR_RO(gart_entries_used);

static ssize_t pinned_pages_show(struct device *d,
				 struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%ld\n",
			  atomic_long_read(&vgpu_sysfs_dev(d)->pinned_pages));
}
static DEVICE_ATTR_RO(pinned_pages);

static ssize_t contexts_show(struct device *d, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  atomic_read(&vgpu_sysfs_dev(d)->nr_ctxs));
}
static DEVICE_ATTR_RO(contexts);

static ssize_t queues_show(struct device *d, struct device_attribute *attr,
			   char *buf)
{
	struct vgpu_dev *dev = vgpu_sysfs_dev(d);
	struct vgpu_queue *q;
	unsigned long id;
	unsigned int n = 0;

	mutex_lock(&dev->lock);
	xa_for_each(&dev->queues, id, q)
		n++;
	mutex_unlock(&dev->lock);
	return sysfs_emit(buf, "%u\n", n);
}
static DEVICE_ATTR_RO(queues);

static ssize_t firmware_show(struct device *d, struct device_attribute *attr,
			     char *buf)
{
	struct vgpu_dev *dev = vgpu_sysfs_dev(d);
	const char *state;

	mutex_lock(&dev->lock);
	state = dev->fw_file ? "attached" : dev->fw_lost ? "lost" : "none";
	mutex_unlock(&dev->lock);
	return sysfs_emit(buf, "%s\n", state);
}
static DEVICE_ATTR_RO(firmware);

static ssize_t user_vram_limit_bytes_show(struct device *d,
					  struct device_attribute *attr,
					  char *buf)
{
	return sysfs_emit(buf, "%llu\n",
			  (u64)vgpu_user_limit(vgpu_sysfs_dev(d),
					       VGPU_RES_VRAM) << PAGE_SHIFT);
}
static DEVICE_ATTR_RO(user_vram_limit_bytes);

static ssize_t user_gart_limit_entries_show(struct device *d,
					    struct device_attribute *attr,
					    char *buf)
{
	return sysfs_emit(buf, "%lu\n",
			  vgpu_user_limit(vgpu_sysfs_dev(d), VGPU_RES_GART));
}
static DEVICE_ATTR_RO(user_gart_limit_entries);

static ssize_t user_queue_limit_bytes_show(struct device *d,
					   struct device_attribute *attr,
					   char *buf)
{
	return sysfs_emit(buf, "%llu\n",
			  (u64)vgpu_user_limit(vgpu_sysfs_dev(d),
					       VGPU_RES_QUEUE) << PAGE_SHIFT);
}
static DEVICE_ATTR_RO(user_queue_limit_bytes);

/* The names of the compute modes, as nvidia-smi spells them (lower case). */
static const char *const vgpu_compute_mode_names[] = {
	[VGPU_COMPUTE_MODE_DEFAULT] = "default",
	[VGPU_COMPUTE_MODE_PROHIBITED] = "prohibited",
	[VGPU_COMPUTE_MODE_EXCLUSIVE_PROCESS] = "exclusive_process",
};

static ssize_t compute_mode_show(struct device *d,
				 struct device_attribute *attr, char *buf)
{
	u32 mode = READ_ONCE(vgpu_sysfs_dev(d)->compute_mode);

	return sysfs_emit(buf, "%s\n", vgpu_compute_mode_names[mode]);
}

/* A compute mode by name or by CUDA's number (`nvidia-smi -c` takes both). */
static int vgpu_compute_mode_parse(const char *buf, unsigned int *mode)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(vgpu_compute_mode_names); i++) {
		if (vgpu_compute_mode_names[i] &&
		    sysfs_streq(buf, vgpu_compute_mode_names[i])) {
			*mode = i;
			return 0;
		}
	}
	if (kstrtouint(buf, 10, &i) || i >= ARRAY_SIZE(vgpu_compute_mode_names) ||
	    !vgpu_compute_mode_names[i])
		return -EINVAL;
	*mode = i;
	return 0;
}

/*
 * Root only: the file is 0644, and writing needs CAP_SYS_ADMIN besides,
 * so that a file handed to a less privileged process is no way around it.
 * Contexts that exist keep running; the mode decides about new ones.
 */
static ssize_t compute_mode_store(struct device *d,
				  struct device_attribute *attr,
				  const char *buf, size_t len)
{
	struct vgpu_dev *dev = vgpu_sysfs_dev(d);
	unsigned int mode;

	if (!capable(CAP_SYS_ADMIN))
		return vgpu_refuse(dev, -EPERM,
				   "compute_mode: writing needs CAP_SYS_ADMIN");
	if (vgpu_compute_mode_parse(buf, &mode))
		return vgpu_refuse(dev, -EINVAL,
				   "compute_mode: '%.*s' is none of default (0), prohibited (2), exclusive_process (3)",
				   (int)strcspn(buf, "\n"), buf);
	mutex_lock(&dev->lock);
	WRITE_ONCE(dev->compute_mode, mode);
	mutex_unlock(&dev->lock);
	dev_info(d, "compute mode %s\n", vgpu_compute_mode_names[mode]);
	return len;
}
static DEVICE_ATTR_RW(compute_mode);

static struct attribute *vgpu_sysfs_attrs[] = {
	&dev_attr_vram_total_bytes.attr,
	&dev_attr_vram_used_bytes.attr,
	&dev_attr_vram_resident_bytes.attr,
	&dev_attr_gart_entries.attr,
	&dev_attr_gart_entries_used.attr,
	&dev_attr_pinned_pages.attr,
	&dev_attr_contexts.attr,
	&dev_attr_queues.attr,
	&dev_attr_firmware.attr,
	&dev_attr_user_vram_limit_bytes.attr,
	&dev_attr_user_gart_limit_entries.attr,
	&dev_attr_user_queue_limit_bytes.attr,
	&dev_attr_compute_mode.attr,
	NULL,
};

static const struct attribute_group vgpu_sysfs_group = {
	.attrs = vgpu_sysfs_attrs,
};

const struct attribute_group *vgpu_sysfs_groups[] = {
	&vgpu_sysfs_group,
	&vgpu_managed_sysfs_group,
	NULL,
};
