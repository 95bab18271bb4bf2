// SPDX-License-Identifier: GPL-2.0
/*
 * parser.c - tokens -> a module of variables and functions.
 *
 * The parser checks the structure of PTX (directives, declarations,
 * statement syntax) and binds register names and function-local variables
 * to their declarations through a stack of scopes, because PTX lets inline
 * asm blocks "{ .reg .b32 t; ... }" reuse names.  Instructions are kept as
 * an opcode, a list of ".modifiers" and operands, the opcode and each
 * modifier as its kind (OP_LD, MOD_GLOBAL: the lists in ptx_ops.h,
 * ptx_mods.h and ptx_types.h), so an unknown word stops here, at its line
 * and column; what a known instruction means is decided later by the
 * instruction selectors, which switch on those kinds.
 * Names at module scope (variables, functions, labels) are resolved after
 * parsing, because calls and branches may refer forward and because
 * .extern names are bound across modules by the linker.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_internal.h"

/* A name in a function scope: a register or a function-local variable. */
struct scope_ent {
	struct ptx_reg *reg;
	struct ptx_var *var;
};

struct parser {
	struct ptx_ctx *cx;
	struct lexer lx;
	struct token tok;		/* current token */
	struct ptx_module *m;
	struct ptx_func *fn;		/* function whose body is parsed */
	PTX_VEC(struct ptx_map *) scopes;
	uint32_t loc_file, loc_line, loc_col;	/* from the last .loc */
};

/* Largest variable with an initializer (its bytes go into the image). */
#define MAX_INIT_BYTES (64u << 20)

#define FAIL(p, pos, ...) \
	ptx_fail((p)->cx, VGPU_PTX_ERR_SYNTAX, (pos), __VA_ARGS__)
#define UNSUPPORTED(p, pos, ...) \
	ptx_fail((p)->cx, VGPU_PTX_ERR_UNSUPPORTED, (pos), __VA_ARGS__)

static void next(struct parser *p)
{
	lex_next(&p->lx, &p->tok);
}

/* Look at the token after the current one without consuming anything. */
static struct token peek(struct parser *p)
{
	struct lexer saved = p->lx;
	struct token t;

	lex_next(&p->lx, &t);
	p->lx = saved;
	return t;
}

static bool is_punct(const struct token *t, char c)
{
	return t->kind == TK_PUNCT && t->punct == c;
}

static bool is_dot(const struct token *t, const char *word)
{
	return t->kind == TK_DOTWORD && !strcmp(t->text, word);
}

/* A token as the user wrote it, for messages ("found '.reg'"). */
static const char *tok_desc(const struct token *t)
{
	static _Thread_local char buf[96];

	if (t->kind == TK_EOF)
		return "end of file";
	if (t->kind == TK_DOTWORD) {
		snprintf(buf, sizeof(buf), ".%s", t->text);
		return buf;
	}
	return t->text;
}

static void expect_punct(struct parser *p, char c)
{
	if (!is_punct(&p->tok, c))
		FAIL(p, &p->tok.pos, "expected '%c' but found '%s'", c,
		     tok_desc(&p->tok));
	next(p);
}

static const char *expect_ident(struct parser *p, const char *what)
{
	const char *s;

	if (p->tok.kind != TK_IDENT)
		FAIL(p, &p->tok.pos, "expected %s but found '%s'", what,
		     tok_desc(&p->tok));
	s = p->tok.text;
	next(p);
	return s;
}

static uint64_t expect_int(struct parser *p, const char *what)
{
	uint64_t v;

	if (p->tok.kind != TK_INT)
		FAIL(p, &p->tok.pos, "expected %s but found '%s'", what,
		     tok_desc(&p->tok));
	v = p->tok.ival;
	next(p);
	return v;
}

/* An integer that must fit in 32 bits (sizes, counts, alignments). */
static uint32_t expect_u32(struct parser *p, const char *what)
{
	struct ptx_pos pos = p->tok.pos;
	uint64_t v = expect_int(p, what);

	if (v > UINT32_MAX)
		FAIL(p, &pos, "%s %llu is too large", what,
		     (unsigned long long)v);
	return (uint32_t)v;
}

/* ---- scopes ------------------------------------------------------------ */

static void push_scope(struct parser *p)
{
	ptx_push(p->cx, &p->scopes, ptx_alloc(p->cx, sizeof(struct ptx_map)));
}

static void pop_scope(struct parser *p)
{
	p->scopes.n--;
}

static struct scope_ent *scope_lookup(struct parser *p, const char *name)
{
	uint32_t i;

	for (i = p->scopes.n; i-- > 0;) {
		struct scope_ent *e = ptx_map_get(p->scopes.v[i], name);

		if (e)
			return e;
	}
	return NULL;
}

static void scope_add(struct parser *p, const char *name, struct ptx_reg *reg,
		      struct ptx_var *var, const struct ptx_pos *pos)
{
	struct ptx_map *top = p->scopes.v[p->scopes.n - 1];
	struct scope_ent *e;

	if (ptx_map_get(top, name))
		FAIL(p, pos, "'%s' is already declared in this scope", name);
	e = ptx_alloc(p->cx, sizeof(*e));
	e->reg = reg;
	e->var = var;
	ptx_map_put(p->cx, top, name, e);
}

/* ---- declarations -------------------------------------------------------- */

/* The qualifiers in front of a declared name: .align, .vN, .type, .ptr. */
struct decl_quals {
	uint32_t align;
	uint32_t vec;
	enum ptx_type type;
	struct ptx_pos type_pos;
};

static void parse_quals(struct parser *p, struct decl_quals *q)
{
	memset(q, 0, sizeof(*q));
	q->vec = 1;
	while (p->tok.kind == TK_DOTWORD) {
		const char *w = p->tok.text;
		struct ptx_pos pos = p->tok.pos;
		enum ptx_type t;

		if (!strcmp(w, "align")) {
			next(p);
			q->align = expect_u32(p, "alignment");
			if (!q->align || (q->align & (q->align - 1)))
				FAIL(p, &pos,
				     "alignment %u is not a power of two",
				     q->align);
			continue;
		}
		if (!strcmp(w, "v2") || !strcmp(w, "v4") || !strcmp(w, "v8")) {
			q->vec = (uint32_t)(w[1] - '0');
			next(p);
			continue;
		}
		if (!strcmp(w, "ptr")) {
			/* .ptr [.space] [.align N]: what a pointer parameter
			 * points to.  That .align is the pointee's, not the
			 * parameter's: it changes no layout. */
			next(p);
			if (p->tok.kind == TK_DOTWORD &&
			    ptx_space_from_name(p->tok.text) != PS_NONE)
				next(p);
			if (is_dot(&p->tok, "align")) {
				next(p);
				expect_u32(p, "alignment");
			}
			continue;
		}
		t = ptx_type_from_name(w);
		/*
		 * .texref/.surfref/.samplerref variables hold a 64-bit
		 * handle: the texture or surface object's descriptor VA
		 * (isel_tex.c; the host stores it, cuModuleGetGlobal).
		 */
		if (!strcmp(w, "texref") || !strcmp(w, "surfref") ||
		    !strcmp(w, "samplerref"))
			t = PT_B64;
		if (t == PT_NONE)
			break;
		if (q->type != PT_NONE)
			FAIL(p, &pos, "more than one type in a declaration");
		q->type = t;
		q->type_pos = pos;
		next(p);
	}
	if (q->type == PT_NONE)
		FAIL(p, &p->tok.pos, "expected a type but found '%s'",
		     tok_desc(&p->tok));
}

