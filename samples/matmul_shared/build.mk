# SPDX-License-Identifier: GPL-2.0
#
# matmul_shared: the programming guide's matrix multiply, naive and tiled
# through shared memory, and a tiled variant with and without padding
# against bank conflicts; matmul-chart.sh draws it
# (Documentation/profiler.rst).
# Built like the one-file samples (SAMPLES_NVCC_FLAGS of samples/build.mk).

MATMUL_SHARED_SAMPLE := $(BIN)/samples/matmul_shared
$(MATMUL_SHARED_SAMPLE): samples/matmul_shared/matmul_shared.cu \
		samples/common/sample_check.h
	@mkdir -p $(dir $@)
	$(NVCC) $(SAMPLES_NVCC_FLAGS) -o $@ $<
ALL_TARGETS += $(MATMUL_SHARED_SAMPLE)
SAMPLES += $(MATMUL_SHARED_SAMPLE)
