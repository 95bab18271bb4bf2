// SPDX-License-Identifier: GPL-2.0
/*
 * Is this memory there?
 *
 * Registration gives us bare pointers, and the size of what they point to
 * comes from the data itself.  A corrupted header (or a wild pointer from
 * a broken program) would make us read unmapped memory and crash inside
 * the driver, far from the cause.  mincore() answers "is every page of
 * this range mapped?" without touching the memory: it fails with ENOMEM
 * if any page is not.  It does not see PROT_NONE mappings, which no
 * compiler puts a fatbin in.
 */
#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fatbin_memory.h"

#define PAGES_PER_CALL	256

int fatbin_mapped(const void *p, size_t len)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = (uintptr_t)p & ~(page - 1);
	uintptr_t end = (uintptr_t)p + len;
	unsigned char residency[PAGES_PER_CALL];

	if (!p || end < (uintptr_t)p)
		return 0;
	while (start < end) {
		uintptr_t chunk = end - start;

		if (chunk > PAGES_PER_CALL * page)
			chunk = PAGES_PER_CALL * page;
		if (mincore((void *)start, chunk, residency) && errno == ENOMEM)
			return 0;
		start += chunk;
	}
	return 1;
}
