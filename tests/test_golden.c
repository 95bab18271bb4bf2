// SPDX-License-Identifier: GPL-2.0
/*
 * test_golden.c - instruction-level tests against results recorded on an
 * NVIDIA H100 (tests/golden/h100.txt, made by tests/golden/record_golden.cu).
 *
 * For every recorded PTX instruction the test builds a vISA kernel that
 * loads the same inputs, executes the equivalent vISA instruction and
 * stores the result, runs it on the core, and compares with the hardware:
 * bit for bit, except for .approx instructions, which must lie within the
 * error bound the PTX ISA states (NaN, infinity and zero must still match
 * exactly).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "test_gpu.h"
#include "visa_builder.h"

#ifndef GOLDEN_FILE
#define GOLDEN_FILE "tests/golden/h100.txt"
#endif

#define M(x) VISA_MOD_MKSUB(x)
#define RN VISA_RND_RN
#define RZ VISA_RND_RZ
#define RM VISA_RND_RM
#define RP VISA_RND_RP
#define RNI VISA_RND_RNI
#define RZI VISA_RND_RZI
#define RMI VISA_RND_RMI
#define RPI VISA_RND_RPI
#define APX VISA_MOD_APPROX
#define FTZ VISA_MOD_FTZ

/* How results are compared. */
enum cmp { EXACT, ULP2, REL22, SINCOS, TANH, REL19 };

struct map {
	const char *name;
	uint16_t op;
	uint8_t type, type2;
	uint32_t mod;
	unsigned int rbits;	/* result width */
	enum cmp cmp;
};

