// SPDX-License-Identifier: GPL-2.0
/*
 * Loading registered device code into a device, lazily.
 *
 * A registered fatbin becomes a driver module (CUmodule) in a device's
 * primary context the first time one of its kernels or variables is used
 * there; loading compiles its PTX (the driver's JIT), which is the
 * expensive step and need not be paid for code a run never uses.  The
 * module and each kernel's CUfunction are cached per device, tagged with
 * the context generation (see device.c) so that a cudaDeviceReset()
 * forgets them.
 *
 * A program may also create contexts itself (cuCtxCreate) and use the
 * runtime in them (device.c); modules and functions are then loaded into
 * that context and cached per context id, which the driver never reuses,
 * so an entry of a destroyed context is simply never found again.
 *
 * What is handed to the driver is the wrapper nvcc registered, as
 * NVIDIA's runtime does: a version-1 wrapper covers one fatbin, a
 * version-2 wrapper (separately compiled -rdc=true programs) points at
 * every object's relocatable fatbin, whose PTX the driver links.  If a
 * driver does not take wrappers, a version-1 fatbin is offered again as
 * the plain container, which cuModuleLoadFatBinary() is documented to
 * accept.
 */
#include <fatbinary_section.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cudart_abi.h"
#include "cudart_internal.h"

/* cuModuleLoadDataEx() with its error log, which @log receives. */
static CUresult rt_module_load_logged(const void *image, CUmodule *mod,
				      char *log, size_t logsz)
{
	CUjit_option opts[] = {
		CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
	};
	void *vals[] = { log, (void *)(uintptr_t)logsz };

	log[0] = '\0';
	return cuModuleLoadDataEx(mod, image, 2, opts, vals);
}

/*
 * The program's device code cannot be loaded: with nvcc and NVIDIA's
 * driver the same error would mostly have stopped the build (nvlink) or
 * been printed by the JIT, so say why on stderr, once per fatbin, rather
 * than leave the user with a bare error code from every launch.
 */
static void rt_module_report(const char *log, CUresult r)
{
	const char *name = NULL;

	cuGetErrorName(r, &name);
	fprintf(stderr, "vgpu: cannot load this program's device code (%s)%s%s\n",
		name ? name : "error", log[0] ? ": " : "", log);
}

static CUresult rt_module_load(struct rt_fatbin *fb, CUmodule *mod)
{
	const __fatBinC_Wrapper_t *w = fb->wrapper;
	char log[1024];
	CUresult r;

	if (!w || w->magic != FATBINC_MAGIC)
		return CUDA_ERROR_INVALID_IMAGE;
	r = rt_module_load_logged(w, mod, log, sizeof(log));
	if (r == CUDA_ERROR_INVALID_IMAGE && w->version == FATBINC_VERSION)
		r = rt_module_load_logged(w->data, mod, log, sizeof(log));
	if (r != CUDA_SUCCESS && r != CUDA_ERROR_OUT_OF_MEMORY &&
	    !fb->load_reported) {
		fb->load_reported = true;
		rt_module_report(log, r);
	}
	return r;
}

/* The entry of context @id in @list, or NULL. */
static struct rt_ctx_entry *rt_ctx_find(struct rt_ctx_entry *list,
					unsigned long long id)
{
	for (; list; list = list->next)
		if (list->ctx_id == id)
			return list;
	return NULL;
}

static CUresult rt_ctx_add(struct rt_ctx_entry **list, unsigned long long id,
			   void *handle)
{
	struct rt_ctx_entry *e = malloc(sizeof(*e));

	if (!e)
		return CUDA_ERROR_OUT_OF_MEMORY;
	e->ctx_id = id;
	e->handle = handle;
	e->next = *list;
	*list = e;
	return CUDA_SUCCESS;
}

/* @fb's module in the program's current context @id (fb->lock held). */
static CUresult rt_module_in_ctx(struct rt_fatbin *fb, unsigned long long id,
				 CUmodule *mod)
{
	struct rt_ctx_entry *e = rt_ctx_find(fb->ctx_modules, id);
	CUresult r;

	if (e) {
		*mod = e->handle;
		return CUDA_SUCCESS;
	}
	r = rt_module_load(fb, mod);
	if (r == CUDA_SUCCESS) {
		r = rt_ctx_add(&fb->ctx_modules, id, *mod);
		if (r != CUDA_SUCCESS)
			cuModuleUnload(*mod);
	}
	return r;
}

cudaError_t rt_module_get(struct rt_fatbin *fb, int dev, CUmodule *mod)
{
	unsigned int gen = rt_device_generation(dev);
	unsigned long long id = rt_user_context_id();
	CUresult r = CUDA_SUCCESS;

	pthread_mutex_lock(&fb->lock);
	if (id) {
		r = rt_module_in_ctx(fb, id, mod);
		pthread_mutex_unlock(&fb->lock);
		return rt_error_from_cu(r);
	}
	if (!fb->module[dev] || fb->module_gen[dev] != gen) {
		/* An old generation's module died with its context. */
		fb->module[dev] = NULL;
		r = rt_module_load(fb, &fb->module[dev]);
		if (r == CUDA_SUCCESS)
			fb->module_gen[dev] = gen;
		else
			fb->module[dev] = NULL;
	}
	*mod = fb->module[dev];
	pthread_mutex_unlock(&fb->lock);
	return rt_error_from_cu(r);
}

