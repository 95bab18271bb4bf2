/* SPDX-License-Identifier: GPL-2.0 */
/*
 * export_integrity.h - the answer of the export-table integrity check
 * (table d4082055..., slot 1; Documentation/export-tables.rst).
 *
 * NVIDIA's runtime asks the driver for a 16-byte value over facts both
 * sides know (the version asked, a time, the process and thread, where
 * the driver's tables are, the devices) and computes the same value
 * itself; a driver that answers differently is refused with
 * cudaErrorSoftwareValidityNotEstablished.  The value is HMAC-MD2 with a
 * fixed key.  Pure computation: no device, no driver state, so a native
 * test checks it against answers recorded from NVIDIA's driver.
 */
#ifndef VGPU_EXPORT_INTEGRITY_H
#define VGPU_EXPORT_INTEGRITY_H

#include <stddef.h>
#include <stdint.h>

/* MD2 (RFC 1319), incremental; each fed byte may be XORed with a mask. */
struct cu_md2 {
	uint8_t x[48];		/* state (16), block (16), state ^ block */
	uint8_t checksum[16];
	uint8_t used;		/* bytes of the current block */
	uint8_t last;		/* L of RFC 1319: the last checksum byte */
};

void cu_md2_init(struct cu_md2 *m);
void cu_md2_update(struct cu_md2 *m, const void *data, size_t len,
		   uint8_t mask);
void cu_md2_final(struct cu_md2 *m, uint8_t digest[16]);

/* One device as the check hashes it: 28 bytes, no padding. */
struct cu_integrity_device {
	uint8_t uuid[16];		/* cuDeviceGetUuid */
	int32_t pci_domain, pci_bus, pci_device;
};

/* The inputs, in the order and layout the check hashes them. */
struct cu_integrity_inputs {
	uint32_t driver_version;	/* cuDriverGetVersion: 13000 */
	uint32_t version;		/* asked by the runtime (13002...) */
	uint32_t pid;			/* getpid() */
	uint32_t thread;		/* pthread_self(), low 32 bits */
	uint64_t cudart_table;		/* address of table 6bd5fb6c... */
	uint64_t integrity_table;	/* address of table d4082055... */
	uint64_t check_fn;		/* address of the check itself */
	uint64_t seconds;		/* asked by the runtime: Unix time */
};

/*
 * The 16 bytes the driver answers, as two native words (the order the
 * driver writes them).  @devs[0..ndev) are the devices, in ordinal order.
 */
void cu_integrity_answer(const struct cu_integrity_inputs *in,
			 const struct cu_integrity_device *devs,
			 unsigned int ndev, uint64_t out[2]);

#endif
