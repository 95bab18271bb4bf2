// SPDX-License-Identifier: GPL-2.0
/*
 * Walking the containers and entries of a fatbinary buffer.
 *
 * The input is untrusted: a file from disk, or memory whose only length
 * information is inside itself.  Every offset is checked against the end
 * of the enclosing structure *before* anything at it is read, using
 * subtractions that cannot overflow ("is size X available after offset
 * O?" is written "X <= end - O" with O <= end known).
 */
#include "fatbin.h"
#include "fatbin_format.h"

/* Bytes available from @off to @end, where @off <= @end is known. */
static inline size_t room(size_t off, size_t end)
{
	return end - off;
}

static int iter_fail(struct vgpu_fatbin_iter *it, int error)
{
	it->error = error;
	return error;
}

/* Validate the container header at @off and make it current. */
static int open_container(struct vgpu_fatbin_iter *it, size_t off)
{
	const uint8_t *h = it->base + off;
	uint16_t hdr_size;
	uint64_t body;

	it->next = off;
	if (room(off, it->size) < FB_CONTAINER_HDR_SIZE)
		return iter_fail(it, VGPU_FATBIN_ETRUNCATED);
	if (fb_le32(h + FB_CONTAINER_OFF_MAGIC) != FB_CONTAINER_MAGIC)
		return iter_fail(it, VGPU_FATBIN_EMAGIC);
	if (fb_le16(h + FB_CONTAINER_OFF_VERSION) != FB_CONTAINER_VERSION)
		return iter_fail(it, VGPU_FATBIN_EVERSION);
	hdr_size = fb_le16(h + FB_CONTAINER_OFF_HDRSIZE);
	if (hdr_size < FB_CONTAINER_HDR_SIZE)
		return iter_fail(it, VGPU_FATBIN_EHEADER);
	if (hdr_size > room(off, it->size))
		return iter_fail(it, VGPU_FATBIN_ETRUNCATED);
	body = fb_le64(h + FB_CONTAINER_OFF_SIZE);
	if (body > VGPU_FATBIN_MAX_SIZE)
		return iter_fail(it, VGPU_FATBIN_ETOOBIG);
	if (body > room(off + hdr_size, it->size))
		return iter_fail(it, VGPU_FATBIN_ETRUNCATED);

	it->container_start = off;
	it->container_end = off + hdr_size + (size_t)body;
	it->next = off + hdr_size;
	it->index = 0;
	return VGPU_FATBIN_OK;
}

int vgpu_fatbin_iter_init(struct vgpu_fatbin_iter *it, const void *data,
			  size_t size)
{
	if (!it)
		return VGPU_FATBIN_EINVAL;
	*it = (struct vgpu_fatbin_iter){ .base = data, .size = size };
	if (!data)
		return iter_fail(it, VGPU_FATBIN_EINVAL);
	return open_container(it, 0);
}

size_t vgpu_fatbin_iter_offset(const struct vgpu_fatbin_iter *it)
{
	return it ? it->next : 0;
}

/*
 * Move to the container after the current one.  Linkers pad sections
 * with zeros between the fatbins of different translation units, so
 * zero bytes are skipped; anything else must be a container header.
 */
static int next_container(struct vgpu_fatbin_iter *it)
{
	size_t off = it->container_end;

	while (off < it->size && it->base[off] == 0)
		off++;
	if (off == it->size) {
		it->next = off;
		return VGPU_FATBIN_END;
	}
	it->container++;
	return open_container(it, off);
}

static int decode_compression(uint64_t flags, uint32_t csize,
			      enum vgpu_fatbin_compression *out)
{
	int zstd = !!(flags & FB_FLAG_ZSTD);
	int lz4 = !!(flags & FB_FLAG_LZ4);

	if (zstd && lz4)
		return VGPU_FATBIN_ECOMPRESSION;
	if (!zstd && !lz4) {
		/* a compressed size without a method makes no sense */
		if (csize)
			return VGPU_FATBIN_ECOMPRESSION;
		*out = VGPU_FATBIN_COMPRESS_NONE;
		return VGPU_FATBIN_OK;
	}
	*out = zstd ? VGPU_FATBIN_COMPRESS_ZSTD : VGPU_FATBIN_COMPRESS_LZ4;
	return VGPU_FATBIN_OK;
}

/* The options string lives inside the entry header, after the fixed part. */
static int decode_options(const uint8_t *h, uint32_t hdr_size,
			  struct vgpu_fatbin_entry *e)
{
	uint32_t desc = fb_le32(h + FB_ENTRY_OFF_OPTIONS);
	uint32_t off, len;

	e->options = "";
	e->options_len = 0;
	if (!desc)
		return VGPU_FATBIN_OK;
	if (desc < FB_ENTRY_MIN_HDR_SIZE || desc > hdr_size ||
	    hdr_size - desc < 8)
		return VGPU_FATBIN_EHEADER;
	off = fb_le32(h + desc);
	len = fb_le32(h + desc + 4);
	if (off > hdr_size || len > hdr_size - off)
		return VGPU_FATBIN_EHEADER;
	e->options = (const char *)h + off;
	e->options_len = len;
	return VGPU_FATBIN_OK;
}

