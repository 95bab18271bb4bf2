/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgpu_barrier.h - memory ordering of the doorbell protocol, user space.
 *
 * The two user-space sides of a queue (libvgpu in the application, the
 * firmware daemon) share the ring, the doorbell page and the fence page
 * (include/vgpu_hw.h section 3) with no lock.  They order their accesses
 * with these five words, named after the kernel's own (as liburing's
 * barrier.h names io_uring_smp_store_release() ...), so that each access
 * reads the same on all three sides of the protocol: libvgpu, firmware
 * and kmod/.
 *
 * Each barrier has a partner on the other side; without the partner it
 * orders nothing.  The pairs, with the function that holds each side:
 *
 *   writer                                 reader
 *   ------                                 ------
 *   (1) the ring's packets, then wptr
 *   libvgpu vgpu_queue_submit():           firmware fw_queue_run_one():
 *     packets; store_release(wptr)           load_acquire(wptr); packets
 *
 *   (2) the firmware is done with a packet, then rptr
 *   firmware advance():                    libvgpu vgpu_queue_space():
 *     read packet; store_release(rptr)       load_acquire(rptr); reuse
 *
 *   (3) the doorbell handshake (a store, a full barrier, a load on both
 *       sides: one of them sees the other's store, io_uring SQPOLL)
 *   libvgpu vgpu_queue_submit():           firmware engine_main():
 *     store_release(wptr)                    WRITE_ONCE(fw_sleeping, 1)
 *     smp_mb()                               smp_mb()
 *     READ_ONCE(fw_sleeping): kick?          READ_ONCE(wptr): sleep?
 *
 *   (4) the fence page (written by the kernel only)
 *   kmod vgpu_queue_signal(),              libvgpu vgpu_queue_completed(),
 *   kmod vgpu_queue_set_error():             vgpu_queue_error():
 *     WRITE_ONCE(completed / error)          load_acquire(completed / error)
 *       under dev->state_lock                  then the fence's results
 *
 * C11's <stdatomic.h> would ask for _Atomic fields in the uAPI structs,
 * which the kernel's side cannot have; the compiler's __atomic built-ins
 * work on the plain __u64/__u32 fields of vgpu_hw.h.
 */
#ifndef _VGPU_BARRIER_H
#define _VGPU_BARRIER_H

/* Earlier loads and stores happen before the store of @v to *@p. */
#define vgpu_smp_store_release(p, v) \
	__atomic_store_n((p), (v), __ATOMIC_RELEASE)

/* Later loads and stores happen after the load of *@p. */
#define vgpu_smp_load_acquire(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)

/* A full barrier: no store before it is passed by a load after it. */
#define vgpu_smp_mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)

/* One untorn access, ordered only by a barrier around it. */
#define VGPU_READ_ONCE(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define VGPU_WRITE_ONCE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)

#endif /* _VGPU_BARRIER_H */
