/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_health: the nightly health index and its verdict
 * (report/report_health.c): the index's lines and what is refused, the
 * rule (median and MAD of the baseline, the practical threshold) on fake
 * series of known noise, its false-alarm rate and sensitivity there, and
 * `health-record` + `health` end to end on a history directory: a slow OSD
 * named with its host, the gauge, the recovery, the failed night.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
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

#include "report.h"
#include "report_fx.h"
#include "report_health.h"

/* ---- the index's lines ------------------------------------------------ */

static void test_parse_line(void **state)
{
	struct hl_row r;
	const char *why = NULL;
	static const char *const bad[] = {
		"20261206T070000Z\tok\tosd\tosd.1\ts2\twrite_bw",
		"20261206T070000Z\tok\tosd\tosd.1\ts2\twrite_bw\t1\textra",
		"2026-12-06\tok\tosd\tosd.1\ts2\twrite_bw\t1",
		"20261206T070000Z\tmaybe\tosd\tosd.1\ts2\twrite_bw\t1",
		"20261206T070000Z\tok\tosd\tosd 1\ts2\twrite_bw\t1",
		"20261206T070000Z\tok\tosd\t$(id)\ts2\twrite_bw\t1",
		"20261206T070000Z\tok\tosd\tosd.1\t\twrite_bw\t1",
		"20261206T070000Z\tok\tosd\tosd.1\ts2\twrite_bw\t-1",
		"20261206T070000Z\tok\tosd\tosd.1\ts2\twrite_bw\tnan",
		"20261206T070000Z\tok\tosd\tosd.1\ts2\twrite_bw\tinf",
		"20261206T070000Z\tok\tosd\tosd.1\ts2\twrite_bw\t12x",
		"20261206T070000Z\tok\tverylonglayername\tosd.1\ts2\tw\t1",
		"20261206T070000Z\tfailed\tosd\t-\t-\t-\twhy",
	};

	(void)state;
	assert_int_equal(
		hl_parse_line(
			"20261206T070000Z\tok\tosd\tosd.1\ts2\twrite_bw\t1.5e8",
			&r, &why),
		0);
	assert_false(r.failed);
	assert_string_equal(r.key.comp, "osd.1");
	assert_string_equal(r.key.host, "s2");
	assert_true(r.value == 1.5e8);
	assert_int_equal(
		hl_parse_line(
			"20261206T070000Z\tfailed\t-\t-\t-\t-\tsequential run failed (exit 1)",
			&r, &why),
		0);
	assert_true(r.failed);
	assert_string_equal(r.note, "sequential run failed (exit 1)");
	free(r.note);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why = NULL;
		assert_int_equal(hl_parse_line(bad[i], &r, &why), -1);
		assert_non_null(why);
	}
}

/* ---- the rule on fake series ------------------------------------------ */

/* A fixed normal deviate stream (Box-Muller over a small LCG). */
static unsigned long long lcg = 88172645463325252ull;

