// SPDX-License-Identifier: GPL-2.0
/*
 * probe_peer: what the runtime's peer-access calls answer when the
 * machine has one device (device 1 does not exist): cudaDeviceCanAccessPeer,
 * cudaDeviceEnablePeerAccess/Disable, cudaDeviceGetP2PAttribute.  One line
 * per call.
 *
 * Build: gcc -o probe_peer probe_peer.c -I/usr/local/cuda/include \
 *	-L/usr/local/cuda/lib64 -lcudart
 */
#include <cuda_runtime.h>
#include <stdio.h>

static void show(const char *what, cudaError_t e)
{
	printf("%s: %s (%d)\n", what, cudaGetErrorName(e), (int)e);
	cudaGetLastError();
}

int main(void)
{
	static const enum cudaDeviceP2PAttr a[] = {
		cudaDevP2PAttrPerformanceRank,
		cudaDevP2PAttrAccessSupported,
		cudaDevP2PAttrNativeAtomicSupported,
		cudaDevP2PAttrCudaArrayAccessSupported,
	};
	struct cudaDeviceProp prop;
	int n = 0, v;
	cudaError_t e;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (cudaGetDeviceCount(&n) || cudaGetDeviceProperties(&prop, 0))
		return 1;
	printf("device: %s\n", prop.name);
	v = -1;
	e = cudaDeviceCanAccessPeer(&v, 0, 0);
	printf("can access peer 0 0: %d (%d)\n", (int)e, v);
	v = -1;
	e = cudaDeviceCanAccessPeer(&v, 0, n);
	printf("can access peer 0 ndev: %d (%d)\n", (int)e, v);
	cudaGetLastError();
	show("can access peer null", cudaDeviceCanAccessPeer(NULL, 0, 0));
	show("enable peer self", cudaDeviceEnablePeerAccess(0, 0));
	show("enable peer ndev", cudaDeviceEnablePeerAccess(n, 0));
	show("enable peer flags", cudaDeviceEnablePeerAccess(0, 1));
	show("disable peer self", cudaDeviceDisablePeerAccess(0));
	show("disable peer ndev", cudaDeviceDisablePeerAccess(n));
	for (unsigned int i = 0; i < sizeof(a) / sizeof(a[0]); i++) {
		v = -1;
		e = cudaDeviceGetP2PAttribute(&v, a[i], 0, 0);
		printf("p2p attr %d 0 0: %d (%d)\n", (int)a[i], (int)e, v);
		v = -1;
		e = cudaDeviceGetP2PAttribute(&v, a[i], 0, n);
		printf("p2p attr %d 0 ndev: %d (%d)\n", (int)a[i], (int)e, v);
		cudaGetLastError();
	}
	show("p2p attr null", cudaDeviceGetP2PAttribute(NULL,
		cudaDevP2PAttrAccessSupported, 0, 0));
	show("memcpy peer self", cudaMemcpyPeer(NULL, 0, NULL, 0, 0));
	return 0;
}
