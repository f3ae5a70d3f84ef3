/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_gnuplot: quoting of file text for gnuplot (table-driven, then a
 * round trip through the real gnuplot with shell payloads), and running
 * gnuplot without a shell.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "gnuplot.h"

struct quote_case {
	const char *in, *script, *data;
};

#define Q "'.\"'\".'" /* a quote inside a script string */

static const struct quote_case cases[] = {
	{"", "''", "\"\""},
	{"plain text", "'plain text'", "\"plain text\""},
	{"it's", "'it" Q "s'", "\"it's\""},
	{"'", "'" Q "'", "\"'\""},
	{"'''x", "'" Q Q Q "x'", "\"'''x\""},
	{"a\"b", "'a\"b'", "\"a'b\""},
	{"`touch x`", "'`touch x`'", "\"`touch x`\""},
	{"$(id) @m \\n", "'$(id) @m \\n'", "\"$(id) @m \\n\""},
	{"a\nb\r\tc\x01\x1b[1m\x7f", "'abc[1m'", "\"abc[1m\""},
	{"x'.system('id').'", "'x" Q ".system(" Q "id" Q ")." Q "'",
	 "\"x'.system('id').'\""},
	{"\xc3\xa9uro", "'\xc3\xa9uro'", "\"\xc3\xa9uro\""},
};

static char *through(int (*fn)(FILE *, const char *), const char *in)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	assert_int_equal(fn(fp, in), 0);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

static void test_quote_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char *q = through(gp_fputq, cases[i].in),
		     *d = through(gp_fputd, cases[i].in);

		if (strcmp(q, cases[i].script) || strcmp(d, cases[i].data))
			fail_msg("case %zu: script %s want %s, data %s want %s",
				 i, q, cases[i].script, d, cases[i].data);
		free(q);
		free(d);
	}
	assert_true(gp_has_ctrl("a\nb"));
	assert_true(gp_has_ctrl("\x1b"));
	assert_false(gp_has_ctrl("a 'b' `c` \xc3\xa9"));
}

static void test_printq(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(fp);
	assert_int_equal(gp_fprintq(fp, "%s [%d]", "it's\n!id", 3), 0);
	assert_int_equal(fclose(fp), 0);
	assert_string_equal(buf, "'it" Q "s!id [3]'");
	free(buf);
}

/* The real gnuplot prints each quoted payload back verbatim (control
 * characters dropped) and runs none of them. */
static void test_roundtrip(void **state)
{
	char dir[] = "/tmp/test_gnuplot.XXXXXX", out[64], pwned[64];
	char *script = NULL, line[512];
	size_t len = 0;
	FILE *fp;
	int st = -1;
	char wd[4096];
	/* relative: gnuplot runs in [dir] */
	const char *pay[] = {
		"`touch PWNED`",
		"'.system('touch PWNED').'",
		"\".system(\"touch PWNED\").\"",
		"$(touch PWNED); touch PWNED",
		"\n!touch PWNED\n",
		"\\'`touch PWNED`\\",
		"@m `touch PWNED`",
		"'''",
		"''.system('touch PWNED').''",
	};

	(void)state;
	if (access(GNUPLOT_PATH, X_OK) != 0)
		skip();
	assert_non_null(mkdtemp(dir));
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(pwned, sizeof(pwned), "%s/PWNED", dir);
	fp = open_memstream(&script, &len);
	assert_non_null(fp);
	fprintf(fp, "m = 'system(\"touch PWNED\")'\nset print ");
	gp_fputq(fp, out);
	fprintf(fp, "\n");
	for (size_t i = 0; i < sizeof(pay) / sizeof(*pay); i++) {
		fprintf(fp, "print ");
		gp_fputq(fp, pay[i]);
		fprintf(fp, "\n");
	}
	assert_int_equal(fclose(fp), 0);
	assert_non_null(getcwd(wd, sizeof(wd)));
	assert_int_equal(chdir(dir), 0);
	assert_int_equal(gp_run(GNUPLOT_PATH, script, len, -1, &st), 0);
	assert_int_equal(chdir(wd), 0);
	free(script);
	assert_int_equal(access(pwned, F_OK), -1);
	fp = fopen(out, "r");
	assert_non_null(fp);
	for (size_t i = 0; i < sizeof(pay) / sizeof(*pay); i++) {
		char want[512], *w = want;

		for (const char *p = pay[i]; *p; p++)
			if (*p != '\n')
				*w++ = *p;
		*w = '\0';
		assert_non_null(fgets(line, sizeof(line), fp));
		line[strcspn(line, "\n")] = '\0';
		assert_string_equal(line, want);
	}
	fclose(fp);
	unlink(out);
	rmdir(dir);
}

