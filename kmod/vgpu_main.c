// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_main.c - module parameters, the misc devices, and the file
 * operations of /dev/vgpuN (open, release, ioctl dispatch, read, poll)
 *
 * The ioctl dispatcher implements the ABI rules of uapi/linux/vgpu.h once
 * for every command: unknown commands fail with -ENOTTY, the argument is
 * copied in with copy_struct_from_user() (an older, smaller struct is
 * zero-extended; a newer, larger one is accepted only if the unknown tail
 * is zero) and copied back truncated to the caller's size.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "vgpu_drv.h"

static unsigned int num_devices = 1;
module_param(num_devices, uint, 0444);
MODULE_PARM_DESC(num_devices, "Number of devices /dev/vgpuN (1-8, default 1)");

/* 0: sized at load time by vgpu_default_vram_mb(); the value used is shown. */
static unsigned int vram_mb;
module_param(vram_mb, uint, 0444);
MODULE_PARM_DESC(vram_mb,
		 "VRAM per device in MiB, backed by host memory only where used (1-65536; default: half of RAM shared by the devices, at most 65536)");

static unsigned int gart_mb = 1024;
module_param(gart_mb, uint, 0444);
MODULE_PARM_DESC(gart_mb,
		 "Host memory the device can reach at once, in MiB (1-65536, default 1024)");

#define VGPU_MAX_MB		65536U

static struct vgpu_dev *vgpu_devs[VGPU_MAX_DEVICES];

/**
 * vgpu_dev_by_index() - device /dev/vgpu@index, for peer access
 * @index: N.
 *
 * Without kernel_param_lock: the caller holds an open file of this module,
 * and devices are made before the first file opens and destroyed only
 * when the module goes, after the last file closed.
 *
 * Return: the device or NULL.
 */
struct vgpu_dev *vgpu_dev_by_index(unsigned int index)
{
	return index < VGPU_MAX_DEVICES ? READ_ONCE(vgpu_devs[index]) : NULL;
}

/*
 * The per-kernel execution limit: none by default, as on a compute GPU
 * with no display attached.  The firmware enforces it per grid; a new
 * value reaches it at once in a CONFIG record.  Called under
 * kernel_param_lock(THIS_MODULE), which also guards vgpu_devs[].
 */
unsigned int vgpu_kernel_exec_timeout_ms;

static int vgpu_exec_timeout_set(const char *val,
				 const struct kernel_param *kp)
{
	int ret = param_set_uint(val, kp);
	unsigned int i;

	for (i = 0; !ret && i < VGPU_MAX_DEVICES; i++) {
		struct vgpu_dev *dev = vgpu_devs[i];

		if (!dev)
			continue;
		mutex_lock(&dev->lock);
		vgpu_fw_post_config(dev);
		mutex_unlock(&dev->lock);
	}
	return ret;
}

static const struct kernel_param_ops vgpu_exec_timeout_ops = {
	.set = vgpu_exec_timeout_set,
	.get = param_get_uint,
};

module_param_cb(kernel_exec_timeout_ms, &vgpu_exec_timeout_ops,
		&vgpu_kernel_exec_timeout_ms, 0644);
MODULE_PARM_DESC(kernel_exec_timeout_ms,
		 "Per-kernel execution limit, counting only the time a grid is scheduled (ms, 0 = none, the default; writable)");

/*
 * Hang detection (vgpu_watchdog.c).  10 s, as amdgpu's lockup_timeout:
 * forty heartbeats of vgpu-fw (one per 250 ms) may go missing before the
 * firmware is declared hung, which a firmware starved by a loaded host
 * (2 CPUs, a TCG guest, a build beside it) does not reach, while a real
 * hang is still reported well before a user gives up waiting.  Values
 * below four heartbeats would declare a healthy firmware hung: 1-999 are
 * refused.
 */
#define VGPU_HANG_TIMEOUT_MIN_MS	1000
unsigned int vgpu_hang_timeout_ms = 10000;