static int decode_entry(struct vgpu_fatbin_iter *it,
			struct vgpu_fatbin_entry *e)
{
	size_t off = it->next, end = it->container_end;
	const uint8_t *h = it->base + off;
	uint32_t hdr_size, csize;
	uint64_t stored, usize;
	uint16_t kind;
	int ret;

	if (room(off, end) < FB_ENTRY_MIN_HDR_SIZE)
		return VGPU_FATBIN_ETRUNCATED;
	hdr_size = fb_le32(h + FB_ENTRY_OFF_HDRSIZE);
	if (hdr_size < FB_ENTRY_MIN_HDR_SIZE)
		return VGPU_FATBIN_EHEADER;
	if (hdr_size > room(off, end))
		return VGPU_FATBIN_ETRUNCATED;
	stored = fb_le64(h + FB_ENTRY_OFF_PAYLOAD);
	if (stored > room(off + hdr_size, end))
		return VGPU_FATBIN_ETRUNCATED;

	/* Unknown kinds (e.g. 8, LTO IR) are listed, just never chosen. */
	kind = fb_le16(h + FB_ENTRY_OFF_KIND);
	if (!kind)
		return VGPU_FATBIN_EHEADER;

	*e = (struct vgpu_fatbin_entry){
		.kind = (enum vgpu_fatbin_kind)kind,
		.sm_arch = fb_le32(h + FB_ENTRY_OFF_ARCH),
		.isa_major = fb_le16(h + FB_ENTRY_OFF_MAJOR),
		.isa_minor = fb_le16(h + FB_ENTRY_OFF_MINOR),
		.flags = fb_le64(h + FB_ENTRY_OFF_FLAGS),
		.payload = h + hdr_size,
		.offset = off,
		.container = it->container,
		.index = it->index,
	};
	if (e->flags & FB_FLAG_ARCH_SPECIFIC)
		e->scope = VGPU_FATBIN_SCOPE_EXACT;
	else if (e->flags & FB_FLAG_FAMILY_SPECIFIC)
		e->scope = VGPU_FATBIN_SCOPE_FAMILY;

	csize = fb_le32(h + FB_ENTRY_OFF_CSIZE);
	usize = fb_le64(h + FB_ENTRY_OFF_USIZE);
	ret = decode_compression(e->flags, csize, &e->compression);
	if (ret)
		return ret;
	if (e->compression == VGPU_FATBIN_COMPRESS_NONE) {
		e->stored_size = stored;
		e->size = stored;
	} else {
		if (!csize || csize > stored || !usize)
			return VGPU_FATBIN_EHEADER;
		if (usize > VGPU_FATBIN_MAX_SIZE)
			return VGPU_FATBIN_ETOOBIG;
		e->stored_size = csize;
		e->size = usize;
	}

	ret = decode_options(h, hdr_size, e);
	if (ret)
		return ret;

	it->next = off + hdr_size + (size_t)stored;
	it->index++;
	return VGPU_FATBIN_OK;
}

int vgpu_fatbin_iter_next(struct vgpu_fatbin_iter *it,
			  struct vgpu_fatbin_entry *entry)
{
	int ret;

	if (!it || !entry)
		return VGPU_FATBIN_EINVAL;
	if (it->error)
		return it->error;
	if (!it->base)
		return VGPU_FATBIN_EINVAL;

	/* An empty container is legal; so is a run of them. */
	while (it->next == it->container_end) {
		ret = next_container(it);
		if (ret)
			return ret;
	}
	ret = decode_entry(it, entry);
	if (ret)
		return iter_fail(it, ret);
	return VGPU_FATBIN_OK;
}

int vgpu_fatbin_container_size(const void *data, size_t max, size_t *size)
{
	const uint8_t *h = data;
	uint16_t hdr_size;
	uint64_t body;

	if (!data || !size)
		return VGPU_FATBIN_EINVAL;
	if (max < FB_CONTAINER_HDR_SIZE)
		return VGPU_FATBIN_ETRUNCATED;
	if (fb_le32(h + FB_CONTAINER_OFF_MAGIC) != FB_CONTAINER_MAGIC)
		return VGPU_FATBIN_EMAGIC;
	if (fb_le16(h + FB_CONTAINER_OFF_VERSION) != FB_CONTAINER_VERSION)
		return VGPU_FATBIN_EVERSION;
	hdr_size = fb_le16(h + FB_CONTAINER_OFF_HDRSIZE);
	if (hdr_size < FB_CONTAINER_HDR_SIZE)
		return VGPU_FATBIN_EHEADER;
	body = fb_le64(h + FB_CONTAINER_OFF_SIZE);
	if (max > VGPU_FATBIN_MAX_SIZE)
		max = VGPU_FATBIN_MAX_SIZE;
	if (hdr_size > max || body > max - hdr_size)
		return max == VGPU_FATBIN_MAX_SIZE ? VGPU_FATBIN_ETOOBIG :
						     VGPU_FATBIN_ETRUNCATED;
	*size = hdr_size + (size_t)body;
	return VGPU_FATBIN_OK;
}

int vgpu_fatbin_is_container(const void *data, size_t size)
{
	return data && size >= FB_CONTAINER_HDR_SIZE &&
	       fb_le32(data) == FB_CONTAINER_MAGIC;
}

int vgpu_fatbin_is_wrapper(const void *data, size_t size)
{
	return data && size >= FB_WRAPPER_SIZE &&
	       fb_le32(data) == FB_WRAPPER_MAGIC;
}
