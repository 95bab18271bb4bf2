// SPDX-License-Identifier: GPL-2.0
/*
 * test_cu_interop_gl.c - OpenGL interoperability of libcuda against
 * Mesa's llvmpipe through EGL (no display): what a mapped buffer or image
 * holds (GL's contents, checked against the CPU's copy), what GL holds
 * after the unmap (the kernel's or copy's results, against a CPU
 * reference), the map flags (READ_ONLY: nothing goes back; WRITE_DISCARD:
 * nothing comes in), and each call's errors, with the codes an H100
 * answered (tools/cuda-probe/golden/probe_interop.h100.txt).
 *
 * The guest gets Mesa's EGL and swrast driver through TEST.vmargs.
 */
#include <stdint.h>
#include <string.h>

#include <cudaGL.h>

#include "cuda_test.h"
#include "interop_egl.h"

#define N 4096			/* ints in the test buffer */

/* The harness runs each TEST in a child: set up CUDA and GL there. */
#define SETUP(ctx, g)							\
	do {								\
		const char *why;					\
		CU_SETUP(&(ctx));					\
		if (egl_gl_setup(&(g), &why))				\
			SKIP(return, "EGL: %s", why);			\
	} while (0)

/* A GL buffer of N ints holding 0, 1, 2, ... */
static GLuint gl_buffer(struct egl_gl *g)
{
	static int data[N];
	GLuint b;
	int i;

	for (i = 0; i < N; i++)
		data[i] = i;
	g->GenBuffers(1, &b);
	g->BindBuffer(GL_ARRAY_BUFFER, b);
	g->BufferData(GL_ARRAY_BUFFER, sizeof(data), data, GL_DYNAMIC_DRAW);
	g->BindBuffer(GL_ARRAY_BUFFER, 0);
	return b;
}

static void gl_read_buffer(struct egl_gl *g, GLuint b, int *out)
{
	g->BindBuffer(GL_ARRAY_BUFFER, b);
	g->GetBufferSubData(GL_ARRAY_BUFFER, 0, N * sizeof(int), out);
	g->BindBuffer(GL_ARRAY_BUFFER, 0);
}

/* GL -> CUDA at map, a kernel, CUDA -> GL at unmap, on a stream. */
TEST(buffer_kernel_roundtrip)
{
	static int host[N];
	struct egl_gl g;
	CUcontext ctx;
	CUgraphicsResource r;
	CUdeviceptr p;
	CUmodule m;
	CUfunction f;
	CUstream s;
	size_t size = 0;
	int n = N, i;
	void *args[] = { &p, &n };
	GLuint b;

	SETUP(ctx, g);
	b = gl_buffer(&g);
	ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&m, DRV_PTX));
	ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&f, m, "scale_by_const"));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsGLRegisterBuffer(&r, b, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsMapResources(1, &r, s));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsResourceGetMappedPointer(&p, &size, r));
	ASSERT_EQ(N * sizeof(int), size);
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(host, p, sizeof(host)));
	for (i = 0; i < N; i++)
		ASSERT_EQ(i, host[i]);
	ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(f, N / 256, 1, 1, 256, 1, 1, 0,
					       s, args, NULL));
	/* The unmap is ordered after the kernel on the same stream. */
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsUnmapResources(1, &r, s));
	gl_read_buffer(&g, b, host);
	for (i = 0; i < N; i++)
		ASSERT_EQ(i * 3 + 7, host[i]);	/* scale_by_const's */
	/* The same device address on the next map. */
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsMapResources(1, &r, 0));
	{
		CUdeviceptr again;

		ASSERT_EQ(CUDA_SUCCESS,
			  cuGraphicsResourceGetMappedPointer(&again, NULL, r));
		ASSERT_EQ(p, again);
	}
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsUnmapResources(1, &r, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsUnregisterResource(r));
}

