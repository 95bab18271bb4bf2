// SPDX-License-Identifier: GPL-2.0
/*
 * ptx_test.c - helpers for the compiler's tests (see ptx_test.h).
 */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_test.h"

static unsigned int t_count, t_failed;

void t_start(void)
{
	printf("TAP version 13\n");
	fflush(stdout);
}

bool t_ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	t_count++;
	if (!cond)
		t_failed++;
	printf("%s %u ", cond ? "ok" : "not ok", t_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return cond;
}

void t_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

int t_done(void)
{
	printf("1..%u\n", t_count);
	printf("# Totals: pass:%u fail:%u xfail:0 xpass:0 skip:0 error:0\n",
	       t_count - t_failed, t_failed);
	return t_failed || !t_count ? 1 : 0;
}

char *t_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return NULL;
	}
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (buf) {
		buf[n] = '\0';
		if (len)
			*len = (size_t)n;
	}
	return buf;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

unsigned int t_list_dir(const char *dir, const char *suffix, char ***names)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL;
	unsigned int n = 0;
	size_t sl = strlen(suffix);

	*names = NULL;
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		char **nv;

		if (l <= sl || strcmp(e->d_name + l - sl, suffix))
			continue;
		nv = realloc(v, (n + 1) * sizeof(*v));
		if (!nv)
			break;
		v = nv;
		v[n] = malloc(strlen(dir) + l + 2);
		if (!v[n])
			break;
		sprintf(v[n++], "%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), cmp_names);
	*names = v;
	return n;
}

void t_free_list(char **names, unsigned int n)
{
	while (n)
		free(names[--n]);
	free(names);
}

int t_compile(const char *name, const char *text, void **img, size_t *size,
	      char *msg, size_t msglen)
{
	struct vgpu_ptx_source s = { name, text, strlen(text) };
	struct vgpu_ptx_diag d;
	int err = vgpu_ptx_compile(&s, 1, NULL, img, size, &d);

	if (msg && msglen) {
		msg[0] = '\0';
		if (err)
			vgpu_ptx_format_diag(&d, msg, msglen);
	}
	return err;
}

char *t_fatbin_form(const char *text)
{
	size_t n = strlen(text), o = 0, i = 0;
	char *out = malloc(n + 1);
	bool line_start = true;

	if (!out)
		return NULL;
	while (i < n) {
		if (text[i] == '/' && text[i + 1] == '/') {
			while (i < n && text[i] != '\n')
				i++;
			continue;
		}
		if (text[i] == '/' && text[i + 1] == '*') {
			for (i += 2; i < n && !(text[i] == '*' && text[i + 1] == '/'); i++)
				if (text[i] == '\n')
					out[o++] = '\n';
			i += 2;
			continue;
		}
		if (line_start && text[i] == '\t') {
			i++;
			continue;
		}
		line_start = text[i] == '\n';
		out[o++] = text[i++];
	}
	out[o] = '\0';
	return out;
}

const void *t_section(const void *img, enum visa_section_id id,
		      uint32_t *count)
{
	const struct visa_image_header *h = img;
	const struct visa_section *s = &h->sections[id];

	if (count)
		*count = s->entsize ? s->size / s->entsize : 0;
	return (const uint8_t *)img + s->offset;
}

const char *t_str(const void *img, uint32_t off)
{
	return (const char *)t_section(img, VISA_SEC_STRTAB, NULL) + off;
}

const struct visa_kernel *t_kernel(const void *img, const char *name)
{
	uint32_t n, i;
	const struct visa_kernel *k = t_section(img, VISA_SEC_KERNELS, &n);

	for (i = 0; i < n; i++)
		if (!strcmp(t_str(img, k[i].name), name))
			return &k[i];
	return NULL;
}

const struct visa_func *t_func(const void *img, const char *name)
{
	uint32_t n, i;
	const struct visa_func *f = t_section(img, VISA_SEC_FUNCS, &n);

	for (i = 0; i < n; i++)
		if (!strcmp(t_str(img, f[i].name), name))
			return &f[i];
	return NULL;
}

const struct visa_insn *t_code(const void *img, const struct visa_func *f)
{
	const struct visa_insn *c = t_section(img, VISA_SEC_CODE, NULL);

	return c + f->code_start;
}

uint64_t t_literal(const void *img, const struct visa_func *f, uint16_t opnd)
{
	const uint64_t *lit = t_section(img, VISA_SEC_LITERALS, NULL);

	return lit[f->lit_start + (opnd & ~VISA_OPND_LIT)];
}

int t_find_op(const void *img, const struct visa_func *f, uint16_t op,
	      int from)
{
	const struct visa_insn *c = t_code(img, f);
	uint32_t i;

	for (i = (uint32_t)from; i < f->code_count; i++)
		if (c[i].op == op)
			return (int)i;
	return -1;
}

/* ---- structural check -------------------------------------------------- */

#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		snprintf(buf, buflen, __VA_ARGS__);			\
		return buf;						\
	}								\
} while (0)

