/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nvrtc_calls.h - the NVRTC entry points the front passes on unchanged,
 * as NVRTC_CALL(name, (parameters), (arguments)).  nvrtc_front.c makes
 * one forwarder of each; the calls the front changes (compile, CUBIN,
 * destroy, error strings) are written out there.  libnvrtc.map exports
 * every nvrtc* name.
 */
NVRTC_CALL(nvrtcVersion, (int *major, int *minor), (major, minor))
NVRTC_CALL(nvrtcGetNumSupportedArchs, (int *numArchs), (numArchs))
NVRTC_CALL(nvrtcGetSupportedArchs, (int *supportedArchs), (supportedArchs))
NVRTC_CALL(nvrtcCreateProgram,
	   (nvrtcProgram *prog, const char *src, const char *name,
	    int numHeaders, const char * const *headers,
	    const char * const *includeNames),
	   (prog, src, name, numHeaders, headers, includeNames))
NVRTC_CALL(nvrtcGetPTXSize, (nvrtcProgram prog, size_t *ptxSizeRet),
	   (prog, ptxSizeRet))
NVRTC_CALL(nvrtcGetPTX, (nvrtcProgram prog, char *ptx), (prog, ptx))
NVRTC_CALL(nvrtcGetLTOIRSize, (nvrtcProgram prog, size_t *LTOIRSizeRet),
	   (prog, LTOIRSizeRet))
NVRTC_CALL(nvrtcGetLTOIR, (nvrtcProgram prog, char *LTOIR), (prog, LTOIR))
NVRTC_CALL(nvrtcGetOptiXIRSize, (nvrtcProgram prog, size_t *optixirSizeRet),
	   (prog, optixirSizeRet))
NVRTC_CALL(nvrtcGetOptiXIR, (nvrtcProgram prog, char *optixir),
	   (prog, optixir))
NVRTC_CALL(nvrtcGetProgramLogSize, (nvrtcProgram prog, size_t *logSizeRet),
	   (prog, logSizeRet))
NVRTC_CALL(nvrtcGetProgramLog, (nvrtcProgram prog, char *log), (prog, log))
NVRTC_CALL(nvrtcAddNameExpression,
	   (nvrtcProgram prog, const char * const name_expression),
	   (prog, name_expression))
NVRTC_CALL(nvrtcGetLoweredName,
	   (nvrtcProgram prog, const char * const name_expression,
	    const char **lowered_name),
	   (prog, name_expression, lowered_name))
NVRTC_CALL(nvrtcGetPCHHeapSize, (size_t *ret), (ret))
NVRTC_CALL(nvrtcSetPCHHeapSize, (size_t size), (size))
NVRTC_CALL(nvrtcGetPCHCreateStatus, (nvrtcProgram prog), (prog))
NVRTC_CALL(nvrtcGetPCHHeapSizeRequired, (nvrtcProgram prog, size_t *size),
	   (prog, size))
NVRTC_CALL(nvrtcSetFlowCallback,
	   (nvrtcProgram prog, int (*callback)(void *, void *),
	    void *payload),
	   (prog, callback, payload))
