// SPDX-License-Identifier: GPL-2.0
/*
 * Every packet type has its libvgpu helper, and each helper writes the
 * packet vgpu_hw.h describes.
 *
 * The list of packet types is read from include/vgpu_hw.h itself (enum
 * vgpu_pkt_opcode), so a new opcode without a helper in packets.c (and a
 * case here) fails this test.  The helpers write into a queue whose ring,
 * doorbell and fence page are plain memory: nothing is submitted, the
 * bytes a helper left in the ring are compared with the fields it was
 * given.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest.h"
#include "libvgpu.h"
#include "libvgpu_internal.h"

#define RING_SIZE	4096
#define DEADLINE	INT64_MAX

static _Alignas(64) uint8_t ring[RING_SIZE];
static struct vgpu_doorbell doorbell;
static struct vgpu_fence_page fence_page;
static struct vgpu_queue queue;

/* An empty queue whose next packet lands at ring offset @at. */
static struct vgpu_queue *fresh_queue(uint64_t at)
{
	memset(ring, 0xa5, sizeof(ring));	/* stale bytes of older packets */
	memset(&doorbell, 0, sizeof(doorbell));
	memset(&fence_page, 0, sizeof(fence_page));
	queue = (struct vgpu_queue){
		.ring_size = RING_SIZE,
		.ring = ring,
		.doorbell = &doorbell,
		.fence = &fence_page,
		.wptr = at,
	};
	doorbell.rptr = at;
	return &queue;
}

static const void *at(uint64_t off)
{
	return ring + off;
}

static bool header_is(const void *p, uint16_t opcode, uint32_t size)
{
	const struct vgpu_pkt_header *h = p;

	return h->opcode == opcode && h->flags == 0 && h->size == size;
}

static bool emit_nop(void)
{
	struct vgpu_queue *q = fresh_queue(0);

	return !vgpu_emit_nop(q, 48, DEADLINE) &&
	       header_is(at(0), VGPU_PKT_NOP, 48) && q->wptr == 48;
}

static bool emit_fence(void)
{
	const struct vgpu_pkt_fence *p = at(0);

	return !vgpu_emit_fence(fresh_queue(0), 0x1122334455667788ull,
				DEADLINE) &&
	       header_is(p, VGPU_PKT_FENCE, sizeof(*p)) &&
	       p->value == 0x1122334455667788ull;
}

static bool emit_wait_mem(void)
{
	const struct vgpu_pkt_wait_mem *p = at(0);

	return !vgpu_emit_wait_mem(fresh_queue(0), 0x7000, 42, DEADLINE) &&
	       header_is(p, VGPU_PKT_WAIT_MEM, sizeof(*p)) &&
	       p->va == 0x7000 && p->value == 42;
}

static bool emit_write_mem(void)
{
	const struct vgpu_pkt_write_mem *p = at(0);

	return !vgpu_emit_write_mem(fresh_queue(0), 0x7008, 43, DEADLINE) &&
	       header_is(p, VGPU_PKT_WRITE_MEM, sizeof(*p)) &&
	       p->va == 0x7008 && p->value == 43;
}

static bool emit_copy(void)
{
	const struct vgpu_pkt_copy *p = at(0);

	return !vgpu_emit_copy(fresh_queue(0), 0x1000, 0x2000, 0x300,
			       DEADLINE) &&
	       header_is(p, VGPU_PKT_COPY, sizeof(*p)) &&
	       p->dst == 0x1000 && p->src == 0x2000 && p->size == 0x300;
}

static bool emit_memset(void)
{
	const struct vgpu_pkt_memset *p = at(0);

	return !vgpu_emit_memset(fresh_queue(0), 0x4000, 0xdeadbeef, 4, 99,
				 DEADLINE) &&
	       header_is(p, VGPU_PKT_MEMSET, sizeof(*p)) &&
	       p->dst == 0x4000 && p->value == 0xdeadbeef &&
	       p->elem_size == 4 && p->count == 99;
}

static bool emit_timestamp(void)
{
	const struct vgpu_pkt_timestamp *p = at(0);

	return !vgpu_emit_timestamp(fresh_queue(0), 0x5000, DEADLINE) &&
	       header_is(p, VGPU_PKT_TIMESTAMP, sizeof(*p)) && p->va == 0x5000;
}

static bool emit_launch(void)
{
	const struct vgpu_pkt_launch *p = at(0);
	struct vgpu_pkt_launch tmpl = {
		.hdr = { .opcode = VGPU_PKT_FENCE, .size = 8 },	/* ignored */
		.isa_version = 1, .shared_bytes = 256, .code_va = 0x9000,
		.grid = { 4, 5, 6 }, .block = { 32, 2, 1 },
	};
	static const uint8_t zero[64];
	void *payload;

	if (vgpu_emit_launch(fresh_queue(0), &tmpl, 64, DEADLINE, &payload))
		return false;
	tmpl.hdr = (struct vgpu_pkt_header){
		.opcode = VGPU_PKT_LAUNCH, .size = sizeof(*p) + 64,
	};
	/* all of the fixed part, reserved words zero; payload zeroed */
	return !memcmp(p, &tmpl, sizeof(tmpl)) && payload == p + 1 &&
	       !memcmp(payload, zero, sizeof(zero));
}

