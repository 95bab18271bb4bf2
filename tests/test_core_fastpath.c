// SPDX-License-Identifier: GPL-2.0
/*
 * test_core_fastpath.c - the interpreter's fast paths against C.
 *
 * Warp memory accesses are classified (uniform, contiguous, general) and
 * the first two are checked once per span; threadIdx is counted instead
 * of divided; the hot files run at the best host vector level.  Each test
 * builds vISA by hand, runs it, and checks the results against values
 * computed here:
 *
 *  - loads of every element size (1, 2, 4, 8 bytes, signed and unsigned,
 *    ld.v2/v4) in every class, under full, partial and one-lane masks,
 *    from global, shared, const, param and generic (global and shared)
 *    memory; stores the same way to global, shared and generic memory;
 *  - local memory, per thread: uniform, contiguous and general addresses,
 *    direct and through the generic window;
 *  - contiguous accesses that cross into the next page (two host
 *    allocations behind adjacent pages);
 *  - faults in the middle of a contiguous access: the record (kind,
 *    address, thread, pc) is that of the first faulting lane, and the
 *    lanes before it stored, exactly as lane by lane;
 *  - threadIdx of 3-D blocks, launches with other shapes in between;
 *  - every host vector level this CPU has gives the same bits.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "simd.h"
#include "tap.h"
#include "test_gpu.h"
#include "visa_builder.h"
#include "vgpu_jit.h"

#define NONE VISA_OPND_NONE
#define FULL_MASK_ALL 0xffffffffu
#define SENTINEL 0xdeadbeefcafef00dull
#define NTHREADS 64
#define REGION 1024	/* bytes a pattern can reach: 64 threads x 16 */

static struct test_gpu gpu;
static struct tap t;
static uint32_t access_pc;	/* pc of the tested ld/st of the last build */

static struct visa_insn *mem(struct vb *b, uint16_t op, uint8_t space,
			     uint8_t ty, int n, uint16_t addr, uint64_t off)
{
	struct visa_insn *i = vb_op(b, op, ty);

	i->type2 = space;
	i->a = addr;
	i->imm = off;
	i->mod = (uint32_t)(n == 4 ? 2 : n == 2 ? 1 : 0) << VISA_MOD_VEC_SHIFT;
	return i;
}

/* ld {r..r+n-1}, [addr + off] */
static struct visa_insn *ldv(struct vb *b, uint8_t space, uint8_t ty, int n,
			     uint16_t r, uint16_t addr, uint64_t off)
{
	struct visa_insn *i = mem(b, VISA_OP_LD, space, ty, n, addr, off);

	i->d = r;
	if (n > 1)
		i->b = r + 1;
	if (n > 2) {
		i->c = r + 2;
		i->e = r + 3;
	}
	return i;
}

/* st [addr + off], {r..r+n-1} */
static struct visa_insn *stv(struct vb *b, uint8_t space, uint8_t ty, int n,
			     uint16_t addr, uint64_t off, uint16_t r)
{
	struct visa_insn *i = mem(b, VISA_OP_ST, space, ty, n, addr, off);

	i->b = r;
	if (n > 1)
		i->c = r + 1;
	if (n > 2) {
		i->d = r + 2;
		i->e = r + 3;
	}
	return i;
}

static int run(struct tg_module *m, const char *name, uint32_t blocks,
	       const uint32_t block[3], const void *params, uint32_t psize,
	       struct vgpu_core_fault *f)
{
	uint32_t grid[3] = { blocks, 1, 1 };

	memset(f, 0, sizeof(*f));
	return tg_launch(&gpu, m, name, grid, block, 0, params, psize, f);
}

static const uint32_t block64[3] = { NTHREADS, 1, 1 };

/* ---- the shapes and address patterns ------------------------------------ */

struct shape {
	uint8_t type;
	int n;		/* vector length */
	uint32_t es;	/* element bytes */
	bool sgn;
	const char *name;
};

static const struct shape shapes[] = {
	{ VISA_T_U8, 1, 1, false, "u8" },
	{ VISA_T_S8, 1, 1, true, "s8" },
	{ VISA_T_U16, 1, 2, false, "u16" },
	{ VISA_T_S16, 1, 2, true, "s16" },
	{ VISA_T_U32, 1, 4, false, "u32" },
	{ VISA_T_S32, 1, 4, true, "s32" },
	{ VISA_T_U64, 1, 8, false, "u64" },
	{ VISA_T_U16, 4, 2, false, "v4.u16" },
	{ VISA_T_U32, 2, 4, false, "v2.u32" },
	{ VISA_T_S32, 4, 4, true, "v4.s32" },
	{ VISA_T_U64, 2, 8, false, "v2.u64" },
};
#define NSHAPES (sizeof(shapes) / sizeof(shapes[0]))

enum pattern { UNIFORM, CONTIGUOUS, GENERAL, NPATTERNS };
static const char *const pattern_names[] = { "uniform", "contiguous",
					     "general" };

/* Element index of thread @tid: uniform per warp, consecutive, or a
 * permutation within the warp. */
static uint32_t pattern_index(enum pattern p, uint32_t tid)
{
	switch (p) {
	case UNIFORM: return tid & ~31u;
	case CONTIGUOUS: return tid;
	default: return (tid & ~31u) | ((tid * 7) & 31);
	}
}

/* The same in vISA: r[d] = index of thread r[tid] (uses d, d+1). */
static void emit_index(struct vb *b, enum pattern p, uint16_t d, uint16_t tid)
{
	switch (p) {
	case UNIFORM:
		vb_op3(b, VISA_OP_AND, VISA_T_B32, d, tid, vb_lit(b, ~31u));
		break;
	case CONTIGUOUS:
		vb_op3(b, VISA_OP_MOV, VISA_T_B32, d, tid, NONE);
		break;
	default:
		vb_op3(b, VISA_OP_MUL, VISA_T_U32, d + 1, tid, vb_lit(b, 7));
		vb_op3(b, VISA_OP_AND, VISA_T_B32, d + 1, d + 1, vb_lit(b, 31));
		vb_op3(b, VISA_OP_AND, VISA_T_B32, d, tid, vb_lit(b, ~31u));
		vb_op3(b, VISA_OP_OR, VISA_T_B32, d, d, d + 1);
	}
}

/* Masks of active lanes in each warp. */
static const uint32_t masks[] = { 0xffffffffu, 0x7ffefff0u, 0x00010000u,
				  0xfffffffeu };
#define NMASKS (sizeof(masks) / sizeof(masks[0]))

