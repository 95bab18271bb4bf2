/* SPDX-License-Identifier: GPL-2.0 */
/* cuda_test_min.h - the test data paths, for programs without the harness. */
#ifndef VGPU_CUDA_TEST_MIN_H
#define VGPU_CUDA_TEST_MIN_H

#include <cuda.h>

#ifndef CUDA_TEST_DATA
#error "CUDA_TEST_DATA must name the test data directory"
#endif
#define DRV_PTX		CUDA_TEST_DATA "/drv_kernels.ptx"
#define DRV_FATBIN	CUDA_TEST_DATA "/drv_kernels.fatbin"
#define DRV_VISA	CUDA_TEST_DATA "/drv_kernels.visa"

#endif /* VGPU_CUDA_TEST_MIN_H */