static double unif(void)
{
	lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
	return ((lcg >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
	return sqrt(-2 * log(unif())) * cos(2 * M_PI * unif());
}

static void test_judge(void **state)
{
	const struct hl_rule rule = {.k = 3, .thr = 0.15, .min_nights = 3};
	double quiet[] = {100, 103, 98, 101, 99, 102, 97, 100, 101, 99};
	double noisy[] = {100, 140, 60, 130, 70, 120, 80, 110, 90, 100};
	double b[10];
	struct hl_verdict v;

	(void)state;
	/* 60% of the usual rate: beyond noise and threshold */
	memcpy(b, quiet, sizeof(b));
	hl_judge(60, b, 10, &rule, false, &v);
	assert_int_equal(v.state, HL_REGRESSION);
	assert_true(v.moved);
	assert_float_equal(v.median, 100, 1e-9);
	assert_float_equal(v.change, -0.4, 1e-9);
	/* within the noise of a quiet figure */
	memcpy(b, quiet, sizeof(b));
	hl_judge(97, b, 10, &rule, false, &v);
	assert_int_equal(v.state, HL_OK);
	assert_false(v.moved);
	/* beyond the noise but not the practical threshold: moved, no alarm */
	memcpy(b, quiet, sizeof(b));
	hl_judge(90, b, 10, &rule, false, &v);
	assert_int_equal(v.state, HL_OK);
	assert_true(v.moved);
	/* beyond the threshold but within a noisy figure's noise */
	memcpy(b, noisy, sizeof(b));
	hl_judge(65, b, 10, &rule, false, &v);
	assert_int_equal(v.state, HL_OK);
	/* latency: higher is worse */
	memcpy(b, quiet, sizeof(b));
	hl_judge(160, b, 10, &rule, true, &v);
	assert_int_equal(v.state, HL_REGRESSION);
	memcpy(b, quiet, sizeof(b));
	hl_judge(160, b, 10, &rule, false, &v);
	assert_int_equal(v.state, HL_IMPROVED);
	assert_false(v.moved);
	/* too few nights: no verdict */
	memcpy(b, quiet, sizeof(b));
	hl_judge(10, b, 2, &rule, false, &v);
	assert_int_equal(v.state, HL_NOHIST);
	assert_true(hl_lower_better("seq_write_lat_p99"));
	assert_false(hl_lower_better("rand_read_iops"));
}

/*
 * The false-alarm rate report/README.md states, on fake figures of known
 * noise (normal, coefficient of variation cv), 10 earlier nights, k = 3,
 * 20000 quiet nights per case; and the sensitivity: an OSD at 60% and 80%
 * of its rate.  The threshold must be about 3 cv or more for a quiet
 * figure: below that the MAD of 10 nights is often small by chance.
 */
static void test_false_alarms(void **state)
{
	static const struct {
		double cv, thr, max_fa, min60, min80;
	} c[] = {
		{0.05, 0.15, 0.003, 0.999, 0.70},
		{0.05, 0.25, 0.0005, 0.999, 0.05},
		{0.10, 0.35, 0.001, 0.60, 0},
		{0.20, 0.15, 0.04, 0, 0},
	};
	const int nights = 20000;

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		const struct hl_rule rule = {
			.k = 3, .thr = c[i].thr, .min_nights = 3};
		int fa = 0, hit60 = 0, hit80 = 0;

		for (int n = 0; n < nights; n++) {
			double b[10], save[10],
				t = 100 * (1 + c[i].cv * gauss());
			struct hl_verdict v;

			for (int j = 0; j < 10; j++)
				save[j] = 100 * (1 + c[i].cv * gauss());
			memcpy(b, save, sizeof(b));
			hl_judge(t, b, 10, &rule, false, &v);
			fa += v.state == HL_REGRESSION;
			memcpy(b, save, sizeof(b));
			hl_judge(t * 0.6, b, 10, &rule, false, &v);
			hit60 += v.state == HL_REGRESSION;
			memcpy(b, save, sizeof(b));
			hl_judge(t * 0.8, b, 10, &rule, false, &v);
			hit80 += v.state == HL_REGRESSION;
		}
		print_message(
			"cv %.2f threshold %.2f: false alarms %d of %d (%.3f%%), caught at 60%%: %.1f%%, at 80%%: %.1f%%\n",
			c[i].cv, c[i].thr, fa, nights, 100.0 * fa / nights,
			100.0 * hit60 / nights, 100.0 * hit80 / nights);
		assert_true(fa <= nights * c[i].max_fa);
		assert_true(hit60 >= nights * c[i].min60);
		assert_true(hit80 >= nights * c[i].min80);
	}
}

/* ---- the history directory and index ----------------------------------- */

static void write_text(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, mode), 0);
}

static void test_index_refused(void **state)
{
	struct hl_index ix;
	struct ios_err err = {0};
	char hist[128], idx[256], other[256];

	(void)state;
	snprintf(hist, sizeof(hist), "%s/hist", dir);
	snprintf(idx, sizeof(idx), "%s/index.tsv", hist);
	assert_int_equal(mkdir(hist, 0700), 0);
	/* missing: empty */
	assert_int_equal(hl_index_load(idx, &ix, &err), 0);
	assert_int_equal(ix.n, 0);
	write_text(idx,
		   HL_INDEX_HEADER
		   "20261206T070000Z\tok\tosd\tosd.0\ts1\twrite_bw\t100\n"
		   "20261206T070000Z\tok\tosd\tosd.1\ts2\twrite_bw\t1e2x\n",
		   0600);
	assert_int_equal(hl_index_load(idx, &ix, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "index.tsv:3: value"));
	write_text(idx,
		   HL_INDEX_HEADER
		   "20261206T070000Z\tok\tosd\tosd.0\ts1\twrite_bw\t100\n",
		   0600);
	assert_int_equal(hl_index_load(idx, &ix, &err), 0);
	assert_int_equal(ix.n, 1);
	hl_index_free(&ix);
	/* an index others can write */
	assert_int_equal(chmod(idx, 0622), 0);
	assert_int_equal(hl_index_load(idx, &ix, &err), -EPERM);
	assert_non_null(strstr(err.msg, "writable by its group or others"));
	assert_int_equal(chmod(idx, 0600), 0);
	/* a history directory others can write */
	assert_int_equal(chmod(hist, 0777), 0);
	assert_int_equal(hl_index_load(idx, &ix, &err), -EPERM);
	assert_non_null(strstr(err.msg, "history directory"));
	assert_int_equal(chmod(hist, 0700), 0);
	/* an index that is a symlink */
	snprintf(other, sizeof(other), "%s/elsewhere.tsv", dir);
	write_text(other, HL_INDEX_HEADER, 0600);
	assert_int_equal(unlink(idx), 0);
	assert_int_equal(symlink(other, idx), 0);
	assert_int_equal(hl_index_load(idx, &ix, &err), -ELOOP);
	assert_int_equal(unlink(idx), 0);
	/* another user's index and directory (root only: chown) */
	if (geteuid() == 0) {
		write_text(idx, HL_INDEX_HEADER, 0600);
		assert_int_equal(chown(idx, 65534, 65534), 0);
		assert_int_equal(hl_index_load(idx, &ix, &err), -EPERM);
		assert_non_null(strstr(err.msg, "belongs to uid 65534"));
		assert_int_equal(unlink(idx), 0);
		assert_int_equal(chown(hist, 65534, 65534), 0);
		assert_int_equal(hl_index_load(idx, &ix, &err), -EPERM);
		assert_non_null(strstr(err.msg, "history directory"));
		assert_int_equal(chown(hist, 0, 0), 0);
	}
}

