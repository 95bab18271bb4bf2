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

/* Enter the current device and find @peerDevice's primary context. */
static cudaError_t rt_peer_enter(int peerDevice, CUcontext *peer)
{
	int dev;
	cudaError_t err = rt_check_device(peerDevice);

	if (err == cudaSuccess)
		err = rt_primary_context(peerDevice, peer);
	if (err == cudaSuccess)
		err = rt_enter(&dev);
	return err;
}

cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags)
{
	CUcontext peer;
	cudaError_t err;

	if (flags)	/* reserved, must be 0 */
		return rt_return(cudaErrorInvalidValue);
	err = rt_peer_enter(peerDevice, &peer);
	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return_cu(cuCtxEnablePeerAccess(peer, 0));
}

cudaError_t cudaDeviceDisablePeerAccess(int peerDevice)
{
	CUcontext peer;
	cudaError_t err = rt_peer_enter(peerDevice, &peer);

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return_cu(cuCtxDisablePeerAccess(peer));
}

/*
 * The driver answers (cuDeviceGetP2PAttribute); an H100 checks @value
 * before the devices (tools/cuda-probe/golden/probe_peer.h100.txt).
 */
cudaError_t cudaDeviceGetP2PAttribute(int *value, enum cudaDeviceP2PAttr attr,
				      int srcDevice, int dstDevice)
{
	cudaError_t err;

	if (!value)
		return rt_return(cudaErrorInvalidValue);
	err = rt_check_device(srcDevice);
	if (err == cudaSuccess)
		err = rt_check_device(dstDevice);
	if (err != cudaSuccess)
		return rt_return(err);
	/* The runtime's enum has the driver's values. */
	return rt_return_cu(cuDeviceGetP2PAttribute(value,
		(CUdevice_P2PAttribute)attr, (CUdevice)srcDevice,
		(CUdevice)dstDevice));
}
