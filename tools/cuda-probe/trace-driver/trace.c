// SPDX-License-Identifier: GPL-2.0
/*
 * trace-driver: a libcuda.so.1 that stands in front of NVIDIA's driver and
 * records what a program (or NVIDIA's libraries, which carry their own
 * static CUDA runtime) asks the driver for:
 *
 *   - every cuGetProcAddress / cuGetProcAddress_v2 query: name, the CUDA
 *     version asked for, flags, the answer and the symbol status;
 *   - every cuGetExportTable query: the table's UUID, the answer, the first
 *     words of the table;
 *   - every call through an export table: table, slot, first four argument
 *     registers (the first TRACE_MAX_CALLS calls of each slot; then a count
 *     printed at exit).
 *
 * Every other driver symbol is a two-instruction forwarder (forward.S,
 * generated from the stub library's symbol list) to the real driver,
 * which is dlopen()ed by absolute path (TRACE_REAL_LIBCUDA, default
 * /usr/lib/x86_64-linux-gnu/libcuda.so.1).  An export table is answered
 * with a copy whose code pointers are replaced by trampolines (tramp.S)
 * that log and jump to the original entry, so the driver still does the
 * work.  The log goes to TRACE_LOG (default stderr).
 *
 * This is an observation tool run on a real GPU; it is not part of vGPU.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <unistd.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRACE_TABLES 32
#define TRACE_SLOTS 128	/* words copied from each table */
#define TRACE_MAX_CALLS 8	/* calls logged per slot */
#define TRACE_TRAMPS 2048	/* = tramp.S's count */

typedef int CUresult;
typedef struct { unsigned char b[16]; } uuid_t16;

extern void *trace_fwd_slots[];
extern const char *const trace_fwd_names[];
extern const unsigned trace_fwd_count;
extern char trace_tramp_base[];	/* 16-byte trampolines, tramp.S */

static void *real;
static FILE *logf;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

struct table {
	uuid_t16 id;
	const void *const *orig;
	void *copy[TRACE_SLOTS];
	int wrapped;
};
static struct table tables[TRACE_TABLES];
static unsigned ntables;
/* Trampoline i jumps to tramp_target[i]; tramp_table/slot say what it is. */
static void *tramp_target[TRACE_TRAMPS];
static unsigned short tramp_table[TRACE_TRAMPS], tramp_slot[TRACE_TRAMPS];
static unsigned long tramp_calls[TRACE_TRAMPS];
static unsigned ntramps;
static uintptr_t text_lo, text_hi;	/* the real driver's code */

static void uuid_str(const uuid_t16 *u, char *s)
{
	for (int i = 0; i < 16; i++)
		sprintf(s + 2 * i, "%02x", u->b[i]);
}

static int find_text(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	if (!info->dlpi_name || !strstr(info->dlpi_name, "libcuda.so"))
		return 0;
	if (info->dlpi_addr == 0)
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *p = &info->dlpi_phdr[i];

		if (p->p_type == PT_LOAD && (p->p_flags & PF_X)) {
			uintptr_t lo = info->dlpi_addr + p->p_vaddr;

			/* Ours is tiny; the real one is tens of MB. */
			if (p->p_memsz > (1u << 20)) {
				text_lo = lo;
				text_hi = lo + p->p_memsz;
			}
		}
	}
	return 0;
}

__attribute__((constructor)) static void trace_init(void)
{
	const char *path = getenv("TRACE_REAL_LIBCUDA");
	const char *lp = getenv("TRACE_LOG");

	if (!path)
		path = "/usr/lib/x86_64-linux-gnu/libcuda.so.1";
	logf = lp ? fopen(lp, "a") : NULL;
	if (!logf)
		logf = stderr;
	setvbuf(logf, NULL, _IOLBF, 0);
	real = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!real) {
		fprintf(logf, "trace: cannot load %s: %s\n", path, dlerror());
		abort();
	}
	for (unsigned i = 0; i < trace_fwd_count; i++)
		trace_fwd_slots[i] = dlsym(real, trace_fwd_names[i]);
	dl_iterate_phdr(find_text, NULL);
	fprintf(logf, "trace: real driver %s, text %#" PRIxPTR "-%#" PRIxPTR
		", pid %d\n", path, text_lo, text_hi, (int)getpid());
}

__attribute__((destructor)) static void trace_fini(void)
{
	for (unsigned i = 0; i < ntramps; i++) {
		char s[33];

		if (!tramp_calls[i])
			continue;
		uuid_str(&tables[tramp_table[i]].id, s);
		fprintf(logf, "count %s[%u] %lu\n", s, tramp_slot[i],
			tramp_calls[i]);
	}
}

/* Called by tramp.S with the trampoline index and the saved registers
 * (rdi, rsi, rdx, rcx in that order); returns where to jump. */
void *trace_tramp_log(unsigned long idx, const uint64_t *regs)
{
	unsigned long n = __atomic_add_fetch(&tramp_calls[idx], 1,
					     __ATOMIC_RELAXED);

	if (n <= TRACE_MAX_CALLS) {
		char s[33];

		uuid_str(&tables[tramp_table[idx]].id, s);
		pthread_mutex_lock(&lock);
		fprintf(logf, "call %s[%u] #%lu a0=%#" PRIx64 " a1=%#" PRIx64
			" a2=%#" PRIx64 " a3=%#" PRIx64 "\n", s,
			tramp_slot[idx], n, regs[0], regs[1], regs[2], regs[3]);
		pthread_mutex_unlock(&lock);
	}
	return tramp_target[idx];
}

