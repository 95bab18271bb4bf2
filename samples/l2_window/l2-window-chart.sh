#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# l2-window-chart.sh [BUILD_DIR [OUT_PREFIX [EIGHTHS...]]]: run the
# l2_window sample with modelled GPU time (VGPU_TIMING=model) under
# vgpu-prof, and print for each size of the persistent region (in eighths
# of the L2) and each window setting (none, hitRatio 1, tuned) the
# effective bandwidth and the L2 hit rate of the timed launch: the Best
# Practices Guide's sliding-window figures.  Writes OUT_PREFIX.dat and,
# when gnuplot is installed, OUT_PREFIX.png (Documentation/profiler.rst,
# "The seeds' experiments").  BUILD_DIR "-" only draws an OUT_PREFIX.dat
# made before.  The default sweep (8 sizes) takes about five minutes on
# the interpreter.
set -e
build=${1:-build}
prefix=${2:-l2-window-model}
[ $# -gt 2 ] && shift 2 || set --
here=$(dirname "$0")
if [ "$build" != - ]; then
out=$(mktemp)
csv=$(mktemp)
trap 'rm -f "$out" "$csv"' EXIT
VGPU_TIMING=model "$build/bin/vgpu-prof" --csv \
	--metrics lts__t_sector_hit_rate.pct,lts__t_sectors_lookup_miss.sum \
	-o "$csv" \
	"$build/bin/samples/l2_window" "$@" >"$out"
# "launch N MODE K MS ms GBS GB/s hitRatio R", the hit rate of launch N
awk -f "$here/../common/prof-csv.awk" "$csv" | awk '
FNR == NR { c[$1, $3] = $4; next }
/^launch / {
	k = $4; ks[k] = 1
	bw[$3, k] = $7
	hr[$3, k] = c[$2, "lts__t_sector_hit_rate.pct"]
	mb[$3, k] = c[$2, "lts__t_sectors_lookup_miss.sum"] * 32 / 1e6
}
/^PASSED|^FAILED/ { verdict = $0 }
END {
	printf "# eighths  GB/s: none hit1 tuned  L2 hit %%: none hit1 " \
	       "tuned  DRAM MB (L2 misses): none hit1 tuned\n"
	for (k = 1; k <= 16; k++)
		if (k in ks)
			printf "%3d %9s %9s %9s %7s %7s %7s %7.2f %7.2f %7.2f\n",
				k, bw["none", k], bw["hit1", k], bw["tuned", k],
				hr["none", k], hr["hit1", k], hr["tuned", k],
				mb["none", k], mb["hit1", k], mb["tuned", k]
	print "# " verdict
}' - "$out" >"$prefix.dat"
cat "$prefix.dat"
fi
# The H100's recordings of the default sweep, when this tree has them
# (tests/golden/l2_window.h100.*): its measured bandwidth (without ncu)
# and its L2 hit rate (ncu --cache-control none), for the same columns.
golden=$here/../../tests/golden
h100=
if [ -f "$golden/l2_window.h100.csv" ] && [ -f "$golden/l2_window.h100.txt" ]; then
	h100=$prefix.h100.dat
	awk -f "$here/../common/prof-csv.awk" "$golden/l2_window.h100.csv" |
	awk '
	FNR == NR { c[$1, $3] = $4; next }
	/^launch / {
		k = $4; ks[k] = 1; bw[$3, k] = $7
		h = c[$2, "lts__t_sectors_lookup_hit.sum"]
		m = c[$2, "lts__t_sectors_lookup_miss.sum"]
		hr[$3, k] = h + m ? 100 * h / (h + m) : 0
	}
	END {
		print "# H100: eighths  GB/s: none hit1 tuned  L2 hit %: none hit1 tuned"
		for (k = 1; k <= 16; k++)
			if (k in ks)
				printf "%3d %9s %9s %9s %7.2f %7.2f %7.2f\n", k,
					bw["none", k], bw["hit1", k],
					bw["tuned", k], hr["none", k],
					hr["hit1", k], hr["tuned", k]
	}' - "$golden/l2_window.h100.txt" >"$h100"
fi
if command -v gnuplot >/dev/null 2>&1; then
	gnuplot <<GP
set terminal png size 1000,440
set output "$prefix.png"
set multiplot layout 1,2 title "Persisting L2 window sweep: the Best Practices Guide's experiment"
set grid
set xlabel "persistent region (eighths of the L2; set-aside 5/8)"
set key bottom left
set title "L2 sector hit rate (%): vGPU model (solid), H100 (dashed)"
set yrange [40:80]
plot "$prefix.dat" using 1:5 with linespoints lc 1 dt 1 title "no window", \
     "" using 1:6 with linespoints lc 2 dt 1 title "hitRatio 1.0", \
     "" using 1:7 with linespoints lc 3 dt 1 title "hitRatio tuned"$(
  [ -n "$h100" ] && printf '%s' ", \"$h100\" using 1:5 with linespoints lc 1 dt 2 notitle, \"\" using 1:6 with linespoints lc 2 dt 2 notitle, \"\" using 1:7 with linespoints lc 3 dt 2 notitle")
set title "$( [ -n "$h100" ] && echo 'H100: measured bandwidth (GB/s)' || echo 'vGPU: DRAM traffic (MB, L2 misses)')"
set yrange [0:*]
set key bottom left
plot $( if [ -n "$h100" ]; then
  printf '%s' "\"$h100\" using 1:2 with linespoints lc 1 title \"no window\", \"\" using 1:3 with linespoints lc 2 title \"hitRatio 1.0\", \"\" using 1:4 with linespoints lc 3 title \"hitRatio tuned\""
else
  printf '%s' "\"$prefix.dat\" using 1:8 with linespoints lc 1 title \"no window\", \"\" using 1:9 with linespoints lc 2 title \"hitRatio 1.0\", \"\" using 1:10 with linespoints lc 3 title \"hitRatio tuned\""
fi)
unset multiplot
GP
	echo "l2-window-chart: wrote $prefix.dat and $prefix.png"
else
	echo "l2-window-chart: wrote $prefix.dat (no gnuplot: no PNG)"
fi
