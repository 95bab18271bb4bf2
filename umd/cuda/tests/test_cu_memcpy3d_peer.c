// SPDX-License-Identifier: GPL-2.0
/*
 * test_cu_memcpy3d_peer.c - cuMemcpy3D (and cuMemcpy2D, which shares its
 * engine), copies between the memory of two contexts and two devices
 * (cuMemcpyPeer, cuMemcpy), and the managed-memory hints.
 *
 * Every copy is checked byte for byte against a CPU reference that
 * applies the same CUDA_MEMCPY3D to host buffers, including the bytes a
 * copy must leave alone.  Runs with two vgpu devices
 * (test_cu_memcpy3d_peer.vmargs: num_devices=2) and starts a firmware for
 * each.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cuda_test.h"

static void fill_pattern(uint8_t *p, size_t n, unsigned int seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 29 + seed + (i >> 9));
}

/* ---- the CPU reference ------------------------------------------------------- */

/* Byte offset of (x, y, z) in a side of pitch @pitch and @height rows. */
static size_t at(size_t x, size_t y, size_t z, size_t pitch, size_t height)
{
	return (z * height + y) * pitch + x;
}

/* What cuMemcpy3D of @c does, with @dst and @src the two sides' bases. */
static void ref_copy3d(uint8_t *dst, const uint8_t *src, const CUDA_MEMCPY3D *c)
{
	for (size_t z = 0; z < c->Depth; z++)
		for (size_t y = 0; y < c->Height; y++)
			memcpy(dst + at(c->dstXInBytes, c->dstY + y, c->dstZ + z,
					c->dstPitch, c->dstHeight),
			       src + at(c->srcXInBytes, c->srcY + y, c->srcZ + z,
					c->srcPitch, c->srcHeight),
			       c->WidthInBytes);
}

/* ---- sides of every kind ----------------------------------------------------- */

enum side_kind { PAGEABLE, PINNED, DEVICE };

static const char *const kind_name[] = { "pageable", "pinned", "device" };

struct side {
	enum side_kind kind;
	size_t size;
	uint8_t *host;		/* PAGEABLE, PINNED */
	CUdeviceptr dev;	/* DEVICE */
};

static int side_alloc(struct side *s, enum side_kind kind, size_t size)
{
	void *p = NULL;

	s->kind = kind;
	s->size = size;
	s->host = NULL;
	s->dev = 0;
	switch (kind) {
	case PAGEABLE:
		s->host = malloc(size);
		return s->host ? 0 : -1;
	case PINNED:
		if (cuMemAllocHost(&p, size) != CUDA_SUCCESS)
			return -1;
		s->host = p;
		return 0;
	default:
		return cuMemAlloc(&s->dev, size) == CUDA_SUCCESS ? 0 : -1;
	}
}

static void side_free(struct side *s)
{
	if (s->kind == PAGEABLE)
		free(s->host);
	else if (s->kind == PINNED)
		cuMemFreeHost(s->host);
	else
		cuMemFree(s->dev);
}

static CUresult side_write(struct side *s, const uint8_t *data)
{
	if (s->kind == DEVICE)
		return cuMemcpyHtoD(s->dev, data, s->size);
	memcpy(s->host, data, s->size);
	return CUDA_SUCCESS;
}

static CUresult side_read(struct side *s, uint8_t *data)
{
	if (s->kind == DEVICE)
		return cuMemcpyDtoH(data, s->dev, s->size);
	memcpy(data, s->host, s->size);
	return CUDA_SUCCESS;
}

/* Point one side of @c at @s; @unified: as CU_MEMORYTYPE_UNIFIED. */
static void side_set(CUDA_MEMCPY3D *c, bool dst, struct side *s, bool unified)
{
	CUmemorytype t = s->kind == DEVICE ? CU_MEMORYTYPE_DEVICE :
					     CU_MEMORYTYPE_HOST;
	CUdeviceptr d = s->kind == DEVICE ? s->dev : (uintptr_t)s->host;

	if (unified)
		t = CU_MEMORYTYPE_UNIFIED;
	if (dst) {
		c->dstMemoryType = t;
		c->dstHost = s->host;
		c->dstDevice = d;
	} else {
		c->srcMemoryType = t;
		c->srcHost = s->host;
		c->srcDevice = d;
	}
}

/* A box shape: extent and both sides' positions, pitches and heights. */
struct shape {
	const char *name;
	size_t w, h, d;
	size_t sx, sy, sz, spitch, sheight;
	size_t dx, dy, dz, dpitch, dheight;
};

static const struct shape shapes[] = {
	/* Offsets on every axis, different pitches and slice heights. */
	{ "offsets", 37, 5, 4, 3, 1, 1, 64, 7, 5, 0, 2, 48, 6 },
	/* Rows and slices contiguous on both sides: one linear copy. */
	{ "contiguous", 64, 8, 3, 0, 0, 0, 64, 8, 0, 0, 0, 64, 8 },
	/* Rows contiguous, slices not: one run per slice. */
	{ "slices", 32, 4, 3, 0, 1, 0, 32, 6, 0, 0, 1, 32, 5 },
	/* Bigger than one bounce buffer (1 MiB) where a side is pageable. */
	{ "large", 3000, 50, 9, 11, 2, 0, 3072, 53, 0, 1, 0, 4096, 52 },
};

static size_t shape_src_size(const struct shape *s)
{
	return s->spitch * s->sheight * (s->sz + s->d);
}

static size_t shape_dst_size(const struct shape *s)
{
	return s->dpitch * s->dheight * (s->dz + s->d);
}

