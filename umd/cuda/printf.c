// SPDX-License-Identifier: GPL-2.0
/*
 * printf.c - device printf: formatting the records kernels leave in the
 * context's printf FIFO (struct visa_printf_fifo of include/vgpu_visa.h).
 *
 * As with CUDA, a kernel's printf does not print: the execution core
 * copies the format and the argument bytes into a FIFO, and the host
 * formats them at the next synchronisation point (cuCtxSynchronize,
 * cuStreamSynchronize, cuEventSynchronize...).  The FIFO is pinned host
 * memory mapped in the context, so the host reads it directly.  Records
 * are only read while no work of the context runs: a record being
 * written is never half read.
 */
#include <stdio.h>
#include <string.h>

#include "cuda_internal.h"

#define CU_FIFO_HDR	sizeof(struct visa_printf_fifo)

CUresult cu_printf_init(struct cu_ctx *ctx, size_t size)
{
	void *p;
	CUresult res;

	size = cu_align_up(size, VGPU_SMALL_PAGE_SIZE);
	res = cu_mem_internal_host(ctx, size, &ctx->printf_handle, &p);
	if (res != CUDA_SUCCESS)
		return res;
	ctx->printf_fifo = p;
	ctx->printf_size = size;
	ctx->printf_fifo->magic = VISA_PRINTF_MAGIC;
	ctx->printf_fifo->dropped = 0;
	ctx->printf_fifo->capacity = size - CU_FIFO_HDR;
	ctx->printf_fifo->used = 0;
	return CUDA_SUCCESS;
}

void cu_printf_fini(struct cu_ctx *ctx)
{
	if (!ctx->printf_fifo)
		return;
	cu_mem_internal_free(ctx, ctx->printf_handle, ctx->printf_fifo,
			     ctx->printf_size);
	ctx->printf_fifo = NULL;
}

/* Read an argument of @size bytes at @off (aligned to its size). */
static bool cu_arg(const uint8_t *args, size_t args_size, size_t *off,
		   size_t size, uint64_t *out)
{
	size_t o = cu_align_up(*off, size);

	if (o > args_size || args_size - o < size)
		return false;
	*out = 0;
	memcpy(out, args + o, size);
	*off = o + size;
	return true;
}

/*
 * Print one record.  Each conversion of the format is printed with the
 * host's printf from a copy of just that conversion, with the argument
 * read at the size the C varargs promotion gives it: 4 bytes for int
 * and smaller, 8 for long, long long, pointers, doubles (a float is
 * passed as double) and %s (an offset to the copied string).
 */
static void cu_printf_record(const uint8_t *rec, uint32_t size, FILE *out)
{
	const struct visa_printf_record *h = (const void *)rec;
	const char *fmt = (const char *)(rec + sizeof(*h));
	const uint8_t *args;
	size_t off = 0, fmt_room;
	const char *p;

	if (h->format_len == 0 || h->format_len > size - sizeof(*h))
		return;
	fmt_room = cu_align_up(h->format_len, 8);
	if (fmt[h->format_len - 1] || sizeof(*h) + fmt_room > size ||
	    h->args_size > size - sizeof(*h) - fmt_room)
		return;
	args = rec + sizeof(*h) + fmt_room;
	for (p = fmt; *p; ) {
		char spec[64];
		size_t n = 0;
		int longs = 0;
		uint64_t v, star;
		char conv;

		if (*p != '%') {
			fputc(*p++, out);
			continue;
		}
		if (p[1] == '%') {
			fputc('%', out);
			p += 2;
			continue;
		}
		spec[n++] = *p++;
		/* flags, width, precision; '*' takes an int argument */
		while (*p && strchr("-+ #0123456789.*", *p) && n < 40) {
			if (*p == '*') {
				if (!cu_arg(args, h->args_size, &off, 4, &star))
					return;
				n += (size_t)snprintf(spec + n, sizeof(spec) - n,
						      "%d", (int)(uint32_t)star);
				p++;
				continue;
			}
			spec[n++] = *p++;
		}
		while (*p && strchr("hlLqjzt", *p)) {
			if (*p == 'l' || *p == 'q' || *p == 'j' || *p == 'z' ||
			    *p == 't' || *p == 'L')
				longs++;
			p++;
		}
		conv = *p;
		if (!conv)
			return;
		p++;
		if (n > sizeof(spec) - 4)
			return;
		switch (conv) {
		case 'd': case 'i': case 'u': case 'x': case 'X': case 'o':
		case 'c':
			if (!cu_arg(args, h->args_size, &off, longs ? 8 : 4, &v))
				return;
			if (longs) {
				spec[n++] = 'l';
				spec[n++] = 'l';
				spec[n++] = conv;
				spec[n] = '\0';
				fprintf(out, spec, (unsigned long long)v);
			} else {
				spec[n++] = conv;
				spec[n] = '\0';
				fprintf(out, spec, (unsigned int)v);
			}
			break;
		case 'f': case 'F': case 'e': case 'E': case 'g': case 'G':
		case 'a': case 'A': {
			double d;

			if (!cu_arg(args, h->args_size, &off, 8, &v))
				return;
			memcpy(&d, &v, sizeof(d));
			spec[n++] = conv;
			spec[n] = '\0';
			fprintf(out, spec, d);
			break;
		}
		case 'p':
			if (!cu_arg(args, h->args_size, &off, 8, &v))
				return;
			spec[n++] = 'p';
			spec[n] = '\0';
			fprintf(out, spec, (void *)(uintptr_t)v);
			break;
		case 's':
			if (!cu_arg(args, h->args_size, &off, 8, &v))
				return;
			spec[n++] = 's';
			spec[n] = '\0';
			/* The string lies in the record, NUL-terminated. */
			if (v >= size || !memchr(rec + v, 0, size - v))
				fputs("(null)", out);
			else
				fprintf(out, spec, (const char *)(rec + v));
			break;
		default:
			/* Not a conversion printf knows: print it as is. */
			spec[n++] = conv;
			spec[n] = '\0';
			fputs(spec, out);
			break;
		}
	}
}

