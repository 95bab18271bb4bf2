// SPDX-License-Identifier: GPL-2.0
/*
 * device.c - cuDeviceGet*, the "vGPU" device as CUDA describes it.
 */
#include <stdio.h>
#include <string.h>

#include "cuda_internal.h"

CU_EXPORT CUresult CUDAAPI cuDeviceGetCount(int *count)
{
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!count)
		return CUDA_ERROR_INVALID_VALUE;
	*count = cu_device_count();
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuDeviceGet(CUdevice *device, int ordinal)
{
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!device)
		return CUDA_ERROR_INVALID_VALUE;
	if (!cu_device_get(ordinal))
		return CUDA_ERROR_INVALID_DEVICE;
	*device = ordinal;
	return CUDA_SUCCESS;
}

/* Common checks: initialised, valid ordinal. */
static CUresult cu_device_lookup(CUdevice dev, struct cu_device **out)
{
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	*out = cu_device_get(dev);
	return *out ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

CU_EXPORT CUresult CUDAAPI cuDeviceGetName(char *name, int len, CUdevice dev)
{
	struct cu_device *d;
	CUresult res = cu_device_lookup(dev, &d);

	if (res != CUDA_SUCCESS)
		return res;
	if (!name || len <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	strncpy(name, d->name, (size_t)len - 1);
	name[len - 1] = '\0';
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev)
{
	struct cu_device *d;
	CUresult res = cu_device_lookup(dev, &d);

	if (res != CUDA_SUCCESS)
		return res;
	if (!uuid)
		return CUDA_ERROR_INVALID_VALUE;
	*uuid = d->uuid;
	return CUDA_SUCCESS;
}

/* The CUDA 11.3 name, still imported by older binaries. */
#undef cuDeviceGetUuid
CU_EXPORT CUresult CUDAAPI cuDeviceGetUuid(CUuuid *uuid, CUdevice dev);
CU_EXPORT CUresult CUDAAPI cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)
{
	return cuDeviceGetUuid_v2(uuid, dev);
}

CU_EXPORT CUresult CUDAAPI cuDeviceTotalMem(size_t *bytes, CUdevice dev)
{
	struct cu_device *d;
	CUresult res = cu_device_lookup(dev, &d);

	if (res != CUDA_SUCCESS)
		return res;
	if (!bytes)
		return CUDA_ERROR_INVALID_VALUE;
	*bytes = vgpu_device_info(d->vdev)->vram_size;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuDeviceComputeCapability(int *major, int *minor,
						     CUdevice dev)
{
	struct cu_device *d;
	CUresult res = cu_device_lookup(dev, &d);

	if (res != CUDA_SUCCESS)
		return res;
	if (!major || !minor)
		return CUDA_ERROR_INVALID_VALUE;
	*major = CU_CC_MAJOR;
	*minor = CU_CC_MINOR;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuDeviceGetPCIBusId(char *pciBusId, int len,
					       CUdevice dev)
{
	struct cu_device *d;
	CUresult res = cu_device_lookup(dev, &d);
	char buf[32];

	if (res != CUDA_SUCCESS)
		return res;
	if (!pciBusId || len <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	/* A software device has no PCI address: report a fixed fake one. */
	snprintf(buf, sizeof(buf), "0000:%02x:00.0", 0x80 + d->ordinal);
	strncpy(pciBusId, buf, (size_t)len - 1);
	pciBusId[len - 1] = '\0';
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuDeviceGetByPCIBusId(CUdevice *dev,
						 const char *pciBusId)
{
	unsigned int dom, bus, slot, fn;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!dev || !pciBusId ||
	    sscanf(pciBusId, "%x:%x:%x.%x", &dom, &bus, &slot, &fn) != 4)
		return CUDA_ERROR_INVALID_VALUE;
	if (dom || slot || fn || bus < 0x80 ||
	    !cu_device_get((CUdevice)(bus - 0x80)))
		return CUDA_ERROR_INVALID_DEVICE;
	*dev = (CUdevice)(bus - 0x80);
	return CUDA_SUCCESS;
}
