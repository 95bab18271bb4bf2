// SPDX-License-Identifier: GPL-2.0
//
// sample_check.h: the one helper every sample shares.  CHECK() stops the
// program with the file, line, call and CUDA's name and text for the error
// when a runtime call fails, so that a failing sample says exactly where.
#ifndef SAMPLE_CHECK_H
#define SAMPLE_CHECK_H

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)							\
	do {								\
		cudaError_t err_ = (call);				\
		if (err_ != cudaSuccess) {				\
			fprintf(stderr, "%s:%d: %s failed: %s (%s)\n",	\
				__FILE__, __LINE__, #call,		\
				cudaGetErrorName(err_),			\
				cudaGetErrorString(err_));		\
			printf("FAILED\n");				\
			exit(EXIT_FAILURE);				\
		}							\
	} while (0)

// Print the verdict every sample ends with and return the exit status.
static inline int sample_result(bool ok)
{
	printf("%s\n", ok ? "PASSED" : "FAILED");
	return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif // SAMPLE_CHECK_H
