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
CUDA_DRV_CFLAGS := -fPIC -fvisibility=hidden -Iumd -I$(CUDA_HOME)/include
CUDA_DRV_LDLIBS := -lpthread -lzstd -llz4

$(LIBVGPU_OBJS) $(CUDA_DRV_OBJS): $(OBJ)/%.pic.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(CUDA_DRV_CFLAGS) -MMD -MP -c $< -o $@

-include $(LIBVGPU_OBJS:.o=.d) $(CUDA_DRV_OBJS:.o=.d)

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

$(LIB)/libcuda.so: $(CUDA_DRV)
	ln -sf libcuda.so.1 $@

ALL_TARGETS += $(LIBVGPU_LIB) $(CUDA_DRV) $(LIB)/libcuda.so
