// SPDX-License-Identifier: GPL-2.0
/*
 * library.c - context-independent code (CUDA 12's cuLibrary*, cuKernel*)
 * and the module loading mode (CUDA_MODULE_LOADING).
 *
 * A CUlibrary is code that belongs to no context: each context that uses
 * it gets its own module (its own copy of the image in its VRAM, its own
 * globals), made the first time the library is used there.  A CUkernel
 * names a kernel of the library for every context at once;
 * cuKernelGetFunction gives the CUfunction of the current context, and
 * cuLaunchKernel accepts the CUkernel itself in place of a CUfunction.
 *
 *   cuLibraryLoadData(code) --> vISA image (compiled once, kept here)
 *                                  |
 *         context A: first use --> module A (upload, globals of A)
 *         context B: first use --> module B (upload, globals of B)
 *
 * Loading modes.  CUDA_MODULE_LOADING=EAGER uploads the library into the
 * current context at cuLibraryLoadData; LAZY (the default since CUDA
 * 12.2, as on the H100) waits for the first use in each context.  In both
 * modes vGPU compiles the code when the library is loaded: the vISA image
 * serves every context, and the compute cache keeps it across runs.  A
 * lazy load of code that does not compile succeeds, as the H100's did
 * (probe_pools.h100.txt: "load garbage"), and the error comes at the
 * first use.  cuModuleLoad* is not deferred: a module belongs to one
 * context and is uploaded at once in either mode.
 */
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"
#include "handles.h"
#include "jit.h"

#define CU_LIBRARY_MAGIC	0x4242494cu	/* "LIBB" */
#define CU_KERNEL_MAGIC		0x4e52454bu	/* "KERN" */

struct cu_library;

struct cu_kernel {
	uint32_t magic;
	struct cu_library *lib;
	unsigned int index;		/* in the image's KERNELS table */
	const char *name;
};

/* The module of one context. */
struct cu_lib_module {
	unsigned long long ctx_id;	/* never reused (cuCtxGetId) */
	CUmodule module;
	struct cu_lib_module *next;
};

struct cu_library {
	uint32_t magic;
	CUresult error;			/* a lazy load that did not compile */
	void *image;			/* the vISA image */
	size_t image_size;
	const struct visa_image_header *hdr;
	unsigned int num_kernels;
	struct cu_kernel *kernels;
	pthread_mutex_t lock;		/* modules */
	struct cu_lib_module *modules;
};

static CUmoduleLoadingMode cu_loading_mode(void)
{
	const char *env = getenv("CUDA_MODULE_LOADING");

	return env && !strcmp(env, "EAGER") ? CU_MODULE_EAGER_LOADING :
	       CU_MODULE_LAZY_LOADING;
}

CU_EXPORT CUresult CUDAAPI cuModuleGetLoadingMode(CUmoduleLoadingMode *mode)
{
	if (!mode)
		return CUDA_ERROR_INVALID_VALUE;
	*mode = cu_loading_mode();
	return CUDA_SUCCESS;
}

static struct cu_library *cu_library_get(CUlibrary h)
{
	struct cu_library *l = (struct cu_library *)h;

	if (!l || !cu_handle_valid(l, CU_HANDLE_LIBRARY))
		return NULL;
	return l;
}

static struct cu_kernel *cu_kernel_get(CUkernel h)
{
	struct cu_kernel *k = (struct cu_kernel *)h;

	if (!k || !cu_handle_valid(k, CU_HANDLE_KERNEL))
		return NULL;
	return k;
}

