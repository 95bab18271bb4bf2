/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sanitizer.h - a sanitized launch (include/vgpu_sanitizer.h): the GR
 * engine reads the client's allocation table before the grid and hands
 * the core's findings back after it.
 */
#ifndef VGPU_FW_SANITIZER_H
#define VGPU_FW_SANITIZER_H

struct fw_queue;
struct vgpu_fault;
struct vgpu_core_launch;

/*
 * A counted launch of @q starts: if its counters buffer holds a struct
 * vgpu_san_desc, read the allocation table and give @l the sanitizer.
 * Returns 0, or 1 with @fault filled (a bad descriptor: a bad packet; a
 * table that cannot be read: its address's fault).
 */
int fw_san_begin(struct fw_queue *q, struct vgpu_core_launch *l,
		 struct vgpu_fault *fault);

/*
 * The sanitized grid of @q ended (completed or faulted): write its
 * findings at the descriptor's reports_va and free what fw_san_begin()
 * made.  Returns 0, or 1 with @fault filled when the reports cannot be
 * written.  Without a sanitizer: 0.
 */
int fw_san_finish(struct fw_queue *q, struct vgpu_fault *fault);

/* Forget the sanitizer of @q without writing (the queue is going). */
void fw_san_abandon(struct fw_queue *q);

#endif /* VGPU_FW_SANITIZER_H */
