// SPDX-License-Identifier: GPL-2.0
/*
 * probe_integrity: what NVIDIA's driver answers in the export tables that
 * its runtime asks for (Documentation/export-tables.rst), recorded so that
 * vGPU's implementation (umd/cuda/export_tables.c) can be checked against
 * the real driver.
 *
 * Most of all it calls slot 1 of table d4082055... (the integrity check)
 * with many (version, time) pairs from three threads, and prints every
 * value the check is believed to hash: the process and thread ids, the
 * driver's version, the addresses of the tables and of the slot, and each
 * device's UUID and PCI location.  tests/export_tables/ recomputes the
 * answers from these inputs.
 *
 * Build: gcc -o probe_integrity probe_integrity.c -I/usr/local/cuda/include
 *        -L/usr/local/cuda/lib64/stubs -lcuda -lpthread
 */
#include <cuda.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef CUresult (*integrity_fn)(uint32_t version, uint64_t seconds,
				 uint64_t result[2]);

static const CUuuid integrity_id = { {
	0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b,
	0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2 } };
static const CUuuid cudart_id = { {
	0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a,
	0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9 } };
static const CUuuid callback_id = { {
	0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74,
	0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66 } };
static const CUuuid cls_id = { {
	0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11,
	0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93 } };
static const CUuuid ctxcheck_id = { {
	0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43,
	0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa, 0x7e } };

static integrity_fn check;
static uint64_t now;

static const uint32_t versions[] = {
	13000, 13001, 13002, 13003, 13004, 13005, 13006, 13007, 13008, 13009,
	12000, 12002, 12080, 12090, 11080, 10002, 9, 0, 2, 0xfffffffe,
};

static void calls(const char *who)
{
	uint64_t seconds[] = { now, now + 1, 0, 1, 0xffffffffull,
			       0x123456789abcdef0ull };
	unsigned int tid = (unsigned int)(uintptr_t)pthread_self();

	for (size_t v = 0; v < sizeof(versions) / sizeof(versions[0]); v++)
		for (size_t s = 0; s < sizeof(seconds) / sizeof(seconds[0]);
		     s++) {
			uint64_t r[2] = { 0, 0 };
			CUresult rc = check(versions[v], seconds[s], r);

			printf("call %s pid=%u tid=%#x version=%u seconds=%#" PRIx64
			       " rc=%d result=%016" PRIx64 " %016" PRIx64 "\n",
			       who, (unsigned int)getpid(), tid, versions[v],
			       seconds[s], (int)rc, r[0], r[1]);
		}
}

static void *thread_main(void *name)
{
	calls(name);
	return NULL;
}

static void dump_table(const char *name, const void *t, int words)
{
	const uintptr_t *w = t;

	for (int i = 0; i < words; i++)
		printf("table %s word %d = %#" PRIxPTR "\n", name, i, w[i]);
}

