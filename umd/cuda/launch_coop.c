// SPDX-License-Identifier: GPL-2.0
/*
 * launch_coop.c - cooperative launches and thread-block clusters: the
 * checks an H100 makes (tools/cuda-probe/golden/probe_coop.h100.txt),
 * cuLaunchCooperativeKernel and the cluster occupancy API.
 *
 * What the GPU does with them is the firmware's business: a cooperative
 * grid, and each cluster, is admitted whole (firmware_sim/core/dispatch.c,
 * "gangs").  What we promise here must be what it can do, so the limits
 * come from the same formula (include/vgpu_occupancy.h) times the SMs the
 * firmware runs.  A cooperative grid's grid.sync() counts its arrivals in
 * a word of the context's sync page that belongs to the queue the grid
 * runs on (CU_SYNC_GRID_SYNC_FIRST + queue slot): a queue runs one grid
 * at a time, and the counting works from whatever value the previous
 * grid left (each grid.sync() adds exactly 2^31 in all), so the word
 * needs no reset.  Documentation/cooperative-groups.rst tells the story.
 */
#include <string.h>

#include "cuda_internal.h"
#include "vgpu_launch.h"
#include "vgpu_occupancy.h"

_Static_assert(CU_SYNC_GRID_SYNC_FIRST + CU_MAX_QUEUES <= CU_SYNC_TS_FIRST,
	       "the grid-sync words overlap the timestamps");

/* An H100's cluster limits: 8 blocks, 16 when the kernel allows it. */
#define CU_CLUSTER_PORTABLE	8u
#define CU_CLUSTER_MAX		VGPU_LAUNCH_MAX_CLUSTER

/* Blocks of @f with this shape one SM holds at once (as the firmware). */
static uint64_t cu_coop_blocks_per_sm(const struct cu_function *f,
				      const unsigned int block[3],
				      unsigned int shared)
{
	uint64_t threads = (uint64_t)block[0] * block[1] * block[2];

	if (!threads || threads > CU_MAX_THREADS_PER_BLOCK)
		return 0;
	return vgpu_occupancy_blocks_per_sm((uint32_t)threads,
			vgpu_occupancy_block_shared(f->kernel, shared));
}

/* The SMs of the device whose context @f is loaded in. */
static uint64_t cu_coop_sms(const struct cu_function *f)
{
	return f->module->ctx->dev->sm_count;
}

/*
 * The cluster shape of a launch of @f with attribute shape @attr (0 0 0:
 * none): the attribute's, else the kernel's __cluster_dims__.  Both given
 * and different, or a shape that does not divide @grid or is larger than
 * the kernel allows: CUDA_ERROR_INVALID_CLUSTER_SIZE, as an H100 says.
 */
static CUresult cu_cluster_shape(const struct cu_function *f,
				 const unsigned int attr[3],
				 const unsigned int grid[3], uint32_t out[3])
{
	const uint32_t *k = f->cluster_dim;
	uint64_t size;

	memset(out, 0, 3 * sizeof(*out));
	if (attr[0] && k[0] &&
	    (attr[0] != k[0] || attr[1] != k[1] || attr[2] != k[2]))
		return CUDA_ERROR_INVALID_CLUSTER_SIZE;
	if (attr[0])
		memcpy(out, attr, 3 * sizeof(*out));
	else if (k[0])
		memcpy(out, k, 3 * sizeof(*out));
	else
		return CUDA_SUCCESS;
	size = (uint64_t)out[0] * out[1] * out[2];
	if (size > (f->cluster_non_portable ? CU_CLUSTER_MAX :
		    CU_CLUSTER_PORTABLE))
		return CUDA_ERROR_INVALID_CLUSTER_SIZE;
	if (grid && (grid[0] % out[0] || grid[1] % out[1] || grid[2] % out[2]))
		return CUDA_ERROR_INVALID_CLUSTER_SIZE;
	return CUDA_SUCCESS;
}

CUresult cu_launch_coop_check(const struct cu_function *f,
			      const struct cu_launch_cfg *c,
			      uint32_t cluster[3])
{
	uint64_t blocks = (uint64_t)c->grid[0] * c->grid[1] * c->grid[2];
	uint64_t room = cu_coop_blocks_per_sm(f, c->block, c->shared) *
			cu_coop_sms(f);
	CUresult res = cu_cluster_shape(f, c->cluster, c->grid, cluster);

	if (res != CUDA_SUCCESS)
		return res;
	/*
	 * A cluster larger than all our SMs hold at once could never run
	 * (an H100's GPC holds any shape it accepts).
	 */
	if ((uint64_t)cluster[0] * cluster[1] * cluster[2] > room)
		return CUDA_ERROR_INVALID_CLUSTER_SIZE;
	if (c->cooperative && blocks > room)
		return CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
	return CUDA_SUCCESS;
}

