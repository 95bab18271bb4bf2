// SPDX-License-Identifier: GPL-2.0
/*
 * jit.c - from whatever cuModuleLoad* was given to one vISA image.
 *
 * The input may be a vISA image (used as it is), a fatbinary container,
 * an nvcc registration wrapper, or PTX text.  Fatbinaries give the best
 * PTX entry for the device (several modules for separately compiled
 * code); the PTX compiler links them into one image.  Compiled images
 * are kept in the on-disk compute cache, so loading the same PTX again
 * costs a file read instead of a compilation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"
#include "devrt.h"
#include "jit.h"
#include "cache/compute_cache.h"
#include "fatbin/fatbin.h"
#include "ptx/ptx_compiler.h"

#define CU_FATBIN_MAGIC		0xBA55ED50u
#define CU_WRAPPER_MAGIC	0x466243B1u

static pthread_once_t cu_cache_once = PTHREAD_ONCE_INIT;
static struct vgpu_cache *cu_cache;

static void cu_cache_open(void)
{
	cu_cache = vgpu_cache_open(NULL);
}

static struct vgpu_fatbin_target cu_target = {
	.sm_arch = CU_CC_MAJOR * 10 + CU_CC_MINOR,
	.max_isa_major = 9,
	.max_isa_minor = 0,
};
static pthread_once_t cu_target_once = PTHREAD_ONCE_INIT;

/*
 * VGPU_PTX_TARGET=121 (or sm_121, 12.1): choose fatbinary PTX as a device
 * of that architecture would, while the device still reports its own
 * compute capability.  NVIDIA's CUDA 13 libraries carry PTX only for
 * compute_120/121 (cuBLAS, cuRAND; cuSPARSE mostly), which a 9.0 device
 * may not load; vGPU's compiler takes any PTX whose instructions it
 * knows, so this lets them run (Documentation/export-tables.rst).  An
 * opt-in until the device model's compute capability is selectable.
 */
static void cu_target_init(void)
{
	const char *env = getenv("VGPU_PTX_TARGET");
	unsigned int major, minor;
	char *end;

	if (!env || !*env)
		return;
	if (!strncmp(env, "sm_", 3))
		env += 3;
	if (sscanf(env, "%u.%u", &major, &minor) == 2 && strchr(env, '.')) {
		if (major < 100 && minor < 10)
			cu_target.sm_arch = major * 10 + minor;
		return;
	}
	major = (unsigned int)strtoul(env, &end, 10);
	if (!*end && major >= 10 && major < 1000)
		cu_target.sm_arch = major;
}

/* The architecture whose PTX is chosen and compiled for. */
static const struct vgpu_fatbin_target *cu_jit_target(void)
{
	pthread_once(&cu_target_once, cu_target_init);
	return &cu_target;
}

static uint32_t cu_le32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* The sm_NN of a PTX module's .target, 0 if none is found. */
static unsigned int cu_ptx_arch(const char *text)
{
	const char *t = strstr(text, ".target");
	unsigned int sm = 0;

	if (t)
		sscanf(t, ".target sm_%u", &sm);
	return sm;
}

