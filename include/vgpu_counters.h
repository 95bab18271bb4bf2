/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * vgpu_counters.h - the per-launch hardware counters of the GR engine.
 *
 * A LAUNCH packet with VGPU_LAUNCH_F_COUNTERS (include/vgpu_launch.h)
 * asks the GR engine to count what the grid does; when the grid has
 * completed, and before the queue moves past the packet, the firmware
 * writes a struct vgpu_launch_counters at the packet's counters_va.
 * Counting runs the grid on the interpreter (the native tier does not
 * count), so it costs time only when asked for.
 *
 * VGPU_COUNTERS() is the one list of the counters: the struct's fields,
 * the execution core's accumulators, the Nsight Compute metric each one
 * equals and what it means are all generated from it (firmware, UMD and
 * vgpu-prof).  New counters go at the end: the struct grows, and @size
 * says how much of it a firmware wrote (extensible by size).
 *
 * Memory counters are those of the accesses themselves, with Nsight
 * Compute's definitions (Documentation/profiler.rst):
 *  - a *request* is one warp-level load or store instruction with at
 *    least one active lane (vector accesses included);
 *  - *sectors* are the distinct aligned 32-byte blocks its active lanes
 *    touch, counted per request;
 *  - a shared-memory *wavefront* is one pass of the 32 banks (4-byte
 *    words, bank = word % 32); a request needs as many as the largest
 *    number of distinct words it touches in one bank, and at least
 *    ceil(distinct words / 32): the excess is its *bank conflicts*;
 *  - local memory is interleaved per 4-byte word across the 32 lanes of
 *    a warp (word w of lane l at (w * 32 + l) * 4), as on NVIDIA GPUs.
 */
#ifndef _VGPU_COUNTERS_H
#define _VGPU_COUNTERS_H

#include <linux/types.h>

/*
 * X(field, Nsight Compute metric, its unit, description): the raw
 * counters, in the order of struct vgpu_launch_counters.  A name that
 * starts with vgpu__ has no Nsight Compute equal.
 */
#define VGPU_COUNTERS(X)						\
	X(gld_requests, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", \
	  "", "global load requests (warp instructions)")		\
	X(gld_sectors, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", \
	  "sector", "32-byte sectors of global loads")			\
	X(gst_requests, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", \
	  "", "global store requests")					\
	X(gst_sectors, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", \
	  "sector", "32-byte sectors of global stores")			\
	X(sld_requests, "smsp__sass_inst_executed_op_shared_ld.sum",	\
	  "inst", "shared load requests")				\
	X(sld_wavefronts,						\
	  "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",	\
	  "", "shared load wavefronts")					\
	X(sld_conflicts,						\
	  "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",	\
	  "", "shared load bank conflicts (wavefronts beyond the ideal)") \
	X(sst_requests, "smsp__sass_inst_executed_op_shared_st.sum",	\
	  "inst", "shared store requests")				\
	X(sst_wavefronts,						\
	  "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",	\
	  "", "shared store wavefronts")				\
	X(sst_conflicts,						\
	  "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",	\
	  "", "shared store bank conflicts")				\
	X(lld_requests, "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum", \
	  "", "local load requests")					\
	X(lld_sectors, "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",	\
	  "sector", "32-byte sectors of local loads")			\
	X(lst_requests, "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum", \
	  "", "local store requests")					\
	X(lst_sectors, "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",	\
	  "sector", "32-byte sectors of local stores")			\
	X(warp_insns, "smsp__inst_executed.sum",			\
	  "inst", "warp instructions executed (vISA, not SASS)")	\
	X(thread_insns, "smsp__thread_inst_executed.sum",		\
	  "inst", "thread instructions executed (active lanes summed)")	\
	X(warps_resident, "vgpu__warps_resident_per_inst.sum",		\
	  "warp", "resident warps of the SM, summed over the warp "	\
	  "instructions it executed")					\
	X(duration_ns, "gpu__time_duration.sum",			\
	  "ns", "grid start to end (host time)")			\
	X(start_ns, "vgpu__start_ns",					\
	  "ns", "grid start, CLOCK_MONOTONIC of the firmware's host")

/* Warp slots of an SM: the peak for achieved occupancy. */
#define VGPU_COUNTERS_MAX_WARPS_PER_SM	64

/**
 * struct vgpu_launch_counters - what a counted launch leaves at counters_va
 * @size: bytes of this struct the firmware wrote (at most the packet's
 *	counters_size); fields beyond it were not written.
 * @flags: zero.
 * @gld_requests .. @duration_ns: VGPU_COUNTERS(), in its order; all sums
 *	over the whole grid.  Achieved occupancy is @warps_resident /
 *	@warp_insns / VGPU_COUNTERS_MAX_WARPS_PER_SM.
 */
struct vgpu_launch_counters {
	__u32 size;
	__u32 flags;
#define VGPU_COUNTER_FIELD(f, metric, unit, desc) __u64 f;
	VGPU_COUNTERS(VGPU_COUNTER_FIELD)
#undef VGPU_COUNTER_FIELD
};

#endif /* _VGPU_COUNTERS_H */
