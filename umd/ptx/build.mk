# SPDX-License-Identifier: GPL-2.0
#
# umd/ptx: the PTX -> vISA compiler (libvgpu-ptx.a), the vgpu-ptxas tool
# (tools/ptxas) and their tests.  Paths are relative to the repository
# root.  Users include "ptx/ptx_compiler.h" with -Iumd and link
# $(PTX_LIB) (no other libraries needed).

PTX_LIB := $(LIB)/libvgpu-ptx.a
PTX_SAN_LIB := $(LIB)/san/libvgpu-ptx.a
PTX_SRCS := $(wildcard umd/ptx/*.c)
PTXAS := $(BIN)/vgpu-ptxas
PTXAS_SRCS := $(wildcard tools/ptxas/*.c)
PTX_TEST_SRCS := $(wildcard umd/ptx/tests/*.c)
PTX_TEST_UTIL_SRCS := $(wildcard umd/ptx/tests/util/*.c)

PTX_ALL_SRCS := $(PTX_SRCS) $(PTXAS_SRCS) $(PTX_TEST_SRCS) $(PTX_TEST_UTIL_SRCS)
PTX_ALL_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(PTX_ALL_SRCS))
PTX_ALL_SAN_OBJS := $(patsubst %.c,$(OBJ)/san/%.o,$(PTX_ALL_SRCS))

# PTX made by nvcc at build time: the kernel corpus (tests/corpus, owned by
# the execution core) and the compiler's own cases, for two targets each.
PTX_DATA := $(TST)/ptx-data
PTX_CU := $(wildcard tests/corpus/*.cu) $(wildcard umd/ptx/tests/cu/*.cu)
PTX_ARCHS := 75 90
PTX_NVCC_PTX := $(foreach a,$(PTX_ARCHS),\
	$(patsubst %.cu,$(PTX_DATA)/sm_$(a)/%.ptx,$(notdir $(PTX_CU))))

PTX_TEST_CFLAGS := -Iumd -Iumd/ptx/tests/util \
	-DPTX_TEST_DATA='"$(abspath $(PTX_DATA))"' \
	-DPTX_TEST_DEVRT='"$(abspath umd/cuda/devrt.ptx)"' \
	-DPTX_TEST_DEVRT_ERRORS='"$(abspath $(OBJ)/umd/cuda/devrt_errors.ptx)"' \
	-DPTX_TEST_SRC='"$(abspath umd/ptx/tests)"' \
	-DPTX_TEST_PTXAS='"$(abspath $(PTXAS))"'

$(PTX_ALL_OBJS): $(OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(PTX_TEST_CFLAGS) -MMD -MP -c $< -o $@

$(PTX_ALL_SAN_OBJS): $(OBJ)/san/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(SAN_CFLAGS) $(PTX_TEST_CFLAGS) -MMD -MP -c $< -o $@

-include $(PTX_ALL_OBJS:.o=.d) $(PTX_ALL_SAN_OBJS:.o=.d)

$(PTX_LIB): $(patsubst %.c,$(OBJ)/%.o,$(PTX_SRCS))
$(PTX_SAN_LIB): $(patsubst %.c,$(OBJ)/san/%.o,$(PTX_SRCS))
$(PTX_LIB) $(PTX_SAN_LIB):
	@mkdir -p $(dir $@)
	@rm -f $@
	$(AR) rcs $@ $^

$(PTXAS): $(patsubst %.c,$(OBJ)/%.o,$(PTXAS_SRCS)) $(PTX_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ $^

ALL_TARGETS += $(PTX_LIB) $(PTX_SAN_LIB) $(PTXAS)

# nvcc -ptx of each .cu, once per target architecture.
define ptx_nvcc_rule
$(PTX_DATA)/sm_$(1)/%.ptx: tests/corpus/%.cu
	@mkdir -p $$(dir $$@)
	$$(NVCC) -ptx -arch=sm_$(1) -o $$@ $$<
$(PTX_DATA)/sm_$(1)/%.ptx: umd/ptx/tests/cu/%.cu
	@mkdir -p $$(dir $$@)
	$$(NVCC) -ptx -arch=sm_$(1) -o $$@ $$<
endef
$(foreach a,$(PTX_ARCHS),$(eval $(call ptx_nvcc_rule,$(a))))

# The same sources with line information (-lineinfo: .loc with inlining)
# and as a debug build (-G: DWARF sections, no optimisation).
define ptx_nvcc_variant
$(PTX_DATA)/$(1)/%.ptx: tests/corpus/%.cu
	@mkdir -p $$(dir $$@)
	$$(NVCC) -ptx $(2) -o $$@ $$<
$(PTX_DATA)/$(1)/%.ptx: umd/ptx/tests/cu/%.cu
	@mkdir -p $$(dir $$@)
	$$(NVCC) -ptx $(2) -o $$@ $$<
PTX_NVCC_PTX += $(patsubst %.cu,$(PTX_DATA)/$(1)/%.ptx,$(notdir $(PTX_CU)))
endef
$(eval $(call ptx_nvcc_variant,lineinfo,-lineinfo -arch=sm_90))
$(eval $(call ptx_nvcc_variant,debug,-G -arch=sm_75))

# Separately compiled modules for the linking test (-rdc=true).
$(PTX_DATA)/rdc/%.ptx: umd/ptx/tests/rdc/%.cu
	@mkdir -p $(dir $@)
	$(NVCC) -ptx -rdc=true -arch=sm_75 -o $@ $<
$(PTX_DATA)/corpus-link/%.ptx: tests/corpus/link/%.cu
	@mkdir -p $(dir $@)
	$(NVCC) -ptx -rdc=true -arch=sm_75 -o $@ $<
# Kernels that launch kernels (dynamic parallelism): test_ptx_cdp.
$(PTX_DATA)/cdp/%.ptx: umd/ptx/tests/cdp/%.cu
	@mkdir -p $(dir $@)
	$(NVCC) -ptx -rdc=true -arch=sm_90 -o $@ $<
# ... and with --default-stream per-thread (cudaLaunchDeviceV2_ptsz)
$(PTX_DATA)/cdp/%_ptsz.ptx: umd/ptx/tests/cdp/%.cu
	@mkdir -p $(dir $@)
	$(NVCC) -ptx -rdc=true -arch=sm_90 --default-stream per-thread -o $@ $<
PTX_CDP_PTX := $(PTX_DATA)/cdp/cdp.ptx $(PTX_DATA)/cdp/cdp_ptsz.ptx
PTX_RDC_PTX := $(patsubst umd/ptx/tests/rdc/%.cu,$(PTX_DATA)/rdc/%.ptx,\
	$(wildcard umd/ptx/tests/rdc/*.cu)) \
	$(patsubst tests/corpus/link/%.cu,$(PTX_DATA)/corpus-link/%.ptx,\
	$(wildcard tests/corpus/link/*.cu))

# ptx_test(name): a test and its sanitizer twin, both run by `make check`.
PTX_TEST_LDLIBS := -lpthread
PTX_TEST_UTIL_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(PTX_TEST_UTIL_SRCS))
PTX_TEST_UTIL_SAN_OBJS := $(patsubst %.c,$(OBJ)/san/%.o,$(PTX_TEST_UTIL_SRCS))
define ptx_test
$(TST)/ptx/$(1): $(OBJ)/umd/ptx/tests/$(1).o $(PTX_TEST_UTIL_OBJS) $(PTX_LIB) \
		| $(PTX_NVCC_PTX) $(PTX_RDC_PTX) $(PTXAS)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(USER_CFLAGS) -o $$@ $$^ $$(PTX_TEST_LDLIBS)
$(TST)/ptx/$(1)-san: $(OBJ)/san/umd/ptx/tests/$(1).o $(PTX_TEST_UTIL_SAN_OBJS) \
		$(PTX_SAN_LIB) | $(PTX_NVCC_PTX) $(PTX_RDC_PTX) $(PTXAS)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(USER_CFLAGS) $$(SAN_CFLAGS) -o $$@ $$^ $$(PTX_TEST_LDLIBS)
ALL_TARGETS += $(TST)/ptx/$(1) $(TST)/ptx/$(1)-san
NATIVE_TESTS += $(TST)/ptx/$(1) $(TST)/ptx/$(1)-san
endef
$(foreach t,$(patsubst umd/ptx/tests/%.c,%,$(PTX_TEST_SRCS)),\
	$(eval $(call ptx_test,$(t))))

# These tests run compiled kernels on the execution core through the
# native test GPU of tests/lib (firmware_sim/core/build.mk, tests/build.mk).
PTX_CORE_TESTS := test_ptx_exec test_ptx_video test_ptx_shared test_ptx_mma \
	test_ptx_mma_ext test_ptx_mma_qs \
	test_ptx_async test_ptx_gaps test_ptx_coop test_ptx_tex test_ptx_cdp \
	test_ptx_hints test_ptx_brx test_ptx_tma test_ptx_stack
$(foreach t,$(PTX_CORE_TESTS),$(OBJ)/umd/ptx/tests/$(t).o \
		$(OBJ)/san/umd/ptx/tests/$(t).o): \
	PTX_TEST_CFLAGS += -Itests/lib -Ifirmware_sim/core
$(foreach t,$(PTX_CORE_TESTS),$(TST)/ptx/$(t)): $(CTEST_LIB_OBJS) $(CORE_LIB)
$(foreach t,$(PTX_CORE_TESTS),$(TST)/ptx/$(t)-san): $(CTEST_LIB_SAN_OBJS) \
	$(CORE_SAN_LIB)
$(foreach t,$(PTX_CORE_TESTS),$(TST)/ptx/$(t) $(TST)/ptx/$(t)-san): \
	PTX_TEST_LDLIBS += $(CORE_LDLIBS)
# test_ptx_cdp links nvcc's PTX with the device runtime's text
$(TST)/ptx/test_ptx_cdp $(TST)/ptx/test_ptx_cdp-san: | $(PTX_CDP_PTX) \
	$(CUDA_DEVRT_ERRORS)

# A guest test: an nvcc program with PTX only (compute_90), JIT-compiled
# by our libcuda at load time, as NVIDIA's samples are built.
$(TST)/ptx/test_ptx_video_jit: umd/ptx/tests/guest/test_ptx_video_jit.cu \
		$(CUDART_TEST_UTIL) $(CUDART_TEST_HDRS) | $(CUDART_LINK)
	@mkdir -p $(dir $@)
	$(NVCC) -cudart shared -arch=compute_90 -O2 -Iumd/cudart/tests \
		-Iumd/cuda/tests -o $@ $< $(CUDART_TEST_UTIL)
ALL_TARGETS += $(TST)/ptx/test_ptx_video_jit
GUEST_TESTS += $(TST)/ptx/test_ptx_video_jit

# Asynchronous copies and the device heap, the same way (PTX only).
$(TST)/ptx/test_ptx_async_jit: umd/ptx/tests/guest/test_ptx_async_jit.cu \
		$(CUDART_TEST_UTIL) $(CUDART_TEST_HDRS) | $(CUDART_LINK)
	@mkdir -p $(dir $@)
	$(NVCC) -cudart shared -arch=compute_90 -O2 -Iumd/cudart/tests \
		-Iumd/cuda/tests -o $@ $< $(CUDART_TEST_UTIL)
ALL_TARGETS += $(TST)/ptx/test_ptx_async_jit
GUEST_TESTS += $(TST)/ptx/test_ptx_async_jit

# Texture and surface objects in kernels, the same way (PTX only).
$(TST)/ptx/test_ptx_tex_jit: umd/ptx/tests/guest/test_ptx_tex_jit.cu \
		$(CUDART_TEST_UTIL) $(CUDART_TEST_HDRS) | $(CUDART_LINK)
	@mkdir -p $(dir $@)
	$(NVCC) -cudart shared -arch=compute_90 -O2 -Iumd/cudart/tests \
		-Iumd/cuda/tests -o $@ $< $(CUDART_TEST_UTIL)
ALL_TARGETS += $(TST)/ptx/test_ptx_tex_jit
GUEST_TESTS += $(TST)/ptx/test_ptx_tex_jit

# The tensor memory accelerator: tools/cuda-probe/probe_tma.cu built as
# a guest program (PTX only, JIT-compiled by our libcuda; it calls the
# driver API too: linked against the toolkit's stub, at run time
# libcuda.so.1 is ours), and the test that compares its output with the H100's.
$(TST)/ptx/probe_tma: tools/cuda-probe/probe_tma.cu | $(CUDART_LINK)
	@mkdir -p $(dir $@)
	$(NVCC) -cudart shared -arch=compute_90 -O2 -o $@ $< \
		-L$(CUDA_HOME)/lib64/stubs -lcuda
# (The guest sees the build tree, not the sources: the recording is copied.)
$(TST)/ptx/probe_tma.h100.txt: tools/cuda-probe/golden/probe_tma.h100.txt
	@mkdir -p $(dir $@)
	cp $< $@
$(TST)/ptx/test_ptx_tma_jit: umd/ptx/tests/guest/test_ptx_tma_jit.cu \
		$(TST)/ptx/probe_tma $(TST)/ptx/probe_tma.h100.txt \
		$(CUDART_TEST_UTIL) $(CUDART_TEST_HDRS) | $(CUDART_LINK)
	@mkdir -p $(dir $@)
	$(NVCC) -cudart shared -arch=compute_90 -O2 -Iumd/cudart/tests \
		-Iumd/cuda/tests \
		-DPROBE_TMA_BIN='"$(abspath $(TST)/ptx/probe_tma)"' \
		-DPROBE_TMA_GOLDEN='"$(abspath $(TST)/ptx/probe_tma.h100.txt)"' \
		-o $@ $< $(CUDART_TEST_UTIL)
ALL_TARGETS += $(TST)/ptx/probe_tma $(TST)/ptx/test_ptx_tma_jit
GUEST_TESTS += $(TST)/ptx/test_ptx_tma_jit

# Device alloca(), and a failed assert's lines against the H100's: the
# probe is built from the path it had on the H100 (its __FILE__ is in
# every line), PTX only; the recording is copied into the build tree.
$(TST)/ptx/probe_assert_printf: tools/cuda-probe/probe_assert_printf.cu \
		| $(CUDART_LINK)
	@mkdir -p $(dir $@)
	$(NVCC) -cudart shared -arch=compute_90 -O2 -o $@ $<
$(TST)/ptx/probe_assert_printf.h100.txt: \
		tools/cuda-probe/golden/probe_assert_printf.h100.txt
	@mkdir -p $(dir $@)
	cp $< $@
$(TST)/ptx/test_ptx_stack_jit: umd/ptx/tests/guest/test_ptx_stack_jit.cu \
		$(TST)/ptx/probe_assert_printf \
		$(TST)/ptx/probe_assert_printf.h100.txt \
		$(CUDART_TEST_UTIL) $(CUDART_TEST_HDRS) | $(CUDART_LINK)
	@mkdir -p $(dir $@)
	$(NVCC) -cudart shared -arch=compute_90 -O2 -Iumd/cudart/tests \
		-Iumd/cuda/tests \
		-DPROBE_ASSERT_BIN='"$(abspath $(TST)/ptx/probe_assert_printf)"' \
		-DPROBE_ASSERT_GOLDEN='"$(abspath $(TST)/ptx/probe_assert_printf.h100.txt)"' \
		-o $@ $< $(CUDART_TEST_UTIL)
ALL_TARGETS += $(TST)/ptx/probe_assert_printf $(TST)/ptx/test_ptx_stack_jit
GUEST_TESTS += $(TST)/ptx/test_ptx_stack_jit
