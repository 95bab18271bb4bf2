// SPDX-License-Identifier: GPL-2.0
//
// probe_smem: the reserved shared-memory registers (%reserved_smem_offset_*),
// sharedSizeBytes of kernels with and without a cooperative-groups tile
// of 64 (whose scratch lives in the reserved region), and
// cudaDevAttrReservedSharedMemoryPerBlock.
//
// Build: nvcc -cudart shared -arch=sm_90 -o probe_smem probe_smem.cu
// (golden/probe_smem.h100.txt holds two runs: built for sm_90, then for
// compute_90 PTX only, which the driver compiles.)
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void regs(unsigned *o) {
  unsigned b, e, c, z, one;
  asm volatile("mov.u32 %0, %%reserved_smem_offset_begin;" : "=r"(b));
  asm volatile("mov.u32 %0, %%reserved_smem_offset_end;" : "=r"(e));
  asm volatile("mov.u32 %0, %%reserved_smem_offset_cap;" : "=r"(c));
  asm volatile("mov.u32 %0, %%reserved_smem_offset_0;" : "=r"(z));
  asm volatile("mov.u32 %0, %%reserved_smem_offset_1;" : "=r"(one));
  o[0]=b; o[1]=e; o[2]=c; o[3]=z; o[4]=one;
}
__global__ void tile64(int *o) {
  __shared__ int mine[32];
  cg::thread_block blk = cg::this_thread_block();
  auto t = cg::tiled_partition<64>(blk);
  mine[threadIdx.x % 32] = threadIdx.x;
  t.sync();
  o[threadIdx.x] = mine[threadIdx.x % 32] + (int)t.thread_rank();
}
__global__ void plain(int *o) { __shared__ int s[8]; s[threadIdx.x%8] = 1; o[0] = s[0]; }
int main() {
  unsigned *d, h[5]; cudaMalloc(&d, 4096);
  regs<<<1,1>>>(d); cudaDeviceSynchronize(); cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  printf("begin %u end %u cap %u _0 %u _1 %u\n", h[0], h[1], h[2], h[3], h[4]);
  tile64<<<1,128>>>((int*)d); printf("tile64 launch %d\n", (int)cudaDeviceSynchronize());
  cudaFuncAttributes a;
  cudaFuncGetAttributes(&a, regs); printf("regs sharedSizeBytes %zu\n", a.sharedSizeBytes);
  cudaFuncGetAttributes(&a, tile64); printf("tile64 sharedSizeBytes %zu\n", a.sharedSizeBytes);
  cudaFuncGetAttributes(&a, plain); printf("plain sharedSizeBytes %zu\n", a.sharedSizeBytes);
  int v; cudaDeviceGetAttribute(&v, cudaDevAttrReservedSharedMemoryPerBlock, 0); printf("reserved per block %d\n", v);
}
