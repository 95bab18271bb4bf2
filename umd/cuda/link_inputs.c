// SPDX-License-Identifier: GPL-2.0
/*
 * link_inputs.c - what each kind of cuLinkAddData input contributes.
 *
 * Our GPU runs PTX compiled by this library, so every input comes down
 * to PTX modules (or, for a CUBIN input, a vISA image that is already
 * linked):
 *
 *   CU_JIT_INPUT_PTX        the text itself
 *   CU_JIT_INPUT_FATBINARY  the best PTX entry of each container
 *   CU_JIT_INPUT_OBJECT     a host ELF object: its __nv_relfatbin section
 *                           (nvcc -dc) or else its .nv_fatbin section
 *   CU_JIT_INPUT_LIBRARY    an ar archive of such objects
 *   CU_JIT_INPUT_CUBIN      our vISA image; NVIDIA's cubins hold SASS for
 *                           real GPUs, of no use here
 *
 * NVIDIA's linker takes from a library only the members that resolve a
 * symbol; here every member with device code is linked, so two members
 * defining the same symbol are a link error here and not on real CUDA.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"
#include "link.h"
#include "fatbin/elf_sections.h"
#include "fatbin/fatbin.h"

#define CU_LINK_FATBIN_MAGIC	0xBA55ED50u
#define CU_LINK_ELF_MAGIC	0x464c457fu	/* "\x7fELF" */

static const struct vgpu_fatbin_target cu_link_target = {
	.sm_arch = CU_CC_MAJOR * 10 + CU_CC_MINOR,
	.max_isa_major = 9,
	.max_isa_minor = 0,
};

static uint32_t cu_link_le32(const void *p, size_t size)
{
	uint32_t v = 0;

	if (size >= sizeof(v))
		memcpy(&v, p, sizeof(v));
	return v;
}

void cu_link_modules_free(struct cu_link_modules *m)
{
	for (size_t i = 0; i < m->count; i++) {
		free(m->mods[i].name);
		free(m->mods[i].text);
	}
	free(m->mods);
	free(m->visa);
	memset(m, 0, sizeof(*m));
}

