/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_policy: the policy file (ownership, mode, symlink, syntax) and the
 * request checks (bounds, CPUs online, profiles, users, accounts).
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "fake_root.h"
#include "policy.h"

static const char good[] =
	"# comment\n"
	"allow_users = alice, bob\n"
	"allow_accounts = storage\n"
	"min_cpus = 2\n"
	"min_mem = 4G\n"
	"min_disk_bw = 10M\n"
	"min_disk_iops = 20\n"
	"device = 254:0\n"
	"cgroup = /sys/fs/cgroup/blkio/osd.0 /sys/fs/cgroup/blkio/osd.1\n"
	"mem_tolerance = 5%\n"
	"mem_attempt_timeout = 500ms\n"
	"[profile small]\n"
	"cpus = 2\n"
	"mem = 8G\n"
	"disk_bw = 50M,60M\n"
	"[global]\n"
	"cpu_tolerance = 1\n";

static int setup(void **state)
{
	*state = fake_root_new();
	return 0;
}

static int teardown(void **state)
{
	fake_root_free(*state);
	return 0;
}

static int load(struct fake_root *r, const char *text, mode_t mode,
		struct policy **p, struct ios_err *err)
{
	fake_write(r, "policy.conf", text);
	assert_int_equal(chmod(fake_path(r, "policy.conf"), mode), 0);
	ios_err_clear(err);
	return policy_load(fake_path(r, "policy.conf"), geteuid(), p, err);
}

static void test_good(void **state)
{
	struct policy *p;
	struct ios_err err;

	assert_int_equal(load(*state, good, 0644, &p, &err), 0);
	assert_int_equal(p->n_users, 2);
	assert_string_equal(p->allow_users[1], "bob");
	assert_int_equal(p->min_cpus, 2);
	assert_int_equal(p->min_mem, 4ULL << 30);
	assert_int_equal(p->n_cgroups, 2);
	assert_int_equal(p->n_profiles, 1);
	assert_int_equal(p->profiles[0].req.rbps, 60ULL << 20);
	assert_int_equal(p->cpu_tolerance, 1);
	assert_int_equal(p->mem_attempt_ms, 500);
	assert_int_equal(policy_mem_slack(p, 1000), 50);
	assert_true(p->require_exclusive);
	policy_free(p);
}

static void test_refused_files(void **state)
{
	struct fake_root *r = *state;
	struct policy *p = NULL;
	struct ios_err err;

	/* group- and world-writable */
	assert_int_equal(load(r, good, 0664, &p, &err), -EPERM);
	assert_non_null(strstr(err.msg, "refused"));
	assert_int_equal(load(r, good, 0646, &p, &err), -EPERM);
	assert_null(p);
	/* wrong owner */
	assert_int_equal(chmod(fake_path(r, "policy.conf"), 0644), 0);
	assert_int_equal(policy_load(fake_path(r, "policy.conf"), geteuid() + 1,
				     &p, &err),
			 -EPERM);
	/* missing */
	assert_int_equal(
		policy_load(fake_path(r, "nope.conf"), geteuid(), &p, &err),
		-ENOENT);
	assert_non_null(strstr(err.msg, "nope.conf"));
	/* a symlink to a good file */
	fake_symlink(r, "policy.conf", "link.conf");
	assert_int_equal(
		policy_load(fake_path(r, "link.conf"), geteuid(), &p, &err),
		-ELOOP);
	/* a directory */
	fake_mkdir(r, "dir.conf");
	assert_int_not_equal(
		policy_load(fake_path(r, "dir.conf"), geteuid(), &p, &err), 0);
}

static const char *const bad_lines[] = {
	"bogus = 1\n",
	"min_cpus = 0\n",
	"min_cpus = two\n",
	"min_mem = 4X\n",
	"min_disk_bw = -1\n",
	"cgroup = /etc/passwd\n",
	"cgroup = /sys/fs/cgroup/../../etc\n",
	"cgroup = /sys/fs/cgroup/a;b\n",
	"require_exclusive = maybe\n",
	"mem_tolerance = 120%\n",
	"mem_tolerance = nan%\n",
	"mem_attempt_timeout = 0\n",
	"[profile]\n",
	"[profile a/b]\n",
	"[something]\n",
	"[profile p]\nbogus = 1\n",
	"[profile p]\ncpus = 0\n",
	"[profile p]\nmem = $(id)\n",
	"no equals sign\n",
};

static void test_bad_lines(void **state)
{
	for (size_t i = 0; i < sizeof(bad_lines) / sizeof(bad_lines[0]); i++) {
		struct policy *p = NULL;
		struct ios_err err;
		int rc = load(*state, bad_lines[i], 0644, &p, &err);

		if (rc >= 0)
			fail_msg("bad policy line accepted: %s", bad_lines[i]);
		assert_null(p);
		/* file:line in the message */
		assert_non_null(strstr(err.msg, "policy.conf:"));
	}
}

struct req_case {
	const char *cpus, *mem, *bw, *iops, *profile;
	unsigned online;
	int rc;
};

