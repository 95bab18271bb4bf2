// SPDX-License-Identifier: GPL-2.0
/*
 * bench_fw.c - round trips and copy bandwidth through the firmware.
 *
 * Not a test (it asserts nothing): it prints what a submission costs
 * compared with a null ioctl, and what the copy engines move per second
 * compared with memcpy() in the same machine.  Starts the firmware itself
 * unless one is attached already.
 *     tools/vgpu-vm -- build/tests/firmware/bench_fw
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "fw_test_util.h"

#define MiB		(1ull << 20)
#define ROUNDS		2000
#define COPY_SIZE	(8 * MiB)
#define COPY_ROUNDS	16

static double per_op_us(uint64_t t0, uint64_t t1, unsigned int n)
{
	return (double)(t1 - t0) / 1e3 / n;
}

static double gib_per_s(uint64_t t0, uint64_t t1, uint64_t bytes)
{
	return (double)bytes / (double)(t1 - t0) * 1e9 / (1 << 30);
}

static int copy_bw(struct vgpu_tq *q, const char *what, uint64_t dst,
		   uint64_t src)
{
	uint64_t t0, t1;

	/* Warm up: the first touch of VRAM commits its pages. */
	fw_emit_copy(q, dst, src, COPY_SIZE);
	if (fw_sync(q, 60000))
		return -1;
	t0 = vgpu_now_ns();
	for (int i = 0; i < COPY_ROUNDS; i++)
		fw_emit_copy(q, dst, src, COPY_SIZE);
	if (fw_sync(q, 60000))
		return -1;
	t1 = vgpu_now_ns();
	printf("%-34s %8.2f GiB/s\n", what,
	       gib_per_s(t0, t1, COPY_ROUNDS * COPY_SIZE));
	return 0;
}

int main(void)
{
	struct fw_launch_args empty = {
		.grid = { 1, 1, 1 }, .block = { 32, 1, 1 },
	};
	struct vgpu_info info;
	struct fw_client c;
	struct fw_module m;
	pid_t fw = 0;
	uint64_t t0, t1, v1, v2;
	uint8_t *big;

	if (!fw_attached()) {
		fw = fw_start(NULL);
		if (fw < 0) {
			fprintf(stderr, "cannot start %s\n", fw_path());
			return 1;
		}
	}
	if (fw_client_open(&c, 64 * MiB, 2 * COPY_SIZE) ||
	    fw_module_load(&c, "fw_kernels.ptx", &m)) {
		fprintf(stderr, "cannot set up a client\n");
		return 1;
	}
	v1 = fw_client_vram(&c, COPY_SIZE);
	v2 = fw_client_vram(&c, COPY_SIZE + 65536);

	t0 = vgpu_now_ns();
	for (int i = 0; i < ROUNDS; i++)
		ioctl(c.fd, VGPU_IOCTL_GET_INFO, &info);
	t1 = vgpu_now_ns();
	printf("%-34s %8.2f us\n", "null ioctl (GET_INFO)",
	       per_op_us(t0, t1, ROUNDS));

	t0 = vgpu_now_ns();
	for (int i = 0; i < ROUNDS; i++)
		if (fw_sync(&c.gr, 10000))
			return 1;
	t1 = vgpu_now_ns();
	printf("%-34s %8.2f us\n", "fence round trip (GR queue)",
	       per_op_us(t0, t1, ROUNDS));

	t0 = vgpu_now_ns();
	for (int i = 0; i < ROUNDS / 4; i++) {
		fw_emit_launch(&c, &m, "empty", &empty);
		if (fw_sync(&c.gr, 10000))
			return 1;
	}
	t1 = vgpu_now_ns();
	printf("%-34s %8.2f us\n", "empty kernel launch + sync",
	       per_op_us(t0, t1, ROUNDS / 4));

	if (copy_bw(&c.ce, "copy host -> VRAM (CE)", v1,
		    (uintptr_t)c.host) ||
	    copy_bw(&c.ce, "copy VRAM -> host (CE)", (uintptr_t)c.host, v1) ||
	    copy_bw(&c.ce, "copy VRAM -> VRAM (CE)", v2, v1) ||
	    /*
	     * Under QEMU TCG, a source and destination a multiple of 1 MiB
	     * apart in the firmware's VRAM mapping collide in the emulator's
	     * software TLB on every access; shifting one by 20 KiB shows the
	     * copy engine's real speed there.
	     */
	    copy_bw(&c.ce, "copy VRAM -> VRAM +20K (CE)", v2 + 20480, v1))
		return 1;

	big = malloc(2 * COPY_SIZE);
	if (!big)
		return 1;
	memset(big, 1, 2 * COPY_SIZE);
	t0 = vgpu_now_ns();
	for (int i = 0; i < COPY_ROUNDS; i++) {
		memcpy(big + (i & 1) * COPY_SIZE, big + !(i & 1) * COPY_SIZE,
		       COPY_SIZE);
		__asm__ volatile("" ::: "memory");
	}
	t1 = vgpu_now_ns();
	printf("%-34s %8.2f GiB/s\n", "memcpy() in this machine",
	       gib_per_s(t0, t1, COPY_ROUNDS * COPY_SIZE));
	free(big);

	fw_module_free(&m);
	fw_client_close(&c);
	if (fw > 0)
		fw_stop(fw);
	return 0;
}
