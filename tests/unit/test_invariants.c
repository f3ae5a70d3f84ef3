/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests: invariants of every figure a user reads (issue 29), over many
 * synthetic runs written to results files and read back, the real results
 * file of tests/fixtures, and any real files named in
 * $IOSTRATA_INVARIANT_FILES (space-separated paths or globs: a demo's
 * campaigns, say):
 *  - every valid repetition that moved bytes has a headline > 0 (or none,
 *    said: too short to stonewall), never 0, and it agrees with the
 *    per-rank data it is computed from (bytes inside the all-running
 *    window / that window, recomputed here from the rank records);
 *  - every line of every plot's data file is a measured configuration: no
 *    sentinel number (-1, NaN) drawn, a heatmap line per measured cell.
 */
#include "config.h"

#include <glob.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "figures.h"
#include "h5run.h"
#include "report.h"
#include "report_fx.h"

/* The headline of every valid repetition of [run] ([what] names it). */
static int check_run(const struct ios_run *run, const char *what)
{
	int checked = 0;

	for (int k = 0; k < run->nphases; k++) {
		const struct ios_phase_result *ph = &run->phases[k];
		const struct ios_fig_desc *f = ios_fig_headline(ph->name);
		int with_value = 0;
		struct ios_stat st;

		for (int r = 0; r < ph->nreps; r++) {
			const struct ios_rep_result *rep = &ph->reps[r];
			int64_t ls = INT64_MIN, fe = INT64_MAX;
			double sw = 0, w, v, want;

			if (!rep->valid || !rep->fig.bytes || rep->nranks <= 0)
				continue;
			v = ios_fig_value(&rep->fig, f->id);
			if (rep->fig.stonewall_short) {
				if (!isnan(v))
					fail_msg("%s %s rep %d: too short to "
						 "stonewall, yet a headline %g",
						 what, ph->name, r, v);
				continue;
			}
			if (!(v > 0) || !isfinite(v))
				fail_msg(
					"%s %s rep %d: valid, %llu bytes moved, "
					"headline %s %g",
					what, ph->name, r,
					(unsigned long long)rep->fig.bytes,
					f->name, v);
			for (int i = 0; i < rep->nranks; i++) {
				if (rep->ranks[i].t_start_ns > ls)
					ls = rep->ranks[i].t_start_ns;
				if (rep->ranks[i].t_end_ns < fe)
					fe = rep->ranks[i].t_end_ns;
			}
			for (int i = 0; i < rep->nranks; i++) {
				const struct ios_rank_result *x =
					&rep->ranks[i];
				bool whole = x->t_start_ns == ls &&
					     x->t_end_ns == fe;

				if (f->id == IOS_FIG_STONEWALL_BW)
					sw += (double)(whole ? x->bytes[0] +
								       x->bytes[1]
							     : x->stonewall_bytes);
				else
					sw += (double)(whole ? x->ops[0] +
								       x->ops[1]
							     : x->stonewall_ops);
			}
			w = (double)(fe - ls) / 1e9;
			want = sw / w;
			if (!(fabs(v - want) <= 1e-9 * want))
				fail_msg("%s %s rep %d: headline %.17g, the "
					 "rank records give %.17g",
					 what, ph->name, r, v, want);
			with_value++;
			checked++;
		}
		ios_fig_stat(ph, f->id, &st);
		if (st.n != with_value || (st.n && !(st.min > 0)))
			fail_msg("%s %s: over the repetitions n %d (want %d), "
				 "min %g",
				 what, ph->name, st.n, with_value, st.min);
	}
	return checked;
}

/* Every line of every .dat file under dir matching [pattern]: numbers, no
 * sentinel (-1), no NaN; returns the lines. */
