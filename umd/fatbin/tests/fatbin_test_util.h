/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the fatbin tests. */
#ifndef FATBIN_TEST_UTIL_H
#define FATBIN_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "fatbin/fatbin.h"

/*
 * Read file @path into a malloc()ed buffer of exactly its size (so that
 * AddressSanitizer sees any read past the end); exits the test with a
 * message if it cannot.  test_read_data() reads FATBIN_TEST_DATA/@name.
 */
uint8_t *test_read_file(const char *path, size_t *size);
uint8_t *test_read_data(const char *name, size_t *size);

/*
 * PTX as it is stored in a fatbin differs from `nvcc -ptx` output:
 * comments are removed (comment lines become blank lines), and runs of
 * spaces and tabs are one space, without leading or trailing blanks.
 * Returns a malloc()ed copy of @ptx in that normal form, so that the two
 * can be compared.
 */
char *test_normalise_ptx(const char *ptx);

/* Whether @a and @b are the same PTX once normalised. */
int test_same_ptx(const char *a, const char *b);

/* Reference PTX (nvcc -ptx output) from FATBIN_TEST_DATA/@name. */
char *test_reference_ptx(const char *name);

#endif /* FATBIN_TEST_UTIL_H */
