# SPDX-License-Identifier: GPL-2.0
#
# transpose: naive, tiled and padded-tiled transposes through shared
# memory (bank conflicts and bandwidth); transpose-chart.sh runs it under
# vgpu-prof with modelled time and draws the chart
# (Documentation/profiler.rst, "The seeds' experiments").
# Built like the one-file samples (SAMPLES_NVCC_FLAGS of samples/build.mk).

TRANSPOSE_SAMPLE := $(BIN)/samples/transpose
$(TRANSPOSE_SAMPLE): samples/transpose/transpose.cu \
		samples/common/sample_check.h
	@mkdir -p $(dir $@)
	$(NVCC) $(SAMPLES_NVCC_FLAGS) -o $@ $<
ALL_TARGETS += $(TRANSPOSE_SAMPLE)
SAMPLES += $(TRANSPOSE_SAMPLE)
