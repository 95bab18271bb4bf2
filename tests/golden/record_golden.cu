// SPDX-License-Identifier: GPL-2.0
/*
 * record_golden.cu - record what a real NVIDIA GPU returns for PTX
 * instructions whose results the vGPU must match: IEEE rounding modes,
 * canonical NaNs, hardware-defined integer division by zero, saturating
 * float-to-integer conversions, f16/bf16 rounding, and the .approx
 * functions (whose results are checked against the PTX error bounds).
 *
 * Built and run once on an H100 (CUDA 13):
 *     nvcc -O2 -arch=sm_90 -o record_golden record_golden.cu
 *     ./record_golden > golden.txt
 * The output is committed as tests/golden/h100.txt and read by
 * tests/test_golden.c, which runs the same instructions on the core.
 *
 * Format: a header line "# ...", then per instruction
 *     op <name> <kind> <count>
 * followed by <count> lines "a b c result" in hexadecimal.  Each name is
 * the PTX instruction with '.' replaced by '_'.
 */
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

typedef unsigned long long u64;

/* Operand kinds: what the inputs and the result are. */
enum kind { F1, F2, F3, FI, FL, FH, D1, D2, D3, DI, DL, DF, I1, I2, I3,
	    L2, H2, H3, HF };
static const char *kind_name[] = { "F1", "F2", "F3", "FI", "FL", "FH",
	"D1", "D2", "D3", "DI", "DL", "DF", "I1", "I2", "I3", "L2", "H2",
	"H3", "HF" };

#define KHEAD(name) __global__ void k_##name(const u64 *A, const u64 *B, \
	const u64 *C, u64 *D, int n) { int i = blockIdx.x * blockDim.x + \
	threadIdx.x; if (i >= n) return; (void)B; (void)C;
#define KTAIL }

#define K_F1(name, op) KHEAD(name) unsigned r; asm volatile("{.reg .f32 x,z; " \
	"mov.b32 x,%1; " op " z,x; mov.b32 %0,z;}" : "=r"(r) : "r"((unsigned)A[i])); \
	D[i] = r; KTAIL
#define K_F2(name, op) KHEAD(name) unsigned r; asm volatile("{.reg .f32 x,y,z; " \
	"mov.b32 x,%1; mov.b32 y,%2; " op " z,x,y; mov.b32 %0,z;}" : "=r"(r) : \
	"r"((unsigned)A[i]), "r"((unsigned)B[i])); D[i] = r; KTAIL
#define K_F3(name, op) KHEAD(name) unsigned r; asm volatile("{.reg .f32 x,y,w,z; " \
	"mov.b32 x,%1; mov.b32 y,%2; mov.b32 w,%3; " op " z,x,y,w; mov.b32 %0,z;}" \
	: "=r"(r) : "r"((unsigned)A[i]), "r"((unsigned)B[i]), "r"((unsigned)C[i])); \
	D[i] = r; KTAIL
#define K_FI(name, op) KHEAD(name) unsigned r; asm volatile("{.reg .f32 x; " \
	"mov.b32 x,%1; " op " %0,x;}" : "=r"(r) : "r"((unsigned)A[i])); D[i] = r; KTAIL
#define K_FL(name, op) KHEAD(name) u64 r; asm volatile("{.reg .f32 x; " \
	"mov.b32 x,%1; " op " %0,x;}" : "=l"(r) : "r"((unsigned)A[i])); D[i] = r; KTAIL
#define K_FH(name, op) KHEAD(name) unsigned r; asm volatile("{.reg .f32 x; " \
	".reg .b16 h; mov.b32 x,%1; " op " h,x; cvt.u32.u16 %0,h;}" : "=r"(r) : \
	"r"((unsigned)A[i])); D[i] = r; KTAIL
#define K_D1(name, op) KHEAD(name) u64 r; asm volatile("{.reg .f64 x,z; " \
	"mov.b64 x,%1; " op " z,x; mov.b64 %0,z;}" : "=l"(r) : "l"(A[i])); D[i] = r; KTAIL
