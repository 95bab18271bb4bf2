// SPDX-License-Identifier: GPL-2.0
/*
 * nvrtc_front.c - vGPU's libnvrtc.so.13: NVIDIA's NVRTC, asked for PTX.
 *
 * Every call goes to the toolkit's own libnvrtc.so.13 (toolkit_lib.c)
 * except two things:
 *
 *  - nvrtcCompileProgram() turns a real architecture (-arch=sm_90) into
 *    the virtual one (compute_90), so NVRTC stops at PTX instead of
 *    running ptxas for SASS that no software GPU can execute;
 *  - for such a program, nvrtcGetCUBINSize()/nvrtcGetCUBIN() hand back
 *    that PTX (with its NUL), which vGPU's cuModuleLoadData(),
 *    cuModuleLoadDataEx() and cuLibraryLoadData() compile on load just
 *    as CUDA JIT-compiles PTX.  Documentation/nvrtc.rst says why PTX
 *    and not a fatbinary or a vISA image, and what that leaves out.
 *
 * A program compiled for a virtual architecture by its own choice is
 * left entirely to NVIDIA's library (nvrtcGetCUBIN answers as it does).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <nvrtc.h>

#include "arch_option.h"
#include "toolkit_lib.h"

#define FRONT_EXPORT __attribute__((visibility("default")))

static struct vgpu_toolkit_lib nvrtc_lib = {
	.soname = "libnvrtc.so.13",
	.companion = "libnvrtc-builtins.so.13.0",
};

/* Programs whose CUBIN is their PTX: compiled with an sm_XX rewritten. */
struct ptx_prog {
	nvrtcProgram prog;
	struct ptx_prog *next;
};
static struct ptx_prog *ptx_progs;
static pthread_mutex_t ptx_lock = PTHREAD_MUTEX_INITIALIZER;

static void ptx_prog_set(nvrtcProgram prog, int on)
{
	struct ptx_prog **pp, *p;

	pthread_mutex_lock(&ptx_lock);
	for (pp = &ptx_progs; *pp && (*pp)->prog != prog; pp = &(*pp)->next)
		;
	if (!on && *pp) {
		p = *pp;
		*pp = p->next;
		free(p);
	} else if (on && !*pp) {
		p = malloc(sizeof(*p));
		if (p) {
			p->prog = prog;
			p->next = ptx_progs;
			ptx_progs = p;
		}
	}
	pthread_mutex_unlock(&ptx_lock);
}

static int ptx_prog_is(nvrtcProgram prog)
{
	struct ptx_prog *p;

	pthread_mutex_lock(&ptx_lock);
	for (p = ptx_progs; p && p->prog != prog; p = p->next)
		;
	pthread_mutex_unlock(&ptx_lock);
	return p != NULL;
}

/* The toolkit's @name as a function of type @type, or NULL. */
#define REAL(type, name) ((type)vgpu_toolkit_sym(&nvrtc_lib, #name))

/* No library: NVRTC has no "not installed" code; this is the nearest. */
#define NO_LIBRARY NVRTC_ERROR_INTERNAL_ERROR

#define NVRTC_CALL(name, params, args)					\
	FRONT_EXPORT nvrtcResult name params				\
	{								\
		typedef nvrtcResult (*fn_t) params;			\
		fn_t fn = REAL(fn_t, name);				\
									\
		return fn ? fn args : NO_LIBRARY;			\
	}
#include "nvrtc_calls.h"
#undef NVRTC_CALL

FRONT_EXPORT const char *nvrtcGetErrorString(nvrtcResult result)
{
	typedef const char *(*fn_t)(nvrtcResult);
	fn_t fn = REAL(fn_t, nvrtcGetErrorString);

	/* Without NVIDIA's library, at least name the one code we return. */
	if (!fn)
		return result == NO_LIBRARY ? "NVRTC_ERROR_INTERNAL_ERROR" :
					      "NVRTC_ERROR unknown";
	return fn(result);
}

FRONT_EXPORT nvrtcResult nvrtcCompileProgram(nvrtcProgram prog,
					     int numOptions,
					     const char * const *options)
{
	typedef nvrtcResult (*fn_t)(nvrtcProgram, int, const char * const *);
	fn_t fn = REAL(fn_t, nvrtcCompileProgram);
	char **opts;
	int changed;
	nvrtcResult res;

	if (!fn)
		return NO_LIBRARY;
	/* No options (NVRTC's default virtual architecture), or bad ones. */
	if (!prog || numOptions <= 0 || !options) {
		res = fn(prog, numOptions, options);
		if (prog)
			ptx_prog_set(prog, 0);
		return res;
	}
	changed = vgpu_arch_rewrite(options, numOptions, &opts);
	if (changed < 0)
		return NVRTC_ERROR_OUT_OF_MEMORY;
	res = fn(prog, numOptions, (const char * const *)opts);
	vgpu_arch_free(opts, numOptions);
	ptx_prog_set(prog, res == NVRTC_SUCCESS && changed > 0);
	return res;
}

FRONT_EXPORT nvrtcResult nvrtcGetCUBINSize(nvrtcProgram prog,
					   size_t *cubinSizeRet)
{
	typedef nvrtcResult (*fn_t)(nvrtcProgram, size_t *);
	fn_t fn;

	if (prog && ptx_prog_is(prog))
		return nvrtcGetPTXSize(prog, cubinSizeRet);
	fn = REAL(fn_t, nvrtcGetCUBINSize);
	return fn ? fn(prog, cubinSizeRet) : NO_LIBRARY;
}

FRONT_EXPORT nvrtcResult nvrtcGetCUBIN(nvrtcProgram prog, char *cubin)
{
	typedef nvrtcResult (*fn_t)(nvrtcProgram, char *);
	fn_t fn;

	if (prog && ptx_prog_is(prog))
		return nvrtcGetPTX(prog, cubin);
	fn = REAL(fn_t, nvrtcGetCUBIN);
	return fn ? fn(prog, cubin) : NO_LIBRARY;
}

FRONT_EXPORT nvrtcResult nvrtcDestroyProgram(nvrtcProgram *prog)
{
	typedef nvrtcResult (*fn_t)(nvrtcProgram *);
	fn_t fn = REAL(fn_t, nvrtcDestroyProgram);
	nvrtcProgram p = prog ? *prog : NULL;
	nvrtcResult res;

	if (!fn)
		return NO_LIBRARY;
	res = fn(prog);
	if (res == NVRTC_SUCCESS && p)
		ptx_prog_set(p, 0);
	return res;
}

/* Where nvrtc_internal.S jumps for __nvrtcCPEx (NULL: no library). */
void *vgpu_nvrtc_cpex_target(void);
void *vgpu_nvrtc_cpex_target(void)
{
	return vgpu_toolkit_sym(&nvrtc_lib, "__nvrtcCPEx");
}
