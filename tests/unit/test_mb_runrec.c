/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests: the run record of iostrata-bench.  The plain run
 * (mb_runrec_start, main.c) and the layered run (lyr_parse +
 * lyr_runrec_start, layers_run.c, also its record of a run that did not
 * start) must carry the same header fields and, for the same options, the
 * same configuration keys with the same values; the layered run only adds
 * "layers" and layers.* keys.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "layers_opts.h"
#include "mb_config.h"
#include "mb_runrec.h"
#include "runrec.h"

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])) - 1)

/* The same options, given to a plain and to a layered run. */
static const char *const common_opts[] = {
	"--dir=/nonexistent/bench",
	"--bs=1M",
	"--size=4M",
	"--runtime=2",
	"--reps=3",
	"--iodepth=1",
	"--seed=7",
	"--output=/nonexistent/o.h5",
};
static const char *const plain_opts[] = {"--rw=write,read"};
static const char *const layered_opts[] = {
	"--layers",
	"--layers-device-dir=/nonexistent/dev%n",
	"--layers-skip=network,protocol",
	"--cephfs-dir=/bench",
};
#define NOPTS(a) (sizeof(a) / sizeof((a)[0]))
static char *plain_argv[1 + NOPTS(plain_opts) + NOPTS(common_opts) + 1];
static char *layered_argv[1 + NOPTS(layered_opts) + NOPTS(common_opts) + 1];

/* argv[0], then [first], then the common options. */
static void make_argv(char **argv, const char *const *first, size_t n)
{
	size_t k = 0;

	argv[k++] = "iostrata-bench";
	for (size_t i = 0; i < n; i++)
		argv[k++] = (char *)first[i];
	for (size_t i = 0; i < NOPTS(common_opts); i++)
		argv[k++] = (char *)common_opts[i];
	argv[k] = NULL;
}

static void plain_record(struct ios_run *run)
{
	struct mb_config cfg;
	struct ios_err err = {0};

	memset(run, 0, sizeof(*run));
	assert_int_equal(
		mb_config_parse(&cfg, ARGC(plain_argv), plain_argv, &err), 0);
	assert_int_equal(mb_runrec_start(run, &cfg), 0);
	mb_config_free(&cfg);
}

static void layered_record(struct ios_run *run, bool started)
{
	struct lyr_opts o;
	struct mb_config cfg;
	struct ios_err err = {0};
	struct lyr_numbers n = {.replicas = 2, .storage_nodes = 3};

	memset(run, 0, sizeof(*run));
	assert_int_equal(
		lyr_parse(ARGC(layered_argv), layered_argv, &o, &cfg, &err), 0);
	assert_int_equal(lyr_runrec_start(run, &cfg, &o, started ? &n : NULL),
			 0);
	mb_config_free(&cfg);
}

static void assert_same_str(const char *what, const char *a, const char *b)
{
	if (!a || !b || strcmp(a, b))
		fail_msg("%s: plain \"%s\", layered \"%s\"", what,
			 a ? a : "(null)", b ? b : "(null)");
}

/* An option of some backend (a layer's backend records its defaults). */
static bool backend_option(const char *k)
{
	for (const struct mb_backend *const *b = mb_backends; *b; b++)
		for (const struct mb_option *o = (*b)->options; o && o->name;
		     o++)
			if (!strcmp(o->name, k))
				return true;
	return false;
}

