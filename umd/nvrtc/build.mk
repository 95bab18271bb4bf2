# SPDX-License-Identifier: GPL-2.0
#
# umd/nvrtc: the run-time compilation fronts libnvrtc.so.13 and
# libnvJitLink.so.13 (Documentation/nvrtc.rst), and their guest tests.
#
# Each front is compiled against the toolkit's own header, so every
# export has NVIDIA's signature, and exports exactly NVIDIA's names under
# NVIDIA's version node (the .map files).  NVIDIA's library itself is
# found at run time (toolkit_lib.c), never linked.

NVRTC_FRONT := $(LIB)/libnvrtc.so.13
NVJITLINK_FRONT := $(LIB)/libnvJitLink.so.13
NVRTC_COMMON_SRCS := umd/nvrtc/toolkit_lib.c umd/nvrtc/arch_option.c
NVRTC_FRONT_SRCS := umd/nvrtc/nvrtc_front.c $(NVRTC_COMMON_SRCS)
NVJITLINK_FRONT_SRCS := umd/nvrtc/nvjitlink_front.c $(NVRTC_COMMON_SRCS)
# vGPU's PTX compiler, as libcuda has it (umd/cuda/build.mk): the
# nvJitLink front compiles the linked PTX into a vISA image.
NVJITLINK_PTX_OBJS := $(filter $(OBJ)/pic/umd/ptx/%,$(CUDA_DRV_DEPS_OBJS))
NVRTC_ALL_SRCS := $(sort $(NVRTC_FRONT_SRCS) $(NVJITLINK_FRONT_SRCS))
NVRTC_ALL_OBJS := $(patsubst %.c,$(OBJ)/%.pic.o,$(NVRTC_ALL_SRCS))

$(NVRTC_ALL_OBJS): $(OBJ)/%.pic.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -fPIC -fvisibility=hidden -Iumd \
		-I$(CUDA_HOME)/include \
		-MMD -MP -c $< -o $@

-include $(NVRTC_ALL_OBJS:.o=.d)

# __nvrtcCPEx, NVIDIA's undeclared export, is a jump (nvrtc_internal.S).
NVRTC_ASM_OBJ := $(OBJ)/umd/nvrtc/nvrtc_internal.pic.o
$(NVRTC_ASM_OBJ): umd/nvrtc/nvrtc_internal.S
	@mkdir -p $(dir $@)
	$(CC) -fPIC -c $< -o $@

$(NVRTC_FRONT): $(patsubst %.c,$(OBJ)/%.pic.o,$(NVRTC_FRONT_SRCS)) \
		$(NVRTC_ASM_OBJ) umd/nvrtc/libnvrtc.map
	@mkdir -p $(dir $@)
	$(CC) -shared -o $@ -Wl,-soname,libnvrtc.so.13 \
		-Wl,--version-script=umd/nvrtc/libnvrtc.map -Wl,-z,defs \
		$(filter %.o,$^) -ldl -lpthread
$(NVJITLINK_FRONT): $(patsubst %.c,$(OBJ)/%.pic.o,$(NVJITLINK_FRONT_SRCS)) \
		$(NVJITLINK_PTX_OBJS) umd/nvrtc/libnvJitLink.map
	@mkdir -p $(dir $@)
	$(CC) -shared -o $@ -Wl,-soname,libnvJitLink.so.13 \
		-Wl,--version-script=umd/nvrtc/libnvJitLink.map -Wl,-z,defs \
		$(filter %.o,$^) -ldl -lpthread
$(LIB)/libnvrtc.so: $(NVRTC_FRONT)
	ln -sf libnvrtc.so.13 $@
$(LIB)/libnvJitLink.so: $(NVJITLINK_FRONT)
	ln -sf libnvJitLink.so.13 $@

ALL_TARGETS += $(NVRTC_FRONT) $(LIB)/libnvrtc.so $(NVJITLINK_FRONT) \
	$(LIB)/libnvJitLink.so

