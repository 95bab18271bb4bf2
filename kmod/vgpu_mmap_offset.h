/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgpu_mmap_offset.h - the mmap offset: which object a mapping names
 *
 * The file offset passed to mmap() names the thing to map, like DRM's
 * "fake offsets" and KFD's doorbell offsets: the ioctls that create a
 * mappable object return its offset, and user space passes it to mmap()
 * unchanged.  The offset is a small object of its own, encoded here and
 * nowhere else: the objects that hand one out (memory objects, queues,
 * the firmware's VRAM and GART windows) encode it with vgpu_mmap_offset(),
 * and vgpu_mmap.c decodes it, so neither needs the other.
 *
 *   63  62 ........ 58 57 ............... 36 35 .................. 0
 *  +---+--------------+----------------------+----------------------+
 *  | 0 |     kind     | handle or device id  | byte offset in the   |
 *  |   | vgpu_mmap_   | (VGPU_MMAP_ID_BITS)  | object               |
 *  |   | kind         |                      |                      |
 *  +---+--------------+----------------------+----------------------+
 */
#ifndef _VGPU_MMAP_OFFSET_H
#define _VGPU_MMAP_OFFSET_H

#include <linux/types.h>
#include <linux/xarray.h>

/* mmap offset kinds (bits 62..58 of the byte offset) */
enum vgpu_mmap_kind {
	VGPU_MMAP_HOST_BO = 1,
	VGPU_MMAP_RING = 2,
	VGPU_MMAP_DOORBELL = 3,
	VGPU_MMAP_FENCE = 4,
	VGPU_MMAP_MANAGED = 5,
	VGPU_MMAP_FW_VRAM = 8,
	VGPU_MMAP_FW_GART = 9,
	VGPU_MMAP_FW_RING = 10,
	VGPU_MMAP_FW_DOORBELL = 11,
};

#define VGPU_MMAP_KIND_SHIFT	58
#define VGPU_MMAP_ID_SHIFT	36
#define VGPU_MMAP_ID_BITS	22
#define VGPU_MMAP_ID_MASK	((1ULL << VGPU_MMAP_ID_BITS) - 1)
#define VGPU_MMAP_OFF_MASK	((1ULL << VGPU_MMAP_ID_SHIFT) - 1)

/* Handles of mappable objects fit in the id field. */
#define VGPU_HANDLE_LIMIT	XA_LIMIT(1, (1U << VGPU_MMAP_ID_BITS) - 1)

/**
 * vgpu_mmap_offset() - the mmap offset of an object
 * @kind: enum vgpu_mmap_kind.
 * @id: handle or device-wide id.
 *
 * Return: the byte offset to pass to mmap().
 */
static inline u64 vgpu_mmap_offset(unsigned int kind, u32 id)
{
	return (u64)kind << VGPU_MMAP_KIND_SHIFT |
	       (u64)id << VGPU_MMAP_ID_SHIFT;
}

#endif /* _VGPU_MMAP_OFFSET_H */
