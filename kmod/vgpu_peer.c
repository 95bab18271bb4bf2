// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_peer.c - one device's firmware reaching another device's VRAM
 *
 * Every device's VRAM is memory of this one kernel, so nothing physical
 * stands between device 1's engines and device 0's pages: peer access
 * needs a name for them in device 1's page tables and a way for device 1's
 * firmware to reach them.
 *
 * - The name: VGPU_IOCTL_MEM_IMPORT of device 0's VRAM object into a file
 *   of device 1 gives a *peer handle* (vgpu_share.c), and VGPU_IOCTL_MAP of
 *   it writes PEER PTEs: aperture 2, the owner's index N and the offset in
 *   its VRAM (vgpu_mmu.c, vgpu_hw.h).  The handle and each mapping hold the
 *   object, so its VRAM is not freed while device 1 may still reach it;
 *   the object holds its device only through the module (every file of
 *   any device pins the module, and devices die with it).
 *
 * - The reach: device 1's firmware asks VGPU_IOCTL_FW_PEER for device 0's
 *   VRAM and maps it on its own file, at an mmap offset of kind
 *   VGPU_MMAP_FW_PEER_VRAM whose id is 0.  Faults are filled with device
 *   0's pages (vgpu_vram_fault()); when device 0 frees VRAM, the pages
 *   are zapped from every other firmware's view as well as its own
 *   (vgpu_peer_zap()), and a firmware that is detached loses its peer
 *   views with the rest of its mappings.
 *
 *    device 1's firmware                       device 0's firmware
 *    mmap(fd1, FW_PEER_VRAM|0)                 mmap(fd0, FW_VRAM)
 *          \                                         /
 *           +---> the same struct page of VRAM 0 <--+
 *
 * One firmware per device stays the rule (the alternative, one firmware
 * serving both devices, would tie their failures together: a hang of one
 * would take the other).  vgpu_peer_lock orders the views: it is taken
 * inside any device's vram.lock, and guards every device's fw_map_file and
 * fw_mapping as the peers see them.
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mutex.h>

#include "vgpu_drv.h"

/* Guards every device's fw_map_file and fw_mapping as peers read them. */
DEFINE_MUTEX(vgpu_peer_lock);

int vgpu_ioctl_fw_peer(struct vgpu_file *vf, void *data)
{
	struct vgpu_fw_peer *args = data;
	struct vgpu_dev *peer;

	if (args->flags)
		return vgpu_refuse(vf->dev, -EINVAL,
				   "FW_PEER: flags 0x%x: none defined",
				   args->flags);
	if (!READ_ONCE(vf->is_fw))
		return vgpu_refuse(vf->dev, -EPERM,
				   "FW_PEER: not the firmware's file");
	if (!vgpu_fw_is_current(vf))
		return vgpu_refuse(vf->dev, -ENODEV,
				   "FW_PEER: this firmware was detached");
	peer = vgpu_dev_by_index(args->index);
	if (!peer || peer == vf->dev)
		return vgpu_refuse(vf->dev, -ENODEV,
				   "FW_PEER: index %u: no such peer device",
				   args->index);
	args->vram_size = (u64)peer->vram.npages << PAGE_SHIFT;
	args->vram_offset = vgpu_mmap_offset(VGPU_MMAP_FW_PEER_VRAM,
					     args->index);
	return 0;
}

static vm_fault_t vgpu_peer_vram_fault(struct vm_fault *vmf)
{
	struct vgpu_file *vf = vmf->vma->vm_file->private_data;

	return vgpu_vram_fault(vmf->vma->vm_private_data, vf->dev, vmf,
			       vmf->pgoff & (VGPU_MMAP_OFF_MASK >> PAGE_SHIFT));
}

static const struct vm_operations_struct vgpu_peer_vram_vm_ops = {
	.fault = vgpu_peer_vram_fault,
};

/**
 * vgpu_peer_mmap() - map device @index's VRAM into its peer's firmware
 * @vf: the firmware's file (checked by the caller).
 * @vma: the mapping.
 * @index: N of the peer.
 * @first: first 4 KiB page of the peer's VRAM.
 *
 * The caller makes the VMA a PFN mapping, as for the VRAM aperture.
 *
 * Return: 0 or a negative errno.
 */
int vgpu_peer_mmap(struct vgpu_file *vf, struct vm_area_struct *vma,
		   u32 index, unsigned long first)
{
	struct vgpu_dev *peer = vgpu_dev_by_index(index);
	unsigned long size;

	if (!peer || peer == vf->dev)
		return vgpu_refuse(vf->dev, -EINVAL,
				   "mmap: peer index %u: no such peer device",
				   index);
	size = peer->vram.npages;
	if (first >= size || vma_pages(vma) > size - first)
		return vgpu_refuse(vf->dev, -EINVAL,
				   "mmap: pages [%lu, +%lu) past the peer's %lu",
				   first, vma_pages(vma), size);
	vma->vm_private_data = peer;
	vma->vm_ops = &vgpu_peer_vram_vm_ops;
	return 0;
}

/**
 * vgpu_peer_zap() - take freed VRAM of @dev away from the other firmwares
 * @dev: the device whose VRAM is freed; its vram.lock held.
 * @offset: first byte.
 * @size: bytes.
 */
void vgpu_peer_zap(struct vgpu_dev *dev, u64 offset, u64 size)
{
	unsigned int i;

	lockdep_assert_held(&dev->vram.lock);
	mutex_lock(&vgpu_peer_lock);
	for (i = 0; i < VGPU_MAX_DEVICES; i++) {
		struct vgpu_dev *other = vgpu_dev_by_index(i);

		if (other && other != dev && other->fw_mapping)
			unmap_mapping_range(other->fw_mapping,
					    vgpu_mmap_offset(VGPU_MMAP_FW_PEER_VRAM,
							     dev->index) + offset,
					    size, 1);
	}
	mutex_unlock(&vgpu_peer_lock);
}
