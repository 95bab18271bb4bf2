/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptx_internal.h - what the passes of the PTX compiler share.
 *
 * The compiler is a straight pipeline, one file per pass:
 *
 *   lexer.c    text -> tokens
 *   parser.c   tokens -> modules of variables and functions (this IR)
 *   link.c     binds names across modules
 *   layout.c   addresses of variables, frames and parameters
 *   lower.c    each PTX instruction -> vISA instructions (with isel.c)
 *   cfg.c      reconvergence points of divergent branches
 *   regalloc.c packs registers by live interval
 *   emit.c     writes the image (compiler.c runs the passes)
 *
 * All memory of one compilation comes from one arena, freed at the end, and
 * an error anywhere unwinds straight back to vgpu_ptx_compile() through
 * longjmp: passes never have to check and propagate failures, and nothing
 * leaks however deep the error happens.
 */
#ifndef VGPU_PTX_INTERNAL_H
#define VGPU_PTX_INTERNAL_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ptx_compiler.h"
#include "ptx_mods.h"
#include "ptx_ops.h"
#include "ptx_types.h"

/* ---- arena and failure ------------------------------------------------ */

struct arena_block;

struct arena {
	struct arena_block *head;
};

/* A position in a source: index of the module, 1-based line and column. */
struct ptx_pos {
	uint32_t src;
	uint32_t line;
	uint32_t col;
};

struct ptx_ctx {
	struct arena arena;
	jmp_buf fail;			/* ptx_fail() jumps here */
	int err;			/* VGPU_PTX_ERR_* of the failure */
	struct vgpu_ptx_diag diag;
	const struct vgpu_ptx_source *srcs;
	unsigned int nsrcs;
	struct vgpu_ptx_options opts;
	const char *fail_symbol;	/* an unresolved name, for the diag */
};

void *ptx_alloc(struct ptx_ctx *cx, size_t size);	/* zeroed */
void *ptx_grow(struct ptx_ctx *cx, void *old, size_t oldsz, size_t newsz);
char *ptx_strndup(struct ptx_ctx *cx, const char *s, size_t n);
void ptx_arena_free(struct arena *a);

__attribute__((noreturn, format(printf, 4, 5)))
void ptx_fail(struct ptx_ctx *cx, int err, const struct ptx_pos *pos,
	      const char *fmt, ...);

/* A growable array in the arena: items, count, capacity. */
#define PTX_VEC(T) struct { T *v; uint32_t n, cap; }
#define ptx_push(cx, vec, item) do {					\
	if ((vec)->n == (vec)->cap) {					\
		uint32_t nc_ = (vec)->cap ? (vec)->cap * 2 : 8;		\
		(vec)->v = ptx_grow((cx), (vec)->v,			\
				    (vec)->cap * sizeof(*(vec)->v),	\
				    nc_ * sizeof(*(vec)->v));		\
		(vec)->cap = nc_;					\
	}								\
	(vec)->v[(vec)->n++] = (item);					\
} while (0)

/* String -> pointer map (open addressing, arena-backed). */
struct ptx_map {
	const char **keys;
	void **vals;
	uint32_t cap, n;
};
void *ptx_map_get(const struct ptx_map *m, const char *key);
void ptx_map_put(struct ptx_ctx *cx, struct ptx_map *m, const char *key,
		 void *val);

/* ---- types and state spaces ------------------------------------------- */

#define PTX_ENUM_PT(name, ...) PT_##name,
enum ptx_type { PT_NONE, PTX_TYPES(PTX_ENUM_PT) };
#undef PTX_ENUM_PT

enum ptx_tclass { TC_PRED, TC_BITS, TC_UINT, TC_SINT, TC_FLOAT };

unsigned int ptx_type_size(enum ptx_type t);	/* bytes; .pred is 1 */
enum ptx_tclass ptx_type_class(enum ptx_type t);
enum ptx_type ptx_type_from_name(const char *s);	/* "u32" -> PT_U32 */
const char *ptx_type_name(enum ptx_type t);

#define PTX_ENUM_PS(name, ...) PS_##name,
enum ptx_space { PS_NONE, PTX_SPACES(PTX_ENUM_PS) };
#undef PTX_ENUM_PS