/* Array dimensions: [N][M]... or [] (size from initializer / extern). */
static uint64_t parse_dims(struct parser *p, bool *unsized)
{
	uint64_t count = 1;
	bool first = true;

	*unsized = false;
	while (is_punct(&p->tok, '[')) {
		struct ptx_pos pos = p->tok.pos;

		next(p);
		if (is_punct(&p->tok, ']')) {
			if (!first)
				FAIL(p, &pos, "only the first array dimension may be empty");
			*unsized = true;
		} else {
			uint64_t n = expect_int(p, "array size");

			if (n && count > (UINT64_C(1) << 40) / n)
				FAIL(p, &pos, "array is too large");
			count *= n;
		}
		expect_punct(p, ']');
		first = false;
	}
	return count;
}

/* Store one initializer element of type t at byte offset off. */
static void store_init_elem(struct parser *p, struct ptx_var *v,
			    uint64_t off, const struct token *t, bool negate)
{
	enum ptx_type ty = v->type;
	unsigned int size = ptx_type_size(ty);
	uint64_t bits = t->ival;

	if (ptx_type_class(ty) == TC_FLOAT && ty != PT_F16X2 &&
	    ty != PT_BF16X2) {
		double d;

		if (t->kind == TK_INT) {
			d = (double)t->ival;
		} else if (t->is_f32) {
			float f;
			uint32_t b32 = (uint32_t)t->ival;

			memcpy(&f, &b32, 4);
			d = f;
		} else {
			memcpy(&d, &t->ival, 8);
		}
		if (negate)
			d = -d;
		if (ty == PT_F32) {
			float f = (float)d;
			uint32_t b32;

			if (t->kind == TK_FLOAT && t->is_f32 && !negate) {
				b32 = (uint32_t)t->ival;	/* keep NaN bits */
			} else {
				memcpy(&b32, &f, 4);
			}
			bits = b32;
		} else if (ty == PT_F64) {
			if (t->kind == TK_FLOAT && !t->is_f32 && !negate)
				bits = t->ival;
			else
				memcpy(&bits, &d, 8);
		} else {
			UNSUPPORTED(p, &t->pos,
				    "initializers of .%s variables are not supported",
				    ptx_type_name(ty));
		}
	} else {
		if (t->kind != TK_INT)
			FAIL(p, &t->pos,
			     "floating-point initializer for a .%s variable",
			     ptx_type_name(ty));
		if (negate)
			bits = (uint64_t)0 - bits;
	}
	if (off + size > v->size)
		FAIL(p, &t->pos, "too many initializers for '%s'", v->name);
	memcpy(v->init + off, &bits, size);	/* little-endian host */
}

/* One element: number, -number, name[+off], generic(name)[+off]. */
static void parse_init_elem(struct parser *p, struct ptx_var *v, uint64_t off)
{
	unsigned int size = ptx_type_size(v->type);
	bool negate = false;

	if (is_punct(&p->tok, '-')) {
		negate = true;
		next(p);
	}
	if (p->tok.kind == TK_INT || p->tok.kind == TK_FLOAT) {
		store_init_elem(p, v, off, &p->tok, negate);
		next(p);
		return;
	}
	if (p->tok.kind == TK_IDENT && !negate) {
		struct ptx_init_reloc r = { .offset = off, .size = size,
					    .pos = p->tok.pos };

		struct token nt = peek(p);

		if (!strcmp(p->tok.text, "generic") && is_punct(&nt, '(')) {
			next(p);
			expect_punct(p, '(');
			r.generic = true;
			r.sym = expect_ident(p, "variable name");
			expect_punct(p, ')');
		} else {
			r.sym = p->tok.text;
			next(p);
		}
		if (is_punct(&p->tok, '+')) {
			next(p);
			r.addend = (int64_t)expect_int(p, "offset");
		}
		if (size != 4 && size != 8)
			FAIL(p, &r.pos,
			     "an address initializer needs a 32- or 64-bit variable");
		if (off + size > v->size)
			FAIL(p, &r.pos, "too many initializers for '%s'",
			     v->name);
		ptx_push(p->cx, &v->relocs, r);
		return;
	}
	FAIL(p, &p->tok.pos, "expected an initializer value but found '%s'",
	     tok_desc(&p->tok));
}

/* Flattened list: {1, 2, {3, 4}} or a single value. */
static void parse_init_list(struct parser *p, struct ptx_var *v,
			    uint64_t *off, unsigned int depth)
{
	unsigned int esize = ptx_type_size(v->type);

	if (depth > 8)
		FAIL(p, &p->tok.pos, "initializer nested too deeply");
	if (!is_punct(&p->tok, '{')) {
		parse_init_elem(p, v, *off);
		*off += esize;
		return;
	}
	next(p);
	if (is_punct(&p->tok, '}')) {
		next(p);
		return;
	}
	for (;;) {
		parse_init_list(p, v, off, depth + 1);
		if (!is_punct(&p->tok, ','))
			break;
		next(p);
	}
	expect_punct(p, '}');
}