/*
 * TRACE_WRAP: which tables get trampolines: "all", "none" or a list of
 * UUID prefixes.  Wrapping changes the entries' addresses, and the
 * runtime's integrity check (table d4082055...) fails when some tables are
 * wrapped (every CUDA call of the program then fails with
 * cudaErrorSoftwareValidityNotEstablished, 103),
 * so the tables are traced one at a time.
 */
static int wrap_table(const char *uuid)
{
	const char *w = getenv("TRACE_WRAP");
	const char *p;

	if (!w || !strcmp(w, "all"))
		return 1;
	if (!strcmp(w, "none"))
		return 0;
	for (p = w; *p; p += strcspn(p, ","), p += *p == ',') {
		size_t n = strcspn(p, ",");

		if (n && !strncmp(p, uuid, n))
			return 1;
	}
	return 0;
}

static int is_code(const void *p)
{
	return (uintptr_t)p >= text_lo && (uintptr_t)p < text_hi;
}

CUresult cuGetExportTable(const void **pp, const uuid_t16 *id)
{
	CUresult (*fn)(const void **, const uuid_t16 *) =
		(CUresult (*)(const void **, const uuid_t16 *))
		dlsym(real, "cuGetExportTable");
	CUresult r = fn(pp, id);
	char s[33];
	struct table *t = NULL;
	int wrap;

	if (!id) {
		fprintf(logf, "exporttable (null) -> %d\n", r);
		return r;
	}
	uuid_str(id, s);
	pthread_mutex_lock(&lock);
	fprintf(logf, "exporttable %s -> %d %p\n", s, r, pp ? *pp : NULL);
	if (r != 0 || !pp || !*pp)
		goto out;
	for (unsigned i = 0; i < ntables; i++)
		if (!memcmp(&tables[i].id, id, 16)) {
			t = &tables[i];
			goto answer;
		}
	if (ntables == TRACE_TABLES)
		goto out;
	t = &tables[ntables];
	t->id = *id;
	t->orig = *pp;
	wrap = wrap_table(s);
	t->wrapped = wrap;
	fprintf(logf, "  %s\n", wrap ? "wrapped" : "passed through");
	for (unsigned k = 0; k < TRACE_SLOTS; k++) {
		void *e = (void *)t->orig[k];

		fprintf(logf, "  word %s[%u] = %p%s\n", s, k, e,
			is_code(e) ? " code" : "");
		t->copy[k] = e;
		if (is_code(e) && wrap && ntramps < TRACE_TRAMPS) {
			tramp_target[ntramps] = e;
			tramp_table[ntramps] = (unsigned short)ntables;
			tramp_slot[ntramps] = (unsigned short)k;
			t->copy[k] = trace_tramp_base + 16 * ntramps;
			ntramps++;
		}
	}
	ntables++;
answer:
	/* A table passed through is the driver's own, at its own address. */
	if (t->wrapped)
		*pp = t->copy;
out:
	pthread_mutex_unlock(&lock);
	return r;
}

CUresult cuGetProcAddress_v2(const char *sym, void **pfn, int ver,
			     uint64_t flags, int *status);
CUresult cuGetProcAddress(const char *sym, void **pfn, int ver,
			  uint64_t flags);

/* The driver's own lookup entry points are answered with ours, so that what
 * the runtime asks through them is logged too. */
static void wrap(const char *name, void **pfn, int ver)
{
	const char *proc = getenv("TRACE_PROC");

	/* TRACE_PROC=real: hand out the driver's own lookup functions, so
	 * that only the first lookups (through dlsym) are seen. */
	if (!*pfn || (proc && !strcmp(proc, "real")))
		return;
	if (!strcmp(name, "cuGetExportTable"))
		*pfn = (void *)cuGetExportTable;
	else if (!strcmp(name, "cuGetProcAddress"))
		*pfn = ver >= 12000 ? (void *)cuGetProcAddress_v2 :
				      (void *)cuGetProcAddress;
}

CUresult cuGetProcAddress_v2(const char *sym, void **pfn, int ver,
			     uint64_t flags, int *status)
{
	CUresult (*fn)(const char *, void **, int, uint64_t, int *) =
		(CUresult (*)(const char *, void **, int, uint64_t, int *))
		dlsym(real, "cuGetProcAddress_v2");
	int st = -1;
	CUresult r = fn(sym, pfn, ver, flags, status ? status : &st);

	if (status)
		st = *status;
	fprintf(logf, "procaddress %s ver=%d flags=%#" PRIx64 " -> %d status=%d %s\n",
		sym ? sym : "(null)", ver, flags, r, st,
		(r == 0 && pfn && *pfn) ? "found" : "none");
	if (r == 0 && pfn && sym)
		wrap(sym, pfn, ver);
	return r;
}

CUresult cuGetProcAddress(const char *sym, void **pfn, int ver,
			  uint64_t flags)
{
	CUresult (*fn)(const char *, void **, int, uint64_t) =
		(CUresult (*)(const char *, void **, int, uint64_t))
		dlsym(real, "cuGetProcAddress");
	CUresult r = fn(sym, pfn, ver, flags);

	fprintf(logf, "procaddress_v1 %s ver=%d flags=%#" PRIx64 " -> %d %s\n",
		sym ? sym : "(null)", ver, flags, r,
		(r == 0 && pfn && *pfn) ? "found" : "none");
	if (r == 0 && pfn && sym)
		wrap(sym, pfn, ver);
	return r;
}
