// SPDX-License-Identifier: GPL-2.0
/* The list of PTX modules returned to the driver. */
#include <stdlib.h>

#include "fatbin_set.h"

int fatbin_set_add_entry(struct vgpu_fatbin_ptx_set *set,
			 const struct vgpu_fatbin_entry *entry)
{
	struct vgpu_fatbin_ptx *grown, *m;
	size_t len;
	char *text;
	int ret;

	if (entry->kind != VGPU_FATBIN_KIND_PTX)
		return VGPU_FATBIN_ENOTPTX;
	ret = vgpu_fatbin_entry_extract(entry, &text, &len);
	if (ret)
		return ret;
	grown = realloc(set->modules, (set->count + 1) * sizeof(*grown));
	if (!grown) {
		free(text);
		return VGPU_FATBIN_ENOMEM;
	}
	set->modules = grown;
	m = &set->modules[set->count++];
	*m = (struct vgpu_fatbin_ptx){
		.text = text,
		.len = len,
		.sm_arch = entry->sm_arch,
		.isa_major = entry->isa_major,
		.isa_minor = entry->isa_minor,
	};
	return VGPU_FATBIN_OK;
}

void vgpu_fatbin_ptx_set_free(struct vgpu_fatbin_ptx_set *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < set->count; i++)
		free(set->modules[i].text);
	free(set->modules);
	*set = (struct vgpu_fatbin_ptx_set){ 0 };
}