/* @f's function in the program's current context @id (f->lock held). */
static cudaError_t rt_function_in_ctx(struct rt_function *f, int dev,
				      unsigned long long id, CUfunction *fn)
{
	struct rt_ctx_entry *e = rt_ctx_find(f->ctx_fns, id);
	CUmodule mod;
	cudaError_t err;

	if (e) {
		*fn = e->handle;
		return cudaSuccess;
	}
	err = rt_module_get(f->fatbin, dev, &mod);
	if (err == cudaSuccess)
		err = rt_error_from_cu(cuModuleGetFunction(fn, mod,
							   f->device_name));
	if (err == cudaSuccess)
		err = rt_error_from_cu(rt_ctx_add(&f->ctx_fns, id, *fn));
	return err;
}

cudaError_t rt_function_get(struct rt_function *f, int dev, CUfunction *fn)
{
	unsigned int gen = rt_device_generation(dev);
	unsigned long long id = rt_user_context_id();
	cudaError_t err = cudaSuccess;

	pthread_mutex_lock(&f->lock);
	if (id) {
		err = rt_function_in_ctx(f, dev, id, fn);
		pthread_mutex_unlock(&f->lock);
		return err;
	}
	if (!f->fn[dev] || f->fn_gen[dev] != gen) {
		CUmodule mod;

		f->fn[dev] = NULL;
		err = rt_module_get(f->fatbin, dev, &mod);
		if (err == cudaSuccess)
			err = rt_error_from_cu(cuModuleGetFunction(&f->fn[dev],
						mod, f->device_name));
		if (err == cudaSuccess)
			f->fn_gen[dev] = gen;
		else
			f->fn[dev] = NULL;
	}
	*fn = f->fn[dev];
	pthread_mutex_unlock(&f->lock);
	return err;
}

cudaError_t rt_variable_get(struct rt_variable *v, int dev, CUdeviceptr *addr,
			    size_t *size)
{
	CUmodule mod;
	cudaError_t err = rt_module_get(v->fatbin, dev, &mod);

	if (err != cudaSuccess)
		return err;
	return rt_error_from_cu(cuModuleGetGlobal(addr, size, mod,
						  v->device_name));
}

void rt_modules_unload(struct rt_fatbin *fb)
{
	pthread_mutex_lock(&fb->lock);
	for (int dev = 0; dev < RT_MAX_DEVICES; dev++) {
		if (fb->module[dev] &&
		    fb->module_gen[dev] == rt_device_generation(dev))
			cuModuleUnload(fb->module[dev]);
		fb->module[dev] = NULL;
	}
	/* Modules in the program's contexts go with those contexts. */
	rt_ctx_list_free(&fb->ctx_modules);
	pthread_mutex_unlock(&fb->lock);
}

/* At exit (atexit from nvcc's constructor) or when a library is closed. */
void __cudaUnregisterFatBinary(void **fatCubinHandle)
{
	struct rt_fatbin *fb = rt_fatbin_from_handle(fatCubinHandle);

	if (!fb)
		return;
	rt_modules_unload(fb);
	rt_registry_remove(fb);
}

cudaError_t rt_function_resolve(const void *func, CUfunction *fn)
{
	struct rt_function *f;
	int dev;
	cudaError_t err = rt_enter(&dev);

	if (err != cudaSuccess)
		return err;
	f = rt_function_lookup(func);
	if (!f)
		f = rt_function_from_kernel((cudaKernel_t)func);
	if (!f && rt_library_function(func, fn, &err))
		return err;
	if (!f)
		return cudaErrorInvalidResourceHandle;
	return rt_function_get(f, dev, fn);
}

/*
 * A __managed__ variable: host code reads its address from a slot that
 * this fills in, the first time the host touches the variable.
 */
static cudaError_t rt_managed_bind(struct rt_variable *v, int dev)
{
	CUdeviceptr addr;
	size_t size;
	cudaError_t err = rt_variable_get(v, dev, &addr, &size);

	if (err == cudaSuccess)
		*v->managed_ptr = (void *)(uintptr_t)addr;
	return err;
}

char __cudaInitModule(void **fatCubinHandle)
{
	struct rt_fatbin *fb = rt_fatbin_from_handle(fatCubinHandle);
	CUmodule mod;
	int dev;
	cudaError_t err;

	if (!fb)
		return 0;
	err = rt_enter(&dev);
	if (err == cudaSuccess)
		err = rt_module_get(fb, dev, &mod);
	if (err == cudaSuccess)
		err = rt_registry_for_each_managed(fb, rt_managed_bind, dev);
	rt_return(err);
	return err == cudaSuccess;
}