enum ptx_space ptx_space_from_name(const char *s);	/* "global" -> ... */
const char *ptx_space_name(enum ptx_space s);

/* ---- opcodes and modifiers: kinds decided once, by the parser -------- */

/* OP_ADD, ...: one per line of ptx_ops.h.  OP_NONE is no opcode. */
#define PTX_ENUM_OP(name, ...) OP_##name,
enum ptx_op { OP_NONE, PTX_OPS(PTX_ENUM_OP) OP_COUNT_ };
#undef PTX_ENUM_OP

#define OPF_VIDEO 1u	/* ptx_ops.h flags */

enum ptx_op ptx_op_lookup(const char *s);	/* OP_NONE if unknown */
const char *ptx_op_name(enum ptx_op op);
unsigned int ptx_op_flags(enum ptx_op op);

/*
 * MOD_U32, MOD_GLOBAL, MOD_FTZ, ...: every modifier word, types and state
 * spaces included (ptx_types.h, ptx_mods.h).  MOD_NONE is no modifier.
 */
#define PTX_ENUM_MOD(name, ...) MOD_##name,
enum ptx_mod {
	MOD_NONE,
	PTX_TYPES(PTX_ENUM_MOD)
	PTX_SPACES(PTX_ENUM_MOD)
	PTX_MODS(PTX_ENUM_MOD)
	MOD_COUNT_
};
#undef PTX_ENUM_MOD

/* What a modifier is (the kind column of ptx_mods.h). */
enum ptx_mod_kind {
	MK_NONE, MK_TYPE, MK_SPACE, MK_RND, MK_FLAG, MK_VEC, MK_SCOPE,
	MK_UNI, MK_CC, MK_IGNORE, MK_OTHER,
};

enum ptx_mod ptx_mod_lookup(const char *s);	/* MOD_NONE if unknown */
const char *ptx_mod_name(enum ptx_mod m);	/* "u32", without the dot */
enum ptx_mod_kind ptx_mod_kind(enum ptx_mod m);
uint32_t ptx_mod_value(enum ptx_mod m);	/* the value column */
enum ptx_type ptx_mod_type(enum ptx_mod m);	/* PT_NONE: no type */
enum ptx_space ptx_mod_space(enum ptx_mod m);	/* PS_NONE: no space */

/* ---- tokens ------------------------------------------------------------ */

enum tok_kind {
	TK_EOF,
	TK_IDENT,	/* foo, %r1, $L__BB0_2, _Z3fibi */
	TK_DOTWORD,	/* .reg, .u32, .v4 (text without the dot) */
	TK_INT,		/* 42, 0x2a, 0b101, 017 (value in ival) */
	TK_FLOAT,	/* 0f3F800000 (f32 bits), 0d... (f64 bits), 1.5 */
	TK_STRING,	/* "file.cu" (text without quotes) */
	TK_PUNCT,	/* one of , ; : { } [ ] ( ) < > + - ! | @ = */
};

struct token {
	enum tok_kind kind;
	struct ptx_pos pos;
	const char *text;	/* NUL-terminated copy (idents, dotwords) */
	uint32_t len;
	char punct;		/* TK_PUNCT */
	bool is_f32;		/* TK_FLOAT written as 0f (single) */
	uint64_t ival;		/* TK_INT value, TK_FLOAT bits (f64 or f32) */
};

struct lexer {
	struct ptx_ctx *cx;
	const char *p, *end, *line_start;
	uint32_t src, line;
};

void lex_init(struct lexer *lx, struct ptx_ctx *cx, uint32_t src);
void lex_next(struct lexer *lx, struct token *t);

/* ---- the IR built by the parser --------------------------------------- */

enum ptx_linkage { PL_NONE, PL_EXTERN, PL_VISIBLE, PL_WEAK, PL_COMMON };

struct ptx_func;

/* An address inside a variable's initializer: generic(var)+off or var+off. */
struct ptx_init_reloc {
	uint64_t offset;	/* where in the initializer (bytes) */
	uint32_t size;		/* 4 or 8 */
	bool generic;		/* generic(var) instead of var */
	const char *sym;
	int64_t addend;
	struct ptx_pos pos;
	struct ptx_var *var;	/* resolved by link.c */
	struct ptx_func *func;	/* or a function address */
};

