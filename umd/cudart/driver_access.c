// SPDX-License-Identifier: GPL-2.0
/*
 * Ways a runtime program reaches the driver directly: driver entry
 * points by name (what libraries such as cuBLAS-like code use to call
 * cu* functions without linking libcuda), and the profiler controls,
 * which are the driver's.  Both are passed on.
 */
#include <cudaProfiler.h>
#include <cuda_profiler_api.h>

#include "cudart_internal.h"

cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol,
		void **funcPtr, unsigned int cudaVersion,
		unsigned long long flags,
		enum cudaDriverEntryPointQueryResult *driverStatus)
{
	CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SUCCESS;
	cudaError_t err;

	if (!symbol || !funcPtr)
		return rt_return(cudaErrorInvalidValue);
	err = rt_error_from_cu(cuInit(0));
	if (err != cudaSuccess)
		return rt_return(err);
	/* cudaEnable* flags have the CU_GET_PROC_ADDRESS_* values. */
	err = rt_return_cu(cuGetProcAddress(symbol, funcPtr, (int)cudaVersion,
					    flags, &status));
	if (driverStatus)
		*driverStatus = (enum cudaDriverEntryPointQueryResult)status;
	return err;
}

cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **funcPtr,
		unsigned long long flags,
		enum cudaDriverEntryPointQueryResult *driverStatus)
{
	return cudaGetDriverEntryPointByVersion(symbol, funcPtr, CUDART_VERSION,
						flags, driverStatus);
}

cudaError_t cudaProfilerStart(void)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuProfilerStart());
}

cudaError_t cudaProfilerStop(void)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuProfilerStop());
}
