/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_report_plot: iostrata-report plot without gnuplot, with hostile text
 * in every field that reaches gnuplot, with planted links at every output
 * it writes, and with non-finite numbers.  (The other commands:
 * test_report.c; the fixture: report_fx.c.)
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <dirent.h>
#include <jansson.h>
#include <stdbool.h>

#include "h5run.h"
#include "hostile.h"
#include "report.h"
#include "synth.h"
#include "report_fx.h"

/* No gnuplot: plot says so and fails; the other commands still work. */
static void test_no_gnuplot(void **state)
{
	struct ios_synth s;
	char *argv[] = {"plot", "--kind=timeline", NULL, NULL};
	char out[300];

	(void)state;
	ios_synth_defaults(&s);
	synth_file("g.h5", &s);
	snprintf(out, sizeof(out), "--out=%s/g", dir);
	argv[1] = out;
	argv[2] = P("g.h5");
	setenv("GNUPLOT", "/nonexistent/gnuplot", 1);
	optind = 1;
	assert_int_equal(report_plot(3, argv), REPORT_EXIT_FAIL);
	unsetenv("GNUPLOT");
	assert_int_equal(access(P("g-timeline-c2_m24G-write-rep2.png"), F_OK),
			 -1);
}

/*
 * Issue 11: text from a results file (labels, phase names, invalid reasons,
 * host names), the file's own name and --out reach gnuplot only as text:
 * none of the payloads runs, and every plot kind is still drawn.
 */
static void test_plot_hostile(void **state)
{
	char pay[700], wd[4096], out[512], pwned[100], path[512], bad[400] = "";
	char *argv[] = {"plot", NULL, NULL, NULL, NULL, NULL};
	static const char *const kinds[] = {"--kind=heatmap", "--kind=throttle",
					    "--kind=timeline"};
	static const char *const globs[] = {"-heatmap-*.png", "-throttle-*.png",
					    "-timeline-*.png"};
	static const size_t want[] = {4, 2, 4};
	struct ios_synth s;
	struct ios_err err = {0};
	struct ios_run *run;
	glob_t g;

	(void)state;
	if (access(GNUPLOT_PATH, X_OK) != 0)
		skip();
	snprintf(pwned, sizeof(pwned), "%s/PWNED", dir);
	snprintf(
		pay, sizeof(pay),
		"L`touch %s`'.system('touch %s').'\"`touch %s`\"$(touch %s)\n!touch %s\n\x01\x1b[1m\r\\\"end",
		pwned, pwned, pwned, pwned, pwned);
	/* a: hostile label, phase names, invalid reason and host names */
	ios_synth_defaults(&s);
	s.disk_bw = 100000000;
	s.phases = "w`touch PWNED`,'\n!touch PWNED";
	run = ios_synth_run(&s);
	assert_non_null(run);
	run->config[run->nconfig].key = strdup("label");
	run->config[run->nconfig++].value = strdup(pay);
	for (int i = 0; i < run->nranks; i++)
		memcpy(run->rank_info[i].host, pay,
		       sizeof(run->rank_info[i].host) - 1);
	for (int k = 0; k < run->nphases; k++) {
		struct ios_rep_result *rep =
			&run->phases[k].reps[run->phases[k].nreps - 1];

		rep->valid = false;
		assert_true(strlen(pay) < sizeof(rep->invalid_reason));
		memcpy(rep->invalid_reason, pay, strlen(pay) + 1);
	}
	assert_int_equal(ios_h5_write_run(P("a.h5"), run, &err), 0);
	ios_synth_free(run);
	/* b: no label and no applied state, so its (hostile) file name is the
	 * label */
	ios_synth_defaults(&s);
	s.cpus = 0;
	run = ios_synth_run(&s);
	assert_non_null(run);
	free(run->attachments[0].key);
	free(run->attachments[0].value);
	run->nattach = 0;
	snprintf(path, sizeof(path),
		 "%s/b'`touch PWNED`\"$(touch PWNED)\"\n!touch PWNED\n.h5",
		 dir);
	assert_int_equal(ios_h5_write_run(path, run, &err), 0);
	ios_synth_free(run);

	/* the payloads that name no directory write to the working one */
	assert_non_null(getcwd(wd, sizeof(wd)));
	assert_int_equal(chdir(dir), 0);
	snprintf(out, sizeof(out),
		 "--out=%s/o'`touch PWNED`\"$(touch PWNED)\"';!touch PWNED",
		 dir);
	for (size_t k = 0; k < 3; k++) {
		char pat[200];
		bool pwn;
		int rc;

		argv[1] = (char *)kinds[k];
		argv[2] = out;
		argv[3] = P("a.h5");
		argv[4] = path;
		optind = 1;
		rc = report_plot(5, argv);
		snprintf(pat, sizeof(pat), "%s/*%s", dir, globs[k]);
		memset(&g, 0, sizeof(g));
		glob(pat, 0, NULL, &g);
		pwn = access(pwned, F_OK) == 0;
		if (rc != REPORT_EXIT_OK || g.gl_pathc != want[k] || pwn) {
			size_t l = strlen(bad);

			snprintf(bad + l, sizeof(bad) - l,
				 "%s: exit %d, %zu PNGs (want %zu)%s; ",
				 kinds[k], rc, g.gl_pathc, want[k],
				 pwn ? ", the payload ran" : "");
		}
		globfree(&g);
		unlink(pwned);
	}
	assert_int_equal(chdir(wd), 0);
	if (bad[0])
		fail_msg("%s", bad);
}

