// SPDX-License-Identifier: GPL-2.0
/*
 * lexer.c - PTX text -> tokens.
 *
 * PTX is line-free (statements end with ';'), so the lexer only has to know
 * identifiers, ".words", numbers, strings and punctuation.  Instruction names
 * like "ld.global.v4.f32" come out as an identifier followed by dot-words;
 * the parser puts them together.  Positions are 1-based lines and columns,
 * a tab counting as one column, which is what editors and nvcc report.
 */
#include <ctype.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_internal.h"

void lex_init(struct lexer *lx, struct ptx_ctx *cx, uint32_t src)
{
	const struct vgpu_ptx_source *s = &cx->srcs[src];

	lx->cx = cx;
	lx->p = s->text;
	lx->end = s->text + s->len;
	lx->line_start = lx->p;
	lx->src = src;
	lx->line = 1;
}

static struct ptx_pos lex_pos(const struct lexer *lx)
{
	struct ptx_pos pos = {
		.src = lx->src,
		.line = lx->line,
		.col = (uint32_t)(lx->p - lx->line_start) + 1,
	};
	return pos;
}

static void newline(struct lexer *lx)
{
	lx->line++;
	lx->line_start = lx->p + 1;
}

/* Skip blanks and comments; fail on an unterminated block comment. */
static void skip_space(struct lexer *lx)
{
	while (lx->p < lx->end) {
		char c = *lx->p;

		if (c == '\n') {
			newline(lx);
			lx->p++;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' ||
			   c == '\v') {
			lx->p++;
		} else if (c == '/' && lx->p + 1 < lx->end && lx->p[1] == '/') {
			while (lx->p < lx->end && *lx->p != '\n')
				lx->p++;
		} else if (c == '/' && lx->p + 1 < lx->end && lx->p[1] == '*') {
			struct ptx_pos start = lex_pos(lx);

			lx->p += 2;
			while (lx->p + 1 < lx->end &&
			       !(lx->p[0] == '*' && lx->p[1] == '/')) {
				if (*lx->p == '\n')
					newline(lx);
				lx->p++;
			}
			if (lx->p + 1 >= lx->end)
				ptx_fail(lx->cx, VGPU_PTX_ERR_SYNTAX, &start,
					 "unterminated comment");
			lx->p += 2;
		} else {
			break;
		}
	}
}

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '$';
}

