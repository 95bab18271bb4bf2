// SPDX-License-Identifier: GPL-2.0
/*
 * link.c - binding names across the modules of one program.
 *
 * Separately compiled CUDA (-rdc=true) produces one PTX module per
 * translation unit; a kernel in one may call a .func or use a .global
 * defined in another, which it declares .extern.  The linker keeps one
 * table of the externally visible definitions of all modules:
 *
 *   - a .visible definition wins over .weak ones; two .visible definitions
 *     of one name are an error, as with any linker;
 *   - names without linkage stay private to their module (two modules may
 *     both have a static "$str");
 *   - a declaration binds to its own module's definition first, then to the
 *     table; what stays unbound is an error only where it is used, so that
 *     unused .extern declarations (nvcc emits vprintf's in every module that
 *     includes stdio) cost nothing.
 *
 * The device runtime's functions (vprintf, __assertfail, malloc, free) are
 * never defined in PTX: the code generator turns calls to them into vISA
 * system calls, so they count as bound.
 */
#include <string.h>

#include "ptx_internal.h"
#include "link.h"

static const char *const builtin_funcs[] = {
	"vprintf", "__assertfail", "malloc", "free",
	/* dynamic parallelism, for devrt.ptx (isel_cdp.c) */
	"__vgpu_cdp_psize", "__vgpu_cdp_launch", "__vgpu_cdp_get_error",
	"__vgpu_cdp_peek_error", "__vgpu_cdp_set_error",
};

bool link_is_builtin(const char *name)
{
	unsigned int i;

	for (i = 0; i < sizeof(builtin_funcs) / sizeof(builtin_funcs[0]); i++)
		if (!strcmp(name, builtin_funcs[i]))
			return true;
	return false;
}

static bool ref_defined(const struct ptx_symref *r)
{
	return r->is_func ? r->func->has_body : r->var->has_body;
}

static enum ptx_linkage ref_linkage(const struct ptx_symref *r)
{
	return r->is_func ? r->func->linkage : r->var->linkage;
}

static const struct ptx_pos *ref_pos(const struct ptx_symref *r)
{
	return r->is_func ? &r->func->pos : &r->var->pos;
}

/* Whether a definition with this linkage is seen by other modules. */
static bool exported(enum ptx_linkage l, bool is_entry)
{
	return l == PL_VISIBLE || l == PL_WEAK || l == PL_COMMON || is_entry;
}

/* Enter one module's external definitions into the program table. */
static void add_exports(struct ptx_ctx *cx, struct ptx_program *prog,
			struct ptx_module *m)
{
	uint32_t i;

	for (i = 0; i < m->syms.cap; i++) {
		struct ptx_symref *r = m->syms.vals[i], *old;
		enum ptx_linkage l;

		if (!m->syms.keys[i] || !ref_defined(r))
			continue;
		l = ref_linkage(r);
		if (!exported(l, r->is_func && r->func->is_entry))
			continue;
		old = ptx_map_get(&prog->exports, m->syms.keys[i]);
		if (old) {
			enum ptx_linkage ol = ref_linkage(old);

			if (old->is_func != r->is_func)
				ptx_fail(cx, VGPU_PTX_ERR_LINK, ref_pos(r),
					 "'%s' is a %s here but a %s in %s",
					 m->syms.keys[i],
					 r->is_func ? "function" : "variable",
					 old->is_func ? "function" : "variable",
					 cx->srcs[ref_pos(old)->src].name ?
					 cx->srcs[ref_pos(old)->src].name : "<ptx>");
			if (l == PL_WEAK || l == PL_COMMON)
				continue;	/* keep the first or strong one */
			if (ol != PL_WEAK && ol != PL_COMMON)
				ptx_fail(cx, VGPU_PTX_ERR_LINK, ref_pos(r),
					 "'%s' is defined in more than one module",
					 m->syms.keys[i]);
		}
		ptx_map_put(cx, &prog->exports, m->syms.keys[i], r);
	}
}