/* Run every command that writes a file with its outputs in [out]: plot
 * (all kinds), export (CSV and JSON), trend (Prometheus textfile).  The
 * exit codes, each OK (trend: OK or FAIL, its verdict does not matter
 * here), into [rcs]. */
static void write_all(const char *out, bool plot, char *rcs, size_t len)
{
	char o[300], e1[300], e2[300], pr[300], *txt;
	int rc[4] = {0, 0, 0, 0};

	snprintf(o, sizeof(o), "--out=%s/o", out);
	snprintf(e1, sizeof(e1), "--output=%s/e.csv", out);
	snprintf(e2, sizeof(e2), "--output=%s/e.json", out);
	snprintf(pr, sizeof(pr), "--prometheus=%s/t.prom", out);
	if (plot) {
		rc[0] = run_cmd(&txt, 4, "plot", o, P("w1.h5"), P("w2.h5"));
		free(txt);
	}
	rc[1] = run_cmd(&txt, 4, "export", "--format=csv", e1, P("w*.h5"));
	free(txt);
	rc[2] = run_cmd(&txt, 4, "export", "--format=json", e2, P("w*.h5"));
	free(txt);
	rc[3] = run_cmd(&txt, 3, "trend", pr, P("w*.h5"));
	free(txt);
	snprintf(rcs, len, "%s",
		 rc[0] || rc[1] || rc[2] || rc[3] > REPORT_EXIT_FAIL
			 ? "a command failed; "
			 : "");
}

/*
 * Issue 11: root runs iostrata-report with its outputs in a sticky
 * world-writable directory where user nobody planted symlinks at every
 * name it writes (the plots' PNG, SVG and .dat files, the exports, the
 * Prometheus file and its old temporary name), all to a root-owned
 * victim: the victim is unchanged, the outputs are regular files.
 */
static void test_outputs_hostile(void **state)
{
	char learn[128], victim[128], bad[4096], tmpname[64], rcs[64];
	const char *names[64];
	bool plot = access(GNUPLOT_PATH, X_OK) == 0;
	struct ios_synth s;
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	(void)state;
	hostile_dir(sticky, sizeof(sticky), "test_report_sticky");
	ios_synth_defaults(&s);
	s.job_name = "hostile";
	s.disk_bw = 100000000;
	synth_file("w1.h5", &s);
	s.cpus = 8;
	s.seed = 7;
	synth_file("w2.h5", &s);
	/* the names it writes: a first run in a private directory */
	snprintf(learn, sizeof(learn), "%s/learn", dir);
	assert_int_equal(mkdir(learn, 0700), 0);
	write_all(learn, plot, rcs, sizeof(rcs));
	assert_string_equal(rcs, "");
	d = opendir(learn);
	assert_non_null(d);
	while ((de = readdir(d)) && n < 63)
		if (de->d_name[0] != '.')
			names[n++] = strdup(de->d_name);
	closedir(d);
	assert_true(n >= (plot ? 12u : 3u));
	/* the old temporary name of the Prometheus file, planted too */
	snprintf(tmpname, sizeof(tmpname), "t.prom.tmp.%d", (int)getpid());
	names[n] = tmpname;
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	hostile_victim(victim);
	hostile_plant(sticky, names, n + 1, victim);
	write_all(sticky, plot, rcs, sizeof(rcs));
	hostile_check(victim, sticky, names, n, bad, sizeof(bad));
	if (rcs[0])
		snprintf(bad + strlen(bad), sizeof(bad) - strlen(bad), "%s",
			 rcs);
	for (size_t i = 0; i < n; i++)
		free((char *)names[i]);
	if (bad[0])
		fail_msg("%s", bad);
}

/*
 * A sample interval of nan or inf in a results file: that timeline is
 * skipped (exit 1), the others are drawn; nothing reaches gnuplot as
 * "nan" or "inf", which would fail the plot and leave an empty image.
 */