#define K_D2(name, op) KHEAD(name) u64 r; asm volatile("{.reg .f64 x,y,z; " \
	"mov.b64 x,%1; mov.b64 y,%2; " op " z,x,y; mov.b64 %0,z;}" : "=l"(r) : \
	"l"(A[i]), "l"(B[i])); D[i] = r; KTAIL
#define K_D3(name, op) KHEAD(name) u64 r; asm volatile("{.reg .f64 x,y,w,z; " \
	"mov.b64 x,%1; mov.b64 y,%2; mov.b64 w,%3; " op " z,x,y,w; mov.b64 %0,z;}" \
	: "=l"(r) : "l"(A[i]), "l"(B[i]), "l"(C[i])); D[i] = r; KTAIL
#define K_DI(name, op) KHEAD(name) unsigned r; asm volatile("{.reg .f64 x; " \
	"mov.b64 x,%1; " op " %0,x;}" : "=r"(r) : "l"(A[i])); D[i] = r; KTAIL
#define K_DL(name, op) KHEAD(name) u64 r; asm volatile("{.reg .f64 x; " \
	"mov.b64 x,%1; " op " %0,x;}" : "=l"(r) : "l"(A[i])); D[i] = r; KTAIL
#define K_DF(name, op) KHEAD(name) unsigned r; asm volatile("{.reg .f64 x; " \
	".reg .f32 z; mov.b64 x,%1; " op " z,x; mov.b32 %0,z;}" : "=r"(r) : \
	"l"(A[i])); D[i] = r; KTAIL
#define K_I1(name, op) KHEAD(name) unsigned r; asm volatile(op " %0,%1;" : \
	"=r"(r) : "r"((unsigned)A[i])); D[i] = r; KTAIL
#define K_I2(name, op) KHEAD(name) unsigned r; asm volatile(op " %0,%1,%2;" : \
	"=r"(r) : "r"((unsigned)A[i]), "r"((unsigned)B[i])); D[i] = r; KTAIL
#define K_I3(name, op) KHEAD(name) unsigned r; asm volatile(op " %0,%1,%2,%3;" \
	: "=r"(r) : "r"((unsigned)A[i]), "r"((unsigned)B[i]), \
	"r"((unsigned)C[i])); D[i] = r; KTAIL
#define K_L2(name, op) KHEAD(name) u64 r; asm volatile(op " %0,%1,%2;" : \
	"=l"(r) : "l"(A[i]), "l"(B[i])); D[i] = r; KTAIL
#define K_H2(name, op) KHEAD(name) unsigned r; asm volatile("{.reg .b16 x,y,z; " \
	"cvt.u16.u32 x,%1; cvt.u16.u32 y,%2; " op " z,x,y; cvt.u32.u16 %0,z;}" : \
	"=r"(r) : "r"((unsigned)A[i]), "r"((unsigned)B[i])); D[i] = r; KTAIL
#define K_H3(name, op) KHEAD(name) unsigned r; asm volatile("{.reg .b16 x,y,w,z; " \
	"cvt.u16.u32 x,%1; cvt.u16.u32 y,%2; cvt.u16.u32 w,%3; " op " z,x,y,w; " \
	"cvt.u32.u16 %0,z;}" : "=r"(r) : "r"((unsigned)A[i]), "r"((unsigned)B[i]), \
	"r"((unsigned)C[i])); D[i] = r; KTAIL
#define K_HF(name, op) KHEAD(name) unsigned r; asm volatile("{.reg .b16 x; " \
	".reg .f32 z; cvt.u16.u32 x,%1; " op " z,x; mov.b32 %0,z;}" : "=r"(r) : \
	"r"((unsigned)A[i])); D[i] = r; KTAIL

