/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One cache entry file: a fixed header, then the image.
 *
 *   0   8  magic "vGPUcc\r\n" (the CR LF catches text-mode mangling)
 *   8   4  format version, little-endian (1)
 *  12   4  header size (88)
 *  16   8  image size
 *  24  32  the full key (file names only carry it in hex; this guards
 *          against a file copied or renamed into the wrong place)
 *  56  32  SHA-256 of the image
 *  88      the image
 *
 * Private to umd/cache.
 */
#ifndef VGPU_CACHE_ENTRY_H
#define VGPU_CACHE_ENTRY_H

#include <stddef.h>
#include <stdint.h>

#include "compute_cache.h"

#define CACHE_ENTRY_HDR_SIZE	88

/* Write the entry for @key / @blob to @fd.  0 or a negative errno. */
int cache_entry_write(int fd, const struct vgpu_cache_key *key,
		      const void *blob, size_t size);

/*
 * Read and verify the entry in @fd, which must hold exactly one entry for
 * @key.  Returns 0 with a malloc()ed image, -EBADMSG if the file is not a
 * valid entry for @key (corrupt, truncated, foreign), or another negative
 * errno for I/O failures.
 */
int cache_entry_read(int fd, const struct vgpu_cache_key *key,
		     uint64_t max_size, void **blob, size_t *size);

#endif /* VGPU_CACHE_ENTRY_H */
