// SPDX-License-Identifier: GPL-2.0
/*
 * texobj.c - texture and surface objects: cuTexObjectCreate,
 * cuSurfObjectCreate, their getters and destruction.
 *
 * A texture object is a struct vgpu_tex_desc (include/vgpu_tex.h) in VRAM
 * of the current context: the texture unit's view of the resource (where
 * the texels are, their format and layout) and its sampler state.  The
 * handle a program passes to kernels (CUtexObject, a 64-bit value) is the
 * GPU VA of that descriptor, so the firmware finds it from the handle
 * alone, as NVIDIA's hardware indexes its descriptor heap.  A surface
 * object is the same descriptor with point sampling of raw elements.
 *
 * Each descriptor has a VRAM allocation of its own (a heap per context
 * would use less VRAM: later).  The descriptors the program passed are
 * kept on the host for the getters.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "cuda_internal.h"
#include "vgpu_tex.h"

struct cu_texobj {
	unsigned long long handle;	/* GPU VA of the descriptor */
	struct cu_ctx *ctx;
	bool surface;
	CUDA_RESOURCE_DESC res;
	CUDA_TEXTURE_DESC tex;
	CUDA_RESOURCE_VIEW_DESC view;
	bool has_view;
	struct cu_texobj *next;
};

static pthread_mutex_t cu_texobj_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cu_texobj *cu_texobjs;

/* The object of @handle (of the kind @surface), unlinked if @take. */
static struct cu_texobj *cu_texobj_find(unsigned long long handle,
					bool surface, bool take,
					struct cu_texobj *copy)
{
	struct cu_texobj **p, *o = NULL;

	pthread_mutex_lock(&cu_texobj_lock);
	for (p = &cu_texobjs; *p; p = &(*p)->next) {
		if ((*p)->handle == handle && (*p)->surface == surface) {
			o = *p;
			if (take)
				*p = o->next;
			else if (copy)
				*copy = *o;
			break;
		}
	}
	pthread_mutex_unlock(&cu_texobj_lock);
	return o;
}

/* The texture unit's format of a CUarray_format. */
static unsigned int cu_tex_format(CUarray_format f)
{
	switch (f) {
	case CU_AD_FORMAT_UNSIGNED_INT8: return VGPU_TEX_U8;
	case CU_AD_FORMAT_SIGNED_INT8: return VGPU_TEX_S8;
	case CU_AD_FORMAT_UNSIGNED_INT16: return VGPU_TEX_U16;
	case CU_AD_FORMAT_SIGNED_INT16: return VGPU_TEX_S16;
	case CU_AD_FORMAT_UNSIGNED_INT32: return VGPU_TEX_U32;
	case CU_AD_FORMAT_SIGNED_INT32: return VGPU_TEX_S32;
	case CU_AD_FORMAT_HALF: return VGPU_TEX_F16;
	case CU_AD_FORMAT_FLOAT: return VGPU_TEX_F32;
	default: return 0;
	}
}

/*
 * The texture unit's view of array @a: a cubemap's 6 faces (times its
 * layers) are addressed by a direction (3 coordinates) and a cube index.
 */
static void cu_tex_array(struct vgpu_tex_desc *t, const struct cu_array *a)
{
	t->base = a->va;
	t->format = (uint8_t)cu_tex_format(a->desc.Format);
	t->channels = (uint8_t)a->desc.NumChannels;
	t->width = (uint32_t)a->desc.Width;
	t->height = a->layout.height;
	t->depth = a->layout.depth;
	t->layout = VGPU_TEX_BLOCK_LINEAR;
	t->block_h_log2 = a->layout.bh;
	t->block_d_log2 = a->layout.bd;
	t->levels = 1;
	t->cubemap = !!(a->desc.Flags & CUDA_ARRAY3D_CUBEMAP);
	t->layered = !!(a->desc.Flags & CUDA_ARRAY3D_LAYERED);
	if (t->cubemap)
		t->dims = 3;
	else
		t->dims = !a->desc.Height ? 1 :
			  (a->desc.Depth && !t->layered) ? 3 : 2;
}

