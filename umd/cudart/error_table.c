// SPDX-License-Identifier: GPL-2.0
/*
 * Names and descriptions of the runtime's error codes: cudaGetErrorName()
 * and cudaGetErrorString().
 *
 * The codes and names are the toolkit's (driver_types.h); a test checks
 * that every name here compiles to the value it stands for.  The short
 * descriptions of the common errors are the ones programs and users are
 * used to seeing from CUDA; the rarer ones are described in our words.
 */
#include "cudart_internal.h"

struct rt_error_text {
	cudaError_t code;
	const char *name;
	const char *text;
};

#define E(code, text) { code, #code, text }

static const struct rt_error_text rt_errors[] = {
	E(cudaSuccess, "no error"),
	E(cudaErrorInvalidValue, "invalid argument"),
	E(cudaErrorMemoryAllocation, "out of memory"),
	E(cudaErrorInitializationError, "initialization error"),
	E(cudaErrorCudartUnloading, "driver shutting down"),
	E(cudaErrorProfilerDisabled, "profiler disabled while using external profiling tool"),
	E(cudaErrorProfilerNotInitialized, "profiler not initialized"),
	E(cudaErrorProfilerAlreadyStarted, "profiler already started"),
	E(cudaErrorProfilerAlreadyStopped, "profiler already stopped"),
	E(cudaErrorInvalidConfiguration, "invalid configuration argument"),
	E(cudaErrorInvalidPitchValue, "invalid pitch argument"),
	E(cudaErrorInvalidSymbol, "invalid device symbol"),
	E(cudaErrorInvalidHostPointer, "invalid host pointer"),
	E(cudaErrorInvalidDevicePointer, "invalid device pointer"),
	E(cudaErrorInvalidTexture, "invalid texture reference"),
	E(cudaErrorInvalidTextureBinding, "texture is not bound to a pointer"),
	E(cudaErrorInvalidChannelDescriptor, "invalid channel descriptor"),
	E(cudaErrorInvalidMemcpyDirection, "invalid copy direction for memcpy"),
	E(cudaErrorAddressOfConstant, "the address of a constant variable was taken"),
	E(cudaErrorTextureFetchFailed, "texture fetch failed"),
	E(cudaErrorTextureNotBound, "texture not bound"),
	E(cudaErrorSynchronizationError, "synchronization failed"),
	E(cudaErrorInvalidFilterSetting, "invalid texture filter setting"),
	E(cudaErrorInvalidNormSetting, "invalid texture normalization setting"),
	E(cudaErrorMixedDeviceExecution, "mixed device execution"),
	E(cudaErrorNotYetImplemented, "feature not yet implemented"),
	E(cudaErrorMemoryValueTooLarge, "memory size or pointer value too large to fit in 32 bit"),
	E(cudaErrorStubLibrary, "CUDA driver is a stub library"),
	E(cudaErrorInsufficientDriver, "CUDA driver version is insufficient for CUDA runtime version"),
	E(cudaErrorCallRequiresNewerDriver, "the call requires a newer CUDA driver"),
	E(cudaErrorInvalidSurface, "invalid surface reference"),
	E(cudaErrorDuplicateVariableName, "duplicate global variable looked up by string name"),
	E(cudaErrorDuplicateTextureName, "duplicate texture looked up by string name"),
	E(cudaErrorDuplicateSurfaceName, "duplicate surface looked up by string name"),
	E(cudaErrorDevicesUnavailable, "CUDA-capable device(s) is/are busy or unavailable"),
	E(cudaErrorIncompatibleDriverContext, "the driver context is incompatible with the runtime"),
	E(cudaErrorMissingConfiguration, "launch configuration missing (no <<<>>> before the launch)"),
	E(cudaErrorPriorLaunchFailure, "a previous launch failed"),
	E(cudaErrorLaunchMaxDepthExceeded, "device-side launch nesting too deep"),
	E(cudaErrorLaunchFileScopedTex, "file-scoped textures are not supported by device-side launches"),
	E(cudaErrorLaunchFileScopedSurf, "file-scoped surfaces are not supported by device-side launches"),
	E(cudaErrorSyncDepthExceeded, "device-side synchronization nesting too deep"),
	E(cudaErrorLaunchPendingCountExceeded, "too many pending device-side launches"),
	E(cudaErrorInvalidDeviceFunction, "invalid device function"),
	E(cudaErrorNoDevice, "no CUDA-capable device is detected"),
	E(cudaErrorInvalidDevice, "invalid device ordinal"),
	E(cudaErrorDeviceNotLicensed, "device does not have a valid license"),
	E(cudaErrorSoftwareValidityNotEstablished, "software integrity check failed"),
	E(cudaErrorStartupFailure, "runtime start-up failed"),
	E(cudaErrorInvalidKernelImage, "device kernel image is invalid"),
	E(cudaErrorDeviceUninitialized, "invalid device context"),
	E(cudaErrorMapBufferObjectFailed, "mapping of buffer object failed"),
	E(cudaErrorUnmapBufferObjectFailed, "unmapping of buffer object failed"),
	E(cudaErrorArrayIsMapped, "array is mapped"),
	E(cudaErrorAlreadyMapped, "resource already mapped"),
	E(cudaErrorNoKernelImageForDevice, "no kernel image is available for execution on the device"),
	E(cudaErrorAlreadyAcquired, "resource already acquired"),
	E(cudaErrorNotMapped, "resource not mapped"),
	E(cudaErrorNotMappedAsArray, "resource not mapped as array"),
	E(cudaErrorNotMappedAsPointer, "resource not mapped as pointer"),
	E(cudaErrorECCUncorrectable, "uncorrectable ECC error encountered"),
	E(cudaErrorUnsupportedLimit, "limit is not supported on this device"),
	E(cudaErrorDeviceAlreadyInUse, "the device is already in use by another thread"),
	E(cudaErrorPeerAccessUnsupported, "peer access is not supported between these two devices"),
	E(cudaErrorInvalidPtx, "a PTX JIT compilation failed"),
	E(cudaErrorInvalidGraphicsContext, "invalid graphics context"),
	E(cudaErrorNvlinkUncorrectable, "uncorrectable NVLink error detected"),
	E(cudaErrorJitCompilerNotFound, "PTX JIT compiler not found"),
	E(cudaErrorUnsupportedPtxVersion, "the PTX was compiled with an unsupported toolchain"),
	E(cudaErrorJitCompilationDisabled, "PTX JIT compilation is disabled"),
	E(cudaErrorUnsupportedExecAffinity, "the execution affinity is not supported"),
	E(cudaErrorUnsupportedDevSideSync, "device-side synchronization is not supported"),
	E(cudaErrorContained, "a contained error occurred on the device"),
	E(cudaErrorInvalidSource, "device kernel source is invalid"),
	E(cudaErrorFileNotFound, "file not found"),
	E(cudaErrorSharedObjectSymbolNotFound, "shared object symbol not found"),
	E(cudaErrorSharedObjectInitFailed, "shared object initialization failed"),
	E(cudaErrorOperatingSystem, "OS call failed or operation not supported on this OS"),
	E(cudaErrorInvalidResourceHandle, "invalid resource handle"),
	E(cudaErrorIllegalState, "the operation is not valid in the current state"),
	E(cudaErrorLossyQuery, "the attribute query would lose information"),
	E(cudaErrorSymbolNotFound, "named symbol not found"),
	E(cudaErrorNotReady, "device not ready"),
	E(cudaErrorIllegalAddress, "an illegal memory access was encountered"),
	E(cudaErrorLaunchOutOfResources, "too many resources requested for launch"),
	E(cudaErrorLaunchTimeout, "the launch timed out and was terminated"),
	E(cudaErrorLaunchIncompatibleTexturing, "launch uses incompatible texturing mode"),
	E(cudaErrorPeerAccessAlreadyEnabled, "peer access is already enabled"),
	E(cudaErrorPeerAccessNotEnabled, "peer access has not been enabled"),
	E(cudaErrorSetOnActiveProcess, "cannot set while device is active in this process"),
	E(cudaErrorContextIsDestroyed, "context is destroyed"),
	E(cudaErrorAssert, "device-side assert triggered"),
	E(cudaErrorTooManyPeers, "peer mapping resources exhausted"),
	E(cudaErrorHostMemoryAlreadyRegistered, "part or all of the requested memory range is already mapped"),
	E(cudaErrorHostMemoryNotRegistered, "pointer does not correspond to a registered memory region"),
	E(cudaErrorHardwareStackError, "hardware stack error"),
	E(cudaErrorIllegalInstruction, "an illegal instruction was encountered"),
	E(cudaErrorMisalignedAddress, "misaligned address"),
	E(cudaErrorInvalidAddressSpace, "operation not supported on global/shared address space"),
	E(cudaErrorInvalidPc, "invalid program counter"),
	E(cudaErrorLaunchFailure, "unspecified launch failure"),
	E(cudaErrorCooperativeLaunchTooLarge, "too many blocks in cooperative launch"),
	E(cudaErrorTensorMemoryLeak, "tensor memory not deallocated"),
	E(cudaErrorNotPermitted, "operation not permitted"),
	E(cudaErrorNotSupported, "operation not supported"),
	E(cudaErrorSystemNotReady, "system not yet initialized"),
	E(cudaErrorSystemDriverMismatch, "system has unsupported display driver / cuda driver combination"),
	E(cudaErrorCompatNotSupportedOnDevice, "forward compatibility was attempted on non supported HW"),
	E(cudaErrorMpsConnectionFailed, "MPS client failed to connect to the MPS control daemon or the MPS server"),
	E(cudaErrorMpsRpcFailure, "the remote procedural call between the MPS server and the MPS client failed"),
	E(cudaErrorMpsServerNotReady, "MPS server is not ready to accept new MPS client requests"),
	E(cudaErrorMpsMaxClientsReached, "the hardware resources required to create MPS client have been exhausted"),
	E(cudaErrorMpsMaxConnectionsReached, "the hardware resources required to support device connections have been exhausted"),
	E(cudaErrorMpsClientTerminated, "the MPS client has been terminated by the server"),
	E(cudaErrorCdpNotSupported, "device-side launches are not supported on this device"),
	E(cudaErrorCdpVersionMismatch, "device-side launch code of different versions was mixed"),
	E(cudaErrorStreamCaptureUnsupported, "operation not permitted when stream is capturing"),
	E(cudaErrorStreamCaptureInvalidated, "operation failed due to a previous error during capture"),
	E(cudaErrorStreamCaptureMerge, "operation would result in a merge of separate capture sequences"),
	E(cudaErrorStreamCaptureUnmatched, "capture was not ended in the same stream as it began"),
	E(cudaErrorStreamCaptureUnjoined, "capturing stream has unjoined work"),
	E(cudaErrorStreamCaptureIsolation, "dependency created on uncaptured work in another stream"),
	E(cudaErrorStreamCaptureImplicit, "operation would make the legacy stream depend on a capturing blocking stream"),
	E(cudaErrorCapturedEvent, "operation not permitted on an event last recorded in a capturing stream"),
	E(cudaErrorStreamCaptureWrongThread, "attempt to terminate a thread-local capture sequence from another thread"),
	E(cudaErrorTimeout, "wait operation timed out"),
	E(cudaErrorGraphExecUpdateFailure, "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update"),
	E(cudaErrorExternalDevice, "an async error has occurred in an external entity outside of CUDA"),
	E(cudaErrorInvalidClusterSize, "a kernel launch error has occurred due to cluster misconfiguration"),
	E(cudaErrorFunctionNotLoaded, "the function handle is not loaded"),
	E(cudaErrorInvalidResourceType, "invalid resource type"),
	E(cudaErrorInvalidResourceConfiguration, "invalid resource configuration"),
	E(cudaErrorUnknown, "unknown error"),
};

#undef E

/* What CUDA answers for a code it does not know, both name and text. */
static const char rt_unrecognized[] = "unrecognized error code";

static const struct rt_error_text *rt_error_find(cudaError_t err)
{
	size_t lo = 0, hi = sizeof(rt_errors) / sizeof(rt_errors[0]);

	/* The table is sorted by code: binary search. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (rt_errors[mid].code == err)
			return &rt_errors[mid];
		if ((int)rt_errors[mid].code < (int)err)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *rt_error_name(cudaError_t err)
{
	const struct rt_error_text *e = rt_error_find(err);

	return e ? e->name : NULL;
}

const char *cudaGetErrorName(cudaError_t error)
{
	const char *name = rt_error_name(error);

	return name ? name : rt_unrecognized;
}

const char *cudaGetErrorString(cudaError_t error)
{
	const struct rt_error_text *e = rt_error_find(error);

	return e ? e->text : rt_unrecognized;
}