/* The instructions recorded: X(kind, name, "ptx") */
#define OPS(X) \
	X(F1, rcp_approx_f32, "rcp.approx.f32") \
	X(F1, rcp_approx_ftz_f32, "rcp.approx.ftz.f32") \
	X(F1, rcp_rn_f32, "rcp.rn.f32") \
	X(F1, rcp_rz_f32, "rcp.rz.f32") \
	X(F1, sqrt_approx_f32, "sqrt.approx.f32") \
	X(F1, sqrt_rn_f32, "sqrt.rn.f32") \
	X(F1, sqrt_rp_f32, "sqrt.rp.f32") \
	X(F1, rsqrt_approx_f32, "rsqrt.approx.f32") \
	X(F1, sin_approx_f32, "sin.approx.f32") \
	X(F1, cos_approx_f32, "cos.approx.f32") \
	X(F1, lg2_approx_f32, "lg2.approx.f32") \
	X(F1, ex2_approx_f32, "ex2.approx.f32") \
	X(F1, ex2_approx_ftz_f32, "ex2.approx.ftz.f32") \
	X(F1, tanh_approx_f32, "tanh.approx.f32") \
	X(F1, abs_f32, "abs.f32") \
	X(F1, neg_f32, "neg.f32") \
	X(F1, cvt_rni_f32_f32, "cvt.rni.f32.f32") \
	X(F1, cvt_rmi_f32_f32, "cvt.rmi.f32.f32") \
	X(F1, cvt_rzi_ftz_f32_f32, "cvt.rzi.ftz.f32.f32") \
	X(F2, add_rn_f32, "add.rn.f32") \
	X(F2, add_rz_f32, "add.rz.f32") \
	X(F2, add_rm_f32, "add.rm.f32") \
	X(F2, add_rp_f32, "add.rp.f32") \
	X(F2, add_ftz_f32, "add.ftz.f32") \
	X(F2, add_sat_f32, "add.sat.f32") \
	X(F2, sub_rn_f32, "sub.rn.f32") \
	X(F2, mul_rn_f32, "mul.rn.f32") \
	X(F2, mul_rz_f32, "mul.rz.f32") \
	X(F2, mul_rm_f32, "mul.rm.f32") \
	X(F2, mul_rp_f32, "mul.rp.f32") \
	X(F2, mul_ftz_f32, "mul.ftz.f32") \
	X(F2, div_rn_f32, "div.rn.f32") \
	X(F2, div_rz_f32, "div.rz.f32") \
	X(F2, div_approx_f32, "div.approx.f32") \
	X(F2, div_full_f32, "div.full.f32") \
	X(F2, min_f32, "min.f32") \
	X(F2, max_f32, "max.f32") \
	X(F2, min_NaN_f32, "min.NaN.f32") \
	X(F2, max_NaN_f32, "max.NaN.f32") \
	X(F2, copysign_f32, "copysign.f32") \
	X(F3, fma_rn_f32, "fma.rn.f32") \
	X(F3, fma_rz_f32, "fma.rz.f32") \
	X(F3, fma_rm_f32, "fma.rm.f32") \
	X(FI, cvt_rzi_s32_f32, "cvt.rzi.s32.f32") \
	X(FI, cvt_rni_s32_f32, "cvt.rni.s32.f32") \
	X(FI, cvt_rmi_s32_f32, "cvt.rmi.s32.f32") \
	X(FI, cvt_rpi_s32_f32, "cvt.rpi.s32.f32") \
	X(FI, cvt_rzi_u32_f32, "cvt.rzi.u32.f32") \
	X(FL, cvt_rzi_s64_f32, "cvt.rzi.s64.f32") \
	X(FL, cvt_rzi_u64_f32, "cvt.rzi.u64.f32") \
	X(FH, cvt_rn_f16_f32, "cvt.rn.f16.f32") \
	X(FH, cvt_rz_f16_f32, "cvt.rz.f16.f32") \
	X(FH, cvt_rm_f16_f32, "cvt.rm.f16.f32") \
	X(FH, cvt_rn_bf16_f32, "cvt.rn.bf16.f32") \
	X(D1, sqrt_rn_f64, "sqrt.rn.f64") \
	X(D1, rcp_rn_f64, "rcp.rn.f64") \
	X(D1, rsqrt_approx_f64, "rsqrt.approx.f64") \
	X(D1, rcp_approx_ftz_f64, "rcp.approx.ftz.f64") \
	X(D1, abs_f64, "abs.f64") \
	X(D1, neg_f64, "neg.f64") \
	X(D2, add_rn_f64, "add.rn.f64") \
	X(D2, add_rz_f64, "add.rz.f64") \
	X(D2, mul_rn_f64, "mul.rn.f64") \
	X(D2, mul_rp_f64, "mul.rp.f64") \
	X(D2, div_rn_f64, "div.rn.f64") \
	X(D2, min_f64, "min.f64") \
	X(D2, max_f64, "max.f64") \
	X(D3, fma_rn_f64, "fma.rn.f64") \
	X(DI, cvt_rzi_s32_f64, "cvt.rzi.s32.f64") \
	X(DI, cvt_rni_u32_f64, "cvt.rni.u32.f64") \
	X(DL, cvt_rzi_s64_f64, "cvt.rzi.s64.f64") \
	X(DL, cvt_rzi_u64_f64, "cvt.rzi.u64.f64") \
	X(DF, cvt_rn_f32_f64, "cvt.rn.f32.f64") \
	X(DF, cvt_rz_f32_f64, "cvt.rz.f32.f64") \
	X(DF, cvt_rp_f32_f64, "cvt.rp.f32.f64") \
	X(I1, bfind_u32, "bfind.u32") \
	X(I1, bfind_s32, "bfind.s32") \
	X(I1, bfind_shiftamt_u32, "bfind.shiftamt.u32") \
	X(I1, clz_b32, "clz.b32") \
	X(I1, popc_b32, "popc.b32") \
	X(I1, brev_b32, "brev.b32") \
	X(I1, abs_s32, "abs.s32") \
	X(I1, neg_s32, "neg.s32") \
	X(I1, cnot_b32, "cnot.b32") \
	X(I2, div_s32, "div.s32") \
	X(I2, div_u32, "div.u32") \
	X(I2, rem_s32, "rem.s32") \
	X(I2, rem_u32, "rem.u32") \
	X(I2, mul_hi_s32, "mul.hi.s32") \
	X(I2, mul_hi_u32, "mul.hi.u32") \
	X(I2, add_sat_s32, "add.sat.s32") \
	X(I2, sub_sat_s32, "sub.sat.s32") \
	X(I2, shl_b32, "shl.b32") \
	X(I2, shr_s32, "shr.s32") \
	X(I2, shr_u32, "shr.u32") \
	X(I2, min_s32, "min.s32") \
	X(I2, max_u32, "max.u32") \
	X(I3, bfe_u32, "bfe.u32") \
	X(I3, bfe_s32, "bfe.s32") \
	X(I3, prmt_b32, "prmt.b32") \
	X(I3, shf_l_wrap_b32, "shf.l.wrap.b32") \
	X(I3, shf_r_clamp_b32, "shf.r.clamp.b32") \
	X(I3, mad_hi_u32, "mad.hi.u32") \
	X(I3, sad_s32, "sad.s32") \
	X(I3, dp4a_s32_s32, "dp4a.s32.s32") \
	X(L2, div_s64, "div.s64") \
	X(L2, div_u64, "div.u64") \
	X(L2, rem_s64, "rem.s64") \
	X(L2, rem_u64, "rem.u64") \
	X(L2, mul_hi_u64, "mul.hi.u64") \
	X(L2, mul_hi_s64, "mul.hi.s64") \
	X(H2, add_rn_f16, "add.rn.f16") \
	X(H2, mul_rn_f16, "mul.rn.f16") \
	X(H2, min_f16, "min.f16") \
	X(H3, fma_rn_f16, "fma.rn.f16") \
	X(HF, cvt_f32_f16, "cvt.f32.f16")

