// SPDX-License-Identifier: GPL-2.0
//
// simpleGLInterop: a CUDA kernel writes an image into an OpenGL pixel
// buffer object; OpenGL uploads it into a texture and draws the texture
// on a quad into an offscreen framebuffer, which is read back, checked
// against the CPU's image and saved as a PNG (default
// /tmp/simpleGLInterop.png, or the path given).
//
// No display is needed: EGL's surfaceless platform (Mesa's llvmpipe on a
// vGPU machine) gives a desktop-GL context with no window.  The CUDA side
// is the runtime's graphics interop API as the CUDA guide's chapter shows
// it: register the buffer once (write-discard: CUDA overwrites all of
// it), map it for each frame, write it through the mapped pointer, unmap
// it before GL uses it.
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <cuda_gl_interop.h>
#include <stdint.h>
#include <string.h>
#include <zlib.h>

#include "../common/sample_check.h"

#define W 256
#define H 192

// The image: a gradient with a checker pattern, in integers so that the
// CPU's copy is exactly the same.
__host__ __device__ static uchar4 pixel(int x, int y)
{
	unsigned char c = ((x >> 4) ^ (y >> 4)) & 1 ? 255 : 64;

	return make_uchar4((unsigned char)(x * 255 / (W - 1)),
			   (unsigned char)(y * 255 / (H - 1)), c, 255);
}

__global__ void draw(uchar4 *pbo)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;

	if (x < W && y < H)
		pbo[y * W + x] = pixel(x, y);
}

static bool egl_context(void)
{
	PFNEGLGETPLATFORMDISPLAYEXTPROC get_dpy =
		(PFNEGLGETPLATFORMDISPLAYEXTPROC)
		eglGetProcAddress("eglGetPlatformDisplayEXT");
	static const EGLint attr[] = {
		EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
		EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE
	};
	EGLDisplay dpy;
	EGLConfig cfg;
	EGLContext ctx;
	EGLint n = 0;

	if (!get_dpy)
		return false;
	dpy = get_dpy(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL) ||
	    !eglBindAPI(EGL_OPENGL_API) ||
	    !eglChooseConfig(dpy, attr, &cfg, 1, &n) || !n)
		return false;
	ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, NULL);
	return ctx != EGL_NO_CONTEXT &&
	       eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx);
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24; p[1] = v >> 16; p[2] = v >> 8; p[3] = v;
}

static bool chunk(FILE *f, const char *type, const uint8_t *data, uint32_t n)
{
	uint8_t hdr[8], crc[4];
	uLong c = crc32(0, (const Bytef *)type, 4);

	put32(hdr, n);
	memcpy(hdr + 4, type, 4);
	if (n)
		c = crc32(c, data, n);
	put32(crc, (uint32_t)c);
	return fwrite(hdr, 8, 1, f) == 1 && (!n || fwrite(data, n, 1, f) == 1) &&
	       fwrite(crc, 4, 1, f) == 1;
}

