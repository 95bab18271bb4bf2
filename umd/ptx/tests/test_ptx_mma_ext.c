// SPDX-License-Identifier: GPL-2.0
/*
 * test_ptx_mma_ext - the mma.sync kinds of the second recording,
 * tools/cuda-probe/golden/probe_mma_ext.h100.txt (probe_mma.cu, part E),
 * compiled by this compiler and run on the execution core (both tiers,
 * through tests/lib's native test GPU), bit for bit against the H100:
 *
 *  - integers whose A and B differ in signedness (.s8.u8, .u8.s8,
 *    .s4.u4, .u4.s4), with and without .satfinite, accumulators near the
 *    s32 limits;
 *  - fp8 (.e4m3, .e5m2 and their mixes) m16n8k32 and m16n8k16 with f32
 *    accumulators, and m16n8k32 with f16 accumulators (some of these
 *    are a known gap: known_gap() says which);
 *  - f64 m16n8k4, m16n8k8 and m16n8k16.
 *
 * Each lane's registers are packed on the host by the PTX ISA's figures
 * for mma.sync (written out here, not taken from vgpu_mma.h), the kernel
 * loads them, runs the one mma.sync and stores D's registers; the host
 * unpacks D the same way and compares it with the recording.  Plus the
 * errors: mixes the hardware does not have are refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_test.h"
#include "test_gpu.h"

#define GOLDEN PTX_TEST_SRC "/../../../tools/cuda-probe/golden/probe_mma_ext.h100.txt"

static const char prologue[] =
	".version 8.7\n.target sm_90\n.address_size 64\n"
	".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc,"
	" .param .u64 pd)\n{\n"
	".reg .b32 %ra<8>, %rb<4>, %rc<4>, %rd<4>, %r<2>;\n"
	".reg .f64 %fa<8>, %fb<4>, %fc<4>, %fd<4>;\n"
	".reg .b64 %p<8>;\n"
	"ld.param.u64 %p0, [pa];\nld.param.u64 %p1, [pb];\n"
	"ld.param.u64 %p2, [pc];\nld.param.u64 %p3, [pd];\n"
	"cvta.to.global.u64 %p0, %p0;\ncvta.to.global.u64 %p1, %p1;\n"
	"cvta.to.global.u64 %p2, %p2;\ncvta.to.global.u64 %p3, %p3;\n"
	"mov.u32 %r0, %laneid;\nmul.wide.u32 %p4, %r0, 64;\n"
	"add.u64 %p5, %p0, %p4;\nadd.u64 %p6, %p1, %p4;\n"
	"add.u64 %p7, %p2, %p4;\nadd.u64 %p4, %p3, %p4;\n";

static struct test_gpu gpu;
static unsigned int failures;
static uint64_t bufs[4];
#define LANE_BYTES	64
#define BUF_SIZE	(32 * LANE_BYTES)

/* One D line: "D mma <shape> <atype>[.<btype>] <ctype> [satf] mode N:" */
struct ext_case {
	char shape[16], at[8], bt[8], ct[8];
	unsigned int m, n, k, bits;	/* bits of A and B elements */
	bool satf, f64, c16;
};

static bool parse_case(const char *line, struct ext_case *c)
{
	char ab[20];

	memset(c, 0, sizeof(*c));
	if (sscanf(line, "D mma %15s %19s %7s", c->shape, ab, c->ct) != 3 ||
	    sscanf(c->shape, "m%un%uk%u", &c->m, &c->n, &c->k) != 3)
		return false;
	if (sscanf(ab, "%7[^.].%7s", c->at, c->bt) != 2)
		snprintf(c->bt, sizeof(c->bt), "%s", strcpy(c->at, ab));
	c->satf = strstr(line, " satf ") != NULL;
	c->f64 = !strcmp(c->at, "f64");
	if (c->f64)		/* "D mma m16n8k4 f64 mode N" */
		strcpy(c->ct, "f64");
	c->c16 = !strcmp(c->ct, "f16");
	c->bits = c->f64 ? 64 : !strcmp(c->at, "s4") || !strcmp(c->at, "u4") ?
		  4 : 8;
	return c->m * c->k <= 16 * 64 && c->n == 8;
}

/* Parse "I x: hex hex ..." into @buf, elements of @es bytes. */
static unsigned int parse_hex(const char *line, uint8_t *buf, unsigned int es,
			      unsigned int max)
{
	const char *q = strchr(line, ':');
	unsigned int n = 0;

	while (q && n < max) {
		unsigned long long v;
		int used;

		if (sscanf(q + 1, " %llx%n", &v, &used) != 1)
			break;
		memcpy(buf + (size_t)n * es, &v, es);
		n++;
		q += used;
	}
	return n;
}

