/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phase_rank: one rank's repetition of a phase (phase_rank.c: the I/O
 * loops, checkpoints, progress ticks, the stonewall counts), for the
 * driver (phase.c: mb_phase_run) and the gather (phase_gather.h); not
 * part of phase.h.  It stands on world.h (ranks, clock), not on the
 * phase's spec: it is given the configuration and the pattern.
 */
#ifndef IOSTRATA_MB_PHASE_RANK_H
#define IOSTRATA_MB_PHASE_RANK_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "backend.h"
#include "lathist.h"
#include "mb_config.h"
#include "once.h"
#include "progress.h"
#include "results.h"
#include "segment.h"
#include "world.h"

#define MB_MAX_ERRORS_PER_RANK 16

/* One rank's repetition: what it runs and what it has counted so far. */
struct mb_rank_run {
	const struct mb_config *cfg; /* the phase's configuration */
	enum mb_pattern pattern;     /* and its access pattern */
	bool random;                 /* mb_pattern_random(pattern), and */
	int fixed_op; /* the op of every I/O (-1: randrw draws it), set once:
		       * the loop calls no function to learn them */
	const struct mb_backend *be;
	struct mb_file *f;
	struct mb_world *w;
	uint32_t writer_rank; /* whose stamps reads expect */
	uint64_t nblocks;
	uint64_t cursor;
	uint64_t issued;     /* I/Os issued (--once: stop at nblocks) */
	struct mb_perm perm; /* --once, random patterns: the block order */
	struct mb_seg seg;   /* where writer_rank's blocks lie in the file */
	uint64_t rng;
	uint64_t scr; /* write content (scramble), apart from the offsets */
	uint64_t seed;
	uint32_t rep;
	int64_t t0_local, deadline_local; /* monotonic */
	int64_t cp_next, cp_step;
	uint32_t ncp, cp_cap;
	uint64_t *cp_bytes, *cp_ops;
	uint64_t cum_bytes, cum_ops;
	struct ios_rank_result r;
	struct ios_lathist lat; /* r.lat is its summary, at the gather */
	struct ios_io_error errs[MB_MAX_ERRORS_PER_RANK];
	uint32_t nerr;
	bool stop;
	/* progress */
	int64_t prog_next, prog_step;
	MPI_Request preq;
	uint64_t pmsg[3];
	uint32_t psent;
	struct mb_progress *prog;
};

/* Start [rr] for repetition [rep] of the phase [phase_index] ([cfg],
 * [pattern]) on [w], reading the stamps of [writer_rank]: counters zero,
 * the offset generator seeded. */
void mb_rank_init(struct mb_rank_run *rr, const struct mb_config *cfg,
		  enum mb_pattern pattern, int phase_index, struct mb_world *w,
		  uint32_t rep, int writer_rank);

/* Set the clock of the repetition: it starts at [t0] (common clock), runs
 * for --runtime (--once: until the file is done, within
 * mb_once_bound_s()), and sends progress every [prog_step] ns (<= 0:
 * none). */
void mb_rank_start_at(struct mb_rank_run *rr, int64_t t0, int64_t prog_step);

/*
 * The timed part on the open file rr->f: wait for the start, run the
 * synchronous or asynchronous loop with [bufs] until the deadline (--once:
 * until every block was moved once) or the first error, fsync (writes with
 * --fsync), close the file, and record the rank's CPU time and end.  Errors are
 * recorded in [rr], not returned.
 */
void mb_rank_measure(struct mb_rank_run *rr, void **bufs);

/* End the progress messages of the repetition over [comm] (collective);
 * rank 0 passes [psent] (one slot per rank, freed here), the others NULL. */
void mb_rank_progress_finish(struct mb_rank_run *rr, MPI_Comm comm,
			     uint32_t *psent);

/* The stonewall counts: bytes and ops moved while every rank of [comm]
 * ran (collective). */
void mb_rank_stonewall(struct mb_rank_run *rr, MPI_Comm comm);

/* Cumulative bytes/ops at local monotonic time [t], interpolated between
 * the checkpoints. */
void mb_rank_cum_at(const struct mb_rank_run *rr, int64_t t, double *b,
		    double *o);

/* Free the checkpoints of [rr]. */
void mb_rank_free(struct mb_rank_run *rr);

#endif
