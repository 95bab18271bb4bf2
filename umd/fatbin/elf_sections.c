// SPDX-License-Identifier: GPL-2.0
/*
 * A minimal, defensive ELF64 section reader.
 *
 * Headers are copied out with memcpy() because a malformed file may put
 * them at unaligned offsets.  The two escape hatches of the format for
 * files with many sections are honoured: e_shnum == 0 means the count is
 * in section 0's sh_size, and e_shstrndx == SHN_XINDEX means the index of
 * the name table is in section 0's sh_link.
 */
#include <elf.h>
#include <string.h>

#include "elf_sections.h"
#include "fatbin.h"

static int read_shdr(const struct vgpu_elf *elf, size_t index, Elf64_Shdr *sh)
{
	if (index >= elf->shnum)
		return VGPU_FATBIN_EINVAL;
	memcpy(sh, elf->base + elf->shoff + index * sizeof(*sh), sizeof(*sh));
	return VGPU_FATBIN_OK;
}

/* Bytes [off, off + len) of the file, or an error if outside it. */
static int in_file(const struct vgpu_elf *elf, uint64_t off, uint64_t len)
{
	return off <= elf->size && len <= elf->size - off;
}

static int find_section_table(struct vgpu_elf *elf, const Elf64_Ehdr *eh,
			      size_t *strndx)
{
	Elf64_Shdr first;

	if (!eh->e_shoff)
		return VGPU_FATBIN_ENOSECTION;
	if (eh->e_shentsize != sizeof(Elf64_Shdr))
		return VGPU_FATBIN_EHEADER;
	if (!in_file(elf, eh->e_shoff, sizeof(first)))
		return VGPU_FATBIN_ETRUNCATED;
	memcpy(&first, elf->base + eh->e_shoff, sizeof(first));

	elf->shoff = eh->e_shoff;
	elf->shnum = eh->e_shnum ? eh->e_shnum : first.sh_size;
	*strndx = eh->e_shstrndx == SHN_XINDEX ? first.sh_link : eh->e_shstrndx;
	if (elf->shnum > (elf->size - elf->shoff) / sizeof(Elf64_Shdr))
		return VGPU_FATBIN_ETRUNCATED;
	return VGPU_FATBIN_OK;
}

int vgpu_elf_open(struct vgpu_elf *elf, const void *data, size_t size)
{
	Elf64_Shdr names;
	Elf64_Ehdr eh;
	size_t strndx;
	int ret;

	if (!elf || !data)
		return VGPU_FATBIN_EINVAL;
	*elf = (struct vgpu_elf){ .base = data, .size = size };
	if (size < sizeof(eh))
		return VGPU_FATBIN_ENOTELF;
	memcpy(&eh, data, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return VGPU_FATBIN_ENOTELF;

	ret = find_section_table(elf, &eh, &strndx);
	if (ret)
		return ret;
	if (read_shdr(elf, strndx, &names))
		return VGPU_FATBIN_EHEADER;
	if (names.sh_type != SHT_STRTAB ||
	    !in_file(elf, names.sh_offset, names.sh_size))
		return VGPU_FATBIN_EHEADER;
	elf->strtab = (const char *)elf->base + names.sh_offset;
	elf->strtab_size = names.sh_size;
	return VGPU_FATBIN_OK;
}

size_t vgpu_elf_section_count(const struct vgpu_elf *elf)
{
	return elf ? elf->shnum : 0;
}

int vgpu_elf_section(const struct vgpu_elf *elf, size_t index,
		     struct vgpu_elf_section *out)
{
	const char *name;
	Elf64_Shdr sh;

	if (!elf || !out || read_shdr(elf, index, &sh))
		return VGPU_FATBIN_EINVAL;
	/* the name must be a NUL-terminated string inside the name table */
	if (sh.sh_name >= elf->strtab_size)
		return VGPU_FATBIN_EHEADER;
	name = elf->strtab + sh.sh_name;
	if (!memchr(name, '\0', elf->strtab_size - sh.sh_name))
		return VGPU_FATBIN_EHEADER;

	*out = (struct vgpu_elf_section){
		.name = name,
		.addr = sh.sh_addr,
	};
	if (sh.sh_type == SHT_NOBITS || sh.sh_type == SHT_NULL)
		return VGPU_FATBIN_OK;
	if (!in_file(elf, sh.sh_offset, sh.sh_size))
		return VGPU_FATBIN_ETRUNCATED;
	out->data = elf->base + sh.sh_offset;
	out->size = sh.sh_size;
	out->offset = sh.sh_offset;
	return VGPU_FATBIN_OK;
}

int vgpu_elf_find_section(const struct vgpu_elf *elf, const char *name,
			  struct vgpu_elf_section *out)
{
	size_t n = vgpu_elf_section_count(elf);

	if (!name || !out)
		return VGPU_FATBIN_EINVAL;
	for (size_t i = 1; i < n; i++) {
		int ret = vgpu_elf_section(elf, i, out);

		if (ret)
			return ret;
		if (!strcmp(out->name, name))
			return VGPU_FATBIN_OK;
	}
	return VGPU_FATBIN_ENOSECTION;
}

int vgpu_elf_is_fatbin_section(const char *name)
{
	return name && (!strcmp(name, ".nv_fatbin") ||
			!strcmp(name, "__nv_relfatbin"));
}

/* Whether symbol table section @sh (with string table @strs) defines @name. */
static int symtab_defines(const struct vgpu_elf *elf, const Elf64_Shdr *sh,
			  const Elf64_Shdr *strs, const char *name)
{
	size_t n, len = strlen(name);

	if (sh->sh_entsize != sizeof(Elf64_Sym) ||
	    !in_file(elf, sh->sh_offset, sh->sh_size) ||
	    strs->sh_type != SHT_STRTAB ||
	    !in_file(elf, strs->sh_offset, strs->sh_size))
		return VGPU_FATBIN_EHEADER;
	n = sh->sh_size / sizeof(Elf64_Sym);
	for (size_t i = 1; i < n; i++) {
		unsigned char bind;
		Elf64_Sym sym;

		memcpy(&sym, elf->base + sh->sh_offset + i * sizeof(sym),
		       sizeof(sym));
		bind = ELF64_ST_BIND(sym.st_info);
		if ((bind != STB_GLOBAL && bind != STB_WEAK) ||
		    sym.st_shndx == SHN_UNDEF)
			continue;
		/* the name, with its NUL, must lie inside the string table */
		if (sym.st_name >= strs->sh_size ||
		    strs->sh_size - sym.st_name <= len)
			continue;
		if (!memcmp(elf->base + strs->sh_offset + sym.st_name, name,
			    len + 1))
			return 1;
	}
	return 0;
}

int vgpu_elf_defines_symbol(const struct vgpu_elf *elf, const char *name)
{
	if (!elf || !name)
		return VGPU_FATBIN_EINVAL;
	for (size_t i = 1; i < elf->shnum; i++) {
		Elf64_Shdr sh, strs;
		int ret;

		read_shdr(elf, i, &sh);
		if (sh.sh_type != SHT_SYMTAB)
			continue;
		if (read_shdr(elf, sh.sh_link, &strs))
			return VGPU_FATBIN_EHEADER;
		ret = symtab_defines(elf, &sh, &strs, name);
		if (ret)
			return ret;
	}
	return 0;
}
