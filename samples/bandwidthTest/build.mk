# SPDX-License-Identifier: GPL-2.0
#
# The host-memory samples: bandwidthTest (copy bandwidth of pageable,
# pinned and write-combined memory, zero-copy kernel bandwidth, WC reads),
# simpleZeroCopy (kernels on mapped host memory) and simpleStreamsOverlap
# (copies and kernels overlapped over streams).  One-file samples built by
# nvcc like the others in samples/build.mk, with its flags (the recipe
# expands SAMPLES_NVCC_FLAGS when it runs; this fragment is included before
# samples/build.mk, so targets and prerequisites use names of their own).

HOSTMEM_SAMPLES := bandwidthTest simpleZeroCopy simpleStreamsOverlap
HOSTMEM_SAMPLES_BIN := $(BIN)/samples

define hostmem_sample_rule
$(HOSTMEM_SAMPLES_BIN)/$(1): samples/$(1)/$(1).cu samples/common/sample_check.h
	@mkdir -p $$(dir $$@)
	$$(NVCC) $$(SAMPLES_NVCC_FLAGS) -o $$@ $$<
endef
$(foreach s,$(HOSTMEM_SAMPLES),$(eval $(call hostmem_sample_rule,$(s))))

HOSTMEM_SAMPLES_ALL := $(addprefix $(HOSTMEM_SAMPLES_BIN)/,$(HOSTMEM_SAMPLES))
ALL_TARGETS += $(HOSTMEM_SAMPLES_ALL)
SAMPLES += $(HOSTMEM_SAMPLES_ALL)
