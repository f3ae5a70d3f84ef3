/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_threads: `iostrata-report threads`, seeds/001's two tables from a
 * thread sweep (jobscripts/sweep-threads.sbatch): MiB/s by mode x threads
 * with one column per configuration, then per configuration one row per
 * mode and thread count with bytes/s, req/s and the completion latency.
 * Threads are the run's ranks; every number is a mean over the valid
 * repetitions of a figure of model/figures.c (stonewall_bw, stonewall_iops,
 * lat_mean_ns, lat_p99) or of a quantile of the merged per-rank latency
 * histograms (p95, ios_lat_stat), so each can be recomputed from the
 * per-rank records of the results file.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "figures.h"
#include "report.h"
#include "report_threads.h"
#include "results.h"

/* seeds/001's mode names and order, and the phases they are. */
static const struct {
	const char *seed, *phase;
} modes[] = {
	{"rndrd", "randread"}, {"rndrw", "randrw"}, {"rndwr", "randwrite"},
	{"seqrd", "read"},     {"seqwr", "write"},
};
#define NMODES (sizeof(modes) / sizeof(*modes))

static const struct ios_phase_result *find_phase(const struct ios_run *run,
						 const char *name)
{
	for (int k = 0; k < run->nphases; k++)
		if (!strcmp(run->phases[k].name, name) &&
		    !run->phases[k].layer[0])
			return &run->phases[k];
	return NULL;
}

/* A column of the tables: the runs of one argument, and of one
 * replication factor when the runs have several. */
struct column {
	const char *name;
	int repl; /* -1: every factor (the runs have one) */
	char label[96];
};

static bool in_column(const struct report_thr_in *in, const struct column *c)
{
	return !strcmp(in->column, c->name) &&
	       (c->repl < 0 || in->replication == c->repl);
}

/* The columns of [n] runs into [cols] (room for n), in order of first
 * appearance; their count. */
static size_t columns_of(const struct report_thr_in *in, size_t n,
			 struct column *cols)
{
	bool multi = false;
	size_t ncols = 0;

	for (size_t i = 1; i < n; i++)
		multi |= in[i].replication != in[0].replication;
	for (size_t i = 0; i < n; i++) {
		int repl = multi ? in[i].replication : -1;
		size_t k;

		for (k = 0; k < ncols && (strcmp(cols[k].name, in[i].column) ||
					  cols[k].repl != repl);
		     k++)
			;
		if (k < ncols)
			continue;
		cols[k].name = in[i].column;
		cols[k].repl = repl;
		if (repl < 0)
			snprintf(cols[k].label, sizeof(cols[k].label), "%s",
				 in[i].column);
		else if (repl)
			snprintf(cols[k].label, sizeof(cols[k].label), "%s-r%d",
				 in[i].column, repl);
		else
			snprintf(cols[k].label, sizeof(cols[k].label), "%s-r?",
				 in[i].column);
		ncols++;
	}
	return ncols;
}

/* The distinct rank counts of the runs that hold phase [m], ascending. */
static size_t thread_counts(const struct report_thr_in *in, size_t n,
			    const char *m, int32_t *out)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		size_t j;

		if (!find_phase(in[i].run, m))
			continue;
		for (j = 0; j < k && out[j] != in[i].run->nranks; j++)
			;
		if (j < k)
			continue;
		for (j = k++; j > 0 && out[j - 1] > in[i].run->nranks; j--)
			out[j] = out[j - 1];
		out[j] = in[i].run->nranks;
	}
	return k;
}

/* One cell: the means over the valid repetitions of the phase [m] of the
 * runs of column [col] with [ranks] ranks (averaged when several runs). */
struct cell {
	int runs, valid, reps;
	double bw, iops, lat_mean, lat_p95, lat_p99; /* B/s, op/s, ns */
	const struct ios_run *run;                   /* the first one */
};

static void add_mean(double *acc, int *cnt, const struct ios_stat *st)
{
	if (st->n) {
		*acc = (*cnt ? *acc : 0) + st->mean;
		(*cnt)++;
	}
}

static void cell_of(const struct report_thr_in *in, size_t n,
		    const struct column *col, const char *m, int32_t ranks,
		    struct cell *c)
{
	int nbw = 0, nio = 0, nlm = 0, nl95 = 0, nl99 = 0;