#define T(x) VISA_T_##x
#define O(x) VISA_OP_##x
static const struct map maps[] = {
	{ "rcp_approx_f32", O(RCP), T(F32), 0, APX, 32, ULP2 },
	{ "rcp_approx_ftz_f32", O(RCP), T(F32), 0, APX | FTZ, 32, ULP2 },
	{ "rcp_rn_f32", O(RCP), T(F32), 0, RN, 32, EXACT },
	{ "rcp_rz_f32", O(RCP), T(F32), 0, RZ, 32, EXACT },
	{ "sqrt_approx_f32", O(SQRT), T(F32), 0, APX, 32, ULP2 },
	{ "sqrt_rn_f32", O(SQRT), T(F32), 0, RN, 32, EXACT },
	{ "sqrt_rp_f32", O(SQRT), T(F32), 0, RP, 32, EXACT },
	{ "rsqrt_approx_f32", O(RSQRT), T(F32), 0, APX, 32, ULP2 },
	{ "sin_approx_f32", O(SIN), T(F32), 0, APX, 32, SINCOS },
	{ "cos_approx_f32", O(COS), T(F32), 0, APX, 32, SINCOS },
	{ "lg2_approx_f32", O(LG2), T(F32), 0, APX, 32, REL22 },
	{ "ex2_approx_f32", O(EX2), T(F32), 0, APX, 32, ULP2 },
	{ "ex2_approx_ftz_f32", O(EX2), T(F32), 0, APX | FTZ, 32, ULP2 },
	{ "tanh_approx_f32", O(TANH), T(F32), 0, APX, 32, TANH },
	{ "abs_f32", O(ABS), T(F32), 0, 0, 32, EXACT },
	{ "neg_f32", O(NEG), T(F32), 0, 0, 32, EXACT },
	{ "cvt_rni_f32_f32", O(CVT), T(F32), T(F32), RNI, 32, EXACT },
	{ "cvt_rmi_f32_f32", O(CVT), T(F32), T(F32), RMI, 32, EXACT },
	{ "cvt_rzi_ftz_f32_f32", O(CVT), T(F32), T(F32), RZI | FTZ, 32, EXACT },
	{ "add_rn_f32", O(ADD), T(F32), 0, RN, 32, EXACT },
	{ "add_rz_f32", O(ADD), T(F32), 0, RZ, 32, EXACT },
	{ "add_rm_f32", O(ADD), T(F32), 0, RM, 32, EXACT },
	{ "add_rp_f32", O(ADD), T(F32), 0, RP, 32, EXACT },
	{ "add_ftz_f32", O(ADD), T(F32), 0, FTZ, 32, EXACT },
	{ "add_sat_f32", O(ADD), T(F32), 0, VISA_MOD_SAT, 32, EXACT },
	{ "sub_rn_f32", O(SUB), T(F32), 0, RN, 32, EXACT },
	{ "mul_rn_f32", O(MUL), T(F32), 0, RN, 32, EXACT },
	{ "mul_rz_f32", O(MUL), T(F32), 0, RZ, 32, EXACT },
	{ "mul_rm_f32", O(MUL), T(F32), 0, RM, 32, EXACT },
	{ "mul_rp_f32", O(MUL), T(F32), 0, RP, 32, EXACT },
	{ "mul_ftz_f32", O(MUL), T(F32), 0, FTZ, 32, EXACT },
	{ "div_rn_f32", O(DIV), T(F32), 0, RN, 32, EXACT },
	{ "div_rz_f32", O(DIV), T(F32), 0, RZ, 32, EXACT },
	{ "div_approx_f32", O(DIV), T(F32), 0, APX, 32, ULP2 },
	{ "div_full_f32", O(DIV), T(F32), 0, VISA_MOD_FULL, 32, ULP2 },
	{ "min_f32", O(MIN), T(F32), 0, 0, 32, EXACT },
	{ "max_f32", O(MAX), T(F32), 0, 0, 32, EXACT },
	{ "min_NaN_f32", O(MIN), T(F32), 0, VISA_MOD_NAN, 32, EXACT },
	{ "max_NaN_f32", O(MAX), T(F32), 0, VISA_MOD_NAN, 32, EXACT },
	{ "copysign_f32", O(COPYSIGN), T(F32), 0, 0, 32, EXACT },
	{ "fma_rn_f32", O(FMA), T(F32), 0, RN, 32, EXACT },
	{ "fma_rz_f32", O(FMA), T(F32), 0, RZ, 32, EXACT },
	{ "fma_rm_f32", O(FMA), T(F32), 0, RM, 32, EXACT },
	{ "cvt_rzi_s32_f32", O(CVT), T(S32), T(F32), RZI, 32, EXACT },
	{ "cvt_rni_s32_f32", O(CVT), T(S32), T(F32), RNI, 32, EXACT },
	{ "cvt_rmi_s32_f32", O(CVT), T(S32), T(F32), RMI, 32, EXACT },
	{ "cvt_rpi_s32_f32", O(CVT), T(S32), T(F32), RPI, 32, EXACT },
	{ "cvt_rzi_u32_f32", O(CVT), T(U32), T(F32), RZI, 32, EXACT },
	{ "cvt_rzi_s64_f32", O(CVT), T(S64), T(F32), RZI, 64, EXACT },
	{ "cvt_rzi_u64_f32", O(CVT), T(U64), T(F32), RZI, 64, EXACT },
	{ "cvt_rn_f16_f32", O(CVT), T(F16), T(F32), RN, 16, EXACT },
	{ "cvt_rz_f16_f32", O(CVT), T(F16), T(F32), RZ, 16, EXACT },
	{ "cvt_rm_f16_f32", O(CVT), T(F16), T(F32), RM, 16, EXACT },
	{ "cvt_rn_bf16_f32", O(CVT), T(BF16), T(F32), RN, 16, EXACT },
	{ "sqrt_rn_f64", O(SQRT), T(F64), 0, RN, 64, EXACT },
	{ "rcp_rn_f64", O(RCP), T(F64), 0, RN, 64, EXACT },
	{ "rsqrt_approx_f64", O(RSQRT), T(F64), 0, APX, 64, REL19 },
	{ "rcp_approx_ftz_f64", O(RCP), T(F64), 0, APX | FTZ, 64, REL19 },
	{ "abs_f64", O(ABS), T(F64), 0, 0, 64, EXACT },
	{ "neg_f64", O(NEG), T(F64), 0, 0, 64, EXACT },
	{ "add_rn_f64", O(ADD), T(F64), 0, RN, 64, EXACT },
	{ "add_rz_f64", O(ADD), T(F64), 0, RZ, 64, EXACT },
	{ "mul_rn_f64", O(MUL), T(F64), 0, RN, 64, EXACT },
	{ "mul_rp_f64", O(MUL), T(F64), 0, RP, 64, EXACT },
	{ "div_rn_f64", O(DIV), T(F64), 0, RN, 64, EXACT },
	{ "min_f64", O(MIN), T(F64), 0, 0, 64, EXACT },
	{ "max_f64", O(MAX), T(F64), 0, 0, 64, EXACT },
	{ "fma_rn_f64", O(FMA), T(F64), 0, RN, 64, EXACT },
	{ "cvt_rzi_s32_f64", O(CVT), T(S32), T(F64), RZI, 32, EXACT },
	{ "cvt_rni_u32_f64", O(CVT), T(U32), T(F64), RNI, 32, EXACT },
	{ "cvt_rzi_s64_f64", O(CVT), T(S64), T(F64), RZI, 64, EXACT },
	{ "cvt_rzi_u64_f64", O(CVT), T(U64), T(F64), RZI, 64, EXACT },
	{ "cvt_rn_f32_f64", O(CVT), T(F32), T(F64), RN, 32, EXACT },
	{ "cvt_rz_f32_f64", O(CVT), T(F32), T(F64), RZ, 32, EXACT },
	{ "cvt_rp_f32_f64", O(CVT), T(F32), T(F64), RP, 32, EXACT },
	{ "bfind_u32", O(BFIND), T(U32), 0, 0, 32, EXACT },
	{ "bfind_s32", O(BFIND), T(S32), 0, 0, 32, EXACT },
	{ "bfind_shiftamt_u32", O(BFIND), T(U32), 0, M(1), 32, EXACT },
	{ "clz_b32", O(CLZ), T(B32), 0, 0, 32, EXACT },
	{ "popc_b32", O(POPC), T(B32), 0, 0, 32, EXACT },
	{ "brev_b32", O(BREV), T(B32), 0, 0, 32, EXACT },
	{ "abs_s32", O(ABS), T(S32), 0, 0, 32, EXACT },
	{ "neg_s32", O(NEG), T(S32), 0, 0, 32, EXACT },
	{ "cnot_b32", O(CNOT), T(B32), 0, 0, 32, EXACT },
	{ "div_s32", O(DIV), T(S32), 0, 0, 32, EXACT },
	{ "div_u32", O(DIV), T(U32), 0, 0, 32, EXACT },
	{ "rem_s32", O(REM), T(S32), 0, 0, 32, EXACT },
	{ "rem_u32", O(REM), T(U32), 0, 0, 32, EXACT },
	{ "mul_hi_s32", O(MULHI), T(S32), 0, 0, 32, EXACT },
	{ "mul_hi_u32", O(MULHI), T(U32), 0, 0, 32, EXACT },
	{ "add_sat_s32", O(ADD), T(S32), 0, VISA_MOD_SAT, 32, EXACT },
	{ "sub_sat_s32", O(SUB), T(S32), 0, VISA_MOD_SAT, 32, EXACT },
	{ "shl_b32", O(SHL), T(B32), 0, 0, 32, EXACT },
	{ "shr_s32", O(SHR), T(S32), 0, 0, 32, EXACT },
	{ "shr_u32", O(SHR), T(U32), 0, 0, 32, EXACT },
	{ "min_s32", O(MIN), T(S32), 0, 0, 32, EXACT },
	{ "max_u32", O(MAX), T(U32), 0, 0, 32, EXACT },
	{ "bfe_u32", O(BFE), T(U32), 0, 0, 32, EXACT },
	{ "bfe_s32", O(BFE), T(S32), 0, 0, 32, EXACT },
	{ "prmt_b32", O(PRMT), T(B32), 0, 0, 32, EXACT },
	{ "shf_l_wrap_b32", O(SHF), T(B32), 0, M(VISA_SHF_L_WRAP), 32, EXACT },
	{ "shf_r_clamp_b32", O(SHF), T(B32), 0, M(VISA_SHF_R_CLAMP), 32, EXACT },
	{ "mad_hi_u32", O(MADHI), T(U32), 0, 0, 32, EXACT },
	{ "sad_s32", O(SAD), T(S32), 0, 0, 32, EXACT },
	{ "dp4a_s32_s32", O(DP4A), T(S32), 0,
	  VISA_MOD_SIGNED_A | VISA_MOD_SIGNED_B, 32, EXACT },
	{ "div_s64", O(DIV), T(S64), 0, 0, 64, EXACT },
	{ "div_u64", O(DIV), T(U64), 0, 0, 64, EXACT },
	{ "rem_s64", O(REM), T(S64), 0, 0, 64, EXACT },
	{ "rem_u64", O(REM), T(U64), 0, 0, 64, EXACT },
	{ "mul_hi_u64", O(MULHI), T(U64), 0, 0, 64, EXACT },
	{ "mul_hi_s64", O(MULHI), T(S64), 0, 0, 64, EXACT },
	{ "add_rn_f16", O(ADD), T(F16), 0, RN, 16, EXACT },
	{ "mul_rn_f16", O(MUL), T(F16), 0, RN, 16, EXACT },
	{ "min_f16", O(MIN), T(F16), 0, 0, 16, EXACT },
	{ "fma_rn_f16", O(FMA), T(F16), 0, RN, 16, EXACT },
	{ "cvt_f32_f16", O(CVT), T(F32), T(F16), 0, 32, EXACT },
};