/* Append a module; takes @text (malloc()ed) whatever happens. */
static CUresult cu_link_push(struct cu_link_modules *out, const char *name,
			     char *text, size_t len)
{
	struct cu_link_module *mods;

	mods = realloc(out->mods, (out->count + 1) * sizeof(*mods));
	if (!mods) {
		free(text);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	out->mods = mods;
	mods[out->count].name = strdup(name);
	if (!mods[out->count].name) {
		free(text);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	mods[out->count].text = text;
	mods[out->count].len = len;
	out->count++;
	return CUDA_SUCCESS;
}

/* The PTX of each container of a fatbinary of @size bytes. */
static CUresult cu_link_fatbin(const void *data, size_t size,
			       const char *name, struct cu_link_modules *out,
			       struct cu_jit_text *error)
{
	struct vgpu_fatbin_ptx_set set = { 0 };
	CUresult res = CUDA_SUCCESS;
	char mod_name[256];
	int ret;

	ret = vgpu_fatbin_ptx_from_image(data, size, &cu_link_target, &set);
	if (ret == VGPU_FATBIN_ENOPTX) {
		cu_jit_text_add(error, "error   : '%s' holds no PTX usable on sm_%u%u: vGPU cannot run NVIDIA SASS",
				name, CU_CC_MAJOR, CU_CC_MINOR);
		return CUDA_ERROR_NO_BINARY_FOR_GPU;
	}
	if (ret == VGPU_FATBIN_ENOMEM)
		return CUDA_ERROR_OUT_OF_MEMORY;
	if (ret) {
		cu_jit_text_add(error, "error   : '%s' is not a valid fatbinary: %s",
				name, vgpu_fatbin_strerror(ret));
		return CUDA_ERROR_INVALID_IMAGE;
	}
	for (size_t i = 0; i < set.count && res == CUDA_SUCCESS; i++) {
		if (set.count > 1)
			snprintf(mod_name, sizeof(mod_name), "%s[%zu]", name, i);
		else
			snprintf(mod_name, sizeof(mod_name), "%s", name);
		res = cu_link_push(out, mod_name, set.modules[i].text,
				   set.modules[i].len);
		set.modules[i].text = NULL;	/* now @out's */
	}
	vgpu_fatbin_ptx_set_free(&set);
	return res;
}

/*
 * The device code of a host object: the relocatable fatbin of nvcc -dc
 * if there is one, else the whole-program one.  An object without device
 * code contributes nothing (*@found false).
 */
static CUresult cu_link_object(const void *data, size_t size,
			       const char *name, struct cu_link_modules *out,
			       struct cu_jit_text *error, bool *found)
{
	static const char *const sections[] = { "__nv_relfatbin", ".nv_fatbin" };
	struct vgpu_elf_section sec;
	struct vgpu_elf elf;
	size_t i;
	int ret;

	*found = false;
	ret = vgpu_elf_open(&elf, data, size);
	if (ret) {
		cu_jit_text_add(error, "error   : '%s' is not a host object: %s",
				name, vgpu_fatbin_strerror(ret));
		return CUDA_ERROR_INVALID_IMAGE;
	}
	for (i = 0; i < sizeof(sections) / sizeof(sections[0]); i++) {
		ret = vgpu_elf_find_section(&elf, sections[i], &sec);
		if (ret == VGPU_FATBIN_ENOSECTION)
			continue;
		if (ret || !sec.data) {
			cu_jit_text_add(error, "error   : '%s': bad %s section: %s",
					name, sections[i],
					vgpu_fatbin_strerror(ret));
			return CUDA_ERROR_INVALID_IMAGE;
		}
		*found = true;
		return cu_link_fatbin(sec.data, sec.size, name, out, error);
	}
	return CUDA_SUCCESS;
}

/* ar(1) archive member header: text fields, space padded. */
struct cu_ar_header {
	char name[16];
	char date[12];
	char uid[6];
	char gid[6];
	char mode[8];
	char size[10];
	char magic[2];			/* "`\n" */
};

/* A member's name: "name/" or "/offset" into the long-name table "//". */
static void cu_ar_name(const struct cu_ar_header *h, const char *longnames,
		       size_t longnames_size, char *buf, size_t buflen)
{
	size_t n = 0;

	if (h->name[0] == '/' && h->name[1] >= '0' && h->name[1] <= '9' &&
	    longnames) {
		size_t off = strtoul(h->name + 1, NULL, 10);

		while (off + n < longnames_size && n + 1 < buflen &&
		       longnames[off + n] != '/' && longnames[off + n] != '\n') {
			buf[n] = longnames[off + n];
			n++;
		}
	} else {
		while (n < sizeof(h->name) && n + 1 < buflen &&
		       h->name[n] != '/' && h->name[n] != ' ') {
			buf[n] = h->name[n];
			n++;
		}
	}
	buf[n] = '\0';
}

static CUresult cu_link_library(const uint8_t *data, size_t size,
				const char *name, struct cu_link_modules *out,
				struct cu_jit_text *error)
{
	const char *longnames = NULL;
	size_t longnames_size = 0, off = 8;
	char member[128], full[400];
	bool any = false;

	if (size < 8 || memcmp(data, "!<arch>\n", 8)) {
		cu_jit_text_add(error, "error   : '%s' is not an ar archive",
				name);
		return CUDA_ERROR_INVALID_IMAGE;
	}
	while (off + sizeof(struct cu_ar_header) <= size) {
		const struct cu_ar_header *h = (const void *)(data + off);
		char field[sizeof(h->size) + 1];
		size_t msize;
		const uint8_t *m;
		bool found;
		CUresult res;

		memcpy(field, h->size, sizeof(h->size));
		field[sizeof(h->size)] = '\0';
		msize = strtoul(field, NULL, 10);
		off += sizeof(*h);
		if (memcmp(h->magic, "`\n", 2) || msize > size - off) {
			cu_jit_text_add(error, "error   : '%s': truncated or corrupt archive member at offset %zu",
					name, off - sizeof(*h));
			return CUDA_ERROR_INVALID_IMAGE;
		}
		m = data + off;
		off += msize + (msize & 1);	/* members are 2-aligned */
		if (!memcmp(h->name, "// ", 3)) {
			longnames = (const char *)m;
			longnames_size = msize;
			continue;
		}
		if (h->name[0] == '/' && (h->name[1] == ' ' ||
					  !memcmp(h->name, "/SYM64/", 7)))
			continue;	/* the symbol index */
		if (cu_link_le32(m, msize) != CU_LINK_ELF_MAGIC)
			continue;	/* not an object: nothing to link */
		cu_ar_name(h, longnames, longnames_size, member, sizeof(member));
		snprintf(full, sizeof(full), "%s(%s)", name, member);
		res = cu_link_object(m, msize, full, out, error, &found);
		if (res != CUDA_SUCCESS)
			return res;
		any |= found;
	}
	if (!any) {
		cu_jit_text_add(error, "error   : library '%s' holds no device code",
				name);
		return CUDA_ERROR_NO_BINARY_FOR_GPU;
	}
	return CUDA_SUCCESS;
}

static CUresult cu_link_cubin(const void *data, size_t size, const char *name,
			      struct cu_link_modules *out,
			      struct cu_jit_text *error)
{
	char why[256];

	switch (cu_link_le32(data, size)) {
	case VISA_MAGIC:
		if (cu_visa_check(data, size, why, sizeof(why))) {
			cu_jit_text_add(error, "error   : '%s': %s", name, why);
			return CUDA_ERROR_INVALID_IMAGE;
		}
		out->visa = malloc(size);
		if (!out->visa)
			return CUDA_ERROR_OUT_OF_MEMORY;
		memcpy(out->visa, data, size);
		out->visa_size = size;
		return CUDA_SUCCESS;
	case CU_LINK_ELF_MAGIC:
		/* Like a cubin for another GPU on real CUDA (unmeasured). */
		cu_jit_text_add(error, "error   : '%s' is an NVIDIA cubin (SASS); vGPU runs only PTX and vISA",
				name);
		return CUDA_ERROR_NO_BINARY_FOR_GPU;
	default:
		cu_jit_text_add(error, "error   : '%s' is not a cubin", name);
		return CUDA_ERROR_INVALID_IMAGE;
	}
}

CUresult cu_link_input(CUjitInputType type, const void *data, size_t size,
		       const char *name, struct cu_link_modules *out,
		       struct cu_jit_text *info, struct cu_jit_text *error,
		       bool verbose)
{
	static const char *const kinds[] = {
		"", "text", "from a fatbinary", "from an object",
		"from a library", "",
	};
	CUresult res;
	bool found;
	char *text;

	memset(out, 0, sizeof(*out));
	if ((unsigned int)type >= CU_JIT_NUM_INPUT_TYPES) {
		cu_jit_text_add(error, "error   : '%s': unknown input type %u",
				name, (unsigned int)type);
		return CUDA_ERROR_INVALID_VALUE;
	}
	if (!data || !size) {
		cu_jit_text_add(error, "error   : '%s': no data", name);
		return CUDA_ERROR_INVALID_VALUE;
	}
	switch (type) {
	case CU_JIT_INPUT_PTX:
		/* NUL-terminated per the API; @size may count the NUL. */
		text = strndup(data, size);
		if (!text)
			return CUDA_ERROR_OUT_OF_MEMORY;
		res = cu_link_push(out, name, text, strlen(text));
		break;
	case CU_JIT_INPUT_FATBINARY:
		if (cu_link_le32(data, size) != CU_LINK_FATBIN_MAGIC) {
			cu_jit_text_add(error, "error   : '%s' is not a fatbinary",
					name);
			return CUDA_ERROR_INVALID_IMAGE;
		}
		res = cu_link_fatbin(data, size, name, out, error);
		break;
	case CU_JIT_INPUT_OBJECT:
		res = cu_link_object(data, size, name, out, error, &found);
		if (res == CUDA_SUCCESS && !found && verbose)
			cu_jit_text_add(info, "info    : '%s' holds no device code",
					name);
		break;
	case CU_JIT_INPUT_LIBRARY:
		res = cu_link_library(data, size, name, out, error);
		break;
	case CU_JIT_INPUT_CUBIN:
		res = cu_link_cubin(data, size, name, out, error);
		break;
	default:	/* CU_JIT_INPUT_NVVM */
		/*
		 * LTO-IR is LLVM bitcode ("BC" 0xC0DE), which vGPU does not
		 * compile; anything else is not NVVM at all, and an H100
		 * calls that CUDA_ERROR_INVALID_IMAGE (probe_link.h100.txt).
		 */
		if (size < 4 || memcmp(data, "BC\xc0\xde", 4)) {
			cu_jit_text_add(error, "error   : '%s': not LTO-IR (NVVM bitcode)",
					name);
			return CUDA_ERROR_INVALID_IMAGE;
		}
		cu_jit_text_add(error, "error   : '%s': LTO-IR (NVVM) input is not supported by vGPU",
				name);
		return CUDA_ERROR_NOT_SUPPORTED;
	}
	if (res != CUDA_SUCCESS) {
		cu_link_modules_free(out);
		return res;
	}
	if (verbose) {
		for (size_t i = 0; i < out->count; i++)
			cu_jit_text_add(info, "info    : adding '%s' (PTX %s, %zu bytes)",
					out->mods[i].name, kinds[type],
					out->mods[i].len);
		if (out->visa)
			cu_jit_text_add(info, "info    : adding '%s' (vISA image, %zu bytes)",
					name, out->visa_size);
	}
	return CUDA_SUCCESS;
}
