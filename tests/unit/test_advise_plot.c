/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for the plot `iostrata-report advise --plot` draws
 * (report/report_advise_plot.c) on the synthetic campaigns of advise_fx.c:
 * drawn, without gnuplot, and with gnuplot payloads in every text that
 * reaches it, and over symbolic links planted at its outputs.
 */
#include "config.h"

#include <errno.h>
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

#include "gnuplot.h"
#include "hostile.h"
#include "report_advise.h"
#include "report_advise_int.h"
#include "siteconf.h"
#include "sweepfit.h"
#include "advise_fx.h"

/* ---- the plot ------------------------------------------------------- */

/* Whether [dir] holds a file PWNED (a payload ran). */
static bool pwned(const char *dir)
{
	char path[200];

	snprintf(path, sizeof(path), "%s/PWNED", dir);
	return access(path, F_OK) == 0;
}

static off_t file_size(const char *prefix, const char *ext)
{
	char path[4200];
	struct stat st;

	snprintf(path, sizeof(path), "%s.%s", prefix, ext);
	return stat(path, &st) == 0 ? st.st_size : -1;
}

/*
 * The plot the command draws: PNG and SVG, the advised node labelled by
 * name in the data; without gnuplot the data and script are still written
 * and the failure said (exit 1); a prefix with a control character is
 * refused.
 */
static void test_plot(void **state)
{
	char dir[32], prefix[64], *dat = NULL, path[80];
	struct adv_config c[32];
	struct capture cap;
	struct ios_site *site;
	size_t n = catalogue_campaigns(c), len = 0;
	FILE *fp;

	(void)state;
	if (!gp_find())
		skip(); /* no gnuplot on this machine */
	new_dir(dir);
	site = load_site(dir, catalogue_site);
	snprintf(prefix, sizeof(prefix), "%s/adv", dir);
	assert_int_equal(
		advise(site, c, n, "seq-write=0.88", prefix, false, NULL, &cap),
		0);
	assert_has(cap.out, "Plot: ");
	assert_int_equal(cap.err[0], '\0');
	cap_free(&cap);
	assert_true(file_size(prefix, "png") > 5000);
	assert_true(file_size(prefix, "svg") > 5000);
	snprintf(path, sizeof(path), "%s.dat", prefix);
	fp = fopen(path, "r");
	assert_non_null(fp);
	assert_true(getdelim(&dat, &len, '\0', fp) > 0);
	fclose(fp);
	assert_has(dat, " 1 \"16 cores, 64 GiB, hdd-5400\" ");
	free(dat);
	/* the key is drawn below the plot: inside, at the bottom right, it
	 * covered the bars of the dearest nodes (the demo's 6,900-7,000 EUR
	 * measured points) */
	snprintf(path, sizeof(path), "%s.gp", prefix);
	fp = fopen(path, "r");
	assert_non_null(fp);
	dat = NULL;
	len = 0;
	assert_true(getdelim(&dat, &len, '\0', fp) > 0);
	fclose(fp);
	assert_has(dat, "set key outside below");
	assert_null(strstr(dat, "set key bottom right"));
	free(dat);
	dat = NULL;
	len = 0;
	snprintf(path, sizeof(path), "%s.dat", prefix);
	/* gnuplot missing */
	unlink(path);
	setenv("GNUPLOT", "/nonexistent/gnuplot", 1);
	assert_int_equal(
		advise(site, c, n, "seq-write=0.88", prefix, false, NULL, &cap),
		1);
	unsetenv("GNUPLOT");
	assert_has(cap.err, "not found");
	assert_true(file_size(prefix, "dat") > 0);
	assert_true(file_size(prefix, "gp") > 0);
	cap_free(&cap);
	/* a prefix gnuplot would be told differently */
	assert_int_equal(
		advise(site, c, n, "seq-write=0.88", "a\nb", false, NULL, &cap),
		1);
	assert_has(cap.err, "invalid value \"a\nb\" for --plot");
	cap_free(&cap);
	ios_site_free(site);
	rm_dir(dir);
}

/*
 * Issue 11: every text of the command that reaches the plot, from files
 * users write, carries gnuplot payloads (backquotes, system(), $(), @
 * macros, runs of quotes, text from ${VAR} in the site file): the currency, the
 * name of the advised disk class (placed by the site file), the site's name and
 * the classes' descriptions, the campaign directories and configuration labels,
 * and the --plot prefix.  The command is run from the directory the payloads
 * name: no payload runs, the plot is still drawn.
 */