/* The module of @l in the current context, uploaded on first use. */
static CUresult cu_library_module(struct cu_library *l, CUmodule *out)
{
	struct cu_lib_module *lm;
	unsigned long long id;
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (l->error != CUDA_SUCCESS)
		return l->error;
	id = ctx->id;
	pthread_mutex_lock(&l->lock);
	for (lm = l->modules; lm; lm = lm->next)
		if (lm->ctx_id == id)
			break;
	if (!lm) {
		lm = calloc(1, sizeof(*lm));
		res = lm ? cuModuleLoadData(&lm->module, l->image) :
		      CUDA_ERROR_OUT_OF_MEMORY;
		if (res == CUDA_SUCCESS) {
			lm->ctx_id = id;
			lm->next = l->modules;
			l->modules = lm;
		} else {
			free(lm);
			lm = NULL;
		}
	}
	pthread_mutex_unlock(&l->lock);
	if (lm)
		*out = lm->module;
	return res;
}

/* Enter @l's kernels, in the order an H100 enumerated them (reversed). */
static CUresult cu_library_kernels(struct cu_library *l)
{
	const uint8_t *k;
	uint32_t n, i, es;

	k = cu_visa_section(l->hdr, VISA_SEC_KERNELS, &n);
	es = l->hdr->sections[VISA_SEC_KERNELS].entsize;
	l->kernels = calloc(n ? n : 1, sizeof(*l->kernels));
	if (!l->kernels)
		return CUDA_ERROR_OUT_OF_MEMORY;
	for (i = 0; i < n; i++) {
		const struct visa_kernel *vk =
			(const void *)(k + (size_t)(n - 1 - i) * es);
		struct cu_kernel *ck = &l->kernels[i];

		ck->magic = CU_KERNEL_MAGIC;
		ck->lib = l;
		ck->index = n - 1 - i;
		ck->name = cu_visa_string(l->hdr, vk->name);
		if (cu_handle_add(ck, CU_HANDLE_KERNEL) != CUDA_SUCCESS) {
			while (i--)
				cu_handle_remove(&l->kernels[i],
						 CU_HANDLE_KERNEL);
			return CUDA_ERROR_OUT_OF_MEMORY;
		}
		l->num_kernels = i + 1;
	}
	return CUDA_SUCCESS;
}

static void cu_library_free(struct cu_library *l)
{
	struct cu_lib_module *lm, *n;
	struct cu_ctx *ctx = cu_ctx_current();
	struct cu_module *m;
	unsigned int i;

	for (i = 0; i < l->num_kernels; i++)
		cu_handle_remove(&l->kernels[i], CU_HANDLE_KERNEL);
	for (lm = l->modules; lm; lm = n) {
		n = lm->next;
		/*
		 * The module of a context still alive is unloaded in it; a
		 * destroyed context took its modules with it.
		 */
		m = (struct cu_module *)lm->module;
		if (cu_handle_valid(m, CU_HANDLE_MODULE) &&
		    cu_ctx_valid(m->ctx) && m->ctx->id == lm->ctx_id) {
			cu_ctx_set_current(m->ctx);
			cuModuleUnload(lm->module);
		}
		free(lm);
	}
	cu_ctx_set_current(ctx);
	pthread_mutex_destroy(&l->lock);
	free(l->kernels);
	free(l->image);
	l->magic = CU_DEAD_MAGIC;
	free(l);
}

static CUresult cu_library_check_options(unsigned int num, CUlibraryOption *o,
					 void **values, bool from_file)
{
	unsigned int i;

	if (num && (!o || !values))
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < num; i++) {
		switch (o[i]) {
		case CU_LIBRARY_BINARY_IS_PRESERVED:
			/* A hint: vGPU keeps its own compiled image anyway. */
			if (from_file)
				return CUDA_ERROR_INVALID_VALUE;
			break;
		case CU_LIBRARY_HOST_UNIVERSAL_FUNCTION_AND_DATA_TABLE:
			/* NVIDIA's own runtime's; no program passes it. */
			return CUDA_ERROR_NOT_SUPPORTED;
		default:
			return CUDA_ERROR_INVALID_VALUE;
		}
	}
	return CUDA_SUCCESS;
}