/* The descriptor's resource part; a CUresult. */
static CUresult cu_tex_resource(struct vgpu_tex_desc *t,
				const CUDA_RESOURCE_DESC *r)
{
	struct cu_mipmap *m;
	struct cu_array *a;
	unsigned int bytes;

	if (r->flags)
		return CUDA_ERROR_INVALID_VALUE;
	switch (r->resType) {
	case CU_RESOURCE_TYPE_ARRAY:
		a = cu_array_get(r->res.array.hArray);
		if (!a)
			return CUDA_ERROR_INVALID_HANDLE;
		cu_tex_array(t, a);
		return CUDA_SUCCESS;
	case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
		m = cu_mipmap_get(r->res.mipmap.hMipmappedArray);
		if (!m)
			return r->res.mipmap.hMipmappedArray ?
			       CUDA_ERROR_CONTEXT_IS_DESTROYED :
			       CUDA_ERROR_INVALID_HANDLE;
		/* level 0 and the chain after it (vgpu_mip_level()) */
		cu_tex_array(t, m->level[0]);
		t->levels = (uint8_t)m->levels;
		return CUDA_SUCCESS;
	case CU_RESOURCE_TYPE_LINEAR:
		t->format = (uint8_t)cu_tex_format(r->res.linear.format);
		bytes = vgpu_tex_format_bytes(t->format) *
			r->res.linear.numChannels;
		if (!r->res.linear.devPtr || !bytes ||
		    r->res.linear.sizeInBytes / bytes > UINT32_MAX)
			return CUDA_ERROR_INVALID_VALUE;
		t->base = r->res.linear.devPtr;
		t->channels = (uint8_t)r->res.linear.numChannels;
		t->width = (uint32_t)(r->res.linear.sizeInBytes / bytes);
		t->height = t->depth = 1;
		t->layout = VGPU_TEX_LINEAR;
		t->dims = 1;
		return CUDA_SUCCESS;
	case CU_RESOURCE_TYPE_PITCH2D:
		t->format = (uint8_t)cu_tex_format(r->res.pitch2D.format);
		bytes = vgpu_tex_format_bytes(t->format) *
			r->res.pitch2D.numChannels;
		if (!r->res.pitch2D.devPtr || !bytes ||
		    r->res.pitch2D.pitchInBytes > UINT32_MAX ||
		    r->res.pitch2D.width > UINT32_MAX ||
		    r->res.pitch2D.height > UINT32_MAX ||
		    r->res.pitch2D.width * bytes > r->res.pitch2D.pitchInBytes)
			return CUDA_ERROR_INVALID_VALUE;
		t->base = r->res.pitch2D.devPtr;
		t->channels = (uint8_t)r->res.pitch2D.numChannels;
		t->width = (uint32_t)r->res.pitch2D.width;
		t->height = (uint32_t)r->res.pitch2D.height;
		t->depth = 1;
		t->pitch = (uint32_t)r->res.pitch2D.pitchInBytes;
		t->layout = VGPU_TEX_PITCH;
		t->dims = 2;
		return CUDA_SUCCESS;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

/* The descriptor's sampler part. */
static CUresult cu_tex_sampler(struct vgpu_tex_desc *t,
			       const CUDA_TEXTURE_DESC *d)
{
	unsigned int i;

	if (d->flags & ~(CU_TRSF_READ_AS_INTEGER |
			 CU_TRSF_NORMALIZED_COORDINATES | CU_TRSF_SRGB |
			 CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION |
			 CU_TRSF_SEAMLESS_CUBEMAP) ||
	    (unsigned int)d->filterMode > CU_TR_FILTER_MODE_LINEAR)
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < 3; i++) {
		if ((unsigned int)d->addressMode[i] > CU_TR_ADDRESS_MODE_BORDER)
			return CUDA_ERROR_INVALID_VALUE;
		t->address[i] = (uint8_t)d->addressMode[i];
	}
	t->filter = (uint8_t)d->filterMode;
	/* integers read as normalized floats unless READ_AS_INTEGER */
	t->read_mode = d->flags & CU_TRSF_READ_AS_INTEGER ? VGPU_TEX_ELEMENT :
							    VGPU_TEX_NORMALIZED;
	t->normalized = !!(d->flags & CU_TRSF_NORMALIZED_COORDINATES);
	t->srgb = !!(d->flags & CU_TRSF_SRGB);
	t->seamless = !!(d->flags & CU_TRSF_SEAMLESS_CUBEMAP);
	memcpy(t->border, d->borderColor, sizeof(t->border));
	/*
	 * Mipmap state, kept as given: an H100 takes a max anisotropy of
	 * 17 and reads it back, and min clamp > max clamp
	 * (tests/golden/probe_tex.h100.txt).
	 */
	if ((unsigned int)d->mipmapFilterMode > CU_TR_FILTER_MODE_LINEAR)
		return CUDA_ERROR_INVALID_VALUE;
	t->mip_filter = (uint8_t)d->mipmapFilterMode;
	t->lod_bias = d->mipmapLevelBias;
	t->min_lod = d->minMipmapLevelClamp;
	t->max_lod = d->maxMipmapLevelClamp;
	t->max_aniso = d->maxAnisotropy;
	return CUDA_SUCCESS;
}

/*
 * A resource view of an array or a mipmapped array: its format must be
 * the array's (CUresourceViewFormat 1 to 24 are 8 formats times 1, 2, 4
 * channels in the order of enum vgpu_tex_format), its size the array's
 * (level 0's: an H100 refuses a 16 x 16 mipmapped array viewed as 8 x 8
 * from level 1), its levels within the array's.  The view starts the
 * chain at its first level.  Layer ranges other than all layers are
 * not modelled (refused).
 */
static CUresult cu_tex_view(struct vgpu_tex_desc *t,
			    const CUDA_RESOURCE_DESC *r,
			    const CUDA_RESOURCE_VIEW_DESC *v)
{
	const CUDA_ARRAY3D_DESCRIPTOR *d;
	struct cu_mipmap *m = NULL;
	unsigned int levels = 1, f = (unsigned int)v->format;

	if (r->resType == CU_RESOURCE_TYPE_MIPMAPPED_ARRAY) {
		m = cu_mipmap_get(r->res.mipmap.hMipmappedArray);
		d = &m->desc;
		levels = m->levels;
	} else if (r->resType == CU_RESOURCE_TYPE_ARRAY) {
		d = &cu_array_get(r->res.array.hArray)->desc;
	} else {
		return CUDA_ERROR_INVALID_VALUE;
	}
	if (f < 1 || f > 24 || (f - 1) / 3 + 1 != t->format ||
	    1u << ((f - 1) % 3) != t->channels || v->width != d->Width ||
	    v->height != d->Height || v->depth != d->Depth ||
	    v->firstMipmapLevel > v->lastMipmapLevel ||
	    v->lastMipmapLevel >= levels || v->firstLayer ||
	    (v->lastLayer && v->lastLayer + 1 != d->Depth))
		return CUDA_ERROR_INVALID_VALUE;
	if (m) {
		cu_tex_array(t, m->level[v->firstMipmapLevel]);
		t->levels = (uint8_t)(v->lastMipmapLevel -
				      v->firstMipmapLevel + 1);
	}
	return CUDA_SUCCESS;
}

static CUresult cu_texobj_new(unsigned long long *out, bool surface,
			      const CUDA_RESOURCE_DESC *res,
			      const CUDA_TEXTURE_DESC *tex,
			      const CUDA_RESOURCE_VIEW_DESC *view)
{
	struct vgpu_tex_desc t = { 0 };
	struct cu_texobj *o;
	struct cu_ctx *ctx;
	CUdeviceptr va = 0;
	CUresult res_ = cu_ctx_get(&ctx);

	if (res_ != CUDA_SUCCESS)
		return res_;
	if (!out || !res || (!surface && !tex))
		return CUDA_ERROR_INVALID_VALUE;
	res_ = cu_tex_resource(&t, res);
	if (res_ == CUDA_SUCCESS && surface &&
	    res->resType != CU_RESOURCE_TYPE_ARRAY)
		res_ = CUDA_ERROR_INVALID_VALUE;
	if (res_ == CUDA_SUCCESS && view)
		res_ = cu_tex_view(&t, res, view);
	if (res_ == CUDA_SUCCESS && tex)
		res_ = cu_tex_sampler(&t, tex);
	if (res_ == CUDA_SUCCESS && surface)
		t.read_mode = VGPU_TEX_ELEMENT;
	if (res_ == CUDA_SUCCESS && !vgpu_tex_desc_ok(&t))
		res_ = CUDA_ERROR_INVALID_VALUE;
	if (res_ != CUDA_SUCCESS)
		return res_;
	o = calloc(1, sizeof(*o));
	if (!o)
		return CUDA_ERROR_OUT_OF_MEMORY;
	res_ = cu_mem_device_alloc(ctx, sizeof(t), &va);
	if (res_ == CUDA_SUCCESS)
		res_ = cu_copy_from_host(ctx, va, &t, sizeof(t));
	if (res_ != CUDA_SUCCESS) {
		if (va)
			cu_mem_device_free(ctx, va);
		free(o);
		return res_;
	}
	o->handle = va;
	o->ctx = ctx;
	o->surface = surface;
	o->res = *res;
	if (tex)
		o->tex = *tex;
	if (view) {
		o->view = *view;
		o->has_view = true;
	}
	pthread_mutex_lock(&cu_texobj_lock);
	o->next = cu_texobjs;
	cu_texobjs = o;
	pthread_mutex_unlock(&cu_texobj_lock);
	*out = va;
	return CUDA_SUCCESS;
}

static CUresult cu_texobj_destroy(unsigned long long handle, bool surface)
{
	struct cu_texobj *o;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS || !handle)
		return res;	/* 0: nothing, as on an H100 */
	o = cu_texobj_find(handle, surface, true, NULL);
	if (!o)
		return CUDA_ERROR_INVALID_VALUE;
	if (cu_ctx_valid(o->ctx)) {
		/* kernels queued before may still read it */
		cu_ctx_sync(o->ctx);
		cu_mem_device_free(o->ctx, o->handle);
	}
	free(o);
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuTexObjectCreate(CUtexObject *pTexObject,
					     const CUDA_RESOURCE_DESC *pResDesc,
					     const CUDA_TEXTURE_DESC *pTexDesc,
					     const CUDA_RESOURCE_VIEW_DESC *pResViewDesc)
{
	return cu_texobj_new(pTexObject, false, pResDesc, pTexDesc,
			     pResViewDesc);
}

CU_EXPORT CUresult CUDAAPI cuTexObjectDestroy(CUtexObject texObject)
{
	return cu_texobj_destroy(texObject, false);
}

CU_EXPORT CUresult CUDAAPI cuTexObjectGetResourceDesc(
	CUDA_RESOURCE_DESC *pResDesc, CUtexObject texObject)
{
	struct cu_texobj o;

	if (!pResDesc || !cu_texobj_find(texObject, false, false, &o))
		return CUDA_ERROR_INVALID_VALUE;
	*pResDesc = o.res;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuTexObjectGetTextureDesc(
	CUDA_TEXTURE_DESC *pTexDesc, CUtexObject texObject)
{
	struct cu_texobj o;

	if (!pTexDesc || !cu_texobj_find(texObject, false, false, &o))
		return CUDA_ERROR_INVALID_VALUE;
	*pTexDesc = o.tex;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuTexObjectGetResourceViewDesc(
	CUDA_RESOURCE_VIEW_DESC *pResViewDesc, CUtexObject texObject)
{
	struct cu_texobj o;

	if (!pResViewDesc || !cu_texobj_find(texObject, false, false, &o) ||
	    !o.has_view)
		return CUDA_ERROR_INVALID_VALUE;
	*pResViewDesc = o.view;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuSurfObjectCreate(CUsurfObject *pSurfObject,
					      const CUDA_RESOURCE_DESC *pResDesc)
{
	return cu_texobj_new(pSurfObject, true, pResDesc, NULL, NULL);
}

CU_EXPORT CUresult CUDAAPI cuSurfObjectDestroy(CUsurfObject surfObject)
{
	return cu_texobj_destroy(surfObject, true);
}

CU_EXPORT CUresult CUDAAPI cuSurfObjectGetResourceDesc(
	CUDA_RESOURCE_DESC *pResDesc, CUsurfObject surfObject)
{
	struct cu_texobj o;

	if (!pResDesc || !cu_texobj_find(surfObject, true, false, &o))
		return CUDA_ERROR_INVALID_VALUE;
	*pResDesc = o.res;
	return CUDA_SUCCESS;
}