static uint64_t elem_le(const uint8_t *p, const struct shape *s)
{
	uint64_t v = 0;

	memcpy(&v, p, s->es);
	if (s->sgn && s->es < 8 && ((v >> (s->es * 8 - 1)) & 1))
		v |= ~0ull << (s->es * 8);
	return v;
}

/* Value thread @tid stores as element @i. */
static uint64_t store_value(uint32_t tid, int i)
{
	return tid * 0x0101010101010101ull + (uint64_t)(i + 1) *
	       0x1020304050607080ull;
}

/* ---- loads -------------------------------------------------------------- */

enum ld_source { SRC_GLOBAL, SRC_SHARED, SRC_CONST, SRC_PARAM,
		 SRC_GENERIC_GLOBAL, SRC_GENERIC_SHARED, NSOURCES };
static const char *const source_names[] = { "global", "shared", "const",
	"param", "generic (global)", "generic (shared)" };

/* Parameters: [0] base, [8] dst, [16] lane mask, [24] src (global), the
 * param data at PARAM_DATA. */
#define PARAM_DATA 64
#define PARAM_SIZE (PARAM_DATA + REGION)

struct ld_params {
	uint64_t base, dst, mask, src;
	uint8_t pad[PARAM_DATA - 32];
	uint8_t data[REGION];
};

/*
 * r0 tid, r1 base, r2 dst, r3 mask, r4 lane, r5 bit, r6 index (r7),
 * r8 address, r10..r13 loaded, r14 dst address, p0 active.
 */
static int build_load(enum ld_source src, enum pattern p,
		      const struct shape *s, const uint8_t *constdata,
		      struct tg_module *m)
{
	struct vb *b = vb_new();
	uint8_t space = src == SRC_GLOBAL ? VISA_SPACE_GLOBAL :
			src == SRC_SHARED ? VISA_SPACE_SHARED :
			src == SRC_CONST ? VISA_SPACE_CONST :
			src == SRC_PARAM ? VISA_SPACE_PARAM : VISA_SPACE_GENERIC;
	uint32_t fn, bytes = s->es * (uint32_t)s->n;
	struct visa_insn *i;

	fn = vb_func(b, "ld", VISA_FUNC_KERNEL);
	if (src == SRC_CONST)
		vb_const(b, constdata, REGION, 16);
	vb_sreg(b, 0, VISA_SREG_TID_X);
	vb_ld_param(b, VISA_T_U64, 1, 0);
	vb_ld_param(b, VISA_T_U64, 2, 8);
	vb_ld_param(b, VISA_T_U32, 3, 16);
	if (src == SRC_SHARED || src == SRC_GENERIC_SHARED) {
		/* fill shared memory from global: 16 bytes per thread */
		vb_ld_param(b, VISA_T_U64, 14, 24);
		vb_op3(b, VISA_OP_MULWIDE, VISA_T_U32, 15, 0, vb_lit(b, 16));
		vb_op3(b, VISA_OP_ADD, VISA_T_U64, 14, 14, 15);
		ldv(b, VISA_SPACE_GLOBAL, VISA_T_U64, 2, 10, 14, 0);
		stv(b, VISA_SPACE_SHARED, VISA_T_U64, 2, 15, 0, 10);
		vb_op(b, VISA_OP_BAR, VISA_T_NONE)->a = vb_lit(b, 0);
	}
	for (int k = 0; k < 4; k++)
		vb_op3(b, VISA_OP_MOV, VISA_T_B64, 10 + k, vb_lit(b, SENTINEL),
		    NONE);
	vb_op3(b, VISA_OP_AND, VISA_T_B32, 4, 0, vb_lit(b, 31));
	vb_op3(b, VISA_OP_SHR, VISA_T_B32, 5, 3, 4);
	vb_op3(b, VISA_OP_AND, VISA_T_B32, 5, 5, vb_lit(b, 1));
	i = vb_op(b, VISA_OP_SETP, VISA_T_U32);
	i->mod = VISA_MOD_MKSUB(VISA_CMP_NE);
	i->pd = 0;
	i->a = 5;
	i->b = vb_lit(b, 0);
	emit_index(b, p, 6, 0);
	vb_op3(b, VISA_OP_MULWIDE, VISA_T_U32, 8, 6, vb_lit(b, bytes));
	vb_op3(b, VISA_OP_ADD, VISA_T_U64, 8, 8, 1);
	access_pc = vb_pc(b);
	ldv(b, space, s->type, s->n, 10, 8, 0)->guard = 0;
	vb_op3(b, VISA_OP_MULWIDE, VISA_T_U32, 14, 0, vb_lit(b, 32));
	vb_op3(b, VISA_OP_ADD, VISA_T_U64, 14, 14, 2);
	stv(b, VISA_SPACE_GLOBAL, VISA_T_U64, 4, 14, 0, 10);
	vb_exit(b);
	vb_end_func(b, 16, 1, 0);
	vb_kernel(b, "ld", fn, PARAM_SIZE, REGION);
	return tg_load_vb(&gpu, b, m);
}

static void test_loads(void)
{
	uint64_t src = tg_alloc(&gpu, REGION), dst = tg_alloc(&gpu,
							     NTHREADS * 32);
	uint8_t *data = tg_host(&gpu, src);
	uint64_t *out = tg_host(&gpu, dst);
	static struct ld_params prm;

	for (int k = 0; k < REGION; k++)
		data[k] = (uint8_t)(k * 37 + 11) ^ (k & 0x80 ? 0x80 : 0);
	memcpy(prm.data, data, REGION);
	for (int sc = 0; sc < NSOURCES; sc++) {
		unsigned int bad = 0, runs = 0;

		for (int p = 0; p < NPATTERNS; p++) {
			for (size_t si = 0; si < NSHAPES; si++) {
				const struct shape *s = &shapes[si];
				uint32_t bytes = s->es * (uint32_t)s->n;
				struct tg_module m;
				struct vgpu_core_fault f;

				if (build_load(sc, p, s, data, &m)) {
					bad++;
					continue;
				}
				for (size_t mi = 0; mi < NMASKS; mi++) {
					prm.base = sc == SRC_GLOBAL ||
						   sc == SRC_GENERIC_GLOBAL ? src :
						   sc == SRC_GENERIC_SHARED ?
						   VISA_GENERIC_SHARED_BASE :
						   sc == SRC_PARAM ? PARAM_DATA : 0;
					prm.dst = dst;
					prm.mask = masks[mi];
					prm.src = src;
					memset(out, 0, NTHREADS * 32);
					runs++;
					if (run(&m, "ld", 1, block64, &prm,
						PARAM_SIZE, &f)) {
						if (bad++ < 3)
							tap_diag("%s %s %s: %s",
								 source_names[sc],
								 pattern_names[p],
								 s->name, f.message);
						continue;
					}
					for (uint32_t tid = 0; tid < NTHREADS; tid++) {
						bool on = (masks[mi] >> (tid & 31)) & 1;
						uint32_t idx = pattern_index(p, tid);

						for (int e = 0; e < 4; e++) {
							uint64_t want = on && e < s->n ?
								elem_le(data + idx * bytes +
									e * s->es, s) :
								SENTINEL;

							if (out[tid * 4 + e] != want &&
							    bad++ < 3)
								tap_diag("%s %s %s mask %08x "
									 "thread %u elem %d: "
									 "%llx, want %llx",
									 source_names[sc],
									 pattern_names[p],
									 s->name, masks[mi],
									 tid, e,
									 (unsigned long long)
									 out[tid * 4 + e],
									 (unsigned long long)want);
						}
					}
				}
				tg_unload(&m);
			}
		}
		tap_ok(&t, bad == 0, "loads from %s memory: %u runs (3 address "
		       "classes x %zu shapes x %zu masks), %u wrong",
		       source_names[sc], runs, NSHAPES, NMASKS, bad);
	}
}

