# SPDX-License-Identifier: GPL-2.0
#
# vgpu-smi: the nvidia-smi of vGPU (build/bin/vgpu-smi).  It reads the
# driver's sysfs and debugfs files only, so it links nothing of vGPU.

SMI_SRCS := tools/smi/vgpu-smi.c
SMI_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(SMI_SRCS))
VGPU_SMI := $(BIN)/vgpu-smi

$(SMI_OBJS): $(OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -MMD -MP -c $< -o $@
-include $(SMI_OBJS:.o=.d)

$(VGPU_SMI): $(SMI_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ $^
ALL_TARGETS += $(VGPU_SMI)

# The guest test: its output formats, parsed, against the driver's files
# and a process of its own that holds a context.
$(TST)/smi/test_smi: tools/smi/tests/test_smi.c $(CUDART_TEST_UTIL) \
		$(CUDART_TEST_HDRS) $(VGPU_SMI) | $(CUDART_LINK)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -Iumd/cudart/tests -Iumd/cuda/tests \
		-I/usr/local/cuda/include \
		-DVGPU_SMI_BIN='"$(abspath $(VGPU_SMI))"' \
		-o $@ $< $(CUDART_TEST_UTIL) -L$(LIB) \
		-Wl,-rpath,$(abspath $(LIB)) -lcuda
ALL_TARGETS += $(TST)/smi/test_smi
GUEST_TESTS += $(TST)/smi/test_smi