/* A new timeout applies at once: look at the devices again now. */
static int vgpu_hang_timeout_set(const char *val,
				 const struct kernel_param *kp)
{
	unsigned int ms, i;
	int ret = kstrtouint(val, 0, &ms);

	if (ret)
		return ret;
	if (ms && ms < VGPU_HANG_TIMEOUT_MIN_MS)
		return -EINVAL;
	if (strstr(kp->name, "watchdog_ms"))
		pr_warn_once("vgpu: %s is deprecated, use hang_timeout_ms\n",
			     kp->name);
	WRITE_ONCE(vgpu_hang_timeout_ms, ms);
	for (i = 0; i < VGPU_MAX_DEVICES; i++)
		if (vgpu_devs[i])
			mod_delayed_work(system_wq, &vgpu_devs[i]->watchdog, 0);
	return 0;
}

static const struct kernel_param_ops vgpu_hang_timeout_ops = {
	.set = vgpu_hang_timeout_set,
	.get = param_get_uint,
};

module_param_cb(hang_timeout_ms, &vgpu_hang_timeout_ops,
		&vgpu_hang_timeout_ms, 0644);
MODULE_PARM_DESC(hang_timeout_ms,
		 "A firmware with no heartbeat, or an engine with work but no progress, for this long is hung (ms, 0 = off, else at least 1000, default 10000; writable)");
/* Until uAPI 1.2 the rptr watchdog; now the same hang detection. */
module_param_cb(watchdog_ms, &vgpu_hang_timeout_ops, &vgpu_hang_timeout_ms,
		0644);
MODULE_PARM_DESC(watchdog_ms, "Deprecated alias of hang_timeout_ms");

unsigned int vgpu_max_queues = 64;
module_param_named(max_queues, vgpu_max_queues, uint, 0444);
MODULE_PARM_DESC(max_queues, "Queues per open file (1-4096, default 64)");

static struct dentry *vgpu_debugfs_root;

/* --- ioctls -------------------------------------------------------------- */

static int vgpu_ioctl_get_info(struct vgpu_file *vf, void *data)
{
	struct vgpu_info *info = data;
	struct vgpu_dev *dev = vf->dev;

	info->version_major = VGPU_UAPI_VERSION_MAJOR;
	info->version_minor = VGPU_UAPI_VERSION_MINOR;
	info->device_index = dev->index;
	mutex_lock(&dev->lock);
	if (dev->fw_file)
		info->flags |= VGPU_INFO_FW_ATTACHED;
	if (dev->fw_file && (dev->fw_flags & VGPU_FW_ATTACH_EXEC_LIMIT))
		info->flags |= VGPU_INFO_EXEC_LIMIT;
	mutex_unlock(&dev->lock);
	info->vram_size = (u64)dev->vram.npages << PAGE_SHIFT;
	info->vram_page_size = VGPU_BIG_PAGE_SIZE;
	info->host_page_size = VGPU_SMALL_PAGE_SIZE;
	info->gart_entries = dev->gart.nentries;
	info->va_bits = VGPU_VA_BITS;
	info->max_queues = vgpu_max_queues;
	info->kernel_exec_timeout_ms = READ_ONCE(vgpu_kernel_exec_timeout_ms);
	info->num_compute_engines = VGPU_NUM_COMPUTE_ENGINES;
	info->num_copy_engines = VGPU_NUM_COPY_ENGINES;
	info->hw_version = VGPU_HW_VERSION;
	info->hang_timeout_ms = READ_ONCE(vgpu_hang_timeout_ms);
	info->compute_mode = READ_ONCE(dev->compute_mode);
	return 0;
}

/**
 * struct vgpu_ioctl_desc - one ioctl command
 * @cmd: the command, as defined in the uAPI header.
 * @name: its name without VGPU_IOCTL_, for the refusal messages.
 * @fn: its handler; gets the argument copied into kernel memory.
 * @client: only for client files (-EPERM on the firmware's file).
 * @min_size: size of the struct in uAPI 1.0, the smallest accepted; the
 *	struct grew at its end since when it differs from _IOC_SIZE(@cmd).
 */
