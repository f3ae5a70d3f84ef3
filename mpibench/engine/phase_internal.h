/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phase_internal: what the parts of a phase share (not part of phase.h):
 * the driver (phase.c: mb_phase_run), one rank's repetition (phase_rank.c:
 * the I/O loops, checkpoints, progress ticks), the gather to rank 0
 * (phase_gather.c) and the ranks, nodes and clock (world.c).
 */
#ifndef IOSTRATA_MB_PHASE_INTERNAL_H
#define IOSTRATA_MB_PHASE_INTERNAL_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "backend.h"
#include "errbuf.h"
#include "lathist.h"
#include "once.h"
#include "phase.h"
#include "progress.h"
#include "results.h"
#include "segment.h"

#define MB_MAX_ERRORS_PER_RANK 16

static inline int64_t mb_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/* Ping-pong with rank 0 of [w->comm] (collective): sets this rank's
 * offset to rank 0's monotonic clock, and on rank 0 every rank's clock
 * offset and skew in w->ri (world.c). */
void mb_world_sync(struct mb_world *w);

/* One rank's repetition: what it runs and what it has counted so far. */
struct mb_rank_run {
	const struct mb_phase_spec *spec;
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

/* ---- phase_rank.c ---------------------------------------------------- */

/* Start [rr] for repetition [rep] of [spec] on [w], reading the stamps of
 * [writer_rank]: counters zero, the offset generator seeded. */
void mb_rank_init(struct mb_rank_run *rr, const struct mb_phase_spec *spec,
		  struct mb_world *w, uint32_t rep, int writer_rank);

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

/* ---- phase_gather.c -------------------------------------------------- */

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
