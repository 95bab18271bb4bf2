// SPDX-License-Identifier: GPL-2.0
/*
 * nvjitlink_front.c - vGPU's libnvJitLink.so.13: NVIDIA's linker, and a
 * linked "cubin" that vGPU can load.
 *
 * Each handle the program gets is ours, wrapping one of NVIDIA's; every
 * input and option goes to NVIDIA's linker, so what it accepts, rejects
 * and logs is NVIDIA's.  Two things differ:
 *
 *  - with -lto, "-ptx" is added: NVIDIA's linker then links the LTO-IR
 *    into one PTX module instead of SASS;
 *  - nvJitLinkComplete() also compiles the program's PTX with vGPU's own
 *    PTX compiler (umd/ptx) into one vISA image, and that image is what
 *    nvJitLinkGetLinkedCubin() returns: cuModuleLoadData(),
 *    cuLibraryLoadData() and cuLinkAddData(CU_JIT_INPUT_CUBIN) take it
 *    as they take any vISA image.  The PTX is the linked module (-lto),
 *    or else the program's PTX inputs, linked by vGPU's compiler as it
 *    links -rdc=true modules.
 *
 *         inputs ──► NVIDIA's nvJitLink (-arch=sm_90 kept: its checks,
 *            │                            codes and logs)
 *            │            │ -lto: linked PTX (-ptx added)
 *            ▼            ▼
 *       PTX inputs ──► vgpu_ptx_compile() ──► vISA image = "linked cubin"
 *
 * Without -lto, an input that holds no PTX text (a cubin, a fatbinary, a
 * host object or library: SASS, or PTX vGPU would have to dig out) makes
 * nvJitLinkComplete() fail with NVJITLINK_ERROR_INVALID_INPUT and a line
 * in the error log (Documentation/nvrtc.rst, limits).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The plain names are ours to define (below), not the header's inlines. */
#define NVJITLINK_NO_INLINE
#include <nvJitLink.h>

#include "ptx/ptx_compiler.h"
#include "toolkit_lib.h"

#define FRONT_EXPORT __attribute__((visibility("default")))

static struct vgpu_toolkit_lib jl_lib = { .soname = "libnvJitLink.so.13" };

#define REAL(type, name) ((type)vgpu_toolkit_sym(&jl_lib, #name))

/* No library: the nearest nvJitLink code. */
#define NO_LIBRARY NVJITLINK_ERROR_INTERNAL

#define JL_MAGIC 0x764a4c4bu	/* "vJLK" */

/* One PTX module the program added (a copy: the caller's may go away). */
struct jl_ptx {
	char *name;
	char *text;
	size_t len;
};

/* The handle the program holds. */
struct jl {
	uint32_t magic;
	nvJitLinkHandle real;		/* NVIDIA's */
	int lto;			/* -lto given: NVIDIA's gives PTX */
	struct jl_ptx *ptx;		/* PTX inputs (without -lto) */
	size_t nptx;
	char *foreign;			/* first input with no PTX text */
	void *image;			/* the vISA image, after Complete */
	size_t image_size;
	char *log;			/* our lines for the error log */
};

static struct jl *jl_of(nvJitLinkHandle h)
{
	struct jl *jl = (struct jl *)h;

	return jl && jl->magic == JL_MAGIC ? jl : NULL;
}

static void jl_log(struct jl *jl, const char *line)
{
	size_t old = jl->log ? strlen(jl->log) : 0;
	char *s = realloc(jl->log, old + strlen(line) + 2);

	if (!s)
		return;
	snprintf(s + old, strlen(line) + 2, "%s\n", line);
	jl->log = s;
}

static void jl_free(struct jl *jl)
{
	for (size_t i = 0; i < jl->nptx; i++) {
		free(jl->ptx[i].name);
		free(jl->ptx[i].text);
	}
	free(jl->ptx);
	free(jl->foreign);
	vgpu_ptx_free(jl->image);
	free(jl->log);
	jl->magic = 0;
	free(jl);
}

static int has_option(const char * const *opts, uint32_t n, const char *o)
{
	for (uint32_t i = 0; i < n; i++)
		if (opts[i] && !strcmp(opts[i], o))
			return 1;
	return 0;
}

