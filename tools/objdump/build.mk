# SPDX-License-Identifier: GPL-2.0
#
# vgpu-objdump: the vISA disassembler (build/bin/vgpu-objdump).  It links the
# core library for the validator.

OBJDUMP_SRCS := $(wildcard tools/objdump/*.c)
OBJDUMP_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(OBJDUMP_SRCS))
OBJDUMP := $(BIN)/vgpu-objdump

$(OBJDUMP_OBJS): $(OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -Ifirmware_sim/core -Itools/objdump -MMD -MP \
		-c $< -o $@
-include $(OBJDUMP_OBJS:.o=.d)

$(OBJDUMP): $(OBJDUMP_OBJS) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ $^ $(CORE_LDLIBS)

ALL_TARGETS += $(OBJDUMP)
