/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests: --verify block stamps (encoding and every verdict). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "content.h"
#include "verify.h"

struct vcase {
	size_t len;
	uint32_t rank;
	uint64_t off, seed;
	/* tampering before the check */
	long flip; /* byte index to flip, -1 none */
	uint32_t check_rank;
	uint64_t check_off, check_seed;
	enum mb_verify_result want;
};

static const struct vcase cases[] = {
	{4096, 3, 8192, 42, -1, 3, 8192, 42, MB_VERIFY_OK},
	{8u << 20, 0, 0, 1, -1, 0, 0, 1, MB_VERIFY_OK},
	{512, 7, 1ull << 40, 99, -1, 7, 1ull << 40, 99, MB_VERIFY_OK},
	{100, 1, 4096, 5, -1, 1, 4096, 5, MB_VERIFY_OK}, /* odd length */
	{4096, 3, 8192, 42, 2000, 3, 8192, 42, MB_VERIFY_BAD_CHECKSUM},
	{4096, 3, 8192, 42, 4095, 3, 8192, 42, MB_VERIFY_BAD_CHECKSUM},
	{100, 3, 8192, 42, 99, 3, 8192, 42, MB_VERIFY_BAD_CHECKSUM},
	{4096, 3, 8192, 42, 20, 3, 8192, 42, MB_VERIFY_BAD_CHECKSUM},
	{4096, 3, 8192, 42, 0, 3, 8192, 42, MB_VERIFY_BAD_MAGIC},
	{4096, 3, 8192, 42, -1, 4, 8192, 42, MB_VERIFY_BAD_RANK},
	{4096, 3, 8192, 42, -1, 3, 4096, 42, MB_VERIFY_BAD_OFFSET},
	{4096, 3, 8192, 42, -1, 3, 8192, 43, MB_VERIFY_BAD_SEED},
};

/* Zeros in each 512-byte chunk of a filled buffer. */
static size_t zeros_in(const unsigned char *p, size_t len)
{
	size_t z = 0;

	for (size_t i = 0; i < len; i++)
		z += p[i] == 0;
	return z;
}

/* Two writes of one block carry different data; so do two ranks' first
 * writes (distinct generator states); the zero tails stay. */
static void test_content_fresh(void **state)
{
	enum { BS = 65536 };
	unsigned char *a = malloc(BS), *b = malloc(BS), *c = malloc(BS);
	uint64_t s1 = 42, s2 = 43;

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(c);
	mb_content_fill(a, BS, 7, 50);
	memcpy(b, a, BS);
	memcpy(c, a, BS);
	mb_content_scramble(a, BS, &s1); /* write 1 of the block */
	memcpy(b, a, BS);
	mb_content_scramble(b, BS, &s1); /* write 2 of the same block */
	mb_content_scramble(c, BS, &s2); /* another rank's write */
	assert_memory_not_equal(a, b, BS);
	assert_memory_not_equal(a, c, BS);
	for (size_t k = 0; k < BS; k += MB_CONTENT_CHUNK) {
		/* every chunk changed between the two writes of the block */
		assert_memory_not_equal(a + k, b + k, 8);
		/* and only its first 8 bytes did */
		assert_memory_equal(a + k + 8, b + k + 8, MB_CONTENT_CHUNK - 8);
		/* the zero tail (256 of 512) is intact */
		assert_int_equal(zeros_in(b + k + 256, 256), 256);
		/* no two chunks of one write start alike */
		for (size_t j = 0; j < k; j += MB_CONTENT_CHUNK)
			assert_memory_not_equal(b + j, b + k, 8);
	}
	free(a);
	free(b);
	free(c);
}

/* --buffer-compress: the share of zeros per chunk is what was asked. */
static void test_content_compress(void **state)
{
	enum { BS = 8192 };
	unsigned char *p = malloc(BS + 100);
	static const int pct[] = {0, 25, 50, 75, 100};

	(void)state;
	assert_non_null(p);
	for (size_t i = 0; i < sizeof(pct) / sizeof(pct[0]); i++) {
		size_t want = (size_t)pct[i] * BS / 100, z;

		mb_content_fill(p, BS, 99, pct[i]);
		z = zeros_in(p, BS);
		/* random bytes are 0 one time in 256 */
		assert_true(z >= want && z <= want + BS / 100);
	}
	/* a length that is not a multiple of the chunk: the tail chunk too */
	mb_content_fill(p, BS + 100, 5, 100);
	assert_int_equal(zeros_in(p, BS + 100), BS + 100);
	free(p);
}

static void test_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct vcase *c = &cases[i];
		unsigned char *buf = malloc(c->len);
		enum mb_verify_result r;

		assert_non_null(buf);
		mb_verify_fill(buf, c->len, c->rank, 2, c->off, c->seed);
		if (c->flip >= 0)
			buf[c->flip] ^= 0x10;
		r = mb_verify_check(buf, c->len, c->check_rank, c->check_off,
				    c->check_seed);
		if (r != c->want)
			fail_msg("case %zu: got %s, want %s", i,
				 mb_verify_strerror(r),
				 mb_verify_strerror(c->want));
		free(buf);
	}
}

static void test_zero_and_layout(void **state)
{
	unsigned char buf[4096] = {0}, b2[4096];
	struct mb_verify_hdr h;

	(void)state;
	/* a hole reads back as zeros: no stamp */
	assert_int_equal(mb_verify_check(buf, sizeof(buf), 0, 0, 0),
			 MB_VERIFY_BAD_MAGIC);
	/* the header carries what it claims */
	mb_verify_fill(buf, sizeof(buf), 5, UINT32_MAX, 12288, 77);
	memcpy(&h, buf, sizeof(h));
	assert_true(h.magic == MB_VERIFY_MAGIC);
	assert_int_equal(h.rank, 5);
	assert_int_equal(h.rep, UINT32_MAX);
	assert_int_equal(h.offset, 12288);
	assert_int_equal(h.seed, 77);
	/* the repetition is informational: another rep verifies too */
	mb_verify_fill(b2, sizeof(b2), 5, 3, 12288, 77);
	assert_int_equal(mb_verify_check(b2, sizeof(b2), 5, 12288, 77),
			 MB_VERIFY_OK);
	/* payloads differ between offsets (no block can pass for another) */
	mb_verify_fill(b2, sizeof(b2), 5, UINT32_MAX, 16384, 77);
	assert_memory_not_equal(buf + MB_VERIFY_HDR, b2 + MB_VERIFY_HDR, 64);
	assert_string_equal(mb_verify_strerror(MB_VERIFY_OK), "ok");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_content_fresh),
		cmocka_unit_test(test_content_compress),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_zero_and_layout),
	};

	return cmocka_run_group_tests_name("mb_verify", tests, NULL, NULL);
}
