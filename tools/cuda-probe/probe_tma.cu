// SPDX-License-Identifier: GPL-2.0
//
// probe_tma: what an H100 answers for the tensor memory accelerator.
//
//   1. cuTensorMapEncodeTiled / cuTensorMapEncodeIm2col /
//      cuTensorMapReplaceAddress with one bad argument each: the code.
//   2. cp.async.bulk.tensor loads (global -> shared::cluster, mbarrier
//      complete_tx) of boxes of a tensor whose every 4-byte word says
//      where it came from (y * 1000 + x, plus z * 100000 ...): the shared
//      memory is printed word by word, so the swizzle layouts, the
//      out-of-bounds fill (zero and NaN request), element strides and
//      interleave show exactly.  Shared memory is filled with 0xeeeeeeee
//      first, so bytes the copy does not write show too.
//   3. stores (shared::cta -> global, bulk_group) with swizzle and partly
//      out of bounds, and a .reduce.add store: the tensor is printed.
//   4. one im2col load.
//
// Build: nvcc -cudart shared -gencode arch=compute_90,code=[sm_90,compute_90]
//        -o probe_tma probe_tma.cu -lcuda
// Two calls crash NVIDIA's driver (SIGSEGV, driver 580.159.04): an
// im2col encode with a NULL pixelBoxLowerCorner and cuTensorMapReplaceAddress
// of a NULL map; they are left out (vGPU answers CUDA_ERROR_INVALID_VALUE).
// Each section runs in its own process (`probe_tma SECTION`: a failed launch
// is sticky); without an argument the probe prints the GPU's name.
//
// The guest test test_cu_probe_tma runs the same program on vGPU and
// compares its output with golden/probe_tma.h100.txt line by line.
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <csetjmp>
#include <csignal>
#include <cuda.h>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_) { printf("%s -> %s\n", #x, cudaGetErrorName(e_)); return 1; } } while (0)

static const unsigned SMEM = 8192;

/* One TMA operation: op 0 load tile, 1 store tile, 2 reduce-add tile,
 * 3 load im2col (4d, offsets o0, o1). */
__global__ void tma_op(const __grid_constant__ CUtensorMap map, int op,
		       int rank, int c0, int c1, int c2, int c3, int c4,
		       unsigned bytes, unsigned *out, short o0, short o1)
{
	extern __shared__ __align__(1024) unsigned char sm_raw[];
	__shared__ __align__(8) unsigned long long bar;
	unsigned char *sm = (unsigned char *)(((uintptr_t)sm_raw + 1023) & ~(uintptr_t)1023);
	unsigned s = (unsigned)__cvta_generic_to_shared(sm);
	unsigned b = (unsigned)__cvta_generic_to_shared(&bar);
	uint64_t m = (uint64_t)&map;
	unsigned *w = (unsigned *)sm;

	for (unsigned i = threadIdx.x; i < SMEM / 4; i += blockDim.x)
		w[i] = op == 0 || op == 3 ? 0xeeeeeeeeu : out[i];
	__syncthreads();
	if (threadIdx.x)
		goto done;
	if (op == 0 || op == 3) {
		asm volatile("mbarrier.init.shared.b64 [%0], 1;" :: "r"(b));
		asm volatile("fence.proxy.async.shared::cta;");
		asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" :: "r"(b), "r"(bytes));
		if (op == 3)
			asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};"
				     :: "r"(s), "l"(m), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(b), "h"(o0), "h"(o1) : "memory");
		else if (rank == 1)
			asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];"
				     :: "r"(s), "l"(m), "r"(c0), "r"(b) : "memory");
		else if (rank == 2)
			asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
				     :: "r"(s), "l"(m), "r"(c0), "r"(c1), "r"(b) : "memory");
		else if (rank == 3)
			asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];"
				     :: "r"(s), "l"(m), "r"(c0), "r"(c1), "r"(c2), "r"(b) : "memory");
		else if (rank == 4)
			asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6];"
				     :: "r"(s), "l"(m), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(b) : "memory");
		else
			asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7];"
				     :: "r"(s), "l"(m), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4), "r"(b) : "memory");
		asm volatile("{ .reg .pred p; W: mbarrier.try_wait.parity.shared.b64 p, [%0], 0; @!p bra W; }" :: "r"(b) : "memory");
	} else {
		asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
		if (op == 1 && rank == 2)
			asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];"
				     :: "l"(m), "r"(c0), "r"(c1), "r"(s) : "memory");
		else if (op == 1)
			asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%0, {%1, %2, %3}], [%4];"
				     :: "l"(m), "r"(c0), "r"(c1), "r"(c2), "r"(s) : "memory");
		else
			asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];"
				     :: "l"(m), "r"(c0), "r"(c1), "r"(s) : "memory");
		asm volatile("cp.async.bulk.commit_group;");
		asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
	}
