/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Finding the fatbinary sections of an ELF file on disk.
 *
 * nvcc puts device code in three sections of the host object:
 *
 *   .nv_fatbin         the fatbin containers (one per translation unit
 *                      once linked); for -rdc=true builds, the device
 *                      link step's linked cubins
 *   __nv_relfatbin     -rdc=true objects: containers with PTX and
 *                      relocatable cubins, to be linked
 *   .nvFatBinSegment   the 24-byte wrappers passed to registration
 *
 * The reader works on a buffer holding the whole file (e.g. mmap()ed) and
 * checks every header offset and size against it.  Only 64-bit
 * little-endian ELF is accepted: that is what nvcc produces on x86-64 and
 * aarch64 Linux.
 */
#ifndef VGPU_ELF_SECTIONS_H
#define VGPU_ELF_SECTIONS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct vgpu_elf {
	const uint8_t *base;
	size_t size;
	size_t shoff;			/* section header table */
	size_t shnum;
	const char *strtab;		/* section names */
	size_t strtab_size;
};

struct vgpu_elf_section {
	const char *name;		/* NUL-terminated, inside the file */
	const uint8_t *data;		/* NULL for sections without file data */
	size_t size;
	size_t offset;			/* in the file */
	uint64_t addr;			/* virtual address (0 in .o files) */
};

/* Check the ELF header and section table of @size bytes at @data. */
int vgpu_elf_open(struct vgpu_elf *elf, const void *data, size_t size);

/* Number of sections (including the null section 0). */
size_t vgpu_elf_section_count(const struct vgpu_elf *elf);

/* Section @index.  Returns 0 or a negative VGPU_FATBIN_E* code. */
int vgpu_elf_section(const struct vgpu_elf *elf, size_t index,
		     struct vgpu_elf_section *section);

/* First section called @name; VGPU_FATBIN_ENOSECTION if none. */
int vgpu_elf_find_section(const struct vgpu_elf *elf, const char *name,
			  struct vgpu_elf_section *section);

/* Whether section @name holds fatbin containers (.nv_fatbin, __nv_relfatbin). */
int vgpu_elf_is_fatbin_section(const char *name);

/*
 * Whether a symbol table of the file defines @name as a global or weak
 * symbol (st_shndx != SHN_UNDEF): 1 if it does, 0 if not, or a negative
 * VGPU_FATBIN_E* code for a malformed table.  Used on cubins, to say
 * which object of a program defines a name that PTX code references.
 */
int vgpu_elf_defines_symbol(const struct vgpu_elf *elf, const char *name);

#ifdef __cplusplus
}
#endif

#endif /* VGPU_ELF_SECTIONS_H */
