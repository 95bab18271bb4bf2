// SPDX-License-Identifier: GPL-2.0
/*
 * printf_device.c - the device side of printf and assert.
 *
 * VPRINTF builds one record per lane (format, argument bytes, %s strings
 * copied out of device memory) and appends it to the context's printf FIFO
 * in device memory, reserving space with a compare-and-swap on the FIFO's
 * "used" counter so SMs never overwrite each other.  A record that does
 * not fit is dropped and counted.  ASSERTFAIL writes CUDA's line for each
 * failing lane the same way (for stderr), ends those lanes, and keeps the
 * first as the grid's assert fault.
 */
#include <stdio.h>
#include <stdlib.h>

#include "core_internal.h"
#include "vgpu_printf.h"

#define MAX_FORMAT	4096
#define MAX_ARGS	256	/* bytes of arguments */
#define MAX_STRING	1024

struct rec {
	uint8_t *buf;
	size_t len, cap;
};

static int rec_put(struct rec *r, const void *p, size_t n)
{
	if (r->len + n > r->cap) {
		size_t cap = (r->len + n) * 2;
		uint8_t *b = realloc(r->buf, cap);

		if (!b)
			return -1;
		r->buf = b;
		r->cap = cap;
	}
	memcpy(r->buf + r->len, p, n);
	r->len += n;
	return 0;
}

static int rec_pad8(struct rec *r)
{
	static const uint8_t zero[8];

	return rec_put(r, zero, (8 - r->len % 8) % 8);
}

/* Append the record to the FIFO; -2 (vprintf's "internal error") if full. */
static int fifo_append(struct warp *w, uint32_t pc, int lane, struct rec *r)
{
	uint64_t va = w->blk->g->l->printf_fifo;
	struct visa_printf_fifo *f;
	uint64_t used, size = r->len;

	if (!va)
		return -2;
	f = mem_resolve(w, pc, lane, VISA_SPACE_GLOBAL, va, 8, ACC_WRITE);
	if (!f)
		return -3;
	/* the header is 24 bytes, 8-aligned: it lies within one page */
	if (!mem_resolve(w, pc, lane, VISA_SPACE_GLOBAL, va + 16, 8, ACC_WRITE))
		return -3;
	used = __atomic_load_n(&f->used, __ATOMIC_RELAXED);
	do {
		if (f->magic != VISA_PRINTF_MAGIC || used > f->capacity ||
		    f->capacity - used < size) {
			__atomic_fetch_add(&f->dropped, 1, __ATOMIC_RELAXED);
			return -2;
		}
	} while (!__atomic_compare_exchange_n(&f->used, &used, used + size,
					      true, __ATOMIC_SEQ_CST,
					      __ATOMIC_RELAXED));
	if (mem_write_bytes(w, pc, lane,
			    va + sizeof(struct visa_printf_fifo) + used,
			    r->buf, (uint32_t)size))
		return -3;
	return 0;
}

/* One lane's vprintf.  Returns vprintf's result, or -3 on a fault. */
static int lane_printf(struct warp *w, uint32_t pc, int lane, uint64_t fmt_va,
		       uint64_t args_va, struct rec *r, char *fmt, char *str)
{
	struct visa_printf_record h = { 0 };
	struct vgpu_printf_piece p;
	uint8_t args[MAX_ARGS];
	uint32_t flen, off = 0, nargs = 0;
	const char *s;
	size_t args_at;

	if (!fmt_va)
		return -1;
	if (mem_read_string(w, pc, lane, fmt_va, fmt, MAX_FORMAT, &flen))
		return -3;
	/* the argument block's size follows from the format */
	s = fmt;
	while (vgpu_printf_next(&s, &p)) {
		if (!p.arg_size)
			continue;
		off = (off + p.arg_size - 1) & ~(uint32_t)(p.arg_size - 1);
		if (off + p.arg_size > MAX_ARGS)
			break;
		off += p.arg_size;
		nargs++;
	}
	if (off && mem_read_bytes(w, pc, lane, args_va, args, off))
		return -3;

	r->len = 0;
	h.format_len = flen + 1;
	h.args_size = off;
	h.thread_flat = w->warp_id * WARP_SIZE + (uint32_t)lane;
	if (rec_put(r, &h, sizeof(h)) || rec_put(r, fmt, flen + 1) ||
	    rec_pad8(r))
		return -2;
	args_at = r->len;
	if (rec_put(r, args, off) || rec_pad8(r))
		return -2;
	/* copy each %s string and point its argument slot at the copy */
	s = fmt;
	off = 0;
	while (vgpu_printf_next(&s, &p)) {
		uint64_t sva, rel = 0;

		if (!p.arg_size)
			continue;
		off = (off + p.arg_size - 1) & ~(uint32_t)(p.arg_size - 1);
		if (off + p.arg_size > h.args_size)
			break;
		if (p.is_string) {
			memcpy(&sva, args + off, 8);
			if (sva) {
				uint32_t slen;

				if (mem_read_string(w, pc, lane, sva, str,
						    MAX_STRING, &slen))
					return -3;
				rel = r->len;
				if (rec_put(r, str, slen + 1) || rec_pad8(r))
					return -2;
			}
			memcpy(r->buf + args_at + off, &rel, 8);
		}
		off += p.arg_size;
	}
	h.size = (uint32_t)r->len;
	memcpy(r->buf, &h, sizeof(h));
	return fifo_append(w, pc, lane, r) == -3 ? -3 : (int)nargs;
}