CUresult cu_jit_ptx(const struct vgpu_ptx_source *srcs, size_t count,
		    struct cu_jit_result *out)
{
	struct vgpu_cache_compile_inputs in = { 0 };
	const char **texts;
	size_t *lens, i;
	struct vgpu_cache_key key;
	char compiler_id[48];
	struct vgpu_ptx_diag diag;
	void *image = NULL;
	size_t size = 0;
	CUresult res = CUDA_SUCCESS;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!count)
		return CUDA_ERROR_INVALID_VALUE;
	texts = calloc(count, sizeof(*texts));
	lens = calloc(count, sizeof(*lens));
	if (!texts || !lens) {
		res = CUDA_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	for (i = 0; i < count; i++) {
		texts[i] = srcs[i].text;
		lens[i] = srcs[i].len;
	}
	out->ptx_arch = cu_ptx_arch(srcs[0].text);

	pthread_once(&cu_cache_once, cu_cache_open);
	in.ptx = texts;
	in.ptx_len = lens;
	in.ptx_count = count;
	in.options = "";
	/*
	 * The compiler's own version, read from the library that compiles:
	 * an image made by an older vgpu-ptx is a cache miss, never served.
	 */
	snprintf(compiler_id, sizeof(compiler_id), "vgpu-ptx %u visa %u",
		 vgpu_ptx_compiler_version(), VISA_VERSION_MAJOR);
	in.compiler_version = compiler_id;
	in.sm_arch = cu_jit_target()->sm_arch;
	in.device_name = "vgpu";
	vgpu_cache_key_for_compile(&in, &key);
	if (cu_cache && vgpu_cache_lookup(cu_cache, &key, &image, &size) == 1 &&
	    !cu_visa_check(image, size, out->log, sizeof(out->log))) {
		out->image = image;
		out->size = size;
		out->from_cache = true;
		goto out;
	}
	free(image);

	ret = vgpu_ptx_compile(srcs, (unsigned int)count, NULL, &image,
			       &size, &diag);
	if (ret != VGPU_PTX_OK) {
		out->ptx_status = ret;
		snprintf(out->symbol, sizeof(out->symbol), "%s", diag.symbol);
		snprintf(out->module, sizeof(out->module), "%s", diag.file);
		vgpu_ptx_format_diag(&diag, out->log, sizeof(out->log));
		if (ret == VGPU_PTX_ERR_NOMEM)
			res = CUDA_ERROR_OUT_OF_MEMORY;
		else if (ret == VGPU_PTX_ERR_SYNTAX &&
			 !strstr(srcs[0].text, ".version"))
			res = CUDA_ERROR_INVALID_IMAGE;	/* not PTX at all */
		else
			res = CUDA_ERROR_INVALID_PTX;
		goto out;
	}
	/*
	 * What the compiler accepted may still break a limit of the
	 * hardware (parameter space, for one): the module is then invalid
	 * PTX, as ptxas says, and must not fail later, at launch, as
	 * something else.
	 */
	if (cu_visa_check(image, size, out->log, sizeof(out->log))) {
		vgpu_ptx_free(image);
		res = CUDA_ERROR_INVALID_PTX;
		goto out;
	}
	/* Our own copy in malloc()ed memory, the compiler's freed. */
	out->image = malloc(size);
	if (!out->image) {
		vgpu_ptx_free(image);
		res = CUDA_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	memcpy(out->image, image, size);
	vgpu_ptx_free(image);
	out->size = size;
	if (cu_cache)
		vgpu_cache_store(cu_cache, &key, out->image, size);
out:
	free(texts);
	free(lens);
	return res;
}

static CUresult cu_compile(const struct vgpu_fatbin_ptx_set *set,
			   struct cu_jit_result *out)
{
	struct vgpu_ptx_source *srcs;
	char (*names)[48];
	CUresult res;
	size_t i;

	srcs = calloc(set->count, sizeof(*srcs));
	names = calloc(set->count, sizeof(*names));
	if (!srcs || !names) {
		free(srcs);
		free(names);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	for (i = 0; i < set->count; i++) {
		/*
		 * Diagnostics name the module: the modules of a linked
		 * program by their place, our device runtime by its name.
		 */
		if (set->count == 1)
			snprintf(names[i], sizeof(names[i]), "module.ptx");
		else if (!strcmp(set->modules[i].text, cu_devrt_ptx))
			snprintf(names[i], sizeof(names[i]), "vgpu-devrt.ptx");
		else
			snprintf(names[i], sizeof(names[i]), "rdc-module-%zu.ptx",
				 i);
		srcs[i].name = names[i];
		srcs[i].text = set->modules[i].text;
		srcs[i].len = set->modules[i].len;
	}
	res = cu_jit_ptx(srcs, set->count, out);
	if (set->modules[0].sm_arch)
		out->ptx_arch = set->modules[0].sm_arch;
	if (out->ptx_status == VGPU_PTX_ERR_LINK)
		cu_devrt_explain(set, out->symbol, out->log, sizeof(out->log));
	free(srcs);
	free(names);
	return res;
}

static CUresult cu_fatbin_error(int ret)
{
	switch (ret) {
	case VGPU_FATBIN_ENOPTX:
		return CUDA_ERROR_NO_BINARY_FOR_GPU;
	case VGPU_FATBIN_ENOMEM:
		return CUDA_ERROR_OUT_OF_MEMORY;
	default:
		return CUDA_ERROR_INVALID_IMAGE;
	}
}

CUresult cu_jit(const void *data, size_t size, bool size_known,
		struct cu_jit_result *out)
{
	struct vgpu_fatbin_ptx_set set = { 0 };
	struct vgpu_fatbin_ptx one;
	CUresult res;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!data)
		return CUDA_ERROR_INVALID_VALUE;
	if (size_known && size < 4)
		return CUDA_ERROR_INVALID_IMAGE;
	switch (cu_le32(data)) {
	case VISA_MAGIC: {
		const struct visa_image_header *h = data;

		if (!size_known)
			size = h->image_size;
		if (size > VGPU_FATBIN_MAX_SIZE ||
		    cu_visa_check(data, size, out->log, sizeof(out->log)))
			return CUDA_ERROR_INVALID_IMAGE;
		out->image = malloc(size);
		if (!out->image)
			return CUDA_ERROR_OUT_OF_MEMORY;
		memcpy(out->image, data, size);
		out->size = size;
		return CUDA_SUCCESS;
	}
	case CU_FATBIN_MAGIC:
		if (!size_known) {
			ret = vgpu_fatbin_container_size(data,
							 VGPU_FATBIN_MAX_SIZE,
							 &size);
			if (ret)
				return cu_fatbin_error(ret);
		}
		ret = vgpu_fatbin_ptx_from_image(data, size, cu_jit_target(),
						 &set);
		break;
	case CU_WRAPPER_MAGIC:
		ret = vgpu_fatbin_ptx_from_wrapper(data, cu_jit_target(), &set);
		/*
		 * A version-2 wrapper is a device-linked program: nvcc gave
		 * it NVIDIA's device runtime, which we skip; it gets ours.
		 */
		if (!ret && cu_le32((const uint8_t *)data + 4) == 2)
			ret = cu_devrt_add_module(&set);
		break;
	default:
		if (cu_le32(data) == 0x464c457fu)	/* \x7fELF: a cubin */
			return CUDA_ERROR_NO_BINARY_FOR_GPU;
		/* PTX text, NUL-terminated (or of the given size). */
		one.text = size_known ? strndup(data, size) : strdup(data);
		if (!one.text)
			return CUDA_ERROR_OUT_OF_MEMORY;
		one.len = strlen(one.text);
		one.sm_arch = 0;
		one.isa_major = one.isa_minor = 0;
		ret = vgpu_fatbin_ptx_set_append(&set, &one);
		break;
	}
	/* A conditional graph's kernels call the device runtime. */
	if (!ret)
		ret = cu_devrt_add_if_called(&set);
	if (ret) {
		vgpu_fatbin_ptx_set_free(&set);
		return cu_fatbin_error(ret);
	}
	res = cu_compile(&set, out);
	vgpu_fatbin_ptx_set_free(&set);
	return res;
}
