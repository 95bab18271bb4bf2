// SPDX-License-Identifier: GPL-2.0
/*
 * Our libcuda against NVIDIA's, on the answers of
 * tools/cuda-probe/probe_interop.c: OpenGL buffers and textures
 * registered, mapped, unmapped and queried right and wrong, and external
 * memory and semaphores imported from bad descriptors and from Vulkan.
 *
 * The probe was run on a real H100 (EGL device platform, NVIDIA's Vulkan);
 * its output is kept in tools/cuda-probe/golden/probe_interop.h100.txt
 * (first line: the GPU).  There NVIDIA's driver aborted inside
 * cuExternalMemoryGetMappedMipmappedArray with numLevels 0 ("malloc():
 * invalid size"), so the recording ends before that call: only its lines
 * are compared.  Here the same probe runs against our libcuda with Mesa
 * (llvmpipe, lavapipe) and its output is compared line by line.
 */
#define PROBE_BIN	PROBE_INTEROP_BIN
#define PROBE_GOLDEN	PROBE_INTEROP_GOLDEN
#define PROBE_PRINTS_GPU
#define PROBE_GOLDEN_ENDS_EARLY
/*
 * Where vGPU answers otherwise on purpose:
 *  - a 2D texture registered as GL_TEXTURE_3D: the H100 does not check
 *    the target against the texture; vGPU transfers 2D textures only and
 *    says NOT_SUPPORTED for the others;
 *  - a memfd is memory to vGPU (its GART reaches host pages), while
 *    NVIDIA's driver imports only its own memory objects.
 */
#define PROBE_ON_PURPOSE						\
	{ "gl.register_image.wrong_target: CUDA_SUCCESS",		\
	  "gl.register_image.wrong_target: CUDA_ERROR_NOT_SUPPORTED" },	\
	{ "ext.import_memory.memfd: CUDA_ERROR_UNKNOWN",		\
	  "ext.import_memory.memfd: CUDA_SUCCESS" },			\
	{ "ext.import_sem.memfd: CUDA_ERROR_INVALID_VALUE",		\
	  "ext.import_sem.memfd: CUDA_SUCCESS" }
#include "probe_compare.h"
