// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu-ptxas - compile (and link) PTX files into one vISA image.
 *
 *   vgpu-ptxas [-v] [-o FILE] file.ptx...
 *
 * Like NVIDIA's ptxas, but the output is a vISA image for the vGPU.  -v
 * prints each kernel's resources in ptxas's style; errors are printed as
 * "file:line:col: error: message" and make the exit status non-zero.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vgpu_visa.h"
#include "ptx/ptx_compiler.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: vgpu-ptxas [-v] [-o FILE] file.ptx...\n"
		   "  -o FILE  write the vISA image to FILE (default: a.visa)\n"
		   "  -v       print resource usage per kernel\n");
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return NULL;
	for (;;) {
		size_t got;

		if (n == cap) {
			char *nb;

			cap = cap ? cap * 2 : 65536;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		errno = EIO;
		return NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}

static const void *section(const uint8_t *img, enum visa_section_id id,
			   uint32_t *count)
{
	const struct visa_image_header *h = (const void *)img;
	const struct visa_section *s = &h->sections[id];

	*count = s->entsize ? s->size / s->entsize : 0;
	return img + s->offset;
}

/* ptxas -v style: one block per kernel. */
static void print_usage(const uint8_t *img)
{
	const struct visa_kernel *k;
	const struct visa_func *f;
	const char *str;
	uint32_t nk, nf, ns, i;

	k = section(img, VISA_SEC_KERNELS, &nk);
	f = section(img, VISA_SEC_FUNCS, &nf);
	str = section(img, VISA_SEC_STRTAB, &ns);
	for (i = 0; i < nk; i++) {
		const struct visa_func *kf = &f[k[i].func];

		printf("vgpu-ptxas info    : Compiling entry function '%s'\n",
		       str + k[i].name);
		printf("vgpu-ptxas info    : Function properties for %s\n",
		       str + k[i].name);
		printf("    %u bytes stack frame%s\n", k[i].local_size,
		       k[i].flags & VISA_KERNEL_RECURSIVE ?
		       " (recursive: lower bound)" : "");
		printf("vgpu-ptxas info    : Used %u registers, %u predicates, "
		       "%u bytes smem, %u bytes cmem[0], %u instructions\n",
		       k[i].num_regs, kf->num_preds, k[i].shared_size,
		       k[i].param_size, kf->code_count);
		if (k[i].max_threads)
			printf("    max %u threads per block%s%s\n",
			       k[i].max_threads,
			       k[i].flags & VISA_KERNEL_USES_PRINTF ? ", printf" : "",
			       k[i].flags & VISA_KERNEL_USES_ASSERT ? ", assert" : "");
	}
}

int main(int argc, char **argv)
{
	const char *out = "a.visa";
	struct vgpu_ptx_source *srcs;
	struct vgpu_ptx_diag diag;
	bool verbose = false;
	int opt, n, i, err, status = 0;
	void *image;
	size_t size;
	FILE *f;

	while ((opt = getopt(argc, argv, "vo:h")) != -1) {
		switch (opt) {
		case 'v':
			verbose = true;
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	n = argc - optind;
	if (n < 1) {
		usage(stderr);
		return 2;
	}
	srcs = calloc((size_t)n, sizeof(*srcs));
	if (!srcs) {
		perror("vgpu-ptxas");
		return 1;
	}
	for (i = 0; i < n; i++) {
		srcs[i].name = argv[optind + i];
		srcs[i].text = read_file(argv[optind + i], &srcs[i].len);
		if (!srcs[i].text) {
			fprintf(stderr, "vgpu-ptxas: %s: %s\n", argv[optind + i],
				strerror(errno));
			status = 1;
			goto out;
		}
	}
	err = vgpu_ptx_compile(srcs, (unsigned int)n, NULL, &image, &size, &diag);
	if (err) {
		char msg[512];

		vgpu_ptx_format_diag(&diag, msg, sizeof(msg));
		fprintf(stderr, "%s\n", msg);
		status = 1;
		goto out;
	}
	if (verbose)
		print_usage(image);
	f = fopen(out, "wb");
	if (!f || fwrite(image, 1, size, f) != size || fclose(f)) {
		fprintf(stderr, "vgpu-ptxas: %s: %s\n", out, strerror(errno));
		status = 1;
	}
	vgpu_ptx_free(image);
out:
	for (i = 0; i < n; i++)
		free((void *)srcs[i].text);
	free(srcs);
	return status;
}
