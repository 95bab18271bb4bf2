// SPDX-License-Identifier: GPL-2.0
/*
 * Texture and surface objects in the runtime: cudaCreateTextureObject,
 * cudaCreateSurfaceObject, their getters and destruction, on the driver's
 * cuTexObject* / cuSurfObject* (umd/cuda/texobj.c).
 *
 * The runtime's descriptors say the same as the driver's in other words:
 * a read mode where the driver has CU_TRSF_READ_AS_INTEGER, flags as
 * fields, a channel descriptor where the driver has a format and a
 * channel count (rt_desc_format(), array.c).  Two checks are the
 * runtime's own, with its own codes (recorded on an H100,
 * tests/golden/probe_tex.h100.txt): linear filtering of integers read as
 * integers is cudaErrorInvalidFilterSetting, normalized reads of 32-bit
 * integers cudaErrorInvalidNormSetting.
 */
#include <stdint.h>
#include <string.h>

#include "cudart_internal.h"

/* Whether @f is an integer format, and whether a 32-bit one. */
static bool rt_format_int(CUarray_format f, bool *wide)
{
	*wide = f == CU_AD_FORMAT_UNSIGNED_INT32 ||
		f == CU_AD_FORMAT_SIGNED_INT32;
	return f != CU_AD_FORMAT_HALF && f != CU_AD_FORMAT_FLOAT;
}

/* The driver's resource descriptor of @r; the format in *@format. */
static cudaError_t rt_res_to_cu(const struct cudaResourceDesc *r,
				CUDA_RESOURCE_DESC *c, CUarray_format *format)
{
	CUDA_ARRAY3D_DESCRIPTOR ad;

	memset(c, 0, sizeof(*c));
	c->flags = r->flags;
	switch (r->resType) {
	case cudaResourceTypeArray:
		c->resType = CU_RESOURCE_TYPE_ARRAY;
		c->res.array.hArray = (CUarray)r->res.array.array;
		if (!r->res.array.array ||
		    cuArray3DGetDescriptor(&ad, c->res.array.hArray))
			return cudaErrorInvalidResourceHandle;
		*format = ad.Format;
		return cudaSuccess;
	case cudaResourceTypeLinear:
		c->resType = CU_RESOURCE_TYPE_LINEAR;
		c->res.linear.devPtr = (CUdeviceptr)(uintptr_t)r->res.linear.devPtr;
		c->res.linear.sizeInBytes = r->res.linear.sizeInBytes;
		if (!rt_desc_format(&r->res.linear.desc, &c->res.linear.format,
				    &c->res.linear.numChannels))
			return cudaErrorInvalidChannelDescriptor;
		*format = c->res.linear.format;
		return cudaSuccess;
	case cudaResourceTypePitch2D:
		c->resType = CU_RESOURCE_TYPE_PITCH2D;
		c->res.pitch2D.devPtr =
			(CUdeviceptr)(uintptr_t)r->res.pitch2D.devPtr;
		c->res.pitch2D.width = r->res.pitch2D.width;
		c->res.pitch2D.height = r->res.pitch2D.height;
		c->res.pitch2D.pitchInBytes = r->res.pitch2D.pitchInBytes;
		if (!rt_desc_format(&r->res.pitch2D.desc,
				    &c->res.pitch2D.format,
				    &c->res.pitch2D.numChannels))
			return cudaErrorInvalidChannelDescriptor;
		*format = c->res.pitch2D.format;
		return cudaSuccess;
	case cudaResourceTypeMipmappedArray: {
		CUarray level0;
		CUresult cr;

		c->resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
		c->res.mipmap.hMipmappedArray =
			(CUmipmappedArray)r->res.mipmap.mipmap;
		if (!r->res.mipmap.mipmap)
			return cudaErrorInvalidResourceHandle;
		/* freed: 709, as an H100 answers */
		cr = cuMipmappedArrayGetLevel(&level0,
					      c->res.mipmap.hMipmappedArray, 0);
		if (cr == CUDA_SUCCESS)
			cr = cuArray3DGetDescriptor(&ad, level0);
		if (cr != CUDA_SUCCESS)
			return rt_error_from_cu(cr);
		*format = ad.Format;
		return cudaSuccess;
	}
	default:
		return cudaErrorInvalidValue;
	}
}

