/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nvrtc_internal.S - __nvrtcCPEx, an export of NVIDIA's libnvrtc.so.13
 * that no header declares (NVIDIA's own tools call it).  Its signature
 * is unknown, so it is passed on as a jump: every argument register
 * (and %rax, the vector count of a variadic call) is kept while the
 * toolkit's address is looked up, then restored, and the jump leaves
 * the stack -- stack arguments and the return address -- untouched.
 * Without NVIDIA's library it returns 0.
 */
	.text
	.globl	__nvrtcCPEx
	.type	__nvrtcCPEx, @function
__nvrtcCPEx:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	subq	$192, %rsp		/* 7 GPRs, 8 XMMs; keeps 16-alignment */
	movq	%rdi, 0(%rsp)
	movq	%rsi, 8(%rsp)
	movq	%rdx, 16(%rsp)
	movq	%rcx, 24(%rsp)
	movq	%r8, 32(%rsp)
	movq	%r9, 40(%rsp)
	movq	%rax, 48(%rsp)
	movdqu	%xmm0, 64(%rsp)
	movdqu	%xmm1, 80(%rsp)
	movdqu	%xmm2, 96(%rsp)
	movdqu	%xmm3, 112(%rsp)
	movdqu	%xmm4, 128(%rsp)
	movdqu	%xmm5, 144(%rsp)
	movdqu	%xmm6, 160(%rsp)
	movdqu	%xmm7, 176(%rsp)
	call	vgpu_nvrtc_cpex_target@PLT
	movq	%rax, %r11
	movq	0(%rsp), %rdi
	movq	8(%rsp), %rsi
	movq	16(%rsp), %rdx
	movq	24(%rsp), %rcx
	movq	32(%rsp), %r8
	movq	40(%rsp), %r9
	movq	48(%rsp), %rax
	movdqu	64(%rsp), %xmm0
	movdqu	80(%rsp), %xmm1
	movdqu	96(%rsp), %xmm2
	movdqu	112(%rsp), %xmm3
	movdqu	128(%rsp), %xmm4
	movdqu	144(%rsp), %xmm5
	movdqu	160(%rsp), %xmm6
	movdqu	176(%rsp), %xmm7
	leave
	.cfi_def_cfa %rsp, 8
	testq	%r11, %r11
	jz	1f
	jmp	*%r11
1:	xorl	%eax, %eax
	ret
	.cfi_endproc
	.size	__nvrtcCPEx, .-__nvrtcCPEx

	.section .note.GNU-stack,"",@progbits
