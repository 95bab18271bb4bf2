// SPDX-License-Identifier: GPL-2.0
/*
 * module.c - loading a vISA image: validate, copy, pre-decode.
 *
 * Pre-decoding turns each 32-byte instruction into a struct dinsn whose
 * literal operands already point at 32-lane broadcast rows, so the
 * interpreter reads literals and registers the same way and never looks
 * at the literal pool again.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "core_internal.h"

static const void *section(const struct vgpu_module *m, int id,
			   uint32_t *count)
{
	const struct visa_section *s = &m->hdr->sections[id];

	*count = s->size ? s->size / s->entsize : 0;
	return (const uint8_t *)m->image + s->offset;
}

static void decode_func(struct vgpu_module *m, uint32_t fi,
			const struct visa_func *vf, const uint8_t *code,
			uint32_t code_entsize)
{
	struct mfunc *f = &m->funcs[fi];

	for (uint32_t pc = vf->code_start; pc < vf->code_start + vf->code_count;
	     pc++) {
		const struct visa_insn *in =
			(const void *)(code + (size_t)pc * code_entsize);
		struct dinsn *d = &m->code[pc];
		const uint16_t *slots[4] = { &in->a, &in->b, &in->c, &in->e };

		d->op = in->op;
		d->type = in->type;
		d->type2 = in->type2;
		d->mod = in->mod;
		d->guard = in->guard;
		d->pd = in->pd;
		d->pa = in->pa;
		d->d = in->d;
		d->a = in->a;
		d->b = in->b;
		d->c = in->c;
		d->e = in->e;
		d->imm = in->imm;
		d->func = fi;
		for (int s = 0; s < 4; s++) {
			uint16_t r = *slots[s];

			if (r != VISA_OPND_NONE && (r & VISA_OPND_LIT))
				d->lit[s] = f->lits +
					(size_t)(r & ~VISA_OPND_LIT) * WARP_SIZE;
		}
	}
}

int vgpu_core_module_load(const void *image, size_t size,
			  struct vgpu_module **out, char *err, size_t errlen)
{
	struct vgpu_module *m;
	const struct visa_func *vfuncs;
	const uint64_t *lits;
	const uint8_t *code;
	uint32_t nlits, nfuncs, ncode, entsize;
	void *copy;
	int ret;

	*out = NULL;
	/* Validate an aligned private copy: the caller's buffer may change. */
	copy = aligned_alloc(8, (size + 7) & ~(size_t)7);
	if (!copy)
		return -ENOMEM;
	if (size)
		memcpy(copy, image, size);
	ret = visa_validate(copy, size, err, errlen);
	if (ret) {
		free(copy);
		return ret;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		free(copy);
		return -ENOMEM;
	}
	m->image = copy;
	m->size = size;
	m->hdr = copy;
	m->strtab = (const char *)copy +
		    m->hdr->sections[VISA_SEC_STRTAB].offset;
	m->strtab_size = m->hdr->sections[VISA_SEC_STRTAB].size;
	m->kernels = section(m, VISA_SEC_KERNELS, &m->nkernels);
	m->kernel_entsize = m->hdr->sections[VISA_SEC_KERNELS].entsize;
	m->lines = section(m, VISA_SEC_LINES, &m->nlines);
	if (m->nlines &&
	    m->hdr->sections[VISA_SEC_LINES].entsize != sizeof(struct visa_line))
		m->nlines = 0;	/* a newer, wider line format: not used */
	vfuncs = section(m, VISA_SEC_FUNCS, &nfuncs);
	lits = section(m, VISA_SEC_LITERALS, &nlits);
	code = section(m, VISA_SEC_CODE, &ncode);
	entsize = m->hdr->sections[VISA_SEC_CODE].entsize;

	m->code = calloc(ncode, sizeof(*m->code));
	m->funcs = calloc(nfuncs, sizeof(*m->funcs));
	m->litrows = malloc(((size_t)nlits * WARP_SIZE + 1) * sizeof(uint64_t));
	if (!m->code || !m->funcs || !m->litrows) {
		vgpu_core_module_unload(m);
		return -ENOMEM;
	}
	m->ncode = ncode;
	m->nfuncs = nfuncs;
	for (uint32_t i = 0; i < nlits; i++) {
		uint64_t v;

		/* The literal table need not be 8-aligned for the entsize. */
		memcpy(&v, (const uint8_t *)lits +
		       (size_t)i * m->hdr->sections[VISA_SEC_LITERALS].entsize,
		       sizeof(v));
		for (int l = 0; l < WARP_SIZE; l++)
			m->litrows[(size_t)i * WARP_SIZE + l] = v;
	}
	for (uint32_t i = 0; i < nfuncs; i++) {
		const struct visa_func *vf = (const void *)
			((const uint8_t *)vfuncs +
			 (size_t)i * m->hdr->sections[VISA_SEC_FUNCS].entsize);
		struct mfunc *f = &m->funcs[i];

		f->name = vf->name;
		f->code_start = vf->code_start;
		f->code_count = vf->code_count;
		f->num_regs = vf->num_regs;
		f->num_preds = vf->num_preds;
		f->frame_size = vf->frame_size;
		f->lits = m->litrows + (size_t)vf->lit_start * WARP_SIZE;
		decode_func(m, i, vf, code, entsize);
		reg_init_plan(m, f);
	}
	/* The native tier when chosen (VGPU_TIER); functions compile lazily. */
	m->jit = jit_module_create(m);
	*out = m;
	return 0;
}

void core_module_free(struct vgpu_module *m)
{
	for (uint32_t i = 0; m->funcs && i < m->nfuncs; i++)
		reg_init_free(&m->funcs[i]);
	free(m->code);
	free(m->funcs);
	free(m->litrows);
	free(m->image);
	free(m);
}

void vgpu_core_module_unload(struct vgpu_module *m)
{
	if (!m)
		return;
	/* a translation in progress reads @m: its thread frees it then */
	if (jit_module_free(m->jit))
		return;
	core_module_free(m);
}

unsigned int vgpu_core_module_num_kernels(const struct vgpu_module *m)
{
	return m->nkernels;
}

const struct visa_kernel *vgpu_core_module_kernel(const struct vgpu_module *m,
						  unsigned int index)
{
	if (index >= m->nkernels)
		return NULL;
	return (const void *)((const uint8_t *)m->kernels +
			      (size_t)index * m->kernel_entsize);
}

const char *vgpu_core_module_string(const struct vgpu_module *m,
				    uint32_t offset)
{
	if (offset >= m->strtab_size)
		return "";
	return m->strtab + offset;
}

int vgpu_core_module_find_kernel(const struct vgpu_module *m, const char *name)
{
	for (uint32_t i = 0; i < m->nkernels; i++) {
		const struct visa_kernel *k = vgpu_core_module_kernel(m, i);

		if (!strcmp(vgpu_core_module_string(m, k->name), name))
			return (int)i;
	}
	return -ENOENT;
}

const struct visa_image_header *
vgpu_core_module_header(const struct vgpu_module *m)
{
	return m->hdr;
}
