/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interfaces of libcudart: how the pieces of the runtime talk to
 * each other.  The runtime is a layer over the driver API (cu* calls into
 * libcuda.so.1), as NVIDIA's is; what it adds is
 *
 *   - the registry of what nvcc registered before main (fatbins, kernels,
 *     variables), looked up by host address (registry.c);
 *   - lazy per-device state: the primary context of each device is
 *     retained on first use and the registered modules are loaded into it
 *     only when one of their kernels or variables is needed (device.c,
 *     module_load.c);
 *   - per-thread state: the current device, the last error and the stack
 *     of <<<>>> configurations (error_state.c, call_config.c);
 *   - translation of CUresult into cudaError_t (error_state.c).
 */
#ifndef VGPU_CUDART_INTERNAL_H
#define VGPU_CUDART_INTERNAL_H

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Devices the runtime keeps state for; more are reported but refused. */
#define RT_MAX_DEVICES 16

/* --- errors (error_state.c, error_table.c) --------------------------------- */

/* The runtime error real CUDA reports for a driver result. */
cudaError_t rt_error_from_cu(CUresult r);

/*
 * Every public entry point returns through rt_return(): a failure is
 * remembered as the calling thread's last error (cudaGetLastError), as
 * CUDA does, and returned.
 */
cudaError_t rt_return(cudaError_t err);

/* rt_return(rt_error_from_cu(r)). */
cudaError_t rt_return_cu(CUresult r);

/* Name of a runtime error, or NULL when the code is not one. */
const char *rt_error_name(cudaError_t err);

/* --- devices and contexts (device.c) -------------------------------------- */

/*
 * Make the calling thread's current device usable: initialise the driver
 * once, retain the device's primary context and make it current.  Every
 * call that needs the device starts with this.  On success *@dev is the
 * device ordinal.  A context the program created with cuCtxCreate and
 * made current is used instead, as NVIDIA's runtime does: *@dev is then
 * its device (see rt_user_context_id()).
 */
cudaError_t rt_enter(int *dev);

/*
 * For the thin wrappers: enter the current device or return (and record)
 * the error from the calling function.
 */
#define RT_ENTER_OR_RETURN()						\
	do {								\
		int dev_;						\
		cudaError_t err_ = rt_enter(&dev_);			\
		if (err_ != cudaSuccess)				\
			return rt_return(err_);				\
	} while (0)

/*
 * For the wrappers of calls on a device: check the device number
 * (rt_check_device()) or return (and record) the error.
 */
#define RT_CHECK_DEVICE_OR_RETURN(device)				\
	do {								\
		cudaError_t err_ = rt_check_device(device);		\
		if (err_ != cudaSuccess)				\
			return rt_return(err_);				\
	} while (0)

/*
 * The id (cuCtxGetId) of the context the program created and made
 * current, which rt_enter() found the runtime acting on; 0 when the
 * runtime acts on a primary context.
 */
unsigned long long rt_user_context_id(void);

/* Device @dev's primary context, retained on first use. */
cudaError_t rt_primary_context(int dev, CUcontext *ctx);

/* cudaSuccess if @device is a device ordinal; initialises the driver. */
cudaError_t rt_check_device(int device);

/*
 * Generation of a device's primary context: incremented by
 * cudaDeviceReset, so that cached modules and functions of the context
 * that was destroyed are never used again.
 */
unsigned int rt_device_generation(int dev);

/* --- registry (registry.c) ------------------------------------------------- */

/* A module or function loaded into a context the program created. */
struct rt_ctx_entry {
	unsigned long long ctx_id;	/* cuCtxGetId: never reused */
	void *handle;			/* CUmodule or CUfunction */
	struct rt_ctx_entry *next;
};

/* One __cudaRegisterFatBinary call; its address is the handle nvcc keeps. */
struct rt_fatbin {
	void *handle_slot;		/* nvcc stores this pointer as its
					 * handle: points back at us */
	const void *wrapper;		/* what nvcc registered */
	pthread_mutex_t lock;		/* guards module[] and module_gen[] */
	CUmodule module[RT_MAX_DEVICES];
	unsigned int module_gen[RT_MAX_DEVICES];
	bool load_reported;		/* a load failure was printed */
	struct rt_ctx_entry *ctx_modules;	/* in programs' contexts */
	struct rt_fatbin *next;
};

/* A kernel: its host stub address and its (mangled) device name. */
struct rt_function {
	const void *host_fun;
	char *device_name;
	struct rt_fatbin *fatbin;
	pthread_mutex_t lock;		/* guards fn[] and fn_gen[] */
	CUfunction fn[RT_MAX_DEVICES];
	unsigned int fn_gen[RT_MAX_DEVICES];
	struct rt_ctx_entry *ctx_fns;	/* in programs' contexts */
	struct rt_function *hash_next;
};

/* A __device__, __constant__ or __managed__ variable. */
struct rt_variable {
	const void *host_var;		/* the host shadow's address */
	char *device_name;
	size_t size;
	bool managed;
	void **managed_ptr;		/* __managed__: where host code reads
					 * the variable's address from */
	struct rt_fatbin *fatbin;
	struct rt_variable *hash_next;
};

