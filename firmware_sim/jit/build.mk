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
JIT_CFLAGS := -O2 -Ifirmware_sim/core -Ifirmware_sim/jit -Iumd \
	-isystem $(JIT_LLVM_INC)

# The native-code cache (jit_cache.c) keys entries by the translator: a
# hash of its sources and of the headers whose layouts and codes the
# machine code bakes in.  jit_cache.o depends on them all, so that the
# hash it is built with is always the current one.
JIT_HASHED := $(sort $(wildcard firmware_sim/jit/*.c firmware_sim/jit/*.h \
	include/vgpu_visa*.h) firmware_sim/core/core_internal.h \
	firmware_sim/core/visa_types.h)
JIT_TRANSLATOR_HASH := $(firstword $(shell cat $(JIT_HASHED) | sha256sum))
$(OBJ)/firmware_sim/jit/jit_cache.o $(OBJ)/san/firmware_sim/jit/jit_cache.o: \
	JIT_CFLAGS += -DJIT_TRANSLATOR_HASH='"$(JIT_TRANSLATOR_HASH)"'
$(OBJ)/firmware_sim/jit/jit_cache.o $(OBJ)/san/firmware_sim/jit/jit_cache.o: \
	$(JIT_HASHED)

$(JIT_OBJS): $(OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(JIT_CFLAGS) -MMD -MP -c $< -o $@

$(JIT_SAN_OBJS): $(OBJ)/san/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(SAN_CFLAGS) $(JIT_CFLAGS) -MMD -MP -c $< -o $@

-include $(JIT_OBJS:.o=.d) $(JIT_SAN_OBJS:.o=.d)

# jit_cache.c uses the compute cache (umd/cache): its objects go into the
# core's libraries too, the sanitizer copy with the sanitizer's objects.
JIT_CACHE_SRCS := $(wildcard umd/cache/*.c)
$(CORE_LIB): $(JIT_OBJS) $(patsubst %.c,$(OBJ)/%.o,$(JIT_CACHE_SRCS))
$(CORE_SAN_LIB): $(JIT_SAN_OBJS) $(patsubst %.c,$(OBJ)/san/%.o,$(JIT_CACHE_SRCS))
CORE_LDLIBS += $(JIT_LLVM_LIBS)
FW_LDLIBS += $(JIT_LLVM_LIBS)