static void shape_set(CUDA_MEMCPY3D *c, const struct shape *s)
{
	c->srcXInBytes = s->sx;
	c->srcY = s->sy;
	c->srcZ = s->sz;
	c->srcPitch = s->spitch;
	c->srcHeight = s->sheight;
	c->dstXInBytes = s->dx;
	c->dstY = s->dy;
	c->dstZ = s->dz;
	c->dstPitch = s->dpitch;
	c->dstHeight = s->dheight;
	c->WidthInBytes = s->w;
	c->Height = s->h;
	c->Depth = s->d;
}

/*
 * Copy shape @sh from a side of kind @sk to one of kind @dk (sync, or
 * async on a stream) and compare the whole destination with the
 * reference.  Returns the index of the first wrong byte, -1 if none, or
 * -2 if a call failed (@res says which result).
 */
static long run_3d(const struct shape *sh, enum side_kind sk,
		   enum side_kind dk, bool async, bool unified, CUresult *res)
{
	size_t ssize = shape_src_size(sh), dsize = shape_dst_size(sh);
	uint8_t *src = malloc(ssize), *want = malloc(dsize);
	uint8_t *got = malloc(dsize);
	CUDA_MEMCPY3D c = { 0 };
	struct side s, d;
	CUstream st = NULL;
	long bad = -2;

	*res = CUDA_ERROR_OUT_OF_MEMORY;
	if (!src || !want || !got || side_alloc(&s, sk, ssize))
		goto out_buf;
	if (side_alloc(&d, dk, dsize))
		goto out_src;
	fill_pattern(src, ssize, 1);
	fill_pattern(want, dsize, 2);
	*res = side_write(&s, src);
	if (*res == CUDA_SUCCESS)
		*res = side_write(&d, want);
	/*
	 * A copy from pageable memory returns once staged, and the stream
	 * below does not wait for the legacy one (non-blocking).
	 */
	if (*res == CUDA_SUCCESS)
		*res = cuCtxSynchronize();
	shape_set(&c, sh);
	side_set(&c, false, &s, unified);
	side_set(&c, true, &d, unified);
	if (*res == CUDA_SUCCESS && async)
		*res = cuStreamCreate(&st, CU_STREAM_NON_BLOCKING);
	if (*res == CUDA_SUCCESS)
		*res = async ? cuMemcpy3DAsync(&c, st) : cuMemcpy3D(&c);
	if (*res == CUDA_SUCCESS && async)
		*res = cuStreamSynchronize(st);
	if (*res == CUDA_SUCCESS)
		*res = side_read(&d, got);
	if (*res == CUDA_SUCCESS) {
		ref_copy3d(want, src, &c);
		bad = -1;
		for (size_t i = 0; i < dsize && bad < 0; i++)
			if (got[i] != want[i])
				bad = (long)i;
	}
	if (st)
		cuStreamDestroy(st);
	side_free(&d);
out_src:
	side_free(&s);
out_buf:
	free(src);
	free(want);
	free(got);
	return bad;
}

/* Every pair of side kinds, every shape, sync and async. */
TEST(memcpy3d_every_kind_and_shape)
{
	CUcontext ctx;
	CUresult res;

	CU_SETUP(&ctx);
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		for (int sk = PAGEABLE; sk <= DEVICE; sk++)
			for (int dk = PAGEABLE; dk <= DEVICE; dk++)
				for (int async = 0; async < 2; async++) {
					long bad = run_3d(&shapes[i], sk, dk,
							  async, false, &res);

					EXPECT_EQ(-1, bad)
						TH_LOG("%s %s -> %s%s: byte %ld, result %d",
						       shapes[i].name,
						       kind_name[sk],
						       kind_name[dk],
						       async ? " async" : "",
						       bad, (int)res);
				}
}

/* CU_MEMORYTYPE_UNIFIED: the pointers say where they are. */
TEST(memcpy3d_unified)
{
	CUcontext ctx;
	CUresult res;

	CU_SETUP(&ctx);
	ASSERT_EQ(-1, run_3d(&shapes[0], PAGEABLE, DEVICE, false, true, &res));
	ASSERT_EQ(-1, run_3d(&shapes[0], DEVICE, DEVICE, false, true, &res));
	ASSERT_EQ(-1, run_3d(&shapes[2], DEVICE, PINNED, true, true, &res));
}

