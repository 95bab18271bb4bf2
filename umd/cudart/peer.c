// SPDX-License-Identifier: GPL-2.0
/*
 * Peer access between devices.  In the runtime, access is enabled from
 * the current device's primary context to a peer device's primary
 * context; the driver does the mapping (cuCtxEnablePeerAccess).
 */
#include "cudart_internal.h"

cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device,
				    int peerDevice)
{
	cudaError_t err = rt_check_device(device);

	if (err == cudaSuccess)
		err = rt_check_device(peerDevice);
	if (err != cudaSuccess)
		return rt_return(err);
	if (!canAccessPeer)
		return rt_return(cudaErrorInvalidValue);
	return rt_return_cu(cuDeviceCanAccessPeer(canAccessPeer,
						  (CUdevice)device,
						  (CUdevice)peerDevice));
}

cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags)
{
	CUcontext peer;
	int dev;
	cudaError_t err = rt_check_device(peerDevice);

	if (err == cudaSuccess && flags)
		err = cudaErrorInvalidValue;	/* reserved, must be 0 */
	if (err == cudaSuccess)
		err = rt_primary_context(peerDevice, &peer);
	if (err == cudaSuccess)
		err = rt_enter(&dev);
	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return_cu(cuCtxEnablePeerAccess(peer, 0));
}

cudaError_t cudaDeviceDisablePeerAccess(int peerDevice)
{
	CUcontext peer;
	int dev;
	cudaError_t err = rt_check_device(peerDevice);

	if (err == cudaSuccess)
		err = rt_primary_context(peerDevice, &peer);
	if (err == cudaSuccess)
		err = rt_enter(&dev);
	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return_cu(cuCtxDisablePeerAccess(peer));
}