static struct test_gpu gpu;

static const struct map *find_map(const char *name)
{
	for (size_t i = 0; i < sizeof(maps) / sizeof(maps[0]); i++)
		if (!strcmp(maps[i].name, name))
			return &maps[i];
	return NULL;
}

/* D[i] = op(A[i], B[i], C[i]) for i < n: params A, B, C, D, n. */
static void *build_kernel(const struct map *mp, size_t *size)
{
	struct vb *b = vb_new();
	struct visa_insn *i;
	uint32_t fn;
	void *img;

	fn = vb_func(b, "g", VISA_FUNC_KERNEL);
	vb_sreg(b, 0, VISA_SREG_TID_X);
	vb_sreg(b, 1, VISA_SREG_CTAID_X);
	vb_sreg(b, 2, VISA_SREG_NTID_X);
	i = vb_op(b, VISA_OP_MAD, VISA_T_U32);
	i->d = 0; i->a = 1; i->b = 2; i->c = 0;
	vb_ld_param(b, VISA_T_U32, 1, 32);
	i = vb_op(b, VISA_OP_SETP, VISA_T_U32);
	i->mod = VISA_MOD_MKSUB(VISA_CMP_GE);
	i->pd = 0; i->a = 0; i->b = 1;
	vb_exit(b)->guard = 0;
	i = vb_op(b, VISA_OP_MULWIDE, VISA_T_U32);
	i->d = 1; i->a = 0; i->b = vb_lit(b, 8);
	for (int k = 0; k < 4; k++) {	/* r2..r5 = &A[i] .. &D[i] */
		vb_ld_param(b, VISA_T_U64, (uint16_t)(2 + k), (uint32_t)(8 * k));
		i = vb_op(b, VISA_OP_ADD, VISA_T_U64);
		i->d = (uint16_t)(2 + k); i->a = (uint16_t)(2 + k); i->b = 1;
	}
	for (int k = 0; k < 3; k++) {	/* r6..r8 = A[i], B[i], C[i] */
		i = vb_op(b, VISA_OP_LD, VISA_T_U64);
		i->type2 = VISA_SPACE_GLOBAL;
		i->d = (uint16_t)(6 + k); i->a = (uint16_t)(2 + k);
	}
	i = vb_op(b, mp->op, mp->type);
	i->type2 = mp->type2;
	i->mod = mp->mod;
	i->d = 9;
	i->a = 6;
	if (mp->op != VISA_OP_CVT)
		i->b = 7;
	if (mp->op == VISA_OP_FMA || mp->op == VISA_OP_BFE ||
	    mp->op == VISA_OP_PRMT || mp->op == VISA_OP_SHF ||
	    mp->op == VISA_OP_MADHI || mp->op == VISA_OP_SAD ||
	    mp->op == VISA_OP_DP4A)
		i->c = 8;
	/* unary instructions take only a */
	switch (mp->op) {
	case VISA_OP_RCP: case VISA_OP_SQRT: case VISA_OP_RSQRT:
	case VISA_OP_SIN: case VISA_OP_COS: case VISA_OP_LG2:
	case VISA_OP_EX2: case VISA_OP_TANH: case VISA_OP_ABS:
	case VISA_OP_NEG: case VISA_OP_BFIND: case VISA_OP_CLZ:
	case VISA_OP_POPC: case VISA_OP_BREV: case VISA_OP_CNOT:
		i->b = VISA_OPND_NONE;
	}
	i = vb_op(b, VISA_OP_ST, VISA_T_U64);
	i->type2 = VISA_SPACE_GLOBAL;
	i->a = 5; i->b = 9;
	vb_exit(b);
	vb_end_func(b, 10, 1, 0);
	vb_kernel(b, "g", fn, 40, 0);
	img = vb_finish(b, size);
	vb_free(b);
	return img;
}