static int hex_val(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* 0fXXXXXXXX and 0dXXXXXXXXXXXXXXXX: exact bit patterns of f32 / f64. */
static void lex_hex_float(struct lexer *lx, struct token *t, bool single)
{
	unsigned int digits = single ? 8 : 16, i;
	uint64_t v = 0;

	lx->p += 2;
	for (i = 0; i < digits; i++) {
		int h = lx->p < lx->end ? hex_val(*lx->p) : -1;

		if (h < 0)
			ptx_fail(lx->cx, VGPU_PTX_ERR_SYNTAX, &t->pos,
				 "%s floating-point literal needs %u hex digits",
				 single ? "0f" : "0d", digits);
		v = v << 4 | (unsigned int)h;
		lx->p++;
	}
	t->kind = TK_FLOAT;
	t->is_f32 = single;
	t->ival = v;
}

static void lex_decimal_float(struct lexer *lx, struct token *t,
			      const char *start)
{
	char buf[64], *endp;
	locale_t c_locale;
	size_t n;
	double d;

	while (lx->p < lx->end && (isdigit((unsigned char)*lx->p) ||
				   *lx->p == '.' || *lx->p == 'e' ||
				   *lx->p == 'E' ||
				   ((*lx->p == '+' || *lx->p == '-') &&
				    (lx->p[-1] == 'e' || lx->p[-1] == 'E'))))
		lx->p++;
	n = (size_t)(lx->p - start);
	if (n >= sizeof(buf))
		ptx_fail(lx->cx, VGPU_PTX_ERR_SYNTAX, &t->pos,
			 "floating-point literal too long");
	memcpy(buf, start, n);
	buf[n] = '\0';
	/* The host program may have set a locale with ',' as decimal point. */
	c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	if (!c_locale)
		ptx_fail(lx->cx, VGPU_PTX_ERR_NOMEM, &t->pos, "out of memory");
	d = strtod_l(buf, &endp, c_locale);
	freelocale(c_locale);
	if (*endp)
		ptx_fail(lx->cx, VGPU_PTX_ERR_SYNTAX, &t->pos,
			 "malformed floating-point literal '%s'", buf);
	t->kind = TK_FLOAT;
	memcpy(&t->ival, &d, sizeof(d));
}

static void lex_number(struct lexer *lx, struct token *t)
{
	const char *start = lx->p;
	unsigned int base = 10;
	uint64_t v = 0;
	bool overflow = false, any = false;
	char c1 = lx->p + 1 < lx->end ? lx->p[1] : '\0';

	if (*lx->p == '0' && (c1 == 'f' || c1 == 'F'))
		return lex_hex_float(lx, t, true);
	if (*lx->p == '0' && (c1 == 'd' || c1 == 'D'))
		return lex_hex_float(lx, t, false);
	if (*lx->p == '0' && (c1 == 'x' || c1 == 'X')) {
		base = 16;
		lx->p += 2;
	} else if (*lx->p == '0' && (c1 == 'b' || c1 == 'B')) {
		base = 2;
		lx->p += 2;
	} else if (*lx->p == '0' && isdigit((unsigned char)c1)) {
		base = 8;
		lx->p++;
	} else {
		const char *q = lx->p;

		while (q < lx->end && isdigit((unsigned char)*q))
			q++;
		if (q < lx->end && (*q == '.' || *q == 'e' || *q == 'E'))
			return lex_decimal_float(lx, t, start);
	}
	for (; lx->p < lx->end; lx->p++) {
		int d = hex_val(*lx->p);

		if (d < 0 || (unsigned int)d >= base)
			break;
		if (v > (UINT64_MAX - (unsigned int)d) / base)
			overflow = true;
		v = v * base + (unsigned int)d;
		any = true;
	}
	if (base == 8)
		any = true;
	if (!any)
		ptx_fail(lx->cx, VGPU_PTX_ERR_SYNTAX, &t->pos,
			 "malformed integer literal");
	if (overflow)
		ptx_fail(lx->cx, VGPU_PTX_ERR_SYNTAX, &t->pos,
			 "integer literal does not fit in 64 bits");
	if (lx->p < lx->end && (*lx->p == 'U' || *lx->p == 'u'))
		lx->p++;
	if (lx->p < lx->end && ident_char(*lx->p))
		ptx_fail(lx->cx, VGPU_PTX_ERR_SYNTAX, &t->pos,
			 "malformed number: unexpected '%c'", *lx->p);
	t->kind = TK_INT;
	t->ival = v;
}

void lex_next(struct lexer *lx, struct token *t)
{
	const char *start;
	char c;

	skip_space(lx);
	memset(t, 0, sizeof(*t));
	t->pos = lex_pos(lx);
	if (lx->p >= lx->end || *lx->p == '\0') {
		t->kind = TK_EOF;
		t->text = "end of file";
		return;
	}
	start = lx->p;
	c = *lx->p;
	if (isalpha((unsigned char)c) || c == '_' || c == '$' || c == '%') {
		lx->p++;
		while (lx->p < lx->end && ident_char(*lx->p))
			lx->p++;
		if (c == '%' && lx->p - start == 1)
			ptx_fail(lx->cx, VGPU_PTX_ERR_SYNTAX, &t->pos,
				 "'%%' must be followed by a register name");
		t->kind = TK_IDENT;
	} else if (c == '.' && lx->p + 1 < lx->end && ident_char(lx->p[1])) {
		lx->p++;
		start = lx->p;
		for (;;) {
			while (lx->p < lx->end && ident_char(*lx->p))
				lx->p++;
			/* cache qualifiers: .L1::no_allocate, .L2::128B */
			if (lx->p + 2 < lx->end && lx->p[0] == ':' &&
			    lx->p[1] == ':' && ident_char(lx->p[2]))
				lx->p += 2;
			else
				break;
		}
		t->kind = TK_DOTWORD;
	} else if (isdigit((unsigned char)c)) {
		lex_number(lx, t);
		t->len = (uint32_t)(lx->p - start);
		t->text = ptx_strndup(lx->cx, start, t->len);
		return;
	} else if (c == '"') {
		lx->p++;
		start = lx->p;
		while (lx->p < lx->end && *lx->p != '"' && *lx->p != '\n')
			lx->p++;
		if (lx->p >= lx->end || *lx->p != '"')
			ptx_fail(lx->cx, VGPU_PTX_ERR_SYNTAX, &t->pos,
				 "unterminated string");
		t->kind = TK_STRING;
		t->len = (uint32_t)(lx->p - start);
		t->text = ptx_strndup(lx->cx, start, t->len);
		lx->p++;
		return;
	} else if (strchr(",;:{}[]()<>+-!|@=", c)) {
		lx->p++;
		t->kind = TK_PUNCT;
		t->punct = c;
		t->len = 1;
		t->text = ptx_strndup(lx->cx, start, 1);
		return;
	} else {
		if (isprint((unsigned char)c))
			ptx_fail(lx->cx, VGPU_PTX_ERR_SYNTAX, &t->pos,
				 "unexpected character '%c'", c);
		ptx_fail(lx->cx, VGPU_PTX_ERR_SYNTAX, &t->pos,
			 "unexpected byte 0x%02x", (unsigned char)c);
	}
	t->len = (uint32_t)(lx->p - start);
	t->text = ptx_strndup(lx->cx, start, t->len);
}