#define DEFINE_KERNEL(k, name, ptx) K_##k(name, ptx)
OPS(DEFINE_KERNEL)

typedef void (*kfn)(const u64 *, const u64 *, const u64 *, u64 *, int);
struct op { const char *name; enum kind kind; kfn fn; };
#define TABLE(k, name, ptx) { #name, k, k_##name },
static const struct op ops[] = { OPS(TABLE) };

/* deterministic inputs */
static u64 rng = 0x9e3779b97f4a7c15ull;
static u64 rnd64(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static unsigned f32bits(float f) { unsigned u; memcpy(&u, &f, 4); return u; }
static u64 f64bits(double d) { u64 u; memcpy(&u, &d, 8); return u; }

static std::vector<u64> special_f32(void)
{
	static const float v[] = { 0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 1.5f, 2.5f,
		-2.5f, 3.0f, 1e-40f, -1e-40f, 1.17549435e-38f, 3.40282347e38f,
		1.0f / 3.0f, 3.14159265f, 100.0f, -100.0f, 1e10f, -1e10f,
		2147483648.0f, -2147483648.0f, 4294967296.0f, 0.1f, 65504.0f,
		65520.0f, 1.00000012f, 16777217.0f, -7.5f };
	std::vector<u64> r;

	for (float f : v)
		r.push_back(f32bits(f));
	r.push_back(0x7f800000u);	/* +inf */
	r.push_back(0xff800000u);	/* -inf */
	r.push_back(0x7fc00000u);	/* qNaN */
	r.push_back(0x7f800001u);	/* sNaN payload */
	r.push_back(0xffc00001u);	/* -NaN payload */
	r.push_back(0x00000001u);	/* smallest subnormal */
	return r;
}

static u64 random_f32(void)
{
	u64 x = rnd64();

	switch (x % 4) {
	case 0:
		return (unsigned)(x >> 32);	/* any bits */
	case 1: {				/* moderate magnitude */
		float f = (float)((double)((x >> 11) & 0xffffff) / 16777216.0);
		int e = (int)((x >> 40) % 41) - 20;
		f = ldexpf(f + 0.5f, e) * (((x >> 50) & 1) ? -1.0f : 1.0f);
		return f32bits(f);
	}
	case 2: {				/* near subnormal range */
		unsigned u = (unsigned)(x >> 32) & 0x80ffffffu;
		return u;
	}
	default: {				/* transcendental ranges */
		float f = (float)(((x >> 11) & 0xfffff) / 1048576.0 * 200.0 - 100.0);
		return f32bits(f);
	}
	}
}

static std::vector<u64> special_f64(void)
{
	static const double v[] = { 0.0, -0.0, 1.0, -1.0, 0.5, 2.5, -2.5,
		1e-310, 2.2250738585072014e-308, 1.7976931348623157e308,
		1.0 / 3.0, 3.141592653589793, 1e20, -1e20, 2147483648.0,
		-2147483649.0, 4294967296.0, 9223372036854775808.0,
		18446744073709551616.0, 0.1, 4294967295.5, -0.5 };
	std::vector<u64> r;

	for (double d : v)
		r.push_back(f64bits(d));
	r.push_back(0x7ff0000000000000ull);
	r.push_back(0xfff0000000000000ull);
	r.push_back(0x7ff8000000000000ull);
	r.push_back(0x7ff0000000000001ull);
	r.push_back(0xfff8000000000001ull);
	return r;
}

static u64 random_f64(void)
{
	u64 x = rnd64();

	if (x & 1)
		return rnd64();
	return f64bits(ldexp((double)(x >> 12) / 4503599627370496.0 + 0.5,
			     (int)((x >> 3) % 121) - 60) * ((x & 2) ? -1 : 1));
}

static std::vector<u64> special_i32(void)
{
	return { 0, 1, 0xffffffffu, 2, 0xfffffffeu, 7, 0xfffffff9u,
		 0x80000000u, 0x7fffffffu, 0x80000001u, 3, 100, 0xffffff9cu,
		 31, 32, 33, 0xffffu, 0x10000u, 0x12345678u, 0xdeadbeefu,
		 0x3210u, 0x40u, 0x808u, 0xf0f0f0f0u };
}

static std::vector<u64> special_i64(void)
{
	return { 0, 1, ~0ull, 2, 7, 0x8000000000000000ull,
		 0x7fffffffffffffffull, 0x8000000000000001ull, 100,
		 0xffffffff00000000ull, 0x123456789abcdefull, 3,
		 0xfffffffffffffff9ull };
}

static std::vector<u64> special_f16(void)
{
	return { 0x0000, 0x8000, 0x3c00, 0xbc00, 0x3800, 0x3e00, 0x7bff,
		 0xfbff, 0x0001, 0x03ff, 0x0400, 0x7c00, 0xfc00, 0x7e00,
		 0x7c01, 0x3555, 0x4248, 0x5640, 0xd640, 0x1400 };
}

struct inputs { std::vector<u64> a, b, c; };

/* Unary: specials and randoms; binary: all special pairs plus random
 * pairs; ternary: special triples on a diagonal plus random triples. */
static inputs make_inputs(enum kind k)
{
	inputs in;
	std::vector<u64> s;
	u64 (*rnd)(void) = random_f32;
	int arity = 1;

	switch (k) {
	case F1: case FI: case FL: case FH: s = special_f32(); break;
	case F2: s = special_f32(); arity = 2; break;
	case F3: s = special_f32(); arity = 3; break;
	case D1: case DI: case DL: case DF: s = special_f64(); rnd = random_f64; break;
	case D2: s = special_f64(); rnd = random_f64; arity = 2; break;
	case D3: s = special_f64(); rnd = random_f64; arity = 3; break;
	case I1: s = special_i32(); rnd = [] { return rnd64() >> 32; }; break;
	case I2: s = special_i32(); rnd = [] { return rnd64() >> 32; }; arity = 2; break;
	case I3: s = special_i32(); rnd = [] { return rnd64() >> 32; }; arity = 3; break;
	case L2: s = special_i64(); rnd = rnd64; arity = 2; break;
	case H2: s = special_f16(); rnd = [] { return rnd64() & 0xffff; }; arity = 2; break;
	case H3: s = special_f16(); rnd = [] { return rnd64() & 0xffff; }; arity = 3; break;
	case HF: s = special_f16(); rnd = [] { return rnd64() & 0xffff; }; break;
	}
	size_t n = s.size();
	if (arity == 1) {
		for (u64 v : s)
			in.a.push_back(v);
		for (int i = 0; i < 200; i++)
			in.a.push_back(rnd());
	} else {
		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j < n; j++) {
				in.a.push_back(s[i]);
				in.b.push_back(s[j]);
				in.c.push_back(s[(i + j) % n]);
			}
		for (int i = 0; i < 300; i++) {
			in.a.push_back(rnd());
			in.b.push_back(rnd());
			in.c.push_back(rnd());
		}
	}
	in.b.resize(in.a.size());
	in.c.resize(in.a.size());
	return in;
}

