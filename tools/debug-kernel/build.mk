# SPDX-License-Identifier: GPL-2.0
#
# The debug kernel (not part of `make all` or `make check`):
#
#   make debug-kernel   build Debian's linux-source-6.12 with KASAN, KFENCE,
#                       lockdep, DEBUG_ATOMIC_SLEEP, kmemleak, UBSAN and
#                       fault injection (tools/debug-kernel/build; cached
#                       outside the tree, so once per configuration)
#   make check-debug    every guest test (the selftests, the library and
#                       sample tests) in guests booting it; any report of
#                       the checkers in the kernel log fails the test
#
# Documentation/build-and-test.rst says how long each takes.

DEBUG_KERNEL := $(B)/debug-kernel

.PHONY: debug-kernel check-debug
debug-kernel: $(DEBUG_KERNEL)/bzImage

# build/debug-kernel links to the cached build; the script answers at once
# when the configuration was built before.
$(DEBUG_KERNEL)/bzImage: tools/debug-kernel/build tools/debug-kernel/debug.config
	@mkdir -p $(B)
	tools/setup --debug-kernel
	d=$$(tools/debug-kernel/build | tail -n 1) && \
		test -f "$$d/bzImage" && ln -sfn "$$d" $(DEBUG_KERNEL)

# vgpu.ko for the debug kernel, built against its tree in a shadow tree of
# its own, as for the Debian kernels.
$(B)/kmod/debug/vgpu.ko: $(KMOD_SRCS) $(DEBUG_KERNEL)/bzImage
	@rm -rf $(B)/kmod/debug/tree && mkdir -p $(B)/kmod/debug/tree
	@cp Kbuild $(B)/kmod/debug/tree/Kbuild && \
		cp -rs $(ROOT)/kmod $(B)/kmod/debug/tree/kmod
	$(MAKE) -C $(ROOT)/$(DEBUG_KERNEL)/build M=$(ROOT)/$(B)/kmod/debug/tree \
		VGPU_ROOT=$(ROOT) modules
	@cp $(B)/kmod/debug/tree/kmod/vgpu.ko $@

check-debug: all $(B)/kmod/debug/vgpu.ko
	tools/check --kernel debug --skip native --skip kernel --skip docs
