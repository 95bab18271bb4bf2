// SPDX-License-Identifier: GPL-2.0
/*
 * Choosing which PTX entry to compile.
 *
 * A fatbin built with several -gencode options holds one PTX entry per
 * virtual architecture.  PTX for compute_XY can be compiled for any GPU
 * of compute capability >= X.Y, so the driver takes the newest one that
 * is not newer than the device (newer PTX may use newer instructions and
 * lets the compiler assume more), and whose ISA version our PTX compiler
 * accepts.  Two kinds of PTX are narrower: compute_90a ("arch-specific")
 * runs only on exactly sm_90, and compute_100f ("family-specific") only
 * on the 10.x family.
 */
#include <stdlib.h>

#include "fatbin.h"
#include "fatbin_set.h"

static int isa_cmp(unsigned int amaj, unsigned int amin,
		   unsigned int bmaj, unsigned int bmin)
{
	if (amaj != bmaj)
		return amaj < bmaj ? -1 : 1;
	if (amin != bmin)
		return amin < bmin ? -1 : 1;
	return 0;
}

int vgpu_fatbin_entry_usable(const struct vgpu_fatbin_entry *e,
			     const struct vgpu_fatbin_target *t)
{
	if (!e || !t || e->kind != VGPU_FATBIN_KIND_PTX || !e->sm_arch)
		return 0;
	if (isa_cmp(e->isa_major, e->isa_minor,
		    t->max_isa_major, t->max_isa_minor) > 0)
		return 0;
	switch (e->scope) {
	case VGPU_FATBIN_SCOPE_FORWARD:
		return e->sm_arch <= t->sm_arch;
	case VGPU_FATBIN_SCOPE_FAMILY:
		return e->sm_arch / 10 == t->sm_arch / 10 &&
		       e->sm_arch <= t->sm_arch;
	case VGPU_FATBIN_SCOPE_EXACT:
		return e->sm_arch == t->sm_arch;
	}
	return 0;
}

int vgpu_fatbin_entry_better(const struct vgpu_fatbin_entry *a,
			     const struct vgpu_fatbin_entry *b)
{
	int isa;

	if (a->sm_arch != b->sm_arch)
		return a->sm_arch > b->sm_arch;
	isa = isa_cmp(a->isa_major, a->isa_minor, b->isa_major, b->isa_minor);
	if (isa)
		return isa > 0;
	/* same target: the narrower PTX may use arch-specific features */
	return a->scope > b->scope;
}

/* Keep @candidate in @best if it is usable and beats what is there. */
static void consider(const struct vgpu_fatbin_entry *candidate,
		     const struct vgpu_fatbin_target *t,
		     struct vgpu_fatbin_entry *best, int *found)
{
	if (!vgpu_fatbin_entry_usable(candidate, t))
		return;
	if (*found && !vgpu_fatbin_entry_better(candidate, best))
		return;
	*best = *candidate;
	*found = 1;
}

int vgpu_fatbin_select_ptx(const void *data, size_t size, int container,
			   const struct vgpu_fatbin_target *target,
			   struct vgpu_fatbin_entry *best)
{
	struct vgpu_fatbin_entry e;
	struct vgpu_fatbin_iter it;
	int found = 0, ret;

	if (!target || !best)
		return VGPU_FATBIN_EINVAL;
	ret = vgpu_fatbin_iter_init(&it, data, size);
	while (!ret) {
		ret = vgpu_fatbin_iter_next(&it, &e);
		if (!ret && (container < 0 || e.container == (unsigned)container))
			consider(&e, target, best, &found);
	}
	if (ret != VGPU_FATBIN_END)
		return ret;
	return found ? VGPU_FATBIN_OK : VGPU_FATBIN_ENOPTX;
}

int vgpu_fatbin_ptx_from_image(const void *data, size_t size,
			       const struct vgpu_fatbin_target *target,
			       struct vgpu_fatbin_ptx_set *set)
{
	struct vgpu_fatbin_entry e, best;
	struct vgpu_fatbin_iter it;
	unsigned int current = 0;
	int found = 0, ret;

	if (!set)
		return VGPU_FATBIN_EINVAL;
	*set = (struct vgpu_fatbin_ptx_set){ 0 };
	if (!target)
		return VGPU_FATBIN_EINVAL;

	/* One pass; the best entry of a container is kept when it ends. */
	ret = vgpu_fatbin_iter_init(&it, data, size);
	while (!ret) {
		ret = vgpu_fatbin_iter_next(&it, &e);
		if (!ret && e.container == current) {
			consider(&e, target, &best, &found);
			continue;
		}
		/* a container is finished: by a new one, or by the end */
		if (found && ret >= 0) {
			int err = fatbin_set_add_entry(set, &best);

			if (err)
				ret = err;
		}
		found = 0;
		if (!ret) {
			current = e.container;
			consider(&e, target, &best, &found);
		}
	}
	if (ret == VGPU_FATBIN_END && !set->count)
		ret = VGPU_FATBIN_ENOPTX;
	if (ret != VGPU_FATBIN_END) {
		vgpu_fatbin_ptx_set_free(set);
		return ret;
	}
	return VGPU_FATBIN_OK;
}
