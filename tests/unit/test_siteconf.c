/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for site/siteconf.c: every rejection (missing file, malformed
 * line, unknown section or key, bad unit, bad list, ...) with file:line in
 * the message, the typed getters, lists, tiers, ${VAR}, and the shipped site
 * descriptions.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
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

#include "siteconf.h"

struct fixture {
	char dir[64];
	char path[128];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	strcpy(f->dir, "/tmp/test_siteconf.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->path, sizeof(f->path), "%s/site.conf", f->dir);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cleanup of %s failed\n", f->dir);
	free(f);
	return 0;
}

static void write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	assert_int_equal(fputs(text, fp) >= 0, 1);
	assert_int_equal(fclose(fp), 0);
}

/* Rejections: input text, expected errno, substrings the message holds. */
struct bad_case {
	const char *name;
	const char *text;
	int code;
	const char *msg1; /* "site.conf:LINE:" */
	const char *msg2;
};

static const struct bad_case bad_cases[] = {
	{"malformed line", "[site]\nname = x\nthis is not a key\n", -EINVAL,
	 "site.conf:3:", "malformed line"},
	{"unknown section", "[site]\nname = x\n[storrage]\nnodes = 1\n",
	 -EINVAL, "site.conf:3:", "unknown section \"[storrage]\""},
	{"unknown key", "[storage]\nnodes = 2\ndisks = 12\n", -EINVAL,
	 "site.conf:3:", "unknown key \"disks\" in section [storage]"},
	{"bad unit", "[storage]\nnodes = 2\n\ndisk_bw = 277XB\n", -EINVAL,
	 "site.conf:4:", "277XB"},
	{"bad size", "[workload]\nfile_size = big\n", -EINVAL,
	 "site.conf:2:", "workload.file_size"},
	{"bad uint", "[compute]\nranks_per_node = 64x\n", -EINVAL,
	 "site.conf:2:", "64x"},
	{"negative price", "[prices]\ncore = -3\n", -EINVAL,
	 "site.conf:2:", "\"-3\""},
	{"bad enum", "[workload]\nioengine = posixaio\n", -EINVAL,
	 "site.conf:2:", "accepted: psync|libaio|io_uring"},
	{"bad duration", "[workload]\nruntime = 2 fortnights\n", -EINVAL,
	 "site.conf:2:", "workload.runtime"},
	{"duplicate key", "[site]\nname = a\nname = b\n", -EINVAL,
	 "site.conf:3:", "first set on line 2"},
	{"empty value", "[site]\nname =\n", -EINVAL,
	 "site.conf:2:", "empty value"},
	{"key outside section", "name = x\n", -EINVAL,
	 "site.conf:1:", "outside any section"},
	{"unterminated header", "[site\nname = x\n", -EINVAL,
	 "site.conf:1:", "malformed section header"},
	{"tier without quotes", "[tier HDD]\nseq_read_bw = 1MB\n", -EINVAL,
	 "site.conf:1:", "unknown section"},
	{"tier empty name", "[tier \"\"]\n", -EINVAL,
	 "site.conf:1:", "unknown section"},
	{"unknown tier key", "[tier \"A\"]\nseq_bw = 1MB\n", -EINVAL,
	 "site.conf:2:", "unknown key \"seq_bw\" in section [tier \"A\"]"},
	{"reversed range", "[sweep]\ndisk_bw = 275MB..100MB:25MB\n", -EINVAL,
	 "site.conf:2:", "need A <= B"},
	{"zero step", "[sweep]\ndisk_bw = 100MB..275MB:0\n", -EINVAL,
	 "site.conf:2:", "STEP > 0"},
	{"range without step", "[sweep]\ndisk_bw = 100MB..275MB\n", -EINVAL,
	 "site.conf:2:", "expected A..B:STEP"},
	{"bad list item", "[sweep]\ncpus = 8, 16, sixteen\n", -EINVAL,
	 "site.conf:2:", "sixteen"},
	{"huge range", "[sweep]\ndisk_bw = 1..100000:1\n", -EINVAL,
	 "site.conf:2:", "more than 10000 items"},
	/* [sweep] ranks (sweep-threads): whole numbers 1..100000, each once,
	 * single commas */
	{"ranks zero", "[sweep]\nranks = 0, 4\n", -EINVAL, "site.conf:2:",
	 "sweep.ranks: 0 is out of range (accepted: 1 to 100000)"},
	{"ranks too many", "[sweep]\nranks = 1, 200000\n", -EINVAL,
	 "site.conf:2:", "200000 is out of range"},
	{"ranks not a number", "[sweep]\nranks = 1, 4, eight\n", -EINVAL,
	 "site.conf:2:", "invalid number \"eight\""},
	{"ranks negative", "[sweep]\nranks = -1\n", -EINVAL,
	 "site.conf:2:", "invalid number \"-1\""},
	{"ranks with unit", "[sweep]\nranks = 4K\n", -EINVAL,
	 "site.conf:2:", "invalid number \"4K\""},
	{"ranks twice", "[sweep]\nranks = 1, 4, 8, 4\n", -EINVAL,
	 "site.conf:2:", "4 appears twice"},
	{"ranks range twice", "[sweep]\nranks = 1..4:1, 2\n", -EINVAL,
	 "site.conf:2:", "2 appears twice"},
	{"ranks empty item", "[sweep]\nranks = 1,,4\n", -EINVAL,
	 "site.conf:2:", "an empty item"},
	{"ranks trailing comma", "[sweep]\nranks = 1, 4,\n", -EINVAL,
	 "site.conf:2:", "an empty item"},
	{"ranks space separated", "[sweep]\nranks = 1 4\n", -EINVAL,
	 "site.conf:2:", "invalid number \"1 4\""},
	/* [sweep] replication: pool sizes 1..10, each once, single commas */
	{"replication zero", "[sweep]\nreplication = 0, 2\n", -EINVAL,
	 "site.conf:2:",
	 "sweep.replication: 0 is out of range (accepted: 1 to 10)"},
	{"replication eleven", "[sweep]\nreplication = 2, 11\n", -EINVAL,
	 "site.conf:2:",
	 "sweep.replication: 11 is out of range (accepted: 1 to 10)"},
	{"replication twice", "[sweep]\nreplication = 2, 3, 2\n", -EINVAL,
	 "site.conf:2:",
	 "sweep.replication: invalid list \"2, 3, 2\": 2 appears twice"},
	{"replication not a number", "[sweep]\nreplication = 2, three\n",
	 -EINVAL, "site.conf:2:", "invalid number \"three\""},
	{"replication empty item", "[sweep]\nreplication = 2,,3\n", -EINVAL,
	 "site.conf:2:", "an empty item"},
	{"replication pg_num zero", "[sweep]\nreplication_pg_num = 0\n",
	 -EINVAL, "site.conf:2:",
	 "sweep.replication_pg_num: 0 is out of range (accepted: 1 to 4096)"},
	{"rwmixread above 100", "[workload]\nrwmixread = 101\n", -EINVAL,
	 "site.conf:2:",
	 "workload.rwmixread: 101 is out of range (accepted: 0 to 100)"},
	{"rwmixread percent sign", "[workload]\nrwmixread = 60%\n", -EINVAL,
	 "site.conf:2:", "invalid number \"60%\""},
	{"bs bad size", "[workload]\nbs = 16 kilo\n", -EINVAL,
	 "site.conf:2:", "workload.bs"},
	{"disk class without price",
	 "[site]\nname = x\n[disk \"hdd\"]\nbw = 180MB\n", -EINVAL,
	 "site.conf:3:",
	 "[disk \"hdd\"]: key \"price\" missing: a disk class needs bw"},
	{"disk class without bw", "[disk \"ssd\"]\nprice = 100\n", -EINVAL,
	 "site.conf:1:", "key \"bw\" missing"},
	{"disk class bad rate", "[disk \"ssd\"]\nbw = fast\nprice = 1\n",
	 -EINVAL, "site.conf:2:", "disk \"ssd\".bw"},
	{"disk class negative price", "[disk \"ssd\"]\nbw = 1GB\nprice = -5\n",
	 -EINVAL, "site.conf:3:", "\"-5\""},
	{"disk class unknown key", "[disk \"ssd\"]\nrpm = 7200\n", -EINVAL,
	 "site.conf:2:", "unknown key \"rpm\" in section [disk \"ssd\"]"},
	{"disk without quotes", "[disk ssd]\nbw = 1GB\n", -EINVAL,
	 "site.conf:1:", "[disk \"NAME\"]"},
	{"unknown installed class",
	 "[storage]\nnodes = 2\ndisk_class = hdd-9000\n[disk \"hdd-7200\"]\nbw = 250MB\nprice = 300\n[disk \"nvme\"]\nbw = 3GB\nprice = 900\n",
	 -EINVAL, "site.conf:3:",
	 "unknown disk class \"hdd-9000\": accepted: \"hdd-7200\", \"nvme\""},
	{"installed class, none defined", "[storage]\ndisk_class = hdd\n",
	 -EINVAL, "site.conf:2:", "accepted: none (define [disk"},
	{"catalogue bad core", "[catalogue]\ncores = 8, many\n", -EINVAL,
	 "site.conf:2:", "many"},
	{"catalogue bad memory", "[catalogue]\nmemory = 64G, 1TX\n", -EINVAL,
	 "site.conf:2:", "catalogue.memory"},
	{"unknown catalogue key", "[catalogue]\ndisks = 12\n", -EINVAL,
	 "site.conf:2:", "unknown key \"disks\" in section [catalogue]"},
	/* text the report prints to a terminal and draws in gnuplot:
	 * before, an escape sequence in a value or a class name went
	 * through as it was */
	{"escape in a value", "[prices]\ncurrency = \x1b]0;owned\x07EUR\n",
	 -EINVAL, "site.conf:2:",
	 "byte 0x1b at column 12: control characters are not accepted"},
	{"escape in a section name", "[disk \"a\x1b[2Jb\"]\nbw = 1GB\n",
	 -EINVAL, "site.conf:1:", "byte 0x1b at column 9"},
	{"carriage return", "[site]\nname = x\ry\n", -EINVAL,
	 "site.conf:2:", "byte 0x0d at column 9"},
	{"escape from the environment",
	 "[prices]\ncurrency = ${IOS_TEST_CURRENCY}\n", -EINVAL, "site.conf:2:",
	 "prices.currency: byte 0x1b at offset 0 (after ${VAR} expansion): "
	 "control characters are not accepted"},
};

