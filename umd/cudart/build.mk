# SPDX-License-Identifier: GPL-2.0
#
# umd/cudart: libcudart.so.13, the CUDA runtime API, built on the driver
# API (libcuda.so.1), and its tests.  Paths are relative to the repo root.
#
# The library is compiled against the toolkit's own headers so that every
# type and enum value is NVIDIA's.  It is linked against the toolkit's stub
# libcuda.so, which has exactly the symbols of cuda.h: the result records
# only "NEEDED libcuda.so.1", and the loader binds it to ours (build/lib
# first on the library path) at run time.

CUDART_SO := $(LIB)/libcudart.so.13
CUDART_LINK := $(LIB)/libcudart.so
CUDART_SRCS := $(wildcard umd/cudart/*.c)
CUDART_OBJS := $(patsubst %.c,$(OBJ)/%.pic.o,$(CUDART_SRCS))
CUDART_MAP := umd/cudart/libcudart.map
CUDART_CFLAGS := $(USER_CFLAGS) -fPIC -I$(CUDA_HOME)/include
CUDART_LIBCUDA := -L$(CUDA_HOME)/lib64/stubs -lcuda

$(CUDART_OBJS): $(OBJ)/%.pic.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CUDART_CFLAGS) -MMD -MP -c $< -o $@

-include $(CUDART_OBJS:.o=.d)

$(CUDART_SO): $(CUDART_OBJS) $(CUDART_MAP)
	@mkdir -p $(dir $@)
	$(CC) -shared -o $@ $(CUDART_OBJS) -Wl,-soname,libcudart.so.13 \
		-Wl,--version-script=$(CUDART_MAP) -Wl,--no-undefined \
		-Wl,-z,defs $(CUDART_LIBCUDA) -lpthread

$(CUDART_LINK): $(CUDART_SO)
	ln -sf libcudart.so.13 $@

ALL_TARGETS += $(CUDART_SO) $(CUDART_LINK)