static void check_same(bool started)
{
	struct ios_run p, l;

	plain_record(&p);
	layered_record(&l, started);
	/* the header */
	assert_same_str("tool", p.tool, l.tool);
	assert_same_str("tool_version", p.tool_version, l.tool_version);
	assert_same_str("git_revision", p.git_revision, l.git_revision);
	assert_same_str("build_options", p.build_options, l.build_options);
	assert_same_str("build_options (plain)", IOSTRATA_CONFIGURE_ARGS,
			p.build_options);
	assert_same_str("status", p.status, l.status);
	assert_non_null(p.run_id);
	assert_non_null(l.run_id);
	assert_true(strlen(p.run_id) > 8 && strlen(l.run_id) > 8);
	assert_int_equal(strlen(p.created_utc), strlen("2026-01-01T00:00:00Z"));
	assert_int_equal(strlen(l.created_utc), strlen("2026-01-01T00:00:00Z"));
	/* each run records its own command line, as given */
	assert_non_null(p.command_line);
	assert_non_null(l.command_line);
	assert_non_null(strstr(l.command_line, "--layers "));
	assert_non_null(strstr(l.command_line, "--cephfs-dir=/bench"));
	assert_null(strstr(l.command_line, "--backend="));
	/* every option of the plain run, with the same value */
	for (size_t i = 0; i < p.nconfig; i++) {
		const char *k = p.config[i].key;

		assert_same_str(k, p.config[i].value, ios_runrec_get(&l, k));
	}
	/* the layered run adds only its own keys and its layers' backend
	 * options */
	for (size_t i = 0; i < l.nconfig; i++) {
		const char *k = l.config[i].key;

		if (!ios_runrec_get(&p, k) && strcmp(k, "layers") &&
		    strncmp(k, "layers.", 7) && !backend_option(k))
			fail_msg("layered key \"%s\" is not the plain run's",
				 k);
	}
	assert_string_equal(ios_runrec_get(&l, "layers"), "1");
	ios_run_clear(&p);
	ios_run_clear(&l);
}

/* The mode of the run is recorded: "time" with its runtime, or "once"
 * (size-based) with runtime 0; the layered run refuses --once. */
static void test_mode(void **state)
{
	char *argv[] = {"iostrata-bench", "--dir=/nonexistent/bench",
			"--bs=1M",        "--size=4M",
			"--once",         "--rw=write,randread",
			"--output=none",  NULL};
	char *largv[] = {"iostrata-bench",
			 "--layers",
			 "--layers-device-dir=/nonexistent/dev%n",
			 "--layers-skip=network,protocol",
			 "--cephfs-dir=/bench",
			 "--once",
			 NULL};
	struct mb_config cfg;
	struct ios_err err = {0};
	struct lyr_opts o;
	struct ios_run run, p;

	(void)state;
	memset(&run, 0, sizeof(run));
	assert_int_equal(mb_config_parse(&cfg, ARGC(argv), argv, &err), 0);
	assert_int_equal(mb_runrec_start(&run, &cfg), 0);
	assert_string_equal(ios_runrec_get(&run, "mode"), "once");
	assert_string_equal(ios_runrec_get(&run, "runtime"), "0");
	mb_config_free(&cfg);
	ios_run_clear(&run);
	plain_record(&p);
	assert_string_equal(ios_runrec_get(&p, "mode"), "time");
	assert_string_equal(ios_runrec_get(&p, "runtime"), "2");
	ios_run_clear(&p);
	assert_int_equal(lyr_parse(ARGC(largv), largv, &o, &cfg, &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "--once: not available with --layers"));
	mb_config_free(&cfg);
}

static void test_same_record(void **state)
{
	(void)state;
	check_same(true);
}

/* The record of a layered run that could not start (save_invalid). */
static void test_same_record_not_started(void **state)
{
	struct ios_run l;

	(void)state;
	check_same(false);
	layered_record(&l, false);
	assert_null(ios_runrec_get(&l, "layers.replicas"));
	ios_run_clear(&l);
}

/* What each layer ran with, under layers.<layer>.*. */
static void test_layer_keys(void **state)
{
	struct ios_run l;

	(void)state;
	layered_record(&l, true);
	assert_string_equal(ios_runrec_get(&l, "layers.replicas"), "2");
	assert_string_equal(ios_runrec_get(&l, "layers.skip"),
			    "network,protocol");
	assert_string_equal(ios_runrec_get(&l, "layers.device.backend"),
			    "posix");
	assert_string_equal(ios_runrec_get(&l, "layers.device.dir"),
			    "/nonexistent/dev%n");
	assert_string_equal(ios_runrec_get(&l, "layers.device.direct"), "1");
	assert_string_equal(ios_runrec_get(&l, "layers.fullstack.dir"),
			    "/nonexistent/bench");
	assert_string_equal(ios_runrec_get(&l, "layers.fullstack.reorder"),
			    "1");
	assert_string_equal(ios_runrec_get(&l, "layers.fullstack-lib.dir"),
			    "/bench");
	assert_string_equal(ios_runrec_get(&l, "layers.fullstack-lib.iodepth"),
			    "1");
	assert_null(ios_runrec_get(&l, "layers.protocol.backend"));
	assert_null(ios_runrec_get(&l, "layers.network.backend"));
	ios_run_clear(&l);
}