static void test_bad_input(void **state)
{
	struct fixture *f = *state;

	setenv("IOS_TEST_CURRENCY", "\x1b[31mEUR", 1);

	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(*bad_cases); i++) {
		const struct bad_case *c = &bad_cases[i];
		struct ios_site *s = (struct ios_site *)0x1;
		struct ios_err err = {0};
		int rc;

		write_file(f->path, c->text);
		rc = ios_site_load(f->path, &s, &err);
		if (rc != c->code || !strstr(err.msg, c->msg1) ||
		    !strstr(err.msg, c->msg2))
			fail_msg(
				"case \"%s\": rc %d (want %d), message \"%s\" (want \"%s\" and \"%s\")",
				c->name, rc, c->code, err.msg, c->msg1,
				c->msg2);
		assert_null(s);
		assert_non_null(strstr(err.msg, f->path));
	}
}

static void test_missing_file(void **state)
{
	struct fixture *f = *state;
	struct ios_site *s = NULL;
	struct ios_err err = {0};
	char path[200];

	snprintf(path, sizeof(path), "%s/nope.conf", f->dir);
	assert_int_equal(ios_site_load(path, &s, &err), -ENOENT);
	assert_null(s);
	assert_non_null(strstr(err.msg, path));
	assert_non_null(strstr(err.msg, "No such file or directory"));
	/* a directory without site.conf */
	snprintf(path, sizeof(path), "%s/empty", f->dir);
	assert_int_equal(mkdir(path, 0700), 0);
	assert_int_equal(ios_site_load(path, &s, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "empty/site.conf"));
	assert_int_equal(ios_site_load("", &s, &err), -EINVAL);
}