	memset(c, 0, sizeof(*c));
	c->bw = c->iops = c->lat_mean = c->lat_p95 = c->lat_p99 = NAN;
	for (size_t i = 0; i < n; i++) {
		const struct ios_phase_result *ph;
		struct ios_stat st;

		if (!in_column(&in[i], col) || in[i].run->nranks != ranks ||
		    !(ph = find_phase(in[i].run, m)))
			continue;
		if (!c->runs++)
			c->run = in[i].run;
		c->reps += ph->nreps;
		for (int r = 0; r < ph->nreps; r++)
			c->valid += ph->reps[r].valid;
		ios_fig_stat(ph, IOS_FIG_STONEWALL_BW, &st);
		add_mean(&c->bw, &nbw, &st);
		ios_fig_stat(ph, IOS_FIG_STONEWALL_IOPS, &st);
		add_mean(&c->iops, &nio, &st);
		ios_lat_stat(ph, 0, &st);
		add_mean(&c->lat_mean, &nlm, &st);
		ios_lat_stat(ph, 0.95, &st);
		add_mean(&c->lat_p95, &nl95, &st);
		ios_fig_stat(ph, IOS_FIG_LAT_P99, &st);
		add_mean(&c->lat_p99, &nl99, &st);
	}
	if (nbw)
		c->bw /= nbw;
	if (nio)
		c->iops /= nio;
	if (nlm)
		c->lat_mean /= nlm;
	if (nl95)
		c->lat_p95 /= nl95;
	if (nl99)
		c->lat_p99 /= nl99;
}

/* seeds/001's numbers: 5 significant digits, "-" when not measured. */
static const char *num(char *buf, size_t len, double v, const char *suffix)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.5g%s", v, suffix);
	return buf;
}

static const char *fixed2(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f", v);
	return buf;
}

/* A size as the shortest exact form: 100G, 64M, 16K, else bytes. */
static const char *size_str(char *buf, size_t len, const char *bytes)
{
	static const char units[] = "KMGT";
	unsigned long long v;
	char *end;
	int u = -1;

	if (!bytes || !*bytes)
		return "?";
	v = strtoull(bytes, &end, 10);
	if (*end)
		return bytes;
	while (v && v % 1024 == 0 && u < 3) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%llu", v);
	else
		snprintf(buf, len, "%llu%c", v, units[u]);
	return buf;
}

void report_threads_print(FILE *out, const struct report_thr_in *in, size_t n)
{
	struct column *cols = calloc(n + 1, sizeof(*cols));
	int32_t *thr = calloc(n + 1, sizeof(*thr));
	size_t ncols = 0;

	if (!cols || !thr) {
		fprintf(out, "iostrata-report threads: out of memory\n");
		goto out;
	}
	ncols = columns_of(in, n, cols);

	fprintf(out,
		"Summary results (in MiB/sec, more is better; seeds/001's table): stonewall_bw, mean over valid repetitions; threads = ranks\n");
	for (size_t m = 0; m < NMODES; m++) {
		size_t nt = thread_counts(in, n, modes[m].phase, thr);

		if (!nt)
			continue;
		fprintf(out, "^type^threads^");
		for (size_t k = 0; k < ncols; k++)
			fprintf(out, "%s^", cols[k].label);
		fprintf(out, "\n");
		for (size_t t = 0; t < nt; t++) {
			fprintf(out, "| %s | %d|", modes[m].seed, thr[t]);
			for (size_t k = 0; k < ncols; k++) {
				struct cell c;
				char b[32];

				cell_of(in, n, &cols[k], modes[m].phase, thr[t],
					&c);
				fprintf(out, " %s|",
					num(b, sizeof(b), c.bw / 1048576.0,
					    ""));
			}
			fprintf(out, "\n");
		}
	}

	for (size_t k = 0; k < ncols; k++) {
		fprintf(out, "==== %s ====\n", cols[k].label);
		fprintf(out,
			"bytes/sec: stonewall_bw in MiB/s (seeds/001's \"Mb\"), req/sec: stonewall_iops, latency in ms: mean, p95 (seeds/001's column), p99; valid/repetitions\n");
		fprintf(out,
			"^ size^type^ thr^bytes/sec^req/sec^lat mean^lat p95^lat p99^valid^\n");
		for (size_t m = 0; m < NMODES; m++) {
			size_t nt = thread_counts(in, n, modes[m].phase, thr);

			for (size_t t = 0; t < nt; t++) {
				struct cell c;
				char sz[32], b[32], io[32], l1[32], l2[32],
					l3[32];

				cell_of(in, n, &cols[k], modes[m].phase, thr[t],
					&c);
				if (!c.runs)
					continue;
				fprintf(out,
					"| %s | %s | %d| %s| %s| %s| %s| %s| %d/%d|\n",
					size_str(sz, sizeof(sz),
						 report_config(c.run, "size")),
					modes[m].seed, thr[t],
					num(b, sizeof(b), c.bw / 1048576.0,
					    "Mb"),
					fixed2(io, sizeof(io), c.iops),
					fixed2(l1, sizeof(l1),
					       c.lat_mean / 1e6),
					fixed2(l2, sizeof(l2), c.lat_p95 / 1e6),
					fixed2(l3, sizeof(l3), c.lat_p99 / 1e6),
					c.valid, c.reps);
			}
		}
	}
	for (size_t i = 0; i < n; i++) {
		const struct ios_phase_result *ph =
			find_phase(in[i].run, "randrw");
		const char *mix = report_config(in[i].run, "rwmixread");

		if (ph) {
			fprintf(out,
				"rndrw: %s%% reads (rwmixread), block size %s\n",
				mix ? mix : "?",
				size_str((char[32]){0}, 32,
					 report_config(in[i].run, "bs")));
			break;
		}
	}
out:
	free(cols);
	free(thr);
}

