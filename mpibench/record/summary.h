/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * summary: iostrata-bench's summary on rank 0's stdout (--summary=text or
 * json): every phase's repetitions, their figures and the statistics
 * over the valid ones (model/figures.c), the stragglers, the run's cost.
 */
#ifndef IOSTRATA_MB_SUMMARY_H
#define IOSTRATA_MB_SUMMARY_H

#include <stdbool.h>
#include <stdint.h>

#include "results.h"

/* What the summary tells besides the run itself. */
struct mb_summary_extra {
	const char *backend; /* its name */
	const char *output;  /* the results file; NULL: none */
	/* peak resident set size over the ranks (VmHWM), bytes */
	uint64_t rss_max, rss_median, rss_rank0;
	/* start-up: the wall clock (Unix seconds) at main() of the earliest
	 * and the latest rank, MPI_Init's seconds on rank 0 and the longest
	 * over the ranks, rank 0's seconds from MPI_Init to the first phase */
	double main_first, main_last, init_s, init_max, startup_s;
	/* seconds the gather and the results file took after each
	 * repetition, in the order they ran ([ntimed] of them) */
	const double *gather_s, *write_s;
	int ntimed;
};

/* The text summary of [run] (figures computed) on stdout. */
void mb_summary_text(const struct ios_run *run,
		     const struct mb_summary_extra *x);

/* The JSON summary of [run] on stdout (one object); [valid]: the run's
 * verdict. */
void mb_summary_json(const struct ios_run *run, bool valid,
		     const struct mb_summary_extra *x);

#endif
