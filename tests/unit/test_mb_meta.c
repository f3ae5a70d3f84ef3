/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests: the metadata phases of iostrata-bench (--meta): the options
 * and their refusals, the names of the easy and hard layouts, the
 * stonewall, what each phase works on, the figures (mdtest's ops/s, the
 * per-rank rates, the stragglers) and the posix hooks on a real directory
 * (a planted symbolic link is never followed).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "backend.h"
#include "mb_config.h"
#include "mb_fx.h"
#include "meta.h"
#include "ownfile.h"
#include "results.h"

#define MAXARGS MB_FX_MAXARGS

struct reject {
	const char *args[MAXARGS];
	const char *msg;
};

static const struct reject rejects[] = {
	{{"--dir=/tmp", "--meta=create,chmod"},
	 "--meta: unknown phase \"chmod\" (accepted: a comma list of create"},
	{{"--dir=/tmp", "--meta=create,create"}, "\"create\" given twice"},
	{{"--dir=/tmp", "--meta="}, "--meta: invalid value"},
	{{"--dir=/tmp", "--meta=create,"}, "--meta: invalid value"},
	{{"--dir=/tmp", "--meta=stat,create"},
	 "--meta: \"stat\" needs \"create\" before it"},
	{{"--dir=/tmp", "--meta=create,remove,read"},
	 "\"read\" needs \"create\" before it in the list and no removal"},
	{{"--dir=/tmp", "--meta=dirstat"}, "\"dirstat\" needs \"mkdir\""},
	{{"--dir=/tmp", "--meta=create", "--meta-layout=medium"},
	 "--meta-layout: unknown layout \"medium\" (accepted: easy"},
	{{"--dir=/tmp", "--meta=create", "--meta-files=0"}, "--meta-files"},
	{{"--dir=/tmp", "--meta=create", "--meta-files=-3"}, "--meta-files"},
	{{"--dir=/tmp", "--meta=create", "--meta-files=1000000000"},
	 "--meta-files"},
	{{"--dir=/tmp", "--meta=create", "--meta-size=2M"},
	 "--meta-size: \"2M\" out of range (accepted: 0 to 1M"},
	{{"--dir=/tmp", "--meta=create", "--meta-size=1Q"}, "--meta-size"},
	{{"--dir=/tmp", "--meta=create", "--meta-time=10ms"},
	 "--meta-time: \"10ms\" out of range"},
	{{"--dir=/tmp", "--meta=create", "--meta-time=-1"}, "--meta-time"},
	{{"--dir=/tmp", "--meta=create", "--rw=read"}, "--meta: not with --rw"},
	{{"--dir=/tmp", "--meta=create", "--once"}, "--meta: not with --once"},
	{{"--dir=/tmp", "--meta=create", "--runtime=5"},
	 "--meta: not with --runtime"},
	{{"--dir=/tmp", "--meta-files=10"}, "only with --meta"},
	{{"--dir=/tmp", "--meta-layout=hard"}, "only with --meta"},
	{{"--meta=create"}, "--dir: missing"},
};

static void test_reject(void **state)
{
	struct mb_config cfg;
	struct ios_err err;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rejects) / sizeof(rejects[0]); i++) {
		int rc = mb_fx_parse(rejects[i].args, &cfg, &err);

		if (rc >= 0 || !strstr(err.msg, rejects[i].msg))
			fail_msg(
				"case %zu: rc %d, message \"%s\", expected \"%s\"",
				i, rc, err.msg, rejects[i].msg);
		mb_config_free(&cfg);
	}
}

/* rados has no metadata: refused naming the backend and the accepted
 * ones. */
static void test_rados_refused(void **state)
{
	static const char *const a[] = {"--backend=rados", "--meta=create",
					NULL};
	struct mb_config cfg;
	struct ios_err err;

	(void)state;
	if (!mb_backend_find("rados"))
		skip();
	assert_int_equal(mb_fx_parse(a, &cfg, &err), -EINVAL);
	assert_non_null(strstr(
		err.msg,
		"--meta: backend \"rados\" has no metadata (no files or directories to create; accepted with --meta: --backend=posix, cephfs or null)"));
	mb_config_free(&cfg);
}

