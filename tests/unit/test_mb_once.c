/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_mb_once: the block order of a random --once repetition (every
 * block exactly once, in range, the same for a seed, another for another
 * seed) and the watchdog bound of its I/O stage.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "once.h"

/* Every index of [0, n) exactly once; returns how many positions i map to
 * themselves (a permutation that is not the identity has few). */
static uint64_t check_perm(uint64_t n, uint64_t seed)
{
	struct mb_perm p;
	uint8_t *seen = calloc(n, 1);
	uint64_t fixed = 0;

	assert_non_null(seen);
	mb_perm_init(&p, n, seed);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t x = mb_perm_at(&p, i);

		if (x >= n)
			fail_msg("n %llu seed %llu: element %llu is %llu",
				 (unsigned long long)n,
				 (unsigned long long)seed,
				 (unsigned long long)i, (unsigned long long)x);
		if (seen[x])
			fail_msg("n %llu seed %llu: block %llu twice",
				 (unsigned long long)n,
				 (unsigned long long)seed,
				 (unsigned long long)x);
		seen[x] = 1;
		fixed += x == i;
	}
	for (uint64_t x = 0; x < n; x++)
		assert_int_equal(seen[x], 1);
	free(seen);
	return fixed;
}

static void test_every_block_once(void **state)
{
	static const uint64_t ns[] = {1,    2,     3,     4,      5,     7,
				      8,    255,   256,   257,    1000,  4096,
				      4097, 65535, 65536, 100003, 262144};

	(void)state;
	for (size_t k = 0; k < sizeof(ns) / sizeof(ns[0]); k++)
		for (uint64_t seed = 0; seed < 4; seed++) {
			uint64_t fixed = check_perm(ns[k], seed * 77 + 1);

			/* a shuffle, not the identity: about 1 fixed point */
			if (ns[k] >= 1000 && fixed > ns[k] / 100)
				fail_msg("n %llu: %llu fixed points",
					 (unsigned long long)ns[k],
					 (unsigned long long)fixed);
		}
}

static void test_seeded(void **state)
{
	struct mb_perm a, b, c;
	uint64_t n = 1u << 16, same_ab = 0, same_ac = 0;

	(void)state;
	mb_perm_init(&a, n, 42);
	mb_perm_init(&b, n, 42);
	mb_perm_init(&c, n, 43);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t x = mb_perm_at(&a, i);

		same_ab += x == mb_perm_at(&b, i);
		same_ac += x == mb_perm_at(&c, i);
	}
	assert_int_equal(same_ab, n);
	assert_true(same_ac < n / 100);
}

/* Not in order: consecutive elements are rarely neighbours. */
static void test_random_order(void **state)
{
	struct mb_perm p;
	uint64_t n = 1u << 20, near = 0, prev;

	(void)state;
	mb_perm_init(&p, n, 7);
	prev = mb_perm_at(&p, 0);
	for (uint64_t i = 1; i < n; i++) {
		uint64_t x = mb_perm_at(&p, i);

		near += (x > prev ? x - prev : prev - x) <= 1;
		prev = x;
	}
	assert_true(near < n / 1000);
}

/* A block count beyond 2^32 (a 16 TiB file of 4 KiB blocks), sampled. */
static void test_large(void **state)
{
	struct mb_perm p;
	uint64_t n = (16ull << 40) / 4096 + 3;

	(void)state;
	mb_perm_init(&p, n, 1);
	for (uint64_t i = 0; i < 100000; i++)
		assert_true(mb_perm_at(&p, i * 4099) < n);
	assert_true(mb_perm_at(&p, n - 1) < n);
}

static void test_bound(void **state)
{
	(void)state;
	/* file size / 1 MB/s + 60 s */
	assert_true(mb_once_bound_s(0) == 60.0);
	assert_true(mb_once_bound_s(1000000) == 61.0);
	assert_true(mb_once_bound_s(16ull << 30) > 60.0 + 17179.869183 &&
		    mb_once_bound_s(16ull << 30) < 60.0 + 17179.869185);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_block_once),
		cmocka_unit_test(test_seeded),
		cmocka_unit_test(test_random_order),
		cmocka_unit_test(test_large),
		cmocka_unit_test(test_bound),
	};

	return cmocka_run_group_tests_name("mb_once", tests, NULL, NULL);
}