/* ---- end to end: health-record, then health ---------------------------- */

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *s;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	s = calloc(1, (size_t)n + 1);
	if (fread(s, 1, (size_t)n, f) != (size_t)n)
		fail();
	fclose(f);
	return s;
}

/* One night: three OSDs (osd.1 on s2 at [s2] of its rate), a client on
 * c1 whose write falls with it. */
static int night(const char *idx, const char *stamp, double s2, char **out)
{
	char f0[96], f1[96], f2[96], f3[96], f4[96], n[40];
	double j = (stamp[14] - '0') * 0.01; /* a little night-to-night noise */

	snprintf(n, sizeof(n), "--night=%s", stamp);
	snprintf(f0, sizeof(f0), "--figure=osd,osd.0,s1,write_bw,%.0f",
		 200e6 * (1 + j));
	snprintf(f1, sizeof(f1), "--figure=osd,osd.1,s2,write_bw,%.0f",
		 210e6 * s2 * (1 - j));
	snprintf(f2, sizeof(f2), "--figure=osd,osd.2,s3,write_bw,%.0f",
		 190e6 * (1 + j));
	snprintf(f3, sizeof(f3), "--figure=client,c1,c1,seq_write_bw,%.0f",
		 80e6 * (s2 < 1 ? 0.8 : 1 + j));
	snprintf(f4, sizeof(f4),
		 "--figure=metadata,mds,c1,md_create_lat_p99,%.0f",
		 900e3 * (1 + j));
	assert_int_equal(
		run_cmd(out, 8, "health-record", idx, n, f0, f1, f2, f3, f4),
		0);
	free(*out);
	return 0;
}

