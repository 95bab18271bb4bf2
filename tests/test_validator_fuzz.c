// SPDX-License-Identifier: GPL-2.0
/*
 * test_validator_fuzz.c - a bounded fuzz test of the vISA validator.
 *
 * Valid seed images (built with the builder) are mutated at random: bytes
 * flipped anywhere, instruction fields replaced with interesting values,
 * header and section fields changed, images truncated.  Every mutant must
 * either be rejected by vgpu_core_module_load() or, when accepted, run on
 * the core without crashing and without touching memory outside what the
 * context owns.  The sanitizer build (ASan/UBSan) is what proves the
 * second part: the core reaches test memory only through the translate
 * callback, so any other stray access is a host out-of-bounds access that
 * ASan reports.  A watchdog thread stops kernels that loop forever.
 *
 * The first FUZZ_NATIVE_RUNS mutants that run are compiled by the native
 * tier (firmware_sim/jit/) before their launch, and each launch runs on
 * both tiers (test_gpu.c compares them); the rest run on the interpreter
 * only (compiling is what costs time here).
 *
 * Deterministic (fixed seed) and bounded (FUZZ_ITERS mutants).
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "test_gpu.h"
#include "visa_builder.h"
#include "vgpu_jit.h"

#define FUZZ_ITERS	4000
#define FUZZ_MAX_RUNS	400
#define FUZZ_NATIVE_RUNS 60

static struct test_gpu gpu;
static uint64_t rng = 0x853c49e6748fea9bull;
static atomic_int done;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 11);
}

/* A kernel using most instruction classes, a callee and module data. */
static void *seed_image(size_t *size)
{
	struct vb *b = vb_new();
	struct visa_insn *i;
	uint32_t k, fn, loop;
	static const char fmt[] = "%d %s\n";
	uint64_t fo = vb_global(b, fmt, sizeof(fmt), 8);
	void *img;

	k = vb_func(b, "k", VISA_FUNC_KERNEL);
	vb_sreg(b, 0, VISA_SREG_TID_X);
	vb_ld_param(b, VISA_T_U64, 1, 0);
	i = vb_op(b, VISA_OP_MULWIDE, VISA_T_U32);
	i->d = 2; i->a = 0; i->b = vb_lit(b, 4);
	i = vb_op(b, VISA_OP_ADD, VISA_T_U64);
	i->d = 1; i->a = 1; i->b = 2;
	i = vb_op(b, VISA_OP_LD, VISA_T_U32);
	i->type2 = VISA_SPACE_GLOBAL; i->d = 3; i->a = 1;
	loop = vb_pc(b);
	i = vb_op(b, VISA_OP_ADD, VISA_T_U32);
	i->d = 3; i->a = 3; i->b = vb_lit(b, 1);
	i = vb_op(b, VISA_OP_SETP, VISA_T_U32);
	i->mod = VISA_MOD_MKSUB(VISA_CMP_LT); i->pd = 0; i->a = 3;
	i->b = vb_lit(b, 40);
	i = vb_bra(b, loop, loop + 3);
	i->guard = 0;
	i = vb_op(b, VISA_OP_ST, VISA_T_U32);
	i->type2 = VISA_SPACE_SHARED; i->a = 2; i->b = 3;
	i = vb_op(b, VISA_OP_BAR, VISA_T_NONE);
	i->a = vb_lit(b, 0);
	i = vb_op(b, VISA_OP_SHFL, VISA_T_B32);
	i->mod = VISA_MOD_MKSUB(VISA_SHFL_DOWN); i->d = 4; i->a = 3;
	i->b = vb_lit(b, 1); i->c = vb_lit(b, 31); i->e = vb_lit(b, ~0u);
	i = vb_op(b, VISA_OP_ST, VISA_T_U32);
	i->type2 = VISA_SPACE_LOCAL; i->imm = 32; i->b = 4;
	vb_op(b, VISA_OP_CALL, VISA_T_NONE)->imm = 1;
	i = vb_op(b, VISA_OP_ATOM, VISA_T_U32);
	i->type2 = VISA_SPACE_GLOBAL; i->mod = VISA_MOD_MKSUB(VISA_ATOM_ADD);
	i->d = 5; i->a = 1; i->b = 4;
	i = vb_op(b, VISA_OP_CVT, VISA_T_F32);
	i->type2 = VISA_T_U32; i->d = 6; i->a = 5;
	i = vb_op(b, VISA_OP_SQRT, VISA_T_F32);
	i->mod = VISA_RND_RN; i->d = 6; i->a = 6;
	i = vb_op(b, VISA_OP_MOVA, VISA_T_U64);
	i->type2 = VISA_SPACE_GLOBAL; i->d = 7; i->imm = fo;
	i = vb_op(b, VISA_OP_MOVA, VISA_T_U64);
	i->type2 = VISA_SPACE_LOCAL; i->d = 8;
	i = vb_op(b, VISA_OP_CVTA, VISA_T_U64);
	i->type2 = VISA_SPACE_LOCAL; i->mod = VISA_MOD_TO_GENERIC; i->d = 8;
	i->a = 8;
	i = vb_op(b, VISA_OP_VPRINTF, VISA_T_NONE);
	i->a = 7; i->b = 8;
	i = vb_op(b, VISA_OP_ST, VISA_T_F32);
	i->type2 = VISA_SPACE_GLOBAL; i->a = 1; i->b = 6;
	vb_exit(b);
	vb_end_func(b, 9, 1, 32);

	fn = vb_func(b, "f", 0);
	i = vb_op(b, VISA_OP_LD, VISA_T_U32);
	i->type2 = VISA_SPACE_LOCAL; i->d = 0; i->imm = 0;
	i = vb_op(b, VISA_OP_MUL, VISA_T_U32);
	i->d = 0; i->a = 0; i->b = vb_lit(b, 3);
	i = vb_op(b, VISA_OP_ST, VISA_T_U32);
	i->type2 = VISA_SPACE_LOCAL; i->imm = 4; i->b = 0;
	vb_op(b, VISA_OP_RET, VISA_T_NONE);
	vb_end_func(b, 1, 0, 16);
	vb_kernel(b, "k", k, 8, 256);
	vb_line(b, 0, "seed.ptx", 1);
	(void)fn;
	img = vb_finish(b, size);
	vb_free(b);
	return img;
}