/* The error codes of CUDA_MEMCPY3D's fields; nothing is written. */
TEST(memcpy3d_errors)
{
	CUDA_MEMCPY3D c = { 0 }, bad;
	uint8_t host[4096], back[4096];
	CUcontext ctx;
	CUdeviceptr d;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, sizeof(host)));
	ASSERT_EQ(CUDA_SUCCESS, cuMemsetD8(d, 0x5a, sizeof(host)));
	memset(host, 1, sizeof(host));
	c.srcMemoryType = CU_MEMORYTYPE_HOST;
	c.srcHost = host;
	c.srcPitch = 64;
	c.srcHeight = 8;
	c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	c.dstDevice = d;
	c.dstPitch = 64;
	c.dstHeight = 8;
	c.WidthInBytes = 64;
	c.Height = 8;
	c.Depth = 8;

	ASSERT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(NULL));
	/* No CUDA arrays on this device: an array side is invalid. */
	bad = c;
	bad.dstMemoryType = CU_MEMORYTYPE_ARRAY;
	bad.dstArray = (CUarray)(uintptr_t)0x1000;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&bad));
	bad = c;
	bad.reserved0 = host;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&bad));
	bad = c;
	bad.srcMemoryType = (CUmemorytype)9;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&bad));
	/* A pitch narrower than offset + width. */
	bad = c;
	bad.dstXInBytes = 1;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&bad));
	bad = c;
	bad.srcPitch = 63;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&bad));
	/* A slice of fewer rows than the box's. */
	bad = c;
	bad.dstHeight = 7;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&bad));
	bad = c;
	bad.srcY = 1;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&bad));
	/* A box that runs past the end of the allocation. */
	bad = c;
	bad.dstZ = 1;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&bad));
	/* A device side that is not device memory. */
	bad = c;
	bad.dstDevice = (uintptr_t)back;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&bad));
	bad = c;
	bad.srcHost = NULL;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&bad));
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE,
		  cuMemcpy3DAsync(&c, (CUstream)(uintptr_t)0x1234));
	/* An empty box is a successful no-op, whatever its pointers. */
	bad = c;
	bad.Depth = 0;
	bad.dstDevice = 0;
	EXPECT_EQ(CUDA_SUCCESS, cuMemcpy3D(&bad));
	/* None of the refused copies wrote anything. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(back, d, sizeof(back)));
	for (size_t i = 0; i < sizeof(back); i++)
		ASSERT_EQ(0x5a, back[i]);
	/* A mipmap level on a side that is no array: ignored (as on an H100). */
	bad = c;
	bad.srcLOD = 1;
	bad.dstLOD = 2;
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpy3D(&bad));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(back, d, sizeof(back)));
	ASSERT_EQ(0, memcmp(back, host, sizeof(back)));
	cuMemFree(d);
}

/*
 * On a capturing stream a box is one memcpy node; the graph, launched
 * twice, copies it each time.  A synchronous copy there is refused.
 */
TEST(memcpy3d_captured)
{
	const struct shape *sh = &shapes[0];
	size_t ssize = shape_src_size(sh), dsize = shape_dst_size(sh);
	uint8_t *src = malloc(ssize), *want = malloc(dsize);
	uint8_t *got = malloc(dsize);
	CUDA_MEMCPY3D c = { 0 };
	CUgraphExec exec;
	CUdeviceptr a, b;
	CUcontext ctx;
	CUstream st;
	CUgraph g;

	CU_SETUP(&ctx);
	ASSERT_TRUE(src && want && got);
	fill_pattern(src, ssize, 11);
	fill_pattern(want, dsize, 12);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&a, ssize));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&b, dsize));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoD(a, src, ssize));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&st, CU_STREAM_NON_BLOCKING));
	shape_set(&c, sh);
	c.srcMemoryType = c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	c.srcDevice = a;
	c.dstDevice = b;
	ASSERT_EQ(CUDA_SUCCESS, cuStreamBeginCapture(st,
			CU_STREAM_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpy3DAsync(&c, st));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamEndCapture(st, &g));
	ASSERT_EQ(CUDA_SUCCESS, cuGraphInstantiate(&exec, g, 0));
	ref_copy3d(want, src, &c);
	for (int i = 0; i < 2; i++) {
		ASSERT_EQ(CUDA_SUCCESS, cuMemsetD8(b, 0, dsize));
		ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
		ASSERT_EQ(CUDA_SUCCESS, cuGraphLaunch(exec, st));
		ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(st));
		ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(got, b, dsize));
		/* Bytes outside the box read 0 (memset), inside the source. */
		for (size_t j = 0; j < dsize; j++)
			if (got[j])
				ASSERT_EQ(want[j], got[j]);
		ASSERT_EQ(0, memcmp(got + at(sh->dx, sh->dy, sh->dz,
					     sh->dpitch, sh->dheight),
				    want + at(sh->dx, sh->dy, sh->dz,
					      sh->dpitch, sh->dheight),
				    sh->w));
	}
	cuGraphExecDestroy(exec);
	cuGraphDestroy(g);
	cuStreamDestroy(st);
	cuMemFree(a);
	cuMemFree(b);
	free(src);
	free(want);
	free(got);
}

/* cuMemcpy2D on the same engine: pitched rows with offsets. */
TEST(memcpy2d_pitched)
{
	const size_t w = 300, h = 40, sp = 320, dp = 512;
	uint8_t *src = malloc(sp * (h + 2)), *got = malloc(dp * h);
	uint8_t *want = malloc(dp * h);
	CUDA_MEMCPY2D c = { 0 };
	CUDA_MEMCPY3D r = { 0 };
	CUcontext ctx;
	CUdeviceptr d, d2;

	CU_SETUP(&ctx);
	ASSERT_TRUE(src && got && want);
	fill_pattern(src, sp * (h + 2), 7);
	fill_pattern(want, dp * h, 8);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, dp * h));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d2, dp * h));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoD(d, want, dp * h));
	/* Pageable rows (3, 2) on: staged row by row. */
	c.srcMemoryType = CU_MEMORYTYPE_HOST;
	c.srcHost = src;
	c.srcXInBytes = 3;
	c.srcY = 2;
	c.srcPitch = sp;
	c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	c.dstDevice = d;
	c.dstXInBytes = 100;
	c.dstPitch = dp;
	c.WidthInBytes = w;
	c.Height = h;
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpy2D(&c));
	/* Then device to device, whole pitch: one DMA operation. */
	c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
	c.srcDevice = d;
	c.srcXInBytes = c.srcY = c.dstXInBytes = 0;
	c.srcPitch = dp;
	c.dstDevice = d2;
	c.WidthInBytes = dp;
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpy2DAsync(&c, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(got, d2, dp * h));
	r.srcXInBytes = 3;
	r.srcY = 2;
	r.srcPitch = sp;
	r.srcHeight = h + 2;
	r.dstXInBytes = 100;
	r.dstPitch = dp;
	r.dstHeight = h;
	r.WidthInBytes = w;
	r.Height = h;
	r.Depth = 1;
	ref_copy3d(want, src, &r);
	ASSERT_EQ(0, memcmp(got, want, dp * h));
	cuMemFree(d);
	cuMemFree(d2);
	free(src);
	free(got);
	free(want);
}

