// SPDX-License-Identifier: GPL-2.0
/*
 * test_fw.c - the firmware vgpu-fw end to end, through the raw uAPI.
 *
 * Every test starts the real firmware (build/bin/vgpu-fw) on /dev/vgpu0
 * and stops it afterwards, so tests can also kill it.  Run in the guest:
 *     tools/vgpu-vm --kernel 6.12 -- build/tests/firmware/test_fw
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "fw_test_util.h"
#include "vgpu_counters.h"
#include "vgpu_array.h"
#include "vgpu_launch.h"
#include "vgpu_printf.h"
#include "vgpu_visa.h"

#define MiB		(1ull << 20)
#define WAIT_MS		20000
#define UNMAPPED_VA	0x600000000000ull

static uint64_t hva(const void *p)
{
	return (uintptr_t)p;
}

/* Run vectorAdd on @c with @n elements; 0 when C == A + B exactly. */
static int vector_add(struct fw_client *c, int n)
{
	struct fw_module m;
	uint64_t bytes = (uint64_t)n * sizeof(float), a, b, out;
	float *ha = (float *)c->host, *hb = ha + n, *hc = hb + n;
	struct {
		uint64_t a, b, c;
		int32_t n;
		uint32_t pad;
	} params;
	struct fw_launch_args args = {
		.grid = { (uint32_t)(n + 255) / 256, 1, 1 },
		.block = { 256, 1, 1 },
		.params = &params,
	};
	int ret, bad = 0;

	if (3 * bytes > c->host_size || fw_module_load(c, "fw_kernels.ptx", &m))
		return -1;
	args.param_size = fw_module_param_size(&m, "vectorAdd");
	a = fw_client_vram(c, bytes);
	b = fw_client_vram(c, bytes);
	out = fw_client_vram(c, bytes);
	if (!a || !b || !out || args.param_size < 28 ||
	    args.param_size > sizeof(params)) {
		fw_module_free(&m);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		ha[i] = (float)i * 0.5f;
		hb[i] = 1.0f / (float)(i + 1);
	}
	params = (typeof(params)){ .a = a, .b = b, .c = out, .n = n };
	fw_emit_copy(&c->gr, a, hva(ha), bytes);
	fw_emit_copy(&c->gr, b, hva(hb), bytes);
	fw_emit_memset(&c->gr, hva(hc), 0, 4, (uint64_t)n);
	ret = fw_emit_launch(c, &m, "vectorAdd", &args);
	fw_emit_copy(&c->gr, hva(hc), out, bytes);
	if (!ret)
		ret = fw_sync(&c->gr, WAIT_MS);
	for (int i = 0; !ret && i < n; i++)
		bad += hc[i] != ha[i] + hb[i];
	fw_module_free(&m);
	return ret ? ret : bad ? -1 : 0;
}

/*
 * Launch spin() waiting on a zero flag in VRAM (its address goes to
 * m->spin_flag); returns the fence to wait for, 0 on failure.
 */
static uint64_t launch_spin(struct fw_client *c, struct fw_module *m)
{
	uint64_t flag = fw_client_vram(c, 4096);
	struct fw_launch_args args = {
		.grid = { 1, 1, 1 }, .block = { 32, 1, 1 },
		.params = &flag, .param_size = 8,
	};
	uint64_t fence;

	if (!flag || fw_module_load(c, "fw_kernels.ptx", m))
		return 0;
	m->spin_flag = flag;
	/*
	 * The flag is 0 before the launch is queued: were the memset queued
	 * with it, a loaded GR could clear the flag after a copy engine has
	 * already set it, and the grid would spin on.
	 */
	fw_emit_memset(&c->gr, flag, 0, 4, 1);
	if (fw_sync(&c->gr, WAIT_MS))
		return 0;
	if (fw_emit_launch(c, m, "spin", &args))
		return 0;
	fence = vgpu_tq_fence(&c->gr);
	vgpu_tq_submit(&c->gr);
	return fence;
}

FIXTURE(fw) {
	pid_t fw;
	struct fw_client c;
	char exec_limit_ms[32];	/* the value to restore; "" if unchanged */
};

/*
 * Set the driver's per-kernel execution limit for one test; the teardown
 * restores it, also when an assertion ends the test early.
 */
static int exec_limit_set(char saved[32], const char *ms)
{
	FILE *f;

	if (!saved[0]) {
		f = fopen(VGPU_PARAMS "kernel_exec_timeout_ms", "r");
		if (!f)
			return -errno;
		if (!fgets(saved, 32, f))
			saved[0] = '\0';
		fclose(f);
		saved[strcspn(saved, "\n")] = '\0';
		if (!saved[0])
			return -EIO;
	}
	return vgpu_param_write("kernel_exec_timeout_ms", ms);
}

FIXTURE_SETUP(fw)
{
	self->fw = fw_start(NULL);
	ASSERT_GT(self->fw, 0);
	ASSERT_EQ(0, fw_client_open(&self->c, 8 * MiB, 4 * MiB));
}

FIXTURE_TEARDOWN(fw)
{
	if (self->exec_limit_ms[0])
		EXPECT_EQ(0, vgpu_param_write("kernel_exec_timeout_ms",
					      self->exec_limit_ms));
	fw_client_close(&self->c);
	EXPECT_EQ(0, fw_stop(self->fw));
}

/*
 * Host -> VRAM on a copy engine, VRAM -> VRAM on GR, VRAM -> host on a
 * copy engine, at sizes around page boundaries and odd alignments; the
 * bytes around the destination must stay untouched.
 */
