# SPDX-License-Identifier: GPL-2.0
#
# vgpu-sanitizer (build/bin/vgpu-sanitizer): it reads the lines libcuda
# writes (umd/cuda/sanitizer.c), so it links nothing of vGPU.

SAN_TOOL_SRCS := tools/sanitizer/vgpu-sanitizer.c
SAN_TOOL_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(SAN_TOOL_SRCS))
VGPU_SANITIZER := $(BIN)/vgpu-sanitizer

$(SAN_TOOL_OBJS): $(OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -MMD -MP -c $< -o $@
-include $(SAN_TOOL_OBJS:.o=.d)

$(VGPU_SANITIZER): $(SAN_TOOL_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ $^

ALL_TARGETS += $(VGPU_SANITIZER)

# The guest test: the planted bugs of the H100 probe
# (tools/cuda-probe/probe_sanitizer.cu), built as it was for the
# recording (PTX with .loc), each found with its exact report; clean
# runs silent.
$(TST)/sanitizer/probe_sanitizer: tools/cuda-probe/probe_sanitizer.cu | \
		$(CUDART_LINK)
	@mkdir -p $(dir $@)
	$(NVCC) -cudart shared -lineinfo \
		-gencode arch=compute_90,code=compute_90 -o $@ $<
$(TST)/sanitizer/probe_sanitizer.h100.txt: \
		tools/cuda-probe/golden/probe_sanitizer.h100.txt
	@mkdir -p $(dir $@)
	cp $< $@
$(TST)/sanitizer/test_sanitizer: tools/sanitizer/tests/test_sanitizer.c \
		$(CUDART_TEST_UTIL) $(CUDART_TEST_HDRS) $(VGPU_SANITIZER) \
		$(TST)/sanitizer/probe_sanitizer \
		$(TST)/sanitizer/probe_sanitizer.h100.txt
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -Iumd/cudart/tests -Iumd/cuda/tests \
		-DVGPU_SANITIZER_BIN='"$(abspath $(VGPU_SANITIZER))"' \
		-DPROBE_BIN='"$(abspath $(TST)/sanitizer/probe_sanitizer)"' \
		-DGOLDEN_TXT='"$(abspath $(TST)/sanitizer/probe_sanitizer.h100.txt)"' \
		-o $@ $< $(CUDART_TEST_UTIL)
ALL_TARGETS += $(TST)/sanitizer/test_sanitizer
GUEST_TESTS += $(TST)/sanitizer/test_sanitizer

# The benchmark (a program, not a test): build/bin/vgpu-sanitizer-bench,
# each tool's cost as a ratio to an uninstrumented run, on the counters
# probe's kernels (tools/prof/build.mk compiles them to PTX).
$(OBJ)/tools/sanitizer/bench/san_bench.o: tools/sanitizer/bench/san_bench.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(CTEST_CFLAGS) -Itools/prof/bench \
		-DPROBE_PTX='"$(abspath $(PROF_BENCH_PTX))"' -MMD -MP -c $< -o $@
-include $(OBJ)/tools/sanitizer/bench/san_bench.d
# The timed loop is vgpu-prof-bench's (tools/prof/bench/probe_bench.c).
$(BIN)/vgpu-sanitizer-bench: $(OBJ)/tools/sanitizer/bench/san_bench.o \
		$(PROBE_BENCH_OBJ) $(CTEST_LIB_OBJS) $(LIB)/libvgpu-ptx.a $(CORE_LIB) | \
		$(PROF_BENCH_PTX)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ $(filter %.o %.a,$^) $(CORE_LDLIBS)
ALL_TARGETS += $(BIN)/vgpu-sanitizer-bench

# The core's checks on their own (tests/test_san_core.c, a ctest of
# tests/build.mk, included before this file): the probe's kernels as PTX
# with .loc, as sanitized grids, natively and under ASan/UBSan.
SAN_PROBE_PTX := $(TST)/sanitizer/probe_sanitizer.ptx
$(SAN_PROBE_PTX): tools/cuda-probe/probe_sanitizer.cu
	@mkdir -p $(dir $@)
	$(NVCC) -ptx -lineinfo -arch=sm_90 -o $@ $<
$(OBJ)/tests/test_san_core.o $(OBJ)/san/tests/test_san_core.o: \
	CTEST_EXTRA := -DPROBE_PTX='"$(abspath $(SAN_PROBE_PTX))"'
$(eval $(call ctest,test_san_core,$(LIB)/libvgpu-ptx.a))
$(TST)/core/test_san_core $(TST)/core/test_san_core-san: | $(SAN_PROBE_PTX)

# Samples of `make run` under the tools (guest): exit 0, nothing found.
# $(call san_samples_test,NAME,TOOLS,SAMPLE PROGRAMS)
SAN_SAMPLE_TOOLS := memcheck racecheck synccheck initcheck
define san_samples_test
$$(TST)/sanitizer/$(1): tools/sanitizer/tests/test_sanitizer_samples.c \
		$$(CUDART_TEST_UTIL) $$(CUDART_TEST_HDRS) $$(VGPU_SANITIZER) \
		$(3)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(USER_CFLAGS) -Iumd/cudart/tests -Iumd/cuda/tests \
		-DVGPU_SANITIZER_BIN='"$$(abspath $$(VGPU_SANITIZER))"' \
		-DTOOLS='"$(2)"' -DROOT_DIR='"$$(abspath .)"' \
		-DSAMPLES='"$$(strip $$(foreach s,$(3),$$(abspath $$(s))))"' \
		-o $$@ $$< $$(CUDART_TEST_UTIL)
ALL_TARGETS += $$(TST)/sanitizer/$(1)
endef

# make check: every tool over three samples that between them use global
# and shared memory, barriers, copies and graphs (about a minute a guest).
SAN_CHECK_SAMPLES := $(addprefix $(SAMPLES_BIN)/,vectorAdd matrixMul graphs)
$(eval $(call san_samples_test,test_sanitizer_samples,$(SAN_SAMPLE_TOOLS),$(SAN_CHECK_SAMPLES)))
GUEST_TESTS += $(TST)/sanitizer/test_sanitizer_samples

# make sanitizer-sweep (not part of check): each tool over every sample,
# one guest per tool on 6.12 (about 3.5 minutes each under TCG).
$(foreach t,$(SAN_SAMPLE_TOOLS),$(eval $(call san_samples_test,sweep_$(t),$(t),$$(SAMPLES))))
SAN_SWEEP := $(addprefix $(TST)/sanitizer/sweep_,$(SAN_SAMPLE_TOOLS))
.PHONY: sanitizer-sweep
sanitizer-sweep: $(SAN_SWEEP) all
	@for t in $(SAN_SWEEP); do \
		tools/vgpu-vm --kernel 6.12 --timeout 900 -- $$t || exit 1; \
	done
