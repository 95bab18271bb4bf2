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
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "simd.h"
#include "tap.h"
#include "test_gpu.h"
#include "visa_builder.h"

#define NONE VISA_OPND_NONE
#define SENTINEL 0xdeadbeefcafef00dull
#define NTHREADS 64
#define REGION 1024	/* bytes a pattern can reach: 64 threads x 16 */

static struct test_gpu gpu;
static struct tap t;

static struct visa_insn *op3(struct vb *b, uint16_t op, uint8_t ty, uint16_t d,
			     uint16_t a, uint16_t bb)
{
	struct visa_insn *i = vb_op(b, op, ty);

	i->d = d;
	i->a = a;
	i->b = bb;
	return i;
}

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

static int load(struct vb *b, struct tg_module *m)
{
	size_t size;
	void *img = vb_finish(b, &size);
	char err[200] = "";
	int ret = tg_load(&gpu, img, size, m, err, sizeof(err));

	if (ret)
		tap_diag("load failed: %s", err);
	free(img);
	vb_free(b);
	return ret;
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

/* ---- the shapes and address patterns ---------------------------------- */

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
		op3(b, VISA_OP_AND, VISA_T_B32, d, tid, vb_lit(b, ~31u));
		break;
	case CONTIGUOUS:
		op3(b, VISA_OP_MOV, VISA_T_B32, d, tid, NONE);
		break;
	default:
		op3(b, VISA_OP_MUL, VISA_T_U32, d + 1, tid, vb_lit(b, 7));
		op3(b, VISA_OP_AND, VISA_T_B32, d + 1, d + 1, vb_lit(b, 31));
		op3(b, VISA_OP_AND, VISA_T_B32, d, tid, vb_lit(b, ~31u));
		op3(b, VISA_OP_OR, VISA_T_B32, d, d, d + 1);
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
		op3(b, VISA_OP_MULWIDE, VISA_T_U32, 15, 0, vb_lit(b, 16));
		op3(b, VISA_OP_ADD, VISA_T_U64, 14, 14, 15);
		ldv(b, VISA_SPACE_GLOBAL, VISA_T_U64, 2, 10, 14, 0);
		stv(b, VISA_SPACE_SHARED, VISA_T_U64, 2, 15, 0, 10);
		vb_op(b, VISA_OP_BAR, VISA_T_NONE)->a = vb_lit(b, 0);
	}
	for (int k = 0; k < 4; k++)
		op3(b, VISA_OP_MOV, VISA_T_B64, 10 + k, vb_lit(b, SENTINEL),
		    NONE);
	op3(b, VISA_OP_AND, VISA_T_B32, 4, 0, vb_lit(b, 31));
	op3(b, VISA_OP_SHR, VISA_T_B32, 5, 3, 4);
	op3(b, VISA_OP_AND, VISA_T_B32, 5, 5, vb_lit(b, 1));
	i = vb_op(b, VISA_OP_SETP, VISA_T_U32);
	i->mod = VISA_MOD_MKSUB(VISA_CMP_NE);
	i->pd = 0;
	i->a = 5;
	i->b = vb_lit(b, 0);
	emit_index(b, p, 6, 0);
	op3(b, VISA_OP_MULWIDE, VISA_T_U32, 8, 6, vb_lit(b, bytes));
	op3(b, VISA_OP_ADD, VISA_T_U64, 8, 8, 1);
	ldv(b, space, s->type, s->n, 10, 8, 0)->guard = 0;
	op3(b, VISA_OP_MULWIDE, VISA_T_U32, 14, 0, vb_lit(b, 32));
	op3(b, VISA_OP_ADD, VISA_T_U64, 14, 14, 2);
	stv(b, VISA_SPACE_GLOBAL, VISA_T_U64, 4, 14, 0, 10);
	vb_exit(b);
	vb_end_func(b, 16, 1, 0);
	vb_kernel(b, "ld", fn, PARAM_SIZE, REGION);
	return load(b, m);
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
		op3(b, VISA_OP_MULWIDE, VISA_T_U32, 15, 0, vb_lit(b, 16));
		op3(b, VISA_OP_MOV, VISA_T_B64, 10, vb_lit(b, 0), NONE);
		op3(b, VISA_OP_MOV, VISA_T_B64, 11, vb_lit(b, 0), NONE);
		stv(b, VISA_SPACE_SHARED, VISA_T_U64, 2, 15, 0, 10);
		vb_op(b, VISA_OP_BAR, VISA_T_NONE)->a = vb_lit(b, 0);
	}
	op3(b, VISA_OP_MULWIDE, VISA_T_U32, 9, 0, vb_lit(b, 1));
	for (int k = 0; k < 4; k++) {
		i = op3(b, VISA_OP_MAD, VISA_T_U64, 10 + k, 9,
			vb_lit(b, 0x0101010101010101ull));
		i->c = vb_lit(b, (uint64_t)(k + 1) * 0x1020304050607080ull);
	}
	op3(b, VISA_OP_AND, VISA_T_B32, 4, 0, vb_lit(b, 31));
	op3(b, VISA_OP_SHR, VISA_T_B32, 5, 3, 4);
	op3(b, VISA_OP_AND, VISA_T_B32, 5, 5, vb_lit(b, 1));
	i = vb_op(b, VISA_OP_SETP, VISA_T_U32);
	i->mod = VISA_MOD_MKSUB(VISA_CMP_NE);
	i->pd = 0;
	i->a = 5;
	i->b = vb_lit(b, 0);
	emit_index(b, p, 6, 0);
	op3(b, VISA_OP_MULWIDE, VISA_T_U32, 8, 6, vb_lit(b, bytes));
	op3(b, VISA_OP_ADD, VISA_T_U64, 8, 8, 1);
	stv(b, space, s->type, s->n, 8, 0, 10)->guard = 0;
	if (shared) {
		vb_op(b, VISA_OP_BAR, VISA_T_NONE)->a = vb_lit(b, 0);
		ldv(b, VISA_SPACE_SHARED, VISA_T_U64, 2, 10, 15, 0);
		op3(b, VISA_OP_ADD, VISA_T_U64, 14, 15, 2);
		stv(b, VISA_SPACE_GLOBAL, VISA_T_U64, 2, 14, 0, 10);
	}
	vb_exit(b);
	vb_end_func(b, 16, 1, 0);
	vb_kernel(b, "st", fn, 24, REGION);
	return load(b, m);
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
	op3(b, VISA_OP_AND, VISA_T_B32, 3, 0, vb_lit(b, 31));	/* lane */
	op3(b, VISA_OP_SHR, VISA_T_B32, 4, 2, 3);
	op3(b, VISA_OP_AND, VISA_T_B32, 4, 4, vb_lit(b, 1));
	i = vb_op(b, VISA_OP_SETP, VISA_T_U32);
	i->mod = VISA_MOD_MKSUB(VISA_CMP_EQ);
	i->pd = 0;
	i->a = 4;
	i->b = vb_lit(b, 0);
	vb_exit(b)->guard = 0;
	op3(b, VISA_OP_MULWIDE, VISA_T_U32, 5, 0, vb_lit(b, 1));
	op3(b, VISA_OP_MUL, VISA_T_U64, 6, 5, vb_lit(b, 3));
	op3(b, VISA_OP_ADD, VISA_T_U64, 6, 6, vb_lit(b, 1));
	stv(b, VISA_SPACE_LOCAL, VISA_T_U64, 1, NONE, 16, 6);
	op3(b, VISA_OP_MUL, VISA_T_U64, 6, 5, vb_lit(b, 5));
	op3(b, VISA_OP_ADD, VISA_T_U64, 6, 6, vb_lit(b, 2));
	op3(b, VISA_OP_MOV, VISA_T_B64, 7, vb_lit(b, 24), NONE);
	stv(b, VISA_SPACE_LOCAL, VISA_T_U64, 1, 7, 0, 6);
	op3(b, VISA_OP_MUL, VISA_T_U64, 6, 5, vb_lit(b, 9));
	op3(b, VISA_OP_MULWIDE, VISA_T_U32, 7, 3, vb_lit(b, 8));
	stv(b, VISA_SPACE_LOCAL, VISA_T_U64, 1, 7, 64, 6);
	/* general reads: 16 + (lane & 1) * 8 and 64 + ((lane * 7) & 31) * 8 */
	op3(b, VISA_OP_AND, VISA_T_B32, 8, 3, vb_lit(b, 1));
	op3(b, VISA_OP_MULWIDE, VISA_T_U32, 8, 8, vb_lit(b, 8));
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
	op3(b, VISA_OP_MULWIDE, VISA_T_U32, 14, 0, vb_lit(b, 32));
	op3(b, VISA_OP_ADD, VISA_T_U64, 14, 14, 1);
	stv(b, VISA_SPACE_GLOBAL, VISA_T_U64, 2, 14, 0, 10);
	stv(b, VISA_SPACE_GLOBAL, VISA_T_U64, 1, 14, 16, 12);
	vb_exit(b);
	vb_end_func(b, 16, 1, 512);
	vb_kernel(b, "loc", fn, 12, 0);
	if (load(b, &m)) {
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

int main(void)
{
	tap_plan(NSOURCES + NTARGETS + 1);
	if (tg_init(&gpu, 1)) {
		printf("Bail out! cannot create the core\n");
		return 1;
	}
	test_loads();
	test_stores();
	test_local();
	tg_fini(&gpu);
	return tap_done(&t);
}
