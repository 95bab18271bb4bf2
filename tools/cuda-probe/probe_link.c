// SPDX-License-Identifier: GPL-2.0
/*
 * probe_link: what the JIT linker (cuLink*) answers: an unresolved
 * function at cuLinkComplete, malformed PTX, completing with no input,
 * unknown and mistyped inputs, CU_JIT_WALL_TIME, a NULL state.  One line
 * per call: the result and the error log.
 *
 * Build: gcc -o probe_link probe_link.c -I/usr/local/cuda/include -lcuda
 */
#include <cuda.h>
#include <stdio.h>
#include <string.h>
static const char *ptx_caller =
".version 8.0\n.target sm_90\n.address_size 64\n"
".extern .func (.param .b32 r) missing_fn(.param .b32 a);\n"
".visible .entry k(.param .u64 p) {\n .reg .b32 %r<3>; .reg .b64 %rd<2>;\n"
" ld.param.u64 %rd1, [p];\n mov.u32 %r1, 3;\n"
" { .param .b32 a0; .param .b32 r0; st.param.b32 [a0], %r1; call.uni (r0), missing_fn, (a0); ld.param.b32 %r2, [r0]; }\n"
" st.global.u32 [%rd1], %r2;\n ret;\n}\n";
static const char *ptx_bad = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k( { garbage\n";
static void show(const char *what, CUresult r, const char *log) {
  const char *n = "?"; cuGetErrorName(r, &n);
  printf("%s: %s (%d) log=[%s]\n", what, n, (int)r, log ? log : "");
}
int main(void) {
  CUdevice d; CUcontext c; CUlinkState ls; void *img; size_t sz;
  char elog[4096], ilog[4096];
  cuInit(0); cuDeviceGet(&d, 0); cuCtxCreate(&c, NULL, 0, d);
  CUjit_option o[] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES };
  void *v[] = { elog, (void*)(size_t)sizeof(elog), ilog, (void*)(size_t)sizeof(ilog) };
  /* unresolved */
  elog[0] = ilog[0] = 0;
  CUresult r = cuLinkCreate(4, o, v, &ls); show("create", r, NULL);
  r = cuLinkAddData(ls, CU_JIT_INPUT_PTX, (void*)ptx_caller, strlen(ptx_caller)+1, "caller.ptx", 0, NULL, NULL); show("add caller", r, elog);
  r = cuLinkComplete(ls, &img, &sz); show("complete unresolved", r, elog);
  printf("info log=[%s]\n", ilog);
  cuLinkDestroy(ls);
  /* bad ptx */
  elog[0] = 0; cuLinkCreate(4, o, v, &ls);
  r = cuLinkAddData(ls, CU_JIT_INPUT_PTX, (void*)ptx_bad, strlen(ptx_bad)+1, "bad.ptx", 0, NULL, NULL); show("add bad ptx", r, elog);
  cuLinkDestroy(ls);
  /* empty complete */
  elog[0] = 0; cuLinkCreate(4, o, v, &ls);
  r = cuLinkComplete(ls, &img, &sz); show("complete empty", r, elog);
  cuLinkDestroy(ls);
  /* bad input type */
  elog[0] = 0; cuLinkCreate(4, o, v, &ls);
  r = cuLinkAddData(ls, (CUjitInputType)99, (void*)ptx_caller, strlen(ptx_caller)+1, "x", 0, NULL, NULL); show("add type 99", r, elog);
  r = cuLinkAddData(ls, CU_JIT_INPUT_PTX, (void*)"hello", 6, "notptx", 0, NULL, NULL); show("add not ptx", r, elog);
  r = cuLinkAddData(ls, CU_JIT_INPUT_CUBIN, (void*)"hello world....", 16, "notcubin", 0, NULL, NULL); show("add not cubin", r, elog);
  r = cuLinkAddData(ls, CU_JIT_INPUT_FATBINARY, (void*)"hello world....", 16, "notfatbin", 0, NULL, NULL); show("add not fatbin", r, elog);
  r = cuLinkAddData(ls, CU_JIT_INPUT_NVVM, (void*)"hello world....", 16, "nvvm", 0, NULL, NULL); show("add nvvm", r, elog);
  cuLinkDestroy(ls);
  /* wall time option */
  float wt = -1; CUjit_option o2[] = { CU_JIT_WALL_TIME }; void *v2[] = { 0 };
  r = cuLinkCreate(1, o2, v2, &ls); show("create walltime", r, NULL);
  cuLinkAddData(ls, CU_JIT_INPUT_PTX, (void*)ptx_caller, strlen(ptx_caller)+1, "c", 0, NULL, NULL);
  cuLinkComplete(ls, &img, &sz);
  memcpy(&wt, &v2[0], sizeof(wt)); printf("walltime slot bits as float: %f (raw %p)\n", wt, v2[0]);
  cuLinkDestroy(ls);
  r = cuLinkCreate(0, NULL, NULL, NULL); show("create NULL state", r, NULL);
  return 0;
}