/* READ_ONLY: CUDA's writes stay in CUDA; WRITE_DISCARD: GL's stay in GL. */
TEST(buffer_map_flags)
{
	static int host[N], zero[N];
	struct egl_gl g;
	CUcontext ctx;
	CUgraphicsResource r;
	CUdeviceptr p;
	GLuint b;
	int i;

	SETUP(ctx, g);
	b = gl_buffer(&g);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsGLRegisterBuffer(&r, b,
		  CU_GRAPHICS_REGISTER_FLAGS_READ_ONLY));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsMapResources(1, &r, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsResourceGetMappedPointer(&p, NULL, r));
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32(p, 0xdead, N));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsUnmapResources(1, &r, 0));
	gl_read_buffer(&g, b, host);
	for (i = 0; i < N; i++)
		ASSERT_EQ(i, host[i]);

	/* GL rewrites the buffer; a discarding map does not bring it in. */
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsResourceSetMapFlags(r,
		  CU_GRAPHICS_MAP_RESOURCE_FLAGS_WRITE_DISCARD));
	g.BindBuffer(GL_ARRAY_BUFFER, b);
	g.BufferData(GL_ARRAY_BUFFER, sizeof(zero), zero, GL_DYNAMIC_DRAW);
	g.BindBuffer(GL_ARRAY_BUFFER, 0);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsMapResources(1, &r, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(host, p, sizeof(host)));
	for (i = 0; i < N; i++)
		ASSERT_EQ(0xdead, host[i]);	/* the old device contents */
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32(p, 5, N));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsUnmapResources(1, &r, 0));
	gl_read_buffer(&g, b, host);
	for (i = 0; i < N; i++)
		ASSERT_EQ(5, host[i]);		/* ... but it goes back */
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsUnregisterResource(r));
}

/* Two resources in one call, and the default stream. */
TEST(map_two)
{
	static int host[N];
	struct egl_gl g;
	CUcontext ctx;
	CUgraphicsResource r[2];
	CUdeviceptr p[2];
	GLuint b[2];
	int i;

	SETUP(ctx, g);
	b[0] = gl_buffer(&g);
	b[1] = gl_buffer(&g);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsGLRegisterBuffer(&r[0], b[0], 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsGLRegisterBuffer(&r[1], b[1], 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsMapResources(2, r, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsResourceGetMappedPointer(&p[0], NULL, r[0]));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsResourceGetMappedPointer(&p[1], NULL, r[1]));
	ASSERT_NE(p[0], p[1]);
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoD(p[1], p[0] + 4, (N - 1) * 4));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsUnmapResources(2, r, 0));
	gl_read_buffer(&g, b[1], host);
	for (i = 0; i < N - 1; i++)
		ASSERT_EQ(i + 1, host[i]);
	ASSERT_EQ(N - 1, host[N - 1]);
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsUnregisterResource(r[0]));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsUnregisterResource(r[1]));
}

/* A texture as a CUDA array: GL's texels in, CUDA's out. */
static void image_roundtrip(struct __test_metadata *_metadata,
			    struct egl_gl *g, GLint internal, GLenum format,
			    GLenum type, unsigned int texel,
			    CUarray_format cu_fmt, unsigned int channels)
{
	enum { W = 64, H = 32 };
	static unsigned char in[W * H * 16], out[W * H * 16];
	CUgraphicsResource r;
	CUDA_ARRAY3D_DESCRIPTOR d;
	CUDA_MEMCPY2D c = { 0 };
	CUmipmappedArray mm;
	CUarray a, level;
	GLuint t;
	size_t i, bytes = (size_t)W * H * texel;

	for (i = 0; i < bytes; i++)
		in[i] = (unsigned char)(i * 13 + 5);
	if (type == GL_FLOAT)	/* finite floats: no NaN patterns */
		for (i = 0; i < bytes / 4; i++)
			((float *)in)[i] = (float)i * 0.25f;
	g->GenTextures(1, &t);
	g->BindTexture(GL_TEXTURE_2D, t);
	g->PixelStorei(GL_UNPACK_ALIGNMENT, 1);
	g->TexImage2D(GL_TEXTURE_2D, 0, internal, W, H, 0, format, type, in);
	g->BindTexture(GL_TEXTURE_2D, 0);
	ASSERT_EQ(GL_NO_ERROR, g->GetError());

	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsGLRegisterImage(&r, t, GL_TEXTURE_2D,
		  CU_GRAPHICS_REGISTER_FLAGS_SURFACE_LDST));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsMapResources(1, &r, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsSubResourceGetMappedArray(&a, r, 0, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuArray3DGetDescriptor(&d, a));
	ASSERT_EQ(W, d.Width);
	ASSERT_EQ(H, d.Height);
	ASSERT_EQ(0, d.Depth);
	ASSERT_EQ(cu_fmt, d.Format);
	ASSERT_EQ(channels, d.NumChannels);
	ASSERT_EQ(CUDA_ARRAY3D_SURFACE_LDST, d.Flags);
	/* The mipmapped array's level 0 is the same array. */
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsResourceGetMappedMipmappedArray(&mm, r));
	ASSERT_EQ(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&level, mm, 0));
	ASSERT_EQ(a, level);

	c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
	c.srcArray = a;
	c.dstMemoryType = CU_MEMORYTYPE_HOST;
	c.dstHost = out;
	c.dstPitch = (size_t)W * texel;
	c.WidthInBytes = (size_t)W * texel;
	c.Height = H;
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpy2D(&c));
	ASSERT_EQ(0, memcmp(in, out, bytes));

	/* CUDA writes the array reversed; GL sees it after the unmap. */
	for (i = 0; i < bytes; i++)
		out[i] = in[bytes - 1 - i];
	c.srcMemoryType = CU_MEMORYTYPE_HOST;
	c.srcHost = out;
	c.srcPitch = (size_t)W * texel;
	c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
	c.dstArray = a;
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpy2D(&c));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsUnmapResources(1, &r, 0));
	memset(in, 0, bytes);
	g->BindTexture(GL_TEXTURE_2D, t);
	g->PixelStorei(GL_PACK_ALIGNMENT, 1);
	g->GetTexImage(GL_TEXTURE_2D, 0, format, type, in);
	g->BindTexture(GL_TEXTURE_2D, 0);
	ASSERT_EQ(0, memcmp(in, out, bytes));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsUnregisterResource(r));
}