int main(void)
{
	const void *itab = NULL, *rtab = NULL, *cbtab = NULL, *clstab = NULL,
		   *cctab = NULL;
	int drv = 0, count = 0;
	CUresult rc;

	now = (uint64_t)time(NULL);
	rc = cuInit(0);
	printf("cuInit %d\n", (int)rc);
	cuDriverGetVersion(&drv);
	printf("driver_version %d\n", drv);
	cuDeviceGetCount(&count);
	printf("devices %d\n", count);
	for (int d = 0; d < count; d++) {
		CUuuid u;
		int dom = -1, bus = -1, dev = -1;
		char name[128] = "";

		cuDeviceGetName(name, sizeof(name), d);
		cuDeviceGetUuid(&u, d);
		cuDeviceGetAttribute(&dom, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, d);
		cuDeviceGetAttribute(&bus, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, d);
		cuDeviceGetAttribute(&dev, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, d);
		printf("device %d name=%s uuid=", d, name);
		for (int i = 0; i < 16; i++)
			printf("%02x", (unsigned char)u.bytes[i]);
		printf(" pci_domain=%d pci_bus=%d pci_device=%d\n", dom, bus, dev);
	}

	/* The order the runtime uses: the cudart table first. */
	rc = cuGetExportTable(&rtab, &cudart_id);
	printf("cudart_table rc=%d %p\n", (int)rc, rtab);
	rc = cuGetExportTable(&itab, &integrity_id);
	printf("integrity_table rc=%d %p\n", (int)rc, itab);
	if (!itab || !rtab)
		return 1;
	dump_table("integrity", itab, 4);
	check = (integrity_fn)((const uintptr_t *)itab)[1];

	calls("main");
	pthread_t t[2];
	pthread_create(&t[0], NULL, thread_main, "thread1");
	pthread_join(t[0], NULL);
	pthread_create(&t[1], NULL, thread_main, "thread2");
	pthread_join(t[1], NULL);

	/* The other tables' simple slots, for the answers vGPU copies. */
	CUcontext pctx = NULL, ctx = NULL;
	typedef CUresult (*fn2_t)(CUcontext *, CUdevice);
	rc = ((fn2_t)((const uintptr_t *)rtab)[2])(&ctx, 0);
	cuDevicePrimaryCtxRetain(&pctx, 0);
	printf("cudart[2] rc=%d ctx_is_primary=%d\n", (int)rc, ctx == pctx);
	CUcontext cur = NULL;
	cuCtxGetCurrent(&cur);
	printf("cudart[2] current_after=%s\n", cur == NULL ? "none" :
	       cur == pctx ? "primary" : "other");

	if (cuGetExportTable(&cbtab, &callback_id) == CUDA_SUCCESS) {
		typedef void (*buf_t)(void **, size_t *);

		dump_table("callback", cbtab, 8);
		for (int s = 2; s <= 6; s += 4) {
			void *p = NULL;
			size_t n = 0;

			((buf_t)((const uintptr_t *)cbtab)[s])(&p, &n);
			printf("callback[%d] size=%zu nonnull=%d\n", s, n, p != NULL);
		}
	}
	if (cuGetExportTable(&clstab, &cls_id) == CUDA_SUCCESS) {
		typedef CUresult (*get_t)(void **, CUcontext, void *);
		typedef CUresult (*put_t)(CUcontext, void *, void *, void *);
		typedef CUresult (*del_t)(CUcontext, void *);
		const uintptr_t *w = clstab;
		static int key;
		void *v = (void *)1;

		cuCtxSetCurrent(pctx);
		rc = ((get_t)w[2])(&v, NULL, &key);
		printf("cls get missing rc=%d value=%p\n", (int)rc, v);
		rc = ((put_t)w[0])(NULL, &key, (void *)0x1234, NULL);
		printf("cls put rc=%d\n", (int)rc);
		v = NULL;
		rc = ((get_t)w[2])(&v, NULL, &key);
		printf("cls get rc=%d value=%p\n", (int)rc, v);
		v = NULL;
		rc = ((get_t)w[2])(&v, pctx, &key);
		printf("cls get explicit rc=%d value=%p\n", (int)rc, v);
		rc = ((del_t)w[1])(pctx, &key);
		printf("cls delete rc=%d\n", (int)rc);
		rc = ((get_t)w[2])(&v, NULL, &key);
		printf("cls get deleted rc=%d\n", (int)rc);
		rc = ((del_t)w[1])(pctx, &key);
		printf("cls delete again rc=%d\n", (int)rc);
	}
	if (cuGetExportTable(&cctab, &ctxcheck_id) == CUDA_SUCCESS) {
		typedef CUresult (*cc_t)(CUcontext, uint32_t *, void **);
		const uintptr_t *w = cctab;
		uint32_t r1 = 0xdeadbeef;
		void *r2 = (void *)0x1;

		dump_table("ctxcheck", cctab, 5);
		rc = ((cc_t)w[2])(pctx, &r1, &r2);
		printf("ctxcheck[2] rc=%d r1=%#x r2_is_null=%d\n", (int)rc, r1,
		       r2 == NULL);
	}
	return 0;
}
