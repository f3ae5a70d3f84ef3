/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phase_gather: a repetition's records, samples, histograms and errors to
 * rank 0, and its figures (phase_gather.c; the driver phase.c calls it).
 */
#ifndef IOSTRATA_MB_PHASE_GATHER_H
#define IOSTRATA_MB_PHASE_GATHER_H

#include "errbuf.h"
#include "phase_rank.h"
#include "results.h"

/*
 * Gather every rank's record, samples, histogram and errors of [rr]'s
 * repetition to rank 0 of rr->w (collective), which appends it to [out]
 * with its figures.  [t_start], [t_end]: the planned window (common
 * clock).  Returns 0, or -ENOMEM on every rank (the repetition is lost)
 * with [err] naming the rank that ran out.
 */
int mb_gather_rep(struct mb_rank_run *rr, struct ios_phase_result *out,
		  int64_t t_start, int64_t t_end, struct ios_err *err);

#endif
