// SPDX-License-Identifier: GPL-2.0
/*
 * export_integrity.c - the value NVIDIA's runtime checks before it trusts
 * a driver (export table d4082055..., slot 1).
 *
 * The runtime calls check(version, seconds, &result) three times at
 * start-up, with version 13000, 13001 and 13002 and the current Unix time,
 * and compares each 16-byte result with one it computes itself.  What the
 * value is (established from a public description of these tables, ZLUDA's
 * dark_api, and verified bit for bit against NVIDIA's driver 580.159.04 on
 * an H100: tools/cuda-probe/probe_integrity.c, recorded in
 * tools/cuda-probe/golden/probe_integrity.h100.txt):
 *
 *   version % 10 == 0, == 1   two fixed values (below)
 *   otherwise                 HMAC-MD2(key, inputs || device 0 || ...)
 *
 *        key (16 bytes, fixed)            inputs: 48 bytes
 *             │                 ┌──────────────────────────────────────┐
 *   MD2( key ^ 0x36 (16) ‖ driver_version version pid thread           │
 *                          cudart_table integrity_table check_fn secs  │
 *                          { uuid pci_domain pci_bus pci_device } x N )┘
 *             │ inner digest (16)
 *   MD2( key ^ 0x5c (16) ‖ inner ) ──> result
 *
 * MD2's block is 16 bytes, so the key fills exactly one block and the
 * HMAC pads are the key XORed with 0x36 and 0x5c (RFC 2104).  The table
 * and function addresses are among the inputs, which is why a driver that
 * hands out a copy of its tables, or wraps their entries, is refused: the
 * runtime hashes the addresses it was given, the driver the ones it has.
 */
#include <string.h>

#include "export_integrity.h"

/* RFC 1319's substitution table: a permutation of 0..255 from pi's digits. */
static const uint8_t md2_s[256] = {
	0x29, 0x2e, 0x43, 0xc9, 0xa2, 0xd8, 0x7c, 0x01, 0x3d, 0x36, 0x54, 0xa1,
	0xec, 0xf0, 0x06, 0x13, 0x62, 0xa7, 0x05, 0xf3, 0xc0, 0xc7, 0x73, 0x8c,
	0x98, 0x93, 0x2b, 0xd9, 0xbc, 0x4c, 0x82, 0xca, 0x1e, 0x9b, 0x57, 0x3c,
	0xfd, 0xd4, 0xe0, 0x16, 0x67, 0x42, 0x6f, 0x18, 0x8a, 0x17, 0xe5, 0x12,
	0xbe, 0x4e, 0xc4, 0xd6, 0xda, 0x9e, 0xde, 0x49, 0xa0, 0xfb, 0xf5, 0x8e,
	0xbb, 0x2f, 0xee, 0x7a, 0xa9, 0x68, 0x79, 0x91, 0x15, 0xb2, 0x07, 0x3f,
	0x94, 0xc2, 0x10, 0x89, 0x0b, 0x22, 0x5f, 0x21, 0x80, 0x7f, 0x5d, 0x9a,
	0x5a, 0x90, 0x32, 0x27, 0x35, 0x3e, 0xcc, 0xe7, 0xbf, 0xf7, 0x97, 0x03,
	0xff, 0x19, 0x30, 0xb3, 0x48, 0xa5, 0xb5, 0xd1, 0xd7, 0x5e, 0x92, 0x2a,
	0xac, 0x56, 0xaa, 0xc6, 0x4f, 0xb8, 0x38, 0xd2, 0x96, 0xa4, 0x7d, 0xb6,
	0x76, 0xfc, 0x6b, 0xe2, 0x9c, 0x74, 0x04, 0xf1, 0x45, 0x9d, 0x70, 0x59,
	0x64, 0x71, 0x87, 0x20, 0x86, 0x5b, 0xcf, 0x65, 0xe6, 0x2d, 0xa8, 0x02,
	0x1b, 0x60, 0x25, 0xad, 0xae, 0xb0, 0xb9, 0xf6, 0x1c, 0x46, 0x61, 0x69,
	0x34, 0x40, 0x7e, 0x0f, 0x55, 0x47, 0xa3, 0x23, 0xdd, 0x51, 0xaf, 0x3a,
	0xc3, 0x5c, 0xf9, 0xce, 0xba, 0xc5, 0xea, 0x26, 0x2c, 0x53, 0x0d, 0x6e,
	0x85, 0x28, 0x84, 0x09, 0xd3, 0xdf, 0xcd, 0xf4, 0x41, 0x81, 0x4d, 0x52,
	0x6a, 0xdc, 0x37, 0xc8, 0x6c, 0xc1, 0xab, 0xfa, 0x24, 0xe1, 0x7b, 0x08,
	0x0c, 0xbd, 0xb1, 0x4a, 0x78, 0x88, 0x95, 0x8b, 0xe3, 0x63, 0xe8, 0x6d,
	0xe9, 0xcb, 0xd5, 0xfe, 0x3b, 0x00, 0x1d, 0x39, 0xf2, 0xef, 0xb7, 0x0e,
	0x66, 0x58, 0xd0, 0xe4, 0xa6, 0x77, 0x72, 0xf8, 0xeb, 0x75, 0x4b, 0x0a,
	0x31, 0x44, 0x50, 0xb4, 0x8f, 0xed, 0x1f, 0x1a, 0xdb, 0x99, 0x8d, 0x33,
	0x9f, 0x11, 0x83, 0x14,
};

