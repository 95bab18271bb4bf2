// SPDX-License-Identifier: GPL-2.0
/*
 * native_exports.c - libcuda.so.1 exports the driver API and nothing else,
 * and cuGetProcAddress finds every function it exports.  Runs on the host
 * (no device needed: nothing here calls cuInit).  The build tells it
 * which library to check (LIBCUDA_PATH); a path argument overrides it.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>

typedef CUresult (*get_proc_fn)(const char *, void **, int, cuuint64_t,
				CUdriverProcAddressQueryResult *);

/* "cuMemAlloc_v2" -> "cuMemAlloc" */
static void base_name(const char *sym, char *out, size_t len)
{
	const char *v = strstr(sym, "_v");

	snprintf(out, len, "%.*s", v && v[2] >= '0' && v[2] <= '9' ?
		 (int)(v - sym) : (int)strlen(sym), sym);
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : LIBCUDA_PATH;
	char cmd[4200], line[512], base[256];
	int n = 0, bad = 0, count = 0;
	get_proc_fn get_proc;
	void *lib;
	FILE *nm;

	lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		printf("Bail out! %s\n", dlerror());
		return 1;
	}
	get_proc = (get_proc_fn)dlsym(lib, "cuGetProcAddress_v2");
	printf("TAP version 13\n");
	printf("%s %d cuGetProcAddress_v2 is exported\n",
	       get_proc ? "ok" : "not ok", ++n);
	if (!get_proc)
		return 1;
	snprintf(cmd, sizeof(cmd), "nm -D --defined-only '%s'", path);
	nm = popen(cmd, "r");
	if (!nm) {
		printf("Bail out! cannot run nm\n");
		return 1;
	}
	while (fgets(line, sizeof(line), nm)) {
		char addr[64], type[8], sym[256];
		void *fn = NULL;

		if (sscanf(line, "%63s %7s %255s", addr, type, sym) != 3)
			continue;
		count++;
		if (strncmp(sym, "cu", 2) || sym[2] < 'A' || sym[2] > 'Z') {
			printf("# exported but not API: %s\n", sym);
			bad++;
			continue;
		}
		base_name(sym, base, sizeof(base));
		if (get_proc(base, &fn, 13000, 0, NULL) != CUDA_SUCCESS || !fn) {
			printf("# cuGetProcAddress(\"%s\") fails\n", base);
			bad++;
		}
	}
	pclose(nm);
	printf("%s %d only cu* functions are exported\n",
	       bad ? "not ok" : "ok", ++n);
	printf("%s %d every export is found by cuGetProcAddress (%d)\n",
	       bad || count < 100 ? "not ok" : "ok", ++n, count);
	printf("1..%d\n", n);
	dlclose(lib);
	return bad || count < 100;
}