static void test_health_nights(void **state)
{
	char hist[128], idx[300], prom[300], *out, *p;
	char iarg[320], parg[320];

	(void)state;
	snprintf(hist, sizeof(hist), "%s/history", dir);
	assert_int_equal(mkdir(hist, 0700), 0);
	snprintf(idx, sizeof(idx), "%s/index.tsv", hist);
	snprintf(prom, sizeof(prom), "%s/iostrata.prom", dir);
	snprintf(iarg, sizeof(iarg), "--index=%s", idx);
	snprintf(parg, sizeof(parg), "--prometheus=%s", prom);
	night(iarg, "20261201T070000Z", 1, &out);
	/* one night: no history, no alarm */
	assert_int_equal(run_cmd(&out, 3, "health", iarg, parg), 0);
	assert_non_null(strstr(out, "no history"));
	free(out);
	night(iarg, "20261202T070001Z", 1, &out);
	night(iarg, "20261203T070002Z", 1, &out);
	night(iarg, "20261204T070001Z", 1, &out);
	assert_int_equal(run_cmd(&out, 3, "health", iarg, parg), 0);
	assert_non_null(strstr(out, "no regression"));
	assert_null(strstr(out, "REGRESSION"));
	free(out);
	/* osd.1 at 60% */
	night(iarg, "20261205T070000Z", 0.6, &out);
	assert_int_equal(run_cmd(&out, 3, "health", iarg, parg), 1);
	p = strstr(out, "REGRESSION: osd.1 on host s2: write_bw");
	assert_non_null(p);
	assert_non_null(strstr(p, "moved with it: client c1 seq_write_bw -2"));
	assert_null(strstr(out, "REGRESSION: osd.0"));
	free(out);
	out = slurp(prom);
	assert_non_null(strstr(
		out,
		"iostrata_regression{layer=\"osd\",osd=\"osd.1\",host=\"s2\",client=\"\",metric=\"write_bw\"} 1\n"));
	assert_non_null(strstr(
		out,
		"iostrata_regression{layer=\"osd\",osd=\"osd.0\",host=\"s1\",client=\"\",metric=\"write_bw\"} 0\n"));
	assert_non_null(strstr(
		out,
		"iostrata_health_value{layer=\"metadata\",osd=\"\",host=\"c1\",client=\"\",metric=\"md_create_lat_p99\"}"));
	assert_non_null(strstr(out, "iostrata_health_night_failed 0\n"));
	free(out);
	/* a layer's own threshold: 50% for OSDs and clients lets 60% pass */
	assert_int_equal(run_cmd(&out, 4, "health", iarg, "--threshold=osd=0.5",
				 "--threshold=client=50%"),
			 0);
	assert_non_null(strstr(out, "no regression"));
	free(out);
	assert_int_equal(
		run_cmd(&out, 3, "health", iarg, "--threshold=osd=0.5"), 1);
	assert_non_null(strstr(out, "REGRESSION: client c1"));
	assert_null(strstr(out, "REGRESSION: osd.1"));
	free(out);
	assert_int_equal(run_cmd(&out, 3, "health", iarg, "--threshold==0.5"),
			 2);
	free(out);
	/* the page: osd.1's plot marked, its regressed night a red circle;
	 * osd.0's not */
	{
		char harg[320], hpath[300];

		snprintf(hpath, sizeof(hpath), "%s/health.html", hist);
		snprintf(harg, sizeof(harg), "--html=%s", hpath);
		assert_int_equal(run_cmd(&out, 3, "health", iarg, harg), 1);
		free(out);
		out = slurp(hpath);
		p = strstr(
			out,
			"<div class=\"fig regressed\" id=\"osd-osd.1-s2-write_bw\">");
		assert_non_null(p);
		assert_non_null(strstr(p, "<circle class=\"regression\""));
		assert_non_null(strstr(
			out,
			"<div class=\"fig\" id=\"osd-osd.0-s1-write_bw\">"));
		free(out);
	}
	/* restored: cleared, and said */
	night(iarg, "20261206T070000Z", 1, &out);
	assert_int_equal(run_cmd(&out, 3, "health", iarg, parg), 0);
	assert_non_null(
		strstr(out, "RECOVERED: osd.1 on host s2: write_bw back to"));
	free(out);
	out = slurp(prom);
	assert_non_null(strstr(
		out,
		"iostrata_regression{layer=\"osd\",osd=\"osd.1\",host=\"s2\",client=\"\",metric=\"write_bw\"} 0\n"));
	free(out);
	/* a failed night: recorded, the verdict fails and says why */
	assert_int_equal(run_cmd(&out, 4, "health-record", iarg,
				 "--night=20261207T070000Z",
				 "--failed=sequential\trun\nfailed"),
			 0);
	free(out);
	assert_int_equal(run_cmd(&out, 3, "health", iarg, parg), 1);
	assert_non_null(strstr(
		out, "FAILED: night 20261207T070000Z: sequential run failed"));
	free(out);
	out = slurp(prom);
	assert_non_null(strstr(out, "iostrata_health_night_failed 1\n"));
	free(out);
	/* pruning keeps the last N nights */
	assert_int_equal(
		run_cmd(&out, 4, "health", iarg, "--keep=4", "--min-nights=3"),
		1);
	assert_non_null(
		strstr(out, "pruned: 3 night(s) before 20261204T070001Z"));
	free(out);
	out = slurp(idx);
	assert_null(strstr(out, "20261203T"));
	assert_non_null(strstr(out, "20261204T070001Z\tok\tosd\tosd.0"));
	assert_true(!strncmp(out, HL_INDEX_HEADER, strlen(HL_INDEX_HEADER)));
	free(out);
	/* bad input */
	assert_int_equal(
		run_cmd(&out, 3, "health-record", iarg, "--night=yesterday"),
		2);
	free(out);
	assert_int_equal(run_cmd(&out, 4, "health-record", iarg,
				 "--night=20261208T070000Z",
				 "--figure=osd,osd.1,s2;rm,write_bw,1"),
			 2);
	free(out);
	assert_int_equal(run_cmd(&out, 3, "health", iarg, "--keep=2"), 2);
	free(out);
}

/* A fresh history directory [name] under the test's directory: the
 * --index= and --prometheus= (FILE [name].prom) arguments, the textfile's
 * path in [prom] (each of 320 bytes). */
static void new_history(const char *name, char *iarg, char *parg, char *prom)
{
	char hist[160];

	snprintf(hist, sizeof(hist), "%s/%s", dir, name);
	assert_int_equal(mkdir(hist, 0700), 0);
	snprintf(iarg, 320, "--index=%s/index.tsv", hist);
	snprintf(prom, 320, "%s/%s.prom", dir, name);
	snprintf(parg, 320, "--prometheus=%s", prom);
}

/* A storage host's network figure is named as that host's network, and
 * its gauge carries the host with no OSD and no client. */