struct vgpu_ioctl_desc {
	unsigned int cmd;
	const char *name;
	int (*fn)(struct vgpu_file *vf, void *data);
	bool client;
	u16 min_size;
};

#define VGPU_IOCTL(_cmd, _fn, _client) \
	VGPU_IOCTL_GREW(_cmd, _fn, _client, _IOC_SIZE(VGPU_IOCTL_##_cmd))

#define VGPU_IOCTL_GREW(_cmd, _fn, _client, _min_size) \
	{ .cmd = VGPU_IOCTL_##_cmd, .name = #_cmd, .fn = _fn, \
	  .client = _client, .min_size = _min_size }

/* uAPI 1.2 appended hang_timeout_ms to struct vgpu_info. */
#define VGPU_INFO_SIZE_1_0 offsetof(struct vgpu_info, hang_timeout_ms)

/* uAPI 1.1 appended struct vgpu_fault.message (to two structs). */
#define VGPU_CTX_STATUS_SIZE_1_0 \
	offsetof(struct vgpu_ctx_status, fault.message)
#define VGPU_FW_FAULT_SIZE_1_0 offsetof(struct vgpu_fw_fault, fault.message)

static const struct vgpu_ioctl_desc vgpu_ioctls[] = {
	VGPU_IOCTL_GREW(GET_INFO, vgpu_ioctl_get_info, false,
			VGPU_INFO_SIZE_1_0),
	VGPU_IOCTL(CTX_CREATE, vgpu_ioctl_ctx_create, true),
	VGPU_IOCTL(CTX_DESTROY, vgpu_ioctl_ctx_destroy, true),
	VGPU_IOCTL_GREW(CTX_STATUS, vgpu_ioctl_ctx_status, true,
			VGPU_CTX_STATUS_SIZE_1_0),
	VGPU_IOCTL(VRAM_ALLOC, vgpu_ioctl_vram_alloc, true),
	VGPU_IOCTL(HOST_ALLOC, vgpu_ioctl_host_alloc, true),
	VGPU_IOCTL(HOST_REGISTER, vgpu_ioctl_host_register, true),
	VGPU_IOCTL(MEM_FREE, vgpu_ioctl_mem_free, true),
	VGPU_IOCTL(MAP, vgpu_ioctl_map, true),
	VGPU_IOCTL(UNMAP, vgpu_ioctl_unmap, true),
	VGPU_IOCTL(QUEUE_CREATE, vgpu_ioctl_queue_create, true),
	VGPU_IOCTL(QUEUE_DESTROY, vgpu_ioctl_queue_destroy, true),
	VGPU_IOCTL(QUEUE_KICK, vgpu_ioctl_queue_kick, true),
	VGPU_IOCTL(WAIT, vgpu_ioctl_wait, true),
	VGPU_IOCTL(QUEUE_EVENTFD, vgpu_ioctl_queue_eventfd, true),
	VGPU_IOCTL(MEM_EXPORT, vgpu_ioctl_mem_export, true),
	VGPU_IOCTL(MEM_IMPORT, vgpu_ioctl_mem_import, true),
	VGPU_IOCTL(MANAGED_ALLOC, vgpu_ioctl_managed_alloc, true),
	VGPU_IOCTL(MANAGED_MIGRATE, vgpu_ioctl_managed_migrate, true),
	VGPU_IOCTL(MANAGED_QUERY, vgpu_ioctl_managed_query, true),
	VGPU_IOCTL(MANAGED_ADVISE, vgpu_ioctl_managed_advise, true),
	VGPU_IOCTL(FW_ATTACH, vgpu_ioctl_fw_attach, false),
	VGPU_IOCTL(FW_SIGNAL, vgpu_ioctl_fw_signal, false),
	VGPU_IOCTL_GREW(FW_FAULT, vgpu_ioctl_fw_fault, false,
			VGPU_FW_FAULT_SIZE_1_0),
	VGPU_IOCTL(FW_ACK, vgpu_ioctl_fw_ack, false),
	VGPU_IOCTL(FW_HEARTBEAT, vgpu_ioctl_fw_heartbeat, false),
	VGPU_IOCTL(FW_MMU_FAULT, vgpu_ioctl_fw_mmu_fault, false),
	VGPU_IOCTL(FW_PEER, vgpu_ioctl_fw_peer, false),
};

/* Large enough for every argument struct. */
union vgpu_ioctl_args {
	struct vgpu_info info;
	struct vgpu_ctx_create ctx_create;
	struct vgpu_ctx_status ctx_status;
	struct vgpu_handle_arg handle;
	struct vgpu_vram_alloc vram_alloc;
	struct vgpu_host_alloc host_alloc;
	struct vgpu_host_register host_register;
	struct vgpu_map map;
	struct vgpu_unmap unmap;
	struct vgpu_queue_create queue_create;
	struct vgpu_wait wait;
	struct vgpu_queue_eventfd queue_eventfd;
	struct vgpu_mem_export mem_export;
	struct vgpu_mem_import mem_import;
	struct vgpu_fw_attach fw_attach;
	struct vgpu_fw_signal fw_signal;
	struct vgpu_fw_fault fw_fault;
	struct vgpu_fw_ack fw_ack;
	struct vgpu_fw_heartbeat fw_heartbeat;
	struct vgpu_managed_alloc managed_alloc;
	struct vgpu_managed_migrate managed_migrate;
	struct vgpu_managed_query managed_query;
	struct vgpu_managed_advise managed_advise;
	struct vgpu_fw_mmu_fault fw_mmu_fault;
	struct vgpu_fw_peer fw_peer;
};

static const struct vgpu_ioctl_desc *vgpu_ioctl_find(unsigned int cmd)
{
	unsigned int i;

	if (_IOC_TYPE(cmd) != VGPU_IOCTL_BASE)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(vgpu_ioctls); i++) {
		unsigned int known = vgpu_ioctls[i].cmd;

		/* Same number and direction; the size may differ. */
		if (_IOC_NR(known) == _IOC_NR(cmd) &&
		    _IOC_DIR(known) == _IOC_DIR(cmd))
			return &vgpu_ioctls[i];
	}
	return NULL;
}

static long vgpu_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct vgpu_file *vf = filp->private_data;
	struct vgpu_dev *dev = vf->dev;
	void __user *uarg = (void __user *)arg;
	const struct vgpu_ioctl_desc *desc = vgpu_ioctl_find(cmd);
	union vgpu_ioctl_args args;
	size_t usize, ksize;
	int ret;

	if (!desc)
		return vgpu_refuse(dev, -ENOTTY,
				   "ioctl 0x%08x: no such command (type 0x%x nr 0x%x dir %u)",
				   cmd, _IOC_TYPE(cmd), _IOC_NR(cmd), _IOC_DIR(cmd));
	usize = _IOC_SIZE(cmd);
	ksize = _IOC_SIZE(desc->cmd);
	/* Version 1.0 structs are the smallest there will ever be. */
	if (usize < desc->min_size)
		return vgpu_refuse(dev, -EINVAL,
				   "%s: argument size %zu below the 1.0 size %u",
				   desc->name, usize, desc->min_size);
	if (desc->client && READ_ONCE(vf->is_fw))
		return vgpu_refuse(dev, -EPERM,
				   "%s: a client ioctl on the firmware's file",
				   desc->name);

	memset(&args, 0, sizeof(args));
	if (_IOC_DIR(cmd) & _IOC_WRITE) {
		ret = copy_struct_from_user(&args, ksize, uarg, usize);
		if (ret == -E2BIG)
			return vgpu_refuse(dev, ret,
					   "%s: argument of %zu bytes has nonzero bytes past the %zu this driver knows",
					   desc->name, usize, ksize);
		if (ret)
			return vgpu_refuse(dev, ret,
					   "%s: argument not readable at 0x%lx",
					   desc->name, arg);
	}
	ret = desc->fn(vf, &args);
	/* What the call released under the lock is gone when it returns. */
	vgpu_ctx_reap(dev);
	/* An older program gets the fields it knows, and no more. */
	if (!ret && (_IOC_DIR(cmd) & _IOC_READ) &&
	    copy_to_user(uarg, &args, min(usize, ksize)))
		return vgpu_refuse(dev, -EFAULT,
				   "%s: result not writable at 0x%lx",
				   desc->name, arg);
	return ret;
}

