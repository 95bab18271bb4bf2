// SPDX-License-Identifier: GPL-2.0
/*
 * reg_init.c - which register rows a warp must zero when it enters a
 * function.
 *
 * Registers start at zero so that no run depends on stale data: a kernel
 * that reads a register before writing it (undefined in PTX) reads 0, on
 * both tiers, on every SM, in every run.  Zeroing every row of every warp
 * was a large part of a short kernel's time (vectorAdd: 2 KiB per warp,
 * 1 GiB of memset per launch of 16M threads), and most rows never need
 * it: they are written before they are read on every path through the
 * function, so no read can see what they held before.  Only the others
 * are zeroed.
 *
 * The analysis, at module load, is a forward "definitely written"
 * dataflow over the function's control-flow graph, the one of a single
 * thread (divergence only interleaves the threads' paths; each thread
 * still runs one path of this graph):
 *
 *   IN(start) = {}      IN(pc) = intersection of OUT(p) over p -> pc
 *   OUT(pc)   = IN(pc) + rows that pc writes
 *   zeroed    = rows some pc reads that are not in IN(pc)
 *
 * Edges are over-approximated, which only shrinks the IN sets (safe):
 * every instruction falls through to the next one, and a branch also
 * goes to its target.  A row counts as written only by an unguarded
 * instruction whose opcode writes it (the W and w slots of the opcode
 * table, include/vgpu_visa_ops.h): such an instruction writes the whole
 * 64-bit row of every lane that runs it.  A guarded one may not.
 *
 * The argument is per thread, so it fails where a lane reads another
 * lane's registers (shfl, the warp-wide operations, mma fragments,
 * asynchronous copies, clusters: a lane that exited early never wrote
 * the row another lane reads).  A function with any instruction of
 * those classes, or of a class this file does not know, zeroes every
 * row as before; so does one too large to analyse cheaply.
 */
#include <errno.h>
#include <stdlib.h>

#include "core_internal.h"

/* Analyses larger than this (IN sets, bytes) zero every row instead. */
#define REG_INIT_MAX_BYTES	(16u << 20)
/* Passes over the function before the dataflow gives up (never seen:
 * reducible graphs settle in loop depth + 2). */
#define REG_INIT_MAX_PASSES	64

/* The interpreter class of each opcode: the class column of the table. */
static const char *const op_class[VISA_OP_COUNT] = {
#define VISA_OP(op, name, cls, ...) [VISA_OP_##op] = #cls,
#include "vgpu_visa_ops.h"
#undef VISA_OP
};

/*
 * Classes whose instructions read and write only the registers of the
 * lanes that run them.  A new class is not here until someone checks
 * that it is so.
 */
static bool class_per_lane(const char *cls)
{
	static const char *const per_lane[] = {
		"nop", "membar", "sreg", "branch", "call", "ret", "exit",
		"trap", "brkpt", "yield", "int", "float", "typed", "typed2",
		"mem", "barrier", "printf", "assert", "heap",
	};

	for (size_t i = 0; i < sizeof(per_lane) / sizeof(*per_lane); i++)
		if (cls && !strcmp(cls, per_lane[i]))
			return true;
	return false;
}

static inline void set_bit(uint64_t *s, uint32_t r)
{
	s[r / 64] |= 1ull << (r % 64);
}

static inline bool test_bit(const uint64_t *s, uint32_t r)
{
	return (s[r / 64] >> (r % 64)) & 1;
}

/*
 * The register rows @in reads (@reads) and writes (@writes) through its
 * slots d, a, b, c, e; literals and predicate operands are no rows.
 */
static void rows_of(const struct dinsn *in, uint64_t *reads,
		    uint64_t *writes)
{
	const struct visa_op_info *oi = visa_op_info(in->op);
	const uint16_t opnd[] = { in->d, in->a, in->b, in->c, in->e };

	/* predicate logic: d, a, b, c name predicates */
	if (in->type == VISA_T_PRED && oi->pred == VISA_PRED_L)
		return;
	for (int s = VISA_SLOT_D; s <= VISA_SLOT_E; s++) {
		unsigned int use = VISA_SLOT_USE(oi->slots, s);

		if (!(use & VISA_USE_USED) || opnd[s] == VISA_OPND_NONE ||
		    (s != VISA_SLOT_D && in->lit[s - 1]))
			continue;
		if (!(use & VISA_USE_WRITTEN))
			set_bit(reads, opnd[s]);
		else if (in->guard == VISA_OPND_NONE)
			set_bit(writes, opnd[s]);
	}
}

