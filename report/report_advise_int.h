/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_advise_int: what the files of `iostrata-report advise` share:
 * report_advise.c (the command, targets, loading campaigns),
 * report_advise_search.c (the model and the catalogue search, printed) and
 * report_advise_plot.c (the cost vs score plot).
 */
#ifndef IOSTRATA_REPORT_ADVISE_INT_H
#define IOSTRATA_REPORT_ADVISE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errbuf.h"
#include "report_advise.h"
#include "sweepfit.h"

#define ADV_PROG "iostrata-report advise"

enum {
	ADV_EXIT_OK = 0,
	ADV_EXIT_NONE = 1,       /* no configuration meets the target */
	ADV_EXIT_USAGE = 2,      /* bad input */
	ADV_EXIT_INCOMPLETE = 3, /* advice from a campaign with failures */
	ADV_EXIT_CHECK = 4,      /* --check: measured outside the interval */
};

/* One candidate node of the catalogue. */
struct adv_cand {
	uint64_t cores, mem, disk_bw; /* disk_bw 0: the installed drives */
	char disk[64];                /* its disk class (site file text) */
	double cost, score, score_lo; /* score_lo: clipped at 0 */
	double score_lo_raw;          /* the same before the clip */
	enum sf_where where;
	struct sf_pred pred[ADV_NMETRICS];
	bool meets, confident;
};

/* "measured", "interpolated", ... by enum sf_where. */
extern const char *const adv_where_names[];

/* "16 cores, 64 GiB, hdd-5400" (disks: "installed" for the installed). */
void adv_cand_name(const struct adv_cand *x, char *buf, size_t len);

/*
 * Cost vs predicted score of the candidates cd[0..n) (sorted by cost), by
 * basis, with the lower end of each interval, the target line, and labels
 * on the advised node [best] and the cheapest sure one [sure] (-1: none).
 * Writes PREFIX.dat, PREFIX.gp, then PREFIX.png and PREFIX.svg with
 * gnuplot.  Text (the currency, disk class names) reaches gnuplot only
 * as string literals.  Returns 0, -EINVAL (a prefix with a control
 * character), -ENOENT (no gnuplot: .dat and .gp are written), -EIO, with
 * [err].
 */
int adv_plot_cands(const char *prefix, const struct adv_cand *cd, size_t n,
		   long best, long sure, const struct adv_target *t,
		   const char *cur, struct ios_err *err);

#endif