# Sanitizer (ASan + UBSan) copies, beside the sanitizer libcuda, for the
# -san tests.  Those are linked with an RPATH, not a RUNPATH: the guest's
# LD_LIBRARY_PATH (build/lib) would otherwise win over build/lib/san.
NVRTC_FRONT_SAN := $(LIB)/san/libnvrtc.so.13
NVJITLINK_FRONT_SAN := $(LIB)/san/libnvJitLink.so.13
NVRTC_SAN_OBJ = $(patsubst %.c,$(OBJ)/san-pic/%.o,$(1))
NVRTC_ALL_SAN_OBJS := $(call NVRTC_SAN_OBJ,$(NVRTC_ALL_SRCS))
NVJITLINK_PTX_SAN_OBJS := \
	$(filter $(OBJ)/san-pic/umd/ptx/%,$(CUDA_DRV_SAN_OBJS))

$(NVRTC_ALL_SAN_OBJS): $(OBJ)/san-pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(SAN_CFLAGS) -fPIC -fvisibility=hidden -Iumd \
		-I$(CUDA_HOME)/include -MMD -MP -c $< -o $@

-include $(NVRTC_ALL_SAN_OBJS:.o=.d)

$(NVRTC_FRONT_SAN): $(call NVRTC_SAN_OBJ,$(NVRTC_FRONT_SRCS)) \
		$(NVRTC_ASM_OBJ) umd/nvrtc/libnvrtc.map
	@mkdir -p $(dir $@)
	$(CC) $(SAN_CFLAGS) -shared -o $@ -Wl,-soname,libnvrtc.so.13 \
		-Wl,--version-script=umd/nvrtc/libnvrtc.map \
		$(filter %.o,$^) -ldl -lpthread
$(NVJITLINK_FRONT_SAN): $(call NVRTC_SAN_OBJ,$(NVJITLINK_FRONT_SRCS)) \
		$(NVJITLINK_PTX_SAN_OBJS) umd/nvrtc/libnvJitLink.map
	@mkdir -p $(dir $@)
	$(CC) $(SAN_CFLAGS) -shared -o $@ -Wl,-soname,libnvJitLink.so.13 \
		-Wl,--version-script=umd/nvrtc/libnvJitLink.map \
		$(filter %.o,$^) -ldl -lpthread
$(LIB)/san/libnvrtc.so: $(NVRTC_FRONT_SAN)
	ln -sf libnvrtc.so.13 $@
$(LIB)/san/libnvJitLink.so: $(NVJITLINK_FRONT_SAN)
	ln -sf libnvJitLink.so.13 $@

ALL_TARGETS += $(NVRTC_FRONT_SAN) $(NVJITLINK_FRONT_SAN) \
	$(LIB)/san/libnvrtc.so $(LIB)/san/libnvJitLink.so

# --- guest tests ---------------------------------------------------------
#
# Built as any NVRTC/nvJitLink program is (-lnvrtc, -lnvJitLink, with
# build/lib first so the fronts are found).  NVIDIA's libraries reach the
# guest through TEST.vmargs (--with, when the toolkit has them; the tests
# skip otherwise).  nvrtc_test_rule: test name, libraries, NVIDIA's
# libraries for the guest, other vgpu-vm options.
NVRTC_TST := $(TST)/nvrtc
NVRTC_TOOLKIT_LIBS := $(wildcard $(CUDA_HOME)/lib64/libnvrtc.so.13 \
	$(CUDA_HOME)/lib64/libnvrtc-builtins.so.13.0)
NVJITLINK_TOOLKIT_LIBS := $(wildcard $(CUDA_HOME)/lib64/libnvJitLink.so.13)
NVRTC_TEST_DEPS := umd/nvrtc/tests/rtc_test.h umd/cuda/tests/fw_launcher.c \
	umd/cuda/tests/cuda_test.h \
	umd/cuda/tests/fw_launcher.h $(CUDA_DRV) $(NVRTC_FRONT) \
	$(NVJITLINK_FRONT) $(LIB)/libnvrtc.so $(LIB)/libnvJitLink.so
NVRTC_TEST_SAN_DEPS := umd/nvrtc/tests/rtc_test.h umd/cuda/tests/fw_launcher.c \
	umd/cuda/tests/cuda_test.h umd/cuda/tests/fw_launcher.h \
	$(CUDA_DRV_SAN) $(NVRTC_FRONT_SAN) $(NVJITLINK_FRONT_SAN) \
	$(LIB)/san/libnvrtc.so $(LIB)/san/libnvJitLink.so

