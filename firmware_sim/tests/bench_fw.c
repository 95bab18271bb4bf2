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
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "fw_test_util.h"
#include "vgpu_visa.h"

#define MiB		(1ull << 20)
#define ROUNDS		2000
#define COPY_SIZE	(8 * MiB)
#define COPY_ROUNDS	16
#define PAIRS		400

static double per_op_us(uint64_t t0, uint64_t t1, unsigned int n)
{
	return (double)(t1 - t0) / 1e3 / n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of @n samples (sorts them). */
static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return v[n / 2];
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

	/*
	 * Round trips come in pairs, measured alternately and reported as
	 * medians: on a loaded machine (or under TCG) a run of one kind
	 * alone can land in a slow patch and mislead the comparison.
	 */
	{
		struct visa_printf_fifo *fifo = (void *)(c.host + COPY_SIZE);
		struct fw_launch_args with_fifo = empty;
		struct vgpu_pkt_write_mem wr = {
			.hdr = { .opcode = VGPU_PKT_WRITE_MEM,
				 .size = sizeof(wr) },
			.va = (uintptr_t)c.host, .value = 1,
		};
		static double fence[PAIRS], write[PAIRS], plain[PAIRS],
			      named[PAIRS];

		memset(fifo, 0, sizeof(*fifo));
		fifo->magic = VISA_PRINTF_MAGIC;
		fifo->capacity = MiB - sizeof(*fifo);
		with_fifo.printf_fifo_va = (uintptr_t)fifo;
		with_fifo.printf_fifo_size = MiB;
		for (int i = 0; i < PAIRS; i++) {
			t0 = vgpu_now_ns();
			if (fw_sync(&c.gr, 10000))
				return 1;
			t1 = vgpu_now_ns();
			fence[i] = per_op_us(t0, t1, 1);
			vgpu_tq_emit(&c.gr, &wr, sizeof(wr));
			if (fw_sync(&c.gr, 10000))
				return 1;
			write[i] = per_op_us(t1, vgpu_now_ns(), 1);
			/* Either order, so neither always follows the other. */
			for (int k = 0; k < 2; k++) {
				bool fifo_turn = (k + i) & 1;

				t0 = vgpu_now_ns();
				fw_emit_launch(&c, &m, "empty",
					       fifo_turn ? &with_fifo : &empty);
				if (fw_sync(&c.gr, 10000))
					return 1;
				t1 = vgpu_now_ns();
				if (fifo_turn)
					named[i] = per_op_us(t0, t1, 1);
				else
					plain[i] = per_op_us(t0, t1, 1);
			}
		}
		printf("%-34s %8.2f us (median)\n",
		       "fence round trip (GR queue)", median(fence, PAIRS));
		printf("%-34s %8.2f us (median)\n",
		       "WRITE_MEM to pinned + fence (GR)", median(write, PAIRS));
		printf("%-34s %8.2f us (median)\n", "empty kernel launch + sync",
		       median(plain, PAIRS));
		printf("%-34s %8.2f us (median)\n",
		       "  ... naming a 1 MiB printf FIFO", median(named, PAIRS));
	}
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
