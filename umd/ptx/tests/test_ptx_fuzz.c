// SPDX-License-Identifier: GPL-2.0
/*
 * test_ptx_fuzz - random mutations of valid PTX must give either an image
 * that passes the structural checks, or a diagnostic with a position and a
 * message: never a crash, a hang or a leak (the -san build runs this under
 * AddressSanitizer and UBSan).
 *
 * The seeds are the PTX files nvcc made for the other tests plus a few
 * hand-written modules.  Mutations delete, insert (PTX-looking tokens or
 * random bytes), duplicate, swap and truncate.  The run is bounded in time
 * (PTX_FUZZ_SECONDS, default 3) and reproducible (PTX_FUZZ_SEED).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ptx_test.h"

static uint64_t rng_state;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static size_t rnd_below(size_t n)
{
	return n ? (size_t)(rnd() % n) : 0;
}

static const char *const tokens[] = {
	"{", "}", "[", "]", "(", ")", ";", ",", ":", "@", "!", "|", "+", "-",
	"=", "<", ">", ".reg", ".b32", ".u64", ".pred", ".v4", ".f32", ".param",
	".shared", ".local", ".global", ".const", ".entry", ".func", ".extern",
	".visible", ".weak", ".align 8", ".loc 1 2 3", ".file 1 \"x.cu\"",
	"%r1", "%rd1", "%p1", "%f1", "%tid.x", "%SP", "_", "0x", "0f", "0d",
	"99999999999999999999", "4294967296", "-1", "1.5e999", "0f7FC00000",
	"bra", "call.uni", "ret;", "exit;", "ld.global.v4.f32", "st.shared.u8",
	"atom.global.cas.b64", "setp.lt.and.s32", "mov.b64", "cvt.rn.f16x2.f32",
	"shfl.sync.bfly.b32", "bar.red.popc.u32", "$L__BB0_1", "$L__BB0_1:",
	"generic(", "/*", "*/", "//", "\"", "\n", "\t", "\0",
};

static void mutate(char *buf, size_t *len, size_t cap)
{
	size_t n = *len, pos = rnd_below(n + 1), span, i;

	switch (rnd() % 7) {
	case 0:		/* delete a span */
		span = 1 + rnd_below(16);
		if (pos + span > n)
			span = n - pos;
		memmove(buf + pos, buf + pos + span, n - pos - span);
		*len = n - span;
		break;
	case 1: {	/* insert a token */
		const char *t = tokens[rnd_below(sizeof(tokens) / sizeof(tokens[0]))];
		size_t tl = strlen(t) ? strlen(t) : 1;

		if (n + tl + 1 > cap)
			break;
		memmove(buf + pos + tl, buf + pos, n - pos);
		memcpy(buf + pos, t, tl);
		*len = n + tl;
		break;
	}
	case 2:		/* replace a byte */
		if (pos < n)
			buf[pos] = (char)(rnd() & 1 ? 32 + rnd_below(95) : rnd_below(256));
		break;
	case 3: {	/* duplicate a line */
		size_t s = pos, e = pos;

		while (s > 0 && buf[s - 1] != '\n')
			s--;
		while (e < n && buf[e] != '\n')
			e++;
		span = e - s;
		if (n + span + 1 > cap)
			break;
		memmove(buf + e + 1, buf + s, n - s);
		if (e < n)
			buf[e] = '\n';
		*len = n + span + 1 > cap ? n : n + span + 1;
		if (*len > cap - 1)
			*len = cap - 1;
		break;
	}
	case 4:		/* truncate */
		*len = pos;
		break;
	case 5:		/* swap two bytes far apart */
		i = rnd_below(n);
		if (pos < n && i < n) {
			char c = buf[pos];

			buf[pos] = buf[i];
			buf[i] = c;
		}
		break;
	default:	/* flip a digit */
		for (i = pos; i < n; i++) {
			if (buf[i] >= '0' && buf[i] <= '9') {
				buf[i] = (char)('0' + rnd_below(10));
				break;
			}
		}
		break;
	}
	buf[*len] = '\0';
}

