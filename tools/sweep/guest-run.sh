#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of tools/samples-sweep: run every program of a run list,
# one after the other, each under a time limit, and print its output between
# two marker lines the host parses:
#
#   @@SWEEP BEGIN <id>
#   ...the program's output (at most 64 KiB of it)...
#   @@SWEEP END <id> status=<exit status> seconds=<run time> fw=<state>
#
# Each line of the list is shell words: ID LIMIT DIR PROGRAM [ARG]...
# The program runs in DIR with its standard input from /dev/null.  fw= is
# the firmware's state after the program ("ok", or "restarted" when the
# program left a device without its firmware and it was started again, so
# that one crash does not fail every program after it).
#
#   guest-run.sh LIST FIRMWARE
list=$1
fw=$2
out=/tmp/sweep-output

# 0 when every device has its firmware attached.
firmware_attached() {
	for f in /sys/class/misc/vgpu*/firmware; do
		[ "$(cat "$f")" = attached ] || return 1
	done
	return 0
}

while IFS= read -r line; do
	[ -n "$line" ] || continue
	eval "set -- $line"
	id=$1 limit=$2 dir=$3
	shift 3
	echo "@@SWEEP BEGIN $id"
	start=$(date +%s)
	(cd "$dir" && exec timeout -s KILL "$limit" "$@") \
		< /dev/null > "$out" 2>&1
	status=$?
	end=$(date +%s)
	head -c 65536 "$out"
	state=ok
	if ! firmware_attached; then
		# The old firmware may still be detaching: wait for it to go.
		pid=$(cat /run/vgpu-fw.pid 2>/dev/null)
		[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
		sleep 1
		"$fw" --daemon > /dev/null 2>&1
		state=restarted
	fi
	echo
	echo "@@SWEEP END $id status=$status seconds=$((end - start)) fw=$state"
done < "$list"
exit 0