/* ---- stores ------------------------------------------------------------- */

enum st_target { DST_GLOBAL, DST_SHARED, DST_GENERIC_GLOBAL,
		 DST_GENERIC_SHARED, NTARGETS };
static const char *const target_names[] = { "global", "shared",
	"generic (global)", "generic (shared)" };

/*
 * Parameters: [0] base, [8] dst (the shared copy), [16] lane mask.
 * r0 tid, r1 base, r2 dst, r3 mask, r4/r5 lane bit, r6 index (r7),
 * r8 address, r9 tid as u64, r10..r13 values, r14/r15 copy-out.
 */
static int build_store(enum st_target dst, enum pattern p,
		       const struct shape *s, struct tg_module *m)
{
	struct vb *b = vb_new();
	bool shared = dst == DST_SHARED || dst == DST_GENERIC_SHARED;
	uint8_t space = dst == DST_GLOBAL ? VISA_SPACE_GLOBAL :
			dst == DST_SHARED ? VISA_SPACE_SHARED :
			VISA_SPACE_GENERIC;
	uint32_t fn, bytes = s->es * (uint32_t)s->n;
	struct visa_insn *i;

	fn = vb_func(b, "st", VISA_FUNC_KERNEL);
	vb_sreg(b, 0, VISA_SREG_TID_X);
	vb_ld_param(b, VISA_T_U64, 1, 0);
	vb_ld_param(b, VISA_T_U64, 2, 8);
	vb_ld_param(b, VISA_T_U32, 3, 16);
	if (shared) {
		/* zero the shared region: 16 bytes per thread */
		vb_op3(b, VISA_OP_MULWIDE, VISA_T_U32, 15, 0, vb_lit(b, 16));
		vb_op3(b, VISA_OP_MOV, VISA_T_B64, 10, vb_lit(b, 0), NONE);
		vb_op3(b, VISA_OP_MOV, VISA_T_B64, 11, vb_lit(b, 0), NONE);
		stv(b, VISA_SPACE_SHARED, VISA_T_U64, 2, 15, 0, 10);
		vb_op(b, VISA_OP_BAR, VISA_T_NONE)->a = vb_lit(b, 0);
	}
	vb_op3(b, VISA_OP_MULWIDE, VISA_T_U32, 9, 0, vb_lit(b, 1));
	for (int k = 0; k < 4; k++) {
		i = vb_op3(b, VISA_OP_MAD, VISA_T_U64, 10 + k, 9,
			vb_lit(b, 0x0101010101010101ull));
		i->c = vb_lit(b, (uint64_t)(k + 1) * 0x1020304050607080ull);
	}
	vb_op3(b, VISA_OP_AND, VISA_T_B32, 4, 0, vb_lit(b, 31));
	vb_op3(b, VISA_OP_SHR, VISA_T_B32, 5, 3, 4);
	vb_op3(b, VISA_OP_AND, VISA_T_B32, 5, 5, vb_lit(b, 1));
	i = vb_op(b, VISA_OP_SETP, VISA_T_U32);
	i->mod = VISA_MOD_MKSUB(VISA_CMP_NE);
	i->pd = 0;
	i->a = 5;
	i->b = vb_lit(b, 0);
	emit_index(b, p, 6, 0);
	vb_op3(b, VISA_OP_MULWIDE, VISA_T_U32, 8, 6, vb_lit(b, bytes));
	vb_op3(b, VISA_OP_ADD, VISA_T_U64, 8, 8, 1);
	access_pc = vb_pc(b);
	stv(b, space, s->type, s->n, 8, 0, 10)->guard = 0;
	if (shared) {
		vb_op(b, VISA_OP_BAR, VISA_T_NONE)->a = vb_lit(b, 0);
		ldv(b, VISA_SPACE_SHARED, VISA_T_U64, 2, 10, 15, 0);
		vb_op3(b, VISA_OP_ADD, VISA_T_U64, 14, 15, 2);
		stv(b, VISA_SPACE_GLOBAL, VISA_T_U64, 2, 14, 0, 10);
	}
	vb_exit(b);
	vb_end_func(b, 16, 1, 0);
	vb_kernel(b, "st", fn, 24, REGION);
	return tg_load_vb(&gpu, b, m);
}

