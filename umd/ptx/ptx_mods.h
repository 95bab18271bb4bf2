/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptx_mods.h - every ".modifier" word an instruction may carry: the one list.
 *
 * Types (ptx_types.h: .u32, .f16x2, ...) and state spaces (.global, ...)
 * are modifiers too; this is the rest.  X(NAME, "spelling", kind, value)
 * makes MOD_NAME of enum ptx_mod (ptx_internal.h), the spelling the parser
 * decides it by (kinds.c), and what isel.c's scan_mods() does with it:
 *
 *   MK_RND, MK_FLAG, MK_VEC, MK_SCOPE, MK_SPACE   value is the rounding
 *              mode, VISA_MOD_* bit, width, scope or enum ptx_space
 *   MK_UNI, MK_CC                    .uni, .cc
 *   MK_IGNORE  no effect here; dropped unless a selector asks for it
 *   MK_OTHER   meaningful to some opcodes only: a selector take()s it, and
 *              one left over is "modifier '.x' of 'op' is not supported"
 *
 * A word not listed here is refused by the parser, at its line and column.
 * To accept a new one, add its line (MK_OTHER unless it is one of the
 * kinds above) and take() it in the selector of its opcode.
 */
#ifndef VGPU_PTX_MODS_H
#define VGPU_PTX_MODS_H

