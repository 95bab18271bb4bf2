// SPDX-License-Identifier: GPL-2.0
/*
 * exec_mem.c - loads, stores, atomics and address arithmetic (MOVA, CVTA).
 *
 * Atomics are real host atomics (__atomic builtins) on the translated host
 * address, so they are atomic across SM worker threads as on a GPU.
 * Operations without a native host instruction (float add, min/max,
 * inc/dec) are compare-and-swap loops.
 */
#include "simd.h"	/* first: renames the functions per level */
#if defined(__AVX512F__)
#include <immintrin.h>
#endif

#include "core_internal.h"
#include "fp_formats.h"
#include "mem_span.h"
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
 * D[l] = the es-byte (4 or 8) element at base + off[l], for all 32 lanes,
 * offsets already checked.  The compiler does not turn this loop into
 * vector gathers by itself, so the x86-64-v4 build (simd.h) says so with
 * AVX-512 intrinsics.  The other levels load lane by lane, although
 * AVX2's vpgatherqd saved a fifth of matmul's time on real hardware:
 * QEMU 7.2's TCG, which runs the project's guests, takes a VSIB index
 * register number 4 (ymm4) for "no index" and loads every lane from the
 * base (found by test_cu_module_launch; a 4-instruction probe reproduces
 * it), and GCC's register allocation decides whether ymm4 is used.  TCG
 * has no AVX-512, so the v4 level never runs there; GCC's generic tuning
 * emits no gathers of its own.
 */
