/* SPDX-License-Identifier: GPL-2.0 */
/* jit.h - turning module input into a vISA image (see jit.c). */
#ifndef VGPU_CUDA_JIT_H
#define VGPU_CUDA_JIT_H

#include <stdbool.h>
#include <stddef.h>

#include <cuda.h>

struct cu_jit_result {
	void *image;		/* malloc()ed vISA image */
	size_t size;
	unsigned int ptx_arch;	/* sm_NN the PTX was written for, or 0 */
	bool from_cache;
	int ptx_status;		/* VGPU_PTX_ERR_* of a failed compilation */
	char symbol[128];	/* VGPU_PTX_ERR_LINK: the unresolved name */
	char module[128];	/* ... and the module that uses it */
	char log[1024];		/* why it failed */
};

struct vgpu_ptx_source;

/*
 * @data is a vISA image, a fatbin container or wrapper, or PTX text.
 * Without @size_known the size comes from the data (NUL for PTX).
 */
CUresult cu_jit(const void *data, size_t size, bool size_known,
		struct cu_jit_result *out);

/*
 * Compile @count PTX modules (NUL-terminated texts) linked together as
 * one program, through the compute cache.
 */
CUresult cu_jit_ptx(const struct vgpu_ptx_source *srcs, size_t count,
		    struct cu_jit_result *out);

#endif /* VGPU_CUDA_JIT_H */
