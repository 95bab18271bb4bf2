// SPDX-License-Identifier: GPL-2.0
/*
 * What nvcc registers before main: fatbinaries, kernels and variables.
 *
 * Each translation unit with device code has a static constructor that
 * calls __cudaRegisterFatBinary() with its embedded fatbin, then one
 * __cudaRegisterFunction() per kernel and __cudaRegisterVar() per
 * variable, passing the address of the host-side stand-in (the kernel's
 * host stub, the variable's host shadow) and the device name.  Later the
 * program names kernels and symbols by those host addresses
 * (`cudaMemcpyToSymbol(c, ...)`, `cudaLaunchKernel((void *)k, ...)`), so
 * the registry is a map from host address to registered entity.
 *
 * Nothing here touches the device: registration runs before main, when
 * the program may not even use the GPU.  Modules are loaded lazily by
 * module_load.c, which also undoes a registration (unloading the modules
 * first).  Registration can also happen after main (dlopen of a library
 * with kernels), hence the lock.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart_abi.h"
#include "cudart_internal.h"

#define RT_HASH_BUCKETS 256

static pthread_mutex_t rt_registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rt_fatbin *rt_fatbins;
static struct rt_function *rt_functions[RT_HASH_BUCKETS];
static struct rt_variable *rt_variables[RT_HASH_BUCKETS];

static size_t rt_hash(const void *p)
{
	uintptr_t v = (uintptr_t)p;

	/* Functions and variables are at least 4-byte aligned. */
	v ^= v >> 17;
	return (v >> 2) % RT_HASH_BUCKETS;
}

/* Registration cannot report failure to the program: out of memory this
 * early is fatal, and said so. */
static void *rt_registry_alloc(size_t size)
{
	void *p = calloc(1, size);

	if (!p) {
		fprintf(stderr, "libcudart: out of memory while registering "
			"device code\n");
		abort();
	}
	return p;
}

static char *rt_registry_strdup(const char *s)
{
	char *copy = rt_registry_alloc(strlen(s) + 1);

	return strcpy(copy, s);
}

void **__cudaRegisterFatBinary(void *fatCubin)
{
	struct rt_fatbin *fb = rt_registry_alloc(sizeof(*fb));

	fb->wrapper = fatCubin;
	pthread_mutex_init(&fb->lock, NULL);
	fb->handle_slot = fb;
	pthread_mutex_lock(&rt_registry_lock);
	fb->next = rt_fatbins;
	rt_fatbins = fb;
	pthread_mutex_unlock(&rt_registry_lock);
	return &fb->handle_slot;
}

struct rt_fatbin *rt_fatbin_from_handle(void **handle)
{
	if (!handle)
		return NULL;
	return (struct rt_fatbin *)*handle;
}

void __cudaRegisterFatBinaryEnd(void **fatCubinHandle)
{
	/*
	 * Nothing to finish: modules are loaded when first needed, so a
	 * program that never touches the device never initialises it.
	 */
	(void)fatCubinHandle;
}

void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun,
			    char *deviceFun, const char *deviceName,
			    int thread_limit, uint3 *tid, uint3 *bid,
			    dim3 *bDim, dim3 *gDim, int *wSize)
{
	struct rt_fatbin *fb = rt_fatbin_from_handle(fatCubinHandle);
	struct rt_function *f;
	size_t h;

	/* The remaining arguments are always -1/NULL in nvcc 13 output. */
	(void)deviceFun; (void)thread_limit; (void)tid; (void)bid;
	(void)bDim; (void)gDim; (void)wSize;
	if (!fb || !hostFun || !deviceName)
		return;
	f = rt_registry_alloc(sizeof(*f));
	f->host_fun = hostFun;
	f->device_name = rt_registry_strdup(deviceName);
	f->fatbin = fb;
	pthread_mutex_init(&f->lock, NULL);
	h = rt_hash(hostFun);
	pthread_mutex_lock(&rt_registry_lock);
	f->hash_next = rt_functions[h];
	rt_functions[h] = f;
	pthread_mutex_unlock(&rt_registry_lock);
}

static void rt_register_variable(void **handle, const void *host_var,
				 void **managed_ptr, const char *name,
				 size_t size)
{
	struct rt_fatbin *fb = rt_fatbin_from_handle(handle);
	struct rt_variable *v;
	size_t h;

	if (!fb || !host_var || !name)
		return;
	v = rt_registry_alloc(sizeof(*v));
	v->host_var = host_var;
	v->device_name = rt_registry_strdup(name);
	v->size = size;
	v->managed = managed_ptr != NULL;
	v->managed_ptr = managed_ptr;
	v->fatbin = fb;
	h = rt_hash(host_var);
	pthread_mutex_lock(&rt_registry_lock);
	v->hash_next = rt_variables[h];
	rt_variables[h] = v;
	pthread_mutex_unlock(&rt_registry_lock);
}