static void test_plot_nonfinite(void **state)
{
	static const char *const phase[] = {"write", "read", "randwrite"};
	static const bool drawn[] = {false, false, true};
	char *argv[] = {"plot", "--kind=timeline", NULL, NULL, NULL};
	char out[300], png[300];
	struct ios_synth s;
	struct ios_err err = {0};
	struct ios_run *run;
	struct stat st;
	char *txt;
	int rc;

	(void)state;
	if (access(GNUPLOT_PATH, X_OK) != 0)
		skip();
	ios_synth_defaults(&s);
	s.phases = "write,read,randwrite";
	run = ios_synth_run(&s);
	assert_non_null(run);
	run->phases[0].reps[run->phases[0].nreps - 1].interval_s = NAN;
	run->phases[1].reps[run->phases[1].nreps - 1].interval_s = INFINITY;
	assert_int_equal(ios_h5_write_run(P("nf.h5"), run, &err), 0);
	ios_synth_free(run);
	snprintf(out, sizeof(out), "--out=%s/nf", dir);
	argv[2] = out;
	argv[3] = P("nf.h5");
	rc = run_cmd(&txt, 4, argv[0], argv[1], argv[2], argv[3]);
	free(txt);
	for (int k = 0; k < 3; k++) {
		bool there;

		snprintf(png, sizeof(png), "%s/nf-timeline-c2_m24G-%s-rep2.png",
			 dir, phase[k]);
		there = stat(png, &st) == 0;
		if (there != drawn[k] || (there && st.st_size < 5000))
			fail_msg("%s: %s (%lld bytes), want %s", phase[k],
				 there ? "drawn" : "missing",
				 there ? (long long)st.st_size : 0LL,
				 drawn[k] ? "drawn" : "skipped");
	}
	assert_int_equal(rc, REPORT_EXIT_FAIL);
}

/* The whole of [path] (malloc'd, NUL-terminated), or NULL. */
static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;

	if (!fp)
		return NULL;
	if (getdelim(&buf, &len, '\0', fp) < 0) {
		free(buf);
		buf = NULL;
	}
	fclose(fp);
	return buf;
}

/*
 * Throttle curves at 100..275 MB/s per disk, seq-write at 50 MB/s per rank
 * x min(d, [plateau]) / [plateau] ([plateau] 0: rising all the way), into
 * files [tag]100.h5 ... and plotted to [tag]-throttle-write.*: the text
 * output into *txt.
 */
static int throttle_series(const char *tag, double plateau, char **txt)
{
	char out[300], files[8][300];

	for (int i = 0; i < 8; i++) {
		struct ios_synth s;
		int d = 100 + 25 * i;
		char name[64];

		ios_synth_defaults(&s);
		s.phases = "write";
		s.nreps = 3;
		s.disk_bw = (uint64_t)d * 1000000;
		s.rank_bw = 50e6 * (plateau > 0 ? fmin(d, plateau) / plateau
						: d / 275.0);
		s.seed = (unsigned)d;
		snprintf(name, sizeof(name), "%s%d.h5", tag, d);
		synth_file(name, &s);
		snprintf(files[i], sizeof(files[i]), "%s", P(name));
	}
	snprintf(out, sizeof(out), "--out=%s/%s", dir, tag);
	return run_cmd(txt, 11, "plot", "--kind=throttle", out, files[0],
		       files[1], files[2], files[3], files[4], files[5],
		       files[6], files[7]);
}

/*
 * Issue 17: the throttle curve (the paper's Figures 4-5) draws the knee
 * advise's ramp fit finds, with its 95% interval, labelled in MB/s per
 * disk; a curve with no knee says so in the plot and the text output.
 */
static void test_plot_throttle_knee(void **state)
{
	char *txt = NULL, *svg, *p;
	double k2, lo, hi;

	(void)state;
	if (access(GNUPLOT_PATH, X_OK) != 0)
		skip();
	setenv("GNUPLOT", GNUPLOT_PATH, 1);
	/* a plateau from 200 MB/s */
	assert_int_equal(throttle_series("k", 200, &txt), REPORT_EXIT_OK);
	p = strstr(txt, "throttle write: knee ~ ");
	if (!p || sscanf(p, "throttle write: knee ~ %lf MB/s [%lf..%lf]", &k2,
			 &lo, &hi) != 3)
		fail_msg("no knee in:\n%s", txt);
	if (!(lo <= 200 && 200 <= hi && lo <= k2 && k2 <= hi && k2 > 150 &&
	      k2 < 250))
		fail_msg("knee %g [%g..%g], want about 200 within it", k2, lo,
			 hi);
	free(txt);
	svg = slurp(P("k-throttle-write.svg"));
	assert_non_null(svg);
	if (!strstr(svg, "knee ~ ") || !strstr(svg, "MB/s per disk") ||
	    !strstr(svg, "95% interval of the knee"))
		fail_msg("the SVG lacks the knee's label, band or unit");
	free(svg);
	/* rising all the way: no knee, said in the text and the title */
	assert_int_equal(throttle_series("r", 0, &txt), REPORT_EXIT_OK);
	if (!strstr(txt, "throttle write: no knee found: still rising at the "
			 "fastest measured 275 MB/s"))
		fail_msg("no 'no knee found' sentence in:\n%s", txt);
	free(txt);
	svg = slurp(P("r-throttle-write.svg"));
	assert_non_null(svg);
	if (!strstr(svg, "no knee found: still rising") ||
	    strstr(svg, "knee ~ "))
		fail_msg("the SVG does not say there is no knee");
	free(svg);
	unsetenv("GNUPLOT");
}

