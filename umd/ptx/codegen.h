/* SPDX-License-Identifier: GPL-2.0 */
/*
 * codegen.h - state shared by the code-generation passes (layout.c,
 * lower.c, isel.c, cfg.c, emit.c).
 */
#ifndef VGPU_PTX_CODEGEN_H
#define VGPU_PTX_CODEGEN_H

#include "vgpu_visa.h"
#include "link.h"

/* One line-table entry before strings are interned. */
struct cg_line {
	uint32_t insn;
	const char *file;
	uint32_t line, column;
};

/* What a function reaches through its calls (emit.c). */
struct cg_reach {
	uint64_t local;		/* deepest chain of frames from here */
	uint32_t regs;
	bool printf_, assert_, dyn_shared, recursive, heap;
};

/* A branch whose target is patched once all labels are placed. */
struct cg_fixup {
	uint32_t insn;
	struct ptx_label *label;
};

/* The vISA code of one function while it is being generated. */
struct cg_fn {
	struct ptx_ctx *cx;
	struct ptx_func *f;
	const struct ptx_module *m;
	PTX_VEC(struct visa_insn) code;
	PTX_VEC(uint64_t) lits;
	uint32_t *lit_hash;		/* open addressing: index + 1, 0 = empty */
	uint32_t lit_hash_cap;
	uint16_t *gpr_of;		/* PTX register id -> GPR / predicate */
	uint32_t num_regs, num_preds;
	uint32_t temp_base, temp_next;	/* per-instruction scratch GPRs */
	uint32_t ptemp_base, ptemp_next;/* per-instruction scratch predicates */
	uint16_t cc_pred;		/* PTX's carry flag (add.cc/addc) */
	PTX_VEC(struct cg_line) lines;
	/* Branches to patch once all labels are placed. */
	PTX_VEC(struct cg_fixup) fixups;
	bool uses_printf, uses_assert, uses_dyn_shared, uses_heap;
	bool has_indirect;		/* calls through a function pointer */
	uint32_t code_start;		/* emit.c: index in the image's CODE */
	struct cg_reach reach;		/* emit.c */
	PTX_VEC(struct ptx_func *) callees;
	const struct ptx_insn *cur;	/* instruction being lowered */
};

/* The whole program being compiled. */
struct cg {
	struct ptx_ctx *cx;
	struct ptx_program *prog;
	PTX_VEC(struct ptx_func *) funcs;	/* with bodies, image order */
	PTX_VEC(struct cg_fn *) out;		/* same order */
	PTX_VEC(struct ptx_var *) globals;	/* laid out in the global seg */
	PTX_VEC(struct ptx_var *) consts;
	uint64_t global_size, const_size;
	struct ptx_var *reserved_smem;	/* %reserved_smem_offset_* region */
	struct ptx_var *heap_desc;	/* VISA_HEAP_SYMBOL, or NULL */
	uint32_t dyn_shared_align;	/* alignment of dynamic shared memory */
	uint64_t dyn_shared_base;	/* offset of dynamic shared memory */
	uint8_t **outbuf, **strbuf;	/* malloc()ed while emitting */
};

/* layout.c */
void cg_layout(struct cg *g);

/* shared_layout.c */
void cg_layout_shared(struct cg *g);
uint32_t cg_kernel_shared_size(struct cg *g, const struct ptx_func *k);

/* lower.c */
void cg_lower_function(struct cg *g, struct cg_fn *fn);

/* regalloc.c: pack GPRs by live interval. */
void cg_allocate_registers(struct cg *g, struct cg_fn *fn);

/* cfg.c: basic blocks of a function's code (see cg_find_blocks()). */
struct cg_blocks {
	uint32_t n;
	uint32_t *start;	/* n + 1 entries: start[n] = code size */
	uint32_t *succ;		/* 2 per block; n = the exit, UINT32_MAX none */
};
void cg_find_blocks(struct ptx_ctx *cx, const struct cg_fn *fn,
		    struct cg_blocks *b);

/* cfg.c: fill in every conditional branch's reconvergence point. */
void cg_set_reconvergence(struct cg *g, struct cg_fn *fn);

/* emit.c */
void cg_emit_image(struct cg *g, void **image, size_t *size);

/* Helpers for the instruction selectors (lower.c). */
uint8_t cg_visa_space(enum ptx_space s);	/* VISA_SPACE_GENERIC if none */
struct visa_insn *cg_insn(struct cg_fn *fn, uint16_t op, uint8_t type);
uint16_t cg_lit(struct cg *g, struct cg_fn *fn, uint64_t v);
uint16_t cg_temp(struct cg *g, struct cg_fn *fn);
uint16_t cg_ptemp(struct cg *g, struct cg_fn *fn);
enum visa_type cg_vtype(enum ptx_type t);

__attribute__((noreturn, format(printf, 3, 4)))
void cg_fail(struct cg *g, const struct ptx_pos *pos, const char *fmt, ...);
__attribute__((noreturn, format(printf, 3, 4)))
void cg_unsupported(struct cg *g, const struct ptx_pos *pos,
		    const char *fmt, ...);

#endif /* VGPU_PTX_CODEGEN_H */
