/* SPDX-License-Identifier: GPL-2.0 */
/*
 * visa_disasm.h - disassembling vISA instructions (used by vgpu-objdump;
 * other tools may link visa_disasm.c to print instructions in faults).
 */
#ifndef VGPU_VISA_DISASM_H
#define VGPU_VISA_DISASM_H

#include <stddef.h>
#include <stdint.h>

#include "vgpu_visa.h"

/* The mnemonic of an opcode ("?" if unknown). */
const char *visa_op_name(unsigned int op);

/*
 * Print @in into @buf.  @lits/@nlits: the literal pool of the instruction's
 * function (NULL: literals print as litN).  Returns the length written.
 */
int visa_disasm(const struct visa_insn *in, const uint64_t *lits,
		uint32_t nlits, char *buf, size_t size);

#endif /* VGPU_VISA_DISASM_H */
