// SPDX-License-Identifier: GPL-2.0
/*
 * arena.c - memory and failure handling for one compilation.
 *
 * Every allocation of a compilation comes from one arena that is released
 * as a whole when vgpu_ptx_compile() returns, and every error is reported by
 * ptx_fail(), which records the diagnostic and longjmps back to the entry
 * point.  Together they let the passes be written as if nothing could fail.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_internal.h"

#define ARENA_CHUNK (64u * 1024)

struct arena_block {
	struct arena_block *next;
	size_t used, cap;
	max_align_t data[];
};

static void *arena_raw(struct ptx_ctx *cx, size_t size)
{
	struct arena_block *b = cx->arena.head;

	size = (size + 15) & ~(size_t)15;
	if (!b || b->cap - b->used < size) {
		size_t cap = size > ARENA_CHUNK ? size : ARENA_CHUNK;

		b = malloc(sizeof(*b) + cap);
		if (!b)
			ptx_fail(cx, VGPU_PTX_ERR_NOMEM, NULL, "out of memory");
		b->used = 0;
		b->cap = cap;
		b->next = cx->arena.head;
		cx->arena.head = b;
	}
	b->used += size;
	return (char *)b->data + b->used - size;
}

void *ptx_alloc(struct ptx_ctx *cx, size_t size)
{
	void *p = arena_raw(cx, size ? size : 1);

	memset(p, 0, size);
	return p;
}

void *ptx_grow(struct ptx_ctx *cx, void *old, size_t oldsz, size_t newsz)
{
	void *p = ptx_alloc(cx, newsz);

	if (old)
		memcpy(p, old, oldsz < newsz ? oldsz : newsz);
	return p;
}

char *ptx_strndup(struct ptx_ctx *cx, const char *s, size_t n)
{
	char *p = arena_raw(cx, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void ptx_arena_free(struct arena *a)
{
	while (a->head) {
		struct arena_block *next = a->head->next;

		free(a->head);
		a->head = next;
	}
}

void ptx_fail(struct ptx_ctx *cx, int err, const struct ptx_pos *pos,
	      const char *fmt, ...)
{
	struct vgpu_ptx_diag *d = &cx->diag;
	const char *name = "<ptx>";
	va_list ap;

	memset(d, 0, sizeof(*d));
	if (pos && pos->src < cx->nsrcs && cx->srcs[pos->src].name)
		name = cx->srcs[pos->src].name;
	else if (!pos && cx->nsrcs == 1 && cx->srcs[0].name)
		name = cx->srcs[0].name;
	snprintf(d->file, sizeof(d->file), "%s", name);
	if (cx->fail_symbol)
		snprintf(d->symbol, sizeof(d->symbol), "%s", cx->fail_symbol);
	if (pos) {
		d->line = pos->line;
		d->column = pos->col;
	}
	va_start(ap, fmt);
	vsnprintf(d->message, sizeof(d->message), fmt, ap);
	va_end(ap);
	cx->err = err;
	longjmp(cx->fail, 1);
}

/* ---- string map: FNV-1a hashing, linear probing, doubling at 1/2 ------- */

static uint32_t hash_str(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

void *ptx_map_get(const struct ptx_map *m, const char *key)
{
	uint32_t i;

	if (!m->cap)
		return NULL;
	for (i = hash_str(key) & (m->cap - 1); m->keys[i];
	     i = (i + 1) & (m->cap - 1))
		if (!strcmp(m->keys[i], key))
			return m->vals[i];
	return NULL;
}

static void map_insert(struct ptx_map *m, const char *key, void *val)
{
	uint32_t i;

	for (i = hash_str(key) & (m->cap - 1); m->keys[i];
	     i = (i + 1) & (m->cap - 1)) {
		if (!strcmp(m->keys[i], key)) {
			m->vals[i] = val;
			return;
		}
	}
	m->keys[i] = key;
	m->vals[i] = val;
	m->n++;
}

void ptx_map_put(struct ptx_ctx *cx, struct ptx_map *m, const char *key,
		 void *val)
{
	if (2 * (m->n + 1) > m->cap) {
		struct ptx_map old = *m;
		uint32_t i;

		m->cap = old.cap ? old.cap * 2 : 16;
		m->keys = ptx_alloc(cx, m->cap * sizeof(*m->keys));
		m->vals = ptx_alloc(cx, m->cap * sizeof(*m->vals));
		m->n = 0;
		for (i = 0; i < old.cap; i++)
			if (old.keys[i])
				map_insert(m, old.keys[i], old.vals[i]);
	}
	map_insert(m, key, val);
}
