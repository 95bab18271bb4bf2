// SPDX-License-Identifier: GPL-2.0
//
// simplePrintf: printf() from device code.  Kernels write their output
// into a buffer on the device; the driver prints it when the host next
// synchronizes with the device (here cudaDeviceSynchronize).  To check
// the output, the sample sends its own stdout to a temporary file while
// the kernel runs, then compares the lines with the ones it expects -
// the same line from every thread, in any order (threads run in
// parallel) - and finally shows them.
#include <string.h>
#include <unistd.h>

#include "../common/sample_check.h"

#define BLOCKS 2
#define THREADS 4

__global__ void say_hello(int value)
{
	printf("[%d, %d]:\t\tValue is:%d\n", blockIdx.x, threadIdx.x, value);
}

// Run the kernel with stdout going to a file; return that file's text.
static char *capture_kernel_output(int value)
{
	static char text[4096];
	FILE *tmp = tmpfile();
	int saved = dup(STDOUT_FILENO);
	size_t len;

	if (!tmp || saved < 0)
		return NULL;
	fflush(stdout);
	dup2(fileno(tmp), STDOUT_FILENO);
	say_hello<<<BLOCKS, THREADS>>>(value);
	cudaError_t launch = cudaGetLastError();
	cudaError_t sync = cudaDeviceSynchronize();
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	CHECK(launch);
	CHECK(sync);
	rewind(tmp);
	len = fread(text, 1, sizeof(text) - 1, tmp);
	text[len] = '\0';
	fclose(tmp);
	return text;
}

int main(void)
{
	const int value = 10;
	char *out = capture_kernel_output(value);
	bool ok = out != NULL;
	int lines = 0;

	for (const char *p = out; ok && *p; p = strchr(p, '\n') + 1) {
		if (!strchr(p, '\n'))
			break;
		lines++;
	}
	// Every (block, thread) pair must have printed exactly its line.
	for (int b = 0; ok && b < BLOCKS; b++) {
		for (int t = 0; t < THREADS; t++) {
			char want[64];
			const char *hit;

			snprintf(want, sizeof(want),
				 "[%d, %d]:\t\tValue is:%d\n", b, t, value);
			hit = strstr(out, want);
			if (!hit || strstr(hit + 1, want)) {
				fprintf(stderr, "line %s missing or repeated",
					want);
				ok = false;
			}
		}
	}
	if (ok && lines != BLOCKS * THREADS) {
		fprintf(stderr, "%d lines printed, expected %d\n", lines,
			BLOCKS * THREADS);
		ok = false;
	}
	printf("Device printf output (%d lines):\n%s", lines, out ? out : "");
	return sample_result(ok);
}
