/* SPDX-License-Identifier: GPL-2.0 */
/*
 * isel.h - helpers lower.c gives the instruction selectors in isel.c.
 */
#ifndef VGPU_PTX_ISEL_H
#define VGPU_PTX_ISEL_H

#include "codegen.h"

/* A memory operand after lowering: [a + imm] in space. */
struct cg_addr {
	uint16_t a;		/* base GPR, or VISA_OPND_NONE */
	uint64_t imm;
	uint8_t space;		/* enum visa_space */
	bool argreg;		/* a system-call argument held in GPR a */
	const struct ptx_var *var;	/* the named variable, if any */
};

/* Lower one PTX instruction (isel.c). */
void cg_select(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in);

/* Lower a video instruction (isel_video.c); false if in is none. */
bool cg_select_video(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in);
/* Cooperative launch and cluster instructions and special registers
 * (isel_coop.c); false if in or o is none. */
bool cg_select_coop(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in);
/* createpolicy and .L2::cache_hint accesses (isel_hint.c) */
bool cg_select_hint(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in);
/* alloca, stacksave, stackrestore (isel_stack.c); false if none */
bool cg_select_stack(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in);
/* brx.idx through a .branchtargets list (isel_brx.c) */
bool cg_select_brx(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in);
/* isel_cdp.c: a call of devrt.ptx's dynamic-parallelism builtins */
bool cg_lower_cdp(struct cg *g, struct cg_fn *fn, const char *name,
		  uint16_t d, uint16_t a, uint16_t b);
bool cg_sreg_coop(struct cg *g, struct cg_fn *fn, const struct ptx_operand *o,
		  uint16_t d, enum ptx_type t);

/* Lower a tensor-core instruction (isel_mma.c); false if in is none. */
bool cg_select_mma(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in);
/*
 * Lower cp.async, mbarrier, cp.async.bulk, fence.proxy and elect.sync
 * (isel_async.c); false if in is none of them.
 */
/*
 * Refuse any modifier of @in not among @ok (nok of them): "modifier '.x'
 * of 'op' is not supported".  For selectors that list, per form, every
 * word the form may carry; ALLOW(g, in, MOD_A, MOD_B, ...) spells the list.
 */
void cg_allow_only(struct cg *g, const struct ptx_insn *in,
		   const enum ptx_mod *ok, uint32_t nok);
#define ALLOW(g, in, ...)						\
	do {								\
		static const enum ptx_mod ok_[] = { __VA_ARGS__ };	\
		cg_allow_only(g, in, ok_, sizeof(ok_) / sizeof(ok_[0]));\
	} while (0)
/* The L2 hints every bulk and tensor copy may carry. */
#define HINTS MOD_L2_CACHE_HINT, MOD_L2_64B, MOD_L2_128B, MOD_L2_256B
bool cg_select_async(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in);
/*
 * Lower cp.async.bulk.tensor, cp.reduce.async.bulk.tensor,
 * cp.async.bulk.prefetch.tensor and fence.proxy.tensormap (isel_tma.c);
 * false if in is none of them.  Asked before cg_select_async().
 */
bool cg_select_tma(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in);
/* Lower tex, tld4, txq, suld, sust, sured, suq and istypep (isel_tex.c);
 * false if in is none of them. */
bool cg_select_tex(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in);

uint16_t cg_src(struct cg *g, struct cg_fn *fn, const struct ptx_operand *o,
		enum ptx_type t);
uint16_t cg_dst(struct cg *g, struct cg_fn *fn, const struct ptx_operand *o);
uint16_t cg_pdst(struct cg *g, struct cg_fn *fn, const struct ptx_operand *o);
uint16_t cg_psrc(struct cg *g, struct cg_fn *fn, const struct ptx_operand *o);
void cg_sreg(struct cg *g, struct cg_fn *fn, const struct ptx_operand *o,
	     uint16_t d, enum ptx_type t);
void cg_address(struct cg *g, struct cg_fn *fn, const struct ptx_operand *o,
		enum ptx_space sp, struct cg_addr *out);
struct ptx_symref cg_resolve(struct cg *g, struct cg_fn *fn,
			     const struct ptx_operand *o);
uint16_t cg_var_address(struct cg *g, struct cg_fn *fn,
			const struct ptx_var *v, int64_t off,
			const struct ptx_pos *pos, enum ptx_type t);
void cg_var_address_to(struct cg *g, struct cg_fn *fn,
		       const struct ptx_var *v, int64_t off,
		       const struct ptx_pos *pos, enum ptx_type t, uint16_t d);
void cg_lower_call(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		   bool uni);
void cg_lower_branch(struct cg *g, struct cg_fn *fn, const struct ptx_insn *in,
		     bool uni);

#endif /* VGPU_PTX_ISEL_H */
