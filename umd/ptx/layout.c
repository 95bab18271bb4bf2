// SPDX-License-Identifier: GPL-2.0
/*
 * layout.c - where every variable lives.
 *
 * Global segment: every defined .global variable of every module, in
 * declaration order, each at its alignment.  Const segment: the same for
 * .const.  The loader allocates both once per module and the code reaches
 * them with MOVA (see vgpu_visa.h).
 *
 * Shared memory is per block, laid out per kernel: see shared_layout.c.
 *
 * Local memory is per thread, in frames: a function's frame holds its
 * parameters, then its return values, then its .local variables; a caller
 * passes arguments by storing them just past its own frame, where the
 * callee's frame will begin (the vISA calling convention).  A kernel's
 * parameters are in the parameter buffer instead, laid out as the CUDA
 * launch API expects (each at its alignment, in order).
 */
#include <string.h>

#include "codegen.h"

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

static uint64_t place(struct ptx_var *v, uint64_t end)
{
	uint32_t a = v->align ? v->align : 1;

	v->addr = align_up(end, a);
	v->laid_out = true;
	return v->addr + v->size;
}

static void layout_segments(struct cg *g)
{
	uint32_t i, j;

	for (i = 0; i < g->prog->nmods; i++) {
		struct ptx_module *m = &g->prog->mods[i];

		for (j = 0; j < m->vars.n; j++) {
			struct ptx_var *v = m->vars.v[j];

			if (!v->has_body || v->def != v)	/* overridden .weak */
				continue;
			if (v->space == PS_GLOBAL) {
				g->global_size = place(v, g->global_size);
				ptx_push(g->cx, &g->globals, v);
			} else if (v->space == PS_CONST) {
				g->const_size = place(v, g->const_size);
				ptx_push(g->cx, &g->consts, v);
			}
		}
	}
	if (g->global_size > (UINT64_C(1) << 32) ||
	    g->const_size > (UINT64_C(1) << 32))
		ptx_fail(g->cx, VGPU_PTX_ERR_LIMIT, NULL,
			 "module variables exceed 4 GiB");
}

/*
 * The device heap's descriptor (struct visa_heap_desc): a module that
 * declares malloc or free gets one more global variable, which the loader
 * fills with the context's heap and MALLOC/FREE read (exec_heap.c).  Not
 * .visible: no other module can bind to it, or clash with it.
 */
static void layout_heap_desc(struct cg *g)
{
	struct ptx_var *v;
	bool uses = false;
	uint32_t i, j;

	for (i = 0; i < g->prog->nmods && !uses; i++) {
		struct ptx_module *m = &g->prog->mods[i];

		for (j = 0; j < m->funcs.n; j++) {
			const struct ptx_func *f = m->funcs.v[j];

			if (!f->has_body && (!strcmp(f->name, "malloc") ||
					     !strcmp(f->name, "free")))
				uses = true;
		}
	}
	if (!uses)
		return;
	v = ptx_alloc(g->cx, sizeof(*v));
	v->name = VISA_HEAP_SYMBOL;
	v->space = PS_GLOBAL;
	v->type = PT_U64;
	v->linkage = PL_NONE;
	v->align = 16;		/* MALLOC reads it as one 16-byte unit */
	v->vec = 1;
	v->size = sizeof(struct visa_heap_desc);
	v->has_body = true;
	v->def = v;
	g->global_size = place(v, g->global_size);
	ptx_push(g->cx, &g->globals, v);
	g->heap_desc = v;
}

static uint64_t layout_list(struct ptx_var_list *l, uint64_t end)
{
	uint32_t i;

	for (i = 0; i < l->n; i++)
		end = place(l->v[i], end);
	return end;
}

static void layout_frames(struct cg *g)
{
	uint32_t i, j;

	for (i = 0; i < g->funcs.n; i++) {
		struct ptx_func *f = g->funcs.v[i];
		uint64_t end = 0;

		/* Parameters of a kernel live in the parameter buffer. */
		if (f->is_entry) {
			f->param_size = (uint32_t)layout_list(&f->params, 0);
		} else {
			end = layout_list(&f->params, 0);
			end = layout_list(&f->rets, end);
			f->param_size = (uint32_t)end;
		}
		for (j = 0; j < f->locals.n; j++)
			if (f->locals.v[j]->space == PS_LOCAL)
				end = place(f->locals.v[j], end);
		/* Indirect calls lay out arguments as the prototype says. */
		for (j = 0; j < f->proto_list.n; j++) {
			struct ptx_func *pr = f->proto_list.v[j];

			pr->param_size = (uint32_t)layout_list(&pr->rets,
					layout_list(&pr->params, 0));
		}
		end = align_up(end, 16);
		if (end > g->cx->opts.max_local_per_thread)
			ptx_fail(g->cx, VGPU_PTX_ERR_LIMIT, &f->pos,
				 "local memory of '%s' (%llu bytes) exceeds the %u-byte limit",
				 f->name, (unsigned long long)end,
				 g->cx->opts.max_local_per_thread);
		f->frame_size = (uint32_t)end;
	}
	/* Declarations carry the definition's layout (calls read it). */
}

/* Bind the names in address initializers ({ generic(var) }, fnptr). */
static void resolve_init_relocs(struct cg *g, struct ptx_var *v)
{
	const struct ptx_module *m = &g->prog->mods[v->module];
	uint32_t k;

	for (k = 0; k < v->relocs.n; k++) {
		struct ptx_init_reloc *r = &v->relocs.v[k];
		struct ptx_symref ref = link_resolve(g->cx, m, r->sym, &r->pos);

		if (ref.is_func) {
			if (!ref.func->has_body)
				cg_unsupported(g, &r->pos,
					       "the address of runtime function '%s'",
					       r->sym);
			r->func = ref.func;
			ref.func->addr_taken = true;
		} else if (ref.var->space != PS_GLOBAL &&
			   ref.var->space != PS_CONST) {
			cg_unsupported(g, &r->pos,
				       "address of .%s variable '%s' in an initializer",
				       ptx_space_name(ref.var->space), r->sym);
		} else {
			r->var = ref.var;
		}
	}
}

void cg_layout(struct cg *g)
{
	uint32_t i, j;

	for (i = 0; i < g->prog->nmods; i++) {
		struct ptx_module *m = &g->prog->mods[i];

		for (j = 0; j < m->funcs.n; j++) {
			struct ptx_func *f = m->funcs.v[j];

			if (!f->has_body || f->def != f)	/* overridden .weak */
				continue;
			f->index = g->funcs.n;
			ptx_push(g->cx, &g->funcs, f);
		}
	}
	layout_segments(g);
	layout_heap_desc(g);
	cg_layout_shared(g);
	layout_frames(g);
	for (i = 0; i < g->globals.n; i++)
		resolve_init_relocs(g, g->globals.v[i]);
	for (i = 0; i < g->consts.n; i++)
		resolve_init_relocs(g, g->consts.v[i]);
}
