/* SPDX-License-Identifier: GPL-2.0 */
/*
 * devrt.h - vGPU's device runtime (devrt.ptx), as libcuda links it into
 * device-linked programs and fills in its state.  See devrt.c.
 */
#ifndef VGPU_CUDA_DEVRT_H
#define VGPU_CUDA_DEVRT_H

#include <stddef.h>
#include <stdint.h>

#include "fatbin/fatbin.h"

#define CU_DEVRT_STATE_SYMBOL	"__vgpu_devrt_state"
#define CU_DEVRT_MAX_DEVICES	16
#define CU_DEVRT_NATTR		256	/* > every CUdevice_attribute */
/*
 * What device-side cudaRuntimeGetVersion() answers: the device runtime's
 * own version, not the toolkit's (an H100 with CUDA 13 answers 6000).
 */
#define CU_DEVRT_RUNTIME_VERSION 6000

/*
 * What the device runtime's functions read; devrt.ptx uses these
 * offsets (a test compiles it and checks the symbol's size).
 */
struct cu_devrt_state {
	int32_t device;			/* ordinal of the module's context */
	int32_t device_count;
	int32_t runtime_version;	/* CU_DEVRT_RUNTIME_VERSION */
	int32_t pending_launch_limit;	/* cudaLimitDevRuntimePendingLaunchCount
					 * when the module was loaded */
	uint8_t attr_valid[CU_DEVRT_NATTR];	/* answered on the device */
	int32_t attr[CU_DEVRT_MAX_DEVICES][CU_DEVRT_NATTR];
};

/* The PTX text of devrt.ptx, NUL-terminated (devrt_ptx.S). */
extern const char cu_devrt_ptx[];

/* Append a copy of the device runtime's PTX to @set as one more module. */
int cu_devrt_add_module(struct vgpu_fatbin_ptx_set *set);
/*
 * Add the device runtime to @set if a module of it calls one of the
 * device runtime's functions that nvcc uses without -rdc=true
 * (cudaGraphSetConditional) and it is not there yet.
 */
int cu_devrt_add_if_called(struct vgpu_fatbin_ptx_set *set);

/*
 * If the image's global segment @seg (@size bytes, about to be uploaded
 * for a module of the context on device @ordinal) holds the device
 * runtime's state, fill it in.
 */
void cu_devrt_fill_state(const struct visa_image_header *h, uint8_t *seg,
			 uint64_t size, unsigned int ordinal,
			 size_t pending_limit);

/*
 * What a name of NVIDIA's device runtime that this one does not define
 * does ("device-side kernel launch"), or NULL if @name is not one.
 */
const char *cu_devrt_missing(const char *name);

/*
 * After a failed link of the modules of @set: explain in @log (which
 * holds the compiler's message, @logsz bytes in all) why @symbol is
 * undefined, if the device runtime or a skipped object accounts for it.
 */
void cu_devrt_explain(const struct vgpu_fatbin_ptx_set *set,
		      const char *symbol, char *log, size_t logsz);

#endif /* VGPU_CUDA_DEVRT_H */