/*
 * The PTX ISA's mma.sync fragments; g = lane / 4, t = lane % 4, e
 * elements per register (32 / bits; f64: 1 per 64-bit register):
 *   A (16 rows): register r, element j at (g + 8 (r % 2), e t + j + 4e (r / 2))
 *   A (8 rows):  (g, e t + j + 4e r)
 *   B:           (k, n) = (e t + j + 4e r, g)
 *   C (16 rows): register r at (g + 8 (r / 2), 2 t + r % 2); 8 rows (g, 2t + r)
 *   C of f16x2:  register r holds (g + 8 r, 2t) and (g + 8 r, 2t + 1)
 */
static void a_pos(const struct ext_case *c, unsigned int l, unsigned int r,
		  unsigned int j, unsigned int *row, unsigned int *col)
{
	unsigned int e = c->f64 ? 1 : 32 / c->bits, g = l / 4, t = l % 4;

	*row = c->m == 16 ? g + 8 * (r % 2) : g;
	*col = e * t + j + 4 * e * (c->m == 16 ? r / 2 : r);
}

static void c_pos(const struct ext_case *c, unsigned int l, unsigned int r,
		  unsigned int *row, unsigned int *col)
{
	unsigned int g = l / 4, t = l % 4;

	if (c->c16) {
		*row = g + 8 * r;
		*col = 2 * t;
	} else {
		*row = c->m == 16 ? g + 8 * (r / 2) : g;
		*col = 2 * t + (c->m == 16 ? r % 2 : r);
	}
}

static void regs(char *buf, size_t len, char kind, unsigned int n, bool f64)
{
	size_t o = (size_t)snprintf(buf, len, "{");

	for (unsigned int i = 0; i < n; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%%%c%c%u",
				      i ? ", " : "", f64 ? 'f' : 'r', kind, i);
	snprintf(buf + o, len - o, "}");
}

static bool run(const char *what, const char *text, const uint64_t p[4],
		char *msg, size_t msglen)
{
	const uint32_t grid[3] = { 1, 1, 1 }, block[3] = { 32, 1, 1 };
	char err[256];
	struct vgpu_core_fault f;
	struct tg_module m;
	void *img = NULL;
	size_t size;
	int r;

	if (t_compile("mma.ptx", text, &img, &size, msg, msglen)) {
		free(img);
		return false;
	}
	if (tg_load(&gpu, img, size, &m, err, sizeof(err))) {
		t_diag("%s: load: %s", what, err);
		free(img);
		return false;
	}
	free(img);
	r = tg_launch(&gpu, &m, "k", grid, block, 0, p, 4 * sizeof(uint64_t),
		      &f);
	if (r)
		t_diag("%s: launch %d: %s", what, r, f.message);
	tg_unload(&m);
	return r == 0;
}

/*
 * Where vGPU's fp8 accumulation is not yet the H100's (see
 * Documentation/tensor-cores.rst, "Not done"): f16 accumulators, and
 * with f32 the modes with wide exponent ranges (1, 4), the adder-width
 * probes (8, 9) and NaN/infinity mixes (10).  These still compile and
 * run; their bits are reported, not asserted.
 */
static bool known_gap(const struct ext_case *c, const char *line)
{
	unsigned int mode = 0;

	if (c->at[0] != 'e')
		return false;
	sscanf(strstr(line, " mode ") + 1, "mode %u", &mode);
	return c->c16 || mode == 1 || mode == 4 || mode >= 8;
}