/* --- open, release, read, poll ------------------------------------------- */

static struct vgpu_dev *vgpu_dev_of(struct file *filp)
{
	struct miscdevice *misc = filp->private_data;

	return container_of(misc, struct vgpu_dev, misc);
}

static int vgpu_open(struct inode *inode, struct file *filp)
{
	struct vgpu_dev *dev = vgpu_dev_of(filp);
	struct vgpu_file *vf = kzalloc(sizeof(*vf), GFP_KERNEL_ACCOUNT);

	if (!vf)
		return -ENOMEM;
	vf->dev = dev;
	vf->filp = filp;
	mutex_init(&vf->lock);
	xa_init_flags(&vf->bos, XA_FLAGS_ALLOC1);
	xa_init_flags(&vf->ctxs, XA_FLAGS_ALLOC1);
	xa_init_flags(&vf->queues, XA_FLAGS_ALLOC1);
	atomic64_set(&vf->irqs, 0);
	init_waitqueue_head(&vf->irq_wq);
	mutex_lock(&dev->lock);
	list_add_tail(&vf->node, &dev->files);
	mutex_unlock(&dev->lock);
	filp->private_data = vf;
	return nonseekable_open(inode, filp);
}

/* Free everything a client file still owns: queues, contexts, memory. */
static void vgpu_file_cleanup(struct vgpu_file *vf)
{
	struct vgpu_queue *q;
	struct vgpu_ctx *ctx;
	struct vgpu_bo *bo;
	unsigned long h;

	mutex_lock(&vf->lock);
	xa_for_each(&vf->queues, h, q) {
		xa_erase(&vf->queues, h);
		vgpu_queue_destroy(vf, q);
	}
	xa_for_each(&vf->ctxs, h, ctx) {
		xa_erase(&vf->ctxs, h);
		WARN_ON(vgpu_ctx_destroy(vf, ctx));
	}
	xa_for_each(&vf->bos, h, bo) {
		xa_erase(&vf->bos, h);
		vgpu_bo_put(bo);
	}
	mutex_unlock(&vf->lock);
}

