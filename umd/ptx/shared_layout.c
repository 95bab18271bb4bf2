// SPDX-License-Identifier: GPL-2.0
/*
 * shared_layout.c - where each static .shared variable lives, per kernel.
 *
 * Shared memory belongs to a block, and a block runs one kernel, so a
 * kernel needs room only for the .shared variables it can name: those its
 * body names and those named by the functions it may call.  A variable
 * that no kernel names costs nothing.  The code of a device function is
 * emitted once for every kernel that calls it, so each variable still has
 * one offset in the whole program; two variables may share bytes when no
 * kernel can reach both.  This is register allocation in miniature: each
 * variable, in declaration order, goes at the lowest offset (at its
 * alignment) that overlaps no variable placed before it that some kernel
 * also reaches.  With -rdc=true nvcc leaves every __shared__ variable at
 * module scope, so a module of several kernels that each use 40 KiB stays
 * within the 48 KiB per-kernel limit only with this per-kernel view.
 *
 * The reserved region.  PTX's %reserved_smem_offset_* registers describe
 * shared memory the driver sets aside for system software; cooperative
 * groups keeps the scratch space of its multi-warp tiles there (at
 * %reserved_smem_offset_1, up to 288 bytes in CUDA 13's headers).  vGPU
 * reserves nothing for kernels that do not read these registers.  A
 * kernel that does (directly or through a callee) gets a region of
 * RESERVED_SMEM_BYTES at offset 0 of its block's window, as if it were a
 * variable its code names; it is not counted against the static limit,
 * as on NVIDIA's GPUs, but it is part of the bytes the block is given.
 *
 * Dynamic shared memory (.extern .shared x[]) has one offset too: after
 * the static layout of every kernel that names it.
 */
#include <string.h>

#include "codegen.h"

/* cudaDevAttrReservedSharedMemoryPerBlock: 1 KiB, as on an H100. */
#define RESERVED_SMEM_BYTES VISA_RESERVED_SMEM_BYTES

struct shared_plan {
	struct cg *g;
	PTX_VEC(struct ptx_var *) vars;	/* static .shared, slot - 1 */
	uint32_t nfuncs;
	uint8_t *names;			/* nfuncs x vars: the body names it */
	uint8_t *reach;			/* nfuncs x vars: for kernels */
	uint8_t *conflict;		/* vars x vars: some kernel reaches both */
	PTX_VEC(uint32_t) *calls;	/* per function: functions it names */
	bool *addr_taken, *indirect, *dyn;
	uint8_t *seen;			/* DFS scratch, nfuncs */
	uint32_t *stack;
};

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

static void add_var(struct shared_plan *p, struct ptx_var *v)
{
	ptx_push(p->g->cx, &p->vars, v);
	v->shared_slot = p->vars.n;
}

static bool is_reserved_sreg(enum ptx_sreg s)
{
	return s == SR_RESERVED_SMEM_BEGIN || s == SR_RESERVED_SMEM_END ||
	       s == SR_RESERVED_SMEM_CAP || s == SR_RESERVED_SMEM_0 ||
	       s == SR_RESERVED_SMEM_1;
}

static void note_var(struct shared_plan *p, uint32_t f, const struct ptx_var *v)
{
	if (v->def)
		v = v->def;
	if (v->space != PS_SHARED)
		return;
	if (v->unsized)
		p->dyn[f] = true;
	else if (v->shared_slot)
		p->names[(size_t)f * p->vars.n + v->shared_slot - 1] = 1;
}

static void note_func(struct shared_plan *p, uint32_t f,
		      const struct ptx_func *callee, bool is_call)
{
	if (callee->def)
		callee = callee->def;
	if (!callee->has_body)
		return;		/* vprintf and friends: no shared memory */
	ptx_push(p->g->cx, &p->calls[f], callee->index);
	if (!is_call)
		p->addr_taken[callee->index] = true;
}

/* What one operand of function f names. */
static void scan_operand(struct shared_plan *p, uint32_t f,
			 const struct ptx_module *m, const struct ptx_operand *o,
			 bool is_call_target)
{
	const struct ptx_func *fn = p->g->funcs.v[f];
	const struct ptx_symref *r;
	uint32_t i;

	if (o->kind == PO_SREG && is_reserved_sreg(o->sreg) &&
	    p->g->reserved_smem) {
		p->names[(size_t)f * p->vars.n +
			 p->g->reserved_smem->shared_slot - 1] = 1;
		return;
	}
	if (o->kind == PO_VEC || o->kind == PO_LIST) {
		for (i = 0; i < o->nelems; i++)
			scan_operand(p, f, m, &o->elems[i], false);
		return;
	}
	if (o->kind != PO_SYM && o->kind != PO_ADDR)
		return;
	if (o->var) {
		note_var(p, f, o->var);
		return;
	}
	if (!o->sym || ptx_map_get(&fn->labels, o->sym))
		return;
	r = ptx_map_get(&m->syms, o->sym);
	if (!r)
		return;		/* a prototype name, WARP_SZ: nothing to lay out */
	if (r->is_func)
		note_func(p, f, r->func, is_call_target);
	else
		note_var(p, f, r->var);
}

