// SPDX-License-Identifier: GPL-2.0
/* The list of PTX modules returned to the driver. */
#include <stdlib.h>
#include <string.h>

#include "elf_sections.h"
#include "fatbin_set.h"

int vgpu_fatbin_ptx_set_append(struct vgpu_fatbin_ptx_set *set,
			       const struct vgpu_fatbin_ptx *module)
{
	struct vgpu_fatbin_ptx *grown;

	grown = realloc(set->modules, (set->count + 1) * sizeof(*grown));
	if (!grown) {
		free(module->text);
		return VGPU_FATBIN_ENOMEM;
	}
	set->modules = grown;
	grown[set->count++] = *module;
	return VGPU_FATBIN_OK;
}

int fatbin_set_add_entry(struct vgpu_fatbin_ptx_set *set,
			 const struct vgpu_fatbin_entry *entry)
{
	struct vgpu_fatbin_ptx m = {
		.sm_arch = entry->sm_arch,
		.isa_major = entry->isa_major,
		.isa_minor = entry->isa_minor,
	};
	int ret;

	if (entry->kind != VGPU_FATBIN_KIND_PTX)
		return VGPU_FATBIN_ENOTPTX;
	ret = vgpu_fatbin_entry_extract(entry, &m.text, &m.len);
	if (ret)
		return ret;
	return vgpu_fatbin_ptx_set_append(set, &m);
}

int fatbin_set_add_skipped(struct vgpu_fatbin_ptx_set *set,
			   const struct vgpu_fatbin_skipped *skipped,
			   const char *contents)
{
	struct vgpu_fatbin_skipped *grown;
	char *copy = strdup(contents);

	if (!copy)
		return VGPU_FATBIN_ENOMEM;
	grown = realloc(set->skipped, (set->nskipped + 1) * sizeof(*grown));
	if (!grown) {
		free(copy);
		return VGPU_FATBIN_ENOMEM;
	}
	set->skipped = grown;
	grown[set->nskipped] = *skipped;
	grown[set->nskipped++].contents = copy;
	return VGPU_FATBIN_OK;
}

/* Whether the cubin of @s defines @name (0 on any error: it is a hint). */
static int skipped_defines(const struct vgpu_fatbin_skipped *s,
			   const char *name)
{
	struct vgpu_elf elf;
	size_t size;
	char *cubin;
	int found = 0;

	if (s->cubin.kind != VGPU_FATBIN_KIND_ELF ||
	    vgpu_fatbin_entry_extract(&s->cubin, &cubin, &size))
		return 0;
	if (!vgpu_elf_open(&elf, cubin, size))
		found = vgpu_elf_defines_symbol(&elf, name) == 1;
	free(cubin);
	return found;
}

const struct vgpu_fatbin_skipped *
vgpu_fatbin_skipped_defining(const struct vgpu_fatbin_ptx_set *set,
			     const char *name)
{
	if (!set || !name)
		return NULL;
	for (size_t i = 0; i < set->nskipped; i++)
		if (skipped_defines(&set->skipped[i], name))
			return &set->skipped[i];
	return NULL;
}

void vgpu_fatbin_ptx_set_free(struct vgpu_fatbin_ptx_set *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < set->count; i++)
		free(set->modules[i].text);
	free(set->modules);
	for (size_t i = 0; i < set->nskipped; i++)
		free(set->skipped[i].contents);
	free(set->skipped);
	*set = (struct vgpu_fatbin_ptx_set){ 0 };
}
