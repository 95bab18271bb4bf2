# SPDX-License-Identifier: GPL-2.0
#
# tests/libs: NVIDIA's cuRAND, cuBLAS and cuSPARSE on vGPU (issue 18;
# Documentation/export-tables.rst).  The programs are built against the
# toolkit's headers and libraries where the toolkit has them; the guest
# test (test_libs, a script) runs them with vGPU's libraries first on the
# library path and reaches the toolkit through --share, and skips where the
# libraries are absent.
LIBS_TST := $(TST)/libs
LIBS_CUDA_LIB := $(realpath $(CUDA_HOME)/lib64)
LIBS_HAVE := $(and $(wildcard $(CUDA_HOME)/lib64/libcurand.so),\
	$(wildcard $(CUDA_HOME)/lib64/libcublas.so),\
	$(wildcard $(CUDA_HOME)/lib64/libcusparse.so),\
	$(wildcard $(CUDA_HOME)/include/curand.h))
LIBS_C_PROGS := curand_host cublas_gemm cusparse_spmv
libs_lib_curand_host := -lcurand
libs_lib_cublas_gemm := -lcublas
libs_lib_cusparse_spmv := -lcusparse

ifneq ($(LIBS_HAVE),)
$(addprefix $(LIBS_TST)/,$(LIBS_C_PROGS)): $(LIBS_TST)/%: tests/libs/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -Wall -Wextra -Werror \
		-isystem $(CUDA_HOME)/include -o $@ $< \
		-L$(CUDA_HOME)/lib64 $(libs_lib_$*) -lcudart -lm
# The device API: curand_kernel.h in a kernel, so nvcc (compute_90 PTX,
# which vGPU's PTX compiler loads).
$(LIBS_TST)/curand_device: tests/libs/curand_device.cu
	@mkdir -p $(dir $@)
	$(NVCC) -O2 -arch=compute_90 -code=compute_90 -cudart shared \
		-o $@ $<
$(LIBS_TST)/%.golden: tests/golden/%.txt
	@mkdir -p $(dir $@)
	cp $< $@
LIBS_BINS := $(addprefix $(LIBS_TST)/,$(LIBS_C_PROGS) curand_device \
	curand_host.golden curand_device.golden)
$(LIBS_TST)/test_libs: $(LIBS_BINS)
endif

$(LIBS_TST)/test_libs: tests/libs/test_libs.sh tests/libs/build.mk
	@mkdir -p $(dir $@)
	sed 's|@CUDA_LIB@|$(LIBS_CUDA_LIB)|' $< > $@.tmp
	chmod +x $@.tmp
	mv $@.tmp $@
$(LIBS_TST)/test_libs.vmargs: tests/libs/build.mk
	@mkdir -p $(dir $@)
	echo --fw --with $(abspath $(LIBS_TST)) $(if $(LIBS_CUDA_LIB),--share $(realpath $(CUDA_HOME))) > $@
ALL_TARGETS += $(LIBS_TST)/test_libs $(LIBS_TST)/test_libs.vmargs
GUEST_TESTS += $(LIBS_TST)/test_libs