/* cuGetProcAddress finds the new functions (the runtime asks it). */
TEST(proc_address)
{
	static const char *const names[] = {
		"cuMemcpy3D", "cuMemcpy3DAsync", "cuMemcpy3DPeer",
		"cuMemcpy3DPeerAsync", "cuIpcGetEventHandle",
		"cuIpcOpenEventHandle", "cuMemcpyPeer",
		"cuMemcpyPeerAsync", "cuStreamAttachMemAsync",
		"cuMemPrefetchAsync", "cuMemAdvise",
	};
	CUdriverProcAddressQueryResult q;
	void *fn;

	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		fn = NULL;
		EXPECT_EQ(CUDA_SUCCESS, cuGetProcAddress(names[i], &fn, 13000,
							 0, &q)) {
			TH_LOG("%s", names[i]);
		}
		EXPECT_TRUE(fn != NULL);
	}
	ASSERT_EQ(CUDA_SUCCESS, cuGetProcAddress("cuMemcpy3D", &fn, 13000, 0, &q));
	ASSERT_EQ((void *)cuMemcpy3D, fn);
}

/* ---- copies between contexts and devices ----------------------------------- */

/* @n bytes from @src (of context @sc) to @dst (of @dc), then read back. */
static long peer_roundtrip(CUdeviceptr dst, CUcontext dc, CUdeviceptr src,
			   CUcontext sc, size_t n, int how, CUresult *res)
{
	uint8_t *in = malloc(n), *out = malloc(n);
	CUstream st = NULL;
	long bad = -2;

	*res = CUDA_ERROR_OUT_OF_MEMORY;
	if (!in || !out)
		goto out;
	fill_pattern(in, n, (unsigned int)n + (unsigned int)how);
	/* Filled while @sc is current, copied while @dc is. */
	*res = cuCtxSetCurrent(sc);
	if (*res == CUDA_SUCCESS)
		*res = cuMemcpyHtoD(src, in, n);
	if (*res == CUDA_SUCCESS)
		*res = cuCtxSetCurrent(dc);
	if (*res != CUDA_SUCCESS)
		goto out;
	switch (how) {
	case 0:
		*res = cuMemcpyPeer(dst, dc, src, sc, n);
		break;
	case 1:
		*res = cuStreamCreate(&st, 0);
		if (*res == CUDA_SUCCESS)
			*res = cuMemcpyPeerAsync(dst, dc, src, sc, n, st);
		if (*res == CUDA_SUCCESS)
			*res = cuStreamSynchronize(st);
		if (st)
			cuStreamDestroy(st);
		break;
	default:
		*res = cuMemcpy(dst, src, n);	/* unified addressing */
		break;
	}
	/* Read back on the destination's own context... */
	if (*res == CUDA_SUCCESS) {
		memset(out, 0, n);
		*res = cuMemcpyDtoH(out, dst, n);
	}
	if (*res == CUDA_SUCCESS)
		bad = memcmp(in, out, n) ? 0 : -1;
	/* ...and from the source's, where dst is another context's memory. */
	if (bad == -1) {
		memset(out, 0, n);
		*res = cuCtxSetCurrent(sc);
		if (*res == CUDA_SUCCESS)
			*res = cuMemcpyDtoH(out, dst, n);
		bad = *res != CUDA_SUCCESS ? -2 : memcmp(in, out, n) ? 1 : -1;
	}
out:
	free(in);
	free(out);
	return bad;
}

static CUresult two_devices(CUcontext *c0, CUcontext *c1)
{
	int n = 0;
	CUresult res = cuInit(0);

	if (res == CUDA_SUCCESS)
		res = cuDeviceGetCount(&n);
	if (res == CUDA_SUCCESS && n < 2)
		return CUDA_ERROR_NO_DEVICE;
	if (res == CUDA_SUCCESS)
		res = cuDevicePrimaryCtxRetain(c0, 0);
	if (res == CUDA_SUCCESS)
		res = cuDevicePrimaryCtxRetain(c1, 1);
	return res;
}

/* Two devices, sizes around the 1 MiB staging chunk, every entry point. */
TEST(peer_copies_between_devices)
{
	static const size_t sizes[] = { 1, 4097, 1 << 20, (3 << 20) + 13 };
	CUdeviceptr a, b;
	CUcontext c0, c1;
	CUresult res;

	ASSERT_EQ(CUDA_SUCCESS, two_devices(&c0, &c1))
		TH_LOG("needs two devices (the .vmargs asks for them)");
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(c0));
		ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&a, sizes[i]));
		ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(c1));
		ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&b, sizes[i]));
		for (int how = 0; how < 3; how++) {
			EXPECT_EQ(-1, peer_roundtrip(b, c1, a, c0, sizes[i],
						     how, &res))
				TH_LOG("0 -> 1, %zu bytes, way %d: %d",
				       sizes[i], how, (int)res);
			EXPECT_EQ(-1, peer_roundtrip(a, c0, b, c1, sizes[i],
						     how, &res))
				TH_LOG("1 -> 0, %zu bytes, way %d: %d",
				       sizes[i], how, (int)res);
		}
		cuCtxSetCurrent(c0);
		cuMemFree(a);
		cuCtxSetCurrent(c1);
		cuMemFree(b);
	}
}

