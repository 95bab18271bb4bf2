// SPDX-License-Identifier: GPL-2.0
/*
 * test_ptx_threads - the compiler keeps no global state: several threads
 * compiling at once (as a multi-threaded CUDA program loading modules
 * does) all get byte-identical images, identical to a single-threaded
 * compilation.  Identical bytes also matter to the compute cache.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_test.h"

#define THREADS 4
#define ROUNDS 8

struct job {
	const char *text;
	const void *want;
	size_t want_size;
	int mismatches;
};

static void *compile_loop(void *arg)
{
	struct job *j = arg;
	int r;

	for (r = 0; r < ROUNDS; r++) {
		void *img = NULL;
		size_t size = 0;

		if (t_compile("threads.ptx", j->text, &img, &size, NULL, 0) ||
		    size != j->want_size || memcmp(img, j->want, size))
			j->mismatches++;
		vgpu_ptx_free(img);
	}
	return NULL;
}

int main(void)
{
	const char *path = PTX_TEST_DATA "/sm_75/control.ptx";
	struct job jobs[THREADS];
	pthread_t tid[THREADS];
	char *text, msg[512];
	void *want = NULL;
	size_t want_size = 0;
	int i, bad = 0, started = 0;

	t_start();
	text = t_read_file(path, NULL);
	if (!t_ok(text && !t_compile("threads.ptx", text, &want, &want_size, msg,
				     sizeof(msg)), "reference compilation of %s %s",
		  path, msg))
		goto out;
	for (i = 0; i < THREADS; i++) {
		jobs[i] = (struct job){ text, want, want_size, 0 };
		if (!pthread_create(&tid[i], NULL, compile_loop, &jobs[i]))
			started++;
		else
			break;
	}
	t_ok(started == THREADS, "%d compiling threads started", started);
	for (i = 0; i < started; i++) {
		pthread_join(tid[i], NULL);
		bad += jobs[i].mismatches;
	}
	t_ok(bad == 0, "%d concurrent compilations give the reference image (%d differ)",
	     started * ROUNDS, bad);
out:
	vgpu_ptx_free(want);
	free(text);
	return t_done();
}
