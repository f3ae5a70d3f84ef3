/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_options: every bad --iostrata-* value and plugstack argument from
 * issue 5, table-driven: rejected with a message naming the input.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "args.h"
#include "log.h"
#include "policy.h"

struct opt_case {
	enum req_opt opt;
	const char *val;
	int rc;
	uint64_t want;   /* cpus/mem/wbps/iops */
	uint64_t want_r; /* rbps for disk-bw */
};

static const struct opt_case cases[] = {
	/* good */
	{REQ_CPUS, "1", 0, 1, 0},
	{REQ_CPUS, "16", 0, 16, 0},
	{REQ_MEM, "12G", 0, 12ULL << 30, 0},
	{REQ_MEM, "512MiB", 0, 512ULL << 20, 0},
	{REQ_MEM, "2GB", 0, 2000000000ULL, 0},
	{REQ_DISK_BW, "50M", 0, 50ULL << 20, 50ULL << 20},
	{REQ_DISK_BW, "50M,100M", 0, 50ULL << 20, 100ULL << 20},
	{REQ_DISK_BW, "175MB", 0, 175000000ULL, 175000000ULL},
	{REQ_DISK_IOPS, "200", 0, 200, 0},
	{REQ_PROFILE, "small", 0, 0, 0},
	{REQ_PROFILE, "hdd-slow_2", 0, 0, 0},
	{REQ_MDS_CPUS, "0.5", 0, 500, 0},
	{REQ_MDS_CPUS, "3", 0, 3000, 0},
	{REQ_MDS_CPUS, "0.001", 0, 1, 0},
	{REQ_MDS_MEM, "1G", 0, 1ULL << 30, 0},
	{REQ_MDS_CACHE, "64M", 0, 64ULL << 20, 0},
	{REQ_MDS_CPUS, "0", -ERANGE, 0, 0},
	{REQ_MDS_CPUS, "70000", -ERANGE, 0, 0},
	{REQ_MDS_CPUS, "0.0001", -EINVAL, 0, 0},
	{REQ_MDS_CPUS, "-1", -EINVAL, 0, 0},
	{REQ_MDS_MEM, "0", -EINVAL, 0, 0},
	{REQ_MDS_CACHE, "12Q", -EINVAL, 0, 0},
	/* 0 */
	{REQ_CPUS, "0", -ERANGE, 0, 0},
	{REQ_MEM, "0", -EINVAL, 0, 0},
	{REQ_MEM, "0G", -EINVAL, 0, 0},
	{REQ_DISK_BW, "0", -EINVAL, 0, 0},
	{REQ_DISK_BW, "50M,0", -EINVAL, 0, 0},
	{REQ_DISK_IOPS, "0", -ERANGE, 0, 0},
	/* negative */
	{REQ_CPUS, "-1", -EINVAL, 0, 0},
	{REQ_MEM, "-12G", -EINVAL, 0, 0},
	{REQ_DISK_BW, "-5M", -EINVAL, 0, 0},
	{REQ_DISK_IOPS, "-3", -EINVAL, 0, 0},
	/* overflow */
	{REQ_CPUS, "99999999999999999999", -ERANGE, 0, 0},
	{REQ_CPUS, "70000", -ERANGE, 0, 0},
	{REQ_MEM, "99999999999P", -ERANGE, 0, 0},
	{REQ_DISK_IOPS, "18446744073709551616", -ERANGE, 0, 0},
	/* trailing junk */
	{REQ_CPUS, "1x", -EINVAL, 0, 0},
	{REQ_CPUS, "1.5", -EINVAL, 0, 0},
	{REQ_MEM, "12G4", -EINVAL, 0, 0},
	{REQ_DISK_BW, "50M,", -EINVAL, 0, 0},
	{REQ_DISK_BW, ",50M", -EINVAL, 0, 0},
	{REQ_DISK_BW, "50M,60M,70M", -EINVAL, 0, 0},
	/* unknown units */
	{REQ_MEM, "12X", -EINVAL, 0, 0},
	{REQ_MEM, "12Gb", -EINVAL, 0, 0},
	{REQ_DISK_BW, "50Q", -EINVAL, 0, 0},
	/* empty */
	{REQ_CPUS, "", -EINVAL, 0, 0},
	{REQ_MEM, "", -EINVAL, 0, 0},
	{REQ_DISK_BW, "", -EINVAL, 0, 0},
	{REQ_DISK_IOPS, "", -EINVAL, 0, 0},
	{REQ_PROFILE, "", -EINVAL, 0, 0},
	{REQ_CPUS, NULL, -EINVAL, 0, 0},
	/* path or shell characters */
	{REQ_PROFILE, "../etc/passwd", -EINVAL, 0, 0},
	{REQ_PROFILE, "a/b", -EINVAL, 0, 0},
	{REQ_PROFILE, "a;rm -rf /", -EINVAL, 0, 0},
	{REQ_PROFILE, "$(id)", -EINVAL, 0, 0},
	{REQ_PROFILE, "`id`", -EINVAL, 0, 0},
	{REQ_PROFILE, "a b", -EINVAL, 0, 0},
	{REQ_PROFILE, "a\nb", -EINVAL, 0, 0},
	{REQ_CPUS, "1;reboot", -EINVAL, 0, 0},
	{REQ_MEM, "12G|cat", -EINVAL, 0, 0},
	{REQ_DISK_BW, "50M&", -EINVAL, 0, 0},
	{REQ_DISK_IOPS, "1 2", -EINVAL, 0, 0},
	{REQ_PROFILE,
	 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	 -EINVAL, 0, 0},
};