/* Column [col] (3: the value, 4: its sd) of cell (ix, iy) in a heatmap's
 * .dat [path]; NAN if none. */
static double cell_col(const char *path, int ix, int iy, int col)
{
	char *dat = slurp(path), *line, *save = NULL;
	double v = NAN;

	if (!dat)
		return NAN;
	for (line = strtok_r(dat, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		int x, y;
		double w[2];

		if (sscanf(line, "%d %d %lf %lf", &x, &y, &w[0], &w[1]) >=
			    col &&
		    x == ix && y == iy)
			v = w[col - 3];
	}
	free(dat);
	return v;
}

static double cell_of(const char *path, int ix, int iy)
{
	return cell_col(path, ix, iy, 3);
}

/*
 * Issue 17 / 15: a campaign with [sweep] replication = 2,3 gets one
 * heatmap per metric and factor (-r2, -r3), each normalised to its own
 * factor's baseline (the mean of its baseline cell) and titled with it,
 * and one throttle curve per factor; a disk-speed sweep gets no heatmap,
 * said; a single-factor campaign keeps today's names.  Factor 3 runs at 0.6
 * of factor 2 everywhere; the small node (1 core, 12 GiB) at half of each
 * factor's full node.
 */
static void test_plot_heatmap_replication(void **state)
{
	char out[300], one[300], files[9][300], th[4][300], *txt = NULL, *svg;
	double r2, r3, full3;
	int k = 0;

	(void)state;
	if (access(GNUPLOT_PATH, X_OK) != 0)
		skip();
	setenv("GNUPLOT", GNUPLOT_PATH, 1);
	/* unthrottled cores x memory; factor 3's full node run twice (at
	 * 0.6 and 0.48 of factor 2): its cell and baseline their mean */
	for (int repl = 2; repl <= 3; repl++)
		for (int c = 1; c <= 2; c++)
			for (int m = 1; m <= 2 + (repl == 3 && c == 2); m++) {
				struct ios_synth s;
				char name[64];

				ios_synth_defaults(&s);
				s.phases = "write";
				s.cpus = c;
				s.mem = (uint64_t)(m > 2 ? 2 : m) * 12 *
					1073741824ull;
				s.replication = repl;
				s.rank_bw = (repl == 2 ? 100e6 : 60e6) *
					    (c == 1 && m == 1 ? 0.5 : 1) *
					    (m > 2 ? 0.8 : 1);
				s.seed = (unsigned)(repl * 10 + c * 3 + m);
				snprintf(name, sizeof(name), "h-r%d-c%d-m%d.h5",
					 repl, c, m);
				synth_file(name, &s);
				snprintf(files[k++], sizeof(files[0]), "%s",
					 P(name));
			}
	snprintf(out, sizeof(out), "--out=%s/h", dir);
	assert_int_equal(run_cmd(&txt, 12, "plot", "--kind=heatmap", out,
				 files[0], files[1], files[2], files[3],
				 files[4], files[5], files[6], files[7],
				 files[8]),
			 REPORT_EXIT_OK);
	free(txt);
	assert_int_equal(access(P("h-heatmap-write-r2.png"), F_OK), 0);
	assert_int_equal(access(P("h-heatmap-write-r3.png"), F_OK), 0);
	assert_int_equal(access(P("h-heatmap-write.png"), F_OK), -1);
	/* each normalised to its own baseline: the small node is 0.5 of
	 * both (not 0.3 of factor 2's baseline); factor 3's full cell is
	 * its baseline, 1, not one of its two runs over their mean */
	r2 = cell_of(P("h-heatmap-write-r2.dat"), 0, 0);
	r3 = cell_of(P("h-heatmap-write-r3.dat"), 0, 0);
	full3 = cell_of(P("h-heatmap-write-r3.dat"), 1, 1);
	if (!(fabs(r2 - 0.5) < 0.1 && fabs(r3 - 0.5 / 0.9) < 0.1 &&
	      fabs(full3 - 1) < 1e-9))
		fail_msg("cells: r2 small %g, r3 small %g, r3 full %g (want "
			 "0.5, 0.56, 1)",
			 r2, r3, full3);
	/* the cells' spread: factor 3's full cell pools the repetitions of
	 * its two runs (0.6 and 0.48 of factor 2: about 0.11 of their mean
	 * apart from each other), a one-run cell only its own */
	if (!(cell_col(P("h-heatmap-write-r3.dat"), 1, 1, 4) > 0.08 &&
	      cell_col(P("h-heatmap-write-r3.dat"), 1, 1, 4) < 0.16 &&
	      cell_col(P("h-heatmap-write-r3.dat"), 0, 0, 4) >= 0 &&
	      cell_col(P("h-heatmap-write-r3.dat"), 0, 0, 4) < 0.05))
		fail_msg("sd: r3 full %g (want 0.08..0.16), r3 small %g (want "
			 "0..0.05)",
			 cell_col(P("h-heatmap-write-r3.dat"), 1, 1, 4),
			 cell_col(P("h-heatmap-write-r3.dat"), 0, 0, 4));
	svg = slurp(P("h-heatmap-write-r3.svg"));
	assert_non_null(svg);
	if (!strstr(svg, "sd over repetitions"))
		fail_msg("the heatmap's title does not say what a cell shows");
	if (!strstr(svg, "write, replication 3: "))
		fail_msg("the r3 heatmap's title does not name its factor");
	free(svg);
	/* a disk-speed sweep of both factors: one throttle curve per
	 * factor, never a band mixing them; no heatmap of throttled runs
	 * at several speeds, said, not a failure */
	for (int i = 0; i < 4; i++) {
		struct ios_synth s;
		char name[64];

		ios_synth_defaults(&s);
		s.phases = "write";
		s.replication = 2 + i / 2;
		s.disk_bw = (uint64_t)(1 + i % 2) * 100000000;
		s.seed = (unsigned)(50 + i);
		snprintf(name, sizeof(name), "t-r%d-d%d.h5", 2 + i / 2,
			 1 + i % 2);
		synth_file(name, &s);
		snprintf(th[i], sizeof(th[0]), "%s", P(name));
	}
	snprintf(out, sizeof(out), "--out=%s/t", dir);
	assert_int_equal(run_cmd(&txt, 7, "plot", "--kind=throttle,heatmap",
				 out, th[0], th[1], th[2], th[3]),
			 REPORT_EXIT_OK);
	assert_non_null(strstr(txt, "throttle write, replication 2: "));
	assert_non_null(strstr(txt, "heatmap write, replication 3: not drawn: "
				    "every run is throttled, at several disk "
				    "speeds"));
	free(txt);
	assert_int_equal(access(P("t-throttle-write-r2.png"), F_OK), 0);
	assert_int_equal(access(P("t-throttle-write-r3.png"), F_OK), 0);
	assert_int_equal(access(P("t-throttle-write.png"), F_OK), -1);
	assert_int_equal(access(P("t-heatmap-write-r2.png"), F_OK), -1);
	/* one factor: today's names */
	snprintf(one, sizeof(one), "--out=%s/one", dir);
	assert_int_equal(run_cmd(&txt, 7, "plot", "--kind=heatmap", one,
				 files[0], files[1], files[2], files[3]),
			 REPORT_EXIT_OK);
	free(txt);
	assert_int_equal(access(P("one-heatmap-write.png"), F_OK), 0);
	assert_int_equal(access(P("one-heatmap-write-r2.png"), F_OK), -1);
	unsetenv("GNUPLOT");
}

/*
 * Issue 29 rows 2 and 3: the demo's sweep requested 20G and 23G on 1 and 2
 * cores; the applied memory differs by a block from run to run (22.1 and
 * 22.4 GB for 20G).  The heatmap is a grid of the requested configurations
 * (2 memory rows, not 3), its data has a line per measured cell only (the
 * empty cell, 1 core x 23G, is not drawn: no -1), the baseline is named
 * for what it is (the largest configuration swept, requested), and the
 * text gives each cell's applied values.
 */
static void test_heatmap_requested_grid(void **state)
{
	static const struct {
		int c;
		double req_g, app_gb, bw;
	} el[] = {
		{1, 20, 22.1, 90e6},
		{2, 20, 22.4, 100e6},
		{2, 23, 24.7, 95e6},
	};
	char out[300], files[3][300], *txt = NULL, *dat, *line, *save = NULL;
	int rows = 0;

	(void)state;
	if (access(GNUPLOT_PATH, X_OK) != 0)
		skip();
	setenv("GNUPLOT", GNUPLOT_PATH, 1);
	for (int k = 0; k < 3; k++) {
		struct ios_synth s;
		char name[64];

		ios_synth_defaults(&s);
		s.phases = "write";
		s.cpus = el[k].c;
		s.mem = (uint64_t)(el[k].app_gb * 1e9);
		s.req_mem = (uint64_t)(el[k].req_g * 1073741824.0);
		s.rank_bw = el[k].bw;
		s.seed = (unsigned)(70 + k);
		snprintf(name, sizeof(name), "rq-%d.h5", k);
		synth_file(name, &s);
		snprintf(files[k], sizeof(files[0]), "%s", P(name));
	}
	snprintf(out, sizeof(out), "--out=%s/rq", dir);
	assert_int_equal(run_cmd(&txt, 6, "plot", "--kind=heatmap", out,
				 files[0], files[1], files[2]),
			 REPORT_EXIT_OK);
	if (!strstr(txt, "normalised to the largest configuration swept (2 "
			 "cores, 23 GiB/OSD requested)"))
		fail_msg("the baseline is not named as the largest requested "
			 "configuration:\n%s",
			 txt);
	if (!strstr(txt, "requested; applied: 1 cores, 20.6 GiB"))
		fail_msg("no applied values beside the request:\n%s", txt);
	free(txt);
	dat = slurp(P("rq-heatmap-write.dat"));
	assert_non_null(dat);
	for (line = strtok_r(dat, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		int x, y, nrep;
		double v, sd;

		if (sscanf(line, "%d %d %lf %lf %d", &x, &y, &v, &sd, &nrep) !=
		    5)
			fail_msg("not a cell line: %s", line);
		/* 2 x 2 requested cells, 1 core x 23G not measured */
		if (x < 0 || x > 1 || y < 0 || y > 1 || (x == 0 && y == 1))
			fail_msg("a cell that was not measured: %s", line);
		if (!(v > 0) || sd < 0 || nrep < 1)
			fail_msg("a sentinel or no value: %s", line);
		rows++;
	}
	assert_int_equal(rows, 3);
	free(dat);
	/* the baseline cell reads 1 */
	assert_true(fabs(cell_of(P("rq-heatmap-write.dat"), 1, 1) - 1) < 1e-9);
	unsetenv("GNUPLOT");
}

/*
 * Issue 29 row 3 and the drift of row 4: one normalisation, named truly.
 * A campaign measures its unconstrained baseline (no --iostrata-* option)
 * before and after its elements; the heatmap and the throttle curve's
 * text normalise to it, name it with its elements, leave it out of the
 * grid of requested configurations, and say how far it drifted between
 * the first and the last.  Without a baseline element the text says
 * which baseline is used instead.  Before: normalised to the largest
 * cell, the baseline runs drawn as a cell of their own.
 */
static void test_plot_baseline(void **state)
{
	static const struct {
		int el, c;
		double req_g, bw;
		bool base;
	} hm[] = {
		{0, 2, 0, 100e6, true},  {1, 1, 20, 50e6, false},
		{2, 1, 23, 60e6, false}, {3, 2, 20, 90e6, false},
		{4, 2, 23, 95e6, false}, {5, 2, 0, 110e6, true},
	};
	char out[300], f[6][300], t[5][300], *txt = NULL, *dat, *line;
	char *save = NULL, *drift;
	int rows = 0, pct = 0;
	double v100 = 0;

	(void)state;
	if (access(GNUPLOT_PATH, X_OK) != 0)
		skip();
	setenv("GNUPLOT", GNUPLOT_PATH, 1);
	for (int k = 0; k < 6; k++) {
		struct ios_synth s;
		char name[64];

		ios_synth_defaults(&s);
		s.phases = "write";
		s.cpus = hm[k].c;
		s.mem = hm[k].base ? 26500000000ull
				   : (uint64_t)((hm[k].req_g + 1) * 1e9);
		s.req_mem = (uint64_t)(hm[k].req_g * 1073741824.0);
		s.rank_bw = hm[k].bw;
		s.element = hm[k].el;
		s.baseline = hm[k].base;
		s.seed = (unsigned)(80 + k);
		snprintf(name, sizeof(name), "bl-%d.h5", k);
		synth_file(name, &s);
		snprintf(f[k], sizeof(f[0]), "%s", P(name));
	}
	snprintf(out, sizeof(out), "--out=%s/bl", dir);
	assert_int_equal(run_cmd(&txt, 9, "plot", "--kind=heatmap", out, f[0],
				 f[1], f[2], f[3], f[4], f[5]),
			 REPORT_EXIT_OK);
	/* 110 against 100, with the synthetic runs' noise */
	drift = strstr(txt, "the baseline drifted ");
	if (!strstr(txt, "normalised to the unconstrained baseline (elements "
			 "0, 5)") ||
	    !drift || sscanf(drift, "the baseline drifted %d%%", &pct) != 1 ||
	    pct < 5 || pct > 15 ||
	    !strstr(drift, "during the campaign (element 0, first: ") ||
	    !strstr(txt, "  baseline: 1.00 ("))
		fail_msg("not normalised to the named baseline, or no drift "
			 "said:\n%s",
			 txt);
	free(txt);
	dat = slurp(P("bl-heatmap-write.dat"));
	assert_non_null(dat);
	for (line = strtok_r(dat, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		rows++;
	free(dat);
	/* the 2 x 2 requested grid; the baseline is no cell of it */
	assert_int_equal(rows, 4);
	/* 2 cores x 23G: 95 of the baseline's (100 + 110) / 2 */
	if (fabs(cell_of(P("bl-heatmap-write.dat"), 1, 1) - 95.0 / 105) > 0.04)
		fail_msg("2 cores x 23G: %g, want %g",
			 cell_of(P("bl-heatmap-write.dat"), 1, 1), 95.0 / 105);
	/* without the baseline elements: which baseline instead, said */
	assert_int_equal(run_cmd(&txt, 7, "plot", "--kind=heatmap", out, f[1],
				 f[2], f[3], f[4]),
			 REPORT_EXIT_OK);
	if (!strstr(txt, "normalised to the largest configuration swept") ||
	    !strstr(txt, "no unconstrained baseline in these runs"))
		fail_msg("no baseline: not said which one instead:\n%s", txt);
	free(txt);
	/* a disk-speed sweep with its baselines: the curve's text is
	 * normalised to them; the unthrottled baselines make no heatmap */
	for (int k = 0; k < 5; k++) {
		struct ios_synth s;
		char name[64];

		ios_synth_defaults(&s);
		s.phases = "write";
		s.element = k;
		s.baseline = k == 0 || k == 4;
		s.disk_bw = s.baseline ? 0 : (uint64_t)k * 100000000;
		s.rank_bw = s.baseline ? 100e6 : 30e6 + 20e6 * k;
		s.seed = (unsigned)(90 + k);
		snprintf(name, sizeof(name), "bt-%d.h5", k);
		synth_file(name, &s);
		snprintf(t[k], sizeof(t[0]), "%s", P(name));
	}
	snprintf(out, sizeof(out), "--out=%s/bt", dir);
	assert_int_equal(run_cmd(&txt, 8, "plot", "--kind=throttle,heatmap",
				 out, t[0], t[1], t[2], t[3], t[4]),
			 REPORT_EXIT_OK);
	/* 100 MB/s: 50 of the baseline's 100, with the noise */
	drift = strstr(txt, "disk 100      MB/s  ");
	if (!strstr(txt, "stonewall_bw normalised to the unconstrained "
			 "baseline (elements 0, 4)") ||
	    !drift || sscanf(drift, "disk 100 MB/s %lf", &v100) != 1 ||
	    fabs(v100 - 0.5) > 0.04 ||
	    !strstr(txt, "heatmap write: not drawn: every run is throttled"))
		fail_msg("throttle text not normalised to the baseline:\n%s",
			 txt);
	free(txt);
	unsetenv("GNUPLOT");
}

/*
 * Issue 29: figures say what they cannot show.  The demo's reads (2 MB
 * files) were insensitive to the disk throttle: served from the OSDs'
 * memory.  A read phase whose data (file size x ranks, recorded) fits in
 * the OSDs' memory (osd_memory_target x OSDs, recorded in the Ceph facts)
 * gets a note in the text and the figure's title; its write phase and a
 * campaign of large files get none.  Before: no note.
 */
static void test_plot_cache_note(void **state)
{
	char out[300], f[2][2][300], *txt = NULL;

	(void)state;
	if (access(GNUPLOT_PATH, X_OK) != 0)
		skip();
	setenv("GNUPLOT", GNUPLOT_PATH, 1);
	for (int big = 0; big < 2; big++)
		for (int k = 0; k < 2; k++) {
			struct ios_synth s;
			char name[64];

			ios_synth_defaults(&s);
			s.disk_bw = (uint64_t)(k + 1) * 20000000;
			s.size = big ? 2ull << 30 : 2ull << 20;
			s.osd_memory_target = 939524096; /* 896 MiB */
			s.seed = (unsigned)(110 + 2 * big + k);
			snprintf(name, sizeof(name), "cn-%d-%d.h5", big, k);
			synth_file(name, &s);
			snprintf(f[big][k], sizeof(f[0][0]), "%s", P(name));
		}
	snprintf(out, sizeof(out), "--out=%s/cn", dir);
	assert_int_equal(run_cmd(&txt, 5, "plot", "--kind=throttle", out,
				 f[0][0], f[0][1]),
			 REPORT_EXIT_OK);
	/* 2 MiB x 6 ranks against 896 MiB x 3 OSDs */
	if (!strstr(txt, "note: read reads at most 12 MiB (file size x "
			 "ranks), which fits in the OSDs' memory "
			 "(osd_memory_target 896 MiB x 3 OSDs)") ||
	    strstr(txt, "note: write"))
		fail_msg("no note, or one on the write phase:\n%s", txt);
	free(txt);
	/* 2 GiB x 6 ranks: more than the OSDs hold, no note */
	assert_int_equal(run_cmd(&txt, 5, "plot", "--kind=throttle", out,
				 f[1][0], f[1][1]),
			 REPORT_EXIT_OK);
	if (strstr(txt, "note: "))
		fail_msg("a note on reads larger than the OSDs' memory:\n%s",
			 txt);
	free(txt);
	unsetenv("GNUPLOT");
}

/*
 * Issue 29 row 4: the demo's sweep had more memory slower (2 cores: 1.39
 * at 20G, 1.00 at 23G) and the cores effect of a CPU taken from every
 * host.  The heatmap's text says per dimension what the cells show: more
 * cores faster in both pairs, more memory slower, which no effect of
 * memory explains ("no memory effect shown").  The random phases' file
 * has no attachment with the request (only the first run of a job gets
 * the plugin's applied file): its request comes from the storage host's
 * record (shape.requested), so its map is the same requested grid.
 */
static void test_heatmap_dimensions(void **state)
{
	static const struct {
		int c, m;
		double bw;
	} el[] = {
		{1, 20, 33e6},
		{1, 23, 25e6},
		{2, 20, 139e6},
		{2, 23, 100e6},
	};
	char out[300], files[4][300], gpw[300], *txt = NULL, *gps;
	FILE *fp;

	(void)state;
	if (access(GNUPLOT_PATH, X_OK) != 0)
		skip();
	setenv("GNUPLOT", GNUPLOT_PATH, 1);
	for (int k = 0; k < 4; k++) {
		struct ios_synth s;
		struct ios_err err = {0};
		struct ios_run *run;
		char name[64];

		ios_synth_defaults(&s);
		s.phases = "write";
		s.cpus = el[k].c;
		s.mem = (uint64_t)el[k].m * 1073741824ull + 3 * 134217728ull;
		s.rank_bw = el[k].bw;
		s.seed = (unsigned)(80 + k);
		run = ios_synth_run(&s);
		assert_non_null(run);
		/* no requested job facts; the host record's shape has it */
		free(run->job_json);
		run->job_json = NULL;
		run->nhosts = 1;
		run->host_json = calloc(1, sizeof(char *));
		assert_non_null(run->host_json);
		assert_true(asprintf(&run->host_json[0],
				     "{\"hostname\": \"s1\", \"role\": "
				     "\"storage\", \"shape\": {\"requested\": "
				     "{\"cpus\": %d, \"mem_bytes\": %llu}}}",
				     el[k].c,
				     (unsigned long long)el[k].m *
					     1073741824ull) > 0);
		snprintf(name, sizeof(name), "dim-%d.h5", k);
		snprintf(files[k], sizeof(files[0]), "%s", P(name));
		assert_int_equal(ios_h5_write_run(files[k], run, &err), 0);
		ios_synth_free(run);
	}
	/* gnuplot through a wrapper that keeps the script it is given */
	snprintf(gpw, sizeof(gpw), "%s/gp-wrap", dir);
	fp = fopen(gpw, "w");
	assert_non_null(fp);
	fprintf(fp, "#!/bin/sh\ntee -a '%s/gp-script' | exec '%s' \"$@\"\n",
		dir, GNUPLOT_PATH);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(chmod(gpw, 0700), 0);
	setenv("GNUPLOT", gpw, 1);
	snprintf(out, sizeof(out), "--out=%s/dim", dir);
	assert_int_equal(run_cmd(&txt, 7, "plot", "--kind=heatmap", out,
				 files[0], files[1], files[2], files[3]),
			 REPORT_EXIT_OK);
	/* the colour scale reaches the largest cell (1.39): a scale that
	 * stopped at 1.2 drew every cell above it in one colour */
	gps = slurp(P("gp-script"));
	assert_non_null(gps);
	if (!strstr(gps, "set cbrange [0:1.4]") ||
	    !strstr(gps, "1.0 '#92c5de', 1.4 '#2166ac')"))
		fail_msg("the colour scale does not reach the largest cell "
			 "(1.39):\n%s",
			 gps);
	free(gps);
	if (!strstr(txt, "(2 cores, 23 GiB/OSD requested)") ||
	    !strstr(txt, "more cores: faster in 2, slower in 0") ||
	    !strstr(txt, "more memory: faster in 0, slower in 2") ||
	    !strstr(txt, "no memory effect shown: more is slower"))
		fail_msg("the heatmap's text does not say what each dimension "
			 "shows:\n%s",
			 txt);
	free(txt);
	unsetenv("GNUPLOT");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_gnuplot),
		cmocka_unit_test(test_plot_hostile),
		cmocka_unit_test(test_outputs_hostile),
		cmocka_unit_test(test_plot_nonfinite),
		cmocka_unit_test(test_plot_throttle_knee),
		cmocka_unit_test(test_plot_heatmap_replication),
		cmocka_unit_test(test_heatmap_requested_grid),
		cmocka_unit_test(test_heatmap_dimensions),
		cmocka_unit_test(test_plot_baseline),
		cmocka_unit_test(test_plot_cache_note),
	};

	return cmocka_run_group_tests_name("report_plot", tests, setup,
					   teardown);
}
