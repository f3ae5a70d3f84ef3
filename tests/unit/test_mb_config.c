/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests: iostrata-bench option parsing and target validation. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <cmocka.h>

#include "mb_config.h"
#include "mb_fx.h"
#include "ownfile.h"

#define MAXARGS MB_FX_MAXARGS

struct reject {
	const char *args[MAXARGS];
	const char *msg; /* substring the message must contain */
};

static const struct reject rejects[] = {
	{{"--dir=/tmp", "--bogus=1"}, "unknown option \"--bogus\""},
	{{"--dir=/tmp", "--b=4k"}, "unknown option \"--b\""},
	{{"--dir=/tmp", "positional"}, "unexpected argument \"positional\""},
	{{"--dir=/tmp", "--rw=seqwrite"}, "--rw: unknown pattern \"seqwrite\""},
	{{"--dir=/tmp", "--rw=write,"}, "--rw"},
	{{"--dir=/tmp", "--rw="}, "--rw"},
	{{"--dir=/tmp", "--rwmixread=101"}, "--rwmixread"},
	{{"--dir=/tmp", "--bs=8X"}, "--bs"},
	{{"--dir=/tmp", "--bs=-4k"}, "--bs"},
	{{"--dir=/tmp", "--bs=0"}, "--bs"},
	{{"--dir=/tmp", "--bs=2G"}, "--bs"},
	{{"--dir=/tmp", "--size=0"}, "--size"},
	{{"--dir=/tmp", "--size=1Q"}, "--size"},
	{{"--dir=/tmp", "--bs=8M", "--size=4M"}, "larger than --size"},
	{{"--dir=/tmp", "--bs=3M", "--size=10M"}, "not a multiple of --bs"},
	{{"--dir=/tmp", "--bs=1000", "--size=1000000"}, "multiple of 512"},
	{{"--dir=/tmp", "--iodepth=0"}, "--iodepth"},
	{{"--dir=/tmp", "--iodepth=5000"}, "--iodepth"},
	{{"--dir=/tmp", "--iodepth=16"}, "needs an asynchronous engine"},
	{{"--dir=/tmp", "--iodepth_batch=0"}, "--iodepth_batch"},
	{{"--dir=/tmp", "--iodepth_batch=x"}, "--iodepth_batch"},
	{{"--dir=/tmp", "--ioengine=libaio", "--iodepth=4",
	  "--iodepth_batch=8"},
	 "--iodepth_batch: 8 is more than --iodepth=4"},
	{{"--dir=/tmp", "--ioengine=aio"},
	 "--ioengine: unknown engine \"aio\" (accepted: psync, libaio, io_uring, posixaio)"},
	{{"--dir=/tmp", "--buffer-compress=101"}, "--buffer-compress"},
	{{"--dir=/tmp", "--buffer-compress=x"}, "--buffer-compress"},
	{{"--dir=/tmp", "--scramble-buffers=2"}, "--scramble-buffers"},
	{{"--dir=/tmp", "--backend=gpfs"},
	 "--backend: unknown or not built backend \"gpfs\""},
	{{"--dir=/tmp", "--runtime=0"}, "--runtime"},
	{{"--dir=/tmp", "--runtime=abc"}, "--runtime"},
	{{"--dir=/tmp", "--runtime=0"}, "--once for a size-based run"},
	{{"--dir=/tmp", "--once", "--runtime=10"},
	 "--once: cannot be combined with --runtime=10"},
	{{"--dir=/tmp", "--runtime=10", "--once"},
	 "--once: cannot be combined with --runtime=10"},
	{{"--dir=/tmp", "--once=1"}, "--once: takes no value"},
	{{"--dir=/tmp", "--reps=0"}, "--reps"},
	{{"--dir=/tmp", "--interval=1ms"}, "--interval"},
	{{"--dir=/tmp", "--runtime=2", "--interval=5"},
	 "longer than --runtime"},
	{{"--dir=/tmp", "--summary=xml"}, "--summary: unknown format \"xml\""},
	{{"--dir=/tmp", "--seed=x"}, "--seed"},
	{{"--dir=/tmp", "--attach=noequals"}, "--attach"},
	{{"--dir=/tmp", "--attach=a b=/etc/hostname"},
	 "--attach: invalid name"},
	{{"--dir=/tmp", "--attach==x"}, "--attach"},
	{{"--dir=/tmp", "--verify=1"}, "--verify: takes no value"},
	{{"--dir=/tmp", "--bs"}, "--bs: missing value"},
	{{"--dir="}, "--dir: empty path"},
	{{"--output="}, "--output: empty path"},
	{{"--bs=4k"}, "--dir: missing"},
	{{"--backend=null", "--verify"},
	 "--verify: backend \"null\" moves no data"},
	{{NULL}, "--dir: missing"},
	{{"--dir=/tmp", "--file-layout=n-to-1"},
	 "--file-layout: unknown layout \"n-to-1\" (accepted: per-rank, shared)"},
	{{"--dir=/tmp", "--file-layout"}, "--file-layout: missing value"},
	{{"--dir=/tmp", "--shared-block=1M"},
	 "--shared-block: only with --file-layout=shared"},
	{{"--dir=/tmp", "--file-layout=shared", "--bs=4k", "--size=1M",
	  "--shared-block=6k"},
	 "--shared-block: 6144 is not a multiple of --bs 4096"},
	{{"--dir=/tmp", "--file-layout=shared", "--bs=4k", "--size=1M",
	  "--shared-block=12k"},
	 "--shared-block: 12288 does not divide --size 1048576"},
	{{"--dir=/tmp", "--file-layout=shared", "--shared-block=0"},
	 "--shared-block: \"0\" must be greater than 0"},
	{{"--dir=/tmp", "--file-layout=shared", "--shared-block=1Q"},
	 "--shared-block"},
};