TEST(image_rgba8)
{
	struct egl_gl g;
	CUcontext ctx;

	SETUP(ctx, g);
	image_roundtrip(_metadata, &g, GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, 4,
			CU_AD_FORMAT_UNSIGNED_INT8, 4);
}

TEST(image_r32f)
{
	struct egl_gl g;
	CUcontext ctx;

	SETUP(ctx, g);
	image_roundtrip(_metadata, &g, GL_R32F, GL_RED, GL_FLOAT, 4,
			CU_AD_FORMAT_FLOAT, 1);
}

TEST(image_rgba32f)
{
	struct egl_gl g;
	CUcontext ctx;

	SETUP(ctx, g);
	image_roundtrip(_metadata, &g, GL_RGBA32F, GL_RGBA, GL_FLOAT, 16,
			CU_AD_FORMAT_FLOAT, 4);
}

/* The answers of the H100 (probe_interop.h100.txt) to bad calls. */
TEST(buffer_errors)
{
	struct egl_gl g;
	CUcontext ctx;
	CUgraphicsResource r, r2, two[2], none = NULL;
	CUdeviceptr p;
	CUarray a;
	CUmipmappedArray mm;
	size_t size;
	GLuint b, unbound;

	SETUP(ctx, g);
	b = gl_buffer(&g);
	g.GenBuffers(1, &unbound);
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphicsGLRegisterBuffer(NULL, b, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphicsGLRegisterBuffer(&r, 0, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, cuGraphicsGLRegisterBuffer(&r, 4242, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE,
		  cuGraphicsGLRegisterBuffer(&r, unbound, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphicsGLRegisterBuffer(&r, b, 0x10));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsGLRegisterBuffer(&r, b, 0));
	/* The same buffer twice is two resources. */
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsGLRegisterBuffer(&r2, b, 0));
	EXPECT_NE(r, r2);
	EXPECT_EQ(CUDA_SUCCESS, cuGraphicsUnregisterResource(r2));

	EXPECT_EQ(CUDA_ERROR_NOT_MAPPED,
		  cuGraphicsResourceGetMappedPointer(&p, &size, r));
	EXPECT_EQ(CUDA_ERROR_NOT_MAPPED, cuGraphicsUnmapResources(1, &r, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphicsMapResources(0, NULL, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphicsMapResources(1, NULL, 0));
	two[0] = two[1] = r;
	EXPECT_EQ(CUDA_ERROR_ALREADY_MAPPED, cuGraphicsMapResources(2, two, 0));
	/* ... and the failed call mapped nothing. */
	EXPECT_EQ(CUDA_ERROR_NOT_MAPPED, cuGraphicsUnmapResources(1, &r, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsMapResources(1, &r, 0));
	EXPECT_EQ(CUDA_ERROR_ALREADY_MAPPED, cuGraphicsMapResources(1, &r, 0));
	EXPECT_EQ(CUDA_SUCCESS, cuGraphicsResourceGetMappedPointer(NULL, NULL, r));
	EXPECT_EQ(CUDA_ERROR_NOT_MAPPED_AS_ARRAY,
		  cuGraphicsSubResourceGetMappedArray(&a, r, 0, 0));
	EXPECT_EQ(CUDA_ERROR_NOT_MAPPED_AS_ARRAY,
		  cuGraphicsResourceGetMappedMipmappedArray(&mm, r));
	EXPECT_EQ(CUDA_ERROR_ALREADY_MAPPED, cuGraphicsResourceSetMapFlags(r, 1));
	EXPECT_EQ(CUDA_ERROR_ALREADY_MAPPED, cuGraphicsUnregisterResource(r));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsUnmapResources(1, &r, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphicsResourceSetMapFlags(r, 4));

	/* Bad handles. */
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, cuGraphicsMapResources(1, &none, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, cuGraphicsUnregisterResource(NULL));
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, cuGraphicsResourceSetMapFlags(NULL, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE,
		  cuGraphicsResourceGetMappedPointer(&p, &size, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsUnregisterResource(r));
	/* An unregistered resource is a bad handle. */
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, cuGraphicsUnregisterResource(r));
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, cuGraphicsMapResources(1, &r, 0));

	/* Without a GL context, and without a CUDA context. */
	egl_gl_current(&g, 0);
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuGraphicsGLRegisterBuffer(&r, b, 0));
	egl_gl_current(&g, 1);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(NULL));
	EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuGraphicsGLRegisterBuffer(&r, b, 0));
}

