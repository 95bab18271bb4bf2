// SPDX-License-Identifier: GPL-2.0
/*
 * test_tex_fetch_golden.c - the texture unit's whole request,
 * vgpu_tex_fetch() (firmware_sim/core/tex_sampler.c), against what an
 * H100 returned (tests/golden/probe_tex.h100.txt, recorded by
 * tools/cuda-probe/probe_tex.cu), bit for bit: mipmap levels chosen by
 * LOD, by gradients and without either (lines "mip"), gather ("gather"),
 * texel offsets ("offs") and cubemaps ("cube"); and the level of detail
 * from gradients and the blend of two levels under anisotropy (lod_line(),
 * probe_texfid.h100.txt and probe_texrest.h100.txt).  test_tex_golden
 * checks the plain fetches ("tex").
 *
 * The texels are the probe's: texel_id(e) for float element e, counted
 * on over all the levels (faces, layers) of a texture; texel_byte(k) for
 * byte k of an integer one.  Each texture is laid out in a host buffer as
 * the chain of vgpu_array.h puts it in VRAM; the sampler reads it through
 * its read callback.  One TAP case per texture, sampler state and kind
 * of request (tests/lib/golden_cases.c); what the sampler does not
 * match yet is a TAP TODO (todo_reason()).  The one-hot lines (w3d, wmip) pin every weight of
 * trilinear and mip-linear filtering, s8tab every s8 conversion.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden_cases.h"
#include "tap.h"
#include "tex_sampler.h"
#include "vgpu_array.h"

static unsigned char texel_byte(size_t k)
{
	return (unsigned char)(k * 37 + 11);
}

static float texel_id(size_t e)
{
	return (float)(e % 4096);
}

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

/* The value after "KEY=" in @line (NULL if none). */
static const char *field(const char *line, const char *key)
{
	char k[24];
	const char *p;

	snprintf(k, sizeof(k), " %s=", key);
	p = strstr(line, k);
	return p ? p + strlen(k) : NULL;
}

static uint32_t hex_field(const char *line, const char *key)
{
	const char *p = field(line, key);

	return p ? (uint32_t)strtoul(p, NULL, 16) : 0;
}

static int int_field(const char *line, const char *key)
{
	const char *p = field(line, key);

	return p ? atoi(p) : 0;
}