/*
 * The HMAC key.  NVIDIA's driver derives it in a first pass that reads no
 * input, so it is a constant; these are its bytes.
 */
static const uint8_t integrity_key[16] = {
	0x14, 0x6a, 0xdd, 0xae, 0x53, 0xa9, 0xa7, 0x52,
	0xaa, 0x08, 0x41, 0x36, 0x0b, 0xf5, 0x5a, 0x9f,
};

/* The answers to versions ending in 0 and in 1: no hash at all. */
static const uint64_t integrity_fixed[2][2] = {
	{ 0x3341181c03cb675cull, 0x8ed383aa1f4cd1e8ull },
	{ 0x1841181c03cb675cull, 0x8ed383aa1f4cd1e8ull },
};

void cu_md2_init(struct cu_md2 *m)
{
	memset(m, 0, sizeof(*m));
}

/* RFC 1319 3.4: 18 rounds over the 48-byte state once a block is full. */
static void md2_compress(struct cu_md2 *m)
{
	uint8_t t = 0;

	for (unsigned int round = 0; round < 18; round++) {
		for (unsigned int k = 0; k < 48; k++)
			t = m->x[k] ^= md2_s[t];
		t = (uint8_t)(t + round);
	}
}

static void md2_byte(struct cu_md2 *m, uint8_t b)
{
	unsigned int j = m->used;

	m->x[16 + j] = b;
	m->x[32 + j] = m->x[j] ^ b;
	/* RFC 1319 3.2 (with its erratum: the checksum byte is XORed). */
	m->checksum[j] ^= md2_s[b ^ m->last];
	m->last = m->checksum[j];
	if (++m->used < 16)
		return;
	m->used = 0;
	md2_compress(m);
}

void cu_md2_update(struct cu_md2 *m, const void *data, size_t len,
		   uint8_t mask)
{
	const uint8_t *p = data;

	for (size_t i = 0; i < len; i++)
		md2_byte(m, p[i] ^ mask);
}

void cu_md2_final(struct cu_md2 *m, uint8_t digest[16])
{
	uint8_t pad = (uint8_t)(16 - m->used);	/* 1..16 bytes of value pad */
	uint8_t checksum[16];

	for (unsigned int i = 0; i < pad; i++)
		md2_byte(m, pad);
	memcpy(checksum, m->checksum, sizeof(checksum));
	cu_md2_update(m, checksum, sizeof(checksum), 0);
	memcpy(digest, m->x, 16);
}

void cu_integrity_answer(const struct cu_integrity_inputs *in,
			 const struct cu_integrity_device *devs,
			 unsigned int ndev, uint64_t out[2])
{
	uint8_t inner[16], outer[16];
	struct cu_md2 m;

	_Static_assert(sizeof(struct cu_integrity_inputs) == 48,
		       "the check hashes 48 bytes of inputs");
	_Static_assert(sizeof(struct cu_integrity_device) == 28,
		       "the check hashes 28 bytes a device");
	if (in->version % 10 <= 1) {
		out[0] = integrity_fixed[in->version % 10][0];
		out[1] = integrity_fixed[in->version % 10][1];
		return;
	}
	cu_md2_init(&m);
	cu_md2_update(&m, integrity_key, sizeof(integrity_key), 0x36);
	cu_md2_update(&m, in, sizeof(*in), 0);
	for (unsigned int i = 0; i < ndev; i++)
		cu_md2_update(&m, &devs[i], sizeof(devs[i]), 0);
	cu_md2_final(&m, inner);

	cu_md2_init(&m);
	cu_md2_update(&m, integrity_key, sizeof(integrity_key), 0x5c);
	cu_md2_update(&m, inner, sizeof(inner), 0);
	cu_md2_final(&m, outer);
	memcpy(out, outer, sizeof(outer));
}
