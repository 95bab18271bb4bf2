/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptx_ops.h - every PTX opcode the compiler knows: the one list.
 *
 * X(NAME, "spelling", flags) makes OP_NAME of enum ptx_op (ptx_internal.h)
 * and the spelling the parser looks the opcode up by (kinds.c); nothing
 * else spells an opcode.  The parser turns an opcode not listed here into
 * "unknown or unsupported instruction" at its line and column, and the
 * instruction selectors switch on OP_NAME.  To add an instruction, add its
 * line here, then its case in cg_select() (isel.c) or in the selector
 * file of its family (see Documentation/code-organization.rst).
 *
 * flags: OPF_VIDEO - operands may carry byte/half-word selectors (%r1.b0).
 */
#ifndef VGPU_PTX_OPS_H
#define VGPU_PTX_OPS_H

#define PTX_OPS(X) \
	/* integer and floating-point arithmetic (isel.c) */ \
	X(ADD, "add", 0) \
	X(SUB, "sub", 0) \
	X(ADDC, "addc", 0) \
	X(SUBC, "subc", 0) \
	X(MUL, "mul", 0) \
	X(MAD, "mad", 0) \
	X(MADC, "madc", 0) \
	X(MUL24, "mul24", 0) \
	X(MAD24, "mad24", 0) \
	X(DIV, "div", 0) \
	X(REM, "rem", 0) \
	X(ABS, "abs", 0) \
	X(NEG, "neg", 0) \
	X(MIN, "min", 0) \
	X(MAX, "max", 0) \
	X(SAD, "sad", 0) \
	X(FMA, "fma", 0) \
	X(RCP, "rcp", 0) \
	X(SQRT, "sqrt", 0) \
	X(RSQRT, "rsqrt", 0) \
	X(SIN, "sin", 0) \
	X(COS, "cos", 0) \
	X(LG2, "lg2", 0) \
	X(EX2, "ex2", 0) \
	X(TANH, "tanh", 0) \
	X(COPYSIGN, "copysign", 0) \
	/* logic and bits (isel.c) */ \
	X(AND, "and", 0) \
	X(OR, "or", 0) \
	X(XOR, "xor", 0) \
	X(NOT, "not", 0) \
	X(CNOT, "cnot", 0) \
	X(BREV, "brev", 0) \
	X(SHL, "shl", 0) \
	X(SHR, "shr", 0) \
	X(POPC, "popc", 0) \
	X(CLZ, "clz", 0) \
	X(BFIND, "bfind", 0) \
	X(BFE, "bfe", 0) \
	X(BFI, "bfi", 0) \
	X(FNS, "fns", 0) \
	X(PRMT, "prmt", 0) \
	X(BMSK, "bmsk", 0) \
	X(SHF, "shf", 0) \
	X(LOP3, "lop3", 0) \
	X(DP4A, "dp4a", 0) \
	X(DP2A, "dp2a", 0) \
	/* comparison, selection, moves and conversions (isel.c) */ \
	X(TESTP, "testp", 0) \
	X(SETP, "setp", 0) \
	X(SET, "set", 0) \
	X(SELP, "selp", 0) \
	X(SLCT, "slct", 0) \
	X(MOV, "mov", 0) \
	X(CVT, "cvt", 0) \
	X(CVTA, "cvta", 0) \
	X(ISSPACEP, "isspacep", 0) \
	/* memory, atomics and ordering (isel.c) */ \
	X(LD, "ld", 0) \
	X(LDU, "ldu", 0) \
	X(ST, "st", 0) \
	X(ATOM, "atom", 0) \
	X(RED, "red", 0) \
	X(MEMBAR, "membar", 0) \
	X(FENCE, "fence", 0) \
	/* warps and barriers (isel.c) */ \
	X(BAR, "bar", 0) \
	X(BARRIER, "barrier", 0) \
	X(SHFL, "shfl", 0) \
	X(VOTE, "vote", 0) \
	X(MATCH, "match", 0) \
	X(REDUX, "redux", 0) \
	X(ACTIVEMASK, "activemask", 0) \
	/* control (isel.c, isel_brx.c) */ \
	X(BRA, "bra", 0) \
	X(BRX, "brx", 0) \
	X(CALL, "call", 0) \
	X(RET, "ret", 0) \
	X(EXIT, "exit", 0) \
	X(TRAP, "trap", 0) \
	X(BRKPT, "brkpt", 0) \
	X(NANOSLEEP, "nanosleep", 0) \
	/* hints (isel.c, isel_hint.c) */ \
	X(PREFETCH, "prefetch", 0) \
	X(PREFETCHU, "prefetchu", 0) \
	X(PMEVENT, "pmevent", 0) \
	X(CREATEPOLICY, "createpolicy", 0) \
	/* asynchronous copies and barriers (isel_async.c) */ \
	X(CP, "cp", 0) \
	X(MBARRIER, "mbarrier", 0) \
	X(ELECT, "elect", 0) \
	X(GRIDDEPCONTROL, "griddepcontrol", 0) \
	/* clusters (isel_coop.c) */ \
	X(MAPA, "mapa", 0) \
	X(GETCTARANK, "getctarank", 0) \
	/* tensor cores (isel_mma.c) */ \
	X(WMMA, "wmma", 0) \
	X(MMA, "mma", 0) \
	X(LDMATRIX, "ldmatrix", 0) \
	X(STMATRIX, "stmatrix", 0) \
	X(MOVMATRIX, "movmatrix", 0) \
	/* textures and surfaces (isel_tex.c) */ \
	X(TEX, "tex", 0) \
	X(TLD4, "tld4", 0) \
	X(TXQ, "txq", 0) \
	X(SULD, "suld", 0) \
	X(SUST, "sust", 0) \
	X(SURED, "sured", 0) \
	X(SUQ, "suq", 0) \
	X(ISTYPEP, "istypep", 0) \
	/* video (isel_video.c): scalar, then on 2 half-words, then on 4 bytes */ \
	X(VADD, "vadd", OPF_VIDEO) \
	X(VSUB, "vsub", OPF_VIDEO) \
	X(VABSDIFF, "vabsdiff", OPF_VIDEO) \
	X(VMIN, "vmin", OPF_VIDEO) \
	X(VMAX, "vmax", OPF_VIDEO) \
	X(VSHL, "vshl", OPF_VIDEO) \
	X(VSHR, "vshr", OPF_VIDEO) \
	X(VSET, "vset", OPF_VIDEO) \
	X(VADD2, "vadd2", OPF_VIDEO) \
	X(VSUB2, "vsub2", OPF_VIDEO) \
	X(VAVRG2, "vavrg2", OPF_VIDEO) \
	X(VABSDIFF2, "vabsdiff2", OPF_VIDEO) \
	X(VMIN2, "vmin2", OPF_VIDEO) \
	X(VMAX2, "vmax2", OPF_VIDEO) \
	X(VSET2, "vset2", OPF_VIDEO) \
	X(VADD4, "vadd4", OPF_VIDEO) \
	X(VSUB4, "vsub4", OPF_VIDEO) \
	X(VAVRG4, "vavrg4", OPF_VIDEO) \
	X(VABSDIFF4, "vabsdiff4", OPF_VIDEO) \
	X(VMIN4, "vmin4", OPF_VIDEO) \
	X(VMAX4, "vmax4", OPF_VIDEO) \
	X(VSET4, "vset4", OPF_VIDEO) \
	/* the dynamic stack (isel_stack.c) */ \
	X(ALLOCA, "alloca", 0) \
	X(STACKSAVE, "stacksave", 0) \
	X(STACKRESTORE, "stackrestore", 0)

#endif /* VGPU_PTX_OPS_H */
