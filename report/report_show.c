/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_show: iostrata-report show: one table row per phase and layout
 * over many runs (mean, min, max and spread of the headline figures), the
 * runs one by one, each phase's most frequent repetition count, and the
 * invalid repetitions with their reasons; --hosts and the metadata phases
 * in report_hosts.c and report_meta.c.
 */
#include "config.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#include "figures.h"
#include "runrec.h"

static void fmt_num(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (fabs(v) >= 100)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.3g", v);
}

/* A phase's name in tables: "write", or "write@device" in a layered run, so
 * the layers of one run do not fold into one row, or "write:shared" for a
 * run on one shared file (/config file_layout=shared, N-to-1), so it does
 * not fold into the file-per-rank row of the same pattern. */
static const char *phase_label(const struct ios_run *run,
			       const struct ios_phase_result *ph, char *buf,
			       size_t len)
{
	const char *fl = report_config(run, "file_layout");

	if (fl && !strcmp(fl, "shared"))
		snprintf(buf, len, "%s:shared", ph->name);
	else if (ph->layer[0])
		snprintf(buf, len, "%s@%s", ph->name, ph->layer);
	else
		snprintf(buf, len, "%s", ph->name);
	return buf;
}

/* Do the runs have more than one replication factor (a campaign with
 * [sweep] replication)?  Then the tables have a row per factor. */
static bool multi_replication(const struct report_run *runs, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (runs[i].replication != runs[0].replication)
			return true;
	return false;
}

/*
 * Table 1 (seeds/001 shape): one block per mode, rows = ranks (and the
 * replication factor when the runs have several), one column per
 * configuration ([cols], the runs' labels); cells = mean over valid
 * repetitions of figure [fname] ("auto": the phase's headline figure).
 */
struct show_row {
	char mode[40]; /* phase_label() */
	char base[16]; /* the access pattern alone */
	int ranks;
	int repl;  /* replication factor, 0: one for all runs */
	int order; /* its mode's place among the modes, first seen first */
};

static bool row_before(const struct show_row *a, const struct show_row *b)
{
	if (a->order != b->order)
		return a->order < b->order;
	if (a->repl != b->repl)
		return a->repl < b->repl;
	return a->ranks < b->ranks;
}

/* The ranks that ran phase [ph]: the most any of its repetitions had (a
 * layered run's device phase runs on the storage ranks only); the run's
 * rank count when it has no repetition. */
static int phase_nranks(const struct ios_run *run,
			const struct ios_phase_result *ph)
{
	int n = 0;

	for (int r = 0; r < ph->nreps; r++)
		if (ph->reps[r].nranks > n)
			n = ph->reps[r].nranks;
	return ph->nreps ? n : run->nranks;
}

/* The rows of Table 1: one per mode, ranks and (with [multi]) factor
 * the runs have, one block per mode (first seen first), its rows by
 * factor and ranks.  Malloc'd, *[nrows] of them. */
static struct show_row *show_rows(const struct report_run *runs, size_t n,
				  bool multi, size_t *nrows)
{
	struct show_row *rows = NULL;
	size_t cap = 0;

	*nrows = 0;
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < runs[i].run->nphases; k++) {
			char lb[40];
			const char *m = phase_label(runs[i].run,
						    &runs[i].run->phases[k], lb,
						    sizeof(lb));
			int repl = multi ? runs[i].replication : 0;
			int nr = phase_nranks(runs[i].run,
					      &runs[i].run->phases[k]);
			size_t r;

			for (r = 0; r < *nrows; r++)
				if (!strcmp(rows[r].mode, m) &&
				    rows[r].ranks == nr && rows[r].repl == repl)
					break;
			if (r < *nrows)
				continue;
			if (*nrows == cap) {
				cap = cap ? cap * 2 : 16;
				rows = realloc(rows, cap * sizeof(*rows));
			}
			r = (*nrows)++;
			snprintf(rows[r].mode, sizeof(rows->mode), "%s", m);
			snprintf(rows[r].base, sizeof(rows->base), "%s",
				 runs[i].run->phases[k].name);
			rows[r].repl = repl;
			rows[r].order = (int)r;
			for (size_t q = 0; q < r; q++)
				if (!strcmp(rows[q].mode, m)) {
					rows[r].order = rows[q].order;
					break;
				}
			rows[r].ranks = nr;
		}
	/* insertion sort: stable, and the rows are few */
	for (size_t a = 1; a < *nrows; a++)
		for (size_t b = a; b > 0 && row_before(&rows[b], &rows[b - 1]);
		     b--) {
			struct show_row t = rows[b];

			rows[b] = rows[b - 1];
			rows[b - 1] = t;
		}
	return rows;
}

/* One cell of Table 1: the mean of figure [f] (display unit) over the
 * runs of configuration [col] in [row]; NaN when none has a value. */
