// SPDX-License-Identifier: GPL-2.0
/*
 * native_proc_names.c - cuGetProcAddress answers every (name, version,
 * flags) that NVIDIA's runtime asked NVIDIA's driver on an H100
 * (tools/cuda-probe/golden/trace-driver-programs.log: cuRAND, cuBLAS,
 * cuSPARSE programs), as that driver did: found, except the empty name;
 * and a versioned name gives the function of the version asked
 * (proc_versions.c).  Runs on the host: nothing here calls cuInit.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>

typedef CUresult (*get_proc_fn)(const char *, void **, int, cuuint64_t,
				CUdriverProcAddressQueryResult *);

static int n, failed;
static get_proc_fn get_proc;
static void *lib;

static void ok(int cond, const char *what)
{
	printf("%sok %d - %s\n", cond ? "" : "not ", ++n, what);
	if (!cond)
		failed = 1;
}

static void *lookup(const char *name, int version,
		    CUdriverProcAddressQueryResult *status)
{
	void *fn = NULL;

	if (get_proc(name, &fn, version, 0, status) != CUDA_SUCCESS)
		return NULL;
	return fn;
}

static void test_trace(const char *path)
{
	int asked = 0, found = 0, empty_refused = 0;
	char line[512], what[128];
	FILE *f = fopen(path, "r");

	if (!f) {
		ok(0, "the trace log can be read");
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		char name[128] = "";
		int ver;
		unsigned long long flags;
		CUdriverProcAddressQueryResult st;
		void *fn = NULL;
		CUresult rc;

		/* "procaddress NAME ver=V flags=F -> ..."; NAME may be empty */
		if (strncmp(line, "procaddress ", 12))
			continue;
		if (sscanf(line, "procaddress  ver=%d flags=%lli", &ver,
			   &flags) == 2) {
			rc = get_proc("", &fn, ver, flags, &st);
			empty_refused = rc != CUDA_SUCCESS && !fn;
			continue;
		}
		if (sscanf(line, "procaddress %127s ver=%d flags=%lli", name,
			   &ver, &flags) != 3)
			continue;
		asked++;
		rc = get_proc(name, &fn, ver, flags, &st);
		if (rc == CUDA_SUCCESS && fn && st == CU_GET_PROC_ADDRESS_SUCCESS)
			found++;
		else
			printf("# %s ver=%d flags=%#llx: rc %d status %d\n",
			       name, ver, flags, (int)rc, (int)st);
	}
	fclose(f);
	snprintf(what, sizeof(what),
		 "every name the runtime asked is found (%d of %d)", found,
		 asked);
	ok(asked > 300 && found == asked, what);
	ok(empty_refused, "the empty name is not found, as on the H100");
}

/* A versioned name: each version asked gives that version's function. */
static void test_versions(void)
{
	CUdriverProcAddressQueryResult st;
	void *v1 = lookup("cuStreamGetCaptureInfo", 10010, &st);
	void *v2 = lookup("cuStreamGetCaptureInfo", 11030, &st);
	void *v3 = lookup("cuStreamGetCaptureInfo", 12030, &st);
	void *now = lookup("cuStreamGetCaptureInfo", 13000, &st);

	ok(v1 && v2 && v3 && v1 != v2 && v2 != v3 && v1 != v3,
	   "cuStreamGetCaptureInfo: three versions, three functions");
	ok(v3 == dlsym(lib, "cuStreamGetCaptureInfo_v3") && now == v3,
	   "cuStreamGetCaptureInfo at 12030 and later is _v3");
	ok(lookup("cuCtxCreate", 13000, &st) == dlsym(lib, "cuCtxCreate_v4") &&
	   lookup("cuCtxCreate", 3020, &st) != dlsym(lib, "cuCtxCreate_v4"),
	   "cuCtxCreate at 3020 is not _v4 (other arguments)");
	ok(lookup("cuCtxGetDevice", 2000, &st) == dlsym(lib, "cuCtxGetDevice") &&
	   lookup("cuCtxGetDevice", 13000, &st) ==
	   dlsym(lib, "cuCtxGetDevice_v2"),
	   "cuCtxGetDevice: 2000 is v1, 13000 is _v2");
	ok(!lookup("cuGraphAddNode", 12000, &st) &&
	   st == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT,
	   "cuGraphAddNode before 12020: version not sufficient");
	ok(!lookup("cuNoSuchFunction", 13000, &st) &&
	   st == CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND,
	   "an unknown name is not found");
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : LIBCUDA_PATH;

	lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		printf("Bail out! %s\n", dlerror());
		return 1;
	}
	get_proc = (get_proc_fn)dlsym(lib, "cuGetProcAddress_v2");
	if (!get_proc) {
		printf("Bail out! no cuGetProcAddress_v2\n");
		return 1;
	}
	printf("1..8\n");
	test_trace(TRACE_LOG);
	test_versions();
	dlclose(lib);
	return failed;
}
