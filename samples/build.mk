# SPDX-License-Identifier: GPL-2.0
#
# CUDA samples, built by the real nvcc exactly as a user would build them:
# `nvcc -cudart shared`, linked against the toolkit's libcudart.so.  Nothing
# in the binaries refers to vGPU: they import libcudart.so.13, and run on
# our stack because our build/lib comes first on the library path (the
# runner sets LD_LIBRARY_PATH).  Each prints PASSED or FAILED and exits
# accordingly; `make run` runs the SAMPLES list in the guest.
#
# -arch=sm_75 embeds compute_75 PTX, which the driver compiles for the
# device (the SASS nvcc also embeds is not used by vGPU).

SAMPLES_NVCC_FLAGS := -cudart shared -arch=sm_75 -O2 -std=c++17
SAMPLES_BIN := $(BIN)/samples
SAMPLES_OBJ := $(OBJ)/samples
SAMPLES_COMMON := samples/common/sample_check.h

# One-file samples: samples/<name>/<name>.cu -> build/bin/samples/<name>.
SAMPLES_SIMPLE := deviceQuery vectorAdd matrixMul simplePrintf graphs wmmaGemm \
	graphConditional simpleTexture surfaceWrite pitchLinearTexture \
	layeredTexture managedMigration p2pAccess

define samples_simple_rule
$(SAMPLES_BIN)/$(1): samples/$(1)/$(1).cu $(SAMPLES_COMMON)
	@mkdir -p $$(dir $$@)
	$$(NVCC) $$(SAMPLES_NVCC_FLAGS) -o $$@ $$<
endef
$(foreach s,$(SAMPLES_SIMPLE),$(eval $(call samples_simple_rule,$(s))))

# Separate compilation: each .cu compiled with -rdc=true, then nvcc links
# the objects, running the device link step (nvlink) first.
SAMPLES_SEP_SRCS := samples/separateCompilation/main.cu \
	samples/separateCompilation/transform.cu
SAMPLES_SEP_OBJS := $(patsubst samples/%.cu,$(SAMPLES_OBJ)/%.o,$(SAMPLES_SEP_SRCS))

$(SAMPLES_SEP_OBJS): $(SAMPLES_OBJ)/%.o: samples/%.cu \
		samples/separateCompilation/transform.cuh $(SAMPLES_COMMON)
	@mkdir -p $(dir $@)
	$(NVCC) $(SAMPLES_NVCC_FLAGS) -rdc=true -c -o $@ $<

$(SAMPLES_BIN)/separateCompilation: $(SAMPLES_SEP_OBJS)
	@mkdir -p $(dir $@)
	$(NVCC) $(SAMPLES_NVCC_FLAGS) -rdc=true -o $@ $^

# The CMake project: configured and built in its own build tree, as a user
# would; the binary is copied next to the others.
SAMPLES_CMAKE_DIR := $(SAMPLES_OBJ)/cmakeSaxpy

$(SAMPLES_BIN)/cmakeSaxpy: samples/cmakeSaxpy/CMakeLists.txt \
		samples/cmakeSaxpy/saxpy.cu $(SAMPLES_COMMON)
	@mkdir -p $(dir $@)
	cmake -S samples/cmakeSaxpy -B $(SAMPLES_CMAKE_DIR) \
		-DCMAKE_CUDA_COMPILER=$(shell command -v $(NVCC)) \
		-DCMAKE_BUILD_TYPE=Release > $(SAMPLES_CMAKE_DIR).log 2>&1 || \
		{ cat $(SAMPLES_CMAKE_DIR).log; exit 1; }
	+cmake --build $(SAMPLES_CMAKE_DIR)
	cp $(SAMPLES_CMAKE_DIR)/cmakeSaxpy $@

# sm_90 samples: cooperative groups' grid.sync() and thread-block
# clusters, which only compute capability 9.0 programs may use.
SAMPLES_SM90 := gridSyncReduction clusterHistogram

define samples_sm90_rule
$(SAMPLES_BIN)/$(1): samples/$(1)/$(1).cu $(SAMPLES_COMMON)
	@mkdir -p $$(dir $$@)
	$$(NVCC) $$(subst sm_75,sm_90,$$(SAMPLES_NVCC_FLAGS)) -o $$@ $$<
endef
$(foreach s,$(SAMPLES_SM90),$(eval $(call samples_sm90_rule,$(s))))

# Samples that call the driver API too: linked against the toolkit's
# libcuda stub, as a user would; at run time libcuda.so.1 is ours.
SAMPLES_DRV := vmmGrowArray

