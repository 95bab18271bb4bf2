# SPDX-License-Identifier: GPL-2.0
#
# The SIMT execution core: build/lib/libvgpu-core.a (and a sanitizer copy
# in build/lib/san/ for the sanitizer test builds).  The firmware links it;
# so do the native tests and the benchmark (tests/build.mk).

CORE_SRCS := $(wildcard firmware_sim/core/*.c)
CORE_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(CORE_SRCS))
CORE_SAN_OBJS := $(patsubst %.c,$(OBJ)/san/%.o,$(CORE_SRCS))
CORE_LIB := $(LIB)/libvgpu-core.a
CORE_SAN_LIB := $(LIB)/san/libvgpu-core.a
CORE_LDLIBS := -lpthread -lm

# -O3 lets GCC vectorize the 32-lane loops; -frounding-math keeps the
# floating-point operations inside the fesetround() brackets of .rz/.rm/.rp.
CORE_CFLAGS := -O3 -frounding-math -Ifirmware_sim/core

$(CORE_OBJS): $(OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(CORE_CFLAGS) -MMD -MP -c $< -o $@

$(CORE_SAN_OBJS): $(OBJ)/san/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(SAN_CFLAGS) $(CORE_CFLAGS) -MMD -MP -c $< -o $@

-include $(CORE_OBJS:.o=.d) $(CORE_SAN_OBJS:.o=.d)

$(CORE_LIB): $(CORE_OBJS)
$(CORE_SAN_LIB): $(CORE_SAN_OBJS)
$(CORE_LIB) $(CORE_SAN_LIB):
	@mkdir -p $(dir $@)
	@rm -f $@
	$(AR) rcs $@ $^

ALL_TARGETS += $(CORE_LIB) $(CORE_SAN_LIB)
