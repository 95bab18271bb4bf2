// SPDX-License-Identifier: GPL-2.0
/*
 * test_ptx_mma_qs - mma.m8n8k4 with f16 inputs (Volta's quad pairs) and
 * sparse mma.sp as recorded on an H100 in tools/cuda-probe/golden/probe_mma_qs.h100.txt
 * (probe_mma.cu, part Q), compiled by this compiler and run on the
 * execution core (both tiers, through tests/lib's native test GPU).
 *
 * The recording holds registers, not matrices: for every lane its input
 * registers ("I r": a0-3 b0-3 c0-7 e) and its output registers.  Each
 * case loads exactly those registers into the lanes, runs the one
 * mma.sync and compares every output register with the H100's, bit for
 * bit.  So the fragment layouts of include/vgpu_mma.h (the PTX ISA's
 * quad-pair figures) and the adder are checked together against the
 * hardware, in all four layouts and three accumulator kinds.  Plus the
 * errors: the combinations ptxas refuses are refused.
 *
 * The same for mma.sp and mma.sp::ordered_metadata (part S): f16, bf16
 * (f32 and f16 accumulators), s8, u8 and s8.u8 with .satfinite, every
 * sparsity selector of m16n8k16 f16; the metadata's layout is
 * include/vgpu_mma.h's visa_mma_sp_meta().  The file's F part (the fp8
 * adder) is test_ptx_mma_ext's business.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mma_test.h"

#define GOLDEN PTX_TEST_SRC "/../../../tools/cuda-probe/golden/probe_mma_qs.h100.txt"

#define RW_IN	17	/* words per lane in an "I r" line */
#define RW_OUT	8	/* words per lane in its "D" line */
#define BUF_SIZE (32 * 128)

static const char prologue[] =
	".version 8.7\n.target sm_90\n.address_size 64\n"
	".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc,"
	" .param .u64 pd)\n{\n"
	".reg .b32 %ra<4>, %rb<4>, %rc<8>, %rd<8>, %r<2>, %re;\n"
	".reg .b64 %p<8>;\n"
	"ld.param.u64 %p0, [pa];\nld.param.u64 %p3, [pd];\n"
	"cvta.to.global.u64 %p0, %p0;\ncvta.to.global.u64 %p3, %p3;\n"
	"mov.u32 %r0, %laneid;\nmul.wide.u32 %p4, %r0, 128;\n"
	"add.u64 %p5, %p0, %p4;\nadd.u64 %p4, %p3, %p4;\n";

static struct test_gpu gpu;
static unsigned int failures;
static uint64_t bufs[4];

/*
 * The instruction a record's name describes, and its register counts:
 *   "D mma m8n8k4 <a>.<b> <d>.<c> mode N"
 *   "D mma.sp[::ordered_metadata] <shape> <a>[.<b>] <c> [satf] sel S mode N"
 * (mma.sp's D has C's type; *sel gets its selector.)  Returns false for
 * a name it cannot read.
 */
static bool describe(const char *line, char *insn, size_t len,
		     unsigned int n[4], unsigned int *sel)
{
	char op[32], shape[16], ab[16], at[8], bt[8], dt[8], ct[8];
	unsigned int k = 0, bits;
	const char *satf = strstr(line, " satf ") ? ".satfinite" : "";
	char lay[2][4];

	if (sscanf(line, "D mma m8n8k4 %3[a-z].%3[a-z] %7[a-z0-9].%7[a-z0-9]",
		   lay[0], lay[1], dt, ct) == 4) {
		n[0] = n[1] = 2;
		n[2] = !strcmp(ct, "f32") ? 8 : 4;
		n[3] = !strcmp(dt, "f32") ? 8 : 4;
		snprintf(insn, len, "mma.sync.aligned.m8n8k4.%s.%s.%s.f16.f16.%s",
			 lay[0], lay[1], dt, ct);
		return true;
	}
	if (sscanf(line, "D %31s %15s %15s %7s", op, shape, ab, ct) != 4 ||
	    strncmp(op, "mma.sp", 6) || sscanf(shape, "m16n8k%u", &k) != 1 ||
	    !strstr(line, " sel ") ||
	    sscanf(strstr(line, " sel ") + 5, "%u", sel) != 1)
		return false;
	if (sscanf(ab, "%7[^.].%7s", at, bt) != 2)
		snprintf(bt, sizeof(bt), "%s", strcpy(at, ab));
	bits = at[0] == 's' || at[0] == 'u' ? 8 : 16;
	n[0] = k * bits / 128;			/* A: half of 16 x k */
	n[1] = k * bits / 128;			/* B: k x 8 */
	n[2] = n[3] = !strcmp(ct, "f16") ? 2 : 4;
	snprintf(insn, len, "%s.sync.aligned.%s.row.col%s.%s.%s.%s.%s", op,
		 shape, satf, ct, at, bt, ct);
	return true;
}

