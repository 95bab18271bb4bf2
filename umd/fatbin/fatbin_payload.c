// SPDX-License-Identifier: GPL-2.0
/*
 * Getting an entry's bytes out: copy or decompress.
 *
 * nvcc 13 compresses PTX with zstd by default (--compress-mode=default,
 * balance or size), with LZ4 for --compress-mode=speed, and not at all
 * for --no-compress / --compress-mode=none.  A zstd payload is one
 * standard frame of exactly the "compressed size" bytes; an LZ4 payload
 * is a raw block, not a frame, so only the header tells its output size.
 * The output size is checked before anything is allocated, so a lying
 * header costs an error, not a gigabyte.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <lz4.h>
#include <zstd.h>

#include "fatbin.h"

/* LZ4's format cannot expand one input byte into more than 255 output. */
#define LZ4_MAX_RATIO	255

static int inflate_zstd(const struct vgpu_fatbin_entry *e, char *dst)
{
	size_t got;

	got = ZSTD_decompress(dst, e->size, e->payload, e->stored_size);
	if (ZSTD_isError(got) || got != e->size)
		return VGPU_FATBIN_EDECOMPRESS;
	return VGPU_FATBIN_OK;
}

static int inflate_lz4(const struct vgpu_fatbin_entry *e, char *dst)
{
	int got;

	got = LZ4_decompress_safe((const char *)e->payload, dst,
				  (int)e->stored_size, (int)e->size);
	if (got < 0 || (uint64_t)got != e->size)
		return VGPU_FATBIN_EDECOMPRESS;
	return VGPU_FATBIN_OK;
}

/* Reject a declared output size that the payload cannot produce. */
static int check_output_size(const struct vgpu_fatbin_entry *e)
{
	unsigned long long frame_size;

	switch (e->compression) {
	case VGPU_FATBIN_COMPRESS_NONE:
		return VGPU_FATBIN_OK;
	case VGPU_FATBIN_COMPRESS_ZSTD:
		/*
		 * nvcc writes the content size into the frame header; a frame
		 * without it, or one disagreeing with the entry header, is
		 * refused rather than trusted with an allocation.
		 */
		frame_size = ZSTD_getFrameContentSize(e->payload,
						      e->stored_size);
		if (frame_size == ZSTD_CONTENTSIZE_ERROR ||
		    frame_size == ZSTD_CONTENTSIZE_UNKNOWN ||
		    frame_size != e->size)
			return VGPU_FATBIN_EDECOMPRESS;
		return VGPU_FATBIN_OK;
	case VGPU_FATBIN_COMPRESS_LZ4:
		if (e->stored_size > INT_MAX || e->size > INT_MAX ||
		    e->size / LZ4_MAX_RATIO > e->stored_size)
			return VGPU_FATBIN_EDECOMPRESS;
		return VGPU_FATBIN_OK;
	}
	return VGPU_FATBIN_ECOMPRESSION;
}

int vgpu_fatbin_entry_extract(const struct vgpu_fatbin_entry *e,
			      char **out, size_t *out_size)
{
	size_t size;
	char *buf;
	int ret;

	if (!e || !out || !out_size || (!e->payload && e->stored_size))
		return VGPU_FATBIN_EINVAL;
	*out = NULL;
	*out_size = 0;
	if (e->size > VGPU_FATBIN_MAX_SIZE)
		return VGPU_FATBIN_ETOOBIG;
	ret = check_output_size(e);
	if (ret)
		return ret;

	size = (size_t)e->size;
	buf = malloc(size + 1);	/* + 1: room for the PTX terminator */
	if (!buf)
		return VGPU_FATBIN_ENOMEM;

	switch (e->compression) {
	case VGPU_FATBIN_COMPRESS_NONE:
		if (size)
			memcpy(buf, e->payload, size);
		break;
	case VGPU_FATBIN_COMPRESS_ZSTD:
		ret = inflate_zstd(e, buf);
		break;
	case VGPU_FATBIN_COMPRESS_LZ4:
		ret = inflate_lz4(e, buf);
		break;
	}
	if (ret) {
		free(buf);
		return ret;
	}

	/* PTX is text padded with NULs to the 8-byte entry alignment. */
	if (e->kind == VGPU_FATBIN_KIND_PTX)
		size = strnlen(buf, size);
	buf[size] = '\0';
	*out = buf;
	*out_size = size;
	return VGPU_FATBIN_OK;
}
