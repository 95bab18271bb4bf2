// SPDX-License-Identifier: GPL-2.0
/*
 * The per-thread stack of <<<>>> configurations that nvcc's launch code
 * pushes and its kernel stubs pop.  No device needed.
 */
#include <pthread.h>

#include "kselftest_harness.h"
#include "cudart_abi.h"
#include "cudart_internal.h"

static dim3 d3(unsigned int x, unsigned int y, unsigned int z)
{
	dim3 d = { x, y, z };

	return d;
}

static void expect_dim(struct __test_metadata *_metadata, dim3 got,
		       unsigned int x, unsigned int y, unsigned int z)
{
	EXPECT_EQ(x, got.x);
	EXPECT_EQ(y, got.y);
	EXPECT_EQ(z, got.z);
}

TEST(push_then_pop_returns_the_configuration)
{
	dim3 g, b;
	size_t shmem;
	cudaStream_t s;

	ASSERT_EQ(0, __cudaPushCallConfiguration(d3(7, 8, 9), d3(32, 2, 1),
						 4096,
						 (struct CUstream_st *)0x1234));
	ASSERT_EQ(cudaSuccess, __cudaPopCallConfiguration(&g, &b, &shmem, &s));
	expect_dim(_metadata, g, 7, 8, 9);
	expect_dim(_metadata, b, 32, 2, 1);
	EXPECT_EQ(4096, shmem);
	EXPECT_EQ((cudaStream_t)0x1234, s);
}

/* k<<<1,1>>>(f<<<2,2>>>(...)): the inner launch is pushed and popped while
 * the outer configuration waits below it. */
TEST(nested_configurations_pop_in_reverse)
{
	dim3 g, b;
	size_t shmem;
	cudaStream_t s;

	ASSERT_EQ(0, __cudaPushCallConfiguration(d3(1, 1, 1), d3(1, 1, 1), 0,
						 NULL));
	ASSERT_EQ(0, __cudaPushCallConfiguration(d3(2, 2, 2), d3(2, 2, 2), 16,
						 NULL));
	ASSERT_EQ(cudaSuccess, __cudaPopCallConfiguration(&g, &b, &shmem, &s));
	expect_dim(_metadata, g, 2, 2, 2);
	EXPECT_EQ(16, shmem);
	ASSERT_EQ(cudaSuccess, __cudaPopCallConfiguration(&g, &b, &shmem, &s));
	expect_dim(_metadata, g, 1, 1, 1);
	EXPECT_EQ(0, shmem);
}

TEST(pop_without_push_is_missing_configuration)
{
	dim3 g, b;
	size_t shmem;
	cudaStream_t s;

	cudaGetLastError();
	EXPECT_EQ(cudaErrorMissingConfiguration,
		  __cudaPopCallConfiguration(&g, &b, &shmem, &s));
	EXPECT_EQ(cudaErrorMissingConfiguration, cudaGetLastError());
}

TEST(overflow_refuses_the_launch_and_says_why)
{
	dim3 g, b;
	size_t shmem;
	cudaStream_t s;
	unsigned int pushed = 0;

	cudaGetLastError();
	while (__cudaPushCallConfiguration(d3(pushed + 1, 1, 1), d3(1, 1, 1),
					   0, NULL) == 0) {
		pushed++;
		ASSERT_LT(pushed, 1000);
	}
	EXPECT_EQ(32, pushed);
	EXPECT_EQ(cudaErrorLaunchOutOfResources, cudaGetLastError());
	/* Everything that was accepted is still there, in order. */
	for (unsigned int i = pushed; i > 0; i--) {
		ASSERT_EQ(cudaSuccess,
			  __cudaPopCallConfiguration(&g, &b, &shmem, &s));
		EXPECT_EQ(i, g.x);
	}
	EXPECT_EQ(cudaErrorMissingConfiguration,
		  __cudaPopCallConfiguration(&g, &b, &shmem, &s));
}

static void *pop_in_thread(void *arg)
{
	dim3 g, b;
	size_t shmem;
	cudaStream_t s;

	*(cudaError_t *)arg = __cudaPopCallConfiguration(&g, &b, &shmem, &s);
	return NULL;
}

TEST(stack_is_per_thread)
{
	cudaError_t other;
	pthread_t t;
	dim3 g, b;
	size_t shmem;
	cudaStream_t s;

	ASSERT_EQ(0, __cudaPushCallConfiguration(d3(5, 1, 1), d3(1, 1, 1), 0,
						 NULL));
	ASSERT_EQ(0, pthread_create(&t, NULL, pop_in_thread, &other));
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(cudaErrorMissingConfiguration, other);
	ASSERT_EQ(cudaSuccess, __cudaPopCallConfiguration(&g, &b, &shmem, &s));
	EXPECT_EQ(5, g.x);
}

TEST_HARNESS_MAIN
