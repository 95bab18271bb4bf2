// SPDX-License-Identifier: GPL-2.0
/*
 * test_ptx_cdp - dynamic parallelism (CDP2) on the execution core: nvcc's
 * PTX of kernels that launch kernels (cdp/cdp.cu, -rdc=true), linked with
 * vGPU's device runtime (umd/cuda/devrt.ptx) as libcuda links it, run on
 * both tiers (tests/lib).  Checked: children run and the parent's launch
 * ends only after them; launches of a block's NULL stream run in order,
 * tail launches after everything else; 32 threads of a warp launching at
 * once; nesting stops at depth 24 with cudaErrorLaunchMaxDepthExceeded;
 * the pending-launch limit; the errors of bad configurations and of an
 * unknown stream, per thread, with cudaGetLastError/cudaPeekAtLastError;
 * a faulting child faults its parent's launch; a recursive quicksort
 * against qsort().  Then the compiler's handling of the builtins.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_test.h"
#include "test_gpu.h"

#define ERR_INVALID_CONFIGURATION	9
#define ERR_LAUNCH_MAX_DEPTH		65
#define ERR_LAUNCH_PENDING_COUNT	69
#define ERR_INVALID_RESOURCE_HANDLE	400

static const uint32_t one[3] = { 1, 1, 1 };

/* cdp.ptx linked with the device runtime (devrt.ptx and its error
 * tables, which libcuda embeds as one text). */
static int compile_cdp(const char *path, void **img, size_t *size,
		       char *msg, size_t msglen)
{
	char *cdp = t_read_file(path, NULL);
	char *rt = t_read_file(PTX_TEST_DEVRT, NULL);
	char *tab = t_read_file(PTX_TEST_DEVRT_ERRORS, NULL);
	struct vgpu_ptx_diag d;
	char *devrt = NULL;
	int err = -1;

	msg[0] = '\0';
	if (cdp && rt && tab && asprintf(&devrt, "%s%s", rt, tab) > 0) {
		struct vgpu_ptx_source s[2] = {
			{ "cdp.ptx", cdp, strlen(cdp) },
			{ "devrt.ptx", devrt, strlen(devrt) },
		};

		err = vgpu_ptx_compile(s, 2, NULL, img, size, &d);
		if (err)
			vgpu_ptx_format_diag(&d, msg, msglen);
	} else {
		snprintf(msg, msglen, "cannot read the PTX files");
	}
	free(devrt);
	free(tab);
	free(rt);
	free(cdp);
	return err;
}

/* The device heap, which cudaGetParameterBufferV2 takes its buffers from. */
static bool give_heap(struct test_gpu *g, struct tg_module *m, uint64_t size)
{
	uint64_t sym = tg_symbol(g, m, VISA_HEAP_SYMBOL);
	struct visa_heap_desc *d;

	if (!t_ok(sym != 0, "the linked module has a heap descriptor"))
		return false;
	d = tg_host(g, sym);
	d->va = tg_alloc(g, size);
	d->size = size;
	return d->va != 0;
}

static void check_parent(struct test_gpu *g, struct tg_module *m)
{
	const uint32_t grid3[3] = { 3, 1, 1 }, b64[3] = { 64, 1, 1 };
	struct vgpu_core_fault f;
	uint64_t p[2];
	int32_t *o, *e;
	int bad = 0;

	p[0] = tg_alloc(g, 3 * 64 * 4);
	p[1] = tg_alloc(g, 3 * 4);
	o = tg_host(g, p[0]);
	e = tg_host(g, p[1]);
	memset(o, 0xff, 3 * 64 * 4);
	memset(e, 0xff, 3 * 4);
	if (!t_ok(!tg_launch(g, m, "parent", grid3, b64, 0, p, 16, &f),
		  "parent runs %s", f.message))
		return;
	for (int i = 0; i < 3 * 64; i++)
		bad += o[i] != 1000 * (i / 64) + i % 64;
	t_ok(!bad && !e[0] && !e[1] && !e[2],
	     "3 blocks launch fill<<<2, 32>>>: all 192 ints written before the parent's launch ends (%d wrong), errors %d %d %d",
	     bad, e[0], e[1], e[2]);

	/* 2 blocks of 64 threads: 128 launches at once */
	memset(o, 0xff, 128 * 4);
	if (!t_ok(!tg_launch(g, m, "every_thread", (uint32_t[3]){ 2, 1, 1 },
			     b64, 0, p, 8, &f),
		  "every_thread runs %s", f.message))
		return;
	bad = 0;
	for (int i = 0; i < 128; i++)
		bad += o[i] != 7 * i;	/* fill<<<1, 1>>>(out + i, 7i) */
	t_ok(!bad, "every thread of 2 blocks launches its own child (%d wrong)",
	     bad);
}

