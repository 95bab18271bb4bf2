// SPDX-License-Identifier: GPL-2.0
/*
 * emit.c - write the vISA image (layout in include/vgpu_visa.h).
 *
 * The sections are written in the order of enum visa_section_id, each
 * 8-byte aligned.  Per-kernel metadata that depends on the call graph is
 * computed here: the local memory of the deepest call chain, the largest
 * register window, whether printf/assert or dynamic shared memory are
 * reachable, and recursion.
 */
#include <stdlib.h>
#include <string.h>

#include "codegen.h"

struct outbuf {
	uint8_t *p;
	size_t n, cap;
};

static void out_reserve(struct ptx_ctx *cx, struct outbuf *o, size_t more)
{
	size_t cap;
	uint8_t *np;

	if (o->n + more <= o->cap)
		return;
	cap = o->cap ? o->cap : 4096;
	while (cap < o->n + more)
		cap *= 2;
	np = realloc(o->p, cap);
	if (!np) {
		free(o->p);
		o->p = NULL;
		ptx_fail(cx, VGPU_PTX_ERR_NOMEM, NULL, "out of memory");
	}
	memset(np + o->cap, 0, cap - o->cap);
	o->p = np;
	o->cap = cap;
}

static void out_bytes(struct ptx_ctx *cx, struct outbuf *o, const void *p,
		      size_t n)
{
	out_reserve(cx, o, n);
	if (n)
		memcpy(o->p + o->n, p, n);
	o->n += n;
}

static void out_align(struct ptx_ctx *cx, struct outbuf *o)
{
	out_reserve(cx, o, 8);
	o->n = (o->n + 7) & ~(size_t)7;
}

/* ---- string table ------------------------------------------------------ */

struct strtab {
	struct outbuf buf;
	struct ptx_map index;	/* string -> offset + 1 */
};

static uint32_t str_add(struct ptx_ctx *cx, struct strtab *st, const char *s)
{
	uintptr_t off = (uintptr_t)ptx_map_get(&st->index, s);

	if (off)
		return (uint32_t)(off - 1);
	off = st->buf.n;
	out_bytes(cx, &st->buf, s, strlen(s) + 1);
	ptx_map_put(cx, &st->index, s, (void *)(off + 1));
	return (uint32_t)off;
}

/* ---- call-graph facts per kernel ---------------------------------------- */

static void walk(struct cg *g, uint32_t f, uint8_t *state, struct cg_reach *r,
		 unsigned int depth)
{
	struct cg_fn *fn = g->out.v[f];
	struct cg_reach acc = {
		.regs = fn->num_regs,
		.printf_ = fn->uses_printf,
		.assert_ = fn->uses_assert,
		.heap = fn->uses_heap,
		.dyn_shared = fn->uses_dyn_shared,
	};
	uint64_t deepest = 0;
	uint32_t i;

	if (state[f] == 1 || depth > 4096) {	/* on the stack: a cycle */
		memset(r, 0, sizeof(*r));
		r->recursive = true;
		return;
	}
	if (state[f] == 2) {
		*r = fn->reach;
		return;
	}
	state[f] = 1;
	/* An indirect call may reach any function whose address is taken. */
	for (i = 0; i < fn->callees.n + (fn->has_indirect ? g->out.n : 0); i++) {
		struct cg_reach sub;
		uint32_t callee;

		if (i < fn->callees.n) {
			callee = fn->callees.v[i]->index;
		} else {
			callee = i - fn->callees.n;
			if (!g->out.v[callee]->f->addr_taken)
				continue;
		}
		walk(g, callee, state, &sub, depth + 1);
		if (sub.local > deepest)
			deepest = sub.local;
		if (sub.regs > acc.regs)
			acc.regs = sub.regs;
		acc.printf_ |= sub.printf_;
		acc.assert_ |= sub.assert_;
		acc.heap |= sub.heap;
		acc.dyn_shared |= sub.dyn_shared;
		acc.recursive |= sub.recursive;
	}
	acc.local = fn->f->frame_size + deepest;
	state[f] = 2;
	fn->reach = acc;
	*r = acc;
}

/* ---- sections ------------------------------------------------------------ */

struct image {
	struct outbuf o;
	struct visa_image_header hdr;
};

static void begin_section(struct ptx_ctx *cx, struct image *im,
			  enum visa_section_id id, uint32_t entsize)
{
	out_align(cx, &im->o);
	im->hdr.sections[id].offset = (uint32_t)im->o.n;
	im->hdr.sections[id].entsize = entsize;
}

