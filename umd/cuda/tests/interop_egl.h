/* SPDX-License-Identifier: GPL-2.0 */
/*
 * interop_egl.h - an OpenGL context without a display, for the interop
 * tests: EGL's surfaceless platform (Mesa: llvmpipe), a desktop-GL
 * context made current with no surface, the GL functions the tests use.
 *
 * libEGL is loaded with dlopen, as the probe does, so that the tests link
 * only libcuda (the guest gets Mesa through TEST.vmargs: see
 * Documentation/vm-runner.rst).
 */
#ifndef VGPU_INTEROP_EGL_H
#define VGPU_INTEROP_EGL_H

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <dlfcn.h>

struct egl_gl {
	EGLDisplay dpy;
	EGLContext ctx;
	EGLBoolean (*make_current)(EGLDisplay, EGLSurface, EGLSurface,
				   EGLContext);
	void (*GenBuffers)(GLsizei, GLuint *);
	void (*DeleteBuffers)(GLsizei, const GLuint *);
	void (*BindBuffer)(GLenum, GLuint);
	void (*BufferData)(GLenum, GLsizeiptr, const void *, GLenum);
	void (*GetBufferSubData)(GLenum, GLintptr, GLsizeiptr, void *);
	void (*GenTextures)(GLsizei, GLuint *);
	void (*BindTexture)(GLenum, GLuint);
	void (*TexImage2D)(GLenum, GLint, GLint, GLsizei, GLsizei, GLint,
			   GLenum, GLenum, const void *);
	void (*GetTexImage)(GLenum, GLint, GLenum, GLenum, void *);
	void (*PixelStorei)(GLenum, GLint);
	void (*Finish)(void);
	GLenum (*GetError)(void);
};

/* Make a context current on this thread; 0, or -1 with *@why set. */
static inline int egl_gl_setup(struct egl_gl *g, const char **why)
{
	void *lib = dlopen("libEGL.so.1", RTLD_NOW | RTLD_GLOBAL);
	PFNEGLGETPROCADDRESSPROC proc;
	PFNEGLGETPLATFORMDISPLAYEXTPROC get_dpy;
	EGLBoolean (*init)(EGLDisplay, EGLint *, EGLint *);
	EGLBoolean (*bind)(EGLenum);
	EGLBoolean (*choose)(EGLDisplay, const EGLint *, EGLConfig *, EGLint,
			     EGLint *);
	EGLContext (*create)(EGLDisplay, EGLConfig, EGLContext,
			     const EGLint *);
	static const EGLint attr[] = {
		EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
		EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE
	};
	EGLConfig cfg;
	EGLint n = 0;

	*why = "no libEGL.so.1";
	if (!lib)
		return -1;
	proc = (PFNEGLGETPROCADDRESSPROC)dlsym(lib, "eglGetProcAddress");
	*why = "no eglGetProcAddress";
	if (!proc)
		return -1;
#define EGL_GET(var, name) (var = (__typeof__(var))proc(name))
	EGL_GET(get_dpy, "eglGetPlatformDisplayEXT");
	EGL_GET(init, "eglInitialize");
	EGL_GET(bind, "eglBindAPI");
	EGL_GET(choose, "eglChooseConfig");
	EGL_GET(create, "eglCreateContext");
	EGL_GET(g->make_current, "eglMakeCurrent");
	*why = "no surfaceless EGL display";
	if (!get_dpy || !init || !bind || !choose || !create ||
	    !g->make_current)
		return -1;
	g->dpy = get_dpy(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY,
			 NULL);
	if (g->dpy == EGL_NO_DISPLAY || !init(g->dpy, NULL, NULL))
		return -1;
	*why = "no desktop GL context";
	if (!bind(EGL_OPENGL_API) || !choose(g->dpy, attr, &cfg, 1, &n) || !n)
		return -1;
	g->ctx = create(g->dpy, cfg, EGL_NO_CONTEXT, NULL);
	if (g->ctx == EGL_NO_CONTEXT ||
	    !g->make_current(g->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, g->ctx))
		return -1;
	EGL_GET(g->GenBuffers, "glGenBuffers");
	EGL_GET(g->DeleteBuffers, "glDeleteBuffers");
	EGL_GET(g->BindBuffer, "glBindBuffer");
	EGL_GET(g->BufferData, "glBufferData");
	EGL_GET(g->GetBufferSubData, "glGetBufferSubData");
	EGL_GET(g->GenTextures, "glGenTextures");
	EGL_GET(g->BindTexture, "glBindTexture");
	EGL_GET(g->TexImage2D, "glTexImage2D");
	EGL_GET(g->GetTexImage, "glGetTexImage");
	EGL_GET(g->PixelStorei, "glPixelStorei");
	EGL_GET(g->Finish, "glFinish");
	EGL_GET(g->GetError, "glGetError");
#undef EGL_GET
	*why = "GL functions missing";
	return g->GenBuffers && g->GetTexImage && g->GetError ? 0 : -1;
}

/* Make the context current (@on) or release it. */
static inline void egl_gl_current(struct egl_gl *g, int on)
{
	g->make_current(g->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE,
			on ? g->ctx : EGL_NO_CONTEXT);
}

#endif /* VGPU_INTEROP_EGL_H */