TEST_F_TIMEOUT(fw, copy_sizes_and_alignments, 120)
{
	static const uint64_t sizes[] = {
		1, 7, 8, 64, 4095, 4096, 4097, 65535, 65536, 65537, 300000,
		MiB + 5,
	};
	static const uint64_t offsets[] = { 0, 1, 4093 };
	struct fw_client *c = &self->c;
	uint8_t *src = c->host, *dst = c->host + 2 * MiB;
	uint64_t v1 = fw_client_vram(c, 2 * MiB), v2 = fw_client_vram(c, 2 * MiB);

	ASSERT_NE(0, v1);
	ASSERT_NE(0, v2);
	srand(1);
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		for (size_t o = 0; o < sizeof(offsets) / sizeof(offsets[0]); o++) {
			uint64_t size = sizes[s], off = offsets[o];
			uint64_t off2 = offsets[(o + 1) % 3];

			for (uint64_t i = 0; i < size; i++)
				src[off + i] = (uint8_t)rand();
			memset(dst, 0xaa, size + 2 * 4096 + 8);
			fw_emit_copy(&c->ce, v1 + off, hva(src + off), size);
			ASSERT_EQ(0, fw_sync(&c->ce, WAIT_MS));
			fw_emit_copy(&c->gr, v2 + off2, v1 + off, size);
			ASSERT_EQ(0, fw_sync(&c->gr, WAIT_MS));
			fw_emit_copy(&c->ce, hva(dst + 4096 + off), v2 + off2,
				     size);
			ASSERT_EQ(0, fw_sync(&c->ce, WAIT_MS));
			ASSERT_EQ(0, memcmp(dst + 4096 + off, src + off, size))
				TH_LOG("size %llu offset %llu",
				       (unsigned long long)size,
				       (unsigned long long)off);
			ASSERT_EQ(0xaa, dst[4096 + off - 1]);
			ASSERT_EQ(0xaa, dst[4096 + off + size]);
		}
	}
}

/* MEMSET of 1, 2 and 4-byte elements, in VRAM and in pinned host memory. */
TEST_F(fw, memset_elem_sizes)
{
	static const uint64_t counts[] = { 1, 3, 1000, 70000 };
	struct fw_client *c = &self->c;
	uint8_t *host = c->host;
	uint64_t v = fw_client_vram(c, MiB);

	ASSERT_NE(0, v);
	for (uint32_t elem = 1; elem <= 4; elem *= 2) {
		for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
			uint64_t n = counts[i], off = 3 * elem;
			uint32_t value = 0x9abcdef0u + elem;
			uint8_t *vram_copy = host + 2 * MiB;

			memset(host, 0x55, n * elem + 2 * off);
			memset(vram_copy, 0x55, n * elem + 2 * off);
			fw_emit_memset(&c->ce, hva(host + off), value, elem, n);
			fw_emit_copy(&c->ce, v, hva(vram_copy), n * elem + 2 * off);
			fw_emit_memset(&c->ce, v + off, value, elem, n);
			fw_emit_copy(&c->ce, hva(vram_copy), v, n * elem + 2 * off);
			ASSERT_EQ(0, fw_sync(&c->ce, WAIT_MS));
			for (uint64_t k = 0; k < n; k++) {
				ASSERT_EQ(0, memcmp(host + off + k * elem,
						    &value, elem));
				ASSERT_EQ(0, memcmp(vram_copy + off + k * elem,
						    &value, elem));
			}
			ASSERT_EQ(0x55, host[off - 1]);
			ASSERT_EQ(0x55, host[off + n * elem]);
			ASSERT_EQ(0x55, vram_copy[off - 1]);
			ASSERT_EQ(0x55, vram_copy[off + n * elem]);
		}
	}
}

/* TIMESTAMP values are device (CLOCK_MONOTONIC) ns, in packet order. */
TEST_F(fw, timestamps)
{
	struct fw_client *c = &self->c;
	uint64_t *ts = (uint64_t *)c->host, t0, t3, v = fw_client_vram(c, MiB);
	struct vgpu_pkt_timestamp p = {
		.hdr = { .opcode = VGPU_PKT_TIMESTAMP, .size = sizeof(p) },
	};

	ts[0] = ts[1] = 0;
	t0 = vgpu_now_ns();
	p.va = hva(&ts[0]);
	vgpu_tq_emit(&c->ce, &p, sizeof(p));
	fw_emit_copy(&c->ce, v, hva(c->host + MiB), MiB);
	p.va = hva(&ts[1]);
	vgpu_tq_emit(&c->ce, &p, sizeof(p));
	ASSERT_EQ(0, fw_sync(&c->ce, WAIT_MS));
	t3 = vgpu_now_ns();
	EXPECT_LE(t0, ts[0]);
	EXPECT_LE(ts[0], ts[1]);
	EXPECT_LE(ts[1], t3);
}

/*
 * WAIT_MEM stalls the GR queue until a WRITE_MEM on a copy queue releases
 * it: the cross-queue dependency a CUDA event wait between streams uses.
 */
TEST_F(fw, wait_mem_released_by_write_mem)
{
	struct fw_client *c = &self->c;
	uint64_t *sem = (uint64_t *)c->host, *out = sem + 1, fence;
	struct vgpu_pkt_wait_mem w = {
		.hdr = { .opcode = VGPU_PKT_WAIT_MEM, .size = sizeof(w) },
		.va = hva(sem), .value = 5,
	};
	struct vgpu_pkt_write_mem wr = {
		.hdr = { .opcode = VGPU_PKT_WRITE_MEM, .size = sizeof(wr) },
		.va = hva(out), .value = 42,
	};

	*sem = 0;
	*out = 0;
	vgpu_tq_emit(&c->gr, &w, sizeof(w));
	vgpu_tq_emit(&c->gr, &wr, sizeof(wr));
	fence = vgpu_tq_fence(&c->gr);
	ASSERT_EQ(0, vgpu_tq_submit(&c->gr));
	ASSERT_EQ(-ETIME, vgpu_tq_wait(&c->gr, fence, 300));
	ASSERT_EQ(0, __atomic_load_n(out, __ATOMIC_ACQUIRE));

	wr.va = hva(sem);
	wr.value = 5;
	vgpu_tq_emit(&c->ce, &wr, sizeof(wr));
	ASSERT_EQ(0, fw_sync(&c->ce, WAIT_MS));
	ASSERT_EQ(0, vgpu_tq_wait(&c->gr, fence, WAIT_MS));
	ASSERT_EQ(42, *out);
}

/*
 * The copy engines run while GR is busy: a kernel spins on a flag in VRAM
 * until a WRITE_MEM on the copy queue sets it, after a copy that must
 * complete while the kernel still runs.  The spinning kernel retires
 * instructions, so hang detection leaves it alone however long the steps
 * in between take on a loaded host; no execution limit is set.
 */
