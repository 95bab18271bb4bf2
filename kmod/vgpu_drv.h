/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgpu_drv.h - the driver's internal objects and how they relate.
 *
 *   struct vgpu_dev       one /dev/vgpuN: VRAM, GART, the firmware link,
 *                         device-wide ids of contexts and queues
 *   struct vgpu_file      one open file: handles of its objects
 *   struct vgpu_bo        a memory object (VRAM, driver-allocated host
 *                         pages, or pinned user pages)
 *   struct vgpu_ctx       a GPU address space (page tables in VRAM)
 *   struct vgpu_queue     a user-mode queue: ring, doorbell, fence page
 *
 * Lifetimes are reference counts: a handle, a mapping in a context, an mmap
 * and a queue (for its context) each hold one reference.
 *
 * Lock order (outer first):
 *   file->lock -> ctx->lock -> dev->lock -> vram.lock, gart.lock,
 *   dev->bo_lock -> dev->state_lock (spinlock)
 */
#ifndef _VGPU_DRV_H
#define _VGPU_DRV_H

#include <linux/device.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/llist.h>
#include <linux/maple_tree.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include <uapi/linux/vgpu.h>
#include <vgpu_hw.h>

#include "vgpu_mmap_offset.h"

struct dentry;
struct eventfd_ctx;
struct mm_struct;
struct page;
struct vm_area_struct;

/*
 * Pages a process asks for in bulk (host memory objects, queue rings):
 * charged to its memory cgroup, and failed with -ENOMEM rather than
 * invoking the OOM killer (__GFP_RETRY_MAYFAIL), the cgroup's or the
 * system's, when memory runs out.  An ioctl asking for more than there is
 * must be refused, not make the kernel kill someone to satisfy it - least
 * of all the firmware, which would take the device from every user.
 */
#define VGPU_GFP_USER_PAGES	(GFP_KERNEL_ACCOUNT | __GFP_ZERO | \
				 __GFP_RETRY_MAYFAIL | __GFP_NOWARN)

/**
 * vgpu_refuse() - say why an ioctl was refused, and refuse it
 * @dev: the device.
 * @err: the negative errno to return.
 * @fmt: which field, and why (printf format), starting with the ioctl's
 *	name: "MAP: va 0x1234 not 64 KiB aligned".
 *
 * Each refusal of an ioctl (a bad argument, a missing object, a limit)
 * goes through here, as ivpu logs each rejected argument: the message is a
 * dev_dbg(), printed only when dynamic debug turns it on,
 *
 *	echo 'module vgpu +p' > /sys/kernel/debug/dynamic_debug/control
 *
 * so a learner sees in the kernel log why a call failed, and a program
 * that probes with bad arguments costs nothing otherwise.
 *
 * Return: @err.
 */
#define vgpu_refuse(dev, err, fmt, ...) ({				\
	dev_dbg((dev)->misc.this_device, fmt "\n", ##__VA_ARGS__);	\
	(err);								\
})

/* Devices /dev/vgpuN a module can make (num_devices). */
#define VGPU_MAX_DEVICES	8
static_assert(VGPU_MAX_DEVICES <= VGPU_PTE_PEER_MAX);

/* Module parameters (vgpu_main.c). */
extern unsigned int vgpu_kernel_exec_timeout_ms;
extern unsigned int vgpu_hang_timeout_ms;
extern unsigned int vgpu_max_queues;

/* Engines of every device: GR, then two copy engines (struct vgpu_info). */
#define VGPU_NUM_COMPUTE_ENGINES	1
#define VGPU_NUM_COPY_ENGINES		2
#define VGPU_NUM_ENGINES	(VGPU_NUM_COMPUTE_ENGINES + VGPU_NUM_COPY_ENGINES)

/**
 * struct vgpu_event - a pending record for the firmware's read()
 * @node: entry in vgpu_dev.events while pending.
 * @ev: the record.
 * @kfree_after_read: allocated for one use (destroy events), else embedded
 *	in its object and re-armed.
 */
struct vgpu_event {
	struct list_head node;
	struct vgpu_fw_event ev;
	bool kfree_after_read;
};

/**
 * struct vgpu_deferred - something to release once the firmware acknowledged
 * @node: entry in vgpu_dev.deferred.
 * @seq: release once the firmware acknowledged this record sequence.
 * @release: what to do then.
 */