/* A variable in a memory state space (module scope or function scope). */
struct ptx_var {
	const char *name;
	enum ptx_space space;
	enum ptx_type type;
	enum ptx_linkage linkage;
	uint32_t align;
	uint32_t vec;		/* 1, 2 or 4 */
	uint64_t size;		/* total bytes (0: unsized extern array) */
	bool unsized;		/* declared with [] */
	bool has_body;		/* defined here (not just .extern) */
	bool managed;		/* .attribute(.managed): __managed__ */
	uint8_t *init;		/* size bytes, or NULL (zero) */
	PTX_VEC(struct ptx_init_reloc) relocs;
	struct ptx_pos pos;
	uint32_t module;
	struct ptx_var *def;	/* link.c: the definition this name binds to */
	uint64_t addr;		/* layout: offset in its segment / frame */
	bool laid_out;		/* layout: addr is valid */
	uint32_t shared_slot;	/* shared_layout.c: index + 1, 0 = none */
	/* A call-site .param variable: the call it feeds (see lower.c). */
	struct ptx_func *callee;
	uint32_t slot;		/* offset in the callee's frame */
	bool builtin_arg;	/* argument of a vISA system call */
	uint16_t arg_reg;	/* ... held in this GPR */
};

/* A virtual register: one per declared PTX register name. */
struct ptx_reg {
	const char *name;
	enum ptx_type type;
	uint32_t vec;		/* .v2/.v4 register variables */
	uint32_t id;		/* index in its function's regs */
};

enum ptx_sreg {
	SR_TID, SR_NTID, SR_CTAID, SR_NCTAID, SR_LANEID, SR_WARPID,
	SR_NWARPID, SR_SMID, SR_NSMID, SR_GRIDID, SR_CLOCK, SR_CLOCK_HI,
	SR_CLOCK64, SR_GLOBALTIMER, SR_GLOBALTIMER_LO, SR_GLOBALTIMER_HI,
	SR_LANEMASK_EQ, SR_LANEMASK_LE, SR_LANEMASK_LT, SR_LANEMASK_GE,
	SR_LANEMASK_GT, SR_DYN_SMEM, SR_TOTAL_SMEM, SR_ENVREG,
	SR_CLUSTERID, SR_NCLUSTERID, SR_CLUSTER_CTAID, SR_CLUSTER_NCTAID,
	SR_CLUSTER_CTARANK, SR_CLUSTER_NCTARANK, SR_IS_EXPLICIT_CLUSTER,
	SR_PM, SR_AGGR_SMEM, SR_RESERVED_SMEM_BEGIN, SR_RESERVED_SMEM_END,
	SR_RESERVED_SMEM_CAP, SR_RESERVED_SMEM_0, SR_RESERVED_SMEM_1,
	SR_COUNT_
};

enum ptx_opnd_kind {
	PO_REG,		/* %r1 (or a .v4 register variable as a whole) */
	PO_VEC,		/* {%r1, %r2, _, %r4} */
	PO_IMM,		/* integer immediate, value in imm */
	PO_FIMM,	/* 0fXXXXXXXX (f32 bits) or 0d / decimal (f64 bits) */
	PO_SREG,	/* %tid.x */
	PO_SYM,		/* a name: variable, function or label (+ offset) */
	PO_ADDR,	/* [base + offset] */
	PO_SINK,	/* _ */
	PO_LIST,	/* ( a, b, c ) of call */
};

struct ptx_operand {
	enum ptx_opnd_kind kind;
	struct ptx_pos pos;
	bool neg;		/* !%p */
	bool is_f32;		/* PO_FIMM from 0f */
	struct ptx_reg *reg;	/* PO_REG, PO_ADDR base */
	struct ptx_reg *pred2;	/* shfl/setp second destination: %r|%p */
	uint64_t imm;		/* PO_IMM value, PO_FIMM bits */
	enum ptx_sreg sreg;	/* PO_SREG */
	uint32_t comp;		/* PO_SREG .x/.y/.z = 0/1/2 */
	const char *sym;	/* PO_SYM, PO_ADDR base symbol */
	struct ptx_var *var;	/* resolved symbol (var) */
	struct ptx_func *func;	/* resolved symbol (function) */
	int64_t off;		/* PO_SYM / PO_ADDR offset */
	const char *vsel;	/* PO_REG video selector: "b0", "h10", "b7654" */
	struct ptx_operand *elems;	/* PO_VEC, PO_LIST */
	uint32_t nelems;
};

