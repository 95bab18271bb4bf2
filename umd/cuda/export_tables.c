// SPDX-License-Identifier: GPL-2.0
/*
 * export_tables.c - cuGetExportTable: the private tables NVIDIA's runtime
 * asks the driver for (libcudart.so, and the copy of it linked into
 * cuBLAS, cuRAND, cuSPARSE...).  Documentation/export-tables.rst says what
 * each table and slot is and how that was established.
 *
 * A table is an array of words.  In six of the seven, word 0 is the size
 * of the table in bytes (itself included) and the rest are functions; the
 * context-local-storage table has no size word.  Slots vGPU knows the
 * meaning of map onto the driver's own functions; a slot whose meaning is
 * unknown (NVIDIA's runtime did not call it in any traced program) answers
 * CUDA_ERROR_NOT_SUPPORTED, and with VGPU_EXPORT_TRACE set in the
 * environment says on stderr that it was called, so that the next program
 * that needs one shows which.
 *
 * The integrity check (table d4082055..., export_integrity.c) hashes the
 * addresses of that table, of the cudart table and of the check itself,
 * as handed out here: the tables are static and never copied.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda_internal.h"
#include "export_integrity.h"

/* ---- slots whose meaning is unknown ---------------------------------------- */

static CUresult export_unknown(const char *table, int slot)
{
	if (getenv("VGPU_EXPORT_TRACE"))
		fprintf(stderr, "vgpu: export table %s slot %d called: not "
			"implemented (Documentation/export-tables.rst)\n",
			table, slot);
	return CUDA_ERROR_NOT_SUPPORTED;
}

/* One function per unknown slot, so the trace can name it. */
#define UNKNOWN_SLOT(tbl, n)						\
	static CUresult unknown_##tbl##_##n(void)			\
	{								\
		return export_unknown(#tbl, n);				\
	}

/* The size word of a table of @n words (word 0 included). */
#define TABLE_SIZE(n)	((const void *)(uintptr_t)((n) * sizeof(void *)))
/* A function in a table of words. */
#define FN(f)		((const void *)(f))

/* ---- 6bd5fb6c...: the runtime's interface to modules and contexts ----------- */

/* [1]: load the module of an nvcc registration wrapper. */
static CUresult cudart_module_from_wrapper(CUmodule *module,
					   const void *wrapper)
{
	if (!module || !wrapper)
		return CUDA_ERROR_INVALID_VALUE;
	return cuModuleLoadData(module, wrapper);
}

/*
 * [2]: the device's primary context, created if it does not exist yet;
 * the current context is left alone (both as on the H100).  The runtime
 * retains the primary context itself through the public API; a context
 * this call had to create keeps the one reference it was created with.
 */
static CUresult cudart_primary_context(CUcontext *pctx, CUdevice dev)
{
	struct cu_device *d;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!pctx)
		return CUDA_ERROR_INVALID_VALUE;
	d = cu_device_get(dev);
	if (!d)
		return CUDA_ERROR_INVALID_DEVICE;
	pthread_mutex_lock(&d->lock);
	*pctx = (CUcontext)d->primary;
	pthread_mutex_unlock(&d->lock);
	if (*pctx)
		return CUDA_SUCCESS;
	return cuDevicePrimaryCtxRetain(pctx, dev);
}

/*
 * [6]: [1] with three more arguments whose meaning is not known (the
 * runtime passes none in the traced programs); vGPU loads the module
 * alike.
 */
static CUresult cudart_module_from_wrapper_ext(CUmodule *module,
					       const void *wrapper,
					       void *arg3, void *arg4,
					       unsigned int arg5)
{
	(void)arg3;
	(void)arg4;
	(void)arg5;
	return cudart_module_from_wrapper(module, wrapper);
}

/* [7]: takes one word and returns nothing; nothing for vGPU to do. */
static void cudart_fn7(uintptr_t arg)
{
	(void)arg;
}

/* [8]: [6] for a fatbinary container instead of a wrapper. */
static CUresult cudart_module_from_fatbin(const void *fatbin,
					  CUmodule *module, void *arg3,
					  void *arg4, unsigned int arg5)
{
	(void)arg3;
	(void)arg4;
	(void)arg5;
	return cudart_module_from_wrapper(module, fatbin);
}

/* [12]: load the PTX compiler and NVVM; vGPU's is always there. */
static CUresult cudart_load_compilers(void)
{
	return CUDA_SUCCESS;
}