struct vgpu_deferred {
	struct list_head node;
	u64 seq;
	void (*release)(struct vgpu_deferred *d);
};

/**
 * struct vgpu_vram - device memory
 * @lock: protects everything below.
 * @bitmap: one bit per 4 KiB of VRAM, set when allocated.
 * @pages: backing page of each 4 KiB of allocated VRAM that was touched
 *	(VRAM costs host memory only while it is in use).
 * @npages: VRAM size in 4 KiB pages.
 * @used: pages allocated.
 * @resident: pages with a backing page.
 */
struct vgpu_vram {
	struct mutex lock; /* see above */
	unsigned long *bitmap;
	struct xarray pages;
	unsigned long npages;
	unsigned long used;
	unsigned long resident;
};

/**
 * struct vgpu_gart - the device's window on host memory
 * @lock: protects everything below.
 * @bitmap: one bit per entry, set when in use.
 * @entries: the host page of each entry.
 * @nentries: number of entries.
 * @used: entries in use.
 */
struct vgpu_gart {
	struct mutex lock; /* see above */
	unsigned long *bitmap;
	struct page **entries;
	unsigned long nentries;
	unsigned long used;
};

/**
 * enum vgpu_res - resources counted per user (vgpu_user.c)
 * @VGPU_RES_VRAM: VRAM pages: objects and page tables.
 * @VGPU_RES_GART: GART entries: host memory the device can reach.
 * @VGPU_RES_QUEUE: pages of queues: rings, doorbells, fence pages.
 * @VGPU_RES_COUNT: number of resources.
 */
enum vgpu_res {
	VGPU_RES_VRAM,
	VGPU_RES_GART,
	VGPU_RES_QUEUE,
	VGPU_RES_COUNT,
};

/**
 * struct vgpu_user - what one user holds of one device
 * @dev: the device.
 * @uid: the real uid, in the initial user namespace.
 * @refs: objects charged to the user, and temporary users (under
 *	vgpu_dev.users_lock).
 * @used: pages of each enum vgpu_res held.
 */
struct vgpu_user {
	struct vgpu_dev *dev;
	uid_t uid;
	unsigned int refs;
	atomic_long_t used[VGPU_RES_COUNT];
};

/**
 * struct vgpu_engine_watch - the hang detector's view of one engine
 * @progress: the engine's progress counter in the last heartbeat.
 * @since: jiffies when @progress last changed, or the engine last had no
 *	runnable work: the start of the current stall.
 * @ctx_id: the context the firmware last reported running on it.
 * @runnable: the last heartbeat said it had runnable work.
 * @blamed: @ctx_id was stopped for this stall (a second stall is the
 *	firmware's fault).
 */
struct vgpu_engine_watch {
	u64 progress;
	unsigned long since;
	u32 ctx_id;
	bool runnable;
	bool blamed;
};

/**
 * struct vgpu_managed_stats - migrations of managed memory (vgpu_managed.c)
 * @gpu_faults: replayable device faults served.
 * @cpu_faults: process faults that moved a block back to host pages.
 * @prefetches: VGPU_IOCTL_MANAGED_MIGRATE calls.
 * @to_device: blocks moved into VRAM.
 * @to_host: blocks moved back to host pages.
 * @resident: blocks in VRAM now.
 * @evictions: blocks moved back to host pages to make room in VRAM.
 * @lru_lock: protects @lru (innermost: taken under an object's lock).
 * @lru: every block in VRAM, oldest migration first: the eviction order
 *	when VRAM is full (vgpu_managed_make_room()).
 */
struct vgpu_managed_stats {
	atomic64_t gpu_faults;
	atomic64_t cpu_faults;
	atomic64_t prefetches;
	atomic64_t to_device;
	atomic64_t to_host;
	atomic64_t resident;
	atomic64_t evictions;
	spinlock_t lru_lock; /* see above */
	struct list_head lru;
};