/* Count the elements of an initializer of an unsized array, then parse. */
static void parse_initializer(struct parser *p, struct ptx_var *v)
{
	uint64_t off = 0;

	if (v->space != PS_GLOBAL && v->space != PS_CONST)
		UNSUPPORTED(p, &p->tok.pos,
			    "initializers are only supported for .global and .const variables");
	if (v->unsized) {
		/* Size the array from a first pass over a copy of the lexer. */
		struct lexer saved = p->lx;
		struct token tok = p->tok;
		uint64_t n = 0;
		int depth = 0;

		do {
			if (is_punct(&p->tok, '{'))
				depth++;
			else if (is_punct(&p->tok, '}'))
				depth--;
			else if (p->tok.kind == TK_INT ||
				 p->tok.kind == TK_FLOAT ||
				 (p->tok.kind == TK_IDENT &&
				  strcmp(p->tok.text, "generic")))
				n++;
			else if (p->tok.kind == TK_EOF)
				FAIL(p, &tok.pos, "unterminated initializer");
			next(p);
		} while (depth > 0);
		p->lx = saved;
		p->tok = tok;
		v->size = n * ptx_type_size(v->type) * v->vec;
		v->unsized = false;
	}
	/* The image carries initial bytes: keep them to a sane size. */
	if (v->size > MAX_INIT_BYTES)
		ptx_fail(p->cx, VGPU_PTX_ERR_LIMIT, &v->pos,
			 "initialized variable '%s' is larger than %u MiB",
			 v->name, MAX_INIT_BYTES >> 20);
	v->init = ptx_alloc(p->cx, v->size);
	parse_init_list(p, v, &off, 0);
}

static struct ptx_var *new_var(struct parser *p, const char *name,
			       enum ptx_space space, const struct decl_quals *q,
			       const struct ptx_pos *pos)
{
	struct ptx_var *v = ptx_alloc(p->cx, sizeof(*v));
	unsigned int esize = ptx_type_size(q->type) * q->vec;

	v->name = name;
	v->space = space;
	v->type = q->type;
	v->vec = q->vec;
	v->align = q->align ? q->align : esize;
	if (v->align < esize && q->align)
		FAIL(p, pos, "alignment %u of '%s' is smaller than its element size %u",
		     v->align, name, esize);
	v->pos = *pos;
	v->module = p->m->src;
	return v;
}

/* .reg .type %r<N>, %x, %y;  (inside a function) */
static void parse_reg_decl(struct parser *p)
{
	struct decl_quals q;

	next(p);	/* .reg */
	parse_quals(p, &q);
	if (q.vec != 1)
		UNSUPPORTED(p, &q.type_pos, "vector registers (.v%u .reg) are not supported",
			    q.vec);
	if (q.type == PT_B128)
		UNSUPPORTED(p, &q.type_pos, ".b128 registers are not supported");
	for (;;) {
		struct ptx_pos pos = p->tok.pos;
		const char *name = expect_ident(p, "register name");
		uint32_t count = 0, i;
		bool range = false;

		if (is_punct(&p->tok, '<')) {
			next(p);
			count = expect_u32(p, "register count");
			expect_punct(p, '>');
			range = true;
			if (count > 1000000)
				UNSUPPORTED(p, &pos, "too many registers (%u)", count);
		}
		for (i = 0; i < (range ? count : 1); i++) {
			struct ptx_reg *r = ptx_alloc(p->cx, sizeof(*r));

			if (range) {
				char buf[160];

				snprintf(buf, sizeof(buf), "%s%u", name, i);
				r->name = ptx_strndup(p->cx, buf, strlen(buf));
			} else {
				r->name = name;
			}
			r->type = q.type;
			r->vec = 1;
			r->id = p->fn->regs.n;
			ptx_push(p->cx, &p->fn->regs, r);
			scope_add(p, r->name, r, NULL, &pos);
		}
		if (!is_punct(&p->tok, ','))
			break;
		next(p);
	}
	expect_punct(p, ';');
}

/*
 * A variable declaration after its state space: at module scope (.global,
 * .const, .shared) or in a function (.local, .shared, .param, ...).
 */
static void parse_var_decl(struct parser *p, enum ptx_space space,
			   enum ptx_linkage linkage, bool in_func)
{
	struct decl_quals q;
	bool managed = false;

	/*
	 * .attribute(.managed): a __managed__ variable, which the host
	 * reaches at the same address as the device (the loader places it).
	 */
	if (is_dot(&p->tok, "attribute")) {
		struct ptx_pos pos = p->tok.pos;

		next(p);
		expect_punct(p, '(');
		if (space != PS_GLOBAL || in_func || !is_dot(&p->tok, "managed"))
			UNSUPPORTED(p, &pos, "only .global .attribute(.managed) is supported");
		next(p);
		expect_punct(p, ')');
		managed = true;
	}
	parse_quals(p, &q);
	for (;;) {
		struct ptx_pos pos = p->tok.pos;
		const char *name = expect_ident(p, "variable name");
		struct ptx_var *v = new_var(p, name, space, &q, &pos);
		bool unsized;
		uint64_t n = parse_dims(p, &unsized);

		if (name[0] == '%')
			FAIL(p, &pos, "'%s': names starting with '%%' are reserved for registers",
			     name);
		v->linkage = linkage;
		v->managed = managed;
		v->unsized = unsized;
		v->size = unsized ? 0 : n * ptx_type_size(q.type) * q.vec;
		v->has_body = linkage != PL_EXTERN;
		if (is_punct(&p->tok, '=')) {
			if (linkage == PL_EXTERN)
				FAIL(p, &p->tok.pos, "an .extern variable cannot have an initializer");
			next(p);
			parse_initializer(p, v);
		}
		if (v->unsized && !(linkage == PL_EXTERN && space == PS_SHARED) &&
		    linkage != PL_EXTERN)
			FAIL(p, &pos, "array '%s' has no size", name);
		if (in_func) {
			ptx_push(p->cx, &p->fn->locals, v);
			scope_add(p, name, NULL, v, &pos);
		} else {
			struct ptx_symref *old = ptx_map_get(&p->m->syms, name);
			struct ptx_symref *ref;

			if (old && (old->is_func || old->var->has_body) &&
			    v->has_body)
				FAIL(p, &pos, "'%s' is already defined", name);
			ref = ptx_alloc(p->cx, sizeof(*ref));
			ref->var = v;
			if (!old || v->has_body)
				ptx_map_put(p->cx, &p->m->syms, name, ref);
			ptx_push(p->cx, &p->m->vars, v);
		}
		if (!is_punct(&p->tok, ','))
			break;
		next(p);
	}
	expect_punct(p, ';');
}

/* ( .param .type name, ... ) of a function or kernel. */
static void parse_param_list(struct parser *p, struct ptx_func *f, bool rets)
{
	expect_punct(p, '(');
	if (is_punct(&p->tok, ')')) {
		next(p);
		return;
	}
	for (;;) {
		struct ptx_pos pos = p->tok.pos;
		struct decl_quals q;
		struct ptx_var *v;
		const char *name;
		bool unsized;
		uint64_t n;

		if (is_dot(&p->tok, "reg"))
			UNSUPPORTED(p, &pos, ".reg parameters are not supported; use .param");
		if (!is_dot(&p->tok, "param"))
			FAIL(p, &pos, "expected .param but found '%s'",
			     tok_desc(&p->tok));
		next(p);
		parse_quals(p, &q);
		pos = p->tok.pos;
		name = expect_ident(p, "parameter name");
		n = parse_dims(p, &unsized);
		if (unsized)
			FAIL(p, &pos, "parameter '%s' has no size", name);
		v = new_var(p, name, PS_PARAM, &q, &pos);
		v->size = n * ptx_type_size(q.type) * q.vec;
		v->has_body = true;
		ptx_push(p->cx, rets ? &f->rets : &f->params, v);
		if (!is_punct(&p->tok, ','))
			break;
		next(p);
	}
	expect_punct(p, ')');
}