static int vgpu_release(struct inode *inode, struct file *filp)
{
	struct vgpu_file *vf = filp->private_data;
	struct vgpu_dev *dev = vf->dev;

	if (vf->is_fw)
		vgpu_fw_detach(vf);
	/*
	 * Also for the firmware's file: a client ioctl that passed the
	 * dispatcher just before FW_ATTACH may still have created something.
	 */
	vgpu_file_cleanup(vf);
	vgpu_ctx_reap(dev);
	mutex_lock(&dev->lock);
	list_del(&vf->node);
	mutex_unlock(&dev->lock);
	xa_destroy(&vf->bos);
	xa_destroy(&vf->ctxs);
	xa_destroy(&vf->queues);
	kfree(vf);
	return 0;
}

/*
 * read() on a client file returns a u64: the number of interrupts (fence
 * signals and errors of its queues) since the previous read, like an
 * eventfd.  On the firmware's file it returns event records.
 */
static ssize_t vgpu_read(struct file *filp, char __user *buf, size_t len,
			 loff_t *ppos)
{
	struct vgpu_file *vf = filp->private_data;
	bool nonblock = filp->f_flags & O_NONBLOCK;
	u64 n;
	int ret;

	if (READ_ONCE(vf->is_fw))
		return vgpu_fw_read(vf, buf, len, nonblock);
	if (len < sizeof(n))
		return vgpu_refuse(vf->dev, -EINVAL,
				   "read: length %zu below the 8-byte interrupt count",
				   len);
	/*
	 * Partner: atomic64_inc() and wake_up_interruptible() in
	 * vgpu_queue_interrupt().  Both are atomic on one counter, so an
	 * interrupt counted after the exchange stays for the next read() or
	 * poll(); the sleep pairs with the wake-up as wait_event() does.
	 */
	while (!(n = atomic64_xchg(&vf->irqs, 0))) {
		if (nonblock)
			return -EAGAIN;
		ret = wait_event_interruptible(vf->irq_wq,
					       atomic64_read(&vf->irqs));
		if (ret)
			return ret;
	}
	if (put_user(n, (u64 __user *)buf))
		return -EFAULT;
	return sizeof(n);
}