/**
 * struct vgpu_dev - one device
 * @misc: the misc device /dev/vgpuN.
 * @index: N.
 * @name: "vgpuN".
 * @vram: device memory.
 * @gart: host-memory aperture.
 * @lock: protects files, the id xarrays' contents, every ctx's queue list,
 *	the firmware link and the event list.
 * @files: open client files (for debugfs and accounting).
 * @ctxs: published contexts by id.
 * @queues: published queues by id.
 * @next_ctx_id: where the search for a free context id starts: ids are
 *	given out cyclically, so an id the firmware may still report on
 *	(a destroyed context whose farewell it has not read) is not a new
 *	context's soon after (as ivpu does for its context ids).
 * @next_queue_id: the same for queue ids.
 * @fw_file: the attached firmware's file, or NULL.
 * @fw_mapping: its address space, to zap the firmware's view of VRAM and
 *	GART pages before they are freed (under vram.lock and gart.lock).
 * @fw_map_file: the file whose VRAM and GART mappings faults may fill:
 *	the attached firmware's (under vram.lock and gart.lock); a firmware
 *	detached as hung keeps its file but loses its mappings.
 * @fw_lost: a firmware detached and none attached since.
 * @fw_flags: VGPU_FW_ATTACH_* of the attached firmware.
 * @fw_heartbeat: jiffies of its last heartbeat (or of its attach).
 * @engines: hang detection state of each engine, from the heartbeats.
 * @config_ev: CONFIG record (the firmware's share of the parameters).
 * @events: records waiting for the firmware's read().
 * @post_seq: sequence number of the last record posted.
 * @acked_seq: the last record the firmware acknowledged (what a deferral
 *	on it or an older one need not wait for).
 * @deferred: struct vgpu_deferred waiting for the firmware's ack, in @seq
 *	order.
 * @fw_wq: the firmware waits here for events.
 * @state_lock: protects fence and error state of queues and contexts.
 * @bo_lock: protects bos.
 * @bos: every memory object (debugfs).
 * @pinned_pages: host pages pinned or allocated for the device.
 * @nr_ctxs: live contexts.
 * @users_lock: protects @users and every user's refs.
 * @users: struct vgpu_user by uid.
 * @compute_mode: VGPU_COMPUTE_MODE_*: who may create contexts (sysfs
 *	compute_mode; under @lock, read without it by GET_INFO).
 * @watchdog: periodic hang check (heartbeat and engine progress).
 * @ctx_free: contexts whose last reference went under @lock (the
 *	firmware's ack of their destruction), torn down by @ctx_free_work.
 * @ctx_free_work: tears those down without @lock (vgpu_ctx.c says why).
 * @managed: migration counters of managed memory (sysfs).
 * @debugfs: this device's debugfs directory.
 */
struct vgpu_dev {
	struct miscdevice misc;
	unsigned int index;
	char name[16];
	struct vgpu_vram vram;
	struct vgpu_gart gart;

	struct mutex lock; /* see above */
	struct list_head files;
	struct xarray ctxs;
	struct xarray queues;
	u32 next_ctx_id;
	u32 next_queue_id;
	struct file *fw_file;
	struct address_space *fw_mapping;
	struct file *fw_map_file;
	bool fw_lost;
	u32 fw_flags;
	unsigned long fw_heartbeat;
	struct vgpu_engine_watch engines[VGPU_NUM_ENGINES];
	struct vgpu_event config_ev;
	struct list_head events;
	u64 post_seq;
	u64 acked_seq;
	struct list_head deferred;
	wait_queue_head_t fw_wq;

	spinlock_t state_lock; /* see above */
	struct mutex bo_lock; /* see above */
	struct list_head bos;
	atomic_long_t pinned_pages;
	atomic_t nr_ctxs;

	struct mutex users_lock; /* see above */
	struct xarray users;
	u32 compute_mode;

	struct delayed_work watchdog;
	struct llist_head ctx_free;
	struct work_struct ctx_free_work;
	struct vgpu_managed_stats managed;
	struct dentry *debugfs;
};

/**
 * struct vgpu_file - one open file of a device
 * @dev: the device.
 * @filp: the struct file.
 * @lock: protects the handle tables.
 * @node: entry in vgpu_dev.files.
 * @bos: memory objects by handle.
 * @ctxs: contexts by handle.
 * @queues: queues by handle.
 * @nr_queues: queues created and not destroyed.
 * @is_fw: this file is the device's firmware.
 * @irqs: interrupts since the last read() (poll/read on client files).
 * @irq_wq: poll() and read() wait here.
 */