FRONT_EXPORT nvJitLinkResult __nvJitLinkCreate_13_0(nvJitLinkHandle *handle,
						     uint32_t numOptions,
						     const char * const *options)
{
	typedef nvJitLinkResult (*fn_t)(nvJitLinkHandle *, uint32_t,
					const char * const *);
	fn_t fn = REAL(fn_t, __nvJitLinkCreate_13_0);
	const char **opts = NULL;
	uint32_t n = numOptions;
	nvJitLinkResult res;
	struct jl *jl;

	if (!fn)
		return NO_LIBRARY;
	/* Bad arguments: NVIDIA's library answers them, with its codes. */
	if (!handle || !options)
		return fn(handle, numOptions, options);
	jl = calloc(1, sizeof(*jl));
	opts = calloc((size_t)numOptions + 1, sizeof(*opts));
	if (!jl || !opts) {
		free(jl);
		free(opts);
		return NVJITLINK_ERROR_INTERNAL;
	}
	if (numOptions)
		memcpy(opts, options, numOptions * sizeof(*opts));
	jl->lto = has_option(options, numOptions, "-lto");
	if (jl->lto && !has_option(options, numOptions, "-ptx"))
		opts[n++] = "-ptx";
	res = fn(&jl->real, n, opts);
	free(opts);
	if (res != NVJITLINK_SUCCESS) {
		free(jl);
		*handle = NULL;
		return res;
	}
	jl->magic = JL_MAGIC;
	*handle = (nvJitLinkHandle)jl;
	return NVJITLINK_SUCCESS;
}

FRONT_EXPORT nvJitLinkResult __nvJitLinkDestroy_13_0(nvJitLinkHandle *handle)
{
	typedef nvJitLinkResult (*fn_t)(nvJitLinkHandle *);
	fn_t fn = REAL(fn_t, __nvJitLinkDestroy_13_0);
	struct jl *jl = handle ? jl_of(*handle) : NULL;
	nvJitLinkResult res;

	if (!fn)
		return NO_LIBRARY;
	if (!jl)
		return fn(handle);
	res = fn(&jl->real);
	jl_free(jl);
	*handle = NULL;
	return res;
}

/* PTX text: not a fatbinary, ELF, archive or bitcode, and no NUL early. */
static int looks_like_ptx(const void *data, size_t size)
{
	const unsigned char *p = data;
	size_t len = strnlen(data, size);

	if (size < 4 || !memcmp(p, "\x50\xed\x55\xba", 4) ||
	    !memcmp(p, "\x7f" "ELF", 4) || !memcmp(p, "BC\xc0\xde", 4) ||
	    !memcmp(p, "!<ar", 4))
		return 0;
	/* The text may count its NUL; nothing may follow it. */
	return len + 1 >= size;
}

/* Keep what vGPU needs of one input (before NVIDIA's sees it). */
static void jl_note_input(struct jl *jl, nvJitLinkInputType type,
			  const void *data, size_t size, const char *name)
{
	struct jl_ptx *v;

	if (jl->lto || jl->foreign)
		return;
	if (!data || !size || (type != NVJITLINK_INPUT_PTX &&
			       (type != NVJITLINK_INPUT_ANY ||
				!looks_like_ptx(data, size)))) {
		if (type != NVJITLINK_INPUT_PTX)
			jl->foreign = strdup(name ? name : "<input>");
		return;
	}
	v = realloc(jl->ptx, (jl->nptx + 1) * sizeof(*v));
	if (!v)
		return;
	jl->ptx = v;
	v += jl->nptx;
	v->len = strnlen(data, size);
	v->text = malloc(v->len + 1);
	v->name = strdup(name ? name : "<ptx>");
	if (!v->text || !v->name) {
		free(v->text);
		free(v->name);
		return;
	}
	memcpy(v->text, data, v->len);
	v->text[v->len] = '\0';
	jl->nptx++;
}

FRONT_EXPORT nvJitLinkResult __nvJitLinkAddData_13_0(nvJitLinkHandle handle,
						      nvJitLinkInputType inputType,
						      const void *data,
						      size_t size,
						      const char *name)
{
	typedef nvJitLinkResult (*fn_t)(nvJitLinkHandle, nvJitLinkInputType,
					const void *, size_t, const char *);
	fn_t fn = REAL(fn_t, __nvJitLinkAddData_13_0);
	struct jl *jl = jl_of(handle);
	nvJitLinkResult res;

	if (!fn)
		return NO_LIBRARY;
	if (!jl)
		return fn(handle, inputType, data, size, name);
	/*
	 * The "cubin" of our NVRTC front is PTX: NVIDIA's linker is told
	 * so, or it would refuse the text as a broken ELF.
	 */
	if (inputType == NVJITLINK_INPUT_CUBIN && data &&
	    looks_like_ptx(data, size))
		inputType = NVJITLINK_INPUT_PTX;
	res = fn(jl->real, inputType, data, size, name);
	if (res == NVJITLINK_SUCCESS)
		jl_note_input(jl, inputType, data, size, name);
	return res;
}

