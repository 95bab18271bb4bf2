# SPDX-License-Identifier: GPL-2.0
#
# The execution core's native tier (firmware_sim/jit/): vISA functions
# translated to host code with LLVM 15's ORC JIT (llvm-15-dev).  Its
# objects go into the core's libraries (build/lib/libvgpu-core.a and the
# sanitizer copy), because module.c and warp.c call into it; everything
# that links the core also links libLLVM-15 (CORE_LDLIBS, FW_LDLIBS).

LLVM_CONFIG ?= llvm-config-15
JIT_LLVM_INC := $(shell $(LLVM_CONFIG) --includedir 2>/dev/null)
JIT_LLVM_LIBDIR := $(shell $(LLVM_CONFIG) --libdir 2>/dev/null)
JIT_LLVM_LIBS := -L$(JIT_LLVM_LIBDIR) -lLLVM-15

JIT_SRCS := $(wildcard firmware_sim/jit/*.c)
JIT_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(JIT_SRCS))
JIT_SAN_OBJS := $(patsubst %.c,$(OBJ)/san/%.o,$(JIT_SRCS))
# The LLVM headers are system headers here (not ours to warn about).
JIT_CFLAGS := -O2 -Ifirmware_sim/core -Ifirmware_sim/jit \
	-isystem $(JIT_LLVM_INC)

$(JIT_OBJS): $(OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(JIT_CFLAGS) -MMD -MP -c $< -o $@

$(JIT_SAN_OBJS): $(OBJ)/san/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(SAN_CFLAGS) $(JIT_CFLAGS) -MMD -MP -c $< -o $@

-include $(JIT_OBJS:.o=.d) $(JIT_SAN_OBJS:.o=.d)

$(CORE_LIB): $(JIT_OBJS)
$(CORE_SAN_LIB): $(JIT_SAN_OBJS)
CORE_LDLIBS += $(JIT_LLVM_LIBS)
FW_LDLIBS += $(JIT_LLVM_LIBS)