done:
	__syncthreads();
	if (op == 0 || op == 3)
		for (unsigned i = threadIdx.x; i < SMEM / 4; i += blockDim.x)
			out[i] = w[i];
}

struct enc {
	CUtensorMapDataType dt;
	unsigned rank;
	void *addr;
	cuuint64_t dim[5], stride[4];
	cuuint32_t box[5], estr[5];
	CUtensorMapInterleave il;
	CUtensorMapSwizzle sw;
	CUtensorMapL2promotion l2;
	CUtensorMapFloatOOBfill oob;
};

static CUresult encode(CUtensorMap *m, const enc &e)
{
	return cuTensorMapEncodeTiled(m, e.dt, e.rank, e.addr, e.dim, e.stride,
				      e.box, e.estr, e.il, e.sw, e.l2, e.oob);
}

static const char *name(CUresult r)
{
	const char *n = "?";

	cuGetErrorName(r, &n);
	return n;
}

/* The driver dereferences some NULL arguments: a crash is an answer too. */
static sigjmp_buf crash_jmp;

static void on_crash(int sig)
{
	siglongjmp(crash_jmp, sig);
}

#define ANSWER(call) ({ const char *a_; \
	if (sigsetjmp(crash_jmp, 1)) a_ = "SIGSEGV"; else a_ = name(call); a_; })

/* The tensor: word i of an n-word buffer holds its coordinates, x, y, z
 * of a W x H x D box of words (W words per row). */
static void fill_tensor(unsigned *h, unsigned n, unsigned W, unsigned H)
{
	for (unsigned i = 0; i < n; i++)
		h[i] = (i / (W * H)) * 100000 + (i / W % H) * 1000 + i % W;
}

static void dump(const char *what, const unsigned *w, unsigned n)
{
	printf("%s:", what);
	for (unsigned i = 0; i < n; i++)
		printf(" %x", w[i]);
	printf("\n");
}

static unsigned *d_out, *d_ten, h[SMEM / 4];

static int run(const char *what, const CUtensorMap &m, int op, int rank,
	       const int *c, unsigned bytes, unsigned n, short o0 = 0,
	       short o1 = 0)
{
	tma_op<<<1, 128, SMEM + 1024>>>(m, op, rank, c[0], c[1], c[2], c[3],
					c[4], bytes, d_out, o0, o1);
	cudaError_t l = cudaGetLastError(), s = cudaDeviceSynchronize();

	if (l || s) {
		printf("%s: launch %s sync %s\n", what, cudaGetErrorName(l),
		       cudaGetErrorName(s));
		return 1;
	}
	if (op == 0 || op == 3) {
		CK(cudaMemcpy(h, d_out, n * 4, cudaMemcpyDeviceToHost));
		dump(what, h, n);
	}
	return 0;
}

static int tile_load(const char *what, const enc &e, const int *c,
		     unsigned bytes, unsigned n)
{
	alignas(64) CUtensorMap m;
	CUresult r = encode(&m, e);

	if (r) {
		printf("%s: encode %s\n", what, name(r));
		return 0;
	}
	return run(what, m, 0, e.rank, c, bytes, n);
}

/* One section per process (a failed launch is sticky): argv[1]. */
static const char *section = "";

static bool want(const char *s)
{
	return !strcmp(section, s);
}

