# SPDX-License-Identifier: GPL-2.0
#
# vectorAddDrv: a driver-API program in C, linked against our
# libcuda.so.1, with its kernel built by nvcc into a .ptx and a .fatbin
# that it loads at run time from its own directory.

VECADDDRV_BIN := $(BIN)/samples/vectorAddDrv
VECADDDRV_KERNEL := samples/vectorAddDrv/vectorAdd_kernel.cu

$(BIN)/samples/vectorAdd_kernel.ptx: $(VECADDDRV_KERNEL)
	@mkdir -p $(dir $@)
	$(NVCC) -ptx -arch=compute_75 -o $@ $<

$(BIN)/samples/vectorAdd_kernel.fatbin: $(VECADDDRV_KERNEL)
	@mkdir -p $(dir $@)
	$(NVCC) -fatbin -arch=sm_75 -o $@ $<

$(VECADDDRV_BIN): samples/vectorAddDrv/vectorAddDrv.c $(CUDA_DRV) \
		| $(BIN)/samples/vectorAdd_kernel.ptx \
		$(BIN)/samples/vectorAdd_kernel.fatbin
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -I$(CUDA_HOME)/include -o $@ $< -L$(LIB) -lcuda

ALL_TARGETS += $(VECADDDRV_BIN) $(BIN)/samples/vectorAdd_kernel.ptx \
	$(BIN)/samples/vectorAdd_kernel.fatbin
SAMPLES += $(VECADDDRV_BIN)
