/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for common/units.c: table-driven, value and errno per input. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "units.h"

struct size_case {
	const char *in;
	int rc;
	uint64_t want;
	const char *msg_has; /* substring expected in the message on error */
};

static const struct size_case size_cases[] = {
	{"0", 0, 0, NULL},
	{"512", 0, 512, NULL},
	{"4k", 0, 4096, NULL},
	{"4K", 0, 4096, NULL},
	{"4KiB", 0, 4096, NULL},
	{"4Ki", 0, 4096, NULL},
	{"4KB", 0, 4000, NULL},
	{"8M", 0, 8388608, NULL},
	{"8MiB", 0, 8388608, NULL},
	{"175MB", 0, 175000000, NULL},
	{"16G", 0, 17179869184ull, NULL},
	{"16GB", 0, 16000000000ull, NULL},
	{"1T", 0, 1099511627776ull, NULL},
	{"1.5G", 0, 1610612736ull, NULL},
	{"0.5K", 0, 512, NULL},
	{"100B", 0, 100, NULL},
	{"", -EINVAL, 0, "empty"},
	{"-1", -EINVAL, 0, "no sign"},
	{"+4k", -EINVAL, 0, "no sign"},
	{"abc", -EINVAL, 0, "not a number"},
	{"4x", -EINVAL, 0, "unknown unit"},
	{"4kk", -EINVAL, 0, "trailing"},
	{"4 k", -EINVAL, 0, "unknown unit"},
	{"4k ", -EINVAL, 0, "trailing"},
	{"1.3K", -EINVAL, 0, "whole number"},
	{"1.", -EINVAL, 0, "not a number"},
	{"4b", -EINVAL, 0, "unknown unit"},
	{"4M/s", -EINVAL, 0, "trailing"},
	{"8E", -EINVAL, 0, "unknown unit"},
	{"8000P", 0, 8000ull << 50, NULL},
	{"9000P", -ERANGE, 0, "too large"},
	{"9000000P", -ERANGE, 0, "too large"},
	{"99999999999999999999", -ERANGE, 0, "too large"},
};

static void test_parse_size(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(size_cases) / sizeof(size_cases[0]); i++) {
		const struct size_case *c = &size_cases[i];
		struct ios_err err;
		uint64_t v = 12345;
		int rc;

		ios_err_clear(&err);
		rc = ios_parse_size(c->in, "--bs", &v, &err);
		if (rc != c->rc)
			fail_msg("input \"%s\": rc %d, want %d (%s)", c->in, rc,
				 c->rc, err.msg);
		if (rc == 0) {
			if (v != c->want)
				fail_msg("input \"%s\": %llu, want %llu", c->in,
					 (unsigned long long)v,
					 (unsigned long long)c->want);
		} else {
			assert_int_equal(v, 12345); /* untouched on error */
			assert_int_equal(err.code, c->rc);
			assert_non_null(strstr(err.msg, "--bs"));
			if (!strstr(err.msg, c->msg_has))
				fail_msg(
					"input \"%s\": message \"%s\" lacks \"%s\"",
					c->in, err.msg, c->msg_has);
		}
	}
}

static void test_parse_rate(void **state)
{
	static const struct {
		const char *in;
		int rc;
		uint64_t want;
	} cases[] = {
		{"50M", 0, 52428800},    {"50MB", 0, 50000000},
		{"50MB/s", 0, 50000000}, {"50M/s", 0, 52428800},
		{"1.5MB", 0, 1500000},   {"100", 0, 100},
		{"50MB/", -EINVAL, 0},   {"50MB/h", -EINVAL, 0},
		{"", -EINVAL, 0},        {"-5M", -EINVAL, 0},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 0;
		int rc = ios_parse_rate(cases[i].in, "--iostrata-disk-bw", &v,
					NULL);

		if (rc != cases[i].rc)
			fail_msg("rate \"%s\": rc %d want %d", cases[i].in, rc,
				 cases[i].rc);
		if (rc == 0 && v != cases[i].want)
			fail_msg("rate \"%s\": %llu want %llu", cases[i].in,
				 (unsigned long long)v,
				 (unsigned long long)cases[i].want);
	}
}

static void test_parse_uint(void **state)
{
	static const struct {
		const char *in;
		uint64_t min, max;
		int rc;
		uint64_t want;
	} cases[] = {
		{"1", 1, 1024, 0, 1},
		{"1024", 1, 1024, 0, 1024},
		{"0", 1, 1024, -ERANGE, 0},
		{"1025", 1, 1024, -ERANGE, 0},
		{"", 1, 10, -EINVAL, 0},
		{"-3", 0, 10, -EINVAL, 0},
		{"3x", 0, 10, -EINVAL, 0},
		{"18446744073709551616", 0, UINT64_MAX, -ERANGE, 0},
		{"18446744073709551615", 0, UINT64_MAX, 0, UINT64_MAX},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ios_err err;
		uint64_t v = 0;
		int rc = ios_parse_uint(cases[i].in, "--iodepth", cases[i].min,
					cases[i].max, &v, &err);

		if (rc != cases[i].rc)
			fail_msg("uint \"%s\": rc %d want %d", cases[i].in, rc,
				 cases[i].rc);
		if (rc == 0)
			assert_true(v == cases[i].want);
		else
			assert_non_null(strstr(err.msg, "--iodepth"));
	}
}

static void test_parse_duration(void **state)
{
	static const struct {
		const char *in;
		int rc;
		double want;
	} cases[] = {
		{"150", 0, 150.0},  {"150s", 0, 150.0},  {"2m", 0, 120.0},
		{"1h", 0, 3600.0},  {"500ms", 0, 0.5},   {"0.25", 0, 0.25},
		{"2min", 0, 120.0}, {"", -EINVAL, 0},    {"5d", -EINVAL, 0},
		{"-1", -EINVAL, 0}, {"1e3", -EINVAL, 0},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double v = -1;
		int rc = ios_parse_duration(cases[i].in, "--runtime", &v, NULL);

		if (rc != cases[i].rc)
			fail_msg("duration \"%s\": rc %d want %d", cases[i].in,
				 rc, cases[i].rc);
		if (rc == 0 && fabs(v - cases[i].want) > 1e-9)
			fail_msg("duration \"%s\": %g want %g", cases[i].in, v,
				 cases[i].want);
	}
}

static void test_format(void **state)
{
	char buf[32];

	(void)state;
	assert_string_equal(ios_fmt_size(8388608, buf, sizeof(buf)), "8 MiB");
	assert_string_equal(ios_fmt_size(1610612736, buf, sizeof(buf)),
			    "1.50 GiB");
	assert_string_equal(ios_fmt_size(100, buf, sizeof(buf)), "100 B");
	assert_string_equal(ios_fmt_rate(1.73e9, buf, sizeof(buf)),
			    "1.73 GB/s");
	assert_string_equal(ios_fmt_rate(512, buf, sizeof(buf)), "512 B/s");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_size),
		cmocka_unit_test(test_parse_rate),
		cmocka_unit_test(test_parse_uint),
		cmocka_unit_test(test_parse_duration),
		cmocka_unit_test(test_format),
	};

	return cmocka_run_group_tests_name("units", tests, NULL, NULL);
}
