/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SHA-256 (FIPS 180-4), used by the compute cache for keys and for the
 * integrity check of entries.  A cryptographic hash is used for keys so
 * that two different programs can never share a cache entry by accident;
 * the cost is negligible next to compiling PTX.
 */
#ifndef VGPU_SHA256_H
#define VGPU_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST_SIZE	32
#define SHA256_BLOCK_SIZE	64

struct sha256_ctx {
	uint32_t state[8];
	uint64_t length;		/* bytes hashed so far */
	uint8_t block[SHA256_BLOCK_SIZE];
	size_t used;			/* bytes waiting in block */
};

void sha256_init(struct sha256_ctx *ctx);
void sha256_update(struct sha256_ctx *ctx, const void *data, size_t len);
void sha256_final(struct sha256_ctx *ctx, uint8_t digest[SHA256_DIGEST_SIZE]);

/* One-shot convenience. */
void sha256(const void *data, size_t len, uint8_t digest[SHA256_DIGEST_SIZE]);

#endif /* VGPU_SHA256_H */