static void check_raw(char **lines, unsigned int d)
{
	static uint32_t in[32 * RW_IN], want[32 * RW_OUT];
	char what[96], text[4096], insn[128];
	char la[64], lb[64], lc[128], ld[128];
	unsigned int nr[4], sel = 0, bad = 0;
	bool sparse = !strncmp(lines[d], "D mma.sp", 8);
	uint64_t p[4];
	size_t o;

	snprintf(what, sizeof(what), "%.*s",
		 (int)(strrchr(lines[d], ':') - lines[d] - 2), lines[d] + 2);
	if (d < 1 || !describe(lines[d], insn, sizeof(insn), nr, &sel) ||
	    mma_parse_hex(lines[d - 1], (uint8_t *)in, 4, 32 * RW_IN) !=
	    32 * RW_IN ||
	    mma_parse_hex(lines[d], (uint8_t *)want, 4, 32 * RW_OUT) !=
	    32 * RW_OUT) {
		t_ok(false, "'%s': a case this test can read", what);
		failures++;
		return;
	}
	mma_regs(la, sizeof(la), "ra", nr[0]);
	mma_regs(lb, sizeof(lb), "rb", nr[1]);
	mma_regs(lc, sizeof(lc), "rc", nr[2]);
	mma_regs(ld, sizeof(ld), "rd", nr[3]);
	o = (size_t)snprintf(text, sizeof(text), "%s", prologue);
	for (unsigned int r = 0; r < 4; r++)
		o += (size_t)snprintf(text + o, sizeof(text) - o,
				      "ld.global.b32 %%ra%u, [%%p5+%u];\n"
				      "ld.global.b32 %%rb%u, [%%p5+%u];\n",
				      r, 4 * r, r, 4 * (4 + r));
	for (unsigned int r = 0; r < 8; r++)
		o += (size_t)snprintf(text + o, sizeof(text) - o,
				      "ld.global.b32 %%rc%u, [%%p5+%u];\n",
				      r, 4 * (8 + r));
	o += (size_t)snprintf(text + o, sizeof(text) - o,
			      "ld.global.b32 %%re, [%%p5+64];\n%s %s, %s, %s, %s",
			      insn, ld, la, lb, lc);
	if (sparse)
		o += (size_t)snprintf(text + o, sizeof(text) - o, ", %%re, %u",
				      sel);
	o += (size_t)snprintf(text + o, sizeof(text) - o, ";\n");
	for (unsigned int r = 0; r < nr[3]; r++)
		o += (size_t)snprintf(text + o, sizeof(text) - o,
				      "st.global.b32 [%%p4+%u], %%rd%u;\n",
				      4 * r, r);
	snprintf(text + o, sizeof(text) - o, "ret;\n}\n");
	memcpy(p, bufs, sizeof(p));
	for (unsigned int l = 0; l < 32; l++)
		memcpy((uint8_t *)tg_host(&gpu, p[0]) + 128 * l,
		       in + RW_IN * l, 4 * RW_IN);
	memset(tg_host(&gpu, p[3]), 0xee, BUF_SIZE);
	if (!mma_run(&gpu, what, text, p, NULL, 0)) {
		t_ok(false, "%s runs", what);
		failures++;
		return;
	}
	for (unsigned int l = 0; l < 32; l++) {
		const uint32_t *got = (const uint32_t *)
			((uint8_t *)tg_host(&gpu, p[3]) + 128 * l);

		for (unsigned int r = 0; r < nr[3]; r++)
			if (got[r] != want[RW_OUT * l + r] && bad++ < 4)
				t_diag("%s: lane %u d%u = %08x, H100 %08x",
				       what, l, r, got[r], want[RW_OUT * l + r]);
	}
	if (!t_ok(!bad, "%s: every register as the H100's (%u differ)", what,
		  bad))
		failures++;
}

