// SPDX-License-Identifier: GPL-2.0
/*
 * tensor_map.c - cuTensorMapEncodeTiled, cuTensorMapEncodeIm2col and
 * cuTensorMapReplaceAddress: the descriptors of the tensor memory
 * accelerator, written in vGPU's layout (include/vgpu_tensor_map.h) that
 * the execution core reads (firmware_sim/core/exec_tma.c).
 *
 * Encoding is pure host work, as on NVIDIA's driver: no context is
 * needed and nothing is checked against the device's memory.  Every
 * argument is checked as an H100 checks it; the answers were recorded
 * (tools/cuda-probe/probe_tma.cu, golden/probe_tma.h100.txt) and differ
 * from cuda.h's prose in places: the map needs no 64-byte alignment, a
 * NULL global address is accepted, a stride of 0 too, and the 32-byte
 * interleave does not insist on the 32-byte swizzle.  Every failure is
 * CUDA_ERROR_INVALID_VALUE.
 */
#include <string.h>

#include "cuda_internal.h"
#include "vgpu_tensor_map.h"

/* Bytes per element of CUtensorMapDataType 0..12; 0: not on sm_90 (the
 * packed 16U4/16U6 types are refused by an H100). */
static const uint8_t dtype_size[] = {
	[CU_TENSOR_MAP_DATA_TYPE_UINT8] = 1,
	[CU_TENSOR_MAP_DATA_TYPE_UINT16] = 2,
	[CU_TENSOR_MAP_DATA_TYPE_UINT32] = 4,
	[CU_TENSOR_MAP_DATA_TYPE_INT32] = 4,
	[CU_TENSOR_MAP_DATA_TYPE_UINT64] = 8,
	[CU_TENSOR_MAP_DATA_TYPE_INT64] = 8,
	[CU_TENSOR_MAP_DATA_TYPE_FLOAT16] = 2,
	[CU_TENSOR_MAP_DATA_TYPE_FLOAT32] = 4,
	[CU_TENSOR_MAP_DATA_TYPE_FLOAT64] = 8,
	[CU_TENSOR_MAP_DATA_TYPE_BFLOAT16] = 2,
	[CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ] = 4,
	[CU_TENSOR_MAP_DATA_TYPE_TFLOAT32] = 4,
	[CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ] = 4,
};

static bool dtype_is_float(unsigned int dt)
{
	return dt >= CU_TENSOR_MAP_DATA_TYPE_FLOAT16 &&
	       dt <= CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ;
}

/* The swizzle span in bytes, 0 for none. */
static uint32_t swizzle_span(unsigned int sw)
{
	return sw == CU_TENSOR_MAP_SWIZZLE_NONE ? 0 : 16u << sw;
}

/*
 * What the tiled and the im2col encoders share: the tensor itself and
 * the copy options.  Fills @m's common fields; returns the CUresult.
 */
