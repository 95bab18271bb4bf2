# SPDX-License-Identifier: GPL-2.0
#
# The guest runner's own test: a script, run on the host, that boots guests.
NATIVE_TESTS += tools/vm/test-vgpu-vm