struct vgpu_file {
	struct vgpu_dev *dev;
	struct file *filp;
	struct mutex lock; /* see above */
	struct list_head node;
	struct xarray bos;
	struct xarray ctxs;
	struct xarray queues;
	unsigned int nr_queues;
	bool is_fw;
	atomic64_t irqs;
	wait_queue_head_t irq_wq;
};

/* The same values as VGPU_MEM_KIND_* of the uAPI. */
enum vgpu_bo_kind {
	VGPU_BO_VRAM = VGPU_MEM_KIND_VRAM,
	VGPU_BO_HOST = VGPU_MEM_KIND_HOST,	/* pages allocated by the driver */
	VGPU_BO_USERPTR = VGPU_MEM_KIND_USERPTR,	/* pinned user pages */
	VGPU_BO_MANAGED = VGPU_MEM_KIND_MANAGED,	/* migrating pages */
};

struct vgpu_managed;

/**
 * struct vgpu_bo - a memory object
 * @ref: handle, mappings and mmaps.
 * @dev: the device.
 * @node: entry in vgpu_dev.bos.
 * @kind: enum vgpu_bo_kind.
 * @size: bytes.
 * @npages: size in 4 KiB pages.
 * @flags: VGPU_HOST_ALLOC_* or VGPU_HOST_REGISTER_* flags.
 * @vram_offset: VRAM: first byte.
 * @gart_base: host: first GART entry.
 * @pages: host: the pages.
 * @src: userptr: the host object whose pages this one shares (a mapping
 *	of a host object was registered), or NULL when the pages are pinned.
 * @mm: userptr: the mm charged for the pinned pages (RLIMIT_MEMLOCK).
 * @user_addr: userptr: start address in @mm.
 * @owner_pid: tgid of the creator (debugfs).
 * @user: the user charged for the object's VRAM or GART entries.
 * @managed: managed: where each block lives (vgpu_managed.c).
 */
struct vgpu_bo {
	struct kref ref;
	struct vgpu_dev *dev;
	struct list_head node;
	enum vgpu_bo_kind kind;
	u64 size;
	unsigned long npages;
	u32 flags;
	u64 vram_offset;
	unsigned long gart_base;
	struct page **pages;
	struct vgpu_bo *src;
	struct mm_struct *mm;
	u64 user_addr;
	pid_t owner_pid;
	struct vgpu_user *user;
	struct vgpu_managed *managed;
};

/**
 * struct vgpu_mapping - a range of a context's address space
 * @va: first byte.
 * @size: bytes.
 * @bo: the memory object (holds a reference).
 * @offset: offset in @bo.
 * @flags: VGPU_MAP_* flags.
 * @unmapped: after UNMAP, waits for the firmware's TLB flush ack.
 * @ctx: managed objects: the context (no reference: the mapping leaves
 *	@managed_node before its context goes).
 * @managed_node: managed objects: entry in the object's mapping list.
 */
struct vgpu_mapping {
	struct vgpu_deferred unmapped;
	struct vgpu_ctx *ctx;
	struct list_head managed_node;
	u64 va;
	u64 size;
	struct vgpu_bo *bo;
	u64 offset;
	u32 flags;
};

/**
 * struct vgpu_ctx - a context: one GPU address space
 * @ref: handle, queues, temporary lookups.
 * @dev: the device.
 * @id: device-wide id (published in vgpu_dev.ctxs while alive).
 * @owner_pid: tgid of the creator (debugfs).
 * @owner: the creator's thread group (holds a reference): the process
 *	that holds the device in VGPU_COMPUTE_MODE_EXCLUSIVE_PROCESS.
 * @user: the user charged for the page tables.
 * @lock: protects the page tables and @mappings.
 * @mappings: struct vgpu_mapping by VA range.
 * @pd3: VRAM offset of the root page directory.
 * @tables: struct vgpu_pt_alloc list: VRAM holding page tables.
 * @queues: its queues (under vgpu_dev.lock).
 * @state: VGPU_CTX_STATE_* (under vgpu_dev.state_lock).
 * @fault_count: faults reported.
 * @fault: the first fault.
 * @create_ev: CTX_CREATE record.
 * @stop_ev: CTX_STOP record.
 * @flush_ev: TLB_FLUSH record.
 * @destroy_ev: CTX_DESTROY record, allocated up front so that destroy
 *	cannot fail.
 * @free_node: on vgpu_dev.ctx_free once released under vgpu_dev.lock.
 * @destroyed: after destroy, waits for the firmware's ack of CTX_DESTROY
 *	before the page tables and mappings go.
 * @published: in vgpu_dev.ctxs, known to the firmware (under vgpu_dev.lock);
 *	no record of the context may be posted once it is false.
 * @destroy_seq: sequence number of its CTX_DESTROY record, 0 if none was
 *	sent (under vgpu_dev.lock).
 */