static CUresult encode_common(struct vgpu_tensor_map *m, unsigned int dt,
			      cuuint32_t rank, const void *addr,
			      const cuuint64_t *dim, const cuuint64_t *stride,
			      const cuuint32_t *estride, unsigned int il,
			      unsigned int sw, unsigned int l2,
			      unsigned int oob)
{
	uint32_t esize;

	if (dt >= sizeof(dtype_size) || !dtype_size[dt])
		return CUDA_ERROR_INVALID_VALUE;
	esize = dtype_size[dt];
	if (rank < 1 || rank > VGPU_TMAP_MAX_RANK || !dim || !stride ||
	    !estride)
		return CUDA_ERROR_INVALID_VALUE;
	if (il > CU_TENSOR_MAP_INTERLEAVE_32B ||
	    (il != CU_TENSOR_MAP_INTERLEAVE_NONE && rank < 3))
		return CUDA_ERROR_INVALID_VALUE;
	if (sw > CU_TENSOR_MAP_SWIZZLE_128B ||
	    l2 > CU_TENSOR_MAP_L2_PROMOTION_L2_256B ||
	    oob > CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA ||
	    (oob && !dtype_is_float(dt)))
		return CUDA_ERROR_INVALID_VALUE;
	if ((uintptr_t)addr % (il == CU_TENSOR_MAP_INTERLEAVE_32B ? 32 : 16))
		return CUDA_ERROR_INVALID_VALUE;
	for (cuuint32_t i = 0; i < rank; i++) {
		if (!dim[i] || dim[i] > (1ull << 32) || !estride[i] ||
		    estride[i] > 8)
			return CUDA_ERROR_INVALID_VALUE;
		if (i + 1 < rank &&
		    (stride[i] % (il == CU_TENSOR_MAP_INTERLEAVE_32B ? 32 : 16) ||
		     stride[i] >= (1ull << 40)))
			return CUDA_ERROR_INVALID_VALUE;
	}
	memset(m, 0, sizeof(*m));
	m->magic = VGPU_TMAP_MAGIC;
	m->dtype = (uint8_t)dt;
	m->rank = (uint8_t)rank;
	m->interleave = (uint8_t)il;
	m->swizzle = (uint8_t)sw;
	m->l2_promotion = (uint8_t)l2;
	m->oob_nan = (uint8_t)oob;
	m->elem_size = (uint8_t)esize;
	m->address = (uint64_t)(uintptr_t)addr;
	for (cuuint32_t i = 0; i < rank; i++) {
		m->dim[i] = dim[i];
		m->estride[i] = (uint8_t)estride[i];
		if (i + 1 < rank)
			m->stride[i] = stride[i];
	}
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuTensorMapEncodeTiled(CUtensorMap *tensorMap,
				CUtensorMapDataType tensorDataType,
				cuuint32_t tensorRank, void *globalAddress,
				const cuuint64_t *globalDim,
				const cuuint64_t *globalStrides,
				const cuuint32_t *boxDim,
				const cuuint32_t *elementStrides,
				CUtensorMapInterleave interleave,
				CUtensorMapSwizzle swizzle,
				CUtensorMapL2promotion l2Promotion,
				CUtensorMapFloatOOBfill oobFill)
{
	struct vgpu_tensor_map m;
	uint32_t span = swizzle_span(swizzle);
	CUresult res;

	if (!tensorMap || !boxDim)
		return CUDA_ERROR_INVALID_VALUE;
	res = encode_common(&m, tensorDataType, tensorRank, globalAddress,
			    globalDim, globalStrides, elementStrides,
			    interleave, swizzle, l2Promotion, oobFill);
	if (res)
		return res;
	for (cuuint32_t i = 0; i < tensorRank; i++) {
		if (!boxDim[i] || boxDim[i] > 256)
			return CUDA_ERROR_INVALID_VALUE;
		m.box[i] = (uint16_t)boxDim[i];
	}
	if (interleave == CU_TENSOR_MAP_INTERLEAVE_NONE &&
	    ((boxDim[0] * m.elem_size) % 16 ||
	     (span && boxDim[0] * m.elem_size > span)))
		return CUDA_ERROR_INVALID_VALUE;
	m.kind = VGPU_TMAP_TILED;
	memcpy(tensorMap, &m, sizeof(m));
	return CUDA_SUCCESS;
}

/* The range of the im2col corner offsets: 16, 8 or 5 bits by rank. */
static bool corner_ok(cuuint32_t rank, int v)
{
	int lim = rank == 3 ? 32768 : rank == 4 ? 128 : 16;

	return v >= -lim && v < lim;
}

CU_EXPORT CUresult CUDAAPI cuTensorMapEncodeIm2col(CUtensorMap *tensorMap,
				 CUtensorMapDataType tensorDataType,
				 cuuint32_t tensorRank, void *globalAddress,
				 const cuuint64_t *globalDim,
				 const cuuint64_t *globalStrides,
				 const int *pixelBoxLowerCorner,
				 const int *pixelBoxUpperCorner,
				 cuuint32_t channelsPerPixel,
				 cuuint32_t pixelsPerColumn,
				 const cuuint32_t *elementStrides,
				 CUtensorMapInterleave interleave,
				 CUtensorMapSwizzle swizzle,
				 CUtensorMapL2promotion l2Promotion,
				 CUtensorMapFloatOOBfill oobFill)
{
	struct vgpu_tensor_map m;
	uint32_t span = swizzle_span(swizzle);
	cuuint32_t spatial = tensorRank - 2;
	CUresult res;

	/* NVIDIA's driver crashes on NULL corners; vGPU refuses them */
	if (!tensorMap || tensorRank < 3 || tensorRank > 5 ||
	    !pixelBoxLowerCorner || !pixelBoxUpperCorner)
		return CUDA_ERROR_INVALID_VALUE;
	res = encode_common(&m, tensorDataType, tensorRank, globalAddress,
			    globalDim, globalStrides, elementStrides,
			    interleave, swizzle, l2Promotion, oobFill);
	if (res)
		return res;
	if (!channelsPerPixel || channelsPerPixel > 256 || !pixelsPerColumn ||
	    pixelsPerColumn > 1024)
		return CUDA_ERROR_INVALID_VALUE;
	if (interleave == CU_TENSOR_MAP_INTERLEAVE_NONE && span &&
	    channelsPerPixel * m.elem_size > span)
		return CUDA_ERROR_INVALID_VALUE;
	for (cuuint32_t i = 0; i < spatial; i++) {
		int lo = pixelBoxLowerCorner[i], hi = pixelBoxUpperCorner[i];

		if (!corner_ok(tensorRank, lo) || !corner_ok(tensorRank, hi))
			return CUDA_ERROR_INVALID_VALUE;
		/* the box of base pixels must not be empty */
		if ((int64_t)globalDim[i + 1] - 1 + hi < lo)
			return CUDA_ERROR_INVALID_VALUE;
		m.lower[i] = (int16_t)lo;
		m.upper[i] = (int16_t)hi;
	}
	m.kind = VGPU_TMAP_IM2COL;
	m.channels = (uint16_t)channelsPerPixel;
	m.pixels = (uint16_t)pixelsPerColumn;
	memcpy(tensorMap, &m, sizeof(m));
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuTensorMapReplaceAddress(CUtensorMap *tensorMap, void *globalAddress)
{
	struct vgpu_tensor_map m;

	/* NVIDIA's driver crashes on a NULL map; vGPU refuses it */
	if (!tensorMap)
		return CUDA_ERROR_INVALID_VALUE;
	memcpy(&m, tensorMap, sizeof(m));
	if (m.magic != VGPU_TMAP_MAGIC ||
	    (uintptr_t)globalAddress %
		    (m.interleave == VGPU_TMAP_INTERLEAVE_32B ? 32 : 16))
		return CUDA_ERROR_INVALID_VALUE;
	m.address = (uint64_t)(uintptr_t)globalAddress;
	memcpy(tensorMap, &m, sizeof(m));
	return CUDA_SUCCESS;
}