static void scan_function(struct shared_plan *p, uint32_t f)
{
	const struct ptx_func *fn = p->g->funcs.v[f];
	const struct ptx_module *m = &p->g->prog->mods[fn->module];
	uint32_t s, i;

	for (s = 0; s < fn->stmts.n; s++) {
		const struct ptx_insn *in;
		bool call;
		uint32_t target;

		if (fn->stmts.v[s].kind != ST_INSN)
			continue;
		in = fn->stmts.v[s].insn;
		call = in->op == OP_CALL;
		/* call [(rets),] target, ...: the target is a call edge. */
		target = call && in->nops && in->ops[0].kind == PO_LIST ? 1 : 0;
		if (call && target < in->nops && in->ops[target].kind == PO_REG)
			p->indirect[f] = true;
		for (i = 0; i < in->nops; i++)
			scan_operand(p, f, m, &in->ops[i], call && i == target);
	}
}

/* Functions named in initializers ({ fn }) may be called through them. */
static void scan_initializers(struct shared_plan *p)
{
	uint32_t i, j, k;

	for (i = 0; i < p->g->prog->nmods; i++) {
		const struct ptx_module *m = &p->g->prog->mods[i];

		for (j = 0; j < m->vars.n; j++) {
			const struct ptx_var *v = m->vars.v[j];

			for (k = 0; k < v->relocs.n; k++) {
				const struct ptx_symref *r =
					ptx_map_get(&m->syms, v->relocs.v[k].sym);
				const struct ptx_func *fn;

				if (!r || !r->is_func)
					continue;
				fn = r->func->def ? r->func->def : r->func;
				if (fn->has_body)
					p->addr_taken[fn->index] = true;
			}
		}
	}
}

/* The variables kernel k can reach: a walk of the call graph. */
static void close_kernel(struct shared_plan *p, uint32_t k)
{
	uint8_t *row = &p->reach[(size_t)k * p->vars.n];
	uint32_t sp = 0, f, i, v;
	bool indirect_done = false;

	memset(p->seen, 0, p->nfuncs);
	p->seen[k] = 1;
	p->stack[sp++] = k;
	while (sp) {
		f = p->stack[--sp];
		for (v = 0; v < p->vars.n; v++)
			row[v] |= p->names[(size_t)f * p->vars.n + v];
		p->dyn[k] |= p->dyn[f];
		for (i = 0; i < p->calls[f].n; i++) {
			uint32_t c = p->calls[f].v[i];

			if (!p->seen[c]) {
				p->seen[c] = 1;
				p->stack[sp++] = c;
			}
		}
		/* An indirect call may reach any function whose address is taken. */
		if (p->indirect[f] && !indirect_done) {
			indirect_done = true;
			for (i = 0; i < p->nfuncs; i++)
				if (p->addr_taken[i] && !p->seen[i]) {
					p->seen[i] = 1;
					p->stack[sp++] = i;
				}
		}
	}
}

/* Mark every pair of variables one kernel reaches as conflicting. */
static void find_conflicts(struct shared_plan *p)
{
	uint32_t n = p->vars.n, k, a, b, m;
	uint32_t *used = ptx_alloc(p->g->cx, (n + 1) * sizeof(*used));

	p->conflict = ptx_alloc(p->g->cx, (size_t)n * n + 1);
	for (k = 0; k < p->nfuncs; k++) {
		const uint8_t *row = &p->reach[(size_t)k * n];

		if (!p->g->funcs.v[k]->is_entry)
			continue;
		for (a = 0, m = 0; a < n; a++)
			if (row[a])
				used[m++] = a;
		for (a = 0; a < m; a++)
			for (b = 0; b < m; b++)
				p->conflict[(size_t)used[a] * n + used[b]] = 1;
	}
}

/* Lowest offset for variable i clear of those placed that share a kernel. */
static void place_var(struct shared_plan *p, uint32_t i)
{
	struct ptx_var *v = p->vars.v[i];
	uint64_t a = v->align ? v->align : 1, off = 0;
	uint32_t j;

again:
	for (j = 0; j < i; j++) {
		const struct ptx_var *w = p->vars.v[j];

		if (off < w->addr + w->size && w->addr < off + v->size &&
		    p->conflict[(size_t)i * p->vars.n + j]) {
			off = align_up(w->addr + w->size, a);
			goto again;
		}
	}
	v->addr = off;
	v->laid_out = true;
}

/* Each kernel's static size; fail when one exceeds the per-block limit. */
static void size_kernel(struct shared_plan *p, struct ptx_func *k)
{
	const uint8_t *row = &p->reach[(size_t)k->index * p->vars.n];
	const struct ptx_var *last = NULL, *rsv = p->g->reserved_smem;
	uint32_t max = p->g->cx->opts.max_shared_per_block;
	uint64_t end = 0, user;
	uint32_t v;

	for (v = 0; v < p->vars.n; v++) {
		const struct ptx_var *w = p->vars.v[v];

		if (row[v] && w->addr + w->size > end) {
			end = w->addr + w->size;
			last = w;
		}
	}
	/* The reserved region is first (offset 0): it is not the user's. */
	k->reserved_smem = rsv && row[rsv->shared_slot - 1];
	user = k->reserved_smem ? end - rsv->size : end;
	if (user > max)
		ptx_fail(p->g->cx, VGPU_PTX_ERR_LIMIT, &last->pos,
			 "static shared memory of kernel '%s' (%llu bytes with '%s') exceeds the %u-byte limit",
			 k->name, (unsigned long long)user, last->name, max);
	k->shared_size = (uint32_t)end;
}

