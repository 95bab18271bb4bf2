# SPDX-License-Identifier: GPL-2.0
#
# umd/cudart: libcudart.so.13, the CUDA runtime API, built on the driver
# API (libcuda.so.1), and its tests.  Paths are relative to the repo root.
#
# The library is compiled against the toolkit's own headers so that every
# type and enum value is NVIDIA's.  It is linked against our libcuda.so.1
# ($(CUDA_DRV), from umd/cuda/build.mk), so that a cu* function the driver
# does not export is a link error here rather than a failure at run time;
# the result records only "NEEDED libcuda.so.1", bound by the loader to
# whatever libcuda.so.1 comes first on the library path.  Without the
# driver fragment, the toolkit's stub libcuda.so (exactly the symbols of
# cuda.h) stands in.

CUDART_SO := $(LIB)/libcudart.so.13
CUDART_LINK := $(LIB)/libcudart.so
CUDART_SRCS := $(wildcard umd/cudart/*.c)
CUDART_OBJS := $(patsubst %.c,$(OBJ)/%.pic.o,$(CUDART_SRCS))
CUDART_MAP := umd/cudart/libcudart.map
CUDART_CFLAGS := $(USER_CFLAGS) -fPIC -I$(CUDA_HOME)/include
ifneq ($(CUDA_DRV),)
CUDART_LIBCUDA := $(CUDA_DRV)
else
CUDART_LIBCUDA := $(CUDA_HOME)/lib64/stubs/libcuda.so
endif

$(CUDART_OBJS): $(OBJ)/%.pic.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CUDART_CFLAGS) -MMD -MP -c $< -o $@

-include $(CUDART_OBJS:.o=.d)

$(CUDART_SO): $(CUDART_OBJS) $(CUDART_MAP) $(CUDART_LIBCUDA)
	@mkdir -p $(dir $@)
	$(CC) -shared -o $@ $(CUDART_OBJS) -Wl,-soname,libcudart.so.13 \
		-Wl,--version-script=$(CUDART_MAP) -Wl,--no-undefined \
		$(CUDART_LIBCUDA) -lpthread

$(CUDART_LINK): $(CUDART_SO)
	ln -sf libcudart.so.13 $@

ALL_TARGETS += $(CUDART_SO) $(CUDART_LINK)

# --- native unit tests ---------------------------------------------------------
#
# The parts of the runtime that work before any driver call - error names
# and translation, the last-error state, the <<<>>> configuration stack and
# the registry - are tested on the host, each test linked with just the
# objects it tests, once normally and once with the sanitizers.

# gnu11 and -isystem: what the kselftest harness needs to build warning-free.
CUDART_TEST_CFLAGS := $(CUDART_CFLAGS) -std=gnu11 -Iumd/cudart \
	-Iumd/cuda/tests -isystem $(B)/ext/kselftest
CUDART_SAN_OBJ := $(OBJ)/san/umd/cudart

$(CUDART_SAN_OBJ)/%.o: umd/cudart/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CUDART_CFLAGS) $(SAN_CFLAGS) -MMD -MP -c $< -o $@

$(OBJ)/umd/cudart/tests/%.o: umd/cudart/tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CUDART_TEST_CFLAGS) -MMD -MP -c $< -o $@

$(CUDART_SAN_OBJ)/tests/%.o: umd/cudart/tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CUDART_TEST_CFLAGS) $(SAN_CFLAGS) -MMD -MP -c $< -o $@

# cudart_unit_test(name, runtime objects under test)
define cudart_unit_test
$(TST)/cudart/$(1): $(OBJ)/umd/cudart/tests/$(1).o \
		$(patsubst %,$(OBJ)/umd/cudart/%.pic.o,$(2))
	@mkdir -p $$(dir $$@)
	$$(CC) $$(USER_CFLAGS) -o $$@ $$^ -lpthread
$(TST)/cudart/$(1)-san: $(CUDART_SAN_OBJ)/tests/$(1).o \
		$(patsubst %,$(CUDART_SAN_OBJ)/%.o,$(2))
	@mkdir -p $$(dir $$@)
	$$(CC) $$(USER_CFLAGS) $$(SAN_CFLAGS) -o $$@ $$^ -lpthread
ALL_TARGETS += $(TST)/cudart/$(1) $(TST)/cudart/$(1)-san
NATIVE_TESTS += $(TST)/cudart/$(1) $(TST)/cudart/$(1)-san
endef

$(eval $(call cudart_unit_test,test_cudart_errors,error_table error_state))
$(eval $(call cudart_unit_test,test_cudart_call_config,call_config error_state error_table))
$(eval $(call cudart_unit_test,test_cudart_registry,registry error_state error_table))

-include $(wildcard $(OBJ)/umd/cudart/tests/*.d $(CUDART_SAN_OBJ)/*.d \
	$(CUDART_SAN_OBJ)/tests/*.d)

# --- guest tests ---------------------------------------------------------------
#
# Run inside the QEMU guest with the driver loaded; each starts the
# firmware itself when none is attached.  test_cudart_api is a CUDA
# program built by nvcc like any user's; test_cudart_samples runs the
# samples (unmodified nvcc binaries) with build/lib first on the path.

CUDART_GUEST_NVCC_FLAGS := -cudart shared -arch=sm_75 -O2 -Iumd/cudart/tests \
	-Iumd/cuda/tests
# The firmware launcher is the driver-API tests' (umd/cuda/tests).
CUDART_TEST_UTIL := $(OBJ)/umd/cudart/tests/rt_test_util.o \
	$(OBJ)/umd/cudart/tests/fw_launcher.o
CUDART_TEST_HDRS := umd/cudart/tests/rt_test_util.h umd/cudart/tests/rt_tap.h
$(OBJ)/umd/cudart/tests/fw_launcher.o: umd/cuda/tests/fw_launcher.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -MMD -MP -c $< -o $@
-include $(OBJ)/umd/cudart/tests/fw_launcher.d

$(TST)/cudart/test_cudart_api: umd/cudart/tests/test_cudart_api.cu \
		$(CUDART_TEST_UTIL) $(CUDART_TEST_HDRS) | $(CUDART_LINK)
	@mkdir -p $(dir $@)
	$(NVCC) $(CUDART_GUEST_NVCC_FLAGS) -o $@ $< $(CUDART_TEST_UTIL) -ldl

# The same, compiled with per-thread default streams (the _ptds/_ptsz API).
$(TST)/cudart/test_cudart_per_thread: umd/cudart/tests/test_cudart_per_thread.cu \
		$(CUDART_TEST_UTIL) $(CUDART_TEST_HDRS) | $(CUDART_LINK)
	@mkdir -p $(dir $@)
	$(NVCC) $(CUDART_GUEST_NVCC_FLAGS) --default-stream per-thread -o $@ $< \
		$(CUDART_TEST_UTIL)

# It runs every sample: samples/build.mk, read after this file, adds them
# as order-only prerequisites.
$(TST)/cudart/test_cudart_samples: $(OBJ)/umd/cudart/tests/test_cudart_samples.o \
		$(CUDART_TEST_UTIL)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ $^

# Memory pools and stream-ordered allocation (mem_pool.c).
$(TST)/cudart/test_cudart_mem_pool: umd/cudart/tests/test_cudart_mem_pool.cu \
		$(CUDART_TEST_UTIL) $(CUDART_TEST_HDRS) | $(CUDART_LINK)
	@mkdir -p $(dir $@)
	$(NVCC) $(CUDART_GUEST_NVCC_FLAGS) -o $@ $< $(CUDART_TEST_UTIL)

# Library loading (library.c), on the driver tests' fatbinary.
$(TST)/cudart/test_cudart_libload: umd/cudart/tests/test_cudart_libload.cu \
		$(CUDART_TEST_UTIL) $(CUDART_TEST_HDRS) | $(CUDART_LINK) \
		$(CUDA_TEST_KERNELS)
	@mkdir -p $(dir $@)
	$(NVCC) $(CUDART_GUEST_NVCC_FLAGS) -o $@ $< $(CUDART_TEST_UTIL)

CUDART_GUEST_TESTS := $(addprefix $(TST)/cudart/,test_cudart_api \
	test_cudart_per_thread test_cudart_samples test_cudart_mem_pool \
	test_cudart_libload)
ALL_TARGETS += $(CUDART_GUEST_TESTS)
GUEST_TESTS += $(CUDART_GUEST_TESTS)

# The library itself, loaded on the host against our libcuda.so.1.
$(OBJ)/umd/cudart/tests/test_cudart_library.o: CUDART_TEST_CFLAGS += \
	-DCUDART_TEST_LIB='"$(abspath $(LIB))"'
$(TST)/cudart/test_cudart_library: \
		$(OBJ)/umd/cudart/tests/test_cudart_library.o | $(CUDART_LINK) \
		$(LIB)/libcuda.so.1
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ $^ -ldl

ALL_TARGETS += $(TST)/cudart/test_cudart_library
NATIVE_TESTS += $(TST)/cudart/test_cudart_library

# Page-locked host memory through the runtime, on two devices (portable
# memory): its TEST.vmargs asks vgpu-vm for a second one.
$(TST)/cudart/test_cudart_host_memory: umd/cudart/tests/test_cudart_host_memory.cu \
		$(CUDART_TEST_UTIL) $(CUDART_TEST_HDRS) | $(CUDART_LINK)
	@mkdir -p $(dir $@)
	$(NVCC) $(CUDART_GUEST_NVCC_FLAGS) -o $@ $< $(CUDART_TEST_UTIL)
$(TST)/cudart/test_cudart_host_memory.vmargs:
	@mkdir -p $(dir $@)
	echo "--module-param num_devices=2" > $@
ALL_TARGETS += $(TST)/cudart/test_cudart_host_memory \
	$(TST)/cudart/test_cudart_host_memory.vmargs
GUEST_TESTS += $(TST)/cudart/test_cudart_host_memory

# 3D memory, peer copies, IPC and managed-memory hints through the
# runtime, on two devices (its TEST.vmargs asks vgpu-vm for a second one).
$(TST)/cudart/test_cudart_mem3d: umd/cudart/tests/test_cudart_mem3d.cu \
		$(CUDART_TEST_UTIL) $(CUDART_TEST_HDRS) | $(CUDART_LINK)
	@mkdir -p $(dir $@)
	$(NVCC) $(CUDART_GUEST_NVCC_FLAGS) -o $@ $< $(CUDART_TEST_UTIL)
$(TST)/cudart/test_cudart_mem3d.vmargs:
	@mkdir -p $(dir $@)
	echo "--module-param num_devices=2" > $@
ALL_TARGETS += $(TST)/cudart/test_cudart_mem3d \
	$(TST)/cudart/test_cudart_mem3d.vmargs
GUEST_TESTS += $(TST)/cudart/test_cudart_mem3d

# CUDA arrays: the runtime's and the driver's array calls (so it links
# libcuda too).
$(TST)/cudart/test_cudart_array: umd/cudart/tests/test_cudart_array.cu \
		$(CUDART_TEST_UTIL) $(CUDART_TEST_HDRS) | $(CUDART_LINK) \
		$(CUDA_DRV)
	@mkdir -p $(dir $@)
	$(NVCC) $(CUDART_GUEST_NVCC_FLAGS) -o $@ $< $(CUDART_TEST_UTIL) \
		-L$(LIB) -lcuda
ALL_TARGETS += $(TST)/cudart/test_cudart_array
GUEST_TESTS += $(TST)/cudart/test_cudart_array

# Mipmapped arrays, cubemap shapes, resource views, array-to-array copies.
$(TST)/cudart/test_cudart_mipmap: umd/cudart/tests/test_cudart_mipmap.cu \
		$(CUDART_TEST_UTIL) $(CUDART_TEST_HDRS) | $(CUDART_LINK) \
		$(CUDA_DRV)
	@mkdir -p $(dir $@)
	$(NVCC) $(CUDART_GUEST_NVCC_FLAGS) -o $@ $< $(CUDART_TEST_UTIL) \
		-L$(LIB) -lcuda
ALL_TARGETS += $(TST)/cudart/test_cudart_mipmap
GUEST_TESTS += $(TST)/cudart/test_cudart_mipmap

# Issue #10's last fidelity gaps end to end: probe_texfid's views and
# destroyed objects against its H100 recording, stale descriptors.
$(TST)/cudart/probe_texfid: tools/cuda-probe/probe_texfid.cu | $(CUDART_LINK)
	@mkdir -p $(dir $@)
	$(NVCC) $(CUDART_GUEST_NVCC_FLAGS) -o $@ $<
$(TST)/cudart/probe_texfid.h100.txt: tests/golden/probe_texfid.h100.txt
	@mkdir -p $(dir $@)
	cp $< $@
$(TST)/cudart/test_cudart_texfid: umd/cudart/tests/test_cudart_texfid.cu \
		$(TST)/cudart/probe_texfid $(TST)/cudart/probe_texfid.h100.txt \
		$(CUDART_TEST_UTIL) $(CUDART_TEST_HDRS) | $(CUDART_LINK)
	@mkdir -p $(dir $@)
	$(NVCC) $(CUDART_GUEST_NVCC_FLAGS) \
		-DPROBE_TEXFID_BIN='"$(abspath $(TST)/cudart/probe_texfid)"' \
		-DPROBE_TEXFID_GOLDEN='"$(abspath $(TST)/cudart/probe_texfid.h100.txt)"' \
		-o $@ $< $(CUDART_TEST_UTIL)
ALL_TARGETS += $(TST)/cudart/probe_texfid $(TST)/cudart/test_cudart_texfid
GUEST_TESTS += $(TST)/cudart/test_cudart_texfid

# CUDA graphs and stream capture through the runtime (<<<>>> launches
# captured, graphs built node by node).
$(TST)/cudart/test_cudart_graph: umd/cudart/tests/test_cudart_graph.cu \
		$(CUDART_TEST_UTIL) $(CUDART_TEST_HDRS) | $(CUDART_LINK)
	@mkdir -p $(dir $@)
	$(NVCC) $(CUDART_GUEST_NVCC_FLAGS) -o $@ $< $(CUDART_TEST_UTIL)
ALL_TARGETS += $(TST)/cudart/test_cudart_graph
GUEST_TESTS += $(TST)/cudart/test_cudart_graph

# The rest of the graph API through the runtime: child graphs, events,
# update, user objects, graph memory, conditional nodes (graph_nodes.c).
$(TST)/cudart/test_cudart_graph_nodes: \
		umd/cudart/tests/test_cudart_graph_nodes.cu \
		$(CUDART_TEST_UTIL) $(CUDART_TEST_HDRS) | $(CUDART_LINK)
	@mkdir -p $(dir $@)
	$(NVCC) $(CUDART_GUEST_NVCC_FLAGS) -o $@ $< $(CUDART_TEST_UTIL)
ALL_TARGETS += $(TST)/cudart/test_cudart_graph_nodes
GUEST_TESTS += $(TST)/cudart/test_cudart_graph_nodes

# Graphs and executable graphs changed after they are made, capture into
# the program's own graph (graph_edit.c).
$(TST)/cudart/test_cudart_graph_edit: \
		umd/cudart/tests/test_cudart_graph_edit.cu \
		$(CUDART_TEST_UTIL) $(CUDART_TEST_HDRS) | $(CUDART_LINK)
	@mkdir -p $(dir $@)
	$(NVCC) $(CUDART_GUEST_NVCC_FLAGS) -o $@ $< $(CUDART_TEST_UTIL)
ALL_TARGETS += $(TST)/cudart/test_cudart_graph_edit
GUEST_TESTS += $(TST)/cudart/test_cudart_graph_edit

# Host functions and stream callbacks through the runtime (<<<>>> kernels
# that wait for the host, a graph host node, calls made inside them).
$(TST)/cudart/test_cudart_host_func: umd/cudart/tests/test_cudart_host_func.cu \
		$(CUDART_TEST_UTIL) $(CUDART_TEST_HDRS) | $(CUDART_LINK)
	@mkdir -p $(dir $@)
	$(NVCC) $(CUDART_GUEST_NVCC_FLAGS) -o $@ $< $(CUDART_TEST_UTIL)
ALL_TARGETS += $(TST)/cudart/test_cudart_host_func
GUEST_TESTS += $(TST)/cudart/test_cudart_host_func

# The device runtime: programs built as NVIDIA's samples build themselves
# (-rdc=true, PTX for compute_90 only), so that nvcc links NVIDIA's
# libcudadevrt in and the driver must substitute its own.
CUDART_RDC_NVCC_FLAGS := -cudart shared -rdc=true \
	-gencode arch=compute_90,code=compute_90 -O2 -Iumd/cudart/tests \
	-Iumd/cuda/tests
$(TST)/cudart/devrt_missing: umd/cudart/tests/devrt_missing.cu | $(CUDART_LINK)
	@mkdir -p $(dir $@)
	$(NVCC) $(CUDART_RDC_NVCC_FLAGS) -o $@ $<
# The probe whose H100 recording test_cudart_devrt compares with ours.
$(TST)/cudart/probe_devrt: tools/cuda-probe/probe_devrt.cu | $(CUDART_LINK)
	@mkdir -p $(dir $@)
	$(NVCC) $(CUDART_RDC_NVCC_FLAGS) -o $@ $<
# (The guest sees the build tree, not the sources: the recording is copied.)
$(TST)/cudart/probe_devrt.h100.txt: tools/cuda-probe/golden/probe_devrt.h100.txt
	@mkdir -p $(dir $@)
	cp $< $@
$(TST)/cudart/test_cudart_devrt: umd/cudart/tests/test_cudart_devrt.cu \
		$(TST)/cudart/devrt_missing $(TST)/cudart/probe_devrt \
		$(TST)/cudart/probe_devrt.h100.txt \
		$(CUDART_TEST_UTIL) $(CUDART_TEST_HDRS) | $(CUDART_LINK)
	@mkdir -p $(dir $@)
	$(NVCC) $(CUDART_RDC_NVCC_FLAGS) \
		-DDEVRT_MISSING_BIN='"$(abspath $(TST)/cudart/devrt_missing)"' \
		-DPROBE_DEVRT_BIN='"$(abspath $(TST)/cudart/probe_devrt)"' \
		-DPROBE_DEVRT_GOLDEN='"$(abspath $(TST)/cudart/probe_devrt.h100.txt)"' \
		-o $@ $< $(CUDART_TEST_UTIL)
ALL_TARGETS += $(TST)/cudart/devrt_missing $(TST)/cudart/probe_devrt \
	$(TST)/cudart/test_cudart_devrt
GUEST_TESTS += $(TST)/cudart/test_cudart_devrt

# Dynamic parallelism, built the same way.
$(TST)/cudart/test_cudart_cdp: umd/cudart/tests/test_cudart_cdp.cu \
		$(CUDART_TEST_UTIL) $(CUDART_TEST_HDRS) | $(CUDART_LINK)
	@mkdir -p $(dir $@)
	$(NVCC) $(CUDART_RDC_NVCC_FLAGS) -o $@ $< $(CUDART_TEST_UTIL)
ALL_TARGETS += $(TST)/cudart/test_cudart_cdp
GUEST_TESTS += $(TST)/cudart/test_cudart_cdp

# Cooperative launches, cooperative groups and clusters, built for sm_90
# as programs that use clusters must be (launch_coop.c).
$(TST)/cudart/test_cudart_coop: umd/cudart/tests/test_cudart_coop.cu \
		$(CUDART_TEST_UTIL) $(CUDART_TEST_HDRS) | $(CUDART_LINK)
	@mkdir -p $(dir $@)
	$(NVCC) -cudart shared -arch=sm_90 -O2 -Iumd/cudart/tests \
		-Iumd/cuda/tests -o $@ $< $(CUDART_TEST_UTIL)
ALL_TARGETS += $(TST)/cudart/test_cudart_coop
GUEST_TESTS += $(TST)/cudart/test_cudart_coop

# Cooperative and cluster launch attributes on graph kernel nodes.
$(TST)/cudart/test_cudart_graph_coop: \
		umd/cudart/tests/test_cudart_graph_coop.cu \
		$(CUDART_TEST_UTIL) $(CUDART_TEST_HDRS) | $(CUDART_LINK)
	@mkdir -p $(dir $@)
	$(NVCC) -cudart shared -arch=sm_90 -O2 -Iumd/cudart/tests \
		-Iumd/cuda/tests -o $@ $< $(CUDART_TEST_UTIL)
ALL_TARGETS += $(TST)/cudart/test_cudart_graph_coop
GUEST_TESTS += $(TST)/cudart/test_cudart_graph_coop

# L2 access policy windows on graph kernel nodes (graph_kernel_attr.c).
$(TST)/cudart/test_cudart_graph_l2: \
		umd/cudart/tests/test_cudart_graph_l2.cu \
		$(CUDART_TEST_UTIL) $(CUDART_TEST_HDRS) | $(CUDART_LINK)
	@mkdir -p $(dir $@)
	$(NVCC) -cudart shared -arch=sm_90 -O2 -Iumd/cudart/tests \
		-Iumd/cuda/tests -o $@ $< $(CUDART_TEST_UTIL)
ALL_TARGETS += $(TST)/cudart/test_cudart_graph_l2
GUEST_TESTS += $(TST)/cudart/test_cudart_graph_l2

# The interop calls (interop_gl.c, interop_ext.c) against Mesa: its
# TEST.vmargs brings Mesa's dlopen'ed drivers (tools/vm/mesa.vmargs).
$(TST)/cudart/test_cudart_interop: umd/cudart/tests/test_cudart_interop.cu \
		umd/cuda/tests/interop_egl.h \
		$(CUDART_TEST_UTIL) $(CUDART_TEST_HDRS) | $(CUDART_LINK)
	@mkdir -p $(dir $@)
	$(NVCC) $(CUDART_GUEST_NVCC_FLAGS) -o $@ $< $(CUDART_TEST_UTIL) -ldl
$(TST)/cudart/test_cudart_interop.vmargs: tools/vm/mesa.vmargs
	@mkdir -p $(dir $@)
	install -m 0644 $< $@
ALL_TARGETS += $(TST)/cudart/test_cudart_interop \
	$(TST)/cudart/test_cudart_interop.vmargs
GUEST_TESTS += $(TST)/cudart/test_cudart_interop