/* Check that a declaration and the definition it binds to agree. */
static void check_func_match(struct ptx_ctx *cx, const struct ptx_func *decl,
			     const struct ptx_func *def)
{
	uint32_t i;

	if (decl->params.n != def->params.n || decl->rets.n != def->rets.n)
		ptx_fail(cx, VGPU_PTX_ERR_LINK, &decl->pos,
			 "declaration of '%s' does not match its definition (parameter count)",
			 decl->name);
	for (i = 0; i < decl->params.n; i++)
		if (decl->params.v[i]->size != def->params.v[i]->size)
			ptx_fail(cx, VGPU_PTX_ERR_LINK, &decl->pos,
				 "declaration of '%s' does not match its definition (parameter %u size)",
				 decl->name, i);
	for (i = 0; i < decl->rets.n; i++)
		if (decl->rets.v[i]->size != def->rets.v[i]->size)
			ptx_fail(cx, VGPU_PTX_ERR_LINK, &decl->pos,
				 "declaration of '%s' does not match its definition (return size)",
				 decl->name);
}

static void bind_decls(struct ptx_ctx *cx, struct ptx_program *prog,
		       struct ptx_module *m)
{
	uint32_t i;

	for (i = 0; i < m->funcs.n; i++) {
		struct ptx_func *f = m->funcs.v[i];
		struct ptx_symref *r = ptx_map_get(&m->syms, f->name);

		if (f->has_body) {
			/* A .weak definition may be overridden by another. */
			r = ptx_map_get(&prog->exports, f->name);
			f->def = r && r->is_func && exported(r->func->linkage,
							  r->func->is_entry) &&
				 exported(f->linkage, f->is_entry) ? r->func : f;
			continue;
		}
		if (r && r->is_func && r->func->has_body) {
			f->def = r->func;
		} else {
			r = ptx_map_get(&prog->exports, f->name);
			f->def = r && r->is_func ? r->func : NULL;
		}
		if (f->def)
			check_func_match(cx, f, f->def);
	}
	for (i = 0; i < m->vars.n; i++) {
		struct ptx_var *v = m->vars.v[i];
		struct ptx_symref *r = ptx_map_get(&m->syms, v->name);

		if (v->space == PS_SHARED && v->unsized) {
			v->def = v;
			continue;
		}
		if (v->has_body) {
			r = ptx_map_get(&prog->exports, v->name);
			v->def = r && !r->is_func && exported(v->linkage, false) ?
				 r->var : v;
			continue;
		}
		if (r && !r->is_func && r->var->has_body) {
			v->def = r->var;
		} else {
			r = ptx_map_get(&prog->exports, v->name);
			v->def = r && !r->is_func ? r->var : NULL;
		}
		if (v->def && v->def->space != v->space)
			ptx_fail(cx, VGPU_PTX_ERR_LINK, &v->pos,
				 "'%s' is declared .%s but defined .%s",
				 v->name, ptx_space_name(v->space),
				 ptx_space_name(v->def->space));
	}
}

void ptx_link(struct ptx_ctx *cx, struct ptx_program *prog)
{
	uint32_t i;

	for (i = 0; i < prog->nmods; i++)
		add_exports(cx, prog, &prog->mods[i]);
	for (i = 0; i < prog->nmods; i++)
		bind_decls(cx, prog, &prog->mods[i]);
}

/*
 * A name used by an instruction of module m: the definition it stands for
 * (ptx_link() has bound every declaration of m to its definition).
 * Fails at pos when the name is unknown or bound to nothing.
 */
struct ptx_symref link_resolve(struct ptx_ctx *cx, const struct ptx_module *m,
			       const char *name, const struct ptx_pos *pos)
{
	const struct ptx_symref *r = ptx_map_get(&m->syms, name);
	struct ptx_symref out = { 0 };

	if (!r)
		ptx_fail(cx, VGPU_PTX_ERR_SYNTAX, pos, "unknown symbol '%s'", name);
	out.is_func = r->is_func;
	if (r->is_func) {
		out.func = r->func->def;
		if (!out.func && link_is_builtin(name))
			out.func = r->func;	/* the code generator's job */
		if (!out.func) {
			cx->fail_symbol = name;
			ptx_fail(cx, VGPU_PTX_ERR_LINK, pos,
				 "unresolved external function '%s'", name);
		}
	} else {
		out.var = r->var->def;
		if (!out.var) {
			cx->fail_symbol = name;
			ptx_fail(cx, VGPU_PTX_ERR_LINK, pos,
				 "unresolved external variable '%s'", name);
		}
	}
	return out;
}
