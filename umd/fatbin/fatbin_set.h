/* SPDX-License-Identifier: GPL-2.0 */
/* Building a vgpu_fatbin_ptx_set: private to umd/fatbin. */
#ifndef VGPU_FATBIN_SET_H
#define VGPU_FATBIN_SET_H

#include "fatbin.h"

/* Extract PTX entry @entry and append it to @set as a new module. */
int fatbin_set_add_entry(struct vgpu_fatbin_ptx_set *set,
			 const struct vgpu_fatbin_entry *entry);

/*
 * Append a copy of @skipped to @set's skipped objects, with a copy of
 * @contents as its description.
 */
int fatbin_set_add_skipped(struct vgpu_fatbin_ptx_set *set,
			   const struct vgpu_fatbin_skipped *skipped,
			   const char *contents);

#endif /* VGPU_FATBIN_SET_H */
