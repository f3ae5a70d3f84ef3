/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_report_threads: the layout of `iostrata-report threads` (seeds/001's
 * two tables) from synthetic runs, every printed number recomputed here
 * from the runs' repetitions.
 */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "figures.h"
#include "lathist.h"
#include "report.h"
#include "report_threads.h"
#include "synth.h"

static const char *const phases = "write,read,randread,randwrite,randrw";

static struct ios_run *make_run(int ranks, const char *ph, unsigned seed)
{
	struct ios_synth s;
	struct ios_run *run;

	ios_synth_defaults(&s);
	s.nnodes = 1;
	s.ranks_per_node = ranks;
	s.phases = ph;
	s.nreps = 2;
	s.bs = 16384;
	s.rank_bw = 20e6 + seed * 1e6;
	s.runtime_s = 1;
	s.seed = seed;
	run = ios_synth_run(&s);
	assert_non_null(run);
	report_recompute(run);
	return run;
}

static const struct ios_phase_result *phase(const struct ios_run *run,
					    const char *name)
{
	for (int k = 0; k < run->nphases; k++)
		if (!strcmp(run->phases[k].name, name))
			return &run->phases[k];
	fail_msg("no phase %s", name);
	return NULL;
}

/* Mean over the valid repetitions, computed here from rep->fig. */
static double mean_of(const struct ios_phase_result *ph, int what)
{
	double sum = 0;
	int n = 0;

	for (int r = 0; r < ph->nreps; r++) {
		const struct ios_rep_result *rep = &ph->reps[r];

		if (!rep->valid)
			continue;
		sum += what == 0   ? rep->fig.stonewall_bw
		       : what == 1 ? rep->fig.stonewall_iops
		       : what == 2 ? rep->fig.lat_mean_ns
				   : rep->fig.lat_p99_ns;
		n++;
	}
	return n ? sum / n : NAN;
}

/* The 95th percentile of every rank's histogram rows merged, here. */
static double p95_of(const struct ios_phase_result *ph)
{
	double sum = 0;
	int n = 0;

	for (int r = 0; r < ph->nreps; r++) {
		const struct ios_rep_result *rep = &ph->reps[r];
		uint64_t count[IOS_LAT_BUCKETS] = {0}, tot = 0, lo = UINT64_MAX,
			 hi = 0;

		if (!rep->valid)
			continue;
		for (int i = 0; i < rep->nranks; i++) {
			for (unsigned b = 0; b < IOS_LAT_BUCKETS; b++) {
				uint64_t c =
					rep->lat_hist[(size_t)i *
							      IOS_LAT_BUCKETS +
						      b];

				count[b] += c;
				tot += c;
			}
			if (rep->ranks[i].lat.n &&
			    rep->ranks[i].lat.min_ns < lo)
				lo = rep->ranks[i].lat.min_ns;
			if (rep->ranks[i].lat.max_ns > hi)
				hi = rep->ranks[i].lat.max_ns;
		}
		sum += ios_lathist_quantile(count, tot, 0.95, lo, hi);
		n++;
	}
	return n ? sum / n : NAN;
}