static __poll_t vgpu_poll(struct file *filp, struct poll_table_struct *wait)
{
	struct vgpu_file *vf = filp->private_data;
	struct vgpu_dev *dev = vf->dev;
	__poll_t mask = 0;

	if (READ_ONCE(vf->is_fw)) {
		poll_wait(filp, &dev->fw_wq, wait);
		mutex_lock(&dev->lock);
		if (!vgpu_fw_is_current(vf))
			mask = EPOLLERR;	/* detached as hung */
		else if (!list_empty(&dev->events))
			mask = EPOLLIN | EPOLLRDNORM;
		mutex_unlock(&dev->lock);
		return mask;
	}
	poll_wait(filp, &vf->irq_wq, wait);
	if (atomic64_read(&vf->irqs))
		mask = EPOLLIN | EPOLLRDNORM;
	return mask;
}

static const struct file_operations vgpu_fops = {
	.owner = THIS_MODULE,
	.open = vgpu_open,
	.release = vgpu_release,
	.unlocked_ioctl = vgpu_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.read = vgpu_read,
	.poll = vgpu_poll,
	.mmap = vgpu_mmap,
	.llseek = noop_llseek,
};

/* --- devices ------------------------------------------------------------- */

static void vgpu_dev_destroy(struct vgpu_dev *dev)
{
	debugfs_remove_recursive(dev->debugfs);
	cancel_delayed_work_sync(&dev->watchdog);
	/* Contexts released under the lock hold users and VRAM till then. */
	flush_work(&dev->ctx_free_work);
	/* Every object gave its user back: no open file, no mapping left. */
	WARN_ON(!xa_empty(&dev->users));
	xa_destroy(&dev->users);
	vgpu_gart_fini(&dev->gart);
	vgpu_vram_fini(&dev->vram);
	kfree(dev);
}

static struct vgpu_dev *vgpu_dev_create(unsigned int index)
{
	struct vgpu_dev *dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	int ret;

	if (!dev)
		return ERR_PTR(-ENOMEM);
	dev->index = index;
	snprintf(dev->name, sizeof(dev->name), "vgpu%u", index);
	mutex_init(&dev->lock);
	INIT_LIST_HEAD(&dev->files);
	xa_init_flags(&dev->ctxs, XA_FLAGS_ALLOC1);
	xa_init_flags(&dev->queues, XA_FLAGS_ALLOC1);
	INIT_LIST_HEAD(&dev->events);
	INIT_LIST_HEAD(&dev->deferred);
	init_waitqueue_head(&dev->fw_wq);
	spin_lock_init(&dev->state_lock);
	mutex_init(&dev->bo_lock);
	INIT_LIST_HEAD(&dev->bos);
	vgpu_managed_dev_init(dev);
	mutex_init(&dev->users_lock);
	xa_init(&dev->users);
	INIT_DELAYED_WORK(&dev->watchdog, vgpu_watchdog_work);
	init_llist_head(&dev->ctx_free);
	INIT_WORK(&dev->ctx_free_work, vgpu_ctx_free_work);
	INIT_LIST_HEAD(&dev->config_ev.node);
	dev->config_ev.ev.type = VGPU_FW_EV_CONFIG;

