// SPDX-License-Identifier: GPL-2.0
/*
 * exec_mem.c - loads, stores, atomics and address arithmetic (MOVA, CVTA).
 *
 * Atomics are real host atomics (__atomic builtins) on the translated host
 * address, so they are atomic across SM worker threads as on a GPU.
 * Operations without a native host instruction (float add, min/max,
 * inc/dec) are compare-and-swap loops.
 */
#include "core_internal.h"
#include "fp_formats.h"
#include "visa_types.h"

static uint32_t type_size(unsigned int t)
{
	return type_bits(t) / 8;
}

static uint64_t load_elem(const uint8_t *p, unsigned int t)
{
	switch (t) {
	case VISA_T_U8: case VISA_T_B8: return *p;
	case VISA_T_S8: return (uint64_t)(int64_t)(int8_t)*p;
	case VISA_T_U16: case VISA_T_B16: case VISA_T_F16: case VISA_T_BF16: {
		uint16_t v;

		memcpy(&v, p, 2);
		return v;
	}
	case VISA_T_S16: {
		int16_t v;

		memcpy(&v, p, 2);
		return (uint64_t)(int64_t)v;
	}
	case VISA_T_S32: {
		int32_t v;

		memcpy(&v, p, 4);
		return (uint64_t)(int64_t)v;
	}
	case VISA_T_U64: case VISA_T_S64: case VISA_T_B64: case VISA_T_F64: {
		uint64_t v;

		memcpy(&v, p, 8);
		return v;
	}
	}
	{
		uint32_t v;

		memcpy(&v, p, 4);
		return v;
	}
}

static inline uint64_t base_addr(const struct warp *w, const struct dinsn *in,
				 const uint64_t *A, int l)
{
	if (A)
		return A[l] + in->imm;
	/* a = NONE: absolute offset, or frame-relative for LOCAL */
	return (in->type2 == VISA_SPACE_LOCAL ? w->fp : 0) + in->imm;
}

/*
 * Scalar 4- and 8-byte accesses, the common case: check every lane's
 * address first (alignment, bounds, one page for global memory) in loops
 * without branches, then access.  Returns -1 when any lane needs the
 * general path (which also reports faults precisely).
 */
static int fast_scalar(struct warp *w, const struct dinsn *in, uint32_t mask,
		       const uint64_t *A, const uint64_t *S, uint64_t *D,
		       uint32_t es)
{
	uint64_t addr[WARP_SIZE], limit, bad = 0;
	uint32_t need = S ? VGPU_CORE_PERM_WRITE : VGPU_CORE_PERM_READ;
	const struct tlb_entry *pg;
	uint8_t *base;
	size_t stride = 0;
	bool sgn = in->type == VISA_T_S32;

	for (int l = 0; l < WARP_SIZE; l++)
		addr[l] = A[l] + in->imm;
	switch (in->type2) {
	case VISA_SPACE_SHARED:
		base = w->blk->shared;
		limit = w->blk->shared_size;
		break;
	case VISA_SPACE_LOCAL:
		stride = w->blk->g->local_size;
		base = w->blk->local + (size_t)w->warp_id * WARP_SIZE * stride;
		limit = stride;
		break;
	case VISA_SPACE_GENERIC:
		for (int l = 0; l < WARP_SIZE; l++)
			bad |= ((mask >> l) & 1) &
			       (addr[l] >= VISA_GENERIC_SHARED_BASE);
		if (bad)
			return -1;
		__attribute__((fallthrough));
	case VISA_SPACE_GLOBAL:
		pg = tlb_peek(w->blk->sm, addr[__builtin_ctz(mask)]);
		if (!pg || !(pg->perm & need))
			return -1;
		for (int l = 0; l < WARP_SIZE; l++)
			addr[l] -= pg->va;	/* offsets in the page */
		base = pg->host;
		limit = pg->size;
		break;
	default:
		return -1;
	}
	if (limit < es)
		return -1;
	for (int l = 0; l < WARP_SIZE; l++)
		bad |= ((mask >> l) & 1) &
		       (((addr[l] & (es - 1)) != 0) | (addr[l] > limit - es));
	if (bad)
		return -1;
	for (int l = 0; l < WARP_SIZE; l++) {
		uint8_t *p = base + (size_t)l * stride + addr[l];

		if (!((mask >> l) & 1))
			continue;
		if (S) {
			memcpy(p, &S[l], es);	/* little-endian low bytes */
		} else if (es == 8) {
			memcpy(&D[l], p, 8);
		} else {
			uint32_t v;

			memcpy(&v, p, 4);
			D[l] = sgn ? (uint64_t)(int64_t)(int32_t)v : v;
		}
	}
	return EXEC_OK;
}

