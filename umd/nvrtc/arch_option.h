/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arch_option.h - turn a real GPU architecture option (sm_XX) into the
 * virtual one (compute_XX), shared by the NVRTC and nvJitLink fronts.
 */
#ifndef VGPU_ARCH_OPTION_H
#define VGPU_ARCH_OPTION_H

/*
 * vgpu_arch_rewrite() - rewrite @n options for a PTX-only compile.
 * @opts:	the caller's options (unchanged)
 * @n:		how many
 * @out:	where the rewritten array goes (free with vgpu_arch_free())
 *
 * "-arch=sm_XX", "--gpu-architecture=sm_XX" and "-arch" "sm_XX" become
 * the same option naming compute_XX (suffixes such as "a" and "f" kept).
 * Returns how many options were rewritten, or -1 when out of memory.
 */
int vgpu_arch_rewrite(const char * const *opts, int n, char ***out);

void vgpu_arch_free(char **opts, int n);

#endif