/* .maxntid 256, 1, 1 and friends: 1 to 3 numbers. */
static void parse_dim3(struct parser *p, uint32_t out[3])
{
	unsigned int i;

	out[0] = out[1] = out[2] = 1;
	for (i = 0; i < 3; i++) {
		struct ptx_pos pos = p->tok.pos;

		out[i] = expect_u32(p, "thread count");
		if (!out[i])
			FAIL(p, &pos, "thread count must not be 0");
		if (!is_punct(&p->tok, ','))
			break;
		next(p);
	}
}

static void parse_perf_directives(struct parser *p, struct ptx_func *f)
{
	while (p->tok.kind == TK_DOTWORD) {
		const char *w = p->tok.text;
		struct ptx_pos pos = p->tok.pos;

		if (!strcmp(w, "maxntid")) {
			next(p);
			parse_dim3(p, f->maxntid);
		} else if (!strcmp(w, "reqntid")) {
			next(p);
			parse_dim3(p, f->reqntid);
		} else if (!strcmp(w, "minnctapersm") ||
			   !strcmp(w, "maxnctapersm")) {
			next(p);
			f->minnctapersm = expect_u32(p, "block count");
		} else if (!strcmp(w, "maxnreg")) {
			next(p);
			f->maxnreg = expect_u32(p, "register count");
		} else if (!strcmp(w, "noreturn")) {
			next(p);
			f->noreturn = true;
		} else if (!strcmp(w, "pragma")) {
			next(p);
			if (p->tok.kind != TK_STRING)
				FAIL(p, &p->tok.pos, "expected a string after .pragma");
			next(p);
			expect_punct(p, ';');
		} else if (!strcmp(w, "reqnctapercluster")) {
			/* thread-block clusters (isel_coop.c) */
			next(p);
			parse_dim3(p, f->reqncluster);
		} else if (!strcmp(w, "explicitcluster")) {
			next(p);
			f->explicitcluster = true;
		} else if (!strcmp(w, "maxclusterrank")) {
			next(p);
			f->maxclusterrank = expect_u32(p, "block count");
		} else if (!strcmp(w, "abi_preserve") ||
			   !strcmp(w, "abi_preserve_control")) {
			next(p);
			expect_int(p, "register count");
		} else {
			break;
		}
		if (f->is_entry == false && (!strcmp(w, "maxntid") ||
					     !strcmp(w, "reqntid") ||
					     !strcmp(w, "minnctapersm")))
			FAIL(p, &pos, ".%s is only allowed on .entry", w);
	}
}

/* ---- statements ------------------------------------------------------- */

static const struct {
	const char *name;
	enum ptx_sreg sreg;
	bool has_comp;
} sreg_names[] = {
	{ "%tid", SR_TID, true }, { "%ntid", SR_NTID, true },
	{ "%ctaid", SR_CTAID, true }, { "%nctaid", SR_NCTAID, true },
	{ "%laneid", SR_LANEID, false }, { "%warpid", SR_WARPID, false },
	{ "%nwarpid", SR_NWARPID, false }, { "%smid", SR_SMID, false },
	{ "%nsmid", SR_NSMID, false }, { "%gridid", SR_GRIDID, false },
	{ "%clock", SR_CLOCK, false }, { "%clock_hi", SR_CLOCK_HI, false },
	{ "%clock64", SR_CLOCK64, false },
	{ "%globaltimer", SR_GLOBALTIMER, false },
	{ "%globaltimer_lo", SR_GLOBALTIMER_LO, false },
	{ "%globaltimer_hi", SR_GLOBALTIMER_HI, false },
	{ "%lanemask_eq", SR_LANEMASK_EQ, false },
	{ "%lanemask_le", SR_LANEMASK_LE, false },
	{ "%lanemask_lt", SR_LANEMASK_LT, false },
	{ "%lanemask_ge", SR_LANEMASK_GE, false },
	{ "%lanemask_gt", SR_LANEMASK_GT, false },
	{ "%dynamic_smem_size", SR_DYN_SMEM, false },
	{ "%total_smem_size", SR_TOTAL_SMEM, false },
	{ "%aggr_smem_size", SR_AGGR_SMEM, false },
	{ "%clusterid", SR_CLUSTERID, true },
	{ "%nclusterid", SR_NCLUSTERID, true },
	{ "%cluster_ctaid", SR_CLUSTER_CTAID, true },
	{ "%cluster_nctaid", SR_CLUSTER_NCTAID, true },
	{ "%cluster_ctarank", SR_CLUSTER_CTARANK, false },
	{ "%cluster_nctarank", SR_CLUSTER_NCTARANK, false },
	{ "%is_explicit_cluster", SR_IS_EXPLICIT_CLUSTER, false },
	{ "%reserved_smem_offset_begin", SR_RESERVED_SMEM_BEGIN, false },
	{ "%reserved_smem_offset_end", SR_RESERVED_SMEM_END, false },
	{ "%reserved_smem_offset_cap", SR_RESERVED_SMEM_CAP, false },
	{ "%reserved_smem_offset_0", SR_RESERVED_SMEM_0, false },
	{ "%reserved_smem_offset_1", SR_RESERVED_SMEM_1, false },
};

/* %tid.x etc.; also %envregN and %pmN (index in comp). */
static bool parse_sreg(struct parser *p, const char *name,
		       struct ptx_operand *o)
{
	unsigned int i;

	for (i = 0; i < sizeof(sreg_names) / sizeof(sreg_names[0]); i++) {
		if (strcmp(name, sreg_names[i].name))
			continue;
		o->kind = PO_SREG;
		o->sreg = sreg_names[i].sreg;
		o->sym = name;		/* for messages */
		if (sreg_names[i].has_comp) {
			const char *c = p->tok.kind == TK_DOTWORD ?
					p->tok.text : "";

			if (strlen(c) != 1 || c[0] < 'x' || c[0] > 'z')
				FAIL(p, &p->tok.pos, "%s needs a component .x, .y or .z",
				     name);
			o->comp = (uint32_t)(c[0] - 'x');
			next(p);
		}
		return true;
	}
	if (!strncmp(name, "%envreg", 7) || !strncmp(name, "%pm", 3)) {
		char *end;
		const char *digits = name + (name[1] == 'e' ? 7 : 3);
		unsigned long n = strtoul(digits, &end, 10);

		if (*digits && !*end && n < 32) {
			o->kind = PO_SREG;
			o->sym = name;
			o->sreg = name[1] == 'e' ? SR_ENVREG : SR_PM;
			o->comp = (uint32_t)n;
			return true;
		}
	}
	return false;
}

