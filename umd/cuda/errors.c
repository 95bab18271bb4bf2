// SPDX-License-Identifier: GPL-2.0
/*
 * errors.c - cuGetErrorName / cuGetErrorString, and how vGPU failures
 * become CUDA errors.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>

#include "cuda_internal.h"

struct cu_error_text {
	CUresult code;
	const char *name;
	const char *text;
};

#define E(code, text) { code, #code, text }

static const struct cu_error_text cu_errors[] = {
	E(CUDA_SUCCESS, "no error"),
	E(CUDA_ERROR_INVALID_VALUE, "invalid argument"),
	E(CUDA_ERROR_OUT_OF_MEMORY, "out of memory"),
	E(CUDA_ERROR_NOT_INITIALIZED, "initialization error"),
	E(CUDA_ERROR_DEINITIALIZED, "driver shutting down"),
	E(CUDA_ERROR_PROFILER_DISABLED, "profiler disabled"),
	E(CUDA_ERROR_PROFILER_NOT_INITIALIZED, "profiler not initialized"),
	E(CUDA_ERROR_PROFILER_ALREADY_STARTED, "profiler already started"),
	E(CUDA_ERROR_PROFILER_ALREADY_STOPPED, "profiler already stopped"),
	E(CUDA_ERROR_STUB_LIBRARY, "stub library"),
	E(CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER, "call requires newer driver"),
	E(CUDA_ERROR_DEVICE_UNAVAILABLE, "CUDA-capable device(s) is/are busy or unavailable"),
	E(CUDA_ERROR_NO_DEVICE, "no CUDA-capable device is detected"),
	E(CUDA_ERROR_INVALID_DEVICE, "invalid device ordinal"),
	E(CUDA_ERROR_DEVICE_NOT_LICENSED, "device not licensed"),
	E(CUDA_ERROR_INVALID_IMAGE, "device kernel image is invalid"),
	E(CUDA_ERROR_INVALID_CONTEXT, "invalid device context"),
	E(CUDA_ERROR_CONTEXT_ALREADY_CURRENT, "context already current"),
	E(CUDA_ERROR_MAP_FAILED, "map failed"),
	E(CUDA_ERROR_UNMAP_FAILED, "unmap failed"),
	E(CUDA_ERROR_ARRAY_IS_MAPPED, "array is mapped"),
	E(CUDA_ERROR_ALREADY_MAPPED, "already mapped"),
	E(CUDA_ERROR_NO_BINARY_FOR_GPU, "no kernel image is available for execution on the device"),
	E(CUDA_ERROR_ALREADY_ACQUIRED, "already acquired"),
	E(CUDA_ERROR_NOT_MAPPED, "not mapped"),
	E(CUDA_ERROR_NOT_MAPPED_AS_ARRAY, "not mapped as array"),
	E(CUDA_ERROR_NOT_MAPPED_AS_POINTER, "not mapped as pointer"),
	E(CUDA_ERROR_ECC_UNCORRECTABLE, "ecc uncorrectable"),
	E(CUDA_ERROR_UNSUPPORTED_LIMIT, "unsupported limit"),
	E(CUDA_ERROR_CONTEXT_ALREADY_IN_USE, "context already in use"),
	E(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED, "peer access unsupported"),
	E(CUDA_ERROR_INVALID_PTX, "a PTX JIT compilation failed"),
	E(CUDA_ERROR_INVALID_GRAPHICS_CONTEXT, "invalid graphics context"),
	E(CUDA_ERROR_NVLINK_UNCORRECTABLE, "nvlink uncorrectable"),
	E(CUDA_ERROR_JIT_COMPILER_NOT_FOUND, "jit compiler not found"),
	E(CUDA_ERROR_UNSUPPORTED_PTX_VERSION, "the provided PTX was compiled with an unsupported toolchain"),
	E(CUDA_ERROR_JIT_COMPILATION_DISABLED, "jit compilation disabled"),
	E(CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY, "unsupported exec affinity"),
	E(CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC, "unsupported devside sync"),
	E(CUDA_ERROR_CONTAINED, "contained"),
	E(CUDA_ERROR_INVALID_SOURCE, "invalid source"),
	E(CUDA_ERROR_FILE_NOT_FOUND, "file not found"),
	E(CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND, "shared object symbol not found"),
	E(CUDA_ERROR_SHARED_OBJECT_INIT_FAILED, "shared object init failed"),
	E(CUDA_ERROR_OPERATING_SYSTEM, "operating system"),
	E(CUDA_ERROR_INVALID_HANDLE, "invalid resource handle"),
	E(CUDA_ERROR_ILLEGAL_STATE, "illegal state"),
	E(CUDA_ERROR_LOSSY_QUERY, "lossy query"),
	E(CUDA_ERROR_NOT_FOUND, "named symbol not found"),
	E(CUDA_ERROR_NOT_READY, "device not ready"),
	E(CUDA_ERROR_ILLEGAL_ADDRESS, "an illegal memory access was encountered"),
	E(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "too many resources requested for launch"),
	E(CUDA_ERROR_LAUNCH_TIMEOUT, "the launch timed out and was terminated"),
	E(CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING, "launch incompatible texturing"),
	E(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, "peer access already enabled"),
	E(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, "peer access not enabled"),
	E(CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE, "primary context active"),
	E(CUDA_ERROR_CONTEXT_IS_DESTROYED, "context is destroyed"),
	E(CUDA_ERROR_ASSERT, "device-side assert triggered"),
	E(CUDA_ERROR_TOO_MANY_PEERS, "too many peers"),
	E(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "part or all of the requested memory range is already mapped"),
	E(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, "pointer does not correspond to a registered memory region"),
	E(CUDA_ERROR_HARDWARE_STACK_ERROR, "hardware stack error"),
	E(CUDA_ERROR_ILLEGAL_INSTRUCTION, "an illegal instruction was encountered"),
	E(CUDA_ERROR_MISALIGNED_ADDRESS, "misaligned address"),
	E(CUDA_ERROR_INVALID_ADDRESS_SPACE, "invalid address space"),
	E(CUDA_ERROR_INVALID_PC, "invalid pc"),
	E(CUDA_ERROR_LAUNCH_FAILED, "unspecified launch failure"),
	E(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, "cooperative launch too large"),
	E(CUDA_ERROR_TENSOR_MEMORY_LEAK, "tensor memory leak"),
	E(CUDA_ERROR_NOT_PERMITTED, "not permitted"),
	E(CUDA_ERROR_NOT_SUPPORTED, "not supported"),
	E(CUDA_ERROR_SYSTEM_NOT_READY, "system not ready"),
	E(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH, "system driver mismatch"),
	E(CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE, "compat not supported on device"),
	E(CUDA_ERROR_MPS_CONNECTION_FAILED, "mps connection failed"),
	E(CUDA_ERROR_MPS_RPC_FAILURE, "mps rpc failure"),
	E(CUDA_ERROR_MPS_SERVER_NOT_READY, "mps server not ready"),
	E(CUDA_ERROR_MPS_MAX_CLIENTS_REACHED, "mps max clients reached"),
	E(CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED, "mps max connections reached"),
	E(CUDA_ERROR_MPS_CLIENT_TERMINATED, "mps client terminated"),
	E(CUDA_ERROR_CDP_NOT_SUPPORTED, "cdp not supported"),
	E(CUDA_ERROR_CDP_VERSION_MISMATCH, "cdp version mismatch"),
	E(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, "stream capture unsupported"),
	E(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, "stream capture invalidated"),
	E(CUDA_ERROR_STREAM_CAPTURE_MERGE, "stream capture merge"),
	E(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED, "stream capture unmatched"),
	E(CUDA_ERROR_STREAM_CAPTURE_UNJOINED, "stream capture unjoined"),
	E(CUDA_ERROR_STREAM_CAPTURE_ISOLATION, "stream capture isolation"),
	E(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT, "stream capture implicit"),
	E(CUDA_ERROR_CAPTURED_EVENT, "captured event"),
	E(CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD, "stream capture wrong thread"),
	E(CUDA_ERROR_TIMEOUT, "timeout"),
	E(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE, "graph exec update failure"),
	E(CUDA_ERROR_EXTERNAL_DEVICE, "external device"),
	E(CUDA_ERROR_INVALID_CLUSTER_SIZE, "invalid cluster size"),
	E(CUDA_ERROR_FUNCTION_NOT_LOADED, "function not loaded"),
	E(CUDA_ERROR_INVALID_RESOURCE_TYPE, "invalid resource type"),
	E(CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION, "invalid resource configuration"),
	E(CUDA_ERROR_KEY_ROTATION, "key rotation"),
	E(CUDA_ERROR_UNKNOWN, "unknown error"),
};

static const struct cu_error_text *cu_error_find(CUresult code)
{
	size_t i;

	for (i = 0; i < sizeof(cu_errors) / sizeof(cu_errors[0]); i++)
		if (cu_errors[i].code == code)
			return &cu_errors[i];
	return NULL;
}

CU_EXPORT CUresult CUDAAPI cuGetErrorName(CUresult error, const char **pStr)
{
	const struct cu_error_text *e = cu_error_find(error);

	if (!pStr)
		return CUDA_ERROR_INVALID_VALUE;
	*pStr = e ? e->name : NULL;
	return e ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CU_EXPORT CUresult CUDAAPI cuGetErrorString(CUresult error, const char **pStr)
{
	const struct cu_error_text *e = cu_error_find(error);

	if (!pStr)
		return CUDA_ERROR_INVALID_VALUE;
	*pStr = e ? e->text : NULL;
	return e ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cu_from_errno(int err)
{
	switch (err) {
	case 0:
		return CUDA_SUCCESS;
	case -ENOMEM:
	case -ENOSPC:	/* VRAM or GART full */
	case -EDQUOT:	/* the user's share of the device is used up */
		return CUDA_ERROR_OUT_OF_MEMORY;
	case -ENODEV:
		return CUDA_ERROR_DEVICE_UNAVAILABLE;
	case -ETIME:
	case -ETIMEDOUT:
		return CUDA_ERROR_LAUNCH_TIMEOUT;
	case -EPERM:
	case -EACCES:
		return CUDA_ERROR_NOT_PERMITTED;
	case -EINVAL:
	case -EFAULT:
	case -ENOENT:
	case -EEXIST:
		return CUDA_ERROR_INVALID_VALUE;
	default:
		return CUDA_ERROR_UNKNOWN;
	}
}

