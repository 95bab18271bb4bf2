# SPDX-License-Identifier: GPL-2.0
#
# selftests/: kselftest-harness tests of the driver's uAPI.  They run inside
# the QEMU guest with vgpu.ko loaded (GUEST_TESTS), on both kernels.

# The harness is not -Wextra clean: include it as a system header.
SELFTESTS_CFLAGS := -std=gnu11 -isystem $(B)/ext/kselftest -Iselftests
SELFTESTS_LIB_SRCS := selftests/vgpu_lib.c selftests/vgpu_test_fw.c
SELFTESTS_LIB_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(SELFTESTS_LIB_SRCS))
SELFTESTS_PROGS := vgpu_uapi_test vgpu_fw_test vgpu_fuzz vgpu_race_test \
		   vgpu_admin_test \
		   vgpu_limits_test vgpu_managed_test
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

# --- long fuzzing, outside CI --------------------------------------------------
#
#   make fuzz [DURATION=600] [KERNEL=6.12|6.1|debug] [SEED=1] [THREADS=4]
#
# vgpu_fuzz for DURATION seconds in one guest (make check runs it for 3):
# privilege drops, forks killed mid-call, files replaced under the threads,
# and fault injection where the kernel has it (KERNEL=debug).  It prints the
# calls made and what it found; any kernel report in the guest's log (oops,
# WARN, KASAN, lockdep, kmemleak...) fails the run (tools/vgpu-vm).
DURATION ?= 600
THREADS ?= 4
KERNEL ?= 6.12
SEED ?= 1
.PHONY: fuzz
fuzz: $(TST)/selftests/vgpu_fuzz $(B)/kmod/$(KERNEL)/vgpu.ko
	tools/vgpu-vm --kernel $(KERNEL) --timeout $$(( $(DURATION) + 600 )) \
		--env VGPU_FUZZ_SECONDS=$(DURATION) --env VGPU_FUZZ_SEED=$(SEED) \
		--env VGPU_FUZZ_THREADS=$(THREADS) -- $(TST)/selftests/vgpu_fuzz
