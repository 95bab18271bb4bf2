// SPDX-License-Identifier: GPL-2.0
/*
 * visa_builder.c - assembling vISA images by hand (see visa_builder.h).
 * Allocation failures abort: this is test scaffolding.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "visa_builder.h"

struct buf {
	uint8_t *p;
	size_t len, cap;
};

struct vb {
	struct buf code, funcs, kernels, params, lits, strtab, ginit, cinit,
		   relocs, syms, lines;
	uint64_t global_size, const_size;
	uint32_t cur_func;
	uint32_t func_lit_start;
};

static void *grow(struct buf *b, size_t n)
{
	void *r;

	if (b->len + n > b->cap) {
		size_t cap = (b->len + n) * 2 + 64;

		b->p = realloc(b->p, cap);
		if (!b->p)
			abort();
		b->cap = cap;
	}
	r = b->p + b->len;
	memset(r, 0, n);
	b->len += n;
	return r;
}

struct vb *vb_new(void)
{
	struct vb *b = calloc(1, sizeof(*b));

	if (!b)
		abort();
	grow(&b->strtab, 1);	/* offset 0 is "" */
	return b;
}

void vb_free(struct vb *b)
{
	struct buf *all[] = { &b->code, &b->funcs, &b->kernels, &b->params,
			      &b->lits, &b->strtab, &b->ginit, &b->cinit,
			      &b->relocs, &b->syms, &b->lines };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		free(all[i]->p);
	free(b);
}

uint32_t vb_str(struct vb *b, const char *s)
{
	size_t n = strlen(s) + 1;
	uint32_t off = (uint32_t)b->strtab.len;

	memcpy(grow(&b->strtab, n), s, n);
	return off;
}

uint32_t vb_func(struct vb *b, const char *name, uint32_t flags)
{
	struct visa_func *f = grow(&b->funcs, sizeof(*f));

	f->name = vb_str(b, name);
	f->flags = flags;
	f->code_start = vb_pc(b);
	f->lit_start = (uint32_t)(b->lits.len / 8);
	b->cur_func = (uint32_t)(b->funcs.len / sizeof(*f)) - 1;
	return b->cur_func;
}

void vb_end_func(struct vb *b, uint16_t nregs, uint16_t npreds,
		 uint32_t frame_size)
{
	struct visa_func *f = (struct visa_func *)b->funcs.p + b->cur_func;

	f->code_count = vb_pc(b) - f->code_start;
	f->lit_count = (uint32_t)(b->lits.len / 8) - f->lit_start;
	f->num_regs = nregs;
	f->num_preds = npreds;
	f->frame_size = frame_size;
}

uint32_t vb_pc(const struct vb *b)
{
	return (uint32_t)(b->code.len / sizeof(struct visa_insn));
}

struct visa_insn *vb_at(struct vb *b, uint32_t pc)
{
	return (struct visa_insn *)b->code.p + pc;
}

struct visa_insn *vb_op(struct vb *b, uint16_t op, uint8_t type)
{
	struct visa_insn *i = grow(&b->code, sizeof(*i));

	i->op = op;
	i->type = type;
	i->guard = i->pd = i->pa = VISA_OPND_NONE;
	i->d = i->a = i->b = i->c = i->e = VISA_OPND_NONE;
	return i;
}

uint16_t vb_lit(struct vb *b, uint64_t value)
{
	struct visa_func *f = (struct visa_func *)b->funcs.p + b->cur_func;
	uint32_t n = (uint32_t)(b->lits.len / 8);

	for (uint32_t i = f->lit_start; i < n; i++)
		if (((uint64_t *)b->lits.p)[i] == value)
			return (uint16_t)(VISA_OPND_LIT | (i - f->lit_start));
	memcpy(grow(&b->lits, 8), &value, 8);
	return (uint16_t)(VISA_OPND_LIT | (n - f->lit_start));
}

struct visa_kernel *vb_kernel(struct vb *b, const char *name, uint32_t func,
			      uint32_t param_size, uint32_t shared_size)
{
	struct visa_kernel *k = grow(&b->kernels, sizeof(*k));
	uint32_t nparams = (uint32_t)(b->params.len / sizeof(struct visa_param));

	k->name = vb_str(b, name);
	k->func = func;
	k->param_size = param_size;
	k->shared_size = shared_size;
	k->shared_align = 16;
	/* one 8-byte parameter per slot: enough for the tests */
	k->param_first = nparams;
	for (uint32_t off = 0; off + 8 <= param_size; off += 8) {
		struct visa_param *p = grow(&b->params, sizeof(*p));

		p->offset = off;
		p->size = 8;
		p->align = 8;
		k->param_count++;
	}
	k->max_threads = 1024;
	return k;
}

static uint64_t seg_add(struct buf *init, uint64_t *size, const void *data,
			size_t len, size_t align)
{
	uint64_t off = (*size + align - 1) / align * align;

	*size = off + len;
	if (data) {
		if (init->len < off)
			grow(init, off - init->len);
		memcpy(grow(init, len), data, len);
	}
	return off;
}

uint64_t vb_global(struct vb *b, const void *init, size_t len, size_t align)
{
	return seg_add(&b->ginit, &b->global_size, init, len, align);
}

uint64_t vb_const(struct vb *b, const void *init, size_t len, size_t align)
{
	return seg_add(&b->cinit, &b->const_size, init, len, align);
}