struct vgpu_ctx {
	struct kref ref;
	struct vgpu_dev *dev;
	u32 id;
	pid_t owner_pid;
	struct pid *owner;
	struct vgpu_user *user;
	struct mutex lock; /* see above */
	struct maple_tree mappings;
	u64 pd3;
	struct list_head tables;
	struct list_head queues;
	u32 state;
	u32 fault_count;
	struct vgpu_fault fault;
	struct vgpu_event create_ev;
	struct vgpu_event stop_ev;
	struct vgpu_event flush_ev;
	struct vgpu_event *destroy_ev;
	struct vgpu_deferred destroyed;
	struct llist_node free_node;
	bool published;
	u64 destroy_seq;
};

/**
 * struct vgpu_queue - a user-mode queue
 * @ref: handle, mmaps, temporary lookups.
 * @dev: the device.
 * @ctx: its context (holds a reference).
 * @file: the client file that owns it (valid while published).
 * @user: the user charged for its pages.
 * @charged: pages charged to @user (0 until charged).
 * @node: entry in vgpu_ctx.queues.
 * @id: device-wide id (published in vgpu_dev.queues while alive).
 * @engine: enum vgpu_engine.
 * @ring_size: bytes.
 * @ring: the ring pages.
 * @doorbell: the doorbell page (struct vgpu_doorbell).
 * @fence: the fence page (struct vgpu_fence_page).
 * @completed: last fence signalled (under vgpu_dev.state_lock).
 * @error: VGPU_QUEUE_ERROR_* once stopped (under vgpu_dev.state_lock).
 * @wq: waiters on the fence.
 * @eventfd: notified on each interrupt (under vgpu_dev.lock).
 * @create_ev: QUEUE_CREATE record.
 * @kick_ev: QUEUE_KICK record (kicks coalesce while it is pending).
 * @destroy_ev: QUEUE_DESTROY record, allocated up front.
 */
struct vgpu_queue {
	struct kref ref;
	struct vgpu_dev *dev;
	struct vgpu_ctx *ctx;
	struct vgpu_file *file;
	struct vgpu_user *user;
	unsigned long charged;
	struct list_head node;
	u32 id;
	u32 engine;
	u32 ring_size;
	struct page **ring;
	struct page *doorbell;
	struct page *fence;
	u64 completed;
	u32 error;
	wait_queue_head_t wq;
	struct eventfd_ctx *eventfd;
	struct vgpu_event create_ev;
	struct vgpu_event kick_ev;
	struct vgpu_event *destroy_ev;
};

/* vgpu_user.c */
struct vgpu_user *vgpu_user_get(struct vgpu_dev *dev);
void vgpu_user_put(struct vgpu_user *u);
int vgpu_user_charge(struct vgpu_user *u, enum vgpu_res res,
		     unsigned long npages);
void vgpu_user_uncharge(struct vgpu_user *u, enum vgpu_res res,
			unsigned long npages);
unsigned long vgpu_user_limit(struct vgpu_dev *dev, enum vgpu_res res);

/* vgpu_vram.c */
int vgpu_vram_init(struct vgpu_vram *vram, u64 size);
void vgpu_vram_fini(struct vgpu_vram *vram);
int vgpu_vram_alloc(struct vgpu_dev *dev, unsigned long npages,
		    unsigned long align_pages, u64 *offset);
void vgpu_vram_free(struct vgpu_dev *dev, u64 offset, unsigned long npages);
int vgpu_vram_write64(struct vgpu_dev *dev, u64 offset, u64 val);
u64 vgpu_vram_read64(struct vgpu_dev *dev, u64 offset);
vm_fault_t vgpu_vram_fault(struct vgpu_dev *dev, struct vgpu_dev *via,
			   struct vm_fault *vmf, unsigned long index);
int vgpu_vram_copy_page(struct vgpu_dev *dev, u64 offset, struct page *host,
			bool to_vram);