static const char good[] = "; a comment\n"
			   "# another\n"
			   "[site]\n"
			   "name = test ; inline comment\n"
			   "[storage]\n"
			   "nodes = 10\n"
			   "disks_per_node = 12\n"
			   "disk_bw = 277M\n"
			   "nic_bw = 12.5GB\n"
			   "memory = 192G\n"
			   "cores = 32\n"
			   "nvme_per_node = 2\n"
			   "[workload]\n"
			   "runtime = 2m\n"
			   "dir = ${TEST_SITECONF_DIR}/bench\n"
			   "ioengine = io_uring\n"
			   "[sweep]\n"
			   "cpus = 8,16 24, 32\n"
			   "mem = 32G, 64G\n"
			   "disk_bw = 100MB..275MB:25MB, 300MB\n"
			   "[prices]\n"
			   "core = 100\n"
			   "mem_gb = 5\n"
			   "hdd = 400\n"
			   "nvme = 1000\n"
			   "node_base = 3000\n"
			   "[accept]\n"
			   "tiers = tiers.conf\n"
			   "[tier \"HDD Basic\"]\n"
			   "seq_read_bw = 40MB\n"
			   "[tier   \"SSD Fast\"  ]\n"
			   "rand_write_iops = 15000\n"
			   "[storage]\n"
			   "replication = 3\n";

