// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_sysfs.c - device state in /sys/class/misc/vgpuN/
 *
 * One value per file, read-only: what a monitoring tool (tools/vgpu-smi)
 * and the selftests' leak checks read.  The user_*_limit files show the
 * per-user limits (vgpu_user.c) in the device's units, as computed from
 * the module parameters at the moment they are read.
 */
#include <linux/device.h>
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
	NULL,
};

static const struct attribute_group vgpu_sysfs_group = {
	.attrs = vgpu_sysfs_attrs,
};

const struct attribute_group *vgpu_sysfs_groups[] = {
	&vgpu_sysfs_group,
	NULL,
};
