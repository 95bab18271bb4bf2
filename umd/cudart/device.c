// SPDX-License-Identifier: GPL-2.0
/*
 * Devices and their primary contexts.
 *
 * The runtime has no contexts of its own.  Each device has one "primary
 * context" in the driver, shared by everything in the process that uses
 * the runtime on that device.  The runtime retains it the first time a
 * thread needs the device (lazily: a program that registers kernels but
 * never calls CUDA never opens the device) and makes it the thread's
 * current driver context, so that the cu* calls that follow act on it.
 *
 * Each host thread has a current device, 0 until cudaSetDevice() says
 * otherwise.  cudaDeviceReset() destroys the primary context; the next
 * call that needs the device creates a fresh one.  Everything cached
 * from the old context (modules, functions) is tagged with the
 * generation it was loaded in and is never used in a later one.
 */
#include "cudart_internal.h"

struct rt_device_state {
	pthread_mutex_t lock;		/* guards primary and generation */
	CUcontext primary;		/* retained primary context, or NULL */
	unsigned int generation;	/* bumped by cudaDeviceReset */
};

static pthread_once_t rt_driver_once = PTHREAD_ONCE_INIT;
static CUresult rt_driver_status;	/* of cuInit, set once */
static int rt_device_count;
static struct rt_device_state rt_devices[RT_MAX_DEVICES];

static _Thread_local int rt_thread_device;

static void rt_driver_init(void)
{
	for (int i = 0; i < RT_MAX_DEVICES; i++)
		pthread_mutex_init(&rt_devices[i].lock, NULL);
	rt_driver_status = cuInit(0);
	if (rt_driver_status == CUDA_SUCCESS)
		rt_driver_status = cuDeviceGetCount(&rt_device_count);
	if (rt_driver_status == CUDA_SUCCESS && rt_device_count == 0)
		rt_driver_status = CUDA_ERROR_NO_DEVICE;
	if (rt_device_count > RT_MAX_DEVICES)
		rt_device_count = RT_MAX_DEVICES;
}

/* Initialise the driver once; the result of the first attempt stays. */
static cudaError_t rt_driver_ready(void)
{
	pthread_once(&rt_driver_once, rt_driver_init);
	return rt_error_from_cu(rt_driver_status);
}

/*
 * Retain @dev's primary context if not yet done; return it in @ctx.
 *
 * After a device fault no context can be made in the process any more
 * (the driver returns the fault's error).  NVIDIA's runtime then reports
 * the device as unavailable: measured on an H200, cudaMalloc after a fault
 * and a cudaDeviceReset is cudaErrorDevicesUnavailable.
 *
 * A device whose compute mode refuses the process (prohibited:
 * CUDA_ERROR_UNKNOWN from the driver, as cuda.h documents; exclusive to
 * another process: CUDA_ERROR_DEVICE_UNAVAILABLE) is, in the runtime's
 * words, cudaErrorDevicesUnavailable (driver_types.h).
 */
cudaError_t rt_primary_context(int dev, CUcontext *ctx)
{
	struct rt_device_state *st = &rt_devices[dev];
	CUresult r = CUDA_SUCCESS;

	pthread_mutex_lock(&st->lock);
	if (!st->primary)
		r = cuDevicePrimaryCtxRetain(&st->primary, (CUdevice)dev);
	*ctx = st->primary;
	pthread_mutex_unlock(&st->lock);
	switch (r) {
	case CUDA_ERROR_ILLEGAL_ADDRESS:
	case CUDA_ERROR_MISALIGNED_ADDRESS:
	case CUDA_ERROR_ILLEGAL_INSTRUCTION:
	case CUDA_ERROR_INVALID_ADDRESS_SPACE:
	case CUDA_ERROR_INVALID_PC:
	case CUDA_ERROR_HARDWARE_STACK_ERROR:
	case CUDA_ERROR_ASSERT:
	case CUDA_ERROR_LAUNCH_TIMEOUT:
	case CUDA_ERROR_LAUNCH_FAILED:
	case CUDA_ERROR_UNKNOWN:
	case CUDA_ERROR_DEVICE_UNAVAILABLE:
		return cudaErrorDevicesUnavailable;
	default:
		return rt_error_from_cu(r);
	}
}

/*
 * Whether the calling thread's current context is one the program made
 * with the driver API (cuCtxCreate): NVIDIA's runtime then acts on that
 * context instead of a primary one.  If so, *@dev is its device and its
 * id is remembered for the module cache (module_load.c).
 */
static _Thread_local unsigned long long rt_thread_user_ctx;