/* True when nothing submitted in the context is still running. */
static bool cu_ctx_idle(struct cu_ctx *ctx)
{
	unsigned int i;
	bool idle = true;

	pthread_mutex_lock(&ctx->lock);
	for (i = 0; i < ctx->num_queues && idle; i++) {
		struct cu_queue *q = &ctx->queues[i];

		pthread_mutex_lock(&q->lock);
		idle = vgpu_queue_completed(q->vq) >= q->seq;
		pthread_mutex_unlock(&q->lock);
	}
	pthread_mutex_unlock(&ctx->lock);
	return idle;
}

/*
 * Print the FIFO's records and empty it; printf's lines go to stdout, a
 * failed assert's (VISA_PRINTF_STDERR) to stderr.  Returns how many of
 * the latter there were.  Called with ctx->printf_lock held.
 */
static unsigned int cu_printf_drain(struct visa_printf_fifo *fifo)
{
	const uint8_t *recs = (const uint8_t *)fifo + CU_FIFO_HDR;
	uint64_t used = fifo->used, off;
	unsigned int asserts = 0;

	if (used > fifo->capacity)
		used = fifo->capacity;
	for (off = 0; off + sizeof(struct visa_printf_record) <= used; ) {
		const struct visa_printf_record *r = (const void *)(recs + off);
		bool err = r->thread_flat & VISA_PRINTF_STDERR;

		if (r->size < sizeof(*r) || r->size % 8 || r->size > used - off)
			break;
		if (err)
			fflush(stdout);	/* what was printed before comes first */
		cu_printf_record(recs + off, r->size, err ? stderr : stdout);
		asserts += err;
		off += r->size;
	}
	fflush(stdout);
	fflush(stderr);
	__atomic_store_n(&fifo->used, 0, __ATOMIC_RELEASE);
	return asserts;
}

void cu_printf_flush(struct cu_ctx *ctx)
{
	struct visa_printf_fifo *fifo;

	pthread_mutex_lock(&ctx->printf_lock);
	fifo = ctx->printf_fifo;
	if (fifo && __atomic_load_n(&fifo->used, __ATOMIC_ACQUIRE) &&
	    cu_ctx_idle(ctx))
		cu_printf_drain(fifo);
	pthread_mutex_unlock(&ctx->printf_lock);
}

/*
 * The context was stopped by a fault: none of its work runs any more, so
 * the FIFO is printed without waiting for its queues, which will not
 * complete.  Returns the number of assert lines printed.
 */
unsigned int cu_printf_flush_stopped(struct cu_ctx *ctx)
{
	unsigned int n = 0;

	pthread_mutex_lock(&ctx->printf_lock);
	if (ctx->printf_fifo &&
	    __atomic_load_n(&ctx->printf_fifo->used, __ATOMIC_ACQUIRE))
		n = cu_printf_drain(ctx->printf_fifo);
	pthread_mutex_unlock(&ctx->printf_lock);
	return n;
}
