/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptx_test.h - small helpers shared by the compiler's tests: TAP output,
 * files, compiling, and reading fields back out of a vISA image.
 */
#ifndef PTX_TEST_H
#define PTX_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vgpu_visa.h"
#include "ptx/ptx_compiler.h"

/* TAP (kselftest style); the plan is printed by t_done(). */
void t_start(void);
bool t_ok(bool cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void t_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int t_done(void);	/* exit status: 0 when every test passed */

char *t_read_file(const char *path, size_t *len);	/* malloc()ed, NUL-ended */
/* Sorted malloc()ed names of the files in dir ending in suffix. */
unsigned int t_list_dir(const char *dir, const char *suffix, char ***names);
void t_free_list(char **names, unsigned int n);

/* Compile one module (text NUL-terminated); diagnostic formatted in msg. */
int t_compile(const char *name, const char *text, void **img, size_t *size,
	      char *msg, size_t msglen);

/* The fatbinary form of PTX: comments blanked, leading tabs removed. */
char *t_fatbin_form(const char *text);

/* Reading an image. */
const void *t_section(const void *img, enum visa_section_id id,
		      uint32_t *count);
const char *t_str(const void *img, uint32_t off);
const struct visa_kernel *t_kernel(const void *img, const char *name);
const struct visa_func *t_func(const void *img, const char *name);
const struct visa_insn *t_code(const void *img, const struct visa_func *f);
uint64_t t_literal(const void *img, const struct visa_func *f, uint16_t opnd);
/* Index of the first instruction of f with opcode op at or after from. */
int t_find_op(const void *img, const struct visa_func *f, uint16_t op,
	      int from);

/* Structural checks of a whole image; NULL if fine, else what is wrong. */
const char *t_check_image(const void *img, size_t size, char *buf,
			  size_t buflen);

#endif /* PTX_TEST_H */