static void test_network_named(void **state)
{
	char prom[320], iarg[320], parg[320], *out;
	static const char *const nights[] = {
		"--night=20261201T070000Z", "--night=20261202T070000Z",
		"--night=20261203T070000Z", "--night=20261204T070000Z"};
	static const char *const figs[] = {
		"--figure=network,s2,s2,read_bw,900000000",
		"--figure=network,s2,s2,read_bw,910000000",
		"--figure=network,s2,s2,read_bw,880000000",
		"--figure=network,s2,s2,read_bw,25000000"};

	(void)state;
	new_history("nethist", iarg, parg, prom);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(run_cmd(&out, 5, "health-record", iarg,
					 nights[i], figs[i],
					 "--figure=osd,osd.1,s2,write_bw,2e8"),
				 0);
		free(out);
	}
	assert_int_equal(run_cmd(&out, 3, "health", iarg, parg), 1);
	assert_non_null(strstr(
		out, "REGRESSION: the network of host s2: read_bw 23.8 MiB/s"));
	/* every figure of the line with its unit, the noise's too (it was
	 * printed without: printf's arguments read the unit before the
	 * call that sets it) */
	assert_non_null(strstr(out, " MiB/s (median of 3 nights, noise "));
	assert_non_null(strstr(out, " MiB/s); moved with it"));
	assert_null(strstr(out, "REGRESSION: osd.1"));
	free(out);
	out = slurp(prom);
	assert_non_null(strstr(
		out,
		"iostrata_regression{layer=\"network\",osd=\"\",host=\"s2\",client=\"\",metric=\"read_bw\"} 1\n"));
	free(out);
}

/* Nights [nn] of three OSDs into the history of [iarg]: night n's
 * write_bw of OSD o bw[o][n] B/s, its write_bw_vs_peers ratio[o][n]. */
static void osd_nights(const char *iarg, int nn, const double bw[3][5],
		       const double ratio[3][5])
{
	static const char *const osd[3][2] = {
		{"osd.0", "s1"}, {"osd.1", "s2"}, {"osd.2", "s3"}};
	char *out;

	for (int n = 0; n < nn; n++) {
		char night[40], f[6][80];

		snprintf(night, sizeof(night), "--night=2026120%dT070000Z",
			 n + 1);
		for (int o = 0; o < 3; o++) {
			snprintf(f[2 * o], sizeof(f[0]),
				 "--figure=osd,%s,%s,write_bw,%.0f", osd[o][0],
				 osd[o][1], bw[o][n]);
			snprintf(f[2 * o + 1], sizeof(f[0]),
				 "--figure=osd,%s,%s,write_bw_vs_peers,%.4f",
				 osd[o][0], osd[o][1], ratio[o][n]);
		}
		assert_int_equal(run_cmd(&out, 9, "health-record", iarg, night,
					 f[0], f[1], f[2], f[3], f[4], f[5]),
				 0);
		free(out);
	}
}

/* Every OSD slower on a loaded night, one of them below its peers too (t58
 * at 15:43: osd.0 at 51%, osd.1 throttled at 38%, osd.2 at 62% of their
 * usual rate): only osd.1 is named; osd.0 and osd.2, whose rate over their
 * peers' held, are said together as the cluster's fall, their gauge
 * iostrata_regression 0 and iostrata_regression_with_peers 1. */
static void test_osds_together(void **state)
{
	char prom[320], iarg[320], parg[320], *out, *p;
	static const double bw[3][5] = {{1.8e9, 1.82e9, 1.84e9, 1.85e9, 0.9e9},
					{1.7e9, 1.72e9, 1.73e9, 1.75e9, 0.62e9},
					{1.8e9, 1.82e9, 1.84e9, 1.85e9, 1.1e9}},
			    ratio[3][5] = {{1.0, 1.005, 1.01, 1.015, 1.1},
					   {0.98, 0.985, 0.99, 0.995, 0.70},
					   {1.04, 1.045, 1.05, 1.055, 1.22}};

	(void)state;
	new_history("peerhist", iarg, parg, prom);
	osd_nights(iarg, 5, bw, ratio);
	assert_int_equal(run_cmd(&out, 3, "health", iarg, parg), 1);
	assert_non_null(strstr(out, "REGRESSION: osd.1 on host s2: write_bw "));
	assert_non_null(strstr(
		out, "REGRESSION: osd.1 on host s2: write_bw_vs_peers "));
	assert_null(strstr(out, "REGRESSION: osd.0"));
	assert_null(strstr(out, "REGRESSION: osd.2"));
	p = strstr(out, "REGRESSION: OSDs together: write_bw of osd.0 on host "
			"s1 -5");
	assert_non_null(p);
	assert_non_null(strstr(p, ", osd.2 on host s3 -40%"));
	assert_null(
		strstr(out, "REGRESSION: OSDs together: write_bw_vs_peers"));
	free(out);
	out = slurp(prom);
	assert_non_null(strstr(
		out,
		"iostrata_regression{layer=\"osd\",osd=\"osd.0\",host=\"s1\",client=\"\",metric=\"write_bw\"} 0\n"));
	assert_non_null(strstr(
		out,
		"iostrata_regression_with_peers{layer=\"osd\",osd=\"osd.0\",host=\"s1\",client=\"\",metric=\"write_bw\"} 1\n"));
	assert_non_null(strstr(
		out,
		"iostrata_regression{layer=\"osd\",osd=\"osd.1\",host=\"s2\",client=\"\",metric=\"write_bw\"} 1\n"));
	assert_non_null(strstr(
		out,
		"iostrata_regression_with_peers{layer=\"osd\",osd=\"osd.1\",host=\"s2\",client=\"\",metric=\"write_bw\"} 0\n"));
	free(out);
}

