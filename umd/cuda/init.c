// SPDX-License-Identifier: GPL-2.0
/*
 * init.c - cuInit, versions, and the devices of the process.
 *
 * cuInit opens every /dev/vgpuN once; the devices stay open for the life
 * of the process (as NVIDIA's driver keeps its device files).  Everything
 * else refuses to run before it with CUDA_ERROR_NOT_INITIALIZED.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cuda_internal.h"

#define CU_MAX_DEVICES	8

static pthread_mutex_t cu_init_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cu_device cu_devices[CU_MAX_DEVICES];
static int cu_num_devices;
static CUresult cu_init_result = CUDA_ERROR_NOT_INITIALIZED;
static int cu_init_done;	/* read without the lock once set */

CUresult cu_initialized(void)
{
	if (__atomic_load_n(&cu_init_done, __ATOMIC_ACQUIRE))
		return cu_init_result;
	return CUDA_ERROR_NOT_INITIALIZED;
}

int cu_device_count(void)
{
	return cu_num_devices;
}

struct cu_device *cu_device_get(CUdevice ordinal)
{
	if (ordinal < 0 || ordinal >= cu_num_devices)
		return NULL;
	return &cu_devices[ordinal];
}

/*
 * A stable UUID per device index: a version-4-shaped value derived from
 * the index, so that tools can tell devices apart across runs.
 */
static void cu_device_make_uuid(struct cu_device *d)
{
	static const char tag[] = "vGPU-umd";
	unsigned int i;

	memcpy(d->uuid.bytes, tag, 8);
	for (i = 8; i < 16; i++)
		d->uuid.bytes[i] = (char)(d->ordinal * 31 + i * 7);
	d->uuid.bytes[6] = (char)((d->uuid.bytes[6] & 0x0f) | 0x40);
	d->uuid.bytes[8] = (char)((d->uuid.bytes[8] & 0x3f) | 0x80);
}

static CUresult cu_open_devices(void)
{
	unsigned int n = vgpu_device_count(), i;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	CUresult res;
	int ret;

	if (n == 0)
		return CUDA_ERROR_NO_DEVICE;
	if (n > CU_MAX_DEVICES)
		n = CU_MAX_DEVICES;
	res = cu_va_init();
	if (res != CUDA_SUCCESS)
		return res;
	for (i = 0; i < n; i++) {
		struct cu_device *d = &cu_devices[i];

		ret = vgpu_device_open(i, &d->vdev);
		if (ret) {
			while (i--)
				vgpu_device_close(cu_devices[i].vdev);
			return ret == -EACCES ? CUDA_ERROR_NOT_PERMITTED :
			       CUDA_ERROR_NO_DEVICE;
		}
		d->ordinal = i;
		snprintf(d->name, sizeof(d->name), "vGPU %u (software GPU)", i);
		cu_device_make_uuid(d);
		/* The firmware runs one SM worker thread per CPU by default. */
		d->sm_count = cpus > 0 ? (unsigned int)cpus : 1;
		pthread_mutex_init(&d->lock, NULL);
	}
	cu_num_devices = (int)n;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuInit(unsigned int Flags)
{
	CUresult res;

	if (Flags != 0)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&cu_init_lock);
	if (!cu_init_done) {
		cu_init_result = cu_open_devices();
		__atomic_store_n(&cu_init_done, 1, __ATOMIC_RELEASE);
	}
	res = cu_init_result;
	pthread_mutex_unlock(&cu_init_lock);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuDriverGetVersion(int *driverVersion)
{
	if (!driverVersion)
		return CUDA_ERROR_INVALID_VALUE;
	*driverVersion = CU_DRIVER_VERSION;
	return CUDA_SUCCESS;
}