CU_EXPORT CUresult CUDAAPI cuLaunchCooperativeKernel(CUfunction f,
		unsigned int gridDimX, unsigned int gridDimY,
		unsigned int gridDimZ, unsigned int blockDimX,
		unsigned int blockDimY, unsigned int blockDimZ,
		unsigned int sharedMemBytes, CUstream hStream,
		void **kernelParams)
{
	struct cu_launch_cfg c = {
		.grid = { gridDimX, gridDimY, gridDimZ },
		.block = { blockDimX, blockDimY, blockDimZ },
		.shared = sharedMemBytes,
		.cooperative = true,
	};

	return cu_launch_cfg_run(f, &c, hStream, kernelParams, NULL);
}

/* The cluster attribute of @config (0 0 0: none given). */
static void cu_config_cluster(const CUlaunchConfig *config, unsigned int out[3])
{
	memset(out, 0, 3 * sizeof(*out));
	for (unsigned int i = 0; i < config->numAttrs && config->attrs; i++) {
		const CUlaunchAttribute *a = &config->attrs[i];

		if (a->id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION &&
		    a->value.clusterDim.x && a->value.clusterDim.y &&
		    a->value.clusterDim.z) {
			out[0] = a->value.clusterDim.x;
			out[1] = a->value.clusterDim.y;
			out[2] = a->value.clusterDim.z;
		}
	}
}

static CUresult cu_cluster_query(CUfunction func, const CUlaunchConfig *config,
				 struct cu_function **fp, uint64_t *room)
{
	unsigned int block[3];
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	*fp = cu_kernel_as_function((struct cu_function *)func);
	if (!cu_function_valid(*fp))
		return CUDA_ERROR_INVALID_HANDLE;
	if (!config)
		return CUDA_ERROR_INVALID_VALUE;
	block[0] = config->blockDimX;
	block[1] = config->blockDimY;
	block[2] = config->blockDimZ;
	*room = cu_coop_blocks_per_sm(*fp, block, config->sharedMemBytes) *
		cu_coop_sms(*fp);
	return CUDA_SUCCESS;
}

/*
 * Clusters of the configured shape that are resident at once: what our
 * SMs hold, in whole clusters.  No shape at all: 0, as an H100 answers.
 */
CU_EXPORT CUresult CUDAAPI cuOccupancyMaxActiveClusters(int *numClusters,
		CUfunction func, const CUlaunchConfig *config)
{
	struct cu_function *f;
	unsigned int attr[3];
	uint32_t shape[3];
	uint64_t room, size;
	CUresult res = cu_cluster_query(func, config, &f, &room);

	if (res != CUDA_SUCCESS)
		return res;
	if (!numClusters)
		return CUDA_ERROR_INVALID_VALUE;
	cu_config_cluster(config, attr);
	res = cu_cluster_shape(f, attr, NULL, shape);
	if (res != CUDA_SUCCESS)
		return res;
	size = (uint64_t)shape[0] * shape[1] * shape[2];
	*numClusters = size ? (int)(room / size) : 0;
	return CUDA_SUCCESS;
}

/*
 * The largest cluster a launch of this configuration could use: the
 * kernel's limit (8, or 16 when it allows non-portable sizes), or fewer
 * when our SMs cannot hold that many of its blocks at once.
 */
CU_EXPORT CUresult CUDAAPI cuOccupancyMaxPotentialClusterSize(int *clusterSize,
		CUfunction func, const CUlaunchConfig *config)
{
	struct cu_function *f;
	uint64_t room, limit;
	CUresult res = cu_cluster_query(func, config, &f, &room);

	if (res != CUDA_SUCCESS)
		return res;
	if (!clusterSize)
		return CUDA_ERROR_INVALID_VALUE;
	limit = f->cluster_non_portable ? CU_CLUSTER_MAX : CU_CLUSTER_PORTABLE;
	*clusterSize = (int)(room < limit ? room : limit);
	return CUDA_SUCCESS;
}