static double as_double(uint64_t v, unsigned int bits)
{
	float f;
	double d;
	uint32_t u = (uint32_t)v;

	if (bits == 64) {
		memcpy(&d, &v, 8);
		return d;
	}
	memcpy(&f, &u, 4);
	return f;
}

/* ulp distance between two f32 bit patterns of the same sign. */
static int64_t ulps32(uint32_t a, uint32_t b)
{
	int64_t x = (a & 0x80000000u) ? -(int64_t)(a & 0x7fffffffu) : a;
	int64_t y = (b & 0x80000000u) ? -(int64_t)(b & 0x7fffffffu) : b;

	return x > y ? x - y : y - x;
}

static int close_enough(const struct map *mp, uint64_t in, uint64_t hw,
			uint64_t core)
{
	double h = as_double(hw, mp->rbits), c = as_double(core, mp->rbits);
	double x = as_double(in, mp->rbits), tol;

	if (hw == core)
		return 1;
	/* special values must match exactly */
	if (isnan(h) || isnan(c) || isinf(h) || isinf(c))
		return isnan(h) && isnan(c);
	switch (mp->cmp) {
	case ULP2:
		/* 2 ulp, and hardware flushes results the bound does not
		 * cover (below 2^-126) */
		if (fabs(h) < 0x1p-126 && fabs(c) < 0x1p-126)
			return 1;
		return ulps32((uint32_t)hw, (uint32_t)core) <= 2;
	case REL22:
		return fabs(h - c) <= 0x1p-22 * fmax(1.0, fabs(h));
	case SINCOS:
		/* 2^-20.5 absolute in [-pi, pi]; the hardware's range
		 * reduction loses accuracy with |x| */
		tol = 0x1p-20 * fmax(1.0, fabs(x));
		return fabs(h - c) <= tol;
	case TANH:
		return fabs(h - c) <= 0x1p-10 * fmax(fabs(h), 0x1p-20);
	case REL19:
		if (h == 0 || c == 0 || fabs(h) < 0x1p-1022)
			return fabs(h) < 0x1p-1000 && fabs(c) < 0x1p-1000;
		return fabs(h - c) <= 0x1p-19 * fabs(h);
	default:
		return 0;
	}
}