static void test_rejects(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rejects) / sizeof(rejects[0]); i++) {
		struct mb_config cfg;
		struct ios_err err;
		int rc = mb_fx_parse(rejects[i].args, &cfg, &err);

		if ((rc != -EINVAL && rc != -ERANGE) ||
		    !strstr(err.msg, rejects[i].msg))
			fail_msg(
				"case %zu (%s ...): rc %d, message \"%s\", expected \"%s\"",
				i,
				rejects[i].args[1]   ? rejects[i].args[1]
				: rejects[i].args[0] ? rejects[i].args[0]
						     : "",
				rc, err.msg, rejects[i].msg);
		mb_config_free(&cfg);
	}
}

static void test_defaults(void **state)
{
	static const char *const args[] = {"--dir=/tmp", NULL};
	struct mb_config cfg;
	struct ios_err err;

	(void)state;
	assert_int_equal(mb_fx_parse(args, &cfg, &err), 0);
	assert_int_equal(cfg.npatterns, 1);
	assert_int_equal(cfg.patterns[0], MB_PAT_WRITE);
	assert_int_equal(cfg.bs, 8u << 20);
	assert_int_equal(cfg.size, 16ull << 30);
	assert_int_equal(cfg.iodepth, 1);
	assert_int_equal(cfg.iodepth_batch, 1);
	assert_int_equal(cfg.reps, 7);
	assert_true(cfg.runtime == 150.0);
	assert_true(cfg.interval == 1.0);
	assert_int_equal(cfg.rwmixread, 70);
	assert_true(cfg.direct);
	assert_string_equal(cfg.backend->name, "posix");
	assert_non_null(cfg.output);
	assert_non_null(strstr(cfg.output, "iostrata-bench-"));
	mb_config_free(&cfg);
}

