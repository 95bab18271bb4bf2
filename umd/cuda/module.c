// SPDX-License-Identifier: GPL-2.0
/*
 * module.c - loading modules into a context.
 *
 * A loaded module is three things in device memory: the vISA image
 * itself (the firmware fetches and validates it at the first launch),
 * and the module's global and const segments, filled with their initial
 * bytes and relocated (addresses of variables and functions stored in
 * initializers) before the upload.  Kernels become CUfunction handles.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuda_internal.h"
#include "devrt.h"
#include "handles.h"
#include "jit.h"
#include "jit_options.h"

bool cu_function_valid(const struct cu_function *f)
{
	return cu_handle_valid(f, CU_HANDLE_FUNCTION);
}

void cu_module_free(struct cu_module *m)
{
	unsigned int i;

	cu_handle_remove(m, CU_HANDLE_MODULE);
	for (i = 0; i < m->num_functions; i++) {
		cu_handle_remove(&m->functions[i], CU_HANDLE_FUNCTION);
		free(m->functions[i].legacy);
	}
	if (m->code_va)
		cu_mem_device_free(m->ctx, m->code_va);
	if (m->global_va)
		cu_mem_device_free(m->ctx, m->global_va);
	if (m->const_va)
		cu_mem_device_free(m->ctx, m->const_va);
	free(m->functions);
	free(m->image);
	m->magic = CU_DEAD_MAGIC;
	free(m);
}

/* Apply the relocations that patch segment @space of the image. */
static int cu_module_relocate(const struct cu_module *m, uint8_t *seg,
			      uint64_t seg_size, unsigned int space)
{
	const struct visa_image_header *h = m->hdr;
	const uint8_t *r;
	uint32_t n, i, es = h->sections[VISA_SEC_RELOCS].entsize;

	r = cu_visa_section(h, VISA_SEC_RELOCS, &n);
	for (i = 0; i < n; i++) {
		const struct visa_reloc *rel = (const void *)(r + (size_t)i * es);
		uint64_t value;

		if (rel->space != space)
			continue;
		if ((rel->width != 4 && rel->width != 8) ||
		    rel->offset > seg_size || seg_size - rel->offset < rel->width)
			return -1;
		switch (rel->target_space) {
		case VISA_SPACE_GLOBAL:
			value = m->global_va + (uint64_t)rel->addend;
			break;
		case VISA_SPACE_CONST:
			value = m->const_va + (uint64_t)rel->addend;
			break;
		case VISA_SPACE_FUNC:
			value = VISA_FUNCPTR_BASE + (uint64_t)rel->addend;
			break;
		default:
			return -1;
		}
		memcpy(seg + rel->offset, &value, rel->width);	/* LE host */
	}
	return 0;
}

/*
 * Whether the module defines a __managed__ variable.  Then its whole
 * global segment is managed memory (memory.c): the host reads and writes
 * the variable where the device does, with no copy.  Its __device__
 * neighbours live there too, which changes nothing for the device.
 */
static bool cu_module_has_managed(const struct visa_image_header *h)
{
	uint32_t n;
	const uint8_t *syms = cu_visa_section(h, VISA_SEC_SYMBOLS, &n);

	for (uint32_t i = 0; i < n; i++) {
		const struct visa_symbol *s = (const void *)
			(syms + (size_t)i * h->sections[VISA_SEC_SYMBOLS].entsize);

		if ((s->flags & VISA_SYM_MANAGED) &&
		    !(s->flags & VISA_SYM_EXTERN_DEF) &&
		    s->space == VISA_SPACE_GLOBAL)
			return true;
	}
	return false;
}

