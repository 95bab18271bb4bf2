// SPDX-License-Identifier: GPL-2.0
/*
 * native_export_integrity.c - vGPU's answer to the runtime's integrity
 * check (umd/cuda/export_integrity.c) against NVIDIA's driver.
 *
 * tools/cuda-probe/probe_integrity.c called the check of NVIDIA's driver
 * (580.159.04, H100) 360 times from three threads and recorded every
 * answer together with the inputs the check hashes (process and thread,
 * table addresses, the device's UUID and PCI location).  This test
 * recomputes each answer from those inputs and compares, and checks the
 * MD2 underneath against RFC 1319's own test vectors.  Runs on the host.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/export_integrity.h"

static int test_no;
static int failed;

static void ok(int cond, const char *what)
{
	printf("%sok %d - %s\n", cond ? "" : "not ", ++test_no, what);
	if (!cond)
		failed = 1;
}

static void hex16(const uint8_t d[16], char out[33])
{
	for (int i = 0; i < 16; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

/* RFC 1319, appendix A.5. */
static void test_md2_vectors(void)
{
	static const struct {
		const char *msg, *digest;
	} v[] = {
		{ "", "8350e5a3e24c153df2275c9f80692773" },
		{ "a", "32ec01ec4a6dac72c0ab96fb34c0b5d1" },
		{ "abc", "da853b0d3f88d99b30283a69e6ded6bb" },
		{ "message digest", "ab4f496bfb2a530b219ff33031fe06b0" },
		{ "abcdefghijklmnopqrstuvwxyz",
		  "4e8ddff3650292ab5a4108c3aa47940b" },
	};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct cu_md2 m;
		uint8_t d[16];
		char hex[33], what[96];

		cu_md2_init(&m);
		cu_md2_update(&m, v[i].msg, strlen(v[i].msg), 0);
		cu_md2_final(&m, d);
		hex16(d, hex);
		snprintf(what, sizeof(what), "MD2(\"%s\") = %s", v[i].msg,
			 v[i].digest);
		ok(!strcmp(hex, v[i].digest), what);
	}
}

struct recording {
	struct cu_integrity_inputs in;	/* the fields common to all calls */
	struct cu_integrity_device dev[8];
	unsigned int ndev;
	int have;			/* bit per header line found */
};

static int parse_uuid(const char *s, uint8_t out[16])
{
	for (int i = 0; i < 16; i++) {
		unsigned int b;

		if (sscanf(s + 2 * i, "%2x", &b) != 1)
			return -1;
		out[i] = (uint8_t)b;
	}
	return 0;
}

/* Header lines: the driver's version, the devices, the tables. */
static void parse_header(const char *line, struct recording *r)
{
	unsigned int u, d;
	uint64_t addr;
	char uuid[40];
	int dom, bus, dev;

	if (sscanf(line, "driver_version %u", &u) == 1) {
		r->in.driver_version = u;
		r->have |= 1;
	} else if (sscanf(line, "device %u name=%*[^=]=%32s pci_domain=%d "
			  "pci_bus=%d pci_device=%d", &d, uuid, &dom, &bus,
			  &dev) == 5 && d == r->ndev && d < 8 &&
		   !parse_uuid(uuid, r->dev[d].uuid)) {
		r->dev[d].pci_domain = dom;
		r->dev[d].pci_bus = bus;
		r->dev[d].pci_device = dev;
		r->ndev++;
		r->have |= 2;
	} else if (sscanf(line, "cudart_table rc=0 %" SCNx64, &addr) == 1) {
		r->in.cudart_table = addr;
		r->have |= 4;
	} else if (sscanf(line, "integrity_table rc=0 %" SCNx64, &addr) == 1) {
		r->in.integrity_table = addr;
		r->have |= 8;
	} else if (sscanf(line, "table integrity word 1 = %" SCNx64,
			  &addr) == 1) {
		r->in.check_fn = addr;
		r->have |= 16;
	}
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : GOLDEN_PATH;
	struct recording r = { 0 };
	int calls = 0, equal = 0, hashed = 0, tampered_differ = 1;
	char line[512];
	FILE *f = fopen(path, "r");

	if (!f) {
		printf("Bail out! cannot open %s\n", path);
		return 1;
	}
	printf("1..8\n");
	test_md2_vectors();

	while (fgets(line, sizeof(line), f)) {
		struct cu_integrity_inputs in;
		uint64_t want[2], got[2];
		unsigned int pid, tid, version;
		uint64_t seconds;
		int rc;

		if (strncmp(line, "call ", 5)) {
			parse_header(line, &r);
			continue;
		}
		if (sscanf(line, "call %*s pid=%u tid=%x version=%u seconds=%"
			   SCNx64 " rc=%d result=%" SCNx64 " %" SCNx64, &pid,
			   &tid, &version, &seconds, &rc, &want[0],
			   &want[1]) != 7 || rc != 0 || r.have != 31) {
			printf("# unreadable or out of order: %s", line);
			failed = 1;
			continue;
		}
		in = r.in;
		in.version = version;
		in.pid = pid;
		in.thread = tid;
		in.seconds = seconds;
		cu_integrity_answer(&in, r.dev, r.ndev, got);
		calls++;
		hashed += version % 10 > 1;
		if (got[0] == want[0] && got[1] == want[1])
			equal++;
		else
			printf("# version %u seconds %#" PRIx64 ": want %016"
			       PRIx64 " %016" PRIx64 ", got %016" PRIx64
			       " %016" PRIx64 "\n", version, seconds, want[0],
			       want[1], got[0], got[1]);
		/*
		 * Every input matters: the same call with another thread or
		 * another table address gives another answer (this is what
		 * refuses a driver that copies or wraps the tables).
		 */
		if (version % 10 > 1) {
			in.thread ^= 1;
			cu_integrity_answer(&in, r.dev, r.ndev, got);
			tampered_differ &= got[0] != want[0] || got[1] != want[1];
			in.thread ^= 1;
			in.integrity_table += 8;
			cu_integrity_answer(&in, r.dev, r.ndev, got);
			tampered_differ &= got[0] != want[0] || got[1] != want[1];
		}
	}
	fclose(f);
	printf("# %d recorded calls, %d hashed, %d equal\n", calls, hashed,
	       equal);
	ok(calls >= 300 && hashed >= 200 && equal == calls,
	   "every answer of NVIDIA's driver recomputed bit for bit");
	ok(hashed > 0 && tampered_differ,
	   "another thread or table address changes every hashed answer");
	ok(r.ndev == 1, "the recording holds one device");
	return failed;
}
