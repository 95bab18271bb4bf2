// SPDX-License-Identifier: GPL-2.0
/*
 * test_tex_golden.c - the texture unit's sampler (firmware_sim/core/
 * tex_sampler.c) against what an H100 returned for the same fetches
 * (tests/golden/probe_tex.h100.txt, recorded by tools/cuda-probe/
 * probe_tex.cu), bit for bit.
 *
 * Each recorded line names the texture (format, channels, size,
 * geometry), the sampler state and the coordinates; the texels are the
 * probe's (texel_byte, texel_float below repeat its functions).  The
 * texture is laid out block-linear in a host buffer, as an array is in
 * VRAM, and the sampler reads it through its read callback.  One case per
 * texture and sampler state: all its fetches must match.
 *
 * Then the two-texel sweeps of tests/golden/probe_texfid.h100.txt
 * (tools/cuda-probe/probe_texfid.cu): every sRGB code, sRGB and s8
 * blends at every weight; and of probe_texrest.h100.txt
 * (probe_texrest.cu): every sRGB code and s8 value with 5 and 12
 * partners at 7 weights (pair_line()).
 *
 * Lines are grouped into TAP cases by tests/lib/golden_cases.c.  What the
 * sampler does not match yet is marked TODO (todo_reason()): TAP reports
 * the case, and the test still fails if a case that should match does
 * not.  A 1D texture's texels are the bytes texel_byte(k)
 * read as its elements, whatever the format (the probe's 1D arrays).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fp_formats.h"
#include "golden_cases.h"
#include "tap.h"
#include "tex_sampler.h"
#include "vgpu_array.h"

/* The probe's texels: byte k of an integer texture, element e of a float one. */
static unsigned char texel_byte(size_t k)
{
	return (unsigned char)(k * 37 + 11);
}

static float texel_float(size_t e)
{
	return (float)((e * 7) % 13) * 0.375f - 2.0f;
}

static const struct {
	const char *name;
	unsigned int format;
} formats[] = {
	{ "u8", VGPU_TEX_U8 }, { "s8", VGPU_TEX_S8 }, { "u16", VGPU_TEX_U16 },
	{ "s16", VGPU_TEX_S16 }, { "u32", VGPU_TEX_U32 },
	{ "s32", VGPU_TEX_S32 }, { "f16", VGPU_TEX_F16 },
	{ "f32", VGPU_TEX_F32 },
};

static const char *const modes[] = { "wrap", "clamp", "mirror", "border" };

struct texture {
	struct vgpu_tex_desc d;
	unsigned char *mem;
	size_t size;
};

static int host_read(void *opaque, uint64_t va, void *buf, unsigned int len)
{
	struct texture *t = opaque;

	if (va + len > t->size)
		return 1;
	memcpy(buf, t->mem + va, len);
	return 0;
}

