// SPDX-License-Identifier: GPL-2.0
/*
 * Graphics interoperability in the runtime: cudaGraphicsGL*, the
 * cudaGraphics* calls on any registered resource, cudaGLGetDevices.
 *
 * cudaGraphicsResource_t is the driver's CUgraphicsResource, cudaArray_t
 * its CUarray and cudaMipmappedArray_t its CUmipmappedArray (the same
 * structs), and the flags have the driver's values, so these are thin:
 * enter the current device, call libcuda (umd/cuda/interop_gl.c, which
 * does the work and says why), translate the error.  The _ptsz entry
 * points are those of `nvcc --default-stream per-thread` (per_thread.c).
 */
#include <cuda_gl_interop.h>

#include "cudart_abi.h"
#include "cudart_internal.h"

#include <cudaGL.h>

_Static_assert((int)cudaGraphicsRegisterFlagsSurfaceLoadStore ==
	       (int)CU_GRAPHICS_REGISTER_FLAGS_SURFACE_LDST &&
	       (int)cudaGraphicsMapFlagsWriteDiscard ==
	       (int)CU_GRAPHICS_MAP_RESOURCE_FLAGS_WRITE_DISCARD &&
	       (int)cudaGLDeviceListNextFrame ==
	       (int)CU_GL_DEVICE_LIST_NEXT_FRAME,
	       "the runtime's interop flags are the driver's");

cudaError_t cudaGraphicsGLRegisterBuffer(struct cudaGraphicsResource **resource,
					 GLuint buffer, unsigned int flags)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphicsGLRegisterBuffer(
		(CUgraphicsResource *)resource, buffer, flags));
}

cudaError_t cudaGraphicsGLRegisterImage(struct cudaGraphicsResource **resource,
					GLuint image, GLenum target,
					unsigned int flags)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphicsGLRegisterImage(
		(CUgraphicsResource *)resource, image, target, flags));
}

cudaError_t cudaGLGetDevices(unsigned int *pCudaDeviceCount,
			     int *pCudaDevices, unsigned int cudaDeviceCount,
			     enum cudaGLDeviceList deviceList)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGLGetDevices(pCudaDeviceCount,
					   (CUdevice *)pCudaDevices,
					   cudaDeviceCount,
					   (CUGLDeviceList)deviceList));
}

cudaError_t cudaGraphicsUnregisterResource(cudaGraphicsResource_t resource)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphicsUnregisterResource(
		(CUgraphicsResource)resource));
}

cudaError_t cudaGraphicsResourceSetMapFlags(cudaGraphicsResource_t resource,
					    unsigned int flags)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphicsResourceSetMapFlags(
		(CUgraphicsResource)resource, flags));
}

cudaError_t cudaGraphicsMapResources(int count,
				     cudaGraphicsResource_t *resources,
				     cudaStream_t stream)
{
	RT_ENTER_OR_RETURN();
	if (count < 0)
		return rt_return(cudaErrorInvalidValue);
	return rt_return_cu(cuGraphicsMapResources((unsigned int)count,
		(CUgraphicsResource *)resources, (CUstream)stream));
}

cudaError_t cudaGraphicsUnmapResources(int count,
				       cudaGraphicsResource_t *resources,
				       cudaStream_t stream)
{
	RT_ENTER_OR_RETURN();
	if (count < 0)
		return rt_return(cudaErrorInvalidValue);
	return rt_return_cu(cuGraphicsUnmapResources((unsigned int)count,
		(CUgraphicsResource *)resources, (CUstream)stream));
}

cudaError_t cudaGraphicsResourceGetMappedPointer(void **devPtr, size_t *size,
						 cudaGraphicsResource_t resource)
{
	CUdeviceptr p = 0;
	CUresult r;

	RT_ENTER_OR_RETURN();
	r = cuGraphicsResourceGetMappedPointer(devPtr ? &p : NULL, size,
					       (CUgraphicsResource)resource);
	if (r == CUDA_SUCCESS && devPtr)
		*devPtr = (void *)(uintptr_t)p;
	return rt_return_cu(r);
}

cudaError_t cudaGraphicsSubResourceGetMappedArray(cudaArray_t *array,
	cudaGraphicsResource_t resource, unsigned int arrayIndex,
	unsigned int mipLevel)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphicsSubResourceGetMappedArray(
		(CUarray *)array, (CUgraphicsResource)resource, arrayIndex,
		mipLevel));
}

cudaError_t cudaGraphicsResourceGetMappedMipmappedArray(
	cudaMipmappedArray_t *mipmappedArray, cudaGraphicsResource_t resource)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuGraphicsResourceGetMappedMipmappedArray(
		(CUmipmappedArray *)mipmappedArray,
		(CUgraphicsResource)resource));
}

/* nvcc --default-stream per-thread: stream 0 is the thread's own. */
__typeof__(cudaGraphicsMapResources) cudaGraphicsMapResources_ptsz;
__typeof__(cudaGraphicsUnmapResources) cudaGraphicsUnmapResources_ptsz;

cudaError_t cudaGraphicsMapResources_ptsz(int count,
					  cudaGraphicsResource_t *resources,
					  cudaStream_t stream)
{
	return cudaGraphicsMapResources(count, resources,
					stream ? stream : cudaStreamPerThread);
}

cudaError_t cudaGraphicsUnmapResources_ptsz(int count,
					    cudaGraphicsResource_t *resources,
					    cudaStream_t stream)
{
	return cudaGraphicsUnmapResources(count, resources,
					  stream ? stream : cudaStreamPerThread);
}