static int check_dat(const char *pattern, int want_lines)
{
	glob_t g;
	int lines = 0;

	if (glob(P(pattern), 0, NULL, &g) != 0)
		fail_msg("no data file %s", pattern);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		FILE *fp = fopen(g.gl_pathv[i], "r");
		char line[4096];

		assert_non_null(fp);
		while (fgets(line, sizeof(line), fp)) {
			char *save = NULL, *t;

			if (line[0] == '\n' || line[0] == '#')
				continue;
			lines++;
			for (t = strtok_r(line, " \t\n", &save); t;
			     t = strtok_r(NULL, " \t\n", &save))
				if (!strcmp(t, "-1") || strstr(t, "NaN") ||
				    strstr(t, "nan"))
					fail_msg("%s: a sentinel or missing "
						 "value \"%s\" in a line",
						 g.gl_pathv[i], t);
		}
		fclose(fp);
	}
	globfree(&g);
	if (want_lines >= 0 && lines != want_lines)
		fail_msg("%s: %d lines, want %d (one per measured cell)",
			 pattern, lines, want_lines);
	return lines;
}

/* Many synthetic runs, through a results file each. */
static void test_synthetic_headlines(void **state)
{
	int files = 0, reps = 0;

	(void)state;
	for (int k = 0; k < 96; k++) {
		struct ios_synth s;
		struct report_run *runs;
		size_t n;
		int nbad;
		char name[64], *path;

		ios_synth_defaults(&s);
		s.nnodes = 1 + k % 4;
		s.ranks_per_node = 1 + (k / 4) % 3;
		s.phases = k % 2 ? "write,read" : "randwrite,randread";
		s.nreps = 1 + k % 3;
		s.seed = (unsigned)(1000 + k);
		s.straggler = k % 5 == 0 ? 0 : -1;
		s.early_rank =
			k % 7 == 0 ? s.nnodes * s.ranks_per_node - 1 : -1;
		s.size_based = k % 3 == 0;
		snprintf(name, sizeof(name), "inv-%d.h5", k);
		path = P(name);
		if (k % 11 == 0) {
			/* a size-based 1-rank run of two operations, as
			 * iostrata-bench recorded it before issue 29: no
			 * stonewall bytes (one checkpoint, at t0) */
			struct ios_err err = {0};
			struct ios_run *run;

			s.nnodes = s.ranks_per_node = 1;
			s.early_rank = -1;
			s.straggler = -1;
			s.size_based = true;
			run = ios_synth_run(&s);
			assert_non_null(run);
			for (int p = 0; p < run->nphases; p++)
				for (int r = 0; r < run->phases[p].nreps; r++) {
					struct ios_rank_result *x =
						&run->phases[p]
							 .reps[r]
							 .ranks[0];

					x->stonewall_bytes = x->stonewall_ops =
						0;
				}
			assert_int_equal(ios_h5_write_run(path, run, &err), 0);
			ios_synth_free(run);
		} else {
			synth_file(name, &s);
		}
		runs = report_load(1, &path, &n, &nbad);
		assert_int_equal(nbad, 0);
		assert_int_equal(n, 1);
		reps += check_run(runs[0].run, name);
		report_runs_free(runs, n);
		files++;
	}
	assert_int_equal(files, 96);
	assert_true(reps > 96);
}

/* The real file of tests/fixtures and the ones $IOSTRATA_INVARIANT_FILES
 * names. */
static void test_real_headlines(void **state)
{
	char fixture[4096];
	const char *extra = getenv("IOSTRATA_INVARIANT_FILES");
	char *list[2] = {fixture, NULL};
	struct report_run *runs;
	size_t n;
	int nbad, reps = 0;

	(void)state;
	snprintf(fixture, sizeof(fixture), "%s/tests/fixtures/results-v1.h5",
		 getenv("IOSTRATA_SRCDIR") ? getenv("IOSTRATA_SRCDIR") : "..");
	if (access(fixture, R_OK) != 0)
		skip();
	runs = report_load(1, list, &n, &nbad);
	assert_int_equal(nbad, 0);
	for (size_t i = 0; i < n; i++)
		reps += check_run(runs[i].run, runs[i].path);
	report_runs_free(runs, n);
	assert_true(reps > 0);
	if (extra && *extra) {
		char *copy = strdup(extra), *save = NULL, *args[256];
		int na = 0;

		assert_non_null(copy);
		for (char *t = strtok_r(copy, " ", &save); t && na < 256;
		     t = strtok_r(NULL, " ", &save))
			args[na++] = t;
		runs = report_load(na, args, &n, &nbad);
		assert_int_equal(nbad, 0);
		reps = 0;
		for (size_t i = 0; i < n; i++)
			reps += check_run(runs[i].run, runs[i].path);
		print_message("IOSTRATA_INVARIANT_FILES: %zu file(s), %d "
			      "repetition(s) with a headline checked\n",
			      n, reps);
		report_runs_free(runs, n);
		free(copy);
	}
}

