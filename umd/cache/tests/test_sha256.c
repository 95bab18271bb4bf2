// SPDX-License-Identifier: GPL-2.0
/* SHA-256 against the FIPS 180-4 example vectors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest.h"
#include "sha256.h"

static void to_hex(const uint8_t d[SHA256_DIGEST_SIZE], char *hex)
{
	for (int i = 0; i < SHA256_DIGEST_SIZE; i++)
		sprintf(hex + 2 * i, "%02x", d[i]);
}

static void check(const char *name, const void *msg, size_t len,
		  const char *expected)
{
	uint8_t digest[SHA256_DIGEST_SIZE];
	char hex[65];

	sha256(msg, len, digest);
	to_hex(digest, hex);
	ksft_test_result(!strcmp(hex, expected), "sha256(%s)\n", name);
}

/* Any split of the input into two updates gives the one-shot digest. */
static void check_incremental(void)
{
	uint8_t msg[200], whole[SHA256_DIGEST_SIZE], parts[SHA256_DIGEST_SIZE];
	struct sha256_ctx ctx;
	int ok = 1;

	for (size_t i = 0; i < sizeof(msg); i++)
		msg[i] = (uint8_t)(i * 7 + 3);
	sha256(msg, sizeof(msg), whole);
	for (size_t cut = 0; cut <= sizeof(msg); cut++) {
		sha256_init(&ctx);
		sha256_update(&ctx, msg, cut);
		sha256_update(&ctx, msg + cut, sizeof(msg) - cut);
		sha256_final(&ctx, parts);
		ok &= !memcmp(whole, parts, sizeof(whole));
	}
	ksft_test_result(ok, "split updates equal the one-shot digest\n");
}

int main(void)
{
	size_t million = 1000000;
	char *a = malloc(million);

	ksft_print_header();
	ksft_set_plan(6);
	check("\"\"", "", 0,
	      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	check("abc", "abc", 3,
	      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	check("448 bits",
	      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
	      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	check("896 bits",
	      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
	      112,
	      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
	memset(a, 'a', million);
	check("one million a", a, million,
	      "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	check_incremental();
	free(a);
	ksft_finished();
}
