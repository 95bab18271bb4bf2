// SPDX-License-Identifier: GPL-2.0
/*
 * visa_image.c - reading the tables of a vISA image (include/vgpu_visa.h).
 *
 * The firmware validates an image completely before running it.  The
 * library only reads the metadata (kernels, parameters, symbols,
 * relocations, strings), but it reads them from images that may come
 * from a file: every offset is checked here first, so that a damaged
 * image is CUDA_ERROR_INVALID_IMAGE, never a crash.
 */
#include <stdio.h>
#include <string.h>

#include "cuda_internal.h"

/* Minimum entry size of each table section we read. */
static const uint32_t cu_visa_entsize[VISA_SEC_COUNT] = {
	[VISA_SEC_STRTAB] = 1,
	[VISA_SEC_FUNCS] = sizeof(struct visa_func),
	[VISA_SEC_KERNELS] = VISA_KERNEL_SIZE_MIN,
	[VISA_SEC_PARAMS] = sizeof(struct visa_param),
	[VISA_SEC_RELOCS] = sizeof(struct visa_reloc),
	[VISA_SEC_SYMBOLS] = sizeof(struct visa_symbol),
	[VISA_SEC_GLOBAL_INIT] = 1,
	[VISA_SEC_CONST_INIT] = 1,
};

const void *cu_visa_section(const struct visa_image_header *h,
			    unsigned int id, uint32_t *count)
{
	const struct visa_section *s = &h->sections[id];

	*count = s->size && s->entsize ? s->size / s->entsize : 0;
	return s->size ? (const uint8_t *)h + s->offset : NULL;
}

const char *cu_visa_string(const struct visa_image_header *h, uint32_t off)
{
	const struct visa_section *s = &h->sections[VISA_SEC_STRTAB];

	if (off >= s->size)
		return "";
	return (const char *)h + s->offset + off;
}

const struct visa_symbol *cu_visa_data_symbol(const struct visa_image_header *h,
					       const char *name)
{
	uint32_t n;
	const uint8_t *syms = cu_visa_section(h, VISA_SEC_SYMBOLS, &n);

	for (uint32_t i = 0; i < n; i++) {
		const struct visa_symbol *s = (const void *)
			(syms + (size_t)i * h->sections[VISA_SEC_SYMBOLS].entsize);

		if (!(s->flags & VISA_SYM_EXTERN_DEF) &&
		    (s->space == VISA_SPACE_GLOBAL ||
		     s->space == VISA_SPACE_CONST) &&
		    !strcmp(cu_visa_string(h, s->name), name))
			return s;
	}
	return NULL;
}

#define CU_VISA_FAIL(...) \
	do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

int cu_visa_check(const void *image, size_t size, char *err, size_t errlen)
{
	const struct visa_image_header *h = image;
	const struct visa_section *str;
	uint32_t i, nk, np, nf;
	const uint8_t *k;

	if (size < sizeof(*h) || h->magic != VISA_MAGIC)
		CU_VISA_FAIL("not a vISA image");
	if (h->version_major != VISA_VERSION_MAJOR)
		CU_VISA_FAIL("vISA version %u, expected %u", h->version_major,
			     VISA_VERSION_MAJOR);
	if (h->header_size < sizeof(*h) || h->image_size != size)
		CU_VISA_FAIL("bad header or image size");
	for (i = 0; i < VISA_SEC_COUNT; i++) {
		const struct visa_section *s = &h->sections[i];

		if (!s->size)
			continue;
		if ((uint64_t)s->offset + s->size > size || s->offset % 8 ||
		    !s->entsize || s->size % s->entsize ||
		    s->entsize < cu_visa_entsize[i])
			CU_VISA_FAIL("section %u out of bounds", i);
	}
	str = &h->sections[VISA_SEC_STRTAB];
	if (str->size && ((const char *)h)[str->offset + str->size - 1])
		CU_VISA_FAIL("string table not terminated");
	if (h->global_size < h->sections[VISA_SEC_GLOBAL_INIT].size ||
	    h->const_size < h->sections[VISA_SEC_CONST_INIT].size)
		CU_VISA_FAIL("segment smaller than its initializer");
	k = cu_visa_section(h, VISA_SEC_KERNELS, &nk);
	cu_visa_section(h, VISA_SEC_PARAMS, &np);
	cu_visa_section(h, VISA_SEC_FUNCS, &nf);
	for (i = 0; i < nk; i++) {
		const struct visa_kernel *kk = (const void *)
			(k + (size_t)i * h->sections[VISA_SEC_KERNELS].entsize);

		if (kk->func >= nf || kk->param_first > np ||
		    kk->param_count > np - kk->param_first)
			CU_VISA_FAIL("kernel %u has bad indices", i);
		/* The firmware's limit (firmware_sim/core/validate.c). */
		if (kk->param_size > 32768)
			CU_VISA_FAIL("kernel %u: parameters exceed 32 KiB", i);
	}
	return 0;
}