TEST_F_TIMEOUT(fw, copy_engine_runs_beside_a_grid, 120)
{
	struct fw_client *c = &self->c;
	struct vgpu_pkt_write_mem set = {
		.hdr = { .opcode = VGPU_PKT_WRITE_MEM, .size = sizeof(set) },
		.value = 1,
	};
	uint64_t v = fw_client_vram(c, MiB), fence;
	struct fw_module m;

	ASSERT_NE(0, v);
	fence = launch_spin(c, &m);
	ASSERT_NE(0, fence);
	/* The grid spins (the flag is 0): a copy completes meanwhile. */
	memset(c->host, 0x3c, 4096);
	fw_emit_copy(&c->ce, v, hva(c->host), 4096);
	fw_emit_copy(&c->ce, hva(c->host + 8192), v, 4096);
	ASSERT_EQ(0, fw_sync(&c->ce, WAIT_MS));
	ASSERT_EQ(0, memcmp(c->host, c->host + 8192, 4096));
	ASSERT_EQ(-ETIME, vgpu_tq_wait(&c->gr, fence, 0));
	/* Now release it: the kernel sees the copy engine's store. */
	set.va = m.spin_flag;
	vgpu_tq_emit(&c->ce, &set, sizeof(set));
	ASSERT_EQ(0, fw_sync(&c->ce, WAIT_MS));
	ASSERT_EQ(0, vgpu_tq_wait(&c->gr, fence, WAIT_MS));
	fw_module_free(&m);
}

/*
 * After an unmap (the driver's TLB_FLUSH), nothing reaches the old
 * address: no translation survives in the firmware.
 */
TEST_F(fw, unmap_is_honoured)
{
	struct fw_client *c = &self->c;
	const uint64_t va = FW_TEST_VRAM_VA + 512 * MiB;
	struct vgpu_map map = {
		.ctx = c->ctx, .va = va, .size = MiB,
	};
	struct vgpu_unmap unmap = { .ctx = c->ctx, .va = va };
	struct vgpu_ctx_status st;

	ASSERT_EQ(0, vgpu_vram_alloc(c->fd, MiB, &map.handle));
	ASSERT_EQ(0, vgpu_ioctl(c->fd, VGPU_IOCTL_MAP, &map));
	fw_emit_memset(&c->ce, va, 0x11, 1, MiB);
	fw_emit_copy(&c->ce, hva(c->host), va + 4096, 64);
	ASSERT_EQ(0, fw_sync(&c->ce, WAIT_MS));
	ASSERT_EQ(0x11, c->host[63]);

	ASSERT_EQ(0, vgpu_ioctl(c->fd, VGPU_IOCTL_UNMAP, &unmap));
	fw_emit_copy(&c->ce, hva(c->host), va + 4096, 64);
	ASSERT_EQ(-ECANCELED, fw_sync(&c->ce, WAIT_MS));
	ASSERT_EQ(0, fw_ctx_status(c, &st));
	EXPECT_EQ(VGPU_FAULT_MMU_UNMAPPED, st.fault.kind);
	EXPECT_EQ(va + 4096, st.fault.va);
}

/* A PTX kernel compiled by libvgpu-ptx runs; the result matches the CPU. */
TEST_F_TIMEOUT(fw, vector_add, 120)
{
	ASSERT_EQ(0, vector_add(&self->c, 10000));
	/* Again: the validated image comes from the firmware's cache. */
	ASSERT_EQ(0, vector_add(&self->c, 1000));
}

struct printf_lines {
	int count;
	int seen[2][4];
	int bad;
};

static void collect_line(void *opaque, const char *text, size_t len)
{
	struct printf_lines *pl = opaque;
	unsigned int b, t, tag;
	char line[128];

	snprintf(line, sizeof(line), "%.*s", (int)len, text);
	pl->count++;
	if (sscanf(line, "block %u thread %u tag %u", &b, &t, &tag) != 3 ||
	    b > 1 || t > 3 || tag != 7)
		pl->bad++;
	else
		pl->seen[b][t]++;
}

/* Device printf records land in the FIFO the launch names. */
TEST_F_TIMEOUT(fw, printf_fifo, 120)
{
	struct fw_client *c = &self->c;
	struct visa_printf_fifo *fifo = (void *)(c->host + 2 * MiB);
	int32_t tag = 7;
	struct fw_launch_args args = {
		.grid = { 2, 1, 1 }, .block = { 4, 1, 1 },
		.params = &tag, .param_size = 4,
		.printf_fifo_va = hva(fifo), .printf_fifo_size = 65536,
	};
	struct printf_lines pl = { 0 };
	struct fw_module m;

	ASSERT_EQ(0, fw_module_load(c, "fw_kernels.ptx", &m));
	memset(fifo, 0, 65536);
	fifo->magic = VISA_PRINTF_MAGIC;
	fifo->capacity = 65536 - sizeof(*fifo);
	ASSERT_EQ(0, fw_emit_launch(c, &m, "hello", &args));
	ASSERT_EQ(0, fw_sync(&c->gr, WAIT_MS));
	ASSERT_LT(0, fifo->used);
	ASSERT_EQ(8, vgpu_printf_drain(fifo + 1, fifo->used, collect_line,
				       &pl));
	EXPECT_EQ(0, pl.bad);
	for (int b = 0; b < 2; b++)
		for (int t = 0; t < 4; t++)
			EXPECT_EQ(1, pl.seen[b][t]);
	fw_module_free(&m);
}