define nvrtc_test_rule
$(NVRTC_TST)/$(1): umd/nvrtc/tests/$(1).c $(NVRTC_TEST_DEPS)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(USER_CFLAGS) $$(CUDA_TEST_CFLAGS) -o $$@ \
		umd/nvrtc/tests/$(1).c umd/cuda/tests/fw_launcher.c \
		-L$$(LIB) -Wl,-rpath,$$(abspath $$(LIB)) $(2) -lcuda -lpthread
$(NVRTC_TST)/$(1).vmargs: $(3) umd/nvrtc/build.mk
	@mkdir -p $$(dir $$@)
	echo $(addprefix --with ,$(3)) > $$@
$(NVRTC_TST)/$(1)-san: umd/nvrtc/tests/$(1).c $(NVRTC_TEST_SAN_DEPS)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(USER_CFLAGS) $$(SAN_CFLAGS) $$(CUDA_TEST_CFLAGS) -o $$@ \
		umd/nvrtc/tests/$(1).c umd/cuda/tests/fw_launcher.c \
		-L$$(LIB)/san -Wl,--disable-new-dtags \
		-Wl,-rpath,$$(abspath $$(LIB)/san) $(2) -lcuda -lpthread
$(NVRTC_TST)/$(1)-san.vmargs: $(NVRTC_TST)/$(1).vmargs
	cp $$< $$@
ALL_TARGETS += $(NVRTC_TST)/$(1) $(NVRTC_TST)/$(1).vmargs \
	$(NVRTC_TST)/$(1)-san $(NVRTC_TST)/$(1)-san.vmargs
GUEST_TESTS += $(NVRTC_TST)/$(1) $(NVRTC_TST)/$(1)-san
endef
$(eval $(call nvrtc_test_rule,test_nvrtc,-lnvrtc,$(NVRTC_TOOLKIT_LIBS)))

# test_nvrtc_absent: the same fronts in a guest without NVIDIA's libraries.
$(eval $(call nvrtc_test_rule,test_nvrtc_absent,-lnvJitLink -lnvrtc,))

# test_nvjitlink also links a SASS cubin, which vGPU refuses with a reason.
NVRTC_SASS_CUBIN := $(TST)/nvrtc-data/twice.sm_90.cubin
$(NVRTC_SASS_CUBIN): umd/nvrtc/tests/kernels/twice.cu
	@mkdir -p $(dir $@)
	$(NVCC) -cubin -rdc=true -arch=sm_90 -o $@ $<
$(NVRTC_TST)/test_nvjitlink $(NVRTC_TST)/test_nvjitlink-san: $(NVRTC_SASS_CUBIN)
$(NVRTC_TST)/test_nvjitlink $(NVRTC_TST)/test_nvjitlink-san: \
	private CUDA_TEST_CFLAGS += \
	-DSASS_CUBIN='"$(abspath $(NVRTC_SASS_CUBIN))"'
# Its guest holds both of NVIDIA's libraries (over 200 MiB, unpacked in
# the guest's memory): it gets 4 GiB.
$(eval $(call nvrtc_test_rule,test_nvjitlink,-lnvJitLink -lnvrtc,\
	$(NVRTC_TOOLKIT_LIBS) $(NVJITLINK_TOOLKIT_LIBS),--memory 4096))

# --- host tests ------------------------------------------------------------
$(NVRTC_TST)/native_front_exports: umd/nvrtc/tests/native_front_exports.c \
		$(NVRTC_FRONT) $(NVJITLINK_FRONT)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -DFRONT_DIR='"$(abspath $(LIB))"' \
		-DTOOLKIT_DIR='"$(CUDA_HOME)/lib64"' -o $@ $<
$(NVRTC_TST)/native_arch_option: umd/nvrtc/tests/native_arch_option.c \
		umd/nvrtc/arch_option.c umd/nvrtc/arch_option.h
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -Iumd/nvrtc -o $@ $< umd/nvrtc/arch_option.c
ALL_TARGETS += $(NVRTC_TST)/native_front_exports $(NVRTC_TST)/native_arch_option
NATIVE_TESTS += $(NVRTC_TST)/native_front_exports $(NVRTC_TST)/native_arch_option