static void test_stores(void)
{
	uint64_t gdst = tg_alloc(&gpu, REGION), copy = tg_alloc(&gpu, REGION);
	uint8_t *g = tg_host(&gpu, gdst), *c = tg_host(&gpu, copy);
	uint8_t want[REGION];

	for (int tg = 0; tg < NTARGETS; tg++) {
		bool shared = tg == DST_SHARED || tg == DST_GENERIC_SHARED;
		unsigned int bad = 0, runs = 0;

		for (int p = 0; p < NPATTERNS; p++) {
			for (size_t si = 0; si < NSHAPES; si++) {
				const struct shape *s = &shapes[si];
				uint32_t bytes = s->es * (uint32_t)s->n;
				struct tg_module m;
				struct vgpu_core_fault f;

				if (build_store(tg, p, s, &m)) {
					bad++;
					continue;
				}
				for (size_t mi = 0; mi < NMASKS; mi++) {
					uint64_t prm[3] = {
						tg == DST_SHARED ? 0 :
						tg == DST_GENERIC_SHARED ?
						VISA_GENERIC_SHARED_BASE : gdst,
						copy, masks[mi] };
					const uint8_t *got = shared ? c : g;

					memset(g, 0xa5, REGION);
					memset(c, 0x5a, REGION);
					/* lanes store in order; warps own
					 * separate elements */
					memset(want, shared ? 0 : 0xa5, REGION);
					for (uint32_t tid = 0; tid < NTHREADS; tid++) {
						uint32_t idx = pattern_index(p, tid);

						if (!((masks[mi] >> (tid & 31)) & 1))
							continue;
						for (int e = 0; e < s->n; e++) {
							uint64_t v = store_value(tid, e);

							memcpy(want + idx * bytes +
							       e * s->es, &v, s->es);
						}
					}
					runs++;
					if (run(&m, "st", 1, block64, prm,
						sizeof(prm), &f)) {
						if (bad++ < 3)
							tap_diag("%s %s %s: %s",
								 target_names[tg],
								 pattern_names[p],
								 s->name, f.message);
						continue;
					}
					if (memcmp(got, want, REGION) && bad++ < 3)
						tap_diag("%s %s %s mask %08x: "
							 "memory differs",
							 target_names[tg],
							 pattern_names[p], s->name,
							 masks[mi]);
				}
				tg_unload(&m);
			}
		}
		tap_ok(&t, bad == 0, "stores to %s memory: %u runs, %u wrong",
		       target_names[tg], runs, bad);
	}
}

/* ---- local memory ------------------------------------------------------- */

/*
 * Each thread: st.local [16] (no address register: frame-relative)
 * tid*3+1; st.local [r = 24] tid*5+2 (uniform through a register);
 * st.local [64 + lane*8] tid*9 (contiguous); then reads back with
 * general addresses (16 or 24 by lane parity; 4 bytes at 64 + lane*8),
 * and [16] through the generic window.  Lanes with bit clear in
 * params[1] do nothing.
 */
static void test_local(void)
{
	struct vb *b = vb_new();
	struct tg_module m;
	struct vgpu_core_fault f;
	uint64_t dst = tg_alloc(&gpu, NTHREADS * 32);
	uint64_t *out = tg_host(&gpu, dst);
	unsigned int bad = 0;
	struct visa_insn *i;
	uint32_t fn;

	fn = vb_func(b, "loc", VISA_FUNC_KERNEL);
	vb_sreg(b, 0, VISA_SREG_TID_X);
	vb_ld_param(b, VISA_T_U64, 1, 0);
	vb_ld_param(b, VISA_T_U32, 2, 8);
	vb_op3(b, VISA_OP_AND, VISA_T_B32, 3, 0, vb_lit(b, 31));	/* lane */
	vb_op3(b, VISA_OP_SHR, VISA_T_B32, 4, 2, 3);
	vb_op3(b, VISA_OP_AND, VISA_T_B32, 4, 4, vb_lit(b, 1));
	i = vb_op(b, VISA_OP_SETP, VISA_T_U32);
	i->mod = VISA_MOD_MKSUB(VISA_CMP_EQ);
	i->pd = 0;
	i->a = 4;
	i->b = vb_lit(b, 0);
	vb_exit(b)->guard = 0;
	vb_op3(b, VISA_OP_MULWIDE, VISA_T_U32, 5, 0, vb_lit(b, 1));
	vb_op3(b, VISA_OP_MUL, VISA_T_U64, 6, 5, vb_lit(b, 3));
	vb_op3(b, VISA_OP_ADD, VISA_T_U64, 6, 6, vb_lit(b, 1));
	stv(b, VISA_SPACE_LOCAL, VISA_T_U64, 1, NONE, 16, 6);
	vb_op3(b, VISA_OP_MUL, VISA_T_U64, 6, 5, vb_lit(b, 5));
	vb_op3(b, VISA_OP_ADD, VISA_T_U64, 6, 6, vb_lit(b, 2));
	vb_op3(b, VISA_OP_MOV, VISA_T_B64, 7, vb_lit(b, 24), NONE);
	stv(b, VISA_SPACE_LOCAL, VISA_T_U64, 1, 7, 0, 6);
	vb_op3(b, VISA_OP_MUL, VISA_T_U64, 6, 5, vb_lit(b, 9));
	vb_op3(b, VISA_OP_MULWIDE, VISA_T_U32, 7, 3, vb_lit(b, 8));
	stv(b, VISA_SPACE_LOCAL, VISA_T_U64, 1, 7, 64, 6);
	/* general reads: 16 + (lane & 1) * 8 and 64 + ((lane * 7) & 31) * 8 */
	vb_op3(b, VISA_OP_AND, VISA_T_B32, 8, 3, vb_lit(b, 1));
	vb_op3(b, VISA_OP_MULWIDE, VISA_T_U32, 8, 8, vb_lit(b, 8));
	ldv(b, VISA_SPACE_LOCAL, VISA_T_U64, 1, 10, 8, 16);
	/* 4 bytes with a lane stride of 8: neither uniform nor contiguous */
	ldv(b, VISA_SPACE_LOCAL, VISA_T_U32, 1, 11, 7, 64);
	/* [16] through the generic window */
	i = vb_op(b, VISA_OP_CVTA, VISA_T_U64);
	i->type2 = VISA_SPACE_LOCAL;
	i->mod = VISA_MOD_TO_GENERIC;
	i->d = 8;
	i->a = vb_lit(b, 16);
	ldv(b, VISA_SPACE_GENERIC, VISA_T_U64, 1, 12, 8, 0);
	vb_op3(b, VISA_OP_MULWIDE, VISA_T_U32, 14, 0, vb_lit(b, 32));
	vb_op3(b, VISA_OP_ADD, VISA_T_U64, 14, 14, 1);
	stv(b, VISA_SPACE_GLOBAL, VISA_T_U64, 2, 14, 0, 10);
	stv(b, VISA_SPACE_GLOBAL, VISA_T_U64, 1, 14, 16, 12);
	vb_exit(b);
	vb_end_func(b, 16, 1, 512);
	vb_kernel(b, "loc", fn, 12, 0);
	if (tg_load_vb(&gpu, b, &m)) {
		tap_ok(&t, 0, "local memory");
		return;
	}
	for (size_t mi = 0; mi < NMASKS; mi++) {
		uint64_t prm[2] = { dst, masks[mi] };

		memset(out, 0, NTHREADS * 32);
		if (run(&m, "loc", 2, block64, prm, 12, &f)) {
			tap_diag("local: %s", f.message);
			bad++;
			continue;
		}
		for (uint32_t tid = 0; tid < NTHREADS; tid++) {
			uint32_t lane = tid & 31;
			bool on = (masks[mi] >> lane) & 1;
			/* each lane reads its own frame: its own values */
			uint64_t want[3] = {
				lane & 1 ? tid * 5 + 2 : tid * 3 + 1,
				(uint32_t)(tid * 9), tid * 3 + 1 };

			for (int k = 0; k < 3; k++)
				bad += out[tid * 4 + k] != (on ? want[k] : 0);
		}
	}
	tap_ok(&t, bad == 0, "local memory: uniform (frame and register), "
	       "contiguous and general addresses, generic window, %zu masks",
	       NMASKS);
	tg_unload(&m);
}

