/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_safefile: output files are new files renamed into place: a symlink
 * at the output name is replaced, never written through; a directory
 * there is refused; the mode is 0644 less the umask; nothing is left
 * behind on failure; logs refuse symlinks, hard links and FIFOs.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "safefile.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test_safefile.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static char *P(const char *name)
{
	static char buf[4][256];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", dir, name);
	return buf[k];
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void assert_content(const char *path, const char *want)
{
	char buf[256] = "";
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	assert_string_equal(buf, want);
}

/* No ".NAME.XXXXXX" left in the directory. */
static void assert_no_temp(void)
{
	char pat[128];
	glob_t g = {0};

	snprintf(pat, sizeof(pat), "%s/.*.??????", dir);
	glob(pat, 0, NULL, &g);
	if (g.gl_pathc)
		fail_msg("temporary file left: %s", g.gl_pathv[0]);
	globfree(&g);
}

static void test_write_mode(void **state)
{
	static const struct {
		mode_t umask, want;
	} cases[] = {{022, 0644}, {077, 0600}, {0, 0644}};
	struct stat st;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		mode_t old = umask(cases[i].umask);
		int rc = sf_write(P("out.csv"), "a,b\n", 4, SF_SYNC, NULL);

		umask(old);
		assert_int_equal(rc, 0);
		assert_int_equal(lstat(P("out.csv"), &st), 0);
		assert_true(S_ISREG(st.st_mode));
		if ((st.st_mode & 07777) != cases[i].want)
			fail_msg("umask %03o: mode %03o, want %03o",
				 cases[i].umask, st.st_mode & 07777,
				 cases[i].want);
		assert_content(P("out.csv"), "a,b\n");
	}
	assert_no_temp();
}

/* A symlink at the output name (to a file, to nothing, to a directory) is
 * replaced by the new file; what it pointed to is untouched. */
static void test_symlink_replaced(void **state)
{
	static const char *const targets[] = {"victim", "missing", "vdir"};
	struct stat st;

	(void)state;
	put(P("victim"), "precious\n");
	assert_int_equal(mkdir(P("vdir"), 0755), 0);
	for (size_t i = 0; i < sizeof(targets) / sizeof(*targets); i++) {
		unlink(P("link"));
		assert_int_equal(symlink(P(targets[i]), P("link")), 0);
		assert_int_equal(sf_write(P("link"), "new\n", 4, 0, NULL), 0);
		assert_int_equal(lstat(P("link"), &st), 0);
		if (!S_ISREG(st.st_mode))
			fail_msg("symlink to %s: still not a regular file",
				 targets[i]);
		assert_content(P("link"), "new\n");
	}
	assert_content(P("victim"), "precious\n");
	assert_int_equal(access(P("missing"), F_OK), -1);
	assert_int_equal(access(P("vdir/link"), F_OK), -1);
	assert_no_temp();
}

static void test_refused(void **state)
{
	struct ios_err err = {0};
	struct sf_file f;

	(void)state;
	assert_int_equal(mkdir(P("adir"), 0755), 0);
	assert_int_equal(sf_write(P("adir"), "x", 1, 0, &err), -EISDIR);
	assert_non_null(strstr(err.msg, P("adir")));
	assert_non_null(strstr(err.msg, "directory is in the way"));
	assert_int_equal(sf_write(P("adir/"), "x", 1, 0, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "names a directory"));
	assert_int_equal(sf_write(P("nodir/x"), "x", 1, 0, &err), -ENOENT);
	assert_non_null(strstr(err.msg, P("nodir/x")));
	/* discarded: the old file stays, no temporary file */
	put(P("kept"), "old\n");
	assert_int_equal(sf_create(&f, P("kept"), 0, &err), 0);
	fputs("half", f.fp);
	sf_discard(&f);
	assert_content(P("kept"), "old\n");
	assert_no_temp();
}

static void test_append(void **state)
{
	struct ios_err err = {0};

	(void)state;
	unlink(P("log"));
	assert_int_equal(sf_append(P("log"), "one\n", 4, &err), 0);
	assert_int_equal(sf_append(P("log"), "two\n", 4, &err), 0);
	assert_content(P("log"), "one\ntwo\n");
	put(P("victim2"), "precious\n");
	assert_int_equal(symlink(P("victim2"), P("slog")), 0);
	assert_int_equal(sf_append(P("slog"), "x\n", 2, &err), -ELOOP);
	assert_non_null(strstr(err.msg, "symlink"));
	assert_int_equal(link(P("victim2"), P("hlog")), 0);
	assert_int_equal(sf_append(P("hlog"), "x\n", 2, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "hard links"));
	assert_content(P("victim2"), "precious\n");
	/* a FIFO: refused at once, not a writer blocked for a reader */
	assert_int_equal(mkfifo(P("flog"), 0644), 0);
	assert_true(sf_append(P("flog"), "x\n", 2, &err) < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_mode),
		cmocka_unit_test(test_symlink_replaced),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_append),
	};

	return cmocka_run_group_tests_name("safefile", tests, setup, teardown);
}
