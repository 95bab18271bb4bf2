// SPDX-License-Identifier: GPL-2.0
/*
 * The runtime's error codes: names, descriptions, the translation of
 * driver results, and the per-thread last-error state.  No device needed:
 * these are the parts of libcudart that work before any driver call.
 */
#include <pthread.h>
#include <string.h>

#include "kselftest_harness.h"
#include "cudart_internal.h"

struct named_error {
	cudaError_t code;
	const char *name;
};

#define E(code) { code, #code }

/* Every code of the toolkit's enum cudaError (driver_types.h, CUDA 13.0). */
static const struct named_error toolkit_errors[] = {
	E(cudaSuccess),
	E(cudaErrorInvalidValue),
	E(cudaErrorMemoryAllocation),
	E(cudaErrorInitializationError),
	E(cudaErrorCudartUnloading),
	E(cudaErrorProfilerDisabled),
	E(cudaErrorProfilerNotInitialized),
	E(cudaErrorProfilerAlreadyStarted),
	E(cudaErrorProfilerAlreadyStopped),
	E(cudaErrorInvalidConfiguration),
	E(cudaErrorInvalidPitchValue),
	E(cudaErrorInvalidSymbol),
	E(cudaErrorInvalidHostPointer),
	E(cudaErrorInvalidDevicePointer),
	E(cudaErrorInvalidTexture),
	E(cudaErrorInvalidTextureBinding),
	E(cudaErrorInvalidChannelDescriptor),
	E(cudaErrorInvalidMemcpyDirection),
	E(cudaErrorAddressOfConstant),
	E(cudaErrorTextureFetchFailed),
	E(cudaErrorTextureNotBound),
	E(cudaErrorSynchronizationError),
	E(cudaErrorInvalidFilterSetting),
	E(cudaErrorInvalidNormSetting),
	E(cudaErrorMixedDeviceExecution),
	E(cudaErrorNotYetImplemented),
	E(cudaErrorMemoryValueTooLarge),
	E(cudaErrorStubLibrary),
	E(cudaErrorInsufficientDriver),
	E(cudaErrorCallRequiresNewerDriver),
	E(cudaErrorInvalidSurface),
	E(cudaErrorDuplicateVariableName),
	E(cudaErrorDuplicateTextureName),
	E(cudaErrorDuplicateSurfaceName),
	E(cudaErrorDevicesUnavailable),
	E(cudaErrorIncompatibleDriverContext),
	E(cudaErrorMissingConfiguration),
	E(cudaErrorPriorLaunchFailure),
	E(cudaErrorLaunchMaxDepthExceeded),
	E(cudaErrorLaunchFileScopedTex),
	E(cudaErrorLaunchFileScopedSurf),
	E(cudaErrorSyncDepthExceeded),
	E(cudaErrorLaunchPendingCountExceeded),
	E(cudaErrorInvalidDeviceFunction),
	E(cudaErrorNoDevice),
	E(cudaErrorInvalidDevice),
	E(cudaErrorDeviceNotLicensed),
	E(cudaErrorSoftwareValidityNotEstablished),
	E(cudaErrorStartupFailure),
	E(cudaErrorInvalidKernelImage),
	E(cudaErrorDeviceUninitialized),
	E(cudaErrorMapBufferObjectFailed),
	E(cudaErrorUnmapBufferObjectFailed),
	E(cudaErrorArrayIsMapped),
	E(cudaErrorAlreadyMapped),
	E(cudaErrorNoKernelImageForDevice),
	E(cudaErrorAlreadyAcquired),
	E(cudaErrorNotMapped),
	E(cudaErrorNotMappedAsArray),
	E(cudaErrorNotMappedAsPointer),
	E(cudaErrorECCUncorrectable),
	E(cudaErrorUnsupportedLimit),
	E(cudaErrorDeviceAlreadyInUse),
	E(cudaErrorPeerAccessUnsupported),
	E(cudaErrorInvalidPtx),
	E(cudaErrorInvalidGraphicsContext),
	E(cudaErrorNvlinkUncorrectable),
	E(cudaErrorJitCompilerNotFound),
	E(cudaErrorUnsupportedPtxVersion),
	E(cudaErrorJitCompilationDisabled),
	E(cudaErrorUnsupportedExecAffinity),
	E(cudaErrorUnsupportedDevSideSync),
	E(cudaErrorContained),
	E(cudaErrorInvalidSource),
	E(cudaErrorFileNotFound),
	E(cudaErrorSharedObjectSymbolNotFound),
	E(cudaErrorSharedObjectInitFailed),
	E(cudaErrorOperatingSystem),
	E(cudaErrorInvalidResourceHandle),
	E(cudaErrorIllegalState),
	E(cudaErrorLossyQuery),
	E(cudaErrorSymbolNotFound),
	E(cudaErrorNotReady),
	E(cudaErrorIllegalAddress),
	E(cudaErrorLaunchOutOfResources),
	E(cudaErrorLaunchTimeout),
	E(cudaErrorLaunchIncompatibleTexturing),
	E(cudaErrorPeerAccessAlreadyEnabled),
	E(cudaErrorPeerAccessNotEnabled),
	E(cudaErrorSetOnActiveProcess),
	E(cudaErrorContextIsDestroyed),
	E(cudaErrorAssert),
	E(cudaErrorTooManyPeers),
	E(cudaErrorHostMemoryAlreadyRegistered),
	E(cudaErrorHostMemoryNotRegistered),
	E(cudaErrorHardwareStackError),
	E(cudaErrorIllegalInstruction),
	E(cudaErrorMisalignedAddress),
	E(cudaErrorInvalidAddressSpace),
	E(cudaErrorInvalidPc),
	E(cudaErrorLaunchFailure),
	E(cudaErrorCooperativeLaunchTooLarge),
	E(cudaErrorTensorMemoryLeak),
	E(cudaErrorNotPermitted),
	E(cudaErrorNotSupported),
	E(cudaErrorSystemNotReady),
	E(cudaErrorSystemDriverMismatch),
	E(cudaErrorCompatNotSupportedOnDevice),
	E(cudaErrorMpsConnectionFailed),
	E(cudaErrorMpsRpcFailure),
	E(cudaErrorMpsServerNotReady),
	E(cudaErrorMpsMaxClientsReached),
	E(cudaErrorMpsMaxConnectionsReached),
	E(cudaErrorMpsClientTerminated),
	E(cudaErrorCdpNotSupported),
	E(cudaErrorCdpVersionMismatch),
	E(cudaErrorStreamCaptureUnsupported),
	E(cudaErrorStreamCaptureInvalidated),
	E(cudaErrorStreamCaptureMerge),
	E(cudaErrorStreamCaptureUnmatched),
	E(cudaErrorStreamCaptureUnjoined),
	E(cudaErrorStreamCaptureIsolation),
	E(cudaErrorStreamCaptureImplicit),
	E(cudaErrorCapturedEvent),
	E(cudaErrorStreamCaptureWrongThread),
	E(cudaErrorTimeout),
	E(cudaErrorGraphExecUpdateFailure),
	E(cudaErrorExternalDevice),
	E(cudaErrorInvalidClusterSize),
	E(cudaErrorFunctionNotLoaded),
	E(cudaErrorInvalidResourceType),
	E(cudaErrorInvalidResourceConfiguration),
	E(cudaErrorUnknown),
};

