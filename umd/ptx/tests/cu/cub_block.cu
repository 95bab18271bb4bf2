// CUB block- and warp-level primitives: the PTX of a widely used library
// (radix sort uses bmsk, scans use shfl with predicates).
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/warp/warp_scan.cuh>

extern "C" __global__ void cub_block(const int *in, int *sorted, int *sums, int *scan)
{
	typedef cub::BlockRadixSort<int, 128, 4> Sort;
	typedef cub::BlockReduce<int, 128> Reduce;
	typedef cub::BlockScan<int, 128> Scan;
	typedef cub::WarpScan<int> WScan;
	__shared__ union {
		typename Sort::TempStorage sort;
		typename Reduce::TempStorage reduce;
		typename Scan::TempStorage scan;
		typename WScan::TempStorage wscan[4];
	} tmp;
	int keys[4], t = threadIdx.x;

	for (int i = 0; i < 4; i++)
		keys[i] = in[4 * t + i];
	Sort(tmp.sort).Sort(keys);
	for (int i = 0; i < 4; i++)
		sorted[4 * t + i] = keys[i];
	__syncthreads();
	int s = Reduce(tmp.reduce).Sum(keys[0]);
	if (t == 0)
		sums[blockIdx.x] = s;
	__syncthreads();
	int x;
	Scan(tmp.scan).ExclusiveSum(keys[1], x);
	__syncthreads();
	int y;
	WScan(tmp.wscan[t / 32]).InclusiveSum(x, y);
	scan[t] = y;
}
