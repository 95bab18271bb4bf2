# SPDX-License-Identifier: GPL-2.0
#
# tests/kill/: SIGKILL at random moments to CUDA programs doing every kind
# of work; the device's accounting must return to zero and the next
# program compute correctly (tests/kill/kill_trials.c).
#
#   make check          20 trials (a guest test like the others)
#   make kill-test [TRIALS=1000] [KERNEL=6.12|6.1|debug] [SEED=1]
#                       the long run, outside CI; prints the figures
#
# kill_work is a CUDA program built by nvcc as a user's would be.

KILL_TST := $(TST)/kill

$(KILL_TST)/kill_work: tests/kill/kill_work.cu
	@mkdir -p $(dir $@)
	$(NVCC) -cudart shared -arch=sm_75 -O2 -std=c++17 -o $@ $<

$(OBJ)/tests/kill/kill_trials.o: tests/kill/kill_trials.c selftests/vgpu_lib.h
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -Iselftests -c $< -o $@

$(KILL_TST)/kill_trials: $(OBJ)/tests/kill/kill_trials.o \
		$(OBJ)/selftests/vgpu_lib.o | $(KILL_TST)/kill_work
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ $^

# The real firmware serves the trials (vgpu-vm --fw).
$(KILL_TST)/kill_trials.vmargs:
	@mkdir -p $(dir $@)
	echo --fw > $@

ALL_TARGETS += $(KILL_TST)/kill_work $(KILL_TST)/kill_trials \
	$(KILL_TST)/kill_trials.vmargs
GUEST_TESTS += $(KILL_TST)/kill_trials

TRIALS ?= 1000
# KERNEL and SEED: their defaults are make fuzz's (selftests/build.mk).
.PHONY: kill-test
kill-test: $(KILL_TST)/kill_work $(KILL_TST)/kill_trials $(B)/kmod/$(KERNEL)/vgpu.ko
	tools/vgpu-vm --kernel $(KERNEL) --fw --timeout $$(( $(TRIALS) * 30 + 600 )) \
		--env KILL_TRIALS=$(TRIALS) --env KILL_SEED=$(SEED) \
		-- $(KILL_TST)/kill_trials
