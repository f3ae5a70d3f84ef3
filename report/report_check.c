/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_check: iostrata-report efficiency (the paper's Table 4) and trend
 * (regressions of a job over its history, Prometheus textfile); accept is
 * in report_accept.c.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report.h"
#include "safefile.h"
#include "siteconf.h"
#include "units.h"

#define GIB 1073741824.0
#define MIB 1048576.0

int report_peak_site(const struct ios_site *site, bool measured,
		     struct report_peak_in *in, struct ios_err *err)
{
	uint64_t u;
	int rc;

	if ((rc = ios_site_get_uint(site, "storage", "nodes", &u, err)) < 0)
		return rc;
	in->nodes = (double)u;
	if ((rc = ios_site_get_uint(site, "storage", "disks_per_node", &u,
				    err)) < 0)
		return rc;
	in->disks_per_node = (double)u;
	if ((rc = ios_site_get_rate(site, "storage",
				    measured ? "disk_bw_measured" : "disk_bw",
				    &u, err)) < 0)
		return rc;
	in->disk_bw = (double)u;
	if (ios_site_get_rate(site, "storage", "controller_bw", &u, err) == 0)
		in->controller_bw = (double)u;
	if (ios_site_get_rate(site, "storage", "nic_bw", &u, err) == 0)
		in->nic_bw = (double)u;
	return 0;
}

void report_peak_compute(const struct report_peak_in *in,
			 struct report_peak *out)
{
	double strict;

	memset(out, 0, sizeof(*out));
	out->disk_sum = in->disks_per_node * in->disk_bw;
	out->per_node = out->disk_sum;
	out->limit = "disks";
	if (in->controller_bw > 0 && in->controller_bw < out->per_node) {
		if (in->controller_bw >= 0.9 * out->disk_sum) {
			out->controller_disk_bound = true;
		} else {
			out->per_node = in->controller_bw;
			out->limit = "controller";
		}
	}
	if (in->nic_bw > 0 && in->nic_bw < out->per_node) {
		out->per_node = in->nic_bw;
		out->limit = "NIC";
	}
	strict = out->disk_sum;
	if (in->controller_bw > 0 && in->controller_bw < strict)
		strict = in->controller_bw;
	if (in->nic_bw > 0 && in->nic_bw < strict)
		strict = in->nic_bw;
	out->total = out->per_node * in->nodes;
	out->strict_total = strict * in->nodes;
}

void report_eff_table(FILE *out, const struct report_peak *pk,
		      const struct report_eff_row *rows, size_t n)
{
	fprintf(out,
		"Efficiency: sequential stonewall bandwidth / theoretical peak of %.1f GiB/s\n",
		pk->total / GIB);
	fprintf(out,
		"| Replication factor | Read efficiency | Write efficiency |\n");
	fprintf(out, "| --- | --- | --- |\n");
	for (size_t i = 0; i < n; i++) {
		char r[32], w[32];

		if (isnan(rows[i].read_bw))
			snprintf(r, sizeof(r), "-");
		else
			snprintf(r, sizeof(r), "%.3f",
				 rows[i].read_bw / pk->total);
		if (isnan(rows[i].write_bw))
			snprintf(w, sizeof(w), "-");
		else
			snprintf(w, sizeof(w), "%.3f",
				 rows[i].write_bw / pk->total);
		if (rows[i].replication > 0)
			fprintf(out, "| %d | %s | %s |\n", rows[i].replication,
				r, w);
		else
			fprintf(out, "| unknown | %s | %s |\n", r, w);
	}
}

/* Best mean headline of phases named [name] in [rr] (NAN when none). */
static double best_mean(const struct report_run *rr, const char *name,
			const char *fig)
{
	const struct ios_fig_desc *f = ios_fig_find(fig);
	double best = NAN;

	for (int k = 0; k < rr->run->nphases; k++) {
		struct report_stats st;

		const char *layer = rr->run->phases[k].layer;

		if (strcmp(rr->run->phases[k].name, name))
			continue;
		/* The paper's efficiency is the filesystem's: in a layered run
		 * only the full stack counts, not the device or protocol. */
		if (layer[0] && strcmp(layer, "fullstack"))
			continue;
		report_phase_stats(&rr->run->phases[k], f, &st);
		if (st.n && (isnan(best) || st.mean > best))
			best = st.mean;
	}
	return best;
}

static double fmax_nan(double a, double b)
{
	if (isnan(a))
		return b;
	if (isnan(b))
		return a;
	return a > b ? a : b;
}

int report_efficiency(int argc, char **argv)
{
	static const struct option opts[] = {
		{"site", required_argument, NULL, 's'},
		{"measured", no_argument, NULL, 'm'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *site_path = NULL;
	bool measured = false;
	struct ios_site *site = NULL;
	struct ios_err err = {0};
	struct report_peak_in in = {0};
	struct report_peak pk;
	struct report_eff_row rows[16];
	struct {
		int replication;
		double sum[2]; /* read, write */
		int n[2];
	} bl[16];
	size_t nbl = 0;
	struct report_run *runs;
	size_t n, nrows = 0;
	int c, nbad;

	optind = 1;
	while ((c = getopt_long(argc, argv, "s:mh", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			site_path = optarg;
			break;
		case 'm':
			measured = true;
			break;
		case 'h':
			printf("usage: iostrata-report efficiency --site=SITE.conf|DIR [--measured] FILE...\n");
			return 0;
		default:
			return REPORT_EXIT_USAGE;
		}
	}
	if (!site_path) {
		fprintf(stderr,
			"iostrata-report efficiency: --site=FILE is required (a site description with [storage] nodes, disks_per_node, disk_bw, controller_bw, nic_bw)\n");
		return REPORT_EXIT_USAGE;
	}
	if (ios_site_load(site_path, &site, &err) < 0) {
		fprintf(stderr, "iostrata-report efficiency: %s\n", err.msg);
		return REPORT_EXIT_FAIL;
	}
	if (report_peak_site(site, measured, &in, &err) < 0)
		goto bad_site;
	ios_site_free(site);
	report_peak_compute(&in, &pk);
	printf("peak per node: min(disks %.0f x %.2f MiB/s = %.0f MiB/s, controller %.0f MiB/s, NIC %.0f MiB/s) = %.0f MiB/s (limit: %s)\n",
	       in.disks_per_node, in.disk_bw / MIB, pk.disk_sum / MIB,
	       in.controller_bw / MIB, in.nic_bw / MIB, pk.per_node / MIB,
	       pk.limit);
	if (pk.controller_disk_bound)
		printf("note: the controller figure is >= 90%% of the disk sum, i.e. measured through these disks: not counted as a lower limit (strict min() peak: %.1f GiB/s)\n",
		       pk.strict_total / GIB);
	printf("theoretical peak: %.2f MiB/s x %.0f nodes = %.1f GiB/s\n\n",
	       pk.per_node / MIB, in.nodes, pk.total / GIB);
	if (optind >= argc)
		return 0;
	runs = report_load(argc - optind, argv + optind, &n, &nbad);
	/* Table 4 is the unconstrained node's (seeds/000 3.2): a factor
	 * whose runs include the campaign's baseline elements takes the
	 * mean of their means (the heatmaps' 1.00), the other runs of that
	 * factor left out; else the best run's mean, as before */
	for (size_t i = 0; i < n; i++) {
		size_t k;

		if (!runs[i].baseline)
			continue;
		for (k = 0; k < nbl; k++)
			if (bl[k].replication == runs[i].replication)
				break;
		if (k == nbl) {
			if (nbl == sizeof(bl) / sizeof(bl[0]))
				continue;
			memset(&bl[nbl], 0, sizeof(bl[nbl]));
			bl[nbl++].replication = runs[i].replication;
		}
		for (int w = 0; w < 2; w++) {
			double v = best_mean(&runs[i], w ? "write" : "read",
					     "stonewall_bw");

			if (!isnan(v))
				bl[k].sum[w] += v, bl[k].n[w]++;
		}
	}
	for (size_t i = 0; i < n; i++) {
		size_t k;
		bool has_bl = false;

		for (size_t b = 0; b < nbl; b++)
			has_bl |= bl[b].replication == runs[i].replication;
		if (has_bl)
			continue;

		for (k = 0; k < nrows; k++)
			if (rows[k].replication == runs[i].replication)
				break;
		if (k == nrows) {
			if (nrows == sizeof(rows) / sizeof(rows[0]))
				continue;
			rows[nrows].replication = runs[i].replication;
			rows[nrows].read_bw = rows[nrows].write_bw = NAN;
			nrows++;
		}
		rows[k].read_bw =
			fmax_nan(rows[k].read_bw,
				 best_mean(&runs[i], "read", "stonewall_bw"));
		rows[k].write_bw =
			fmax_nan(rows[k].write_bw,
				 best_mean(&runs[i], "write", "stonewall_bw"));
	}
	for (size_t b = 0; b < nbl && nrows < sizeof(rows) / sizeof(rows[0]);
	     b++) {
		rows[nrows].replication = bl[b].replication;
		rows[nrows].read_bw =
			bl[b].n[0] ? bl[b].sum[0] / bl[b].n[0] : NAN;
		rows[nrows++].write_bw =
			bl[b].n[1] ? bl[b].sum[1] / bl[b].n[1] : NAN;
	}
	if (nbl)
		printf("%s from the unconstrained baseline (the campaigns' baseline elements: the mean of their runs' means)%s\n",
		       nbl == nrows ? "every row"
				    : "rows with baseline elements",
		       nbl == nrows ? ""
				    : "; the others from the best run's mean");
	else if (nrows)
		printf("no unconstrained baseline element among the runs: each row from the best run's mean\n");
	/* sort by replication factor */
	for (size_t a = 0; a < nrows; a++)
		for (size_t b = a + 1; b < nrows; b++)
			if (rows[b].replication < rows[a].replication) {
				struct report_eff_row t = rows[a];

				rows[a] = rows[b];
				rows[b] = t;
			}
	report_eff_table(stdout, &pk, rows, nrows);
	report_runs_free(runs, n);
	return report_load_exit(nbad);
bad_site:
	fprintf(stderr, "iostrata-report efficiency: %s\n", err.msg);
	ios_site_free(site);
	return REPORT_EXIT_FAIL;
}

/* ---- trend ----------------------------------------------------------- */

static int cmp_created(const void *a, const void *b)
{
	const struct report_run *x = a, *y = b;
	int c = strcmp(x->job_def, y->job_def);

	if (c)
		return c;
	c = strcmp(x->run->created_utc ? x->run->created_utc : "",
		   y->run->created_utc ? y->run->created_utc : "");
	return c ? c : strcmp(x->path, y->path);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void prom_label(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if (*s == '\n') {
			fputs("\\n", f);
			continue;
		}
		fputc(*s, f);
	}
}

/* trend's command line. */
struct trend_opts {
	long last;  /* --last: previous runs in the baseline */
	double thr; /* --threshold: a drop beyond it is a regression */
	const char *prom;
};

/* The options into [t]: -1 to go on, else the exit code (0 after --help,
 * REPORT_EXIT_USAGE said on stderr). */
static int parse_trend(int argc, char **argv, struct trend_opts *t)
{
	static const struct option opts[] = {
		{"last", required_argument, NULL, 'n'},
		{"threshold", required_argument, NULL, 't'},
		{"prometheus", required_argument, NULL, 'p'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "n:t:p:h", opts, NULL)) != -1) {
		char *end;

		switch (c) {
		case 'n':
			t->last = strtol(optarg, &end, 10);
			if (*end || t->last < 1) {
				fprintf(stderr,
					"iostrata-report trend: invalid value \"%s\" for --last (a count >= 1)\n",
					optarg);
				return REPORT_EXIT_USAGE;
			}
			break;
		case 't':
			t->thr = strtod(optarg, &end);
			if (*end == '%') {
				t->thr /= 100;
				end++;
			}
			if (*end || t->thr <= 0 || t->thr >= 1) {
				fprintf(stderr,
					"iostrata-report trend: invalid value \"%s\" for --threshold (a fraction in (0,1), e.g. 0.15 or 15%%)\n",
					optarg);
				return REPORT_EXIT_USAGE;
			}
			break;
		case 'p':
			t->prom = optarg;
			break;
		case 'h':
			printf("usage: iostrata-report trend [--last=N] [--threshold=0.15] [--prometheus=FILE] FILE...\n");
			return 0;
		default:
			return REPORT_EXIT_USAGE;
		}
	}
	return -1;
}

/* The --prometheus file and its HELP/TYPE lines.  0, or -1 said. */
static int open_prom(const char *prom, struct sf_file *pfile)
{
	struct ios_err err = {0};

	/* node_exporter may read it any time: a whole file or the last one,
	 * never a symlink someone planted followed */
	if (sf_create(pfile, prom, SF_SYNC, &err) < 0) {
		fprintf(stderr, "iostrata-report trend: %s\n", err.msg);
		return -1;
	}
	fprintf(pfile->fp,
		"# HELP iostrata_figure Headline figure of the latest run (mean over valid repetitions), bytes/s or op/s.\n# TYPE iostrata_figure gauge\n");
	fprintf(pfile->fp,
		"# HELP iostrata_baseline Median of the same figure over the previous runs of the job.\n# TYPE iostrata_baseline gauge\n");
	fprintf(pfile->fp,
		"# HELP iostrata_regression 1 when the latest run is below baseline by more than the threshold.\n# TYPE iostrata_regression gauge\n");
	return 0;
}

/* The baseline of figure [fig] of phase [ph]: the median over the last
 * [last] (at most 64) runs of runs[lo..hi-1) that have it, newest first;
 * NAN and *nh = 0 if none. */
static double baseline(const struct report_run *runs, size_t lo, size_t hi,
		       const char *ph, const char *fig, long last, int *nh)
{
	double hist[64];

	*nh = 0;
	for (size_t j = hi; j-- > lo && *nh < last && *nh < 64;) {
		double v = best_mean(&runs[j], ph, fig);

		if (!isnan(v))
			hist[(*nh)++] = v;
	}
	if (!*nh)
		return NAN;
	qsort(hist, (size_t)*nh, sizeof(double), cmp_double);
	return *nh % 2 ? hist[*nh / 2]
		       : (hist[*nh / 2 - 1] + hist[*nh / 2]) / 2;
}

/* The three gauges of one job x phase x figure (NAN ones left out). */
static void prom_rows(FILE *pf, const char *job, const char *ph,
		      const char *fig, double latest, double base,
		      bool regression)
{
	const char *series[3] = {"iostrata_figure", "iostrata_baseline",
				 "iostrata_regression"};
	double vals[3] = {latest, base, regression};

	for (int s = 0; s < 3; s++) {
		if (isnan(vals[s]))
			continue;
		/* job and phase come from the results files: escaped */
		fprintf(pf, "%s{job=\"", series[s]);
		prom_label(pf, job);
		fputs("\",phase=\"", pf);
		prom_label(pf, ph);
		fprintf(pf, "\",figure=\"%s\"} %.6g\n", fig, vals[s]);
	}
}

/* Phase [k] of the latest run of a job (runs[lo..hi), oldest first)
 * against its baseline: one table line (and gauges).  1 when it counts
 * as a regression (or has no valid repetition), else 0. */
static int trend_phase(const struct report_run *runs, size_t lo, size_t hi,
		       int k, const struct trend_opts *t, FILE *pf)
{
	const struct report_run *cur = &runs[hi - 1];
	const char *ph = cur->run->phases[k].name;
	const struct ios_fig_desc *f = ios_fig_headline(ph);
	double latest = best_mean(cur, ph, f->name);
	double base, change = NAN;
	int nh;
	const char *verdict;

	base = baseline(runs, lo, hi - 1, ph, f->name, t->last, &nh);
	if (nh)
		change = latest / base - 1;
	if (isnan(latest))
		verdict = "NO VALID REPETITION";
	else if (!nh)
		verdict = "no history";
	else if (change < -t->thr)
		verdict = "REGRESSION";
	else
		verdict = "ok";
	printf("%-30.30s %-10s %-15s %12.1f %12.1f %7.1f%% %s (%d previous)\n",
	       cur->job_def, ph, f->name, latest * f->scale, base * f->scale,
	       change * 100, verdict, nh);
	if (pf)
		prom_rows(pf, cur->job_def, ph, f->name, latest, base,
			  !strcmp(verdict, "REGRESSION"));
	return !strcmp(verdict, "REGRESSION") || isnan(latest);
}

int report_trend(int argc, char **argv)
{
	struct trend_opts t = {.last = 10, .thr = 0.15};
	struct report_run *runs;
	struct sf_file pfile;
	struct ios_err err = {0};
	FILE *pf = NULL;
	size_t n;
	int rc, nbad, regressions = 0;

	rc = parse_trend(argc, argv, &t);
	if (rc >= 0)
		return rc;
	if (optind >= argc) {
		fprintf(stderr,
			"iostrata-report trend: no results files given\n");
		return REPORT_EXIT_USAGE;
	}
	runs = report_load(argc - optind, argv + optind, &n, &nbad);
	if (report_load_exit(nbad) == REPORT_EXIT_USAGE) {
		report_runs_free(runs, n);
		return REPORT_EXIT_USAGE;
	}
	qsort(runs, n, sizeof(*runs), cmp_created);
	if (t.prom) {
		if (open_prom(t.prom, &pfile) < 0) {
			report_runs_free(runs, n);
			return REPORT_EXIT_FAIL;
		}
		pf = pfile.fp;
	}
	printf("%-30s %-10s %-15s %12s %12s %8s %s\n", "job", "phase", "figure",
	       "latest", "baseline", "change", "verdict");
	for (size_t lo = 0; lo < n;) {
		size_t hi = lo;

		while (hi < n && !strcmp(runs[hi].job_def, runs[lo].job_def))
			hi++;
		for (int k = 0; k < runs[hi - 1].run->nphases; k++)
			regressions += trend_phase(runs, lo, hi, k, &t, pf);
		lo = hi;
	}
	if (pf) {
		if (sf_commit(&pfile, &err) < 0) {
			fprintf(stderr, "iostrata-report trend: %s\n", err.msg);
			nbad++;
		}
	}
	report_runs_free(runs, n);
	if (regressions)
		fprintf(stderr,
			"iostrata-report trend: %d regression(s) beyond %.0f%%\n",
			regressions, t.thr * 100);
	return nbad || regressions ? REPORT_EXIT_FAIL : REPORT_EXIT_OK;
}
