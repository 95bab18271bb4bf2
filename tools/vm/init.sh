#!/vgpu-vm/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the vgpu-vm guest (PID 1), run by busybox sh.
#
# The initramfs holds the host's files at their own paths; this script only
# sets up the kernel file systems, loads the driver, optionally starts the
# firmware, runs /vgpu-vm/run.sh (written by tools/vgpu-vm for each run) on
# the first serial port, reports its exit status on the third, and powers
# off.  The kernel's console is the second serial port, which the host reads
# to judge the kernel log.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/vgpu-vm/bin

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm /tmp /run /var/tmp /root
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t debugfs debugfs /sys/kernel/debug
ln -sf /proc/self/fd /dev/fd
hostname vgpu-vm

. /vgpu-vm/config

# Output is read by a program, not a terminal: no \n -> \r\n translation.
# An interactive shell's is read by a terminal, which wants it.
[ -z "$VGPU_SHELL" ] && stty -F /dev/ttyS0 -onlcr 2>/dev/null

report() {
	echo "VGPU_VM_EXIT $1" > /dev/ttyS2
	sync
	reboot -f
}

# Report hung tasks within the run rather than after two minutes.
echo 20 > /proc/sys/kernel/hung_task_timeout_secs 2>/dev/null

# Tell the host the kernel booted: a crash before this line is the
# emulator's or the kernel's, not the driver's, and the runner retries it.
echo "VGPU_VM_BOOTED" > /dev/ttyS2

# kmemleak (the debug kernel): forget what the boot left unreferenced, so
# that what it reports at the end is the run's.
KMEMLEAK=/sys/kernel/debug/kmemleak
[ -w "$KMEMLEAK" ] && echo clear > "$KMEMLEAK"

# Modules the kernel needs for --share (virtiofs) where it does not build
# them in, dependencies first.
for m in $VGPU_PRELOAD; do
	if ! insmod "$m" > /dev/ttyS0 2>&1; then
		echo "vgpu-vm: insmod $m failed" > /dev/ttyS0
		report 125
	fi
done

# --share: "TAG DIR" lines; each host directory at its own path.
if [ -f /vgpu-vm/shares ]; then
	while read -r tag dir; do
		mkdir -p "$dir"
		if ! mount -t virtiofs "$tag" "$dir" > /dev/ttyS0 2>&1; then
			echo "vgpu-vm: mount of shared $dir failed" > /dev/ttyS0
			report 125
		fi
	done < /vgpu-vm/shares
fi

if [ -n "$VGPU_MODULE" ]; then
	# shellcheck disable=SC2086
	if ! insmod "$VGPU_MODULE" $VGPU_MODULE_PARAMS > /dev/ttyS0 2>&1; then
		echo "vgpu-vm: insmod $VGPU_MODULE failed" > /dev/ttyS0
		report 125
	fi
fi

if [ -n "$VGPU_FW" ]; then
	# The firmware daemonizes only once it has attached to every device.
	# shellcheck disable=SC2086
	if ! "$VGPU_FW" --daemon $VGPU_FW_ARGS > /dev/ttyS0 2>&1; then
		echo "vgpu-vm: firmware $VGPU_FW failed to start" > /dev/ttyS0
		report 125
	fi
fi

if [ -n "$VGPU_SHELL" ]; then
	# A session of its own with the console as its controlling terminal
	# (setsid -c), so that ^C and job control reach the shell's children.
	echo "vgpu-vm: a shell in the guest; 'exit' or ^D powers it off." \
		> /dev/ttyS0
	setsid -c /vgpu-vm/bin/sh /vgpu-vm/run.sh \
		< /dev/ttyS0 > /dev/ttyS0 2>&1
else
	/vgpu-vm/bin/sh /vgpu-vm/run.sh < /dev/null > /dev/ttyS0 2>&1
fi
status=$?

# Shared directories: what the guest wrote must reach the host.
sync

# 0 while some device still has a firmware attached (sysfs "firmware").
firmware_attached() {
	for f in /sys/class/misc/vgpu*/firmware; do
		[ "$(cat "$f" 2>/dev/null)" = attached ] && return 0
	done
	return 1
}

# The firmware detaches when its process has exited and closed the device;
# until then rmmod fails with "in use".  Wait for that, polling every 0.1 s,
# for at most FW_DETACH_TENTHS tenths of a second: an exiting process under
# TCG, with a device's memory to unmap, can take a few seconds.
FW_DETACH_TENTHS=300
if [ -n "$VGPU_FW" ] && [ -f /run/vgpu-fw.pid ]; then
	kill "$(cat /run/vgpu-fw.pid)" 2>/dev/null
	tenths=0
	while firmware_attached; do
		if [ "$tenths" -ge "$FW_DETACH_TENTHS" ]; then
			echo "vgpu-vm: the firmware has not detached" \
			     "$((tenths / 10)) s after SIGTERM" > /dev/ttyS0
			break
		fi
		sleep 0.1
		tenths=$((tenths + 1))
	done
fi
if [ -n "$VGPU_MODULE" ] && [ -z "$VGPU_KEEP_MODULE" ]; then
	# Unloading is part of the test: it must succeed with nothing leaked.
	if ! rmmod vgpu > /dev/ttyS0 2>&1; then
		echo "vgpu-vm: rmmod vgpu failed" > /dev/ttyS0
		[ "$status" -eq 0 ] && status=126
	fi
fi
# kmemleak reports objects unreferenced for 5 s whose contents did not
# change between two scans: wait, scan twice, and print what it found on
# the kernel console, where the host's check of the log sees it.
if [ -w "$KMEMLEAK" ]; then
	sleep 5
	echo scan > "$KMEMLEAK"
	echo scan > "$KMEMLEAK"
	cat "$KMEMLEAK" > /dev/ttyS1
fi
report "$status"