static int lookup(const char *s, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

/* Make the texture of a recorded line's head; 0 on success. */
static int make_texture(struct texture *t, const char *fmt, int ch, int w,
			int h, int d, const char *filter, const char *addr,
			const char *read, int norm, int srgb, int dim)
{
	struct vgpu_bl_layout l;
	unsigned int bytes, elem, f = 0;
	size_t n, k, e;
	unsigned char *packed;
	const char *const filters[] = { "point", "linear" };
	const char *const reads[] = { "elem", "normf" };

	for (k = 0; k < sizeof(formats) / sizeof(formats[0]); k++)
		if (!strcmp(fmt, formats[k].name))
			f = formats[k].format;
	if (!f)
		return -1;
	memset(t, 0, sizeof(*t));
	t->d.format = (uint8_t)f;
	t->d.channels = (uint8_t)ch;
	t->d.width = (uint32_t)w;
	t->d.height = h ? (uint32_t)h : 1;
	t->d.depth = d ? (uint32_t)d : 1;
	t->d.dims = (uint8_t)(dim == 4 ? 2 : dim);
	t->d.layered = dim == 4;
	t->d.filter = (uint8_t)lookup(filter, filters, 2);
	t->d.address[0] = t->d.address[1] = t->d.address[2] =
		(uint8_t)lookup(addr, modes, 4);
	t->d.read_mode = (uint8_t)lookup(read, reads, 2);
	t->d.normalized = (uint8_t)norm;
	t->d.srgb = (uint8_t)srgb;
	/* the probe's border colour */
	t->d.border[0] = 0.25f;
	t->d.border[1] = -1.5f;
	t->d.border[2] = 7.0f;
	t->d.border[3] = 0.5f;
	bytes = vgpu_tex_format_bytes(f);
	elem = bytes * (unsigned int)ch;
	l = (struct vgpu_bl_layout){ .row_bytes = t->d.width * elem,
				     .height = t->d.height,
				     .depth = t->d.depth };
	vgpu_bl_choose(&l, t->d.layered);
	t->d.block_h_log2 = l.bh;
	t->d.block_d_log2 = l.bd;
	if (!vgpu_tex_desc_ok(&t->d))
		return -1;
	n = (size_t)t->d.width * t->d.height * t->d.depth;
	packed = malloc(n * elem);
	for (e = 0; e < n * (size_t)ch && dim != 1; e++) {
		if (f == VGPU_TEX_F32) {
			float v = texel_float(e);

			memcpy(packed + e * 4, &v, 4);
		} else if (f == VGPU_TEX_F16) {
			uint16_t v = f16_from_double(texel_float(e), RND_N);

			memcpy(packed + e * 2, &v, 2);
		}
	}
	/* 1D: the bytes texel_byte(k) whatever the format (the probe's) */
	if ((f != VGPU_TEX_F32 && f != VGPU_TEX_F16) || dim == 1)
		for (k = 0; k < n * elem; k++)
			packed[k] = texel_byte(k);
	/* block-linear, as the copy engine leaves an array */
	t->size = vgpu_bl_size(&l);
	t->mem = calloc(t->size, 1);
	for (uint32_t z = 0; z < t->d.depth; z++)
		for (uint32_t y = 0; y < t->d.height; y++)
			for (uint32_t x = 0; x < l.row_bytes; x++)
				t->mem[vgpu_bl_offset(&l, x, y, z)] =
					packed[((size_t)z * t->d.height + y) *
					       l.row_bytes + x];
	free(packed);
	return 0;
}

/* Why a recorded case is not expected to match yet, or NULL. */
static const char *todo_reason(const char *head)
{
	if (!strncmp(head, "srgbpair", 8))
		return "sRGB and linear filtering (60 of 8960 blends: a smaller texel weighs one step less than block floating point gives)";
	if (!strncmp(head, "s8mix", 5) || !strncmp(head, "s8pair", 6) ||
	    (strstr(head, "filter=linear") && strstr(head, "read=normf") &&
	     strstr(head, "tex s8 ")))
		return "linear filtering of s8 (a sum of two non-zero texels is up to 0.6 of a step lower than any model of weights and roundings tried)";
	return NULL;
}

static float as_float(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

/*
 * probe_texfid's texel-pair lines: a 1D texture of two texels (clamp,
 * unnormalized) read at 0.5 + W/256, W/256 of the weight on texel 1.
 *   srgb B pt=BITS lin=BITS alpha=BITS   a 256-texel u8x4 texture of
 *                                        codes B (alpha B), at B + 0.5
 *   srgbfilt B -> RGB ALPHA              two texels of code B, halfway
 *   srgbmix A B W -> RGB ALPHA           u8x4 sRGB, codes A and B
 *                                        (alpha 0 and 255)
 *   s8mix A B W -> BITS                  s8, normalized (first every
 *                                        value with 0 at W 128 and 64)
 * One case per kind and pair.
 */
static int pair_fetch(const char *line, uint32_t want[2], uint32_t got[2])
{
	struct texture tex = { 0 };
	unsigned char raw[1024];
	int a, b, w, n = 0, srgb;
	unsigned int k;
	float c[3] = { 0, 0, 0 };
	uint32_t out[4];

	if (sscanf(line, "srgb %d pt=%x lin=%*x alpha=%x", &a, &want[0],
		   &want[1]) == 3) {
		for (k = 0; k < 1024; k++)
			raw[k] = (unsigned char)(k / 4);
		n = 256;
		c[0] = (float)a + 0.5f;
		srgb = 1;
	} else if (sscanf(line, "srgbfilt %d -> %x %x", &a, &want[0],
			  &want[1]) == 3) {
		for (k = 0; k < 16; k++)
			raw[k] = (unsigned char)a;	/* 2 texels of code a */
		raw[3] = raw[7] = (unsigned char)a;
		n = 2;
		c[0] = 1.0f;	/* halfway */
		srgb = 1;
	} else if (sscanf(line, "srgbmix %d %d %d -> %x %x", &a, &b, &w,
			  &want[0], &want[1]) == 5 ||
		   sscanf(line, "srgbpair %d %d %d -> %x %x", &a, &b, &w,
			  &want[0], &want[1]) == 5) {
		const unsigned char px[8] = { (unsigned char)a, (unsigned char)a,
					      (unsigned char)a, 0,
					      (unsigned char)b, (unsigned char)b,
					      (unsigned char)b, 255 };

		memcpy(raw, px, 8);
		n = 2;
		c[0] = 0.5f + (float)w / 256.0f;
		srgb = 1;
	} else if (sscanf(line, "s8mix %d %d %d -> %x", &a, &b, &w,
			  &want[0]) == 4 ||
		   sscanf(line, "s8pair %d %d %d -> %x", &a, &b, &w,
			  &want[0]) == 4) {
		raw[0] = (unsigned char)a;
		raw[1] = (unsigned char)b;
		want[1] = 0;
		n = 2;
		c[0] = 0.5f + (float)w / 256.0f;
		srgb = 0;
	} else {
		return -1;
	}
	tex.d.format = srgb ? VGPU_TEX_U8 : VGPU_TEX_S8;
	tex.d.channels = srgb ? 4 : 1;
	tex.d.width = (uint32_t)n;
	tex.d.height = tex.d.depth = 1;
	tex.d.dims = 1;
	tex.d.layout = VGPU_TEX_LINEAR;	/* one row: as the array's */
	tex.d.filter = srgb && n == 256 ? VGPU_TEX_POINT : VGPU_TEX_LINEAR_FILTER;
	tex.d.address[0] = VGPU_TEX_CLAMP;
	tex.d.read_mode = VGPU_TEX_NORMALIZED;
	tex.d.srgb = (uint8_t)srgb;
	tex.mem = raw;
	tex.size = (size_t)n * tex.d.channels;
	memset(out, 0, sizeof(out));
	if (vgpu_tex_sample(&tex.d, host_read, &tex, c, 0, out))
		return 1;
	got[0] = out[0];
	got[1] = srgb ? out[3] : 0;
	return got[0] != want[0] || got[1] != want[1];
}

/* What the line callbacks share: the cases, the texture of the open one. */
struct reader {
	struct golden_cases g;
	struct texture tex;
	char built[256];	/* the head tex was made for */
	int made;		/* 0: tex is the texture of built */
	int pairs;		/* probe_texfid: past the s8 halves */
	int srgbpairs;		/* probe_texrest: srgbpair lines so far */
};

/* The case of a texel-pair line of probe_texfid or probe_texrest. */
static int pair_head(struct reader *r, const char *line, char *head,
		     size_t size)
{
	static const char *const srgb_kinds[] = {
		"code 0", "code 128", "code 255", "the next code",
		"the code 128 apart",
	};
	int a = 0, b = 0;

	if (!strncmp(line, "srgb ", 5)) {
		snprintf(head, size, "srgb: every code decoded, point");
	} else if (!strncmp(line, "srgbfilt ", 9)) {
		snprintf(head, size, "srgbfilt: every code decoded, filtered");
	} else if (!strncmp(line, "srgbpair ", 9)) {
		/* 256 codes at 7 weights per partner (probe_texrest.cu) */
		snprintf(head, size, "srgbpair: every code with %s, 7 weights",
			 srgb_kinds[r->srgbpairs++ / (256 * 7) % 5]);
	} else if (sscanf(line, "s8pair %*d %d", &b) == 1) {
		snprintf(head, size, "s8pair: every value with %d, 7 weights", b);
	} else if (!strncmp(line, "s8mix ", 6)) {
		if (!strncmp(line, "s8mix -17 97 ", 13))
			r->pairs = 1;	/* the halves come first */
		if (!r->pairs)
			snprintf(head, size, "s8mix v 0: every value at weights 128 and 64");
		else if (sscanf(line, "%*s %d %d", &a, &b) == 2)
			snprintf(head, size, "s8mix %d %d blended", a, b);
	} else if (sscanf(line, "srgbmix %d %d", &a, &b) == 2) {
		snprintf(head, size, "srgbmix %d %d blended", a, b);
	} else {
		return -1;
	}
	return 0;
}

static void pair_line(void *ctx, const char *line)
{
	struct reader *r = ctx;
	uint32_t want[2] = { 0, 0 }, got[2] = { 0, 0 };
	char head[128];
	int bad;

	if (pair_head(r, line, head, sizeof(head)))
		return;
	bad = pair_fetch(line, want, got);
	if (bad < 0)
		return;
	if (golden_line(&r->g, head, bad))
		tap_diag("%.*s: %08x %08x", (int)strcspn(line, "\n"), line,
			 got[0], got[1]);
}

/* A "tex" line of probe_tex: the fetch against the H100's. */
static void tex_line(void *ctx, const char *line)
{
	struct reader *r = ctx;
	char fmt[8], filter[8], addr[8], read[8], head[256];
	int ch, w, h, d, norm, srgb, dim, used, bad;
	uint32_t x, y, z, want[4], got[4];
	float c[3];
	const char *arrow = strstr(line, " x=");

	if (strncmp(line, "tex ", 4) || !arrow || !strstr(line, "->"))
		return;
	snprintf(head, sizeof(head), "%.*s", (int)(arrow - line), line);
	if (sscanf(line, "tex %7s %d %d %d %d filter=%7[a-z] addr=%7[a-z] read=%7[a-z] norm=%d srgb=%d dim=%d%n",
		   fmt, &ch, &w, &h, &d, filter, addr, read, &norm, &srgb,
		   &dim, &used) != 11 ||
	    sscanf(arrow, " x=%x y=%x z=%x -> %x %x %x %x", &x, &y, &z,
		   &want[0], &want[1], &want[2], &want[3]) != 7)
		return;
	if (dim < 1)
		return;	/* linear memory: not recorded */
	if (strcmp(head, r->built)) {
		free(r->tex.mem);
		r->tex.mem = NULL;
		snprintf(r->built, sizeof(r->built), "%s", head);
		r->made = make_texture(&r->tex, fmt, ch, w, h, d, filter, addr,
				       read, norm, srgb, dim);
	}
	c[0] = as_float(x);
	c[1] = as_float(y);
	c[2] = as_float(z);
	memset(got, 0, sizeof(got));
	bad = r->made ||
	      vgpu_tex_sample(&r->tex.d, host_read, &r->tex, c,
			      (int)as_float(z), got) ||
	      memcmp(got, want, sizeof(got));
	if (golden_line(&r->g, head, bad))
		tap_diag("%s x=%g y=%g z=%g: %08x %08x %08x %08x, H100 %08x %08x %08x %08x%s",
			 head, c[0], c[1], c[2], got[0], got[1], got[2],
			 got[3], want[0], want[1], want[2], want[3],
			 r->made ? " (a texture the sampler refuses)" : "");
}

int main(void)
{
	struct tap t = { 0 };
	struct reader r = { .g = { .t = &t, .todo = todo_reason } };

	printf("TAP version 13\n");
	golden_each_line(&r.g, GOLDEN_TEX_FILE, tex_line, &r);
	free(r.tex.mem);
	golden_each_line(&r.g, GOLDEN_TEXFID_FILE, pair_line, &r);
	golden_each_line(&r.g, GOLDEN_TEXREST_FILE, pair_line, &r);
	printf("1..%d\n", t.n);
	tap_diag("%d cases TODO (not bit-identical yet): TAP known failures",
		 r.g.todo_cases);
	return tap_done(&t);
}
