/* SPDX-License-Identifier: GPL-2.0 */
/*
 * visa_builder.h - assembling vISA images by hand in C, for tests.
 *
 *   struct vb *b = vb_new();
 *   vb_func(b, "k", VISA_FUNC_KERNEL);
 *   struct visa_insn *i = vb_op(b, VISA_OP_ADD, VISA_T_U32);
 *   i->d = 0; i->a = 1; i->b = vb_lit(b, 5);
 *   ...
 *   vb_end_func(b, nregs, npreds, frame_size);
 *   vb_kernel(b, "k", func, param_size, shared_size);
 *   void *img = vb_finish(b, &size);
 */
#ifndef VGPU_TESTS_VISA_BUILDER_H
#define VGPU_TESTS_VISA_BUILDER_H

#include <stddef.h>
#include <stdint.h>

#include "vgpu_visa.h"

struct vb;

struct vb *vb_new(void);
void vb_free(struct vb *b);

/* Start a function; returns its index.  Instructions follow. */
uint32_t vb_func(struct vb *b, const char *name, uint32_t flags);
/* Finish the current function. */
void vb_end_func(struct vb *b, uint16_t nregs, uint16_t npreds,
		 uint32_t frame_size);

/* Append an instruction with every operand NONE; returns it to fill in. */
struct visa_insn *vb_op(struct vb *b, uint16_t op, uint8_t type);
/* Index the next instruction will get. */
uint32_t vb_pc(const struct vb *b);
/* Instruction at @pc (to patch branch targets). */
struct visa_insn *vb_at(struct vb *b, uint32_t pc);
/* A literal operand of the current function. */
uint16_t vb_lit(struct vb *b, uint64_t value);
/* A string in STRTAB. */
uint32_t vb_str(struct vb *b, const char *s);

/* Declare a kernel over function @func. */
struct visa_kernel *vb_kernel(struct vb *b, const char *name, uint32_t func,
			      uint32_t param_size, uint32_t shared_size);
/* Module data: returns the offset of @len bytes in the segment. */
uint64_t vb_global(struct vb *b, const void *init, size_t len, size_t align);
uint64_t vb_const(struct vb *b, const void *init, size_t len, size_t align);
void vb_line(struct vb *b, uint32_t insn, const char *file, uint32_t line);

/* The image (malloc'ed, 8-aligned); vb stays usable for vb_free. */
void *vb_finish(struct vb *b, size_t *size);

/* Convenience emitters. */
struct visa_insn *vb_sreg(struct vb *b, uint16_t d, uint32_t sreg);
struct visa_insn *vb_ld_param(struct vb *b, uint8_t type, uint16_t d,
			      uint32_t offset);
/* d = a OP b. */
struct visa_insn *vb_op3(struct vb *b, uint16_t op, uint8_t type, uint16_t d,
			 uint16_t a, uint16_t bb);
/* d = ctaid.x * ntid.x + tid.x (uses d .. d+2). */
void vb_global_tid(struct vb *b, uint16_t d);
/* d = &p[idx] for the u32 pointer parameter p at @param_off (d, d+1). */
void vb_param_elem(struct vb *b, uint16_t d, uint32_t param_off, uint16_t idx);
/* d = [addr + off] and [addr + off] = v in state space @space. */
struct visa_insn *vb_ld(struct vb *b, uint8_t space, uint8_t type, uint16_t d,
			uint16_t addr, uint64_t off);
struct visa_insn *vb_st(struct vb *b, uint8_t space, uint8_t type,
			uint16_t addr, uint64_t off, uint16_t v);
struct visa_insn *vb_bra(struct vb *b, uint32_t target, uint32_t reconv);
struct visa_insn *vb_exit(struct vb *b);

#endif /* VGPU_TESTS_VISA_BUILDER_H */