/* Mutate one seed for the given time; return how many runs misbehaved. */
static unsigned int fuzz_one(const char *name, const char *text, double secs,
			     unsigned long *runs)
{
	size_t len0 = strlen(text), cap = len0 + 4096, len;
	char *buf = malloc(cap);
	unsigned int bad = 0, k, nm;
	clock_t end = clock() + (clock_t)(secs * CLOCKS_PER_SEC);
	char why[256];

	*runs = 0;
	if (!buf)
		return 1;
	do {
		struct vgpu_ptx_source s = { name, buf, 0 };
		struct vgpu_ptx_diag d;
		void *img = NULL;
		size_t size = 0;
		int err;

		memcpy(buf, text, len0 + 1);
		len = len0;
		nm = 1 + (unsigned int)rnd_below(3);
		for (k = 0; k < nm; k++)
			mutate(buf, &len, cap);
		s.len = len;
		err = vgpu_ptx_compile(&s, 1, NULL, &img, &size, &d);
		if (err == VGPU_PTX_OK) {
			if (t_check_image(img, size, why, sizeof(why))) {
				if (!bad)
					t_diag("%s: malformed image: %s", name, why);
				bad++;
			}
		} else if (err < VGPU_PTX_ERR_SYNTAX || err > VGPU_PTX_ERR_LIMIT ||
			   !d.message[0] || img || size ||
			   (err == VGPU_PTX_ERR_SYNTAX && !d.line)) {
			if (!bad)
				t_diag("%s: bad failure %d '%s' line %u", name, err,
				       d.message, d.line);
			bad++;
		}
		vgpu_ptx_free(img);
		(*runs)++;
	} while (clock() < end);
	free(buf);
	return bad;
}

static const char seed_small[] =
	".version 9.0\n.target sm_75\n.address_size 64\n"
	".global .align 8 .u64 p = generic(g);\n.global .u32 g[4] = {1, 2, 3, 4};\n"
	".visible .entry k(.param .u64 a, .param .u32 n)\n.maxntid 128, 1, 1\n{\n"
	".reg .pred %p<3>;\n.reg .b32 %r<9>;\n.reg .b64 %rd<5>;\n"
	".shared .align 4 .b8 s[64];\n.local .align 8 .b8 d[16];\n"
	"ld.param.u64 %rd1, [a];\nld.param.u32 %r1, [n];\nmov.u32 %r2, %tid.x;\n"
	"setp.ge.u32 %p1|%p2, %r2, %r1;\n@%p1 bra $L__end;\n"
	"mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
	"ld.global.u32 %r3, [%rd3];\nst.shared.u32 [s+4], %r3;\nbar.sync 0;\n"
	"shfl.sync.down.b32 %r4|%p2, %r3, 1, 31, -1;\n"
	"atom.global.add.u32 %r5, [%rd3], %r4;\nst.local.u32 [d], %r5;\n"
	"$L__end:\nret;\n}\n"
	".file 1 \"a.cu\"\n"
	".func (.param .b32 r) f(.param .b32 x)\n{\n.reg .b32 %r<3>;\n"
	".loc 1 5 2, function_name $L__info, inlined_at 1 9 3\n"
	"ld.param.b32 %r1, [x];\nmax.s16x2 %r2, %r1, %r1;\nst.param.b32 [r], %r2;\nret;\n}\n"
	".visible .entry k2(.param .u64 a)\n{\n.reg .b64 %rd<4>;\n.reg .b32 %r<4>;\n"
	".shared .align 16 .b8 sh[256];\nld.param.u64 %rd1, [a];\nmov.u32 %r1, sh;\n"
	"cp.async.cg.shared.global [%r1], [%rd1], 16, 16;\ncp.async.commit_group;\n"
	"cp.async.wait_group 0;\nmov.u64 %rd2, f;\n{\n.param .b32 p0;\n"
	"st.param.b32 [p0], 3;\n.param .b32 rv;\n"
	"proto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
	"call (rv), %rd2, (p0), proto;\nld.param.b32 %r2, [rv];\n}\n"
	"vote.sync.ballot.b32 %r3, 1, -1;\nret;\n}\n";

int main(void)
{
	const char *sec_env = getenv("PTX_FUZZ_SECONDS");
	const char *seed_env = getenv("PTX_FUZZ_SEED");
	double total = sec_env ? atof(sec_env) : 3.0;
	char **names;
	unsigned int n = t_list_dir(PTX_TEST_DATA "/sm_75", ".ptx", &names), i;
	unsigned long runs, all = 0;
	unsigned int bad;

	rng_state = seed_env ? strtoull(seed_env, NULL, 0) : 0x5eedf00dULL;
	if (!rng_state)
		rng_state = 1;
	t_start();
	t_diag("seed 0x%llx, %.1f s", (unsigned long long)rng_state, total);
	{
		char msg[512];
		void *img = NULL;
		size_t size;

		t_ok(!t_compile("small.ptx", seed_small, &img, &size, msg, sizeof(msg)),
		     "the hand-written seed compiles unmutated %s", msg);
		vgpu_ptx_free(img);
	}
	bad = fuzz_one("small.ptx", seed_small, total / (n + 1), &runs);
	t_ok(bad == 0, "%lu mutations of a small module", runs);
	all += runs;
	for (i = 0; i < n; i++) {
		char *text = t_read_file(names[i], NULL);

		if (!text)
			continue;
		bad = fuzz_one(names[i], text, total / (n + 1), &runs);
		t_ok(bad == 0, "%lu mutations of %s", runs, names[i]);
		all += runs;
		free(text);
	}
	t_free_list(names, n);
	t_ok(all > 0, "%lu compilations in all", all);
	return t_done();
}
