/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * vgpu_visa_ops.h - the vISA opcode table: one line per opcode.
 *
 * Everything the stack knows about an opcode in general is here, once:
 * its number (the order of the lines), its name as the disassembler
 * prints it, which operand slots it uses and how, what its second type
 * field means, which extra rule the validator applies, the range of its
 * sub-operation, the interpreter handler that runs it, and what it does.
 * The consumers expand the list with their own definition of VISA_OP
 * (the "X-macro" technique, as QBE's ops.h or Lua's lopnames.h):
 *
 *   include/vgpu_visa.h            enum visa_op and visa_op_info()
 *   tools/objdump/visa_disasm.c    the opcode names
 *   firmware_sim/core/validate.c   the operand rules (via visa_op_info)
 *   firmware_sim/core/warp.c       the interpreter's handler table
 *   umd/ptx/regalloc.c             which operands an opcode reads/writes
 *
 * So adding an opcode is one line here (at the end of the list: the
 * numbers are ABI, vISA images on disk and the H100 golden tests depend
 * on them) plus its semantics in the handler its class names.
 * Documentation/visa.rst walks through it.
 *
 * Columns of VISA_OP(op, name, class, d, a, b, c, e, pd, pa, type2, pred,
 *                    check, max_sub, description):
 *
 * op       the enumerator is VISA_OP_<op>
 * name     the disassembler's text (unique)
 * class    the interpreter's handler (firmware_sim/core/warp.c):
 *          int, float       integer or floating-point semantics always
 *          typed            exec_float for float types, else exec_int
 *          typed2           the same, decided by type2 (SET)
 *          mem              memory and address instructions
 *          barrier, warp    block barriers; warp-synchronous operations
 *          mma              tensor-core operations (firmware_sim/core/
 *                           exec_mma.c, include/vgpu_mma.h)
 *          printf, assert   the system calls
 *          async            cp.async, mbarrier, cp.async.bulk, elect
 *          heap             malloc and free of the device heap
 *          cluster          thread-block clusters (exec_cluster.c)
 *          tex              textures and surfaces (exec_tex.c,
 *                           include/vgpu_visa_tex.h)
 *          cdp              dynamic parallelism: device-side launches
 *                           (exec_cdp.c, include/vgpu_visa_cdp.h)
 *          stack            the dynamic stack: alloca (exec_stack.c)
 *          nop, membar, sreg, branch, call, ret, exit, trap, brkpt,
 *          yield            one instruction each
 * d .. pa  the operand slots: GPRs d, a, b, c, e; predicates pd, pa
 *            R  read, must be present      r  read, may be present
 *            W  written, must be present   w  written, may be present
 *            _  not used by the opcode (the compiler leaves it NONE)
 *          A slot the opcode does not use is still range-checked, as a
 *          destination for d and a source for the others.
 * type2    what struct visa_insn.type2 holds:
 *            _         nothing (ignored)
 *            TYPE      a second enum visa_type (not NONE)
 *            SP_READ   a state space that can be read: GENERIC..PARAM
 *            SP_WRITE  a state space that can be written: GENERIC..LOCAL
 *            SP_ATOM   a state space for atomics: GENERIC..SHARED
 *            SP_NAMED  a named state space: GLOBAL..PARAM
 * pred     what type PRED means:
 *            L  predicate logic: d, a, b, c name predicates
 *            X  refused by the validator
 *            _  informative (the handler does not look at it)
 * check    the validator's extra rule (enum visa_op_check):
 *            _       none
 *            VEC_LD  vector length 1, 2 or 4; elements {d, b, c, e}
 *            VEC_ST  vector length 1, 2 or 4; elements {b, c, d, e}
 *            ATOM    scalar; sub is an atomic operation; CAS needs c
 *            SREG    imm is an enum visa_sreg
 *            BOOL    pa present exactly when a bool op is given
 *            CARRY   pa needed by CC_IN, pd by CC_OUT
 *            BARRED  d or pd receives the result
 *            VOTE    BALLOT writes d, the others pd
 *            BRA     imm: target and reconvergence point in the function
 *            CALL    imm is a function, or INDIRECT with a in a
 * max_sub  the largest sub-operation (VISA_MOD_SUB) the opcode accepts
 * description  operands and effect, the manual's one-line summary
 */
