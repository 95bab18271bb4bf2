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
#   make htmldocs   render Documentation/ into build/htmldocs/ (Sphinx)
#   make deb        Debian packages in build/deb/ (make deb-check tests them)
#   make samples-sweep CUDA_SAMPLES=DIR
#                   not part of check: build NVIDIA's CUDA samples (a
#                   checkout in DIR) as their CMake files do and run them in
#                   a guest; verdicts in build/sweep/verdicts.txt
#                   (tools/samples-sweep --help for its options, passed in
#                   SWEEP_ARGS)
#   make fuzz DURATION=SECONDS, make kill-test TRIALS=N
#                   not part of check: the ioctl/mmap fuzzer and the kill
#                   trials for as long as asked (selftests/build.mk,
#                   tests/kill/build.mk)
#   make debug-kernel, make check-debug
#                   not part of check: a KASAN/lockdep/kmemleak 6.12 kernel
#                   and the guest tests on it (tools/debug-kernel/build.mk)
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

# Knobs a user may set on the command line; empty unless set.
#   EXTRA_CFLAGS   more flags for all user-space C code
#   KBUILD_ARGS    more arguments to Kbuild for the module (e.g. W=1)
#   VGPU_NO_SETUP  non-empty: do not run tools/setup (package builds)
EXTRA_CFLAGS ?=
KBUILD_ARGS ?=
VGPU_NO_SETUP ?=

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
# Sample programs `make run` runs in the guest with the firmware started.
SAMPLES :=
CLEAN_EXTRA :=