int exec_printf(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	const uint64_t *A = src_row(w, in, 0, in->a);
	const uint64_t *B = src_row(w, in, 1, in->b);
	uint64_t *D = in->d != VISA_OPND_NONE ? reg_row(w, in->d) : NULL;
	uint32_t pc = pc_of(w, in);
	struct rec r = { 0 };
	char *fmt = malloc(MAX_FORMAT), *str = malloc(MAX_STRING);
	int ret = EXEC_OK;

	for (int l = 0; l < WARP_SIZE && fmt && str; l++) {
		int n;

		if (!((mask >> l) & 1))
			continue;
		n = lane_printf(w, pc, l, A[l], B[l], &r, fmt, str);
		if (n == -3) {
			ret = EXEC_FAULT;
			break;
		}
		if (D)
			D[l] = (uint32_t)n;
	}
	if (!fmt || !str) {
		core_record_fault(w->blk->g, w, __builtin_ctz(mask), pc,
				  VISA_FAULT_OUT_OF_RESOURCES, 0,
				  "out of host memory in printf");
		ret = EXEC_FAULT;
	}
	free(r.buf);
	free(fmt);
	free(str);
	return ret;
}

/*
 * A failed assert's line as a record of its own: the text is the format
 * (each '%' doubled, so the host prints it as it is), with no arguments,
 * marked VISA_PRINTF_STDERR.  A full FIFO drops it, as it drops printf.
 */
static int lane_assert_line(struct warp *w, uint32_t pc, int lane,
			    const char *text, struct rec *r)
{
	struct visa_printf_record h = { 0 };
	char fmt[2 * 512 + 2];
	uint32_t n = 0;

	for (const char *p = text; *p && n < sizeof(fmt) - 3; p++) {
		if (*p == '%')
			fmt[n++] = '%';
		fmt[n++] = *p;
	}
	fmt[n++] = '\n';
	fmt[n] = '\0';
	r->len = 0;
	h.format_len = n + 1;
	h.thread_flat = (w->warp_id * WARP_SIZE + (uint32_t)lane) |
			VISA_PRINTF_STDERR;
	if (rec_put(r, &h, sizeof(h)) || rec_put(r, fmt, n + 1) ||
	    rec_pad8(r))
		return -2;
	h.size = (uint32_t)r->len;
	memcpy(r->buf, &h, sizeof(h));
	return fifo_append(w, pc, lane, r);
}

/*
 * __assertfail: each failing lane prints CUDA's line (into the printf
 * FIFO, for the host's stderr) and ends; the first failure of the grid
 * becomes its fault when the grid completes (grid.c).
 */
int exec_assert(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	uint32_t pc = pc_of(w, in);
	const uint64_t *A = src_row(w, in, 0, in->a);
	const uint64_t *B = src_row(w, in, 1, in->b);
	const uint64_t *C = src_row(w, in, 2, in->c);
	const uint64_t *E = src_row(w, in, 3, in->e);
	char msg[128], file[96], func[96], text[512];
	struct rec r = { 0 };
	int ret = EXEC_CONTROL;

	for (int lane = 0; lane < WARP_SIZE; lane++) {
		uint32_t line = (uint32_t)C[lane], tid[3];

		if (!((mask >> lane) & 1))
			continue;
		/* a string that cannot be read is a fault of its own */
		if (mem_read_string(w, pc, lane, A[lane], msg, sizeof(msg),
				    NULL) ||
		    mem_read_string(w, pc, lane, B[lane], file, sizeof(file),
				    NULL) ||
		    mem_read_string(w, pc, lane, E[lane], func, sizeof(func),
				    NULL)) {
			ret = EXEC_FAULT;	/* the read recorded it */
			break;
		}
		warp_thread_idx(w, lane, tid);
		/* Word for word what CUDA prints for a failed device assert. */
		snprintf(text, sizeof(text),
			 "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.",
			 file, line, func, w->blk->idx[0], w->blk->idx[1],
			 w->blk->idx[2], tid[0], tid[1], tid[2], msg);
		if (lane_assert_line(w, pc, lane, text, &r) == -3) {
			ret = EXEC_FAULT;
			break;
		}
		if (core_record_assert(w->blk->g, w, lane, pc, text))
			w->blk->g->assert_fault.assert_line = line;
	}
	free(r.buf);
	if (ret == EXEC_CONTROL)
		warp_exit_lanes(w, mask);
	return ret;
}
