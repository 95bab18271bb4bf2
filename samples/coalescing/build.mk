# SPDX-License-Identifier: GPL-2.0
#
# coalescing: the Best Practices Guide's offset and stride copies; run it
# under vgpu-prof with samples/coalescing/coalescing-counters.sh for the
# table of sectors per request (Documentation/profiler.rst).  Built like
# the one-file samples (SAMPLES_NVCC_FLAGS of samples/build.mk, expanded
# when the recipe runs).

COALESCING_SAMPLE := $(BIN)/samples/coalescing
$(COALESCING_SAMPLE): samples/coalescing/coalescing.cu \
		samples/common/sample_check.h
	@mkdir -p $(dir $@)
	$(NVCC) $(SAMPLES_NVCC_FLAGS) -o $@ $<
ALL_TARGETS += $(COALESCING_SAMPLE)
SAMPLES += $(COALESCING_SAMPLE)