struct walk {
	int n;
	char names[4][64];
	char sections[4][64];
};

static int walk_cb(const char *section, const char *name, void *arg)
{
	struct walk *w = arg;

	if (w->n < 4) {
		snprintf(w->sections[w->n], 64, "%s", section);
		snprintf(w->names[w->n], 64, "%s", name);
	}
	w->n++;
	return 0;
}

static void test_good(void **state)
{
	struct fixture *f = *state;
	struct ios_site *s = NULL;
	struct ios_err err = {0};
	uint64_t u, *list = NULL;
	double d;
	char want[200];
	struct walk w = {0};

	setenv("TEST_SITECONF_DIR", "/scratch", 1);
	write_file(f->path, good);
	/* a directory is accepted: site.conf inside it */
	assert_int_equal(ios_site_load(f->dir, &s, &err), 0);
	assert_string_equal(ios_site_path(s), f->path);
	assert_string_equal(ios_site_dir(s), f->dir);
	assert_string_equal(ios_site_get(s, "site", "name"), "test");
	assert_null(ios_site_get(s, "site", "description"));
	assert_int_equal(ios_site_get_uint(s, "storage", "nodes", &u, &err), 0);
	assert_int_equal(u, 10);
	assert_int_equal(
		ios_site_get_uint(s, "storage", "replication", &u, &err), 0);
	assert_int_equal(u, 3);
	assert_int_equal(ios_site_get_rate(s, "storage", "disk_bw", &u, &err),
			 0);
	assert_int_equal(u, 277ull << 20);
	assert_int_equal(ios_site_get_rate(s, "storage", "nic_bw", &u, &err),
			 0);
	assert_int_equal(u, 12500000000ull);
	assert_int_equal(ios_site_get_size(s, "storage", "memory", &u, &err),
			 0);
	assert_int_equal(u, 192ull << 30);
	assert_int_equal(
		ios_site_get_duration(s, "workload", "runtime", &d, &err), 0);
	assert_true(d == 120.0);
	assert_string_equal(ios_site_get(s, "workload", "dir"),
			    "/scratch/bench");
	snprintf(want, sizeof(want), "%s/tiers.conf", f->dir);
	assert_string_equal(ios_site_get(s, "accept", "tiers"), want);

	/* missing key: -ENOENT naming file:[section] key */
	assert_int_equal(ios_site_get_uint(s, "compute", "nodes", &u, &err),
			 -ENOENT);
	assert_non_null(strstr(err.msg, f->path));
	assert_non_null(strstr(err.msg, "[compute] nodes"));

	assert_int_equal(ios_site_get_list(s, "sweep", "cpus", &list, &err), 4);
	assert_int_equal(list[0], 8);
	assert_int_equal(list[3], 32);
	free(list);
	assert_int_equal(ios_site_get_list(s, "sweep", "mem", &list, &err), 2);
	assert_int_equal(list[1], 64ull << 30);
	free(list);
	assert_int_equal(ios_site_get_list(s, "sweep", "disk_bw", &list, &err),
			 9);
	assert_int_equal(list[0], 100000000);
	assert_int_equal(list[1], 125000000);
	assert_int_equal(list[7], 275000000);
	assert_int_equal(list[8], 300000000);
	free(list);

	ios_site_sections(s, "tier", walk_cb, &w);
	assert_int_equal(w.n, 2);
	assert_string_equal(w.names[0], "HDD Basic");
	assert_string_equal(w.sections[1], "tier \"SSD Fast\"");
	assert_string_equal(
		ios_site_get(s, "tier \"SSD Fast\"", "rand_write_iops"),
		"15000");
	w.n = 0;
	ios_site_sections(s, "", walk_cb, &w);
	assert_int_equal(w.n, 8); /* repeated [storage] counts once */

	/* 3000 + 8 x 100 + 64 GiB (68.72 GB) x 5 + 12 x 400 + 2 x 1000 */
	assert_int_equal(ios_site_node_cost(s, 8, 64ull << 30, &d, &err), 0);
	assert_true(d > 10943.5 && d < 10943.8);
	assert_int_equal(ios_site_key_kind("sweep", "disk_bw"),
			 IOS_SITE_RATE_LIST);
	assert_int_equal(ios_site_key_kind("tier \"X\"", "seq_read_bw"),
			 IOS_SITE_RATE);
	assert_int_equal(ios_site_key_kind("site", "nope"), -1);
	ios_site_free(s);
}

