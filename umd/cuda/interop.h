/* SPDX-License-Identifier: GPL-2.0 */
/*
 * interop.h - what the rest of libcuda asks of the interoperability
 * files (interop_gl.c, interop_ext.c).
 */
#ifndef VGPU_CUDA_INTEROP_H
#define VGPU_CUDA_INTEROP_H

#include <stdbool.h>

#include <cuda.h>

/*
 * cuMemFree of a pointer cuExternalMemoryGetMappedBuffer returned: forget
 * it (the memory stays with its external memory object) and say true;
 * false for any other pointer.
 */
bool cu_ext_buffer_free(CUdeviceptr ptr);

#endif /* VGPU_CUDA_INTEROP_H */