/* Build, relocate and upload one segment (GLOBAL or CONST). */
static CUresult cu_module_segment(struct cu_module *m, unsigned int space)
{
	const struct visa_image_header *h = m->hdr;
	unsigned int init_sec = space == VISA_SPACE_GLOBAL ?
				VISA_SEC_GLOBAL_INIT : VISA_SEC_CONST_INIT;
	uint64_t size = space == VISA_SPACE_GLOBAL ? h->global_size :
			h->const_size;
	CUdeviceptr va = space == VISA_SPACE_GLOBAL ? m->global_va :
			 m->const_va;
	const void *init;
	uint8_t *seg;
	uint32_t n;
	CUresult res;

	if (!size)
		return CUDA_SUCCESS;
	seg = calloc(1, size);
	if (!seg)
		return CUDA_ERROR_OUT_OF_MEMORY;
	init = cu_visa_section(h, init_sec, &n);
	if (init)
		memcpy(seg, init, h->sections[init_sec].size);
	if (space == VISA_SPACE_GLOBAL)
		cu_devrt_fill_state(h, seg, size, m->ctx->dev->ordinal,
				    m->ctx->limits[CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT]);
	if (cu_module_relocate(m, seg, size, space)) {
		free(seg);
		return CUDA_ERROR_INVALID_IMAGE;
	}
	if (space == VISA_SPACE_GLOBAL && m->global_managed) {
		memcpy((void *)(uintptr_t)va, seg, size);	/* host-visible */
		res = CUDA_SUCCESS;
	} else {
		res = cu_copy_from_host(m->ctx, va, seg, size);
	}
	free(seg);
	return res;
}

static CUresult cu_module_functions(struct cu_module *m)
{
	const struct visa_image_header *h = m->hdr;
	const uint8_t *k, *params;
	uint32_t nk, np, i;

	k = cu_visa_section(h, VISA_SEC_KERNELS, &nk);
	params = cu_visa_section(h, VISA_SEC_PARAMS, &np);
	m->functions = calloc(nk ? nk : 1, sizeof(*m->functions));
	if (!m->functions)
		return CUDA_ERROR_OUT_OF_MEMORY;
	for (i = 0; i < nk; i++) {
		struct cu_function *f = &m->functions[i];
		const struct visa_kernel *kk = (const void *)
			(k + (size_t)i * h->sections[VISA_SEC_KERNELS].entsize);

		f->magic = CU_FUNC_MAGIC;
		f->module = m;
		f->index = i;
		f->kernel = kk;
		f->param_entsize = h->sections[VISA_SEC_PARAMS].entsize;
		f->params = params ? params + (size_t)kk->param_first *
				     f->param_entsize : NULL;
		f->name = cu_visa_string(h, kk->name);
		/* cluster fields: in images whose KERNELS entries have them */
		if (h->sections[VISA_SEC_KERNELS].entsize >= sizeof(*kk))
			memcpy(f->cluster_dim, kk->cluster_dim,
			       sizeof(f->cluster_dim));
		f->max_dynamic_shared =
			cu_kernel_user_shared(kk) < CU_SHARED_PER_BLOCK ?
			CU_SHARED_PER_BLOCK - cu_kernel_user_shared(kk) : 0;
		f->preferred_carveout = -1;
		if (cu_handle_add(f, CU_HANDLE_FUNCTION) != CUDA_SUCCESS)
			return CUDA_ERROR_OUT_OF_MEMORY;
		m->num_functions = i + 1;
	}
	return CUDA_SUCCESS;
}

