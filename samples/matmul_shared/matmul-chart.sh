#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# matmul-chart.sh [BUILD_DIR [SIDE [OUT_PREFIX]]]: run the matmul_shared
# sample with modelled GPU time (VGPU_TIMING=model) under vgpu-prof, and
# print per variant its speed and what explains it: the 32-byte sectors
# its global loads fetched (the tiles read each element N / 16 times
# instead of N) and the wavefronts and bank conflicts of its shared-memory
# loads.  Writes OUT_PREFIX.dat and, when gnuplot is installed,
# OUT_PREFIX.png (Documentation/profiler.rst, "The seeds' experiments").
# BUILD_DIR "-" only draws an OUT_PREFIX.dat made before.  The default
# side, 256, takes about a minute on the interpreter.
set -e
build=${1:-build}
side=${2:-256}
prefix=${3:-matmul-model}
here=$(dirname "$0")
if [ "$build" != - ]; then
out=$(mktemp)
csv=$(mktemp)
trap 'rm -f "$out" "$csv"' EXIT
m=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
m=$m,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
m=$m,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
VGPU_TIMING=model "$build/bin/vgpu-prof" --csv --metrics "$m" -o "$csv" \
	"$build/bin/samples/matmul_shared" "$side" >"$out"
# "launch N VARIANT MS ms GFLOPS GFLOP/s" and the counters of launch N
awk -f "$here/../common/prof-csv.awk" "$csv" | awk '
FNR == NR { c[$1, $3] = $4; next }
/^launch / { n[$2] = $3; ms[$2] = $4; fl[$2] = $6; order[nl++] = $2 }
/^PASSED|^FAILED/ { verdict = $0 }
END {
	printf "# variant  GFLOP/s  ms  ld_sectors  sh_ld_wavefronts  " \
	       "sh_ld_conflicts\n"
	for (j = 0; j < nl; j++) {
		i = order[j]
		printf "%-13s %9s %8s %10d %10d %10d\n", n[i], fl[i], ms[i],
			c[i, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"],
			c[i, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"],
			c[i, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"]
	}
	print "# " verdict
}' - "$out" >"$prefix.dat"
cat "$prefix.dat"
fi
if command -v gnuplot >/dev/null 2>&1; then
	gnuplot <<GP
set terminal png size 900,460
set output "$prefix.png"
set termoption noenhanced
set multiplot layout 1,2 title "C = A x B, $side x $side floats (vGPU: modelled GPU time, counters)"
set style data histograms
set style fill solid 0.6 border -1
set boxwidth 0.7
set grid ytics
set yrange [0:*]
set xtics rotate by -15
unset key
set title "GFLOP/s"
plot "$prefix.dat" using 2:xtic(1) lc rgb "#3070b0"
set title "thousands: load sectors, shared wavefronts"
set key below
plot "$prefix.dat" using (\$4/1000):xtic(1) title "global load sectors" lc rgb "#b05030", \
     "" using (\$5/1000) title "shared load wavefronts" lc rgb "#50a050"
unset multiplot
GP
	echo "matmul-chart: wrote $prefix.dat and $prefix.png"
else
	echo "matmul-chart: wrote $prefix.dat (no gnuplot: no PNG)"
fi
