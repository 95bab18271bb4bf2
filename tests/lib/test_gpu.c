// SPDX-License-Identifier: GPL-2.0
/*
 * test_gpu.c - see test_gpu.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "test_gpu.h"
#include "visa_builder.h"
#include "vgpu_jit.h"
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
	/*
	 * Every run translates (under ASan too, in the -san twins) and
	 * nothing is written to the user's cache: no native code from the
	 * compute cache unless the environment asks for it
	 * (CUDA_CACHE_DISABLE=0).  test_jit tests the cache itself.
	 */
	setenv("CUDA_CACHE_DISABLE", "1", 0);
	if (!getenv("VGPU_TIER")) {
		vgpu_jit_set_tier(VGPU_TIER_NATIVE);
		/* compiling costs: TG_NATIVE_FUNCS functions compared */
		vgpu_jit_set_compile_budget(TG_NATIVE_FUNCS);
	}
	g->both_tiers = true;
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
	if (g->tier_launches)
		printf("# both tiers: %llu launches, native tier identical to "
		       "the interpreter (%llu racy, checked by the test "
		       "only)\n", (unsigned long long)g->tier_launches,
		       (unsigned long long)g->tier_nondet);
	if (g->ref_core)
		vgpu_core_destroy(g->ref_core);
	for (unsigned int k = 0; k < TG_SNAPS; k++) {
		free(g->snaps[k].mem);
		free(g->snaps[k].at);
	}
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