static double show_cell(const struct report_run *runs, size_t n,
			const struct show_row *row, const char *col,
			const struct ios_fig_desc *f, bool multi)
{
	double sum = 0;
	int cnt = 0;

	for (size_t i = 0; i < n; i++) {
		const struct ios_run *run = runs[i].run;

		if (strcmp(runs[i].label, col) ||
		    (multi && runs[i].replication != row->repl))
			continue;
		for (int p = 0; p < run->nphases; p++) {
			struct report_stats st;
			char lb[40];

			if (strcmp(phase_label(run, &run->phases[p], lb,
					       sizeof(lb)),
				   row->mode) ||
			    phase_nranks(run, &run->phases[p]) != row->ranks)
				continue;
			report_phase_stats(&run->phases[p], f, &st);
			if (st.n) {
				sum += st.mean * f->scale;
				cnt++;
			}
		}
	}
	return cnt ? sum / cnt : NAN;
}

static void show_modes(const struct report_run *runs, size_t n,
		       const char **cols, size_t ncols, const char *fname)
{
	bool multi = multi_replication(runs, n);
	size_t nrows;
	struct show_row *rows = show_rows(runs, n, multi, &nrows);

	for (size_t r = 0; r < nrows; r++) {
		const struct ios_fig_desc *f =
			strcmp(fname, "auto") ? ios_fig_find(fname)
					      : ios_fig_headline(rows[r].base);

		if (r == 0 || strcmp(rows[r].mode, rows[r - 1].mode)) {
			printf("%s%s: %s [%s], mean over valid repetitions\n",
			       r ? "\n" : "", rows[r].mode, f->name, f->dunit);
			printf("^%-20s^%6s^", "mode", "ranks");
			if (multi)
				printf("%12s^", "replication");
			for (size_t k = 0; k < ncols; k++)
				printf("%12s^", cols[k]);
			printf("\n");
		}
		printf("| %-19s| %5d|", rows[r].mode, rows[r].ranks);
		if (multi && rows[r].repl > 0)
			printf("%12d|", rows[r].repl);
		else if (multi)
			printf("%12s|", "unknown");
		for (size_t k = 0; k < ncols; k++) {
			char buf[32];

			fmt_num(buf, sizeof(buf),
				show_cell(runs, n, &rows[r], cols[k], f,
					  multi));
			printf("%12s|", buf);
		}
		printf("\n");
	}
	free(rows);
}

/* The valid repetitions of [ph] with no value of stonewall figure [f]:
 * too short to stonewall (0 for any other figure). */
static int short_reps(const struct ios_phase_result *ph,
		      const struct ios_fig_desc *f)
{
	int n = 0;

	for (int r = 0; r < ph->nreps; r++)
		n += ph->reps[r].valid && ph->reps[r].fig.stonewall_short &&
		     (f->id == IOS_FIG_STONEWALL_BW ||
		      f->id == IOS_FIG_STONEWALL_IOPS);
	return n;
}

/* Table 2 (the paper's rows): min/avg/max per run and phase. */
static void show_runs(const struct report_run *runs, size_t n,
		      const char *fname)
{
	int pw = 16; /* the phase column's width */

	printf("\nper run: min / avg / max (stddev) over valid repetitions\n");
	for (size_t i = 0; i < n; i++) /* the phase column fits every label */
		for (int k = 0; k < runs[i].run->nphases; k++) {
			char lb[40];
			int w = (int)strlen(phase_label(runs[i].run,
							&runs[i].run->phases[k],
							lb, sizeof(lb)));

			pw = w > pw ? w : pw;
		}
	printf("%-24s %-*s %-6s %-15s %-8s %10s %10s %10s %9s %s\n", "run", pw,
	       "phase", "ranks", "figure", "unit", "min", "avg", "max",
	       "stddev", "valid");
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < runs[i].run->nphases; k++) {
			const struct ios_phase_result *ph =
				&runs[i].run->phases[k];
			const struct ios_fig_desc *figs[2];
			int nf = 0;

			if (strcmp(fname, "auto")) {
				figs[nf++] = ios_fig_find(fname);
			} else {
				figs[nf++] = ios_fig_find("stonewall_bw");
				figs[nf++] = ios_fig_find("stonewall_iops");
			}
			for (int q = 0; q < nf; q++) {
				struct report_stats st;
				char a[32], b[32], d[32], e[32], lb[40];

				report_phase_stats(ph, figs[q], &st);
				fmt_num(a, sizeof(a), st.min * figs[q]->scale);
				fmt_num(b, sizeof(b), st.mean * figs[q]->scale);
				fmt_num(d, sizeof(d), st.max * figs[q]->scale);
				fmt_num(e, sizeof(e),
					st.stddev * figs[q]->scale);
				printf("%-24.24s %-*s %-6d %-15s %-8s %10s %10s %10s %9s %d/%d\n",
				       runs[i].label, pw,
				       phase_label(runs[i].run, ph, lb,
						   sizeof(lb)),
				       phase_nranks(runs[i].run, ph),
				       figs[q]->name, figs[q]->dunit, a, b, d,
				       e, st.n, st.nreps);
				if (short_reps(ph, figs[q]))
					printf("%-24s %-*s %d valid repetition(s) too short to stonewall: no %s (below)\n",
					       "", pw, "",
					       short_reps(ph, figs[q]),
					       figs[q]->name);
			}
		}
}