/* vgpu_gart.c */
int vgpu_gart_init(struct vgpu_gart *gart, unsigned long nentries);
void vgpu_gart_fini(struct vgpu_gart *gart);
int vgpu_gart_bind(struct vgpu_dev *dev, struct page **pages,
		   unsigned long npages, unsigned long *base);
void vgpu_gart_unbind(struct vgpu_dev *dev, unsigned long base,
		      unsigned long npages);
vm_fault_t vgpu_gart_fault(struct vgpu_dev *dev, struct vm_fault *vmf,
			   unsigned long index);

/* vgpu_bo.c */
int vgpu_ioctl_vram_alloc(struct vgpu_file *vf, void *data);
int vgpu_ioctl_host_alloc(struct vgpu_file *vf, void *data);
int vgpu_ioctl_host_register(struct vgpu_file *vf, void *data);
int vgpu_ioctl_mem_free(struct vgpu_file *vf, void *data);
struct vgpu_bo *vgpu_bo_lookup(struct vgpu_file *vf, u32 handle);
struct vgpu_bo *vgpu_bo_new(struct vgpu_dev *dev, enum vgpu_bo_kind kind,
			    u64 size);
int vgpu_bo_publish(struct vgpu_file *vf, struct vgpu_bo *bo, u32 *handle);
int vgpu_bo_add_handle(struct vgpu_file *vf, struct vgpu_bo *bo, u32 *handle);

/* vgpu_share.c */
int vgpu_ioctl_mem_export(struct vgpu_file *vf, void *data);
int vgpu_ioctl_mem_import(struct vgpu_file *vf, void *data);
void vgpu_bo_put(struct vgpu_bo *bo);
void vgpu_bo_get(struct vgpu_bo *bo);

/* vgpu_peer.c: other devices' firmware reaching this device's VRAM */
extern struct mutex vgpu_peer_lock;
int vgpu_ioctl_fw_peer(struct vgpu_file *vf, void *data);
int vgpu_peer_mmap(struct vgpu_file *vf, struct vm_area_struct *vma,
		   u32 index, unsigned long first);
void vgpu_peer_zap(struct vgpu_dev *dev, u64 offset, u64 size);

/* vgpu_main.c */
struct vgpu_dev *vgpu_dev_by_index(unsigned int index);

/* vgpu_mmu.c */
int vgpu_mmu_init(struct vgpu_ctx *ctx);
void vgpu_mmu_fini(struct vgpu_ctx *ctx);
int vgpu_ioctl_map(struct vgpu_file *vf, void *data);
int vgpu_ioctl_unmap(struct vgpu_file *vf, void *data);
int vgpu_mmu_fill(struct vgpu_ctx *ctx, struct vgpu_mapping *m);
void vgpu_mmu_clear(struct vgpu_ctx *ctx, struct vgpu_mapping *m, u64 size);
u64 vgpu_mmu_pte_perm(const struct vgpu_mapping *m);
int vgpu_mmu_write_big_pte(struct vgpu_ctx *ctx, u64 va, u64 pte);
int vgpu_mmu_write_small_pte(struct vgpu_ctx *ctx, u64 va, u64 pte);
int vgpu_mmu_make_small_tables(struct vgpu_ctx *ctx, u64 va, u64 size);

/* vgpu_managed.c: managed memory that migrates */
int vgpu_ioctl_managed_alloc(struct vgpu_file *vf, void *data);
int vgpu_ioctl_managed_migrate(struct vgpu_file *vf, void *data);
int vgpu_ioctl_managed_query(struct vgpu_file *vf, void *data);
int vgpu_ioctl_managed_advise(struct vgpu_file *vf, void *data);
int vgpu_ioctl_fw_mmu_fault(struct vgpu_file *vf, void *data);
int vgpu_managed_map(struct vgpu_ctx *ctx, struct vgpu_mapping *m);
void vgpu_managed_unmap(struct vgpu_ctx *ctx, struct vgpu_mapping *m);
void vgpu_managed_detach(struct vgpu_mapping *m);
u64 vgpu_managed_pte(const struct vgpu_mapping *m, u64 off);
void vgpu_managed_release(struct vgpu_bo *bo);
void vgpu_managed_dev_init(struct vgpu_dev *dev);
bool vgpu_managed_make_room(struct vgpu_dev *dev);
int vgpu_managed_mmap(struct vgpu_bo *bo, struct vm_area_struct *vma,
		      unsigned long first);
