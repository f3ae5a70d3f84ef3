/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phase: run one access pattern (all its repetitions) on the ranks of a
 * communicator and gather the raw per-rank results to its rank 0.  This is
 * the measuring core of iostrata-bench, also called by the layered run.
 * Every rank of [comm] calls it with the same spec (collective).
 */
#ifndef IOSTRATA_MB_PHASE_H
#define IOSTRATA_MB_PHASE_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

#include "errbuf.h"
#include "mb_config.h"
#include "results.h"
#include "world.h"

struct mb_phase_spec {
	/* What runs: backend, dir, bs, size (per rank, a multiple of bs),
	 * iodepth, iodepth_batch, ioengine, runtime, reps, interval, direct,
	 * fsync, verify, reorder, rwmixread, seed, quiet and the backend
	 * options, all read from here (the configuration the run record
	 * holds; the patterns list is not used).  Required. */
	const struct mb_config *cfg;
	enum mb_pattern pattern; /* this phase's access pattern */
	const char *layer;       /* "" or NULL, or device/protocol/fullstack */
	int phase_index;         /* for messages and verify stamps */
	/* Called on rank 0 of comm after each repetition, with [out] holding
	 * the repetitions finished so far (figures computed). */
	void (*rep_done)(void *arg, const struct ios_phase_result *ph);
	void *rep_arg;
	/* Shared rank/node/clock facts (mb_world_create); NULL: made here. */
	struct mb_world *world;
};

/*
 * Run [spec] on every rank of [comm]: for each repetition, synchronise a
 * common start, run time-based I/O until runtime, sample per interval,
 * gather to rank 0 and compute the figures (model/figures.c).  Rank 0 of
 * comm gets [out] filled (reps allocated; free with ios_phase_result_clear);
 * other ranks get out->nreps == 0.  Files are opened (created for write
 * patterns, laid out for reads when short) and closed, never removed: see
 * mb_phase_cleanup.  I/O errors do not fail the call: they are recorded and
 * make the repetition invalid.  Returns 0, or a negative errno when the
 * phase could not run at all (backend init, open), with [err] set; the
 * return value is the same on all ranks.
 */
int mb_phase_run(const struct mb_phase_spec *spec, MPI_Comm comm,
		 struct ios_phase_result *out, struct ios_err *err);

/* Seconds the last repetition's gather (and figures) took, on rank 0. */
extern double mb_phase_last_gather_s;

/* Remove this rank's file of [spec] (unless it is a block device); only
 * spec->cfg is used. */
int mb_phase_cleanup(const struct mb_phase_spec *spec, MPI_Comm comm,
		     struct ios_err *err);

#endif