static void test_accepts(void **state)
{
	static const char *const args[] = {"--rw=write,read,randrw",
					   "--rwmixread=30",
					   "--bs=4k",
					   "--size",
					   "1G",
					   "--dir=/tmp",
					   "--ioengine=libaio",
					   "--iodepth=16",
					   "--iodepth_batch=16",
					   "--runtime=500ms",
					   "--interval=100ms",
					   "--seed=42",
					   NULL};
	static const char *const args2[] = {"--backend=null",
					    "--output=none",
					    "--summary=json",
					    "--reorder",
					    "--fsync",
					    "--keep",
					    "--quiet",
					    "--buffered",
					    "--force",
					    "--allow-device",
					    "--attach=state=/etc/hostname",
					    NULL};
	struct mb_config cfg;
	struct ios_err err;

	(void)state;
	assert_int_equal(mb_fx_parse(args, &cfg, &err), 0);
	assert_int_equal(cfg.npatterns, 3);
	assert_int_equal(cfg.patterns[1], MB_PAT_READ);
	assert_int_equal(cfg.patterns[2], MB_PAT_RANDRW);
	assert_int_equal(cfg.rwmixread, 30);
	assert_int_equal(cfg.bs, 4096);
	assert_int_equal(cfg.size, 1ull << 30);
	assert_int_equal(cfg.ioengine, MB_ENG_LIBAIO);
	{
		static const char *const a2[] = {"--dir=/tmp",
						 "--ioengine=posixaio",
						 "--iodepth=16", NULL};
		struct mb_config c2;

		assert_int_equal(mb_fx_parse(a2, &c2, &err), 0);
		assert_int_equal(c2.ioengine, MB_ENG_POSIXAIO);
		assert_int_equal(c2.iodepth, 16);
		assert_string_equal(mb_engine_name(c2.ioengine), "posixaio");
		mb_config_free(&c2);
	}
	assert_int_equal(cfg.iodepth, 16);
	assert_int_equal(cfg.iodepth_batch, 16);
	assert_true(cfg.runtime == 0.5);
	assert_true(cfg.interval == 0.1);
	assert_int_equal(cfg.seed, 42);
	assert_true(cfg.seed_given);
	assert_non_null(strstr(cfg.command_line, "--size 1G"));
	mb_config_free(&cfg);

	assert_int_equal(mb_fx_parse(args2, &cfg, &err), 0);
	assert_string_equal(cfg.backend->name, "null");
	assert_null(cfg.output);
	assert_int_equal(cfg.summary, MB_SUM_JSON);
	assert_true(cfg.reorder && cfg.fsync && cfg.keep && cfg.quiet &&
		    cfg.force && cfg.allow_device);
	assert_false(cfg.direct);
	assert_int_equal(cfg.nattach, 1);
	assert_string_equal(cfg.attach[0].name, "state");
	assert_string_equal(cfg.attach[0].path, "/etc/hostname");
	mb_config_free(&cfg);
}

/* --once: size-based, runtime 0, no interval-against-runtime check;
 * the default stays time-based. */
static void test_once(void **state)
{
	static const char *const args[] = {
		"--dir=/tmp",
		"--once",
		"--rw=write,read,randread,randwrite,randrw",
		"--bs=4k",
		"--size=1M",
		"--interval=5",
		"--ioengine=libaio",
		"--iodepth=8",
		NULL};
	static const char *const def[] = {"--dir=/tmp", NULL};
	struct mb_config cfg;
	struct ios_err err;

	(void)state;
	assert_int_equal(mb_fx_parse(args, &cfg, &err), 0);
	assert_true(cfg.once);
	assert_false(cfg.runtime_given);
	assert_true(cfg.runtime == 0);
	assert_int_equal(cfg.npatterns, 5);
	assert_int_equal(cfg.iodepth, 8);
	mb_config_free(&cfg);
	assert_int_equal(mb_fx_parse(def, &cfg, &err), 0);
	assert_false(cfg.once);
	assert_true(cfg.runtime == 150.0);
	mb_config_free(&cfg);
}

/* --file-layout: per-rank by default; shared takes --bs as its block
 * unless --shared-block says otherwise; not with a backend that has no
 * file (rados), whatever else is right. */
static void test_file_layout(void **state)
{
	static const char *const def[] = {"--dir=/tmp", NULL};
	static const char *const sh[] = {"--dir=/tmp", "--file-layout=shared",
					 "--bs=64k", "--size=4M", NULL};
	static const char *const shb[] = {"--dir=/tmp",
					  "--file-layout=shared",
					  "--bs=64k",
					  "--size=4M",
					  "--shared-block=1M",
					  "--once",
					  "--rw=write,randread",
					  NULL};
	static const char *const pr[] = {"--dir=/tmp", "--file-layout=per-rank",
					 NULL};
	static const char *const rados[] = {"--backend=rados",
					    "--file-layout=shared", NULL};
	struct mb_config cfg;
	struct ios_err err;
	char name[64];

	(void)state;
	assert_int_equal(mb_fx_parse(def, &cfg, &err), 0);
	assert_int_equal(cfg.file_layout, MB_LAYOUT_PER_RANK);
	assert_true(cfg.shared_block == 0);
	assert_string_equal(mb_target_file(&cfg, 3, name, sizeof(name)),
			    "iostrata-bench.3");
	mb_config_free(&cfg);
	assert_int_equal(mb_fx_parse(pr, &cfg, &err), 0);
	assert_int_equal(cfg.file_layout, MB_LAYOUT_PER_RANK);
	mb_config_free(&cfg);
	assert_int_equal(mb_fx_parse(sh, &cfg, &err), 0);
	assert_int_equal(cfg.file_layout, MB_LAYOUT_SHARED);
	assert_true(cfg.shared_block == 65536);
	assert_string_equal(mb_file_layout_name(cfg.file_layout), "shared");
	assert_string_equal(mb_target_file(&cfg, 3, name, sizeof(name)),
			    "iostrata-bench.shared");
	mb_config_free(&cfg);
	assert_int_equal(mb_fx_parse(shb, &cfg, &err), 0);
	assert_true(cfg.shared_block == 1u << 20);
	assert_true(cfg.once);
	mb_config_free(&cfg);
	if (!mb_backend_find("rados"))
		skip();
	assert_int_equal(mb_fx_parse(rados, &cfg, &err), -EINVAL);
	assert_non_null(strstr(
		err.msg,
		"--file-layout: \"shared\" is not available with backend \"rados\""));
	assert_non_null(strstr(err.msg, "accepted: --file-layout=per-rank"));
	mb_config_free(&cfg);
}

