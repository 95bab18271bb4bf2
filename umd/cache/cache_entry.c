// SPDX-License-Identifier: GPL-2.0
/* Encoding and verifying cache entry files (layout in cache_entry.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache_entry.h"

static const uint8_t entry_magic[8] = { 'v', 'G', 'P', 'U', 'c', 'c', '\r', '\n' };
#define ENTRY_VERSION	1

static void put_le(uint8_t *p, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, int bytes)
{
	uint64_t v = 0;

	for (int i = bytes - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* write() all of it, retrying short writes and signals. */
static int write_all(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* pread() exactly @len bytes; -EBADMSG if the file is shorter. */
static int read_all(int fd, void *buf, size_t len, off_t off)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n = pread(fd, p, len, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EBADMSG;
		p += n;
		off += n;
		len -= (size_t)n;
	}
	return 0;
}

int cache_entry_write(int fd, const struct vgpu_cache_key *key,
		      const void *blob, size_t size)
{
	uint8_t hdr[CACHE_ENTRY_HDR_SIZE];
	int ret;

	memcpy(hdr, entry_magic, sizeof(entry_magic));
	put_le(hdr + 8, ENTRY_VERSION, 4);
	put_le(hdr + 12, CACHE_ENTRY_HDR_SIZE, 4);
	put_le(hdr + 16, size, 8);
	memcpy(hdr + 24, key->digest, SHA256_DIGEST_SIZE);
	sha256(blob, size, hdr + 56);

	ret = write_all(fd, hdr, sizeof(hdr));
	if (!ret && size)
		ret = write_all(fd, blob, size);
	return ret;
}

int cache_entry_read(int fd, const struct vgpu_cache_key *key,
		     uint64_t max_size, void **blob, size_t *size)
{
	uint8_t hdr[CACHE_ENTRY_HDR_SIZE], digest[SHA256_DIGEST_SIZE];
	uint64_t image_size;
	struct stat st;
	void *image;
	int ret;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode) || st.st_size < CACHE_ENTRY_HDR_SIZE)
		return -EBADMSG;
	ret = read_all(fd, hdr, sizeof(hdr), 0);
	if (ret)
		return ret;
	if (memcmp(hdr, entry_magic, sizeof(entry_magic)) ||
	    get_le(hdr + 8, 4) != ENTRY_VERSION ||
	    get_le(hdr + 12, 4) != CACHE_ENTRY_HDR_SIZE ||
	    memcmp(hdr + 24, key->digest, SHA256_DIGEST_SIZE))
		return -EBADMSG;

	/* the size must match the file exactly: catches truncation early */
	image_size = get_le(hdr + 16, 8);
	if (image_size > max_size ||
	    image_size != (uint64_t)st.st_size - CACHE_ENTRY_HDR_SIZE)
		return -EBADMSG;

	image = malloc(image_size ? image_size : 1);
	if (!image)
		return -ENOMEM;
	ret = read_all(fd, image, image_size, CACHE_ENTRY_HDR_SIZE);
	if (!ret) {
		sha256(image, image_size, digest);
		if (memcmp(digest, hdr + 56, sizeof(digest)))
			ret = -EBADMSG;
	}
	if (ret) {
		free(image);
		return ret;
	}
	*blob = image;
	*size = image_size;
	return 0;
}