/* t58 at 16:00: osd.1 throttled, at 58% of its peers but its rate within
 * its (wide) noise; osd.2 at 71% of its rate, a regression, its share of
 * its peers' held; osd.0 at 71% within its noise.  osd.1 is named, osd.2
 * said with osd.0 as the OSDs' fall. */
static void test_osds_together_noise(void **state)
{
	char prom[320], iarg[320], parg[320], *out, *p;
	static const double bw[3][5] = {{1.15e9, 0.9e9, 1.4e9, 0.82e9},
					{1.14e9, 0.7e9, 1.5e9, 0.40e9},
					{1.34e9, 1.3e9, 1.38e9, 0.95e9}},
			    ratio[3][5] = {{1.0, 1.0, 1.0, 1.0},
					   {1.0, 0.98, 1.01, 0.58},
					   {1.0, 1.02, 0.99, 1.11}};

	(void)state;
	new_history("peernoise", iarg, parg, prom);
	osd_nights(iarg, 4, bw, ratio);
	assert_int_equal(run_cmd(&out, 3, "health", iarg, parg), 1);
	assert_non_null(strstr(
		out, "REGRESSION: osd.1 on host s2: write_bw_vs_peers "));
	assert_null(strstr(out, "REGRESSION: osd.2"));
	assert_null(strstr(out, "REGRESSION: osd.0"));
	p = strstr(out,
		   "REGRESSION: OSDs together: write_bw of osd.2 on host "
		   "s3 -29% (and within its noise: osd.0 on host s1 -29%)");
	assert_non_null(p);
	free(out);
}

/* The page of the loaded night of test_loaded_night, from [iarg]'s
 * history: the host's figure LOADED, the absolute ones UNSURE (amber),
 * osd.1's ratio a REGRESSION (red). */
static void html_loaded(const char *iarg)
{
	char harg[340], hpath[320], *out;

	snprintf(hpath, sizeof(hpath), "%s/loadhist/health.html", dir);
	snprintf(harg, sizeof(harg), "--html=%s", hpath);
	assert_int_equal(run_cmd(&out, 3, "health", iarg, harg), 1);
	free(out);
	out = slurp(hpath);
	assert_non_null(strstr(
		out,
		"<div class=\"fig unsure\" id=\"host-c1-c1-cpu_pressure\"><p class=\"t\">host c1: cpu_pressure (% of the time) LOADED</p>"));
	assert_non_null(strstr(
		out,
		"<div class=\"fig unsure\" id=\"client-c1-c1-seq_read_bw\"><p class=\"t\">client c1: seq_read_bw (MiB/s) UNSURE (loaded night)</p>"));
	assert_non_null(strstr(
		out,
		"<div class=\"fig regressed\" id=\"osd-osd.1-s2-write_bw_vs_peers\">"));
	assert_non_null(strstr(out, "<circle class=\"unsure\""));
	assert_non_null(strstr(
		out, "1 figure(s) with a regression in these nights, 3 more"));
	free(out);
}

/* A loaded night (t58's long form at 16:11: another build on the machine,
 * every OSD at 53-71% and c2's read at 22% of their usual rates, all
 * "regressions"): the host's CPU pressure during the probe beyond its
 * noise makes the night LOADED; its absolute figures are UNSURE, not
 * counted, and stay out of later baselines; a ratio to peers is still
 * judged (osd.1 at 60% of its peers is named).  The next quiet night
 * recovers osd.1's ratio and says nothing of the unsure figures; a slow
 * client on a quiet night is a regression again. */