UNKNOWN_SLOT(cudart, 3)
UNKNOWN_SLOT(cudart, 4)
UNKNOWN_SLOT(cudart, 5)
UNKNOWN_SLOT(cudart, 9)
UNKNOWN_SLOT(cudart, 11)

/* The check hashes the addresses of both tables (integrity_check()). */
static CUresult integrity_check(uint32_t version, uint64_t seconds,
				uint64_t result[2]);
UNKNOWN_SLOT(integrity, 2)

static const void *const integrity_table[4] = {
	TABLE_SIZE(3),
	FN(integrity_check),
	FN(unknown_integrity_2),
	NULL,
};

static const void *const cudart_table[14] = {
	TABLE_SIZE(13),
	FN(cudart_module_from_wrapper),
	FN(cudart_primary_context),
	FN(unknown_cudart_3),
	FN(unknown_cudart_4),
	FN(unknown_cudart_5),
	FN(cudart_module_from_wrapper_ext),
	FN(cudart_fn7),
	FN(cudart_module_from_fatbin),
	FN(unknown_cudart_9),
	NULL,			/* NULL in NVIDIA's table too */
	FN(unknown_cudart_11),
	FN(cudart_load_compilers),
	NULL,
};

/* ---- d4082055...: the integrity check ---------------------------------------- */

/*
 * [1]: the 16 bytes the runtime compares with its own computation
 * (export_integrity.c).  Inputs are what the runtime can know too: this
 * process and thread, the driver's version, where our tables are, and
 * every device's UUID and PCI location, read through the public API.
 */
static CUresult integrity_check(uint32_t version, uint64_t seconds,
				uint64_t result[2])
{
	struct cu_integrity_inputs in = {
		.driver_version = CU_DRIVER_VERSION,
		.version = version,
		.pid = (uint32_t)getpid(),
		.thread = (uint32_t)(uintptr_t)pthread_self(),
		.cudart_table = (uintptr_t)cudart_table,
		.integrity_table = (uintptr_t)integrity_table,
		.check_fn = (uintptr_t)integrity_table[1],
		.seconds = seconds,
	};
	struct cu_integrity_device *devs;
	int n = 0;
	CUresult res;

	if (!result)
		return CUDA_ERROR_INVALID_VALUE;
	res = cuDeviceGetCount(&n);
	if (res != CUDA_SUCCESS)
		return res;
	devs = calloc(n ? (size_t)n : 1, sizeof(*devs));
	if (!devs)
		return CUDA_ERROR_OUT_OF_MEMORY;
	for (int i = 0; i < n && res == CUDA_SUCCESS; i++) {
		CUuuid u;

		res = cuDeviceGetUuid_v2(&u, i);
		if (res == CUDA_SUCCESS)
			memcpy(devs[i].uuid, u.bytes, sizeof(devs[i].uuid));
		if (res == CUDA_SUCCESS)
			res = cuDeviceGetAttribute(&devs[i].pci_domain,
					CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, i);
		if (res == CUDA_SUCCESS)
			res = cuDeviceGetAttribute(&devs[i].pci_bus,
					CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, i);
		if (res == CUDA_SUCCESS)
			res = cuDeviceGetAttribute(&devs[i].pci_device,
					CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, i);
	}
	if (res == CUDA_SUCCESS)
		cu_integrity_answer(&in, devs, (unsigned int)n, result);
	free(devs);
	return res;
}

/* ---- a094798c...: the tools' callback buffers --------------------------------- */

/*
 * [2] and [6] hand the runtime two buffers of the driver's (sizes as on the
 * H100: 1024 and 14) where profiling tools subscribed to runtime callbacks
 * would be recorded.  vGPU has no such tools: they stay zero.
 */
static uint64_t callback_buffer1[1024];
static uint64_t callback_buffer2[14];

static void callbacks_buffer1(void **ptr, size_t *size)
{
	if (ptr)
		*ptr = callback_buffer1;
	if (size)
		*size = sizeof(callback_buffer1) / sizeof(callback_buffer1[0]);
}

static void callbacks_buffer2(void **ptr, size_t *size)
{
	if (ptr)
		*ptr = callback_buffer2;
	if (size)
		*size = sizeof(callback_buffer2) / sizeof(callback_buffer2[0]);
}

UNKNOWN_SLOT(callbacks, 1)
UNKNOWN_SLOT(callbacks, 3)
UNKNOWN_SLOT(callbacks, 4)
UNKNOWN_SLOT(callbacks, 5)

