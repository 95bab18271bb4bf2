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
 * module per object.  An object may have no PTX for this device (nvcc
 * links NVIDIA's device runtime, whose only PTX is for the newest GPUs,
 * into every such program): it is skipped and remembered, so that a
 * reference to one of its names can be explained.
 */
#include <stdio.h>

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

/*
 * Describe relocatable object @index at @data (a container of @size
 * bytes) that has no usable PTX, and remember it in @set: its entries,
 * for the message, and one cubin, to tell later which names it defines.
 */
static int add_skipped(const void *data, size_t size, unsigned int index,
		       struct vgpu_fatbin_ptx_set *set)
{
	struct vgpu_fatbin_skipped skipped = { .object = index };
	struct vgpu_fatbin_entry e;
	struct vgpu_fatbin_iter it;
	char list[512] = "";
	size_t used = 0;
	int ret;

	ret = vgpu_fatbin_iter_init(&it, data, size);
	while (!ret && (ret = vgpu_fatbin_iter_next(&it, &e)) == 0) {
		const char *kind = e.kind == VGPU_FATBIN_KIND_PTX ? "compute" :
				   e.kind == VGPU_FATBIN_KIND_LTOIR ? "lto" :
				   "sm";

		if (e.kind == VGPU_FATBIN_KIND_ELF && !skipped.cubin.kind)
			skipped.cubin = e;
		if (used < sizeof(list))
			used += (size_t)snprintf(list + used, sizeof(list) - used,
						 "%s%s_%u", used ? " " : "",
						 kind, e.sm_arch);
	}
	if (ret != VGPU_FATBIN_END)
		return ret;
	return fatbin_set_add_skipped(set, &skipped, list);
}

/*
 * The PTX of every object of a device-linked program.  Objects without
 * usable PTX are skipped (see struct vgpu_fatbin_skipped): the program
 * fails only if its PTX needs one of them, and the linker says which.
 */
static int add_prelinked_ptx(const void *array,
			     const struct vgpu_fatbin_target *target,
			     struct vgpu_fatbin_ptx_set *set)
{
	const uint8_t *slot = array;

	if (!array)
		return VGPU_FATBIN_EHEADER;
	for (unsigned int i = 0; i < FB_MAX_PRELINKED; i++) {
		const void *relfatbin;
		size_t size;
		int ret;

		if (!fatbin_mapped(slot + i * sizeof(void *), sizeof(void *)))
			return VGPU_FATBIN_EFAULT;
		relfatbin = fb_read_ptr(slot + i * sizeof(void *));
		if (!relfatbin)
			return set->count ? VGPU_FATBIN_OK : VGPU_FATBIN_ENOPTX;
		ret = add_container_ptx(relfatbin, target, set);
		if (ret != VGPU_FATBIN_ENOPTX) {
			if (ret)
				return ret;
			continue;
		}
		/* add_container_ptx() checked that it is all mapped */
		ret = vgpu_fatbin_container_size(relfatbin,
						 VGPU_FATBIN_MAX_SIZE, &size);
		if (!ret)
			ret = add_skipped(relfatbin, size, i, set);
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