#define PTX_MODS(X) \
	/* rounding: its enum visa_rnd */ \
	X(RN, "rn", MK_RND, VISA_RND_RN) \
	X(RZ, "rz", MK_RND, VISA_RND_RZ) \
	X(RM, "rm", MK_RND, VISA_RND_RM) \
	X(RP, "rp", MK_RND, VISA_RND_RP) \
	X(RNI, "rni", MK_RND, VISA_RND_RNI) \
	X(RZI, "rzi", MK_RND, VISA_RND_RZI) \
	X(RMI, "rmi", MK_RND, VISA_RND_RMI) \
	X(RPI, "rpi", MK_RND, VISA_RND_RPI) \
	X(RNA, "rna", MK_RND, VISA_RND_RNA) \
	/* floating-point and access flags: their VISA_MOD_* bit */ \
	X(FTZ, "ftz", MK_FLAG, VISA_MOD_FTZ) \
	X(SAT, "sat", MK_FLAG, VISA_MOD_SAT) \
	X(APPROX, "approx", MK_FLAG, VISA_MOD_APPROX) \
	X(FULL, "full", MK_FLAG, VISA_MOD_FULL) \
	X(NaN, "NaN", MK_FLAG, VISA_MOD_NAN) \
	X(VOLATILE, "volatile", MK_FLAG, VISA_MOD_VOLATILE) \
	/* vector width: the number of elements */ \
	X(V2, "v2", MK_VEC, 2) \
	X(V4, "v4", MK_VEC, 4) \
	/* a state space written with its sub-space: the enum ptx_space */ \
	X(SHARED_CTA, "shared::cta", MK_SPACE, PS_SHARED) \
	X(SHARED_CLUSTER, "shared::cluster", MK_SPACE, PS_SHARED) \
	X(PARAM_ENTRY, "param::entry", MK_SPACE, PS_PARAM) \
	X(PARAM_FUNC, "param::func", MK_SPACE, PS_PARAM) \
	/* memory scope: its enum visa_scope (one device: .cluster and .gl are .gpu) */ \
	X(CTA, "cta", MK_SCOPE, VISA_SCOPE_CTA) \
	X(GPU, "gpu", MK_SCOPE, VISA_SCOPE_GPU) \
	X(GL, "gl", MK_SCOPE, VISA_SCOPE_GPU) \
	X(CLUSTER, "cluster", MK_SCOPE, VISA_SCOPE_GPU) \
	X(SYS, "sys", MK_SCOPE, VISA_SCOPE_SYS) \
	/* non-divergent control flow, and the carry flag */ \
	X(UNI, "uni", MK_UNI, 0) \
	X(CC, "cc", MK_CC, 0) \
	/* no effect on one in-order device (cache operators and eviction hints,
	 * memory-ordering semantics, .aligned, .sync): accepted, dropped by
	 * isel.c (the selectors that need .sync or a hint look for it) */ \
	X(NC, "nc", MK_IGNORE, 0) \
	X(CA, "ca", MK_IGNORE, 0) \
	X(CG, "cg", MK_IGNORE, 0) \
	X(CS, "cs", MK_IGNORE, 0) \
	X(LU, "lu", MK_IGNORE, 0) \
	X(CV, "cv", MK_IGNORE, 0) \
	X(WB, "wb", MK_IGNORE, 0) \
	X(WT, "wt", MK_IGNORE, 0) \
	X(RELAXED, "relaxed", MK_IGNORE, 0) \
	X(ACQUIRE, "acquire", MK_IGNORE, 0) \
	X(RELEASE, "release", MK_IGNORE, 0) \
	X(ACQ_REL, "acq_rel", MK_IGNORE, 0) \
	X(WEAK, "weak", MK_IGNORE, 0) \
	X(SC, "sc", MK_IGNORE, 0) \
	X(ALIGNED, "aligned", MK_IGNORE, 0) \
	X(SYNC, "sync", MK_IGNORE, 0) \
	X(NOFTZ, "noftz", MK_IGNORE, 0) \
	X(L1_EVICT_NORMAL, "L1::evict_normal", MK_IGNORE, 0) \
	X(L1_EVICT_UNCHANGED, "L1::evict_unchanged", MK_IGNORE, 0) \
	X(L1_EVICT_FIRST, "L1::evict_first", MK_IGNORE, 0) \
	X(L1_EVICT_LAST, "L1::evict_last", MK_IGNORE, 0) \
	X(L1_NO_ALLOCATE, "L1::no_allocate", MK_IGNORE, 0) \
	X(L2_EVICT_NORMAL, "L2::evict_normal", MK_IGNORE, 0) \
	X(L2_EVICT_FIRST, "L2::evict_first", MK_IGNORE, 0) \
	X(L2_EVICT_LAST, "L2::evict_last", MK_IGNORE, 0) \
	X(L2_EVICT_UNCHANGED, "L2::evict_unchanged", MK_IGNORE, 0) \
	X(L2_CACHE_HINT, "L2::cache_hint", MK_IGNORE, 0) \
	X(L2_64B, "L2::64B", MK_IGNORE, 0) \
	X(L2_128B, "L2::128B", MK_IGNORE, 0) \
	X(L2_256B, "L2::256B", MK_IGNORE, 0) \
	/* integer arithmetic and bits (isel.c) */ \
	X(LO, "lo", MK_OTHER, 0) \
	X(HI, "hi", MK_OTHER, 0) \
	X(WIDE, "wide", MK_OTHER, 0) \
	X(SHIFTAMT, "shiftamt", MK_OTHER, 0) \
	X(CLAMP, "clamp", MK_OTHER, 0) \
	X(WRAP, "wrap", MK_OTHER, 0) \
	X(F4E, "f4e", MK_OTHER, 0) \
	X(B4E, "b4e", MK_OTHER, 0) \
	X(RC8, "rc8", MK_OTHER, 0) \
	X(ECL, "ecl", MK_OTHER, 0) \
	X(ECR, "ecr", MK_OTHER, 0) \
	X(RC16, "rc16", MK_OTHER, 0) \
	X(L, "l", MK_OTHER, 0) \
	X(R, "r", MK_OTHER, 0) \
	X(S16X2, "s16x2", MK_OTHER, 0) \
	X(U16X2, "u16x2", MK_OTHER, 0) \
	/* classes of testp */ \
	X(FINITE, "finite", MK_OTHER, 0) \
	X(INFINITE, "infinite", MK_OTHER, 0) \
	X(NUMBER, "number", MK_OTHER, 0) \
	X(NOTANUMBER, "notanumber", MK_OTHER, 0) \
	X(NORMAL, "normal", MK_OTHER, 0) \
	X(SUBNORMAL, "subnormal", MK_OTHER, 0) \
	/* comparisons (setp, set, video); lo/hi are above */ \
	X(EQ, "eq", MK_OTHER, 0) \
	X(NE, "ne", MK_OTHER, 0) \
	X(LT, "lt", MK_OTHER, 0) \
	X(LE, "le", MK_OTHER, 0) \
	X(GT, "gt", MK_OTHER, 0) \
	X(GE, "ge", MK_OTHER, 0) \
	X(LS, "ls", MK_OTHER, 0) \
	X(HS, "hs", MK_OTHER, 0) \
	X(EQU, "equ", MK_OTHER, 0) \
	X(NEU, "neu", MK_OTHER, 0) \
	X(LTU, "ltu", MK_OTHER, 0) \
	X(LEU, "leu", MK_OTHER, 0) \
	X(GTU, "gtu", MK_OTHER, 0) \
	X(GEU, "geu", MK_OTHER, 0) \
	X(NUM, "num", MK_OTHER, 0) \
	X(NAN, "nan", MK_OTHER, 0) \
	/* operations of atom, red, bar.red, redux, vote, shfl and match */ \
	X(AND, "and", MK_OTHER, 0) \
	X(OR, "or", MK_OTHER, 0) \
	X(XOR, "xor", MK_OTHER, 0) \
	X(POPC, "popc", MK_OTHER, 0) \
	X(ADD, "add", MK_OTHER, 0) \
	X(MIN, "min", MK_OTHER, 0) \
	X(MAX, "max", MK_OTHER, 0) \
	X(INC, "inc", MK_OTHER, 0) \
	X(DEC, "dec", MK_OTHER, 0) \
	X(EXCH, "exch", MK_OTHER, 0) \
	X(CAS, "cas", MK_OTHER, 0) \
	X(BALLOT, "ballot", MK_OTHER, 0) \
	X(ALL, "all", MK_OTHER, 0) \
	X(ANY, "any", MK_OTHER, 0) \
	X(UP, "up", MK_OTHER, 0) \
	X(DOWN, "down", MK_OTHER, 0) \
	X(BFLY, "bfly", MK_OTHER, 0) \
	X(IDX, "idx", MK_OTHER, 0) \
	X(WARP, "warp", MK_OTHER, 0) \
	X(RED, "red", MK_OTHER, 0) \
	X(ARRIVE, "arrive", MK_OTHER, 0) \
	X(WAIT, "wait", MK_OTHER, 0) \
	/* conversions, address spaces, fences and hints */ \
	X(TO, "to", MK_OTHER, 0) \
	X(PROXY, "proxy", MK_OTHER, 0) \
	X(ASYNC, "async", MK_OTHER, 0) \
	X(ASYNC_GENERIC, "async::generic", MK_OTHER, 0) \
	X(ALIAS, "alias", MK_OTHER, 0) \
	X(CVT, "cvt", MK_OTHER, 0) \
	X(L1, "L1", MK_OTHER, 0) \
	X(L2, "L2", MK_OTHER, 0) \
	X(RANGE, "range", MK_OTHER, 0) \
	X(FRACTIONAL, "fractional", MK_OTHER, 0) \
	/* asynchronous copies and mbarriers (isel_async.c) */ \
	X(BULK, "bulk", MK_OTHER, 0) \
	X(MBARRIER, "mbarrier", MK_OTHER, 0) \
	X(COMMIT_GROUP, "commit_group", MK_OTHER, 0) \
	X(WAIT_GROUP, "wait_group", MK_OTHER, 0) \
	X(WAIT_ALL, "wait_all", MK_OTHER, 0) \
	X(READ, "read", MK_OTHER, 0) \
	X(PREFETCH, "prefetch", MK_OTHER, 0) \
	X(TENSOR, "tensor", MK_OTHER, 0) \
	X(MULTICAST_CLUSTER, "multicast::cluster", MK_OTHER, 0) \
	X(MBARRIER_COMPLETE_TX_BYTES, "mbarrier::complete_tx::bytes", MK_OTHER, 0) \
	X(BULK_GROUP, "bulk_group", MK_OTHER, 0) \
	X(CP_MASK, "cp_mask", MK_OTHER, 0) \
	X(NOINC, "noinc", MK_OTHER, 0) \
	X(EXPECT_TX, "expect_tx", MK_OTHER, 0) \
	X(NOCOMPLETE, "noComplete", MK_OTHER, 0) \
	X(ARRIVE_DROP, "arrive_drop", MK_OTHER, 0) \
	X(TEST_WAIT, "test_wait", MK_OTHER, 0) \
	X(PARITY, "parity", MK_OTHER, 0) \
	X(TRY_WAIT, "try_wait", MK_OTHER, 0) \
	X(INIT, "init", MK_OTHER, 0) \
	X(INVAL, "inval", MK_OTHER, 0) \
	X(COMPLETE_TX, "complete_tx", MK_OTHER, 0) \
	X(PENDING_COUNT, "pending_count", MK_OTHER, 0) \
	X(LAUNCH_DEPENDENTS, "launch_dependents", MK_OTHER, 0) \
	/* tensor memory access (isel_tma.c): tensor rank and mode, reductions */ \
	X(4D, "4d", MK_OTHER, 0) \
	X(5D, "5d", MK_OTHER, 0) \
	X(TILE, "tile", MK_OTHER, 0) \
	X(IM2COL, "im2col", MK_OTHER, 0) \
	X(IM2COL_NO_OFFS, "im2col_no_offs", MK_OTHER, 0) \
	X(REDUCE, "reduce", MK_OTHER, 0) \
	X(TENSORMAP_GENERIC, "tensormap::generic", MK_OTHER, 0) \
	/* tensor cores (isel_mma.c): element types, layouts, shapes, fragments */ \
	X(B1, "b1", MK_OTHER, 0) \
	X(S4, "s4", MK_OTHER, 0) \
	X(U4, "u4", MK_OTHER, 0) \
	X(TF32, "tf32", MK_OTHER, 0) \
	X(E4M3, "e4m3", MK_OTHER, 0) \
	X(E5M2, "e5m2", MK_OTHER, 0) \
	X(ROW, "row", MK_OTHER, 0) \
	X(COL, "col", MK_OTHER, 0) \
	X(SATFINITE, "satfinite", MK_OTHER, 0) \
	X(RELU, "relu", MK_OTHER, 0) \
	X(TRANS, "trans", MK_OTHER, 0) \
	X(X1, "x1", MK_OTHER, 0) \
	X(X2, "x2", MK_OTHER, 0) \
	X(X4, "x4", MK_OTHER, 0) \
	X(A, "a", MK_OTHER, 0) \
	X(B, "b", MK_OTHER, 0) \
	X(C, "c", MK_OTHER, 0) \
	X(D, "d", MK_OTHER, 0) \
	X(LOAD, "load", MK_OTHER, 0) \
	X(STORE, "store", MK_OTHER, 0) \
	X(MMA, "mma", MK_OTHER, 0) \
	X(SP, "sp", MK_OTHER, 0) \
	X(M8N8, "m8n8", MK_OTHER, 0) \
	X(M8N8K4, "m8n8k4", MK_OTHER, 0) \
	X(M8N8K16, "m8n8k16", MK_OTHER, 0) \
	X(M8N8K32, "m8n8k32", MK_OTHER, 0) \
	X(M8N8K128, "m8n8k128", MK_OTHER, 0) \
	X(M16N8K4, "m16n8k4", MK_OTHER, 0) \
	X(M16N8K8, "m16n8k8", MK_OTHER, 0) \
	X(M16N8K16, "m16n8k16", MK_OTHER, 0) \
	X(M16N8K32, "m16n8k32", MK_OTHER, 0) \
	X(M16N8K64, "m16n8k64", MK_OTHER, 0) \
	X(M16N8K128, "m16n8k128", MK_OTHER, 0) \
	X(M16N8K256, "m16n8k256", MK_OTHER, 0) \
	X(M16N16K8, "m16n16k8", MK_OTHER, 0) \
	X(M16N16K16, "m16n16k16", MK_OTHER, 0) \
	X(M32N8K16, "m32n8k16", MK_OTHER, 0) \
	X(M8N32K16, "m8n32k16", MK_OTHER, 0) \
	/* textures and surfaces (isel_tex.c): geometry, level of detail,
	 * components, formats, out-of-range modes, queries, handle kinds */ \
	X(1D, "1d", MK_OTHER, 0) \
	X(2D, "2d", MK_OTHER, 0) \
	X(3D, "3d", MK_OTHER, 0) \
	X(A1D, "a1d", MK_OTHER, 0) \
	X(A2D, "a2d", MK_OTHER, 0) \
	X(CUBE, "cube", MK_OTHER, 0) \
	X(ACUBE, "acube", MK_OTHER, 0) \
	X(BASE, "base", MK_OTHER, 0) \
	X(LEVEL, "level", MK_OTHER, 0) \
	X(GRAD, "grad", MK_OTHER, 0) \
	X(G, "g", MK_OTHER, 0) \
	X(P, "p", MK_OTHER, 0) \
	X(TRAP, "trap", MK_OTHER, 0) \
	X(ZERO, "zero", MK_OTHER, 0) \
	X(WIDTH, "width", MK_OTHER, 0) \
	X(HEIGHT, "height", MK_OTHER, 0) \
	X(DEPTH, "depth", MK_OTHER, 0) \
	X(CHANNEL_DATA_TYPE, "channel_data_type", MK_OTHER, 0) \
	X(CHANNEL_ORDER, "channel_order", MK_OTHER, 0) \
	X(NORMALIZED_COORDS, "normalized_coords", MK_OTHER, 0) \
	X(FILTER_MODE, "filter_mode", MK_OTHER, 0) \
	X(ADDR_MODE_0, "addr_mode_0", MK_OTHER, 0) \
	X(ADDR_MODE_1, "addr_mode_1", MK_OTHER, 0) \
	X(ADDR_MODE_2, "addr_mode_2", MK_OTHER, 0) \
	X(ARRAY_SIZE, "array_size", MK_OTHER, 0) \
	X(NUM_MIPMAP_LEVELS, "num_mipmap_levels", MK_OTHER, 0) \
	X(NUM_SAMPLES, "num_samples", MK_OTHER, 0) \
	X(MEMORY_LAYOUT, "memory_layout", MK_OTHER, 0) \
	X(TEXREF, "texref", MK_OTHER, 0) \
	X(SAMPLERREF, "samplerref", MK_OTHER, 0) \
	X(SURFREF, "surfref", MK_OTHER, 0) \
	X(SP_ORDERED_METADATA, "sp::ordered_metadata", MK_OTHER, 0)

#endif /* VGPU_PTX_MODS_H */