/* The whole file, NUL-terminated; NULL when it cannot be read. */
static char *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long len;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET))
		goto out;
	buf = malloc((size_t)len + 1);
	if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
	if (buf) {
		buf[len] = '\0';
		*size = (size_t)len;
	}
out:
	fclose(f);
	return buf;
}

FRONT_EXPORT nvJitLinkResult __nvJitLinkAddFile_13_0(nvJitLinkHandle handle,
						      nvJitLinkInputType inputType,
						      const char *fileName)
{
	typedef nvJitLinkResult (*fn_t)(nvJitLinkHandle, nvJitLinkInputType,
					const char *);
	fn_t fn = REAL(fn_t, __nvJitLinkAddFile_13_0);
	struct jl *jl = jl_of(handle);
	nvJitLinkResult res;
	size_t size = 0;
	char *data;

	if (!fn)
		return NO_LIBRARY;
	if (!jl)
		return fn(handle, inputType, fileName);
	res = fn(jl->real, inputType, fileName);
	if (res != NVJITLINK_SUCCESS || jl->lto)
		return res;
	data = fileName ? read_file(fileName, &size) : NULL;
	if (data)
		jl_note_input(jl, inputType, data, size + 1, fileName);
	else if (!jl->foreign)
		jl->foreign = strdup(fileName ? fileName : "<file>");
	free(data);
	return res;
}

/* The linked PTX of an -lto link, as NVIDIA's linker made it. */
static nvJitLinkResult jl_lto_ptx(struct jl *jl)
{
	typedef nvJitLinkResult (*size_fn)(nvJitLinkHandle, size_t *);
	typedef nvJitLinkResult (*ptx_fn)(nvJitLinkHandle, char *);
	size_fn fsize = REAL(size_fn, __nvJitLinkGetLinkedPtxSize_13_0);
	ptx_fn fptx = REAL(ptx_fn, __nvJitLinkGetLinkedPtx_13_0);
	size_t size = 0;
	nvJitLinkResult res;
	char *text;

	if (!fsize || !fptx)
		return NO_LIBRARY;
	res = fsize(jl->real, &size);
	if (res != NVJITLINK_SUCCESS)
		return res;
	text = calloc(1, size + 1);
	jl->ptx = calloc(1, sizeof(*jl->ptx));
	if (!text || !jl->ptx) {
		free(text);
		return NVJITLINK_ERROR_INTERNAL;
	}
	res = fptx(jl->real, text);
	if (res != NVJITLINK_SUCCESS) {
		free(text);
		return res;
	}
	jl->ptx[0].text = text;
	jl->ptx[0].len = strlen(text);
	jl->ptx[0].name = strdup("lto.ptx");
	jl->nptx = 1;
	return NVJITLINK_SUCCESS;
}

/* The program's PTX, compiled and linked by vGPU into one vISA image. */
static nvJitLinkResult jl_compile(struct jl *jl)
{
	struct vgpu_ptx_source *srcs;
	struct vgpu_ptx_diag diag;
	char line[512], msg[600];
	int rc;

	if (jl->foreign) {
		snprintf(msg, sizeof(msg),
			 "error   : vGPU: '%s' holds no PTX text (SASS, or PTX in a container): vGPU links only PTX inputs, or LTO-IR with -lto",
			 jl->foreign);
		jl_log(jl, msg);
		return NVJITLINK_ERROR_INVALID_INPUT;
	}
	if (!jl->nptx) {
		jl_log(jl, "error   : vGPU: no PTX to link");
		return NVJITLINK_ERROR_INVALID_INPUT;
	}
	srcs = calloc(jl->nptx, sizeof(*srcs));
	if (!srcs)
		return NVJITLINK_ERROR_INTERNAL;
	for (size_t i = 0; i < jl->nptx; i++) {
		srcs[i].name = jl->ptx[i].name;
		srcs[i].text = jl->ptx[i].text;
		srcs[i].len = jl->ptx[i].len;
	}
	memset(&diag, 0, sizeof(diag));
	rc = vgpu_ptx_compile(srcs, (unsigned int)jl->nptx, NULL, &jl->image,
			      &jl->image_size, &diag);
	free(srcs);
	if (rc == VGPU_PTX_OK)
		return NVJITLINK_SUCCESS;
	vgpu_ptx_format_diag(&diag, line, sizeof(line));
	snprintf(msg, sizeof(msg), "error   : vGPU: %s", line);
	jl_log(jl, msg);
	return rc == VGPU_PTX_ERR_NOMEM ? NVJITLINK_ERROR_INTERNAL :
	       NVJITLINK_ERROR_PTX_COMPILE;
}

