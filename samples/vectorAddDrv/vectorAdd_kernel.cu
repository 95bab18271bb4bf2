// SPDX-License-Identifier: GPL-2.0
/*
 * vectorAdd_kernel.cu - the device code of vectorAddDrv.  The build turns
 * it into vectorAdd_kernel.ptx (nvcc -ptx) and vectorAdd_kernel.fatbin
 * (nvcc -fatbin); the program loads both at run time with cuModuleLoad.
 * extern "C" keeps the kernel's name unmangled for cuModuleGetFunction.
 */
extern "C" __global__ void VecAdd_kernel(const float *A, const float *B,
					 float *C, int N)
{
	int i = blockDim.x * blockIdx.x + threadIdx.x;

	if (i < N)
		C[i] = A[i] + B[i];
}
