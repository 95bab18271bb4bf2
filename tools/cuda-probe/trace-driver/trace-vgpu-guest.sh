#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run in a vGPU guest (vgpu-vm --fw --share /usr/local/cuda-13.0 --with DIR):
# vGPU's libcuda behind the tracer (built into DIR=/tmp/lt with the
# tests/libs programs), first with NVIDIA's libcudart, then with vGPU's,
# so that every table request (cudart's and libcurand's) is seen.
TRACE_REAL_LIBCUDA=/work/main/build/lib/libcuda.so.1 TRACE_LOG=/tmp/lt-trace.log TRACE_WRAP=none \
LD_LIBRARY_PATH=/tmp/lt:/usr/local/cuda-13.0/lib64 CURAND_ONLY=xorwow /tmp/lt/curand_host | tail -3
grep -v "^procaddress" /tmp/lt-trace.log | head -20
grep "^procaddress" /tmp/lt-trace.log | grep " none" | awk '{print $2}' | sort -u | tr '\n' ' '
echo
echo "--- vGPU's libcudart:"
TRACE_REAL_LIBCUDA=/work/main/build/lib/libcuda.so.1 TRACE_LOG=/tmp/lt-trace2.log TRACE_WRAP=none \
LD_LIBRARY_PATH=/tmp/lt:/work/main/build/lib:/usr/local/cuda-13.0/lib64 CURAND_ONLY=xorwow /tmp/lt/curand_host | tail -2
grep -v "^procaddress" /tmp/lt-trace2.log | head -20
grep "^procaddress" /tmp/lt-trace2.log | grep " none" | awk '{print $2}' | sort -u | tr '\n' ' '