static void test_loaded_night(void **state)
{
	char prom[320], iarg[320], parg[320], *out;
	static const double press[7] = {19, 21, 20, 22, 70, 20, 21},
			    rd[7] = {600e6, 610e6, 590e6, 605e6,
				     150e6, 600e6, 150e6},
			    osd[7] = {1.7e9, 1.72e9, 1.69e9, 1.7e9,
				      0.9e9, 1.7e9,  1.7e9},
			    ratio[7] = {1.0, 1.01, 0.99, 1.0, 0.6, 1.0, 1.0};

	(void)state;
	new_history("loadhist", iarg, parg, prom);
	for (int n = 0; n < 7; n++) {
		char night[40], f[4][80];

		snprintf(night, sizeof(night), "--night=2026120%dT070000Z",
			 n + 1);
		snprintf(f[0], sizeof(f[0]),
			 "--figure=host,c1,c1,cpu_pressure,%.1f", press[n]);
		snprintf(f[1], sizeof(f[1]),
			 "--figure=client,c1,c1,seq_read_bw,%.0f", rd[n]);
		snprintf(f[2], sizeof(f[2]),
			 "--figure=osd,osd.1,s2,write_bw,%.0f", osd[n]);
		snprintf(f[3], sizeof(f[3]),
			 "--figure=osd,osd.1,s2,write_bw_vs_peers,%.2f",
			 ratio[n]);
		assert_int_equal(run_cmd(&out, 7, "health-record", iarg, night,
					 f[0], f[1], f[2], f[3]),
				 0);
		free(out);
		if (n == 4) {
			assert_int_equal(run_cmd(&out, 3, "health", iarg, parg),
					 1);
			assert_non_null(strstr(
				out,
				"LOADED: host c1: cpu_pressure 70.0 % of the time, "));
			assert_non_null(
				strstr(out, "UNSURE: client c1: seq_read_bw "));
			assert_non_null(strstr(
				out, "UNSURE: osd.1 on host s2: write_bw "));
			assert_non_null(strstr(
				out,
				"REGRESSION: osd.1 on host s2: write_bw_vs_peers "));
			assert_null(strstr(out, "REGRESSION: client c1"));
			assert_null(strstr(out, "REGRESSION: host c1"));
			assert_null(strstr(
				out,
				"REGRESSION: osd.1 on host s2: write_bw "));
			free(out);
			out = slurp(prom);
			assert_non_null(strstr(
				out, "iostrata_health_night_loaded 1\n"));
			assert_non_null(strstr(
				out,
				"iostrata_regression{layer=\"client\",osd=\"\",host=\"c1\",client=\"c1\",metric=\"seq_read_bw\"} 0\n"));
			free(out);
			/* the page says what the text says: the unjudged
			 * figures amber, the ratio's regression red (it showed
			 * all four red) */
			html_loaded(iarg);
		} else if (n == 5) {
			assert_int_equal(run_cmd(&out, 3, "health", iarg, parg),
					 0);
			assert_non_null(strstr(
				out,
				"RECOVERED: osd.1 on host s2: write_bw_vs_peers"));
			assert_null(strstr(out, "RECOVERED: client c1"));
			assert_null(strstr(
				out, "RECOVERED: osd.1 on host s2: write_bw "));
			/* the loaded night is not in the baseline */
			assert_non_null(strstr(
				out,
				"seq_read_bw                   572.2        574.6"));
			free(out);
			out = slurp(prom);
			assert_non_null(strstr(
				out, "iostrata_health_night_loaded 0\n"));
			free(out);
		} else if (n == 6) {
			assert_int_equal(run_cmd(&out, 3, "health", iarg, parg),
					 1);
			assert_non_null(strstr(
				out, "REGRESSION: client c1: seq_read_bw "));
			assert_null(strstr(out, "LOADED"));
			free(out);
		}
	}
}

/* A regression that lasts: a second slow night is judged against the
 * nights before the first, not against a baseline the first slow night
 * has joined (t58 at 12:42: c1's seq_read_bw at 3% of its usual rate two
 * nights running, the second "ok" and "RECOVERED": the slow night had
 * doubled the MAD).  Quiet 800/500/900, then 25 twice: with 25 in the
 * baseline the median is 650 and 3 x 1.4826 x MAD 890 > 625. */
static void test_lasting_regression(void **state)
{
	char hist[128], idx[300], iarg[320], nights[5][40], figs[5][64], *out;
	static const double v[5] = {800e6, 500e6, 900e6, 25e6, 25e6};

	(void)state;
	snprintf(hist, sizeof(hist), "%s/lasthist", dir);
	assert_int_equal(mkdir(hist, 0700), 0);
	snprintf(idx, sizeof(idx), "%s/index.tsv", hist);
	snprintf(iarg, sizeof(iarg), "--index=%s", idx);
	for (int i = 0; i < 5; i++) {
		snprintf(nights[i], sizeof(nights[i]),
			 "--night=2026120%dT070000Z", i + 1);
		snprintf(figs[i], sizeof(figs[i]),
			 "--figure=client,c1,c1,seq_read_bw,%.0f", v[i]);
		assert_int_equal(run_cmd(&out, 4, "health-record", iarg,
					 nights[i], figs[i]),
				 0);
		free(out);
	}
	assert_int_equal(run_cmd(&out, 3, "health", iarg, "--threshold=0.5"),
			 1);
	assert_non_null(strstr(out, "REGRESSION: client c1: seq_read_bw"));
	assert_non_null(strstr(out, "(median of 3 nights"));
	assert_null(strstr(out, "RECOVERED"));
	free(out);
}

/* The textfile and the page only in a directory nobody else can write:
 * in a shared one (/tmp-like, 1777) anybody could replace what
 * node_exporter and the alerts read.  Refused with exit 2 naming the
 * option, nothing written. */
