/* SPDX-License-Identifier: GPL-2.0 */
/*
 * 2048 trampolines of 16 bytes each: trampoline i pushes i and jumps to a
 * common body that saves the argument registers (integer and vector),
 * calls trace_tramp_log(i, saved) and jumps to the address it returns
 * with every argument register as the caller left it, so the original
 * entry returns straight to the caller.
 */
	.text
	.globl trace_tramp_base
	.hidden trace_tramp_base
	.balign 16
trace_tramp_base:
	.set i, 0
	.rept 2048
	.balign 16
	pushq $i
	jmp trace_tramp_common
	.set i, i + 1
	.endr

trace_tramp_common:
	/* rsp = idx; entry rsp was 8 mod 16, now 0 mod 16 */
	pushq %rcx
	pushq %rdx
	pushq %rsi
	pushq %rdi
	pushq %r8
	pushq %r9
	pushq %rax		/* 7 pushes: 8 mod 16 */
	subq $136, %rsp		/* 0 mod 16 */
	movdqu %xmm0, 0(%rsp)
	movdqu %xmm1, 16(%rsp)
	movdqu %xmm2, 32(%rsp)
	movdqu %xmm3, 48(%rsp)
	movdqu %xmm4, 64(%rsp)
	movdqu %xmm5, 80(%rsp)
	movdqu %xmm6, 96(%rsp)
	movdqu %xmm7, 112(%rsp)
	movq 192(%rsp), %rdi	/* idx: 136 + 7*8 */
	leaq 160(%rsp), %rsi	/* saved rdi, rsi, rdx, rcx */
	call trace_tramp_log
	movq %rax, %r11
	movdqu 0(%rsp), %xmm0
	movdqu 16(%rsp), %xmm1
	movdqu 32(%rsp), %xmm2
	movdqu 48(%rsp), %xmm3
	movdqu 64(%rsp), %xmm4
	movdqu 80(%rsp), %xmm5
	movdqu 96(%rsp), %xmm6
	movdqu 112(%rsp), %xmm7
	addq $136, %rsp
	popq %rax
	popq %r9
	popq %r8
	popq %rdi
	popq %rsi
	popq %rdx
	popq %rcx
	addq $8, %rsp
	jmp *%r11
	.section .note.GNU-stack,"",@progbits
