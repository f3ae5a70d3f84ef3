/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_node_mds: --iostrata-mds-cpus, --iostrata-mds-mem and
 * --iostrata-mds-cache on the fake node of node_fx.c, with the MDS's
 * cgroup in a fake cgroupfs (v1 cpu and memory hierarchies, or cgroup2)
 * and a fake ceph CLI keeping the monitors' configuration database in
 * files: parsing and the policy's floors, apply and restore (a cache
 * limit that was unset comes back unset, one that was set comes back to
 * its value), a failure in the middle leaving nothing applied, the
 * record (requested, applied, before), a node whose policy names no MDS,
 * Ceph unreachable at the restore, the status, and hostile journals.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "fake_root.h"
#include "log.h"
#include "node.h"
#include "node_fx.h"
#include "sysfs.h"

#define MDS_CG "/system.slice/ceph-mds@a.service"
#define CPU1 "sys/fs/cgroup/cpu" MDS_CG
#define MEM1 "sys/fs/cgroup/memory" MDS_CG
#define CG2 "sys/fs/cgroup" MDS_CG
#define V1_NOLIMIT "9223372036854771712"
#define DEFAULT_CACHE "4294967296"
#define KEY "mds_cache_memory_limit"

/* The fake ceph: db/WHO__KEY is WHO's own entry; "down" fails as an
 * unreachable cluster does, "fail-set" refuses every config set. */
static const char fake_ceph[] =
	"#!/bin/sh\n"
	"d=$(dirname \"$0\")/..\n"
	"while [ \"${1#--}\" != \"$1\" ]; do shift 2; done\n"
	"echo \"$*\" >>\"$d/ceph-calls\"\n"
	"if [ -e \"$d/ceph-down\" ]; then\n"
	"  echo '[errno 110] RADOS timed out (error connecting to the cluster)' >&2\n"
	"  exit 1\n"
	"fi\n"
	"case \"$1 $2\" in\n"
	"'config get')\n"
	"  if [ -f \"$d/db/$3__$4\" ]; then cat \"$d/db/$3__$4\"\n"
	"  else echo " DEFAULT_CACHE "; fi ;;\n"
	"'config set')\n"
	"  if [ -e \"$d/ceph-fail-set\" ]; then echo 'Error EPERM: access denied' >&2; exit 1; fi\n"
	"  echo \"$5\" >\"$d/db/$3__$4\" ;;\n"
	"'config rm') rm -f \"$d/db/$3__$4\" ;;\n"
	"'config dump')\n"
	"  echo 'WHO    MASK  LEVEL     OPTION             VALUE  RO'\n"
	"  for f in \"$d\"/db/*__*; do [ -f \"$f\" ] || continue\n"
	"    b=${f##*/}\n"
	"    echo \"${b%%__*}        basic     ${b#*__}  $(cat \"$f\")\"\n"
	"  done ;;\n"
	"*) echo \"unknown command $*\" >&2; exit 22 ;;\n"
	"esac\n";

static void mds_policy(struct fx *f, const char *extra)
{
	char text[2048];

	snprintf(text, sizeof(text),
		 "allow_users = *\n"
		 "min_mem = 256M\n"
		 "mem_reserve = 128M\n"
		 "device = 254:0\n"
		 "cgroup = /" V1 "\n"
		 "mem_tolerance = 0\n"
		 "ceph = %s\n"
		 "ceph_conf = /etc/ceph/test.conf\n"
		 "%s",
		 fake_path(f->r, "bin/ceph"), extra);
	use_policy(f, text);
}

#define MDS_LINES                                                              \
	"mds = a\n"                                                            \
	"mds_cgroup = " MDS_CG "\n"

static void fake_mds_v1(struct fx *f)
{
	fake_mkdir(f->r, CPU1);
	fake_write(f->r, CPU1 "/cpu.cfs_quota_us", "-1\n");
	fake_write(f->r, CPU1 "/cpu.cfs_period_us", "100000\n");
	fake_mkdir(f->r, MEM1);
	fake_write(f->r, MEM1 "/memory.limit_in_bytes", V1_NOLIMIT "\n");
}

