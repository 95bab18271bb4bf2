/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * vgpu_visa.h - the vISA binary format: the instruction set of the vGPU.
 *
 * This is "hardware interface": the PTX compiler in the user-mode driver
 * writes vISA images, the firmware's execution core validates and runs them,
 * the disassembler prints them.  Documentation/visa.rst is the manual; this
 * header is the normative definition.
 *
 * Compatibility: the format is versioned (VISA_VERSION_MAJOR/MINOR).  Within
 * one major version changes are additive only: new opcodes, new enum values,
 * new sections, fields appended to tables (each table records its entry size,
 * readers use the entries' known prefix and ignore what follows).  A reader
 * rejects an image whose major version differs from its own.
 *
 * Everything is little-endian.  Offsets are from the start of the image.
 *
 * ## The machine in one paragraph
 *
 * A thread has general-purpose registers (GPRs) of 64 bits and predicate
 * registers of 1 bit.  Threads run in warps of 32 lanes; one instruction
 * executes for every active lane of a warp.  An instruction is 32 bytes,
 * typed (the type says how the bits of a GPR are read and written), and has
 * up to one destination GPR, one destination predicate, five source
 * operands (a, b, c, e GPRs or literals, pa a predicate) and a 64-bit
 * immediate field.  Divergence is handled with a per-warp reconvergence
 * stack: every conditional branch carries the program counter where its two
 * paths meet again (the branch's immediate post-dominator, computed by the
 * compiler).  Memory is reached through state spaces (global, shared, local,
 * const, param) or generic addresses.
 */
#ifndef VGPU_VISA_H
#define VGPU_VISA_H

#include <stdint.h>

#include "vgpu_visa_async.h"
#include "vgpu_visa_tex.h"
#include "vgpu_visa_cdp.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Image header                                                              */
/* ------------------------------------------------------------------------ */

#define VISA_MAGIC		0x41534956u	/* "VISA" read as a LE u32 */
#define VISA_VERSION_MAJOR	1
#define VISA_VERSION_MINOR	0

/*
 * Sections, found through the header's section table.  A section that is
 * absent has offset 0 and size 0.  Sections start 8-byte aligned, do not
 * overlap and lie inside the image.  Unknown section slots (ids the reader
 * does not know) must be ignored; slots up to VISA_SEC_MAX exist in every
 * header so new sections need no new header layout.
 */
enum visa_section_id {
	VISA_SEC_STRTAB = 0,	/* NUL-terminated strings; offset 0 is "" */
	VISA_SEC_CODE,		/* struct visa_insn[] for all functions */
	VISA_SEC_FUNCS,		/* struct visa_func[] */
	VISA_SEC_KERNELS,	/* struct visa_kernel[] (entry points) */
	VISA_SEC_PARAMS,	/* struct visa_param[] (kernel parameters) */
	VISA_SEC_LITERALS,	/* uint64_t[] literal pool (operand values) */
	VISA_SEC_GLOBAL_INIT,	/* initial bytes of the global segment */
	VISA_SEC_CONST_INIT,	/* initial bytes of the const segment */
	VISA_SEC_RELOCS,	/* struct visa_reloc[] applied at load */
	VISA_SEC_SYMBOLS,	/* struct visa_symbol[] module variables */
	VISA_SEC_LINES,		/* struct visa_line[] sorted by insn */
	VISA_SEC_COUNT,		/* number of sections this version defines */
	VISA_SEC_MAX = 16	/* slots in the header's table */
};

struct visa_section {
	uint32_t offset;	/* byte offset of the first entry */
	uint32_t size;		/* bytes in the section */
	uint32_t entsize;	/* bytes per entry (1 for byte sections) */
	uint32_t reserved;	/* zero */
};

struct visa_image_header {
	uint32_t magic;			/* VISA_MAGIC */
	uint16_t version_major;		/* VISA_VERSION_MAJOR */
	uint16_t version_minor;		/* VISA_VERSION_MINOR (informative) */
	uint32_t header_size;		/* sizeof(struct visa_image_header) */
	uint32_t flags;			/* zero; reserved */
	uint64_t image_size;		/* total bytes of the image */
	/*
	 * Module segments.  The loader (the UMD) allocates global_size bytes
	 * of device memory for the global segment and const_size for the
	 * const segment, copies GLOBAL_INIT / CONST_INIT to their start
	 * (the rest is zero: .bss), applies RELOCS and passes the two base
	 * addresses with every launch.
	 */
	uint64_t global_size;		/* >= size of GLOBAL_INIT */
	uint64_t const_size;		/* >= size of CONST_INIT */
	uint32_t global_align;		/* alignment the segment needs (>= 8) */
	uint32_t const_align;		/* alignment the segment needs (>= 8) */
	uint32_t reserved[2];		/* zero */
	struct visa_section sections[VISA_SEC_MAX];
};

/* ------------------------------------------------------------------------ */
/* Functions and kernels                                                     */
/* ------------------------------------------------------------------------ */

/*
 * A function: a contiguous range of CODE.  Kernels are functions too (a
 * kernel entry names its function).  Branch targets are absolute
 * instruction indices and must stay inside the function's range.  The last
 * instruction of every function is an unguarded BRA, RET, EXIT or TRAP, so
 * execution never runs off the end.  Functions are stored in CODE in the
 * order of the FUNCS table and do not overlap.
 *
 * Register windows: every activation of a function (the kernel's first
 * one, and each CALL) gets fresh GPRs 0..num_regs-1 and predicates
 * 0..num_preds-1; a callee cannot see or clobber its caller's registers.
 * Values cross a call only through the callee's local frame (see
 * VISA_OP_CALL).
 */
#define VISA_FUNC_KERNEL	(1u << 0)	/* is an entry point */
#define VISA_FUNC_RECURSIVE	(1u << 1)	/* may be on the stack twice */

struct visa_func {
	uint32_t name;		/* STRTAB offset */
	uint32_t flags;		/* VISA_FUNC_* */
	uint32_t code_start;	/* index of the first instruction */
	uint32_t code_count;	/* number of instructions (>= 1) */
	uint32_t lit_start;	/* index of literal 0 of this function */
	uint32_t lit_count;	/* literals this function may name */
	uint16_t num_regs;	/* GPRs used: 0..num_regs-1 */
	uint16_t num_preds;	/* predicates used: 0..num_preds-1 */
	uint32_t frame_size;	/* local bytes of one activation, 16-aligned */
};

/* One kernel parameter as it lies in the parameter buffer. */
#define VISA_PARAM_POINTER	(1u << 0)	/* declared .ptr (informative) */

struct visa_param {
	uint32_t name;		/* STRTAB offset */
	uint32_t offset;	/* byte offset in the parameter buffer */
	uint32_t size;		/* bytes */
	uint32_t align;		/* alignment in bytes (power of two) */
	uint32_t flags;		/* VISA_PARAM_* */
};

#define VISA_KERNEL_USES_PRINTF	(1u << 0)
#define VISA_KERNEL_USES_ASSERT	(1u << 1)
#define VISA_KERNEL_RECURSIVE	(1u << 2)	/* local_size is a guess */
/*
 * The first VISA_RESERVED_SMEM_BYTES of shared_size are the region the
 * system reserves in each block (PTX's %reserved_smem_offset_*), not the
 * program's variables: cuFuncGetAttribute leaves them out, as NVIDIA's
 * driver does.
 */
#define VISA_KERNEL_RESERVED_SMEM (1u << 3)
/* .explicitcluster: launches must give a cluster shape (cluster_dim or
 * the launch's); CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET. */
#define VISA_KERNEL_EXPLICIT_CLUSTER (1u << 4)

/*
 * Bytes of shared memory reserved for system use in a block that asks
 * for them: cudaDevAttrReservedSharedMemoryPerBlock, 1 KiB as on an H100.
 */
#define VISA_RESERVED_SMEM_BYTES 1024u

/*
 * A kernel: what the runtime needs for launches, occupancy and
 * cuFuncGetAttribute.  Zero in reqntid/maxntid means "not given".
 */
struct visa_kernel {
	uint32_t name;		/* STRTAB offset: the (mangled) PTX name */
	uint32_t func;		/* index into FUNCS */
	uint32_t param_first;	/* first entry in PARAMS */
	uint32_t param_count;	/* number of parameters */
	uint32_t param_size;	/* bytes of the parameter buffer */
	uint32_t shared_size;	/* static .shared bytes */
	uint32_t shared_align;	/* alignment of dynamic shared memory */
	uint32_t local_size;	/* local bytes per thread: deepest call chain */
	uint32_t num_regs;	/* max GPRs of the kernel and its callees */
	uint32_t max_threads;	/* max threads per block this kernel allows */
	uint32_t reqntid[3];	/* .reqntid */
	uint32_t maxntid[3];	/* .maxntid */
	uint32_t minnctapersm;	/* .minnctapersm */
	uint32_t maxnreg;	/* .maxnreg */
	uint32_t flags;		/* VISA_KERNEL_* */
	/* appended (readers look at the KERNELS entsize first) */
	uint32_t cluster_dim[3];	/* .reqnctapercluster; 0: not given */
	uint32_t max_cluster_rank;	/* .maxclusterrank; 0: not given */
};

/* The entry size of KERNELS before the cluster fields: the least a
 * reader accepts. */
#define VISA_KERNEL_SIZE_MIN	76u

/* ------------------------------------------------------------------------ */
/* Module variables, relocations, line information                          */
/* ------------------------------------------------------------------------ */

/*
 * State spaces.  Used by memory instructions (type2), MOVA, CVTA, symbols
 * and relocations.
 *
 * GENERIC  a 64-bit generic address: shared and local memory appear in
 *          fixed windows (below); everything else is a global address.
 * GLOBAL   a GPU virtual address, translated by the MMU.
 * SHARED   byte offset in the block's shared memory (static then dynamic).
 * LOCAL    byte offset in the thread's local memory (an absolute local
 *          address: MOVA LOCAL adds the current frame base).
 *
 * Memory instruction addresses: with a GPR (or literal) in a, the address
 * is a + imm in the instruction's space, absolute.  With a = NONE it is
 * 0 + imm, except in LOCAL where it is frame base + imm (frame-relative:
 * named locals and the call convention use this form).
 * CONST    byte offset in the module's const segment (read-only).
 * PARAM    byte offset in the kernel's parameter buffer (read-only).
 * FUNC     (relocations only) a function index: the value written is
 *          VISA_FUNCPTR_BASE + index.
 */
enum visa_space {
	VISA_SPACE_GENERIC = 0,
	VISA_SPACE_GLOBAL = 1,
	VISA_SPACE_SHARED = 2,
	VISA_SPACE_LOCAL = 3,
	VISA_SPACE_CONST = 4,
	VISA_SPACE_PARAM = 5,
	VISA_SPACE_FUNC = 6,
	VISA_SPACE_COUNT
};

/*
 * Generic address windows.  GPU virtual addresses of global memory are
 * below 2^48 (they double as host addresses under unified addressing), so
 * these windows can never collide with them.  A generic address in
 * [SHARED_BASE, SHARED_BASE + 2^32) is shared memory at offset
 * (addr - SHARED_BASE); likewise for local memory, where the offset is the
 * absolute local address (frame base + frame offset) of the thread.
 * Function pointers are VISA_FUNCPTR_BASE + function index.  The kernel
 * parameter buffer appears read-only at VISA_GENERIC_PARAM_BASE + offset
 * (cvta.param; generic stores there fault with VISA_FAULT_PERMISSION).
 */
#define VISA_GENERIC_SHARED_BASE	0x0001000000000000ull
#define VISA_GENERIC_LOCAL_BASE		0x0002000000000000ull
#define VISA_GENERIC_WINDOW_SIZE	0x0000000100000000ull
#define VISA_FUNCPTR_BASE		0x0003000000000000ull
#define VISA_GENERIC_PARAM_BASE		0x0004000000000000ull

/* A module-scope variable (for cudaGetSymbolAddress / cuModuleGetGlobal). */
#define VISA_SYM_VISIBLE	(1u << 0)	/* .visible: linkable name */
#define VISA_SYM_EXTERN_DEF	(1u << 1)	/* defined by another module */
#define VISA_SYM_MANAGED	(1u << 2)	/* __managed__: the loader puts
						 * the global segment where the
						 * host reaches it too */

struct visa_symbol {
	uint32_t name;		/* STRTAB offset */
	uint8_t space;		/* VISA_SPACE_GLOBAL or VISA_SPACE_CONST */
	uint8_t reserved[3];	/* zero */
	uint32_t flags;		/* VISA_SYM_* */
	uint32_t align;		/* alignment in bytes */
	uint64_t offset;	/* offset in that segment */
	uint64_t size;		/* bytes */
};

/*
 * A relocation: after copying the initial bytes the loader writes, at
 * byte @offset of the segment @space (GLOBAL or CONST),
 *     value = base(@target_space) + @addend
 * as a little-endian integer of @width bytes (4 or 8).  base(GLOBAL) and
 * base(CONST) are the GPU virtual addresses of the segments (so a pointer
 * to a __constant__ variable is its global VA, as generic pointers are);
 * base(FUNC) is VISA_FUNCPTR_BASE and @addend the function index.
 * Used for address-valued initializers (.global .u64 p = var;).
 */
struct visa_reloc {
	uint8_t space;		/* segment patched: GLOBAL or CONST */
	uint8_t target_space;	/* GLOBAL, CONST or FUNC */
	uint8_t width;		/* 4 or 8 */
	uint8_t reserved;	/* zero */
	uint32_t reserved2;	/* zero */
	uint64_t offset;	/* where, in the patched segment */
	int64_t addend;		/* offset in the target (or function index) */
};

/*
 * Line table: entry i covers instructions [insn_i, insn_{i+1}).  Faults
 * report the PTX file:line of the faulting instruction from it.
 */
struct visa_line {
	uint32_t insn;		/* first instruction covered */
	uint32_t file;		/* STRTAB offset of the PTX file name */
	uint32_t line;		/* 1-based PTX line (0: unknown) */
	uint32_t column;	/* 1-based column (0: unknown) */
};

/* ------------------------------------------------------------------------ */
/* Instructions                                                              */
/* ------------------------------------------------------------------------ */

/*
 * Operands.
 *
 * GPR operands (d, a, b, c, e) are 16 bits:
 *   0 .. VISA_MAX_REGS-1           GPR index in the current window
 *   VISA_OPND_LIT | k              literal k of the function: the 64-bit
 *                                  value LITERALS[func.lit_start + k]
 *                                  (sources only)
 *   VISA_OPND_NONE                 no operand
 * A literal is read exactly like a register holding that value, so any
 * source may be an immediate.
 *
 * Predicate operands (pd, pa) are 16 bits: an index below VISA_MAX_PREDS,
 * or VISA_OPND_NONE.  The guard is a predicate index, optionally with
 * VISA_GUARD_NEG; VISA_OPND_NONE means "always".
 *
 * How a GPR's 64 bits are read and written depends on the type:
 *   8/16/32-bit integer types read the low bits; integer results are
 *   written extended to 64 bits by the type's signedness (U and B types
 *   zero-extend, S types sign-extend), so a narrower consumer sees the
 *   right value and ld.s8 into a 32-bit register is sign-extended.
 *   F16 / BF16 live in bits 0-15, F16X2 / BF16X2 / F32 in bits 0-31
 *   (F16X2: element 0 in bits 0-15), F64 in all 64 bits.
 *   PRED: the instruction works on predicate registers (d, a, b, c name
 *   predicates): MOV, AND, OR, XOR, NOT only; the validator refuses PRED
 *   on the other data and arithmetic opcodes (on VOTE and the like it is
 *   informative).
 */
#define VISA_MAX_REGS		0x4000u
#define VISA_MAX_PREDS		0x4000u
#define VISA_OPND_LIT		0x8000u
#define VISA_OPND_NONE		0xffffu
#define VISA_GUARD_NEG		0x4000u
#define VISA_GUARD_INDEX(g)	((g) & 0x3fffu)

enum visa_type {
	VISA_T_NONE = 0,
	VISA_T_U8, VISA_T_S8, VISA_T_U16, VISA_T_S16,
	VISA_T_U32, VISA_T_S32, VISA_T_U64, VISA_T_S64,
	VISA_T_B8, VISA_T_B16, VISA_T_B32, VISA_T_B64,	/* untyped bits */
	VISA_T_F16, VISA_T_F16X2, VISA_T_BF16, VISA_T_BF16X2,
	VISA_T_F32, VISA_T_F64,
	VISA_T_PRED,
	VISA_T_COUNT
};

/*
 * Modifier word (struct visa_insn.mod).  Bit fields; which apply depends
 * on the opcode (see the opcode list).  Unused bits must be zero.
 */
#define VISA_MOD_RND_MASK	0x0000000fu	/* enum visa_rnd */
#define VISA_MOD_FTZ		0x00000010u	/* flush f32 subnormals to zero */
#define VISA_MOD_SAT		0x00000020u	/* saturate (ints: clamp; f: [0,1]) */
#define VISA_MOD_APPROX		0x00000040u	/* .approx */
#define VISA_MOD_FULL		0x00000080u	/* div.full.f32 */
#define VISA_MOD_SUB_SHIFT	8		/* sub-operation, 8 bits */
#define VISA_MOD_SUB_MASK	0x0000ff00u
#define VISA_MOD_SUB(m)		(((m) & VISA_MOD_SUB_MASK) >> VISA_MOD_SUB_SHIFT)
#define VISA_MOD_MKSUB(s)	((uint32_t)(s) << VISA_MOD_SUB_SHIFT)
#define VISA_MOD_BOOL_SHIFT	16		/* setp/set combine: visa_boolop */
#define VISA_MOD_BOOL_MASK	0x00030000u
#define VISA_MOD_VEC_SHIFT	18		/* ld/st: log2 of vector length */
#define VISA_MOD_VEC_MASK	0x000c0000u
#define VISA_MOD_CC_IN		0x00100000u	/* addc/subc: use carry in pa */
#define VISA_MOD_CC_OUT		0x00200000u	/* add.cc: write carry to pd */
#define VISA_MOD_TO_GENERIC	0x00400000u	/* cvta: space -> generic */
#define VISA_MOD_INDIRECT	0x00800000u	/* call: target in GPR a */
#define VISA_MOD_UNIFORM	0x01000000u	/* bra.uni / call.uni (hint) */
#define VISA_MOD_NAN		0x02000000u	/* min/max.NaN */
#define VISA_MOD_VOLATILE	0x04000000u	/* ld/st.volatile (informative) */
#define VISA_MOD_SIGNED_A	0x08000000u	/* dp4a/dp2a: a is signed */
#define VISA_MOD_SIGNED_B	0x10000000u	/* dp4a/dp2a: b is signed */
#define VISA_MOD_HI		0x20000000u	/* dp2a.hi */

/* Rounding (VISA_MOD_RND_MASK). Integer variants round float to integral. */
enum visa_rnd {
	VISA_RND_NONE = 0,	/* instruction default */
	VISA_RND_RN, VISA_RND_RZ, VISA_RND_RM, VISA_RND_RP,
	VISA_RND_RNI, VISA_RND_RZI, VISA_RND_RMI, VISA_RND_RPI,
	VISA_RND_RNA		/* round to nearest, ties away (cvt.rna) */
};

/* Comparisons (sub-operation of SETP and SET). U = unordered or ... */
enum visa_cmp {
	VISA_CMP_EQ = 0, VISA_CMP_NE, VISA_CMP_LT, VISA_CMP_LE,
	VISA_CMP_GT, VISA_CMP_GE,
	VISA_CMP_EQU, VISA_CMP_NEU, VISA_CMP_LTU, VISA_CMP_LEU,
	VISA_CMP_GTU, VISA_CMP_GEU,
	VISA_CMP_NUM, VISA_CMP_NAN,
	VISA_CMP_COUNT
};
/* Integer comparisons use EQ..GE with the signedness of the type. */

enum visa_boolop { VISA_BOOL_NONE = 0, VISA_BOOL_AND, VISA_BOOL_OR,
		   VISA_BOOL_XOR };

/* ATOM / RED sub-operation. */
enum visa_atom_op {
	VISA_ATOM_ADD = 0, VISA_ATOM_MIN, VISA_ATOM_MAX, VISA_ATOM_INC,
	VISA_ATOM_DEC, VISA_ATOM_AND, VISA_ATOM_OR, VISA_ATOM_XOR,
	VISA_ATOM_EXCH, VISA_ATOM_CAS,
	VISA_ATOM_COUNT
};

enum visa_shfl_mode { VISA_SHFL_IDX = 0, VISA_SHFL_UP, VISA_SHFL_DOWN,
		      VISA_SHFL_BFLY };
enum visa_vote_mode { VISA_VOTE_ALL = 0, VISA_VOTE_ANY, VISA_VOTE_UNI,
		      VISA_VOTE_BALLOT };
enum visa_match_mode { VISA_MATCH_ANY = 0, VISA_MATCH_ALL };
enum visa_redop { VISA_RED_POPC = 0, VISA_RED_AND, VISA_RED_OR,
		  VISA_RED_ADD, VISA_RED_MIN, VISA_RED_MAX, VISA_RED_XOR };
enum visa_scope { VISA_SCOPE_CTA = 0, VISA_SCOPE_GPU, VISA_SCOPE_SYS };
enum visa_shf_mode { VISA_SHF_L_WRAP = 0, VISA_SHF_L_CLAMP,
		     VISA_SHF_R_WRAP, VISA_SHF_R_CLAMP };
enum visa_testp { VISA_TESTP_FINITE = 0, VISA_TESTP_INFINITE,
		  VISA_TESTP_NUMBER, VISA_TESTP_NOTANUMBER,
		  VISA_TESTP_NORMAL, VISA_TESTP_SUBNORMAL };

/* Special registers (SREG imm). */
enum visa_sreg {
	VISA_SREG_TID_X = 0, VISA_SREG_TID_Y, VISA_SREG_TID_Z,
	VISA_SREG_NTID_X, VISA_SREG_NTID_Y, VISA_SREG_NTID_Z,
	VISA_SREG_CTAID_X, VISA_SREG_CTAID_Y, VISA_SREG_CTAID_Z,
	VISA_SREG_NCTAID_X, VISA_SREG_NCTAID_Y, VISA_SREG_NCTAID_Z,
	VISA_SREG_LANEID, VISA_SREG_WARPID, VISA_SREG_NWARPID,
	VISA_SREG_SMID, VISA_SREG_NSMID, VISA_SREG_GRIDID,
	VISA_SREG_LANEMASK_EQ, VISA_SREG_LANEMASK_LE, VISA_SREG_LANEMASK_LT,
	VISA_SREG_LANEMASK_GE, VISA_SREG_LANEMASK_GT,
	VISA_SREG_CLOCK, VISA_SREG_CLOCK_HI, VISA_SREG_CLOCK64,
	VISA_SREG_GLOBALTIMER, VISA_SREG_GLOBALTIMER_LO,
	VISA_SREG_GLOBALTIMER_HI,
	VISA_SREG_DYNAMIC_SMEM_SIZE, VISA_SREG_TOTAL_SMEM_SIZE,
	VISA_SREG_WARPSZ,
	/*
	 * Cooperative launch and thread-block clusters
	 * (Documentation/cooperative-groups.rst).  %envreg0..31 are
	 * ENVREG0 + n: the launch's grid-sync workspace address is in
	 * envreg1 (high 32 bits) and envreg2 (low), where the cooperative
	 * groups headers look for it; the others read 0.
	 */
	VISA_SREG_ENVREG0,
	VISA_SREG_CLUSTERID_X = VISA_SREG_ENVREG0 + 32,
	VISA_SREG_CLUSTERID_Y, VISA_SREG_CLUSTERID_Z,
	VISA_SREG_NCLUSTERID_X, VISA_SREG_NCLUSTERID_Y, VISA_SREG_NCLUSTERID_Z,
	VISA_SREG_CLUSTER_CTAID_X, VISA_SREG_CLUSTER_CTAID_Y,
	VISA_SREG_CLUSTER_CTAID_Z,
	VISA_SREG_CLUSTER_NCTAID_X, VISA_SREG_CLUSTER_NCTAID_Y,
	VISA_SREG_CLUSTER_NCTAID_Z,
	VISA_SREG_CLUSTER_CTARANK, VISA_SREG_CLUSTER_NCTARANK,
	VISA_SREG_IS_EXPLICIT_CLUSTER,
	VISA_SREG_COUNT
};

/*
 * Distributed shared memory: a SHARED-space address with
 * VISA_SHARED_CLUSTER_BIT set names byte (addr & VISA_SHARED_CLUSTER_OFFSET)
 * of the shared memory of the block of cluster rank
 * VISA_SHARED_CLUSTER_RANK(addr) in the accessing block's cluster (what
 * MAPA makes).  Plain offsets are the block's own shared memory, so a
 * shared::cta address is a valid shared::cluster address, as in PTX.
 * Generic addresses carry the same form in the shared window.
 */
#define VISA_SHARED_CLUSTER_BIT		0x80000000u
#define VISA_SHARED_CLUSTER_RANK_SHIFT	24
#define VISA_SHARED_CLUSTER_OFFSET	0x00ffffffu
#define VISA_SHARED_CLUSTER_RANK(a)	(((a) >> VISA_SHARED_CLUSTER_RANK_SHIFT) & 0x7fu)
#define VISA_SHARED_CLUSTER_ADDR(rank, off)				\
	(VISA_SHARED_CLUSTER_BIT |					\
	 (uint32_t)(rank) << VISA_SHARED_CLUSTER_RANK_SHIFT |		\
	 ((uint32_t)(off) & VISA_SHARED_CLUSTER_OFFSET))

/* MAPA sub-operations, and BAR_CLUSTER's. */
enum visa_mapa_op { VISA_MAPA_MAP = 0, VISA_MAPA_RANK };
enum visa_bar_cluster_op { VISA_BAR_CLUSTER_ARRIVE = 0,
			   VISA_BAR_CLUSTER_WAIT };

/*
 * Sub-operations of VISA_OP_STACK: the thread's dynamic stack (PTX
 * alloca, stacksave, stackrestore).  Its pointer starts at the top of the
 * thread's local window (the launch's local size) and grows down, towards
 * the call frames that grow up from 0; a call restores it when the callee
 * returns, which frees what the callee allocated.  Addresses are LOCAL
 * (absolute in the thread's window, as MOVA LOCAL gives them).
 */
enum visa_stack {
	VISA_STACK_ALLOCA = 0,	/* d = sp = (sp - a) rounded down to imm
				 * (a power of 2, at least 8) */
	VISA_STACK_SAVE,	/* d = sp */
	VISA_STACK_RESTORE,	/* sp = a */
	VISA_STACK_COUNT
};

/*
 * Opcodes.  include/vgpu_visa_ops.h is the table of them: one line per
 * opcode with its name, the operands it reads and writes, what type2
 * means for it, the validator's rules, the interpreter's handler and a
 * one-line description.  The enum below and every other per-opcode table
 * of the stack are generated from it.
 *
 * The numbers are ABI (vISA images in the compute cache, the H100 golden
 * tests): they are the order of the table's lines, so new opcodes go at
 * its end.  tests/test_visa_optable.c pins every one.
 */
#include "vgpu_visa_ops.h"	/* first without VISA_OP: its vocabulary */

enum visa_op {
#define VISA_OP(op, ...) VISA_OP_##op,
#include "vgpu_visa_ops.h"
#undef VISA_OP
	VISA_OP_COUNT
};

/*
 * What the table says about one opcode, as data: visa_op_info(op), or
 * NULL for an opcode this version does not know.  The validator, the
 * disassembler and the PTX compiler's register allocator read it.
 */
struct visa_op_info {
	const char *name;	/* the disassembler's text */
	uint32_t slots;		/* VISA_SLOTS(): VISA_SLOT_USE(slots, slot) */
	uint8_t type2;		/* enum visa_op_type2 */
	uint8_t pred;		/* enum visa_op_pred */
	uint8_t check;		/* enum visa_op_check */
	uint8_t max_sub;	/* largest VISA_MOD_SUB() accepted */
};

static inline const struct visa_op_info *visa_op_info(unsigned int op)
{
	static const struct visa_op_info info[VISA_OP_COUNT] = {
#define VISA_OP(op, name, cls, d, a, b, c, e, pd, pa, type2, pred, check, \
		max_sub, description)					\
	{ name, VISA_SLOTS(d, a, b, c, e, pd, pa), VISA_TYPE2_##type2,	\
	  VISA_PRED_##pred, VISA_CHECK_##check, max_sub },
#include "vgpu_visa_ops.h"
#undef VISA_OP
	};

	return op < VISA_OP_COUNT ? &info[op] : (const struct visa_op_info *)0;
}

/*
 * One instruction: 32 bytes, naturally aligned fields, no implicit padding.
 */
struct visa_insn {
	uint16_t op;		/* enum visa_op */
	uint8_t type;		/* enum visa_type: the operation type */
	uint8_t type2;		/* second type (CVT source, SET compare) or
				 * enum visa_space for memory, MOVA, CVTA */
	uint32_t mod;		/* VISA_MOD_* */
	uint16_t guard;		/* predicate guard or VISA_OPND_NONE */
	uint16_t pd;		/* predicate destination */
	uint16_t pa;		/* predicate source */
	uint16_t d;		/* destination GPR */
	uint16_t a, b, c, e;	/* source GPRs or literals */
	uint64_t imm;		/* immediate field (meaning per opcode) */
};

/*
 * Predicate logic: type PRED on an opcode whose table line says so (MOV,
 * AND, OR, XOR, NOT); then d, a, b, c name predicates, not GPRs.
 */
static inline int visa_insn_pred_logic(const struct visa_insn *in)
{
	const struct visa_op_info *oi = visa_op_info(in->op);

	return in->type == VISA_T_PRED && oi && oi->pred == VISA_PRED_L;
}

/* BRA's immediate: target and reconvergence point. */
#define VISA_BRA_IMM(target, reconv) \
	(((uint64_t)(uint32_t)(reconv) << 32) | (uint32_t)(target))
#define VISA_BRA_TARGET(imm)	((uint32_t)(imm))
#define VISA_BRA_RECONV(imm)	((uint32_t)((imm) >> 32))
/* "The paths meet only when the function returns" (or never). */
#define VISA_RECONV_EXIT	0xffffffffu

/*
 * Reconvergence.
 *
 * Each warp has a reconvergence stack of entries {pc, active mask,
 * reconvergence pc}; the top entry is the path that executes.
 *
 *  - A guarded BRA evaluates the guard for the active lanes.  If all or
 *    none take it, the top entry's pc moves and nothing else happens.
 *  - Otherwise (divergence) with R = the branch's reconvergence point:
 *      if R equals the top entry's reconvergence pc, the top entry is
 *      turned into the fall-through path (its mask shrinks to the lanes
 *      not taking the branch) and the taken path is pushed on it;
 *      else the top entry is parked at R with its full mask, and the
 *      fall-through path and then the taken path are pushed, both with
 *      reconvergence pc R.
 *  - Whenever the top entry's pc equals its reconvergence pc, it is
 *    popped: those lanes wait at R for the entry below.
 *  - RET by some lanes removes them from every entry above the current
 *    call's entry; EXIT by some lanes removes them from every entry of
 *    the warp (exited lanes never hold up a barrier).  Entries whose mask
 *    becomes empty are popped.  A function returns when all the lanes that
 *    called it have returned or exited.
 *  - CALL pushes a call entry {return pc, mask} and starts the callee
 *    with the calling lanes and reconvergence pc VISA_RECONV_EXIT.
 *
 * So the compiler must give every conditional branch its immediate
 * post-dominator in the function's control-flow graph, where RET and EXIT
 * lead to one virtual exit node; a branch whose paths only meet at that
 * node gets VISA_RECONV_EXIT.  This is correct for any control flow,
 * including loops with break/continue and early return.  Unconditional
 * branches (no guard) ignore imm[63:32].
 *
 * Warp-synchronous instructions (SHFL, VOTE, MATCH, REDUX, WARPSYNC)
 * act on the lanes of their membermask: those of the executing path, and
 * those on the sibling path of the same branch (the other side, not yet
 * run).  For the latter the executing path parks at its instruction, the
 * sibling runs to a matching instruction of its own, and both execute
 * together, each lane with its own operands (Volta-style __syncwarp(),
 * shuffles and votes on both sides of a branch).  Other membermask lanes
 * (exited, or waiting at a reconvergence point) are not waited for; SHFL
 * from such a lane reads the value its register holds now.  BAR counts
 * whole warps.  See Documentation/visa.rst.
 *
 * Calls.  CALL gives the callee fresh registers and a local frame that
 * starts right after the caller's frame: the callee's LOCAL offset k is
 * the caller's LOCAL offset (caller frame_size + k).  Arguments and
 * return values are passed there: the caller stores argument bytes at
 * (its frame_size + offset), the callee reads them at offset, and return
 * values travel back the same way.  The compiler chooses the layout.
 */

/* ------------------------------------------------------------------------ */
/* Faults                                                                    */
/* ------------------------------------------------------------------------ */

/*
 * Why a grid stopped.  The engine records the first fault of a grid with
 * the kernel, block, thread, instruction and PTX line; the UMD maps the
 * kind to a CUDA error (ILLEGAL_ADDRESS, MISALIGNED_ADDRESS, ...).
 */
enum visa_fault_kind {
	VISA_FAULT_NONE = 0,
	VISA_FAULT_UNMAPPED,		/* global address not mapped */
	VISA_FAULT_PERMISSION,		/* e.g. write to a read-only page */
	VISA_FAULT_MISALIGNED,		/* address not aligned to access size */
	VISA_FAULT_OUT_OF_RANGE,	/* shared/local/const/param offset */
	VISA_FAULT_TRAP,		/* trap instruction */
	VISA_FAULT_BREAKPOINT,		/* brkpt instruction */
	VISA_FAULT_ASSERT,		/* __assertfail */
	VISA_FAULT_BARRIER_DEADLOCK,	/* barrier can never complete */
	VISA_FAULT_STACK_OVERFLOW,	/* call depth / local memory exceeded */
	VISA_FAULT_INVALID_CALL,	/* bad function pointer */
	VISA_FAULT_STOPPED,		/* external stop request (watchdog) */
	VISA_FAULT_INVALID_IMAGE,	/* image failed validation */
	VISA_FAULT_OUT_OF_RESOURCES,	/* launch does not fit the SM */
	VISA_FAULT_TIMEOUT,		/* scheduled past its exec_limit_us */
	VISA_FAULT_COUNT
};

/* ------------------------------------------------------------------------ */
/* Device printf FIFO                                                        */
/* ------------------------------------------------------------------------ */

/*
 * The printf FIFO is a buffer in device memory, one per context, given to
 * the engine with every launch.  It starts with this header; records
 * follow.  The engine reserves space by advancing @used atomically; a
 * record that does not fit is dropped and counted in @dropped (CUDA drops
 * output silently when cudaLimitPrintfFifoSize is exceeded).  The host
 * reads records [sizeof header, sizeof header + used) after the grid has
 * finished, formats them, and sets @used back to 0.
 */
#define VISA_PRINTF_MAGIC	0x46525056u	/* "VPRF" */

struct visa_printf_fifo {
	uint32_t magic;		/* VISA_PRINTF_MAGIC */
	uint32_t dropped;	/* records that did not fit */
	uint64_t capacity;	/* bytes available for records */
	uint64_t used;		/* bytes of records written */
};

/*
 * One record: the header, then the NUL-terminated format string (copied
 * from device memory), padded to 8, then the argument bytes exactly as the
 * kernel laid them out (each argument aligned to its size, as nvcc packs
 * vprintf arguments), except that every %s argument is replaced by an
 * 8-byte offset from the record start to a copy of the string that follows
 * the arguments.  size covers everything and is a multiple of 8.
 */
struct visa_printf_record {
	uint32_t size;		/* bytes of the whole record */
	uint32_t format_len;	/* bytes of the format, including the NUL */
	uint32_t args_size;	/* bytes of the argument block */
	uint32_t thread_flat;	/* printing thread's flat id (informative),
				 * with VISA_PRINTF_STDERR */
};

/*
 * thread_flat's top bit: the record is a failed assert's line, which the
 * host prints on stderr (CUDA's place for it); printf's go to stdout.
 */
#define VISA_PRINTF_STDERR	(1u << 31)

/* The layout is ABI: catch accidental changes at compile time. */
#if !defined(__cplusplus) && __STDC_VERSION__ >= 201112L
_Static_assert(sizeof(struct visa_insn) == 32, "visa_insn layout");
_Static_assert(sizeof(struct visa_image_header) == 312, "header layout");
_Static_assert(sizeof(struct visa_func) == 32, "visa_func layout");
_Static_assert(sizeof(struct visa_kernel) == 92, "visa_kernel layout");
_Static_assert(sizeof(struct visa_param) == 20, "visa_param layout");
_Static_assert(sizeof(struct visa_symbol) == 32, "visa_symbol layout");
_Static_assert(sizeof(struct visa_reloc) == 24, "visa_reloc layout");
_Static_assert(sizeof(struct visa_line) == 16, "visa_line layout");
_Static_assert(sizeof(struct visa_printf_fifo) == 24, "printf fifo layout");
_Static_assert(sizeof(struct visa_printf_record) == 16, "printf record");
#endif

#ifdef __cplusplus
}
#endif

#endif /* VGPU_VISA_H */
