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
	  "ns", "grid start, CLOCK_MONOTONIC of the firmware's host")	\
	X(l2_sectors, "lts__t_sectors.sum",				\
	  "sector", "32-byte sectors looked up in the L2 (global and "	\
	  "local loads and stores; the L2 model)")			\
	X(l2_hits, "lts__t_sectors_lookup_hit.sum",			\
	  "sector", "L2 sector lookups that hit")			\
	X(l2_misses, "lts__t_sectors_lookup_miss.sum",			\
	  "sector", "L2 sector lookups that missed")			\
	X(l2_persisting_hits, "vgpu__l2_sectors_lookup_hit_persisting.sum", \
	  "sector", "L2 hits on lines kept as persisting")

/*
 * The L2 the device reports (CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE) and the
 * geometry of the firmware's model of it: 128-byte lines of four 32-byte
 * sectors, as on an H100, VGPU_L2_WAYS ways per set.  The persisting
 * set-aside is given in sixteenths of the L2 (rounded up) and is at most
 * ten of them; the default is three: an H100 (50 MiB of L2) reports
 * 32768000 and 9830400 bytes, and keeps 3276800 when asked for 1000.
 * An access policy window is at most 128 MiB (the H100's value).
 */
#define VGPU_L2_BYTES			(4U << 20)
#define VGPU_L2_LINE_BYTES		128
#define VGPU_L2_SECTOR_BYTES		32
#define VGPU_L2_WAYS			16
#define VGPU_L2_PERSIST_UNIT		(VGPU_L2_BYTES / 16)
#define VGPU_L2_PERSIST_MAX		(10 * VGPU_L2_PERSIST_UNIT)
#define VGPU_L2_PERSIST_DEFAULT		(3 * VGPU_L2_PERSIST_UNIT)
#define VGPU_L2_WINDOW_MAX		(128U << 20)

/* struct vgpu_l2_policy.hit_prop and .miss_prop: cudaAccessProperty */
#define VGPU_L2_PROP_NORMAL		0
#define VGPU_L2_PROP_STREAMING		1
#define VGPU_L2_PROP_PERSISTING		2

/* Demote every persisting line before the grid runs. */
#define VGPU_L2_POLICY_F_RESET		(1U << 0)
#define VGPU_L2_POLICY_F_ALL		VGPU_L2_POLICY_F_RESET

/* Where struct vgpu_l2_policy lies in the counters buffer. */
#define VGPU_L2_POLICY_OFFSET		2048

/**
 * struct vgpu_l2_policy - how a counted launch uses the L2 model
 * @size: sizeof(struct vgpu_l2_policy) as the client knows it; 0: no
 *	policy (no window, the default set-aside).
 * @flags: VGPU_L2_POLICY_F_*; other bits make the packet bad.
 * @persist_limit: bytes of L2 set aside for persisting lines (the
 *	context's cudaLimitPersistingL2CacheSize), at most
 *	VGPU_L2_PERSIST_MAX.
 * @window_base: GPU VA of the access policy window (of the stream, the
 *	launch or the kernel node).
 * @window_bytes: its size; 0: no window.  At most VGPU_L2_WINDOW_MAX.
 * @hit_ratio: the window's hitRatio in parts of 2^24 (<= 1 << 24).
 * @hit_prop: VGPU_L2_PROP_* of the hitRatio share of the window.
 * @miss_prop: VGPU_L2_PROP_* of the rest (not persisting).
 * @reserved: zero.
 *
 * A client that asks for counters with a buffer of at least
 * VGPU_L2_POLICY_OFFSET + 8 bytes may place this struct there before the
 * launch; the firmware reads it when the grid starts (the counters
 * written at the end do not reach it).
 */
struct vgpu_l2_policy {
	__u32 size;
	__u32 flags;
	__u64 persist_limit;
	__u64 window_base;
	__u64 window_bytes;
	__u32 hit_ratio;
	__u8 hit_prop;
	__u8 miss_prop;
	__u16 reserved;
};

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