static const void *const callbacks_table[8] = {
	TABLE_SIZE(7),
	FN(unknown_callbacks_1),
	FN(callbacks_buffer1),
	FN(unknown_callbacks_3),
	FN(unknown_callbacks_4),
	FN(unknown_callbacks_5),
	FN(callbacks_buffer2),
	NULL,
};

/* ---- c693336e...: context-local storage --------------------------------------- */

/*
 * The runtime keeps its per-context state in the driver: a value per
 * (context, key), and a destructor the driver calls when the context is
 * destroyed (cuCtxDestroy, cuDevicePrimaryCtxReset).  Few entries (one per
 * runtime instance and context), so a list.
 */
typedef void (*cls_dtor)(CUcontext ctx, void *key, void *value);

struct cls_entry {
	struct cu_ctx *ctx;
	void *key;
	void *value;
	cls_dtor dtor;
	struct cls_entry *next;
};

static pthread_mutex_t cls_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cls_entry *cls_entries;

/* A NULL context is the current one. */
static CUresult cls_context(CUcontext ctx, struct cu_ctx **out)
{
	struct cu_ctx *c = ctx ? (struct cu_ctx *)ctx : cu_ctx_current();

	if (!c || !cu_ctx_valid(c))
		return CUDA_ERROR_INVALID_CONTEXT;
	*out = c;
	return CUDA_SUCCESS;
}

static struct cls_entry **cls_find(struct cu_ctx *ctx, void *key)
{
	struct cls_entry **pp;

	for (pp = &cls_entries; *pp; pp = &(*pp)->next)
		if ((*pp)->ctx == ctx && (*pp)->key == key)
			return pp;
	return NULL;
}

/* [0]: store @value under (@ctx, @key), replacing an earlier one. */
static CUresult cls_put(CUcontext ctx, void *key, void *value, cls_dtor dtor)
{
	struct cls_entry **pp, *e;
	struct cu_ctx *c;
	CUresult res = cls_context(ctx, &c);

	if (res != CUDA_SUCCESS)
		return res;
	pthread_mutex_lock(&cls_lock);
	pp = cls_find(c, key);
	if (pp) {
		(*pp)->value = value;
		(*pp)->dtor = dtor;
	} else {
		e = calloc(1, sizeof(*e));
		if (!e) {
			pthread_mutex_unlock(&cls_lock);
			return CUDA_ERROR_OUT_OF_MEMORY;
		}
		*e = (struct cls_entry){ c, key, value, dtor, cls_entries };
		cls_entries = e;
	}
	pthread_mutex_unlock(&cls_lock);
	return CUDA_SUCCESS;
}

