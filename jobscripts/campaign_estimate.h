/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * campaign_estimate: the expected wall time of a campaign (`plan
 * --estimate`, and `status` against the elements done).  Pure: no Slurm,
 * no files; the caller passes the site's workload and the overheads in.
 *
 * An element takes
 *   runs x phases x reps x (runtime + rep_overhead)      the timed windows
 *   + runs x lay-out (ranks x file_size / layout rate)    when it lays out
 *   + elem_overhead                                       job start, facts, ...
 * With dataset reuse only the first element of a replication factor lays
 * out a run's dataset (for rank sweeps: only the files a larger rank count
 * adds); without, every element does.
 */
#ifndef IOSTRATA_CAMPAIGN_ESTIMATE_H
#define IOSTRATA_CAMPAIGN_ESTIMATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "campaign.h"

/* Default overheads, and where they come from (printed with them). */
#define CAMP_EST_REP_OVERHEAD_S 0.16
#define CAMP_EST_REP_OVERHEAD_SRC                                              \
	"gather 0.116 s + HDF5 write 0.044 s per repetition at 512 ranks under mpirun, 2026-12-01 (issue 34)"
#define CAMP_EST_ELEM_OVERHEAD_S 9.0
#define CAMP_EST_ELEM_OVERHEAD_SRC                                             \
	"the largest per-element total - timed of the local site's campaigns (t51/t53/t57, 2026-12-06: 2-9 s); more at 512 ranks"
/* The paper's Table 4: write efficiency of the 10-node cluster at
 * replication 1, 2, 3 over its 32.5 GiB/s theoretical peak. */
#define CAMP_EST_PEAK_BPS (32.5 * 1024 * 1024 * 1024)
#define CAMP_EST_LAYOUT_SRC                                                    \
	"the paper's Table 4 write efficiency x its 32.5 GiB/s peak (seeds/000)"

struct camp_est_params {
	const char *job;    /* sweep-cores-mem, sweep-disk-bw, sweep-threads */
	double runtime_s;   /* [workload] runtime */
	unsigned reps;      /* [workload] reps */
	uint64_t ranks;     /* client ranks: compute nodes x ranks per node */
	uint64_t file_size; /* per rank, bytes */
	unsigned replication; /* [storage] replication: elements of no factor */
	double layout_bps;    /* aggregate lay-out rate; 0: the paper's */
	double rep_overhead_s;
	double elem_overhead_s;
};

/* What one element of the job runs: benchmark runs and phases per run
 * (sweeps of the storage nodes: the sequential and the random run, write
 * then read; sweep-threads: one run of five phases).  -EINVAL for a job
 * the estimate does not model (layered, acceptance, nightly-health). */
int camp_est_shape(const char *job, unsigned *runs, unsigned *phases);

/* The lay-out rate of replication factor [r] (0: [p]->replication). */
double camp_est_layout_bps(const struct camp_est_params *p, unsigned r);

struct camp_est_element {
	double timed_s;    /* the timed windows */
	double rep_s;      /* the per-repetition overheads */
	double layout_s;   /* its lay-out (0 when it reuses the dataset) */
	double overhead_s; /* the per-element overhead */
	double total_s;
};

struct camp_est {
	size_t n;         /* elements */
	unsigned layouts; /* elements that lay out something */
	double timed_s;   /* sums over the elements */
	double rep_s;
	double layout_s;
	double overhead_s;
	double total_s;
};

/*
 * Estimate the [n] elements [e] of a campaign, with ([reuse]) or without
 * dataset reuse, into [out] and (when not NULL) each element's into
 * [each] (n entries).  Returns 0, or -EINVAL (a job not modelled, a
 * parameter out of range).
 */
int camp_estimate(const struct camp_est_params *p, const struct camp_element *e,
		  size_t n, bool reuse, struct camp_est *out,
		  struct camp_est_element *each);

#endif