/* ---- spans across pages, faults in the middle --------------------------- */

static const uint32_t block32[3] = { 32, 1, 1 };

static struct tg_map *map_of(uint64_t va)
{
	for (unsigned int i = 0; i < gpu.nmaps; i++)
		if (gpu.maps[i].va == va)
			return &gpu.maps[i];
	return NULL;
}

/*
 * Two 4 KiB pages adjacent in the GPU's address space but in separate
 * host allocations: a contiguous access that crosses from one to the
 * other must split at the page boundary.
 */
static void test_page_cross(void)
{
	uint64_t a = tg_alloc_perm(&gpu, 4096, 4096, 3);
	uint64_t bpage = tg_alloc_perm(&gpu, 4096, 4096, 3);
	uint64_t dst = tg_alloc(&gpu, NTHREADS * 32);
	struct tg_map *mb = map_of(bpage);
	uint8_t *ha = tg_host(&gpu, a), *hb = tg_host(&gpu, bpage);
	uint64_t *out = tg_host(&gpu, dst);
	uint8_t virt[8192], want[8192];
	unsigned int bad = 0, runs = 0;

	if (!mb) {
		tap_ok(&t, 0, "page crossing: no test memory");
		return;
	}
	mb->va = a + 4096;	/* the second page follows the first */
	for (size_t si = 0; si < NSHAPES; si++) {
		const struct shape *s = &shapes[si];
		uint32_t bytes = s->es * (uint32_t)s->n;
		uint64_t base = a + 4096 - 20 * bytes;	/* lane 20 on page 2 */
		struct tg_module m;
		struct vgpu_core_fault f;

		for (int k = 0; k < 4096; k++) {
			ha[k] = (uint8_t)(k * 13 + 1);
			hb[k] = (uint8_t)(k * 29 + 7);
		}
		memcpy(virt, ha, 4096);
		memcpy(virt + 4096, hb, 4096);
		if (build_load(SRC_GLOBAL, CONTIGUOUS, s, NULL, &m)) {
			bad++;
			continue;
		}
		for (size_t mi = 0; mi < NMASKS; mi++) {
			struct ld_params *prm = calloc(1, sizeof(*prm));

			prm->base = base;
			prm->dst = dst;
			prm->mask = masks[mi];
			runs++;
			if (run(&m, "ld", 1, block64, prm, PARAM_SIZE, &f)) {
				tap_diag("page cross %s: %s", s->name, f.message);
				bad++;
				free(prm);
				continue;
			}
			free(prm);
			for (uint32_t tid = 0; tid < NTHREADS; tid++) {
				bool on = (masks[mi] >> (tid & 31)) & 1;

				for (int e = 0; e < 4; e++) {
					uint64_t w = on && e < s->n ?
						elem_le(virt + 4096 - 20 * bytes +
							tid * bytes + e * s->es, s) :
						SENTINEL;

					bad += out[tid * 4 + e] != w;
				}
			}
		}
		tg_unload(&m);
		if (build_store(DST_GLOBAL, CONTIGUOUS, s, &m)) {
			bad++;
			continue;
		}
		for (size_t mi = 0; mi < NMASKS; mi++) {
			uint64_t prm[3] = { base, 0, masks[mi] };

			memset(ha, 0x11, 4096);
			memset(hb, 0x22, 4096);
			memcpy(want, ha, 4096);
			memcpy(want + 4096, hb, 4096);
			for (uint32_t tid = 0; tid < NTHREADS; tid++) {
				if (!((masks[mi] >> (tid & 31)) & 1))
					continue;
				for (int e = 0; e < s->n; e++) {
					uint64_t v = store_value(tid, e);

					memcpy(want + 4096 - 20 * bytes +
					       tid * bytes + e * s->es, &v, s->es);
				}
			}
			runs++;
			if (run(&m, "st", 1, block64, prm, sizeof(prm), &f)) {
				tap_diag("page cross st %s: %s", s->name,
					 f.message);
				bad++;
				continue;
			}
			bad += memcmp(ha, want, 4096) != 0 ||
			       memcmp(hb, want + 4096, 4096) != 0;
		}
		tg_unload(&m);
	}
	mb->va = bpage;
	tap_ok(&t, bad == 0, "contiguous loads and stores across a page "
	       "boundary (separate host pages): %u runs, %u wrong", runs, bad);
}

struct fault_case {
	const char *what;
	bool store;
	enum ld_source src;
	uint8_t type;
	uint32_t mask;
	int64_t base_off;	/* from the page (or shared) start */
	uint32_t kind, lane;
	int64_t addr_off;	/* faulting address, from the same start */
};

/*
 * One warp, contiguous u32 accesses, page A (read-write) followed by an
 * unmapped guard or by page B, made read-only.  The record must be the
 * first faulting active lane's, as the lane-by-lane path reports it, and
 * the lanes before it have stored.
 */