/* An illegal address faults its context precisely; others keep working. */
TEST_F_TIMEOUT(fw, fault_isolation, 120)
{
	struct fw_client *a = &self->c, b;
	struct vgpu_ctx_status st;
	uint64_t bad = UNMAPPED_VA;
	struct fw_launch_args args = {
		.grid = { 1, 1, 1 }, .block = { 32, 1, 1 },
		.params = &bad, .param_size = 8,
	};
	struct fw_module m;

	ASSERT_EQ(0, fw_client_open(&b, 8 * MiB, 4 * MiB));
	ASSERT_EQ(0, fw_module_load(a, "fw_kernels.ptx", &m));
	ASSERT_EQ(0, fw_emit_launch(a, &m, "badAddress", &args));
	ASSERT_EQ(-ECANCELED, fw_sync(&a->gr, WAIT_MS));
	ASSERT_EQ(0, fw_ctx_status(a, &st));
	EXPECT_TRUE(st.state & VGPU_CTX_STATE_FAULTED);
	EXPECT_EQ(VGPU_FAULT_MMU_UNMAPPED, st.fault.kind);
	EXPECT_EQ(VGPU_ENGINE_COMPUTE, st.fault.engine);
	EXPECT_EQ(a->gr.id, st.fault.queue_id);
	EXPECT_LE(bad, st.fault.va);
	EXPECT_GT(bad + 32 * 4, st.fault.va);
	EXPECT_EQ(m.code_va, st.fault.kernel_va);
	EXPECT_STREQ("badAddress", st.fault.kernel_name);
	EXPECT_NE(0, st.fault.ptx_line);
	/* The context stays dead; the other one works. */
	ASSERT_EQ(-ECANCELED, fw_sync(&a->ce, WAIT_MS));
	ASSERT_EQ(0, vector_add(&b, 5000));
	fw_module_free(&m);
	fw_client_close(&b);
}

/*
 * VGPU_MAP_NO_ATOMIC clears the PTE's atomic bit: loads and stores work,
 * an atomic faults with a permission fault at its address, as on
 * hardware, and the same kernel on an ordinary mapping runs.
 */
TEST_F_TIMEOUT(fw, atomic_on_no_atomic_mapping_faults, 120)
{
	struct fw_client *c = &self->c, b;
	const uint64_t va = FW_TEST_VRAM_VA + 512 * MiB;
	struct vgpu_map map = {
		.ctx = c->ctx, .va = va, .size = MiB,
		.flags = VGPU_MAP_NO_ATOMIC,
	};
	struct vgpu_ctx_status st;
	uint64_t p = va;
	struct fw_launch_args args = {
		.grid = { 1, 1, 1 }, .block = { 32, 1, 1 },
		.params = &p, .param_size = 8,
	};
	struct fw_module m, mb;
	int32_t out[64];

	ASSERT_EQ(0, vgpu_vram_alloc(c->fd, MiB, &map.handle));
	ASSERT_EQ(0, vgpu_ioctl(c->fd, VGPU_IOCTL_MAP, &map));
	ASSERT_EQ(0, fw_module_load(c, "fw_kernels.ptx", &m));
	ASSERT_EQ(0, fw_emit_launch(c, &m, "storeThenAtomicAdd", &args));
	ASSERT_EQ(-ECANCELED, fw_sync(&c->gr, WAIT_MS));
	ASSERT_EQ(0, fw_ctx_status(c, &st));
	EXPECT_EQ(VGPU_FAULT_MMU_PERMISSION, st.fault.kind);
	EXPECT_EQ(va, st.fault.va);
	EXPECT_STREQ("storeThenAtomicAdd", st.fault.kernel_name);
	fw_module_free(&m);

	/* Another client, ordinary memory: the atomics are done. */
	ASSERT_EQ(0, fw_client_open(&b, 8 * MiB, 4 * MiB));
	ASSERT_EQ(0, fw_module_load(&b, "fw_kernels.ptx", &mb));
	p = fw_client_vram(&b, 4096);
	ASSERT_NE(0, p);
	fw_emit_memset(&b.ce, p, 0, 4, 1024);
	ASSERT_EQ(0, fw_sync(&b.ce, WAIT_MS));
	ASSERT_EQ(0, fw_emit_launch(&b, &mb, "storeThenAtomicAdd", &args));
	ASSERT_EQ(0, fw_sync(&b.gr, WAIT_MS));
	fw_emit_copy(&b.ce, hva(b.host), p, sizeof(out));
	ASSERT_EQ(0, fw_sync(&b.ce, WAIT_MS));
	memcpy(out, b.host, sizeof(out));
	EXPECT_EQ(32, out[0]);
	EXPECT_EQ(2, out[63]);
	fw_module_free(&mb);
	fw_client_close(&b);
}

/* Copies fault precisely too: kind, address and engine. */
TEST_F(fw, copy_fault_unmapped_and_misaligned)
{
	struct fw_client *a = &self->c, b;
	struct vgpu_ctx_status st;
	uint64_t v;

	fw_emit_copy(&a->ce, hva(a->host), UNMAPPED_VA + 8, 16);
	ASSERT_EQ(-ECANCELED, fw_sync(&a->ce, WAIT_MS));
	ASSERT_EQ(0, fw_ctx_status(a, &st));
	EXPECT_EQ(VGPU_FAULT_MMU_UNMAPPED, st.fault.kind);
	EXPECT_EQ(UNMAPPED_VA + 8, st.fault.va);
	EXPECT_EQ(VGPU_ENGINE_COPY, st.fault.engine);

	ASSERT_EQ(0, fw_client_open(&b, 8 * MiB, 4 * MiB));
	v = fw_client_vram(&b, MiB);
	fw_emit_memset(&b.gr, v + 2, 0, 4, 16);
	ASSERT_EQ(-ECANCELED, fw_sync(&b.gr, WAIT_MS));
	ASSERT_EQ(0, fw_ctx_status(&b, &st));
	EXPECT_EQ(VGPU_FAULT_MISALIGNED, st.fault.kind);
	EXPECT_EQ(v + 2, st.fault.va);
	fw_client_close(&b);
}

/* One COPY_TILED: the box of @p between linear @lin and surface @surf. */
static void emit_tiled(struct vgpu_tq *q, const struct vgpu_bl_layout *l,
		       uint64_t lin, uint64_t pitch, uint64_t surf,
		       uint32_t dir, const uint32_t box[6])
{
	struct vgpu_pkt_copy_tiled p = {
		.hdr = { .opcode = VGPU_PKT_COPY_TILED, .size = sizeof(p) },
		.linear = lin, .linear_pitch = pitch,
		.linear_slice = pitch * box[4], .surface = surf,
		.surf_row_bytes = l->row_bytes, .surf_height = l->height,
		.surf_depth = l->depth, .block_h_log2 = l->bh,
		.block_d_log2 = l->bd, .direction = (uint8_t)dir,
		.x = box[0], .y = box[1], .z = box[2],
		.width = box[3], .height = box[4], .depth = box[5],
	};

	vgpu_tq_emit(q, &p, sizeof(p));
}

