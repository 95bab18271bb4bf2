#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# coalescing-counters.sh [BUILD_DIR]: run the coalescing sample under
# vgpu-prof and print, per launch, what its warps' loads cost: requests,
# 32-byte sectors, sectors per request, and the load efficiency (bytes
# the threads asked for over bytes of the sectors fetched), the numbers
# behind the Best Practices Guide's bandwidth curves.
#   offset 0 and multiples of 8: 4 sectors per warp (100 %); others 5 (80 %)
#   stride s: min(4 s, 32) sectors per warp (100 %, 50 %, ... 12.5 %)
set -e
build=${1:-build}
app=$build/bin/samples/coalescing
out=$(mktemp)
trap 'rm -f "$out"' EXIT
ld_req=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
ld_sec=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
"$build/bin/vgpu-prof" --table --metrics "$ld_req,$ld_sec" "$app" >"$out"
# the sample's "launch N offset|stride K ..." lines and vgpu-prof's rows
# ("ID kernel [1]=requests [2]=sectors") are paired by launch number
awk '
/^launch / { what[$2] = $3; k[$2] = $4; next }
/^ *[0-9]+  / {
	req = $3; sec = $4; gsub(",", "", req); gsub(",", "", sec)
	rows[$1] = sprintf("%-7s %3s %10s %10s %10.2f %9.1f %%", what[$1], k[$1],
		$3, $4, sec / req, 100 * (req * 32 * 4) / (sec * 32))
	n = $1 + 1
}
/^PASSED|^FAILED/ { verdict = $0 }
END {
	printf "%-7s %3s %10s %10s %10s %11s\n", "copy", "k", "requests",
		"sectors", "sect/req", "efficiency"
	for (i = 0; i < n; i++)
		print rows[i]
	print verdict
}' "$out"
