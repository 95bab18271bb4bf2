// SPDX-License-Identifier: GPL-2.0
/*
 * devrt.c - vGPU's device runtime, in place of NVIDIA's libcudadevrt.
 *
 * A program built with -rdc=true is device-linked by nvcc with NVIDIA's
 * device runtime, libcudadevrt: the functions kernels call for
 * device-side cudaGetDevice(), cudaMalloc(), kernel launches (dynamic
 * parallelism) and the like.  That object carries machine code for
 * NVIDIA's GPUs and PTX only for the newest of them, so vGPU skips it
 * (umd/fatbin/fatbin_wrapper.c) and links its own, devrt.ptx, into every
 * device-linked program instead.  Its functions read the device
 * description that this file writes into the module's global segment
 * when the module is loaded.
 *
 * Not every function of NVIDIA's device runtime is there yet; the table
 * below lists the others, so that a program that needs one fails to load
 * with a message that names it, rather than with a bare "unresolved".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"
#include "devrt.h"

_Static_assert(CU_DEVICE_ATTRIBUTE_MAX <= CU_DEVRT_NATTR,
	       "the device runtime's attribute table is too small");
_Static_assert(sizeof(struct cu_devrt_state) == 16656,
	       "devrt.ptx declares __vgpu_devrt_state[16656]");

int cu_devrt_add_module(struct vgpu_fatbin_ptx_set *set)
{
	struct vgpu_fatbin_ptx m = {
		.text = strdup(cu_devrt_ptx),
		.sm_arch = 90,
		.isa_major = 8,
		.isa_minor = 0,
	};

	if (!m.text)
		return VGPU_FATBIN_ENOMEM;
	m.len = strlen(m.text);
	return vgpu_fatbin_ptx_set_append(set, &m);
}

int cu_devrt_add_if_called(struct vgpu_fatbin_ptx_set *set)
{
	bool called = false;
	size_t i;

	for (i = 0; i < set->count; i++) {
		if (!strcmp(set->modules[i].text, cu_devrt_ptx))
			return VGPU_FATBIN_OK;
		if (strstr(set->modules[i].text,
			   ".extern .func cudaGraphSetConditional"))
			called = true;
	}
	return called ? cu_devrt_add_module(set) : VGPU_FATBIN_OK;
}

/*
 * Whether device-side cudaDeviceGetAttribute() answers attribute @a.  It
 * is not the host's rule; an H100 (tools/cuda-probe/probe_devrt.cu)
 * answers every attribute below CU_DEVICE_ATTRIBUTE_MAX, those the host
 * refuses (0 and the holes of the enum) with 0, except the NUMA id,
 * which it refuses although the host answers it.
 */
static bool cu_devrt_attr_answered(int a)
{
	return a < CU_DEVICE_ATTRIBUTE_MAX && a != CU_DEVICE_ATTRIBUTE_NUMA_ID;
}

static void cu_devrt_describe(struct cu_devrt_state *st, unsigned int ordinal,
			      size_t pending_limit)
{
	int count = cu_device_count();

	memset(st, 0, sizeof(*st));
	st->pending_launch_limit = pending_limit > INT32_MAX ? INT32_MAX :
				   (int32_t)pending_limit;
	st->device = (int32_t)ordinal;
	st->device_count = count;
	st->runtime_version = CU_DEVRT_RUNTIME_VERSION;
	for (int a = 0; a < CU_DEVRT_NATTR; a++)
		st->attr_valid[a] = cu_devrt_attr_answered(a);
	for (int d = 0; d < count && d < CU_DEVRT_MAX_DEVICES; d++)
		for (int a = 0; a < CU_DEVRT_NATTR; a++) {
			int v;

			if (st->attr_valid[a] &&
			    cuDeviceGetAttribute(&v, (CUdevice_attribute)a,
						 d) == CUDA_SUCCESS)
				st->attr[d][a] = v;
		}
}