static void end_section(struct image *im, enum visa_section_id id)
{
	im->hdr.sections[id].size =
		(uint32_t)(im->o.n - im->hdr.sections[id].offset);
	if (!im->hdr.sections[id].size)
		im->hdr.sections[id].offset = 0;
}

static void emit_code(struct cg *g, struct image *im)
{
	uint32_t i, k, start = 0;

	begin_section(g->cx, im, VISA_SEC_CODE, sizeof(struct visa_insn));
	for (i = 0; i < g->out.n; i++) {
		struct cg_fn *fn = g->out.v[i];

		for (k = 0; k < fn->code.n; k++) {
			struct visa_insn in = fn->code.v[k];

			/* Branch targets become absolute indices. */
			if (in.op == VISA_OP_BRA) {
				uint32_t t = VISA_BRA_TARGET(in.imm) + start;
				uint32_t r = VISA_BRA_RECONV(in.imm);

				if (r != VISA_RECONV_EXIT)
					r += start;
				in.imm = VISA_BRA_IMM(t, r);
			}
			out_bytes(g->cx, &im->o, &in, sizeof(in));
		}
		fn->code_start = start;
		start += fn->code.n;
	}
	end_section(im, VISA_SEC_CODE);
}

static void emit_funcs(struct cg *g, struct image *im, struct strtab *st)
{
	uint32_t i, lit = 0;

	begin_section(g->cx, im, VISA_SEC_FUNCS, sizeof(struct visa_func));
	for (i = 0; i < g->out.n; i++) {
		const struct cg_fn *fn = g->out.v[i];
		struct visa_func vf = {
			.name = str_add(g->cx, st, fn->f->name),
			.flags = (fn->f->is_entry ? VISA_FUNC_KERNEL : 0) |
				 (fn->reach.recursive ? VISA_FUNC_RECURSIVE : 0),
			.code_start = fn->code_start,
			.code_count = fn->code.n,
			.lit_start = lit,
			.lit_count = fn->lits.n,
			.num_regs = (uint16_t)fn->num_regs,
			.num_preds = (uint16_t)fn->num_preds,
			.frame_size = fn->f->frame_size,
		};

		lit += fn->lits.n;
		out_bytes(g->cx, &im->o, &vf, sizeof(vf));
	}
	end_section(im, VISA_SEC_FUNCS);
}

static uint32_t product3(const uint32_t v[3])
{
	return v[0] ? v[0] * v[1] * v[2] : 0;
}

static void emit_kernels(struct cg *g, struct image *im, struct strtab *st)
{
	uint32_t i, k, param_first = 0;
	uint32_t limit = g->cx->opts.max_threads_per_block;

	begin_section(g->cx, im, VISA_SEC_KERNELS, sizeof(struct visa_kernel));
	for (i = 0; i < g->out.n; i++) {
		const struct cg_fn *fn = g->out.v[i];
		const struct ptx_func *f = fn->f;
		struct visa_kernel vk = { 0 };
		uint32_t req = product3(f->reqntid), max = product3(f->maxntid);

		if (!f->is_entry)
			continue;
		if ((uint64_t)f->reqntid[0] * f->reqntid[1] * f->reqntid[2] > limit ||
		    (uint64_t)f->maxntid[0] * f->maxntid[1] * f->maxntid[2] > limit)
			ptx_fail(g->cx, VGPU_PTX_ERR_LIMIT, &f->pos,
				 "kernel '%s' asks for more than %u threads per block",
				 f->name, limit);
		vk.name = str_add(g->cx, st, f->name);
		vk.func = f->index;
		vk.param_first = param_first;
		vk.param_count = f->params.n;
		vk.param_size = f->param_size;
		vk.shared_size = cg_kernel_shared_size(g, f);
		if (fn->reach.dyn_shared)
			vk.shared_size = (uint32_t)g->dyn_shared_base;
		vk.shared_align = g->dyn_shared_align;
		vk.local_size = (uint32_t)fn->reach.local;
		vk.num_regs = fn->reach.regs;
		vk.max_threads = req ? req : max ? max : limit;
		for (k = 0; k < 3; k++) {
			vk.reqntid[k] = f->reqntid[0] ? f->reqntid[k] : 0;
			vk.maxntid[k] = f->maxntid[0] ? f->maxntid[k] : 0;
		}
		vk.minnctapersm = f->minnctapersm;
		vk.maxnreg = f->maxnreg;
		for (k = 0; k < 3; k++)
			vk.cluster_dim[k] = f->reqncluster[0] ?
					    f->reqncluster[k] : 0;
		vk.max_cluster_rank = f->maxclusterrank;
		vk.flags = (fn->reach.printf_ ? VISA_KERNEL_USES_PRINTF : 0) |
			   (fn->reach.assert_ ? VISA_KERNEL_USES_ASSERT : 0) |
			   (fn->reach.recursive ? VISA_KERNEL_RECURSIVE : 0) |
			   (f->reserved_smem ? VISA_KERNEL_RESERVED_SMEM : 0) |
			   (f->explicitcluster ? VISA_KERNEL_EXPLICIT_CLUSTER : 0) |
			   /* a recursive walk loses what it reaches */
			   (fn->reach.heap || (fn->reach.recursive &&
					       g->heap_desc) ?
			    VISA_KERNEL_USES_HEAP : 0);
		param_first += f->params.n;
		out_bytes(g->cx, &im->o, &vk, sizeof(vk));
	}
	end_section(im, VISA_SEC_KERNELS);

	begin_section(g->cx, im, VISA_SEC_PARAMS, sizeof(struct visa_param));
	for (i = 0; i < g->out.n; i++) {
		const struct ptx_func *f = g->out.v[i]->f;

		if (!f->is_entry)
			continue;
		for (k = 0; k < f->params.n; k++) {
			const struct ptx_var *p = f->params.v[k];
			struct visa_param vp = {
				.name = str_add(g->cx, st, p->name),
				.offset = (uint32_t)p->addr,
				.size = (uint32_t)p->size,
				.align = p->align ? p->align : 1,
			};

			out_bytes(g->cx, &im->o, &vp, sizeof(vp));
		}
	}
	end_section(im, VISA_SEC_PARAMS);
}

