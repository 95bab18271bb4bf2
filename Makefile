# SPDX-License-Identifier: GPL-2.0
#
# One entry point for the whole vGPU stack.
#
#   make            build everything into build/ (module for every supported
#                   kernel, libraries in build/lib, programs in build/bin)
#   make check      the test command: native tests, kernel build checks and
#                   the selftests in QEMU guests running both kernels
#   make run        the main job: build, boot the VM, load the driver, start
#                   the firmware and run the samples
#
# User-space parts are built non-recursively: each directory contributes a
# fragment, <dir>/build.mk or <dir>/<subdir>/build.mk, that appends to
# the lists below.  The kernel
# module is built by Kbuild (see Kbuild and kmod/Kbuild), once per kernel.

ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
B := build
OBJ := $(B)/obj
BIN := $(B)/bin
LIB := $(B)/lib
TST := $(B)/tests

CC ?= cc
NVCC ?= nvcc
CUDA_HOME ?= /usr/local/cuda

# Flags shared by all user-space C code.
USER_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -g \
	-fno-strict-aliasing -Iinclude -Iinclude/uapi $(EXTRA_CFLAGS)
# Tests are also built with these (a second copy of each test binary).
SAN_CFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all

# Lists filled in by the fragments.
ALL_TARGETS :=
NATIVE_TESTS :=
GUEST_TESTS :=
CLEAN_EXTRA :=

# Kernels the module is built for: short name -> Debian kernel release.
KERNELS := 6.1 6.12
KREL_6.1 := $(notdir $(firstword $(wildcard /lib/modules/6.1.*-cloud-amd64)))
KREL_6.12 := $(notdir $(firstword $(wildcard /lib/modules/6.12.*-cloud-amd64)))

.PHONY: all modules check run clean setup FORCE
all:

include $(sort $(wildcard */build.mk */*/build.mk))

all: $(ALL_TARGETS) modules $(TST)/native.list $(TST)/guest.list

# --- kernel module ---------------------------------------------------------
#
# Kbuild writes objects next to the sources, so each kernel gets its own
# shadow tree of symlinks under build/kmod/<kernel>/ and builds there.

KMOD_SRCS := $(wildcard kmod/*.c kmod/*.h) kmod/Kbuild Kbuild \
	$(wildcard include/*.h include/uapi/linux/*.h)

define kmod_rules
$(B)/kmod/$(1)/vgpu.ko: $(KMOD_SRCS)
	@test -n "$(KREL_$(1))" || { echo "kernel $(1) headers missing: run tools/setup" >&2; exit 1; }
	@rm -rf $(B)/kmod/$(1) && mkdir -p $(B)/kmod/$(1)
	@cp Kbuild $(B)/kmod/$(1)/Kbuild && cp -rs $(ROOT)/kmod $(B)/kmod/$(1)/kmod
	$(MAKE) -C /lib/modules/$(KREL_$(1))/build M=$(ROOT)/$(B)/kmod/$(1) \
		VGPU_ROOT=$(ROOT) $(KBUILD_ARGS) modules
	@cp $(B)/kmod/$(1)/kmod/vgpu.ko $$@
modules: $(B)/kmod/$(1)/vgpu.ko
endef
$(foreach k,$(KERNELS),$(eval $(call kmod_rules,$(k))))

# --- test lists --------------------------------------------------------------
#
# tools/check reads these: one command per line, each printing TAP.

$(TST)/native.list: FORCE
	@mkdir -p $(dir $@)
	@printf '%s\n' $(NATIVE_TESTS) > $@.tmp && mv $@.tmp $@
$(TST)/guest.list: FORCE
	@mkdir -p $(dir $@)
	@printf '%s\n' $(GUEST_TESTS) > $@.tmp && mv $@.tmp $@

check: all
	tools/check

run: all
	tools/run-samples

setup:
	tools/setup

clean:
	rm -rf $(B) $(CLEAN_EXTRA)