define samples_drv_rule
$(SAMPLES_BIN)/$(1): samples/$(1)/$(1).cu $(SAMPLES_COMMON)
	@mkdir -p $$(dir $$@)
	$$(NVCC) $$(SAMPLES_NVCC_FLAGS) -o $$@ $$< \
		-L$$(CUDA_HOME)/lib64/stubs -lcuda
endef
$(foreach s,$(SAMPLES_DRV),$(eval $(call samples_drv_rule,$(s))))

# Dynamic parallelism: device-side launches need -rdc=true (nvcc then
# links the device runtime, libcudadevrt, for which vGPU uses its own).
$(SAMPLES_BIN)/cdpQuicksort: samples/cdpQuicksort/cdpQuicksort.cu \
		$(SAMPLES_COMMON)
	@mkdir -p $(dir $@)
	$(NVCC) $(subst sm_75,sm_90,$(SAMPLES_NVCC_FLAGS)) -rdc=true -o $@ $<

# The tensor memory accelerator: sm_90 and the driver API's
# cuTensorMapEncodeTiled (the toolkit's libcuda stub, as above).
$(SAMPLES_BIN)/tmaTranspose: samples/tmaTranspose/tmaTranspose.cu \
		$(SAMPLES_COMMON)
	@mkdir -p $(dir $@)
	$(NVCC) $(subst sm_75,sm_90,$(SAMPLES_NVCC_FLAGS)) -o $@ $< \
		-L$(CUDA_HOME)/lib64/stubs -lcuda

SAMPLES_ALL := $(addprefix $(SAMPLES_BIN)/,$(SAMPLES_SIMPLE) \
	separateCompilation cmakeSaxpy $(SAMPLES_SM90) \
	$(SAMPLES_DRV) cdpQuicksort tmaTranspose)

ALL_TARGETS += $(SAMPLES_ALL)
SAMPLES += $(SAMPLES_ALL)

# The runtime's guest test runs every sample (umd/cudart/build.mk).
$(TST)/cudart/test_cudart_samples: | $(SAMPLES_ALL)

# The image sample links zlib (Debian's libz) for its PNG writer.
$(SAMPLES_BIN)/textureRotatePNG: samples/textureRotatePNG/textureRotatePNG.cu \
		$(SAMPLES_COMMON)
	@mkdir -p $(dir $@)
	$(NVCC) $(SAMPLES_NVCC_FLAGS) -o $@ $< -lz
ALL_TARGETS += $(SAMPLES_BIN)/textureRotatePNG
SAMPLES += $(SAMPLES_BIN)/textureRotatePNG

# cubemapTexture samples all six faces of a cubemap array.
$(SAMPLES_BIN)/cubemapTexture: samples/cubemapTexture/cubemapTexture.cu \
		$(SAMPLES_COMMON)
	@mkdir -p $(dir $@)
	$(NVCC) $(SAMPLES_NVCC_FLAGS) -o $@ $<
ALL_TARGETS += $(SAMPLES_BIN)/cubemapTexture
SAMPLES += $(SAMPLES_BIN)/cubemapTexture

# The OpenGL interop sample draws with Mesa's llvmpipe through EGL (no
# display): it links libEGL and glvnd's libOpenGL, and zlib for its PNG.
# Mesa's driver is loaded with dlopen: tools/run-samples gives the guest
# tools/vm/mesa.vmargs.
$(SAMPLES_BIN)/simpleGLInterop: samples/simpleGLInterop/simpleGLInterop.cu \
		$(SAMPLES_COMMON)
	@mkdir -p $(dir $@)
	$(NVCC) $(SAMPLES_NVCC_FLAGS) -o $@ $< -lEGL -lOpenGL -lz
ALL_TARGETS += $(SAMPLES_BIN)/simpleGLInterop
SAMPLES += $(SAMPLES_BIN)/simpleGLInterop

# The Vulkan interop sample links the Vulkan loader (lavapipe in the
# guest, through tools/vm/mesa.vmargs as above).
$(SAMPLES_BIN)/simpleVulkanInterop: \
		samples/simpleVulkanInterop/simpleVulkanInterop.cu \
		$(SAMPLES_COMMON)
	@mkdir -p $(dir $@)
	$(NVCC) $(SAMPLES_NVCC_FLAGS) -o $@ $< -lvulkan
ALL_TARGETS += $(SAMPLES_BIN)/simpleVulkanInterop
SAMPLES += $(SAMPLES_BIN)/simpleVulkanInterop