static void rt_res_from_cu(const CUDA_RESOURCE_DESC *c,
			   struct cudaResourceDesc *r)
{
	memset(r, 0, sizeof(*r));
	r->flags = c->flags;
	switch (c->resType) {
	case CU_RESOURCE_TYPE_LINEAR:
		r->resType = cudaResourceTypeLinear;
		r->res.linear.devPtr = (void *)(uintptr_t)c->res.linear.devPtr;
		r->res.linear.sizeInBytes = c->res.linear.sizeInBytes;
		rt_format_desc(c->res.linear.format, c->res.linear.numChannels,
			       &r->res.linear.desc);
		break;
	case CU_RESOURCE_TYPE_PITCH2D:
		r->resType = cudaResourceTypePitch2D;
		r->res.pitch2D.devPtr =
			(void *)(uintptr_t)c->res.pitch2D.devPtr;
		r->res.pitch2D.width = c->res.pitch2D.width;
		r->res.pitch2D.height = c->res.pitch2D.height;
		r->res.pitch2D.pitchInBytes = c->res.pitch2D.pitchInBytes;
		rt_format_desc(c->res.pitch2D.format,
			       c->res.pitch2D.numChannels,
			       &r->res.pitch2D.desc);
		break;
	case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
		r->resType = cudaResourceTypeMipmappedArray;
		r->res.mipmap.mipmap =
			(cudaMipmappedArray_t)c->res.mipmap.hMipmappedArray;
		break;
	default:
		r->resType = cudaResourceTypeArray;
		r->res.array.array = (cudaArray_t)c->res.array.hArray;
		break;
	}
}

static cudaError_t rt_create_texture(cudaTextureObject_t *obj,
				     const struct cudaResourceDesc *r,
				     const struct cudaTextureDesc *t,
				     const struct cudaResourceViewDesc *v)
{
	CUDA_RESOURCE_VIEW_DESC cv;
	CUDA_RESOURCE_DESC cr;
	CUDA_TEXTURE_DESC ct;
	CUarray_format format = CU_AD_FORMAT_FLOAT;
	CUtexObject h;
	bool wide;
	int dev;
	cudaError_t err = rt_enter(&dev);

	if (err != cudaSuccess)
		return err;
	if (!obj || !r || !t)
		return cudaErrorInvalidValue;
	err = rt_res_to_cu(r, &cr, &format);
	if (err != cudaSuccess)
		return err;
	if (rt_format_int(format, &wide)) {
		if (t->readMode == cudaReadModeElementType &&
		    t->filterMode == cudaFilterModeLinear)
			return cudaErrorInvalidFilterSetting;
		if (t->readMode == cudaReadModeNormalizedFloat && wide)
			return cudaErrorInvalidNormSetting;
	}
	memset(&ct, 0, sizeof(ct));
	for (int i = 0; i < 3; i++)
		ct.addressMode[i] = (CUaddress_mode)t->addressMode[i];
	ct.filterMode = (CUfilter_mode)t->filterMode;
	ct.flags = (t->readMode == cudaReadModeElementType ?
		    CU_TRSF_READ_AS_INTEGER : 0) |
		   (t->normalizedCoords ? CU_TRSF_NORMALIZED_COORDINATES : 0) |
		   (t->sRGB ? CU_TRSF_SRGB : 0) |
		   (t->disableTrilinearOptimization ?
		    CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION : 0) |
		   (t->seamlessCubemap ? CU_TRSF_SEAMLESS_CUBEMAP : 0);
	ct.maxAnisotropy = t->maxAnisotropy;
	ct.mipmapFilterMode = (CUfilter_mode)t->mipmapFilterMode;
	ct.mipmapLevelBias = t->mipmapLevelBias;
	ct.minMipmapLevelClamp = t->minMipmapLevelClamp;
	ct.maxMipmapLevelClamp = t->maxMipmapLevelClamp;
	memcpy(ct.borderColor, t->borderColor, sizeof(ct.borderColor));
	if (v) {
		memset(&cv, 0, sizeof(cv));
		cv.format = (CUresourceViewFormat)v->format;
		cv.width = v->width;
		cv.height = v->height;
		cv.depth = v->depth;
		cv.firstMipmapLevel = v->firstMipmapLevel;
		cv.lastMipmapLevel = v->lastMipmapLevel;
		cv.firstLayer = v->firstLayer;
		cv.lastLayer = v->lastLayer;
	}
	err = rt_error_from_cu(cuTexObjectCreate(&h, &cr, &ct, v ? &cv : NULL));
	if (err == cudaSuccess)
		*obj = h;
	return err;
}

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
				    const struct cudaResourceDesc *pResDesc,
				    const struct cudaTextureDesc *pTexDesc,
				    const struct cudaResourceViewDesc *pResViewDesc)
{
	return rt_return(rt_create_texture(pTexObject, pResDesc, pTexDesc,
					   pResViewDesc));
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuTexObjectDestroy(texObject));
}

cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc,
					     cudaTextureObject_t texObject)
{
	CUDA_RESOURCE_DESC c;
	CUresult r;

	RT_ENTER_OR_RETURN();
	if (!pResDesc)
		return rt_return(cudaErrorInvalidValue);
	r = cuTexObjectGetResourceDesc(&c, texObject);
	if (r == CUDA_SUCCESS)
		rt_res_from_cu(&c, pResDesc);
	return rt_return_cu(r);
}

cudaError_t cudaGetTextureObjectResourceViewDesc(
	struct cudaResourceViewDesc *pResViewDesc,
	cudaTextureObject_t texObject)
{
	CUDA_RESOURCE_VIEW_DESC c;
	CUresult r;

	RT_ENTER_OR_RETURN();
	if (!pResViewDesc)
		return rt_return(cudaErrorInvalidValue);
	r = cuTexObjectGetResourceViewDesc(&c, texObject);
	if (r != CUDA_SUCCESS)
		return rt_return_cu(r);
	memset(pResViewDesc, 0, sizeof(*pResViewDesc));
	pResViewDesc->format = (enum cudaResourceViewFormat)c.format;
	pResViewDesc->width = c.width;
	pResViewDesc->height = c.height;
	pResViewDesc->depth = c.depth;
	pResViewDesc->firstMipmapLevel = c.firstMipmapLevel;
	pResViewDesc->lastMipmapLevel = c.lastMipmapLevel;
	pResViewDesc->firstLayer = c.firstLayer;
	pResViewDesc->lastLayer = c.lastLayer;
	return rt_return(cudaSuccess);
}

cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc,
					    cudaTextureObject_t texObject)
{
	CUDA_TEXTURE_DESC c;
	CUresult r;

	RT_ENTER_OR_RETURN();
	if (!pTexDesc)
		return rt_return(cudaErrorInvalidValue);
	r = cuTexObjectGetTextureDesc(&c, texObject);
	if (r != CUDA_SUCCESS)
		return rt_return_cu(r);
	memset(pTexDesc, 0, sizeof(*pTexDesc));
	for (int i = 0; i < 3; i++)
		pTexDesc->addressMode[i] =
			(enum cudaTextureAddressMode)c.addressMode[i];
	pTexDesc->filterMode = (enum cudaTextureFilterMode)c.filterMode;
	pTexDesc->readMode = c.flags & CU_TRSF_READ_AS_INTEGER ?
			     cudaReadModeElementType :
			     cudaReadModeNormalizedFloat;
	pTexDesc->sRGB = !!(c.flags & CU_TRSF_SRGB);
	memcpy(pTexDesc->borderColor, c.borderColor,
	       sizeof(pTexDesc->borderColor));
	pTexDesc->normalizedCoords =
		!!(c.flags & CU_TRSF_NORMALIZED_COORDINATES);
	pTexDesc->maxAnisotropy = c.maxAnisotropy;
	pTexDesc->mipmapFilterMode =
		(enum cudaTextureFilterMode)c.mipmapFilterMode;
	pTexDesc->mipmapLevelBias = c.mipmapLevelBias;
	pTexDesc->minMipmapLevelClamp = c.minMipmapLevelClamp;
	pTexDesc->maxMipmapLevelClamp = c.maxMipmapLevelClamp;
	pTexDesc->disableTrilinearOptimization =
		!!(c.flags & CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION);
	pTexDesc->seamlessCubemap = !!(c.flags & CU_TRSF_SEAMLESS_CUBEMAP);
	return rt_return(cudaSuccess);
}

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
				    const struct cudaResourceDesc *pResDesc)
{
	CUDA_RESOURCE_DESC c;
	CUarray_format format;
	CUsurfObject h;
	cudaError_t err;

	RT_ENTER_OR_RETURN();
	if (!pSurfObject || !pResDesc)
		return rt_return(cudaErrorInvalidValue);
	err = rt_res_to_cu(pResDesc, &c, &format);
	if (err == cudaSuccess)
		err = rt_error_from_cu(cuSurfObjectCreate(&h, &c));
	if (err == cudaSuccess)
		*pSurfObject = h;
	return rt_return(err);
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject)
{
	RT_ENTER_OR_RETURN();
	return rt_return_cu(cuSurfObjectDestroy(surfObject));
}

cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc,
					     cudaSurfaceObject_t surfObject)
{
	CUDA_RESOURCE_DESC c;
	CUresult r;

	RT_ENTER_OR_RETURN();
	if (!pResDesc)
		return rt_return(cudaErrorInvalidValue);
	r = cuSurfObjectGetResourceDesc(&c, surfObject);
	if (r == CUDA_SUCCESS)
		rt_res_from_cu(&c, pResDesc);
	return rt_return_cu(r);
}