static int setup_mds(void **state)
{
	struct fx *f;

	setup(state);
	f = *state;
	fake_mds_v1(f);
	fake_write(f->r, "bin/ceph", fake_ceph);
	chmod(fake_path(f->r, "bin/ceph"), 0755);
	fake_mkdir(f->r, "db");
	mds_policy(f, MDS_LINES);
	return 0;
}

static void rm_tree(struct fx *f, const char *rel)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fake_path(f->r, rel));
	assert_int_equal(system(cmd), 0);
}

static bool exists(struct fx *f, const char *rel)
{
	struct stat st;

	return stat(fake_path(f->r, rel), &st) == 0;
}

static void req_mds(struct iostrata_req *r, const char *cpus, const char *mem,
		    const char *cache)
{
	memset(r, 0, sizeof(*r));
	if (cpus)
		assert_int_equal(req_parse_opt(r, REQ_MDS_CPUS, cpus, NULL), 0);
	if (mem)
		assert_int_equal(req_parse_opt(r, REQ_MDS_MEM, mem, NULL), 0);
	if (cache)
		assert_int_equal(req_parse_opt(r, REQ_MDS_CACHE, cache, NULL),
				 0);
}

/* node_restore as the epilog calls it: without a policy. */
static int restore_as_epilog(struct fx *f, const char *id, struct ios_err *err)
{
	const struct policy *pol = f->c.pol;
	int rc;

	f->c.pol = NULL;
	rc = node_restore(&f->c, id, err);
	f->c.pol = pol;
	return rc;
}

static void assert_mds_whole(struct fx *f)
{
	assert_string_equal(fake_read(f->r, CPU1 "/cpu.cfs_quota_us"), "-1");
	assert_string_equal(fake_read(f->r, MEM1 "/memory.limit_in_bytes"),
			    V1_NOLIMIT);
	assert_false(exists(f, "db/mds.a__" KEY));
}

static void test_parse(void **state)
{
	struct iostrata_req r;
	struct ios_err err;
	static const char *const bad[] = {"0",   "0.0",    "abc",   "1.",
					  ".5",  "0.0001", "1.2.3", "-1",
					  "1e3", "70000",  ""};

	(void)state;
	memset(&r, 0, sizeof(r));
	assert_int_equal(req_parse_opt(&r, REQ_MDS_CPUS, "0.5", &err), 0);
	assert_int_equal(r.mds_mcpus, 500);
	assert_int_equal(req_parse_opt(&r, REQ_MDS_CPUS, "2", &err), 0);
	assert_int_equal(r.mds_mcpus, 2000);
	assert_int_equal(req_parse_opt(&r, REQ_MDS_CPUS, "1.25", &err), 0);
	assert_int_equal(r.mds_mcpus, 1250);
	assert_string_equal(r.raw_mds_cpus, "1.25");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct iostrata_req t = r;

		if (req_parse_opt(&t, REQ_MDS_CPUS, bad[i], &err) == 0)
			fail_msg("\"%s\" accepted", bad[i]);
		assert_non_null(strstr(err.msg, "--iostrata-mds-cpus"));
		/* nothing half-done */
		assert_int_equal(t.mds_mcpus, 1250);
	}
	assert_int_equal(req_parse_opt(&r, REQ_MDS_MEM, "2G", &err), 0);
	assert_int_equal(r.mds_mem, 2ULL << 30);
	assert_int_equal(req_parse_opt(&r, REQ_MDS_CACHE, "64M", &err), 0);
	assert_int_equal(r.mds_cache, 64ULL << 20);
	assert_int_equal(req_parse_opt(&r, REQ_MDS_CACHE, "0", &err), -EINVAL);
	assert_non_null(strstr(err.msg, "--iostrata-mds-cache"));
	assert_int_not_equal(req_parse_opt(&r, REQ_MDS_MEM, "1G;rm", &err), 0);
	assert_non_null(strstr(err.msg, "--iostrata-mds-mem"));
	assert_true(req_any(&r));
}