static const uint64_t interesting[] = {
	0, 1, 2, 7, 8, 15, 16, 31, 32, 0x7f, 0x80, 0xff, 0x100, 0x3fff,
	0x4000, 0x7fff, 0x8000, 0xfffe, 0xffff, 0x10000, 0x7fffffff,
	0x80000000, 0xffffffff, 0x100000000ull, VISA_GENERIC_SHARED_BASE,
	VISA_GENERIC_LOCAL_BASE, VISA_GENERIC_PARAM_BASE, VISA_FUNCPTR_BASE,
	~0ull, 0x8000000000000000ull,
};

static void mutate(uint8_t *img, size_t *size)
{
	const struct visa_image_header *h = (const void *)img;
	int n = 1 + rnd() % 4;

	for (int k = 0; k < n; k++) {
		switch (rnd() % 6) {
		case 0:		/* flip a byte anywhere */
			img[rnd() % *size] ^= (uint8_t)(1u << (rnd() % 8));
			break;
		case 1: {	/* an instruction field := interesting value */
			const struct visa_section *s = &h->sections[VISA_SEC_CODE];
			uint32_t ninsn = s->size / sizeof(struct visa_insn);
			uint8_t *in;
			uint64_t v = interesting[rnd() % (sizeof(interesting) /
							  sizeof(interesting[0]))];
			static const uint8_t offs[] = { 0, 2, 3, 4, 8, 10, 12,
							14, 16, 18, 20, 22, 24 };
			static const uint8_t lens[] = { 2, 1, 1, 4, 2, 2, 2, 2,
							2, 2, 2, 2, 8 };
			int f = (int)(rnd() % sizeof(offs));

			if (!ninsn || (uint64_t)s->offset + s->size > *size)
				break;
			in = img + s->offset + (rnd() % ninsn) *
			     sizeof(struct visa_insn);
			memcpy(in + offs[f], &v, lens[f]);
			break;
		}
		case 2: {	/* a header or section-table word */
			uint32_t off = (rnd() % (sizeof(*h) / 4)) * 4;
			uint32_t v = (uint32_t)interesting[rnd() %
				(sizeof(interesting) / sizeof(interesting[0]))];

			if (off >= 16)	/* keep magic/version mostly */
				memcpy(img + off, &v, 4);
			break;
		}
		case 3:		/* truncate */
			if (rnd() % 8 == 0)
				*size = rnd() % *size;
			break;
		case 4: {	/* a table entry word (funcs, kernels, ...) */
			int sec = VISA_SEC_FUNCS + (int)(rnd() % 9);
			const struct visa_section *s = &h->sections[sec];
			uint32_t v = (uint32_t)interesting[rnd() %
				(sizeof(interesting) / sizeof(interesting[0]))];

			if (s->size >= 4 && (uint64_t)s->offset + s->size <= *size)
				memcpy(img + s->offset + (rnd() % (s->size / 4)) * 4,
				       &v, 4);
			break;
		}
		default:	/* the opcode of a random instruction */
			if (h->sections[VISA_SEC_CODE].size >= 32 &&
			    (uint64_t)h->sections[VISA_SEC_CODE].offset +
			    h->sections[VISA_SEC_CODE].size <= *size) {
				uint16_t op = (uint16_t)(rnd() % (VISA_OP_COUNT + 2));

				memcpy(img + h->sections[VISA_SEC_CODE].offset +
				       (rnd() % (h->sections[VISA_SEC_CODE].size / 32)) * 32,
				       &op, 2);
			}
		}
	}
}