/* Tier cost: nodes x (node without disks) + disks x the class price. */
static const char priced[] = "[storage]\n"
			     "nodes = 10\n"
			     "disks_per_node = 12\n"
			     "nvme_per_node = 2\n"
			     "disk_class = hdd-7200\n"
			     "[prices]\n"
			     "core = 100\n"
			     "mem_gb = 5\n"
			     "nvme = 1000\n"
			     "node_base = 3000\n"
			     "[disk \"nvme\"]\n"
			     "bw = 3GB\n"
			     "iops = 500000\n"
			     "price = 900\n"
			     "[disk \"hdd-5400\"]\n"
			     "bw = 180MB\n"
			     "price = 250\n"
			     "[disk \"hdd-7200\"]\n"
			     "bw = 250MB\n"
			     "iops = 200\n"
			     "price = 350\n"
			     "[disk \"sata-ssd\"]\n"
			     "bw = 530MB\n"
			     "price = 800\n"
			     "[disk \"slow-ssd\"]\n"
			     "bw = 530MB\n"
			     "price = 700\n"
			     "[catalogue]\n"
			     "cores = 8, 16\n"
			     "memory = 64G, 128G\n";

struct cost_case {
	uint64_t cores, mem, disk_bw;
	int rc;
	const char *cls; /* class priced, or a message substring */
	double total;
};

/* node = 3000 + cores x 100 + GB x 5 + 2 x 1000; 120 disks */
static const struct cost_case cost_cases[] = {
	{8, 64000000000ull, 0, 0, "hdd-7200",
	 10 * (3000 + 800 + 320 + 2000) + 120 * 350},
	{8, 64000000000ull, 100000000, 0, "hdd-5400", 61200 + 120 * 250},
	{8, 64000000000ull, 180000000, 0, "hdd-5400", 61200 + 120 * 250},
	{8, 64000000000ull, 180000001, 0, "hdd-7200", 61200 + 120 * 350},
	{16, 0, 275000000, 0, "slow-ssd",
	 10 * (3000 + 1600 + 2000) + 120 * 700},
	{16, 0, 3000000000ull, 0, "nvme", 66000 + 120 * 900},
	{16, 0, 4000000000ull, -ERANGE, "the fastest is \"nvme\" at", 0},
};

