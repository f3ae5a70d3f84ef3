/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for common/lathist.c: bucket layout, quantiles, merge. */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "lathist.h"

static void test_layout(void **state)
{
	static const uint64_t probes[] = {
		0,  1,    15,      16,        17,         31,
		32, 1000, 1000000, 123456789, 1ull << 40, UINT64_MAX};
	unsigned b, prev = 0;
	size_t i;

	(void)state;
	/* every value lands in the bucket whose bounds contain it */
	for (i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		b = ios_lathist_bucket(probes[i]);
		assert_true(b < IOS_LAT_BUCKETS);
		assert_true(ios_lathist_lower(b) <= probes[i]);
		if (b + 1 < IOS_LAT_BUCKETS)
			assert_true(probes[i] < ios_lathist_lower(b + 1));
	}
	/* lower bounds strictly increase and buckets are at most 1/16 wide */
	for (b = 1; b < IOS_LAT_BUCKETS; b++) {
		uint64_t lo = ios_lathist_lower(b);

		assert_true(lo > ios_lathist_lower(prev));
		if (b + 1 < IOS_LAT_BUCKETS && lo >= 16)
			assert_true((ios_lathist_lower(b + 1) - lo) * 16 <= lo);
		prev = b;
	}
	assert_int_equal(ios_lathist_bucket(UINT64_MAX), IOS_LAT_BUCKETS - 1);
}

static void test_quantiles(void **state)
{
	struct ios_lathist h;
	uint64_t v;
	double p50, p99;

	(void)state;
	ios_lathist_init(&h);
	assert_true(isnan(
		ios_lathist_quantile(h.count, h.n, 0.5, h.min_ns, h.max_ns)));
	/* 1..10000 us uniformly: p50 ~ 5 ms, p99 ~ 9.9 ms within 6.25% */
	for (v = 1; v <= 10000; v++)
		ios_lathist_add(&h, v * 1000);
	p50 = ios_lathist_quantile(h.count, h.n, 0.5, h.min_ns, h.max_ns);
	p99 = ios_lathist_quantile(h.count, h.n, 0.99, h.min_ns, h.max_ns);
	assert_true(fabs(p50 - 5e6) / 5e6 < 0.0625);
	assert_true(fabs(p99 - 9.9e6) / 9.9e6 < 0.0625);
	assert_true(ios_lathist_quantile(h.count, h.n, 1.0, h.min_ns,
					 h.max_ns) <= 1e7);
	assert_int_equal(h.min_ns, 1000);
	assert_int_equal(h.max_ns, 10000000);
}

static void test_merge(void **state)
{
	struct ios_lathist a, b;

	(void)state;
	ios_lathist_init(&a);
	ios_lathist_init(&b);
	ios_lathist_add(&a, 100);
	ios_lathist_add(&b, 5);
	ios_lathist_add(&b, 1u << 20);
	ios_lathist_merge(&a, &b);
	assert_int_equal(a.n, 3);
	assert_int_equal(a.min_ns, 5);
	assert_int_equal(a.max_ns, 1u << 20);
	assert_int_equal(a.count[ios_lathist_bucket(100)], 1);
	assert_true(fabs(a.sum_ns - (100.0 + 5 + (1u << 20))) < 1e-6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_quantiles),
		cmocka_unit_test(test_merge),
	};

	return cmocka_run_group_tests_name("lathist", tests, NULL, NULL);
}
