// SPDX-License-Identifier: GPL-2.0
/*
 * interop_gl.c - OpenGL interoperability: cuGraphicsGLRegisterBuffer/
 * Image, cuGraphicsMapResources/Unmap and the queries of a mapped
 * resource, cuGLGetDevices.
 *
 * The OpenGL of a vGPU machine is Mesa's llvmpipe, a software renderer:
 * its buffers and textures live in its own host memory, and it gives no
 * pointer to them that would outlive a glMapBuffer, nor any way to make
 * it keep an object in memory we allocate (its 22.3 has neither
 * GL_AMD_pinned_memory nor a memory-fd import for buffers it creates).
 * So a registered resource has a shadow in device memory, and mapping
 * transfers the GL object's contents, on the thread that maps, through
 * the GL context current there (Documentation/interop.rst has a figure):
 *
 *   map:    glFinish (GL's earlier work is done, as CUDA promises), then
 *           GL storage -> glMapBufferRange / glGetTexImage -> the copy
 *           engine -> shadow (a buffer, or a CUDA array for an image);
 *           skipped with WRITE_DISCARD, whose contents CUDA says are
 *           undefined.
 *   unmap:  the stream's earlier work completes, then shadow -> host ->
 *           glBufferSubData / glTexSubImage2D; skipped with READ_ONLY.
 *
 * The shadow is allocated at registration, so a buffer maps at the same
 * device address every time (programs keep the pointer between frames).
 *
 * libcuda does not link OpenGL: it finds eglGetProcAddress in the
 * process (the program linked libEGL to make its context current) and
 * asks it for every GL function, as real libcuda resolves GL lazily.
 * Only EGL contexts of desktop OpenGL are supported (glGetTexImage).
 */
#define GL_GLEXT_PROTOTYPES 0
#include <EGL/egl.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cudaGL.h>

#include "array.h"
#include "cuda_internal.h"

/* ---- the GL functions, found through EGL --------------------------------- */

/* GL 1.x functions have no pointer types in glext.h. */
typedef GLenum (*PFNGLGETERRORPROC)(void);
typedef void (*PFNGLFINISHPROC)(void);
typedef GLboolean (*PFNGLISTEXTUREPROC)(GLuint texture);
typedef void (*PFNGLGETINTEGERVPROC)(GLenum pname, GLint *data);
typedef void (*PFNGLBINDTEXTUREPROC)(GLenum target, GLuint texture);
typedef void (*PFNGLGETTEXLEVELPARAMETERIVPROC)(GLenum target, GLint level,
						GLenum pname, GLint *params);
typedef void (*PFNGLGETTEXIMAGEPROC)(GLenum target, GLint level,
				     GLenum format, GLenum type,
				     void *pixels);
typedef void (*PFNGLTEXSUBIMAGE2DPROC)(GLenum target, GLint level,
				       GLint xoffset, GLint yoffset,
				       GLsizei width, GLsizei height,
				       GLenum format, GLenum type,
				       const void *pixels);
typedef void (*PFNGLPIXELSTOREIPROC)(GLenum pname, GLint param);

#define GL_FUNCS(X)							\
	X(PFNGLGETERRORPROC, glGetError)				\
	X(PFNGLFINISHPROC, glFinish)					\
	X(PFNGLISBUFFERPROC, glIsBuffer)				\
	X(PFNGLISTEXTUREPROC, glIsTexture)				\
	X(PFNGLGETINTEGERVPROC, glGetIntegerv)				\
	X(PFNGLBINDBUFFERPROC, glBindBuffer)				\
	X(PFNGLGETBUFFERPARAMETERI64VPROC, glGetBufferParameteri64v)	\
	X(PFNGLMAPBUFFERRANGEPROC, glMapBufferRange)			\
	X(PFNGLUNMAPBUFFERPROC, glUnmapBuffer)				\
	X(PFNGLBUFFERSUBDATAPROC, glBufferSubData)			\
	X(PFNGLBINDTEXTUREPROC, glBindTexture)				\
	X(PFNGLGETTEXLEVELPARAMETERIVPROC, glGetTexLevelParameteriv)	\
	X(PFNGLGETTEXIMAGEPROC, glGetTexImage)				\
	X(PFNGLTEXSUBIMAGE2DPROC, glTexSubImage2D)			\
	X(PFNGLPIXELSTOREIPROC, glPixelStorei)

