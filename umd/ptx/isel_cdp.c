// SPDX-License-Identifier: GPL-2.0
/*
 * isel_cdp.c - dynamic parallelism: the builtins of the device runtime.
 *
 * CUDA's device-side launch is a call of cudaGetParameterBufferV2() and
 * one of cudaLaunchDeviceV2() (nvcc emits them for kernel<<<...>>> in
 * device code).  vGPU's device runtime (umd/cuda/devrt.ptx) implements
 * those in PTX, and reaches the GR engine through five functions that no
 * module defines: a call of one becomes one CDP instruction
 * (include/vgpu_visa_cdp.h, firmware_sim/core/exec_cdp.c), whose result is
 * the call's return value:
 *
 *   __vgpu_cdp_psize(func)           CDP PSIZE      parameter bytes, or ~0
 *   __vgpu_cdp_launch(desc, stream)  CDP LAUNCH     cudaError_t
 *   __vgpu_cdp_get_error()           CDP GET_ERROR  the thread's last error
 *   __vgpu_cdp_peek_error()          CDP PEEK_ERROR without clearing it
 *   __vgpu_cdp_set_error(err)        CDP SET_ERROR
 *
 * umd/ptx/link.c counts them as bound, as it does vprintf and malloc.
 */
#include <string.h>

#include "isel.h"

static const struct {
	const char *name;
	enum visa_cdp sub;
} cdp_builtins[] = {
	{ "__vgpu_cdp_psize", VISA_CDP_PSIZE },
	{ "__vgpu_cdp_launch", VISA_CDP_LAUNCH },
	{ "__vgpu_cdp_get_error", VISA_CDP_GET_ERROR },
	{ "__vgpu_cdp_peek_error", VISA_CDP_PEEK_ERROR },
	{ "__vgpu_cdp_set_error", VISA_CDP_SET_ERROR },
};

bool cg_lower_cdp(struct cg *g, struct cg_fn *fn, const char *name,
		  uint16_t d, uint16_t a, uint16_t b)
{
	struct visa_insn *vi;

	(void)g;
	for (size_t i = 0; i < sizeof(cdp_builtins) / sizeof(cdp_builtins[0]);
	     i++) {
		if (strcmp(name, cdp_builtins[i].name))
			continue;
		vi = cg_insn(fn, VISA_OP_CDP, VISA_T_U64);
		vi->mod = VISA_MOD_MKSUB(cdp_builtins[i].sub);
		vi->d = d;
		vi->a = a;
		vi->b = b;
		return true;
	}
	return false;
}