static void *watchdog(void *arg)
{
	(void)arg;
	while (!atomic_load(&done)) {
		usleep(5000);
		vgpu_core_stop(gpu.core);
	}
	return NULL;
}

int main(void)
{
	struct tap t = { 0 };
	size_t seed_size;
	uint8_t *seed = seed_image(&seed_size);
	uint64_t buf = 0;
	int rejected = 0, accepted = 0, ran = 0, faulted = 0, native = 0;
	struct tg_module m;
	char err[256] = "";
	pthread_t th;

	tap_plan(3);
	if (tg_init(&gpu, 2)) {
		printf("Bail out! core\n");
		return 1;
	}
	buf = tg_alloc(&gpu, 65536);
	tap_ok(&t, tg_load(&gpu, seed, seed_size, &m, err, sizeof(err)) == 0,
	       "the seed image is valid %s", err);
	tg_unload(&m);
	pthread_create(&th, NULL, watchdog, NULL);

	for (int it = 0; it < FUZZ_ITERS; it++) {
		uint8_t *img = aligned_alloc(8, (seed_size + 7) & ~(size_t)7);
		size_t size = seed_size;
		struct vgpu_core_fault f;

		memcpy(img, seed, seed_size);
		mutate(img, &size);
		if (vgpu_core_module_load(img, size, &m.mod, err, sizeof(err))) {
			rejected++;
			free(img);
			continue;
		}
		accepted++;
		{
			const struct visa_image_header *h =
				vgpu_core_module_header(m.mod);
			/* huge (valid) segments would only test malloc */
			bool small = h->global_size <= (1u << 20) &&
				     h->const_size <= (1u << 20);

			vgpu_core_module_unload(m.mod);
			if (!small) {
				free(img);
				continue;
			}
		}
		if (ran < FUZZ_MAX_RUNS &&
		    tg_load(&gpu, img, size, &m, err, sizeof(err)) == 0) {
			uint64_t params[8] = { buf, buf, buf, buf };
			const struct visa_kernel *k =
				vgpu_core_module_kernel(m.mod, 0);

			if (k && k->param_size <= sizeof(params)) {
				const char *name = vgpu_core_module_string(m.mod,
									   k->name);
				int r;

				/* compiled outside the watchdog's reach */
				if (vgpu_jit_module_compile(m.mod, -1) > 0)
					native++;
				r = tg_launch(&gpu, &m, name,
						  (uint32_t[3]){ 2, 1, 1 },
						  (uint32_t[3]){ 64, 1, 1 }, 0,
						  params, k->param_size, &f);

				ran++;
				faulted += r != 0;
				if (ran == FUZZ_NATIVE_RUNS) {
					vgpu_jit_set_tier(VGPU_TIER_INTERP);
					gpu.both_tiers = false;
				}
				free(tg_printf_output(&gpu, NULL));
			}
			tg_unload(&m);
		}
		free(img);
	}
	atomic_store(&done, 1);
	pthread_join(th, NULL);
	tap_diag("%d mutants: %d rejected, %d accepted, %d run (%d faulted or "
		 "were stopped), %d of them also natively", FUZZ_ITERS,
		 rejected, accepted, ran, faulted, native);
	tap_ok(&t, rejected > FUZZ_ITERS / 4, "the validator rejects broken "
	       "images with an error (%d)", rejected);
	tap_ok(&t, ran > 0, "accepted mutants run without crashing or touching "
	       "memory outside the context (%d runs)", ran);
	free(seed);
	tg_fini(&gpu);
	return tap_done(&t);
}