#undef E

/* Every CUresult of the toolkit's cuda.h. */
static const CUresult driver_results[] = {
	CUDA_SUCCESS,
	CUDA_ERROR_INVALID_VALUE,
	CUDA_ERROR_OUT_OF_MEMORY,
	CUDA_ERROR_NOT_INITIALIZED,
	CUDA_ERROR_DEINITIALIZED,
	CUDA_ERROR_PROFILER_DISABLED,
	CUDA_ERROR_PROFILER_NOT_INITIALIZED,
	CUDA_ERROR_PROFILER_ALREADY_STARTED,
	CUDA_ERROR_PROFILER_ALREADY_STOPPED,
	CUDA_ERROR_STUB_LIBRARY,
	CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER,
	CUDA_ERROR_DEVICE_UNAVAILABLE,
	CUDA_ERROR_NO_DEVICE,
	CUDA_ERROR_INVALID_DEVICE,
	CUDA_ERROR_DEVICE_NOT_LICENSED,
	CUDA_ERROR_INVALID_IMAGE,
	CUDA_ERROR_INVALID_CONTEXT,
	CUDA_ERROR_CONTEXT_ALREADY_CURRENT,
	CUDA_ERROR_MAP_FAILED,
	CUDA_ERROR_UNMAP_FAILED,
	CUDA_ERROR_ARRAY_IS_MAPPED,
	CUDA_ERROR_ALREADY_MAPPED,
	CUDA_ERROR_NO_BINARY_FOR_GPU,
	CUDA_ERROR_ALREADY_ACQUIRED,
	CUDA_ERROR_NOT_MAPPED,
	CUDA_ERROR_NOT_MAPPED_AS_ARRAY,
	CUDA_ERROR_NOT_MAPPED_AS_POINTER,
	CUDA_ERROR_ECC_UNCORRECTABLE,
	CUDA_ERROR_UNSUPPORTED_LIMIT,
	CUDA_ERROR_CONTEXT_ALREADY_IN_USE,
	CUDA_ERROR_PEER_ACCESS_UNSUPPORTED,
	CUDA_ERROR_INVALID_PTX,
	CUDA_ERROR_INVALID_GRAPHICS_CONTEXT,
	CUDA_ERROR_NVLINK_UNCORRECTABLE,
	CUDA_ERROR_JIT_COMPILER_NOT_FOUND,
	CUDA_ERROR_UNSUPPORTED_PTX_VERSION,
	CUDA_ERROR_JIT_COMPILATION_DISABLED,
	CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY,
	CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC,
	CUDA_ERROR_CONTAINED,
	CUDA_ERROR_INVALID_SOURCE,
	CUDA_ERROR_FILE_NOT_FOUND,
	CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND,
	CUDA_ERROR_SHARED_OBJECT_INIT_FAILED,
	CUDA_ERROR_OPERATING_SYSTEM,
	CUDA_ERROR_INVALID_HANDLE,
	CUDA_ERROR_ILLEGAL_STATE,
	CUDA_ERROR_LOSSY_QUERY,
	CUDA_ERROR_NOT_FOUND,
	CUDA_ERROR_NOT_READY,
	CUDA_ERROR_ILLEGAL_ADDRESS,
	CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES,
	CUDA_ERROR_LAUNCH_TIMEOUT,
	CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING,
	CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED,
	CUDA_ERROR_PEER_ACCESS_NOT_ENABLED,
	CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE,
	CUDA_ERROR_CONTEXT_IS_DESTROYED,
	CUDA_ERROR_ASSERT,
	CUDA_ERROR_TOO_MANY_PEERS,
	CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
	CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED,
	CUDA_ERROR_HARDWARE_STACK_ERROR,
	CUDA_ERROR_ILLEGAL_INSTRUCTION,
	CUDA_ERROR_MISALIGNED_ADDRESS,
	CUDA_ERROR_INVALID_ADDRESS_SPACE,
	CUDA_ERROR_INVALID_PC,
	CUDA_ERROR_LAUNCH_FAILED,
	CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE,
	CUDA_ERROR_TENSOR_MEMORY_LEAK,
	CUDA_ERROR_NOT_PERMITTED,
	CUDA_ERROR_NOT_SUPPORTED,
	CUDA_ERROR_SYSTEM_NOT_READY,
	CUDA_ERROR_SYSTEM_DRIVER_MISMATCH,
	CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE,
	CUDA_ERROR_MPS_CONNECTION_FAILED,
	CUDA_ERROR_MPS_RPC_FAILURE,
	CUDA_ERROR_MPS_SERVER_NOT_READY,
	CUDA_ERROR_MPS_MAX_CLIENTS_REACHED,
	CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED,
	CUDA_ERROR_MPS_CLIENT_TERMINATED,
	CUDA_ERROR_CDP_NOT_SUPPORTED,
	CUDA_ERROR_CDP_VERSION_MISMATCH,
	CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
	CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
	CUDA_ERROR_STREAM_CAPTURE_MERGE,
	CUDA_ERROR_STREAM_CAPTURE_UNMATCHED,
	CUDA_ERROR_STREAM_CAPTURE_UNJOINED,
	CUDA_ERROR_STREAM_CAPTURE_ISOLATION,
	CUDA_ERROR_STREAM_CAPTURE_IMPLICIT,
	CUDA_ERROR_CAPTURED_EVENT,
	CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD,
	CUDA_ERROR_TIMEOUT,
	CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE,
	CUDA_ERROR_EXTERNAL_DEVICE,
	CUDA_ERROR_INVALID_CLUSTER_SIZE,
	CUDA_ERROR_FUNCTION_NOT_LOADED,
	CUDA_ERROR_INVALID_RESOURCE_TYPE,
	CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION,
	CUDA_ERROR_KEY_ROTATION,
	CUDA_ERROR_UNKNOWN,
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

TEST(every_code_has_its_own_name)
{
	for (size_t i = 0; i < COUNT(toolkit_errors); i++)
		EXPECT_STREQ(toolkit_errors[i].name,
			     cudaGetErrorName(toolkit_errors[i].code));
}

TEST(every_code_has_a_description)
{
	for (size_t i = 0; i < COUNT(toolkit_errors); i++) {
		const char *s = cudaGetErrorString(toolkit_errors[i].code);

		ASSERT_NE(NULL, s);
		EXPECT_NE(0, strlen(s));
		EXPECT_STRNE("unrecognized error code", s);
	}
}

/* Recorded on an H200 (tools/cuda-probe/golden/probe_errors.h200.txt). */
TEST(unknown_code_is_unrecognized)
{
	EXPECT_STREQ("unrecognized error code",
		     cudaGetErrorName((cudaError_t)9999));
	EXPECT_STREQ("unrecognized error code",
		     cudaGetErrorString((cudaError_t)9999));
	EXPECT_STREQ("unrecognized error code",
		     cudaGetErrorName((cudaError_t)-1));
	EXPECT_STREQ("unrecognized error code",
		     cudaGetErrorName((cudaError_t)10));
}

/* The texts programs commonly print, as CUDA prints them. */
TEST(common_descriptions)
{
	EXPECT_STREQ("no error", cudaGetErrorString(cudaSuccess));
	EXPECT_STREQ("invalid argument",
		     cudaGetErrorString(cudaErrorInvalidValue));
	EXPECT_STREQ("out of memory",
		     cudaGetErrorString(cudaErrorMemoryAllocation));
	EXPECT_STREQ("an illegal memory access was encountered",
		     cudaGetErrorString(cudaErrorIllegalAddress));
	EXPECT_STREQ("invalid device ordinal",
		     cudaGetErrorString(cudaErrorInvalidDevice));
}

TEST(driver_results_translate)
{
	for (size_t i = 0; i < COUNT(driver_results); i++) {
		CUresult r = driver_results[i];
		cudaError_t e = rt_error_from_cu(r);

		/* Either the twin of the same value, or Unknown. */
		if (e != cudaErrorUnknown)
			EXPECT_EQ((int)r, (int)e);
		EXPECT_NE(NULL, cudaGetErrorName(e));
	}
	EXPECT_EQ(cudaSuccess, rt_error_from_cu(CUDA_SUCCESS));
	EXPECT_EQ(cudaErrorMemoryAllocation,
		  rt_error_from_cu(CUDA_ERROR_OUT_OF_MEMORY));
	EXPECT_EQ(cudaErrorInitializationError,
		  rt_error_from_cu(CUDA_ERROR_NOT_INITIALIZED));
	EXPECT_EQ(cudaErrorInvalidResourceHandle,
		  rt_error_from_cu(CUDA_ERROR_INVALID_HANDLE));
	EXPECT_EQ(cudaErrorSymbolNotFound,
		  rt_error_from_cu(CUDA_ERROR_NOT_FOUND));
	EXPECT_EQ(cudaErrorInvalidKernelImage,
		  rt_error_from_cu(CUDA_ERROR_INVALID_IMAGE));
	EXPECT_EQ(cudaErrorNoKernelImageForDevice,
		  rt_error_from_cu(CUDA_ERROR_NO_BINARY_FOR_GPU));
	EXPECT_EQ(cudaErrorIllegalAddress,
		  rt_error_from_cu(CUDA_ERROR_ILLEGAL_ADDRESS));
	EXPECT_EQ(cudaErrorHostMemoryAlreadyRegistered,
		  rt_error_from_cu(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED));
	EXPECT_EQ(cudaErrorContextIsDestroyed,
		  rt_error_from_cu(CUDA_ERROR_CONTEXT_IS_DESTROYED));
	EXPECT_EQ(cudaErrorUnknown,
		  rt_error_from_cu(CUDA_ERROR_CONTEXT_ALREADY_CURRENT));
	EXPECT_EQ(cudaErrorUnknown, rt_error_from_cu((CUresult)12345));
}

TEST(last_error_is_kept_until_read)
{
	cudaGetLastError();
	EXPECT_EQ(cudaSuccess, cudaPeekAtLastError());
	EXPECT_EQ(cudaErrorInvalidValue, rt_return(cudaErrorInvalidValue));
	/* A success does not overwrite it. */
	EXPECT_EQ(cudaSuccess, rt_return(cudaSuccess));
	EXPECT_EQ(cudaErrorInvalidValue, cudaPeekAtLastError());
	EXPECT_EQ(cudaErrorInvalidValue, cudaPeekAtLastError());
	/* A later failure replaces it. */
	rt_return_cu(CUDA_ERROR_INVALID_HANDLE);
	EXPECT_EQ(cudaErrorInvalidResourceHandle, cudaGetLastError());
	EXPECT_EQ(cudaSuccess, cudaGetLastError());
	EXPECT_EQ(cudaSuccess, cudaPeekAtLastError());
}

static void *fail_in_thread(void *arg)
{
	cudaError_t *seen = arg;

	seen[0] = cudaPeekAtLastError();
	rt_return(cudaErrorNotReady);
	seen[1] = cudaGetLastError();
	return NULL;
}

TEST(last_error_is_per_thread)
{
	cudaError_t seen[2];
	pthread_t t;

	cudaGetLastError();
	rt_return(cudaErrorInvalidDevice);
	ASSERT_EQ(0, pthread_create(&t, NULL, fail_in_thread, seen));
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(cudaSuccess, seen[0]);
	EXPECT_EQ(cudaErrorNotReady, seen[1]);
	EXPECT_EQ(cudaErrorInvalidDevice, cudaGetLastError());
}

TEST_HARNESS_MAIN