/*
 * A dead context's fault record, as the CUDA error real hardware gives
 * for the same event.  Device loss wins: nothing will run again.
 */
CUresult cu_from_fault(const struct vgpu_ctx_status *st)
{
	if (st->state & VGPU_CTX_STATE_LOST)
		return CUDA_ERROR_DEVICE_UNAVAILABLE;
	switch (st->fault.kind) {
	case VGPU_FAULT_MMU_UNMAPPED:
	case VGPU_FAULT_MMU_PERMISSION:
	case VGPU_FAULT_OUT_OF_RANGE:	/* shared/local: no MMU, same error */
		return CUDA_ERROR_ILLEGAL_ADDRESS;
	case VGPU_FAULT_MISALIGNED:
		return CUDA_ERROR_MISALIGNED_ADDRESS;
	case VGPU_FAULT_ILLEGAL_INSTRUCTION:
		return CUDA_ERROR_ILLEGAL_INSTRUCTION;
	case VGPU_FAULT_ASSERT:
		return CUDA_ERROR_ASSERT;
	case VGPU_FAULT_STACK_OVERFLOW:
		return CUDA_ERROR_HARDWARE_STACK_ERROR;
	case VGPU_FAULT_WATCHDOG:
		return CUDA_ERROR_LAUNCH_TIMEOUT;
	case VGPU_FAULT_TRAP:		/* __trap(), brkpt without a debugger */
	case VGPU_FAULT_BARRIER:
	case VGPU_FAULT_BAD_PACKET:
	default:
		return CUDA_ERROR_LAUNCH_FAILED;
	}
}

/*
 * What the user must see of a fault: CUDA prints a failed device assert's
 * "file:line: function: block: [..], thread: [..] Assertion `..` failed."
 * on stderr, once per failing thread, when the host next synchronizes.
 * The engine left those lines in the printf FIFO (@assert_lines of them
 * were printed); when the FIFO had no room for any, the fault record's
 * copy of the first one is printed instead.
 */
void cu_report_fault(const struct vgpu_ctx_status *st,
		     unsigned int assert_lines)
{
	if (st->fault.kind == VGPU_FAULT_ASSERT && !assert_lines &&
	    st->fault.message[0])
		fprintf(stderr, "%.*s\n", (int)sizeof(st->fault.message),
			st->fault.message);
}