static void emit_literals(struct cg *g, struct image *im)
{
	uint32_t i;

	begin_section(g->cx, im, VISA_SEC_LITERALS, sizeof(uint64_t));
	for (i = 0; i < g->out.n; i++)
		out_bytes(g->cx, &im->o, g->out.v[i]->lits.v,
			  g->out.v[i]->lits.n * sizeof(uint64_t));
	end_section(im, VISA_SEC_LITERALS);
}

/* Initial bytes of a segment: up to the end of the last initialized var. */
static void emit_init(struct cg *g, struct image *im, enum visa_section_id id,
		      const struct ptx_var *const *vars, uint32_t n)
{
	uint64_t end = 0, base;
	uint32_t i;

	for (i = 0; i < n; i++)
		if (vars[i]->init && vars[i]->addr + vars[i]->size > end)
			end = vars[i]->addr + vars[i]->size;
	begin_section(g->cx, im, id, 1);
	base = im->o.n;
	out_reserve(g->cx, &im->o, end);
	memset(im->o.p + base, 0, end);
	for (i = 0; i < n; i++)
		if (vars[i]->init)
			memcpy(im->o.p + base + vars[i]->addr, vars[i]->init,
			       vars[i]->size);
	im->o.n += end;
	end_section(im, id);
}

static void emit_relocs(struct cg *g, struct image *im)
{
	const struct ptx_var *const *lists[2] = {
		(const struct ptx_var *const *)g->globals.v,
		(const struct ptx_var *const *)g->consts.v,
	};
	uint32_t counts[2] = { g->globals.n, g->consts.n }, l, i, k;

	begin_section(g->cx, im, VISA_SEC_RELOCS, sizeof(struct visa_reloc));
	for (l = 0; l < 2; l++) {
		for (i = 0; i < counts[l]; i++) {
			const struct ptx_var *v = lists[l][i];

			for (k = 0; k < v->relocs.n; k++) {
				const struct ptx_init_reloc *r = &v->relocs.v[k];
				struct visa_reloc vr = {
					.space = l ? VISA_SPACE_CONST :
						     VISA_SPACE_GLOBAL,
					.width = (uint8_t)r->size,
					.offset = v->addr + r->offset,
				};

				if (r->func) {
					vr.target_space = VISA_SPACE_FUNC;
					vr.addend = r->func->index;
				} else {
					vr.target_space =
						r->var->space == PS_CONST ?
						VISA_SPACE_CONST : VISA_SPACE_GLOBAL;
					vr.addend = (int64_t)r->var->addr +
						    r->addend;
				}
				out_bytes(g->cx, &im->o, &vr, sizeof(vr));
			}
		}
	}
	end_section(im, VISA_SEC_RELOCS);
}