static const struct req_case req_cases[] = {
	{"2", "8G", "50M", "100", NULL, 4, 0},
	{NULL, NULL, NULL, NULL, "small", 4, 0},
	{"1", NULL, NULL, NULL, NULL, 4, -ERANGE},  /* below min_cpus */
	{"5", NULL, NULL, NULL, NULL, 4, -ERANGE},  /* more than online */
	{"5", NULL, NULL, NULL, NULL, 0, 0},        /* submit: unknown */
	{NULL, "1G", NULL, NULL, NULL, 4, -ERANGE}, /* below min_mem */
	{NULL, NULL, "1M", NULL, NULL, 4, -ERANGE}, /* below min bw */
	{NULL, NULL, "50M,1M", NULL, NULL, 4, -ERANGE},
	{NULL, NULL, NULL, "10", NULL, 4, -ERANGE},
	{NULL, NULL, NULL, NULL, "nope", 4, -ENOENT}, /* unknown profile */
	{"1", NULL, NULL, NULL, "small", 4, -ERANGE}, /* explicit wins */
};

static void test_req_checks(void **state)
{
	struct policy *p;
	struct ios_err err;

	assert_int_equal(load(*state, good, 0644, &p, &err), 0);
	for (size_t i = 0; i < sizeof(req_cases) / sizeof(req_cases[0]); i++) {
		const struct req_case *c = &req_cases[i];
		struct iostrata_req r;
		int rc;

		memset(&r, 0, sizeof(r));
		if (c->cpus)
			assert_int_equal(
				req_parse_opt(&r, REQ_CPUS, c->cpus, NULL), 0);
		if (c->mem)
			assert_int_equal(
				req_parse_opt(&r, REQ_MEM, c->mem, NULL), 0);
		if (c->bw)
			assert_int_equal(
				req_parse_opt(&r, REQ_DISK_BW, c->bw, NULL), 0);
		if (c->iops)
			assert_int_equal(
				req_parse_opt(&r, REQ_DISK_IOPS, c->iops, NULL),
				0);
		if (c->profile)
			assert_int_equal(req_parse_opt(&r, REQ_PROFILE,
						       c->profile, NULL),
					 0);
		ios_err_clear(&err);
		rc = policy_check_req(p, &r, c->online, &err);
		if (rc != c->rc)
			fail_msg("req case %zu: rc %d want %d (%s)", i, rc,
				 c->rc, err.msg);
		if (rc < 0)
			assert_non_null(strstr(err.msg, "--iostrata-"));
		if (i == 1) {
			assert_int_equal(r.cpus, 2);
			assert_int_equal(r.mem, 8ULL << 30);
			assert_int_equal(r.wbps, 50ULL << 20);
		}
	}
	policy_free(p);
}

static void test_throttle_needs_targets(void **state)
{
	struct policy *p;
	struct ios_err err;
	struct iostrata_req r;

	assert_int_equal(load(*state, "min_cpus = 1\n", 0644, &p, &err), 0);
	memset(&r, 0, sizeof(r));
	assert_int_equal(req_parse_opt(&r, REQ_DISK_BW, "50M", NULL), 0);
	assert_int_equal(policy_check_req(p, &r, 2, &err), -ERANGE);
	assert_non_null(strstr(err.msg, "no device or cgroup"));
	policy_free(p);
}

static void test_users(void **state)
{
	struct policy *p;
	struct ios_err err;

	assert_int_equal(load(*state, good, 0644, &p, &err), 0);
	assert_int_equal(policy_check_user(p, 1000, "alice", NULL, &err), 0);
	assert_int_equal(policy_check_user(p, 1002, "carol", "storage", &err),
			 0);
	assert_int_equal(policy_check_user(p, 1002, "carol", "other", &err),
			 -EPERM);
	assert_non_null(strstr(err.msg, "carol"));
	assert_int_equal(policy_check_user(p, 1002, NULL, NULL, &err), -EPERM);
	policy_free(p);
	assert_int_equal(load(*state, "allow_users = *\n", 0644, &p, &err), 0);
	assert_int_equal(policy_check_user(p, 5, "x", NULL, &err), 0);
	policy_free(p);
	/* empty policy: nobody */
	assert_int_equal(load(*state, "\n", 0644, &p, &err), 0);
	assert_int_equal(policy_check_user(p, 0, "root", "root", &err), -EPERM);
	policy_free(p);
}

static void test_shipped_policies(void **state)
{
	const char *src = getenv("IOSTRATA_SRCDIR");
	const char *files[] = {"site/local/policy.conf",
			       "site/example/policy.conf"};
	struct fake_root *r = *state;

	if (!src)
		skip();
	for (int i = 0; i < 2; i++) {
		char path[4096], *text;
		struct policy *p;
		struct ios_err err;
		FILE *f;
		long n;

		snprintf(path, sizeof(path), "%s/%s", src, files[i]);
		f = fopen(path, "r");
		assert_non_null(f);
		fseek(f, 0, SEEK_END);
		n = ftell(f);
		rewind(f);
		text = calloc(1, (size_t)n + 1);
		assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
		fclose(f);
		/* a copy we own: the shipped file's owner is the checkout's */
		if (load(r, text, 0644, &p, &err) != 0)
			fail_msg("%s: %s", files[i], err.msg);
		assert_true(p->n_profiles > 0);
		policy_free(p);
		free(text);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_refused_files),
		cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_req_checks),
		cmocka_unit_test(test_throttle_needs_targets),
		cmocka_unit_test(test_users),
		cmocka_unit_test(test_shipped_policies),
	};

	return cmocka_run_group_tests_name("policy", tests, setup, teardown);
}
