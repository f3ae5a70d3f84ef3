/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * campaign_progress: what `iostrata-campaign status --wait` prints while it
 * waits -- one line per element state change, and on a terminal a live
 * line (elements done/running/pending/failed, elapsed time, time left
 * estimated from the elements already done).  Pure: no Slurm, no clock;
 * the caller passes times in.
 */
#ifndef IOSTRATA_CAMPAIGN_PROGRESS_H
#define IOSTRATA_CAMPAIGN_PROGRESS_H

#include <stddef.h>
#include <time.h>

#include "campaign.h"

/* Counts and times of one look at the campaign. */
struct camp_progress {
	unsigned total;
	unsigned done;
	unsigned running;
	unsigned pending; /* pending in Slurm, or not submitted */
	unsigned failed;  /* FAILED or LOST */
	double elapsed;   /* s since the campaign's first element started */
	double left;      /* s, estimate; < 0: none yet (nothing done) */
};

/*
 * Time left, from the durations of the elements already done
 * ([done_s], [ndone]: their mean is the time one element takes), the time
 * the [nrunning] running elements have run so far ([running_s]) and
 * [npending] elements not started.  Running elements count for what their
 * mean leaves (0 when they overran it); the elements run [nrunning] at a
 * time (at least 1: the campaign's throttle chains them).  Returns a value
 * < 0 when no element is done yet (no basis), 0 when nothing is left.
 */
double camp_estimate_left(const double *done_s, size_t ndone,
			  const double *running_s, size_t nrunning,
			  size_t npending);

/* [s] seconds as "45s", "2m05s", "1h02m03s" (rounded to the second). */
void camp_fmt_duration(double s, char *buf, size_t len);

/*
 * The live line: "done 1/3, running 1, pending 1, failed 0; elapsed 1m05s;
 * about 2m10s left" (or "estimate after the first element").  Returns the
 * snprintf length.
 */
int camp_progress_line(const struct camp_progress *p, char *buf, size_t len);

/*
 * One state change of element [e] at [when] (broken down by the caller):
 * "12:34:56 diskbw20MB PENDING -> RUNNING, job 123"; [from] ==
 * CAMP_NSTATES: first sight ("12:34:56 diskbw20MB RUNNING, job 123"); a
 * failed or lost element adds its reason (": why").  Returns the snprintf
 * length.
 */
int camp_change_line(const struct tm *when, const struct camp_element *e,
		     enum camp_state from, enum camp_state to, char *buf,
		     size_t len);

/*
 * The verdict an element's job wrote in [path] (its accept.json, from
 * iostrata-report accept --format=json, tier table or nersc profile):
 * its exit (0 met, 1 FAIL, 3 NOTRUN) and in [out] "FAIL: 2 of 16 metrics"
 * (the rows of that result of all rows).  -1 when there is none, or it is
 * not such a file.
 */
int camp_verdict_read(const char *path, char *out, size_t len);

/* The state an element's status row shows: "DONE", "DONE (FAIL: 2 of 16
 * metrics)" (a verdict not met), "FAILED (exit 1: why)" (the job failed),
 * "FAILED (why)" when no exit code is known. */
int camp_state_text(const struct camp_element *e, char *buf, size_t len);

/*
 * The exit code of `status` over the elements' states [count] (indexed by
 * enum camp_state) and [nverdict] elements DONE with a verdict not met:
 * 3 some still pending or running, 1 some failed, lost or not submitted,
 * 4 every job ran to its end but some verdict is not met, 0 all done.
 */
int camp_status_exit(const int *count, int nverdict);

#endif
