# SPDX-License-Identifier: GPL-2.0
#
# selftests/: kselftest-harness tests of the driver's uAPI.  They run inside
# the QEMU guest with vgpu.ko loaded (GUEST_TESTS), on both kernels.

# The harness is not -Wextra clean: include it as a system header.
SELFTESTS_CFLAGS := -std=gnu11 -isystem $(B)/ext/kselftest -Iselftests
SELFTESTS_LIB_SRCS := selftests/vgpu_lib.c selftests/vgpu_test_fw.c
SELFTESTS_LIB_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(SELFTESTS_LIB_SRCS))
SELFTESTS_PROGS := vgpu_uapi_test vgpu_fw_test vgpu_fuzz vgpu_race_test \
		   vgpu_limits_test
SELFTESTS_BINS := $(addprefix $(TST)/selftests/,$(SELFTESTS_PROGS))

$(OBJ)/selftests/%.o: selftests/%.c selftests/vgpu_lib.h \
		include/uapi/linux/vgpu.h include/vgpu_hw.h
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(SELFTESTS_CFLAGS) -c $< -o $@

$(TST)/selftests/%: $(OBJ)/selftests/%.o $(SELFTESTS_LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ $^ -lpthread

ALL_TARGETS += $(SELFTESTS_BINS)
GUEST_TESTS += $(SELFTESTS_BINS)

# The ABI layout check needs no driver: it runs on the host.
$(TST)/selftests/vgpu_abi_test: $(OBJ)/selftests/vgpu_abi_test.o
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ $^

ALL_TARGETS += $(TST)/selftests/vgpu_abi_test
NATIVE_TESTS += $(TST)/selftests/vgpu_abi_test

# (The top-level Makefile keeps every intermediate file: .SECONDARY.)
