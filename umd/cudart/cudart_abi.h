/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host-side ABI that nvcc-generated code calls.
 *
 * The toolkit declares these functions in crt/host_runtime.h and
 * crt/device_functions.h, which only compile as C++.  They are repeated
 * here, with exactly the same parameter types, so that the runtime can be
 * written in C.  cuda_runtime_api.h (C-compatible) provides the types.
 *
 * The order in which a program calls them:
 *
 *   before main:  __cudaRegisterFatBinary, then per kernel
 *                 __cudaRegisterFunction and per __device__/__constant__
 *                 variable __cudaRegisterVar, then
 *                 __cudaRegisterFatBinaryEnd;
 *   each <<<>>>:  __cudaPushCallConfiguration, the arguments are
 *                 evaluated, the stub calls __cudaGetKernel (once),
 *                 __cudaPopCallConfiguration and __cudaLaunchKernel;
 *   at exit:      __cudaUnregisterFatBinary (registered with atexit).
 */
#ifndef VGPU_CUDART_ABI_H
#define VGPU_CUDART_ABI_H

#include <cuda_runtime_api.h>

void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **fatCubinHandle);
void __cudaUnregisterFatBinary(void **fatCubinHandle);

void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun,
			    char *deviceFun, const char *deviceName,
			    int thread_limit, uint3 *tid, uint3 *bid,
			    dim3 *bDim, dim3 *gDim, int *wSize);
void __cudaRegisterVar(void **fatCubinHandle, char *hostVar,
		       char *deviceAddress, const char *deviceName, int ext,
		       size_t size, int constant, int global);
void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress,
			      char *deviceAddress, const char *deviceName,
			      int ext, size_t size, int constant, int global);
char __cudaInitModule(void **fatCubinHandle);

unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim,
				     size_t sharedMem,
				     struct CUstream_st *stream);
cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim,
				       size_t *sharedMem, void *stream);

cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun);
cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim,
			       dim3 blockDim, void **args, size_t sharedMem,
			       cudaStream_t stream);
cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim,
				    dim3 blockDim, void **args,
				    size_t sharedMem, cudaStream_t stream);

#endif /* VGPU_CUDART_ABI_H */