static void emit_symbols(struct cg *g, struct image *im, struct strtab *st)
{
	const struct ptx_var *const *lists[2] = {
		(const struct ptx_var *const *)g->globals.v,
		(const struct ptx_var *const *)g->consts.v,
	};
	uint32_t counts[2] = { g->globals.n, g->consts.n }, l, i;

	begin_section(g->cx, im, VISA_SEC_SYMBOLS, sizeof(struct visa_symbol));
	for (l = 0; l < 2; l++) {
		for (i = 0; i < counts[l]; i++) {
			const struct ptx_var *v = lists[l][i];
			struct visa_symbol s = {
				.name = str_add(g->cx, st, v->name),
				.space = l ? VISA_SPACE_CONST : VISA_SPACE_GLOBAL,
				.flags = (v->linkage == PL_VISIBLE ||
					  v->linkage == PL_WEAK ||
					  v->linkage == PL_COMMON ?
					  VISA_SYM_VISIBLE : 0) |
					 (v->managed ? VISA_SYM_MANAGED : 0),
				.align = v->align ? v->align : 1,
				.offset = v->addr,
				.size = v->size,
			};

			out_bytes(g->cx, &im->o, &s, sizeof(s));
		}
	}
	end_section(im, VISA_SEC_SYMBOLS);
}

static void emit_lines(struct cg *g, struct image *im, struct strtab *st)
{
	uint32_t i, k;

	begin_section(g->cx, im, VISA_SEC_LINES, sizeof(struct visa_line));
	for (i = 0; i < g->out.n; i++) {
		const struct cg_fn *fn = g->out.v[i];

		for (k = 0; k < fn->lines.n; k++) {
			const struct cg_line *l = &fn->lines.v[k];
			struct visa_line vl = {
				.insn = fn->code_start + l->insn,
				.file = str_add(g->cx, st, l->file),
				.line = l->line,
				.column = l->column,
			};

			out_bytes(g->cx, &im->o, &vl, sizeof(vl));
		}
	}
	end_section(im, VISA_SEC_LINES);
}

void cg_emit_image(struct cg *g, void **image, size_t *size)
{
	/* In the arena, so that compile() can free the buffers on failure. */
	struct image *imp = ptx_alloc(g->cx, sizeof(*imp));
	struct strtab *stp = ptx_alloc(g->cx, sizeof(*stp));
	uint8_t *state = ptx_alloc(g->cx, g->out.n + 1);
	uint32_t i;

	for (i = 0; i < g->out.n; i++) {
		struct cg_reach r;

		walk(g, i, state, &r, 0);
	}
	/* The output buffer is malloc()ed: free it if anything fails. */
	g->outbuf = &imp->o.p;
	g->strbuf = &stp->buf.p;
	str_add(g->cx, stp, "");
	out_reserve(g->cx, &imp->o, sizeof(imp->hdr));
	imp->o.n = sizeof(imp->hdr);
	emit_code(g, imp);
	emit_funcs(g, imp, stp);
	emit_kernels(g, imp, stp);
	emit_literals(g, imp);
	emit_init(g, imp, VISA_SEC_GLOBAL_INIT,
		  (const struct ptx_var *const *)g->globals.v, g->globals.n);
	emit_init(g, imp, VISA_SEC_CONST_INIT,
		  (const struct ptx_var *const *)g->consts.v, g->consts.n);
	emit_relocs(g, imp);
	emit_symbols(g, imp, stp);
	emit_lines(g, imp, stp);
	begin_section(g->cx, imp, VISA_SEC_STRTAB, 1);
	out_bytes(g->cx, &imp->o, stp->buf.p, stp->buf.n);
	end_section(imp, VISA_SEC_STRTAB);
	out_align(g->cx, &imp->o);
	free(stp->buf.p);
	g->strbuf = NULL;

	imp->hdr.magic = VISA_MAGIC;
	imp->hdr.version_major = VISA_VERSION_MAJOR;
	imp->hdr.version_minor = VISA_VERSION_MINOR;
	imp->hdr.header_size = sizeof(imp->hdr);
	imp->hdr.image_size = imp->o.n;
	imp->hdr.global_size = (g->global_size + 7) & ~(uint64_t)7;
	imp->hdr.const_size = (g->const_size + 7) & ~(uint64_t)7;
	imp->hdr.global_align = 256;
	imp->hdr.const_align = 256;
	memcpy(imp->o.p, &imp->hdr, sizeof(imp->hdr));
	g->outbuf = NULL;
	*image = imp->o.p;
	*size = imp->o.n;
}
