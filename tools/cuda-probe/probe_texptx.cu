// SPDX-License-Identifier: GPL-2.0
//
// probe_texptx: what an H100 answers to the PTX side of textures and
// surfaces where the PTX ISA leaves it open: the CUDA error of a surface
// access outside the surface with .trap (a store and a load), of a tex on
// a destroyed texture object; the values of txq/suq queries
// (channel_data_type/order, width of a surface, memory_layout,
// num_mipmap_levels, num_samples, array_size), istypep on object handles,
// and surface reads outside the surface with .clamp and .zero (is x
// clamped in bytes or in elements?).
//
// Each error case runs in its own process (the error is sticky):
//   probe_texptx            the values
//   probe_texptx sust_trap | suld_trap | tex_destroyed | surf_destroyed
//
// Build: nvcc -cudart shared -arch=sm_90 -o probe_texptx probe_texptx.cu
// Facts from the H100 (driver 580.159.04, 2026-11-24), one kernel with
// one query each on bindless handles: txq.width, suq.width, istypep and
// suld.trap load and run; a module with txq.channel_data_type,
// .channel_order, .num_mipmap_levels, .num_samples, .array_size or
// .normalized_coords fails every launch with cudaErrorSymbolNotFound
// (the code asks the driver for a symbol it does not have), and one with
// suq.channel_data_type or .memory_layout with cudaErrorNotSupported
// (under CUDA_MODULE_LOADING=EAGER already the context creation fails).
// So the probe leaves those queries out and reads 0 for them.
#include <cstdio>
#include <cstring>

/* A launch's own error (no kernel image, bad configuration) is not what
 * cudaDeviceSynchronize() returns: print both. */
#define SYNC(what) do { cudaError_t l_ = cudaGetLastError(); cudaError_t s_ = cudaDeviceSynchronize(); \
	printf("%s -> launch %s, sync %s\n", what, cudaGetErrorName(l_), cudaGetErrorName(s_)); } while (0)
#define CK(x) do { cudaError_t e_ = (x); if (e_) { printf("%s -> %d %s\n", #x, (int)e_, cudaGetErrorName(e_)); } } while (0)

