// SPDX-License-Identifier: GPL-2.0
/*
 * From a registration pointer to PTX.
 *
 * nvcc's static constructors call __cudaRegisterFatBinary() with the
 * address of a 24-byte wrapper and nothing else: no length.  The wrapper
 * points at the fatbin container, whose header gives its size.
 *
 * Version 1 wrappers cover one translation unit.  Version 2 wrappers are
 * emitted by the device link step of -rdc=true builds: their container
 * holds only the linked cubins, and the PTX is in each object's
 * "relfatbin", reached through a NULL-terminated array of pointers.  A
 * driver that compiles PTX must take the PTX of every object and link
 * the modules itself (resolving .extern declarations), so we return one
 * module per object.
 */
#include "fatbin.h"
#include "fatbin_format.h"
#include "fatbin_memory.h"
#include "fatbin_set.h"

/* More objects than any link would have: stops a walk through garbage. */
#define FB_MAX_PRELINKED	65536

/* Best PTX of the single container at @data, appended to @set. */
static int add_container_ptx(const void *data,
			     const struct vgpu_fatbin_target *target,
			     struct vgpu_fatbin_ptx_set *set)
{
	struct vgpu_fatbin_entry best;
	size_t size;
	int ret;

	if (!data)
		return VGPU_FATBIN_EHEADER;
	if (!fatbin_mapped(data, FB_CONTAINER_HDR_SIZE))
		return VGPU_FATBIN_EFAULT;
	ret = vgpu_fatbin_container_size(data, VGPU_FATBIN_MAX_SIZE, &size);
	if (ret)
		return ret;
	/* the size is the data's own claim: make sure it is all there */
	if (!fatbin_mapped(data, size))
		return VGPU_FATBIN_EFAULT;
	ret = vgpu_fatbin_select_ptx(data, size, 0, target, &best);
	if (ret)
		return ret;
	return fatbin_set_add_entry(set, &best);
}

static int add_prelinked_ptx(const void *array,
			     const struct vgpu_fatbin_target *target,
			     struct vgpu_fatbin_ptx_set *set)
{
	const uint8_t *slot = array;

	if (!array)
		return VGPU_FATBIN_EHEADER;
	for (unsigned int i = 0; i < FB_MAX_PRELINKED; i++) {
		const void *relfatbin;
		int ret;

		if (!fatbin_mapped(slot + i * sizeof(void *), sizeof(void *)))
			return VGPU_FATBIN_EFAULT;
		relfatbin = fb_read_ptr(slot + i * sizeof(void *));
		if (!relfatbin)
			return i ? VGPU_FATBIN_OK : VGPU_FATBIN_ENOPTX;
		ret = add_container_ptx(relfatbin, target, set);
		if (ret)
			return ret;
	}
	return VGPU_FATBIN_ETOOBIG;
}

int vgpu_fatbin_ptx_from_wrapper(const void *wrapper,
				 const struct vgpu_fatbin_target *target,
				 struct vgpu_fatbin_ptx_set *set)
{
	const uint8_t *w = wrapper;
	int ret;

	if (!set)
		return VGPU_FATBIN_EINVAL;
	*set = (struct vgpu_fatbin_ptx_set){ 0 };
	if (!wrapper || !target)
		return VGPU_FATBIN_EINVAL;
	if (!fatbin_mapped(wrapper, FB_WRAPPER_SIZE))
		return VGPU_FATBIN_EFAULT;
	if (fb_le32(w + FB_WRAPPER_OFF_MAGIC) != FB_WRAPPER_MAGIC)
		return VGPU_FATBIN_EMAGIC;

	switch (fb_le32(w + FB_WRAPPER_OFF_VERSION)) {
	case 1:
		ret = add_container_ptx(fb_read_ptr(w + FB_WRAPPER_OFF_DATA),
					target, set);
		break;
	case 2:
		ret = add_prelinked_ptx(fb_read_ptr(w + FB_WRAPPER_OFF_PRELINK),
					target, set);
		break;
	default:
		ret = VGPU_FATBIN_EVERSION;
	}
	if (ret)
		vgpu_fatbin_ptx_set_free(set);
	return ret;
}
