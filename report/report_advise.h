/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_advise: `iostrata-report advise`, the paper's question answered
 * from a sweep campaign: the cheapest storage-node configuration whose
 * performance, relative to the unconstrained baseline, meets a target
 * (e.g. seq-write=0.9,rand-write=0.8), the Pareto frontier of cost vs
 * performance, and the confidence (spread over repetitions).
 *
 * Metrics: seq-write, seq-read (stonewall_bw of the write / read phases),
 * rand-write, rand-read (stonewall_iops of randwrite / randread).  Only
 * valid repetitions count.  The baseline is the configuration that has at
 * least the cores, memory and disk rate of every other one (an element
 * without a constraint counts as the node's full hardware).
 */
#ifndef IOSTRATA_REPORT_ADVISE_H
#define IOSTRATA_REPORT_ADVISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "errbuf.h"

enum adv_metric {
	ADV_SEQ_WRITE = 0,
	ADV_SEQ_READ,
	ADV_RAND_WRITE,
	ADV_RAND_READ,
	ADV_NMETRICS
};

#define ADV_MAX_REPS 64

/* One configuration of the sweep with its measured repetitions. */
struct adv_config {
	char label[64];
	uint64_t cpus;    /* cores online per storage node (0: all) */
	uint64_t mem;     /* bytes online per storage node (0: all) */
	uint64_t disk_bw; /* throttle B/s (0: none) */
	double cost;      /* whole storage tier, from the site's prices */
	int nreps[ADV_NMETRICS];
	double reps[ADV_NMETRICS][ADV_MAX_REPS]; /* B/s or IOPS */
	int failed;      /* element failed: shown, never advised */
	int replication; /* data pool size of its runs, 0 unknown */
};

/* A target: metric >= ratio x baseline (ratio 0: metric not targeted). */
struct adv_target {
	double ratio[ADV_NMETRICS];
};

/* Per configuration, what adv_compute derived. */
struct adv_row {
	double mean[ADV_NMETRICS], min[ADV_NMETRICS], max[ADV_NMETRICS];
	double sd[ADV_NMETRICS];
	double rel[ADV_NMETRICS];     /* mean / baseline mean, NAN unknown */
	double rel_min[ADV_NMETRICS]; /* worst repetition / baseline mean */
	double score;                 /* min of rel over the targeted metrics */
	int meets;                    /* mean meets every target */
	int meets_all;                /* every repetition meets every target */
	int pareto;                   /* on the cost / score frontier */
};

struct adv_result {
	size_t baseline;      /* index of the baseline configuration */
	long best;            /* cheapest meeting the target, -1 none */
	long best_score;      /* highest score (shown when none meets) */
	struct adv_row *rows; /* [n], malloc'd */
};

/* Metric name ("seq-write", ...) and its unit ("B/s", "IOPS"). */
const char *adv_metric_name(enum adv_metric m);

/*
 * Parse "seq-write=0.9,rand-write=0.8" (ratios in (0, 2]).  Returns 0, or
 * -EINVAL with [err] naming the bad item and the accepted names.
 */
int adv_parse_targets(const char *s, struct adv_target *t, struct ios_err *err);

/*
 * Compute rows, baseline, frontier and the advice.  Returns 0 (res->best
 * may be -1: nothing meets the target), or -EINVAL (no configuration, no
 * baseline, a targeted metric the baseline lacks: [err] says which).  Free
 * res->rows with free().
 */
int adv_compute(const struct adv_config *c, size_t n,
		const struct adv_target *t, struct adv_result *res,
		struct ios_err *err);

/* Print the table, the frontier and the advice in words. */
void adv_print(FILE *fp, const struct adv_config *c, size_t n,
	       const struct adv_target *t, const struct adv_result *res,
	       const char *currency);

/*
 * Write PREFIX.dat and PREFIX.gp (cost vs score, frontier, advice) and run
 * gnuplot to PREFIX.png and PREFIX.svg.  Returns 0, -ENOENT (no gnuplot:
 * [err] says so; .dat and .gp are still written), -EIO.
 */
int adv_plot(const char *prefix, const struct adv_config *c, size_t n,
	     const struct adv_target *t, const struct adv_result *res,
	     const char *currency, struct ios_err *err);

/*
 * Reader of one results file: add its valid repetitions to [cfg].  The
 * default (ADV_READER_H5) reads HDF5 through ios_h5_read_run_isolated; tests
 * pass their own.  Returns 0 or a negative errno with [err].
 */
typedef int (*adv_reader_fn)(const char *path, struct adv_config *cfg,
			     struct ios_err *err);

/*
 * Load a campaign directory (index.tsv written by `iostrata-campaign
 * collect`): one configuration per element, files read with [reader].
 * Elements not DONE are kept with failed = 1.  Returns the number of
 * configurations and sets *out (malloc'd), or a negative errno with [err].
 */
int adv_load_campaign(const char *dir, adv_reader_fn reader,
		      struct adv_config **out, struct ios_err *err);

/* The advised node (adv_model_advise). */
struct adv_choice {
	uint64_t cores, mem, disk_bw; /* disk_bw 0: the installed drives */
	char disk[64];                /* its disk class */
	double cost;
	int where;     /* enum sf_where: measured, interpolated, ... */
	int confident; /* its whole interval meets the target */
};

struct ios_site;

/*
 * Fit the model (model/sweepfit.h) to the configurations of one or more
 * campaigns [c] of [site], search the catalogue (cores x memory x disk
 * classes) and print the model, the frontier and the advice on stdout;
 * --plot when [plot] is set.  Sets *nmeets (nodes meeting the target) and
 * *choice (may be NULL) when advice is given.  Returns an exit code:
 * 0 advice, 1 nothing meets (or the plot failed), 2 bad input.
 */
int adv_model_advise(const struct ios_site *site, const struct adv_config *c,
		     size_t n, const struct adv_target *t, const char *plot,
		     bool all, int *nmeets, struct adv_choice *choice);

/*
 * The `advise` subcommand for iostrata-report's dispatch table
 * ({"advise", report_advise, ...}): argv[0] is "advise".  Returns the exit
 * code: 0 advice given, 1 no configuration meets the target (or the plot
 * failed), 2 bad input, 3 advice given but some elements failed.
 */
int report_advise(int argc, char **argv);

#endif
