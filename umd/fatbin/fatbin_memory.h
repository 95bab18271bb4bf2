/* SPDX-License-Identifier: GPL-2.0 */
/* Checking in-process memory before reading it: private to umd/fatbin. */
#ifndef VGPU_FATBIN_MEMORY_H
#define VGPU_FATBIN_MEMORY_H

#include <stddef.h>

/* Whether every page of [@p, @p + @len) is mapped in this process. */
int fatbin_mapped(const void *p, size_t len);

#endif /* VGPU_FATBIN_MEMORY_H */