static int ld_st(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	const uint64_t *A = in->a != VISA_OPND_NONE ? src_row(w, in, 0, in->a)
						     : NULL;
	uint32_t es = type_size(in->type);
	int n = 1 << ((in->mod & VISA_MOD_VEC_MASK) >> VISA_MOD_VEC_SHIFT);
	uint32_t pc = pc_of(w, in);
	bool st = in->op == VISA_OP_ST;
	/* vector elements: ld {d, b, c, e}, st {b, c, d, e} */
	const uint16_t ld_regs[4] = { in->d, in->b, in->c, in->e };
	const uint16_t st_regs[4] = { in->b, in->c, in->d, in->e };
	const int st_slots[4] = { 1, 2, -1, 3 };
	const uint64_t *S[4] = { NULL };
	uint64_t *D[4] = { NULL };

	for (int i = 0; i < n; i++) {
		if (st)
			S[i] = st_slots[i] >= 0 ?
				src_row(w, in, st_slots[i], st_regs[i]) :
				reg_row(w, st_regs[i]);
		else
			D[i] = reg_row(w, ld_regs[i]);
	}
	const struct tlb_entry *pg = NULL;
	uint64_t shared_size = w->blk->shared_size;
	uint64_t local_size = w->blk->g->local_size;
	uint8_t *local = w->blk->local +
			 (size_t)w->warp_id * WARP_SIZE * local_size;
	bool global_ok = in->type2 == VISA_SPACE_GLOBAL ||
			 in->type2 == VISA_SPACE_GENERIC;
	uint32_t need = st ? VGPU_CORE_PERM_WRITE : VGPU_CORE_PERM_READ;

	/* st's third element is in d, which may be a literal */
	if (st && n == 4 && (in->d & VISA_OPND_LIT))
		return exec_bad(w, in, mask);

	if (n == 1 && A && (es == 4 || es == 8)) {
		int r = fast_scalar(w, in, mask, A, st ? S[0] : NULL,
				    st ? NULL : D[0], es);

		if (r >= 0)
			return r;
	}
	/* A load from one address for all lanes (kernel parameters, named
	 * variables): resolve once, broadcast. */
	if (!st && !A && in->type2 != VISA_SPACE_LOCAL) {
		int first = __builtin_ctz(mask);
		const uint8_t *p = mem_resolve(w, pc, first, in->type2,
					       base_addr(w, in, A, first),
					       es * (uint32_t)n, ACC_READ);

		if (!p)
			return EXEC_FAULT;
		for (int i = 0; i < n; i++) {
			uint64_t v = load_elem(p + i * es, in->type);

			FOR_LANES(mask, D[i][l] = v);
		}
		return EXEC_OK;
	}

	for (int l = 0; l < WARP_SIZE; l++) {
		uint32_t bytes = es * (uint32_t)n;
		uint64_t addr;
		uint8_t *p;

		if (!((mask >> l) & 1))
			continue;
		addr = base_addr(w, in, A, l);
		/* Fast paths: shared and local memory within bounds, and
		 * global lanes that hit the page of the previous lane;
		 * everything else takes the checked path (mem_resolve). */
		if (in->type2 == VISA_SPACE_SHARED && !(addr & (bytes - 1)) &&
		    addr < shared_size && addr <= shared_size - bytes) {
			p = w->blk->shared + addr;
		} else if (in->type2 == VISA_SPACE_LOCAL &&
			   !(addr & (bytes - 1)) && addr < local_size &&
			   addr <= local_size - bytes) {
			p = local + (size_t)l * local_size + addr;
		} else if (pg && !(addr & (bytes - 1)) && addr - pg->va < pg->size &&
		    addr - pg->va <= pg->size - bytes &&
		    (in->type2 == VISA_SPACE_GLOBAL ||
		     addr < VISA_GENERIC_SHARED_BASE)) {
			p = pg->host + (addr - pg->va);
		} else {
			p = mem_resolve(w, pc, l, in->type2, addr, bytes,
					st ? ACC_WRITE : ACC_READ);
			if (!p)
				return EXEC_FAULT;
			if (global_ok) {
				pg = (in->type2 == VISA_SPACE_GLOBAL ||
				      addr < VISA_GENERIC_SHARED_BASE) ?
				     tlb_peek(w->blk->sm, addr) : NULL;
				if (pg && !(pg->perm & need))
					pg = NULL;
			}
		}
		for (int i = 0; i < n; i++) {
			if (st) {
				uint64_t v = S[i][l];

				memcpy(p + i * es, &v, es);	/* little-endian */
			} else {
				D[i][l] = load_elem(p + i * es, in->type);
			}
		}
	}
	return EXEC_OK;
}