// @img bottom row first, as glReadPixels gives it; PNG is top row first.
static bool write_png(const char *path, const uchar4 *img)
{
	static const uint8_t sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	uint8_t ihdr[13] = { 0 };
	size_t raw_n = (size_t)H * (1 + W * 4);
	uLongf z_n = compressBound(raw_n);
	uint8_t *raw = (uint8_t *)malloc(raw_n), *z = (uint8_t *)malloc(z_n);
	FILE *f = fopen(path, "wb");
	bool ok = f && raw && z;

	for (int y = 0; ok && y < H; y++) {
		raw[y * (1 + W * 4)] = 0;	/* filter: none */
		memcpy(raw + y * (1 + W * 4) + 1, img + (H - 1 - y) * W, W * 4);
	}
	put32(ihdr, W);
	put32(ihdr + 4, H);
	ihdr[8] = 8;	/* bits per channel */
	ihdr[9] = 6;	/* RGBA */
	ok = ok && compress2(z, &z_n, raw, raw_n, 9) == Z_OK &&
	     fwrite(sig, 8, 1, f) == 1 && chunk(f, "IHDR", ihdr, 13) &&
	     chunk(f, "IDAT", z, (uint32_t)z_n) && chunk(f, "IEND", NULL, 0);
	if (f && fclose(f))
		ok = false;
	free(raw);
	free(z);
	return ok;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "/tmp/simpleGLInterop.png";
	static uchar4 out[W * H];
	struct cudaGraphicsResource *res;
	GLuint pbo, tex, fbo, rbo;
	uchar4 *d;
	size_t size;
	int bad = 0;

	if (!egl_context()) {
		fprintf(stderr, "no EGL context without a display\n");
		return sample_result(false);
	}
	printf("GL renderer: %s\n", (const char *)glGetString(GL_RENDERER));

	// The pixel buffer, and the texture it is uploaded into.
	glGenBuffers(1, &pbo);
	glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo);
	glBufferData(GL_PIXEL_UNPACK_BUFFER, W * H * 4, NULL, GL_STREAM_DRAW);
	glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
	glGenTextures(1, &tex);
	glBindTexture(GL_TEXTURE_2D, tex);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, W, H, 0, GL_RGBA,
		     GL_UNSIGNED_BYTE, NULL);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);

	// CUDA writes the buffer.
	CHECK(cudaGraphicsGLRegisterBuffer(&res, pbo,
					   cudaGraphicsRegisterFlagsWriteDiscard));
	CHECK(cudaGraphicsMapResources(1, &res, 0));
	CHECK(cudaGraphicsResourceGetMappedPointer((void **)&d, &size, res));
	if (size != W * H * 4) {
		fprintf(stderr, "mapped %zu bytes, not %d\n", size, W * H * 4);
		return sample_result(false);
	}
	draw<<<dim3((W + 15) / 16, (H + 15) / 16), dim3(16, 16)>>>(d);
	CHECK(cudaGetLastError());
	CHECK(cudaGraphicsUnmapResources(1, &res, 0));

	// GL: buffer -> texture, texture -> a quad in an offscreen framebuffer.
	glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo);
	glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, W, H, GL_RGBA,
			GL_UNSIGNED_BYTE, 0);
	glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
	glGenFramebuffers(1, &fbo);
	glGenRenderbuffers(1, &rbo);
	glBindRenderbuffer(GL_RENDERBUFFER, rbo);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, W, H);
	glBindFramebuffer(GL_FRAMEBUFFER, fbo);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
				  GL_RENDERBUFFER, rbo);
	if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
		fprintf(stderr, "framebuffer incomplete\n");
		return sample_result(false);
	}
	glViewport(0, 0, W, H);
	glClearColor(0, 0, 0, 1);
	glClear(GL_COLOR_BUFFER_BIT);
	glEnable(GL_TEXTURE_2D);
	glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
	glBegin(GL_QUADS);
	glTexCoord2f(0, 0); glVertex2f(-1, -1);
	glTexCoord2f(1, 0); glVertex2f(1, -1);
	glTexCoord2f(1, 1); glVertex2f(1, 1);
	glTexCoord2f(0, 1); glVertex2f(-1, 1);
	glEnd();
	glPixelStorei(GL_PACK_ALIGNMENT, 1);
	glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, out);
	if (glGetError() != GL_NO_ERROR) {
		fprintf(stderr, "GL error\n");
		return sample_result(false);
	}

	// Texel (x, y) lands on pixel (x, y): row 0 of the buffer is the
	// texture's first row, which the quad puts at the bottom.
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			uchar4 want = pixel(x, y), got = out[y * W + x];

			if (memcmp(&want, &got, 4) && bad++ < 5)
				fprintf(stderr, "pixel (%d,%d): %u %u %u %u, "
					"expected %u %u %u %u\n", x, y,
					got.x, got.y, got.z, got.w,
					want.x, want.y, want.z, want.w);
		}
	if (!write_png(path, out)) {
		fprintf(stderr, "cannot write %s\n", path);
		return sample_result(false);
	}
	printf("%dx%d frame drawn by GL from CUDA's pixel buffer: %s, "
	       "%d pixels differ from the CPU's\n", W, H, path, bad);
	CHECK(cudaGraphicsUnregisterResource(res));
	return sample_result(bad == 0);
}