/* Two contexts of one device have two address spaces: staged too. */
TEST(peer_copies_between_contexts)
{
	CUcontext c0, c2;
	CUdeviceptr a, b;
	CUresult res;

	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	ASSERT_EQ(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&c0, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&c2, NULL, 0, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(c0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&a, 100000));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(c2));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&b, 100000));
	for (int how = 0; how < 3; how++) {
		EXPECT_EQ(-1, peer_roundtrip(b, c2, a, c0, 100000, how, &res))
			TH_LOG("way %d: %d", how, (int)res);
	}
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(c0));
	cuMemFree(a);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxDestroy(c2));
}

/*
 * A box between two devices' memory (packed, staged once, unpacked), and
 * from another device's memory to pageable memory.
 */
TEST(peer_memcpy3d)
{
	const struct shape *sh = &shapes[0];
	size_t ssize = shape_src_size(sh), dsize = shape_dst_size(sh);
	uint8_t *src = malloc(ssize), *want = malloc(dsize);
	uint8_t *got = malloc(dsize), *exp = malloc(ssize);
	CUDA_MEMCPY3D c = { 0 };
	CUdeviceptr a, b;
	CUcontext c0, c1;

	ASSERT_EQ(CUDA_SUCCESS, two_devices(&c0, &c1));
	ASSERT_TRUE(src && want && got && exp);
	fill_pattern(src, ssize, 3);
	fill_pattern(want, dsize, 4);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(c1));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&b, dsize));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoD(b, want, dsize));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(c0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&a, ssize));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoD(a, src, ssize));
	shape_set(&c, sh);
	c.srcMemoryType = c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	c.srcDevice = a;
	c.dstDevice = b;
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpy3D(&c));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(got, b, dsize));
	ref_copy3d(want, src, &c);
	ASSERT_EQ(0, memcmp(got, want, dsize));
	/* Device 1's memory to pageable memory, device 0 current. */
	fill_pattern(src, ssize, 5);
	memcpy(exp, src, ssize);
	c.srcDevice = b;
	c.srcXInBytes = sh->dx;
	c.srcY = sh->dy;
	c.srcZ = sh->dz;
	c.srcPitch = sh->dpitch;
	c.srcHeight = sh->dheight;
	c.dstMemoryType = CU_MEMORYTYPE_HOST;
	c.dstHost = src;
	c.dstXInBytes = sh->sx;
	c.dstY = sh->sy;
	c.dstZ = sh->sz;
	c.dstPitch = sh->spitch;
	c.dstHeight = sh->sheight;
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpy3DAsync(&c, NULL));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
	ref_copy3d(exp, want, &c);
	ASSERT_EQ(0, memcmp(exp, src, ssize));
	cuMemFree(a);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(c1));
	cuMemFree(b);
	free(src);
	free(want);
	free(got);
	free(exp);
}

/* cuMemcpy3DPeer names each side's context. */
TEST(peer_memcpy3d_named_contexts)
{
	const struct shape *sh = &shapes[2];
	size_t ssize = shape_src_size(sh), dsize = shape_dst_size(sh);
	uint8_t *src = malloc(ssize), *want = malloc(dsize);
	uint8_t *got = malloc(dsize);
	CUDA_MEMCPY3D_PEER p = { 0 };
	CUDA_MEMCPY3D ref = { 0 };
	CUdeviceptr a, b;
	CUcontext c0, c1;
	CUstream st;

	ASSERT_EQ(CUDA_SUCCESS, two_devices(&c0, &c1));
	ASSERT_TRUE(src && want && got);
	fill_pattern(src, ssize, 21);
	fill_pattern(want, dsize, 22);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(c0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&a, ssize));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoD(a, src, ssize));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(c1));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&b, dsize));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoD(b, want, dsize));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&st, 0));
	shape_set(&ref, sh);
	p.srcXInBytes = ref.srcXInBytes;
	p.srcY = ref.srcY;
	p.srcZ = ref.srcZ;
	p.srcPitch = ref.srcPitch;
	p.srcHeight = ref.srcHeight;
	p.dstXInBytes = ref.dstXInBytes;
	p.dstY = ref.dstY;
	p.dstZ = ref.dstZ;
	p.dstPitch = ref.dstPitch;
	p.dstHeight = ref.dstHeight;
	p.WidthInBytes = ref.WidthInBytes;
	p.Height = ref.Height;
	p.Depth = ref.Depth;
	p.srcMemoryType = p.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	p.srcDevice = a;
	p.srcContext = c0;
	p.dstDevice = b;
	p.dstContext = c1;
	/* The wrong context for a pointer, a context that is not one. */
	p.srcContext = c1;
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemcpy3DPeer(&p));
	p.srcContext = (CUcontext)(uintptr_t)0x99;
	EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cuMemcpy3DPeer(&p));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemcpy3DPeer(NULL));
	p.srcContext = c0;
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpy3DPeerAsync(&p, st));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(st));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(got, b, dsize));
	ref_copy3d(want, src, &ref);
	ASSERT_EQ(0, memcmp(got, want, dsize));
	cuStreamDestroy(st);
	cuMemFree(b);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(c0));
	cuMemFree(a);
	free(src);
	free(want);
	free(got);
}