static bool emit_copy_tiled(void)
{
	const struct vgpu_pkt_copy_tiled *p = at(0);
	struct vgpu_pkt_copy_tiled tmpl = {
		.linear = 0x10000, .linear_pitch = 512, .linear_slice = 8192,
		.surface = 0x20000, .surf_row_bytes = 256, .surf_height = 16,
		.surf_depth = 2, .block_h_log2 = 1, .block_d_log2 = 0,
		.direction = VGPU_COPY_TILED_FROM_SURFACE,
		.x = 1, .y = 2, .z = 1, .width = 64, .height = 8, .depth = 1,
	};

	if (vgpu_emit_copy_tiled(fresh_queue(0), &tmpl, DEADLINE))
		return false;
	tmpl.hdr = (struct vgpu_pkt_header){
		.opcode = VGPU_PKT_COPY_TILED, .size = sizeof(*p),
	};
	return !memcmp(p, &tmpl, sizeof(tmpl));
}

/* The helpers, by the name of the opcode they write. */
static const struct packet_helper {
	const char *name;
	unsigned int opcode;
	bool (*check)(void);
} helpers[] = {
#define HELPER(op, fn) { #op, op, fn }
	HELPER(VGPU_PKT_NOP, emit_nop),
	HELPER(VGPU_PKT_FENCE, emit_fence),
	HELPER(VGPU_PKT_WAIT_MEM, emit_wait_mem),
	HELPER(VGPU_PKT_WRITE_MEM, emit_write_mem),
	HELPER(VGPU_PKT_COPY, emit_copy),
	HELPER(VGPU_PKT_MEMSET, emit_memset),
	HELPER(VGPU_PKT_TIMESTAMP, emit_timestamp),
	HELPER(VGPU_PKT_LAUNCH, emit_launch),
	HELPER(VGPU_PKT_COPY_TILED, emit_copy_tiled),
#undef HELPER
};

#define N_HELPERS (sizeof(helpers) / sizeof(helpers[0]))

/*
 * Read "VGPU_PKT_NAME = N," lines of enum vgpu_pkt_opcode from vgpu_hw.h;
 * returns how many (names into @names, values into @values).
 */
static int read_opcodes(char names[][48], unsigned int *values, int max)
{
	FILE *f = fopen(VGPU_HW_H, "r");
	bool in_enum = false;
	char line[256];
	int n = 0;

	if (!f)
		ksft_exit_fail_msg("cannot open %s\n", VGPU_HW_H);
	while (fgets(line, sizeof(line), f)) {
		char name[48];
		unsigned int v;

		if (strstr(line, "enum vgpu_pkt_opcode {")) {
			in_enum = true;
			continue;
		}
		if (!in_enum)
			continue;
		if (line[0] == '}')
			break;
		if (sscanf(line, " %47[A-Z0-9_] = %u", name, &v) == 2 &&
		    n < max) {
			strcpy(names[n], name);
			values[n++] = v;
		}
	}
	fclose(f);
	return n;
}

static const struct packet_helper *helper_of(const char *name)
{
	for (size_t i = 0; i < N_HELPERS; i++)
		if (!strcmp(helpers[i].name, name))
			return &helpers[i];
	return NULL;
}

/* A packet that does not fit before the end of the ring starts at 0. */
static void check_wrap(void)
{
	struct vgpu_queue *q = fresh_queue(RING_SIZE - 16);
	const struct vgpu_pkt_copy *p = at(0);
	bool ok;

	ok = !vgpu_emit_copy(q, 1, 2, 3, DEADLINE) &&
	     header_is(at(RING_SIZE - 16), VGPU_PKT_NOP, 16) &&
	     header_is(p, VGPU_PKT_COPY, sizeof(*p)) &&
	     q->wptr == RING_SIZE + sizeof(*p);
	ksft_test_result(ok, "a packet that would wrap follows a NOP pad\n");
}

/* Bad sizes and a stopped queue are refused before anything is written. */
static void check_errors(void)
{
	struct vgpu_queue *q = fresh_queue(0);
	void *payload = &payload;

	ksft_test_result(vgpu_emit_nop(q, 12, DEADLINE) == -EINVAL &&
			 vgpu_emit_nop(q, 4, DEADLINE) == -EINVAL &&
			 q->wptr == 0,
			 "NOP of a size not a multiple of 8, or below a header: -EINVAL\n");
	ksft_test_result(vgpu_emit_launch(q, &(struct vgpu_pkt_launch){ 0 },
					  RING_SIZE, DEADLINE,
					  &payload) == -EINVAL &&
			 !payload && q->wptr == 0,
			 "LAUNCH larger than half the ring: -EINVAL, no payload\n");
	fence_page.error = VGPU_QUEUE_ERROR_CTX_DEAD;
	ksft_test_result(vgpu_emit_fence(q, 1, DEADLINE) == -ECANCELED &&
			 q->wptr == 0,
			 "a packet on a dead context's queue: -ECANCELED\n");
	fence_page.error = VGPU_QUEUE_ERROR_DEVICE_LOST;
	ksft_test_result(vgpu_emit_fence(q, 1, DEADLINE) == -ENODEV,
			 "a packet on a lost device's queue: -ENODEV\n");
}

int main(void)
{
	char names[32][48];
	unsigned int values[32];
	int n = read_opcodes(names, values, 32);

	ksft_print_header();
	ksft_set_plan((unsigned int)n + 2 + 4);
	ksft_test_result(n > 0 && (size_t)n == N_HELPERS,
			 "vgpu_hw.h names %d packet types, this test %zu helpers\n",
			 n, N_HELPERS);
	for (int i = 0; i < n; i++) {
		const struct packet_helper *h = helper_of(names[i]);

		ksft_test_result(h && h->opcode == values[i] && h->check(),
				 "%s (%u) has a helper that writes it\n",
				 names[i], values[i]);
	}
	check_wrap();
	check_errors();
	ksft_finished();
}
