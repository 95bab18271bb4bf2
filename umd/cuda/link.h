/* SPDX-License-Identifier: GPL-2.0 */
/* link.h - the inputs of a JIT link (link_inputs.c) for link.c. */
#ifndef VGPU_CUDA_LINK_H
#define VGPU_CUDA_LINK_H

#include <stddef.h>

#include <cuda.h>

#include "jit_options.h"

/* One PTX module to link, with the name diagnostics give it. */
struct cu_link_module {
	char *name;			/* malloc()ed */
	char *text;			/* malloc()ed, NUL-terminated */
	size_t len;			/* strlen(text) */
};

/* What one cuLinkAddData input holds. */
struct cu_link_modules {
	struct cu_link_module *mods;
	size_t count;
	void *visa;			/* or an already linked vISA image */
	size_t visa_size;
};

/*
 * The PTX modules of @size bytes at @data of type @type, called @name in
 * the logs.  Errors (with a line in @error) are those real CUDA gives for
 * the input: CUDA_ERROR_INVALID_IMAGE for data that is not of its type,
 * CUDA_ERROR_NO_BINARY_FOR_GPU for device code with no PTX (NVIDIA
 * SASS), CUDA_ERROR_INVALID_VALUE for an unknown type.  With @verbose,
 * @info gets a line per module found.
 */
CUresult cu_link_input(CUjitInputType type, const void *data, size_t size,
		       const char *name, struct cu_link_modules *out,
		       struct cu_jit_text *info, struct cu_jit_text *error,
		       bool verbose);
void cu_link_modules_free(struct cu_link_modules *m);

#endif /* VGPU_CUDA_LINK_H */
