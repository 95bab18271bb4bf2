# SPDX-License-Identifier: GPL-2.0
#
# The CUDA samples sweep (tools/samples-sweep) is not part of make check; its
# verdict rules are.
NATIVE_TESTS += tools/sweep/test-verdicts