static void test_help_version(void **state)
{
	static const char *const h[] = {"--help", NULL};
	static const char *const v[] = {"--version", NULL};
	struct mb_config cfg;
	struct ios_err err;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(mb_fx_parse(h, &cfg, &err), 0);
	assert_true(cfg.help);
	mb_config_free(&cfg);
	assert_int_equal(mb_fx_parse(v, &cfg, &err), 0);
	assert_true(cfg.version);
	mb_config_free(&cfg);
	f = open_memstream(&buf, &len);
	mb_config_usage(f);
	fclose(f);
	/* every option documented, with its default */
	assert_non_null(strstr(buf, "--rw=PATTERN[,PATTERN...]"));
	assert_non_null(strstr(buf, "[8M]"));
	assert_non_null(strstr(buf, "[16G]"));
	assert_non_null(strstr(buf, "[150]"));
	assert_non_null(strstr(buf, "--buffered"));
	assert_non_null(strstr(buf, "--once "));
	assert_non_null(strstr(buf, "size / 1 MB/s + 60 s"));
	assert_non_null(strstr(buf, "--attach=NAME=FILE"));
	assert_non_null(strstr(buf, "null"));
	free(buf);
}

/* ---- target checks in a temporary directory ---- */

static char tmpdir[PATH_MAX];

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_mb_config.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static int check(const char *dir, const char *size, bool force,
		 struct ios_err *err)
{
	char d[PATH_MAX + 8], s[64];
	const char *args[] = {d, "--bs=4k", s, force ? "--force" : NULL, NULL};
	struct mb_config cfg;
	int rc;

	snprintf(d, sizeof(d), "--dir=%s", dir);
	snprintf(s, sizeof(s), "--size=%s", size);
	rc = mb_fx_parse(args, &cfg, err);
	assert_int_equal(rc, 0);
	rc = mb_config_check_target(&cfg, 0, 4, 2, err);
	mb_config_free(&cfg);
	return rc;
}

static void test_target(void **state)
{
	char path[PATH_MAX + 64];
	struct ios_err err;
	FILE *f;

	(void)state;
	assert_int_equal(check(tmpdir, "1M", false, &err), 0);
	snprintf(path, sizeof(path), "%s/missing", tmpdir);
	assert_int_equal(check(path, "1M", false, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "--dir"));
	/* not a directory */
	snprintf(path, sizeof(path), "%s/plain", tmpdir);
	f = fopen(path, "w");
	fclose(f);
	assert_int_equal(check(path, "1M", false, &err), -ENOTDIR);
	/* free space: 4 PiB cannot fit, --force runs anyway */
	assert_int_equal(check(tmpdir, "1P", false, &err), -ENOSPC);
	assert_non_null(strstr(err.msg, "--force"));
	assert_int_equal(check(tmpdir, "1P", true, &err), 0);
	/* a foreign file where rank 0's file would go: refused */
	snprintf(path, sizeof(path), "%s/iostrata-bench.0", tmpdir);
	f = fopen(path, "w");
	fputs("precious", f);
	fclose(f);
	assert_int_equal(check(tmpdir, "1M", false, &err), -EEXIST);
	assert_non_null(strstr(err.msg, "not created by iostrata"));
	/* marked as ours: accepted */
	assert_int_equal(
		setxattr(path, MB_XATTR_NAME, "iostrata-bench rank=0", 21, 0),
		0);
	assert_int_equal(check(tmpdir, "1M", false, &err), 0);
	{
		const struct mb_dir *d;

		assert_int_equal(mb_dir_get(tmpdir, false, &d, &err), 0);
		assert_int_equal(
			mb_own_remove(d, "iostrata-bench.0", "test", &err), 0);
		assert_int_equal(
			mb_own_check(d, "iostrata-bench.0", "test", NULL, &err),
			0);
	}
}