TEST(peer_errors)
{
	CUdeviceptr a, b;
	CUcontext c0, c1;
	int can = -1;

	ASSERT_EQ(CUDA_SUCCESS, two_devices(&c0, &c1));
	/* No device reaches another's memory: no peer access. */
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceCanAccessPeer(&can, 0, 1));
	ASSERT_EQ(0, can);
	ASSERT_EQ(CUDA_ERROR_INVALID_DEVICE, cuDeviceCanAccessPeer(&can, 0, 7));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(c0));
	ASSERT_EQ(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED,
		  cuCtxEnablePeerAccess(c1, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&a, 4096));
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(c1));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&b, 4096));
	/* A pointer that is not the named context's memory. */
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemcpyPeer(b, c0, a, c0, 64));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemcpyPeer(b, c1, a, c1, 64));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemcpyPeer(b, c1, a, c0, 4097));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemcpyPeer(b + 4000, c1, a, c0, 100));
	EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT,
		  cuMemcpyPeer(b, (CUcontext)(uintptr_t)0x42, a, c0, 64));
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE,
		  cuMemcpyPeerAsync(b, c1, a, c0, 64, (CUstream)(uintptr_t)8));
	EXPECT_EQ(CUDA_SUCCESS, cuMemcpyPeer(b, c1, a, c0, 0));
	/* cuMemcpy from another device's memory beyond its end. */
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemcpy(b, a + 64, 4096));
	cuMemFree(b);
	ASSERT_EQ(CUDA_SUCCESS, cuCtxSetCurrent(c0));
	cuMemFree(a);
}

/* ---- interprocess events ----------------------------------------------------- */

#define IPC_WORDS (8u << 20)	/* 32 MiB: a fill the parent can wait for */
#define IPC_VALUE 0x5eed1234u

struct ipc_msg {
	CUipcEventHandle ev;
	CUipcMemHandle mem;
};

/*
 * The exporter: an event and a buffer, filled and recorded on demand -
 * after a kernel that spins for 200 ms, so that the parent's copy would
 * read the old contents if its stream did not wait for the event.
 */
static int ipc_event_child(int to_parent, int from_parent)
{
	unsigned long long ns = 200000000ull;
	void *params[] = { &ns };
	struct ipc_msg msg;
	CUfunction spin;
	CUcontext ctx;
	CUdeviceptr d;
	CUmodule m;
	CUstream st;
	CUevent ev;
	char go;

	if (cuInit(0) || cuDevicePrimaryCtxRetain(&ctx, 0) ||
	    cuCtxSetCurrent(ctx) || cuModuleLoad(&m, DRV_PTX) ||
	    cuModuleGetFunction(&spin, m, "spin") ||
	    cuEventCreate(&ev, CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING) ||
	    cuMemAlloc(&d, IPC_WORDS * 4) || cuMemsetD32(d, 0, IPC_WORDS) ||
	    cuCtxSynchronize() ||
	    cuStreamCreate(&st, CU_STREAM_NON_BLOCKING) ||
	    cuIpcGetEventHandle(&msg.ev, ev) || cuIpcGetMemHandle(&msg.mem, d))
		return 1;
	if (write(to_parent, &msg, sizeof(msg)) != sizeof(msg))
		return 2;
	/* Record when told: after a fill the parent must wait for. */
	if (read(from_parent, &go, 1) != 1)
		return 3;
	if (cuLaunchKernel(spin, 1, 1, 1, 32, 1, 1, 0, st, params, NULL) ||
	    cuMemsetD32Async(d, IPC_VALUE, IPC_WORDS, st) ||
	    cuEventRecord(ev, st) || write(to_parent, &go, 1) != 1)
		return 4;
	/* Keep everything alive until the parent is done with it. */
	if (read(from_parent, &go, 1) != 1)
		return 5;
	return cuEventSynchronize(ev) || cuEventDestroy(ev) || cuMemFree(d) ?
	       6 : 0;
}