/* Turn the set of rows to zero into runs for memset(). */
static int make_runs(struct mfunc *f, const uint64_t *zero)
{
	uint32_t n = 0, r = 0;

	for (int pass = 0; pass < 2; pass++) {
		n = 0;
		for (r = 0; r < f->num_regs;) {
			uint32_t start;

			if (!test_bit(zero, r)) {
				r++;
				continue;
			}
			start = r;
			while (r < f->num_regs && test_bit(zero, r))
				r++;
			if (pass)
				f->zero_runs[n] = (struct zero_run){
					start, r - start };
			n++;
		}
		if (!pass && n) {
			f->zero_runs = calloc(n, sizeof(*f->zero_runs));
			if (!f->zero_runs)
				return -ENOMEM;
		}
	}
	f->nzero_runs = n;
	return 0;
}

/* The dataflow; 0 with f's runs set, or -1 (then every row is zeroed). */
static int analyse(const struct vgpu_module *m, struct mfunc *f)
{
	const struct dinsn *code = m->code + f->code_start;
	uint32_t n = f->code_count, words = (f->num_regs + 63) / 64;
	uint64_t *in_sets, *out, *rd, *wr, *zero;
	bool changed = true;
	int passes = 0, ret = -1;

	if (!n || !words)
		return 0;	/* no rows, or nothing reads them */
	if ((uint64_t)(n + 4) * words * 8 > REG_INIT_MAX_BYTES)
		return -1;
	for (uint32_t pc = 0; pc < n; pc++)
		if (!class_per_lane(code[pc].op < VISA_OP_COUNT ?
				    op_class[code[pc].op] : NULL))
			return -1;
	in_sets = malloc((size_t)n * words * 8);
	out = calloc((size_t)4 * words, 8);
	if (!in_sets || !out)
		goto done;
	rd = out + words;
	wr = rd + words;
	zero = wr + words;
	/* nothing is written at the start; elsewhere, until a path says
	 * otherwise, everything is (the top of the must-lattice) */
	memset(in_sets, 0xff, (size_t)n * words * 8);
	memset(in_sets, 0, (size_t)words * 8);
	while (changed) {
		if (++passes > REG_INIT_MAX_PASSES)
			goto done;
		changed = false;
		for (uint32_t pc = 0; pc < n; pc++) {
			const struct dinsn *in = &code[pc];
			uint32_t succ[2], nsucc = 0;

			memset(rd, 0, (size_t)words * 16);	/* rd, wr */
			rows_of(in, rd, wr);
			for (uint32_t i = 0; i < words; i++)
				out[i] = in_sets[(size_t)pc * words + i] | wr[i];
			if (pc + 1 < n)
				succ[nsucc++] = pc + 1;
			if (in->op == VISA_OP_BRA &&
			    VISA_BRA_TARGET(in->imm) - f->code_start < n)
				succ[nsucc++] = VISA_BRA_TARGET(in->imm) -
						f->code_start;
			for (uint32_t k = 0; k < nsucc; k++) {
				uint64_t *s = in_sets + (size_t)succ[k] * words;

				for (uint32_t i = 0; i < words; i++) {
					uint64_t v = s[i] & out[i];

					changed |= v != s[i];
					s[i] = v;
				}
			}
		}
	}
	memset(zero, 0, (size_t)words * 8);
	for (uint32_t pc = 0; pc < n; pc++) {
		memset(rd, 0, (size_t)words * 16);
		rows_of(&code[pc], rd, wr);
		for (uint32_t i = 0; i < words; i++)
			zero[i] |= rd[i] & ~in_sets[(size_t)pc * words + i];
	}
	ret = make_runs(f, zero);
done:
	free(in_sets);
	free(out);
	return ret;
}

void reg_init_plan(const struct vgpu_module *m, struct mfunc *f)
{
	f->zero_runs = NULL;
	f->nzero_runs = 0;
	f->zero_all = analyse(m, f) != 0;
}

void reg_init_free(struct mfunc *f)
{
	free(f->zero_runs);
	f->zero_runs = NULL;
}

void reg_init_zero(const struct mfunc *f, uint64_t *regs)
{
	if (f->zero_all) {
		memset(regs, 0, (size_t)f->num_regs * WARP_SIZE * 8);
		return;
	}
	for (uint32_t i = 0; i < f->nzero_runs; i++)
		memset(regs + (size_t)f->zero_runs[i].start * WARP_SIZE, 0,
		       (size_t)f->zero_runs[i].count * WARP_SIZE * 8);
}