/* --file-layout=shared on a local filesystem: one node's ranks share the
 * file; ranks on several nodes would each see another file: refused.
 * The free space counts the one file (ranks x size). */
static void test_target_shared(void **state)
{
	char d[PATH_MAX + 8];
	const char *args[] = {d, "--bs=4k", "--size=1M", "--file-layout=shared",
			      NULL};
	const char *big[] = {d, "--bs=4k", "--size=1P", "--file-layout=shared",
			     NULL};
	struct mb_config cfg;
	struct ios_err err;

	(void)state;
	snprintf(d, sizeof(d), "--dir=%s", tmpdir);
	assert_int_equal(mb_fx_parse(args, &cfg, &err), 0);
	assert_int_equal(mb_config_check_target(&cfg, 1, 4, 4, &err), 0);
	assert_int_equal(mb_config_check_target(&cfg, 1, 4, 2, &err), -EINVAL);
	assert_non_null(strstr(
		err.msg,
		"--file-layout: \"shared\" needs one file that every rank sees"));
	assert_non_null(strstr(err.msg, "is a local filesystem"));
	mb_config_free(&cfg);
	assert_int_equal(mb_fx_parse(big, &cfg, &err), 0);
	assert_int_equal(mb_config_check_target(&cfg, 0, 4, 4, &err), -ENOSPC);
	assert_non_null(strstr(err.msg, "4 ranks x"));
	mb_config_free(&cfg);
}

static void test_block_device(void **state)
{
	static const char *const devs[] = {"/dev/vda", "/dev/sda",
					   "/dev/nvme0n1", "/dev/loop0"};
	struct stat st;
	struct ios_err err;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(devs) / sizeof(devs[0]); i++)
		if (!stat(devs[i], &st) && S_ISBLK(st.st_mode))
			break;
	if (i == sizeof(devs) / sizeof(devs[0]))
		skip();
	assert_int_equal(check(devs[i], "1M", false, &err), -EPERM);
	assert_non_null(strstr(err.msg, "--allow-device"));
}

/* Backend options shared by two backends (--ceph-conf of rados and
 * cephfs) are accepted for either; options of another backend are not. */
static void test_backend_options(void **state)
{
	const struct mb_backend *const *b;
	const struct mb_option *o;
	char be[64], opt[128];
	struct mb_config cfg;
	struct ios_err err;

	(void)state;
	for (b = mb_backends; *b; b++)
		for (o = (*b)->options; o && o->name; o++) {
			const char *args[] = {be, opt, "--dir=/tmp", NULL};

			snprintf(be, sizeof(be), "--backend=%s", (*b)->name);
			snprintf(opt, sizeof(opt), "--%s%s", o->name,
				 o->arg ? "=x" : "");
			if (mb_fx_parse(args, &cfg, &err))
				fail_msg("%s %s: %s", be, opt, err.msg);
			assert_string_equal(mb_config_opt(&cfg, o->name),
					    o->arg ? "x" : "1");
			mb_config_free(&cfg);
		}
	if (!mb_backend_find("rados"))
		return;
	{
		const char *args[] = {"--backend=null", "--rados-pool=x", NULL};

		assert_int_equal(mb_fx_parse(args, &cfg, &err), -EINVAL);
		assert_non_null(
			strstr(err.msg, "not an option of backend \"null\""));
		mb_config_free(&cfg);
	}
}

static void test_opt_accessor(void **state)
{
	static const char *const args[] = {"--dir=/tmp", NULL};
	struct mb_config cfg;
	struct ios_err err;

	(void)state;
	assert_int_equal(mb_fx_parse(args, &cfg, &err), 0);
	assert_null(mb_config_opt(&cfg, "no-such-option"));
	mb_config_free(&cfg);
	assert_string_equal(mb_pattern_name(MB_PAT_RANDRW), "randrw");
	assert_string_equal(mb_engine_name(MB_ENG_IO_URING), "io_uring");
	assert_true(mb_pattern_writes(MB_PAT_RANDRW));
	assert_true(mb_pattern_reads(MB_PAT_RANDRW));
	assert_false(mb_pattern_random(MB_PAT_READ));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rejects),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_accepts),
		cmocka_unit_test(test_once),
		cmocka_unit_test(test_file_layout),
		cmocka_unit_test(test_help_version),
		cmocka_unit_test(test_target),
		cmocka_unit_test(test_target_shared),
		cmocka_unit_test(test_block_device),
		cmocka_unit_test(test_backend_options),
		cmocka_unit_test(test_opt_accessor),
	};

	return cmocka_run_group_tests_name("mb_config", tests, setup, teardown);
}
