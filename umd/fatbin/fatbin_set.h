/* SPDX-License-Identifier: GPL-2.0 */
/* Building a vgpu_fatbin_ptx_set: private to umd/fatbin. */
#ifndef VGPU_FATBIN_SET_H
#define VGPU_FATBIN_SET_H

#include "fatbin.h"

/* Extract PTX entry @entry and append it to @set as a new module. */
int fatbin_set_add_entry(struct vgpu_fatbin_ptx_set *set,
			 const struct vgpu_fatbin_entry *entry);

#endif /* VGPU_FATBIN_SET_H */