static void check_case(char **lines, unsigned int d)
{
	static uint8_t A[16 * 64 * 8], B[64 * 8 * 8], C[16 * 8 * 8], D[16 * 8 * 8];
	unsigned int es, cs, e, na, nb, nc, bad = 0;
	char text[8192], what[96], la[128], lb[128], lc[128], ld[128], msg[512];
	const char *vt;
	struct ext_case c;
	uint64_t p[4];
	uint8_t *ha, *hb, *hc, *hd;
	size_t o;

	snprintf(what, sizeof(what), "%.*s",
		 (int)(strchr(lines[d], ':') - lines[d] - 2), lines[d] + 2);
	if (d < 3 || !parse_case(lines[d], &c)) {
		t_ok(false, "'%s': a case this test knows", what);
		failures++;
		return;
	}
	es = c.f64 ? 8 : 1;
	cs = c.f64 ? 8 : c.c16 ? 2 : 4;
	e = c.f64 ? 1 : 32 / c.bits;
	na = c.m * c.k / 32 / e;
	nb = c.k * c.n / 32 / e;
	nc = c.m * c.n / 32 / (c.c16 ? 2 : 1);
	parse_hex(lines[d - 3], A, es, c.m * c.k);
	parse_hex(lines[d - 2], B, es, c.k * c.n);
	parse_hex(lines[d - 1], C, cs, c.m * c.n);
	parse_hex(lines[d], D, cs, c.m * c.n);
	memcpy(p, bufs, sizeof(p));
	ha = tg_host(&gpu, p[0]);
	hb = tg_host(&gpu, p[1]);
	hc = tg_host(&gpu, p[2]);
	hd = tg_host(&gpu, p[3]);
	memset(hd, 0xee, BUF_SIZE);
	for (unsigned int l = 0; l < 32; l++) {
		for (unsigned int r = 0; r < na; r++) {
			uint64_t v = 0;

			for (unsigned int j = 0; j < e; j++) {
				unsigned int row, col;

				a_pos(&c, l, r, j, &row, &col);
				if (c.f64)
					memcpy(&v, A + (row * c.k + col) * 8, 8);
				else
					v |= (uint64_t)(A[row * c.k + col] &
						((1u << c.bits) - 1)) << (j * c.bits);
			}
			memcpy(ha + l * LANE_BYTES + r * (c.f64 ? 8 : 4), &v,
			       c.f64 ? 8 : 4);
		}
		for (unsigned int r = 0; r < nb; r++) {
			uint64_t v = 0;

			for (unsigned int j = 0; j < e; j++) {
				unsigned int k = e * (l % 4) + j + 4 * e * r;
				unsigned int n = l / 4;

				if (c.f64)
					memcpy(&v, B + (k * c.n + n) * 8, 8);
				else
					v |= (uint64_t)(B[k * c.n + n] &
						((1u << c.bits) - 1)) << (j * c.bits);
			}
			memcpy(hb + l * LANE_BYTES + r * (c.f64 ? 8 : 4), &v,
			       c.f64 ? 8 : 4);
		}
		for (unsigned int r = 0; r < nc; r++) {
			unsigned int row, col;

			c_pos(&c, l, r, &row, &col);
			memcpy(hc + l * LANE_BYTES + r * (c.f64 ? 8 : 4),
			       C + (row * c.n + col) * cs, c.f64 ? 8 : 4);
		}
	}
	regs(la, sizeof(la), 'a', na, c.f64);
	regs(lb, sizeof(lb), 'b', nb, c.f64);
	regs(lc, sizeof(lc), 'c', nc, c.f64);
	regs(ld, sizeof(ld), 'd', nc, c.f64);
	vt = c.f64 ? "f64" : "b32";
	o = (size_t)snprintf(text, sizeof(text), "%s", prologue);
	for (unsigned int r = 0; r < na; r++)
		o += (size_t)snprintf(text + o, sizeof(text) - o,
			"ld.global.%s %%%ca%u, [%%p5+%u];\n", vt,
			c.f64 ? 'f' : 'r', r, r * (c.f64 ? 8 : 4));
	for (unsigned int r = 0; r < nb; r++)
		o += (size_t)snprintf(text + o, sizeof(text) - o,
			"ld.global.%s %%%cb%u, [%%p6+%u];\n", vt,
			c.f64 ? 'f' : 'r', r, r * (c.f64 ? 8 : 4));
	for (unsigned int r = 0; r < nc; r++)
		o += (size_t)snprintf(text + o, sizeof(text) - o,
			"ld.global.%s %%%cc%u, [%%p7+%u];\n", vt,
			c.f64 ? 'f' : 'r', r, r * (c.f64 ? 8 : 4));
	o += (size_t)snprintf(text + o, sizeof(text) - o,
		"mma.sync.aligned.%s.row.col%s.%s.%s.%s.%s %s, %s, %s, %s;\n",
		c.shape, c.satf ? ".satfinite" : "",
		!strcmp(c.ct, "s32") ? "s32" : c.ct, c.at, c.bt, c.ct,
		ld, la, lb, lc);
	for (unsigned int r = 0; r < nc; r++)
		o += (size_t)snprintf(text + o, sizeof(text) - o,
			"st.global.%s [%%p4+%u], %%%cd%u;\n", vt,
			r * (c.f64 ? 8 : 4), c.f64 ? 'f' : 'r', r);
	snprintf(text + o, sizeof(text) - o, "ret;\n}\n");
	if (!run(what, text, p, msg, sizeof(msg))) {
		t_ok(false, "%s runs: %s", what, msg);
		failures++;
		return;
	}
	for (unsigned int l = 0; l < 32; l++)
		for (unsigned int r = 0; r < nc; r++) {
			unsigned int row, col, sz = c.f64 ? 8 : 4;
			uint64_t got = 0, want = 0;

			c_pos(&c, l, r, &row, &col);
			memcpy(&got, hd + l * LANE_BYTES + r * sz, sz);
			memcpy(&want, D + (row * c.n + col) * cs, sz);
			if (got != want && bad++ < 3)
				t_diag("%s: lane %u register %u (D[%u][%u]) = "
				       "%#llx, H100 %#llx", what, l, r, row,
				       col, (unsigned long long)got,
				       (unsigned long long)want);
		}
	if (known_gap(&c, lines[d])) {
		/* it ran (checked above); the bits are not there yet */
		t_diag("%s: KNOWN GAP, fp8 accumulation: %u of %u registers "
		       "differ from the H100", what, bad, 32 * nc);
		return;
	}
	if (!t_ok(!bad, "%s: D bit for bit (%u of %u registers differ)",
		  what, bad, 32 * nc))
		failures++;
}