int main(void)
{
	struct tap t = { 0 };
	FILE *f = fopen(GOLDEN_FILE, "r");
	char line[256];
	int nops = 0;

	if (!f) {
		printf("Bail out! cannot open %s\n", GOLDEN_FILE);
		return 1;
	}
	int maxn = 0;
	uint64_t va[4];

	while (fgets(line, sizeof(line), f)) {
		char nm[64], kd[8];
		int n;

		if (sscanf(line, "op %63s %7s %d", nm, kd, &n) == 3) {
			nops++;
			maxn = n > maxn ? n : maxn;
		}
	}
	rewind(f);
	tap_plan(nops);
	if (tg_init(&gpu, 2)) {
		printf("Bail out! core\n");
		return 1;
	}
	for (int k = 0; k < 4; k++)
		va[k] = tg_alloc(&gpu, (size_t)maxn * 8);
	while (fgets(line, sizeof(line), f)) {
		char name[64], kind[8];
		int n, bad = 0;
		const struct map *mp;
		uint64_t *in[3], *want, params[5];
		struct tg_module mod;
		struct vgpu_core_fault fault;
		size_t size;
		void *img;
		char err[128];

		if (sscanf(line, "op %63s %7s %d", name, kind, &n) != 3)
			continue;
		mp = find_map(name);
		want = calloc((size_t)n, 8);
		if (n <= 0 || n > maxn)
			continue;
		for (int k = 0; k < 3; k++)
			in[k] = tg_host(&gpu, va[k]);
		for (int r = 0; r < n; r++) {
			unsigned long long a, b, c, d;

			if (!fgets(line, sizeof(line), f) ||
			    sscanf(line, "%llx %llx %llx %llx", &a, &b, &c, &d) != 4)
				break;
			in[0][r] = a;
			in[1][r] = b;
			in[2][r] = c;
			want[r] = d;
		}
		if (!mp) {
			tap_ok(&t, 0, "%s: no vISA mapping", name);
			free(want);
			continue;
		}
		img = build_kernel(mp, &size);
		memcpy(params, va, sizeof(va));
		params[4] = (uint64_t)n;
		if (tg_load(&gpu, img, size, &mod, err, sizeof(err)) ||
		    tg_launch(&gpu, &mod, "g", (uint32_t[3]){ (n + 127) / 128, 1, 1 },
			      (uint32_t[3]){ 128, 1, 1 }, 0, params, 40, &fault)) {
			tap_ok(&t, 0, "%s: did not run: %s%s", name, err,
			       fault.message);
			free(img);
			free(want);
			continue;
		}
		{
			uint64_t *got = tg_host(&gpu, va[3]);
			uint64_t m = mp->rbits == 64 ? ~0ull :
				     (1ull << mp->rbits) - 1;

			for (int r = 0; r < n; r++) {
				uint64_t g = got[r] & m, w = want[r] & m;
				int ok = mp->cmp == EXACT ? g == w :
					 close_enough(mp, in[0][r], w, g);

				if (!ok && bad++ < 3)
					tap_diag("%s(%llx, %llx, %llx): core %llx, "
						 "H100 %llx", name,
						 (unsigned long long)in[0][r],
						 (unsigned long long)in[1][r],
						 (unsigned long long)in[2][r],
						 (unsigned long long)g,
						 (unsigned long long)w);
			}
		}
		tap_ok(&t, bad == 0, "%s matches the H100 on %d inputs (%d differ)",
		       name, n, bad);
		tg_unload(&mod);
		free(img);
		free(want);
	}
	fclose(f);
	tg_fini(&gpu);
	return tap_done(&t);
}