extern const struct attribute_group vgpu_managed_sysfs_group;

/* vgpu_ctx.c */
int vgpu_ioctl_ctx_create(struct vgpu_file *vf, void *data);
int vgpu_ioctl_ctx_destroy(struct vgpu_file *vf, void *data);
int vgpu_ioctl_ctx_status(struct vgpu_file *vf, void *data);
struct vgpu_ctx *vgpu_ctx_lookup(struct vgpu_file *vf, u32 handle);
void vgpu_ctx_put(struct vgpu_ctx *ctx);
void vgpu_ctx_free_work(struct work_struct *work);
void vgpu_ctx_reap(struct vgpu_dev *dev);
int vgpu_ctx_destroy(struct vgpu_file *vf, struct vgpu_ctx *ctx);
int vgpu_ctx_usable(struct vgpu_ctx *ctx);
void vgpu_ctx_kill(struct vgpu_ctx *ctx, const struct vgpu_fault *fault,
		   u32 state);

/* vgpu_queue.c */
int vgpu_ioctl_queue_create(struct vgpu_file *vf, void *data);
int vgpu_ioctl_queue_destroy(struct vgpu_file *vf, void *data);
int vgpu_ioctl_queue_kick(struct vgpu_file *vf, void *data);
int vgpu_ioctl_wait(struct vgpu_file *vf, void *data);
int vgpu_ioctl_queue_eventfd(struct vgpu_file *vf, void *data);
struct vgpu_queue *vgpu_queue_lookup(struct vgpu_file *vf, u32 handle);
void vgpu_queue_get(struct vgpu_queue *q);
void vgpu_queue_put(struct vgpu_queue *q);
void vgpu_queue_destroy(struct vgpu_file *vf, struct vgpu_queue *q);
void vgpu_queue_set_error(struct vgpu_queue *q, u32 error);
void vgpu_queue_interrupt(struct vgpu_queue *q);
int vgpu_queue_signal(struct vgpu_queue *q, u64 fence);

/* vgpu_watchdog.c */
int vgpu_ioctl_fw_heartbeat(struct vgpu_file *vf, void *data);
void vgpu_watchdog_work(struct work_struct *work);
void vgpu_watchdog_reset(struct vgpu_dev *dev);

/* vgpu_fw.c: the firmware link (calls into ctx, queue and the mailbox) */
int vgpu_ioctl_fw_attach(struct vgpu_file *vf, void *data);
int vgpu_ioctl_fw_signal(struct vgpu_file *vf, void *data);
int vgpu_ioctl_fw_fault(struct vgpu_file *vf, void *data);
void vgpu_fw_detach(struct vgpu_file *vf);
void vgpu_fw_lose(struct vgpu_dev *dev);
void vgpu_fw_post_config(struct vgpu_dev *dev);

/* vgpu_fw_mbox.c: the mailbox (knows records, not contexts or queues) */
u64 vgpu_fw_post(struct vgpu_dev *dev, struct vgpu_event *e);
void vgpu_fw_cancel(struct vgpu_dev *dev, struct vgpu_event *e);
void vgpu_fw_defer(struct vgpu_dev *dev, struct vgpu_deferred *d, u64 seq);
void vgpu_fw_release_deferred(struct vgpu_dev *dev, u64 seq);
void vgpu_fw_flush_events(struct vgpu_dev *dev);
bool vgpu_fw_is_current(struct vgpu_file *vf);
int vgpu_ioctl_fw_ack(struct vgpu_file *vf, void *data);
ssize_t vgpu_fw_read(struct vgpu_file *vf, char __user *buf, size_t len,
		     bool nonblock);

/* vgpu_mmap.c */
int vgpu_mmap(struct file *file, struct vm_area_struct *vma);
struct vgpu_bo *vgpu_mmap_host_pages(u64 addr, u64 size, bool writable,
				     unsigned long *first);

/* vgpu_sysfs.c, vgpu_debugfs.c */
extern const struct attribute_group *vgpu_sysfs_groups[];
void vgpu_debugfs_init(struct vgpu_dev *dev, struct dentry *root);

#endif /* _VGPU_DRV_H */