int tg_load_vb(struct test_gpu *g, struct vb *b, struct tg_module *m)
{
	size_t size;
	void *img = vb_finish(b, &size);
	char err[200] = "";
	int ret = tg_load(g, img, size, m, err, sizeof(err));

	if (ret)
		tap_diag("load failed: %s", err);
	free(img);
	vb_free(b);
	return ret;
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

/* ---- both tiers ----------------------------------------------------------- */

/* A copy of all device memory, in one of the kept buffers. */
static uint8_t **snapshot(struct test_gpu *g)
{
	struct tg_snap *sn = NULL;
	size_t total = 0, off = 0;

	for (unsigned int k = 0; k < TG_SNAPS && !sn; k++)
		if (!g->snaps[k].busy)
			sn = &g->snaps[k];
	if (!sn)
		abort();
	for (unsigned int i = 0; i < g->nmaps; i++)
		total += g->maps[i].size;
	if (total > sn->cap) {
		free(sn->mem);
		sn->mem = malloc(total);
		sn->cap = total;
	}
	if (g->nmaps + 1 > sn->at_cap) {
		free(sn->at);
		sn->at = calloc(g->nmaps + 1, sizeof(*sn->at));
		sn->at_cap = g->nmaps + 1;
	}
	if ((total && !sn->mem) || !sn->at)
		abort();
	for (unsigned int i = 0; i < g->nmaps; i++) {
		sn->at[i] = sn->mem + off;
		memcpy(sn->at[i], g->maps[i].host, g->maps[i].size);
		off += g->maps[i].size;
	}
	sn->busy = true;
	return sn->at;
}

static void restore(struct test_gpu *g, uint8_t **s)
{
	for (unsigned int i = 0; i < g->nmaps; i++)
		memcpy(g->maps[i].host, s[i], g->maps[i].size);
}

static void snapshot_free(struct test_gpu *g, uint8_t **s)
{
	for (unsigned int k = 0; k < TG_SNAPS; k++)
		if (g->snaps[k].busy && g->snaps[k].at == s)
			g->snaps[k].busy = false;
}

/* The first difference between device memory and @s, or false. */
static bool memory_differs(const struct test_gpu *g, uint8_t **s,
			   char *what, size_t len)
{
	for (unsigned int i = 0; i < g->nmaps; i++) {
		const struct tg_map *m = &g->maps[i];

		/* memcmp first: tests with hundreds of maps compare often */
		if (!memcmp(m->host, s[i], m->size))
			continue;
		for (uint64_t o = 0; o < m->size; o++)
			if (m->host[o] != s[i][o]) {
				snprintf(what, len, "byte at 0x%llx: native "
					 "0x%02x, interpreter 0x%02x",
					 (unsigned long long)(m->va + o),
					 s[i][o], m->host[o]);
				return true;
			}
	}
	return false;
}

static bool fault_differs(int ra, const struct vgpu_core_fault *a, int rb,
			  const struct vgpu_core_fault *b, char *what,
			  size_t len)
{
	if (ra != rb || (ra == 1 && memcmp(a, b, sizeof(*a)))) {
		snprintf(what, len, "result %d / %d, fault %s at pc %u line %u "
			 "block %u thread %u addr 0x%llx (%.120s) / %s at pc %u "
			 "line %u block %u thread %u addr 0x%llx (%.120s)", ra, rb,
			 vgpu_core_fault_name(a->kind), a->pc, a->line,
			 a->block[0], a->thread[0],
			 (unsigned long long)a->address, a->message,
			 vgpu_core_fault_name(b->kind), b->pc, b->line,
			 b->block[0], b->thread[0],
			 (unsigned long long)b->address, b->message);
		return true;
	}
	return false;
}

/* One launch on @core and the tier @tier from the memory in @start. */
static int launch_on(struct test_gpu *g, struct vgpu_core *core,
		     struct tg_module *m, const struct vgpu_core_launch *l,
		     uint8_t **start, enum vgpu_tier tier,
		     struct vgpu_core_fault *f)
{
	restore(g, start);
	memset(f, 0, sizeof(*f));
	vgpu_jit_module_select(m->mod, tier);
	return vgpu_core_launch(core, l, f);
}

/*
 * The launch the caller asked for runs on its core with the native tier.
 * Then the same launch runs twice more from the same memory on a private
 * core of one SM, where blocks run in order (with several SMs, which of
 * two faulting blocks is first, or the order of atomics, is a race):
 * once per tier, and the two must agree to the byte.  A kernel that
 * reads the clock of the wall (%globaltimer) may differ from itself: if
 * a second interpreter run differs from the first, the launch is counted
 * as racy and checked by the test's own assertions only.
 */
static int launch_both(struct test_gpu *g, struct tg_module *m,
		       const struct vgpu_core_launch *l, const char *name,
		       struct vgpu_core_fault *fault)
{
	uint8_t **start = snapshot(g), **result, **native;
	struct vgpu_core_fault fr, fn, fi;
	char what[1024];
	int rr, rn, ri;

	rr = launch_on(g, g->core, m, l, start, VGPU_TIER_NATIVE, &fr);
	/* an outside stop request cannot be repeated: keep that run */
	if (rr == 1 && fr.kind == VISA_FAULT_STOPPED)
		goto out;
	/*
	 * The first run compiled the kernel's function (or queued it, in
	 * the background mode): if it stays on the interpreter for good
	 * (past the compile budget), both runs would be the interpreter's,
	 * and a test of thousands of launches (test_core_fastpath) would pay
	 * four copies of all device memory for each.
	 */
	if (vgpu_jit_kernel_native(m->mod, (int)l->kernel) < 0)
		goto out;
	if (!g->ref_core) {
		struct vgpu_core_config cfg = { .num_sms = 1 };

		g->ref_core = vgpu_core_create(&cfg);
		if (!g->ref_core)
			abort();
	}
	result = snapshot(g);
	rn = launch_on(g, g->ref_core, m, l, start, VGPU_TIER_NATIVE, &fn);
	native = snapshot(g);
	ri = launch_on(g, g->ref_core, m, l, start, VGPU_TIER_INTERP, &fi);
	if (fault_differs(rn, &fn, ri, &fi, what, sizeof(what)) ||
	    memory_differs(g, native, what, sizeof(what))) {
		uint8_t **interp = snapshot(g);
		struct vgpu_core_fault fi2;
		char again[1024];
		int ri2 = launch_on(g, g->ref_core, m, l, start,
				    VGPU_TIER_INTERP, &fi2);

		if (!fault_differs(ri, &fi, ri2, &fi2, again, sizeof(again)) &&
		    !memory_differs(g, interp, again, sizeof(again))) {
			fprintf(stderr, "test_gpu: kernel %s: the native tier "
				"differs from the interpreter: %s\n", name, what);
			abort();
		}
		snapshot_free(g, interp);
		g->tier_nondet++;
	}
	g->tier_launches++;
	restore(g, result);
	snapshot_free(g, result);
	snapshot_free(g, native);
out:
	vgpu_jit_module_select(m->mod, VGPU_TIER_NATIVE);
	snapshot_free(g, start);
	*fault = fr;
	return rr;
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
	if (g->both_tiers && !vgpu_jit_module_select(m->mod, VGPU_TIER_NATIVE))
		return launch_both(g, m, &l, name, fault);
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