static CUresult cu_library_load(CUlibrary *library, const void *code,
				size_t size, bool size_known,
				unsigned int numJitOptions,
				CUjit_option *jitOptions,
				void **jitOptionsValues)
{
	struct cu_jit_result jit;
	struct cu_library *l;
	CUmodule m;
	CUresult res;

	if (!library || !code || (numJitOptions && (!jitOptions ||
						    !jitOptionsValues)))
		return CUDA_ERROR_INVALID_VALUE;
	l = calloc(1, sizeof(*l));
	if (!l)
		return CUDA_ERROR_OUT_OF_MEMORY;
	l->magic = CU_LIBRARY_MAGIC;
	pthread_mutex_init(&l->lock, NULL);
	res = cu_jit(code, size, size_known, &jit);
	if (res == CUDA_SUCCESS) {
		l->image = jit.image;
		l->image_size = jit.size;
		l->hdr = l->image;
		res = cu_library_kernels(l);
	} else if (cu_loading_mode() == CU_MODULE_LAZY_LOADING) {
		/* Lazily, the H100 answers at the first use. */
		l->error = res;
		res = CUDA_SUCCESS;
	}
	if (res == CUDA_SUCCESS)
		res = cu_handle_add(l, CU_HANDLE_LIBRARY);
	if (res != CUDA_SUCCESS) {
		cu_library_free(l);
		return res;
	}
	/* Eagerly: into the current context now, if there is one. */
	if (cu_loading_mode() == CU_MODULE_EAGER_LOADING && cu_ctx_current()) {
		res = cu_library_module(l, &m);
		if (res != CUDA_SUCCESS) {
			cu_handle_remove(l, CU_HANDLE_LIBRARY);
			cu_library_free(l);
			return res;
		}
	}
	*library = (CUlibrary)l;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuLibraryLoadData(CUlibrary *library,
					     const void *code,
					     CUjit_option *jitOptions,
					     void **jitOptionsValues,
					     unsigned int numJitOptions,
					     CUlibraryOption *libraryOptions,
					     void **libraryOptionValues,
					     unsigned int numLibraryOptions)
{
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	res = cu_library_check_options(numLibraryOptions, libraryOptions,
				       libraryOptionValues, false);
	if (res != CUDA_SUCCESS)
		return res;
	return cu_library_load(library, code, 0, false, numJitOptions,
			       jitOptions, jitOptionsValues);
}

CU_EXPORT CUresult CUDAAPI cuLibraryLoadFromFile(CUlibrary *library,
						 const char *fileName,
						 CUjit_option *jitOptions,
						 void **jitOptionsValues,
						 unsigned int numJitOptions,
						 CUlibraryOption *libraryOptions,
						 void **libraryOptionValues,
						 unsigned int numLibraryOptions)
{
	void *data;
	size_t size;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!library || !fileName)
		return CUDA_ERROR_INVALID_VALUE;
	/* Measured: a missing file is reported before the options. */
	res = cu_read_file(fileName, &data, &size);
	if (res != CUDA_SUCCESS)
		return res;
	res = cu_library_check_options(numLibraryOptions, libraryOptions,
				       libraryOptionValues, true);
	if (res == CUDA_SUCCESS)
		res = cu_library_load(library, data, size, true, numJitOptions,
				      jitOptions, jitOptionsValues);
	free(data);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuLibraryUnload(CUlibrary library)
{
	struct cu_library *l;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	l = cu_library_get(library);
	if (!l || !cu_handle_remove(l, CU_HANDLE_LIBRARY))
		return CUDA_ERROR_INVALID_HANDLE;
	cu_library_free(l);
	return CUDA_SUCCESS;
}

/* The library, checked, and that its code compiled. */
static CUresult cu_library_ready(CUlibrary h, struct cu_library **out)
{
	struct cu_library *l;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	l = cu_library_get(h);
	if (!l)
		return CUDA_ERROR_INVALID_HANDLE;
	if (l->error != CUDA_SUCCESS)
		return l->error;
	*out = l;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuLibraryGetKernel(CUkernel *pKernel,
					      CUlibrary library,
					      const char *name)
{
	struct cu_library *l;
	unsigned int i;
	CUresult res = cu_library_ready(library, &l);

	if (res != CUDA_SUCCESS)
		return res;
	if (!pKernel || !name)
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < l->num_kernels; i++) {
		if (!strcmp(l->kernels[i].name, name)) {
			*pKernel = (CUkernel)&l->kernels[i];
			return CUDA_SUCCESS;
		}
	}
	return CUDA_ERROR_NOT_FOUND;
}

CU_EXPORT CUresult CUDAAPI cuLibraryGetKernelCount(unsigned int *count,
						   CUlibrary lib)
{
	struct cu_library *l;
	CUresult res = cu_library_ready(lib, &l);

	if (res != CUDA_SUCCESS)
		return res;
	if (!count)
		return CUDA_ERROR_INVALID_VALUE;
	*count = l->num_kernels;
	return CUDA_SUCCESS;
}

/* Measured: fewer slots than kernels fill the slots; zero succeeds. */
CU_EXPORT CUresult CUDAAPI cuLibraryEnumerateKernels(CUkernel *kernels,
						     unsigned int numKernels,
						     CUlibrary lib)
{
	struct cu_library *l;
	unsigned int i;
	CUresult res = cu_library_ready(lib, &l);

	if (res != CUDA_SUCCESS)
		return res;
	if (!kernels && numKernels)
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < numKernels && i < l->num_kernels; i++)
		kernels[i] = (CUkernel)&l->kernels[i];
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuLibraryGetModule(CUmodule *pMod,
					      CUlibrary library)
{
	struct cu_library *l;
	CUresult res = cu_library_ready(library, &l);

	if (res != CUDA_SUCCESS)
		return res;
	if (!pMod)
		return CUDA_ERROR_INVALID_VALUE;
	return cu_library_module(l, pMod);
}

CU_EXPORT CUresult CUDAAPI cuLibraryGetGlobal(CUdeviceptr *dptr,
					      size_t *bytes,
					      CUlibrary library,
					      const char *name)
{
	struct cu_library *l;
	CUmodule m;
	CUresult res = cu_library_ready(library, &l);

	if (res != CUDA_SUCCESS)
		return res;
	if (!name)
		return CUDA_ERROR_INVALID_VALUE;
	if (!cu_visa_data_symbol(l->hdr, name))
		return CUDA_ERROR_NOT_FOUND;
	res = cu_library_module(l, &m);
	if (res != CUDA_SUCCESS)
		return res;
	return cuModuleGetGlobal(dptr, bytes, m, name);
}

/*
 * A __managed__ variable: the module's global segment is managed memory
 * then (module.c), one address for host and device.  Anything else is
 * not found, as measured.
 */
CU_EXPORT CUresult CUDAAPI cuLibraryGetManaged(CUdeviceptr *dptr,
					       size_t *bytes,
					       CUlibrary library,
					       const char *name)
{
	const struct visa_symbol *s;
	struct cu_library *l;
	CUmodule m;
	CUresult res = cu_library_ready(library, &l);

	if (res != CUDA_SUCCESS)
		return res;
	if (!name)
		return CUDA_ERROR_INVALID_VALUE;
	s = cu_visa_data_symbol(l->hdr, name);
	if (!s || !(s->flags & VISA_SYM_MANAGED))
		return CUDA_ERROR_NOT_FOUND;
	res = cu_library_module(l, &m);
	if (res != CUDA_SUCCESS)
		return res;
	return cuModuleGetGlobal(dptr, bytes, m, name);
}

CU_EXPORT CUresult CUDAAPI cuLibraryGetUnifiedFunction(void **fptr,
						       CUlibrary library,
						       const char *symbol)
{
	struct cu_library *l;
	CUresult res = cu_library_ready(library, &l);

	if (res != CUDA_SUCCESS)
		return res;
	if (!fptr || !symbol)
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_ERROR_NOT_FOUND;	/* no unified functions in vISA */
}

/* The CUfunction of @k in the current context. */
static CUresult cu_kernel_function(struct cu_kernel *k, CUfunction *out)
{
	CUmodule m;
	CUresult res = cu_library_module(k->lib, &m);

	if (res != CUDA_SUCCESS)
		return res;
	return cuModuleGetFunction(out, m, k->name);
}

/* The kernel @h names, once the driver is initialised. */
static CUresult cu_kernel_lookup(CUkernel h, struct cu_kernel **out)
{
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	*out = cu_kernel_get(h);
	return *out ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

struct cu_function *cu_kernel_as_function(void *h)
{
	struct cu_kernel *k = cu_kernel_get((CUkernel)h);
	CUfunction f;

	if (!k)
		return h;
	if (cu_kernel_function(k, &f) != CUDA_SUCCESS)
		return NULL;
	return (struct cu_function *)f;
}

CU_EXPORT CUresult CUDAAPI cuKernelGetFunction(CUfunction *pFunc,
					       CUkernel kernel)
{
	struct cu_kernel *k;
	CUresult res = cu_kernel_lookup(kernel, &k);

	if (res != CUDA_SUCCESS)
		return res;
	if (!pFunc)
		return CUDA_ERROR_INVALID_VALUE;
	return cu_kernel_function(k, pFunc);
}

CU_EXPORT CUresult CUDAAPI cuKernelGetName(const char **name, CUkernel hfunc)
{
	struct cu_kernel *k;
	CUresult res = cu_kernel_lookup(hfunc, &k);

	if (res != CUDA_SUCCESS)
		return res;
	if (!name)
		return CUDA_ERROR_INVALID_VALUE;
	*name = k->name;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuKernelGetLibrary(CUlibrary *pLib,
					      CUkernel kernel)
{
	struct cu_kernel *k;
	CUresult res = cu_kernel_lookup(kernel, &k);

	if (res != CUDA_SUCCESS)
		return res;
	if (!pLib)
		return CUDA_ERROR_INVALID_VALUE;
	*pLib = (CUlibrary)k->lib;
	return CUDA_SUCCESS;
}

/*
 * Attributes are those of the kernel's function in the device's primary
 * context when the current context is not of that device.  vGPU's
 * attributes are the same in every context of a device, so the current
 * context's function answers for @dev when it is @dev's.
 */
static CUresult cu_kernel_function_on(CUkernel kernel, CUdevice dev,
				      CUfunction *f)
{
	struct cu_kernel *k;
	struct cu_ctx *ctx;
	CUresult res = cu_kernel_lookup(kernel, &k);

	if (res != CUDA_SUCCESS)
		return res;
	if (!cu_device_get(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	res = cu_ctx_get(&ctx);
	if (res != CUDA_SUCCESS)
		return res;
	if (ctx->dev->ordinal != (unsigned int)dev)
		return CUDA_ERROR_INVALID_DEVICE;
	return cu_kernel_function(k, f);
}

CU_EXPORT CUresult CUDAAPI cuKernelGetAttribute(int *pi,
						CUfunction_attribute attrib,
						CUkernel kernel, CUdevice dev)
{
	CUfunction f;
	CUresult res = cu_kernel_function_on(kernel, dev, &f);

	if (res != CUDA_SUCCESS)
		return res;
	return cuFuncGetAttribute(pi, attrib, f);
}

CU_EXPORT CUresult CUDAAPI cuKernelSetAttribute(CUfunction_attribute attrib,
						int val, CUkernel kernel,
						CUdevice dev)
{
	CUfunction f;
	CUresult res = cu_kernel_function_on(kernel, dev, &f);

	if (res != CUDA_SUCCESS)
		return res;
	return cuFuncSetAttribute(f, attrib, val);
}

CU_EXPORT CUresult CUDAAPI cuKernelSetCacheConfig(CUkernel kernel,
						  CUfunc_cache config,
						  CUdevice dev)
{
	CUfunction f;
	CUresult res = cu_kernel_function_on(kernel, dev, &f);

	if (res != CUDA_SUCCESS)
		return res;
	return cuFuncSetCacheConfig(f, config);
}