static void test_tier_cost(void **state)
{
	struct fixture *f = *state;
	struct ios_site *s = NULL;
	struct ios_disk_class *cl = NULL;
	struct ios_err err = {0};
	uint64_t *list = NULL;

	write_file(f->path, priced);
	if (ios_site_load(f->path, &s, &err) != 0)
		fail_msg("%s", err.msg);
	assert_int_equal(ios_site_disk_classes(s, &cl), 5);
	assert_string_equal(cl[0].name, "hdd-5400");
	assert_true(isnan(cl[0].iops));
	assert_string_equal(cl[1].name, "hdd-7200");
	assert_true(cl[1].iops == 200);
	assert_string_equal(cl[2].name,
			    "slow-ssd"); /* same bw: cheaper first */
	assert_string_equal(cl[4].name, "nvme");
	assert_int_equal(cl[4].bw, 3000000000ull);
	free(cl);
	for (size_t i = 0; i < sizeof(cost_cases) / sizeof(*cost_cases); i++) {
		const struct cost_case *c = &cost_cases[i];
		struct ios_tier_cost t;
		int rc = ios_site_tier_cost(s, c->cores, c->mem, c->disk_bw, &t,
					    &err);

		if (rc != c->rc)
			fail_msg("case %zu: rc %d want %d (%s)", i, rc, c->rc,
				 err.msg);
		if (rc < 0) {
			assert_non_null(strstr(err.msg, c->cls));
			continue;
		}
		assert_string_equal(t.disk_class, c->cls);
		assert_int_equal(t.nodes, 10);
		assert_int_equal(t.disks, 120);
		if (fabs(t.total - c->total) > 1e-6)
			fail_msg("case %zu: total %.3f want %.3f", i, t.total,
				 c->total);
	}
	assert_int_equal(
		ios_site_get_list(s, "catalogue", "memory", &list, &err), 2);
	assert_int_equal(list[1], 128ull << 30);
	free(list);
	ios_site_free(s);

	/* no classes: an unthrottled config uses prices.hdd, a disk speed
	 * cannot be priced */
	write_file(f->path, "[storage]\nnodes = 2\ndisks_per_node = 3\n"
			    "[prices]\ncore = 1\nhdd = 10\n");
	assert_int_equal(ios_site_load(f->path, &s, &err), 0);
	{
		struct ios_tier_cost t;

		assert_int_equal(ios_site_tier_cost(s, 4, 0, 0, &t, &err), 0);
		assert_true(t.total == 2 * 4 + 6 * 10);
		assert_string_equal(t.disk_class, "hdd");
		assert_int_equal(
			ios_site_tier_cost(s, 4, 0, 20000000, &t, &err),
			-ENOENT);
		assert_non_null(
			strstr(err.msg, "cannot price a disk speed of"));
	}
	ios_site_free(s);
}

static void test_no_prices(void **state)
{
	struct fixture *f = *state;
	struct ios_site *s = NULL;
	struct ios_err err = {0};
	double d;

	write_file(f->path, "[site]\nname = x\n");
	assert_int_equal(ios_site_load(f->path, &s, &err), 0);
	assert_int_equal(ios_site_node_cost(s, 8, 1, &d, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "[prices]"));
	ios_site_free(s);
}