int main(int argc, char **argv)
{
	cudaDeviceProp p;
	alignas(64) CUtensorMap map;
	alignas(64) unsigned char raw[256];
	unsigned char *host_buf = new unsigned char[4096];

	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGSEGV, on_crash);
	signal(SIGBUS, on_crash);
	CK(cudaGetDeviceProperties(&p, 0));
	if (argc < 2) {
		printf("%s\n", p.name);
		return 0;
	}
	section = argv[1];
	CK(cudaMalloc(&d_out, SMEM));
	CK(cudaMalloc(&d_ten, 1 << 20));
	CK(cudaFuncSetAttribute(tma_op, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM + 1024));
	{
		unsigned *t = new unsigned[1 << 18];

		fill_tensor(t, 1 << 18, 64, 64);
		CK(cudaMemcpy(d_ten, t, 1 << 20, cudaMemcpyHostToDevice));
		delete[] t;
	}

	/* ---- 1. encoding errors: a good 64 x 64 float map, one change each */
	const enc good = { CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, d_ten,
			   { 64, 64, 1, 1, 1 }, { 256, 0, 0, 0 }, { 32, 8, 1, 1, 1 },
			   { 1, 1, 1, 1, 1 }, CU_TENSOR_MAP_INTERLEAVE_NONE,
			   CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
			   CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE };
	if (want("errors")) {
#define TRY(label, change) do { enc e = good; change; \
	printf("tiled %s: %s\n", label, ANSWER(encode(&map, e))); } while (0)
	TRY("good", (void)0);
	printf("tiled null map: %s\n", ANSWER(cuTensorMapEncodeTiled(NULL, good.dt, 2, d_ten, good.dim, good.stride, good.box, good.estr, good.il, good.sw, good.l2, good.oob)));
	printf("tiled map+16: %s\n", ANSWER(encode((CUtensorMap *)(raw + 16), good)));
	TRY("dtype 16", e.dt = (CUtensorMapDataType)16);
	TRY("dtype 99", e.dt = (CUtensorMapDataType)99);
	TRY("rank 0", e.rank = 0);
	TRY("rank 6", e.rank = 6);
	TRY("rank 1", e.rank = 1);
	TRY("rank 5", (e.rank = 5, e.stride[1] = 256 * 64, e.stride[2] = 256 * 64, e.stride[3] = 256 * 64));
	TRY("addr null", e.addr = NULL);
	TRY("addr +8", e.addr = (char *)d_ten + 8);
	TRY("addr +16", e.addr = (char *)d_ten + 16);
	TRY("addr host", e.addr = host_buf);
	TRY("dim0 0", e.dim[0] = 0);
	TRY("dim1 0", e.dim[1] = 0);
	TRY("dim0 2^32", e.dim[0] = 1ull << 32);
	TRY("dim0 2^32+1", e.dim[0] = (1ull << 32) + 1);
	TRY("stride 8", e.stride[0] = 8);
	TRY("stride 0", e.stride[0] = 0);
	TRY("stride 16", e.stride[0] = 16);
	TRY("stride 2^40", e.stride[0] = 1ull << 40);
	TRY("stride 2^40-16", e.stride[0] = (1ull << 40) - 16);
	TRY("box0 0", e.box[0] = 0);
	TRY("box1 0", e.box[1] = 0);
	TRY("box1 256", e.box[1] = 256);
	TRY("box1 257", e.box[1] = 257);
	TRY("box0 6", e.box[0] = 6);
	TRY("box0 128 > dim", (e.box[0] = 128, e.box[1] = 1));
	TRY("box0 256 f32", (e.box[0] = 256, e.box[1] = 1));
	TRY("box1 200 > dim", e.box[1] = 200);
	TRY("estr0 0", e.estr[0] = 0);
	TRY("estr1 0", e.estr[1] = 0);
	TRY("estr1 8", e.estr[1] = 8);
	TRY("estr1 9", e.estr[1] = 9);
	TRY("estr0 2", e.estr[0] = 2);
	TRY("estr1 3 box 8", e.estr[1] = 3);
	TRY("interleave 3", e.il = (CUtensorMapInterleave)3);
	TRY("interleave 16B rank 2", (e.il = CU_TENSOR_MAP_INTERLEAVE_16B, e.box[0] = 4));
	TRY("interleave 16B rank 3", (e.il = CU_TENSOR_MAP_INTERLEAVE_16B, e.rank = 3, e.box[0] = 4, e.stride[1] = 256 * 64));
	TRY("interleave 32B swizzle none", (e.il = CU_TENSOR_MAP_INTERLEAVE_32B, e.rank = 3, e.box[0] = 8, e.stride[1] = 256 * 64));
	TRY("interleave 32B swizzle 32B", (e.il = CU_TENSOR_MAP_INTERLEAVE_32B, e.sw = CU_TENSOR_MAP_SWIZZLE_32B, e.rank = 3, e.box[0] = 8, e.stride[1] = 256 * 64));
	TRY("interleave 16B swizzle 128B", (e.il = CU_TENSOR_MAP_INTERLEAVE_16B, e.sw = CU_TENSOR_MAP_SWIZZLE_128B, e.rank = 3, e.box[0] = 4, e.stride[1] = 256 * 64));
	TRY("swizzle 7", e.sw = (CUtensorMapSwizzle)7);
	TRY("swizzle 32B box 128B", e.sw = CU_TENSOR_MAP_SWIZZLE_32B);
	TRY("swizzle 32B box 32B", (e.sw = CU_TENSOR_MAP_SWIZZLE_32B, e.box[0] = 8));
	TRY("swizzle 64B box 128B", e.sw = CU_TENSOR_MAP_SWIZZLE_64B);
	TRY("swizzle 128B box 128B", e.sw = CU_TENSOR_MAP_SWIZZLE_128B);
	TRY("swizzle 128B box 256B", (e.sw = CU_TENSOR_MAP_SWIZZLE_128B, e.box[0] = 64));
	TRY("swizzle 128B_ATOM_32B", e.sw = CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B);
	TRY("l2 4", e.l2 = (CUtensorMapL2promotion)4);
	TRY("l2 256B", e.l2 = CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
	TRY("oob 2", e.oob = (CUtensorMapFloatOOBfill)2);
	TRY("oob nan f32", e.oob = CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA);
	TRY("oob nan u32", (e.oob = CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA, e.dt = CU_TENSOR_MAP_DATA_TYPE_UINT32));
	TRY("u8 box0 8", (e.dt = CU_TENSOR_MAP_DATA_TYPE_UINT8, e.box[0] = 8));
	TRY("f64 box0 2", (e.dt = CU_TENSOR_MAP_DATA_TYPE_FLOAT64, e.box[0] = 2, e.dim[0] = 32));
	TRY("16u4 align8b", (e.dt = CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B, e.box[0] = 32));
	TRY("box bytes 64KiB", (e.box[0] = 64, e.box[1] = 256, e.dim[1] = 512));
	printf("tiled null dims: %s\n", ANSWER(cuTensorMapEncodeTiled(&map, good.dt, 2, d_ten, NULL, good.stride, good.box, good.estr, good.il, good.sw, good.l2, good.oob)));
	printf("tiled null strides: %s\n", ANSWER(cuTensorMapEncodeTiled(&map, good.dt, 2, d_ten, good.dim, NULL, good.box, good.estr, good.il, good.sw, good.l2, good.oob)));
	printf("tiled null strides rank 1: %s\n", ANSWER(cuTensorMapEncodeTiled(&map, good.dt, 1, d_ten, good.dim, NULL, good.box, good.estr, good.il, good.sw, good.l2, good.oob)));
	printf("tiled null box: %s\n", ANSWER(cuTensorMapEncodeTiled(&map, good.dt, 2, d_ten, good.dim, good.stride, NULL, good.estr, good.il, good.sw, good.l2, good.oob)));
	printf("tiled null estr: %s\n", ANSWER(cuTensorMapEncodeTiled(&map, good.dt, 2, d_ten, good.dim, good.stride, good.box, NULL, good.il, good.sw, good.l2, good.oob)));
	}
	if (want("errors") || want("im2col")) {
		cuuint64_t dim[4] = { 8, 8, 8, 2 }, st[3] = { 32, 256, 2048 };
		cuuint32_t es[4] = { 1, 1, 1, 1 };
		int lo[2] = { -1, -1 }, hi[2] = { -1, -1 }, bad[2] = { -129, 0 };
#define IM(label, ...) if (want("errors")) printf("im2col %s: %s\n", label, ANSWER(cuTensorMapEncodeIm2col(__VA_ARGS__)))
		IM("good", &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, d_ten, dim, st, lo, hi, 8, 16, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
		IM("rank 2", &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, d_ten, dim, st, lo, hi, 8, 16, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
		IM("lower -129", &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, d_ten, dim, st, bad, hi, 8, 16, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
		IM("channels 0", &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, d_ten, dim, st, lo, hi, 0, 16, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
		IM("channels 257", &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, d_ten, dim, st, lo, hi, 257, 16, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
		IM("pixels 0", &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, d_ten, dim, st, lo, hi, 8, 0, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
		IM("pixels 1025", &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, d_ten, dim, st, lo, hi, 8, 1025, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
		if (want("errors")) {
		printf("replace good: %s\n", ANSWER(cuTensorMapReplaceAddress(&map, d_ten)));
		printf("replace +8: %s\n", ANSWER(cuTensorMapReplaceAddress(&map, (char *)d_ten + 8)));
		}

		/* ---- 4. im2col: NHWC 2 x 8 x 8 x 8 floats; box lower {-1,-1},
		 * upper {-1,-1}; 8 channels, 16 pixels from (c 0, w 0, h 0, n 0)
		 * with offsets (1, 1), and from w 6 h 5 with (0, 2) */
		int c[5] = { 0, 0, 0, 0, 0 };
		cuuint64_t d2[4] = { 8, 8, 8, 2 };

		if (want("im2col") && !cuTensorMapEncodeIm2col(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, d_ten, d2, st, lo, hi, 8, 16, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE)) {
			if (run("im2col (0,0,0,0) off 1 1", map, 3, 4, c, 8 * 16 * 4, 8 * 16, 1, 1))
				return 1;
			c[1] = 6; c[2] = 5;
			if (run("im2col (0,6,5,0) off 0 2", map, 3, 4, c, 8 * 16 * 4, 8 * 16, 0, 2))
				return 1;
		}
	}

	/* ---- 2. loads.  The tensor: 64 words per row, 64 rows per plane */
	if (want("loads") || want("3d") || want("3d-b") || want("3d-c") || want("5d") || want("il16") || want("il32")) {
		int c[5] = { 0, 0, 0, 0, 0 };
		enc e = good;

		e.dt = CU_TENSOR_MAP_DATA_TYPE_UINT32;
		/* swizzles: a box of 8 rows of 32, 16, 8 words */
		static const CUtensorMapSwizzle sw[4] = { CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_SWIZZLE_32B, CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_SWIZZLE_128B };
		static const unsigned words[4] = { 32, 8, 16, 32 };
		for (int i = 0; want("loads") && i < 4; i++) {
			char what[64];

			e.sw = sw[i];
			e.box[0] = words[i];
			e.box[1] = 16;
			c[0] = 4;
			c[1] = 3;
			snprintf(what, sizeof(what), "load swizzle %d box %ux16 at (4,3)", i, words[i]);
			if (tile_load(what, e, c, words[i] * 16 * 4, words[i] * 16 + 16))
				return 1;
		}
		if (!want("loads"))
			goto more;
		/* 128B swizzle with a 16 B box: rows of 32 B? */
		e.sw = CU_TENSOR_MAP_SWIZZLE_32B;
		e.box[0] = 4; e.box[1] = 8; c[0] = 8; c[1] = 0;
		if (tile_load("load swizzle 32B box 4x8", e, c, 128, 64 + 16))
			return 1;
		/* 128B swizzle, box 32 x 8 words: 1 KiB pattern, at (8, 0) */
		e.sw = CU_TENSOR_MAP_SWIZZLE_128B;
		e.box[0] = 32; e.box[1] = 8; c[0] = 8; c[1] = 0;
		if (tile_load("load swizzle 128B box 32x8 at (8,0)", e, c, 1024, 256 + 16))
			return 1;
		/* 128B swizzle with a narrower box (16 words = 64 B rows) */
		e.box[0] = 16; e.box[1] = 16;
		if (tile_load("load swizzle 128B box 16x16", e, c, 1024, 256 + 16))
			return 1;
		/* 64B swizzle with a narrow box (4 words = 16 B rows) */
		e.sw = CU_TENSOR_MAP_SWIZZLE_64B;
		e.box[0] = 4; e.box[1] = 16;
		if (tile_load("load swizzle 64B box 4x16", e, c, 256, 64 + 16))
			return 1;
		e.sw = CU_TENSOR_MAP_SWIZZLE_NONE;

		/* out of bounds: f32 zero fill and NaN request, u32 */
		e.box[0] = 8; e.box[1] = 4;
		c[0] = -4; c[1] = -2;
		if (tile_load("load oob u32 at (-4,-2)", e, c, 128, 32 + 8))
			return 1;
		c[0] = 60; c[1] = 62;
		if (tile_load("load oob u32 at (60,62)", e, c, 128, 32 + 8))
			return 1;
		e.dt = CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
		e.oob = CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA;
		if (tile_load("load oob f32 nan at (60,62)", e, c, 128, 32 + 8))
			return 1;
		e.dt = CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
		e.dim[0] = 128; e.box[0] = 16;
		c[0] = 120;
		if (tile_load("load oob f16 nan at (120,62)", e, c, 128, 32 + 8))
			return 1;
		e.dt = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
		if (tile_load("load oob bf16 nan at (120,62)", e, c, 128, 32 + 8))
			return 1;
		e.dt = CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
		e.dim[0] = 32; e.box[0] = 4; c[0] = 30;
		if (tile_load("load oob f64 nan at (30,62)", e, c, 128, 32 + 8))
			return 1;
		e.oob = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
		e.dt = CU_TENSOR_MAP_DATA_TYPE_UINT32;
		e.dim[0] = 64;
		/* far out: the whole box outside */
		c[0] = 1000; c[1] = 0;
		e.box[0] = 4;
		if (tile_load("load all oob at (1000,0)", e, c, 64, 16 + 4))
			return 1;
		/* the tensor smaller than its stride: dim0 40 of 64 words */
		e.dim[0] = 40; e.box[0] = 16; c[0] = 32; c[1] = 0;
		if (tile_load("load dim0 40 at (32,0)", e, c, 256, 64 + 4))
			return 1;
		e.dim[0] = 64;

		/* element strides: box 8 x 8, strides {1, 2} and {2, 3} */
		e.box[0] = 8; e.box[1] = 8; e.estr[1] = 2; c[0] = 0; c[1] = 1;
		if (tile_load("load estr {1,2} box 8x8", e, c, 8 * 4 * 4, 32 + 8))
			return 1;
		e.estr[0] = 2; e.estr[1] = 3;
		if (tile_load("load estr {2,3} box 8x8", e, c, 8 * 3 * 4, 24 + 8))
			return 1;
		e.estr[0] = 1; e.estr[1] = 1;
		e.box[0] = 8; e.box[1] = 7; e.estr[1] = 2;
		if (tile_load("load estr {1,2} box 8x7", e, c, 8 * 4 * 4, 32 + 8))
			return 1;
		e.estr[1] = 1;

		/* 1d, 3d, 5d */
		e.rank = 1; e.box[0] = 12; c[0] = 56;
		if (tile_load("load 1d box 12 at 56", e, c, 48, 12 + 4))
			return 1;
more:
		if (want("3d-b")) {
			e.rank = 3; e.dim[0] = 64; e.dim[1] = 64; e.dim[2] = 4;
			e.stride[0] = 256; e.stride[1] = 256 * 64;
			e.box[0] = 8; e.box[1] = 8; e.box[2] = 2; c[0] = 0; c[1] = 0; c[2] = 0;
			if (tile_load("load 3d box 8x8x2 at (0,0,0)", e, c, 512, 128 + 4))
				return 1;
		}
		if (want("3d-c")) {
			e.rank = 3; e.dim[0] = 64; e.dim[1] = 64; e.dim[2] = 4;
			e.stride[0] = 256; e.stride[1] = 256 * 64;
			e.box[0] = 4; e.box[1] = 2; e.box[2] = 3; c[0] = 0; c[1] = 0; c[2] = 0;
			if (tile_load("load 3d box 4x2x3 at (0,0,0)", e, c, 96, 24 + 4))
				return 1;
		}
		if (want("3d")) {
		e.rank = 3; e.dim[0] = 64; e.dim[1] = 64; e.dim[2] = 4;
		e.stride[0] = 256; e.stride[1] = 256 * 64;
		e.box[0] = 4; e.box[1] = 2; e.box[2] = 3; c[0] = 2; c[1] = 5; c[2] = 2;
		if (tile_load("load 3d box 4x2x3 at (2,5,2)", e, c, 96, 24 + 4))
			return 1;
		}
		if (want("5d")) {
		e.rank = 5; e.dim[0] = 16; e.dim[1] = 4; e.dim[2] = 4; e.dim[3] = 4; e.dim[4] = 4;
		e.stride[0] = 64; e.stride[1] = 256; e.stride[2] = 1024; e.stride[3] = 4096;
		e.box[0] = 4; e.box[1] = 2; e.box[2] = 2; e.box[3] = 2; e.box[4] = 2;
		c[0] = 12; c[1] = 3; c[2] = 1; c[3] = 0; c[4] = 3;
		if (tile_load("load 5d box 4x2x2x2x2 at (12,3,1,0,3)", e, c, 256, 64 + 4))
			return 1;
		}

		/* interleave 16B: rank 3, words, dim0 4 (16 B) */
		e = good;
		e.dt = CU_TENSOR_MAP_DATA_TYPE_UINT32;
		e.rank = 3; e.il = CU_TENSOR_MAP_INTERLEAVE_16B;
		e.dim[0] = 4; e.dim[1] = 16; e.dim[2] = 4;
		e.stride[0] = 16; e.stride[1] = 256;
		e.box[0] = 4; e.box[1] = 4; e.box[2] = 2;
		c[0] = 0; c[1] = 14; c[2] = 1; c[3] = 0; c[4] = 0;
		if (want("il16") && tile_load("load interleave 16B box 4x4x2 at (0,14,1)", e, c, 128, 32 + 4))
			return 1;
		e.il = CU_TENSOR_MAP_INTERLEAVE_32B; e.sw = CU_TENSOR_MAP_SWIZZLE_32B;
		e.dim[0] = 8; e.stride[0] = 32; e.stride[1] = 512; e.box[0] = 8;
		if (want("il32") && tile_load("load interleave 32B swizzle 32B box 8x4x2 at (0,14,1)", e, c, 256, 64 + 4))
			return 1;
	}

	/* ---- 3. stores: shared holds 0x10000 + word index; the tensor is a
	 * 64 x 64 word region filled with 0x11111111 first */
	if (want("store0") || want("store1") || want("store2")) {
		int c[5] = { 0, 0, 0, 0, 0 };
		enc e = good;
		unsigned *t = new unsigned[4096];

		e.dt = CU_TENSOR_MAP_DATA_TYPE_UINT32;
		for (int k = section[5] - '0'; k == section[5] - '0'; k++) {
			const char *what = k == 0 ? "store swizzle 128B box 32x8 at (16,2)" :
					   k == 1 ? "store oob box 8x4 at (60,-2)" :
						    "reduce add box 8x4 at (2,2)";
			for (int i = 0; i < 4096; i++)
				t[i] = 0x11111111;
			CK(cudaMemcpy(d_ten, t, 4096 * 4, cudaMemcpyHostToDevice));
			for (unsigned i = 0; i < SMEM / 4; i++)
				h[i] = 0x10000 + i;
			CK(cudaMemcpy(d_out, h, SMEM, cudaMemcpyHostToDevice));
			e.sw = k == 0 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE;
			e.box[0] = k == 0 ? 32 : 8;
			e.box[1] = k == 0 ? 8 : 4;
			c[0] = k == 0 ? 16 : k == 1 ? 60 : 2;
			c[1] = k == 0 ? 2 : k == 1 ? -2 : 2;
			CUresult r = encode(&map, e);
			if (r) {
				printf("%s: encode %s\n", what, name(r));
				continue;
			}
			if (run(what, map, k == 2 ? 2 : 1, 2, c, 0, 0))
				return 1;
			CK(cudaMemcpy(t, d_ten, 4096 * 4, cudaMemcpyDeviceToHost));
			printf("%s:", what);
			for (int i = 0; i < 4096; i++)
				if (t[i] != 0x11111111)
					printf(" %d=%x", i, t[i]);
			printf("\n");
		}
		delete[] t;
	}
	delete[] host_buf;
	return 0;
}
