// SPDX-License-Identifier: GPL-2.0
/*
 * compiler.c - vgpu_ptx_compile(): runs the passes in order.
 *
 *   parse every module -> link -> lay out memory -> lower each function
 *   -> emit the image
 *
 * Failure anywhere longjmps back here (see ptx_internal.h); the arena and
 * the half-written image are released and the diagnostic is copied out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen.h"

/* Defaults for the limits of struct vgpu_ptx_options (as CUDA's). */
#define DEFAULT_MAX_THREADS	1024
#define DEFAULT_MAX_SHARED	(48u * 1024)	/* static __shared__ limit */
#define DEFAULT_MAX_LOCAL	(512u * 1024)	/* local memory per thread */
#define KNOWN_FLAGS		VGPU_PTX_F_NO_LINE_INFO

struct compile_state {
	struct ptx_ctx cx;
	struct ptx_program prog;
	struct cg g;
};

static int fail_early(struct vgpu_ptx_diag *diag, const char *msg)
{
	if (diag) {
		memset(diag, 0, sizeof(*diag));
		snprintf(diag->message, sizeof(diag->message), "%s", msg);
	}
	return VGPU_PTX_ERR_INVAL;
}

static void run_passes(struct compile_state *s, void **image, size_t *size)
{
	struct ptx_ctx *cx = &s->cx;
	struct cg *g = &s->g;
	uint32_t i;

	s->prog.nmods = cx->nsrcs;
	s->prog.mods = ptx_alloc(cx, cx->nsrcs * sizeof(*s->prog.mods));
	for (i = 0; i < cx->nsrcs; i++)
		ptx_parse_module(cx, i, &s->prog.mods[i]);
	ptx_link(cx, &s->prog);
	g->cx = cx;
	g->prog = &s->prog;
	cg_layout(g);
	for (i = 0; i < g->funcs.n; i++) {
		struct cg_fn *fn = ptx_alloc(cx, sizeof(*fn));

		fn->cx = cx;
		fn->f = g->funcs.v[i];
		ptx_push(cx, &g->out, fn);
		cg_lower_function(g, fn);
	}
	cg_emit_image(g, image, size);
}

int vgpu_ptx_compile(const struct vgpu_ptx_source *srcs, unsigned int nsrcs,
		     const struct vgpu_ptx_options *opts,
		     void **image, size_t *size, struct vgpu_ptx_diag *diag)
{
	struct compile_state *s;
	struct vgpu_ptx_source *copy;
	unsigned int i;
	int err;

	if (!image || !size)
		return fail_early(diag, "no place for the image");
	*image = NULL;
	*size = 0;
	if (!srcs || !nsrcs)
		return fail_early(diag, "no PTX modules to compile");
	if (opts && (opts->flags & ~KNOWN_FLAGS))
		return fail_early(diag, "unknown option flags");
	for (i = 0; i < nsrcs; i++)
		if (!srcs[i].text && srcs[i].len)
			return fail_early(diag, "a PTX module has no text");
	s = calloc(1, sizeof(*s));
	copy = calloc(nsrcs, sizeof(*copy));
	if (!s || !copy) {
		free(s);
		free(copy);
		if (diag) {
			memset(diag, 0, sizeof(*diag));
			snprintf(diag->message, sizeof(diag->message),
				 "out of memory");
		}
		return VGPU_PTX_ERR_NOMEM;
	}
	/* A NUL inside the text ends it (fatbinary payloads are padded). */
	for (i = 0; i < nsrcs; i++) {
		copy[i] = srcs[i];
		copy[i].len = srcs[i].text ? strnlen(srcs[i].text, srcs[i].len) : 0;
		if (!copy[i].text)
			copy[i].text = "";
	}
	s->cx.srcs = copy;
	s->cx.nsrcs = nsrcs;
	if (opts)
		s->cx.opts = *opts;
	if (!s->cx.opts.max_threads_per_block)
		s->cx.opts.max_threads_per_block = DEFAULT_MAX_THREADS;
	if (!s->cx.opts.max_shared_per_block)
		s->cx.opts.max_shared_per_block = DEFAULT_MAX_SHARED;
	if (!s->cx.opts.max_local_per_thread)
		s->cx.opts.max_local_per_thread = DEFAULT_MAX_LOCAL;

	if (setjmp(s->cx.fail)) {
		if (s->g.outbuf)
			free(*s->g.outbuf);
		if (s->g.strbuf)
			free(*s->g.strbuf);
		if (diag)
			*diag = s->cx.diag;
		err = s->cx.err;
		goto out;
	}
	run_passes(s, image, size);
	err = VGPU_PTX_OK;
out:
	ptx_arena_free(&s->cx.arena);
	free(copy);
	free(s);
	return err;
}

uint32_t vgpu_ptx_compiler_version(void)
{
	return VGPU_PTX_COMPILER_VERSION;
}

void vgpu_ptx_free(void *image)
{
	free(image);
}

int vgpu_ptx_format_diag(const struct vgpu_ptx_diag *diag, char *buf,
			 size_t bufsz)
{
	if (diag->line)
		return snprintf(buf, bufsz, "%s:%u:%u: error: %s", diag->file,
				diag->line, diag->column, diag->message);
	if (diag->file[0])
		return snprintf(buf, bufsz, "%s: error: %s", diag->file,
				diag->message);
	return snprintf(buf, bufsz, "error: %s", diag->message);
}