static void test_accept(void **state)
{
	static const char *const a[] = {
		"--dir=/tmp",
		"--meta=create,stat,read,remove,mkdir,dirstat,rmdir",
		"--meta-layout=hard",
		"--meta-size=3901",
		"--meta-time=2",
		"--reps=2",
		NULL};
	static const char *const b[] = {"--backend=null", "--meta=create",
					"--meta-files=7", NULL};
	struct mb_config cfg;
	struct ios_err err;

	(void)state;
	assert_int_equal(mb_fx_parse(a, &cfg, &err), 0);
	assert_int_equal(cfg.nmeta, 7);
	assert_int_equal(cfg.meta[0], MB_META_CREATE);
	assert_int_equal(cfg.meta[6], MB_META_RMDIR);
	assert_int_equal(cfg.meta_layout, MB_META_HARD);
	assert_int_equal(cfg.meta_size, 3901);
	assert_true(cfg.meta_time == 2.0);
	/* time-based: the count is only a bound */
	assert_int_equal(cfg.meta_files, MB_META_TIME_FILES);
	assert_int_equal(cfg.npatterns, 0); /* no --rw phase */
	mb_config_free(&cfg);
	assert_int_equal(mb_fx_parse(b, &cfg, &err), 0);
	assert_int_equal(cfg.meta_files, 7);
	assert_int_equal(cfg.meta_layout, MB_META_EASY);
	mb_config_free(&cfg);
}

/* Easy: a directory per rank; hard: one directory, the rank in every
 * name.  No two (rank, item) pairs share a name in either layout. */
static void test_names(void **state)
{
	char a[256], b[256];
	int r1, r2;

	(void)state;
	assert_int_equal(
		mb_meta_run_name(a, sizeof(a), "20261206T131500Z", "42", 777),
		0);
	assert_string_equal(a, "iostrata-meta.20261206T131500Z-job42.777");
	assert_int_equal(
		mb_meta_run_name(a, sizeof(a), "20261206T131500Z", NULL, 777),
		0);
	assert_string_equal(a, "iostrata-meta.20261206T131500Z.777");
	assert_int_equal(
		mb_meta_item(a, sizeof(a), "R", MB_META_EASY, 1, 3, false, 12),
		0);
	assert_string_equal(a, "R/rep.1/rank.3/file.12");
	assert_int_equal(
		mb_meta_item(a, sizeof(a), "R", MB_META_HARD, 1, 3, true, 12),
		0);
	assert_string_equal(a, "R/rep.1/shared/dir.3.12");
	assert_int_equal(
		mb_meta_work_dir(a, sizeof(a), "R", MB_META_HARD, 0, 5), 0);
	assert_string_equal(a, "R/rep.0/shared");
	assert_int_equal(
		mb_meta_work_dir(a, sizeof(a), "R", MB_META_EASY, 0, 5), 0);
	assert_string_equal(a, "R/rep.0/rank.5");
	/* rank 1 item 11 and rank 11 item 1 differ in the hard layout */
	for (r1 = 0; r1 < 12; r1++)
		for (r2 = 0; r2 < 12; r2++) {
			if (r1 == r2)
				continue;
			mb_meta_item(a, sizeof(a), "R", MB_META_HARD, 0, r1,
				     false, (uint64_t)r2);
			mb_meta_item(b, sizeof(b), "R", MB_META_HARD, 0, r2,
				     false, (uint64_t)r1);
			assert_string_not_equal(a, b);
		}
	assert_int_equal(mb_meta_item(a, 10, "R", MB_META_EASY, 0, 0, false, 1),
			 -ENAMETOOLONG);
}

/* The stonewall: a rank stops at the count, or at the time when one is
 * given; the later phases work on what the making phase made. */
static void test_stonewall(void **state)
{
	struct mb_meta_made f = {0, 0};

	(void)state;
	assert_true(mb_meta_go_on(0, 10, 100.0, 0));
	assert_false(mb_meta_go_on(10, 10, 0.0, 0));
	assert_true(mb_meta_go_on(5, 10, 0.9, 1.0));
	assert_false(mb_meta_go_on(5, 10, 1.0, 1.0));
	assert_false(mb_meta_go_on(5, 10, 1.5, 1.0));
	/* a create stonewalled after 37 files: stat, read and remove
	 * work on those 37 */
	assert_int_equal(mb_meta_todo(MB_META_CREATE, &f, 1000), 1000);
	mb_meta_after(MB_META_CREATE, &f, 37);
	assert_int_equal(mb_meta_todo(MB_META_STAT, &f, 1000), 37);
	mb_meta_after(MB_META_STAT, &f, 37);
	assert_int_equal(mb_meta_todo(MB_META_READ, &f, 1000), 37);
	/* a remove cut short at 30 leaves [30, 37) to clean up */
	mb_meta_after(MB_META_REMOVE, &f, 30);
	assert_int_equal(f.lo, 30);
	assert_int_equal(f.hi, 37);
	assert_int_equal(mb_meta_todo(MB_META_REMOVE, &f, 1000), 7);
}

/* mdtest's rate: all operations over the slowest rank's time, not the
 * sum of the rank rates; the slow rank is a straggler. */