__global__ void queries(cudaTextureObject_t t, cudaSurfaceObject_t s, unsigned *o)
{
	unsigned v[12];

	asm volatile("txq.width.b32 %0, [%1];" : "=r"(v[0]) : "l"(t));
	v[1] = 0;	/* see the header: the H100 refuses this query */
	v[2] = 0;	/* see the header: the H100 refuses this query */
	v[3] = 0;	/* see the header: the H100 refuses this query */
	v[4] = 0;	/* see the header: the H100 refuses this query */
	v[5] = 0;	/* see the header: the H100 refuses this query */
	v[6] = 0;	/* see the header: the H100 refuses this query */
	asm volatile("suq.width.b32 %0, [%1];" : "=r"(v[7]) : "l"(s));
	v[8] = 0;	/* see the header: the H100 refuses this query */
	v[9] = 0;	/* see the header: the H100 refuses this query */
	asm volatile("{ .reg .pred p; istypep.texref p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(v[10]) : "l"(t));
	asm volatile("{ .reg .pred p; istypep.surfref p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(v[11]) : "l"(s));
	for (int i = 0; i < 12; i++)
		o[i] = v[i];
}

__global__ void modes(cudaSurfaceObject_t s, int *o)
{
	int i = threadIdx.x, x = i - 8;

	o[2 * i] = surf2Dread<int>(s, x * 4, 0, cudaBoundaryModeClamp);
	o[2 * i + 1] = surf2Dread<int>(s, x * 4, 0, cudaBoundaryModeZero);
}

__global__ void sust_trap(cudaSurfaceObject_t s, int x) { surf2Dwrite(1, s, x * 4, 0, cudaBoundaryModeTrap); }
__global__ void suld_trap(cudaSurfaceObject_t s, int x, int *o) { o[0] = surf2Dread<int>(s, x * 4, 0, cudaBoundaryModeTrap); }
__global__ void fetch(cudaTextureObject_t t, float *o) { o[0] = tex2D<float>(t, 0.5f, 0.5f); }

struct fmt { const char *name; cudaChannelFormatDesc d; int rm; };

int main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "values";
	cudaArray_t a;
	cudaChannelFormatDesc di = cudaCreateChannelDesc<int>();
	int *o;

	CK(cudaMallocHost(&o, 4096));	/* pinned: the recording host has no managed memory */
	CK(cudaMallocArray(&a, &di, 16, 4, cudaArraySurfaceLoadStore));
	int h[64];
	for (int i = 0; i < 64; i++)
		h[i] = i + 100;
	CK(cudaMemcpy2DToArray(a, 0, 0, h, 64, 64, 4, cudaMemcpyHostToDevice));
	cudaResourceDesc r = {};
	r.resType = cudaResourceTypeArray;
	r.res.array.array = a;
	cudaSurfaceObject_t s;
	CK(cudaCreateSurfaceObject(&s, &r));
	cudaTextureDesc td = {};
	td.readMode = cudaReadModeElementType;
	cudaTextureObject_t t;
	CK(cudaCreateTextureObject(&t, &r, &td, NULL));

	if (!strcmp(c, "values")) {
		struct fmt f[] = {
			{ "u8x4 norm", cudaCreateChannelDesc<uchar4>(), 1 },
			{ "u8x4 elem", cudaCreateChannelDesc<uchar4>(), 0 },
			{ "s8 norm", cudaCreateChannelDesc<signed char>(), 1 },
			{ "u16x2 elem", cudaCreateChannelDesc<ushort2>(), 0 },
			{ "s16 norm", cudaCreateChannelDesc<short>(), 1 },
			{ "s32 elem", cudaCreateChannelDesc<int>(), 0 },
			{ "u32x2 elem", cudaCreateChannelDesc<uint2>(), 0 },
			{ "half elem", cudaCreateChannelDescHalf(), 0 },
			{ "float4 elem", cudaCreateChannelDesc<float4>(), 0 },
		};
		for (auto &x : f) {
			cudaArray_t b;
			CK(cudaMallocArray(&b, &x.d, 8, 2, cudaArraySurfaceLoadStore));
			cudaResourceDesc rb = {};
			rb.resType = cudaResourceTypeArray;
			rb.res.array.array = b;
			cudaTextureDesc tb = {};
			tb.readMode = x.rm ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
			cudaTextureObject_t tt;
			cudaSurfaceObject_t ss;
			CK(cudaCreateTextureObject(&tt, &rb, &tb, NULL));
			CK(cudaCreateSurfaceObject(&ss, &rb));
			queries<<<1, 1>>>(tt, ss, (unsigned *)o);
			SYNC("queries");
			printf("txq %s (8x2 array): width %u cdt 0x%x order 0x%x levels %u samples %u array_size %u norm %u | suq width %u cdt 0x%x layout %u | istypep tex %u surf %u\n",
			       x.name, o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9], o[10], o[11]);
		}
		/* istypep on a non-handle */
		modes<<<1, 32>>>(s, o);
		SYNC("modes");
		printf("row 0 = 100..115; x = -8..23:\n");
		for (int i = 0; i < 32; i++)
			printf("  x %d clamp %d zero %d\n", i - 8, o[2 * i], o[2 * i + 1]);
	} else if (!strcmp(c, "sust_trap")) {
		sust_trap<<<1, 1>>>(s, 16);
		SYNC("sust.trap x=16 of 16");
	} else if (!strcmp(c, "sust_trap_neg")) {
		sust_trap<<<1, 1>>>(s, -1);
		SYNC("sust.trap x=-1");
	} else if (!strcmp(c, "suld_trap")) {
		suld_trap<<<1, 1>>>(s, 16, o);
		SYNC("suld.trap x=16 of 16");
	} else if (!strcmp(c, "tex_destroyed")) {
		CK(cudaDestroyTextureObject(t));
		fetch<<<1, 1>>>(t, (float *)o);
		SYNC("tex on a destroyed object");
		printf("value %g\n", ((float *)o)[0]);
	} else if (!strcmp(c, "surf_destroyed")) {
		CK(cudaDestroySurfaceObject(s));
		sust_trap<<<1, 1>>>(s, 0);
		SYNC("sust on a destroyed surface");
	}
	return 0;
}
