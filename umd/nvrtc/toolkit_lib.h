/* SPDX-License-Identifier: GPL-2.0 */
/*
 * toolkit_lib.h - find and open one of NVIDIA's toolkit libraries for the
 * run-time compilation fronts (libnvrtc.so.13, libnvJitLink.so.13).
 */
#ifndef VGPU_TOOLKIT_LIB_H
#define VGPU_TOOLKIT_LIB_H

/*
 * struct vgpu_toolkit_lib - one toolkit library, opened on first use.
 * @soname:	its file name ("libnvrtc.so.13")
 * @companion:	a library it dlopen()s by bare name, opened first from the
 *		same directory ("libnvrtc-builtins.so.13.0"), or NULL
 * @handle:	what dlopen() gave, or NULL (also after a failed search)
 * @tried:	set once the search has run, so it runs once
 */
struct vgpu_toolkit_lib {
	const char *soname;
	const char *companion;
	void *handle;
	int tried;
};

/*
 * vgpu_toolkit_sym() - the address of @name in @lib's toolkit library,
 * opening the library on first use; NULL (after one message on stderr
 * saying where it was looked for) when the library or symbol is absent.
 * Thread-safe.
 */
void *vgpu_toolkit_sym(struct vgpu_toolkit_lib *lib, const char *name);

#endif