static void test_figures(void **state)
{
	struct ios_meta_rank ranks[4] = {
		{1000, 0, 1.0}, {1000, 0, 1.0}, {1000, 0, 1.0}, {1000, 0, 4.0}};
	struct ios_meta_rep rep = {.nranks = 4, .ranks = ranks};
	struct ios_meta_fig f;

	(void)state;
	ios_meta_figures(&rep, &f);
	assert_int_equal(f.ops, 4000);
	assert_true(f.wall_max_s == 4.0);
	assert_int_equal(f.slowest_rank, 3);
	assert_true(fabs(f.ops_s - 1000.0) < 1e-9);
	assert_true(fabs(f.sum_rank_ops_s - 3250.0) < 1e-9);
	assert_true(f.rank_ops_s_min == 250.0);
	assert_true(f.rank_ops_s_max == 1000.0);
	assert_true(f.rank_ops_s_median == 1000.0);
	assert_int_equal(f.nstragglers, 1);
	assert_int_equal(f.straggler[0], 3);
	/* even ranks: no straggler */
	ranks[3].wall_s = 1.02;
	ios_meta_figures(&rep, &f);
	assert_int_equal(f.nstragglers, 0);
	/* a stonewalled create: fewer ops on the slow rank, same wall */
	ranks[3].wall_s = 1.0;
	ranks[3].ops = 300;
	ios_meta_figures(&rep, &f);
	assert_true(fabs(f.ops_s - 3300.0) < 1e-9);
	assert_int_equal(f.nstragglers, 1);
	/* nothing measured */
	rep.nranks = 0;
	ios_meta_figures(&rep, &f);
	assert_true(isnan(f.ops_s));
}

/* The posix hooks on a real directory: create is exclusive and never
 * follows a planted symbolic link, stat tells files from directories,
 * read reads the size written, remove removes. */
static void test_posix_hooks(void **state)
{
	static const char *const a[] = {"--dir=/tmp", "--meta=create", NULL};
	const struct mb_backend *be = mb_backend_find("posix");
	char dir[] = "/tmp/iostrata-meta-test.XXXXXX", path[512], buf[64];
	struct mb_config cfg;
	struct ios_err err = {0};
	struct mb_ctx ctx = {.err = &err};
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(mb_fx_parse(a, &cfg, &err), 0);
	free(cfg.dir);
	cfg.dir = strdup(dir);
	ctx.cfg = &cfg;
	assert_true(mb_backend_has_meta(be));
	assert_int_equal(be->meta_mkdir(&ctx, "d"), 0);
	assert_int_equal(be->meta_create(&ctx, "d/f", "0123456789", 10), 0);
	assert_int_equal(be->meta_create(&ctx, "d/f", "x", 1), -EEXIST);
	assert_int_equal(be->meta_stat(&ctx, "d/f", false), 0);
	assert_int_equal(be->meta_stat(&ctx, "d/f", true), -ENOTDIR);
	assert_int_equal(be->meta_stat(&ctx, "d", false), -EISDIR);
	assert_int_equal(be->meta_read(&ctx, "d/f", buf, 10), 0);
	assert_memory_equal(buf, "0123456789", 10);
	assert_int_equal(be->meta_read(&ctx, "d/f", buf, 11), -EIO);
	/* a link planted where a name will be: not followed */
	snprintf(path, sizeof(path), "%s/d/g", dir);
	assert_int_equal(symlink("/etc/passwd", path), 0);
	assert_int_equal(be->meta_create(&ctx, "d/g", "x", 1), -EEXIST);
	assert_int_equal(be->meta_stat(&ctx, "d/g", false), -EISDIR);
	assert_int_equal(be->meta_read(&ctx, "d/g", buf, 1), -ELOOP);
	assert_int_equal(lstat("/etc/passwd", &st), 0);
	assert_int_equal(unlink(path), 0);
	/* a directory of the path replaced by a link to elsewhere: refused,
	 * nothing made there */
	snprintf(path, sizeof(path), "%s/elsewhere", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/d/sub", dir);
	assert_int_equal(symlink("../elsewhere", path), 0);
	assert_true(be->meta_create(&ctx, "d/sub/x", "x", 1) < 0);
	assert_non_null(strstr(err.msg, "component 'sub'"));
	assert_true(be->meta_mkdir(&ctx, "d/sub/y") < 0);
	snprintf(path, sizeof(path), "%s/elsewhere/x", dir);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s/d/sub", dir);
	assert_int_equal(unlink(path), 0);
	snprintf(path, sizeof(path), "%s/elsewhere", dir);
	assert_int_equal(rmdir(path), 0);
	assert_int_equal(be->meta_remove(&ctx, "d/f", false), 0);
	assert_int_equal(be->meta_stat(&ctx, "d/f", false), -ENOENT);
	assert_int_equal(be->meta_remove(&ctx, "d", true), 0);
	assert_non_null(strstr(err.msg, "posix: stat"));
	mb_config_free(&cfg);
	mb_dir_forget_all();
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reject),
		cmocka_unit_test(test_rados_refused),
		cmocka_unit_test(test_accept),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_stonewall),
		cmocka_unit_test(test_figures),
		cmocka_unit_test(test_posix_hooks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