/* [1]: forget (@ctx, @key); 400 when absent, as on the H100. */
static CUresult cls_delete(CUcontext ctx, void *key)
{
	struct cls_entry **pp, *e = NULL;
	struct cu_ctx *c;
	CUresult res = cls_context(ctx, &c);

	if (res != CUDA_SUCCESS)
		return res;
	pthread_mutex_lock(&cls_lock);
	pp = cls_find(c, key);
	if (pp) {
		e = *pp;
		*pp = e->next;
	}
	pthread_mutex_unlock(&cls_lock);
	free(e);
	return e ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

/* [2]: the value under (@ctx, @key); 400 and no write when absent. */
static CUresult cls_get(void **value, CUcontext ctx, void *key)
{
	struct cls_entry **pp;
	struct cu_ctx *c;
	CUresult res = cls_context(ctx, &c);

	if (res != CUDA_SUCCESS)
		return res;
	if (!value)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&cls_lock);
	pp = cls_find(c, key);
	if (pp)
		*value = (*pp)->value;
	pthread_mutex_unlock(&cls_lock);
	return pp ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

/* Called by cu_ctx_free(): run the destructors of @ctx's entries. */
void cu_export_ctx_gone(struct cu_ctx *ctx)
{
	struct cls_entry **pp, *gone = NULL, *e;

	pthread_mutex_lock(&cls_lock);
	for (pp = &cls_entries; *pp;) {
		e = *pp;
		if (e->ctx == ctx) {
			*pp = e->next;
			e->next = gone;
			gone = e;
		} else {
			pp = &e->next;
		}
	}
	pthread_mutex_unlock(&cls_lock);
	/* Outside the lock: a destructor may call back into the driver. */
	while (gone) {
		e = gone;
		gone = e->next;
		if (e->dtor)
			e->dtor((CUcontext)ctx, e->key, e->value);
		free(e);
	}
}

/* No size word: word 0 is a function, word 3 ends the table. */
static const void *const cls_table[4] = {
	FN(cls_put),
	FN(cls_delete),
	FN(cls_get),
	NULL,
};

/* ---- 263e8860...: context checks ----------------------------------------------- */

/*
 * [2]: called for every context the runtime uses, with two results; the
 * first is 0 on the H100 (a flag never seen set), the second is left as
 * it is here.
 */
static CUresult ctxcheck_context(CUcontext ctx, uint32_t *flag,
				 const void **other)
{
	(void)ctx;
	(void)other;
	if (flag)
		*flag = 0;
	return CUDA_SUCCESS;
}

/* [3]: answers 0 (its arguments are not understood). */
static uint32_t ctxcheck_fn3(void)
{
	return 0;
}

UNKNOWN_SLOT(ctxcheck, 1)
UNKNOWN_SLOT(ctxcheck, 4)
UNKNOWN_SLOT(ctxcheck, 5)
UNKNOWN_SLOT(ctxcheck, 6)
UNKNOWN_SLOT(ctxcheck, 7)
UNKNOWN_SLOT(ctxcheck, 8)
UNKNOWN_SLOT(ctxcheck, 9)
UNKNOWN_SLOT(ctxcheck, 10)
UNKNOWN_SLOT(ctxcheck, 11)
UNKNOWN_SLOT(ctxcheck, 12)
UNKNOWN_SLOT(ctxcheck, 13)
UNKNOWN_SLOT(ctxcheck, 14)

static const void *const ctxcheck_table[16] = {
	TABLE_SIZE(15),
	FN(unknown_ctxcheck_1),
	FN(ctxcheck_context),
	FN(ctxcheck_fn3),
	FN(unknown_ctxcheck_4),
	FN(unknown_ctxcheck_5),
	FN(unknown_ctxcheck_6),
	FN(unknown_ctxcheck_7),
	FN(unknown_ctxcheck_8),
	FN(unknown_ctxcheck_9),
	FN(unknown_ctxcheck_10),
	FN(unknown_ctxcheck_11),
	FN(unknown_ctxcheck_12),
	FN(unknown_ctxcheck_13),
	FN(unknown_ctxcheck_14),
	NULL,
};

/* ---- f8cff951... and 42d85a81...: asked for, never called -------------------- */

UNKNOWN_SLOT(f8cff951, 1)
UNKNOWN_SLOT(f8cff951, 2)
UNKNOWN_SLOT(tools_tls, 1)
UNKNOWN_SLOT(tools_tls, 2)

static const void *const f8cff951_table[4] = {
	TABLE_SIZE(3),
	FN(unknown_f8cff951_1),
	FN(unknown_f8cff951_2),
	NULL,
};

static const void *const tools_tls_table[4] = {
	TABLE_SIZE(3),
	FN(unknown_tools_tls_1),
	FN(unknown_tools_tls_2),
	NULL,
};

/* ---- the lookup ---------------------------------------------------------------- */

static const struct {
	uint8_t uuid[16];
	const void *const *table;
} export_tables[] = {
	{ { 0xf8, 0xcf, 0xf9, 0x51, 0x21, 0x46, 0x8b, 0x4e,
	    0xb9, 0xe2, 0xfb, 0x46, 0x9e, 0x7c, 0x0d, 0xd9 }, f8cff951_table },
	{ { 0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a,
	    0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9 }, cudart_table },
	{ { 0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74,
	    0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66 }, callbacks_table },
	{ { 0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47,
	    0x82, 0x98, 0xf6, 0xe7, 0x8a, 0x3a, 0xec, 0xdc }, tools_tls_table },
	{ { 0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11,
	    0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93 }, cls_table },
	{ { 0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43,
	    0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa, 0x7e }, ctxcheck_table },
	{ { 0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b,
	    0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2 }, integrity_table },
};

CUresult cu_export_table(const void **table, const CUuuid *id)
{
	if (!table || !id)
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; i < sizeof(export_tables) / sizeof(export_tables[0]);
	     i++) {
		if (!memcmp(export_tables[i].uuid, id->bytes, 16)) {
			*table = export_tables[i].table;
			return CUDA_SUCCESS;
		}
	}
	if (getenv("VGPU_EXPORT_TRACE")) {
		fprintf(stderr, "vgpu: export table ");
		for (int i = 0; i < 16; i++)
			fprintf(stderr, "%02x", (unsigned char)id->bytes[i]);
		fprintf(stderr, " asked for: vGPU has none\n");
	}
	*table = NULL;
	return CUDA_ERROR_NOT_FOUND;
}
