/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device runtime's PTX, embedded in libcuda as one NUL-terminated
 * string: cu_devrt_ptx (devrt.h).  It is devrt.ptx followed by the error
 * tables that gen/devrt_errors_gen.c writes at build time (the assembler
 * is told where: -I of the build directory).
 */
	.section .rodata
	.globl	cu_devrt_ptx
	.hidden	cu_devrt_ptx
	.type	cu_devrt_ptx, @object
cu_devrt_ptx:
	.incbin	"umd/cuda/devrt.ptx"
	.incbin	"devrt_errors.ptx"
	.byte	0
	.size	cu_devrt_ptx, . - cu_devrt_ptx
	.section .note.GNU-stack, "", @progbits
