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
 * The descriptors live in a descriptor heap per context: slots of
 * CU_TEX_SLOT_BYTES in chunks of CU_TEX_CHUNK_SLOTS, VRAM allocated as
 * the heap grows and freed with the context.  Destroying an object only
 * frees its slot: the descriptor stays in VRAM, unchanged, until a later
 * create takes the slot, so a kernel that fetches through a destroyed
 * object reads the stale descriptor (and, while the array lives, its
 * texels) instead of faulting - what an H100 does
 * (tools/cuda-probe/golden/probe_texptx.h100.txt: tex_destroyed,
 * surf_destroyed).  Creates take the lowest free slot, as the H100's
 * handles 1, 2, 3 come back lowest first (tests/golden/
 * probe_texfid.h100.txt, "dead" lines); one that takes a slot freed
 * since it was last written first waits for the context's queued work,
 * so that kernels launched before the destroy still read the old
 * descriptor:
 *
 *   chunk 0 (VRAM)                               chunk 1 ...
 *   +---------+---------+---------+----     ---+  +---------+--
 *   | slot 0  | slot 1  | slot 2  |   ...      |  | slot 64 |
 *   | live    | freed:  | free    |            |  |         |
 *   | desc A  | desc B  | (zero)  |            |  |         |
 *   |         | (stale) |         |            |  |         |
 *   +---------+---------+---------+----     ---+  +---------+--
 *     ^ handle A = its VA   ^ a kernel holding B's handle reads B still
 *
 * The handle is the slot's GPU VA, not its index (the H100's are small
 * integers), so that the texture unit finds the descriptor from the
 * handle alone.  Like the H100, destroying an unknown, destroyed or
 * other-kind handle succeeds and does nothing.  The descriptors the
 * program passed are kept on the host for the getters.
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
	unsigned long long ctx_id;	/* ctx's, to tell a reused pointer */
	bool surface;
	CUDA_RESOURCE_DESC res;
	CUDA_TEXTURE_DESC tex;
	CUDA_RESOURCE_VIEW_DESC view;
	bool has_view;
	struct cu_texobj *next;
};

#define CU_TEX_SLOT_BYTES	128u
#define CU_TEX_CHUNK_SLOTS	64u	/* one bit each in a uint64_t */

_Static_assert(sizeof(struct vgpu_tex_desc) <= CU_TEX_SLOT_BYTES,
	       "a descriptor fits a heap slot");

/* A context's descriptor heap. */
struct cu_tex_heap {
	struct cu_ctx *ctx;
	unsigned long long ctx_id;	/* ctx's, to tell a reused pointer */
	unsigned int chunks;
	CUdeviceptr *chunk_va;
	uint64_t *used;			/* per chunk: slots taken */
	uint64_t *stale;		/* per chunk: freed, not rewritten */
	struct cu_tex_heap *next;
};

/* Objects and heaps, under one lock. */
static pthread_mutex_t cu_texobj_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cu_texobj *cu_texobjs;
static struct cu_tex_heap *cu_tex_heaps;

static void cu_tex_heap_free(struct cu_tex_heap *h)
{
	free(h->chunk_va);
	free(h->used);
	free(h->stale);
	free(h);
}

/*
 * The heap of @ctx, made if @make; heaps of destroyed contexts are
 * dropped on the way (their VRAM went with the context).  Under the lock.
 */
static struct cu_tex_heap *cu_tex_heap_of(struct cu_ctx *ctx, bool make)
{
	struct cu_tex_heap **p = &cu_tex_heaps, *h;

	while ((h = *p)) {
		if (!cu_ctx_valid(h->ctx) || h->ctx->id != h->ctx_id) {
			*p = h->next;
			cu_tex_heap_free(h);
			continue;
		}
		if (h->ctx == ctx)
			return h;
		p = &h->next;
	}
	if (!make)
		return NULL;
	h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	h->ctx = ctx;
	h->ctx_id = ctx->id;
	h->next = cu_tex_heaps;
	cu_tex_heaps = h;
	return h;
}

/* One more chunk of slots for @h; under the lock. */
static CUresult cu_tex_heap_grow(struct cu_tex_heap *h)
{
	unsigned int n = h->chunks + 1;
	CUdeviceptr *va = realloc(h->chunk_va, n * sizeof(*va));
	uint64_t *used, *stale;
	CUresult res;

	if (!va)
		return CUDA_ERROR_OUT_OF_MEMORY;
	h->chunk_va = va;
	used = realloc(h->used, n * sizeof(*used));
	if (!used)
		return CUDA_ERROR_OUT_OF_MEMORY;
	h->used = used;
	stale = realloc(h->stale, n * sizeof(*stale));
	if (!stale)
		return CUDA_ERROR_OUT_OF_MEMORY;
	h->stale = stale;
	res = cu_mem_device_alloc(h->ctx, CU_TEX_SLOT_BYTES *
				  CU_TEX_CHUNK_SLOTS, &va[h->chunks]);
	if (res != CUDA_SUCCESS)
		return res;
	used[h->chunks] = stale[h->chunks] = 0;
	h->chunks = n;
	return CUDA_SUCCESS;
}

/*
 * Take the lowest free slot of @ctx's heap: its VA in *@va, and whether
 * it holds a destroyed object's descriptor (*@stale).
 */