int main(void)
{
	cudaDeviceProp prop;
	int drv = 0;

	cudaGetDeviceProperties(&prop, 0);
	cudaDriverGetVersion(&drv);
	printf("# vgpu golden v1: %s, sm_%d%d, driver %d\n", prop.name,
	       prop.major, prop.minor, drv);
	for (const op &o : ops) {
		inputs in = make_inputs(o.kind);
		int n = (int)in.a.size();
		size_t bytes = n * sizeof(u64);
		u64 *da, *db, *dc, *dd;
		std::vector<u64> out(n);

		cudaMalloc(&da, bytes);
		cudaMalloc(&db, bytes);
		cudaMalloc(&dc, bytes);
		cudaMalloc(&dd, bytes);
		cudaMemcpy(da, in.a.data(), bytes, cudaMemcpyHostToDevice);
		cudaMemcpy(db, in.b.data(), bytes, cudaMemcpyHostToDevice);
		cudaMemcpy(dc, in.c.data(), bytes, cudaMemcpyHostToDevice);
		o.fn<<<(n + 127) / 128, 128>>>(da, db, dc, dd, n);
		cudaError_t err = cudaDeviceSynchronize();
		if (err != cudaSuccess) {
			fprintf(stderr, "%s: %s\n", o.name, cudaGetErrorString(err));
			return 1;
		}
		cudaMemcpy(out.data(), dd, bytes, cudaMemcpyDeviceToHost);
		printf("op %s %s %d\n", o.name, kind_name[o.kind], n);
		for (int i = 0; i < n; i++)
			printf("%llx %llx %llx %llx\n", in.a[i], in.b[i], in.c[i],
			       out[i]);
		cudaFree(da);
		cudaFree(db);
		cudaFree(dc);
		cudaFree(dd);
	}
	return 0;
}