static float as_float(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static int word_is(const char *line, const char *key, const char *word)
{
	const char *p = field(line, key);

	return p && !strncmp(p, word, strlen(word)) &&
	       (p[strlen(word)] == ' ' || p[strlen(word)] == '\n');
}

static int lookup_addr(const char *line)
{
	static const char *const modes[] = { "wrap", "clamp", "mirror",
					     "border" };

	for (int i = 0; i < 4; i++)
		if (word_is(line, "addr", modes[i]))
			return i;
	return VGPU_TEX_CLAMP;
}

static unsigned int format_of(const char *name)
{
	static const struct {
		const char *name;
		unsigned int format;
	} formats[] = {
		{ "u8", VGPU_TEX_U8 }, { "s8", VGPU_TEX_S8 },
		{ "u16", VGPU_TEX_U16 }, { "s16", VGPU_TEX_S16 },
		{ "u32", VGPU_TEX_U32 }, { "s32", VGPU_TEX_S32 },
		{ "f16", VGPU_TEX_F16 }, { "f32", VGPU_TEX_F32 },
	};

	for (size_t k = 0; k < sizeof(formats) / sizeof(formats[0]); k++)
		if (!strcmp(name, formats[k].name))
			return formats[k].format;
	return 0;
}

/*
 * Lay out the texels of t->d (format, channels, sizes, levels, layered)
 * as the mip chain of vgpu_array.h; 0 on success.
 */
static int build(struct texture *t)
{
	unsigned int bytes = vgpu_tex_format_bytes(t->d.format);
	unsigned int elem = bytes * t->d.channels, levels = t->d.levels;
	int layered = t->d.layered || t->d.cubemap;
	struct vgpu_bl_layout l;
	size_t g = 0;	/* elements (channels) so far, over all levels */

	vgpu_mip_level(t->d.width, t->d.height, t->d.depth, elem, layered, 0,
		       &l);
	t->d.block_h_log2 = l.bh;
	t->d.block_d_log2 = l.bd;
	if (!vgpu_tex_desc_ok(&t->d))
		return -1;
	t->size = vgpu_mip_level(t->d.width, t->d.height, t->d.depth, elem,
				 layered, levels, NULL);
	t->mem = calloc(t->size, 1);
	for (unsigned int lv = 0; lv < levels; lv++) {
		uint64_t off = vgpu_mip_level(t->d.width, t->d.height,
					      t->d.depth, elem, layered, lv,
					      &l);
		uint32_t w = l.row_bytes / elem;

		for (uint32_t z = 0; z < l.depth; z++)
			for (uint32_t y = 0; y < l.height; y++)
				for (uint32_t x = 0; x < w * t->d.channels;
				     x++, g++) {
					unsigned char *p = t->mem + off +
						vgpu_bl_offset(&l, x * bytes,
							       y, z);

					if (t->d.format == VGPU_TEX_F32) {
						float v = texel_id(g);

						memcpy(p, &v, 4);
						continue;
					}
					/* byte-wise: bytes never straddle a 16-byte piece */
					for (unsigned int b = 0; b < bytes; b++)
						p[b] = texel_byte(g * bytes + b);
				}
	}
	return 0;
}

/*
 * The one-hot weight lines: a float texture that is 1 at texel @k and 0
 * elsewhere (w3d: 2x2x2, unnormalized; wmip: 2x2 and 1x1 levels,
 * normalized, mip-linear), so the fetch returns texel k's weight; and
 * s8tab: an s8 value through the linear filter, all weight on it.
 */
static int parse_table(const char *line, struct texture *t,
		       struct vgpu_tex_request *req, uint32_t want[4])
{
	const char *arrow = strstr(line, "->");
	int k = 0, v = 0;
	float one = 1.0f;

	if (!arrow || sscanf(arrow, "-> %x", &want[0]) != 1)
		return -1;
	want[1] = want[2] = want[3] = 0;
	t->d.format = VGPU_TEX_F32;
	t->d.channels = 1;
	t->d.filter = VGPU_TEX_LINEAR_FILTER;
	t->d.width = t->d.height = 2;
	t->d.depth = 1;
	t->d.levels = 1;
	t->d.dims = 2;
	t->d.address[0] = t->d.address[1] = t->d.address[2] = VGPU_TEX_CLAMP;
	t->d.max_lod = 100.0f;
	req->c[0] = as_float(hex_field(line, "x"));
	req->c[1] = as_float(hex_field(line, "y"));
	req->c[2] = as_float(hex_field(line, "z"));
	if (!strncmp(line, "s8tab ", 6)) {
		int8_t b;

		if (sscanf(line, "s8tab %d", &v) != 1)
			return -1;
		b = (int8_t)v;
		t->d.format = VGPU_TEX_S8;
		t->d.read_mode = VGPU_TEX_NORMALIZED;
		t->d.width = t->d.height = 1;
		req->c[0] = req->c[1] = 0.5f;
		if (build(t))
			return -1;
		memcpy(t->mem, &b, 1);	/* texel (0, 0) */
		return 0;
	}
	sscanf(line, "%*s %d", &k);
	if (!strncmp(line, "w3d ", 4)) {
		t->d.depth = 2;
		t->d.dims = 3;
	} else {
		t->d.levels = 2;
		t->d.normalized = 1;
		t->d.mip_filter = VGPU_TEX_LINEAR_FILTER;
		req->lod_kind = VGPU_TEX_LOD_LEVEL;
		req->lod = as_float(hex_field(line, "lod"));
	}
	if (build(t))
		return -1;
	memset(t->mem, 0, t->size);
	if (t->d.levels == 2 && k == 4) {
		struct vgpu_bl_layout l;
		uint64_t off = vgpu_mip_level(2, 2, 1, 4, 0, 1, &l);

		memcpy(t->mem + off + vgpu_bl_offset(&l, 0, 0, 0), &one, 4);
	} else {
		memcpy(t->mem + vgpu_tex_texel_va(&t->d, 0, (uint32_t)k & 1,
						  (uint32_t)k >> 1 & 1,
						  (uint32_t)k >> 2),
		       &one, 4);
	}
	return 0;
}

/* The texture and request of one recorded line; 0 on success. */
static int parse(const char *line, struct texture *t,
		 struct vgpu_tex_request *req, uint32_t want[4])
{
	char kind[8], fmt[8];
	int ch, w, h, n;
	const char *arrow = strstr(line, "->");

	memset(t, 0, sizeof(*t));
	memset(req, 0, sizeof(*req));
	req->gather = -1;
	if (!strncmp(line, "w3d ", 4) || !strncmp(line, "wmip ", 5) ||
	    !strncmp(line, "s8tab ", 6))
		return parse_table(line, t, req, want);
	if (!arrow || sscanf(line, "%7s %7s %d %d%n", kind, fmt, &ch, &w,
			     &n) != 4 ||
	    sscanf(arrow, "-> %x %x %x %x", &want[0], &want[1], &want[2],
		   &want[3]) != 4)
		return -1;
	t->d.format = (uint8_t)format_of(fmt);
	t->d.channels = (uint8_t)ch;
	t->d.width = (uint32_t)w;
	t->d.height = t->d.depth = 1;
	t->d.levels = 1;
	t->d.dims = 2;
	t->d.address[0] = t->d.address[1] = t->d.address[2] =
		(uint8_t)lookup_addr(line);
	t->d.normalized = (uint8_t)int_field(line, "norm");
	t->d.filter = word_is(line, "filter", "linear");
	t->d.border[0] = 0.25f;	/* the probe's border colour */
	t->d.border[1] = -1.5f;
	t->d.border[2] = 7.0f;
	t->d.border[3] = 0.5f;
	t->d.read_mode = word_is(line, "read", "normf");
	t->d.max_lod = 1e9f;
	req->c[0] = as_float(hex_field(line, "x"));
	req->c[1] = as_float(hex_field(line, "y"));
	req->c[2] = as_float(hex_field(line, "z"));
	if (!strcmp(kind, "cube")) {
		int layers = int_field(line, "layers");

		t->d.height = (uint32_t)w;
		t->d.depth = 6u * (uint32_t)(layers ? layers : 1);
		t->d.cubemap = 1;
		t->d.layered = layers > 0;
		t->d.dims = 3;
		t->d.normalized = 1;
		t->d.seamless = (uint8_t)int_field(line, "seamless");
		/* the probe leaves the address mode 0: wrap */
		t->d.address[0] = t->d.address[1] = t->d.address[2] =
			VGPU_TEX_WRAP;
		req->layer = int_field(line, "layer");
		return build(t);
	}
	if (sscanf(line + n, "%d", &h) != 1)
		return -1;
	t->d.height = (uint32_t)h;
	if (!strcmp(kind, "gather")) {
		req->gather = (int8_t)int_field(line, "comp");
	} else if (!strcmp(kind, "offs")) {
		req->offset[0] = int_field(line, "ox");
		req->offset[1] = int_field(line, "oy");
	} else if (!strcmp(kind, "mip")) {
		int levels = 0;

		sscanf(line + n, "%*d %d", &levels);
		t->d.levels = (uint8_t)levels;
		t->d.normalized = 1;
		t->d.address[0] = t->d.address[1] = VGPU_TEX_CLAMP;
		t->d.read_mode = t->d.format != VGPU_TEX_F32;
		t->d.mip_filter = word_is(line, "mipfilter", "linear");
		t->d.lod_bias = as_float(hex_field(line, "bias"));
		t->d.min_lod = as_float(hex_field(line, "minlod"));
		t->d.max_lod = as_float(hex_field(line, "maxlod"));
		t->d.max_aniso = (uint32_t)int_field(line, "aniso");
		if (word_is(line, "kind", "lod")) {
			req->lod_kind = VGPU_TEX_LOD_LEVEL;
			req->lod = as_float(hex_field(line, "lod"));
		} else if (word_is(line, "kind", "grad")) {
			req->lod_kind = VGPU_TEX_LOD_GRAD;
			req->dpdx[0] = as_float(hex_field(line, "dxx"));
			req->dpdx[1] = as_float(hex_field(line, "dxy"));
			req->dpdy[0] = as_float(hex_field(line, "dyx"));
			req->dpdy[1] = as_float(hex_field(line, "dyy"));
		}
	} else {
		return -1;
	}
	return build(t);
}

/* Why a recorded case is not expected to match yet, or NULL. */
static const char *todo_reason(const char *head)
{
	if (strstr(head, "mipfilter=linear") && !strstr(head, "aniso=0 ") &&
	    strstr(head, "kind=grad"))
		return "anisotropic filtering: where the H100 places its samples is not modelled";
	if (!strncmp(head, "grad2 ", 6))
		return "level of detail from two gradients (and under anisotropy): some pairs 1/256 off";
	if (!strncmp(head, "grad ", 5) && !strstr(head, "aniso=0"))
		return "level of detail under anisotropy: 3 of 588 1/256 off";
	return NULL;
}

/*
 * A float texture whose mipmap levels hold @lv0 (level 0) and one more
 * per level, 2 x 2 (@levels 2) or 4 x 4 (3), normalized, linear, clamp.
 */
static int levels_texture(struct texture *t, unsigned int levels,
			  uint32_t aniso)
{
	memset(t, 0, sizeof(*t));
	t->d.format = VGPU_TEX_F32;
	t->d.channels = 1;
	t->d.width = t->d.height = 1u << (levels - 1);
	t->d.depth = 1;
	t->d.dims = 2;
	t->d.levels = (uint8_t)levels;
	t->d.filter = t->d.mip_filter = VGPU_TEX_LINEAR_FILTER;
	t->d.address[0] = t->d.address[1] = VGPU_TEX_CLAMP;
	t->d.normalized = 1;
	t->d.max_lod = 100.0f;
	t->d.max_aniso = aniso;
	if (build(t))
		return -1;
	for (unsigned int lv = 0; lv < levels; lv++)
		for (uint32_t y = 0; y < t->d.height >> lv; y++)
			for (uint32_t x = 0; x < t->d.width >> lv; x++) {
				float v = (float)lv;

				memcpy(t->mem + vgpu_tex_texel_va(&t->d, lv, x,
								  y, 0),
				       &v, 4);
			}
	return 0;
}

/*
 * The level-of-detail lines:
 *   probe_texfid's "grad GX GY aniso=N -> BITS" (dPdx (GX, 0), dPdy
 *   (0, GY)) and "gradxy" (dPdx (GX, GY), dPdy 0) on a 2 x 2 + 1 x 1
 *   texture of levels 0 and 1, read at (0.5, 0.5): level 1's weight;
 *   probe_texrest's "remap A K" (tex2DLod at K/256) and "grad2 A DXX DXY
 *   DYX DYY" (tex2DGrad) on a 4 x 4 + 2 x 2 + 1 x 1 one of levels 0, 1
 *   and 2: the level position, maxAnisotropy A.
 * One case per kind of line and anisotropy.
 */
static void lod_line(void *ctx, const char *line)
{
	struct golden_cases *g = ctx;
	struct texture tex;
	struct vgpu_tex_request req = { .gather = -1 };
	uint32_t gx, gy, gz, gw, want, got[4] = { 0, 0, 0, 0 };
	int aniso, k, bad, xy = !strncmp(line, "gradxy ", 7);
	unsigned int levels = 2;
	float scale = 2.0f;	/* texels of level 0 per normalized unit */
	char head[96];

	if ((!strncmp(line, "grad ", 5) || xy) &&
	    sscanf(line + (xy ? 7 : 5), "%x %x aniso=%d -> %x", &gx, &gy,
		   &aniso, &want) == 4) {
		req.lod_kind = VGPU_TEX_LOD_GRAD;
		req.dpdx[0] = as_float(gx) / scale;
		if (xy)
			req.dpdx[1] = as_float(gy) / scale;	/* dPdy = 0 */
		else
			req.dpdy[1] = as_float(gy) / scale;
		snprintf(head, sizeof(head),
			 "grad aniso=%d: level of detail from gradients", aniso);
	} else if (sscanf(line, "remap %d %d -> %x", &aniso, &k, &want) == 3) {
		levels = 3;
		req.lod_kind = VGPU_TEX_LOD_LEVEL;
		req.lod = (float)k / 256.0f;
		snprintf(head, sizeof(head),
			 "remap aniso=%d: the blend of two levels, every 1/256",
			 aniso);
	} else if (sscanf(line, "grad2 %d %x %x %x %x -> %x", &aniso, &gx,
			  &gy, &gz, &gw, &want) == 6) {
		levels = 3;
		scale = 4.0f;
		req.lod_kind = VGPU_TEX_LOD_GRAD;
		req.dpdx[0] = as_float(gx) / scale;
		req.dpdx[1] = as_float(gy) / scale;
		req.dpdy[0] = as_float(gz) / scale;
		req.dpdy[1] = as_float(gw) / scale;
		snprintf(head, sizeof(head),
			 "grad2 aniso=%d: level of detail from two gradients",
			 aniso);
	} else {
		return;
	}
	req.c[0] = req.c[1] = 0.5f;
	bad = levels_texture(&tex, levels, (uint32_t)aniso) ||
	      vgpu_tex_fetch(&tex.d, host_read, &tex, &req, got) ||
	      got[0] != want;
	if (golden_line(g, head, bad))
		tap_diag("%.*s: %g/256", (int)strcspn(line, "\n"), line,
			 as_float(got[0]) * 256);
	free(tex.mem);
}

/* A "mip", "gather", "offs", "cube" or table line of probe_tex. */
static void fetch_line(void *ctx, const char *line)
{
	struct golden_cases *g = ctx;
	struct vgpu_tex_request req;
	struct texture tex;
	uint32_t want[4], got[4];
	const char *x = strstr(line, " x=");
	char head[256];
	int bad, table = !strncmp(line, "w3d ", 4) ||
			 !strncmp(line, "wmip ", 5) ||
			 !strncmp(line, "s8tab ", 6);

	if (strncmp(line, "mip ", 4) && strncmp(line, "gather ", 7) &&
	    strncmp(line, "offs ", 5) && strncmp(line, "cube ", 5) && !table)
		return;
	if ((!x && !table) || !strstr(line, "->"))
		return;	/* an error line of the probe */
	if (table)	/* "s8tab"; "w3d K", "wmip K": per texel K */
		snprintf(head, sizeof(head), "%.*s",
			 (int)(line[0] == 's' ? strcspn(line, " ") :
			       (size_t)(strchr(line, ' ') - line) + 2),
			 line);
	else
		snprintf(head, sizeof(head), "%.*s", (int)(x - line), line);
	memset(got, 0, sizeof(got));
	bad = parse(line, &tex, &req, want);
	if (!bad)
		bad = vgpu_tex_fetch(&tex.d, host_read, &tex, &req, got) ||
		      memcmp(got, want, sizeof(got));
	if (golden_line(g, head, bad))
		tap_diag("%s: %08x %08x %08x %08x, H100 %08x %08x %08x %08x",
			 x ? x + 1 : line, got[0], got[1], got[2], got[3],
			 want[0], want[1], want[2], want[3]);
	free(tex.mem);
}

int main(void)
{
	struct tap t = { 0 };
	struct golden_cases g = { .t = &t, .todo = todo_reason };

	printf("TAP version 13\n");
	golden_each_line(&g, GOLDEN_TEX_FILE, fetch_line, &g);
	golden_each_line(&g, GOLDEN_TEXFID_FILE, lod_line, &g);
	golden_each_line(&g, GOLDEN_TEXREST_FILE, lod_line, &g);
	printf("1..%d\n", t.n);
	tap_diag("%d cases TODO (not bit-identical yet): TAP known failures",
		 g.todo_cases);
	return tap_done(&t);
}