#define PAY "`touch PWNED`'.system('touch PWNED').'$(touch PWNED)@PAY''''x"
static void test_plot_hostile(void **state)
{
	static const char site_text[] = CATALOGUE_SITE(
		"h`touch PWNED`'.system('touch PWNED').'$(touch PWNED)@x'''",
		"EUR" PAY "${TEST_ADVISE_NL}",
		"description = " PAY "${TEST_ADVISE_NL}\n");
	char dir[32], site[64], grid[4200], disk[4200], arg_site[80];
	char arg_plot[200], wd[4096], label[64];
	char *argv[] = {"advise", arg_site, "--target=seq-write=0.88",
			arg_plot, grid,     disk,
			NULL};
	struct adv_config c[32];
	struct capture cap;
	size_t n = catalogue_campaigns(c);
	int rc;

	(void)state;
	if (!gp_find())
		skip(); /* no gnuplot on this machine */
	/* newlines and escapes from ${VAR} are refused when the site file
	 * is read (test_siteconf); the rest of the payload stays */
	setenv("TEST_ADVISE_NL", "' !touch PWNED; system('touch PWNED')", 1);
	snprintf(label, sizeof(label), "%s",
		 "l`touch PWNED`\"$(touch PWNED)\"'");
	for (size_t i = 0; i < n; i++)
		snprintf(c[i].label, sizeof(c[i].label), "%s", label);
	new_dir(dir);
	write_file(dir, "site.conf", site_text, site, sizeof(site));
	snprintf(arg_site, sizeof(arg_site), "--site=%s", site);
	snprintf(arg_plot, sizeof(arg_plot), "--plot=%s/p" PAY, dir);
	write_campaign(dir, "grid" PAY, c, 16, 3, -1, grid, sizeof(grid));
	write_campaign(dir, "disk" PAY, c + 16, n - 16, 3, -1, disk,
		       sizeof(disk));
	assert_non_null(getcwd(wd, sizeof(wd)));
	assert_int_equal(chdir(dir), 0);
	rc = run(argv, &cap);
	assert_int_equal(chdir(wd), 0);
	unsetenv("TEST_ADVISE_NL");
	if (pwned(dir))
		fail_msg("a payload ran (exit %d): %s", rc, cap.err);
	if (rc != 0)
		fail_msg("exit %d: %s", rc, cap.err);
	assert_has(cap.out, "Advice: 16 cores, 64 GiB RAM, h`touch PWNED`");
	assert_has(cap.out, "Plot: ");
	assert_true(file_size(arg_plot + strlen("--plot="), "png") > 5000);
	assert_true(file_size(arg_plot + strlen("--plot="), "svg") > 5000);
	cap_free(&cap);
	/* a newline and a terminal escape from ${VAR}: the site is refused,
	 * naming the key; nothing reaches the terminal or gnuplot */
	setenv("TEST_ADVISE_NL", "'\n!touch PWNED\n\x1b[1m", 1);
	rc = run(argv, &cap);
	unsetenv("TEST_ADVISE_NL");
	assert_int_equal(rc, 2);
	assert_has(cap.err, "site.description: byte 0x0a at offset");
	assert_null(strchr(cap.out, '\x1b'));
	assert_null(strchr(cap.err, '\x1b'));
	assert_false(pwned(dir));
	cap_free(&cap);
	rm_dir(dir);
}

/*
 * Issue 11: root writes the plot of `advise --plot=PREFIX` into a sticky
 * world-writable directory where user nobody planted symlinks at
 * PREFIX.png, .svg, .dat and .gp, all to a root-owned victim: the victim
 * is unchanged, the four outputs are regular files.
 */
static void test_plot_outputs_hostile(void **state)
{
	static const char *const names[] = {"adv.png", "adv.svg", "adv.dat",
					    "adv.gp"};
	const size_t nn = sizeof(names) / sizeof(*names);
	char sticky[64], victim[128], prefix[128], bad[1024], dir[32];
	struct adv_config c[32];
	struct capture cap;
	struct ios_site *site;
	size_t n = catalogue_campaigns(c);
	int rc;

	(void)state;
	hostile_dir(sticky, sizeof(sticky), "test_advise_sticky");
	new_dir(dir);
	site = load_site(dir, catalogue_site);
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	hostile_victim(victim);
	hostile_plant(sticky, names, nn, victim);
	snprintf(prefix, sizeof(prefix), "%s/adv", sticky);
	rc = advise(site, c, n, "seq-write=0.88", prefix, false, NULL, &cap);
	/* without gnuplot only the data and the script are written */
	hostile_check(victim, sticky, gp_find() ? names : names + 2,
		      gp_find() ? nn : 2, bad, sizeof(bad));
	ios_site_free(site);
	rm_dir(sticky);
	rm_dir(dir);
	if (bad[0])
		fail_msg("advise returned %d (%s): %s", rc, cap.err, bad);
	cap_free(&cap);
}
int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plot),
		cmocka_unit_test(test_plot_hostile),
		cmocka_unit_test(test_plot_outputs_hostile),
	};

	return cmocka_run_group_tests_name("advise_plot", tests, NULL, NULL);
}