/*
 * COPY_TILED: a pitch-linear box lands in the surface where
 * include/vgpu_array.h puts each byte (the raw surface is read back with
 * a plain COPY), and a sub-box comes back out of it; a box outside the
 * surface or an impossible block shape is a bad packet; an unmapped
 * surface faults at its address.
 */
TEST_F_TIMEOUT(fw, copy_tiled, 120)
{
	struct fw_client *c = &self->c, b;
	struct vgpu_bl_layout l = { .row_bytes = 200, .height = 37, .depth = 3 };
	const uint32_t whole[6] = { 0, 0, 0, 200, 37, 3 };
	const uint32_t sub[6] = { 24, 5, 1, 150, 30, 2 };
	const uint32_t outside[6] = { 100, 0, 0, 101, 1, 1 };
	uint8_t *src = c->host, *raw = c->host + MiB, *out = c->host + 2 * MiB;
	uint64_t surf, size, bad = 0;
	struct vgpu_ctx_status st;
	uint8_t bh;

	vgpu_bl_choose(&l, 0);
	size = vgpu_bl_size(&l);
	surf = fw_client_vram(c, size);
	ASSERT_NE(0, surf);
	for (uint32_t i = 0; i < 200 * 37 * 3; i++)
		src[i] = (uint8_t)(i * 7 + i / 200);
	emit_tiled(&c->ce, &l, hva(src), 200, surf,
		   VGPU_COPY_TILED_TO_SURFACE, whole);
	fw_emit_copy(&c->ce, hva(raw), surf, size);
	ASSERT_EQ(0, fw_sync(&c->ce, WAIT_MS));
	for (uint32_t z = 0; z < 3; z++)
		for (uint32_t y = 0; y < 37; y++)
			for (uint32_t x = 0; x < 200; x++)
				bad += raw[vgpu_bl_offset(&l, x, y, z)] !=
				       src[(z * 37 + y) * 200 + x];
	EXPECT_EQ(0, bad);

	memset(out, 0xaa, 160 * 30 * 2);
	emit_tiled(&c->ce, &l, hva(out), 160, surf,
		   VGPU_COPY_TILED_FROM_SURFACE, sub);
	ASSERT_EQ(0, fw_sync(&c->ce, WAIT_MS));
	for (uint32_t z = 0; z < 2; z++)
		for (uint32_t y = 0; y < 30; y++) {
			EXPECT_EQ(0, memcmp(out + (z * 30 + y) * 160,
					    src + ((1 + z) * 37 + 5 + y) * 200 + 24,
					    150));
			EXPECT_EQ(0xaa, out[(z * 30 + y) * 160 + 150]);
		}

	/* a box past the surface's edge */
	ASSERT_EQ(0, fw_client_open(&b, 8 * MiB, 4 * MiB));
	emit_tiled(&b.ce, &l, hva(b.host), 200, fw_client_vram(&b, size),
		   VGPU_COPY_TILED_TO_SURFACE, outside);
	ASSERT_EQ(-ECANCELED, fw_sync(&b.ce, WAIT_MS));
	ASSERT_EQ(0, fw_ctx_status(&b, &st));
	EXPECT_EQ(VGPU_FAULT_BAD_PACKET, st.fault.kind);
	fw_client_close(&b);

	/* blocks higher than 32 GOBs */
	ASSERT_EQ(0, fw_client_open(&b, 8 * MiB, 4 * MiB));
	bh = l.bh;
	l.bh = 6;
	emit_tiled(&b.ce, &l, hva(b.host), 200, fw_client_vram(&b, size),
		   VGPU_COPY_TILED_TO_SURFACE, whole);
	ASSERT_EQ(-ECANCELED, fw_sync(&b.ce, WAIT_MS));
	ASSERT_EQ(0, fw_ctx_status(&b, &st));
	EXPECT_EQ(VGPU_FAULT_BAD_PACKET, st.fault.kind);
	fw_client_close(&b);
	l.bh = bh;

	/* a surface nothing maps */
	ASSERT_EQ(0, fw_client_open(&b, 8 * MiB, 4 * MiB));
	emit_tiled(&b.ce, &l, hva(b.host), 200, 0x7f0000000000ull,
		   VGPU_COPY_TILED_TO_SURFACE, whole);
	ASSERT_EQ(-ECANCELED, fw_sync(&b.ce, WAIT_MS));
	ASSERT_EQ(0, fw_ctx_status(&b, &st));
	EXPECT_EQ(VGPU_FAULT_MMU_UNMAPPED, st.fault.kind);
	EXPECT_EQ(0x7f0000000000ull, st.fault.va);
	fw_client_close(&b);
}

