# SPDX-License-Identifier: GPL-2.0
#
# umd/libvgpu (libvgpu.a: the thin ioctl/mmap layer), umd/cuda
# (libcuda.so.1: the CUDA driver API), their guest tests and the
# vectorAddDrv sample.  Paths are relative to the repository root.
#
# libcuda is compiled against the CUDA toolkit's own cuda.h, so every
# exported function has exactly NVIDIA's signature and versioned name
# (cuMemAlloc -> cuMemAlloc_v2 ...).  Only the cu* API is exported
# (hidden visibility + version script).

LIBVGPU_LIB := $(LIB)/libvgpu.a
LIBVGPU_SRCS := $(wildcard umd/libvgpu/*.c)
LIBVGPU_OBJS := $(patsubst %.c,$(OBJ)/%.pic.o,$(LIBVGPU_SRCS))

CUDA_DRV := $(LIB)/libcuda.so.1
CUDA_DRV_SRCS := $(wildcard umd/cuda/*.c)
CUDA_DRV_OBJS := $(patsubst %.c,$(OBJ)/%.pic.o,$(CUDA_DRV_SRCS))
# The device runtime's PTX, embedded as a string (devrt_ptx.S, devrt.c).
CUDA_DEVRT_OBJ := $(OBJ)/umd/cuda/devrt_ptx.o
CUDA_DRV_CFLAGS := -fPIC -fvisibility=hidden -Iumd -I$(CUDA_HOME)/include
CUDA_DRV_LDLIBS := -lpthread -lzstd -llz4

$(LIBVGPU_OBJS) $(CUDA_DRV_OBJS): $(OBJ)/%.pic.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(CUDA_DRV_CFLAGS) -MMD -MP -c $< -o $@

-include $(LIBVGPU_OBJS:.o=.d) $(CUDA_DRV_OBJS:.o=.d)

# Its error tables come from the runtime's (umd/cudart/error_table.c),
# printed as PTX by a program built for the purpose.
CUDA_DEVRT_ERRORS := $(OBJ)/umd/cuda/devrt_errors.ptx
CUDA_DEVRT_GEN := $(OBJ)/umd/cuda/gen/devrt_errors_gen
$(CUDA_DEVRT_GEN): umd/cuda/gen/devrt_errors_gen.c umd/cudart/error_table.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -I$(CUDA_HOME)/include -o $@ $^
$(CUDA_DEVRT_ERRORS): $(CUDA_DEVRT_GEN)
	$< > $@.tmp && mv $@.tmp $@
$(CUDA_DEVRT_OBJ): umd/cuda/devrt_ptx.S umd/cuda/devrt.ptx $(CUDA_DEVRT_ERRORS)
	@mkdir -p $(dir $@)
	$(CC) -Wa,-I$(dir $(CUDA_DEVRT_ERRORS)) -c $< -o $@
CUDA_DRV_OBJS += $(CUDA_DEVRT_OBJ)

$(LIBVGPU_LIB): $(LIBVGPU_OBJS)
	@mkdir -p $(dir $@)
	@rm -f $@
	$(AR) rcs $@ $^

# The PTX compiler, the fatbin reader and the compute cache go into the
# shared library.  Their own archives hold objects built for executables,
# so they are compiled again here as position-independent code (and with
# hidden visibility: libcuda exports only cu*).
CUDA_DRV_DEPS_SRCS := $(wildcard umd/ptx/*.c umd/fatbin/*.c umd/cache/*.c)
CUDA_DRV_DEPS_OBJS := $(patsubst %.c,$(OBJ)/pic/%.o,$(CUDA_DRV_DEPS_SRCS))

$(CUDA_DRV_DEPS_OBJS): $(OBJ)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -fPIC -fvisibility=hidden -Iumd -Iumd/cache \
		-MMD -MP -c $< -o $@

-include $(CUDA_DRV_DEPS_OBJS:.o=.d)

$(CUDA_DRV): $(CUDA_DRV_OBJS) $(LIBVGPU_OBJS) $(CUDA_DRV_DEPS_OBJS) \
		umd/cuda/exports.map
	@mkdir -p $(dir $@)
	$(CC) -shared -o $@ -Wl,-soname,libcuda.so.1 \
		-Wl,--version-script=umd/cuda/exports.map -Wl,-z,defs \
		$(CUDA_DRV_OBJS) $(LIBVGPU_OBJS) $(CUDA_DRV_DEPS_OBJS) \
		$(CUDA_DRV_LDLIBS)
	@# The name -lcuda links against, made with the library: a rule that
	@# depends on $(CUDA_DRV) and links -L$(LIB) -lcuda must not find the
	@# toolkit's stub instead (it lacks the GL interop calls), which a
	@# parallel build from scratch did when this was a rule of its own.
	ln -sf libcuda.so.1 $(dir $@)libcuda.so

ALL_TARGETS += $(LIBVGPU_LIB) $(CUDA_DRV)

# libvgpu's packet helpers against the packet types of vgpu_hw.h, on a
# queue in plain memory (a native test: no device needed).
LIBVGPU_PKT_TEST := $(TST)/libvgpu/test_libvgpu_packets
LIBVGPU_PKT_TEST_SRCS := umd/libvgpu/tests/test_libvgpu_packets.c \
	$(LIBVGPU_SRCS)
LIBVGPU_PKT_TEST_CFLAGS := -std=gnu11 -isystem $(B)/ext/kselftest \
	-Iumd/libvgpu -DVGPU_HW_H='"$(abspath include/vgpu_hw.h)"'
$(LIBVGPU_PKT_TEST): $(LIBVGPU_PKT_TEST_SRCS) umd/libvgpu/libvgpu.h \
		umd/libvgpu/libvgpu_internal.h include/vgpu_hw.h
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(LIBVGPU_PKT_TEST_CFLAGS) -o $@ \
		$(LIBVGPU_PKT_TEST_SRCS)
$(LIBVGPU_PKT_TEST)-san: $(LIBVGPU_PKT_TEST_SRCS) umd/libvgpu/libvgpu.h \
		umd/libvgpu/libvgpu_internal.h include/vgpu_hw.h
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(SAN_CFLAGS) $(LIBVGPU_PKT_TEST_CFLAGS) -o $@ \
		$(LIBVGPU_PKT_TEST_SRCS)
ALL_TARGETS += $(LIBVGPU_PKT_TEST) $(LIBVGPU_PKT_TEST)-san
NATIVE_TESTS += $(LIBVGPU_PKT_TEST) $(LIBVGPU_PKT_TEST)-san

# --- guest tests ---------------------------------------------------------------
#
# API tests of libcuda.so.1, run in the guest by tools/check (each starts
# the firmware itself: tests/fw_launcher.c).  Kernels come from
# tests/kernels/*.cu through nvcc, as PTX and as a fatbinary.  Each test
# also exists built against a sanitizer (ASan + UBSan) copy of libcuda.

CUDA_TST := $(TST)/cuda
CUDA_TEST_DATA := $(TST)/cuda-data
CUDA_TEST_NAMES := $(patsubst umd/cuda/tests/%.c,%,\
	$(wildcard umd/cuda/tests/test_*.c))
CUDA_TEST_KERNELS := $(CUDA_TEST_DATA)/host_func_kernels.ptx \
	$(CUDA_TEST_DATA)/drv_kernels.ptx \
	$(CUDA_TEST_DATA)/drv_kernels.fatbin $(CUDA_TEST_DATA)/drv_kernels.visa
# gnu11 and -isystem: what the kselftest harness needs to build warning-free.
CUDA_TEST_CFLAGS := -std=gnu11 -I$(CUDA_HOME)/include -isystem $(B)/ext/kselftest \
	-Iinclude -Iumd/cuda/tests -DCUDA_TEST_DATA='"$(abspath $(CUDA_TEST_DATA))"'

$(CUDA_TEST_DATA)/%.ptx: umd/cuda/tests/kernels/%.cu
	@mkdir -p $(dir $@)
	$(NVCC) -ptx -arch=compute_75 -o $@ $<
$(CUDA_TEST_DATA)/%.fatbin: umd/cuda/tests/kernels/%.cu
	@mkdir -p $(dir $@)
	$(NVCC) -fatbin -arch=sm_75 -o $@ $<
# A vISA image made ahead of time by vgpu-ptxas, for cuModuleLoad of vISA.
# (vgpu-ptxas by its path: umd/ptx/build.mk, which names it, comes later.)
$(CUDA_TEST_DATA)/%.visa: $(CUDA_TEST_DATA)/%.ptx $(BIN)/vgpu-ptxas
	$(BIN)/vgpu-ptxas -o $@ $<

# test_cu_link joins an -rdc=true pair with cuLink*: as PTX, as a
# fatbinary (PTX and SASS), as host objects and as a library; SASS alone
# (a cubin, a fatbinary without PTX) for the inputs vGPU cannot use.
CUDA_LINK_DATA := $(addprefix $(CUDA_TEST_DATA)/,link_a.rdc.ptx \
	link_b.rdc.ptx link_b.rdc.fatbin link_b.sass.fatbin link_b.cubin \
	link_a.o liblink_b.a)
$(CUDA_TEST_DATA)/%.rdc.ptx: umd/cuda/tests/kernels/%.cu
	@mkdir -p $(dir $@)
	$(NVCC) -ptx -rdc=true -arch=compute_75 -o $@ $<
$(CUDA_TEST_DATA)/%.rdc.fatbin: umd/cuda/tests/kernels/%.cu
	@mkdir -p $(dir $@)
	$(NVCC) -fatbin -rdc=true -arch=sm_75 -o $@ $<
$(CUDA_TEST_DATA)/%.sass.fatbin: umd/cuda/tests/kernels/%.cu
	@mkdir -p $(dir $@)
	$(NVCC) -fatbin -rdc=true -gencode arch=compute_75,code=sm_75 -o $@ $<
$(CUDA_TEST_DATA)/%.cubin: umd/cuda/tests/kernels/%.cu
	@mkdir -p $(dir $@)
	$(NVCC) -cubin -rdc=true -arch=sm_75 -o $@ $<
$(CUDA_TEST_DATA)/%.o: umd/cuda/tests/kernels/%.cu
	@mkdir -p $(dir $@)
	$(NVCC) -dc -arch=sm_75 -o $@ $<
$(CUDA_TEST_DATA)/liblink_b.a: $(CUDA_TEST_DATA)/link_b.o
	$(NVCC) -lib -o $@ $<
ALL_TARGETS += $(CUDA_LINK_DATA)

# The sanitizer copy of the library, for the -san tests.
CUDA_DRV_SAN := $(LIB)/san/libcuda.so.1
CUDA_DRV_SAN_SRCS := $(CUDA_DRV_SRCS) $(LIBVGPU_SRCS) $(CUDA_DRV_DEPS_SRCS)
CUDA_DRV_SAN_OBJS := $(patsubst %.c,$(OBJ)/san-pic/%.o,$(CUDA_DRV_SAN_SRCS))

$(CUDA_DRV_SAN_OBJS): $(OBJ)/san-pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(SAN_CFLAGS) $(CUDA_DRV_CFLAGS) -Iumd/cache \
		-MMD -MP -c $< -o $@

-include $(CUDA_DRV_SAN_OBJS:.o=.d)

$(CUDA_DRV_SAN): $(CUDA_DRV_SAN_OBJS) $(CUDA_DEVRT_OBJ) umd/cuda/exports.map
	@mkdir -p $(dir $@)
	$(CC) $(SAN_CFLAGS) -shared -o $@ -Wl,-soname,libcuda.so.1 \
		-Wl,--version-script=umd/cuda/exports.map \
		$(CUDA_DRV_SAN_OBJS) $(CUDA_DEVRT_OBJ) $(CUDA_DRV_LDLIBS)
	@# The -san tests link with -L$(LIB)/san -lcuda (as above).
	ln -sf libcuda.so.1 $(dir $@)libcuda.so

CUDA_TEST_UTIL := umd/cuda/tests/fw_launcher.c

# The -san tests find the sanitizer builds of libcuda through an RPATH
# (--disable-new-dtags), not a RUNPATH: the guest runner sets
# LD_LIBRARY_PATH=build/lib, which a RUNPATH would yield to, and the test
# would silently run the plain libcuda.
define cuda_test_rule
$(CUDA_TST)/$(1): umd/cuda/tests/$(1).c $(CUDA_TEST_UTIL) \
		umd/cuda/tests/cuda_test.h umd/cuda/tests/fw_launcher.h \
		$(CUDA_DRV) | $(CUDA_TEST_KERNELS)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(USER_CFLAGS) $$(CUDA_TEST_CFLAGS) -o $$@ \
		umd/cuda/tests/$(1).c $$(CUDA_TEST_UTIL) \
		-L$$(LIB) -Wl,-rpath,$$(abspath $$(LIB)) -lcuda -lpthread
$(CUDA_TST)/$(1)-san: umd/cuda/tests/$(1).c $(CUDA_TEST_UTIL) \
		umd/cuda/tests/cuda_test.h umd/cuda/tests/fw_launcher.h \
		$(CUDA_DRV_SAN) | $(CUDA_TEST_KERNELS)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(USER_CFLAGS) $$(SAN_CFLAGS) $$(CUDA_TEST_CFLAGS) -o $$@ \
		umd/cuda/tests/$(1).c $$(CUDA_TEST_UTIL) \
		-L$$(LIB)/san -Wl,--disable-new-dtags -Wl,-rpath,$$(abspath $$(LIB)/san) -lcuda -lpthread
ALL_TARGETS += $(CUDA_TST)/$(1) $(CUDA_TST)/$(1)-san
GUEST_TESTS += $(CUDA_TST)/$(1) $(CUDA_TST)/$(1)-san
endef
$(foreach t,$(CUDA_TEST_NAMES),$(eval $(call cuda_test_rule,$(t))))

ALL_TARGETS += $(CUDA_DRV_SAN)
$(CUDA_TST)/test_cu_link $(CUDA_TST)/test_cu_link-san: | $(CUDA_LINK_DATA)

# test_cu_concurrency and bench_cu run the scheduler kernels of the native
# test tests/test_core_sched.c (one source for both).
$(CUDA_TEST_DATA)/sched_kernels.ptx: tests/sched/sched_kernels.cu
	@mkdir -p $(dir $@)
	$(NVCC) -ptx -arch=compute_75 -o $@ $<
$(CUDA_TST)/test_cu_concurrency $(CUDA_TST)/test_cu_concurrency-san \
	$(CUDA_TST)/bench_cu: | $(CUDA_TEST_DATA)/sched_kernels.ptx
ALL_TARGETS += $(CUDA_TEST_DATA)/sched_kernels.ptx

# The benchmark (not a test: prints latency and bandwidth).
$(CUDA_TST)/bench_cu: umd/cuda/tests/bench_cu.c $(CUDA_TEST_UTIL) \
		$(CUDA_DRV) $(LIBVGPU_LIB) | $(CUDA_TEST_KERNELS)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(CUDA_TEST_CFLAGS) -Iumd -o $@ \
		umd/cuda/tests/bench_cu.c $(CUDA_TEST_UTIL) $(LIBVGPU_LIB) \
		-L$(LIB) -Wl,-rpath,$(abspath $(LIB)) -lcuda -lpthread -lm
ALL_TARGETS += $(CUDA_TST)/bench_cu

# make bench: the issue's benchmark in the guest, on both kernels: launch
# round trips against a null ioctl, the scheduler (first block of a
# high-priority kernel behind a long grid), the samples' kernels against
# the CPU, copies against memcpy (bench_cu), then the firmware's own view
# without libcuda (bench_fw), and block scaling: the samples' kernels
# with one SM worker thread and with two (vgpu-fw --sms).  Not part of
# make check: it asserts nothing.
.PHONY: bench
bench: all
	@for k in 6.1 6.12; do \
		echo "== kernel $$k"; \
		tools/vgpu-vm --kernel $$k -- sh -c \
			'$(CUDA_TST)/bench_cu && echo "-- firmware alone" && \
			 $(TST)/firmware/bench_fw && \
			 for n in 1 2; do \
				echo "-- block scaling: vgpu-fw --sms $$n"; \
				$(BIN)/vgpu-fw --sms $$n 2>/dev/null & p=$$!; \
				sleep 1; $(CUDA_TST)/bench_cu -t || exit 1; \
				kill $$p; wait $$p; \
			 done' || exit 1; \
	done

# Host test of the library's exports: it dlopen()s the library it is
# told about at build time.
$(CUDA_TST)/native_exports: umd/cuda/tests/native_exports.c $(CUDA_DRV)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -I$(CUDA_HOME)/include \
		-DLIBCUDA_PATH='"$(abspath $(CUDA_DRV))"' -o $@ $< -ldl
ALL_TARGETS += $(CUDA_TST)/native_exports
NATIVE_TESTS += $(CUDA_TST)/native_exports

# test_cu_probe_capture runs tools/cuda-probe/probe_capture.c, built
# against our libcuda (and its sanitizer copy for the -san test), and
# compares what it prints with the recording made on an H100 (copied
# into the build tree: the guest holds build/, not the sources).
CUDA_PROBE_CAPTURE_SRC := tools/cuda-probe/probe_capture.c
CUDA_PROBE_CAPTURE_GOLDEN := $(CUDA_TEST_DATA)/probe_capture.h100.txt

$(CUDA_PROBE_CAPTURE_GOLDEN): tools/cuda-probe/golden/probe_capture.h100.txt
	@mkdir -p $(dir $@)
	install -m 0644 $< $@

$(CUDA_TST)/probe_capture: $(CUDA_PROBE_CAPTURE_SRC) $(CUDA_DRV)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -I$(CUDA_HOME)/include -o $@ $< \
		-L$(LIB) -Wl,-rpath,$(abspath $(LIB)) -lcuda -lpthread
$(CUDA_TST)/probe_capture-san: $(CUDA_PROBE_CAPTURE_SRC) $(CUDA_DRV_SAN)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(SAN_CFLAGS) -I$(CUDA_HOME)/include -o $@ $< \
		-L$(LIB)/san -Wl,--disable-new-dtags -Wl,-rpath,$(abspath $(LIB)/san) -lcuda -lpthread

$(CUDA_TST)/test_cu_probe_capture: $(CUDA_TST)/probe_capture \
	$(CUDA_PROBE_CAPTURE_GOLDEN)
$(CUDA_TST)/test_cu_probe_capture: private CUDA_TEST_CFLAGS += \
	-DPROBE_CAPTURE_BIN='"$(abspath $(CUDA_TST)/probe_capture)"'
$(CUDA_TST)/test_cu_probe_capture-san: $(CUDA_TST)/probe_capture-san \
	$(CUDA_PROBE_CAPTURE_GOLDEN)
$(CUDA_TST)/test_cu_probe_capture-san: private CUDA_TEST_CFLAGS += \
	-DPROBE_CAPTURE_BIN='"$(abspath $(CUDA_TST)/probe_capture-san)"'
$(CUDA_TST)/test_cu_probe_capture $(CUDA_TST)/test_cu_probe_capture-san: \
	private CUDA_TEST_CFLAGS += \
	-DPROBE_CAPTURE_GOLDEN='"$(abspath $(CUDA_PROBE_CAPTURE_GOLDEN))"'
ALL_TARGETS += $(CUDA_TST)/probe_capture $(CUDA_TST)/probe_capture-san \
	$(CUDA_PROBE_CAPTURE_GOLDEN)

# The probe tests are probe_compare.h, with their own paths.
$(CUDA_TST)/test_cu_probe_capture $(CUDA_TST)/test_cu_probe_capture-san \
$(CUDA_TST)/test_cu_probe_hostfn $(CUDA_TST)/test_cu_probe_hostfn-san \
$(CUDA_TST)/test_cu_probe_pools $(CUDA_TST)/test_cu_probe_pools-san \
$(CUDA_TST)/test_cu_probe_graphs $(CUDA_TST)/test_cu_probe_graphs-san: \
	umd/cuda/tests/probe_compare.h

# test_cu_probe_hostfn does the same with tools/cuda-probe/probe_hostfn.c,
# which calls the runtime too: built against our libcuda and libcudart
# (the -san copy against the sanitizer libcuda; the runtime has none).
CUDA_PROBE_HOSTFN_SRC := tools/cuda-probe/probe_hostfn.c
CUDA_PROBE_HOSTFN_GOLDEN := $(CUDA_TEST_DATA)/probe_hostfn.h100.txt

$(CUDA_PROBE_HOSTFN_GOLDEN): tools/cuda-probe/golden/probe_hostfn.h100.txt
	@mkdir -p $(dir $@)
	install -m 0644 $< $@

$(CUDA_TST)/probe_hostfn: $(CUDA_PROBE_HOSTFN_SRC) $(CUDA_DRV) $(LIB)/libcudart.so
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -I$(CUDA_HOME)/include -o $@ $< \
		-L$(LIB) -Wl,-rpath,$(abspath $(LIB)) -lcuda -lcudart -lpthread
$(CUDA_TST)/probe_hostfn-san: $(CUDA_PROBE_HOSTFN_SRC) $(CUDA_DRV_SAN) \
		$(LIB)/libcudart.so
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(SAN_CFLAGS) -I$(CUDA_HOME)/include -o $@ $< \
		-L$(LIB)/san -L$(LIB) \
		-Wl,--disable-new-dtags -Wl,-rpath,$(abspath $(LIB)/san) -Wl,-rpath,$(abspath $(LIB)) \
		-lcuda -lcudart -lpthread

$(CUDA_TST)/test_cu_probe_hostfn: $(CUDA_TST)/probe_hostfn \
	$(CUDA_PROBE_HOSTFN_GOLDEN)
$(CUDA_TST)/test_cu_probe_hostfn: private CUDA_TEST_CFLAGS += \
	-DPROBE_HOSTFN_BIN='"$(abspath $(CUDA_TST)/probe_hostfn)"'
$(CUDA_TST)/test_cu_probe_hostfn-san: $(CUDA_TST)/probe_hostfn-san \
	$(CUDA_PROBE_HOSTFN_GOLDEN)
$(CUDA_TST)/test_cu_probe_hostfn-san: private CUDA_TEST_CFLAGS += \
	-DPROBE_HOSTFN_BIN='"$(abspath $(CUDA_TST)/probe_hostfn-san)"'
$(CUDA_TST)/test_cu_probe_hostfn $(CUDA_TST)/test_cu_probe_hostfn-san: \
	private CUDA_TEST_CFLAGS += \
	-DPROBE_HOSTFN_GOLDEN='"$(abspath $(CUDA_PROBE_HOSTFN_GOLDEN))"'
ALL_TARGETS += $(CUDA_TST)/probe_hostfn $(CUDA_TST)/probe_hostfn-san \
	$(CUDA_PROBE_HOSTFN_GOLDEN)
# test_cu_probe_pools does the same with tools/cuda-probe/probe_pools.c
# (memory pools and libraries).
CUDA_PROBE_POOLS_SRC := tools/cuda-probe/probe_pools.c
CUDA_PROBE_POOLS_GOLDEN := $(CUDA_TEST_DATA)/probe_pools.h100.txt

$(CUDA_PROBE_POOLS_GOLDEN): tools/cuda-probe/golden/probe_pools.h100.txt
	@mkdir -p $(dir $@)
	install -m 0644 $< $@

$(CUDA_TST)/probe_pools: $(CUDA_PROBE_POOLS_SRC) $(CUDA_DRV)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -I$(CUDA_HOME)/include -o $@ $< \
		-L$(LIB) -Wl,-rpath,$(abspath $(LIB)) -lcuda -lpthread
$(CUDA_TST)/probe_pools-san: $(CUDA_PROBE_POOLS_SRC) $(CUDA_DRV_SAN)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(SAN_CFLAGS) -I$(CUDA_HOME)/include -o $@ $< \
		-L$(LIB)/san -Wl,--disable-new-dtags -Wl,-rpath,$(abspath $(LIB)/san) -lcuda -lpthread

$(CUDA_TST)/test_cu_probe_pools: $(CUDA_TST)/probe_pools \
	$(CUDA_PROBE_POOLS_GOLDEN)
$(CUDA_TST)/test_cu_probe_pools: private CUDA_TEST_CFLAGS += \
	-DPROBE_POOLS_BIN='"$(abspath $(CUDA_TST)/probe_pools)"'
$(CUDA_TST)/test_cu_probe_pools-san: $(CUDA_TST)/probe_pools-san \
	$(CUDA_PROBE_POOLS_GOLDEN)
$(CUDA_TST)/test_cu_probe_pools-san: private CUDA_TEST_CFLAGS += \
	-DPROBE_POOLS_BIN='"$(abspath $(CUDA_TST)/probe_pools-san)"'
$(CUDA_TST)/test_cu_probe_pools $(CUDA_TST)/test_cu_probe_pools-san: \
	private CUDA_TEST_CFLAGS += \
	-DPROBE_POOLS_GOLDEN='"$(abspath $(CUDA_PROBE_POOLS_GOLDEN))"'
ALL_TARGETS += $(CUDA_TST)/probe_pools $(CUDA_TST)/probe_pools-san \
	$(CUDA_PROBE_POOLS_GOLDEN)
# test_cu_probe_vmm does the same with tools/cuda-probe/probe_vmm.c
# (virtual memory management, and the driver's peer answers with one
# device).
CUDA_PROBE_VMM_SRC := tools/cuda-probe/probe_vmm.c
CUDA_PROBE_VMM_GOLDEN := $(CUDA_TEST_DATA)/probe_vmm.h100.txt

$(CUDA_PROBE_VMM_GOLDEN): tools/cuda-probe/golden/probe_vmm.h100.txt
	@mkdir -p $(dir $@)
	install -m 0644 $< $@

$(CUDA_TST)/probe_vmm: $(CUDA_PROBE_VMM_SRC) $(CUDA_DRV)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -I$(CUDA_HOME)/include -o $@ $< \
		-L$(LIB) -Wl,-rpath,$(abspath $(LIB)) -lcuda -lpthread
$(CUDA_TST)/probe_vmm-san: $(CUDA_PROBE_VMM_SRC) $(CUDA_DRV_SAN)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(SAN_CFLAGS) -I$(CUDA_HOME)/include -o $@ $< \
		-L$(LIB)/san -Wl,--disable-new-dtags -Wl,-rpath,$(abspath $(LIB)/san) -lcuda -lpthread

$(CUDA_TST)/test_cu_probe_vmm: $(CUDA_TST)/probe_vmm $(CUDA_PROBE_VMM_GOLDEN)
$(CUDA_TST)/test_cu_probe_vmm: private CUDA_TEST_CFLAGS += \
	-DPROBE_VMM_BIN='"$(abspath $(CUDA_TST)/probe_vmm)"'
$(CUDA_TST)/test_cu_probe_vmm-san: $(CUDA_TST)/probe_vmm-san \
	$(CUDA_PROBE_VMM_GOLDEN)
$(CUDA_TST)/test_cu_probe_vmm-san: private CUDA_TEST_CFLAGS += \
	-DPROBE_VMM_BIN='"$(abspath $(CUDA_TST)/probe_vmm-san)"'
$(CUDA_TST)/test_cu_probe_vmm $(CUDA_TST)/test_cu_probe_vmm-san: \
	private CUDA_TEST_CFLAGS += \
	-DPROBE_VMM_GOLDEN='"$(abspath $(CUDA_PROBE_VMM_GOLDEN))"'
$(CUDA_TST)/test_cu_probe_vmm $(CUDA_TST)/test_cu_probe_vmm-san: \
	umd/cuda/tests/probe_compare.h
ALL_TARGETS += $(CUDA_TST)/probe_vmm $(CUDA_TST)/probe_vmm-san \
	$(CUDA_PROBE_VMM_GOLDEN)

# test_cu_probe_peer: tools/cuda-probe/probe_peer.c, the runtime's peer
# answers with one device, built against our libcuda and libcudart.
CUDA_PROBE_PEER_SRC := tools/cuda-probe/probe_peer.c
CUDA_PROBE_PEER_GOLDEN := $(CUDA_TEST_DATA)/probe_peer.h100.txt

$(CUDA_PROBE_PEER_GOLDEN): tools/cuda-probe/golden/probe_peer.h100.txt
	@mkdir -p $(dir $@)
	install -m 0644 $< $@

$(CUDA_TST)/probe_peer: $(CUDA_PROBE_PEER_SRC) $(CUDA_DRV) $(LIB)/libcudart.so
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -I$(CUDA_HOME)/include -o $@ $< \
		-L$(LIB) -Wl,-rpath,$(abspath $(LIB)) -lcuda -lcudart -lpthread
$(CUDA_TST)/probe_peer-san: $(CUDA_PROBE_PEER_SRC) $(CUDA_DRV_SAN) \
		$(LIB)/libcudart.so
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(SAN_CFLAGS) -I$(CUDA_HOME)/include -o $@ $< \
		-L$(LIB)/san -L$(LIB) \
		-Wl,--disable-new-dtags -Wl,-rpath,$(abspath $(LIB)/san) -Wl,-rpath,$(abspath $(LIB)) \
		-lcuda -lcudart -lpthread

$(CUDA_TST)/test_cu_probe_peer: $(CUDA_TST)/probe_peer $(CUDA_PROBE_PEER_GOLDEN)
$(CUDA_TST)/test_cu_probe_peer: private CUDA_TEST_CFLAGS += \
	-DPROBE_PEER_BIN='"$(abspath $(CUDA_TST)/probe_peer)"'
$(CUDA_TST)/test_cu_probe_peer-san: $(CUDA_TST)/probe_peer-san \
	$(CUDA_PROBE_PEER_GOLDEN)
$(CUDA_TST)/test_cu_probe_peer-san: private CUDA_TEST_CFLAGS += \
	-DPROBE_PEER_BIN='"$(abspath $(CUDA_TST)/probe_peer-san)"'
$(CUDA_TST)/test_cu_probe_peer $(CUDA_TST)/test_cu_probe_peer-san: \
	private CUDA_TEST_CFLAGS += \
	-DPROBE_PEER_GOLDEN='"$(abspath $(CUDA_PROBE_PEER_GOLDEN))"'
$(CUDA_TST)/test_cu_probe_peer $(CUDA_TST)/test_cu_probe_peer-san: \
	umd/cuda/tests/probe_compare.h
ALL_TARGETS += $(CUDA_TST)/probe_peer $(CUDA_TST)/probe_peer-san \
	$(CUDA_PROBE_PEER_GOLDEN)

# test_cu_probe_graphs does the same with tools/cuda-probe/probe_graphs.c
# (child-graph, event, memory and conditional nodes, update, user objects).
CUDA_PROBE_GRAPHS_SRC := tools/cuda-probe/probe_graphs.c
CUDA_PROBE_GRAPHS_GOLDEN := $(CUDA_TEST_DATA)/probe_graphs.h100.txt

$(CUDA_PROBE_GRAPHS_GOLDEN): tools/cuda-probe/golden/probe_graphs.h100.txt
	@mkdir -p $(dir $@)
	install -m 0644 $< $@

$(CUDA_TST)/probe_graphs: $(CUDA_PROBE_GRAPHS_SRC) $(CUDA_DRV)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -I$(CUDA_HOME)/include -o $@ $< \
		-L$(LIB) -Wl,-rpath,$(abspath $(LIB)) -lcuda -lpthread
$(CUDA_TST)/probe_graphs-san: $(CUDA_PROBE_GRAPHS_SRC) $(CUDA_DRV_SAN)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(SAN_CFLAGS) -I$(CUDA_HOME)/include -o $@ $< \
		-L$(LIB)/san -Wl,--disable-new-dtags -Wl,-rpath,$(abspath $(LIB)/san) -lcuda -lpthread

$(CUDA_TST)/test_cu_probe_graphs: $(CUDA_TST)/probe_graphs \
	$(CUDA_PROBE_GRAPHS_GOLDEN)
$(CUDA_TST)/test_cu_probe_graphs: private CUDA_TEST_CFLAGS += \
	-DPROBE_GRAPHS_BIN='"$(abspath $(CUDA_TST)/probe_graphs)"'
$(CUDA_TST)/test_cu_probe_graphs-san: $(CUDA_TST)/probe_graphs-san \
	$(CUDA_PROBE_GRAPHS_GOLDEN)
$(CUDA_TST)/test_cu_probe_graphs-san: private CUDA_TEST_CFLAGS += \
	-DPROBE_GRAPHS_BIN='"$(abspath $(CUDA_TST)/probe_graphs-san)"'
$(CUDA_TST)/test_cu_probe_graphs $(CUDA_TST)/test_cu_probe_graphs-san: \
	private CUDA_TEST_CFLAGS += \
	-DPROBE_GRAPHS_GOLDEN='"$(abspath $(CUDA_PROBE_GRAPHS_GOLDEN))"'
ALL_TARGETS += $(CUDA_TST)/probe_graphs $(CUDA_TST)/probe_graphs-san \
	$(CUDA_PROBE_GRAPHS_GOLDEN)

# test_cu_probe_graph_edit does the same with tools/cuda-probe/
# probe_graph_edit.c (graphs and executable graphs changed after they are
# made, capture into the program's graph).
CUDA_PROBE_GRAPH_EDIT_SRC := tools/cuda-probe/probe_graph_edit.c
CUDA_PROBE_GRAPH_EDIT_GOLDEN := $(CUDA_TEST_DATA)/probe_graph_edit.h100.txt

$(CUDA_PROBE_GRAPH_EDIT_GOLDEN): tools/cuda-probe/golden/probe_graph_edit.h100.txt
	@mkdir -p $(dir $@)
	install -m 0644 $< $@

$(CUDA_TST)/probe_graph_edit: $(CUDA_PROBE_GRAPH_EDIT_SRC) $(CUDA_DRV)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -I$(CUDA_HOME)/include -o $@ $< \
		-L$(LIB) -Wl,-rpath,$(abspath $(LIB)) -lcuda -lpthread
$(CUDA_TST)/probe_graph_edit-san: $(CUDA_PROBE_GRAPH_EDIT_SRC) $(CUDA_DRV_SAN)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(SAN_CFLAGS) -I$(CUDA_HOME)/include -o $@ $< \
		-L$(LIB)/san -Wl,--disable-new-dtags -Wl,-rpath,$(abspath $(LIB)/san) -lcuda -lpthread

$(CUDA_TST)/test_cu_probe_graph_edit: $(CUDA_TST)/probe_graph_edit \
	$(CUDA_PROBE_GRAPH_EDIT_GOLDEN) umd/cuda/tests/probe_compare.h
$(CUDA_TST)/test_cu_probe_graph_edit: private CUDA_TEST_CFLAGS += \
	-DPROBE_GRAPH_EDIT_BIN='"$(abspath $(CUDA_TST)/probe_graph_edit)"'
$(CUDA_TST)/test_cu_probe_graph_edit-san: $(CUDA_TST)/probe_graph_edit-san \
	$(CUDA_PROBE_GRAPH_EDIT_GOLDEN) umd/cuda/tests/probe_compare.h
$(CUDA_TST)/test_cu_probe_graph_edit-san: private CUDA_TEST_CFLAGS += \
	-DPROBE_GRAPH_EDIT_BIN='"$(abspath $(CUDA_TST)/probe_graph_edit-san)"'
$(CUDA_TST)/test_cu_probe_graph_edit $(CUDA_TST)/test_cu_probe_graph_edit-san: \
	private CUDA_TEST_CFLAGS += \
	-DPROBE_GRAPH_EDIT_GOLDEN='"$(abspath $(CUDA_PROBE_GRAPH_EDIT_GOLDEN))"'
ALL_TARGETS += $(CUDA_TST)/probe_graph_edit $(CUDA_TST)/probe_graph_edit-san \
	$(CUDA_PROBE_GRAPH_EDIT_GOLDEN)

# test_cu_probe_mma does the same with tools/cuda-probe/probe_mma.cu (the
# tensor cores), built by nvcc as users build (PTX for compute_90 only,
# the shared runtime: ours in the guest); both copies run the one probe.
CUDA_PROBE_MMA_GOLDEN := $(CUDA_TEST_DATA)/probe_mma.h100.txt

$(CUDA_PROBE_MMA_GOLDEN): tools/cuda-probe/golden/probe_mma.h100.txt
	@mkdir -p $(dir $@)
	install -m 0644 $< $@

$(CUDA_TST)/probe_mma: tools/cuda-probe/probe_mma.cu
	@mkdir -p $(dir $@)
	$(NVCC) -cudart shared -gencode arch=compute_90,code=compute_90 \
		-o $@ $<

$(CUDA_TST)/test_cu_probe_mma $(CUDA_TST)/test_cu_probe_mma-san: \
	$(CUDA_TST)/probe_mma $(CUDA_PROBE_MMA_GOLDEN) \
	umd/cuda/tests/probe_compare.h
$(CUDA_TST)/test_cu_probe_mma $(CUDA_TST)/test_cu_probe_mma-san: \
	private CUDA_TEST_CFLAGS += \
	-DPROBE_MMA_BIN='"$(abspath $(CUDA_TST)/probe_mma)"' \
	-DPROBE_MMA_GOLDEN='"$(abspath $(CUDA_PROBE_MMA_GOLDEN))"'
ALL_TARGETS += $(CUDA_TST)/probe_mma $(CUDA_PROBE_MMA_GOLDEN)

# test_cu_host_memory uses portable memory from a second device.
$(CUDA_TST)/test_cu_host_memory.vmargs $(CUDA_TST)/test_cu_host_memory-san.vmargs:
	@mkdir -p $(dir $@)
	echo "--module-param num_devices=2" > $@
ALL_TARGETS += $(CUDA_TST)/test_cu_host_memory.vmargs \
	$(CUDA_TST)/test_cu_host_memory-san.vmargs

# test_cu_memcpy3d_peer copies between the memory of two devices.
$(CUDA_TST)/test_cu_memcpy3d_peer.vmargs $(CUDA_TST)/test_cu_memcpy3d_peer-san.vmargs:
	@mkdir -p $(dir $@)
	echo "--module-param num_devices=2" > $@
ALL_TARGETS += $(CUDA_TST)/test_cu_memcpy3d_peer.vmargs \
	$(CUDA_TST)/test_cu_memcpy3d_peer-san.vmargs

# test_cu_peer: peer access between two devices.
$(CUDA_TST)/test_cu_peer.vmargs $(CUDA_TST)/test_cu_peer-san.vmargs:
	@mkdir -p $(dir $@)
	echo "--module-param num_devices=2" > $@
ALL_TARGETS += $(CUDA_TST)/test_cu_peer.vmargs \
	$(CUDA_TST)/test_cu_peer-san.vmargs

$(CUDA_TST)/test_cu_vmm_two_devices.vmargs \
$(CUDA_TST)/test_cu_vmm_two_devices-san.vmargs:
	@mkdir -p $(dir $@)
	echo "--module-param num_devices=2" > $@
ALL_TARGETS += $(CUDA_TST)/test_cu_vmm_two_devices.vmargs \
	$(CUDA_TST)/test_cu_vmm_two_devices-san.vmargs

# The interop tests (test_cu_interop_*, test_cu_probe_interop) load Mesa's
# EGL with llvmpipe and the Vulkan loader with lavapipe through dlopen,
# which the runner's ldd cannot see: tools/vm/mesa.vmargs names them for
# the guest (Documentation/vm-runner.rst).
CUDA_INTEROP_TESTS := $(patsubst umd/cuda/tests/%.c,%,\
	$(wildcard umd/cuda/tests/test_cu_interop_*.c)) test_cu_probe_interop
CUDA_INTEROP_VMARGS := $(foreach t,$(CUDA_INTEROP_TESTS),\
	$(CUDA_TST)/$(t).vmargs $(CUDA_TST)/$(t)-san.vmargs)
$(CUDA_INTEROP_VMARGS): tools/vm/mesa.vmargs
	@mkdir -p $(dir $@)
	install -m 0644 $< $@
ALL_TARGETS += $(CUDA_INTEROP_VMARGS)
$(CUDA_TST)/test_cu_interop_gl $(CUDA_TST)/test_cu_interop_gl-san: \
	umd/cuda/tests/interop_egl.h
$(CUDA_TST)/test_cu_interop_ext $(CUDA_TST)/test_cu_interop_ext-san: \
	umd/cuda/tests/interop_vk.h

# test_cu_probe_interop runs tools/cuda-probe/probe_interop.c against our
# libcuda (Mesa's EGL and Vulkan, through dlopen) and compares.
CUDA_PROBE_INTEROP_SRC := tools/cuda-probe/probe_interop.c
CUDA_PROBE_INTEROP_GOLDEN := $(CUDA_TEST_DATA)/probe_interop.h100.txt

$(CUDA_PROBE_INTEROP_GOLDEN): tools/cuda-probe/golden/probe_interop.h100.txt
	@mkdir -p $(dir $@)
	install -m 0644 $< $@

$(CUDA_TST)/probe_interop: $(CUDA_PROBE_INTEROP_SRC) $(CUDA_DRV)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -I$(CUDA_HOME)/include -o $@ $< \
		-L$(LIB) -Wl,-rpath,$(abspath $(LIB)) -lcuda -ldl
$(CUDA_TST)/probe_interop-san: $(CUDA_PROBE_INTEROP_SRC) $(CUDA_DRV_SAN)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(SAN_CFLAGS) -I$(CUDA_HOME)/include -o $@ $< \
		-L$(LIB)/san -Wl,--disable-new-dtags \
		-Wl,-rpath,$(abspath $(LIB)/san) -lcuda -ldl

$(CUDA_TST)/test_cu_probe_interop: $(CUDA_TST)/probe_interop
$(CUDA_TST)/test_cu_probe_interop: private CUDA_TEST_CFLAGS += \
	-DPROBE_INTEROP_BIN='"$(abspath $(CUDA_TST)/probe_interop)"'
$(CUDA_TST)/test_cu_probe_interop-san: $(CUDA_TST)/probe_interop-san
$(CUDA_TST)/test_cu_probe_interop-san: private CUDA_TEST_CFLAGS += \
	-DPROBE_INTEROP_BIN='"$(abspath $(CUDA_TST)/probe_interop-san)"'
$(CUDA_TST)/test_cu_probe_interop $(CUDA_TST)/test_cu_probe_interop-san: \
	$(CUDA_PROBE_INTEROP_GOLDEN) umd/cuda/tests/probe_compare.h
$(CUDA_TST)/test_cu_probe_interop $(CUDA_TST)/test_cu_probe_interop-san: \
	private CUDA_TEST_CFLAGS += \
	-DPROBE_INTEROP_GOLDEN='"$(abspath $(CUDA_PROBE_INTEROP_GOLDEN))"'
ALL_TARGETS += $(CUDA_TST)/probe_interop $(CUDA_TST)/probe_interop-san \
	$(CUDA_PROBE_INTEROP_GOLDEN)

# test_cu_probe_extsem runs tools/cuda-probe/probe_extsem.c against our
# libcuda in vGPU's semaphore convention and compares its answers by name
# with the H100's (Documentation/interop.rst).
CUDA_PROBE_EXTSEM_SRC := tools/cuda-probe/probe_extsem.c
CUDA_PROBE_EXTSEM_GOLDEN := $(CUDA_TEST_DATA)/probe_extsem.h100.txt

$(CUDA_PROBE_EXTSEM_GOLDEN): tools/cuda-probe/golden/probe_extsem.h100.txt
	@mkdir -p $(dir $@)
	install -m 0644 $< $@

$(CUDA_TST)/probe_extsem: $(CUDA_PROBE_EXTSEM_SRC) $(CUDA_DRV)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -I$(CUDA_HOME)/include -o $@ $< \
		-L$(LIB) -Wl,-rpath,$(abspath $(LIB)) -lcuda -ldl -lpthread
$(CUDA_TST)/probe_extsem-san: $(CUDA_PROBE_EXTSEM_SRC) $(CUDA_DRV_SAN)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(SAN_CFLAGS) -I$(CUDA_HOME)/include -o $@ $< \
		-L$(LIB)/san -Wl,--disable-new-dtags \
		-Wl,-rpath,$(abspath $(LIB)/san) -lcuda -ldl -lpthread

$(CUDA_TST)/test_cu_probe_extsem: $(CUDA_TST)/probe_extsem
$(CUDA_TST)/test_cu_probe_extsem: private CUDA_TEST_CFLAGS += \
	-DPROBE_EXTSEM_BIN='"$(abspath $(CUDA_TST)/probe_extsem)"'
$(CUDA_TST)/test_cu_probe_extsem-san: $(CUDA_TST)/probe_extsem-san
$(CUDA_TST)/test_cu_probe_extsem-san: private CUDA_TEST_CFLAGS += \
	-DPROBE_EXTSEM_BIN='"$(abspath $(CUDA_TST)/probe_extsem-san)"'
$(CUDA_TST)/test_cu_probe_extsem $(CUDA_TST)/test_cu_probe_extsem-san: \
	$(CUDA_PROBE_EXTSEM_GOLDEN)
$(CUDA_TST)/test_cu_probe_extsem $(CUDA_TST)/test_cu_probe_extsem-san: \
	private CUDA_TEST_CFLAGS += \
	-DPROBE_EXTSEM_GOLDEN='"$(abspath $(CUDA_PROBE_EXTSEM_GOLDEN))"'
ALL_TARGETS += $(CUDA_TST)/probe_extsem $(CUDA_TST)/probe_extsem-san \
	$(CUDA_PROBE_EXTSEM_GOLDEN)
