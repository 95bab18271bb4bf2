# SPDX-License-Identifier: GPL-2.0
#
# The SIMT execution core: build/lib/libvgpu-core.a (and a sanitizer copy
# in build/lib/san/ for the sanitizer test builds).  The firmware links it;
# so do the native tests and the benchmark (tests/build.mk).

# The files of the hot lane loops are built once per host vector level
# (simd.h, simd_dispatch.c): the baseline, and on x86-64 also x86-64-v3
# (AVX2, FMA) and x86-64-v4 (AVX-512).  Never -march=native: the level is
# chosen when the program starts, so the binary runs on any x86-64.
CORE_SIMD_SRCS := $(addprefix firmware_sim/core/,exec_int.c exec_float.c \
	exec_mem.c)
CORE_SIMD_LEVELS := base
CORE_SIMD_FLAGS_base :=
ifneq ($(filter x86_64-%,$(shell $(CC) -dumpmachine)),)
CORE_SIMD_LEVELS += v3 v4
CORE_SIMD_FLAGS_v3 := -march=x86-64-v3
CORE_SIMD_FLAGS_v4 := -march=x86-64-v4
CORE_SIMD_DEFS := -DCORE_SIMD_X86
endif

CORE_SRCS := $(filter-out $(CORE_SIMD_SRCS),$(wildcard firmware_sim/core/*.c))
CORE_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(CORE_SRCS))
CORE_SAN_OBJS := $(patsubst %.c,$(OBJ)/san/%.o,$(CORE_SRCS))
CORE_LIB := $(LIB)/libvgpu-core.a
CORE_SAN_LIB := $(LIB)/san/libvgpu-core.a
CORE_LDLIBS := -lpthread -lm

# -O3 lets GCC vectorize the 32-lane loops; -frounding-math keeps the
# floating-point operations inside the fesetround() brackets of .rz/.rm/.rp;
# -ffp-contract=off keeps a * b + c two roundings at every vector level
# (-std=c11 implies it; said here because the levels' equality needs it).
CORE_CFLAGS := -O3 -frounding-math -ffp-contract=off -Ifirmware_sim/core \
	$(CORE_SIMD_DEFS)

$(CORE_OBJS): $(OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(CORE_CFLAGS) -MMD -MP -c $< -o $@

$(CORE_SAN_OBJS): $(OBJ)/san/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(SAN_CFLAGS) $(CORE_CFLAGS) -MMD -MP -c $< -o $@

# core_simd_rules(level): exec_*.<level>.o, plain and sanitizer
define core_simd_rules
CORE_SIMD_OBJS_$(1) := $$(patsubst %.c,$$(OBJ)/%.$(1).o,$$(CORE_SIMD_SRCS))
CORE_SIMD_SAN_OBJS_$(1) := $$(patsubst %.c,$$(OBJ)/san/%.$(1).o,$$(CORE_SIMD_SRCS))
$$(CORE_SIMD_OBJS_$(1)): $$(OBJ)/%.$(1).o: %.c
	@mkdir -p $$(dir $$@)
	$$(CC) $$(USER_CFLAGS) $$(CORE_CFLAGS) $$(CORE_SIMD_FLAGS_$(1)) \
		-DCORE_SIMD=$(1) -MMD -MP -c $$< -o $$@
$$(CORE_SIMD_SAN_OBJS_$(1)): $$(OBJ)/san/%.$(1).o: %.c
	@mkdir -p $$(dir $$@)
	$$(CC) $$(USER_CFLAGS) $$(SAN_CFLAGS) $$(CORE_CFLAGS) \
		$$(CORE_SIMD_FLAGS_$(1)) -DCORE_SIMD=$(1) -MMD -MP -c $$< -o $$@
CORE_OBJS += $$(CORE_SIMD_OBJS_$(1))
CORE_SAN_OBJS += $$(CORE_SIMD_SAN_OBJS_$(1))
endef
$(foreach lv,$(CORE_SIMD_LEVELS),$(eval $(call core_simd_rules,$(lv))))

-include $(CORE_OBJS:.o=.d) $(CORE_SAN_OBJS:.o=.d)

$(CORE_LIB): $(CORE_OBJS)
$(CORE_SAN_LIB): $(CORE_SAN_OBJS)
$(CORE_LIB) $(CORE_SAN_LIB):
	@mkdir -p $(dir $@)
	@rm -f $@
	$(AR) rcs $@ $^

ALL_TARGETS += $(CORE_LIB) $(CORE_SAN_LIB)
