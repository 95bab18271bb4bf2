# SPDX-License-Identifier: GPL-2.0
#
# firmware_sim: the firmware daemon build/bin/vgpu-fw (firmware_sim/fw/,
# linked with the execution core build/lib/libvgpu-core.a of
# firmware_sim/core/build.mk) and its guest tests (firmware_sim/tests/).
# Paths are relative to the repository root.

FW_BIN := $(BIN)/vgpu-fw
FW_SRCS := $(wildcard firmware_sim/fw/*.c)
FW_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(FW_SRCS))
FW_CFLAGS := -Ifirmware_sim/core -Ifirmware_sim/jit -pthread
FW_CORE_LIB := $(LIB)/libvgpu-core.a
FW_LDLIBS := -lpthread -lm

$(FW_OBJS): $(OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(FW_CFLAGS) -MMD -MP -c $< -o $@

$(FW_BIN): $(FW_OBJS) $(FW_CORE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(FW_CFLAGS) -o $@ $^ $(FW_LDLIBS)

ALL_TARGETS += $(FW_BIN)

# A copy built with ASan and UBSan, run by the sanitizer twin of the guest
# test (test_fw-san starts it instead of build/bin/vgpu-fw).
FW_SAN_BIN := $(TST)/firmware/vgpu-fw-san
FW_SAN_OBJS := $(patsubst %.c,$(OBJ)/san/%.o,$(FW_SRCS))

$(FW_SAN_OBJS): $(OBJ)/san/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(SAN_CFLAGS) $(FW_CFLAGS) -MMD -MP -c $< -o $@

$(FW_SAN_BIN): $(FW_SAN_OBJS) $(LIB)/san/libvgpu-core.a
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(SAN_CFLAGS) $(FW_CFLAGS) -o $@ $^ $(FW_LDLIBS)

ALL_TARGETS += $(FW_SAN_BIN)

# --- guest tests -------------------------------------------------------------
#
# They drive /dev/vgpu0 with the raw uAPI while they start, kill and restart
# the firmware themselves, and compile their kernels (PTX made here by nvcc)
# with libvgpu-ptx.  They find vgpu-fw next to themselves:
# build/tests/firmware/../../bin/vgpu-fw.

FW_TEST_DIR := $(TST)/firmware
FW_TEST_DATA := $(FW_TEST_DIR)/data
FW_TEST_UTIL_SRCS := $(wildcard firmware_sim/tests/util/*.c)
FW_TEST_SRCS := $(wildcard firmware_sim/tests/test_*.c)
FW_TEST_CU := $(wildcard firmware_sim/tests/kernels/*.cu)
FW_TEST_PTX := $(patsubst firmware_sim/tests/kernels/%.cu,$(FW_TEST_DATA)/%.ptx,$(FW_TEST_CU))
FW_TEST_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(FW_TEST_SRCS) $(FW_TEST_UTIL_SRCS))
FW_TEST_BINS := $(patsubst firmware_sim/tests/%.c,$(FW_TEST_DIR)/%,$(FW_TEST_SRCS))
# The kselftest harness is not -Wextra clean: a system header here.
FW_TEST_CFLAGS := -std=gnu11 -isystem $(B)/ext/kselftest -Iselftests -Iumd \
	-Ifirmware_sim/core -Ifirmware_sim/tests/util \
	-DFW_TEST_DATA='"$(abspath $(FW_TEST_DATA))"'

$(FW_TEST_OBJS): $(OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(FW_TEST_CFLAGS) -MMD -MP -c $< -o $@

$(FW_TEST_DATA)/%.ptx: firmware_sim/tests/kernels/%.cu
	@mkdir -p $(dir $@)
	$(NVCC) -ptx -arch=sm_75 -lineinfo -o $@ $<

$(FW_TEST_DIR)/%: $(OBJ)/firmware_sim/tests/%.o \
		$(patsubst %.c,$(OBJ)/%.o,$(FW_TEST_UTIL_SRCS)) \
		$(OBJ)/selftests/vgpu_lib.o $(LIB)/libvgpu-ptx.a $(FW_CORE_LIB) | $(FW_TEST_PTX) $(FW_BIN)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ $^ $(FW_LDLIBS)

# The sanitizer twins: test and firmware both built with ASan/UBSan.
FW_TEST_SAN_OBJS := $(patsubst %.c,$(OBJ)/san/%.o,$(FW_TEST_SRCS) $(FW_TEST_UTIL_SRCS))
FW_TEST_SAN_BINS := $(addsuffix -san,$(FW_TEST_BINS))

$(FW_TEST_SAN_OBJS): $(OBJ)/san/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(SAN_CFLAGS) $(FW_TEST_CFLAGS) \
		-DFW_TEST_FIRMWARE='"vgpu-fw-san"' -MMD -MP -c $< -o $@

$(FW_TEST_DIR)/%-san: $(OBJ)/san/firmware_sim/tests/%.o \
		$(patsubst %.c,$(OBJ)/san/%.o,$(FW_TEST_UTIL_SRCS)) \
		$(OBJ)/selftests/vgpu_lib.o $(LIB)/san/libvgpu-ptx.a \
		$(LIB)/san/libvgpu-core.a | $(FW_TEST_PTX) $(FW_SAN_BIN)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(SAN_CFLAGS) -o $@ $^ $(FW_LDLIBS)

# The native-tier twins: the same tests with the firmware started with
# --tier native (firmware_sim/jit/), so kernels run as LLVM-compiled code.
FW_TEST_NATIVE_OBJS := $(patsubst %.c,$(OBJ)/native/%.o,$(FW_TEST_SRCS) $(FW_TEST_UTIL_SRCS))
FW_TEST_NATIVE_BINS := $(addsuffix -native,$(FW_TEST_BINS))

$(FW_TEST_NATIVE_OBJS): $(OBJ)/native/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(FW_TEST_CFLAGS) -DFW_TEST_TIER='"native"' \
		-MMD -MP -c $< -o $@

$(FW_TEST_DIR)/%-native: $(OBJ)/native/firmware_sim/tests/%.o \
		$(patsubst %.c,$(OBJ)/native/%.o,$(FW_TEST_UTIL_SRCS)) \
		$(OBJ)/selftests/vgpu_lib.o $(LIB)/libvgpu-ptx.a $(FW_CORE_LIB) | $(FW_TEST_PTX) $(FW_BIN)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ $^ $(FW_LDLIBS)

ALL_TARGETS += $(FW_TEST_BINS) $(FW_TEST_SAN_BINS) $(FW_TEST_NATIVE_BINS)
GUEST_TESTS += $(FW_TEST_BINS) $(FW_TEST_SAN_BINS) $(FW_TEST_NATIVE_BINS)

# The benchmark: built here, run by hand in the guest (it asserts nothing).
FW_BENCH := $(FW_TEST_DIR)/bench_fw
$(OBJ)/firmware_sim/tests/bench_fw.o: firmware_sim/tests/bench_fw.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(FW_TEST_CFLAGS) -MMD -MP -c $< -o $@
ALL_TARGETS += $(FW_BENCH)

-include $(FW_OBJS:.o=.d) $(FW_TEST_OBJS:.o=.d) $(FW_SAN_OBJS:.o=.d) \
	$(FW_TEST_SAN_OBJS:.o=.d) $(FW_TEST_NATIVE_OBJS:.o=.d) \
	$(OBJ)/firmware_sim/tests/bench_fw.d