/* The results files of one argument: a campaign directory's results/ (*.h5)
 * (else its elements/<k>/threads.h5), or the file or glob itself. */
static struct report_run *load_column(const char *arg, size_t *n, int *nbad)
{
	struct stat st;
	char pat[4096];
	char *argv1[1];

	if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(pat, sizeof(pat), "%s/results", arg);
		if (stat(pat, &st) == 0 && S_ISDIR(st.st_mode))
			snprintf(pat, sizeof(pat), "%s/results/*.h5", arg);
		else
			snprintf(pat, sizeof(pat), "%s/elements/*/threads.h5",
				 arg);
	} else {
		snprintf(pat, sizeof(pat), "%s", arg);
	}
	argv1[0] = pat;
	return report_load(1, argv1, n, nbad);
}

/* The column name of [arg]: its last path component without ".h5". */
static char *column_name(const char *arg)
{
	size_t l = strlen(arg);
	const char *b;
	char *c;

	while (l > 1 && arg[l - 1] == '/')
		l--;
	b = memrchr(arg, '/', l);
	b = b ? b + 1 : arg;
	c = strndup(b, l - (size_t)(b - arg));
	if (c && strlen(c) > 3 && !strcmp(c + strlen(c) - 3, ".h5"))
		c[strlen(c) - 3] = '\0';
	return c;
}

int report_threads(int argc, char **argv)
{
	static const struct option opts[] = {
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct report_run **loaded = NULL;
	size_t *nloaded = NULL, nin = 0;
	struct report_thr_in *in = NULL;
	char **names = NULL;
	int c, nbad = 0, ncol, rc = REPORT_EXIT_OK;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			printf("usage: iostrata-report threads CAMPAIGN_DIR|FILE|GLOB...\n"
			       "seeds/001's tables from thread sweep runs (jobscripts/sweep-threads.sbatch): one column per argument\n");
			return 0;
		default:
			return REPORT_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fprintf(stderr,
			"iostrata-report threads: no campaign directory or results file given (e.g. campaigns/local-sweep-threads)\n");
		return REPORT_EXIT_USAGE;
	}
	ncol = argc - optind;
	loaded = calloc((size_t)ncol, sizeof(*loaded));
	nloaded = calloc((size_t)ncol, sizeof(*nloaded));
	names = calloc((size_t)ncol, sizeof(*names));
	if (!loaded || !nloaded || !names) {
		rc = REPORT_EXIT_FAIL;
		goto out;
	}
	for (int k = 0; k < ncol; k++) {
		int bad = 0;

		loaded[k] = load_column(argv[optind + k], &nloaded[k], &bad);
		names[k] = column_name(argv[optind + k]);
		nbad += bad;
		if (!nloaded[k] && !bad)
			fprintf(stderr,
				"iostrata-report threads: %s: no results files (a campaign directory holds results/*.h5 after `iostrata-campaign collect`)\n",
				argv[optind + k]);
		if (!nloaded[k])
			nbad++;
		nin += nloaded[k];
	}
	in = calloc(nin + 1, sizeof(*in));
	if (!in) {
		rc = REPORT_EXIT_FAIL;
		goto out;
	}
	nin = 0;
	for (int k = 0; k < ncol; k++)
		for (size_t i = 0; i < nloaded[k]; i++) {
			in[nin].column = names[k] ? names[k] : "?";
			in[nin].replication = loaded[k][i].replication;
			in[nin++].run = loaded[k][i].run;
		}
	report_threads_print(stdout, in, nin);
	if (nbad) {
		fprintf(stderr,
			"iostrata-report threads: %d argument(s) or file(s) could not be read\n",
			nbad);
		rc = report_load_exit(nbad);
	}
out:
	for (int k = 0; loaded && k < ncol; k++)
		report_runs_free(loaded[k], nloaded[k]);
	for (int k = 0; names && k < ncol; k++)
		free(names[k]);
	free(loaded);
	free(nloaded);
	free(names);
	free(in);
	return rc;
}
