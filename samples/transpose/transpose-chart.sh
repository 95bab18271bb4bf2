#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# transpose-chart.sh [BUILD_DIR [SIDE [OUT_PREFIX]]]: run the transpose
# sample with modelled GPU time (VGPU_TIMING=model) under vgpu-prof, and
# print per variant the effective bandwidth and what explains it: the
# 32-byte sectors of each warp's global store and the wavefronts and bank
# conflicts of its shared-memory loads.  Writes OUT_PREFIX.dat and, when
# gnuplot is installed (tools/setup installs gnuplot-nox), OUT_PREFIX.png
# (Documentation/profiler.rst, "The seeds' experiments").  BUILD_DIR "-"
# only draws an OUT_PREFIX.dat made before (a guest without gnuplot made
# it).  The default side, 512, takes about a minute on the interpreter.
set -e
build=${1:-build}
side=${2:-512}
prefix=${3:-transpose-model}
here=$(dirname "$0")
if [ "$build" != - ]; then
out=$(mktemp)
csv=$(mktemp)
trap 'rm -f "$out" "$csv"' EXIT
m=l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
m=$m,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
m=$m,smsp__sass_inst_executed_op_shared_ld.sum
m=$m,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
m=$m,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
VGPU_TIMING=model "$build/bin/vgpu-prof" --csv --metrics "$m" -o "$csv" \
	"$build/bin/samples/transpose" "$side" >"$out"
# "launch N VARIANT MS ms GBS GB/s" and the counters of launch N
awk -f "$here/../common/prof-csv.awk" "$csv" | awk '
FNR == NR { c[$1, $3] = $4; next }
/^launch / { n[$2] = $3; ms[$2] = $4; bw[$2] = $6; order[nl++] = $2 }
/^PASSED|^FAILED/ { verdict = $0 }
END {
	printf "# variant  GB/s  ms  st_sectors/req  sh_ld_wavefronts/req  " \
	       "sh_ld_conflicts\n"
	for (j = 0; j < nl; j++) {
		i = order[j]
		req = c[i, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"]
		sec = c[i, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"]
		sreq = c[i, "smsp__sass_inst_executed_op_shared_ld.sum"]
		wf = c[i, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"]
		bc = c[i, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"]
		printf "%-8s %9s %8s %6.2f %6.2f %10d\n", n[i], bw[i], ms[i],
			req ? sec / req : 0, sreq ? wf / sreq : 0, bc
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
set multiplot layout 1,2 title "Matrix transpose, $side x $side floats (vGPU: modelled GPU time, counters)"
set style data histograms
set style fill solid 0.6 border -1
set boxwidth 0.7
set grid ytics
set yrange [0:*]
unset key
set title "effective bandwidth (GB/s)"
plot "$prefix.dat" using 2:xtic(1) lc rgb "#3070b0"
set title "per warp: store sectors, shared-load wavefronts"
set key below
plot "$prefix.dat" using 4:xtic(1) title "global store sectors / request" lc rgb "#b05030", \
     "" using 5 title "shared load wavefronts / request" lc rgb "#50a050"
unset multiplot
GP
	echo "transpose-chart: wrote $prefix.dat and $prefix.png"
else
	echo "transpose-chart: wrote $prefix.dat (no gnuplot: no PNG)"
fi