static void gather_full(uint64_t *D, const uint8_t *base, const uint64_t *off,
			uint32_t es, bool sgn)
{
#if defined(__AVX512F__)
	for (int l = 0; l < WARP_SIZE; l += 8) {
		__m512i idx = _mm512_loadu_si512(off + l);
		__m256i v;

		if (es == 8) {
			_mm512_storeu_si512(D + l,
					    _mm512_i64gather_epi64(idx, base, 1));
			continue;
		}
		v = _mm512_i64gather_epi32(idx, base, 1);
		_mm512_storeu_si512(D + l, sgn ? _mm512_cvtepi32_epi64(v) :
						 _mm512_cvtepu32_epi64(v));
	}
#else
	for (int l = 0; l < WARP_SIZE; l++) {
		if (es == 8) {
			memcpy(&D[l], base + off[l], 8);
		} else {
			uint32_t v;

			memcpy(&v, base + off[l], 4);
			D[l] = sgn ? (uint64_t)(int64_t)(int32_t)v : v;
		}
	}
#endif
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
	if (mask == FULL_MASK && !stride && !S) {
		/* full warps: checks and gathers without per-lane branches
		 * (vector gathers at the x86-64-v3 and v4 levels) */
		for (int l = 0; l < WARP_SIZE; l++)
			bad |= (addr[l] & (es - 1)) | (addr[l] > limit - es);
		if (bad)
			return -1;
		gather_full(D, base, addr, es, sgn);
		return EXEC_OK;
	}
	for (int l = 0; l < WARP_SIZE; l++)
		bad |= ((mask >> l) & 1) &
		       (((addr[l] & (es - 1)) != 0) | (addr[l] > limit - es));
	if (bad)
		return -1;
	for (int l = 0; l < WARP_SIZE; l++) {
		uint8_t *p;

		/* an inactive lane's address may be anything (its register
		 * need not have been written): form only active lanes' */
		if (!((mask >> l) & 1))
			continue;
		p = base + (size_t)l * stride + addr[l];
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

/*
 * The three classes of a warp's load or store.  Uniform: every active lane
 * has the same address (kernel parameters, a variable read by all
 * threads; for local memory, each thread's copy of the same variable).
 * Contiguous: lane l at base + (l - first) * size for the active lanes
 * (a[threadIdx.x]).  Both touch one span that mem_span() checks once.
 * General: anything else, lane by lane.
 */
enum access_class { CLASS_UNIFORM, CLASS_CONTIGUOUS, CLASS_GENERAL };

/* By the address registers alone: the offset is the same for all lanes. */
static enum access_class classify(const uint64_t *A, uint32_t mask,
				  uint32_t bytes, int first, int last)
{
	uint64_t a0 = A[first], span = A[last] - a0, differ = 0, scattered = 0;

	/* The last lane tells most general accesses apart at once (it is
	 * neither at the first lane's address nor at the end of a run). */
	if (span != 0 && span != (uint64_t)(last - first) * bytes)
		return CLASS_GENERAL;
	if (mask == FULL_MASK) {
		/* xor/or over the 32 lanes: vectorizes even on baseline SSE2,
		 * which has no 64-bit compare */
		for (int l = 0; l < WARP_SIZE; l++) {
			differ |= A[l] ^ a0;
			scattered |= A[l] ^ (a0 + (uint64_t)l * bytes);
		}
	} else {
		for (int l = first; l <= last; l++) {
			uint64_t m = 0 - (uint64_t)((mask >> l) & 1);

			differ |= m & (A[l] ^ a0);
			scattered |= m & (A[l] ^ (a0 + (uint64_t)(l - first) *
						       bytes));
		}
	}
	if (!differ)
		return CLASS_UNIFORM;
	return scattered ? CLASS_GENERAL : CLASS_CONTIGUOUS;
}

/* Host address of byte @off of a checked span, for lane @l. */
static inline uint8_t *span_lane(const struct mem_span *s, uint64_t off,
				 int l)
{
	uint8_t *p = off < s->split ? s->host[0] + off :
				      s->host[1] + (off - s->split);

	return p + (size_t)l * s->stride;
}

/*
 * An ld or st of n elements of es bytes per lane.  ld writes rows D[0..n),
 * st reads rows S[0..n).
 */
struct ldst {
	uint64_t *D[4];
	const uint64_t *S[4];
	int n;
	uint32_t es;
	unsigned int type;
	bool st;
};

/* Lanes one by one through a checked span; lane l's bytes at offset
 * (l - first) * step (step 0: uniform). */
static void span_lanes(const struct ldst *x, const struct mem_span *s,
		       uint32_t mask, int first, int last, uint64_t step)
{
	for (int l = first; l <= last; l++) {
		uint8_t *p;

		if (!((mask >> l) & 1))
			continue;
		p = span_lane(s, (uint64_t)(l - first) * step, l);
		for (int i = 0; i < x->n; i++) {
			if (x->st) {
				uint64_t v = x->S[i][l];

				memcpy(p + i * x->es, &v, x->es);	/* LE */
			} else {
				x->D[i][l] = load_elem(p + i * x->es, x->type);
			}
		}
	}
}

/*
 * Full warps of 4-byte elements, packed: lane l's element i at
 * p[(l * n + i) * 4].  Inlined per n so each loop has constant strides
 * and vectorizes.
 */
static inline __attribute__((always_inline))
void ld32_full(uint64_t *const D[4], const uint8_t *p, int n, bool sgn)
{
	/* All loads first, into a local copy: the stores to the registers
	 * cannot alias it, so the loads (often cache misses) are issued
	 * together instead of each waiting behind the previous stores. */
	uint32_t t[WARP_SIZE * 4];

	memcpy(t, p, (size_t)WARP_SIZE * n * 4);
	for (int i = 0; i < n; i++) {
		uint64_t *d = D[i];

		for (int l = 0; l < WARP_SIZE; l++) {
			uint32_t v = t[l * n + i];

			d[l] = sgn ? (uint64_t)(int64_t)(int32_t)v : v;
		}
	}
}

static inline __attribute__((always_inline))
void st32_full(const uint64_t *const S[4], uint8_t *p, int n)
{
	for (int i = 0; i < n; i++) {
		const uint64_t *v = S[i];

		for (int l = 0; l < WARP_SIZE; l++) {
			uint32_t e = (uint32_t)v[l];

			memcpy(p + ((size_t)l * n + i) * 4, &e, 4);
		}
	}
}

/* A full warp, contiguous, on one page: block copies.  False: not one of
 * the shapes handled here. */
static bool packed_full(const struct ldst *x, uint8_t *p)
{
	bool sgn = x->type == VISA_T_S32;

	if (x->es == 8 && x->n == 1) {
		if (x->st)
			memcpy(p, x->S[0], WARP_SIZE * 8);
		else
			memcpy(x->D[0], p, WARP_SIZE * 8);
		return true;
	}
	if (x->es != 4)
		return false;
	switch (x->n) {
	case 1:
		if (x->st)
			st32_full(x->S, p, 1);
		else if (sgn)
			ld32_full(x->D, p, 1, true);
		else
			ld32_full(x->D, p, 1, false);
		return true;
	case 2:
		if (x->st)
			st32_full(x->S, p, 2);
		else if (sgn)
			ld32_full(x->D, p, 2, true);
		else
			ld32_full(x->D, p, 2, false);
		return true;
	case 4:
		if (x->st)
			st32_full(x->S, p, 4);
		else if (sgn)
			ld32_full(x->D, p, 4, true);
		else
			ld32_full(x->D, p, 4, false);
		return true;
	}
	return false;
}

/*
 * Uniform and contiguous accesses: classify, check the span once, copy.
 * Returns -1 (nothing accessed) when the access is general or any check
 * fails: the per-lane path then runs it and reports the precise fault.
 */
static int ld_st_span(struct warp *w, const struct dinsn *in, uint32_t mask,
		      const uint64_t *A, const struct ldst *x)
{
	uint32_t bytes = x->es * (uint32_t)x->n;
	int first = __builtin_ctz(mask), last = 31 - __builtin_clz(mask);
	enum access_class cls = A ? classify(A, mask, bytes, first, last) :
				    CLASS_UNIFORM;
	uint64_t lo = base_addr(w, in, A, first);
	uint32_t len = cls == CLASS_UNIFORM ? bytes :
		       (uint32_t)(last - first + 1) * bytes;
	struct mem_span s;

	if (cls == CLASS_GENERAL ||
	    !mem_span(w, in->type2, lo, len, bytes,
		      x->st ? ACC_WRITE : ACC_READ, &s))
		return -1;
	if (cls == CLASS_UNIFORM && !s.stride) {
		/* one address: one load broadcast, or the last lane's store
		 * (lanes store in order, the last one's value stays) */
		for (int i = 0; i < x->n; i++) {
			uint8_t *p = s.host[0] + i * x->es;

			if (x->st) {
				uint64_t v = x->S[i][last];

				memcpy(p, &v, x->es);
			} else {
				uint64_t v = load_elem(p, x->type);
				uint64_t *d = x->D[i];

				FOR_LANES(mask, d[l] = v);
			}
		}
		return EXEC_OK;
	}
	if (cls == CLASS_CONTIGUOUS && mask == FULL_MASK && !s.stride &&
	    s.split >= len && packed_full(x, s.host[0]))
		return EXEC_OK;
	span_lanes(x, &s, mask, first, last, cls == CLASS_UNIFORM ? 0 : bytes);
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
	struct ldst x = { .n = n, .es = es, .type = in->type, .st = st };
	const uint64_t *const *S = x.S;
	uint64_t *const *D = x.D;

	/* st's third element is in d, which may be a literal */
	if (st && n == 4 && (in->d & VISA_OPND_LIT))
		return exec_bad(w, in, mask);
	for (int i = 0; i < n; i++) {
		if (st)
			x.S[i] = st_slots[i] >= 0 ?
				src_row(w, in, st_slots[i], st_regs[i]) :
				reg_row(w, st_regs[i]);
		else
			x.D[i] = reg_row(w, ld_regs[i]);
	}
	if (__builtin_expect(w->blk->counting, 0)) {
		uint64_t addr[WARP_SIZE];

		FOR_LANES(mask, addr[l] = base_addr(w, in, A, l));
		counters_access(w->blk, w->warp_id, in->type2, addr, mask,
				es * n, st);
		if (w->blk->g->l->sanitizer)
			san_access(w, in, addr, mask, es * n, st);
	}
	if (ld_st_span(w, in, mask, A, &x) >= 0)
		return EXEC_OK;

	/* The general class: lanes one by one. */
	const struct tlb_entry *pg = NULL;
	uint64_t shared_size = w->blk->shared_size;
	uint64_t local_size = w->blk->g->local_size;
	uint8_t *local = w->blk->local +
			 (size_t)w->warp_id * WARP_SIZE * local_size;
	bool global_ok = in->type2 == VISA_SPACE_GLOBAL ||
			 in->type2 == VISA_SPACE_GENERIC;
	uint32_t need = st ? VGPU_CORE_PERM_WRITE : VGPU_CORE_PERM_READ;

	if (n == 1 && A && (es == 4 || es == 8)) {
		int r = fast_scalar(w, in, mask, A, st ? S[0] : NULL,
				    st ? NULL : D[0], es);

		if (r >= 0)
			return r;
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
			CAS_LOOP(uint32_t, p, f32_to_bits(f32_of(old) + f32_of(b)));
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
			CAS_LOOP(uint64_t, p, f64_to_bits(f64_of(old) + f64_of(b)));
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