static bool opnd_ok(const struct visa_func *f, uint16_t o, bool dst)
{
	if (o == VISA_OPND_NONE)
		return true;
	if (o & VISA_OPND_LIT)
		return !dst && (uint32_t)(o & ~VISA_OPND_LIT) < f->lit_count;
	return o < f->num_regs;
}

static bool pred_ok(const struct visa_func *f, uint16_t p)
{
	return p == VISA_OPND_NONE || p < f->num_preds;
}

static bool uses_preds(const struct visa_insn *in)
{
	return in->type == VISA_T_PRED &&
	       (in->op == VISA_OP_MOV || in->op == VISA_OP_AND ||
		in->op == VISA_OP_OR || in->op == VISA_OP_XOR ||
		in->op == VISA_OP_NOT);
}

const char *t_check_image(const void *img, size_t size, char *buf,
			  size_t buflen)
{
	const struct visa_image_header *h = img;
	const struct visa_func *fn;
	const struct visa_kernel *k;
	const struct visa_insn *code;
	uint32_t nf, nk, nc, nl, i, pc, s;

	CHECK(size >= sizeof(*h) && h->magic == VISA_MAGIC &&
	      h->version_major == VISA_VERSION_MAJOR &&
	      h->image_size == size, "bad header");
	for (s = 0; s < VISA_SEC_COUNT; s++) {
		const struct visa_section *sec = &h->sections[s];

		CHECK((uint64_t)sec->offset + sec->size <= size &&
		      sec->offset % 8 == 0 &&
		      (!sec->size || (sec->entsize && sec->size % sec->entsize == 0)),
		      "section %u out of bounds", s);
	}
	fn = t_section(img, VISA_SEC_FUNCS, &nf);
	k = t_section(img, VISA_SEC_KERNELS, &nk);
	code = t_section(img, VISA_SEC_CODE, &nc);
	t_section(img, VISA_SEC_LITERALS, &nl);
	for (i = 0; i < nf; i++) {
		const struct visa_func *f = &fn[i];
		const struct visa_insn *last;

		CHECK(f->code_count && (uint64_t)f->code_start + f->code_count <= nc,
		      "function %u code out of range", i);
		CHECK((uint64_t)f->lit_start + f->lit_count <= nl,
		      "function %u literals out of range", i);
		CHECK(f->frame_size % 16 == 0, "function %u frame not 16-aligned", i);
		last = &code[f->code_start + f->code_count - 1];
		CHECK(last->guard == VISA_OPND_NONE &&
		      (last->op == VISA_OP_RET || last->op == VISA_OP_EXIT ||
		       last->op == VISA_OP_BRA || last->op == VISA_OP_TRAP),
		      "function %u does not end with a terminator", i);
		for (pc = f->code_start; pc < f->code_start + f->code_count; pc++) {
			const struct visa_insn *in = &code[pc];
			bool p = uses_preds(in);

			CHECK(in->op < VISA_OP_COUNT && in->type < VISA_T_COUNT,
			      "insn %u: bad opcode or type", pc);
			if (in->guard != VISA_OPND_NONE)
				CHECK(VISA_GUARD_INDEX(in->guard) < f->num_preds,
				      "insn %u: bad guard", pc);
			CHECK(pred_ok(f, in->pd) && pred_ok(f, in->pa),
			      "insn %u: bad predicate operand", pc);
			if (p) {
				CHECK(pred_ok(f, in->d) && pred_ok(f, in->a) &&
				      pred_ok(f, in->b), "insn %u: bad predicate", pc);
				continue;
			}
			CHECK(opnd_ok(f, in->d, in->op != VISA_OP_ST) &&
			      opnd_ok(f, in->a, false) && opnd_ok(f, in->b, false) &&
			      opnd_ok(f, in->c, false) && opnd_ok(f, in->e, false),
			      "insn %u (op %u): bad register operand", pc, in->op);
			if (in->op == VISA_OP_BRA) {
				uint32_t t = VISA_BRA_TARGET(in->imm);
				uint32_t r = VISA_BRA_RECONV(in->imm);

				CHECK(t >= f->code_start && t < f->code_start + f->code_count,
				      "insn %u: branch target %u outside its function", pc, t);
				CHECK(r == VISA_RECONV_EXIT ||
				      (r >= f->code_start && r < f->code_start + f->code_count),
				      "insn %u: reconvergence point %u outside its function",
				      pc, r);
			}
			if (in->op == VISA_OP_CALL)
				CHECK(in->imm < nf, "insn %u: call to function %llu",
				      pc, (unsigned long long)in->imm);
		}
	}
	for (i = 0; i < nk; i++) {
		CHECK(k[i].func < nf && (fn[k[i].func].flags & VISA_FUNC_KERNEL),
		      "kernel %u names a non-kernel function", i);
		CHECK(k[i].max_threads >= 1 && k[i].max_threads <= 1024,
		      "kernel %u max_threads %u", i, k[i].max_threads);
	}
	return NULL;
}