/* The run mode of each run: /config mode and its size-based repetitions
 * (a time-based and a size-based run measure different things). */
static void show_mode(const struct report_run *runs, size_t n)
{
	printf("\nrun mode (/config mode; repetitions with size_based set):\n");
	for (size_t i = 0; i < n; i++) {
		int nsize, nreps;
		const char *m = ios_run_mode(runs[i].run, &nsize, &nreps);

		printf("  %-24s mode %-7s %d of %d repetition(s) size-based\n",
		       runs[i].label, m, nsize, nreps);
	}
}

/* Why repetitions were left out, and which valid ones have no
 * stonewall figure. */
static void show_invalid(const struct report_run *runs, size_t n)
{
	int header = 0, shorts = 0;

	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < runs[i].run->nphases; k++) {
			const struct ios_phase_result *ph =
				&runs[i].run->phases[k];
			char lb[40];

			for (int r = 0; r < ph->nreps; r++) {
				if (!ph->reps[r].valid ||
				    !ph->reps[r].fig.stonewall_short)
					continue;
				if (!shorts++)
					printf("\nno stonewall figure (%s):\n",
					       IOS_STONEWALL_SHORT);
				printf("  %s %s rep %d\n", runs[i].label,
				       phase_label(runs[i].run, ph, lb,
						   sizeof(lb)),
				       ph->reps[r].rep);
			}
		}

	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < runs[i].run->nphases; k++) {
			const struct ios_phase_result *ph =
				&runs[i].run->phases[k];

			for (int r = 0; r < ph->nreps; r++) {
				if (ph->reps[r].valid)
					continue;
				if (!header++)
					printf("\ninvalid repetitions (left out above):\n");
				char lb[40];

				printf("  %s %s rep %d: %s\n", runs[i].label,
				       phase_label(runs[i].run, ph, lb,
						   sizeof(lb)),
				       ph->reps[r].rep,
				       ph->reps[r].invalid_reason);
			}
		}
}

int report_show(int argc, char **argv)
{
	static const struct option opts[] = {
		{"figure", required_argument, NULL, 'f'},
		{"hosts", no_argument, NULL, 'H'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *fname = "auto";
	int hosts = 0;
	struct report_run *runs;
	size_t n, ncols = 0;
	const char **cols;
	int c, nbad;

	optind = 1;
	while ((c = getopt_long(argc, argv, "f:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			fname = optarg;
			break;
		case 'H':
			hosts = 1;
			break;
		case 'h':
			printf("usage: iostrata-report show [--figure=NAME|auto] [--hosts] FILE...\n--hosts: also every host's record (role, hardware, Slurm, MPI, shape)\n");
			return 0;
		default:
			return REPORT_EXIT_USAGE;
		}
	}
	if (strcmp(fname, "auto") && !ios_fig_find(fname)) {
		fprintf(stderr,
			"iostrata-report show: unknown figure \"%s\" (accepted: auto",
			fname);
		for (size_t i = 0; i < (size_t)IOS_FIG_COUNT; i++)
			fprintf(stderr, ", %s", ios_figs[i].name);
		fprintf(stderr, ")\n");
		return REPORT_EXIT_USAGE;
	}
	if (optind >= argc)
		return report_usage_files("show");
	runs = report_load(argc - optind, argv + optind, &n, &nbad);
	cols = calloc(n + 1, sizeof(*cols));
	for (size_t i = 0; i < n; i++) {
		size_t k;

		for (k = 0; k < ncols; k++)
			if (!strcmp(cols[k], runs[i].label))
				break;
		if (k == ncols)
			cols[ncols++] = runs[i].label;
	}

	show_modes(runs, n, cols, ncols, fname);
	show_runs(runs, n, fname);
	show_mode(runs, n);
	show_invalid(runs, n);
	report_show_meta(runs, n);
	if (hosts)
		report_show_hosts(runs, n);
	free(cols);
	report_runs_free(runs, n);
	if (nbad)
		fprintf(stderr,
			"iostrata-report show: %d file(s) could not be read\n",
			nbad);
	return report_load_exit(nbad);
}