static CUresult cu_module_create(struct cu_ctx *ctx, struct cu_jit_result *jit,
				 CUmodule *out)
{
	struct cu_module *m;
	CUresult res;

	m = calloc(1, sizeof(*m));
	if (!m) {
		free(jit->image);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	m->magic = CU_MODULE_MAGIC;
	m->ctx = ctx;
	m->image = jit->image;
	m->image_size = jit->size;
	m->hdr = jit->image;
	m->ptx_arch = jit->ptx_arch;
	pthread_mutex_lock(&ctx->lock);
	m->image_id = ++ctx->next_image_id;
	pthread_mutex_unlock(&ctx->lock);

	res = cu_mem_device_alloc(ctx, m->image_size, &m->code_va);
	m->global_managed = cu_module_has_managed(m->hdr);
	if (res == CUDA_SUCCESS && m->global_managed)
		res = cu_mem_managed_alloc(m->hdr->global_size, &m->global_va);
	else if (res == CUDA_SUCCESS && m->hdr->global_size)
		res = cu_mem_device_alloc(ctx, m->hdr->global_size,
					  &m->global_va);
	if (res == CUDA_SUCCESS && m->hdr->const_size)
		res = cu_mem_device_alloc(ctx, m->hdr->const_size,
					  &m->const_va);
	if (res == CUDA_SUCCESS)
		res = cu_copy_from_host(ctx, m->code_va, m->image,
					m->image_size);
	if (res == CUDA_SUCCESS)
		res = cu_module_segment(m, VISA_SPACE_GLOBAL);
	if (res == CUDA_SUCCESS)
		res = cu_module_segment(m, VISA_SPACE_CONST);
	if (res == CUDA_SUCCESS)
		res = cu_module_functions(m);
	if (res == CUDA_SUCCESS)
		res = cu_handle_add(m, CU_HANDLE_MODULE);
	if (res != CUDA_SUCCESS) {
		cu_module_free(m);
		return res;
	}
	pthread_mutex_lock(&ctx->lock);
	m->next = ctx->modules;
	ctx->modules = m;
	pthread_mutex_unlock(&ctx->lock);
	*out = (CUmodule)m;
	return CUDA_SUCCESS;
}

/* Load @data into the current context; @opts (may be NULL) get the logs. */
static CUresult cu_module_load(CUmodule *out, const void *data, size_t size,
			       bool size_known,
			       const struct cu_jit_options *opts)
{
	struct cu_jit_text info = { 0 }, error = { 0 };
	struct cu_jit_result jit;
	struct cu_ctx *ctx;
	double start = cu_jit_now_ms();
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!out || !data)
		return CUDA_ERROR_INVALID_VALUE;
	res = cu_jit(data, size, size_known, &jit);
	if (!opts)
		goto load;
	if (res != CUDA_SUCCESS && jit.log[0]) {
		cu_jit_text_add(&error, "error   : %s", jit.log);
	} else if (res != CUDA_SUCCESS) {
		const char *why = NULL;

		/* No compiler message (not PTX, an NVIDIA cubin...). */
		cuGetErrorString(res, &why);
		cu_jit_text_add(&error, "error   : %s", why ? why : "failed");
	} else if (opts->verbose) {
		cu_jit_describe_image(&info, jit.image, jit.from_cache);
	}
	cu_jit_log_publish(&opts->info, &info);
	cu_jit_log_publish(&opts->error, &error);
	cu_jit_options_report(opts, cu_jit_now_ms() - start);
	cu_jit_text_free(&info);
	cu_jit_text_free(&error);
load:
	if (res != CUDA_SUCCESS)
		return res;
	return cu_module_create(ctx, &jit, out);
}