/* What the hardware does not have is refused, with a message. */
static void check_errors(void)
{
	static const struct {
		const char *insn, *want;
	} cases[] = {
		{ "mma.sync.aligned.m16n8k32.row.col.s32.s8.s4.s32 "
		  "{%rd0, %rd1, %rd2, %rd3}, {%ra0, %ra1, %ra2, %ra3}, "
		  "{%rb0, %rb1}, {%rc0, %rc1, %rc2, %rc3};",
		  "with these types is not supported" },
		{ "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.f16.f32 "
		  "{%rd0, %rd1, %rd2, %rd3}, {%ra0, %ra1, %ra2, %ra3}, "
		  "{%rb0, %rb1}, {%rc0, %rc1, %rc2, %rc3};",
		  "with these types is not supported" },
		{ "mma.sync.aligned.m16n8k8.row.col.f32.e4m3.e4m3.f32 "
		  "{%rd0, %rd1, %rd2, %rd3}, {%ra0, %ra1}, "
		  "{%rb0}, {%rc0, %rc1, %rc2, %rc3};",
		  "with this shape and type is not supported" },
		{ "mma.sync.aligned.m16n8k32.row.col.satfinite.f32.e4m3.e4m3.f32 "
		  "{%rd0, %rd1, %rd2, %rd3}, {%ra0, %ra1, %ra2, %ra3}, "
		  "{%rb0, %rb1}, {%rc0, %rc1, %rc2, %rc3};",
		  "'.satfinite' on 'mma' with e4m3 inputs" },
	};
	char text[2048], msg[512];

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		void *img = NULL;
		size_t size;

		snprintf(text, sizeof(text), "%s%s\nret;\n}\n", prologue,
			 cases[i].insn);
		t_ok(t_compile("e.ptx", text, &img, &size, msg, sizeof(msg)) &&
		     strstr(msg, cases[i].want), "refused: %.60s: %s",
		     cases[i].insn, msg);
		free(img);
	}
}

int main(void)
{
	char *text = tg_read_text(GOLDEN), **lines = NULL, *save = NULL, *l;
	unsigned int n = 0, cap = 0, cases = 0;

	t_start();
	if (!t_ok(text != NULL, "read %s", GOLDEN))
		return t_done();
	for (l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (n == cap) {
			cap = cap ? cap * 2 : 1024;
			lines = realloc(lines, cap * sizeof(*lines));
			if (!lines)
				abort();
		}
		lines[n++] = l;
	}
	if (!t_ok(!tg_init(&gpu, 1), "native test GPU"))
		return t_done();
	for (int i = 0; i < 4; i++)
		bufs[i] = tg_alloc(&gpu, BUF_SIZE);
	for (unsigned int i = 0; i < n; i++)
		if (!strncmp(lines[i], "D ", 2)) {
			check_case(lines, i);
			cases++;
		}
	t_ok(cases == 128, "the recording has its 128 products (%u)", cases);
	check_errors();
	t_diag("%u checks failed", failures);
	tg_fini(&gpu);
	free(lines);
	free(text);
	return t_done();
}
