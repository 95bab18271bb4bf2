// SPDX-License-Identifier: GPL-2.0
/*
 * link.c - the JIT linker API: cuLinkCreate, cuLinkAddData, cuLinkAddFile,
 * cuLinkComplete, cuLinkDestroy.
 *
 * A program collects device code (PTX, fatbinaries, objects...) into a
 * link state and gets back one image for cuModuleLoadData.  On NVIDIA's
 * driver each input is compiled to relocatable SASS as it is added and
 * nvlink joins them at the end.  Here every input is turned into PTX
 * modules (link_inputs.c); each is compiled alone as it is added, so
 * that broken PTX is reported by the call that added it (a module that
 * only lacks symbols of other modules passes), and cuLinkComplete gives
 * all of them to the PTX compiler at once, whose linker resolves each
 * .extern against the other modules' definitions, as for nvcc -rdc=true
 * programs.  The image is a vISA image, which cuModuleLoadData* accept.
 *
 * The logs and the wall time accumulate over the life of the state, and
 * are written to the caller's buffers after every call.
 */
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"
#include "handles.h"
#include "jit.h"
#include "jit_options.h"
#include "link.h"
#include "ptx/ptx_compiler.h"

#define CU_LINK_MAGIC	0x4b4e494cu	/* "LINK" */

struct CUlinkState_st {
	uint32_t magic;
	pthread_mutex_t lock;		/* everything below */
	struct cu_jit_options opts;	/* cuLinkCreate's */
	struct cu_link_module *mods;	/* PTX modules, in order added */
	size_t count;
	void *visa;			/* a vISA image added as a cubin */
	size_t visa_size;
	struct cu_jit_text info, error;
	double wall_ms;
	void **images;			/* every image cuLinkComplete made */
	size_t num_images;
	bool changed;			/* inputs added since the last image */
};

static void cu_link_publish(struct CUlinkState_st *l)
{
	cu_jit_log_publish(&l->opts.info, &l->info);
	cu_jit_log_publish(&l->opts.error, &l->error);
	cu_jit_options_report(&l->opts, l->wall_ms);
}

/* The state behind @h, locked; NULL if @h is not a live link state. */
static struct CUlinkState_st *cu_link_get(CUlinkState h)
{
	if (!h || !cu_handle_valid(h, CU_HANDLE_LINK))
		return NULL;
	pthread_mutex_lock(&h->lock);
	return h;
}

CU_EXPORT CUresult CUDAAPI cuLinkCreate(unsigned int numOptions,
					CUjit_option *options,
					void **optionValues,
					CUlinkState *stateOut)
{
	struct CUlinkState_st *l;
	struct cu_ctx *ctx;
	char why[160];
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!stateOut)
		return CUDA_ERROR_INVALID_VALUE;
	l = calloc(1, sizeof(*l));
	if (!l)
		return CUDA_ERROR_OUT_OF_MEMORY;
	res = cu_jit_options_parse(CU_JIT_SCOPE_LINK, numOptions, options,
				   optionValues, &l->opts, why, sizeof(why));
	if (res != CUDA_SUCCESS) {
		/* The error log is usable if the bad option came after it. */
		cu_jit_text_add(&l->error, "error   : %s", why);
		cu_jit_log_publish(&l->opts.error, &l->error);
		cu_jit_text_free(&l->error);
		free(l);
		return res;
	}
	l->magic = CU_LINK_MAGIC;
	pthread_mutex_init(&l->lock, NULL);
	if (l->opts.verbose && l->opts.target)
		cu_jit_text_add(&l->info, "info    : target %u requested; vISA runs on every vGPU",
				l->opts.target);
	res = cu_handle_add(l, CU_HANDLE_LINK);
	if (res != CUDA_SUCCESS) {
		pthread_mutex_destroy(&l->lock);
		cu_jit_text_free(&l->info);
		free(l);
		return res;
	}
	cu_link_publish(l);
	*stateOut = l;
	return CUDA_SUCCESS;
}