static void test_fault_mid(void)
{
	static const struct fault_case cases[] = {
		{ "load running into an unmapped page", false, SRC_GLOBAL,
		  VISA_T_U32, FULL_MASK_ALL, 4096 - 80,
		  VISA_FAULT_UNMAPPED, 20, 4096 },
		{ "load, lanes 16-19 inactive", false, SRC_GLOBAL, VISA_T_U32,
		  0xfff0ffffu, 4096 - 64, VISA_FAULT_UNMAPPED, 20, 4096 + 16 },
		{ "store running into a read-only page", true, SRC_GLOBAL,
		  VISA_T_U32, FULL_MASK_ALL, 4096 - 80,
		  VISA_FAULT_PERMISSION, 20, 4096 },
		{ "misaligned contiguous load", false, SRC_GLOBAL, VISA_T_U32,
		  0xfffffff8u, 2, VISA_FAULT_MISALIGNED, 3, 2 + 12 },
		{ "shared load past the block's shared memory", false,
		  SRC_SHARED, VISA_T_U32, FULL_MASK_ALL, REGION - 80,
		  VISA_FAULT_OUT_OF_RANGE, 20, REGION },
		{ "v2.u32 load running into an unmapped page", false,
		  SRC_GLOBAL, VISA_T_U32, FULL_MASK_ALL, 4096 - 8 * 9,
		  VISA_FAULT_UNMAPPED, 9, 4096 },
	};
	uint64_t src = tg_alloc(&gpu, REGION), dst = tg_alloc(&gpu,
							     NTHREADS * 32);

	for (size_t ci = 0; ci < sizeof(cases) / sizeof(cases[0]); ci++) {
		const struct fault_case *c = &cases[ci];
		uint64_t a = tg_alloc_perm(&gpu, 4096, 4096, 3);
		uint64_t bpage = tg_alloc_perm(&gpu, 4096, 4096,
					       VGPU_CORE_PERM_READ);
		uint8_t *ha = tg_host(&gpu, a), *hb = tg_host(&gpu, bpage);
		bool v2 = strstr(c->what, "v2") != NULL;
		struct shape s = { c->type, v2 ? 2 : 1, 4, false, "u32" };
		uint64_t start = c->src == SRC_SHARED ? 0 : a;
		struct tg_module m;
		struct vgpu_core_fault f;
		unsigned int bad = 0;
		int r;

		if (!map_of(a) || !map_of(bpage)) {
			tap_ok(&t, 0, "fault: %s: no test memory", c->what);
			continue;
		}
		if (c->store)
			map_of(bpage)->va = a + 4096;	/* read-only next */
		memset(ha, 0x33, 4096);
		memset(hb, 0x44, 4096);
		if (c->store ? build_store(DST_GLOBAL, CONTIGUOUS, &s, &m) :
			       build_load(c->src, CONTIGUOUS, &s, NULL, &m)) {
			tap_ok(&t, 0, "fault: %s", c->what);
			continue;
		}
		if (c->store) {
			uint64_t prm[3] = { start + c->base_off, 0, c->mask };

			r = run(&m, "st", 1, block32, prm, sizeof(prm), &f);
		} else {
			struct ld_params *prm = calloc(1, sizeof(*prm));

			prm->base = start + c->base_off;
			prm->dst = dst;
			prm->mask = c->mask;
			prm->src = src;
			r = run(&m, "ld", 1, block32, prm, PARAM_SIZE, &f);
			free(prm);
		}
		/* the lanes before the faulting one stored, no other */
		if (c->store) {
			for (uint32_t l = 0; l < 32; l++) {
				uint64_t off = (uint64_t)c->base_off + l * 4;
				uint32_t v = (uint32_t)store_value(l, 0), got;

				if (off >= 4096)
					continue;
				memcpy(&got, ha + off, 4);
				bad += l < c->lane ? got != v : got != 0x33333333u;
			}
			for (int k = 0; k < 4096; k++)
				bad += hb[k] != 0x44;
		}
		tap_ok(&t, r == 1 && f.kind == c->kind &&
		       f.address == start + (uint64_t)c->addr_off &&
		       f.thread[0] == c->lane && f.thread[1] == 0 &&
		       f.pc == access_pc && bad == 0,
		       "fault in a contiguous access, %s: kind %u (want %u), "
		       "address +%lld (want +%lld), thread %u (want %u), pc %u "
		       "(want %u), %u stores wrong", c->what, f.kind, c->kind,
		       (long long)(f.address - start), (long long)c->addr_off,
		       f.thread[0], c->lane, f.pc, access_pc, bad);
		tg_unload(&m);
		map_of(c->store ? a + 4096 : bpage)->va = bpage;
	}
}

/* ---- threadIdx ---------------------------------------------------------- */

/* out[blockIdx * nthreads + flat] = x | y << 10 | z << 20 */
static void test_tids(void)
{
	static const uint32_t dims[][3] = {
		{ 5, 3, 7 }, { 7, 5, 3 }, { 32, 2, 2 }, { 1, 1, 64 },
		{ 3, 1, 1 }, { 33, 3, 1 }, { 5, 3, 7 }, { 1, 40, 2 },
		{ 1024, 1, 1 }, { 2, 2, 2 },
	};
	struct vb *b = vb_new();
	struct tg_module m;
	struct vgpu_core_fault f;
	uint64_t dst = tg_alloc(&gpu, 3 * 1024 * 4);
	uint32_t *out = tg_host(&gpu, dst), fn;
	unsigned int bad = 0;
	struct visa_insn *i;

	fn = vb_func(b, "tid", VISA_FUNC_KERNEL);
	vb_sreg(b, 0, VISA_SREG_TID_X);
	vb_sreg(b, 1, VISA_SREG_TID_Y);
	vb_sreg(b, 2, VISA_SREG_TID_Z);
	vb_sreg(b, 3, VISA_SREG_NTID_X);
	vb_sreg(b, 4, VISA_SREG_NTID_Y);
	vb_sreg(b, 5, VISA_SREG_NTID_Z);
	vb_sreg(b, 6, VISA_SREG_CTAID_X);
	i = vb_op3(b, VISA_OP_MAD, VISA_T_U32, 7, 6, 5);	/* ctaid*nz + z */
	i->c = 2;
	i = vb_op3(b, VISA_OP_MAD, VISA_T_U32, 7, 7, 4);	/* ... * ny + y */
	i->c = 1;
	i = vb_op3(b, VISA_OP_MAD, VISA_T_U32, 7, 7, 3);	/* ... * nx + x */
	i->c = 0;
	vb_op3(b, VISA_OP_SHL, VISA_T_B32, 8, 1, vb_lit(b, 10));
	vb_op3(b, VISA_OP_SHL, VISA_T_B32, 9, 2, vb_lit(b, 20));
	vb_op3(b, VISA_OP_OR, VISA_T_B32, 8, 8, 9);
	vb_op3(b, VISA_OP_OR, VISA_T_B32, 8, 8, 0);
	vb_ld_param(b, VISA_T_U64, 10, 0);
	vb_op3(b, VISA_OP_MULWIDE, VISA_T_U32, 11, 7, vb_lit(b, 4));
	vb_op3(b, VISA_OP_ADD, VISA_T_U64, 10, 10, 11);
	stv(b, VISA_SPACE_GLOBAL, VISA_T_U32, 1, 10, 0, 8);
	vb_exit(b);
	vb_end_func(b, 12, 0, 0);
	vb_kernel(b, "tid", fn, 8, 0);
	if (tg_load_vb(&gpu, b, &m)) {
		tap_ok(&t, 0, "threadIdx");
		return;
	}
	for (size_t d = 0; d < sizeof(dims) / sizeof(dims[0]); d++) {
		uint32_t n = dims[d][0] * dims[d][1] * dims[d][2];

		memset(out, 0xff, 3 * 1024 * 4);
		if (run(&m, "tid", 3, dims[d], &dst, 8, &f)) {
			tap_diag("tid %ux%ux%u: %s", dims[d][0], dims[d][1],
				 dims[d][2], f.message);
			bad++;
			continue;
		}
		for (uint32_t k = 0; k < 3 * n; k++) {
			uint32_t flat = k % n, x = flat % dims[d][0];
			uint32_t y = flat / dims[d][0] % dims[d][1];
			uint32_t z = flat / (dims[d][0] * dims[d][1]);

			if (out[k] != (x | y << 10 | z << 20) && bad++ < 3)
				tap_diag("block %ux%ux%u thread %u: %x",
					 dims[d][0], dims[d][1], dims[d][2], k,
					 out[k]);
		}
	}
	tap_ok(&t, bad == 0, "threadIdx of 3-D blocks, %zu shapes one after "
	       "another, 3 blocks each", sizeof(dims) / sizeof(dims[0]));
	tg_unload(&m);
}

