// The library half of a separately compiled (-rdc=true) program: a device
// function and a device variable that main.cu uses through .extern.
__device__ int lib_counter = 7;
__device__ float lib_table[4] = { 0.5f, 1.5f, 2.5f, 3.5f };

__device__ int lib_scale(int x)
{
	atomicAdd(&lib_counter, 1);
	return x * 3 + (int)lib_table[x & 3];
}
