/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aperture.h - the firmware's mappings of VRAM and of the GART.
 *
 * The driver fills these mappings on demand and takes pages away at any
 * moment: when a client frees memory or dies, the pages are zapped, and
 * touching them again raises SIGBUS.  A real GPU would see such an access
 * as a bus error and carry on; so does the firmware.  A SIGBUS handler
 * puts a private zero page over the page that faulted (the access then
 * completes, reading zeros or writing into the void) and marks the page
 * "patched".  Before the MMU hands out a page again it calls
 * fw_aperture_revalidate(), which maps the driver's page back if it was
 * patched, so memory handed out again later is reached for real.
 */
#ifndef VGPU_FW_APERTURE_H
#define VGPU_FW_APERTURE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

struct fw_aperture {
	uint8_t *base;			/* NULL while unmapped */
	uint64_t size;
	int fd;
	uint64_t file_offset;		/* mmap offset of byte 0 */
	_Atomic uint64_t *patched;	/* bitmap, one bit per 4 KiB page */
};

int fw_aperture_map(struct fw_aperture *ap, int fd, uint64_t file_offset,
		    uint64_t size);
void fw_aperture_unmap(struct fw_aperture *ap);
/* Make [off, off + len) reach the driver's pages again if it was patched. */
void fw_aperture_revalidate(struct fw_aperture *ap, uint64_t off,
			    uint64_t len);
/* Install the SIGBUS handler (once, before any aperture is mapped). */
int fw_aperture_install_handler(void);
/* Number of bus errors absorbed by this thread so far. */
unsigned long fw_aperture_thread_bus_errors(void);

#endif /* VGPU_FW_APERTURE_H */
