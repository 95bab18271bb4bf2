// SPDX-License-Identifier: GPL-2.0
/*
 * The registry of what nvcc registers before main.  The calls are made in
 * the order nvcc's generated constructor makes them, with the arguments
 * it passes (names as mangled strings, the host stub or shadow address
 * as key).  No device needed: registration never touches it.
 */
#include <string.h>

#include "kselftest_harness.h"
#include "cudart_abi.h"
#include "cudart_internal.h"

/* Stand-ins for the host stub and shadow addresses nvcc passes. */
static void host_stub_a(void) {}
static void host_stub_b(void) {}
static float shadow_const[4];
static int shadow_global;
static void *managed_slot;

static const int wrapper_one[6] = { 0x466243B1, 1 };
static const int wrapper_two[6] = { 0x466243B1, 1 };

static void **register_module(const void *wrapper, char *kernel_name)
{
	void **h = __cudaRegisterFatBinary((void *)wrapper);

	__cudaRegisterFunction(h, (const char *)host_stub_a, kernel_name,
			       kernel_name, -1, NULL, NULL, NULL, NULL, NULL);
	__cudaRegisterVar(h, (char *)shadow_const, (char *)"c", "c", 0,
			  sizeof(shadow_const), 1, 0);
	__cudaRegisterVar(h, (char *)&shadow_global, (char *)"g", "g", 0,
			  sizeof(shadow_global), 0, 0);
	__cudaRegisterManagedVar(h, &managed_slot, (char *)"m", "m", 0,
				 sizeof(int), 0, 0);
	__cudaRegisterFatBinaryEnd(h);
	return h;
}

TEST(functions_and_variables_are_found_by_host_address)
{
	char name[] = "_Z6kernelPf";
	void **h = register_module(wrapper_one, name);
	struct rt_fatbin *fb = rt_fatbin_from_handle(h);
	struct rt_function *f;
	struct rt_variable *v;

	ASSERT_NE(NULL, fb);
	EXPECT_EQ((const void *)wrapper_one, fb->wrapper);
	/* The registry keeps its own copy of the names. */
	memset(name, 'x', sizeof(name) - 1);
	f = rt_function_lookup((const void *)host_stub_a);
	ASSERT_NE(NULL, f);
	EXPECT_STREQ("_Z6kernelPf", f->device_name);
	EXPECT_EQ(fb, f->fatbin);
	v = rt_variable_lookup(shadow_const);
	ASSERT_NE(NULL, v);
	EXPECT_STREQ("c", v->device_name);
	EXPECT_EQ(sizeof(shadow_const), v->size);
	EXPECT_FALSE(v->managed);
	v = rt_variable_lookup(&shadow_global);
	ASSERT_NE(NULL, v);
	EXPECT_EQ(sizeof(int), v->size);
	v = rt_variable_lookup(&managed_slot);
	ASSERT_NE(NULL, v);
	EXPECT_TRUE(v->managed);
	EXPECT_EQ(&managed_slot, v->managed_ptr);
	rt_registry_remove(fb);
}

TEST(unknown_addresses_are_not_found)
{
	void **h = register_module(wrapper_one, (char *)"_Z1kv");
	int local;

	EXPECT_EQ(NULL, rt_function_lookup((const void *)host_stub_b));
	EXPECT_EQ(NULL, rt_function_lookup(&local));
	EXPECT_EQ(NULL, rt_function_lookup(NULL));
	EXPECT_EQ(NULL, rt_variable_lookup(&local));
	/* A variable's address is not a function, nor the reverse. */
	EXPECT_EQ(NULL, rt_function_lookup(shadow_const));
	EXPECT_EQ(NULL, rt_variable_lookup((const void *)host_stub_a));
	rt_registry_remove(rt_fatbin_from_handle(h));
}

TEST(kernel_handles_are_validated)
{
	void **h = register_module(wrapper_one, (char *)"_Z1kv");
	struct rt_function *f = rt_function_lookup((const void *)host_stub_a);
	int not_a_kernel;

	ASSERT_NE(NULL, f);
	EXPECT_EQ(f, rt_function_from_kernel((cudaKernel_t)f));
	EXPECT_EQ(NULL, rt_function_from_kernel((cudaKernel_t)&not_a_kernel));
	EXPECT_EQ(NULL, rt_function_from_kernel(NULL));
	rt_registry_remove(rt_fatbin_from_handle(h));
}

static int managed_seen;

static cudaError_t count_managed(struct rt_variable *v, int dev)
{
	managed_seen += v->managed && dev == 3;
	return cudaSuccess;
}

static cudaError_t fail_managed(struct rt_variable *v, int dev)
{
	(void)v;
	(void)dev;
	managed_seen++;
	return cudaErrorIllegalAddress;
}

TEST(managed_variables_are_enumerated_per_module)
{
	void **h1 = register_module(wrapper_one, (char *)"_Z1kv");
	void **h2 = __cudaRegisterFatBinary((void *)wrapper_two);

	managed_seen = 0;
	EXPECT_EQ(cudaSuccess, rt_registry_for_each_managed(
			rt_fatbin_from_handle(h1), count_managed, 3));
	EXPECT_EQ(1, managed_seen);
	managed_seen = 0;
	EXPECT_EQ(cudaSuccess, rt_registry_for_each_managed(
			rt_fatbin_from_handle(h2), count_managed, 3));
	EXPECT_EQ(0, managed_seen);
	managed_seen = 0;
	EXPECT_EQ(cudaErrorIllegalAddress, rt_registry_for_each_managed(
			rt_fatbin_from_handle(h1), fail_managed, 0));
	EXPECT_EQ(1, managed_seen);
	rt_registry_remove(rt_fatbin_from_handle(h1));
	rt_registry_remove(rt_fatbin_from_handle(h2));
}

TEST(removing_a_module_forgets_only_its_entities)
{
	void **h1 = register_module(wrapper_one, (char *)"_Z1kv");
	void **h2 = __cudaRegisterFatBinary((void *)wrapper_two);

	__cudaRegisterFunction(h2, (const char *)host_stub_b, (char *)"_Z1bv",
			       "_Z1bv", -1, NULL, NULL, NULL, NULL, NULL);
	rt_registry_remove(rt_fatbin_from_handle(h1));
	EXPECT_EQ(NULL, rt_function_lookup((const void *)host_stub_a));
	EXPECT_EQ(NULL, rt_variable_lookup(shadow_const));
	EXPECT_EQ(NULL, rt_variable_lookup(&managed_slot));
	ASSERT_NE(NULL, rt_function_lookup((const void *)host_stub_b));
	EXPECT_STREQ("_Z1bv",
		     rt_function_lookup((const void *)host_stub_b)->device_name);
	rt_registry_remove(rt_fatbin_from_handle(h2));
	EXPECT_EQ(NULL, rt_function_lookup((const void *)host_stub_b));
}

TEST(registrations_without_a_handle_are_ignored)
{
	__cudaRegisterFunction(NULL, (const char *)host_stub_a, (char *)"k",
			       "k", -1, NULL, NULL, NULL, NULL, NULL);
	__cudaRegisterVar(NULL, (char *)&shadow_global, (char *)"g", "g", 0,
			  4, 0, 0);
	EXPECT_EQ(NULL, rt_function_lookup((const void *)host_stub_a));
	EXPECT_EQ(NULL, rt_variable_lookup(&shadow_global));
	EXPECT_EQ(NULL, rt_fatbin_from_handle(NULL));
}

TEST_HARNESS_MAIN
