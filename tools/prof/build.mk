# SPDX-License-Identifier: GPL-2.0
#
# vgpu-prof: the profiler (build/bin/vgpu-prof).  It only reads the lines
# libcuda writes (umd/cuda/profile.c), so it links nothing of vGPU.

PROF_SRCS := $(wildcard tools/prof/*.c)
PROF_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(PROF_SRCS))
VGPU_PROF := $(BIN)/vgpu-prof

$(PROF_OBJS): $(OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -MMD -MP -c $< -o $@
-include $(PROF_OBJS:.o=.d)

$(VGPU_PROF): $(PROF_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ $^

ALL_TARGETS += $(VGPU_PROF)

# The guest test: vgpu-prof on the counters probe, against the H100's
# recording of the same binary (tools/cuda-probe/probe_counters.cu,
# tests/golden/probe_counters.h100.csv).  The probe is built exactly as
# it was for the recording; the guest sees the build tree, not the
# sources, so the recording is copied next to it.
$(TST)/prof/probe_counters: tools/cuda-probe/probe_counters.cu | $(CUDART_LINK)
	@mkdir -p $(dir $@)
	$(NVCC) -cudart shared -arch=sm_90 \
		-gencode arch=compute_90,code=sm_90 \
		-gencode arch=compute_90,code=compute_90 -o $@ $<
$(TST)/prof/probe_counters.h100.csv: tests/golden/probe_counters.h100.csv
	@mkdir -p $(dir $@)
	cp $< $@
$(TST)/prof/test_prof_counters: tools/prof/tests/test_prof_counters.c \
		$(CUDART_TEST_UTIL) $(CUDART_TEST_HDRS) $(VGPU_PROF) \
		$(TST)/prof/probe_counters $(TST)/prof/probe_counters.h100.csv
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -Iumd/cudart/tests -Iumd/cuda/tests \
		-DVGPU_PROF_BIN='"$(abspath $(VGPU_PROF))"' \
		-DPROBE_BIN='"$(abspath $(TST)/prof/probe_counters)"' \
		-DGOLDEN_CSV='"$(abspath $(TST)/prof/probe_counters.h100.csv)"' \
		-o $@ $< $(CUDART_TEST_UTIL)
ALL_TARGETS += $(TST)/prof/test_prof_counters
GUEST_TESTS += $(TST)/prof/test_prof_counters

# The benchmark (a program, not a test): build/bin/vgpu-prof-bench, the
# cost of counting as a ratio, on the probe's kernels compiled from PTX.
PROF_BENCH_PTX := $(TST)/prof/probe_counters.ptx
$(PROF_BENCH_PTX): tools/cuda-probe/probe_counters.cu
	@mkdir -p $(dir $@)
	$(NVCC) -ptx -arch=sm_90 -o $@ $<
# probe_bench.o: the kernels and timed loop it shares with
# vgpu-sanitizer-bench (tools/sanitizer/build.mk, read after this file).
PROBE_BENCH_OBJ := $(OBJ)/tools/prof/bench/probe_bench.o
$(OBJ)/tools/prof/bench/prof_bench.o $(PROBE_BENCH_OBJ): \
		$(OBJ)/tools/prof/bench/%.o: tools/prof/bench/%.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(CTEST_CFLAGS) -Itools/prof/bench \
		-DPROBE_PTX='"$(abspath $(PROF_BENCH_PTX))"' -MMD -MP -c $< -o $@
-include $(OBJ)/tools/prof/bench/prof_bench.d \
	$(OBJ)/tools/prof/bench/probe_bench.d
$(BIN)/vgpu-prof-bench: $(OBJ)/tools/prof/bench/prof_bench.o \
		$(PROBE_BENCH_OBJ) \
		$(CTEST_LIB_OBJS) $(LIB)/libvgpu-ptx.a $(CORE_LIB) | \
		$(PROF_BENCH_PTX)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ $(filter %.o %.a,$^) $(CORE_LDLIBS)
ALL_TARGETS += $(BIN)/vgpu-prof-bench $(PROF_BENCH_PTX)

# The core's counters against the recording, natively (tests/test_prof_core.c,
# a ctest of tests/build.mk, included before this file), on both tiers.
$(OBJ)/tests/test_prof_core.o $(OBJ)/san/tests/test_prof_core.o: \
	CTEST_EXTRA := -DPROBE_PTX='"$(abspath $(PROF_BENCH_PTX))"' \
		-DGOLDEN_CSV='"$(abspath tests/golden/probe_counters.h100.csv)"'
$(eval $(call ctest,test_prof_core,$(LIB)/libvgpu-ptx.a))
$(TST)/core/test_prof_core $(TST)/core/test_prof_core-san: | $(PROF_BENCH_PTX)

# The L2 model on its own, and the guide's window experiment through it
# against the H100's recording (tests/test_l2_model.c, a ctest).
$(OBJ)/tests/test_l2_model.o $(OBJ)/san/tests/test_l2_model.o: \
	CTEST_EXTRA := -DGOLDEN_CSV='"$(abspath tests/golden/probe_l2.h100.csv)"'
$(eval $(call ctest,test_l2_model,))

# The L2 model end to end (guest): vgpu-prof on the L2 probe, against the
# H100's recording of the same binary (tools/cuda-probe/probe_l2.cu).
$(TST)/prof/probe_l2: tools/cuda-probe/probe_l2.cu | $(CUDART_LINK)
	@mkdir -p $(dir $@)
	$(NVCC) -cudart shared -arch=sm_90 \
		-gencode arch=compute_90,code=sm_90 \
		-gencode arch=compute_90,code=compute_90 -o $@ $<
$(TST)/prof/probe_l2.h100.csv: tests/golden/probe_l2.h100.csv
	@mkdir -p $(dir $@)
	cp $< $@
$(TST)/prof/probe_l2.h100.txt: tools/cuda-probe/golden/probe_l2.h100.txt
	@mkdir -p $(dir $@)
	cp $< $@
$(TST)/prof/test_prof_l2: tools/prof/tests/test_prof_l2.c \
		$(CUDART_TEST_UTIL) $(CUDART_TEST_HDRS) $(VGPU_PROF) \
		$(TST)/prof/probe_l2 $(TST)/prof/probe_l2.h100.csv \
		$(TST)/prof/probe_l2.h100.txt
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -Iumd/cudart/tests -Iumd/cuda/tests \
		-DVGPU_PROF_BIN='"$(abspath $(VGPU_PROF))"' \
		-DPROBE_BIN='"$(abspath $(TST)/prof/probe_l2)"' \
		-DGOLDEN_CSV='"$(abspath $(TST)/prof/probe_l2.h100.csv)"' \
		-DGOLDEN_TXT='"$(abspath $(TST)/prof/probe_l2.h100.txt)"' \
		-o $@ $< $(CUDART_TEST_UTIL)
ALL_TARGETS += $(TST)/prof/test_prof_l2
GUEST_TESTS += $(TST)/prof/test_prof_l2

# VGPU_TIMING=model (guest): the coalescing sample's event times against
# the cost model recomputed from vgpu-prof's counters.
$(TST)/prof/test_timing_model: tools/prof/tests/test_timing_model.c \
		$(CUDART_TEST_UTIL) $(CUDART_TEST_HDRS) $(VGPU_PROF) \
		$(COALESCING_SAMPLE)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -Iumd/cudart/tests -Iumd/cuda/tests \
		-DVGPU_PROF_BIN='"$(abspath $(VGPU_PROF))"' \
		-DSAMPLE_BIN='"$(abspath $(COALESCING_SAMPLE))"' \
		-o $@ $< $(CUDART_TEST_UTIL)
ALL_TARGETS += $(TST)/prof/test_timing_model
GUEST_TESTS += $(TST)/prof/test_timing_model

# The seeds' experiments (guest): samples/transpose, samples/matmul_shared
# and samples/l2_window under vgpu-prof with modelled time, against the
# H100's recordings (tests/golden/matmul_shared.h100.csv,
# l2_window.h100.csv, and probe_counters.h100.csv's transposes).  The
# samples are built as they were for the recordings (sm_90 and its PTX).
PROF_SAMPLE_NVCC := -cudart shared -O2 -std=c++17 \
	-gencode arch=compute_90,code=sm_90 \
	-gencode arch=compute_90,code=compute_90
define prof_sample
$$(TST)/prof/$(1): samples/$(1)/$(1).cu samples/common/sample_check.h | \
		$$(CUDART_LINK)
	@mkdir -p $$(dir $$@)
	$$(NVCC) $$(PROF_SAMPLE_NVCC) -o $$@ $$<
endef
$(foreach s,transpose matmul_shared l2_window,$(eval $(call prof_sample,$(s))))
$(TST)/prof/matmul_shared.h100.csv $(TST)/prof/l2_window.h100.csv: \
		$(TST)/prof/%: tests/golden/%
	@mkdir -p $(dir $@)
	cp $< $@
$(TST)/prof/test_prof_samples: tools/prof/tests/test_prof_samples.c \
		$(CUDART_TEST_UTIL) $(CUDART_TEST_HDRS) $(VGPU_PROF) \
		$(TST)/prof/transpose $(TST)/prof/matmul_shared \
		$(TST)/prof/l2_window $(TST)/prof/matmul_shared.h100.csv \
		$(TST)/prof/l2_window.h100.csv \
		$(TST)/prof/probe_counters.h100.csv
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -Iumd/cudart/tests -Iumd/cuda/tests \
		-DVGPU_PROF_BIN='"$(abspath $(VGPU_PROF))"' \
		-DTRANSPOSE_BIN='"$(abspath $(TST)/prof/transpose)"' \
		-DMATMUL_BIN='"$(abspath $(TST)/prof/matmul_shared)"' \
		-DL2_BIN='"$(abspath $(TST)/prof/l2_window)"' \
		-DMATMUL_CSV='"$(abspath $(TST)/prof/matmul_shared.h100.csv)"' \
		-DL2_CSV='"$(abspath $(TST)/prof/l2_window.h100.csv)"' \
		-DCOUNTERS_CSV='"$(abspath $(TST)/prof/probe_counters.h100.csv)"' \
		-o $@ $< $(CUDART_TEST_UTIL)
ALL_TARGETS += $(TST)/prof/test_prof_samples
GUEST_TESTS += $(TST)/prof/test_prof_samples