TEST(image_errors)
{
	struct egl_gl g;
	CUcontext ctx;
	CUgraphicsResource img;
	CUdeviceptr p;
	size_t size;
	CUarray a;
	GLuint t[3];

	SETUP(ctx, g);
	g.GenTextures(3, t);
	g.BindTexture(GL_TEXTURE_2D, t[0]);
	g.TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 64, 32, 0, GL_RGBA,
		     GL_UNSIGNED_BYTE, NULL);
	g.BindTexture(GL_TEXTURE_2D, t[1]);
	g.TexImage2D(GL_TEXTURE_2D, 0, GL_RGB8, 64, 32, 0, GL_RGB,
		     GL_UNSIGNED_BYTE, NULL);
	g.BindTexture(GL_TEXTURE_2D, 0);
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuGraphicsGLRegisterImage(&img, t[0], GL_ARRAY_BUFFER, 0));
	/* The H100 registers a 2D texture named as 3D; vGPU has no 3D. */
	EXPECT_EQ(CUDA_ERROR_NOT_SUPPORTED,
		  cuGraphicsGLRegisterImage(&img, t[0], GL_TEXTURE_3D, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE,
		  cuGraphicsGLRegisterImage(&img, 4243, GL_TEXTURE_2D, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE,
		  cuGraphicsGLRegisterImage(&img, t[2], GL_TEXTURE_2D, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuGraphicsGLRegisterImage(&img, t[0], GL_TEXTURE_2D, 0x10));
	/* Three channels map as four (as on the H100). */
	ASSERT_EQ(CUDA_SUCCESS,
		  cuGraphicsGLRegisterImage(&img, t[1], GL_TEXTURE_2D, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsUnregisterResource(img));

	ASSERT_EQ(CUDA_SUCCESS,
		  cuGraphicsGLRegisterImage(&img, t[0], GL_TEXTURE_2D, 0));
	EXPECT_EQ(CUDA_ERROR_NOT_MAPPED,
		  cuGraphicsSubResourceGetMappedArray(&a, img, 0, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsMapResources(1, &img, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuGraphicsSubResourceGetMappedArray(NULL, img, 0, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuGraphicsSubResourceGetMappedArray(&a, img, 1, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuGraphicsSubResourceGetMappedArray(&a, img, 0, 1));
	EXPECT_EQ(CUDA_ERROR_NOT_MAPPED_AS_POINTER,
		  cuGraphicsResourceGetMappedPointer(&p, &size, img));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsUnmapResources(1, &img, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphicsUnregisterResource(img));
}

TEST(get_devices)
{
	struct egl_gl g;
	CUcontext ctx;
	CUdevice devs[4];
	unsigned int count = 0;
	int n;

	SETUP(ctx, g);
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetCount(&n));
	ASSERT_EQ(CUDA_SUCCESS,
		  cuGLGetDevices(&count, devs, 4, CU_GL_DEVICE_LIST_ALL));
	ASSERT_EQ((unsigned int)n, count);
	ASSERT_EQ(0, devs[0]);
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuGLGetDevices(&count, devs, 4, (CUGLDeviceList)9));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuGLGetDevices(NULL, devs, 4, CU_GL_DEVICE_LIST_ALL));
	egl_gl_current(&g, 0);
	EXPECT_EQ(CUDA_ERROR_INVALID_GRAPHICS_CONTEXT,
		  cuGLGetDevices(&count, devs, 4, CU_GL_DEVICE_LIST_ALL));
}

CUDA_TEST_MAIN