/* Below a floor: refused naming the option, the value and the floor. */
static void test_floors(void **state)
{
	struct fx *f = *state;
	struct iostrata_req r;
	struct ios_err err;

	mds_policy(f, MDS_LINES "min_mds_cpus = 0.25\n"
				"min_mds_mem = 1G\n"
				"min_mds_cache = 100M\n");
	req_mds(&r, "0.2", NULL, NULL);
	assert_int_equal(policy_check_req(f->c.pol, &r, 0, &err), -ERANGE);
	assert_non_null(strstr(
		err.msg,
		"--iostrata-mds-cpus=0.2 is below the site minimum min_mds_cpus 0.250"));
	req_mds(&r, NULL, "512M", NULL);
	assert_int_equal(policy_check_req(f->c.pol, &r, 0, &err), -ERANGE);
	assert_non_null(strstr(err.msg, "--iostrata-mds-mem=512M is below the "
					"site minimum min_mds_mem 1"));
	req_mds(&r, NULL, NULL, "64M");
	assert_int_equal(policy_check_req(f->c.pol, &r, 0, &err), -ERANGE);
	assert_non_null(strstr(err.msg, "--iostrata-mds-cache=64M is below the "
					"site minimum min_mds_cache 100"));
	/* the cache must fit below the memory limit */
	req_mds(&r, NULL, "2G", "2G");
	assert_int_equal(policy_check_req(f->c.pol, &r, 0, &err), -ERANGE);
	assert_non_null(strstr(err.msg, "is not below --iostrata-mds-mem=2G"));
	req_mds(&r, "0.25", "2G", "1G");
	assert_int_equal(policy_check_req(f->c.pol, &r, 0, &err), 0);
	/* the default floors (0.1 CPU) without min_mds_* */
	mds_policy(f, MDS_LINES);
	req_mds(&r, "0.05", NULL, NULL);
	assert_int_equal(policy_check_req(f->c.pol, &r, 0, &err), -ERANGE);
	assert_non_null(strstr(err.msg, "min_mds_cpus 0.100"));
	/* a profile's MDS values go through the floors too */
	mds_policy(f, MDS_LINES "min_mds_cache = 100M\n"
				"[profile tinymds]\n"
				"mds_cpus = 0.5\n"
				"mds_cache = 50M\n");
	memset(&r, 0, sizeof(r));
	assert_int_equal(req_parse_opt(&r, REQ_PROFILE, "tinymds", NULL), 0);
	assert_int_equal(policy_check_req(f->c.pol, &r, 0, &err), -ERANGE);
	assert_non_null(strstr(err.msg, "--iostrata-mds-cache=50"));
	assert_true(r.has_mds_cpus);
	assert_int_equal(r.mds_mcpus, 500);
}

