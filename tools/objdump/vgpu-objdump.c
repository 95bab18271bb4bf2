// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu-objdump - print a vISA image: header, sections, kernels with their
 * metadata, module variables, relocations and the disassembly of every
 * function with its PTX line information.
 *
 *   vgpu-objdump [-h] [-d] FILE
 *     -h  headers, kernels and symbols only
 *     -d  disassembly only
 *
 * The image is validated first (the same validator the firmware runs); an
 * invalid image is reported and not printed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "visa_disasm.h"
#include "vgpu_core.h"

static const char *const sec_names[VISA_SEC_COUNT] = {
	"STRTAB", "CODE", "FUNCS", "KERNELS", "PARAMS", "LITERALS",
	"GLOBAL_INIT", "CONST_INIT", "RELOCS", "SYMBOLS", "LINES",
};

static const void *entry(const struct visa_image_header *h, int sec,
			 uint32_t i)
{
	return (const uint8_t *)h + h->sections[sec].offset +
	       (size_t)i * h->sections[sec].entsize;
}

static uint32_t count(const struct visa_image_header *h, int sec)
{
	return h->sections[sec].size ?
	       h->sections[sec].size / h->sections[sec].entsize : 0;
}

static void print_headers(const struct vgpu_module *m)
{
	const struct visa_image_header *h = vgpu_core_module_header(m);

	printf("vISA %u.%u image, %" PRIu64 " bytes\n", h->version_major,
	       h->version_minor, h->image_size);
	printf("segments: global %" PRIu64 " bytes, const %" PRIu64
	       " bytes\n\nsections:\n", h->global_size, h->const_size);
	for (int i = 0; i < VISA_SEC_COUNT; i++)
		if (h->sections[i].size)
			printf("  %-12s offset %6u size %7u entries %u\n",
			       sec_names[i], h->sections[i].offset,
			       h->sections[i].size, count(h, i));

	printf("\nkernels:\n");
	for (uint32_t i = 0; i < count(h, VISA_SEC_KERNELS); i++) {
		const struct visa_kernel *k = entry(h, VISA_SEC_KERNELS, i);

		printf("  %s (func%u)\n    params %u bytes:", 
		       vgpu_core_module_string(m, k->name), k->func,
		       k->param_size);
		for (uint32_t p = 0; p < k->param_count; p++) {
			const struct visa_param *pr =
				entry(h, VISA_SEC_PARAMS, k->param_first + p);

			printf(" [%u:%u]", pr->offset, pr->size);
		}
		printf("\n    shared %u, local %u, registers %u, max threads "
		       "%u", k->shared_size, k->local_size, k->num_regs,
		       k->max_threads);
		if (k->reqntid[0])
			printf(", reqntid %u,%u,%u", k->reqntid[0],
			       k->reqntid[1], k->reqntid[2]);
		if (k->maxntid[0])
			printf(", maxntid %u,%u,%u", k->maxntid[0],
			       k->maxntid[1], k->maxntid[2]);
		printf("%s%s\n", (k->flags & VISA_KERNEL_USES_PRINTF) ?
		       ", printf" : "", (k->flags & VISA_KERNEL_RECURSIVE) ?
		       ", recursive" : "");
	}
	if (count(h, VISA_SEC_SYMBOLS)) {
		printf("\nsymbols:\n");
		for (uint32_t i = 0; i < count(h, VISA_SEC_SYMBOLS); i++) {
			const struct visa_symbol *s =
				entry(h, VISA_SEC_SYMBOLS, i);

			printf("  %-6s +0x%-8" PRIx64 " %6" PRIu64 " bytes  %s\n",
			       s->space == VISA_SPACE_CONST ? "const" : "global",
			       s->offset, s->size,
			       vgpu_core_module_string(m, s->name));
		}
	}
	if (count(h, VISA_SEC_RELOCS)) {
		printf("\nrelocations:\n");
		for (uint32_t i = 0; i < count(h, VISA_SEC_RELOCS); i++) {
			const struct visa_reloc *r = entry(h, VISA_SEC_RELOCS, i);

			printf("  %s+0x%" PRIx64 " = %s + %" PRId64 " (%u bytes)\n",
			       r->space == VISA_SPACE_CONST ? "const" : "global",
			       r->offset, r->target_space == VISA_SPACE_FUNC ?
			       "func" : r->target_space == VISA_SPACE_CONST ?
			       "const" : "global", r->addend, r->width);
		}
	}
	printf("\n");
}

static void print_code(const struct vgpu_module *m)
{
	const struct visa_image_header *h = vgpu_core_module_header(m);
	uint32_t nlines = count(h, VISA_SEC_LINES), li = 0;
	char buf[256];

	for (uint32_t f = 0; f < count(h, VISA_SEC_FUNCS); f++) {
		const struct visa_func *fn = entry(h, VISA_SEC_FUNCS, f);
		const uint64_t *lits = entry(h, VISA_SEC_LITERALS, fn->lit_start);

		printf("func%u %s%s: %u registers, %u predicates, frame %u\n",
		       f, vgpu_core_module_string(m, fn->name),
		       (fn->flags & VISA_FUNC_KERNEL) ? " (kernel)" : "",
		       fn->num_regs, fn->num_preds, fn->frame_size);
		for (uint32_t pc = fn->code_start;
		     pc < fn->code_start + fn->code_count; pc++) {
			const struct visa_insn *in = entry(h, VISA_SEC_CODE, pc);

			while (li < nlines &&
			       ((const struct visa_line *)entry(h, VISA_SEC_LINES,
								li))->insn <= pc) {
				const struct visa_line *l =
					entry(h, VISA_SEC_LINES, li++);

				printf("                // %s:%u\n",
				       vgpu_core_module_string(m, l->file),
				       l->line);
			}
			visa_disasm(in, fn->lit_count ? lits : NULL,
				    fn->lit_count, buf, sizeof(buf));
			printf("  %5u:  %s\n", pc, buf);
		}
		printf("\n");
	}
}

static void *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *p = NULL;
	size_t n = 0, cap = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (n == cap) {
			uint8_t *q = realloc(p, cap = cap ? cap * 2 : 65536);

			if (!q) {
				free(p);
				fclose(f);
				return NULL;
			}
			p = q;
		}
		size_t k = fread(p + n, 1, cap - n, f);

		n += k;
		if (!k)
			break;
	}
	fclose(f);
	*size = n;
	return p;
}

int main(int argc, char **argv)
{
	bool headers = true, code = true;
	struct vgpu_module *m;
	char err[256];
	size_t size;
	void *img;
	int opt, ret;

	while ((opt = getopt(argc, argv, "hd")) != -1) {
		switch (opt) {
		case 'h': code = false; break;
		case 'd': headers = false; break;
		default:
			fprintf(stderr, "usage: %s [-h] [-d] FILE\n", argv[0]);
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: %s [-h] [-d] FILE\n", argv[0]);
		return 2;
	}
	img = read_file(argv[optind], &size);
	if (!img) {
		fprintf(stderr, "%s: %s: %s\n", argv[0], argv[optind],
			strerror(errno ? errno : EIO));
		return 1;
	}
	ret = vgpu_core_module_load(img, size, &m, err, sizeof(err));
	free(img);
	if (ret) {
		fprintf(stderr, "%s: %s: invalid vISA image: %s\n", argv[0],
			argv[optind], ret == -EINVAL ? err : strerror(-ret));
		return 1;
	}
	if (headers)
		print_headers(m);
	if (code)
		print_code(m);
	vgpu_core_module_unload(m);
	return 0;
}