CUresult cu_read_file(const char *path, void **data, size_t *size)
{
	struct stat st;
	ssize_t n;
	size_t got = 0;
	int fd;
	char *buf;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return CUDA_ERROR_FILE_NOT_FOUND;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0) {
		close(fd);
		return CUDA_ERROR_INVALID_IMAGE;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	while (got < (size_t)st.st_size) {
		n = read(fd, buf + got, (size_t)st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	*data = buf;
	*size = got;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuModuleLoad(CUmodule *module, const char *fname)
{
	struct cu_ctx *ctx;
	void *data;
	size_t size;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!module || !fname)
		return CUDA_ERROR_INVALID_VALUE;
	res = cu_read_file(fname, &data, &size);
	if (res != CUDA_SUCCESS)
		return res;
	res = cu_module_load(module, data, size, true, NULL);
	free(data);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuModuleLoadData(CUmodule *module,
					    const void *image)
{
	return cu_module_load(module, image, 0, false, NULL);
}

CU_EXPORT CUresult CUDAAPI cuModuleLoadDataEx(CUmodule *module,
					      const void *image,
					      unsigned int numOptions,
					      CUjit_option *options,
					      void **optionValues)
{
	struct cu_jit_options opts;
	CUresult res;

	/* The same options as a link's (jit_options.c). */
	res = cu_jit_options_parse(CU_JIT_SCOPE_MODULE, numOptions, options,
				   optionValues, &opts, NULL, 0);
	if (res != CUDA_SUCCESS)
		return res;
	return cu_module_load(module, image, 0, false, &opts);
}

CU_EXPORT CUresult CUDAAPI cuModuleLoadFatBinary(CUmodule *module,
						 const void *fatCubin)
{
	return cu_module_load(module, fatCubin, 0, false, NULL);
}

static CUresult cu_module_lookup(CUmodule h, struct cu_module **out)
{
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!cu_handle_valid(h, CU_HANDLE_MODULE))
		return CUDA_ERROR_INVALID_HANDLE;
	*out = (struct cu_module *)h;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuModuleUnload(CUmodule hmod)
{
	struct cu_module *m, **pp;
	struct cu_ctx *ctx;
	CUresult res = cu_module_lookup(hmod, &m);

	if (res != CUDA_SUCCESS)
		return res;
	ctx = m->ctx;
	pthread_mutex_lock(&ctx->lock);
	for (pp = &ctx->modules; *pp; pp = &(*pp)->next) {
		if (*pp == m) {
			*pp = m->next;
			break;
		}
	}
	pthread_mutex_unlock(&ctx->lock);
	cu_module_free(m);	/* freeing its memory waits for its launches */
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuModuleGetFunction(CUfunction *hfunc,
					       CUmodule hmod,
					       const char *name)
{
	struct cu_module *m;
	unsigned int i;
	CUresult res = cu_module_lookup(hmod, &m);

	if (res != CUDA_SUCCESS)
		return res;
	if (!hfunc || !name)
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < m->num_functions; i++) {
		if (!strcmp(m->functions[i].name, name)) {
			*hfunc = (CUfunction)&m->functions[i];
			return CUDA_SUCCESS;
		}
	}
	return CUDA_ERROR_NOT_FOUND;
}

CU_EXPORT CUresult CUDAAPI cuModuleGetFunctionCount(unsigned int *count,
						    CUmodule hmod)
{
	struct cu_module *m;
	CUresult res = cu_module_lookup(hmod, &m);

	if (res != CUDA_SUCCESS)
		return res;
	if (!count)
		return CUDA_ERROR_INVALID_VALUE;
	*count = m->num_functions;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuModuleEnumerateFunctions(CUfunction *functions,
						      unsigned int numFunctions,
						      CUmodule hmod)
{
	struct cu_module *m;
	unsigned int i;
	CUresult res = cu_module_lookup(hmod, &m);

	if (res != CUDA_SUCCESS)
		return res;
	if (!functions && numFunctions)
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < numFunctions && i < m->num_functions; i++)
		functions[i] = (CUfunction)&m->functions[i];
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuModuleGetGlobal(CUdeviceptr *dptr, size_t *bytes,
					     CUmodule hmod, const char *name)
{
	const struct visa_symbol *s;
	struct cu_module *m;
	CUresult res = cu_module_lookup(hmod, &m);

	if (res != CUDA_SUCCESS)
		return res;
	if (!name)
		return CUDA_ERROR_INVALID_VALUE;
	s = cu_visa_data_symbol(m->hdr, name);
	if (!s)
		return CUDA_ERROR_NOT_FOUND;
	if (dptr)
		*dptr = (s->space == VISA_SPACE_GLOBAL ? m->global_va :
			 m->const_va) + s->offset;
	if (bytes)
		*bytes = s->size;
	return CUDA_SUCCESS;
}