static struct ptx_reg *lookup_reg(struct parser *p, const char *name,
				  const struct ptx_pos *pos)
{
	struct scope_ent *e = scope_lookup(p, name);

	if (!e || !e->reg)
		FAIL(p, pos, "unknown register '%s'", name);
	return e->reg;
}

static void parse_operand(struct parser *p, struct ptx_operand *o);
static void parse_group(struct parser *p, struct ptx_operand *o, char close,
			enum ptx_opnd_kind kind);

/* %r1.b0, %r2.h10, %r3.b7654: the part selectors of video instructions. */
static bool is_video_selector(const char *s)
{
	if (s[0] != 'b' && s[0] != 'h')
		return false;
	if (!s[1])
		return false;
	for (s++; *s; s++)
		if (*s < '0' || *s > '7')
			return false;
	return true;
}

/* Only the video instructions (vadd, vadd4, vset2, ...) take selectors. */
/* Bind a name to a function-local variable now; others are left to link. */
static void bind_local_symbol(struct parser *p, struct ptx_operand *o)
{
	struct scope_ent *e = scope_lookup(p, o->sym);

	if (e && e->var)
		o->var = e->var;
	else if (e && e->reg)
		FAIL(p, &o->pos, "register '%s' used where a name is expected",
		     o->sym);
}

static int64_t parse_offset(struct parser *p)
{
	bool neg = false;
	uint64_t v;

	if (is_punct(&p->tok, '+')) {
		next(p);
		if (is_punct(&p->tok, '-')) {	/* nvcc writes [%rd1+-4] */
			neg = true;
			next(p);
		}
	} else if (is_punct(&p->tok, '-')) {
		neg = true;
		next(p);
	} else {
		return 0;
	}
	v = expect_int(p, "offset");
	return neg ? -(int64_t)v : (int64_t)v;
}

/* [ %rd1 + 8 ], [ sym + 4 ], [ 1024 ] */
static void parse_address(struct parser *p, struct ptx_operand *o)
{
	next(p);	/* [ */
	o->kind = PO_ADDR;
	if (p->tok.kind == TK_INT) {
		o->off = (int64_t)p->tok.ival;
		next(p);
	} else if (p->tok.kind == TK_IDENT) {
		struct ptx_pos pos = p->tok.pos;
		const char *name = p->tok.text;

		next(p);
		struct scope_ent *e = scope_lookup(p, name);

		if (e && e->reg) {
			o->reg = e->reg;
		} else if (name[0] == '%') {
			FAIL(p, &pos, "unknown register '%s'", name);
		} else {
			o->sym = name;
			bind_local_symbol(p, o);
		}
		o->off = parse_offset(p);
	} else {
		FAIL(p, &p->tok.pos, "expected an address but found '%s'",
		     tok_desc(&p->tok));
	}
	/* tex/suld/sust: [handle, {coordinates}] (isel_tex.c) */
	if (is_punct(&p->tok, ',')) {
		struct ptx_operand v;

		next(p);
		if (!is_punct(&p->tok, '{'))
			FAIL(p, &p->tok.pos, "expected '{' of coordinates but found '%s'",
			     tok_desc(&p->tok));
		/* not a vector: tensor coordinates come in 1 to 5 */
		parse_group(p, &v, '}', PO_LIST);
		o->elems = v.elems;
		o->nelems = v.nelems;
	}
	expect_punct(p, ']');
}

/* { a, b } or ( a, b ): the opening bracket is the current token. */
static void parse_group(struct parser *p, struct ptx_operand *o, char close,
			enum ptx_opnd_kind kind)
{
	PTX_VEC(struct ptx_operand) elems = { 0 };

	next(p);
	o->kind = kind;
	if (!is_punct(&p->tok, close)) {
		for (;;) {
			struct ptx_operand e;

			parse_operand(p, &e);
			if (e.kind == PO_VEC || e.kind == PO_LIST ||
			    e.kind == PO_ADDR)
				FAIL(p, &e.pos, "nested operand group");
			ptx_push(p->cx, &elems, e);
			if (!is_punct(&p->tok, ','))
				break;
			next(p);
		}
	}
	expect_punct(p, close);
	/* {%r1}: mma.sync and ldmatrix fragments of one register */
	if (kind == PO_VEC && elems.n != 1 && elems.n != 2 && elems.n != 4 &&
	    elems.n != 8)
		FAIL(p, &o->pos, "a vector operand has 1, 2, 4 or 8 elements, not %u",
		     elems.n);
	o->elems = elems.v;
	o->nelems = elems.n;
}

static void parse_operand(struct parser *p, struct ptx_operand *o)
{
	memset(o, 0, sizeof(*o));
	o->pos = p->tok.pos;
	if (is_punct(&p->tok, '[')) {
		parse_address(p, o);
		return;
	}
	if (is_punct(&p->tok, '{')) {
		parse_group(p, o, '}', PO_VEC);
		return;
	}
	if (is_punct(&p->tok, '(')) {
		parse_group(p, o, ')', PO_LIST);
		return;
	}
	if (is_punct(&p->tok, '!')) {
		next(p);
		o->neg = true;
		if (p->tok.kind != TK_IDENT)
			FAIL(p, &p->tok.pos, "'!' must be followed by a predicate register");
	}
	if (is_punct(&p->tok, '-')) {
		next(p);
		if (p->tok.kind == TK_INT) {
			o->kind = PO_IMM;
			o->imm = (uint64_t)0 - p->tok.ival;
		} else if (p->tok.kind == TK_FLOAT) {
			o->kind = PO_FIMM;
			o->is_f32 = p->tok.is_f32;
			o->imm = p->tok.ival ^ (p->tok.is_f32 ?
						UINT64_C(0x80000000) :
						UINT64_C(0x8000000000000000));
		} else {
			FAIL(p, &p->tok.pos, "expected a number after '-'");
		}
		next(p);
		return;
	}
	switch (p->tok.kind) {
	case TK_INT:
		o->kind = PO_IMM;
		o->imm = p->tok.ival;
		next(p);
		return;
	case TK_FLOAT:
		o->kind = PO_FIMM;
		o->is_f32 = p->tok.is_f32;
		o->imm = p->tok.ival;
		next(p);
		return;
	case TK_IDENT: {
		const char *name = p->tok.text;
		struct scope_ent *e;

		next(p);
		if (!strcmp(name, "_")) {
			o->kind = PO_SINK;
			return;
		}
		e = scope_lookup(p, name);
		if (name[0] != '%' && !(e && e->reg)) {
			if (o->neg)
				FAIL(p, &o->pos, "'!' must be followed by a predicate register");
			o->kind = PO_SYM;
			o->sym = name;
			bind_local_symbol(p, o);
			o->off = parse_offset(p);
			return;
		}
		if (e && e->reg) {
			o->kind = PO_REG;
			o->reg = e->reg;
			if (p->tok.kind == TK_DOTWORD &&
			    is_video_selector(p->tok.text)) {
				o->vsel = p->tok.text;
				next(p);
			}
		} else if (!parse_sreg(p, name, o)) {
			FAIL(p, &o->pos, "unknown register '%s'", name);
		}
		if (is_punct(&p->tok, '|')) {
			struct ptx_pos pos;

			next(p);
			pos = p->tok.pos;
			o->pred2 = lookup_reg(p, expect_ident(p, "predicate register"),
					      &pos);
		}
		return;
	}
	default:
		FAIL(p, &p->tok.pos, "expected an operand but found '%s'",
		     tok_desc(&p->tok));
	}
}

