/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_advise: `iostrata-report advise`, the paper's question answered
 * from sweep campaigns: the cheapest storage node of the site's catalogue
 * (cores x memory x disk classes, priced for the whole tier) whose
 * predicted performance, relative to the full node, meets a target (e.g.
 * seq-write=0.9,rand-write=0.8), from a monotone model of the campaigns
 * (model/sweepfit.h) with the basis and 95% interval of every value.
 *
 * Metrics: seq-write, seq-read (stonewall_bw of the write / read phases),
 * rand-write, rand-read (stonewall_iops of randwrite / randread).  Only
 * valid repetitions count.  An element without a constraint counts as the
 * node's full hardware ([storage] cores, memory, disk_bw of the site).
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
	int nreps[ADV_NMETRICS];
	double reps[ADV_NMETRICS][ADV_MAX_REPS]; /* B/s or IOPS */
	int failed;        /* element failed: shown, never advised */
	int replication;   /* data pool size of its runs, 0 unknown */
	int element;       /* its element in the campaign (index.tsv) */
	char campaign[48]; /* the campaign directory's name */
};

/* A target: metric >= ratio x the baseline (ratio 0: not targeted): the
 * unconstrained node the campaigns measured (an element with no
 * constraint), else the largest configuration swept. */
struct adv_target {
	double ratio[ADV_NMETRICS];
};

/* Metric name: "seq-write", "seq-read", "rand-write", "rand-read". */
const char *adv_metric_name(enum adv_metric m);

/*
 * Parse "seq-write=0.9,rand-write=0.8" (ratios in (0, 2]).  Returns 0, or
 * -EINVAL with [err] naming the bad item and the accepted names.
 */
int adv_parse_targets(const char *s, struct adv_target *t, struct ios_err *err);

/*
 * Reader of one results file: add its valid repetitions to [cfg].  The
 * command's reads HDF5 through ios_h5_read_run_isolated; tests pass
 * their own.  Returns 0 or a negative errno with [err].
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
	/* per metric (fitted[m]): the prediction relative to the model's
	 * base, and that base (B/s or IOPS of the full node) */
	bool fitted[ADV_NMETRICS];
	double rel[ADV_NMETRICS], lo[ADV_NMETRICS], hi[ADV_NMETRICS];
	double base[ADV_NMETRICS];
	uint64_t full_cores, full_mem; /* what 0 (no constraint) stands for */
};

/*
 * --check: the advised node [ch] against a campaign [c] (n configurations)
 * that ran it: per fitted metric the measured mean relative to the
 * model's base, its min..max, and whether it falls in the predicted
 * interval (or why it cannot be said), on [out].  Configurations of
 * another node are refused.  Returns 0 (every metric within), 1 (some
 * outside: said why), 2 (nothing to compare: a wrong or failed campaign).
 */
int adv_check(FILE *out, FILE *errf, const char *dir,
	      const struct adv_choice *ch, const struct adv_config *c,
	      size_t n);

struct ios_site;

/*
 * Fit the model (model/sweepfit.h) to the configurations of one or more
 * campaigns [c] of [site], search the catalogue (cores x memory x disk
 * classes) and print the model, the frontier and the advice on [out],
 * messages on [errf]; --plot when [plot] is set.  Sets *nmeets (nodes
 * meeting the target) and *choice (may be NULL) when advice is given.  Returns
 * an exit code: 0 advice, 1 nothing meets (or the plot failed), 2 bad input.
 */
int adv_model_advise(FILE *out, FILE *errf, const struct ios_site *site,
		     const struct adv_config *c, size_t n,
		     const struct adv_target *t, const char *plot, bool all,
		     int *nmeets, struct adv_choice *choice);

/*
 * The command: `advise` options and campaign directories in argv (argv[0]
 * "advise"), each results file read with [reader], the report on [out],
 * messages on [errf].  Returns the exit code of report_advise().
 */
int adv_run(int argc, char **argv, adv_reader_fn reader, FILE *out, FILE *errf);

/*
 * The `advise` subcommand for iostrata-report's dispatch table
 * ({"advise", report_advise, ...}): adv_run() with the isolated HDF5
 * reader, stdout and stderr.  Returns the exit code: 0 advice given, 1 no
 * node meets the target (or the plot failed), 2 bad input, 3 advice given
 * but some elements failed.
 */
int report_advise(int argc, char **argv);

#endif