static struct {
	PFNEGLGETCURRENTCONTEXTPROC eglGetCurrentContext;
#define GL_FIELD(type, name) type name;
	GL_FUNCS(GL_FIELD)
#undef GL_FIELD
	bool ok;
} gl;

static pthread_once_t gl_once = PTHREAD_ONCE_INIT;

static void gl_resolve(void)
{
	PFNEGLGETPROCADDRESSPROC get_proc;
	void *egl = RTLD_DEFAULT;

	get_proc = (PFNEGLGETPROCADDRESSPROC)dlsym(egl, "eglGetProcAddress");
	if (!get_proc) {
		/* The program may have loaded libEGL with dlopen itself. */
		egl = dlopen("libEGL.so.1", RTLD_LAZY | RTLD_NOLOAD);
		if (!egl)
			return;
		get_proc = (PFNEGLGETPROCADDRESSPROC)dlsym(egl,
							   "eglGetProcAddress");
		if (!get_proc)
			return;
	}
	gl.eglGetCurrentContext = (PFNEGLGETCURRENTCONTEXTPROC)
		get_proc("eglGetCurrentContext");
	gl.ok = gl.eglGetCurrentContext != NULL;
#define GL_GET(type, name)						\
	gl.name = (type)get_proc(#name);				\
	gl.ok = gl.ok && gl.name;
	GL_FUNCS(GL_GET)
#undef GL_GET
}

/*
 * The GL functions, if the calling thread has an EGL context current;
 * else CUDA_ERROR_INVALID_GRAPHICS_CONTEXT.
 */
static CUresult gl_current(void)
{
	pthread_once(&gl_once, gl_resolve);
	if (!gl.ok || gl.eglGetCurrentContext() == EGL_NO_CONTEXT)
		return CUDA_ERROR_INVALID_GRAPHICS_CONTEXT;
	return CUDA_SUCCESS;
}

/* ---- image formats ------------------------------------------------------- */

/* A GL internal format CUDA can map as an array, and how to read it. */
struct gl_format {
	GLint internal;
	CUarray_format cu;
	unsigned int channels;
	GLenum format, type;		/* of glGetTexImage / glTexSubImage */
};

static const struct gl_format gl_formats[] = {
	{ GL_R8, CU_AD_FORMAT_UNSIGNED_INT8, 1, GL_RED, GL_UNSIGNED_BYTE },
	{ GL_RG8, CU_AD_FORMAT_UNSIGNED_INT8, 2, GL_RG, GL_UNSIGNED_BYTE },
	{ GL_RGBA8, CU_AD_FORMAT_UNSIGNED_INT8, 4, GL_RGBA, GL_UNSIGNED_BYTE },
	/* Three channels map as four, as on the H100 (alpha reads 1). */
	{ GL_RGB8, CU_AD_FORMAT_UNSIGNED_INT8, 4, GL_RGBA, GL_UNSIGNED_BYTE },
	/* Unsized formats, as glTexImage2D(..., GL_RGBA, ...) leaves them. */
	{ GL_RGBA, CU_AD_FORMAT_UNSIGNED_INT8, 4, GL_RGBA, GL_UNSIGNED_BYTE },
	{ GL_RGB, CU_AD_FORMAT_UNSIGNED_INT8, 4, GL_RGBA, GL_UNSIGNED_BYTE },
	{ GL_R16, CU_AD_FORMAT_UNSIGNED_INT16, 1, GL_RED, GL_UNSIGNED_SHORT },
	{ GL_RGBA16, CU_AD_FORMAT_UNSIGNED_INT16, 4, GL_RGBA,
	  GL_UNSIGNED_SHORT },
	{ GL_R16F, CU_AD_FORMAT_HALF, 1, GL_RED, GL_HALF_FLOAT },
	{ GL_RGBA16F, CU_AD_FORMAT_HALF, 4, GL_RGBA, GL_HALF_FLOAT },
	{ GL_R32F, CU_AD_FORMAT_FLOAT, 1, GL_RED, GL_FLOAT },
	{ GL_RG32F, CU_AD_FORMAT_FLOAT, 2, GL_RG, GL_FLOAT },
	{ GL_RGBA32F, CU_AD_FORMAT_FLOAT, 4, GL_RGBA, GL_FLOAT },
	{ GL_R32UI, CU_AD_FORMAT_UNSIGNED_INT32, 1, GL_RED_INTEGER,
	  GL_UNSIGNED_INT },
	{ GL_RGBA32UI, CU_AD_FORMAT_UNSIGNED_INT32, 4, GL_RGBA_INTEGER,
	  GL_UNSIGNED_INT },
	{ GL_R32I, CU_AD_FORMAT_SIGNED_INT32, 1, GL_RED_INTEGER, GL_INT },
	{ GL_RGBA32I, CU_AD_FORMAT_SIGNED_INT32, 4, GL_RGBA_INTEGER, GL_INT },
	{ GL_RGBA8UI, CU_AD_FORMAT_UNSIGNED_INT8, 4, GL_RGBA_INTEGER,
	  GL_UNSIGNED_BYTE },
};

static const struct gl_format *gl_format_find(GLint internal)
{
	size_t i;

	for (i = 0; i < sizeof(gl_formats) / sizeof(gl_formats[0]); i++)
		if (gl_formats[i].internal == internal)
			return &gl_formats[i];
	return NULL;
}

/* ---- resources ----------------------------------------------------------- */

#define CU_GFX_MAGIC	0x58464743u	/* "CGFX" */

#define CU_GFX_REGISTER_FLAGS_ALL (CU_GRAPHICS_REGISTER_FLAGS_READ_ONLY | \
				   CU_GRAPHICS_REGISTER_FLAGS_WRITE_DISCARD | \
				   CU_GRAPHICS_REGISTER_FLAGS_SURFACE_LDST | \
				   CU_GRAPHICS_REGISTER_FLAGS_TEXTURE_GATHER)