/* Malformed packets and images fault their context and nothing else. */
TEST_F_TIMEOUT(fw, bad_packets_and_images, 120)
{
	struct fw_client *a = &self->c, b, c2;
	struct vgpu_pkt_header junk = { .opcode = 99, .size = 8 };
	struct vgpu_pkt_copy misfit = {
		.hdr = { .opcode = VGPU_PKT_COPY, .size = 16 },
	};
	struct fw_module fake = { 0 };
	struct fw_launch_args args = {
		.grid = { 1, 1, 1 }, .block = { 1, 1, 1 },
	};
	struct visa_image_header *h;
	struct vgpu_ctx_status st;
	struct fw_module m;

	vgpu_tq_emit(&a->gr, &junk, sizeof(junk));
	ASSERT_EQ(-ECANCELED, fw_sync(&a->gr, WAIT_MS));
	ASSERT_EQ(0, fw_ctx_status(a, &st));
	EXPECT_EQ(VGPU_FAULT_BAD_PACKET, st.fault.kind);

	ASSERT_EQ(0, fw_client_open(&b, 8 * MiB, 4 * MiB));
	vgpu_tq_emit(&b.ce, &misfit, 16);
	ASSERT_EQ(-ECANCELED, fw_sync(&b.ce, WAIT_MS));
	ASSERT_EQ(0, fw_ctx_status(&b, &st));
	EXPECT_EQ(VGPU_FAULT_BAD_PACKET, st.fault.kind);
	fw_client_close(&b);

	/* A real image with its code section corrupted after compilation. */
	ASSERT_EQ(0, fw_client_open(&c2, 8 * MiB, 4 * MiB));
	ASSERT_EQ(0, fw_module_load(&c2, "fw_kernels.ptx", &m));
	fake = m;
	fake.code_va = fw_client_vram(&c2, m.size);
	fake.image = malloc(m.size);
	ASSERT_NE(NULL, fake.image);
	memcpy(fake.image, m.image, m.size);
	h = fake.image;
	memset((uint8_t *)fake.image + h->sections[VISA_SEC_CODE].offset, 0xff,
	       h->sections[VISA_SEC_CODE].size);
	memcpy(c2.host, fake.image, m.size);
	fw_emit_copy(&c2.ce, fake.code_va, hva(c2.host), m.size);
	ASSERT_EQ(0, fw_sync(&c2.ce, WAIT_MS));
	ASSERT_EQ(0, fw_emit_launch(&c2, &fake, "hello", &args));
	ASSERT_EQ(-ECANCELED, fw_sync(&c2.gr, WAIT_MS));
	ASSERT_EQ(0, fw_ctx_status(&c2, &st));
	EXPECT_EQ(VGPU_FAULT_ILLEGAL_INSTRUCTION, st.fault.kind);
	free(fake.image);
	fw_module_free(&m);
	fw_client_close(&c2);

	ASSERT_EQ(0, fw_client_open(&b, 8 * MiB, 4 * MiB));
	ASSERT_EQ(0, vector_add(&b, 1000));
	fw_client_close(&b);
}

/*
 * The LAUNCH's stream priority: -5 (highest) to 0 run; any other value is
 * a malformed packet, and nothing of it runs.
 */
TEST_F_TIMEOUT(fw, launch_priority_range, 120)
{
	struct fw_client *a = &self->c, b;
	struct fw_launch_args args = {
		.grid = { 1, 1, 1 }, .block = { 32, 1, 1 },
		.priority = VGPU_LAUNCH_PRIO_HIGHEST,
	};
	const int32_t bad[] = { VGPU_LAUNCH_PRIO_LOWEST + 1,
				VGPU_LAUNCH_PRIO_HIGHEST - 1 };
	struct vgpu_ctx_status st;
	struct fw_module m;

	ASSERT_EQ(0, fw_module_load(a, "fw_kernels.ptx", &m));
	ASSERT_EQ(0, fw_emit_launch(a, &m, "empty", &args));
	args.priority = VGPU_LAUNCH_PRIO_LOWEST;
	ASSERT_EQ(0, fw_emit_launch(a, &m, "empty", &args));
	ASSERT_EQ(0, fw_sync(&a->gr, WAIT_MS));
	fw_module_free(&m);
	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ASSERT_EQ(0, fw_client_open(&b, 8 * MiB, 4 * MiB));
		ASSERT_EQ(0, fw_module_load(&b, "fw_kernels.ptx", &m));
		args.priority = bad[i];
		ASSERT_EQ(0, fw_emit_launch(&b, &m, "empty", &args));
		ASSERT_EQ(-ECANCELED, fw_sync(&b.gr, WAIT_MS));
		ASSERT_EQ(0, fw_ctx_status(&b, &st));
		EXPECT_EQ(VGPU_FAULT_BAD_PACKET, st.fault.kind);
		fw_module_free(&m);
		fw_client_close(&b);
	}
}

/*
 * VGPU_LAUNCH_F_COUNTERS: the firmware writes struct vgpu_launch_counters
 * at counters_va when the grid completed, at most counters_size bytes,
 * and refuses the packet when the two fields do not go with the flag.
 */
TEST_F_TIMEOUT(fw, launch_counters, 120)
{
	struct fw_client *a = &self->c, b;
	struct vgpu_launch_counters *cnt = (void *)a->host;
	uint8_t *tail = (uint8_t *)a->host + 4096;
	struct fw_launch_args args = {
		.grid = { 2, 1, 1 }, .block = { 40, 1, 1 },
		.flags = VGPU_LAUNCH_F_COUNTERS,
		.counters_size = sizeof(*cnt),
		.counters_va = hva(cnt),
	};
	/* flag, size, va (offset in host memory): each a bad packet */
	const struct { uint32_t flags, size; uint64_t va; } bad[] = {
		{ VGPU_LAUNCH_F_COUNTERS, sizeof(*cnt), 0 },
		{ VGPU_LAUNCH_F_COUNTERS, sizeof(*cnt), 4 },
		{ VGPU_LAUNCH_F_COUNTERS, 4, 8 },
		{ 0, sizeof(*cnt), 0 },
		{ 0, 0, 8 },
	};
	struct vgpu_ctx_status st;
	struct fw_module m;

	ASSERT_EQ(0, fw_module_load(a, "fw_kernels.ptx", &m));
	memset(cnt, 0xff, sizeof(*cnt));
	ASSERT_EQ(0, fw_emit_launch(a, &m, "empty", &args));
	ASSERT_EQ(0, fw_sync(&a->gr, WAIT_MS));
	EXPECT_EQ(sizeof(*cnt), cnt->size);
	EXPECT_EQ(0, cnt->flags);
	/* two blocks of 40 threads: 4 warps, 80 lanes, no memory access */
	EXPECT_EQ(0, cnt->gld_requests);
	EXPECT_EQ(0, cnt->gst_sectors);
	EXPECT_EQ(0, cnt->sld_wavefronts);
	EXPECT_EQ(0, cnt->lst_sectors);
	EXPECT_NE(0, cnt->warp_insns);
	EXPECT_EQ(cnt->warp_insns * 80 / 4, cnt->thread_insns);
	EXPECT_NE(0, cnt->warps_resident);

	/* room for size, flags and one counter: the rest stays untouched */
	memset(tail, 0xee, 64);
	args.counters_size = 16;
	args.counters_va = hva(tail);
	ASSERT_EQ(0, fw_emit_launch(a, &m, "empty", &args));
	ASSERT_EQ(0, fw_sync(&a->gr, WAIT_MS));
	EXPECT_EQ(16, ((struct vgpu_launch_counters *)tail)->size);
	EXPECT_EQ(0, ((struct vgpu_launch_counters *)tail)->gld_requests);
	EXPECT_EQ(0xee, tail[16]);
	EXPECT_EQ(0xee, tail[63]);
	fw_module_free(&m);

	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ASSERT_EQ(0, fw_client_open(&b, 8 * MiB, 4 * MiB));
		ASSERT_EQ(0, fw_module_load(&b, "fw_kernels.ptx", &m));
		args.flags = bad[i].flags;
		args.counters_size = bad[i].size;
		args.counters_va = bad[i].va ? hva(b.host) + bad[i].va : 0;
		ASSERT_EQ(0, fw_emit_launch(&b, &m, "empty", &args));
		ASSERT_EQ(-ECANCELED, fw_sync(&b.gr, WAIT_MS));
		ASSERT_EQ(0, fw_ctx_status(&b, &st));
		EXPECT_EQ(VGPU_FAULT_BAD_PACKET, st.fault.kind);
		fw_module_free(&m);
		fw_client_close(&b);
	}
}