void cu_devrt_fill_state(const struct visa_image_header *h, uint8_t *seg,
			 uint64_t size, unsigned int ordinal,
			 size_t pending_limit)
{
	const struct visa_symbol *s = cu_visa_data_symbol(h,
							  CU_DEVRT_STATE_SYMBOL);
	struct cu_devrt_state st;

	/* the image was validated; a wrong size or place is not our PTX */
	if (!s || s->space != VISA_SPACE_GLOBAL || s->size != sizeof(st) ||
	    s->offset > size || size - s->offset < sizeof(st))
		return;
	cu_devrt_describe(&st, ordinal, pending_limit);
	memcpy(seg + s->offset, &st, sizeof(st));
}

/*
 * NVIDIA's device runtime functions that devrt.ptx does not define yet,
 * by what they do.  The _ptsz (per-thread default stream) variants are
 * matched by their base name.
 */
static const struct {
	const char *name;
	const char *what;
} cu_devrt_missing_table[] = {
	{ "__cudaCDP2StreamCreateWithFlags", "device-side streams (dynamic parallelism)" },
	{ "__cudaCDP2StreamDestroy", "device-side streams (dynamic parallelism)" },
	{ "__cudaCDP2StreamWaitEvent", "device-side events (dynamic parallelism)" },
	{ "__cudaCDP2EventCreateWithFlags", "device-side events (dynamic parallelism)" },
	{ "__cudaCDP2EventRecord", "device-side events (dynamic parallelism)" },
	{ "__cudaCDP2EventRecordWithFlags", "device-side events (dynamic parallelism)" },
	{ "__cudaCDP2EventDestroy", "device-side events (dynamic parallelism)" },
	{ "__cudaCDP2Malloc", "device-side cudaMalloc (the device heap)" },
	{ "__cudaCDP2Free", "device-side cudaFree (the device heap)" },
	{ "__cudaCDP2MemcpyAsync", "device-side asynchronous copies" },
	{ "__cudaCDP2Memcpy2DAsync", "device-side asynchronous copies" },
	{ "__cudaCDP2Memcpy3DAsync", "device-side asynchronous copies" },
	{ "__cudaCDP2MemsetAsync", "device-side asynchronous memset" },
	{ "__cudaCDP2Memset2DAsync", "device-side asynchronous memset" },
	{ "__cudaCDP2Memset3DAsync", "device-side asynchronous memset" },
	{ "__cudaCDP2DeviceGetLimit", "device-side limits" },
	{ "__cudaCDP2DeviceGetCacheConfig", "device-side cache configuration" },
	{ "__cudaCDP2DeviceGetSharedMemConfig", "device-side shared memory configuration" },
	{ "__cudaCDP2FuncGetAttributes", "device-side function attributes" },
	{ "__cudaCDP2OccupancyMaxActiveBlocksPerMultiprocessor", "device-side occupancy queries" },
	{ "__cudaCDP2OccupancyMaxActiveBlocksPerMultiprocessorWithFlags", "device-side occupancy queries" },
	{ "__cudaDeviceSynchronizeDeprecationAvoidance", "device-side cudaDeviceSynchronize (removed in CUDA 12)" },
};

const char *cu_devrt_missing(const char *name)
{
	size_t len;

	if (!name)
		return NULL;
	len = strlen(name);
	if (len > 5 && !strcmp(name + len - 5, "_ptsz"))
		len -= 5;
	for (size_t i = 0; i < sizeof(cu_devrt_missing_table) /
			       sizeof(cu_devrt_missing_table[0]); i++) {
		const char *n = cu_devrt_missing_table[i].name;

		if (strlen(n) == len && !strncmp(n, name, len))
			return cu_devrt_missing_table[i].what;
	}
	return NULL;
}

void cu_devrt_explain(const struct vgpu_fatbin_ptx_set *set,
		      const char *symbol, char *log, size_t logsz)
{
	const struct vgpu_fatbin_skipped *obj;
	size_t used = strnlen(log, logsz);
	const char *what;

	if (!symbol || !symbol[0] || used + 1 >= logsz)
		return;
	what = cu_devrt_missing(symbol);
	if (what) {
		snprintf(log + used, logsz - used,
			 " (%s: part of CUDA's device runtime that vGPU's does not provide yet)",
			 what);
		return;
	}
	obj = vgpu_fatbin_skipped_defining(set, symbol);
	if (obj)
		snprintf(log + used, logsz - used,
			 " (defined only in relocatable object %u of the program, which has no PTX this device can compile: %s)",
			 obj->object, obj->contents);
}