/*
 * Compile module @m alone: whatever is wrong with it, other than symbols
 * it expects from other modules, is its own error.
 */
static CUresult cu_link_check(struct CUlinkState_st *l,
			      const struct cu_link_module *m)
{
	struct vgpu_ptx_source src = {
		.name = m->name, .text = m->text, .len = m->len,
	};
	struct cu_jit_result jit;
	CUresult res = cu_jit_ptx(&src, 1, &jit);

	free(jit.image);
	if (res == CUDA_SUCCESS || jit.ptx_status == VGPU_PTX_ERR_LINK)
		return CUDA_SUCCESS;
	cu_jit_text_add(&l->error, "error   : %s", jit.log);
	return res;
}

static CUresult cu_link_add(struct CUlinkState_st *l, CUjitInputType type,
			    const void *data, size_t size, const char *name,
			    unsigned int numOptions, CUjit_option *options,
			    void **optionValues)
{
	struct cu_jit_options in_opts;
	struct cu_link_modules got;
	struct cu_link_module *mods;
	double start = cu_jit_now_ms();
	char why[160];
	CUresult res;
	size_t i;

	/* Compiler options of this input: checked, no other effect. */
	res = cu_jit_options_parse(CU_JIT_SCOPE_INPUT, numOptions, options,
				   optionValues, &in_opts, why, sizeof(why));
	if (res != CUDA_SUCCESS) {
		cu_jit_text_add(&l->error, "error   : '%s': %s", name, why);
		return res;
	}
	res = cu_link_input(type, data, size, name, &got, &l->info, &l->error,
			    l->opts.verbose || in_opts.verbose);
	if (res != CUDA_SUCCESS)
		return res;
	/* An image from our compiler is final: it cannot take more code. */
	if (got.visa && (l->count || l->visa)) {
		cu_jit_text_add(&l->error, "error   : '%s': a vISA image is already linked and can only be linked alone",
				name);
		res = CUDA_ERROR_NOT_SUPPORTED;
	} else if (got.count && l->visa) {
		cu_jit_text_add(&l->error, "error   : '%s': cannot be linked with the vISA image added before",
				name);
		res = CUDA_ERROR_NOT_SUPPORTED;
	}
	for (i = 0; i < got.count && res == CUDA_SUCCESS; i++)
		res = cu_link_check(l, &got.mods[i]);
	if (res == CUDA_SUCCESS && got.count) {
		mods = realloc(l->mods, (l->count + got.count) * sizeof(*mods));
		if (!mods)
			res = CUDA_ERROR_OUT_OF_MEMORY;
		else
			l->mods = mods;
	}
	if (res == CUDA_SUCCESS) {
		if (got.count)
			memcpy(l->mods + l->count, got.mods,
			       got.count * sizeof(*mods));
		l->count += got.count;
		free(got.mods);
		got.mods = NULL;
		got.count = 0;
		if (got.visa) {
			l->visa = got.visa;
			l->visa_size = got.visa_size;
			got.visa = NULL;
		}
		l->changed = true;
	}
	cu_link_modules_free(&got);
	l->wall_ms += cu_jit_now_ms() - start;
	return res;
}