static void test_opt_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct opt_case *c = &cases[i];
		struct iostrata_req r;
		struct ios_err err;
		int rc;

		memset(&r, 0, sizeof(r));
		ios_err_clear(&err);
		rc = req_parse_opt(&r, c->opt, c->val, &err);
		if (rc != c->rc)
			fail_msg("case %zu \"%s\": rc %d, want %d (%s)", i,
				 c->val ? c->val : "(null)", rc, c->rc,
				 err.msg);
		if (rc < 0) {
			/* the message names the option */
			assert_non_null(strstr(err.msg, "--iostrata-"));
			assert_false(req_any(&r));
			continue;
		}
		switch (c->opt) {
		case REQ_CPUS:
			assert_int_equal(r.cpus, c->want);
			break;
		case REQ_MEM:
			assert_int_equal(r.mem, c->want);
			break;
		case REQ_DISK_BW:
			assert_int_equal(r.wbps, c->want);
			assert_int_equal(r.rbps, c->want_r);
			break;
		case REQ_DISK_IOPS:
			assert_int_equal(r.iops, c->want);
			break;
		case REQ_PROFILE:
			assert_string_equal(r.profile, c->val);
			break;
		case REQ_MDS_CPUS:
			assert_int_equal(r.mds_mcpus, c->want);
			break;
		case REQ_MDS_MEM:
			assert_int_equal(r.mds_mem, c->want);
			break;
		case REQ_MDS_CACHE:
			assert_int_equal(r.mds_cache, c->want);
			break;
		case REQ_N_OPTS:
			fail_msg("REQ_N_OPTS is no option");
		}
		assert_true(req_any(&r));
	}
}

/* Option callbacks can run twice with the same value. */
static void test_opt_twice(void **state)
{
	struct iostrata_req r, r2;

	(void)state;
	memset(&r, 0, sizeof(r));
	assert_int_equal(req_parse_opt(&r, REQ_MEM, "12G", NULL), 0);
	r2 = r;
	assert_int_equal(req_parse_opt(&r, REQ_MEM, "12G", NULL), 0);
	assert_memory_equal(&r, &r2, sizeof(r));
}

struct arg_case {
	const char *argv[4];
	int rc;
};

static const struct arg_case arg_cases[] = {
	{{"nodes=n1", NULL}, 0},
	{{"nodes=n[1-3],st*", "state_dir=/run/x", "policy=/etc/p.conf"}, 0},
	{{"node=n1", NULL}, -EINVAL},
	{{"nodes", NULL}, -EINVAL},
	{{"debug", NULL}, -EINVAL},
	{{"state_dir=relative", NULL}, -EINVAL},
	{{"policy=", NULL}, -EINVAL},
	{{"nodes=", NULL}, -EINVAL},
	{{"nodes=n1", "bogus=1", NULL}, -EINVAL},
};

static void test_plugstack_args(void **state)
{
	(void)state;
	log_use_capture();
	for (size_t i = 0; i < sizeof(arg_cases) / sizeof(arg_cases[0]); i++) {
		struct plugin_args a;
		int ac = 0;

		while (ac < 4 && arg_cases[i].argv[ac])
			ac++;
		log_capture_reset();
		if (plugin_args_parse(ac, (char **)arg_cases[i].argv, &a) !=
		    arg_cases[i].rc)
			fail_msg("plugstack case %zu: want %d", i,
				 arg_cases[i].rc);
		if (arg_cases[i].rc < 0)
			assert_non_null(strstr(log_captured(), "plugstack"));
	}
	log_capture_reset();
}

static void test_node_enabled(void **state)
{
	struct plugin_args a;
	char *av[] = {"nodes=n1,st[0-9]*"};

	(void)state;
	assert_int_equal(plugin_args_parse(1, av, &a), 0);
	assert_true(plugin_node_enabled(&a, "n1"));
	assert_true(plugin_node_enabled(&a, "st01"));
	assert_false(plugin_node_enabled(&a, "n2"));
	assert_false(plugin_node_enabled(&a, "n11"));
	assert_false(plugin_node_enabled(&a, ""));
	assert_false(plugin_node_enabled(&a, NULL));
	assert_int_equal(plugin_args_parse(0, NULL, &a), 0);
	assert_false(plugin_node_enabled(&a, "n1")); /* default: nowhere */
	assert_string_equal(a.state_dir, "/run/iostrata");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_opt_table),
		cmocka_unit_test(test_opt_twice),
		cmocka_unit_test(test_plugstack_args),
		cmocka_unit_test(test_node_enabled),
	};

	return cmocka_run_group_tests_name("options", tests, NULL, NULL);
}