static void collect_vars(struct shared_plan *p)
{
	struct cg *g = p->g;
	uint32_t i, j;

	for (i = 0; i < g->funcs.n && !g->reserved_smem; i++) {
		const struct ptx_func *f = g->funcs.v[i];
		uint32_t s, o;

		for (s = 0; s < f->stmts.n && !g->reserved_smem; s++) {
			const struct ptx_insn *in = f->stmts.v[s].insn;

			if (f->stmts.v[s].kind != ST_INSN)
				continue;
			for (o = 0; o < in->nops; o++)
				if (in->ops[o].kind == PO_SREG &&
				    is_reserved_sreg(in->ops[o].sreg))
					break;
			if (o == in->nops)
				continue;
			g->reserved_smem = ptx_alloc(g->cx, sizeof(struct ptx_var));
			g->reserved_smem->name = "%reserved_smem";
			g->reserved_smem->space = PS_SHARED;
			g->reserved_smem->size = RESERVED_SMEM_BYTES;
			g->reserved_smem->align = 16;
			add_var(p, g->reserved_smem);
		}
	}
	for (i = 0; i < g->prog->nmods; i++) {
		struct ptx_module *m = &g->prog->mods[i];

		for (j = 0; j < m->vars.n; j++) {
			struct ptx_var *v = m->vars.v[j];

			if (v->space != PS_SHARED)
				continue;
			if (v->unsized) {
				if (v->align > g->dyn_shared_align)
					g->dyn_shared_align = v->align;
				continue;
			}
			if (v->has_body && v->def == v)
				add_var(p, v);
		}
	}
	for (i = 0; i < g->funcs.n; i++) {
		struct ptx_func *f = g->funcs.v[i];

		for (j = 0; j < f->locals.n; j++) {
			struct ptx_var *v = f->locals.v[j];

			if (v->space != PS_SHARED)
				continue;
			if (v->unsized)
				cg_unsupported(g, &v->pos,
					       "unsized .shared array '%s' inside a function",
					       v->name);
			add_var(p, v);
		}
	}
}

void cg_layout_shared(struct cg *g)
{
	struct shared_plan p = { .g = g, .nfuncs = g->funcs.n };
	uint64_t dyn_base = 0;
	uint32_t i, j;

	g->dyn_shared_align = 16;
	collect_vars(&p);
	p.names = ptx_alloc(g->cx, (size_t)p.nfuncs * p.vars.n + 1);
	p.reach = ptx_alloc(g->cx, (size_t)p.nfuncs * p.vars.n + 1);
	p.calls = ptx_alloc(g->cx, (p.nfuncs + 1) * sizeof(*p.calls));
	p.addr_taken = ptx_alloc(g->cx, p.nfuncs + 1);
	p.indirect = ptx_alloc(g->cx, p.nfuncs + 1);
	p.dyn = ptx_alloc(g->cx, p.nfuncs + 1);
	p.seen = ptx_alloc(g->cx, p.nfuncs + 1);
	p.stack = ptx_alloc(g->cx, (p.nfuncs + 1) * sizeof(*p.stack));
	for (i = 0; i < p.nfuncs; i++)
		scan_function(&p, i);
	scan_initializers(&p);
	for (i = 0; i < p.nfuncs; i++)
		if (g->funcs.v[i]->is_entry)
			close_kernel(&p, i);
	find_conflicts(&p);
	for (i = 0; i < p.vars.n; i++)
		place_var(&p, i);
	for (i = 0; i < p.nfuncs; i++) {
		struct ptx_func *k = g->funcs.v[i];

		if (!k->is_entry)
			continue;
		size_kernel(&p, k);
		if (p.dyn[i] && k->shared_size > dyn_base)
			dyn_base = k->shared_size;
	}
	/* Every unsized extern .shared names the start of dynamic memory. */
	dyn_base = align_up(dyn_base, g->dyn_shared_align);
	g->dyn_shared_base = dyn_base;
	for (i = 0; i < g->prog->nmods; i++) {
		struct ptx_module *m = &g->prog->mods[i];

		for (j = 0; j < m->vars.n; j++) {
			struct ptx_var *v = m->vars.v[j];

			if (v->space == PS_SHARED && v->unsized) {
				v->addr = dyn_base;
				v->laid_out = true;
			}
		}
	}
}

/* Static shared bytes a kernel needs (the dynamic part starts there). */
uint32_t cg_kernel_shared_size(struct cg *g, const struct ptx_func *k)
{
	(void)g;
	return k->shared_size;
}