CU_EXPORT CUresult CUDAAPI cuLinkAddData(CUlinkState state,
					 CUjitInputType type, void *data,
					 size_t size, const char *name,
					 unsigned int numOptions,
					 CUjit_option *options,
					 void **optionValues)
{
	struct CUlinkState_st *l = cu_link_get(state);
	CUresult res;

	if (!l)
		return CUDA_ERROR_INVALID_HANDLE;
	if (!data || !size) {
		res = CUDA_ERROR_INVALID_VALUE;
	} else {
		res = cu_link_add(l, type, data, size,
				  name ? name : "<input>", numOptions,
				  options, optionValues);
	}
	cu_link_publish(l);
	pthread_mutex_unlock(&l->lock);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuLinkAddFile(CUlinkState state,
					 CUjitInputType type,
					 const char *path,
					 unsigned int numOptions,
					 CUjit_option *options,
					 void **optionValues)
{
	struct CUlinkState_st *l = cu_link_get(state);
	void *data = NULL;
	size_t size = 0;
	CUresult res;

	if (!l)
		return CUDA_ERROR_INVALID_HANDLE;
	if (!path) {
		res = CUDA_ERROR_INVALID_VALUE;
		goto out;
	}
	res = cu_read_file(path, &data, &size);
	if (res == CUDA_ERROR_FILE_NOT_FOUND)
		cu_jit_text_add(&l->error, "error   : cannot open '%s'", path);
	if (res == CUDA_SUCCESS)
		res = cu_link_add(l, type, data, size, path, numOptions,
				  options, optionValues);
	free(data);
out:
	cu_link_publish(l);
	pthread_mutex_unlock(&l->lock);
	return res;
}

/* Link what was added into a new image, kept in @l. */
static CUresult cu_link_run(struct CUlinkState_st *l)
{
	struct vgpu_ptx_source *srcs;
	struct cu_jit_result jit = { 0 };
	void **images;
	CUresult res;
	size_t i;

	images = realloc(l->images, (l->num_images + 1) * sizeof(*images));
	if (!images)
		return CUDA_ERROR_OUT_OF_MEMORY;
	l->images = images;
	if (l->visa) {
		jit.image = malloc(l->visa_size);
		if (!jit.image)
			return CUDA_ERROR_OUT_OF_MEMORY;
		memcpy(jit.image, l->visa, l->visa_size);
		jit.size = l->visa_size;
		res = CUDA_SUCCESS;
	} else if (!l->count) {
		/*
		 * Nothing was added: an H100 links that into an image without
		 * code (probe_link.h100.txt), and so do we, from an empty
		 * module.
		 */
		static const char empty[] =
			".version 8.0\n.target sm_90\n.address_size 64\n";
		struct vgpu_ptx_source none = {
			.name = "<empty>", .text = empty, .len = sizeof(empty) - 1,
		};

		res = cu_jit_ptx(&none, 1, &jit);
	} else {
		srcs = calloc(l->count, sizeof(*srcs));
		if (!srcs)
			return CUDA_ERROR_OUT_OF_MEMORY;
		for (i = 0; i < l->count; i++) {
			srcs[i].name = l->mods[i].name;
			srcs[i].text = l->mods[i].text;
			srcs[i].len = l->mods[i].len;
		}
		res = cu_jit_ptx(srcs, l->count, &jit);
		free(srcs);
	}
	if (res != CUDA_SUCCESS) {
		/*
		 * Unresolved or twice-defined symbols: the linker's own
		 * failure.  An H100 answers an unresolved one with
		 * CUDA_ERROR_INVALID_SOURCE and this line in the error log
		 * (tools/cuda-probe/golden/probe_link.h100.txt); a name
		 * defined twice is taken to fail the same way (unmeasured).
		 */
		if (jit.ptx_status == VGPU_PTX_ERR_LINK && jit.symbol[0])
			cu_jit_text_add(&l->error, "error   : Undefined reference to '%s' in '%s'",
					jit.symbol, jit.module);
		else
			cu_jit_text_add(&l->error, "error   : %s", jit.log);
		if (jit.ptx_status == VGPU_PTX_ERR_LINK)
			res = CUDA_ERROR_INVALID_SOURCE;
		return res;
	}
	if (l->opts.verbose) {
		cu_jit_text_add(&l->info, "info    : linked %zu module(s)",
				l->visa ? (size_t)1 : l->count);
		cu_jit_describe_image(&l->info, jit.image, jit.from_cache);
	}
	l->images[l->num_images++] = jit.image;
	l->changed = false;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuLinkComplete(CUlinkState state, void **cubinOut,
					  size_t *sizeOut)
{
	struct CUlinkState_st *l = cu_link_get(state);
	const struct visa_image_header *h;
	double start;
	CUresult res = CUDA_SUCCESS;

	if (!l)
		return CUDA_ERROR_INVALID_HANDLE;
	if (!cubinOut) {
		pthread_mutex_unlock(&l->lock);
		return CUDA_ERROR_INVALID_VALUE;
	}
	start = cu_jit_now_ms();
	if (l->changed || !l->num_images) {
		/* Images returned before stay valid until cuLinkDestroy. */
		res = cu_link_run(l);
	}
	l->wall_ms += cu_jit_now_ms() - start;
	if (res == CUDA_SUCCESS) {
		h = l->images[l->num_images - 1];
		*cubinOut = (void *)h;
		if (sizeOut)
			*sizeOut = (size_t)h->image_size;
	}
	cu_link_publish(l);
	pthread_mutex_unlock(&l->lock);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuLinkDestroy(CUlinkState state)
{
	struct CUlinkState_st *l = state;
	size_t i;

	if (!l || !cu_handle_remove(l, CU_HANDLE_LINK))
		return CUDA_ERROR_INVALID_HANDLE;
	/* Wait for a call of another thread that got it before removal. */
	pthread_mutex_lock(&l->lock);
	pthread_mutex_unlock(&l->lock);
	pthread_mutex_destroy(&l->lock);
	for (i = 0; i < l->count; i++) {
		free(l->mods[i].name);
		free(l->mods[i].text);
	}
	free(l->mods);
	free(l->visa);
	for (i = 0; i < l->num_images; i++)
		free(l->images[i]);
	free(l->images);
	cu_jit_text_free(&l->info);
	cu_jit_text_free(&l->error);
	l->magic = CU_DEAD_MAGIC;
	free(l);
	return CUDA_SUCCESS;
}

/*
 * The names before CUDA 6.5, still imported by older binaries: the same
 * parameters (cuda.h's __CUDA_API_VERSION_INTERNAL section declares them).
 */
#undef cuLinkCreate
#undef cuLinkAddData
#undef cuLinkAddFile
CU_EXPORT CUresult CUDAAPI cuLinkCreate(unsigned int numOptions,
					CUjit_option *options,
					void **optionValues,
					CUlinkState *stateOut);
CU_EXPORT CUresult CUDAAPI cuLinkAddData(CUlinkState state,
					 CUjitInputType type, void *data,
					 size_t size, const char *name,
					 unsigned int numOptions,
					 CUjit_option *options,
					 void **optionValues);
CU_EXPORT CUresult CUDAAPI cuLinkAddFile(CUlinkState state,
					 CUjitInputType type,
					 const char *path,
					 unsigned int numOptions,
					 CUjit_option *options,
					 void **optionValues);

CU_EXPORT CUresult CUDAAPI cuLinkCreate(unsigned int numOptions,
					CUjit_option *options,
					void **optionValues,
					CUlinkState *stateOut)
{
	return cuLinkCreate_v2(numOptions, options, optionValues, stateOut);
}

CU_EXPORT CUresult CUDAAPI cuLinkAddData(CUlinkState state,
					 CUjitInputType type, void *data,
					 size_t size, const char *name,
					 unsigned int numOptions,
					 CUjit_option *options,
					 void **optionValues)
{
	return cuLinkAddData_v2(state, type, data, size, name, numOptions,
				options, optionValues);
}

CU_EXPORT CUresult CUDAAPI cuLinkAddFile(CUlinkState state,
					 CUjitInputType type,
					 const char *path,
					 unsigned int numOptions,
					 CUjit_option *options,
					 void **optionValues)
{
	return cuLinkAddFile_v2(state, type, path, numOptions, options,
				optionValues);
}
