// Kernels test_ptx_video runs from nvcc's own PTX: the SIMD intrinsics
// that nvcc lowers to video instructions (vabsdiff4, vabsdiff2.add, ...),
// the inline-assembly sum of absolute differences of NVIDIA's
// stereoDisparity sample, and a cooperative-groups tile of 64 threads,
// whose scratch space lives in the reserved shared memory on sm_80+.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

#define VIDEO_OUTPUTS 10

extern "C" __global__ void video_intrinsics(unsigned *o, const unsigned *a,
					    const unsigned *b, const unsigned *c)
{
	unsigned t = threadIdx.x + blockIdx.x * blockDim.x;
	unsigned x = a[t], y = b[t], z = c[t], r;
	unsigned *out = o + VIDEO_OUTPUTS * t;

	out[0] = __vabsdiffu4(x, y);
	out[1] = __vabsdiffs4(x, y);
	out[2] = __vsadu4(x, y);
	out[3] = __vsadu2(x, y);
	out[4] = __vabsdiffu2(x, y);
	out[5] = __vavgu2(x, y);
	out[6] = __vcmpgtu4(x, y);
	out[7] = __vmaxs4(x, y) ^ __vsubss2(x, y);
	asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;"
	    : "=r"(r) : "r"(x), "r"(y), "r"(z));
	out[8] = r;
	asm("vadd2.s32.s32.s32.sat %0.h1, %1.h10, %2.h32, %3;"
	    : "=r"(r) : "r"(x), "r"(y), "r"(z));
	out[9] = r;
}

// Each thread: the sum of its 64-thread tile's ranks, plus a value another
// thread left in the block's own shared array.  On sm_75 the tile would
// need user scratch: the kernel reports -1 there.
extern "C" __global__ void video_cg_tile(int *o)
{
#if __CUDA_ARCH__ >= 800
	__shared__ int mine[256];
	cg::thread_block b = cg::this_thread_block();

	mine[threadIdx.x] = threadIdx.x * 3 + 1;
	auto tile = cg::tiled_partition<64>(b);
	int s = cg::reduce(tile, (int)threadIdx.x, cg::plus<int>());

	b.sync();
	o[threadIdx.x] = s + mine[255 - threadIdx.x];
#else
	o[threadIdx.x] = -1;
#endif
}