void __cudaRegisterVar(void **fatCubinHandle, char *hostVar,
		       char *deviceAddress, const char *deviceName, int ext,
		       size_t size, int constant, int global)
{
	/*
	 * deviceAddress is the device name again; ext/constant/global are
	 * what the PTX already says about the variable.
	 */
	(void)deviceAddress; (void)ext; (void)constant; (void)global;
	rt_register_variable(fatCubinHandle, hostVar, NULL, deviceName, size);
}

void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress,
			      char *deviceAddress, const char *deviceName,
			      int ext, size_t size, int constant, int global)
{
	(void)deviceAddress; (void)ext; (void)constant; (void)global;
	/*
	 * For a __managed__ variable the host code reads the variable's
	 * address from *hostVarPtrAddress, which __cudaInitModule() fills
	 * in; that slot is also the key cudaMemcpyToSymbol() etc. get.
	 */
	rt_register_variable(fatCubinHandle, hostVarPtrAddress,
			     hostVarPtrAddress, deviceName, size);
}

struct rt_function *rt_function_lookup(const void *host_fun)
{
	struct rt_function *f;

	pthread_mutex_lock(&rt_registry_lock);
	for (f = rt_functions[rt_hash(host_fun)]; f; f = f->hash_next)
		if (f->host_fun == host_fun)
			break;
	pthread_mutex_unlock(&rt_registry_lock);
	return f;
}

struct rt_variable *rt_variable_lookup(const void *host_var)
{
	struct rt_variable *v;

	pthread_mutex_lock(&rt_registry_lock);
	for (v = rt_variables[rt_hash(host_var)]; v; v = v->hash_next)
		if (v->host_var == host_var)
			break;
	pthread_mutex_unlock(&rt_registry_lock);
	return v;
}

void rt_ctx_list_free(struct rt_ctx_entry **list)
{
	while (*list) {
		struct rt_ctx_entry *e = *list;

		*list = e->next;
		free(e);
	}
}

/* Unlink and free every function and variable of @fb.  Registry locked. */
static void rt_forget_entities(struct rt_fatbin *fb)
{
	for (size_t h = 0; h < RT_HASH_BUCKETS; h++) {
		struct rt_function **fp = &rt_functions[h];
		struct rt_variable **vp = &rt_variables[h];

		while (*fp) {
			struct rt_function *f = *fp;

			if (f->fatbin != fb) {
				fp = &f->hash_next;
				continue;
			}
			*fp = f->hash_next;
			pthread_mutex_destroy(&f->lock);
			free(f->device_name);
			rt_ctx_list_free(&f->ctx_fns);
			free(f);
		}
		while (*vp) {
			struct rt_variable *v = *vp;

			if (v->fatbin != fb) {
				vp = &v->hash_next;
				continue;
			}
			*vp = v->hash_next;
			free(v->device_name);
			free(v);
		}
	}
}

void rt_registry_remove(struct rt_fatbin *fb)
{
	struct rt_fatbin **p;

	pthread_mutex_lock(&rt_registry_lock);
	for (p = &rt_fatbins; *p && *p != fb; p = &(*p)->next)
		;
	if (*p)
		*p = fb->next;
	rt_forget_entities(fb);
	pthread_mutex_unlock(&rt_registry_lock);
	pthread_mutex_destroy(&fb->lock);
	rt_ctx_list_free(&fb->ctx_modules);
	free(fb);
}

struct rt_function *rt_function_from_kernel(cudaKernel_t kernel)
{
	struct rt_function *found = NULL;

	/*
	 * A cudaKernel_t handed out by __cudaGetKernel() is the address of
	 * our record; accept only addresses that really are one.
	 */
	pthread_mutex_lock(&rt_registry_lock);
	for (size_t h = 0; h < RT_HASH_BUCKETS && !found; h++)
		for (struct rt_function *f = rt_functions[h]; f;
		     f = f->hash_next)
			if ((cudaKernel_t)f == kernel) {
				found = f;
				break;
			}
	pthread_mutex_unlock(&rt_registry_lock);
	return found;
}

cudaError_t rt_registry_for_each_managed(struct rt_fatbin *fb,
		cudaError_t (*fn)(struct rt_variable *v, int dev), int dev)
{
	cudaError_t err = cudaSuccess;

	/*
	 * The callback loads modules under the registry lock: it takes only
	 * module locks, and nothing holding one of those takes this one.
	 */
	pthread_mutex_lock(&rt_registry_lock);
	for (size_t h = 0; h < RT_HASH_BUCKETS && err == cudaSuccess; h++)
		for (struct rt_variable *v = rt_variables[h];
		     v && err == cudaSuccess; v = v->hash_next)
			if (v->fatbin == fb && v->managed)
				err = fn(v, dev);
	pthread_mutex_unlock(&rt_registry_lock);
	return err;
}