#define CU_GFX_MAP_FLAGS_ALL (CU_GRAPHICS_MAP_RESOURCE_FLAGS_READ_ONLY | \
			      CU_GRAPHICS_MAP_RESOURCE_FLAGS_WRITE_DISCARD)

struct cu_gfx {
	uint32_t magic;
	struct cu_gfx *next;		/* in cu_gfx_list */
	struct cu_ctx *ctx;		/* current at registration */
	bool image;
	GLuint name;
	GLenum target;			/* images */
	unsigned int map_flags;		/* CU_GRAPHICS_MAP_RESOURCE_FLAGS_* */
	bool mapped;
	/* buffers: the shadow in device memory */
	CUdeviceptr dptr;
	size_t size;
	/* images: a mipmapped array of one level, and that level */
	CUmipmappedArray mipmap;
	CUarray array;
	const struct gl_format *fmt;
	unsigned int width, height;
};

/* Every registered resource: a handle is checked against it. */
static pthread_mutex_t cu_gfx_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cu_gfx *cu_gfx_list;

/* @h as a registered resource, or NULL (call with cu_gfx_lock held). */
static struct cu_gfx *cu_gfx_find(CUgraphicsResource h)
{
	struct cu_gfx *r;

	for (r = cu_gfx_list; r; r = r->next)
		if ((CUgraphicsResource)r == h)
			return r;
	return NULL;
}

static void cu_gfx_publish(struct cu_gfx *r, CUgraphicsResource *out)
{
	r->magic = CU_GFX_MAGIC;
	pthread_mutex_lock(&cu_gfx_lock);
	r->next = cu_gfx_list;
	cu_gfx_list = r;
	pthread_mutex_unlock(&cu_gfx_lock);
	*out = (CUgraphicsResource)r;
}

/* Take @h out of the list; NULL if it was not there. */
static struct cu_gfx *cu_gfx_take(CUgraphicsResource h)
{
	struct cu_gfx **pp, *r = NULL;

	pthread_mutex_lock(&cu_gfx_lock);
	for (pp = &cu_gfx_list; *pp; pp = &(*pp)->next) {
		if ((CUgraphicsResource)*pp == h) {
			r = *pp;
			*pp = r->next;
			break;
		}
	}
	pthread_mutex_unlock(&cu_gfx_lock);
	return r;
}

