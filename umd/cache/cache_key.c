// SPDX-License-Identifier: GPL-2.0
/*
 * Cache keys: SHA-256 over length-prefixed fields.
 *
 * Every input that can change the compiled image is part of the key, so a
 * hit is always the image a fresh compile would produce: the PTX text of
 * every module (in link order), the options, the compiler and vISA
 * versions (a new compiler invalidates the cache, as a new NVIDIA driver
 * does), and the device.
 */
#include <string.h>

#include "compute_cache.h"

void vgpu_cache_key_begin(struct vgpu_cache_key_builder *b)
{
	sha256_init(&b->sha);
}

void vgpu_cache_key_add_u64(struct vgpu_cache_key_builder *b, uint64_t v)
{
	uint8_t le[8];

	for (int i = 0; i < 8; i++)
		le[i] = (uint8_t)(v >> (8 * i));
	sha256_update(&b->sha, le, sizeof(le));
}

void vgpu_cache_key_add(struct vgpu_cache_key_builder *b, const void *data,
			size_t len)
{
	vgpu_cache_key_add_u64(b, len);
	if (len)
		sha256_update(&b->sha, data, len);
}

void vgpu_cache_key_add_str(struct vgpu_cache_key_builder *b, const char *s)
{
	vgpu_cache_key_add(b, s ? s : "", s ? strlen(s) : 0);
}

void vgpu_cache_key_end(struct vgpu_cache_key_builder *b,
			struct vgpu_cache_key *key)
{
	sha256_final(&b->sha, key->digest);
}

void vgpu_cache_key_for_compile(const struct vgpu_cache_compile_inputs *in,
				struct vgpu_cache_key *key)
{
	struct vgpu_cache_key_builder b;

	vgpu_cache_key_begin(&b);
	vgpu_cache_key_add_str(&b, "vgpu compute cache key v1");
	vgpu_cache_key_add_u64(&b, in->ptx_count);
	for (size_t i = 0; i < in->ptx_count; i++)
		vgpu_cache_key_add(&b, in->ptx[i], in->ptx_len[i]);
	vgpu_cache_key_add_str(&b, in->options);
	vgpu_cache_key_add_str(&b, in->compiler_version);
	vgpu_cache_key_add_u64(&b, in->sm_arch);
	vgpu_cache_key_add_str(&b, in->device_name);
	vgpu_cache_key_end(&b, key);
}

void vgpu_cache_key_hex(const struct vgpu_cache_key *key, char hex[65])
{
	static const char digits[] = "0123456789abcdef";

	for (int i = 0; i < SHA256_DIGEST_SIZE; i++) {
		hex[2 * i] = digits[key->digest[i] >> 4];
		hex[2 * i + 1] = digits[key->digest[i] & 15];
	}
	hex[64] = '\0';
}
