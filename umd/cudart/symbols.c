// SPDX-License-Identifier: GPL-2.0
/*
 * __device__ and __constant__ variables, named by their host shadow.
 *
 * `cudaMemcpyToSymbol(coeffs, src, n)` passes the address of the host
 * shadow variable nvcc made for `__constant__ float coeffs[16]`; the
 * registry maps it to the variable's name, and the driver's
 * cuModuleGetGlobal gives its device address and size in the module
 * loaded on the current device.  Variables with initializers start with
 * their values because the driver loads them with the module.
 */
#include <stdint.h>

#include "cudart_internal.h"

/* Device address and size of @symbol on the current device. */
static cudaError_t rt_symbol(const void *symbol, CUdeviceptr *addr,
			     size_t *size)
{
	struct rt_variable *v;
	int dev;
	cudaError_t err = rt_enter(&dev);

	if (err != cudaSuccess)
		return err;
	v = symbol ? rt_variable_lookup(symbol) : NULL;
	if (!v)
		return cudaErrorInvalidSymbol;
	return rt_variable_get(v, dev, addr, size);
}

cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol)
{
	CUdeviceptr addr;
	size_t size;
	cudaError_t err;

	if (!devPtr)
		return rt_return(cudaErrorInvalidValue);
	err = rt_symbol(symbol, &addr, &size);
	if (err == cudaSuccess)
		*devPtr = (void *)(uintptr_t)addr;
	return rt_return(err);
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
	CUdeviceptr addr;
	size_t sz;
	cudaError_t err;

	if (!size)
		return rt_return(cudaErrorInvalidValue);
	err = rt_symbol(symbol, &addr, &sz);
	if (err == cudaSuccess)
		*size = sz;
	return rt_return(err);
}

/*
 * The device range [offset, offset + count) of a symbol, checked against
 * its size; @kind must name the device as the symbol's side.
 */
static cudaError_t rt_symbol_range(const void *symbol, size_t count,
				   size_t offset, enum cudaMemcpyKind kind,
				   enum cudaMemcpyKind other_side_device,
				   CUdeviceptr *addr)
{
	size_t size;
	cudaError_t err;

	if (kind != cudaMemcpyDefault && kind != other_side_device &&
	    kind != cudaMemcpyDeviceToDevice)
		return cudaErrorInvalidMemcpyDirection;
	err = rt_symbol(symbol, addr, &size);
	if (err != cudaSuccess)
		return err;
	if (offset > size || count > size - offset)
		return cudaErrorInvalidValue;
	*addr += offset;
	return cudaSuccess;
}

static cudaError_t rt_to_symbol(const void *symbol, const void *src,
				size_t count, size_t offset,
				enum cudaMemcpyKind kind, CUstream stream,
				bool async)
{
	CUdeviceptr dst;
	cudaError_t err = rt_symbol_range(symbol, count, offset, kind,
					  cudaMemcpyHostToDevice, &dst);

	if (err != cudaSuccess)
		return err;
	if (count == 0)
		return cudaSuccess;
	if (kind == cudaMemcpyHostToDevice)
		return rt_error_from_cu(async ?
			cuMemcpyHtoDAsync(dst, src, count, stream) :
			cuMemcpyHtoD(dst, src, count));
	return rt_error_from_cu(async ?
		cuMemcpyAsync(dst, (CUdeviceptr)(uintptr_t)src, count, stream) :
		cuMemcpy(dst, (CUdeviceptr)(uintptr_t)src, count));
}

static cudaError_t rt_from_symbol(void *dst, const void *symbol, size_t count,
				  size_t offset, enum cudaMemcpyKind kind,
				  CUstream stream, bool async)
{
	CUdeviceptr src;
	cudaError_t err = rt_symbol_range(symbol, count, offset, kind,
					  cudaMemcpyDeviceToHost, &src);

	if (err != cudaSuccess)
		return err;
	if (count == 0)
		return cudaSuccess;
	if (kind == cudaMemcpyDeviceToHost)
		return rt_error_from_cu(async ?
			cuMemcpyDtoHAsync(dst, src, count, stream) :
			cuMemcpyDtoH(dst, src, count));
	return rt_error_from_cu(async ?
		cuMemcpyAsync((CUdeviceptr)(uintptr_t)dst, src, count, stream) :
		cuMemcpy((CUdeviceptr)(uintptr_t)dst, src, count));
}

cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src,
			       size_t count, size_t offset,
			       enum cudaMemcpyKind kind)
{
	return rt_return(rt_to_symbol(symbol, src, count, offset, kind, NULL,
				      false));
}

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
				 size_t offset, enum cudaMemcpyKind kind)
{
	return rt_return(rt_from_symbol(dst, symbol, count, offset, kind, NULL,
					false));
}

cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src,
				    size_t count, size_t offset,
				    enum cudaMemcpyKind kind,
				    cudaStream_t stream)
{
	return rt_return(rt_to_symbol(symbol, src, count, offset, kind, stream,
				      true));
}

cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol,
				      size_t count, size_t offset,
				      enum cudaMemcpyKind kind,
				      cudaStream_t stream)
{
	return rt_return(rt_from_symbol(dst, symbol, count, offset, kind,
					stream, true));
}
