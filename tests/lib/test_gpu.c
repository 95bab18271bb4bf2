// SPDX-License-Identifier: GPL-2.0
/*
 * test_gpu.c - see test_gpu.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_gpu.h"
#include "vgpu_printf.h"

#define TG_FIFO_SIZE	(1u << 20)

static int tg_translate(void *ctx, uint64_t va, struct vgpu_core_page *pg)
{
	struct test_gpu *g = ctx;

	__atomic_fetch_add(&g->translations, 1, __ATOMIC_RELAXED);
	for (unsigned int i = 0; i < g->nmaps; i++) {
		const struct tg_map *m = &g->maps[i];

		/* tg_unmap() may zero the size while grids run */
		if (va - m->va < __atomic_load_n(&m->size, __ATOMIC_ACQUIRE)) {
			uint64_t off = (va - m->va) & ~(m->page - 1);

			pg->va = m->va + off;
			pg->size = m->page;
			pg->host = m->host + off;
			pg->perm = m->perm;
			return 0;
		}
	}
	return -1;
}

uint64_t tg_alloc_perm(struct test_gpu *g, size_t size, uint64_t page,
		       uint32_t perm)
{
	struct tg_map *m;
	size_t rounded = (size + page - 1) / page * page;

	if (g->nmaps == TG_MAX_MAPS || !rounded)
		return 0;
	m = &g->maps[g->nmaps];
	m->host = aligned_alloc(page, rounded);
	if (!m->host)
		return 0;
	memset(m->host, 0, rounded);
	/* leave an unmapped 64 KiB guard between allocations */
	g->next_va = (g->next_va + 65535) & ~65535ull;
	m->va = g->next_va;
	m->size = rounded;
	m->page = page;
	m->perm = perm;
	g->next_va += rounded + 65536;
	g->nmaps++;
	return m->va;
}

uint64_t tg_alloc(struct test_gpu *g, size_t size)
{
	return tg_alloc_perm(g, size, 65536,
			     VGPU_CORE_PERM_READ | VGPU_CORE_PERM_WRITE |
			     VGPU_CORE_PERM_ATOMIC);
}

void *tg_host(struct test_gpu *g, uint64_t va)
{
	for (unsigned int i = 0; i < g->nmaps; i++)
		if (va - g->maps[i].va < g->maps[i].size)
			return g->maps[i].host + (va - g->maps[i].va);
	return NULL;
}

int tg_init(struct test_gpu *g, unsigned int num_sms)
{
	struct vgpu_core_config cfg = { .num_sms = num_sms };

	return tg_init_cfg(g, &cfg);
}

int tg_init_cfg(struct test_gpu *g, const struct vgpu_core_config *cfg)
{
	struct visa_printf_fifo *f;

	memset(g, 0, sizeof(*g));
	g->next_va = 0x100000000ull;
	g->core = vgpu_core_create(cfg);
	if (!g->core)
		return -errno;
	g->printf_fifo = tg_alloc(g, TG_FIFO_SIZE);
	f = tg_host(g, g->printf_fifo);
	f->magic = VISA_PRINTF_MAGIC;
	f->capacity = TG_FIFO_SIZE - sizeof(*f);
	return 0;
}

void tg_fini(struct test_gpu *g)
{
	vgpu_core_destroy(g->core);
	for (unsigned int i = 0; i < g->nmaps; i++)
		free(g->maps[i].host);
	memset(g, 0, sizeof(*g));
}

static void apply_relocs(struct test_gpu *g, struct tg_module *m)
{
	const struct visa_image_header *h = vgpu_core_module_header(m->mod);
	const struct visa_section *s = &h->sections[VISA_SEC_RELOCS];
	const uint8_t *img = (const uint8_t *)h;

	for (uint32_t off = 0; s->size && off < s->size; off += s->entsize) {
		const struct visa_reloc *r = (const void *)(img + s->offset + off);
		uint64_t base = r->target_space == VISA_SPACE_GLOBAL ?
				m->global_base : r->target_space == VISA_SPACE_CONST ?
				m->const_base : VISA_FUNCPTR_BASE;
		uint64_t v = base + (uint64_t)r->addend;
		uint8_t *dst = tg_host(g, (r->space == VISA_SPACE_GLOBAL ?
					   m->global_base : m->const_base) +
					  r->offset);

		memcpy(dst, &v, r->width);
	}
}

int tg_load(struct test_gpu *g, const void *image, size_t size,
	    struct tg_module *m, char *err, size_t errlen)
{
	const struct visa_image_header *h;
	int ret;