FRONT_EXPORT nvJitLinkResult __nvJitLinkComplete_13_0(nvJitLinkHandle handle)
{
	typedef nvJitLinkResult (*fn_t)(nvJitLinkHandle);
	fn_t fn = REAL(fn_t, __nvJitLinkComplete_13_0);
	struct jl *jl = jl_of(handle);
	nvJitLinkResult res;

	if (!fn)
		return NO_LIBRARY;
	if (!jl)
		return fn(handle);
	res = fn(jl->real);
	if (res != NVJITLINK_SUCCESS || jl->image)
		return res;
	if (jl->lto) {
		res = jl_lto_ptx(jl);
		if (res != NVJITLINK_SUCCESS)
			return res;
	}
	return jl_compile(jl);
}

FRONT_EXPORT nvJitLinkResult
__nvJitLinkGetLinkedCubinSize_13_0(nvJitLinkHandle handle, size_t *size)
{
	typedef nvJitLinkResult (*fn_t)(nvJitLinkHandle, size_t *);
	fn_t fn = REAL(fn_t, __nvJitLinkGetLinkedCubinSize_13_0);
	struct jl *jl = jl_of(handle);

	if (!fn)
		return NO_LIBRARY;
	if (jl && jl->image && size) {
		*size = jl->image_size;
		return NVJITLINK_SUCCESS;
	}
	return fn(jl ? jl->real : handle, size);
}

FRONT_EXPORT nvJitLinkResult
__nvJitLinkGetLinkedCubin_13_0(nvJitLinkHandle handle, void *cubin)
{
	typedef nvJitLinkResult (*fn_t)(nvJitLinkHandle, void *);
	fn_t fn = REAL(fn_t, __nvJitLinkGetLinkedCubin_13_0);
	struct jl *jl = jl_of(handle);

	if (!fn)
		return NO_LIBRARY;
	if (jl && jl->image && cubin) {
		memcpy(cubin, jl->image, jl->image_size);
		return NVJITLINK_SUCCESS;
	}
	return fn(jl ? jl->real : handle, cubin);
}

/* Calls that only need NVIDIA's handle in place of ours. */
#define JL_FORWARD(name, argtype)					\
	FRONT_EXPORT nvJitLinkResult name(nvJitLinkHandle handle,	\
					  argtype arg)			\
	{								\
		typedef nvJitLinkResult (*fn_t)(nvJitLinkHandle, argtype); \
		fn_t fn = REAL(fn_t, name);				\
		struct jl *jl = jl_of(handle);				\
									\
		return fn ? fn(jl ? jl->real : handle, arg) : NO_LIBRARY; \
	}
JL_FORWARD(__nvJitLinkGetLinkedPtxSize_13_0, size_t *)
JL_FORWARD(__nvJitLinkGetLinkedPtx_13_0, char *)
JL_FORWARD(__nvJitLinkGetInfoLogSize_13_0, size_t *)
JL_FORWARD(__nvJitLinkGetInfoLog_13_0, char *)

/* NVIDIA's error log, then ours; @log NULL: only its size. */
static nvJitLinkResult jl_error_log(nvJitLinkHandle handle, size_t *size,
				    char *log)
{
	typedef nvJitLinkResult (*size_fn)(nvJitLinkHandle, size_t *);
	typedef nvJitLinkResult (*log_fn)(nvJitLinkHandle, char *);
	size_fn fsize = REAL(size_fn, __nvJitLinkGetErrorLogSize_13_0);
	log_fn flog = REAL(log_fn, __nvJitLinkGetErrorLog_13_0);
	struct jl *jl = jl_of(handle);
	size_t n = 0, ours;
	nvJitLinkResult res;
	char *real;

	if (!fsize || !flog)
		return NO_LIBRARY;
	if (!jl || !jl->log)
		return log ? flog(jl ? jl->real : handle, log) :
			     fsize(jl ? jl->real : handle, size);
	res = fsize(jl->real, &n);
	if (res != NVJITLINK_SUCCESS)
		return res;
	real = calloc(1, n + 1);
	if (!real)
		return NVJITLINK_ERROR_INTERNAL;
	if (n)
		res = flog(jl->real, real);
	n = strlen(real);
	ours = strlen(jl->log);
	if (res == NVJITLINK_SUCCESS && size)
		*size = n + ours + 1;
	if (res == NVJITLINK_SUCCESS && log) {
		memcpy(log, real, n);
		memcpy(log + n, jl->log, ours + 1);
	}
	free(real);
	return res;
}