#define CAS_LOOP(T, p, NEWEXPR)						\
	do {								\
		T o_ = __atomic_load_n((T *)(p), __ATOMIC_RELAXED), n_;	\
		do {							\
			T old = o_; (void)old;				\
			n_ = (NEWEXPR);					\
		} while (!__atomic_compare_exchange_n((T *)(p), &o_, n_, \
			true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));	\
		res = (uint64_t)o_;					\
	} while (0)

static uint64_t atomic32(void *p, unsigned int op, unsigned int t, uint32_t b,
			 uint32_t c)
{
	uint64_t res = 0;
	bool sgn = t == VISA_T_S32;

	switch (op) {
	case VISA_ATOM_ADD:
		if (t == VISA_T_F32)
			CAS_LOOP(uint32_t, p, bits_f32(f32_of(old) + f32_of(b)));
		else
			res = __atomic_fetch_add((uint32_t *)p, b, __ATOMIC_SEQ_CST);
		break;
	case VISA_ATOM_MIN:
		if (sgn)
			CAS_LOOP(uint32_t, p, (int32_t)old < (int32_t)b ? old : b);
		else
			CAS_LOOP(uint32_t, p, old < b ? old : b);
		break;
	case VISA_ATOM_MAX:
		if (sgn)
			CAS_LOOP(uint32_t, p, (int32_t)old > (int32_t)b ? old : b);
		else
			CAS_LOOP(uint32_t, p, old > b ? old : b);
		break;
	case VISA_ATOM_INC:
		CAS_LOOP(uint32_t, p, old >= b ? 0 : old + 1);
		break;
	case VISA_ATOM_DEC:
		CAS_LOOP(uint32_t, p, (old == 0 || old > b) ? b : old - 1);
		break;
	case VISA_ATOM_AND:
		res = __atomic_fetch_and((uint32_t *)p, b, __ATOMIC_SEQ_CST);
		break;
	case VISA_ATOM_OR:
		res = __atomic_fetch_or((uint32_t *)p, b, __ATOMIC_SEQ_CST);
		break;
	case VISA_ATOM_XOR:
		res = __atomic_fetch_xor((uint32_t *)p, b, __ATOMIC_SEQ_CST);
		break;
	case VISA_ATOM_EXCH:
		res = __atomic_exchange_n((uint32_t *)p, b, __ATOMIC_SEQ_CST);
		break;
	case VISA_ATOM_CAS: {
		uint32_t expected = b;

		__atomic_compare_exchange_n((uint32_t *)p, &expected, c, false,
					    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
		res = expected;
		break;
	}
	}
	return res;
}

static uint64_t atomic64(void *p, unsigned int op, unsigned int t, uint64_t b,
			 uint64_t c)
{
	uint64_t res = 0;
	bool sgn = t == VISA_T_S64;

	switch (op) {
	case VISA_ATOM_ADD:
		if (t == VISA_T_F64)
			CAS_LOOP(uint64_t, p, bits_f64(f64_of(old) + f64_of(b)));
		else
			res = __atomic_fetch_add((uint64_t *)p, b, __ATOMIC_SEQ_CST);
		break;
	case VISA_ATOM_MIN:
		if (sgn)
			CAS_LOOP(uint64_t, p, (int64_t)old < (int64_t)b ? old : b);
		else
			CAS_LOOP(uint64_t, p, old < b ? old : b);
		break;
	case VISA_ATOM_MAX:
		if (sgn)
			CAS_LOOP(uint64_t, p, (int64_t)old > (int64_t)b ? old : b);
		else
			CAS_LOOP(uint64_t, p, old > b ? old : b);
		break;
	case VISA_ATOM_INC:
		CAS_LOOP(uint64_t, p, old >= b ? 0 : old + 1);
		break;
	case VISA_ATOM_DEC:
		CAS_LOOP(uint64_t, p, (old == 0 || old > b) ? b : old - 1);
		break;
	case VISA_ATOM_AND:
		res = __atomic_fetch_and((uint64_t *)p, b, __ATOMIC_SEQ_CST);
		break;
	case VISA_ATOM_OR:
		res = __atomic_fetch_or((uint64_t *)p, b, __ATOMIC_SEQ_CST);
		break;
	case VISA_ATOM_XOR:
		res = __atomic_fetch_xor((uint64_t *)p, b, __ATOMIC_SEQ_CST);
		break;
	case VISA_ATOM_EXCH:
		res = __atomic_exchange_n((uint64_t *)p, b, __ATOMIC_SEQ_CST);
		break;
	case VISA_ATOM_CAS: {
		uint64_t expected = b;

		__atomic_compare_exchange_n((uint64_t *)p, &expected, c, false,
					    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
		res = expected;
		break;
	}
	}
	return res;
}

static int atom(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	const uint64_t *A = in->a != VISA_OPND_NONE ? src_row(w, in, 0, in->a)
						     : NULL;
	const uint64_t *B = src_row(w, in, 1, in->b);
	const uint64_t *C = in->c != VISA_OPND_NONE ? src_row(w, in, 2, in->c)
						     : NULL;
	uint64_t *D = in->d != VISA_OPND_NONE ? reg_row(w, in->d) : NULL;
	uint32_t size = type_size(in->type);
	unsigned int op = VISA_MOD_SUB(in->mod);
	uint32_t pc = pc_of(w, in);

	if (size != 4 && size != 8)
		return exec_bad(w, in, mask);
	if ((in->type == VISA_T_F32 || in->type == VISA_T_F64) &&
	    op != VISA_ATOM_ADD && op != VISA_ATOM_EXCH)
		return exec_bad(w, in, mask);
	/* Lanes in order: same-address atomics serialise as on hardware. */
	for (int l = 0; l < WARP_SIZE; l++) {
		void *p;
		uint64_t old;

		if (!((mask >> l) & 1))
			continue;
		p = mem_resolve(w, pc, l, in->type2, base_addr(w, in, A, l),
				size, ACC_ATOMIC);
		if (!p)
			return EXEC_FAULT;
		if (size == 4)
			old = atomic32(p, op, in->type, (uint32_t)B[l],
				       C ? (uint32_t)C[l] : 0);
		else
			old = atomic64(p, op, in->type, B[l], C ? C[l] : 0);
		if (D)
			D[l] = in->type == VISA_T_S32 ?
				(uint64_t)(int64_t)(int32_t)old : old;
	}
	return EXEC_OK;
}

static uint64_t space_base(const struct warp *w, unsigned int space)
{
	const struct grid *g = w->blk->g;

	switch (space) {
	case VISA_SPACE_SHARED: return VISA_GENERIC_SHARED_BASE;
	case VISA_SPACE_LOCAL: return VISA_GENERIC_LOCAL_BASE;
	case VISA_SPACE_CONST: return g->l->const_base;
	case VISA_SPACE_PARAM: return VISA_GENERIC_PARAM_BASE;
	}
	return 0;	/* global addresses are generic addresses */
}

int exec_mem(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	bool narrow = in->type == VISA_T_U32 || in->type == VISA_T_B32 ||
		      in->type == VISA_T_S32;

	switch (in->op) {
	case VISA_OP_LD:
	case VISA_OP_ST:
		return ld_st(w, in, mask);
	case VISA_OP_ATOM:
	case VISA_OP_RED:
		return atom(w, in, mask);
	case VISA_OP_MOVA: {
		uint64_t *D = reg_row(w, in->d);
		uint64_t v = in->imm;

		if (in->type2 == VISA_SPACE_GLOBAL)
			v += w->blk->g->l->global_base;
		else if (in->type2 == VISA_SPACE_LOCAL)
			v += w->fp;
		if (narrow)
			v = (uint32_t)v;
		FOR_LANES(mask, D[l] = v);
		return EXEC_OK;
	}
	case VISA_OP_CVTA: {
		const uint64_t *A = src_row(w, in, 0, in->a);
		uint64_t *D = reg_row(w, in->d);
		uint64_t base = space_base(w, in->type2);

		if (in->mod & VISA_MOD_TO_GENERIC)
			FOR_LANES(mask, D[l] = (narrow ? (uint32_t)A[l] : A[l]) +
					       base);
		else
			FOR_LANES(mask, D[l] = narrow ? (uint32_t)(A[l] - base) :
						       A[l] - base);
		return EXEC_OK;
	}
	}
	return exec_bad(w, in, mask);
}
