// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_user.c - per-user accounting and limits of device resources
 *
 * A device is shared by every user allowed to open it, so no one user may
 * take all of it: VRAM (objects and page tables), GART entries (host
 * memory the device can reach) and queue memory (rings, doorbells, fence
 * pages) are counted per user of each device, and an allocation that
 * would take a user over its limit fails with -EDQUOT.  The limits are
 * shares of the device below the whole, so that whatever one user holds,
 * the rest of the device is left for the others, and in particular room
 * for another user's first context (Documentation/security.rst).
 *
 * The user is the real uid of the calling task at the time of the
 * allocation, as for RLIMIT_NPROC and the other per-user limits of the
 * kernel: the charge stays with the object, and goes back when the object
 * is freed, whoever frees it.  Limits are per user rather than per process
 * or per open file because processes and files cost nothing to make.
 *
 * A task with CAP_SYS_RESOURCE, the capability that overrides resource
 * limits, is counted but not limited.
 *
 * This sits beside the kernel's own accounting, not instead of it: every
 * kernel allocation made for a process is also charged to its memory
 * cgroup (GFP_KERNEL_ACCOUNT), and pinned host memory to its
 * RLIMIT_MEMLOCK (vgpu_bo.c).
 */
#include <linux/capability.h>
#include <linux/math.h>
#include <linux/cred.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/uidgid.h>

#include "vgpu_drv.h"

static int vgpu_pct_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 1, 100);
}

static const struct kernel_param_ops vgpu_pct_ops = {
	.set = vgpu_pct_set,
	.get = param_get_uint,
};

static int vgpu_mb_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 1, 65536);
}

static const struct kernel_param_ops vgpu_mb_ops = {
	.set = vgpu_mb_set,
	.get = param_get_uint,
};

static unsigned int vgpu_user_vram_pct = 50;
module_param_cb(user_vram_pct, &vgpu_pct_ops, &vgpu_user_vram_pct, 0644);
MODULE_PARM_DESC(user_vram_pct,
		 "VRAM one user may hold, in percent of the device's (1-100, default 50; writable)");

static unsigned int vgpu_user_gart_pct = 50;
module_param_cb(user_gart_pct, &vgpu_pct_ops, &vgpu_user_gart_pct, 0644);
MODULE_PARM_DESC(user_gart_pct,
		 "GART entries one user may hold, in percent of the device's (1-100, default 50; writable)");

static unsigned int vgpu_user_queue_mb = 64;
module_param_cb(user_queue_mb, &vgpu_mb_ops, &vgpu_user_queue_mb, 0644);
MODULE_PARM_DESC(user_queue_mb,
		 "Queue memory (rings, doorbells, fence pages) one user may hold per device, in MiB (1-65536, default 64; writable)");

/**
 * vgpu_user_limit() - a user's limit of one resource on a device
 * @dev: the device.
 * @res: the resource.
 *
 * Return: the limit in 4 KiB pages (GART entries for the GART).
 */
unsigned long vgpu_user_limit(struct vgpu_dev *dev, enum vgpu_res res)
{
	switch (res) {
	case VGPU_RES_VRAM:
		return mult_frac(dev->vram.npages,
				 READ_ONCE(vgpu_user_vram_pct), 100);
	case VGPU_RES_GART:
		return mult_frac(dev->gart.nentries,
				 READ_ONCE(vgpu_user_gart_pct), 100);
	default:
		return (unsigned long)READ_ONCE(vgpu_user_queue_mb) <<
		       (20 - PAGE_SHIFT);
	}
}

/**
 * vgpu_user_get() - the accounting of the calling task's user on a device
 * @dev: the device.
 *
 * Return: the user, with a reference for the caller, or NULL when out of
 * memory.
 */
struct vgpu_user *vgpu_user_get(struct vgpu_dev *dev)
{
	uid_t uid = from_kuid_munged(&init_user_ns, current_uid());
	struct vgpu_user *u;

	mutex_lock(&dev->users_lock);
	u = xa_load(&dev->users, uid);
	if (u) {
		u->refs++;
		goto out;
	}
	u = kzalloc(sizeof(*u), GFP_KERNEL_ACCOUNT);
	if (!u)
		goto out;
	u->dev = dev;
	u->uid = uid;
	u->refs = 1;
	if (xa_err(xa_store(&dev->users, uid, u, GFP_KERNEL_ACCOUNT))) {
		kfree(u);
		u = NULL;
	}
out:
	mutex_unlock(&dev->users_lock);
	return u;
}

/**
 * vgpu_user_put() - drop a reference taken by vgpu_user_get()
 * @u: the user; freed with its last reference, when nothing is charged.
 */
void vgpu_user_put(struct vgpu_user *u)
{
	struct vgpu_dev *dev = u->dev;
	int i;

	mutex_lock(&dev->users_lock);
	if (!--u->refs) {
		for (i = 0; i < VGPU_RES_COUNT; i++)
			WARN_ON(atomic_long_read(&u->used[i]));
		xa_erase(&dev->users, u->uid);
		kfree(u);
	}
	mutex_unlock(&dev->users_lock);
}

/* The resources by name, for the refusal message. */
static const char *const vgpu_res_names[VGPU_RES_COUNT] = {
	[VGPU_RES_VRAM] = "VRAM",
	[VGPU_RES_GART] = "GART entries",
	[VGPU_RES_QUEUE] = "queue memory",
};

/**
 * vgpu_user_charge() - count pages of a resource against a user's limit
 * @u: the user.
 * @res: the resource.
 * @npages: pages (GART entries for the GART).
 *
 * Return: 0, or -EDQUOT when the user would go over its limit and the
 * caller lacks CAP_SYS_RESOURCE.
 */
int vgpu_user_charge(struct vgpu_user *u, enum vgpu_res res,
		     unsigned long npages)
{
	long used = atomic_long_add_return(npages, &u->used[res]);

	if (used > vgpu_user_limit(u->dev, res) &&
	    !capable(CAP_SYS_RESOURCE)) {
		atomic_long_sub(npages, &u->used[res]);
		return vgpu_refuse(u->dev, -EDQUOT,
				   "uid %u: %lu more pages of %s would pass its share of %lu",
				   u->uid, npages, vgpu_res_names[res],
				   vgpu_user_limit(u->dev, res));
	}
	return 0;
}

/**
 * vgpu_user_uncharge() - give back what vgpu_user_charge() counted
 * @u: the user.
 * @res: the resource.
 * @npages: pages.
 */
void vgpu_user_uncharge(struct vgpu_user *u, enum vgpu_res res,
			unsigned long npages)
{
	atomic_long_sub(npages, &u->used[res]);
}
