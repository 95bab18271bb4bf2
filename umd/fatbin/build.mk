# SPDX-License-Identifier: GPL-2.0
#
# One fragment for umd/fatbin (libvgpu-fatbin.a), umd/cache
# (libvgpu-cache.a), tools/fatbin (vgpu-fatbin) and their tests.  Paths
# are relative to the repository root.  Other libraries use these with
# -Iumd and #include "fatbin/fatbin.h" / "cache/compute_cache.h", and link
# $(FATBIN_LIB) $(FATBIN_LDLIBS) / $(CACHE_LIB).  The objects are PIC so
# that they can be linked into the shared driver libraries.

# -fPIC: the libraries end up inside libcuda.so.1.
FATBIN_CFLAGS := -Iumd -Iumd/cache -fPIC
FATBIN_LDLIBS := -lzstd -llz4

FATBIN_LIB := $(LIB)/libvgpu-fatbin.a
FATBIN_SRCS := $(wildcard umd/fatbin/*.c)
CACHE_LIB := $(LIB)/libvgpu-cache.a
CACHE_SRCS := $(wildcard umd/cache/*.c)
FATBIN_TOOL := $(BIN)/vgpu-fatbin
FATBIN_TOOL_SRCS := $(wildcard tools/fatbin/*.c)
FATBIN_TEST_SRCS := $(wildcard umd/fatbin/tests/*.c umd/cache/tests/*.c)

# Every C file of this fragment, built once normally and once with the
# sanitizers (the second copy links the -san test binaries).
FATBIN_ALL_SRCS := $(FATBIN_SRCS) $(CACHE_SRCS) $(FATBIN_TOOL_SRCS) \
	$(FATBIN_TEST_SRCS)
FATBIN_ALL_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(FATBIN_ALL_SRCS))
FATBIN_ALL_SAN_OBJS := $(patsubst %.c,$(OBJ)/san/%.o,$(FATBIN_ALL_SRCS))

# Test data produced by the real nvcc, and what the tests are told.  The
# sanitizer tests run a sanitizer build of the tool.
FATBIN_DATA := $(TST)/fatbin-data
FATBIN_SAN_TOOL := $(TST)/fatbin/vgpu-fatbin-san
FATBIN_TEST_CFLAGS := -I$(B)/ext/kselftest \
	-DFATBIN_TEST_DATA='"$(abspath $(FATBIN_DATA))"'

$(FATBIN_ALL_OBJS): $(OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(FATBIN_CFLAGS) $(FATBIN_OBJ_EXTRA) -MMD -MP \
		-c $< -o $@

$(FATBIN_ALL_SAN_OBJS): $(OBJ)/san/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(SAN_CFLAGS) $(FATBIN_CFLAGS) \
		$(FATBIN_OBJ_EXTRA) -MMD -MP -c $< -o $@

# Only the tests are told where their data and the tool are.
$(patsubst %.c,$(OBJ)/%.o,$(FATBIN_TEST_SRCS)): FATBIN_OBJ_EXTRA := \
	$(FATBIN_TEST_CFLAGS) -DVGPU_FATBIN_TOOL='"$(abspath $(FATBIN_TOOL))"'
$(patsubst %.c,$(OBJ)/san/%.o,$(FATBIN_TEST_SRCS)): FATBIN_OBJ_EXTRA := \
	$(FATBIN_TEST_CFLAGS) -DVGPU_FATBIN_TOOL='"$(abspath $(FATBIN_SAN_TOOL))"'

-include $(FATBIN_ALL_OBJS:.o=.d) $(FATBIN_ALL_SAN_OBJS:.o=.d)

# --- libraries and tool --------------------------------------------------------

$(FATBIN_LIB): $(patsubst %.c,$(OBJ)/%.o,$(FATBIN_SRCS))
$(CACHE_LIB): $(patsubst %.c,$(OBJ)/%.o,$(CACHE_SRCS))
$(LIB)/san/libvgpu-fatbin.a: $(patsubst %.c,$(OBJ)/san/%.o,$(FATBIN_SRCS))
$(LIB)/san/libvgpu-cache.a: $(patsubst %.c,$(OBJ)/san/%.o,$(CACHE_SRCS))
$(FATBIN_LIB) $(CACHE_LIB) $(LIB)/san/libvgpu-fatbin.a $(LIB)/san/libvgpu-cache.a:
	@mkdir -p $(dir $@)
	@rm -f $@
	$(AR) rcs $@ $^

$(FATBIN_TOOL): $(patsubst %.c,$(OBJ)/%.o,$(FATBIN_TOOL_SRCS)) $(FATBIN_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ $^ $(FATBIN_LDLIBS)

$(FATBIN_SAN_TOOL): $(patsubst %.c,$(OBJ)/san/%.o,$(FATBIN_TOOL_SRCS)) \
		$(LIB)/san/libvgpu-fatbin.a
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(SAN_CFLAGS) -o $@ $^ $(FATBIN_LDLIBS)

ALL_TARGETS += $(FATBIN_LIB) $(CACHE_LIB) $(FATBIN_TOOL) $(FATBIN_SAN_TOOL)

# --- test data, made by nvcc -------------------------------------------------
#
# kernels.cu in every compression form nvcc offers (zstd is the default;
# --compress-mode=speed gives LZ4), multiarch.cu for several virtual
# architectures at once, and an -rdc=true pair with its device link.
# The references are what `nvcc -ptx` prints for the same source.

FATBIN_TDIR := umd/fatbin/tests
FATBIN_MULTI_GENCODE := -gencode arch=compute_75,code=[sm_75,compute_75] \
	-gencode arch=compute_80,code=compute_80 \
	-gencode arch=compute_90,code=compute_90 \
	-gencode arch=compute_90a,code=compute_90a

FATBIN_FORMS_default :=
FATBIN_FORMS_nocompress := --no-compress
FATBIN_FORMS_lz4 := --compress-mode=speed
FATBIN_FORMS_size := --compress-mode=size
FATBIN_FORMS_all := -Xfatbin=-compress-all
FATBIN_FORMS_sm75only := -gencode arch=compute_75,code=sm_75
FATBIN_FORMS := default nocompress lz4 size all sm75only

$(FATBIN_DATA)/kernels.%.fatbin: $(FATBIN_TDIR)/kernels.cu
	@mkdir -p $(dir $@)
	$(NVCC) -fatbin $(FATBIN_FORMS_$*) -o $@ $<
$(FATBIN_DATA)/multiarch.fatbin: $(FATBIN_TDIR)/multiarch.cu
	@mkdir -p $(dir $@)
	$(NVCC) -fatbin $(FATBIN_MULTI_GENCODE) --compress-mode=speed -o $@ $<
$(FATBIN_DATA)/kernels.compute_%.ptx: $(FATBIN_TDIR)/kernels.cu
	@mkdir -p $(dir $@)
	$(NVCC) -ptx -arch=compute_$* -o $@ $<
$(FATBIN_DATA)/multiarch.compute_%.ptx: $(FATBIN_TDIR)/multiarch.cu
	@mkdir -p $(dir $@)
	$(NVCC) -ptx -arch=compute_$* -o $@ $<
$(FATBIN_DATA)/rdc_%.compute_75.ptx: $(FATBIN_TDIR)/rdc_%.cu
	@mkdir -p $(dir $@)
	$(NVCC) -ptx -rdc=true -arch=compute_75 -o $@ $<

# Host objects whose static constructors register the fatbins.
$(FATBIN_DATA)/kernels.o: $(FATBIN_TDIR)/kernels.cu
	@mkdir -p $(dir $@)
	$(NVCC) -c -o $@ $<
$(FATBIN_DATA)/multiarch.o: $(FATBIN_TDIR)/multiarch.cu
	@mkdir -p $(dir $@)
	$(NVCC) -c $(FATBIN_MULTI_GENCODE) --compress-mode=speed -o $@ $<
$(FATBIN_DATA)/rdc_%.o: $(FATBIN_TDIR)/rdc_%.cu
	@mkdir -p $(dir $@)
	$(NVCC) -c -rdc=true -o $@ $<
$(FATBIN_DATA)/rdc_dlink.o: $(FATBIN_DATA)/rdc_a.o $(FATBIN_DATA)/rdc_b.o
	$(NVCC) -dlink -o $@ $^
# The same pair for sm_90, the second half without PTX (cubin only).
$(FATBIN_DATA)/rdc_a_sm90.o: $(FATBIN_TDIR)/rdc_a.cu
	@mkdir -p $(dir $@)
	$(NVCC) -c -rdc=true -gencode arch=compute_90,code=[compute_90,sm_90] -o $@ $<
$(FATBIN_DATA)/rdc_b_cubin_only.o: $(FATBIN_TDIR)/rdc_b.cu
	@mkdir -p $(dir $@)
	$(NVCC) -c -rdc=true -gencode arch=compute_90,code=sm_90 -o $@ $<
$(FATBIN_DATA)/rdc_skip_dlink.o: $(FATBIN_DATA)/rdc_a_sm90.o \
		$(FATBIN_DATA)/rdc_b_cubin_only.o
	$(NVCC) -dlink -gencode arch=compute_90,code=sm_90 -o $@ $^

FATBIN_TEST_DATA := \
	$(foreach f,$(FATBIN_FORMS),$(FATBIN_DATA)/kernels.$(f).fatbin) \
	$(FATBIN_DATA)/multiarch.fatbin \
	$(FATBIN_DATA)/kernels.compute_75.ptx \
	$(foreach a,75 80 90 90a,$(FATBIN_DATA)/multiarch.compute_$(a).ptx) \
	$(FATBIN_DATA)/rdc_a.compute_75.ptx $(FATBIN_DATA)/rdc_b.compute_75.ptx \
	$(FATBIN_DATA)/rdc_a.o

# --- test programs -------------------------------------------------------------
#
# fatbin_test(name, dir, support objects, nvcc objects, libraries, ldlibs):
# a test and its sanitizer twin, both run by `make check`.  nvcc's host
# objects are C++ (static constructors with guards), hence -lstdc++
# where they are linked in.

FATBIN_TEST_UTIL := $(FATBIN_TDIR)/fatbin_test_util.o
FATBIN_TEST_STUB := $(FATBIN_TDIR)/registration_stub.o

define fatbin_test
$(TST)/fatbin/$(1): $(OBJ)/$(2)/$(1).o $(addprefix $(OBJ)/,$(3)) $(4) \
		$(addprefix $(LIB)/,$(5)) | $(FATBIN_TEST_DATA) $(FATBIN_TOOL)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(USER_CFLAGS) -o $$@ $$^ $(6)
$(TST)/fatbin/$(1)-san: $(OBJ)/san/$(2)/$(1).o $(addprefix $(OBJ)/san/,$(3)) \
		$(4) $(addprefix $(LIB)/san/,$(5)) | $(FATBIN_TEST_DATA) $(FATBIN_SAN_TOOL)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(USER_CFLAGS) $$(SAN_CFLAGS) -o $$@ $$^ $(6)
ALL_TARGETS += $(TST)/fatbin/$(1) $(TST)/fatbin/$(1)-san
NATIVE_TESTS += $(TST)/fatbin/$(1) $(TST)/fatbin/$(1)-san
endef

FATBIN_REG_OBJS := $(FATBIN_DATA)/kernels.o $(FATBIN_DATA)/multiarch.o
FATBIN_RDC_OBJS := $(FATBIN_DATA)/rdc_a.o $(FATBIN_DATA)/rdc_b.o \
	$(FATBIN_DATA)/rdc_dlink.o

$(eval $(call fatbin_test,test_fatbin_files,$(FATBIN_TDIR),$(FATBIN_TEST_UTIL),,libvgpu-fatbin.a,$(FATBIN_LDLIBS)))
$(eval $(call fatbin_test,test_fatbin_fuzz,$(FATBIN_TDIR),$(FATBIN_TEST_UTIL),,libvgpu-fatbin.a,$(FATBIN_LDLIBS)))
$(eval $(call fatbin_test,test_fatbin_registered,$(FATBIN_TDIR),$(FATBIN_TEST_UTIL) $(FATBIN_TEST_STUB),$(FATBIN_REG_OBJS),libvgpu-fatbin.a,$(FATBIN_LDLIBS) -lstdc++))
$(eval $(call fatbin_test,test_fatbin_rdc,$(FATBIN_TDIR),$(FATBIN_TEST_UTIL) $(FATBIN_TEST_STUB),$(FATBIN_RDC_OBJS),libvgpu-fatbin.a,$(FATBIN_LDLIBS) -lstdc++))
FATBIN_RDC_SKIP_OBJS := $(FATBIN_DATA)/rdc_a_sm90.o \
	$(FATBIN_DATA)/rdc_b_cubin_only.o $(FATBIN_DATA)/rdc_skip_dlink.o
$(eval $(call fatbin_test,test_fatbin_rdc_skip,$(FATBIN_TDIR),$(FATBIN_TEST_UTIL) $(FATBIN_TEST_STUB),$(FATBIN_RDC_SKIP_OBJS),libvgpu-fatbin.a,$(FATBIN_LDLIBS) -lstdc++))
$(eval $(call fatbin_test,test_vgpu_fatbin_tool,$(FATBIN_TDIR),$(FATBIN_TEST_UTIL),,libvgpu-fatbin.a,$(FATBIN_LDLIBS)))
$(eval $(call fatbin_test,test_sha256,umd/cache/tests,,,libvgpu-cache.a,))
$(eval $(call fatbin_test,test_compute_cache,umd/cache/tests,,,libvgpu-cache.a,))