FRONT_EXPORT nvJitLinkResult
__nvJitLinkGetErrorLogSize_13_0(nvJitLinkHandle handle, size_t *size)
{
	if (!size)
		return jl_error_log(handle, size, NULL) == NO_LIBRARY ?
		       NO_LIBRARY : NVJITLINK_ERROR_INVALID_INPUT;
	return jl_error_log(handle, size, NULL);
}

FRONT_EXPORT nvJitLinkResult
__nvJitLinkGetErrorLog_13_0(nvJitLinkHandle handle, char *log)
{
	if (!log)
		return jl_error_log(handle, NULL, NULL);
	return jl_error_log(handle, NULL, log);
}

/*
 * The plain names: NVIDIA exports them too (older binaries call them),
 * each the same as its __*_13_0 twin.
 */
#define JL_PLAIN(plain, twin, params, args)				\
	FRONT_EXPORT nvJitLinkResult plain params { return twin args; }
JL_PLAIN(nvJitLinkCreate, __nvJitLinkCreate_13_0,
	 (nvJitLinkHandle *h, uint32_t n, const char **o), (h, n, o))
JL_PLAIN(nvJitLinkDestroy, __nvJitLinkDestroy_13_0, (nvJitLinkHandle *h),
	 (h))
JL_PLAIN(nvJitLinkAddData, __nvJitLinkAddData_13_0,
	 (nvJitLinkHandle h, nvJitLinkInputType t, const void *d, size_t s,
	  const char *n), (h, t, d, s, n))
JL_PLAIN(nvJitLinkAddFile, __nvJitLinkAddFile_13_0,
	 (nvJitLinkHandle h, nvJitLinkInputType t, const char *f), (h, t, f))
JL_PLAIN(nvJitLinkComplete, __nvJitLinkComplete_13_0, (nvJitLinkHandle h),
	 (h))
JL_PLAIN(nvJitLinkGetLinkedCubinSize, __nvJitLinkGetLinkedCubinSize_13_0,
	 (nvJitLinkHandle h, size_t *s), (h, s))
JL_PLAIN(nvJitLinkGetLinkedCubin, __nvJitLinkGetLinkedCubin_13_0,
	 (nvJitLinkHandle h, void *c), (h, c))
JL_PLAIN(nvJitLinkGetLinkedPtxSize, __nvJitLinkGetLinkedPtxSize_13_0,
	 (nvJitLinkHandle h, size_t *s), (h, s))
JL_PLAIN(nvJitLinkGetLinkedPtx, __nvJitLinkGetLinkedPtx_13_0,
	 (nvJitLinkHandle h, char *p), (h, p))
JL_PLAIN(nvJitLinkGetErrorLogSize, __nvJitLinkGetErrorLogSize_13_0,
	 (nvJitLinkHandle h, size_t *s), (h, s))
JL_PLAIN(nvJitLinkGetErrorLog, __nvJitLinkGetErrorLog_13_0,
	 (nvJitLinkHandle h, char *l), (h, l))
JL_PLAIN(nvJitLinkGetInfoLogSize, __nvJitLinkGetInfoLogSize_13_0,
	 (nvJitLinkHandle h, size_t *s), (h, s))
JL_PLAIN(nvJitLinkGetInfoLog, __nvJitLinkGetInfoLog_13_0,
	 (nvJitLinkHandle h, char *l), (h, l))

FRONT_EXPORT nvJitLinkResult nvJitLinkVersion(unsigned int *major,
					      unsigned int *minor)
{
	typedef nvJitLinkResult (*fn_t)(unsigned int *, unsigned int *);
	fn_t fn = REAL(fn_t, nvJitLinkVersion);

	return fn ? fn(major, minor) : NO_LIBRARY;
}

/*
 * NVIDIA's internal entry (a table for its own libraries, by key): passed
 * on as it is; what is reached through it bypasses this front.
 */
FRONT_EXPORT void *__nvJitLinkAPI(int key)
{
	typedef void *(*fn_t)(int);
	fn_t fn = REAL(fn_t, __nvJitLinkAPI);

	return fn ? fn(key) : NULL;
}
