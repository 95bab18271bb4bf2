/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The byte layout of NVIDIA fatbinaries as nvcc 13 writes them.
 *
 * Private to umd/fatbin: callers use fatbin.h.  Everything here was
 * verified by compiling programs with nvcc 13.0 and decoding the bytes
 * (see Documentation/fatbinary.rst).  All fields are little-endian and
 * may sit at any alignment when we are handed a buffer from a file, so
 * they are read with the fb_le*() helpers below, never by casting.
 */
#ifndef VGPU_FATBIN_FORMAT_H
#define VGPU_FATBIN_FORMAT_H

#include <stdint.h>
#include <string.h>

/* The 24-byte wrapper in .nvFatBinSegment, passed to __cudaRegisterFatBinary. */
#define FB_WRAPPER_MAGIC	0x466243B1u
#define FB_WRAPPER_SIZE		24
#define FB_WRAPPER_OFF_MAGIC	0x00	/* u32 */
#define FB_WRAPPER_OFF_VERSION	0x04	/* u32: 1, or 2 for device-linked code */
#define FB_WRAPPER_OFF_DATA	0x08	/* u64: pointer to the container */
#define FB_WRAPPER_OFF_PRELINK	0x10	/* u64: v2: NULL-terminated void *[] */

/* Container header: a standalone .fatbin file starts with one. */
#define FB_CONTAINER_MAGIC	0xBA55ED50u
#define FB_CONTAINER_VERSION	1
#define FB_CONTAINER_HDR_SIZE	16
#define FB_CONTAINER_OFF_MAGIC	0x00	/* u32 */
#define FB_CONTAINER_OFF_VERSION 0x04	/* u16 */
#define FB_CONTAINER_OFF_HDRSIZE 0x06	/* u16 */
#define FB_CONTAINER_OFF_SIZE	0x08	/* u64: bytes after the header */

/*
 * Entry header.  Its size is variable (64 for a cubin, 80 for PTX, more
 * with -G or -lineinfo, which append an options string), but the fixed
 * part below is always present.
 */
#define FB_ENTRY_MIN_HDR_SIZE	64
#define FB_ENTRY_OFF_KIND	0x00	/* u16: enum vgpu_fatbin_kind */
#define FB_ENTRY_OFF_VERSION	0x02	/* u16: 0x0101 */
#define FB_ENTRY_OFF_HDRSIZE	0x04	/* u32: payload starts here */
#define FB_ENTRY_OFF_PAYLOAD	0x08	/* u64: stored payload size, padded */
#define FB_ENTRY_OFF_CSIZE	0x10	/* u32: compressed size, 0 if none */
#define FB_ENTRY_OFF_OPTIONS	0x14	/* u32: offset of {u32 off, u32 len} */
#define FB_ENTRY_OFF_MINOR	0x18	/* u16: PTX ISA minor */
#define FB_ENTRY_OFF_MAJOR	0x1A	/* u16: PTX ISA major */
#define FB_ENTRY_OFF_ARCH	0x1C	/* u32: SM architecture, e.g. 75 */
#define FB_ENTRY_OFF_FLAGS	0x28	/* u64: FB_FLAG_* */
#define FB_ENTRY_OFF_USIZE	0x38	/* u64: uncompressed size, 0 if none */

#define FB_FLAG_LZ4		0x2000ull
#define FB_FLAG_ZSTD		0x8000ull
#define FB_FLAG_ARCH_SPECIFIC	0x100000ull	/* compute_90a: one arch only */
#define FB_FLAG_FAMILY_SPECIFIC	0x200000ull	/* compute_100f: one family */

static inline uint16_t fb_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t fb_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 |
	       (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t fb_le64(const uint8_t *p)
{
	return (uint64_t)fb_le32(p) | (uint64_t)fb_le32(p + 4) << 32;
}

/* The wrapper holds native pointers; it is only ever read in-process. */
static inline const void *fb_read_ptr(const uint8_t *p)
{
	const void *v;

	memcpy(&v, p, sizeof(v));
	return v;
}

#endif /* VGPU_FATBIN_FORMAT_H */
