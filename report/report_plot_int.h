/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_plot_int: what the files of `iostrata-report plot` share:
 * report_plot.c (the command), report_plot_common.c (the plot's files,
 * the runs' phases, factors and baseline: what the kinds call),
 * report_plot_heatmap.c, report_plot_throttle.c and report_plot_timeline.c
 * (one kind of plot each).
 */
#ifndef IOSTRATA_REPORT_PLOT_INT_H
#define IOSTRATA_REPORT_PLOT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "figures.h"
#include "report.h"

/* One `iostrata-report plot`: gnuplot, the --out prefix and the file names
 * written so far, so that two plots never get the same name. */
struct plot_ctx {
	const char *gp, *prefix;
	char **used;
	size_t nused;
	int said; /* plots not drawn, a sentence said why (not a failure) */
};

/* A plot's data, in memory: written to files for the reader and handed to
 * gnuplot inline, so gnuplot opens no file by name. */
struct plot_data {
	const char *name;   /* datablock, "$dat" */
	const char *suffix; /* file: [out][suffix].dat */
	char *buf;
	size_t len;
	FILE *fp;
};

/* The unconstrained baseline of a phase and factor: the campaign's
 * baseline elements (no --iostrata-* option), measured like the others. */
struct baseline {
	int nruns;            /* its runs with a figure; 0: none measured */
	double mean;          /* the mean of its runs' means */
	double rmin, rmax;    /* over every valid repetition of its runs */
	int nrep;             /* valid repetitions */
	int efirst, elast;    /* the first and last element (-1 unknown) */
	double vfirst, vlast; /* their means */
	double acpu, amem;    /* applied cores and memory (the host whole) */
	char name[160];       /* "the unconstrained baseline (elements 0, 4)" */
};

/* Draws one plot of a phase and replication factor (heatmap_one,
 * throttle_one). */
typedef int one_plot_fn(struct plot_ctx *pc, const struct report_run *runs,
			size_t n, double osds, const char *phase, int repl,
			bool multi, int *made, int *failed);

/* The kinds: every plot of its kind over the runs, printed and counted;
 * 0 when at least one was made (or said why not) and none failed, else
 * -1 (messages printed). */
int plot_heatmap(struct plot_ctx *pc, const struct report_run *runs, size_t n,
		 double osds);
int plot_throttle(struct plot_ctx *pc, const struct report_run *runs, size_t n);
int plot_timeline(struct plot_ctx *pc, const struct report_run *runs, size_t n);

/* [v] sorted ascending and deduplicated in place; the new count. */
size_t plot_uniq(double *v, size_t n);
/* The index of [x] in v[0..n), 0 when absent. */
size_t plot_idx_of(const double *v, size_t n, double x);
/* The stats of [f] over the valid repetitions of [rr]'s phase [phase]
 * into [st] (n 0 when the run has no such phase). */
void plot_run_stats(const struct report_run *rr, const char *phase,
		    const struct ios_fig_desc *f, struct report_stats *st);
/* Mean of [f] in [rr]'s [phase]; NaN when there is none or it is not
 * finite. */
double plot_run_mean(const struct report_run *rr, const char *phase,
		     const struct ios_fig_desc *f);
/* Open the memstream of [pd] (datablock [name], file suffix [suffix]);
 * 0 or -1. */
int plot_data_open(struct plot_data *pd, const char *name, const char *suffix);
/* Close and free the n blocks of [pd]. */
void plot_data_free(struct plot_data *pd, size_t n);
/* One plot's end: close the script [b] (a memstream over *[body]) and the
 * data [pd] (n blocks), render [kind]/[name] unless something failed, free
 * them all and count the plot in *made or *failed. */
void plot_finish(struct plot_ctx *pc, const char *kind, const char *name,
		 FILE *b, struct plot_data *pd, size_t n, char **body,
		 int *made, int *failed);
/* Is [rr] of factor [repl] (always, when the runs have one factor)? */
bool plot_of_factor(const struct report_run *rr, int repl, bool multi);
/* The plot's name part ("write-r2") and its title's (", replication 2"),
 * both 48 bytes. */
void plot_factor_names(const char *phase, int repl, bool multi, char *name,
		       char *title);
/* [one] for every phase of the runs and each of their replication
 * factors; counted in *made / *failed.  -1 out of memory, else 0. */
int plot_each(struct plot_ctx *pc, const struct report_run *runs, size_t n,
	      double osds, one_plot_fn *one, int *made, int *failed);
/* The baseline of [phase] for factor [repl] into [bl] (bl->nruns 0: the
 * runs have no baseline element). */
void plot_find_baseline(const struct report_run *runs, size_t n,
			const char *phase, const struct ios_fig_desc *f,
			int repl, bool multi, struct baseline *bl);
/* The baseline's own line and its drift, printed. */
void plot_baseline_text(const struct baseline *bl, const struct ios_fig_desc *f,
			double osds);
/* A read phase whose every run reads no more than its OSDs' memory
 * caches: a sentence into [note], else "". */
void plot_cache_note(const struct report_run *runs, size_t n, const char *phase,
		     const struct ios_fig_desc *f, int repl, bool multi,
		     char *note, size_t len);
/* What the text says when the runs have no baseline element. */
extern const char plot_no_baseline[];

#endif