/*
 * The L2 policy a counted launch may put in its counters buffer
 * (struct vgpu_l2_policy at VGPU_L2_POLICY_OFFSET): none (size 0) and a
 * valid one are taken; an unknown flag, a set-aside or window over the
 * maximum, a hitRatio over 1, a persisting missProp, non-zero reserved
 * bytes, a size too small or a buffer too short for it are bad packets.
 */
TEST_F_TIMEOUT(fw, launch_l2_policy, 120)
{
	struct fw_client *a = &self->c, b;
	uint8_t *buf = (uint8_t *)a->host + 8192;
	struct vgpu_l2_policy *p = (void *)(buf + VGPU_L2_POLICY_OFFSET);
	const struct vgpu_l2_policy good = {
		.size = sizeof(good), .flags = VGPU_L2_POLICY_F_RESET,
		.persist_limit = VGPU_L2_PERSIST_MAX, .window_base = 1 << 20,
		.window_bytes = VGPU_L2_WINDOW_MAX, .hit_ratio = 1 << 24,
		.hit_prop = VGPU_L2_PROP_PERSISTING,
		.miss_prop = VGPU_L2_PROP_STREAMING,
	};
	struct fw_launch_args args = {
		.grid = { 1, 1, 1 }, .block = { 32, 1, 1 },
		.flags = VGPU_LAUNCH_F_COUNTERS, .counters_size = 4096,
		.counters_va = hva(buf),
	};
	struct vgpu_l2_policy bad[8];
	uint32_t short_size = VGPU_L2_POLICY_OFFSET + sizeof(good) - 8;
	struct vgpu_ctx_status st;
	struct fw_module m;

	for (int i = 0; i < 8; i++)
		bad[i] = good;
	bad[0].flags = 1u << 7;
	bad[1].persist_limit = VGPU_L2_PERSIST_MAX + 1;
	bad[2].window_bytes = VGPU_L2_WINDOW_MAX + 1ull;
	bad[3].hit_ratio = (1 << 24) + 1;
	bad[4].miss_prop = VGPU_L2_PROP_PERSISTING;
	bad[5].reserved = 1;
	bad[6].size = 8;
	/* bad[7]: good, but the buffer ends inside it */

	ASSERT_EQ(0, fw_module_load(a, "fw_kernels.ptx", &m));
	memset(buf, 0, 4096);
	ASSERT_EQ(0, fw_emit_launch(a, &m, "empty", &args));
	ASSERT_EQ(0, fw_sync(&a->gr, WAIT_MS));
	EXPECT_EQ(sizeof(struct vgpu_launch_counters),
		  ((struct vgpu_launch_counters *)buf)->size);
	*p = good;
	ASSERT_EQ(0, fw_emit_launch(a, &m, "empty", &args));
	ASSERT_EQ(0, fw_sync(&a->gr, WAIT_MS));
	EXPECT_EQ(0, ((struct vgpu_launch_counters *)buf)->l2_sectors);
	EXPECT_EQ(sizeof(good), p->size);	/* the policy is read, not written */
	fw_module_free(&m);

	for (unsigned int i = 0; i < 8; i++) {
		ASSERT_EQ(0, fw_client_open(&b, 8 * MiB, 4 * MiB));
		ASSERT_EQ(0, fw_module_load(&b, "fw_kernels.ptx", &m));
		buf = (uint8_t *)b.host + 8192;
		memset(buf, 0, 4096);
		memcpy(buf + VGPU_L2_POLICY_OFFSET, &bad[i], sizeof(bad[i]));
		args.counters_va = hva(buf);
		args.counters_size = i == 7 ? short_size : 4096;
		ASSERT_EQ(0, fw_emit_launch(&b, &m, "empty", &args));
		ASSERT_EQ(-ECANCELED, fw_sync(&b.gr, WAIT_MS));
		ASSERT_EQ(0, fw_ctx_status(&b, &st));
		EXPECT_EQ(VGPU_FAULT_BAD_PACKET, st.fault.kind);
		fw_module_free(&m);
		fw_client_close(&b);
	}
}

/*
 * A kernel that never ends, with a per-kernel execution limit set by the
 * administrator (the writable module parameter): the firmware stops the
 * grid and faults its context, and GR serves the next context.  Without a
 * limit nothing stops a kernel (a compute GPU has none by default); the
 * test needs a firmware that enforces the limit (VGPU_INFO_EXEC_LIMIT).
 */