static void test_run_status(void **state)
{
	static const char fails[] = "exit status 3\n";
	int st = -1;

	(void)state;
	assert_int_equal(gp_run("/nonexistent/gnuplot", "", 0, -1, &st),
			 -ENOENT);
	if (access(GNUPLOT_PATH, X_OK) != 0)
		skip();
	assert_int_equal(gp_run(GNUPLOT_PATH, fails, strlen(fails), -1, &st),
			 -EIO);
	assert_int_equal(st, 3);
}

/*
 * Issue 11: gnuplot run for root under sudo reads no init file of the
 * caller (~/.gnuplot with a system() in it) and gets only PATH, the locale
 * and TZ from the environment, HOME an empty directory of its own.
 */
static void test_no_init_files(void **state)
{
	char dir[] = "/tmp/test_gnuplot_home.XXXXXX", path[128], line[512];
	char *script = NULL, *old_home = getenv("HOME");
	size_t len = 0;
	FILE *fp;
	int st = -1;

	(void)state;
	if (access(GNUPLOT_PATH, X_OK) != 0)
		skip();
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/.gnuplot", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fprintf(fp, "system('touch %s/SENTINEL')\n", dir);
	assert_int_equal(fclose(fp), 0);
	old_home = old_home ? strdup(old_home) : NULL;
	setenv("HOME", dir, 1);
	setenv("IOSTRATA_TEST_SECRET", "leaked", 1);
	setenv("GNUPLOT_LIB", dir, 1);
	snprintf(path, sizeof(path), "%s/env", dir);
	fp = open_memstream(&script, &len);
	assert_non_null(fp);
	fprintf(fp, "set print ");
	gp_fputq(fp, path);
	fprintf(fp,
		"\nprint system('echo \"home=$HOME secret=$IOSTRATA_TEST_SECRET lib=$GNUPLOT_LIB\"')\n");
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(gp_run(GNUPLOT_PATH, script, len, -1, &st), 0);
	free(script);
	if (old_home)
		setenv("HOME", old_home, 1);
	else
		unsetenv("HOME");
	free(old_home);
	unsetenv("IOSTRATA_TEST_SECRET");
	unsetenv("GNUPLOT_LIB");
	snprintf(path, sizeof(path), "%s/SENTINEL", dir);
	if (access(path, F_OK) == 0)
		fail_msg("gnuplot ran %s/.gnuplot", dir);
	snprintf(path, sizeof(path), "%s/env", dir);
	fp = fopen(path, "r");
	assert_non_null(fp);
	assert_non_null(fgets(line, sizeof(line), fp));
	fclose(fp);
	assert_null(strstr(line, dir));
	assert_non_null(strstr(line, "home=/tmp/iostrata-gnuplot."));
	assert_non_null(strstr(line, "secret= lib=\n"));
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		assert_int_equal(system(cmd), 0);
	}
}

/* The image goes to [out_fd]: a file of ours, no name told to gnuplot. */
static void test_run_out_fd(void **state)
{
	static const char svg[] = "set terminal svg\nplot x\n";
	char path[] = "/tmp/test_gnuplot_out.XXXXXX", head[6] = "";
	int fd, st = -1;

	(void)state;
	if (access(GNUPLOT_PATH, X_OK) != 0)
		skip();
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(gp_run(GNUPLOT_PATH, svg, strlen(svg), fd, &st), 0);
	assert_int_equal(pread(fd, head, 5, 0), 5);
	close(fd);
	unlink(path);
	assert_string_equal(head, "<?xml");
}

static void test_fputnum(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(fp);
	gp_fputnum(fp, 1.5);
	fputc(' ', fp);
	gp_fputnum(fp, NAN);
	fputc(' ', fp);
	gp_fputnum(fp, INFINITY);
	fputc(' ', fp);
	gp_fputnum(fp, -INFINITY);
	fputc(' ', fp);
	gp_fputnum(fp, 1e300 * 1e10);
	assert_int_equal(fclose(fp), 0);
	assert_string_equal(buf, "1.5 NaN NaN NaN NaN");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quote_table),
		cmocka_unit_test(test_printq),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_run_status),
		cmocka_unit_test(test_no_init_files),
		cmocka_unit_test(test_run_out_fd),
		cmocka_unit_test(test_fputnum),
	};

	return cmocka_run_group_tests_name("gnuplot", tests, NULL, NULL);
}