/* A sweep of 3 x 3 requested configurations with 2 not run, and a
 * disk-speed sweep: every line of every plot's data is a measured
 * configuration. */
static void test_plot_data_cells(void **state)
{
	char out[300], *txt = NULL;
	char *args[16];
	int na = 0;

	(void)state;
	if (access(GNUPLOT_PATH, X_OK) != 0)
		skip();
	setenv("GNUPLOT", GNUPLOT_PATH, 1);
	args[na++] = "plot";
	args[na++] = "--kind=heatmap";
	snprintf(out, sizeof(out), "--out=%s/pc", dir);
	args[na++] = out;
	for (int c = 1; c <= 3; c++)
		for (int m = 1; m <= 3; m++) {
			struct ios_synth s;
			char name[64];

			if ((c == 1 && m == 3) || (c == 3 && m == 1))
				continue; /* not run */
			ios_synth_defaults(&s);
			s.phases = "write,randread";
			s.nreps = c == 2 ? 1 : 2; /* a cell with no sd */
			s.cpus = c;
			s.mem = (uint64_t)(m * 8 + 1.1 * c) * 1000000000ull;
			s.req_mem = (uint64_t)m * 8 * 1073741824ull;
			s.rank_bw = 50e6 * c + 10e6 * m;
			s.seed = (unsigned)(c * 10 + m);
			snprintf(name, sizeof(name), "pc-%d-%d.h5", c, m);
			synth_file(name, &s);
			args[na++] = strdup(P(name));
		}
	switch (na) { /* run_cmd is variadic: 3 + 7 files */
	case 10:
		assert_int_equal(run_cmd(&txt, 10, args[0], args[1], args[2],
					 args[3], args[4], args[5], args[6],
					 args[7], args[8], args[9]),
				 0);
		break;
	default:
		fail_msg("%d arguments", na);
	}
	free(txt);
	check_dat("pc-heatmap-write.dat", 7);
	check_dat("pc-heatmap-randread.dat", 7);
	for (int i = 3; i < na; i++)
		free(args[i]);
	/* a disk-speed sweep's throttle curves */
	na = 0;
	args[na++] = "plot";
	args[na++] = "--kind=throttle";
	snprintf(out, sizeof(out), "--out=%s/pt", dir);
	args[na++] = out;
	for (int d = 1; d <= 3; d++) {
		struct ios_synth s;
		char name[64];

		ios_synth_defaults(&s);
		s.phases = "write";
		s.nreps = d == 1 ? 1 : 3;
		s.disk_bw = (uint64_t)d * 20000000;
		s.rank_bw = 10e6 * d;
		s.seed = (unsigned)(90 + d);
		snprintf(name, sizeof(name), "pt-%d.h5", d);
		synth_file(name, &s);
		args[na++] = strdup(P(name));
	}
	assert_int_equal(run_cmd(&txt, 6, args[0], args[1], args[2], args[3],
				 args[4], args[5]),
			 0);
	free(txt);
	check_dat("pt-throttle-write*.dat", -1);
	for (int i = 3; i < na; i++)
		free(args[i]);
	unsetenv("GNUPLOT");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_synthetic_headlines),
		cmocka_unit_test(test_real_headlines),
		cmocka_unit_test(test_plot_data_cells),
	};

	return cmocka_run_group_tests_name("invariants", tests, setup,
					   teardown);
}
