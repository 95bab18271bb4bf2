# SPDX-License-Identifier: GPL-2.0
#
# Tests of the execution core (firmware_sim/core) and of the whole
# compiler + core path on the CUDA kernel corpus, the instruction-level
# tests against values recorded on an H100, the validator fuzz test, and
# the benchmark build/bin/vgpu-core-bench (a program, not a timed test).
#
# Every test is built twice: plain and with ASan/UBSan (-san).

CTEST_LIB_SRCS := tests/lib/visa_builder.c tests/lib/test_gpu.c \
	tests/lib/golden_cases.c
CTEST_CFLAGS := -Itests/lib -Ifirmware_sim/core -Ifirmware_sim/jit -Iumd

CTEST_LIB_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(CTEST_LIB_SRCS))
CTEST_LIB_SAN_OBJS := $(patsubst %.c,$(OBJ)/san/%.o,$(CTEST_LIB_SRCS))

CTEST_OWN_SRCS := $(wildcard tests/*.c) $(CTEST_LIB_SRCS)
$(patsubst %.c,$(OBJ)/%.o,$(CTEST_OWN_SRCS)): $(OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(CTEST_CFLAGS) $(CTEST_EXTRA) -MMD -MP -c $< -o $@
$(patsubst %.c,$(OBJ)/san/%.o,$(CTEST_OWN_SRCS)): $(OBJ)/san/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(SAN_CFLAGS) $(CTEST_CFLAGS) $(CTEST_EXTRA) \
		-MMD -MP -c $< -o $@
-include $(patsubst %.c,$(OBJ)/%.d,$(CTEST_OWN_SRCS))
-include $(patsubst %.c,$(OBJ)/san/%.d,$(CTEST_OWN_SRCS))

# ctest(name, extra libraries): tests/<name>.c against the core
define ctest
$(TST)/core/$(1): $(OBJ)/tests/$(1).o $(CTEST_LIB_OBJS) $(2) $(CORE_LIB)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(USER_CFLAGS) -o $$@ $$^ $$(CORE_LDLIBS)
$(TST)/core/$(1)-san: $(OBJ)/san/tests/$(1).o $(CTEST_LIB_SAN_OBJS) \
		$(subst $(LIB)/,$(LIB)/san/,$(2)) $(CORE_SAN_LIB)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(USER_CFLAGS) $$(SAN_CFLAGS) -o $$@ $$^ $$(CORE_LDLIBS)
ALL_TARGETS += $(TST)/core/$(1) $(TST)/core/$(1)-san
NATIVE_TESTS += $(TST)/core/$(1) $(TST)/core/$(1)-san
endef

$(eval $(call ctest,test_core_handasm,))

# Which registers a warp zeroes on entry (firmware_sim/core/reg_init.c).
$(eval $(call ctest,test_core_reginit,))

# Instruction-level tests against values recorded on an H100.
$(OBJ)/tests/test_golden.o $(OBJ)/san/tests/test_golden.o: \
	CTEST_EXTRA := -DGOLDEN_FILE='"$(abspath tests/golden/h100.txt)"'
$(eval $(call ctest,test_golden,))

# The CUDA corpus: nvcc -ptx at build time for sm_75 (needs no GPU) and
# sm_90; the modules under tests/corpus/link are separately compiled
# (-rdc=true) and linked by the PTX compiler.
CORPUS_CU := $(wildcard tests/corpus/*.cu)
CORPUS_LINK_CU := $(wildcard tests/corpus/link/*.cu)
CORPUS_ARCHS := 75 90
CORPUS_PTX := $(foreach a,$(CORPUS_ARCHS), \
	$(patsubst tests/corpus/%.cu,$(TST)/corpus/sm_$(a)/%.ptx,$(CORPUS_CU)) \
	$(patsubst tests/corpus/link/%.cu,$(TST)/corpus/sm_$(a)/%.ptx,$(CORPUS_LINK_CU)))

define corpus_ptx_rules
$(TST)/corpus/sm_$(1)/%.ptx: tests/corpus/%.cu
	@mkdir -p $$(dir $$@)
	$$(NVCC) -ptx -arch=sm_$(1) -o $$@ $$<
$(TST)/corpus/sm_$(1)/%.ptx: tests/corpus/link/%.cu
	@mkdir -p $$(dir $$@)
	$$(NVCC) -ptx -rdc=true -arch=sm_$(1) -o $$@ $$<
endef
$(foreach a,$(CORPUS_ARCHS),$(eval $(call corpus_ptx_rules,$(a))))

$(OBJ)/tests/test_corpus.o $(OBJ)/san/tests/test_corpus.o: \
	CTEST_EXTRA := -DCORPUS_PTX_DIR='"$(abspath $(TST)/corpus)"'
$(eval $(call ctest,test_corpus,$(LIB)/libvgpu-ptx.a))
$(TST)/core/test_corpus $(TST)/core/test_corpus-san: | $(CORPUS_PTX)
ALL_TARGETS += $(CORPUS_PTX)

# The native tier itself: quantum boundaries, masks, background compiles.
$(eval $(call ctest,test_jit,))

# The scheduler (resident blocks, concurrent grids, priorities, time
# slices, TLB shootdown), observed by kernels compiled with nvcc.
SCHED_PTX := $(TST)/sched/sched_kernels.ptx
$(SCHED_PTX): tests/sched/sched_kernels.cu
	@mkdir -p $(dir $@)
	$(NVCC) -ptx -arch=sm_75 -o $@ $<
$(OBJ)/tests/test_core_sched.o $(OBJ)/san/tests/test_core_sched.o: \
	CTEST_EXTRA := -DSCHED_PTX='"$(abspath $(SCHED_PTX))"'
$(eval $(call ctest,test_core_sched,$(LIB)/libvgpu-ptx.a))
$(TST)/core/test_core_sched $(TST)/core/test_core_sched-san: | $(SCHED_PTX)
ALL_TARGETS += $(SCHED_PTX)

# The opcode table and what is generated from it (enum, names, validator
# rules, handlers) agree; it links the disassembler.
$(OBJ)/tests/test_visa_optable.o $(OBJ)/san/tests/test_visa_optable.o: \
	CTEST_EXTRA := -Itools/objdump
$(eval $(call ctest,test_visa_optable,$(OBJ)/tools/objdump/visa_disasm.o))

# The block-linear layout of CUDA arrays (include/vgpu_array.h).
$(eval $(call ctest,test_bl_layout,))

# The texture unit's sampler against fetches recorded on an H100.
$(OBJ)/tests/test_tex_golden.o $(OBJ)/san/tests/test_tex_golden.o: \
	CTEST_EXTRA := -DGOLDEN_TEX_FILE='"$(abspath tests/golden/probe_tex.h100.txt)"' \
		-DGOLDEN_TEXFID_FILE='"$(abspath tests/golden/probe_texfid.h100.txt)"' \
		-DGOLDEN_TEXREST_FILE='"$(abspath tests/golden/probe_texrest.h100.txt)"'
$(eval $(call ctest,test_tex_golden,))
$(OBJ)/tests/test_tex_fetch_golden.o $(OBJ)/san/tests/test_tex_fetch_golden.o: \
	CTEST_EXTRA := -DGOLDEN_TEX_FILE='"$(abspath tests/golden/probe_tex.h100.txt)"' \
		-DGOLDEN_TEXFID_FILE='"$(abspath tests/golden/probe_texfid.h100.txt)"' \
		-DGOLDEN_TEXREST_FILE='"$(abspath tests/golden/probe_texrest.h100.txt)"'
$(eval $(call ctest,test_tex_fetch_golden,))

# Bounded fuzz test of the validator (meaningful mostly in the -san twin).
$(eval $(call ctest,test_validator_fuzz,))

# The benchmark (a program, not a test): build/bin/vgpu-core-bench.
BENCH_PTX := $(TST)/bench/bench_kernels.ptx
$(BENCH_PTX): tests/bench/bench_kernels.cu
	@mkdir -p $(dir $@)
	$(NVCC) -ptx -arch=sm_75 -o $@ $<
$(OBJ)/tests/bench/core_bench.o: tests/bench/core_bench.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(CTEST_CFLAGS) -DBENCH_PTX='"$(abspath $(BENCH_PTX))"' \
		-MMD -MP -c $< -o $@
$(OBJ)/tests/bench/pocl_bench.o: tests/bench/pocl_bench.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -MMD -MP -c $< -o $@
-include $(OBJ)/tests/bench/core_bench.d $(OBJ)/tests/bench/pocl_bench.d
$(BIN)/vgpu-core-bench: $(OBJ)/tests/bench/core_bench.o \
		$(OBJ)/tests/bench/pocl_bench.o $(CTEST_LIB_OBJS) \
		$(LIB)/libvgpu-ptx.a $(CORE_LIB) | $(BENCH_PTX)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ $(filter %.o %.a,$^) $(CORE_LDLIBS) -ldl
ALL_TARGETS += $(BIN)/vgpu-core-bench $(BENCH_PTX)

# make bench-core: the execution core's numbers (printed, never a pass or
# fail on speed): both tiers against plain C and POCL, and 1 SM against 2.
# make bench (umd/cuda/build.mk, the guest's numbers) prints them first.
.PHONY: bench bench-core
bench-core: $(BIN)/vgpu-core-bench
	$(BIN)/vgpu-core-bench
bench: bench-core

# vgpu-objdump on a built image and on a corrupted one.
$(OBJ)/tests/test_objdump.o $(OBJ)/san/tests/test_objdump.o: \
	CTEST_EXTRA := -DOBJDUMP='"$(abspath $(BIN)/vgpu-objdump)"'
$(eval $(call ctest,test_objdump,))
$(TST)/core/test_objdump $(TST)/core/test_objdump-san: | $(BIN)/vgpu-objdump

# The interpreter's fast paths: address classes, spans, threadIdx, the
# host vector levels (tests/test_core_fastpath.c).
$(eval $(call ctest,test_core_fastpath,))

# The makefiles themselves: no fragment reads a name another sets later.
NATIVE_TESTS += tests/make-order

# The .approx functions (firmware_sim/core/mufu.c) against the H100's
# recorded values and range hashes (tools/cuda-probe/probe_mufu.cu);
# make mufu-hash-all hashes all 2^32 inputs of every function (a quarter
# of an hour on one core).
MUFU_GOLDEN := tools/cuda-probe/golden
$(OBJ)/tests/test_mufu.o $(OBJ)/san/tests/test_mufu.o: CTEST_EXTRA := \
	-DHASH_FILE='"$(abspath $(MUFU_GOLDEN)/probe_mufu.h100.txt)"' \
	-DVALUES_FILE='"$(abspath $(MUFU_GOLDEN)/probe_mufu_values.h100.txt.gz)"'
$(eval $(call ctest,test_mufu,))
.PHONY: mufu-hash-all
mufu-hash-all: $(TST)/core/test_mufu
	$(TST)/core/test_mufu --all
