#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# coalescing-chart.sh [BUILD_DIR [THREADS [MAX_STEP [OUT_PREFIX]]]]: run the
# coalescing sample with modelled GPU time (VGPU_TIMING=model), print the
# effective bandwidth against offset and against stride, and write
# OUT_PREFIX.dat and, when gnuplot is installed (tools/setup installs
# gnuplot-nox), OUT_PREFIX.png: the two curves of the Best Practices
# Guide's figures, as vGPU's cost model gives them
# (Documentation/profiler.rst, "Modelled GPU time").  The defaults,
# 1,048,576 threads (4 MiB a copy, the L2's size) and steps to 32, take
# about three minutes on the interpreter.  BUILD_DIR "-" only draws an
# OUT_PREFIX.dat made before (a guest without gnuplot made it).
set -e
build=${1:-build}
threads=${2:-1048576}
max=${3:-32}
prefix=${4:-coalescing-model}
if [ "$build" != - ]; then
out=$(mktemp)
trap 'rm -f "$out"' EXIT
VGPU_TIMING=model "$build/bin/samples/coalescing" "$threads" "$max" >"$out"
# "launch N offset|stride K MS ms GBS GB/s": one row per K, both curves
awk -v max="$max" '
/^launch / { bw[$3, $4] = $7; ms[$3, $4] = $5 }
/^PASSED|^FAILED/ { verdict = $0 }
END {
	printf "# k  offset_GB/s  stride_GB/s  offset_ms  stride_ms\n"
	for (k = 0; k <= max; k++)
		printf "%3d %12s %12s %10s %10s\n", k, bw["offset", k],
			(k ? bw["stride", k] : "-"), ms["offset", k],
			(k ? ms["stride", k] : "-")
	print "# " verdict
}' "$out" >"$prefix.dat"
cat "$prefix.dat"
fi
if command -v gnuplot >/dev/null 2>&1; then
	gnuplot <<GP
set terminal png size 800,480
set output "$prefix.png"
set title "Effective bandwidth of a copy (vGPU modelled GPU time, $threads threads)"
set xlabel "offset or stride (elements)"
set ylabel "GB/s"
set key right center
set yrange [0:*]
set grid
plot "$prefix.dat" using 1:2 with linespoints title "offset copy", \
     "$prefix.dat" using 1:3 with linespoints title "stride copy"
GP
	echo "coalescing-chart: wrote $prefix.dat and $prefix.png"
else
	echo "coalescing-chart: wrote $prefix.dat (no gnuplot: no PNG)"
fi