static bool rt_user_context(int *dev)
{
	CUcontext cur = NULL, primary;
	CUdevice d;
	unsigned int flags;
	int active;
	unsigned long long id;

	rt_thread_user_ctx = 0;
	if (cuCtxGetCurrent(&cur) != CUDA_SUCCESS || !cur)
		return false;
	if (cuCtxGetDevice(&d) != CUDA_SUCCESS || d < 0 ||
	    d >= rt_device_count)
		return false;
	pthread_mutex_lock(&rt_devices[d].lock);
	primary = rt_devices[d].primary;
	pthread_mutex_unlock(&rt_devices[d].lock);
	if (cur == primary)
		return false;
	/* A primary context the program retained itself is not its own. */
	if (cuDevicePrimaryCtxGetState(d, &flags, &active) == CUDA_SUCCESS &&
	    active && cuDevicePrimaryCtxRetain(&primary, d) == CUDA_SUCCESS) {
		cuDevicePrimaryCtxRelease(d);
		if (cur == primary)
			return false;
	}
	if (cuCtxGetId(cur, &id) != CUDA_SUCCESS)
		return false;
	rt_thread_user_ctx = id;
	*dev = d;
	return true;
}

unsigned long long rt_user_context_id(void)
{
	return rt_thread_user_ctx;
}

/* Enter the thread's device's primary context, whatever is current. */
static cudaError_t rt_enter_primary(int *dev)
{
	CUcontext ctx, cur = NULL;
	cudaError_t err = rt_driver_ready();

	if (err != cudaSuccess)
		return err;
	rt_thread_user_ctx = 0;
	*dev = rt_thread_device;
	err = rt_primary_context(*dev, &ctx);
	if (err != cudaSuccess)
		return err;
	/* Cheap (thread-local in the driver); a set only when it changed. */
	if (cuCtxGetCurrent(&cur) != CUDA_SUCCESS || cur != ctx)
		return rt_error_from_cu(cuCtxSetCurrent(ctx));
	return cudaSuccess;
}

cudaError_t rt_enter(int *dev)
{
	cudaError_t err = rt_driver_ready();

	if (err != cudaSuccess)
		return err;
	if (rt_user_context(dev))
		return cudaSuccess;
	return rt_enter_primary(dev);
}

unsigned int rt_device_generation(int dev)
{
	struct rt_device_state *st = &rt_devices[dev];
	unsigned int gen;

	pthread_mutex_lock(&st->lock);
	gen = st->generation;
	pthread_mutex_unlock(&st->lock);
	return gen;
}

cudaError_t cudaGetDeviceCount(int *count)
{
	cudaError_t err;

	if (!count)
		return rt_return(cudaErrorInvalidValue);
	err = rt_driver_ready();
	*count = err == cudaSuccess ? rt_device_count : 0;
	return rt_return(err);
}

cudaError_t cudaGetDevice(int *device)
{
	CUcontext cur;

	if (!device)
		return rt_return(cudaErrorInvalidValue);
	/*
	 * Inside a host function the driver refuses the thread's context;
	 * NVIDIA's runtime then refuses this call too (probe_hostfn.c).
	 */
	if (rt_driver_ready() == cudaSuccess &&
	    cuCtxGetCurrent(&cur) == CUDA_ERROR_NOT_PERMITTED)
		return rt_return(cudaErrorNotPermitted);
	/* A context the program made current names the device. */
	if (rt_driver_ready() != cudaSuccess || !rt_user_context(device))
		*device = rt_thread_device;
	return cudaSuccess;
}

cudaError_t rt_check_device(int device)
{
	cudaError_t err = rt_driver_ready();

	if (err != cudaSuccess)
		return err;
	if (device < 0 || device >= rt_device_count)
		return cudaErrorInvalidDevice;
	return cudaSuccess;
}

cudaError_t cudaSetDevice(int device)
{
	cudaError_t err = rt_check_device(device);
	int dev;

	if (err != cudaSuccess)
		return rt_return(err);
	rt_thread_device = device;
	/*
	 * Since CUDA 12 cudaSetDevice() also initialises the device, and
	 * makes its primary context current in place of any other.
	 */
	return rt_return(rt_enter_primary(&dev));
}

cudaError_t cudaInitDevice(int device, unsigned int deviceFlags,
			   unsigned int flags)
{
	cudaError_t err = rt_check_device(device);
	int saved = rt_thread_device, dev;

	if (err == cudaSuccess && flags != 0)
		err = cudaErrorInvalidValue;
	if (err == cudaSuccess && deviceFlags)
		err = rt_error_from_cu(cuDevicePrimaryCtxSetFlags(
				(CUdevice)device, deviceFlags));
	if (err != cudaSuccess)
		return rt_return(err);
	rt_thread_device = device;
	err = rt_enter_primary(&dev);
	rt_thread_device = saved;
	return rt_return(err);
}

/*
 * cudaDeviceFlags share their values with the CU_CTX_* flags: scheduling
 * policy in the low three bits (at most one set), then MapHost,
 * LmemResizeToMax and SyncMemops.
 */
#define RT_DEVICE_FLAGS_KNOWN (cudaDeviceScheduleMask | cudaDeviceMapHost | \
			       cudaDeviceLmemResizeToMax | cudaDeviceSyncMemops)

cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
	unsigned int sched = flags & cudaDeviceScheduleMask;
	cudaError_t err = rt_driver_ready();

	if (err != cudaSuccess)
		return rt_return(err);
	if ((flags & ~RT_DEVICE_FLAGS_KNOWN) || (sched & (sched - 1)))
		return rt_return(cudaErrorInvalidValue);
	return rt_return_cu(cuDevicePrimaryCtxSetFlags(
			(CUdevice)rt_thread_device, flags));
}

cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
	cudaError_t err = rt_driver_ready();
	int active;

	if (!flags)
		return rt_return(cudaErrorInvalidValue);
	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return_cu(cuDevicePrimaryCtxGetState(
			(CUdevice)rt_thread_device, flags, &active));
}

cudaError_t cudaDeviceSynchronize(void)
{
	int dev;
	cudaError_t err = rt_enter(&dev);

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return_cu(cuCtxSynchronize());
}

cudaError_t cudaDeviceReset(void)
{
	struct rt_device_state *st;
	cudaError_t err = rt_driver_ready();
	CUresult r = CUDA_SUCCESS;

	if (err != cudaSuccess)
		return rt_return(err);
	st = &rt_devices[rt_thread_device];
	pthread_mutex_lock(&st->lock);
	if (st->primary) {
		/*
		 * Reset destroys the context even if others hold it, with
		 * every allocation, stream, event and module in it; the
		 * sticky error of a faulted context goes with it.
		 */
		r = cuDevicePrimaryCtxReset((CUdevice)rt_thread_device);
		if (r == CUDA_SUCCESS) {
			cuDevicePrimaryCtxRelease((CUdevice)rt_thread_device);
			st->primary = NULL;
			st->generation++;
		}
	}
	pthread_mutex_unlock(&st->lock);
	return rt_return_cu(r);
}

cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
	int dev;
	cudaError_t err = rt_enter(&dev);

	if (err != cudaSuccess)
		return rt_return(err);
	/* cudaLimit and CUlimit share their values. */
	return rt_return_cu(cuCtxSetLimit((CUlimit)limit, value));
}

cudaError_t cudaCtxResetPersistingL2Cache(void)
{
	int dev;
	cudaError_t err = rt_enter(&dev);

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return_cu(cuCtxResetPersistingL2Cache());
}

cudaError_t cudaDeviceGetLimit(size_t *value, enum cudaLimit limit)
{
	int dev;
	cudaError_t err = rt_enter(&dev);

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return_cu(cuCtxGetLimit(value, (CUlimit)limit));
}

cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority,
					     int *greatestPriority)
{
	int dev;
	cudaError_t err = rt_enter(&dev);

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return_cu(cuCtxGetStreamPriorityRange(leastPriority,
							greatestPriority));
}

cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *config)
{
	int dev;
	cudaError_t err = rt_enter(&dev);

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return_cu(cuCtxGetCacheConfig((CUfunc_cache *)config));
}

cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache config)
{
	int dev;
	cudaError_t err = rt_enter(&dev);

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return_cu(cuCtxSetCacheConfig((CUfunc_cache)config));
}

cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)
{
	if (!runtimeVersion)
		return rt_return(cudaErrorInvalidValue);
	/* The toolkit this library was built against: 13000 for 13.0. */
	*runtimeVersion = CUDART_VERSION;
	return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int *driverVersion)
{
	if (!driverVersion)
		return rt_return(cudaErrorInvalidValue);
	return rt_return_cu(cuDriverGetVersion(driverVersion));
}

cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device)
{
	RT_CHECK_DEVICE_OR_RETURN(device);
	if (!pciBusId || len <= 0)
		return rt_return(cudaErrorInvalidValue);
	return rt_return_cu(cuDeviceGetPCIBusId(pciBusId, len,
						(CUdevice)device));
}

cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId)
{
	CUdevice dev;
	cudaError_t err = rt_driver_ready();

	if (err != cudaSuccess)
		return rt_return(err);
	if (!device || !pciBusId)
		return rt_return(cudaErrorInvalidValue);
	err = rt_return_cu(cuDeviceGetByPCIBusId(&dev, pciBusId));
	if (err == cudaSuccess)
		*device = (int)dev;
	return err;
}

/*
 * The device that best matches @prop: the one with the highest compute
 * capability not above the one asked for, or any device when none is
 * asked for.  Only major/minor are considered, as in practice programs
 * ask for nothing else.
 */
cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)
{
	int best = 0, best_cc = -1;
	cudaError_t err = rt_driver_ready();

	if (err != cudaSuccess)
		return rt_return(err);
	if (!device || !prop)
		return rt_return(cudaErrorInvalidValue);
	for (int d = 0; d < rt_device_count; d++) {
		int major, minor, cc, want = prop->major * 10 + prop->minor;

		if (cuDeviceGetAttribute(&major,
				CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
				(CUdevice)d) != CUDA_SUCCESS ||
		    cuDeviceGetAttribute(&minor,
				CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
				(CUdevice)d) != CUDA_SUCCESS)
			continue;
		cc = major * 10 + minor;
		if ((want <= 0 || cc <= want) && cc > best_cc) {
			best = d;
			best_cc = cc;
		}
	}
	*device = best;
	return cudaSuccess;
}