TEST(ipc_event_between_processes)
{
	int to_parent[2], from_parent[2], status;
	uint32_t *back = malloc(IPC_WORDS * 4);
	CUevent ev, plain, local;
	CUipcEventHandle h;
	struct ipc_msg msg;
	CUcontext ctx;
	CUdeviceptr d;
	CUstream st;
	float ms;
	char go = 1;
	pid_t pid;

	ASSERT_TRUE(back != NULL);
	ASSERT_EQ(0, pipe(to_parent));
	ASSERT_EQ(0, pipe(from_parent));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(ipc_event_child(to_parent[1], from_parent[0]));
	ASSERT_EQ(sizeof(msg), read(to_parent[0], &msg, sizeof(msg)));
	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuIpcOpenEventHandle(&ev, msg.ev));
	ASSERT_EQ(CUDA_SUCCESS, cuIpcOpenMemHandle(&d, msg.mem, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&st, CU_STREAM_NON_BLOCKING));
	/* Never recorded: complete, as any event. */
	ASSERT_EQ(CUDA_SUCCESS, cuEventQuery(ev));
	ASSERT_EQ(1, write(from_parent[1], &go, 1));
	ASSERT_EQ(1, read(to_parent[0], &go, 1));
	/* Recorded after the fill: this stream's copy waits for it. */
	ASSERT_EQ(CUDA_SUCCESS, cuStreamWaitEvent(st, ev, 0));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoHAsync(back, d, IPC_WORDS * 4, st));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(st));
	for (size_t i = 0; i < IPC_WORDS; i++)
		ASSERT_EQ(IPC_VALUE, back[i]);
	ASSERT_EQ(CUDA_SUCCESS, cuEventSynchronize(ev));
	ASSERT_EQ(CUDA_SUCCESS, cuEventQuery(ev));
	/* An interprocess event does not time. */
	ASSERT_EQ(CUDA_ERROR_INVALID_HANDLE, cuEventElapsedTime(&ms, ev, ev));
	/* Recorded here too: the page counts this process's record. */
	ASSERT_EQ(CUDA_SUCCESS, cuEventRecord(ev, st));
	ASSERT_EQ(CUDA_SUCCESS, cuEventSynchronize(ev));
	ASSERT_EQ(CUDA_SUCCESS, cuEventDestroy(ev));
	ASSERT_EQ(CUDA_SUCCESS, cuIpcCloseMemHandle(d));
	ASSERT_EQ(1, write(from_parent[1], &go, 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));

	/* Errors. */
	ASSERT_EQ(CUDA_SUCCESS, cuEventCreate(&plain, CU_EVENT_DISABLE_TIMING));
	/* Not an interprocess event: the wrong handle (as on an H100). */
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, cuIpcGetEventHandle(&h, plain));
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE,
		  cuIpcGetEventHandle(&h, (CUevent)(uintptr_t)0x40));
	ASSERT_EQ(CUDA_SUCCESS, cuEventCreate(&local, CU_EVENT_INTERPROCESS |
					      CU_EVENT_DISABLE_TIMING));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuIpcGetEventHandle(NULL, local));
	ASSERT_EQ(CUDA_SUCCESS, cuIpcGetEventHandle(&h, local));
	memset(&h, 0x5a, sizeof(h));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuIpcOpenEventHandle(&ev, h));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuIpcOpenEventHandle(NULL, h));
	/* The exporter is gone: its descriptor cannot be fetched. */
	ASSERT_EQ(CUDA_SUCCESS, cuIpcGetEventHandle(&h, local));
	memcpy((char *)&h + 4, &pid, sizeof(pid));
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, cuIpcOpenEventHandle(&ev, h));
	/* A local interprocess event works as any other. */
	ASSERT_EQ(CUDA_SUCCESS, cuEventRecord(local, st));
	ASSERT_EQ(CUDA_SUCCESS, cuEventSynchronize(local));
	cuEventDestroy(local);
	cuEventDestroy(plain);
	cuStreamDestroy(st);
	free(back);
}

/* ---- managed-memory hints ---------------------------------------------------- */

TEST(managed_attributes)
{
	int v = -1;

	ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetAttribute(&v,
			CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, 0));
	ASSERT_EQ(1, v);
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetAttribute(&v,
			CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, 0));
	ASSERT_EQ(1, v);	/* managed memory migrates (uAPI 1.4) */
	ASSERT_EQ(CUDA_SUCCESS, cuDeviceGetAttribute(&v,
			CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS, 0));
	ASSERT_EQ(0, v);
}

TEST(managed_attach)
{
	const size_t n = 3 * 4096 + 5;
	CUdeviceptr m, d;
	CUcontext ctx;
	CUstream st;
	uint8_t *p;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocManaged(&m, n, CU_MEM_ATTACH_GLOBAL));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, n));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamCreate(&st, CU_STREAM_NON_BLOCKING));
	p = (uint8_t *)(uintptr_t)m;
	fill_pattern(p, n, 9);
	EXPECT_EQ(CUDA_SUCCESS, cuStreamAttachMemAsync(st, m, 0,
						       CU_MEM_ATTACH_SINGLE));
	EXPECT_EQ(CUDA_SUCCESS, cuStreamAttachMemAsync(st, m, n,
						       CU_MEM_ATTACH_HOST));
	EXPECT_EQ(CUDA_SUCCESS, cuStreamAttachMemAsync(NULL, m, 0,
						       CU_MEM_ATTACH_GLOBAL));
	/* Singly to the NULL stream, which is every stream. */
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuStreamAttachMemAsync(NULL, m, 0, CU_MEM_ATTACH_SINGLE));
	/* Part of an allocation, device memory, flags. */
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuStreamAttachMemAsync(st, m, 4096, CU_MEM_ATTACH_GLOBAL));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuStreamAttachMemAsync(st, m + 1, n - 1, CU_MEM_ATTACH_GLOBAL));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuStreamAttachMemAsync(st, d, 0, CU_MEM_ATTACH_GLOBAL));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuStreamAttachMemAsync(st, m, 0, 0));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuStreamAttachMemAsync(st, m, 0, 3));
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE,
		  cuStreamAttachMemAsync((CUstream)(uintptr_t)8, m, 0,
					 CU_MEM_ATTACH_GLOBAL));
	/* Attached singly, the stream's copy engine still reads it. */
	ASSERT_EQ(CUDA_SUCCESS, cuStreamAttachMemAsync(st, m, 0,
						       CU_MEM_ATTACH_SINGLE));
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyAsync(d, m, n, st));
	ASSERT_EQ(CUDA_SUCCESS, cuStreamSynchronize(st));
	memset(p, 0, n);
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(p, d, n));
	for (size_t i = 0; i < n; i++)
		ASSERT_EQ((uint8_t)(i * 29 + 9 + (i >> 9)), p[i]);
	cuStreamDestroy(st);
	cuMemFree(d);
	cuMemFree(m);
}

