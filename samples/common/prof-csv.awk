# SPDX-License-Identifier: GPL-2.0
#
# prof-csv.awk: the rows of `vgpu-prof --csv` (or of `ncu --csv`, the same
# layout) as "ID KERNEL METRIC VALUE", one a line, the thousands' commas
# taken out of the value; everything else the file holds (the program's
# own lines, ncu's ==PROF== lines, the header) is skipped.  The seeds'
# chart scripts (samples/*/...-chart.sh) join these with the sample's
# "launch ID ..." lines.
BEGIN { FS = "\",\"" }
/^"[0-9]+","/ {
	id = substr($1, 2)
	v = $15
	sub(/"$/, "", v)
	gsub(",", "", v)
	print id, $5, $13, v
}