/* The buffer's size now, or 0 with GL's error. */
static size_t gl_buffer_size(GLuint name)
{
	GLint old = 0;
	GLint64 size = 0;

	gl.glGetIntegerv(GL_COPY_READ_BUFFER_BINDING, &old);
	gl.glBindBuffer(GL_COPY_READ_BUFFER, name);
	gl.glGetBufferParameteri64v(GL_COPY_READ_BUFFER, GL_BUFFER_SIZE, &size);
	gl.glBindBuffer(GL_COPY_READ_BUFFER, (GLuint)old);
	return size > 0 ? (size_t)size : 0;
}

CU_EXPORT CUresult CUDAAPI cuGraphicsGLRegisterBuffer(
	CUgraphicsResource *pCudaResource, GLuint buffer, unsigned int Flags)
{
	struct cu_ctx *ctx;
	struct cu_gfx *r;
	CUresult res;

	if (!pCudaResource || (Flags & ~CU_GFX_REGISTER_FLAGS_ALL))
		return CUDA_ERROR_INVALID_VALUE;
	res = cu_ctx_get(&ctx);
	if (res != CUDA_SUCCESS)
		return res;
	/* Without a GL context there is no name to look up (H100: VALUE). */
	if (gl_current() != CUDA_SUCCESS || !buffer)
		return CUDA_ERROR_INVALID_VALUE;
	if (!gl.glIsBuffer(buffer))
		return CUDA_ERROR_INVALID_HANDLE;
	r = calloc(1, sizeof(*r));
	if (!r)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r->ctx = ctx;
	r->name = buffer;
	r->map_flags = Flags & (CU_GRAPHICS_REGISTER_FLAGS_READ_ONLY |
				CU_GRAPHICS_REGISTER_FLAGS_WRITE_DISCARD);
	r->size = gl_buffer_size(buffer);
	if (!r->size) {
		/* A name glGenBuffers made but no glBufferData sized. */
		free(r);
		return CUDA_ERROR_INVALID_HANDLE;
	}
	res = cuMemAlloc(&r->dptr, r->size);
	if (res != CUDA_SUCCESS) {
		free(r);
		return res;
	}
	cu_gfx_publish(r, pCudaResource);
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuGraphicsGLRegisterImage(
	CUgraphicsResource *pCudaResource, GLuint image, GLenum target,
	unsigned int Flags)
{
	CUDA_ARRAY3D_DESCRIPTOR d = { 0 };
	GLint old = 0, w = 0, h = 0, internal = 0;
	struct cu_ctx *ctx;
	struct cu_gfx *r;
	CUresult res;

	if (!pCudaResource || (Flags & ~CU_GFX_REGISTER_FLAGS_ALL))
		return CUDA_ERROR_INVALID_VALUE;
	res = cu_ctx_get(&ctx);
	if (res != CUDA_SUCCESS)
		return res;
	if (gl_current() != CUDA_SUCCESS)
		return CUDA_ERROR_INVALID_VALUE;
	switch (target) {
	case GL_TEXTURE_2D:
		break;
	case GL_TEXTURE_RECTANGLE: case GL_TEXTURE_CUBE_MAP:
	case GL_TEXTURE_3D: case GL_TEXTURE_2D_ARRAY: case GL_RENDERBUFFER:
		/* Real targets of CUDA's, not (yet) transferred by vGPU. */
		return CUDA_ERROR_NOT_SUPPORTED;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
	if (!image)
		return CUDA_ERROR_INVALID_VALUE;
	if (!gl.glIsTexture(image))
		return CUDA_ERROR_INVALID_HANDLE;
	gl.glGetIntegerv(GL_TEXTURE_BINDING_2D, &old);
	gl.glBindTexture(target, image);
	gl.glGetTexLevelParameteriv(target, 0, GL_TEXTURE_WIDTH, &w);
	gl.glGetTexLevelParameteriv(target, 0, GL_TEXTURE_HEIGHT, &h);
	gl.glGetTexLevelParameteriv(target, 0, GL_TEXTURE_INTERNAL_FORMAT,
				    &internal);
	gl.glBindTexture(target, (GLuint)old);
	if (gl.glGetError() != GL_NO_ERROR || w <= 0 || h <= 0)
		return CUDA_ERROR_INVALID_HANDLE;	/* no storage yet */
	r = calloc(1, sizeof(*r));
	if (!r)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r->fmt = gl_format_find(internal);
	if (!r->fmt) {
		free(r);
		return CUDA_ERROR_NOT_SUPPORTED;	/* e.g. compressed */
	}
	r->ctx = ctx;
	r->image = true;
	r->name = image;
	r->target = target;
	r->width = (unsigned int)w;
	r->height = (unsigned int)h;
	r->map_flags = Flags & (CU_GRAPHICS_REGISTER_FLAGS_READ_ONLY |
				CU_GRAPHICS_REGISTER_FLAGS_WRITE_DISCARD);
	d.Width = r->width;
	d.Height = r->height;
	d.Format = r->fmt->cu;
	d.NumChannels = r->fmt->channels;
	if (Flags & CU_GRAPHICS_REGISTER_FLAGS_SURFACE_LDST)
		d.Flags |= CUDA_ARRAY3D_SURFACE_LDST;
	if (Flags & CU_GRAPHICS_REGISTER_FLAGS_TEXTURE_GATHER)
		d.Flags |= CUDA_ARRAY3D_TEXTURE_GATHER;
	/*
	 * A mipmapped array of one level, so that both queries of a mapped
	 * image answer (the H100 answers both): level 0 of the texture.
	 */
	res = cuMipmappedArrayCreate(&r->mipmap, &d, 1);
	if (res == CUDA_SUCCESS) {
		res = cuMipmappedArrayGetLevel(&r->array, r->mipmap, 0);
		if (res != CUDA_SUCCESS)
			cuMipmappedArrayDestroy(r->mipmap);
	}
	if (res != CUDA_SUCCESS) {
		free(r);
		return res;
	}
	cu_gfx_publish(r, pCudaResource);
	return CUDA_SUCCESS;
}

/* Bytes of one row of @r's image. */
static size_t cu_gfx_row(const struct cu_gfx *r)
{
	return (size_t)r->width * r->fmt->channels *
	       cu_array_format_bytes(r->fmt->cu);
}

/* GL -> shadow, on @stream; complete when it returns. */
static CUresult cu_gfx_copy_in(struct cu_gfx *r, CUstream stream)
{
	GLint old_buf = 0, old_tex = 0, old_align = 0;
	CUresult res;

	if (!r->image) {
		void *p;

		gl.glGetIntegerv(GL_COPY_READ_BUFFER_BINDING, &old_buf);
		gl.glBindBuffer(GL_COPY_READ_BUFFER, r->name);
		p = gl.glMapBufferRange(GL_COPY_READ_BUFFER, 0,
					(GLsizeiptr)r->size, GL_MAP_READ_BIT);
		if (!p) {
			gl.glBindBuffer(GL_COPY_READ_BUFFER, (GLuint)old_buf);
			return CUDA_ERROR_UNKNOWN;
		}
		res = cuMemcpyHtoDAsync(r->dptr, p, r->size, stream);
		if (res == CUDA_SUCCESS)
			res = cuStreamSynchronize(stream);
		gl.glUnmapBuffer(GL_COPY_READ_BUFFER);
		gl.glBindBuffer(GL_COPY_READ_BUFFER, (GLuint)old_buf);
		return res;
	} else {
		CUDA_MEMCPY2D c = { 0 };
		size_t row = cu_gfx_row(r);
		void *host = malloc(row * r->height);

		if (!host)
			return CUDA_ERROR_OUT_OF_MEMORY;
		/* Pack into client memory, rows tightly packed. */
		gl.glGetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &old_buf);
		gl.glGetIntegerv(GL_PACK_ALIGNMENT, &old_align);
		gl.glGetIntegerv(GL_TEXTURE_BINDING_2D, &old_tex);
		gl.glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
		gl.glPixelStorei(GL_PACK_ALIGNMENT, 1);
		gl.glBindTexture(r->target, r->name);
		gl.glGetTexImage(r->target, 0, r->fmt->format, r->fmt->type,
				 host);
		gl.glBindTexture(r->target, (GLuint)old_tex);
		gl.glPixelStorei(GL_PACK_ALIGNMENT, old_align);
		gl.glBindBuffer(GL_PIXEL_PACK_BUFFER, (GLuint)old_buf);
		c.srcMemoryType = CU_MEMORYTYPE_HOST;
		c.srcHost = host;
		c.srcPitch = row;
		c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
		c.dstArray = r->array;
		c.WidthInBytes = row;
		c.Height = r->height;
		res = cuMemcpy2DAsync(&c, stream);
		if (res == CUDA_SUCCESS)
			res = cuStreamSynchronize(stream);
		free(host);
		return res;
	}
}

/* Shadow -> GL, after the earlier work of @stream. */
static CUresult cu_gfx_copy_out(struct cu_gfx *r, CUstream stream)
{
	GLint old_buf = 0, old_tex = 0, old_align = 0;
	CUresult res;
	size_t row = r->image ? cu_gfx_row(r) : r->size;
	size_t bytes = r->image ? row * r->height : r->size;
	void *host = malloc(bytes);

	if (!host)
		return CUDA_ERROR_OUT_OF_MEMORY;
	if (!r->image) {
		res = cuMemcpyDtoHAsync(host, r->dptr, r->size, stream);
	} else {
		CUDA_MEMCPY2D c = { 0 };

		c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
		c.srcArray = r->array;
		c.dstMemoryType = CU_MEMORYTYPE_HOST;
		c.dstHost = host;
		c.dstPitch = row;
		c.WidthInBytes = row;
		c.Height = r->height;
		res = cuMemcpy2DAsync(&c, stream);
	}
	if (res == CUDA_SUCCESS)
		res = cuStreamSynchronize(stream);
	if (res != CUDA_SUCCESS) {
		free(host);
		return res;
	}
	if (!r->image) {
		gl.glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &old_buf);
		gl.glBindBuffer(GL_COPY_WRITE_BUFFER, r->name);
		gl.glBufferSubData(GL_COPY_WRITE_BUFFER, 0,
				   (GLsizeiptr)r->size, host);
		gl.glBindBuffer(GL_COPY_WRITE_BUFFER, (GLuint)old_buf);
	} else {
		gl.glGetIntegerv(GL_PIXEL_UNPACK_BUFFER_BINDING, &old_buf);
		gl.glGetIntegerv(GL_UNPACK_ALIGNMENT, &old_align);
		gl.glGetIntegerv(GL_TEXTURE_BINDING_2D, &old_tex);
		gl.glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
		gl.glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
		gl.glBindTexture(r->target, r->name);
		gl.glTexSubImage2D(r->target, 0, 0, 0, (GLsizei)r->width,
				   (GLsizei)r->height, r->fmt->format,
				   r->fmt->type, host);
		gl.glBindTexture(r->target, (GLuint)old_tex);
		gl.glPixelStorei(GL_UNPACK_ALIGNMENT, old_align);
		gl.glBindBuffer(GL_PIXEL_UNPACK_BUFFER, (GLuint)old_buf);
	}
	free(host);
	return gl.glGetError() == GL_NO_ERROR ? CUDA_SUCCESS :
	       CUDA_ERROR_UNKNOWN;
}

