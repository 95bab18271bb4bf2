/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device runtime's PTX (devrt.ptx), embedded in libcuda as one
 * NUL-terminated string: cu_devrt_ptx (devrt.h).
 */
	.section .rodata
	.globl	cu_devrt_ptx
	.hidden	cu_devrt_ptx
	.type	cu_devrt_ptx, @object
cu_devrt_ptx:
	.incbin	"umd/cuda/devrt.ptx"
	.byte	0
	.size	cu_devrt_ptx, . - cu_devrt_ptx
	.section .note.GNU-stack, "", @progbits