/* iodepth_batch lives in the config; a layer clamps it to its depth. */
static void test_layer_config(void **state)
{
	char *argv[] = {"iostrata-bench",    "--layers",    "--dir=/x",
			"--cephfs-dir=/c",   "--iodepth=8", "--iodepth_batch=4",
			"--ioengine=libaio", NULL};
	struct lyr_opts o;
	struct mb_config cfg, lc;
	struct ios_err err = {0};

	(void)state;
#if !defined(HAVE_LIBAIO)
	skip();
#endif
	assert_int_equal(lyr_parse(ARGC(argv), argv, &o, &cfg, &err), 0);
	assert_int_equal(cfg.npatterns, 2);
	lyr_layer_config(&cfg, &o, LYR_FULLSTACK, "", 2, &lc);
	assert_int_equal(lc.iodepth, 8);
	assert_int_equal(lc.iodepth_batch, 4);
	lyr_layer_config(&cfg, &o, LYR_FULLLIB, "", 2, &lc);
	assert_int_equal(lc.iodepth, 1);
	assert_int_equal(lc.iodepth_batch, 1);
	assert_string_equal(lc.dir, "/c");
	/* the run's --ioengine=libaio is not the cephfs layer's */
	assert_int_equal(lc.ioengine, MB_ENG_PSYNC);
	if (lc.backend && lc.backend->check) {
		struct mb_ctx ctx = {.cfg = &lc, .err = &err};

		assert_int_equal(lc.backend->check(&ctx), 0);
	}
	mb_config_free(&cfg);
}

/* The Ceph options: given and default values as a plain rados run has them. */
static void test_ceph_keys(void **state)
{
	char *pargv[] = {"iostrata-bench", "--backend=rados",
			 "--rados-pool=bench", "--ceph-timeout=9", NULL};
	char *largv[] = {"iostrata-bench",
			 "--layers",
			 "--layers-skip=network,fullstack",
			 "--rados-pool=bench",
			 "--ceph-timeout=9",
			 NULL};
	const struct mb_backend *be = mb_backend_find("rados");
	struct lyr_opts o;
	struct mb_config pc, lc;
	struct ios_err err = {0};
	struct ios_run p = {0}, l = {0};
	int n = 0;

	(void)state;
	if (!be)
		skip(); /* built without Ceph's headers */
	assert_int_equal(mb_config_parse(&pc, ARGC(pargv), pargv, &err), 0);
	assert_int_equal(lyr_parse(ARGC(largv), largv, &o, &lc, &err), 0);
	assert_int_equal(mb_runrec_start(&p, &pc), 0);
	assert_int_equal(lyr_runrec_start(&l, &lc, &o, NULL), 0);
	for (const struct mb_option *bo = be->options; bo->name; bo++) {
		const char *v = ios_runrec_get(&p, bo->name);

		if (!v)
			continue;
		assert_same_str(bo->name, v, ios_runrec_get(&l, bo->name));
		n++;
	}
	assert_true(n >= 3); /* rados-pool, ceph-timeout, ceph-id */
	assert_string_equal(ios_runrec_get(&l, "layers.protocol.backend"),
			    "rados");
	ios_run_clear(&p);
	ios_run_clear(&l);
	mb_config_free(&pc);
	mb_config_free(&lc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mode),
		cmocka_unit_test(test_same_record),
		cmocka_unit_test(test_same_record_not_started),
		cmocka_unit_test(test_layer_keys),
		cmocka_unit_test(test_layer_config),
		cmocka_unit_test(test_ceph_keys),
	};

	make_argv(plain_argv, plain_opts, NOPTS(plain_opts));
	make_argv(layered_argv, layered_opts, NOPTS(layered_opts));
	return cmocka_run_group_tests_name("mb_runrec", tests, NULL, NULL);
}
