/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgpu_printf.h - device printf: the format rules shared by the device
 * side (the core writes records into the FIFO) and the host side (the UMD
 * formats them after a grid has finished).
 *
 * The record and FIFO layouts are in include/vgpu_visa.h.  The UMD links
 * firmware_sim/core/printf_format.c (or libvgpu-core.a) and calls
 * vgpu_printf_drain() on its copy of the FIFO contents.
 */
#ifndef VGPU_PRINTF_H
#define VGPU_PRINTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One piece of a format: literal text or one conversion. */
struct vgpu_printf_piece {
	const char *start;	/* text of the piece in the format */
	size_t len;
	char conv;		/* 0 for literal text; 'd', 's', '%', ... */
	uint8_t arg_size;	/* bytes the argument takes: 0, 4 or 8 */
	bool is_float;		/* argument is a double */
	bool is_string;		/* argument is a char pointer (%s) */
};

/*
 * Split the next piece off *fmt (advancing it).  Returns false at the end
 * of the format.  Conversions the host cannot format (%n, '*' widths) come
 * back as literal text, so a format never makes the formatter read
 * arguments that are not there.
 */
bool vgpu_printf_next(const char **fmt, struct vgpu_printf_piece *p);

/*
 * Format one record (struct visa_printf_record and what follows) into
 * @out (NUL-terminated, truncated to @outsz).  Returns the length of the
 * full output, or -1 if the record is malformed (sizes, offsets).
 */
int vgpu_printf_format(const void *record, size_t len, char *out,
		       size_t outsz);

/*
 * Walk @len bytes of records (the FIFO contents after the header) and
 * call @sink with each formatted line.  Returns the number of records, or
 * -1 at the first malformed one.
 */
typedef void (*vgpu_printf_sink)(void *ctx, const char *text, size_t len);
int vgpu_printf_drain(const void *records, size_t len, vgpu_printf_sink sink,
		      void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* VGPU_PRINTF_H */