	ret = vgpu_vram_init(&dev->vram, (u64)vram_mb << 20);
	if (!ret)
		ret = vgpu_gart_init(&dev->gart,
				     ((u64)gart_mb << 20) >> PAGE_SHIFT);
	if (ret) {
		vgpu_dev_destroy(dev);
		return ERR_PTR(ret);
	}

	dev->misc.minor = MISC_DYNAMIC_MINOR;
	dev->misc.name = dev->name;
	dev->misc.fops = &vgpu_fops;
	dev->misc.groups = vgpu_sysfs_groups;
	/*
	 * Root's, and the group's when the udev rule (tools/udev) makes it
	 * "video": a GPU is shared by its users, and who they are is the
	 * administrator's choice, not every local account's.
	 */
	dev->misc.mode = 0660;
	ret = misc_register(&dev->misc);
	if (ret) {
		vgpu_dev_destroy(dev);
		return ERR_PTR(ret);
	}
	vgpu_debugfs_init(dev, vgpu_debugfs_root);
	schedule_delayed_work(&dev->watchdog, 0);
	return dev;
}

static void vgpu_remove_all(void)
{
	unsigned int i;

	for (i = 0; i < VGPU_MAX_DEVICES; i++) {
		struct vgpu_dev *dev;

		kernel_param_lock(THIS_MODULE);
		dev = vgpu_devs[i];
		vgpu_devs[i] = NULL;
		kernel_param_unlock(THIS_MODULE);
		if (!dev)
			continue;
		misc_deregister(&dev->misc);
		vgpu_dev_destroy(dev);
	}
	debugfs_remove_recursive(vgpu_debugfs_root);
}

/*
 * The default VRAM size: as large as an H100's 80 GB where the machine can
 * back it, at most VGPU_MAX_MB, but never more than half of RAM for all
 * devices together.  VRAM costs host memory only where it is touched, and
 * those pages cannot be swapped out: a device larger than RAM would let one
 * program that fills the VRAM it was promised drive the machine out of
 * memory, whereas an allocation larger than this VRAM fails at once.
 */
static unsigned int vgpu_default_vram_mb(void)
{
	u64 half_ram_mb = ((u64)totalram_pages() << PAGE_SHIFT) >> 21;

	return max_t(u64, 1, min_t(u64, VGPU_MAX_MB,
				   half_ram_mb / num_devices));
}

static int __init vgpu_init(void)
{
	unsigned int i;

	if (!vram_mb && num_devices && num_devices <= VGPU_MAX_DEVICES)
		vram_mb = vgpu_default_vram_mb();
	if (!num_devices || num_devices > VGPU_MAX_DEVICES ||
	    !vram_mb || vram_mb > VGPU_MAX_MB ||
	    !gart_mb || gart_mb > VGPU_MAX_MB ||
	    !vgpu_max_queues || vgpu_max_queues > 4096) {
		pr_err("vgpu: module parameter out of range\n");
		return -EINVAL;
	}
	vgpu_debugfs_root = debugfs_create_dir("vgpu", NULL);
	for (i = 0; i < num_devices; i++) {
		struct vgpu_dev *dev = vgpu_dev_create(i);

		if (IS_ERR(dev)) {
			vgpu_remove_all();
			return PTR_ERR(dev);
		}
		kernel_param_lock(THIS_MODULE);
		vgpu_devs[i] = dev;
		kernel_param_unlock(THIS_MODULE);
	}
	pr_info("vgpu: %u device(s), %u MiB VRAM each\n", num_devices, vram_mb);
	return 0;
}

static void __exit vgpu_exit(void)
{
	vgpu_remove_all();
}

module_init(vgpu_init);
module_exit(vgpu_exit);

MODULE_DESCRIPTION("vGPU: a GPU driver whose hardware is a user-space firmware");
MODULE_LICENSE("GPL");