static void check_order(struct test_gpu *g, struct tg_module *m)
{
	struct vgpu_core_fault f;
	uint64_t p = tg_alloc(g, 8 * 4);
	uint32_t *s = tg_host(g, p);

	memset(s, 0xff, 8 * 4);
	if (!t_ok(!tg_launch(g, m, "order", one, one, 0, &p, 8, &f),
		  "order runs %s", f.message))
		return;
	t_diag("stamps: tail %u null %u %u faf %u null %u tail %u", s[0], s[1],
	       s[2], s[3], s[4], s[5]);
	t_ok(s[1] < s[2] && s[2] < s[4],
	     "the NULL stream's children run in launch order");
	t_ok(s[0] > s[1] && s[0] > s[2] && s[0] > s[3] && s[0] > s[4] &&
	     s[5] > s[0],
	     "tail launches run after all other children, in their order");
	t_ok(s[0] <= 5 && s[1] <= 5 && s[2] <= 5 && s[3] <= 5 && s[4] <= 5 &&
	     s[5] <= 5, "all six children ran once");
}

static void check_nest(struct test_gpu *g, struct tg_module *m)
{
	struct vgpu_core_fault f;
	struct { int32_t depth, pad; uint64_t deepest, err; } prm;
	int32_t *o;

	prm.depth = 0;
	prm.pad = 0;
	prm.deepest = tg_alloc(g, 4);
	prm.err = tg_alloc(g, 8);
	o = tg_host(g, prm.err);
	o[0] = o[1] = -1;
	if (!t_ok(!tg_launch(g, m, "nest", one, one, 0, &prm, sizeof(prm), &f),
		  "nest runs %s", f.message))
		return;
	t_ok(*(int32_t *)tg_host(g, prm.deepest) == 24 &&
	     o[0] == ERR_LAUNCH_MAX_DEPTH && o[1] == 24,
	     "grids nest 24 deep; the launch from depth 24 is refused with cudaErrorLaunchMaxDepthExceeded (deepest %d, error %d from %d)",
	     *(int32_t *)tg_host(g, prm.deepest), o[0], o[1]);
}

static void check_pending(struct test_gpu *g, struct tg_module *m)
{
	uint64_t st = tg_symbol(g, m, "__vgpu_devrt_state");
	struct vgpu_core_fault f;
	struct { int32_t n, pad; uint64_t out; } prm = { 12, 0, 0 };
	int32_t *o, *limit;

	if (!t_ok(st != 0, "the device runtime's state is in the module"))
		return;
	limit = (int32_t *)tg_host(g, st) + 3;	/* pending_launch_limit */
	prm.out = tg_alloc(g, 3 * 4);
	o = tg_host(g, prm.out);
	*limit = 4;
	if (t_ok(!tg_launch(g, m, "pending", one, one, 0, &prm, sizeof(prm),
			    &f), "pending runs %s", f.message))
		t_ok(o[0] == 4 && o[1] == ERR_LAUNCH_PENDING_COUNT && o[2] == 4,
		     "with a limit of 4, launches 5..12 are refused with cudaErrorLaunchPendingCountExceeded (%d ok, %d at %d)",
		     o[0], o[1], o[2]);
	*limit = 2048;
	prm.n = 300;
	if (t_ok(!tg_launch(g, m, "pending", one, one, 0, &prm, sizeof(prm),
			    &f), "pending 300 runs %s", f.message))
		t_ok(o[0] == 300 && o[1] == 0,
		     "under the default 2048, 300 launches of one thread succeed (%d)",
		     o[0]);
}

static void check_errors(struct test_gpu *g, struct tg_module *m)
{
	struct vgpu_core_fault f;
	uint64_t p = tg_alloc(g, 16 * 4);
	int32_t *o = tg_host(g, p);

	memset(o, 0xff, 16 * 4);
	if (!t_ok(!tg_launch(g, m, "badcfg", one, (uint32_t[3]){ 2, 1, 1 }, 0,
			     &p, 8, &f), "badcfg runs %s", f.message))
		return;
	t_ok(o[0] == 0, "no error before any launch (%d)", o[0]);
	t_ok(o[1] == ERR_INVALID_CONFIGURATION && o[2] == ERR_INVALID_CONFIGURATION,
	     "2048 threads, an empty grid: cudaErrorInvalidConfiguration (%d, %d)",
	     o[1], o[2]);
	t_ok(o[3] == ERR_INVALID_CONFIGURATION && o[4] == ERR_INVALID_CONFIGURATION,
	     "gridDim.y 70000: peek, then get, both see it (%d, %d)", o[3], o[4]);
	t_ok(o[5] == ERR_INVALID_RESOURCE_HANDLE,
	     "an unknown stream: cudaErrorInvalidResourceHandle (%d)", o[5]);
	t_ok(o[6] == 0, "a good launch after: no error (%d)", o[6]);
	t_ok(o[7] == 0 && o[8] == ERR_INVALID_CONFIGURATION,
	     "the last error is per thread (thread 0 %d, thread 1 %d)", o[7],
	     o[8]);
}