/*
 * Check @count resources for a map (@map) or an unmap: all registered,
 * none twice, each in the state the call needs.  Called with the lock.
 */
static CUresult cu_gfx_check_all(unsigned int count,
				 CUgraphicsResource *resources, bool map)
{
	unsigned int i, j;

	if (!resources)
		return CUDA_ERROR_INVALID_VALUE;	/* even for 0 (H100) */
	for (i = 0; i < count; i++) {
		struct cu_gfx *r = cu_gfx_find(resources[i]);

		if (!r)
			return CUDA_ERROR_INVALID_HANDLE;
		if (r->mapped == map)
			return map ? CUDA_ERROR_ALREADY_MAPPED :
			       CUDA_ERROR_NOT_MAPPED;
		for (j = 0; j < i; j++)
			if (resources[j] == resources[i])
				return map ? CUDA_ERROR_ALREADY_MAPPED :
				       CUDA_ERROR_NOT_MAPPED;
	}
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuGraphicsMapResources(unsigned int count,
	CUgraphicsResource *resources, CUstream hStream)
{
	struct cu_ctx *ctx;
	struct cu_stream *s;
	unsigned int i;
	CUresult res = cu_stream_current(hStream, &ctx, &s);

	if (res != CUDA_SUCCESS)
		return res;
	pthread_mutex_lock(&cu_gfx_lock);
	res = cu_gfx_check_all(count, resources, true);
	/* Claimed under the lock, so that two threads cannot both map. */
	for (i = 0; res == CUDA_SUCCESS && i < count; i++)
		((struct cu_gfx *)resources[i])->mapped = true;
	pthread_mutex_unlock(&cu_gfx_lock);
	if (res != CUDA_SUCCESS || !count)
		return res;
	res = gl_current();
	if (res == CUDA_SUCCESS)
		gl.glFinish();
	for (i = 0; res == CUDA_SUCCESS && i < count; i++) {
		struct cu_gfx *r = (struct cu_gfx *)resources[i];

		if (!(r->map_flags & CU_GRAPHICS_MAP_RESOURCE_FLAGS_WRITE_DISCARD))
			res = cu_gfx_copy_in(r, hStream);
	}
	if (res != CUDA_SUCCESS) {
		pthread_mutex_lock(&cu_gfx_lock);
		for (i = 0; i < count; i++)
			((struct cu_gfx *)resources[i])->mapped = false;
		pthread_mutex_unlock(&cu_gfx_lock);
	}
	return res;
}

CU_EXPORT CUresult CUDAAPI cuGraphicsUnmapResources(unsigned int count,
	CUgraphicsResource *resources, CUstream hStream)
{
	struct cu_ctx *ctx;
	struct cu_stream *s;
	unsigned int i;
	CUresult res = cu_stream_current(hStream, &ctx, &s), first;

	if (res != CUDA_SUCCESS)
		return res;
	pthread_mutex_lock(&cu_gfx_lock);
	res = cu_gfx_check_all(count, resources, false);
	pthread_mutex_unlock(&cu_gfx_lock);
	if (res != CUDA_SUCCESS || !count)
		return res;
	res = gl_current();
	if (res != CUDA_SUCCESS)
		return res;
	/* Every resource ends unmapped; the first failure is the answer. */
	first = CUDA_SUCCESS;
	for (i = 0; i < count; i++) {
		struct cu_gfx *r = (struct cu_gfx *)resources[i];

		if (!(r->map_flags & CU_GRAPHICS_MAP_RESOURCE_FLAGS_READ_ONLY))
			res = cu_gfx_copy_out(r, hStream);
		if (first == CUDA_SUCCESS)
			first = res;
		pthread_mutex_lock(&cu_gfx_lock);
		r->mapped = false;
		pthread_mutex_unlock(&cu_gfx_lock);
	}
	return first;
}

/* @h registered and mapped, for a query; the lock is held on success. */
static CUresult cu_gfx_mapped(CUgraphicsResource h, struct cu_gfx **out)
{
	struct cu_gfx *r;

	pthread_mutex_lock(&cu_gfx_lock);
	r = cu_gfx_find(h);
	if (!r || !r->mapped) {
		pthread_mutex_unlock(&cu_gfx_lock);
		return r ? CUDA_ERROR_NOT_MAPPED : CUDA_ERROR_INVALID_HANDLE;
	}
	*out = r;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuGraphicsResourceGetMappedPointer(
	CUdeviceptr *pDevPtr, size_t *pSize, CUgraphicsResource resource)
{
	struct cu_gfx *r;
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	res = cu_gfx_mapped(resource, &r);
	if (res != CUDA_SUCCESS)
		return res;
	if (r->image) {
		res = CUDA_ERROR_NOT_MAPPED_AS_POINTER;
	} else {
		if (pDevPtr)
			*pDevPtr = r->dptr;
		if (pSize)
			*pSize = r->size;
	}
	pthread_mutex_unlock(&cu_gfx_lock);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuGraphicsSubResourceGetMappedArray(
	CUarray *pArray, CUgraphicsResource resource, unsigned int arrayIndex,
	unsigned int mipLevel)
{
	struct cu_gfx *r;
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!pArray)
		return CUDA_ERROR_INVALID_VALUE;
	res = cu_gfx_mapped(resource, &r);
	if (res != CUDA_SUCCESS)
		return res;
	if (!r->image)
		res = CUDA_ERROR_NOT_MAPPED_AS_ARRAY;
	else if (arrayIndex || mipLevel)	/* a 2D texture's level 0 */
		res = CUDA_ERROR_INVALID_VALUE;
	else
		*pArray = r->array;
	pthread_mutex_unlock(&cu_gfx_lock);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuGraphicsResourceGetMappedMipmappedArray(
	CUmipmappedArray *pMipmappedArray, CUgraphicsResource resource)
{
	struct cu_gfx *r;
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!pMipmappedArray)
		return CUDA_ERROR_INVALID_VALUE;
	res = cu_gfx_mapped(resource, &r);
	if (res != CUDA_SUCCESS)
		return res;
	if (r->image)
		*pMipmappedArray = r->mipmap;
	else
		res = CUDA_ERROR_NOT_MAPPED_AS_ARRAY;
	pthread_mutex_unlock(&cu_gfx_lock);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuGraphicsResourceSetMapFlags(
	CUgraphicsResource resource, unsigned int flags)
{
	struct cu_gfx *r;
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (flags & ~CU_GFX_MAP_FLAGS_ALL)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&cu_gfx_lock);
	r = cu_gfx_find(resource);
	if (!r)
		res = CUDA_ERROR_INVALID_HANDLE;
	else if (r->mapped)
		res = CUDA_ERROR_ALREADY_MAPPED;
	else
		r->map_flags = flags;
	pthread_mutex_unlock(&cu_gfx_lock);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuGraphicsUnregisterResource(
	CUgraphicsResource resource)
{
	struct cu_gfx *r;
	struct cu_ctx *ctx;
	CUresult res = cu_ctx_get(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	/* A mapped resource must be unmapped first (H100: ALREADY_MAPPED). */
	pthread_mutex_lock(&cu_gfx_lock);
	r = cu_gfx_find(resource);
	res = !r ? CUDA_ERROR_INVALID_HANDLE :
	      r->mapped ? CUDA_ERROR_ALREADY_MAPPED : CUDA_SUCCESS;
	pthread_mutex_unlock(&cu_gfx_lock);
	if (res != CUDA_SUCCESS)
		return res;
	r = cu_gfx_take(resource);
	if (!r)
		return CUDA_ERROR_INVALID_HANDLE;	/* a racing unregister */
	if (r->image)
		cuMipmappedArrayDestroy(r->mipmap);
	else
		cuMemFree(r->dptr);
	r->magic = CU_DEAD_MAGIC;
	free(r);
	return CUDA_SUCCESS;
}

/*
 * Every vGPU device can share with the GL renderer, which runs on the
 * same CPUs: all of them are "the devices of the current GL context".
 */
CU_EXPORT CUresult CUDAAPI cuGLGetDevices(unsigned int *pCudaDeviceCount,
					  CUdevice *pCudaDevices,
					  unsigned int cudaDeviceCount,
					  CUGLDeviceList deviceList)
{
	int n = 0;
	unsigned int i, filled = 0;
	CUresult res;

	if (deviceList != CU_GL_DEVICE_LIST_ALL &&
	    deviceList != CU_GL_DEVICE_LIST_CURRENT_FRAME &&
	    deviceList != CU_GL_DEVICE_LIST_NEXT_FRAME)
		return CUDA_ERROR_INVALID_VALUE;
	if (!pCudaDeviceCount || (cudaDeviceCount && !pCudaDevices))
		return CUDA_ERROR_INVALID_VALUE;
	res = cuDeviceGetCount(&n);
	if (res != CUDA_SUCCESS)
		return res;
	res = gl_current();
	if (res != CUDA_SUCCESS)
		return res;
	for (i = 0; i < (unsigned int)n && filled < cudaDeviceCount; i++)
		pCudaDevices[filled++] = (CUdevice)i;
	*pCudaDeviceCount = (unsigned int)n < cudaDeviceCount ?
			    (unsigned int)n : cudaDeviceCount;
	if (!cudaDeviceCount)
		*pCudaDeviceCount = (unsigned int)n;
	return CUDA_SUCCESS;
}