	memset(m, 0, sizeof(*m));
	ret = vgpu_core_module_load(image, size, &m->mod, err, errlen);
	if (ret)
		return ret;
	h = vgpu_core_module_header(m->mod);
	m->global_base = tg_alloc(g, h->global_size ? h->global_size : 16);
	m->const_base = tg_alloc_perm(g, h->const_size ? h->const_size : 16,
				      65536, VGPU_CORE_PERM_READ);
	if (!m->global_base || !m->const_base)
		return -ENOMEM;
	memcpy(tg_host(g, m->global_base),
	       (const uint8_t *)h + h->sections[VISA_SEC_GLOBAL_INIT].offset,
	       h->sections[VISA_SEC_GLOBAL_INIT].size);
	memcpy(tg_host(g, m->const_base),
	       (const uint8_t *)h + h->sections[VISA_SEC_CONST_INIT].offset,
	       h->sections[VISA_SEC_CONST_INIT].size);
	apply_relocs(g, m);
	return 0;
}

void tg_unload(struct tg_module *m)
{
	vgpu_core_module_unload(m->mod);
	m->mod = NULL;
}

uint64_t tg_symbol(struct test_gpu *g, struct tg_module *m, const char *name)
{
	const struct visa_image_header *h = vgpu_core_module_header(m->mod);
	const struct visa_section *s = &h->sections[VISA_SEC_SYMBOLS];
	const uint8_t *img = (const uint8_t *)h;

	(void)g;
	for (uint32_t off = 0; s->size && off < s->size; off += s->entsize) {
		const struct visa_symbol *sym = (const void *)(img + s->offset +
							       off);

		if (!strcmp(vgpu_core_module_string(m->mod, sym->name), name))
			return (sym->space == VISA_SPACE_CONST ? m->const_base :
				m->global_base) + sym->offset;
	}
	return 0;
}

void tg_unmap(struct test_gpu *g, uint64_t va)
{
	for (unsigned int i = 0; i < g->nmaps; i++)
		if (va - g->maps[i].va < g->maps[i].size)
			__atomic_store_n(&g->maps[i].size, 0, __ATOMIC_RELEASE);
}

int tg_launch_desc(struct test_gpu *g, struct tg_module *m, const char *name,
		   const uint32_t grid[3], const uint32_t block[3],
		   uint32_t dyn_shared, const void *params,
		   uint32_t param_size, struct vgpu_core_launch *l)
{
	int k = vgpu_core_module_find_kernel(m->mod, name);

	if (k < 0)
		return k;
	memset(l, 0, sizeof(*l));
	l->module = m->mod;
	l->kernel = (uint32_t)k;
	memcpy(l->grid, grid, sizeof(l->grid));
	memcpy(l->block, block, sizeof(l->block));
	l->dynamic_shared = dyn_shared;
	l->params = params;
	l->param_size = param_size;
	l->global_base = m->global_base;
	l->const_base = m->const_base;
	l->printf_fifo = g->printf_fifo;
	l->translate = tg_translate;
	l->translate_ctx = g;
	return 0;
}

int tg_launch(struct test_gpu *g, struct tg_module *m, const char *name,
	      const uint32_t grid[3], const uint32_t block[3],
	      uint32_t dyn_shared, const void *params, uint32_t param_size,
	      struct vgpu_core_fault *fault)
{
	struct vgpu_core_launch l = {
		.module = m->mod,
		.dynamic_shared = dyn_shared,
		.params = params,
		.param_size = param_size,
		.global_base = m->global_base,
		.const_base = m->const_base,
		.printf_fifo = g->printf_fifo,
		.translate = tg_translate,
		.translate_ctx = g,
	};
	int k = vgpu_core_module_find_kernel(m->mod, name);

	if (k < 0)
		return k;
	l.kernel = (uint32_t)k;
	memcpy(l.grid, grid, sizeof(l.grid));
	memcpy(l.block, block, sizeof(l.block));
	return vgpu_core_launch(g->core, &l, fault);
}

struct sinkbuf {
	char *p;
	size_t len;
};

static void sink(void *ctx, const char *text, size_t len)
{
	struct sinkbuf *s = ctx;
	char *p = realloc(s->p, s->len + len + 1);

	if (!p)
		return;
	memcpy(p + s->len, text, len);
	s->len += len;
	p[s->len] = 0;
	s->p = p;
}

char *tg_printf_output(struct test_gpu *g, uint32_t *dropped)
{
	struct visa_printf_fifo *f = tg_host(g, g->printf_fifo);
	struct sinkbuf s = { calloc(1, 1), 0 };

	if (vgpu_printf_drain(f + 1, f->used, sink, &s) < 0) {
		free(s.p);
		s.p = NULL;
	}
	if (dropped)
		*dropped = f->dropped;
	f->used = 0;
	f->dropped = 0;
	return s.p;
}

char *tg_read_text(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *p = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0) {
		rewind(f);
		p = malloc((size_t)n + 1);
		if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
			free(p);
			p = NULL;
		}
		if (p)
			p[n] = 0;
	}
	fclose(f);
	return p;
}