TEST_F_TIMEOUT(fw, exec_limit_stops_endless_grid, 180)
{
	struct fw_client *a = &self->c, b;
	struct vgpu_ctx_status st;
	struct vgpu_info info;
	struct fw_module m;
	uint64_t fence;

	ASSERT_EQ(0, vgpu_ioctl(a->fd, VGPU_IOCTL_GET_INFO, &info));
	if (!(info.flags & VGPU_INFO_EXEC_LIMIT))
		SKIP(return, "needs per-grid limit: vgpu-fw does not enforce "
		     "kernel_exec_timeout_ms (VGPU_INFO_EXEC_LIMIT clear)");
	ASSERT_EQ(0, exec_limit_set(self->exec_limit_ms, "1000"));

	fence = launch_spin(a, &m);
	ASSERT_NE(0, fence);
	EXPECT_EQ(-ECANCELED, vgpu_tq_wait(&a->gr, fence, 60000));
	EXPECT_EQ(0, fw_ctx_status(a, &st));
	EXPECT_TRUE(st.state & VGPU_CTX_STATE_FAULTED);
	EXPECT_EQ(VGPU_FAULT_WATCHDOG, st.fault.kind);

	EXPECT_EQ(0, fw_client_open(&b, 8 * MiB, 4 * MiB));
	EXPECT_EQ(0, vector_add(&b, 1000));
	fw_client_close(&b);
	fw_module_free(&m);
}

/*
 * The firmware dies mid-grid: clients see -ENODEV, the driver stays
 * clean, and a restarted firmware serves new clients.
 */
TEST_F_TIMEOUT(fw, firmware_death_and_restart, 180)
{
	struct fw_client *a = &self->c, b;
	struct vgpu_ctx_status st;
	struct fw_module m;
	uint64_t fence;

	fence = launch_spin(a, &m);
	ASSERT_NE(0, fence);
	usleep(300000);
	fw_kill(self->fw);
	self->fw = -1;
	ASSERT_EQ(-ENODEV, vgpu_tq_wait(&a->gr, fence, WAIT_MS));
	ASSERT_FALSE(fw_attached());
	ASSERT_EQ(0, fw_ctx_status(a, &st));
	EXPECT_TRUE(st.state & VGPU_CTX_STATE_LOST);

	self->fw = fw_start(NULL);
	ASSERT_GT(self->fw, 0);
	ASSERT_EQ(0, fw_client_open(&b, 8 * MiB, 4 * MiB));
	ASSERT_EQ(0, vector_add(&b, 1000));
	fw_client_close(&b);
	fw_module_free(&m);
}

/*
 * A client dies with a grid running and copies queued: the firmware drops
 * its work (the grid is stopped, the queues freed) and serves the next.
 */
TEST_F_TIMEOUT(fw, client_death_mid_work, 180)
{
	struct fw_client b;
	int status;
	pid_t child = fork();

	ASSERT_LE(0, child);
	if (child == 0) {
		struct fw_client c;
		struct fw_module m;
		uint64_t v;

		if (fw_client_open(&c, 8 * MiB, 4 * MiB) ||
		    !launch_spin(&c, &m))
			_exit(1);
		v = fw_client_vram(&c, 4 * MiB);
		for (int i = 0; i < 16; i++)
			fw_emit_copy(&c.ce, v, hva(c.host), 4 * MiB);
		vgpu_tq_submit(&c.ce);
		usleep(200000);
		_exit(0);	/* everything still allocated and running */
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(0, kill(self->fw, 0));
	ASSERT_EQ(0, fw_client_open(&b, 8 * MiB, 4 * MiB));
	ASSERT_EQ(0, vector_add(&b, 1000));
	fw_client_close(&b);

	/*
	 * Once every client is gone, the driver gets all its memory back
	 * (after the firmware acknowledged, where the driver waits for that).
	 */
	fw_client_close(&self->c);
	for (int i = 0; i < 100 && (vgpu_sysfs_num("contexts") ||
				    vgpu_sysfs_num("vram_used_bytes")); i++)
		usleep(100000);
	ASSERT_TRUE(vgpu_accounting_idle());
}

/* Run vgpu-fw with @args; its exit status, or -1. */
static int run_fw(const char *const *args)
{
	const char *argv[12] = { "vgpu-fw" };
	int argc = 1, status;
	pid_t pid;

	while (*args && argc < 11)
		argv[argc++] = *args++;
	argv[argc] = NULL;
	pid = fork();
	if (pid == 0) {
		execv(fw_path(), (char *const *)argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * Bad arguments and missing devices fail; --daemon returns only once
 * attached, with the pid file written; a second firmware is refused;
 * SIGTERM detaches and removes the pid file.
 */
TEST(daemon_mode)
{
	static const char *const daemon_args[] = {
		"--daemon", "--pidfile", "/tmp/vgpu-fw-test.pid", "--sms", "1",
		VGPU_DEV, NULL,
	};
	static const char *const second[] = { "--sms", "1", VGPU_DEV, NULL };
	static const char *const nodev[] = { "/dev/vgpu-none", NULL };
	static const char *const bad_sms[] = { "--sms", "0", VGPU_DEV, NULL };
	static const char *const bad_opt[] = { "--no-such-option", NULL };
	int pid = 0, i;
	FILE *f;

	ASSERT_EQ(1, run_fw(nodev));
	ASSERT_EQ(2, run_fw(bad_sms));
	ASSERT_EQ(2, run_fw(bad_opt));
	ASSERT_FALSE(fw_attached());
	ASSERT_EQ(0, run_fw(daemon_args));
	ASSERT_TRUE(fw_attached());
	f = fopen("/tmp/vgpu-fw-test.pid", "r");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(1, fscanf(f, "%d", &pid));
	fclose(f);
	ASSERT_EQ(0, kill(pid, 0));
	ASSERT_EQ(1, run_fw(second));	/* -EBUSY: one firmware per device */

	ASSERT_EQ(0, kill(pid, SIGTERM));
	for (i = 0; i < 1000 && (fw_attached() ||
				 !access("/tmp/vgpu-fw-test.pid", F_OK)); i++)
		usleep(10000);
	ASSERT_FALSE(fw_attached());
	ASSERT_NE(0, access("/tmp/vgpu-fw-test.pid", F_OK));
}

TEST_HARNESS_MAIN
