# SPDX-License-Identifier: GPL-2.0
#
# l2_window: the Best Practices Guide's persisting-L2 sliding-window
# experiment (hit ratio and bandwidth against the persistent region's
# size, without a window, hitRatio 1 and tuned); l2-window-chart.sh draws
# it (Documentation/profiler.rst).
# Built like the one-file samples (SAMPLES_NVCC_FLAGS of samples/build.mk).

L2_WINDOW_SAMPLE := $(BIN)/samples/l2_window
$(L2_WINDOW_SAMPLE): samples/l2_window/l2_window.cu \
		samples/common/sample_check.h
	@mkdir -p $(dir $@)
	$(NVCC) $(SAMPLES_NVCC_FLAGS) -o $@ $<
# Not in SAMPLES: its sweep of 48 launches of twice the L2 takes about 80 s
# in a TCG guest even uncounted, too long for `make run` and for the
# sanitizer sweep over every sample; the chart script and
# test_prof_samples run it.
ALL_TARGETS += $(L2_WINDOW_SAMPLE)