static void check_fault(struct test_gpu *g, struct tg_module *m)
{
	struct vgpu_core_fault f;
	uint64_t p = tg_alloc(g, 4);
	int r = tg_launch(g, m, "fault_parent", one, one, 0, &p, 8, &f);

	t_ok(r == 1 && f.address == 8 && f.kernel ==
	     (uint32_t)vgpu_core_module_find_kernel(m->mod, "faulty") &&
	     *(int32_t *)tg_host(g, p) == 1,
	     "a child's fault ends the parent's launch with the child's record (%d, kind %u at %#llx: %s)",
	     r, f.kind, (unsigned long long)f.address, f.message);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static void check_quicksort(struct test_gpu *g, struct tg_module *m)
{
	enum { N = 3000 };
	struct vgpu_core_fault f;
	struct { uint64_t a; int32_t lo, hi, depth; } prm = { 0, 0, N - 1, 0 };
	int *ref = malloc(N * sizeof(int)), *a;
	unsigned int seed = 12345;
	int bad = 0;

	prm.a = tg_alloc(g, N * sizeof(int));
	a = tg_host(g, prm.a);
	for (int i = 0; i < N; i++) {
		seed = seed * 1103515245u + 12345u;
		ref[i] = a[i] = (int)(seed >> 8) % 5000 - 2500;
	}
	qsort(ref, N, sizeof(int), cmp_int);
	if (t_ok(!tg_launch(g, m, "quicksort", one, one, 0, &prm, 20, &f),
		 "quicksort runs %s", f.message)) {
		for (int i = 0; i < N; i++)
			bad += a[i] != ref[i];
		t_ok(!bad, "CDP quicksort of %d ints equals qsort (%d wrong)",
		     N, bad);
	}
	free(ref);
}

/* Not kernels: a .func pointer is refused, in the launch's error. */
static void check_compile(void)
{
	static const char text[] =
		".version 8.0\n.target sm_90\n.address_size 64\n"
		".extern .func (.param .b32 r) __vgpu_cdp_get_error();\n"
		".visible .entry k(.param .u64 o)\n{\n.reg .b32 %r<2>;\n"
		".reg .b64 %rd<2>;\nld.param.u64 %rd1, [o];\n"
		"{\n.param .b32 r0;\ncall.uni (r0), __vgpu_cdp_get_error, ();\n"
		"ld.param.b32 %r1, [r0];\n}\nst.global.u32 [%rd1], %r1;\n"
		"ret;\n}\n";
	char msg[256];
	size_t size;
	void *img;

	if (t_ok(!t_compile("builtin.ptx", text, &img, &size, msg, sizeof(msg)),
		 "a call of __vgpu_cdp_get_error compiles %s", msg)) {
		const struct visa_func *fn = t_func(img, "k");

		t_ok(fn && t_find_op(img, fn, VISA_OP_CDP, 0) >= 0,
		     "and becomes a CDP instruction");
		free(img);
	}
}

int main(void)
{
	char msg[512], err[256] = "";
	struct test_gpu g;
	struct tg_module m;
	size_t size;
	void *img;

	t_start();
	check_compile();
	if (!t_ok(!compile_cdp(PTX_TEST_DATA "/cdp/cdp.ptx", &img, &size, msg,
			       sizeof(msg)),
		  "cdp.ptx links with the device runtime %s", msg))
		return t_done();
	if (!t_ok(!tg_init(&g, 2), "native test GPU"))
		return t_done();
	if (t_ok(!tg_load(&g, img, size, &m, err, sizeof(err)),
		 "the core loads it %s", err) && give_heap(&g, &m, 1 << 20)) {
		check_parent(&g, &m);
		check_order(&g, &m);
		check_nest(&g, &m);
		check_pending(&g, &m);
		check_errors(&g, &m);
		check_quicksort(&g, &m);
		check_fault(&g, &m);
		tg_unload(&m);
	}
	free(img);
	/* nvcc --default-stream per-thread calls cudaLaunchDeviceV2_ptsz */
	if (t_ok(!compile_cdp(PTX_TEST_DATA "/cdp/cdp_ptsz.ptx", &img, &size,
			      msg, sizeof(msg)),
		 "cdp.ptx of --default-stream per-thread links %s", msg)) {
		if (t_ok(!tg_load(&g, img, size, &m, err, sizeof(err)),
			 "the core loads it %s", err) &&
		    give_heap(&g, &m, 1 << 20)) {
			check_parent(&g, &m);
			tg_unload(&m);
		}
		free(img);
	}
	tg_fini(&g);
	return t_done();
}