void vb_line(struct vb *b, uint32_t insn, const char *file, uint32_t line)
{
	struct visa_line *l = grow(&b->lines, sizeof(*l));

	l->insn = insn;
	l->file = vb_str(b, file);
	l->line = line;
}

void *vb_finish(struct vb *b, size_t *size)
{
	struct { struct buf *b; uint32_t entsize; } secs[VISA_SEC_COUNT] = {
		[VISA_SEC_STRTAB] = { &b->strtab, 1 },
		[VISA_SEC_CODE] = { &b->code, sizeof(struct visa_insn) },
		[VISA_SEC_FUNCS] = { &b->funcs, sizeof(struct visa_func) },
		[VISA_SEC_KERNELS] = { &b->kernels, sizeof(struct visa_kernel) },
		[VISA_SEC_PARAMS] = { &b->params, sizeof(struct visa_param) },
		[VISA_SEC_LITERALS] = { &b->lits, 8 },
		[VISA_SEC_GLOBAL_INIT] = { &b->ginit, 1 },
		[VISA_SEC_CONST_INIT] = { &b->cinit, 1 },
		[VISA_SEC_RELOCS] = { &b->relocs, sizeof(struct visa_reloc) },
		[VISA_SEC_SYMBOLS] = { &b->syms, sizeof(struct visa_symbol) },
		[VISA_SEC_LINES] = { &b->lines, sizeof(struct visa_line) },
	};
	size_t total = sizeof(struct visa_image_header);
	struct visa_image_header *h;
	uint8_t *img;

	for (int i = 0; i < VISA_SEC_COUNT; i++)
		total += (secs[i].b->len + 7) & ~(size_t)7;
	img = aligned_alloc(8, total);
	if (!img)
		abort();
	memset(img, 0, total);
	h = (struct visa_image_header *)img;
	h->magic = VISA_MAGIC;
	h->version_major = VISA_VERSION_MAJOR;
	h->version_minor = VISA_VERSION_MINOR;
	h->header_size = sizeof(*h);
	h->image_size = total;
	h->global_size = b->global_size;
	h->const_size = b->const_size;
	h->global_align = h->const_align = 16;
	total = sizeof(*h);
	for (int i = 0; i < VISA_SEC_COUNT; i++) {
		size_t n = secs[i].b->len;

		if (!n)
			continue;
		h->sections[i].offset = (uint32_t)total;
		h->sections[i].size = (uint32_t)n;
		h->sections[i].entsize = secs[i].entsize;
		memcpy(img + total, secs[i].b->p, n);
		total += (n + 7) & ~(size_t)7;
	}
	*size = total;
	return img;
}

struct visa_insn *vb_sreg(struct vb *b, uint16_t d, uint32_t sreg)
{
	struct visa_insn *i = vb_op(b, VISA_OP_SREG, VISA_T_U32);

	i->d = d;
	i->imm = sreg;
	return i;
}

struct visa_insn *vb_ld_param(struct vb *b, uint8_t type, uint16_t d,
			      uint32_t offset)
{
	struct visa_insn *i = vb_op(b, VISA_OP_LD, type);

	i->type2 = VISA_SPACE_PARAM;
	i->d = d;
	i->imm = offset;
	return i;
}

struct visa_insn *vb_op3(struct vb *b, uint16_t op, uint8_t type, uint16_t d,
			 uint16_t a, uint16_t bb)
{
	struct visa_insn *i = vb_op(b, op, type);

	i->d = d;
	i->a = a;
	i->b = bb;
	return i;
}

void vb_global_tid(struct vb *b, uint16_t d)
{
	vb_sreg(b, d, VISA_SREG_TID_X);
	vb_sreg(b, d + 1, VISA_SREG_CTAID_X);
	vb_sreg(b, d + 2, VISA_SREG_NTID_X);
	vb_op3(b, VISA_OP_MAD, VISA_T_U32, d, d + 1, d + 2)->c = d;
}

void vb_param_elem(struct vb *b, uint16_t d, uint32_t param_off, uint16_t idx)
{
	vb_ld_param(b, VISA_T_U64, d, param_off);
	vb_op3(b, VISA_OP_MULWIDE, VISA_T_U32, d + 1, idx, vb_lit(b, 4));
	vb_op3(b, VISA_OP_ADD, VISA_T_U64, d, d, d + 1);
}

struct visa_insn *vb_ld(struct vb *b, uint8_t space, uint8_t type, uint16_t d,
			uint16_t addr, uint64_t off)
{
	struct visa_insn *i = vb_op(b, VISA_OP_LD, type);

	i->type2 = space;
	i->d = d;
	i->a = addr;
	i->imm = off;
	return i;
}

struct visa_insn *vb_st(struct vb *b, uint8_t space, uint8_t type,
			uint16_t addr, uint64_t off, uint16_t v)
{
	struct visa_insn *i = vb_op(b, VISA_OP_ST, type);

	i->type2 = space;
	i->a = addr;
	i->imm = off;
	i->b = v;
	return i;
}

struct visa_insn *vb_bra(struct vb *b, uint32_t target, uint32_t reconv)
{
	struct visa_insn *i = vb_op(b, VISA_OP_BRA, VISA_T_NONE);

	i->imm = VISA_BRA_IMM(target, reconv);
	return i;
}

struct visa_insn *vb_exit(struct vb *b)
{
	return vb_op(b, VISA_OP_EXIT, VISA_T_NONE);
}
