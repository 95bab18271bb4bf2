// SPDX-License-Identifier: GPL-2.0
/*
 * printf_format.c - parsing printf formats and formatting device printf
 * records on the host.
 *
 * Arguments are laid out as nvcc lays out vprintf's argument buffer: after
 * the default promotions (char/short -> int, float -> double), each
 * argument aligned to its own size.  Integer conversions with an l, ll, j,
 * z or t length take 8 bytes, other integers 4; floating conversions,
 * %s and %p take 8.
 */
#include <stdio.h>
#include <string.h>

#include "vgpu_printf.h"
#include "vgpu_visa.h"

bool vgpu_printf_next(const char **fmt, struct vgpu_printf_piece *p)
{
	const char *s = *fmt;
	bool wide = false;

	memset(p, 0, sizeof(*p));
	if (!*s)
		return false;
	p->start = s;
	if (*s != '%') {
		while (*s && *s != '%')
			s++;
		goto literal;
	}
	s++;
	if (*s == '%') {
		p->conv = '%';
		s++;
		goto done;
	}
	while (*s && strchr("-+ #0'", *s))
		s++;
	while (*s >= '0' && *s <= '9')
		s++;
	if (*s == '.') {
		s++;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	while (*s && strchr("hljztL", *s)) {
		if (strchr("ljzt", *s))
			wide = true;
		s++;
	}
	if (!*s || !strchr("diouxXcsfFeEgGaAp", *s)) {
		/* unknown or unsupported (%n, '*'): print it as text */
		if (*s)
			s++;
		goto literal;
	}
	p->conv = *s++;
	if (strchr("fFeEgGaA", p->conv)) {
		p->is_float = true;
		p->arg_size = 8;
	} else if (p->conv == 's' || p->conv == 'p') {
		p->is_string = p->conv == 's';
		p->arg_size = 8;
	} else {
		p->arg_size = wide ? 8 : 4;
	}
done:
	p->len = (size_t)(s - p->start);
	*fmt = s;
	return true;
literal:
	p->conv = 0;
	p->len = (size_t)(s - p->start);
	*fmt = s;
	return true;
}

/* Append to out with truncation, tracking the untruncated length. */
struct outbuf {
	char *buf;
	size_t size;
	size_t len;
};

static void put(struct outbuf *o, const char *s, size_t n)
{
	if (o->len < o->size) {
		size_t room = o->size - o->len;
		size_t k = n < room ? n : room;

		memcpy(o->buf + o->len, s, k);
	}
	o->len += n;
}

/* Format one conversion with the C library, normalising the length. */
static void put_conv(struct outbuf *o, const struct vgpu_printf_piece *p,
		     const uint8_t *arg, const char *str)
{
	char spec[64], tmp[512];
	size_t n = 0;
	int k = 0;

	/* copy flags/width/precision, drop the length modifiers */
	for (size_t i = 0; i + 1 < p->len && n < sizeof(spec) - 4; i++)
		if (!strchr("hljztL", p->start[i]))
			spec[n++] = p->start[i];
	if (p->is_float) {
		double d;

		memcpy(&d, arg, 8);
		spec[n++] = p->conv;
		spec[n] = 0;
		k = snprintf(tmp, sizeof(tmp), spec, d);
	} else if (p->conv == 's') {
		spec[n++] = 's';
		spec[n] = 0;
		k = snprintf(tmp, sizeof(tmp), spec, str ? str : "(null)");
	} else if (p->conv == 'p') {
		uint64_t v;

		memcpy(&v, arg, 8);
		spec[n++] = 'p';
		spec[n] = 0;
		k = snprintf(tmp, sizeof(tmp), spec, (void *)(uintptr_t)v);
	} else if (p->arg_size == 8) {
		long long v;

		memcpy(&v, arg, 8);
		spec[n++] = 'l';
		spec[n++] = 'l';
		spec[n++] = p->conv;
		spec[n] = 0;
		k = snprintf(tmp, sizeof(tmp), spec, v);
	} else {
		int v;

		memcpy(&v, arg, 4);
		spec[n++] = p->conv;
		spec[n] = 0;
		k = snprintf(tmp, sizeof(tmp), spec, v);
	}
	if (k > 0)
		put(o, tmp, (size_t)k < sizeof(tmp) ? (size_t)k : sizeof(tmp) - 1);
}

int vgpu_printf_format(const void *record, size_t len, char *out,
		       size_t outsz)
{
	const uint8_t *r = record;
	struct visa_printf_record h;
	struct outbuf o = { out, outsz ? outsz - 1 : 0, 0 };
	const char *fmt;
	const uint8_t *args;
	size_t fmt_space, off = 0;
	struct vgpu_printf_piece p;

	if (len < sizeof(h))
		return -1;
	memcpy(&h, r, sizeof(h));
	fmt_space = ((size_t)h.format_len + 7) & ~(size_t)7;
	if (h.size > len || h.size < sizeof(h) || !h.format_len ||
	    fmt_space > h.size - sizeof(h) ||
	    h.args_size > h.size - sizeof(h) - fmt_space)
		return -1;
	fmt = (const char *)r + sizeof(h);
	if (memchr(fmt, 0, h.format_len) != fmt + h.format_len - 1)
		return -1;
	args = r + sizeof(h) + fmt_space;

	while (vgpu_printf_next(&fmt, &p)) {
		const char *str = NULL;

		if (!p.conv) {
			put(&o, p.start, p.len);
			continue;
		}
		if (p.conv == '%') {
			put(&o, "%", 1);
			continue;
		}
		off = (off + p.arg_size - 1) & ~(size_t)(p.arg_size - 1);
		if (off + p.arg_size > h.args_size)
			break;		/* fewer arguments than conversions */
		if (p.is_string) {
			uint64_t so;

			memcpy(&so, args + off, 8);
			/* offset from the record start; 0 means NULL */
			if (so) {
				if (so >= h.size ||
				    !memchr(r + so, 0, h.size - so))
					return -1;
				str = (const char *)r + so;
			}
		}
		put_conv(&o, &p, args + off, str);
		off += p.arg_size;
	}
	if (outsz)
		out[o.len < o.size ? o.len : o.size] = 0;
	return (int)o.len;
}

int vgpu_printf_drain(const void *records, size_t len, vgpu_printf_sink sink,
		      void *ctx)
{
	const uint8_t *p = records;
	size_t off = 0;
	int n = 0;
	char line[4096];

	while (off + sizeof(struct visa_printf_record) <= len) {
		struct visa_printf_record h;
		int k;

		memcpy(&h, p + off, sizeof(h));
		if (h.size % 8 || h.size > len - off)
			return -1;
		k = vgpu_printf_format(p + off, h.size, line, sizeof(line));
		if (k < 0)
			return -1;
		sink(ctx, line, (size_t)k < sizeof(line) ? (size_t)k :
			    sizeof(line) - 1);
		off += h.size;
		n++;
	}
	return n;
}