static char *print(const struct report_thr_in *in, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	report_threads_print(f, in, n);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* The line that starts with [prefix], after [from]; fails when none. */
static const char *line_at(const char *text, const char *from,
			   const char *prefix)
{
	const char *p = from ? strstr(text, from) : text;

	assert_non_null(p);
	for (;;) {
		if (!strncmp(p, prefix, strlen(prefix)))
			return p;
		p = strchr(p, '\n');
		if (!p)
			fail_msg("no line \"%s\" after \"%s\" in:\n%s", prefix,
				 from ? from : "", text);
		p++;
	}
}

static void expect_line(const char *text, const char *from, const char *want)
{
	const char *l = line_at(text, from, want);
	const char *e = strchr(l, '\n');

	if ((size_t)(e ? e - l : (ptrdiff_t)strlen(l)) != strlen(want))
		fail_msg("line \"%.*s\", want \"%s\"", (int)(e - l), l, want);
}

/* Table 1's row of [mode] x [thr]: raid0's cell from [a], raid10's from
 * [b] ("-" for NULL), each the mean MiB/s recomputed here. */
static void expect_summary(const char *out, const char *mode, int thr,
			   const struct ios_phase_result *a,
			   const struct ios_phase_result *b)
{
	char want[256], vb[32];

	if (b)
		snprintf(vb, sizeof(vb), "%.5g", mean_of(b, 0) / 1048576);
	else
		snprintf(vb, sizeof(vb), "-");
	snprintf(want, sizeof(want), "| %s | %d| %.5g| %s|", mode, thr,
		 mean_of(a, 0) / 1048576, vb);
	expect_line(out, NULL, want);
}

static void test_layout(void **state)
{
	struct ios_run *a1 = make_run(1, phases, 1),
		       *a2 = make_run(2, phases, 2),
		       *a4 = make_run(4, phases, 3);
	struct ios_run *b1 = make_run(1, "randread,write", 4),
		       *b4 = make_run(4, "randread,write", 5);
	struct report_thr_in in[] = {
		{"raid0", a4, 0}, {"raid10", b1, 0}, {"raid0", a1, 0},
		{"raid0", a2, 0}, {"raid10", b4, 0},
	};
	struct ios_phase_result *ph;
	char want[256], v[6][32];
	char *out;
	const char *p;
	int rows;

	(void)state;
	/* a repetition left out: the cell is the other one's value, 1/2 */
	ph = (struct ios_phase_result *)phase(a4, "randread");
	ph->reps[1].valid = false;
	out = print(in, sizeof(in) / sizeof(*in));

	/* table 1: one block per mode in seeds/001's order, threads
	 * ascending whatever the input order, one column per configuration
	 * in first-seen order, "-" where a configuration has no such run */
	p = strstr(out, "^type^threads^raid0^raid10^\n| rndrd | 1|");
	assert_non_null(p);
	assert_true(strstr(out, "| rndrd |") < strstr(out, "| rndrw |"));
	assert_true(strstr(out, "| rndrw |") < strstr(out, "| rndwr |"));
	assert_true(strstr(out, "| rndwr |") < strstr(out, "| seqrd |"));
	assert_true(strstr(out, "| seqrd |") < strstr(out, "| seqwr |"));
	expect_summary(out, "rndrd", 2, phase(a2, "randread"), NULL);
	expect_summary(out, "rndrd", 4, phase(a4, "randread"),
		       phase(b4, "randread"));
	/* the left-out repetition really is out: rep 0 alone */
	snprintf(v[0], sizeof(v[0]), "| rndrd | 4| %.5g|",
		 phase(a4, "randread")->reps[0].fig.stonewall_bw / 1048576);
	line_at(out, NULL, v[0]);
	expect_summary(out, "rndrw", 1, phase(a1, "randrw"), NULL);
	expect_summary(out, "seqwr", 4, phase(a4, "write"), phase(b4, "write"));

	/* table 2: per configuration, one row per mode x threads it ran */
	expect_line(
		out, "==== raid0 ====",
		"^ size^type^ thr^bytes/sec^req/sec^lat mean^lat p95^lat p99^valid^");
	ph = (struct ios_phase_result *)phase(a2, "randwrite");
	snprintf(v[0], sizeof(v[0]), "%.5gMb", mean_of(ph, 0) / 1048576);
	snprintf(v[1], sizeof(v[1]), "%.2f", mean_of(ph, 1));
	snprintf(v[2], sizeof(v[2]), "%.2f", mean_of(ph, 2) / 1e6);
	snprintf(v[3], sizeof(v[3]), "%.2f", p95_of(ph) / 1e6);
	snprintf(v[4], sizeof(v[4]), "%.2f", mean_of(ph, 3) / 1e6);
	snprintf(want, sizeof(want),
		 "| %s | rndwr | 2| %s| %s| %s| %s| %s| 2/2|", "?", v[0], v[1],
		 v[2], v[3], v[4]);
	expect_line(out, "==== raid0 ====", want);
	/* bytes/s = req/s x 16 KiB, as seeds/001's rows */
	assert_true(fabs(mean_of(ph, 0) - mean_of(ph, 1) * 16384) <
		    1e-6 * mean_of(ph, 0) + 16384);
	ph = (struct ios_phase_result *)phase(a4, "randread");
	snprintf(v[1], sizeof(v[1]), "%.2f", mean_of(ph, 1));
	snprintf(want, sizeof(want), "| ? | rndrd | 4| ");
	p = line_at(out, "==== raid0 ====", want);
	assert_non_null(strstr(p, v[1]));
	assert_true(strstr(p, "| 1/2|\n") == strchr(p, '\n') - 6);
	/* p95 lies between the p90 and p99 figures */
	assert_true(p95_of(ph) >= ph->reps[0].fig.lat_p90_ns);
	assert_true(p95_of(ph) <= ph->reps[0].fig.lat_p99_ns);

	/* raid10 ran two modes at two thread counts: four rows, none for
	 * what it did not run */
	p = strstr(out, "==== raid10 ====");
	assert_non_null(p);
	rows = 0;
	for (const char *q = p; (q = strstr(q, "\n| ? | ")); q++)
		rows++;
	assert_int_equal(rows, 4);
	assert_null(strstr(p, "| rndrw |"));
	assert_null(strstr(p, "| 2|"));
	/* the raid0 block has 5 modes x 3 thread counts */
	rows = 0;
	for (const char *q = strstr(out, "==== raid0 ====");
	     q < p && (q = strstr(q, "\n| ? | ")); q++)
		rows += q < p;
	assert_int_equal(rows, 15);

	free(out);
	ios_synth_free(a1);
	ios_synth_free(a2);
	ios_synth_free(a4);
	ios_synth_free(b1);
	ios_synth_free(b4);
}

/* No run holds a thread sweep phase: no rows, no crash. */
static void test_empty(void **state)
{
	struct ios_run *r = make_run(2, "write", 7);
	struct report_thr_in in[] = {{"x", r, 0}};
	char *out;

	(void)state;
	out = print(in, 0);
	assert_null(strstr(out, "| seqwr |"));
	free(out);
	out = print(in, 1);
	assert_non_null(strstr(out, "| seqwr | 2| "));
	assert_null(strstr(out, "| rndrd |"));
	free(out);
	ios_synth_free(r);
}

/* Two replication factors in one campaign: a column per factor, each
 * cell from that factor's runs alone (they were averaged into one). */
static void test_replication(void **state)
{
	struct ios_run *r2 = make_run(1, "write", 8),
		       *r3 = make_run(1, "write", 30);
	struct report_thr_in in[] = {{"camp", r2, 2}, {"camp", r3, 3}};
	char want[96];
	char *out;

	(void)state;
	out = print(in, 2);
	assert_non_null(strstr(out, "^type^threads^camp-r2^camp-r3^\n"));
	snprintf(want, sizeof(want), "| seqwr | 1| %.5g| %.5g|",
		 mean_of(phase(r2, "write"), 0) / 1048576,
		 mean_of(phase(r3, "write"), 0) / 1048576);
	line_at(out, NULL, want);
	assert_non_null(strstr(out, "==== camp-r2 ===="));
	assert_non_null(strstr(out, "==== camp-r3 ===="));
	free(out);
	/* one factor for all: the column keeps its name */
	in[1].replication = 2;
	out = print(in, 2);
	assert_non_null(strstr(out, "^type^threads^camp^\n"));
	free(out);
	ios_synth_free(r2);
	ios_synth_free(r3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_replication),
	};

	return cmocka_run_group_tests_name("report_threads", tests, NULL, NULL);
}
