// SPDX-License-Identifier: GPL-2.0
/*
 * test_objdump.c - vgpu-objdump prints a valid image (kernels, metadata,
 * symbols, disassembly with line information) and refuses a corrupted one
 * with the validator's reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "visa_builder.h"

#ifndef OBJDUMP
#define OBJDUMP "build/bin/vgpu-objdump"
#endif

/* Run the tool on @img and return its output (malloc) and exit status. */
static char *objdump(const void *img, size_t size, int *status)
{
	char path[] = "/tmp/vgpu-objdump-test-XXXXXX", cmd[256];
	int fd = mkstemp(path);
	size_t cap = 1 << 16, n = 0;
	char *out = calloc(1, cap);
	FILE *p;

	if (fd < 0 || write(fd, img, size) != (ssize_t)size) {
		*status = -1;
		return out;
	}
	close(fd);
	snprintf(cmd, sizeof(cmd), "%s %s 2>&1", OBJDUMP, path);
	p = popen(cmd, "r");
	if (p) {
		n = fread(out, 1, cap - 1, p);
		out[n] = 0;
		*status = pclose(p);
	}
	unlink(path);
	return out;
}

int main(void)
{
	struct tap t = { 0 };
	struct vb *b = vb_new();
	struct visa_insn *i;
	uint32_t fn;
	size_t size;
	uint8_t *img;
	char *out;
	int st;

	tap_plan(3);
	vb_global(b, "x", 2, 8);
	fn = vb_func(b, "my_kernel", VISA_FUNC_KERNEL);
	vb_line(b, 0, "k.ptx", 7);
	i = vb_op(b, VISA_OP_ADD, VISA_T_U32);
	i->d = 0; i->a = 0; i->b = vb_lit(b, 42);
	i = vb_op(b, VISA_OP_SETP, VISA_T_S32);
	i->mod = VISA_MOD_MKSUB(VISA_CMP_LT); i->pd = 0; i->a = 0; i->b = 0;
	vb_bra(b, 0, 3)->guard = 0;
	vb_exit(b);
	vb_end_func(b, 1, 1, 0);
	vb_kernel(b, "my_kernel", fn, 16, 128);
	img = vb_finish(b, &size);
	vb_free(b);

	out = objdump(img, size, &st);
	tap_ok(&t, st == 0 && strstr(out, "my_kernel") &&
	       strstr(out, "params 16 bytes") && strstr(out, "shared 128"),
	       "kernels and their metadata are listed");
	tap_ok(&t, strstr(out, "add.u32") && strstr(out, "0x2a") &&
	       strstr(out, "@p0 bra") && strstr(out, "reconverge 3") &&
	       strstr(out, "k.ptx:7"), "instructions, literals, reconvergence "
	       "points and PTX lines are shown");
	if (!strstr(out, "add.u32"))
		printf("%s", out);
	free(out);

	img[0] ^= 0xff;		/* bad magic */
	out = objdump(img, size, &st);
	tap_ok(&t, st != 0 && strstr(out, "invalid vISA image") &&
	       strstr(out, "magic"), "a corrupted image is refused with the "
	       "reason");
	free(out);
	free(img);
	return tap_done(&t);
}