static CUresult cu_tex_slot_take(struct cu_ctx *ctx, CUdeviceptr *va,
				 bool *stale)
{
	struct cu_tex_heap *h;
	CUresult res = CUDA_SUCCESS;
	unsigned int c, i;

	pthread_mutex_lock(&cu_texobj_lock);
	h = cu_tex_heap_of(ctx, true);
	if (!h) {
		res = CUDA_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	for (c = 0; c < h->chunks && !~h->used[c]; c++)
		;
	if (c == h->chunks) {
		res = cu_tex_heap_grow(h);
		if (res != CUDA_SUCCESS)
			goto out;
	}
	i = (unsigned int)__builtin_ctzll(~h->used[c]);
	h->used[c] |= 1ull << i;
	*stale = h->stale[c] >> i & 1;
	h->stale[c] &= ~(1ull << i);
	*va = h->chunk_va[c] + (CUdeviceptr)i * CU_TEX_SLOT_BYTES;
out:
	pthread_mutex_unlock(&cu_texobj_lock);
	return res;
}

/*
 * Give the slot at @va back to @ctx's heap, its descriptor left as it is
 * (@stale; false: never written, it is as good as new).  Under the lock.
 */
static void cu_tex_slot_give(struct cu_ctx *ctx, CUdeviceptr va, bool stale)
{
	struct cu_tex_heap *h = cu_tex_heap_of(ctx, false);
	unsigned int c;

	for (c = 0; h && c < h->chunks; c++) {
		CUdeviceptr off = va - h->chunk_va[c];

		if (va >= h->chunk_va[c] &&
		    off < CU_TEX_SLOT_BYTES * CU_TEX_CHUNK_SLOTS) {
			h->used[c] &= ~(1ull << (off / CU_TEX_SLOT_BYTES));
			if (stale)
				h->stale[c] |= 1ull << (off / CU_TEX_SLOT_BYTES);
			return;
		}
	}
}

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
 * chain at its first level.  A layered (or cubemap) array's view keeps
 * the array's depth and names a layer range: the texture's layer 0 is
 * firstLayer, a layer index is clamped to the range (cube indices are
 * not), and a range past the array is accepted, its layers reading
 * zeros (all as an H100 does: tests/golden/probe_texfid.h100.txt).
 */
static CUresult cu_tex_view(struct vgpu_tex_desc *t,
			    const CUDA_RESOURCE_DESC *r,
			    const CUDA_RESOURCE_VIEW_DESC *v)
{
	const CUDA_ARRAY3D_DESCRIPTOR *d;
	struct cu_mipmap *m = NULL;
	unsigned int levels = 1, f = (unsigned int)v->format;
	bool layered;

	if (r->resType == CU_RESOURCE_TYPE_MIPMAPPED_ARRAY) {
		m = cu_mipmap_get(r->res.mipmap.hMipmappedArray);
		d = &m->desc;
		levels = m->levels;
	} else if (r->resType == CU_RESOURCE_TYPE_ARRAY) {
		d = &cu_array_get(r->res.array.hArray)->desc;
	} else {
		return CUDA_ERROR_INVALID_VALUE;
	}
	layered = !!(d->Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP));
	if (f < 1 || f > 24 || (f - 1) / 3 + 1 != t->format ||
	    1u << ((f - 1) % 3) != t->channels || v->width != d->Width ||
	    v->height != d->Height || v->depth != d->Depth ||
	    v->firstMipmapLevel > v->lastMipmapLevel ||
	    v->lastMipmapLevel >= levels || v->firstLayer > v->lastLayer ||
	    (!layered && (v->firstLayer ||
			  (v->lastLayer && v->lastLayer + 1 != d->Depth))))
		return CUDA_ERROR_INVALID_VALUE;
	if (m) {
		cu_tex_array(t, m->level[v->firstMipmapLevel]);
		t->levels = (uint8_t)(v->lastMipmapLevel -
				      v->firstMipmapLevel + 1);
	}
	if (layered) {
		t->first_layer = v->firstLayer;
		t->layers = v->lastLayer - v->firstLayer + 1;
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
	bool stale = false;
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
	res_ = cu_tex_slot_take(ctx, &va, &stale);
	/* kernels queued before a destroy read the old descriptor */
	if (res_ == CUDA_SUCCESS && stale)
		res_ = cu_ctx_sync(ctx);
	if (res_ == CUDA_SUCCESS)
		res_ = cu_copy_from_host(ctx, va, &t, sizeof(t));
	if (res_ != CUDA_SUCCESS) {
		if (va) {
			pthread_mutex_lock(&cu_texobj_lock);
			cu_tex_slot_give(ctx, va, stale);
			pthread_mutex_unlock(&cu_texobj_lock);
		}
		free(o);
		return res_;
	}
	o->handle = va;
	o->ctx = ctx;
	o->ctx_id = ctx->id;
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

/*
 * Free the object's slot, its descriptor left in VRAM (see the top of
 * the file).  A handle that is no live object of this kind - 0, unknown,
 * destroyed, the other kind's - is a success that does nothing, as on
 * an H100 (probe_texfid's "dead" lines).
 */
static CUresult cu_texobj_destroy(unsigned long long handle, bool surface)
{
	struct cu_texobj *o;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS || !handle)
		return res;
	o = cu_texobj_find(handle, surface, true, NULL);
	if (!o)
		return CUDA_SUCCESS;
	pthread_mutex_lock(&cu_texobj_lock);
	if (cu_ctx_valid(o->ctx) && o->ctx->id == o->ctx_id)
		cu_tex_slot_give(o->ctx, o->handle, true);
	pthread_mutex_unlock(&cu_texobj_lock);
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