#ifndef VGPU_VISA_OPS_VOCABULARY
#define VGPU_VISA_OPS_VOCABULARY

/* Operand slots, in the order of the table's columns. */
enum visa_slot {
	VISA_SLOT_D = 0, VISA_SLOT_A, VISA_SLOT_B, VISA_SLOT_C, VISA_SLOT_E,
	VISA_SLOT_PD, VISA_SLOT_PA,
	VISA_SLOT_COUNT
};

/* How an opcode uses a slot: the letters of the table as bits. */
#define VISA_USE_USED		1u	/* the opcode reads or writes it */
#define VISA_USE_REQUIRED	2u	/* it must not be VISA_OPND_NONE */
#define VISA_USE_WRITTEN	4u	/* it is a destination */
#define VISA_USE__	0u
#define VISA_USE_r	VISA_USE_USED
#define VISA_USE_R	(VISA_USE_USED | VISA_USE_REQUIRED)
#define VISA_USE_w	(VISA_USE_USED | VISA_USE_WRITTEN)
#define VISA_USE_W	(VISA_USE_USED | VISA_USE_REQUIRED | VISA_USE_WRITTEN)

/* Three bits per slot, packed; VISA_SLOT_USE() takes one out. */
#define VISA_SLOTS(d, a, b, c, e, pd, pa)				\
	(VISA_USE_##d << (3 * VISA_SLOT_D) |				\
	 VISA_USE_##a << (3 * VISA_SLOT_A) |				\
	 VISA_USE_##b << (3 * VISA_SLOT_B) |				\
	 VISA_USE_##c << (3 * VISA_SLOT_C) |				\
	 VISA_USE_##e << (3 * VISA_SLOT_E) |				\
	 VISA_USE_##pd << (3 * VISA_SLOT_PD) |				\
	 VISA_USE_##pa << (3 * VISA_SLOT_PA))
#define VISA_SLOT_USE(slots, slot)	(((slots) >> (3 * (slot))) & 7u)

enum visa_op_type2 {
	VISA_TYPE2__ = 0, VISA_TYPE2_TYPE, VISA_TYPE2_SP_READ,
	VISA_TYPE2_SP_WRITE, VISA_TYPE2_SP_ATOM, VISA_TYPE2_SP_NAMED
};

enum visa_op_pred { VISA_PRED__ = 0, VISA_PRED_L, VISA_PRED_X };

enum visa_op_check {
	VISA_CHECK__ = 0, VISA_CHECK_VEC_LD, VISA_CHECK_VEC_ST,
	VISA_CHECK_ATOM, VISA_CHECK_SREG, VISA_CHECK_BOOL, VISA_CHECK_CARRY,
	VISA_CHECK_BARRED, VISA_CHECK_VOTE, VISA_CHECK_BRA, VISA_CHECK_CALL
};

#endif /* VGPU_VISA_OPS_VOCABULARY */

/*
 * The list.  Not include-guarded: each consumer defines VISA_OP, includes
 * this file and undefines VISA_OP.  Numbers follow the order of the lines.
 */
#ifdef VISA_OP
/*      op          name          class    d  a  b  c  e  pd pa type2     pred check   max_sub                description */
VISA_OP(NOP,        "nop",        nop,     _, _, _, _, _, _, _, _,        _,   _,      0,                     "nothing")
/* data movement */
VISA_OP(MOV,        "mov",        int,     W, R, _, _, _, _, _, _,        L,   _,      0,                     "d = a (any type; PRED: d, a predicates, a may be a literal)")
VISA_OP(SREG,       "sreg",       sreg,    W, _, _, _, _, _, _, _,        _,   SREG,   0,                     "d = special register imm (enum visa_sreg), type U32 or U64")
/* MOVA: GLOBAL = global VA of the global segment + imm, CONST, SHARED and
 * PARAM = offset imm in that space, LOCAL = frame base + imm */
VISA_OP(MOVA,       "mova",       mem,     W, _, _, _, _, _, _, SP_NAMED, _,   _,      0,                     "d = address of byte imm in space type2 (LOCAL: frame base + imm)")
VISA_OP(CVT,        "cvt",        float,   W, R, _, _, _, _, _, TYPE,     _,   _,      0,                     "d = a converted from type2 to type (rnd, sat, ftz)")
VISA_OP(CVTA,       "cvta",       mem,     W, R, _, _, _, _, _, SP_NAMED, _,   _,      0,                     "d = a converted between space type2 and generic (TO_GENERIC: to)")
VISA_OP(PACK,       "pack",       int,     W, R, R, _, _, _, _, _,        X,   _,      0,                     "d = a | b << bits(type), type B16 or B32")
VISA_OP(SELP,       "selp",       int,     W, R, R, _, _, _, R, _,        X,   _,      0,                     "d = pa ? a : b")
VISA_OP(SLCT,       "slct",       int,     W, R, R, R, _, _, _, TYPE,     X,   _,      0,                     "d = (c as type2 >= 0) ? a : b")
/* integer and floating-point arithmetic: type selects */
VISA_OP(ADD,        "add",        typed,   W, R, R, _, _, _, _, _,        X,   _,      0,                     "d = a + b (floats: rnd, ftz, sat; ints: sat)")
VISA_OP(SUB,        "sub",        typed,   W, R, R, _, _, _, _, _,        X,   _,      0,                     "d = a - b")
VISA_OP(MUL,        "mul",        typed,   W, R, R, _, _, _, _, _,        X,   _,      0,                     "d = a * b (low half for integers)")
VISA_OP(MULHI,      "mul.hi",     typed,   W, R, R, _, _, _, _, _,        X,   _,      0,                     "d = high half of a * b")
VISA_OP(MULWIDE,    "mul.wide",   typed,   W, R, R, _, _, _, _, _,        X,   _,      0,                     "d (twice as wide) = a * b")
VISA_OP(MAD,        "mad",        typed,   W, R, R, R, _, _, _, _,        X,   _,      0,                     "d = a * b + c")
VISA_OP(MADHI,      "mad.hi",     typed,   W, R, R, R, _, _, _, _,        X,   _,      0,                     "d = high half of a * b, + c")
VISA_OP(MADWIDE,    "mad.wide",   typed,   W, R, R, R, _, _, _, _,        X,   _,      0,                     "d (twice as wide) = a * b + c")
VISA_OP(ADDC,       "addc",       typed,   W, R, R, _, _, w, r, _,        X,   CARRY,  0,                     "d = a + b (+ carry pa if CC_IN), carry to pd if CC_OUT")
VISA_OP(SUBC,       "subc",       typed,   W, R, R, _, _, w, r, _,        X,   CARRY,  0,                     "d = a - b (- borrow pa if CC_IN), borrow to pd if CC_OUT")
VISA_OP(FMA,        "fma",        float,   W, R, R, R, _, _, _, _,        X,   _,      0,                     "d = a * b + c rounded once")
VISA_OP(DIV,        "div",        typed,   W, R, R, _, _, _, _, _,        X,   _,      0,                     "d = a / b (rnd, APPROX, FULL, ftz)")
VISA_OP(REM,        "rem",        typed,   W, R, R, _, _, _, _, _,        X,   _,      0,                     "d = a % b")
VISA_OP(ABS,        "abs",        typed,   W, R, _, _, _, _, _, _,        X,   _,      0,                     "d = |a|")
VISA_OP(NEG,        "neg",        typed,   W, R, _, _, _, _, _, _,        X,   _,      0,                     "d = -a")
VISA_OP(MIN,        "min",        typed,   W, R, R, _, _, _, _, _,        X,   _,      0,                     "d = min(a, b) (NAN: a NaN wins)")
VISA_OP(MAX,        "max",        typed,   W, R, R, _, _, _, _, _,        X,   _,      0,                     "d = max(a, b) (NAN: a NaN wins)")
VISA_OP(SAD,        "sad",        typed,   W, R, R, R, _, _, _, _,        X,   _,      0,                     "d = |a - b| + c")
VISA_OP(RCP,        "rcp",        float,   W, R, _, _, _, _, _, _,        X,   _,      0,                     "d = 1 / a (rnd or APPROX, ftz)")
VISA_OP(SQRT,       "sqrt",       float,   W, R, _, _, _, _, _, _,        X,   _,      0,                     "d = sqrt(a) (rnd or APPROX, ftz)")
VISA_OP(RSQRT,      "rsqrt",      float,   W, R, _, _, _, _, _, _,        X,   _,      0,                     "d = 1 / sqrt(a) (APPROX, ftz)")
VISA_OP(SIN,        "sin",        float,   W, R, _, _, _, _, _, _,        X,   _,      0,                     "d = sin(a) (APPROX, ftz)")
VISA_OP(COS,        "cos",        float,   W, R, _, _, _, _, _, _,        X,   _,      0,                     "d = cos(a) (APPROX, ftz)")
VISA_OP(LG2,        "lg2",        float,   W, R, _, _, _, _, _, _,        X,   _,      0,                     "d = log2(a) (APPROX, ftz)")
VISA_OP(EX2,        "ex2",        float,   W, R, _, _, _, _, _, _,        X,   _,      0,                     "d = 2^a (APPROX, ftz)")
VISA_OP(TANH,       "tanh",       float,   W, R, _, _, _, _, _, _,        X,   _,      0,                     "d = tanh(a) (APPROX)")
VISA_OP(COPYSIGN,   "copysign",   float,   W, R, R, _, _, _, _, _,        X,   _,      0,                     "d = |b| with the sign of a")
VISA_OP(TESTP,      "testp",      float,   _, R, _, _, _, W, _, _,        X,   _,      VISA_TESTP_SUBNORMAL,  "pd = a is of class sub (enum visa_testp)")
VISA_OP(DP4A,       "dp4a",       typed,   W, R, R, R, _, _, _, _,        X,   _,      0,                     "d = dot of the 4 bytes of a and b + c (SIGNED_A/B)")
VISA_OP(DP2A,       "dp2a",       typed,   W, R, R, R, _, _, _, _,        X,   _,      0,                     "d = dot of 2 halves of a, 2 bytes of b (HI: high bytes) + c")
/* bits */
VISA_OP(AND,        "and",        typed,   W, R, R, _, _, _, _, _,        L,   _,      0,                     "d = a & b (PRED: predicates)")
VISA_OP(OR,         "or",         typed,   W, R, R, _, _, _, _, _,        L,   _,      0,                     "d = a | b (PRED: predicates)")
VISA_OP(XOR,        "xor",        typed,   W, R, R, _, _, _, _, _,        L,   _,      0,                     "d = a ^ b (PRED: predicates)")
VISA_OP(NOT,        "not",        typed,   W, R, _, _, _, _, _, _,        L,   _,      0,                     "d = ~a (PRED: predicates)")
VISA_OP(CNOT,       "cnot",       typed,   W, R, _, _, _, _, _, _,        X,   _,      0,                     "d = a == 0 ? 1 : 0")
VISA_OP(SHL,        "shl",        typed,   W, R, R, _, _, _, _, _,        X,   _,      0,                     "d = a << b")
VISA_OP(SHR,        "shr",        typed,   W, R, R, _, _, _, _, _,        X,   _,      0,                     "d = a >> b (arithmetic on signed types)")
VISA_OP(BFE,        "bfe",        typed,   W, R, R, R, _, _, _, _,        X,   _,      0,                     "d = bits a[b +: c]")
VISA_OP(BFI,        "bfi",        typed,   W, R, R, R, R, _, _, _,        X,   _,      0,                     "d = a inserted into b at bit c, length e")
VISA_OP(BREV,       "brev",       typed,   W, R, _, _, _, _, _, _,        X,   _,      0,                     "d = a with its bits reversed")
VISA_OP(POPC,       "popc",       typed,   W, R, _, _, _, _, _, _,        X,   _,      0,                     "d = number of set bits of a")
VISA_OP(CLZ,        "clz",        typed,   W, R, _, _, _, _, _, _,        X,   _,      0,                     "d = leading zero bits of a")
VISA_OP(BFIND,      "bfind",      typed,   W, R, _, _, _, _, _, _,        X,   _,      1,                     "d = position of the most significant non-sign bit (sub 1: .shiftamt)")
VISA_OP(FNS,        "fns",        typed,   W, R, R, R, _, _, _, _,        X,   _,      0,                     "d = position of the c-th set bit of mask a from base b")
VISA_OP(PRMT,       "prmt",       typed,   W, R, R, R, _, _, _, _,        X,   _,      6,                     "d = bytes of a, b permuted by selector c (sub = mode, 0 default)")
VISA_OP(SHF,        "shf",        typed,   W, R, R, R, _, _, _, _,        X,   _,      VISA_SHF_R_CLAMP,      "d = funnel shift of {b:a} by c (sub = enum visa_shf_mode)")
VISA_OP(LOP3,       "lop3",       typed,   W, R, R, R, _, _, _, _,        X,   _,      0,                     "d = lookup table imm applied to a, b, c")
/* comparison */
VISA_OP(SETP,       "setp",       typed,   _, R, R, _, _, W, r, _,        _,   BOOL,   VISA_CMP_COUNT - 1,    "pd = cmp(a, b) [bool pa] (sub = visa_cmp, BOOL = visa_boolop)")
VISA_OP(SET,        "set",        typed2,  W, R, R, _, _, _, r, TYPE,     _,   BOOL,   VISA_CMP_COUNT - 1,    "d = cmp(a, b as type2) [bool pa] ? all ones (F32: 1.0f) : 0")
/* memory: address = a + (int64_t)imm in space type2 (a = NONE: see enum visa_space) */
VISA_OP(LD,         "ld",         mem,     W, r, w, w, w, _, _, SP_READ,  _,   VEC_LD, 0,                     "d[, b, c, e] = [address] (VEC: 1, 2 or 4 elements of type)")
VISA_OP(ST,         "st",         mem,     r, r, R, r, r, _, _, SP_WRITE, _,   VEC_ST, 0,                     "[address] = b[, c, d, e]")
VISA_OP(ATOM,       "atom",       mem,     w, r, R, r, _, _, _, SP_ATOM,  _,   ATOM,   VISA_ATOM_COUNT - 1,   "d = old value; [address] op= b (CAS: compare b, new c)")
VISA_OP(RED,        "red",        mem,     _, r, R, r, _, _, _, SP_ATOM,  _,   ATOM,   VISA_ATOM_COUNT - 1,   "[address] op= b, as ATOM without the old value")
VISA_OP(MEMBAR,     "membar",     membar,  _, _, _, _, _, _, _, _,        _,   _,      VISA_SCOPE_SYS,        "memory fence (sub = enum visa_scope)")
/* block synchronisation: barrier id a, thread count b or NONE = all */
VISA_OP(BAR,        "bar.sync",   barrier, _, R, r, _, _, _, _, _,        _,   _,      0,                     "wait until the block's threads arrive at barrier a")
VISA_OP(BAR_ARRIVE, "bar.arrive", barrier, _, R, r, _, _, _, _, _,        _,   _,      0,                     "arrive at barrier a without waiting")
VISA_OP(BAR_RED,    "bar.red",    barrier, w, R, r, _, _, w, R, _,        _,   BARRED, VISA_RED_OR,           "bar.sync, and d/pd = reduction sub (POPC: d; AND/OR: pd) of pa")
/* warp: membermask e, the lanes that take part (must include the lane) */
VISA_OP(SHFL,       "shfl",       warp,    W, R, R, R, R, w, _, _,        _,   _,      VISA_SHFL_BFLY,        "d = value a from lane (b, c) by sub mode; pd = source valid")
VISA_OP(VOTE,       "vote",       warp,    w, _, _, _, R, w, R, _,        _,   VOTE,   VISA_VOTE_BALLOT,      "ALL/ANY/UNI: pd = vote over pa; BALLOT: d = mask of pa")
VISA_OP(MATCH,      "match",      warp,    W, R, _, _, R, w, _, _,        _,   _,      VISA_MATCH_ALL,        "ANY: d = lanes with equal a; ALL: d = mask or 0, pd = all equal")
VISA_OP(REDUX,      "redux",      warp,    W, R, _, _, R, _, _, _,        _,   _,      VISA_RED_XOR,          "d = reduction sub (ADD/MIN/MAX/AND/OR/XOR) of a over the mask")
VISA_OP(ACTIVEMASK, "activemask", warp,    W, _, _, _, _, _, _, _,        _,   _,      0,                     "d = mask of the active lanes")
VISA_OP(WARPSYNC,   "warpsync",   warp,    _, _, _, _, R, _, _, _,        _,   _,      0,                     "wait for the lanes in e (bar.warp.sync)")
/* control (see "Reconvergence" in vgpu_visa.h) */
VISA_OP(BRA,        "bra",        branch,  _, _, _, _, _, _, _, _,        _,   BRA,    0,                     "jump to imm[31:0]; reconvergence point imm[63:32]")
VISA_OP(CALL,       "call",       call,    _, r, _, _, _, _, _, _,        _,   CALL,   0,                     "call function imm (INDIRECT: the function pointer in a)")
VISA_OP(RET,        "ret",        ret,     _, _, _, _, _, _, _, _,        _,   _,      0,                     "return from the current function (from a kernel: exit)")
VISA_OP(EXIT,       "exit",       exit,    _, _, _, _, _, _, _, _,        _,   _,      0,                     "end the thread")
VISA_OP(TRAP,       "trap",       trap,    _, _, _, _, _, _, _, _,        _,   _,      0,                     "fault VISA_FAULT_TRAP")
VISA_OP(BRKPT,      "brkpt",      brkpt,   _, _, _, _, _, _, _, _,        _,   _,      0,                     "fault VISA_FAULT_BREAKPOINT")
VISA_OP(NANOSLEEP,  "nanosleep",  yield,   _, R, _, _, _, _, _, _,        _,   _,      0,                     "sleep about a nanoseconds (may yield the SM thread)")
/* system calls the compiler recognises */
VISA_OP(VPRINTF,    "vprintf",    printf,  w, R, R, _, _, _, _, _,        _,   _,      0,                     "d = vprintf(format a, argument buffer b), generic addresses")
VISA_OP(ASSERTFAIL, "assertfail", assert,  _, R, R, R, R, _, _, _,        _,   _,      0,                     "__assertfail(message a, file b, line c, function e): VISA_FAULT_ASSERT")
/* tensor cores: warp-collective, through the warp's staging slots (vgpu_mma.h) */
VISA_OP(MMAPUT,     "mma.put",    mma,     _, R, r, r, r, _, _, _,        _,   _,      0,                     "slots imm.. of each lane = a[, b, c, e] (64 bits each)")
VISA_OP(MMAGET,     "mma.get",    mma,     W, _, w, w, w, _, _, _,        _,   _,      0,                     "d[, b, c, e] = slots imm.. of each lane")
VISA_OP(MMALD,      "mma.ld",     mma,     _, R, R, _, _, _, _, SP_READ,  _,   _,      0,                     "fragment of matrix in imm = memory at a, stride b elements")
VISA_OP(MMAST,      "mma.st",     mma,     _, R, R, _, _, _, _, SP_WRITE, _,   _,      0,                     "memory at a, stride b elements = fragment D of imm")
VISA_OP(MMA,        "mma",        mma,     _, _, _, _, _, _, _, _,        _,   _,      0,                     "D slots = A x B + C slots (imm: shape, types, satfinite, b1 op)")
VISA_OP(LDMATRIX,   "ldmatrix",   mma,     _, R, _, _, _, _, _, SP_READ,  _,   _,      0,                     "slots 0.. = imm 8x8 b16 matrices, row r of i at lane 8i+r's a")
VISA_OP(STMATRIX,   "stmatrix",   mma,     _, R, _, _, _, _, _, SP_WRITE, _,   _,      0,                     "the matrices of slots 0.. to the rows lane 8i+r's a names")
VISA_OP(MOVMATRIX,  "movmatrix",  mma,     _, _, _, _, _, _, _, _,        _,   _,      0,                     "slot 0 = the 8x8 b16 matrix of slot 0, transposed")
/* asynchronous copies and mbarriers (vgpu_visa_async.h, exec_async.c) */
VISA_OP(CP_ASYNC,   "cp.async",   async,   _, R, R, R, _, _, _, _,        X,   _,      0,                     "shared[a] = imm (4, 8, 16) bytes of global b, the first c of them (rest zero), completed by a later wait")
VISA_OP(CP_ASYNC_COMMIT, "cp.async.commit", async, _, _, _, _, _, _, _, _, X, _,  0,                     "close the thread's open group of cp.async copies")
VISA_OP(CP_ASYNC_WAIT, "cp.async.wait", async, _, _, _, _, _, _, _, _,    X,   _,      0,                     "complete the thread's copies of all but the imm most recent groups")
VISA_OP(CP_ASYNC_ARRIVE, "cp.async.arrive", async, _, R, _, _, _, _, _, SP_ATOM, X, _, VISA_CPA_ARRIVE_NOINC, "complete the thread's copies, then arrive on mbarrier a (sub NOINC; else pending += 1 first)")
VISA_OP(MBAR,       "mbarrier",   async,   w, R, r, _, _, w, _, SP_ATOM,  X,   _,      VISA_MBAR_COUNT - 1,   "mbarrier operation sub (enum visa_mbar) on the object at a with operand b; d = state, pd = wait result")
VISA_OP(CP_BULK,    "cp.async.bulk", async, _, R, R, R, r, _, _, SP_NAMED, X,  _,      0,                     "c bytes from b to a in space type2 (SHARED: from global, then complete_tx c on mbarrier e; GLOBAL: from shared)")
VISA_OP(ELECT,      "elect",      async,   w, _, _, _, R, W, _, _,        X,   _,      0,                     "pd = this lane is the lowest active lane of membermask e; d = that lane")
/* the device heap (vgpu_visa_async.h, exec_heap.c) */
VISA_OP(MALLOC,     "malloc",     heap,    W, R, R, _, _, _, _, _,        X,   _,      0,                     "d = malloc(a bytes) from the heap of descriptor b (generic address; 0 when full)")
VISA_OP(FREE,       "free",       heap,    _, R, R, _, _, _, _, _,        X,   _,      0,                     "free(a) back to the heap of descriptor b (a = 0: nothing)")
/* thread-block clusters (firmware_sim/core/exec_cluster.c) */
VISA_OP(MAPA,       "mapa",       cluster, W, R, r, _, _, _, _, _,        _,   _,      VISA_MAPA_RANK,        "MAP: d = shared address a in the block of cluster rank b (U32 shared, U64 generic); RANK: d = rank of a")
VISA_OP(BAR_CLUSTER, "bar.cluster", cluster, _, _, _, _, _, _, _, _,      _,   _,      VISA_BAR_CLUSTER_WAIT, "ARRIVE: the lanes arrive at the cluster barrier; WAIT: wait for the phase they arrived in to complete")
/* textures and surfaces (include/vgpu_visa_tex.h, exec_tex.c); a = descriptor VA, operands staged by MMAPUT */
VISA_OP(TEX,        "tex",        tex,     W, R, w, w, w, _, _, _,        X,   _,      0,                     "d, b, c, e = the texture unit's answer for texture a at the staged coordinates (imm: geometry, LOD kind)")
VISA_OP(TLD4,       "tld4",       tex,     W, R, w, w, w, _, _, _,        X,   _,      0,                     "d, b, c, e = component imm of the 2x2 texels a bilinear fetch of texture a would weight")
VISA_OP(TXQ,        "txq",        tex,     W, R, r, _, _, _, _, _,        X,   _,      VISA_TXQ_COUNT - 1,    "d = property sub (enum visa_txq) of the texture or surface a (b: mipmap level)")
VISA_OP(SULD,       "suld",       tex,     W, R, w, w, w, _, _, _,        X,   _,      0,                     "d, b, c, e = the elements of surface a at the staged coordinates (imm: geometry, size, vector, boundary)")
VISA_OP(SUST,       "sust",       tex,     _, R, _, _, _, _, _, _,        X,   _,      0,                     "surface a at the staged coordinates = the staged elements (slots 4..7)")
VISA_OP(SURED,      "sured",      tex,     _, R, R, _, _, _, _, _,        X,   _,      VISA_ATOM_XOR,         "atomically combine b into the element of surface a at the staged coordinates (sub: add, min, max, and, or)")
VISA_OP(CDP,        "cdp",        cdp,     W, r, r, _, _, _, _, _,        X,   _,      VISA_CDP_COUNT - 1,    "dynamic parallelism sub (enum visa_cdp): PSIZE d = params of kernel a; LAUNCH d = error of descriptor a into stream b; GET/PEEK/SET_ERROR the lane's last error")
VISA_OP(TMA,        "cp.async.bulk.tensor", async, _, R, R, r, r, _, _, SP_READ, X, _, VISA_TMA_COUNT - 1, "tensor memory accelerator sub (enum visa_tma): box of map b (space type2) at the staged coordinates <-> shared a; LOAD: complete_tx on mbarrier c")
VISA_OP(STACK,      "stack",      stack,   w, r, _, _, _, _, _, _,        X,   _,      VISA_STACK_COUNT - 1,  "the thread's dynamic stack, sub (enum visa_stack): ALLOCA d = local address of a bytes aligned to imm, freed at return; SAVE d = stack pointer; RESTORE stack pointer = a")
#endif /* VISA_OP */