TEST(managed_prefetch_and_advise)
{
	const CUmemLocation host = { .type = CU_MEM_LOCATION_TYPE_HOST };
	const CUmemLocation dev0 = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = 0 };
	const CUmemLocation dev1 = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = 1 };
	const CUmemLocation dev9 = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = 9 };
	const CUmemLocation numa = { .type = CU_MEM_LOCATION_TYPE_HOST_NUMA, .id = 0 };
	const CUmemLocation numa_cur = {
		.type = CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT, .id = 77 };
	const CUmemLocation none = { .type = CU_MEM_LOCATION_TYPE_INVALID };
	const size_t n = 65536;
	CUdeviceptr m, d;
	CUcontext ctx;
	uint8_t *p;

	CU_SETUP(&ctx);
	ASSERT_EQ(CUDA_SUCCESS, cuMemAllocManaged(&m, n, CU_MEM_ATTACH_GLOBAL));
	ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&d, n));
	p = (uint8_t *)(uintptr_t)m;
	fill_pattern(p, n, 5);

	/* Prefetch: to the host or the allocation's device (it migrates);
	 * another device cannot hold its blocks. */
	EXPECT_EQ(CUDA_SUCCESS, cuMemPrefetchAsync(m, n, host, 0, NULL));
	EXPECT_EQ(CUDA_SUCCESS, cuMemPrefetchAsync(m + 100, 1000, numa, 0, NULL));
	EXPECT_EQ(CUDA_SUCCESS, cuMemPrefetchAsync(m, n, numa_cur, 0, NULL));
	EXPECT_EQ(CUDA_SUCCESS, cuMemPrefetchAsync(m, n, dev0, 0, NULL));
	EXPECT_EQ(CUDA_ERROR_INVALID_DEVICE, cuMemPrefetchAsync(m, n, dev1, 0, NULL));
	EXPECT_EQ(CUDA_ERROR_INVALID_DEVICE, cuMemPrefetchAsync(m, n, dev9, 0, NULL));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemPrefetchAsync(m, n, none, 0, NULL));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemPrefetchAsync(m, n, host, 1, NULL));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemPrefetchAsync(m, n + 1, host, 0, NULL));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemPrefetchAsync(m, 0, host, 0, NULL));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemPrefetchAsync(d, n, host, 0, NULL));
	EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE,
		  cuMemPrefetchAsync(m, n, host, 0, (CUstream)(uintptr_t)8));

	/* Advice. */
	EXPECT_EQ(CUDA_SUCCESS, cuMemAdvise(m, n, CU_MEM_ADVISE_SET_READ_MOSTLY, dev9));
	EXPECT_EQ(CUDA_SUCCESS, cuMemAdvise(m, n, CU_MEM_ADVISE_UNSET_READ_MOSTLY, none));
	EXPECT_EQ(CUDA_SUCCESS, cuMemAdvise(m, n, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, host));
	EXPECT_EQ(CUDA_SUCCESS, cuMemAdvise(m, n, CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION, none));
	EXPECT_EQ(CUDA_SUCCESS, cuMemAdvise(m, n, CU_MEM_ADVISE_SET_ACCESSED_BY, host));
	EXPECT_EQ(CUDA_SUCCESS, cuMemAdvise(m, n, CU_MEM_ADVISE_UNSET_ACCESSED_BY, host));
	EXPECT_EQ(CUDA_SUCCESS,
		  cuMemAdvise(m, n, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, dev0));
	EXPECT_EQ(CUDA_SUCCESS,
		  cuMemAdvise(m, n, CU_MEM_ADVISE_SET_ACCESSED_BY, dev0));
	EXPECT_EQ(CUDA_ERROR_INVALID_DEVICE,
		  cuMemAdvise(m, n, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, dev1));
	EXPECT_EQ(CUDA_ERROR_INVALID_DEVICE,
		  cuMemAdvise(m, n, CU_MEM_ADVISE_SET_ACCESSED_BY, dev9));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuMemAdvise(m, n, CU_MEM_ADVISE_SET_ACCESSED_BY, numa));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuMemAdvise(m, n, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, none));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemAdvise(m, n, (CUmem_advise)0, host));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cuMemAdvise(m, n, (CUmem_advise)7, host));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuMemAdvise(d, n, CU_MEM_ADVISE_SET_READ_MOSTLY, host));
	EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
		  cuMemAdvise(m, 0, CU_MEM_ADVISE_SET_READ_MOSTLY, host));

	/* Wherever the hints moved it, the copy engine reads what the host
	 * wrote. */
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpy(d, m, n));
	memset(p, 0, n);
	ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(p, d, n));
	for (size_t i = 0; i < n; i++)
		ASSERT_EQ((uint8_t)(i * 29 + 5 + (i >> 9)), p[i]);
	cuMemFree(d);
	cuMemFree(m);
}

/* ---- main: a firmware for each of the two devices ---------------------------- */

static pid_t fw1_pid;

static void stop_fw1(void)
{
	if (getpid() == cuda_test_main_pid)
		fw_launcher_stop_on(fw1_pid, 1);
}

int main(int argc, char **argv)
{
	cuda_test_main_pid = getpid();
	cuda_test_fw = fw_launcher_start();
	if (cuda_test_fw < 0) {
		printf("Bail out! cannot start vgpu-fw: %d\n", (int)cuda_test_fw);
		return 1;
	}
	atexit(cuda_test_stop_fw);
	/* Without a second device the two-device tests fail and say so. */
	fw1_pid = access("/dev/vgpu1", F_OK) ? 0 : fw_launcher_start_on(1);
	if (fw1_pid < 0) {
		printf("Bail out! cannot start vgpu-fw for vgpu1: %d\n",
		       (int)fw1_pid);
		return 1;
	}
	atexit(stop_fw1);
	return test_harness_run(argc, argv);
}
