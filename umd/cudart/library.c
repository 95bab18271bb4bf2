// SPDX-License-Identifier: GPL-2.0
/*
 * Context-independent code in the runtime: cudaLibrary* over the driver's
 * cuLibrary* (libcuda's library.c), whose handles the runtime's are.  A
 * cudaKernel_t of a library is a CUkernel; the launch and attribute calls
 * (launch.c, module_load.c) accept one wherever they accept a kernel's
 * host stub, through rt_library_function().
 */
#include <stdint.h>

#include "cudart_internal.h"

bool rt_library_function(const void *func, CUfunction *fn, cudaError_t *err)
{
	const char *name;

	/* The driver knows its CUkernel handles; anything else is not one. */
	if (!func || cuKernelGetName(&name, (CUkernel)func) != CUDA_SUCCESS)
		return false;
	*err = rt_error_from_cu(cuKernelGetFunction(fn, (CUkernel)func));
	return true;
}

cudaError_t cudaLibraryLoadData(cudaLibrary_t *library, const void *code,
				enum cudaJitOption *jitOptions,
				void **jitOptionsValues,
				unsigned int numJitOptions,
				enum cudaLibraryOption *libraryOptions,
				void **libraryOptionValues,
				unsigned int numLibraryOptions)
{
	RT_ENTER_OR_RETURN();
	/* cudaJitOption and cudaLibraryOption number as CUjit_option does. */
	return rt_return_cu(cuLibraryLoadData((CUlibrary *)library, code,
			(CUjit_option *)jitOptions, jitOptionsValues,
			numJitOptions, (CUlibraryOption *)libraryOptions,
			libraryOptionValues, numLibraryOptions));
}

cudaError_t cudaLibraryLoadFromFile(cudaLibrary_t *library,
				    const char *fileName,
				    enum cudaJitOption *jitOptions,
				    void **jitOptionsValues,
				    unsigned int numJitOptions,
				    enum cudaLibraryOption *libraryOptions,
				    void **libraryOptionValues,
				    unsigned int numLibraryOptions)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuLibraryLoadFromFile((CUlibrary *)library,
			fileName, (CUjit_option *)jitOptions, jitOptionsValues,
			numJitOptions, (CUlibraryOption *)libraryOptions,
			libraryOptionValues, numLibraryOptions));
}

cudaError_t cudaLibraryUnload(cudaLibrary_t library)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuLibraryUnload((CUlibrary)library));
}

cudaError_t cudaLibraryGetKernel(cudaKernel_t *pKernel, cudaLibrary_t library,
				 const char *name)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuLibraryGetKernel((CUkernel *)pKernel,
					       (CUlibrary)library, name));
}

cudaError_t cudaLibraryGetKernelCount(unsigned int *count, cudaLibrary_t lib)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuLibraryGetKernelCount(count, (CUlibrary)lib));
}

cudaError_t cudaLibraryEnumerateKernels(cudaKernel_t *kernels,
					unsigned int numKernels,
					cudaLibrary_t lib)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuLibraryEnumerateKernels((CUkernel *)kernels,
						      numKernels,
						      (CUlibrary)lib));
}

cudaError_t cudaLibraryGetGlobal(void **dptr, size_t *bytes,
				 cudaLibrary_t library, const char *name)
{
	CUdeviceptr d;
	cudaError_t err;

	RT_ENTER_OR_RETURN();
	err = rt_return_cu(cuLibraryGetGlobal(&d, bytes, (CUlibrary)library,
					      name));
	if (err == cudaSuccess && dptr)
		*dptr = (void *)(uintptr_t)d;
	return err;
}

cudaError_t cudaLibraryGetManaged(void **dptr, size_t *bytes,
				  cudaLibrary_t library, const char *name)
{
	CUdeviceptr d;
	cudaError_t err;

	RT_ENTER_OR_RETURN();
	err = rt_return_cu(cuLibraryGetManaged(&d, bytes, (CUlibrary)library,
					       name));
	if (err == cudaSuccess && dptr)
		*dptr = (void *)(uintptr_t)d;
	return err;
}

cudaError_t cudaLibraryGetUnifiedFunction(void **fptr, cudaLibrary_t library,
					  const char *symbol)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuLibraryGetUnifiedFunction(fptr,
							(CUlibrary)library,
							symbol));
}

/*
 * @kernel: a library's, or one from cudaGetKernel.  The settable
 * cudaFuncAttribute values are the CU_FUNC_ATTRIBUTE values of the same
 * meaning (as in cudaFuncSetAttribute).
 */
cudaError_t cudaKernelSetAttributeForDevice(cudaKernel_t kernel,
					    enum cudaFuncAttribute attr,
					    int value, int device)
{
	struct rt_function *f;
	CUfunction fn;
	const char *name;
	cudaError_t err = rt_check_device(device);

	if (err != cudaSuccess)
		return rt_return(err);
	if (attr < cudaFuncAttributeMaxDynamicSharedMemorySize ||
	    attr >= cudaFuncAttributeMax)
		return rt_return(cudaErrorInvalidValue);
	if (cuKernelGetName(&name, (CUkernel)kernel) == CUDA_SUCCESS) {
		RT_ENTER_OR_RETURN();
		return rt_return_cu(cuKernelSetAttribute(
				(CUfunction_attribute)attr, value,
				(CUkernel)kernel, (CUdevice)device));
	}
	f = rt_function_from_kernel(kernel);
	if (!f)
		return rt_return(cudaErrorInvalidDeviceFunction);
	RT_ENTER_OR_RETURN();
	err = rt_function_get(f, device, &fn);
	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return_cu(cuFuncSetAttribute(fn, (CUfunction_attribute)attr,
					       value));
}