/* wmma.mma.xor.popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32: 11 */
#define PTX_MAX_MODS 12

struct ptx_insn {
	enum ptx_op op;			/* OP_LD */
	enum ptx_mod mods[PTX_MAX_MODS];/* MOD_GLOBAL, MOD_NC, MOD_V4, MOD_F32 */
	uint32_t nmods;
	struct ptx_reg *guard;		/* @%p / @!%p, or NULL */
	bool guard_neg;
	struct ptx_operand *ops;
	uint32_t nops;
	struct ptx_pos pos;
	uint32_t line_info;		/* source line from the latest .loc */
	uint32_t file_info;		/* .file index of that .loc */
	uint32_t col_info;		/* column of that .loc */
};

/* name: .branchtargets L0, L1, ...; - the targets of brx.idx name, i. */
struct ptx_btlist {
	const char *name;
	struct ptx_pos pos;
	PTX_VEC(const char *) labels;
	PTX_VEC(struct ptx_pos) lpos;
};

/* A label, a place in the statement list. */
struct ptx_label {
	const char *name;
	uint32_t stmt;		/* index of the statement that follows it */
	struct ptx_pos pos;
	uint32_t target;	/* lower.c: vISA instruction index */
};

enum ptx_stmt_kind { ST_INSN, ST_LABEL };

struct ptx_stmt {
	enum ptx_stmt_kind kind;
	union {
		struct ptx_insn *insn;
		struct ptx_label *label;
	};
};

struct ptx_var_list {
	struct ptx_var **v;
	uint32_t n, cap;
};

struct ptx_func {
	const char *name;
	bool is_entry;
	enum ptx_linkage linkage;
	bool has_body;
	bool noreturn;
	struct ptx_pos pos;
	uint32_t module;
	struct ptx_var_list params;	/* in .param space */
	struct ptx_var_list rets;
	struct ptx_var_list locals;	/* .local/.shared/.param in the body */
	PTX_VEC(struct ptx_reg *) regs;
	PTX_VEC(struct ptx_stmt) stmts;
	struct ptx_map labels;
	uint32_t maxntid[3], reqntid[3];
	uint32_t minnctapersm, maxnreg;
	uint32_t reqncluster[3];	/* .reqnctapercluster, 0: none */
	uint32_t maxclusterrank;
	bool explicitcluster;
	struct ptx_func *def;	/* link.c: the definition the name binds to */
	bool is_proto;		/* a .callprototype (indirect call type) */
	bool addr_taken;	/* its address is used: indirect call target */
	struct ptx_map protos;	/* .callprototype labels in the body */
	struct ptx_map btlists;	/* .branchtargets lists (brx.idx) */
	PTX_VEC(struct ptx_func *) proto_list;
	uint32_t index;		/* index in the image's function table */
	uint32_t frame_size;	/* layout: local bytes of one activation */
	uint32_t param_size;	/* layout: bytes of params (+ rets after) */
	uint32_t shared_size;	/* shared_layout.c: a kernel's static bytes */
	bool reserved_smem;	/* ... of which the first are the reserved
				 * region (VISA_KERNEL_RESERVED_SMEM) */
};

struct ptx_module {
	uint32_t src;
	uint32_t version_major, version_minor;
	uint32_t sm;
	bool has_target;
	PTX_VEC(struct ptx_var *) vars;
	PTX_VEC(struct ptx_func *) funcs;
	struct ptx_map syms;		/* module scope names -> var or func */
	PTX_VEC(const char *) files;	/* .file N "name" (index N) */
};

/* Tags stored in ptx_map values so one map holds vars and funcs. */
struct ptx_symref {
	bool is_func;
	union {
		struct ptx_var *var;
		struct ptx_func *func;
	};
};

void ptx_parse_module(struct ptx_ctx *cx, uint32_t src, struct ptx_module *m);

/* Whether in carries modifier mod (for the instruction selectors). */
bool insn_has(const struct ptx_insn *in, enum ptx_mod mod);

#endif /* VGPU_PTX_INTERNAL_H */