/* The files we ship load, and carry the paper's values. */
static void test_shipped(void **state)
{
	const char *src = getenv("IOSTRATA_SRCDIR");
	struct ios_site *s = NULL;
	struct ios_err err = {0};
	char path[PATH_MAX];
	uint64_t *list = NULL, u;
	struct walk w = {0};

	(void)state;
	if (!src)
		src = "..";
	snprintf(path, sizeof(path), "%s/site/example", src);
	if (access(path, R_OK) != 0)
		skip();
	if (ios_site_load(path, &s, &err) != 0)
		fail_msg("%s", err.msg);
	assert_int_equal(ios_site_get_list(s, "sweep", "disk_bw", &list, &err),
			 8);
	assert_int_equal(list[7], 275000000);
	free(list);
	assert_int_equal(ios_site_get_list(s, "sweep", "cpus", &list, &err), 4);
	free(list);
	assert_int_equal(ios_site_get_list(s, "sweep", "mem", &list, &err), 4);
	assert_int_equal(list[3], 192ull << 30);
	free(list);
	assert_int_equal(
		ios_site_get_uint(s, "compute", "ranks_per_node", &u, &err), 0);
	assert_int_equal(u, 64);
	/* seeds/001's thread sweep: 1..64 threads, 16 KiB, 60% reads */
	assert_int_equal(ios_site_get_list(s, "sweep", "ranks", &list, &err),
			 6);
	assert_int_equal(list[0], 1);
	assert_int_equal(list[5], 64);
	free(list);
	assert_int_equal(ios_site_get_size(s, "workload", "bs", &u, &err), 0);
	assert_int_equal(u, 16384);
	assert_int_equal(
		ios_site_get_uint(s, "workload", "rwmixread", &u, &err), 0);
	assert_int_equal(u, 60);
	ios_site_free(s);

	snprintf(path, sizeof(path), "%s/site/example/tiers.conf", src);
	if (ios_site_load(path, &s, &err) != 0)
		fail_msg("%s", err.msg);
	ios_site_sections(s, "tier", walk_cb, &w);
	assert_int_equal(w.n, 3);
	assert_string_equal(w.names[0], "HDD Basic");
	assert_string_equal(w.names[1], "SSD Universal");
	assert_string_equal(w.names[2], "SSD Fast");
	assert_int_equal(ios_site_get_rate(s, "tier \"SSD Fast\"",
					   "rand_write_bw", &u, &err),
			 0);
	assert_int_equal(u, 500000000);
	/* seeds/002's method: random 4M / 4k, libaio, iodepth 16, 99G */
	assert_int_equal(
		ios_site_get_size(s, "tier \"SSD Fast\"", "bw_bs", &u, &err),
		0);
	assert_int_equal(u, 4u << 20);
	assert_int_equal(
		ios_site_get_uint(s, "tier \"SSD Fast\"", "iodepth", &u, &err),
		0);
	assert_int_equal(u, 16);
	assert_string_equal(ios_site_get(s, "tier \"SSD Fast\"", "ioengine"),
			    "libaio");
	ios_site_free(s);

	snprintf(path, sizeof(path), "%s/site/local/site.conf", src);
	if (ios_site_load(path, &s, &err) != 0)
		fail_msg("%s", err.msg);
	assert_int_equal(ios_site_get_list(s, "sweep", "disk_bw", &list, &err),
			 3);
	free(list);
	assert_int_equal(ios_site_get_list(s, "sweep", "ranks", &list, &err),
			 3);
	assert_int_equal(list[2], 4);
	free(list);
	/* the local site's acceptance tier is one the machine can run */
	{
		char tiers[4200], sec[128];
		const char *tier = ios_site_get(s, "accept", "tier");

		assert_non_null(tier);
		snprintf(tiers, sizeof(tiers), "%s",
			 ios_site_get(s, "accept", "tiers"));
		snprintf(sec, sizeof(sec), "tier \"%s\"", tier);
		ios_site_free(s);
		if (ios_site_load(tiers, &s, &err) != 0)
			fail_msg("%s", err.msg);
		assert_int_equal(
			ios_site_get_size(s, sec, "file_size", &u, &err), 0);
		assert_true(u <= 1ull << 30);
		assert_string_equal(ios_site_get(s, sec, "ioengine"), "libaio");
	}
	ios_site_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_tier_cost),
		cmocka_unit_test(test_no_prices),
		cmocka_unit_test(test_shipped),
	};

	return cmocka_run_group_tests_name("siteconf", tests, setup, teardown);
}