struct rt_fatbin *rt_fatbin_from_handle(void **handle);
struct rt_function *rt_function_lookup(const void *host_fun);
struct rt_variable *rt_variable_lookup(const void *host_var);

/* Forget @fb and everything registered with it, and free it. */
void rt_registry_remove(struct rt_fatbin *fb);

/*
 * Whether @func is a kernel of a library (cudaLibraryGetKernel); then
 * *@fn is its function in the current context and *@err says how getting
 * it went (library.c).
 */
bool rt_library_function(const void *func, CUfunction *fn, cudaError_t *err);

/* The function a cudaKernel_t from __cudaGetKernel() stands for, or NULL. */
struct rt_function *rt_function_from_kernel(cudaKernel_t kernel);

/* Call @fn for each __managed__ variable of @fb; stops at the first error. */
cudaError_t rt_registry_for_each_managed(struct rt_fatbin *fb,
		cudaError_t (*fn)(struct rt_variable *v, int dev), int dev);

/* --- module loading (module_load.c) --------------------------------------- */

/* The module of @fb on device @dev, loaded on first use. */
cudaError_t rt_module_get(struct rt_fatbin *fb, int dev, CUmodule *mod);

/* Free a list of modules or functions in programs' contexts. */
void rt_ctx_list_free(struct rt_ctx_entry **list);

/* The driver function of kernel @f on device @dev. */
cudaError_t rt_function_get(struct rt_function *f, int dev, CUfunction *fn);

/*
 * The driver function for a host stub address as given to the public API
 * (cudaLaunchKernel, cudaFuncGetAttributes...): enters the current
 * device, then resolves.  cudaErrorInvalidResourceHandle when @func was
 * never registered, as CUDA 13 reports.
 */
cudaError_t rt_function_resolve(const void *func, CUfunction *fn);

/* Device address and size of variable @v on device @dev. */
cudaError_t rt_variable_get(struct rt_variable *v, int dev, CUdeviceptr *addr,
			    size_t *size);

/* Unload @fb's modules from every device (process exit, dlclose). */
void rt_modules_unload(struct rt_fatbin *fb);

/* --- copies (memory.c, memory_3d.c) ---------------------------------------- */

/* A cudaMemcpyKind CUDA knows (cudaMemcpyDefault is the last one). */
static inline bool rt_memcpy_kind_valid(enum cudaMemcpyKind kind)
{
	return kind >= cudaMemcpyHostToHost && kind <= cudaMemcpyDefault;
}

/* The driver's memory type of the destination (@dst) or source of @kind. */
CUmemorytype rt_memory_type(enum cudaMemcpyKind kind, bool dst);

/*
 * The driver's description of a 3D copy, @c - a CUDA_MEMCPY3D or a
 * CUDA_MEMCPY3D_PEER, whose fields have the same names - from the
 * runtime's, @p (a cudaMemcpy3DParms or cudaMemcpy3DPeerParms: srcPtr,
 * srcPos, dstPtr, dstPos, extent), with the sides' memory types.  A host
 * side's pointer goes in ...Host, any other in ...Device: the fields the
 * driver reads for that type.  A macro because the two structs differ.
 */
#define RT_MEMCPY3D_SIDE(c, side, pitched, pos, type) do {		\
	(c).side##MemoryType = (type);					\
	if ((type) == CU_MEMORYTYPE_HOST)				\
		(c).side##Host = (pitched).ptr;				\
	else								\
		(c).side##Device = (CUdeviceptr)(uintptr_t)(pitched).ptr; \
	(c).side##XInBytes = (pos).x;					\
	(c).side##Y = (pos).y;						\
	(c).side##Z = (pos).z;						\
	(c).side##Pitch = (pitched).pitch;				\
	(c).side##Height = (pitched).ysize;				\
} while (0)

#define RT_MEMCPY3D_FILL(c, p, src_type, dst_type) do {		\
	RT_MEMCPY3D_SIDE(c, src, (p)->srcPtr, (p)->srcPos, src_type);	\
	RT_MEMCPY3D_SIDE(c, dst, (p)->dstPtr, (p)->dstPos, dst_type);	\
	(c).WidthInBytes = (p)->extent.width;				\
	(c).Height = (p)->extent.height;				\
	(c).Depth = (p)->extent.depth;					\
} while (0)

/*
 * Channel descriptors and the driver's formats (array.c): the format and
 * channel count of @d (false: arrays cannot hold it), and back.
 */
bool rt_desc_format(const struct cudaChannelFormatDesc *d,
		    CUarray_format *format, unsigned int *channels);
bool rt_format_desc(CUarray_format format, unsigned int channels,
		    struct cudaChannelFormatDesc *desc);

/* cudaMemcpy3D(Async) with an array on a side (array.c). */
cudaError_t rt_memcpy3d_array(const struct cudaMemcpy3DParms *p,
			      CUstream stream, bool async);

/* --- launches (launch.c) ---------------------------------------------------- */

cudaError_t rt_launch(CUfunction fn, dim3 grid, dim3 block, void **args,
		      size_t shmem, CUstream stream);

#endif /* VGPU_CUDART_INTERNAL_H */