/* `iostrata-report health` with [a] and [b], its stderr in *[err]. */
static int health_err(char **err, const char *a, const char *b)
{
	char path[300], *out;
	int save, fd, rc;

	snprintf(path, sizeof(path), "%s/stderr.txt", dir);
	fflush(stderr);
	save = dup(2);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(save >= 0 && fd >= 0);
	dup2(fd, 2);
	close(fd);
	rc = run_cmd(&out, 3, "health", a, b);
	fflush(stderr);
	dup2(save, 2);
	close(save);
	free(out);
	*err = slurp(path);
	return rc;
}

static void test_outdir_refused(void **state)
{
	char hist[128], idx[300], shared[128], iarg[320], parg[320], harg[320],
		prom[300], *out;

	(void)state;
	snprintf(hist, sizeof(hist), "%s/ohist", dir);
	snprintf(shared, sizeof(shared), "%s/shared", dir);
	assert_int_equal(mkdir(hist, 0700), 0);
	assert_int_equal(mkdir(shared, 0700), 0);
	assert_int_equal(chmod(shared, 01777), 0);
	snprintf(idx, sizeof(idx), "%s/index.tsv", hist);
	snprintf(iarg, sizeof(iarg), "--index=%s", idx);
	snprintf(prom, sizeof(prom), "%s/iostrata.prom", shared);
	snprintf(parg, sizeof(parg), "--prometheus=%s", prom);
	assert_int_equal(run_cmd(&out, 4, "health-record", iarg,
				 "--night=20261201T070000Z",
				 "--figure=osd,osd.0,s1,write_bw,2e8"),
			 0);
	free(out);
	assert_int_equal(health_err(&out, iarg, parg), 2);
	assert_non_null(strstr(out, "--prometheus="));
	assert_non_null(strstr(out, "neither group nor others can write"));
	free(out);
	assert_int_equal(access(prom, F_OK), -1);
	snprintf(harg, sizeof(harg), "--html=%s/h.html", shared);
	assert_int_equal(health_err(&out, iarg, harg), 2);
	assert_non_null(strstr(out, "--html="));
	free(out);
	/* a directory of another user (root only: chown) */
	if (geteuid() == 0) {
		assert_int_equal(chmod(shared, 0755), 0);
		assert_int_equal(chown(shared, 65534, 65534), 0);
		assert_int_equal(health_err(&out, iarg, parg), 2);
		assert_non_null(strstr(out, "uid 65534"));
		free(out);
		assert_int_equal(chown(shared, 0, 0), 0);
	}
	assert_int_equal(chmod(shared, 0755), 0);
	assert_int_equal(run_cmd(&out, 3, "health", iarg, parg), 0);
	free(out);
	assert_int_equal(access(prom, F_OK), 0);
}

/* Per-node client figures from results files: one row per node and
 * metric, the node's own rate. */
static void test_record_h5(void **state)
{
	struct ios_synth s;
	char hist[128], idx[300], iarg[320], *out;

	(void)state;
	ios_synth_defaults(&s);
	s.nnodes = 2;
	s.ranks_per_node = 2;
	s.phases = "write,read";
	s.nreps = 2;
	s.rank_bw = 50e6;
	synth_file("seq.h5", &s);
	s.phases = "randwrite,randread";
	s.bs = 4096;
	synth_file("rand.h5", &s);
	snprintf(hist, sizeof(hist), "%s/h5hist", dir);
	assert_int_equal(mkdir(hist, 0700), 0);
	snprintf(idx, sizeof(idx), "%s/index.tsv", hist);
	snprintf(iarg, sizeof(iarg), "--index=%s", idx);
	assert_int_equal(run_cmd(&out, 5, "health-record", iarg,
				 "--night=20261206T070000Z", P("seq.h5"),
				 P("rand.h5")),
			 0);
	free(out);
	out = slurp(idx);
	for (int nd = 1; nd <= 2; nd++) {
		static const char *const m[] = {
			"seq_write_bw",      "seq_write_lat_p50",
			"seq_write_lat_p99", "seq_read_bw",
			"rand_write_iops",   "rand_read_lat_p99",
		};

		for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
			char want[96];

			snprintf(want, sizeof(want),
				 "\tok\tclient\tn%d\tn%d\t%s\t", nd, nd, m[i]);
			if (!strstr(out, want))
				fail_msg("no row \"%s\" in\n%s", want, out);
		}
	}
	/* a node's rate is its two ranks', not the run's four */
	{
		const char *p = strstr(out, "\tn1\tn1\tseq_write_bw\t");
		double v;

		assert_non_null(p);
		v = strtod(p + strlen("\tn1\tn1\tseq_write_bw\t"), NULL);
		assert_true(v > 2 * 50e6 * 0.8 && v < 2 * 50e6 * 1.2);
	}
	assert_null(strstr(out, "seq_write_iops"));
	assert_null(strstr(out, "rand_write_bw"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_line),
		cmocka_unit_test(test_judge),
		cmocka_unit_test(test_false_alarms),
		cmocka_unit_test_setup_teardown(test_index_refused, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_health_nights, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_record_h5, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_lasting_regression, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_outdir_refused, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_osds_together, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_osds_together_noise, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_loaded_night, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_network_named, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