/* What ptxas refuses, and what is not done yet, is refused here too. */
static void check_errors(void)
{
	static const struct {
		const char *insn, *why;
	} cases[] = {
		{ "mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f32 "
		  "{%rd0, %rd1, %rd2, %rd3}, {%ra0, %ra1}, {%rb0, %rb1}, "
		  "{%rc0, %rc1, %rc2, %rc3, %rc4, %rc5, %rc6, %rc7};",
		  ".f16 D with .f32 C" },
		{ "mma.sync.aligned.m8n8k4.f32.f16.f16.f32 "
		  "{%rd0, %rd1, %rd2, %rd3, %rd4, %rd5, %rd6, %rd7}, "
		  "{%ra0, %ra1}, {%rb0, %rb1}, "
		  "{%rc0, %rc1, %rc2, %rc3, %rc4, %rc5, %rc6, %rc7};",
		  "no layouts" },
		{ "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 "
		  "{%rd0, %rd1, %rd2, %rd3}, {%ra0, %ra1}, {%rb0, %rb1}, "
		  "{%rc0, %rc1, %rc2, %rc3, %rc4, %rc5, %rc6, %rc7};",
		  "four registers for an f32 D" },
		{ "wmma.load.a.sync.aligned.row.m8n8k4.f16 "
		  "{%ra0, %ra1}, [%p5];", "wmma has no m8n8k4 f16" },
		{ "mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 "
		  "{%rd0, %rd1, %rd2, %rd3}, {%ra0, %ra1, %ra2, %ra3}, "
		  "{%rb0, %rb1, %rb2, %rb3}, {%rc0, %rc1, %rc2, %rc3}, %re, 2;",
		  "mma.sp m16n8k32 selector 2 (0 or 1)" },
		{ "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
		  "{%rd0, %rd1, %rd2, %rd3}, {%ra0, %ra1}, {%rb0, %rb1}, "
		  "{%rc0, %rc1, %rc2, %rc3}, %re, %r1;",
		  "mma.sp with a register selector" },
		{ "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
		  "{%rd0, %rd1, %rd2, %rd3}, {%ra0, %ra1}, {%rb0, %rb1}, "
		  "{%rc0, %rc1, %rc2, %rc3};", "mma.sp without metadata" },
		{ "mma.sp.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
		  "{%rd0, %rd1, %rd2, %rd3}, {%ra0, %ra1}, {%rb0, %rb1}, "
		  "{%rc0, %rc1, %rc2, %rc3}, %re, 0;", "mma.sp tf32: not yet" },
	};
	char text[2048], msg[512];
	uint64_t p[4];

	memcpy(p, bufs, sizeof(p));
	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text), "%s%s\nret;\n}\n", prologue,
			 cases[i].insn);
		msg[0] = 0;
		if (!t_ok(!mma_run(&gpu, cases[i].why, text, p, msg,
				   sizeof(msg)) && msg[0],
			  "refused: %s (%s)", cases[i].why, msg))
			failures++;
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
		if (!strncmp(lines[i], "D mma m8n8k4 ", 13) ||
		    !strncmp(lines[i], "D mma.sp", 8)) {
			check_raw(lines, i);
			cases++;
		}
	/* Q: 9 kinds x 3 modes; S: 11 kinds x 3 modes + 4 integer x 2 */
	t_ok(cases == 27 + 41, "the recording has its 68 m8n8k4 and mma.sp "
	     "products (%u)", cases);
	check_errors();
	t_diag("%u checks failed", failures);
	tg_fini(&gpu);
	free(lines);
	free(text);
	return t_done();
}
