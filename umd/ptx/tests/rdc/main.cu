// The kernel half of a separately compiled program (see lib.cu).
extern __device__ int lib_counter;
extern __device__ int lib_scale(int x);

__global__ void use_lib(int *out)
{
	out[threadIdx.x] = lib_scale(threadIdx.x) + lib_counter;
}
