// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only stand-ins for the CUDA runtime's registration entry points.
 *
 * The test programs link nvcc-compiled host objects without any CUDA
 * runtime (-cudart none).  Their static constructors call these before
 * main(), exactly as they would call libcudart, and we record what they
 * pass: this is the real in-memory path a driver sees.  Launch entry
 * points exist only to satisfy the linker; the tests never launch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registration_stub.h"

struct registration_log registration_log;

void **__cudaRegisterFatBinary(void *wrapper)
{
	struct registration_log *log = &registration_log;

	if (log->wrappers < REGISTRATION_MAX)
		log->wrapper[log->wrappers] = wrapper;
	log->wrappers++;
	/* the handle only has to be unique and stable */
	return (void **)&log->wrapper[log->wrappers - 1];
}

void __cudaRegisterFatBinaryEnd(void **handle)
{
	(void)handle;
	registration_log.ends++;
}

void __cudaUnregisterFatBinary(void **handle)
{
	(void)handle;
}

void __cudaRegisterFunction(void **handle, const char *host_fun,
			    char *device_fun, const char *device_name,
			    int thread_limit, void *tid, void *bid,
			    void *block_dim, void *grid_dim, int *warp_size)
{
	struct registration_log *log = &registration_log;

	(void)handle; (void)host_fun; (void)device_fun; (void)thread_limit;
	(void)tid; (void)bid; (void)block_dim; (void)grid_dim; (void)warp_size;
	if (log->functions < REGISTRATION_MAX)
		log->function[log->functions++] = device_name;
}

void __cudaRegisterVar(void **handle, char *host_var, char *device_address,
		       const char *device_name, int ext, size_t size,
		       int constant, int global)
{
	(void)handle; (void)host_var; (void)device_address; (void)ext;
	(void)size; (void)constant; (void)global;
	if (registration_log.vars < REGISTRATION_MAX)
		registration_log.var[registration_log.vars++] = device_name;
}

static void no_launches(const char *what)
{
	fprintf(stderr, "registration_stub: %s called: tests do not launch\n",
		what);
	abort();
}

char __cudaInitModule(void **handle)
{
	(void)handle;
	no_launches("__cudaInitModule");
	return 0;
}

int __cudaPopCallConfiguration(void *grid, void *block, void *shmem,
			       void *stream)
{
	(void)grid; (void)block; (void)shmem; (void)stream;
	no_launches("__cudaPopCallConfiguration");
	return 1;
}

int __cudaGetKernel(void **kernel, const void *host_fun)
{
	(void)kernel; (void)host_fun;
	no_launches("__cudaGetKernel");
	return 1;
}

/* dim3 arguments are passed by value as 12-byte structs */
struct stub_dim3 {
	unsigned int x, y, z;
};

int __cudaLaunchKernel(void *kernel, struct stub_dim3 grid,
		       struct stub_dim3 block, void **args, size_t shmem,
		       void *stream)
{
	(void)kernel; (void)grid; (void)block; (void)args; (void)shmem;
	(void)stream;
	no_launches("__cudaLaunchKernel");
	return 1;
}