# Every file the module is built from (the debug kernel's build reads it too).
KMOD_SRCS := $(wildcard kmod/*.c kmod/*.h) kmod/Kbuild Kbuild \
	$(wildcard include/*.h include/uapi/linux/*.h)

# Kernels the module is built for: short name -> Debian kernel release.
KERNELS := 6.1 6.12
KREL_6.1 := $(notdir $(firstword $(wildcard /lib/modules/6.1.*-cloud-amd64)))
KREL_6.12 := $(notdir $(firstword $(wildcard /lib/modules/6.12.*-cloud-amd64)))

.PHONY: all modules check run clean setup samples-sweep FORCE

# Keep every file the build makes: pattern-rule outputs such as test data
# (PTX made by nvcc) are needed at run time, not only as inputs.
.SECONDARY:
all:

# make expands a rule's prerequisites as it reads the rule, so a fragment
# can name another's files there only if that fragment was read first.  They
# are read in the order things are built on one another: the execution core
# and the test library, the user-mode driver, the samples (the driver-API
# one links libcuda), then the tools whose tests link and run them all.
# tests/make-order checks that no fragment reads a name not yet set.
FRAGMENTS := $(sort $(wildcard */build.mk */*/build.mk))
FRAGMENT_ORDER := firmware_sim/% tests/build.mk umd/% samples/%
include $(foreach p,$(FRAGMENT_ORDER),$(filter $(p),$(FRAGMENTS))) \
	$(filter-out $(FRAGMENT_ORDER),$(FRAGMENTS))

# Files extracted from Debian's linux-source package (the kselftest harness,
# checkpatch) and the packages the build needs come from tools/setup.  As an
# included makefile, the stamp is brought up to date before anything else is
# built, so a plain `make` on a fresh machine works too.
# VGPU_NO_SETUP=1 skips it (debian/rules: dpkg checks the build dependencies).
ifeq ($(filter clean,$(MAKECMDGOALS))$(VGPU_NO_SETUP),)
-include $(B)/ext/setup.stamp
endif
$(B)/ext/setup.stamp: tools/setup
	tools/setup
	@touch $@

all: $(ALL_TARGETS) modules $(TST)/native.list $(TST)/guest.list \
	$(TST)/samples.list

# --- kernel module ---------------------------------------------------------
#
# Kbuild writes objects next to the sources, so each kernel gets its own
# shadow tree of symlinks under build/kmod/<kernel>/ and builds there.


# $(call kbuild,<kernel>,<dir>,<extra kbuild args>): build the module in a
# fresh shadow tree <dir>.
define kbuild
	@test -n "$(KREL_$(1))" || { echo "kernel $(1) headers missing: run tools/setup" >&2; exit 1; }
	@rm -rf $(2) && mkdir -p $(2)
	@cp Kbuild $(2)/Kbuild && cp -rs $(ROOT)/kmod $(2)/kmod
	$(MAKE) -C /lib/modules/$(KREL_$(1))/build M=$(ROOT)/$(2) \
		VGPU_ROOT=$(ROOT) $(3) modules
endef

define kmod_rules
$(B)/kmod/$(1)/vgpu.ko: $(KMOD_SRCS)
	$(call kbuild,$(1),$(B)/kmod/$(1)/tree,$(KBUILD_ARGS))
	@cp $(B)/kmod/$(1)/tree/kmod/vgpu.ko $$@
modules: $(B)/kmod/$(1)/vgpu.ko

# The build checks of `make check`: W=1 and sparse on every file; any
# diagnostic fails.
.PHONY: kcheck-$(1)
kcheck-$(1):
	$(call kbuild,$(1),$(B)/kcheck/$(1),W=1 C=2) > $(B)/kcheck-$(1).log 2>&1 || \
		{ cat $(B)/kcheck-$(1).log; exit 1; }
	@if grep -E -i 'warning|error' $(B)/kcheck-$(1).log | \
	    grep -v 'jobserver unavailable'; then \
		echo "kernel $(1): the W=1/sparse build is not clean"; exit 1; fi
	@echo "kernel $(1) ($(KREL_$(1))): W=1 C=2 build clean"
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

$(TST)/samples.list: FORCE
	@mkdir -p $(dir $@)
	@printf '%s\n' $(SAMPLES) > $@.tmp && mv $@.tmp $@

# The two commands of the README.  Both install what is missing first
# (tools/setup is idempotent and quick once done), then build.
check:
	tools/setup
	$(MAKE) all
	tools/check

run:
	tools/setup
	$(MAKE) all
	tools/run-samples

# A shell in a guest with the driver loaded and the firmware running.
.PHONY: shell
shell: all
	tools/vgpu-vm --shell

setup:
	tools/setup

# --- rendered documentation --------------------------------------------------
#
# Sphinx with the kernel's kernel-doc extension (Documentation/conf.py).  Any
# warning fails, from Sphinx (-W) and from kernel-doc (KDOC_WERROR): a broken
# reference or a stale kernel-doc comment is a bug like a compiler warning.
# -E: read every page each time; Sphinx repeats no warning of a page it
# does not read again, so an incremental build would pass a broken page.
.PHONY: htmldocs deb deb-check
htmldocs:
	KDOC_WERROR=1 sphinx-build -E -W --keep-going -q -b html \
		-d $(B)/htmldocs-doctrees Documentation $(B)/htmldocs
	@echo "htmldocs: $(B)/htmldocs/index.html"

# --- NVIDIA's samples --------------------------------------------------------
#
# NVIDIA's CUDA samples, built as their CMakeLists build them and run in a
# guest (Documentation/build-and-test.rst).  Slow, and needs a checkout of
# github.com/NVIDIA/cuda-samples that the project does not carry.
samples-sweep: all
	@test -n "$(CUDA_SAMPLES)" || { echo "usage: make samples-sweep CUDA_SAMPLES=/path/to/cuda-samples" >&2; exit 2; }
	tools/samples-sweep --samples "$(CUDA_SAMPLES)" $(SWEEP_ARGS)

clean:
	rm -rf $(B) $(CLEAN_EXTRA)

# --- Debian packages -----------------------------------------------------------
#
# Built by Debian's own tooling from debian/, in a copy of the tree's source
# files (dpkg-buildpackage writes its results next to the tree it builds):
# build/deb/*.deb.  deb-check installs them into a scratch root and has DKMS
# build the module from the packaged sources for each kernel.
DEB_DIR := $(B)/deb
deb:
	tools/setup --deb
	rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/src
	git ls-files -z --cached --others --exclude-standard | \
		tar --null -T - -cf - | tar -xf - -C $(DEB_DIR)/src
	cd $(DEB_DIR)/src && dpkg-buildpackage -b -us -uc
	lintian --info --fail-on error,warning $(DEB_DIR)/*.changes
	@ls $(DEB_DIR)/*.deb

deb-check: deb
	tools/deb-check $(DEB_DIR) $(foreach k,$(KERNELS),$(KREL_$(k)))