/* ---- the host vector levels --------------------------------------------- */

#define NVALUES 4096
#define NOUT 21

/* r[d] = op(a, b[, c]) of type ty, then st.u64 out[i*NOUT + k] */
static void emit_op_out(struct vb *b, uint16_t op, uint8_t ty, uint16_t a,
			uint16_t bb, uint16_t c, int k)
{
	struct visa_insn *i = vb_op3(b, op, ty, 30, a, bb);

	i->c = c;
	vb_op3(b, VISA_OP_MOV, VISA_T_B64, 31, vb_lit(b, 0), NONE);
	i = vb_op3(b, VISA_OP_MOV, ty == VISA_T_F64 ? VISA_T_B64 : VISA_T_B32,
		31, 30, NONE);
	stv(b, VISA_SPACE_GLOBAL, VISA_T_U64, 1, 20, (uint64_t)k * 8, 31);
}

static uint64_t bits_of_f32(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/* Every level this CPU has gives the same bits as the first one, and
 * the correctly rounded f32 results are those of C. */
static void test_simd_levels(void)
{
	const char *const *levels = core_simd_levels();
	const char *was = core_simd_name();
	struct vb *b = vb_new();
	struct tg_module m;
	struct vgpu_core_fault f;
	uint64_t in[3], dst = tg_alloc(&gpu, NVALUES * NOUT * 8);
	uint64_t *out = tg_host(&gpu, dst), *first = NULL;
	uint64_t *v[3];
	unsigned int differ = 0, wrong = 0, nlev = 0;
	struct visa_insn *i;
	uint64_t x = 0x9e3779b97f4a7c15ull;
	uint32_t fn;

	for (int k = 0; k < 3; k++) {
		in[k] = tg_alloc(&gpu, NVALUES * 8);
		v[k] = tg_host(&gpu, in[k]);
	}
	for (int r = 0; r < NVALUES; r++) {
		for (int k = 0; k < 3; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			v[k][r] = x;
		}
		/* some specials: zeros, denormals, infinities, NaN, 1.0 */
		if (r % 17 == 0)
			v[1][r] = (r & 32) ? 0x8000000000000000ull : 0;
		if (r % 19 == 0)
			v[0][r] = 0x00000001000003ffull;
		if (r % 23 == 0)
			v[2][r] = 0x7ff000007f800000ull;
		if (r % 29 == 0)
			v[0][r] = 0x3ff000003f800000ull;
	}
	fn = vb_func(b, "ops", VISA_FUNC_KERNEL);
	vb_sreg(b, 0, VISA_SREG_TID_X);
	vb_sreg(b, 1, VISA_SREG_CTAID_X);
	vb_sreg(b, 2, VISA_SREG_NTID_X);
	i = vb_op3(b, VISA_OP_MAD, VISA_T_U32, 3, 1, 2);
	i->c = 0;
	vb_op3(b, VISA_OP_MULWIDE, VISA_T_U32, 4, 3, vb_lit(b, 8));
	for (int k = 0; k < 3; k++) {	/* r5..r7 f32 bits, r8..r10 f64 */
		vb_ld_param(b, VISA_T_U64, 11, (uint32_t)k * 8);
		vb_op3(b, VISA_OP_ADD, VISA_T_U64, 11, 11, 4);
		ldv(b, VISA_SPACE_GLOBAL, VISA_T_F32, 1, 5 + k, 11, 0);
		ldv(b, VISA_SPACE_GLOBAL, VISA_T_F64, 1, 8 + k, 11, 0);
	}
	vb_ld_param(b, VISA_T_U64, 20, 24);
	vb_op3(b, VISA_OP_MULWIDE, VISA_T_U32, 21, 3, vb_lit(b, NOUT * 8));
	vb_op3(b, VISA_OP_ADD, VISA_T_U64, 20, 20, 21);
	emit_op_out(b, VISA_OP_MUL, VISA_T_F32, 5, 6, NONE, 0);
	vb_op3(b, VISA_OP_MUL, VISA_T_F32, 12, 5, 6);	/* unfused a*b + c */
	emit_op_out(b, VISA_OP_ADD, VISA_T_F32, 12, 7, NONE, 1);
	emit_op_out(b, VISA_OP_FMA, VISA_T_F32, 5, 6, 7, 2);
	emit_op_out(b, VISA_OP_DIV, VISA_T_F32, 5, 6, NONE, 3);
	emit_op_out(b, VISA_OP_SQRT, VISA_T_F32, 5, NONE, NONE, 4);
	emit_op_out(b, VISA_OP_SUB, VISA_T_F32, 5, 7, NONE, 5);
	vb_op3(b, VISA_OP_MUL, VISA_T_F64, 13, 8, 9);
	emit_op_out(b, VISA_OP_ADD, VISA_T_F64, 13, 10, NONE, 6);
	emit_op_out(b, VISA_OP_FMA, VISA_T_F64, 8, 9, 10, 7);
	emit_op_out(b, VISA_OP_DIV, VISA_T_F64, 8, 9, NONE, 8);
	emit_op_out(b, VISA_OP_MUL, VISA_T_U32, 5, 6, NONE, 9);
	emit_op_out(b, VISA_OP_MULHI, VISA_T_S32, 5, 6, NONE, 10);
	emit_op_out(b, VISA_OP_POPC, VISA_T_B64, 8, NONE, NONE, 11);
	emit_op_out(b, VISA_OP_CLZ, VISA_T_B32, 5, NONE, NONE, 12);
	emit_op_out(b, VISA_OP_SHR, VISA_T_S32, 5, 6, NONE, 13);
	emit_op_out(b, VISA_OP_MIN, VISA_T_S64, 8, 9, NONE, 14);
	emit_op_out(b, VISA_OP_CVT, VISA_T_F32, 8, NONE, NONE, 15);
	vb_at(b, vb_pc(b) - 4)->type2 = VISA_T_F64;	/* cvt.rn.f32.f64 */
	/* int -> float: cvt.rn.f32.s32, .u32, cvt.rn.f64.s64, f32.u64, and
	 * cvt.rz.f32.s32 (the host's mode switched around the lanes) */
	{
		static const uint8_t cv[5][3] = {
			{ VISA_T_F32, VISA_T_S32, VISA_RND_RN },
			{ VISA_T_F32, VISA_T_U32, VISA_RND_RN },
			{ VISA_T_F64, VISA_T_S64, VISA_RND_RN },
			{ VISA_T_F32, VISA_T_U64, VISA_RND_RN },
			{ VISA_T_F32, VISA_T_S32, VISA_RND_RZ },
		};

		for (int k = 0; k < 5; k++) {
			emit_op_out(b, VISA_OP_CVT, cv[k][0], 8, NONE, NONE,
				    16 + k);
			vb_at(b, vb_pc(b) - 4)->type2 = cv[k][1];
			vb_at(b, vb_pc(b) - 4)->mod = cv[k][2];
		}
	}
	vb_exit(b);
	vb_end_func(b, 32, 0, 0);
	vb_kernel(b, "ops", fn, 32, 0);
	if (tg_load_vb(&gpu, b, &m)) {
		tap_ok(&t, 0, "host vector levels");
		return;
	}
	for (; levels[nlev]; nlev++) {
		uint64_t prm[4] = { in[0], in[1], in[2], dst };

		if (core_simd_select(levels[nlev])) {
			differ++;
			continue;
		}
		memset(out, 0, NVALUES * NOUT * 8);
		if (run(&m, "ops", NVALUES / 128, (uint32_t[3]){ 128, 1, 1 },
			prm, sizeof(prm), &f)) {
			tap_diag("%s: %s", levels[nlev], f.message);
			differ++;
			continue;
		}
		if (!first) {
			first = malloc(NVALUES * NOUT * 8);
			memcpy(first, out, NVALUES * NOUT * 8);
		} else if (memcmp(first, out, NVALUES * NOUT * 8)) {
			differ++;
			tap_diag("%s differs from %s", levels[nlev], levels[0]);
		}
		/* int -> float against C (round to nearest; toward zero:
		 * the nearest, stepped toward zero when it rounded away) */
		for (int r = 0; r < NVALUES; r++) {
			uint64_t a = v[0][r];
			float fs = (float)(int32_t)a, fz = fs;
			double d = (double)(int64_t)a;
			uint64_t want[5];

			if ((double)fabsf(fz) > fabs((double)(int32_t)a))
				fz = nextafterf(fz, 0.0f);
			want[0] = bits_of_f32(fs);
			want[1] = bits_of_f32((float)(uint32_t)a);
			memcpy(&want[2], &d, 8);
			want[3] = bits_of_f32((float)a);
			want[4] = bits_of_f32(fz);
			for (int k = 0; k < 5; k++)
				if (out[r * NOUT + 16 + k] != want[k] && wrong++ < 3)
					tap_diag("%s: cvt %d of %llx: %llx, C %llx",
						 levels[nlev], k,
						 (unsigned long long)a,
						 (unsigned long long)out[r * NOUT + 16 + k],
						 (unsigned long long)want[k]);
		}
		/* f32 against C (-std=c11: no contraction), NaN aside */
		for (int r = 0; r < NVALUES; r++) {
			float a, bb, c, want[5];
			uint32_t ua = (uint32_t)v[0][r], ub = (uint32_t)v[1][r];
			uint32_t uc = (uint32_t)v[2][r];

			memcpy(&a, &ua, 4);
			memcpy(&bb, &ub, 4);
			memcpy(&c, &uc, 4);
			want[0] = a * bb;
			want[1] = want[0] + c;
			want[2] = fmaf(a, bb, c);
			want[3] = a / bb;
			want[4] = sqrtf(a);
			for (int k = 0; k < 5; k++) {
				uint32_t wb;

				memcpy(&wb, &want[k], 4);
				if (want[k] == want[k] &&
				    out[r * NOUT + k] != wb && wrong++ < 3)
					tap_diag("%s: op %d of %08x %08x %08x: "
						 "%08llx, C %08x", levels[nlev],
						 k, ua, ub, uc,
						 (unsigned long long)out[r * NOUT + k],
						 wb);
			}
		}
	}
	core_simd_select(was);
	free(first);
	tg_unload(&m);
	tap_ok(&t, nlev >= 1 && differ == 0 && wrong == 0,
	       "%u host vector levels (%s ... %s) give the same bits on %d "
	       "inputs x %d operations; f32 and int-to-float results are C's "
	       "(%u wrong)",
	       nlev, levels[0], nlev ? levels[nlev - 1] : "-", NVALUES, NOUT,
	       wrong);
}

int main(void)
{
	const char *const *levels = core_simd_levels();
	const char *best = core_simd_name();
	char prefix[64];
	int nlev = 0;

	while (levels[nlev])
		nlev++;
	tap_plan(nlev * (NSOURCES + NTARGETS + 2) + 6 + 1 + 1);
	/* the memory paths at every host vector level this CPU has, each
	 * on a fresh test GPU (module loads use up its maps) */
	for (int k = 0; k < nlev; k++) {
		if (core_simd_select(levels[k]) || tg_init(&gpu, 1)) {
			printf("Bail out! level %s\n", levels[k]);
			return 1;
		}
		/*
		 * tg_init() lets the native tier compile TG_NATIVE_FUNCS
		 * functions and compares both tiers on them.  The native
		 * code is the same at every level, so compare it at the
		 * first level only: the others test the interpreter's own
		 * per-level builds (a budget of 0 keeps every function on
		 * the interpreter, and tg_launch then runs it once).
		 */
		if (k && !getenv("VGPU_TIER"))
			vgpu_jit_set_compile_budget(0);
		snprintf(prefix, sizeof(prefix), "[%s] ", levels[k]);
		t.prefix = prefix;
		test_loads();
		test_stores();
		test_local();
		test_page_cross();
		tg_fini(&gpu);
	}
	core_simd_select(best);
	t.prefix = NULL;
	if (tg_init(&gpu, 1)) {
		printf("Bail out! cannot create the core\n");
		return 1;
	}
	test_fault_mid();
	test_tids();
	test_simd_levels();
	tg_fini(&gpu);
	return tap_done(&t);
}