/* The policy's MDS keys: each error with file:line, nothing loaded. */
static void test_policy_errors(void **state)
{
	struct fx *f = *state;
	static const struct {
		const char *text, *want;
	} cases[] = {
		{"mds = a\n", ":1: mds without mds_cgroup"},
		{"\nmds_cgroup = /x.service\n", ":2: mds_cgroup without mds"},
		{"mds = .a\nmds_cgroup = /x\n", ":1: mds: invalid MDS id"},
		{"mds = a b\nmds_cgroup = /x\n", ":1: mds: invalid MDS id"},
		{"mds = a\nmds_cgroup = x\n", ":2: mds_cgroup: invalid cgroup"},
		{"mds = a\nmds_cgroup = /a/../b\n",
		 ":2: mds_cgroup: invalid cgroup"},
		{"mds = a\nmds_cgroup = /a/\n",
		 ":2: mds_cgroup: invalid cgroup"},
		{"mds = a\nmds = b\n", ":2: key \"mds\" given twice"},
		{"min_mds_cpus = 0\n", ":1: min_mds_cpus"},
		{"min_mds_mem = lots\n", ":1: min_mds_mem"},
		{"[profile p]\nmds_cpus = x\n", ":2: --iostrata-mds-cpus"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct policy *p = NULL;
		struct ios_err err;

		fake_write(f->r, "bad.conf", cases[i].text);
		chmod(fake_path(f->r, "bad.conf"), 0644);
		if (policy_load(fake_path(f->r, "bad.conf"), geteuid(), &p,
				&err) == 0)
			fail_msg("case %zu accepted", i);
		assert_null(p);
		if (!strstr(err.msg, cases[i].want))
			fail_msg("case %zu: \"%s\" lacks \"%s\"", i, err.msg,
				 cases[i].want);
	}
}

/* CPU quota, memory limit and cache set and read back, recorded, and
 * restored exactly by the epilog (the cache limit was unset: its entry
 * goes). */
static void test_apply_restore_v1(void **state)
{
	struct fx *f = *state;
	struct iostrata_req r;
	struct ios_err err;
	const char *j;

	req_mds(&r, "0.5", "1G", "256M");
	if (node_apply(&f->c, "700", 0, &r, &err) != 0)
		fail_msg("apply: %s", err.msg);
	assert_string_equal(fake_read(f->r, CPU1 "/cpu.cfs_quota_us"), "50000");
	assert_string_equal(fake_read(f->r, MEM1 "/memory.limit_in_bytes"),
			    "1073741824");
	assert_string_equal(fake_read(f->r, "db/mds.a__" KEY), "268435456");
	j = fake_read(f->r, "run/iostrata/journal/700.state");
	assert_non_null(strstr(j, "\nmds a " MDS_CG "\n"));
	assert_non_null(strstr(j, "\nmdscpu 1 18446744073709551615 100000 "
				  "50000\n"));
	assert_non_null(strstr(j, "\nmdsmem 1 " V1_NOLIMIT " 1073741824\n"));
	assert_non_null(
		strstr(j, "\nmdscache 0 " DEFAULT_CACHE " 268435456\n"));
	assert_non_null(strstr(j, "/bin/ceph /etc/ceph/test.conf 30000\n"));
	j = fake_read(f->r, "run/iostrata/700.applied.json");
	assert_non_null(strstr(j, "\"mds_cpus\": 0.5"));
	assert_non_null(strstr(j, "\"mds\": {"));
	assert_non_null(strstr(j, "\"id\": \"a\""));
	assert_non_null(strstr(j, "\"applied\": {\n      \"cpus\": 0.5"));
	assert_non_null(strstr(j, "\"mem_bytes\": 1073741824"));
	assert_non_null(strstr(j, "\"cache_bytes\": 268435456"));
	assert_non_null(
		strstr(j, "\"before\": {\n      \"cpus\": \"unlimited\""));
	assert_non_null(strstr(j, "\"cache_explicit\": false"));
	j = fake_read(f->r, "run/iostrata/700.env");
	assert_non_null(strstr(j, "IOSTRATA_REQ_MDS_CPUS=0.5\n"));
	assert_non_null(strstr(j, "IOSTRATA_APPLIED_MDS_CPUS=0.500\n"));
	assert_non_null(strstr(j, "IOSTRATA_APPLIED_MDS_MEM=1073741824\n"));
	assert_non_null(strstr(j, "IOSTRATA_APPLIED_MDS_CACHE=268435456\n"));
	assert_int_equal(restore_as_epilog(f, "700", &err), 0);
	assert_mds_whole(f);
	assert_false(journal_exists(f, "700"));
	assert_non_null(
		strstr(fake_read(f->r, "ceph-calls"), "config rm mds.a " KEY));
	assert_whole(f);
	/* a second restore has nothing to do */
	assert_int_equal(node_restore(&f->c, "700", &err), 0);
}

/* A cache limit of its own and a quota that were set come back to their
 * values; a memory request is rounded to whole pages. */
static void test_restore_previous_values(void **state)
{
	struct fx *f = *state;
	struct iostrata_req r;
	struct ios_err err;

	fake_write(f->r, "db/mds.a__" KEY, "1073741824\n");
	fake_write(f->r, CPU1 "/cpu.cfs_quota_us", "150000\n");
	fake_write(f->r, MEM1 "/memory.limit_in_bytes", "8589934592\n");
	req_mds(&r, "1", "1000000000", "128M");
	if (node_apply(&f->c, "701", 0, &r, &err) != 0)
		fail_msg("apply: %s", err.msg);
	assert_string_equal(fake_read(f->r, CPU1 "/cpu.cfs_quota_us"),
			    "100000");
	assert_string_equal(fake_read(f->r, MEM1 "/memory.limit_in_bytes"),
			    "999997440");
	assert_non_null(
		strstr(fake_read(f->r, "run/iostrata/journal/701.state"),
		       "\nmdscache 1 1073741824 134217728\n"));
	assert_int_equal(restore_as_epilog(f, "701", &err), 0);
	assert_string_equal(fake_read(f->r, "db/mds.a__" KEY), "1073741824");
	assert_string_equal(fake_read(f->r, CPU1 "/cpu.cfs_quota_us"),
			    "150000");
	assert_string_equal(fake_read(f->r, MEM1 "/memory.limit_in_bytes"),
			    "8589934592");
}

static int fail_mem(const char *path, const char *val)
{
	(void)val;
	return strstr(path, "memory.limit_in_bytes") &&
			       strcmp(val, V1_NOLIMIT) != 0
		       ? -EBUSY
		       : 0;
}

/* The memory limit refused after the CPU quota was set: the job is
 * refused, the quota back, the cache never touched, no journal. */
static void test_fail_middle(void **state)
{
	struct fx *f = *state;
	struct iostrata_req r;
	struct ios_err err;

	req_mds(&r, "0.5", "1G", "256M");
	sysfs_fault_hook = fail_mem;
	assert_int_equal(node_apply(&f->c, "702", 0, &r, &err), -EBUSY);
	sysfs_fault_hook = NULL;
	assert_non_null(strstr(err.msg, "memory limit 1073741824"));
	assert_non_null(strstr(err.msg, "could not reclaim"));
	assert_mds_whole(f);
	assert_null(strstr(fake_read(f->r, "ceph-calls"), "config set"));
	assert_false(journal_exists(f, "702"));
	assert_whole(f);
}

/* The cache limit refused by the monitors, after the cgroup: all back. */
static void test_fail_cache(void **state)
{
	struct fx *f = *state;
	struct iostrata_req r;
	struct ios_err err;

	req_mds(&r, "0.5", "1G", "256M");
	fake_write(f->r, "ceph-fail-set", "");
	assert_int_not_equal(node_apply(&f->c, "703", 0, &r, &err), 0);
	assert_non_null(strstr(err.msg, "set " KEY " 268435456"));
	assert_non_null(strstr(err.msg, "access denied"));
	assert_mds_whole(f);
	assert_false(journal_exists(f, "703"));
	unlink(fake_path(f->r, "ceph-fail-set"));
	/* Ceph down before anything changes: refused, nothing changed */
	fake_write(f->r, "ceph-down", "");
	assert_int_not_equal(node_apply(&f->c, "704", 0, &r, &err), 0);
	assert_non_null(strstr(err.msg, "nothing changed"));
	assert_mds_whole(f);
	assert_false(journal_exists(f, "704"));
}

/* Ceph unreachable at the restore: the cgroup is back, the journal kept,
 * the next restore finishes. */
static void test_restore_ceph_down(void **state)
{
	struct fx *f = *state;
	struct iostrata_req r;
	struct ios_err err;

	req_mds(&r, NULL, NULL, "256M");
	assert_int_equal(node_apply(&f->c, "705", 0, &r, &err), 0);
	fake_write(f->r, "ceph-down", "");
	assert_int_equal(restore_as_epilog(f, "705", &err), -EIO);
	assert_non_null(
		strstr(err.msg, "mds.a " KEY " not back to " DEFAULT_CACHE));
	assert_true(journal_exists(f, "705"));
	unlink(fake_path(f->r, "ceph-down"));
	assert_int_equal(restore_as_epilog(f, "705", &err), 0);
	assert_mds_whole(f);
	assert_false(journal_exists(f, "705"));
}

/* cgroup2: cpu.max and memory.max, "max" put back. */
static void test_v2(void **state)
{
	struct fx *f = *state;
	struct iostrata_req r;
	struct ios_err err;

	rm_tree(f, CPU1);
	rm_tree(f, MEM1);
	fake_mkdir(f->r, CG2);
	fake_write(f->r, CG2 "/cpu.max", "max 100000\n");
	fake_write(f->r, CG2 "/memory.max", "max\n");
	req_mds(&r, "1.5", "2G", NULL);
	if (node_apply(&f->c, "706", 0, &r, &err) != 0)
		fail_msg("apply: %s", err.msg);
	assert_string_equal(fake_read(f->r, CG2 "/cpu.max"), "150000 100000");
	assert_string_equal(fake_read(f->r, CG2 "/memory.max"), "2147483648");
	assert_non_null(
		strstr(fake_read(f->r, "run/iostrata/journal/706.state"),
		       "\nmdscpu 2 18446744073709551615 100000 150000\n"));
	assert_null(strstr(fake_read(f->r, "run/iostrata/journal/706.state"),
			   "mdscache"));
	assert_int_equal(restore_as_epilog(f, "706", &err), 0);
	assert_string_equal(fake_read(f->r, CG2 "/cpu.max"), "max 100000");
	assert_string_equal(fake_read(f->r, CG2 "/memory.max"), "max");
	/* no cgroup at all: refused before anything changes */
	rm_tree(f, CG2);
	assert_int_equal(node_apply(&f->c, "707", 0, &r, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "the MDS cgroup " MDS_CG));
	assert_non_null(strstr(err.msg, "nothing changed"));
	assert_false(journal_exists(f, "707"));
}

/* A symlink on the way to the MDS cgroup is refused. */
static void test_symlink(void **state)
{
	struct fx *f = *state;
	struct iostrata_req r;
	struct ios_err err;

	rm_tree(f, CPU1);
	fake_mkdir(f->r, "elsewhere");
	fake_write(f->r, "elsewhere/cpu.cfs_quota_us", "-1\n");
	fake_write(f->r, "elsewhere/cpu.cfs_period_us", "100000\n");
	{
		char target[4200];

		snprintf(target, sizeof(target), "%s",
			 fake_path(f->r, "elsewhere"));
		fake_symlink(f->r, target, CPU1);
	}
	req_mds(&r, "0.5", NULL, NULL);
	assert_int_equal(node_apply(&f->c, "708", 0, &r, &err), -ELOOP);
	assert_non_null(strstr(err.msg, "reached through a symlink"));
	assert_string_equal(fake_read(f->r, "elsewhere/cpu.cfs_quota_us"),
			    "-1");
	assert_false(journal_exists(f, "708"));
}

/* A node whose policy names no MDS: nothing touched, the record says
 * why (the MDS options act where the policy names it). */
static void test_no_mds_here(void **state)
{
	struct fx *f = *state;
	struct iostrata_req r;
	struct ios_err err;
	const char *j;

	mds_policy(f, "");
	req_mds(&r, "0.5", NULL, "256M");
	assert_int_equal(node_apply(&f->c, "709", 0, &r, &err), 0);
	assert_mds_whole(f);
	j = fake_read(f->r, "run/iostrata/709.applied.json");
	assert_non_null(strstr(j, "\"applied\": null"));
	assert_non_null(strstr(j, "names no MDS"));
	assert_false(exists(f, "ceph-calls"));
	assert_int_equal(node_restore(&f->c, "709", &err), 0);
}

/* A refused job's record keeps the MDS request (no applied values). */
static void test_refusal_record(void **state)
{
	struct fx *f = *state;
	struct iostrata_req r;
	const char *j;

	req_mds(&r, "0.5", NULL, "256M");
	assert_int_equal(node_publish_refusal(&f->c, "710", &r, "refused"), 0);
	j = fake_read(f->r, "run/iostrata/710.env");
	assert_non_null(strstr(j, "IOSTRATA_REQ_MDS_CPUS=0.5\n"));
	assert_non_null(strstr(j, "IOSTRATA_REQ_MDS_CACHE=256M\n"));
	assert_null(strstr(j, "IOSTRATA_APPLIED_MDS"));
	j = fake_read(f->r, "run/iostrata/710.applied.json");
	assert_non_null(strstr(j, "\"mds_cache_bytes\": 268435456"));
	assert_null(strstr(j, "\"mds\": {"));
	assert_mds_whole(f);
}

/* iostrata-node status shows the MDS's shape now. */
static void test_status(void **state)
{
	struct fx *f = *state;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	fake_write(f->r, CPU1 "/cpu.cfs_quota_us", "50000\n");
	assert_int_equal(node_status_json(&f->c, out), 0);
	fclose(out);
	assert_non_null(strstr(buf, "\"mds\": {"));
	assert_non_null(strstr(buf, "\"cpus\": 0.5"));
	assert_non_null(strstr(buf, "\"mem_bytes\": \"unlimited\""));
	assert_non_null(strstr(buf, "\"cache_bytes\": " DEFAULT_CACHE));
	free(buf);
	/* the health check: a quota without a journal is not whole */
	{
		struct ios_err err;

		assert_int_equal(node_check(&f->c, &err), -EBUSY);
		assert_non_null(strstr(err.msg, "mds.a CPU quota set"));
		fake_write(f->r, CPU1 "/cpu.cfs_quota_us", "-1\n");
		/* (the fixture's site throttle on V1 stays: not whole for
		 * that alone) */
		assert_int_equal(node_check(&f->c, &err), -EBUSY);
		assert_null(strstr(err.msg, "mds.a"));
		fake_write(f->r, MEM1 "/memory.limit_in_bytes", "1073741824\n");
		assert_int_equal(node_check(&f->c, &err), -EBUSY);
		assert_non_null(strstr(err.msg, "mds.a memory limit set"));
	}
}

/* Journals with MDS lines others could not have written: refused. */
static void test_hostile_journal(void **state)
{
	struct fx *f = *state;
	static const char *const bad[] = {
		"mds a /a/../../etc\n",
		"mds a relative\n",
		"mds .a /x\n",
		"mdscpu 1 -1 100000 5000\n", /* before its mds line */
		"mds a /x\nmds b /y\n",
		"mds a /x\nmdscpu 3 1 100000 5000\n",
		"mds a /x\nmdscpu 1 1 0 5000\n",
		"mds a /x\nmdsmem 1 x 5\n",
		"mds a /x\nmdscache 2 1 2\n",
		"mds a /x\nmdscache 1 1 2\nmdscache 1 1 2\n",

	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[512];
		struct snapshot s;
		struct ios_err err;

		snprintf(text, sizeof(text),
			 "iostrata-journal 1\njob 800\nuid 0\nnode n1\n"
			 "time 1\nmemblock 134217728\n%send\n",
			 bad[i]);
		fake_write(f->r, "run/iostrata/journal/800.state", text);
		chmod(fake_path(f->r, "run/iostrata/journal/800.state"), 0600);
		memset(&s, 0, sizeof(s));
		if (state_journal_read(&f->c.sd, "800", &s, &err) != -EINVAL)
			fail_msg("case %zu accepted", i);
		snapshot_free(&s);
	}
	/* Ceph values without a "ceph" line: the policy's default CLI and
	 * timeout, so that it writes back as it reads (a timeout of 0
	 * would be written and then refused: fuzz_journal found it) */
	{
		struct snapshot s, g;
		struct ios_err err;

		fake_write(f->r, "run/iostrata/journal/800.state",
			   "iostrata-journal 1\njob 800\nuid 0\nnode n1\n"
			   "time 1\nmemblock 134217728\n"
			   "mds a /x\nmdscache 0 1 2\nend\n");
		chmod(fake_path(f->r, "run/iostrata/journal/800.state"), 0600);
		assert_int_equal(state_journal_read(&f->c.sd, "800", &s, &err),
				 0);
		assert_int_equal(s.ceph.timeout_ms, 30000);
		assert_string_equal(s.ceph.path, "");
		assert_int_equal(state_journal_write(&f->c.sd, &s), 0);
		assert_int_equal(state_journal_read(&f->c.sd, "800", &g, &err),
				 0);
		assert_int_equal(g.ceph.timeout_ms, 30000);
		assert_true(g.mds.cache);
		snapshot_free(&s);
		snapshot_free(&g);
	}
	unlink(fake_path(f->r, "run/iostrata/journal/800.state"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test_setup_teardown(test_floors, setup_mds,
						teardown),
		cmocka_unit_test_setup_teardown(test_policy_errors, setup_mds,
						teardown),
		cmocka_unit_test_setup_teardown(test_apply_restore_v1,
						setup_mds, teardown),
		cmocka_unit_test_setup_teardown(test_restore_previous_values,
						setup_mds, teardown),
		cmocka_unit_test_setup_teardown(test_fail_middle, setup_mds,
						teardown),
		cmocka_unit_test_setup_teardown(test_fail_cache, setup_mds,
						teardown),
		cmocka_unit_test_setup_teardown(test_restore_ceph_down,
						setup_mds, teardown),
		cmocka_unit_test_setup_teardown(test_v2, setup_mds, teardown),
		cmocka_unit_test_setup_teardown(test_symlink, setup_mds,
						teardown),
		cmocka_unit_test_setup_teardown(test_no_mds_here, setup_mds,
						teardown),
		cmocka_unit_test_setup_teardown(test_refusal_record, setup_mds,
						teardown),
		cmocka_unit_test_setup_teardown(test_status, setup_mds,
						teardown),
		cmocka_unit_test_setup_teardown(test_hostile_journal, setup_mds,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