/*
 * An opcode not in ptx_ops.h: say so before its operands can produce a
 * less helpful syntax error, and name the families known to be missing
 * (warpgroup tensor cores, tcgen05, ...) as such.
 */
static void unknown_opcode(struct parser *p, const char *op,
			   const struct ptx_pos *pos)
{
	static const char *const families[] = {
		"wgmma",
		"tcgen05", "setmaxnreg", "multimem", "clusterlaunchcontrol",
		/* video: negated operands ({-}a) are not parsed */
		"vmad",
	};
	unsigned int i;

	for (i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (!strcmp(op, families[i]))
			UNSUPPORTED(p, pos, "'%s' instructions are not supported",
				    op);
	UNSUPPORTED(p, pos, "unknown or unsupported instruction '%s'", op);
}

static void parse_instruction(struct parser *p)
{
	struct ptx_insn *in = ptx_alloc(p->cx, sizeof(*in));
	PTX_VEC(struct ptx_operand) ops = { 0 };
	struct ptx_stmt st = { .kind = ST_INSN };
	const char *opname;

	in->line_info = p->loc_line;
	in->file_info = p->loc_file;
	in->col_info = p->loc_col;
	if (is_punct(&p->tok, '@')) {
		struct ptx_pos pos;

		next(p);
		if (is_punct(&p->tok, '!')) {
			in->guard_neg = true;
			next(p);
		}
		pos = p->tok.pos;
		in->guard = lookup_reg(p, expect_ident(p, "predicate register"),
				       &pos);
		if (in->guard->type != PT_PRED)
			FAIL(p, &pos, "guard '%s' is not a predicate register",
			     in->guard->name);
	}
	in->pos = p->tok.pos;
	opname = expect_ident(p, "instruction");
	in->op = ptx_op_lookup(opname);
	if (in->op == OP_NONE)
		unknown_opcode(p, opname, &in->pos);
	while (p->tok.kind == TK_DOTWORD) {
		enum ptx_mod mod = ptx_mod_lookup(p->tok.text);

		if (in->nmods == PTX_MAX_MODS)
			FAIL(p, &p->tok.pos, "too many modifiers on '%s'", opname);
		if (mod == MOD_NONE)
			UNSUPPORTED(p, &p->tok.pos,
				    "modifier '.%s' of '%s' is not supported",
				    p->tok.text, opname);
		in->mods[in->nmods++] = mod;
		next(p);
	}
	if (!is_punct(&p->tok, ';')) {
		for (;;) {
			struct ptx_operand o;

			parse_operand(p, &o);
			ptx_push(p->cx, &ops, o);
			if (!is_punct(&p->tok, ','))
				break;
			next(p);
		}
	}
	expect_punct(p, ';');
	if (!(ptx_op_flags(in->op) & OPF_VIDEO)) {
		uint32_t i;

		for (i = 0; i < ops.n; i++)
			if (ops.v[i].vsel)
				FAIL(p, &ops.v[i].pos,
				     "selector .%s is only allowed on video instructions",
				     ops.v[i].vsel);
	}
	in->ops = ops.v;
	in->nops = ops.n;
	st.insn = in;
	ptx_push(p->cx, &p->fn->stmts, st);
}

/* .loc file line column [, function_name ..., inlined_at ...] */
static void parse_loc(struct parser *p)
{
	uint32_t file, line, col;

	next(p);
	file = expect_u32(p, "file number");
	line = expect_u32(p, "line number");
	col = expect_u32(p, "column number");
	/* Inlining information (-lineinfo): kept out of the line table. */
	while (is_punct(&p->tok, ',')) {
		next(p);
		if (p->tok.kind == TK_IDENT &&
		    !strcmp(p->tok.text, "function_name")) {
			next(p);
			expect_ident(p, "function name label");
			parse_offset(p);
		} else if (p->tok.kind == TK_IDENT &&
			   !strcmp(p->tok.text, "inlined_at")) {
			next(p);
			expect_u32(p, "file number");
			expect_u32(p, "line number");
			expect_u32(p, "column number");
		} else {
			FAIL(p, &p->tok.pos, "unexpected '%s' in .loc",
			     tok_desc(&p->tok));
		}
	}
	p->loc_file = file;
	p->loc_line = line;
	p->loc_col = col;
}

/*
 * name: .callprototype [(.param .b32 _)] _ (.param .b64 _, ...);
 * The type of an indirect call: it lays out arguments like a function.
 */
static void parse_callprototype(struct parser *p, const struct ptx_label *l)
{
	struct ptx_func *proto = ptx_alloc(p->cx, sizeof(*proto));

	next(p);	/* .callprototype */
	proto->name = l->name;
	proto->pos = l->pos;
	proto->is_proto = true;
	proto->module = p->m->src;
	if (is_punct(&p->tok, '('))
		parse_param_list(p, proto, true);
	if (p->tok.kind != TK_IDENT || strcmp(p->tok.text, "_"))
		FAIL(p, &p->tok.pos, "expected '_' in .callprototype but found '%s'",
		     tok_desc(&p->tok));
	next(p);
	if (is_punct(&p->tok, '('))
		parse_param_list(p, proto, false);
	expect_punct(p, ';');
	if (ptx_map_get(&p->fn->protos, l->name) ||
	    ptx_map_get(&p->fn->labels, l->name))
		FAIL(p, &l->pos, "'%s' is already defined", l->name);
	ptx_map_put(p->cx, &p->fn->protos, l->name, proto);
	ptx_push(p->cx, &p->fn->proto_list, proto);
}

/*
 * name: .branchtargets L0, L1, ...;
 * The labels brx.idx may jump to (isel_brx.c resolves them).
 */
static void parse_branchtargets(struct parser *p, const struct ptx_label *l)
{
	struct ptx_btlist *bt = ptx_alloc(p->cx, sizeof(*bt));

	next(p);	/* .branchtargets */
	bt->name = l->name;
	bt->pos = l->pos;
	for (;;) {
		if (p->tok.kind != TK_IDENT)
			FAIL(p, &p->tok.pos, "expected a label in .branchtargets but found '%s'",
			     tok_desc(&p->tok));
		ptx_push(p->cx, &bt->labels, p->tok.text);
		ptx_push(p->cx, &bt->lpos, p->tok.pos);
		next(p);
		if (!is_punct(&p->tok, ','))
			break;
		next(p);
	}
	expect_punct(p, ';');
	if (ptx_map_get(&p->fn->btlists, l->name) ||
	    ptx_map_get(&p->fn->labels, l->name))
		FAIL(p, &l->pos, "'%s' is already defined", l->name);
	ptx_map_put(p->cx, &p->fn->btlists, l->name, bt);
}

static void parse_label(struct parser *p)
{
	struct ptx_label *l = ptx_alloc(p->cx, sizeof(*l));
	struct ptx_stmt st = { .kind = ST_LABEL };

	l->pos = p->tok.pos;
	l->name = p->tok.text;
	next(p);	/* name */
	next(p);	/* : */
	if (is_dot(&p->tok, "callprototype"))
		return parse_callprototype(p, l);
	if (is_dot(&p->tok, "branchtargets"))
		return parse_branchtargets(p, l);
	if (ptx_map_get(&p->fn->labels, l->name))
		FAIL(p, &l->pos, "label '%s' is already defined", l->name);
	l->stmt = p->fn->stmts.n;
	ptx_map_put(p->cx, &p->fn->labels, l->name, l);
	st.label = l;
	ptx_push(p->cx, &p->fn->stmts, st);
}

static void parse_block(struct parser *p, unsigned int depth)
{
	struct ptx_pos open = p->tok.pos;

	if (depth > 64)
		FAIL(p, &open, "blocks nested too deeply");
	expect_punct(p, '{');
	push_scope(p);
	for (;;) {
		struct token *t = &p->tok;

		if (t->kind == TK_EOF)
			FAIL(p, &open, "'{' is never closed");
		if (is_punct(t, '}')) {
			next(p);
			break;
		}
		if (is_punct(t, '{')) {
			parse_block(p, depth + 1);
		} else if (t->kind == TK_DOTWORD) {
			const char *w = t->text;
			enum ptx_space sp = ptx_space_from_name(w);
			struct ptx_pos pos = t->pos;

			if (!strcmp(w, "reg")) {
				parse_reg_decl(p);
			} else if (!strcmp(w, "loc")) {
				parse_loc(p);
			} else if (!strcmp(w, "pragma")) {
				next(p);
				if (p->tok.kind != TK_STRING)
					FAIL(p, &p->tok.pos, "expected a string after .pragma");
				next(p);
				expect_punct(p, ';');
			} else if (sp == PS_LOCAL || sp == PS_SHARED ||
				   sp == PS_PARAM || sp == PS_CONST ||
				   sp == PS_GLOBAL) {
				next(p);
				if (sp == PS_GLOBAL || sp == PS_CONST)
					UNSUPPORTED(p, &pos, ".%s variables inside a function are not supported",
						    w);
				parse_var_decl(p, sp, PL_NONE, true);
			} else {
				FAIL(p, &pos, "unexpected directive '.%s' in a function body",
				     w);
			}
		} else if (t->kind == TK_IDENT) {
			struct token nt = peek(p);

			if (is_punct(&nt, ':'))
				parse_label(p);
			else
				parse_instruction(p);
		} else if (is_punct(t, '@')) {
			parse_instruction(p);
		} else {
			FAIL(p, &t->pos, "expected a statement but found '%s'",
			     tok_desc(t));
		}
	}
	pop_scope(p);
}

static void add_func_symbol(struct parser *p, struct ptx_func *f)
{
	struct ptx_symref *old = ptx_map_get(&p->m->syms, f->name);
	struct ptx_symref *ref;

	if (old && !old->is_func)
		FAIL(p, &f->pos, "'%s' is already declared as a variable", f->name);
	if (old && old->func->has_body && f->has_body)
		FAIL(p, &f->pos, "function '%s' is already defined", f->name);
	if (old && old->func->is_entry != f->is_entry)
		FAIL(p, &f->pos, "'%s' is declared both as .entry and .func",
		     f->name);
	if (old && old->func->has_body)
		return;
	ref = ptx_alloc(p->cx, sizeof(*ref));
	ref->is_func = true;
	ref->func = f;
	ptx_map_put(p->cx, &p->m->syms, f->name, ref);
}

static void parse_function(struct parser *p, enum ptx_linkage linkage)
{
	struct ptx_func *f = ptx_alloc(p->cx, sizeof(*f));
	uint32_t i;

	f->is_entry = is_dot(&p->tok, "entry");
	f->linkage = linkage;
	f->module = p->m->src;
	next(p);
	if (!f->is_entry && is_punct(&p->tok, '('))
		parse_param_list(p, f, true);
	f->pos = p->tok.pos;
	f->name = expect_ident(p, "function name");
	if (f->name[0] == '%')
		FAIL(p, &f->pos, "'%s' is not a valid function name", f->name);
	if (is_punct(&p->tok, '('))
		parse_param_list(p, f, false);
	parse_perf_directives(p, f);
	if (is_punct(&p->tok, ';')) {
		next(p);
	} else {
		if (linkage == PL_EXTERN)
			FAIL(p, &f->pos, "an .extern function cannot have a body");
		f->has_body = true;
		p->fn = f;
		p->scopes.n = 0;
		push_scope(p);
		for (i = 0; i < f->params.n; i++)
			scope_add(p, f->params.v[i]->name, NULL, f->params.v[i],
				  &f->params.v[i]->pos);
		for (i = 0; i < f->rets.n; i++)
			scope_add(p, f->rets.v[i]->name, NULL, f->rets.v[i],
				  &f->rets.v[i]->pos);
		p->loc_line = 0;
		p->loc_file = 0;
		parse_block(p, 0);
		pop_scope(p);
		p->fn = NULL;
	}
	add_func_symbol(p, f);
	ptx_push(p->cx, &p->m->funcs, f);
}

/* .version 9.0 */
static void parse_version(struct parser *p)
{
	struct ptx_pos pos;
	unsigned int major = 0, minor = 0;
	char extra;

	next(p);
	pos = p->tok.pos;
	if ((p->tok.kind != TK_FLOAT && p->tok.kind != TK_INT) ||
	    sscanf(p->tok.text, "%u.%u%c", &major, &minor, &extra) != 2)
		FAIL(p, &pos, "expected a version number like 9.0 after .version");
	if (major > 9 || (major == 9 && minor > 0) || major < 1)
		UNSUPPORTED(p, &pos, "PTX ISA version %u.%u is not supported (1.0 to 9.0 are)",
			    major, minor);
	p->m->version_major = major;
	p->m->version_minor = minor;
	next(p);
}

/* .target sm_75[, texmode_independent, debug, map_f64_to_f32] */
static void parse_target(struct parser *p)
{
	next(p);
	for (;;) {
		struct ptx_pos pos = p->tok.pos;
		const char *t = expect_ident(p, "target name");
		unsigned int sm;
		char suffix[8] = "";

		if (sscanf(t, "sm_%u%7s", &sm, suffix) >= 1 ||
		    sscanf(t, "compute_%u%7s", &sm, suffix) >= 1) {
			if (sm < 30 || sm > 121)
				UNSUPPORTED(p, &pos, "target '%s' is not supported",
					    t);
			p->m->sm = sm;
			p->m->has_target = true;
		} else if (!strcmp(t, "map_f64_to_f32")) {
			UNSUPPORTED(p, &pos, "target option map_f64_to_f32 is not supported");
		} else if (strcmp(t, "texmode_unified") &&
			   strcmp(t, "texmode_independent") &&
			   strcmp(t, "debug")) {
			FAIL(p, &pos, "unknown target '%s'", t);
		}
		if (!is_punct(&p->tok, ','))
			break;
		next(p);
	}
}

/* .file 1 "name" [, timestamp, size] */
static void parse_file(struct parser *p)
{
	uint32_t idx;

	next(p);
	idx = expect_u32(p, "file number");
	if (p->tok.kind != TK_STRING)
		FAIL(p, &p->tok.pos, "expected a file name string");
	if (idx < 4096) {
		while (p->m->files.n <= idx)
			ptx_push(p->cx, &p->m->files, (const char *)NULL);
		p->m->files.v[idx] = p->tok.text;
	}
	next(p);
	while (is_punct(&p->tok, ',')) {
		next(p);
		expect_int(p, "file timestamp or size");
	}
}

/* .section name { ... } holds DWARF (from -G); it is not code: skip it. */
static void skip_section(struct parser *p)
{
	struct ptx_pos start = p->tok.pos;
	int depth = 0;

	next(p);
	while (!is_punct(&p->tok, '{')) {
		if (p->tok.kind == TK_EOF)
			FAIL(p, &start, "unterminated .section");
		next(p);
	}
	do {
		if (p->tok.kind == TK_EOF)
			FAIL(p, &start, "unterminated .section");
		if (is_punct(&p->tok, '{'))
			depth++;
		else if (is_punct(&p->tok, '}'))
			depth--;
		next(p);
	} while (depth > 0);
}

static void parse_toplevel(struct parser *p)
{
	enum ptx_linkage linkage = PL_NONE;
	struct ptx_pos pos = p->tok.pos;
	const char *w;
	enum ptx_space sp;

	if (p->tok.kind != TK_DOTWORD)
		FAIL(p, &pos, "expected a directive but found '%s'",
		     tok_desc(&p->tok));
	w = p->tok.text;
	if (!strcmp(w, "version")) {
		if (p->m->version_major)
			FAIL(p, &pos, "more than one .version directive");
		return parse_version(p);
	}
	if (!p->m->version_major)
		FAIL(p, &pos, "a PTX module must start with .version");
	if (!strcmp(w, "target"))
		return parse_target(p);
	if (!strcmp(w, "address_size")) {
		next(p);
		pos = p->tok.pos;
		if (expect_int(p, "address size") != 64)
			UNSUPPORTED(p, &pos, "only .address_size 64 is supported");
		return;
	}
	if (!strcmp(w, "file"))
		return parse_file(p);
	if (!strcmp(w, "section"))
		return skip_section(p);
	if (!strcmp(w, "pragma")) {
		next(p);
		if (p->tok.kind != TK_STRING)
			FAIL(p, &p->tok.pos, "expected a string after .pragma");
		next(p);
		expect_punct(p, ';');
		return;
	}
	if (!p->m->has_target)
		FAIL(p, &pos, ".target must come before the first declaration");
	if (!strcmp(w, "extern") || !strcmp(w, "visible") ||
	    !strcmp(w, "weak") || !strcmp(w, "common")) {
		linkage = !strcmp(w, "extern") ? PL_EXTERN :
			  !strcmp(w, "visible") ? PL_VISIBLE :
			  !strcmp(w, "weak") ? PL_WEAK : PL_COMMON;
		next(p);
		pos = p->tok.pos;
		if (p->tok.kind != TK_DOTWORD)
			FAIL(p, &pos, "expected a declaration after .%s", w);
		w = p->tok.text;
	}
	if (!strcmp(w, "func") || !strcmp(w, "entry"))
		return parse_function(p, linkage);
	sp = ptx_space_from_name(w);
	if (sp == PS_GLOBAL || sp == PS_CONST || sp == PS_SHARED) {
		next(p);
		return parse_var_decl(p, sp, linkage, false);
	}
	if (sp == PS_LOCAL)
		UNSUPPORTED(p, &pos, "module-scope .local variables are not supported");
	if (!strcmp(w, "texref") || !strcmp(w, "samplerref") ||
	    !strcmp(w, "surfref") || !strcmp(w, "alias"))
		UNSUPPORTED(p, &pos, ".%s is not supported", w);
	FAIL(p, &pos, "unknown directive '.%s'", w);
}

void ptx_parse_module(struct ptx_ctx *cx, uint32_t src, struct ptx_module *m)
{
	struct parser p = { .cx = cx, .m = m };

	m->src = src;
	lex_init(&p.lx, cx, src);
	next(&p);
	if (p.tok.kind == TK_EOF)
		FAIL(&p, &p.tok.pos, "empty PTX module");
	while (p.tok.kind != TK_EOF) {
		if (is_punct(&p.tok, ';')) {	/* stray ';' after a decl */
			next(&p);
			continue;
		}
		parse_toplevel(&p);
	}
	if (!m->version_major)
		FAIL(&p, &p.tok.pos, "a PTX module must start with .version");
	if (!m->has_target)
		FAIL(&p, &p.tok.pos, "missing .target directive");
}
