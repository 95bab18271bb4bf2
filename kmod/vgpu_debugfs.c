// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_debugfs.c - /sys/kernel/debug/vgpu/vgpuN/{objects,mappings,queues}
 *
 * Views for people learning how the driver works: every memory object,
 * every GPU mapping of every context (with the PTE the firmware will see
 * for its first page), and every queue's ring pointers and fence.
 */
#include <linux/debugfs.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "vgpu_drv.h"

static const char *const vgpu_bo_kind_names[] = {
	[VGPU_BO_VRAM] = "vram",
	[VGPU_BO_HOST] = "host",
	[VGPU_BO_USERPTR] = "userptr",
	[VGPU_BO_MANAGED] = "managed",
};

static int objects_show(struct seq_file *m, void *unused)
{
	struct vgpu_dev *dev = m->private;
	struct vgpu_bo *bo;

	seq_puts(m, "kind     size         where              pid    refs\n");
	mutex_lock(&dev->bo_lock);
	list_for_each_entry(bo, &dev->bos, node) {
		char where[32];

		if (bo->kind == VGPU_BO_VRAM)
			snprintf(where, sizeof(where), "vram@%llx",
				 bo->vram_offset);
		else if (bo->kind == VGPU_BO_MANAGED)	/* block by block */
			snprintf(where, sizeof(where), "migrating");
		else
			snprintf(where, sizeof(where), "gart[%lu..%lu]",
				 bo->gart_base, bo->gart_base + bo->npages - 1);
		seq_printf(m, "%-8s %-12llu %-18s %-6d %u%s\n",
			   vgpu_bo_kind_names[bo->kind], bo->size, where,
			   bo->owner_pid, kref_read(&bo->ref),
			   bo->flags & VGPU_HOST_ALLOC_WC &&
			   bo->kind == VGPU_BO_HOST ? " wc" : "");
	}
	mutex_unlock(&dev->bo_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(objects);

static void vgpu_debugfs_ctx_mappings(struct seq_file *m, struct vgpu_ctx *ctx)
{
	struct vgpu_mapping *map;
	unsigned long index = 0;

	seq_printf(m, "context %u (pid %d) pd3=vram@%llx state=%#x\n", ctx->id,
		   ctx->owner_pid, ctx->pd3, READ_ONCE(ctx->state));
	mutex_lock(&ctx->lock);
	mt_for_each(&ctx->mappings, map, index, ULONG_MAX)
		seq_printf(m, "  %012llx-%012llx %-7s +%llx %s%s\n", map->va,
			   map->va + map->size - 1,
			   vgpu_bo_kind_names[map->bo->kind], map->offset,
			   map->flags & VGPU_MAP_READONLY ? "ro" : "rw",
			   map->flags & VGPU_MAP_NO_ATOMIC ? " noatomic" : "");
	mutex_unlock(&ctx->lock);
}

static int mappings_show(struct seq_file *m, void *unused)
{
	struct vgpu_dev *dev = m->private;
	struct vgpu_ctx *ctx, **ctxs;
	unsigned int n = 0, i;
	unsigned long id;

	/* Take references under dev->lock; print under each ctx->lock. */
	mutex_lock(&dev->lock);
	xa_for_each(&dev->ctxs, id, ctx)
		n++;
	ctxs = kcalloc(n, sizeof(*ctxs), GFP_KERNEL);
	if (!ctxs) {
		mutex_unlock(&dev->lock);
		return -ENOMEM;
	}
	i = 0;
	xa_for_each(&dev->ctxs, id, ctx) {
		if (i == n)
			break;
		kref_get(&ctx->ref);
		ctxs[i++] = ctx;
	}
	mutex_unlock(&dev->lock);

	for (n = i, i = 0; i < n; i++) {
		vgpu_debugfs_ctx_mappings(m, ctxs[i]);
		vgpu_ctx_put(ctxs[i]);
	}
	kfree(ctxs);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mappings);

static int queues_show(struct seq_file *m, void *unused)
{
	struct vgpu_dev *dev = m->private;
	struct vgpu_queue *q;
	unsigned long id;

	seq_puts(m, "id   ctx  engine   ring     wptr         rptr         completed    error\n");
	mutex_lock(&dev->lock);
	xa_for_each(&dev->queues, id, q) {
		struct vgpu_doorbell *db = page_address(q->doorbell);

		seq_printf(m, "%-4u %-4u %-8s %-8u %-12llu %-12llu %-12llu %u\n",
			   q->id, q->ctx->id,
			   q->engine == VGPU_ENGINE_COMPUTE ? "compute" : "copy",
			   q->ring_size, READ_ONCE(db->wptr),
			   READ_ONCE(db->rptr), READ_ONCE(q->completed),
			   READ_ONCE(q->error));
	}
	mutex_unlock(&dev->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(queues);

/**
 * vgpu_debugfs_init() - create the device's debugfs files
 * @dev: the device.
 * @root: the driver's debugfs directory.
 */
void vgpu_debugfs_init(struct vgpu_dev *dev, struct dentry *root)
{
	dev->debugfs = debugfs_create_dir(dev->name, root);
	debugfs_create_file("objects", 0444, dev->debugfs, dev, &objects_fops);
	debugfs_create_file("mappings", 0444, dev->debugfs, dev,
			    &mappings_fops);
	debugfs_create_file("queues", 0444, dev->debugfs, dev, &queues_fops);
}
