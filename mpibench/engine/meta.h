/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * meta: the metadata phases of iostrata-bench (--meta; mdtest's): each
 * rank creates, stats, reads and removes small files and makes, stats and
 * removes directories through the backend's meta_* hooks (backend.h), in
 * a directory per rank ("easy") or one shared by every rank ("hard"), a
 * fixed count per rank or until a stonewall time.  Everything lives under
 * one directory the run creates in --dir, named so that a run cut short
 * is recognised (RUN = iostrata-meta.<UTC>[-job<ID>].<pid>):
 *
 *   RUN/rep.K/rank.R/file.I   easy: rank R's files (dir.I its directories)
 *   RUN/rep.K/shared/file.R.I hard: every rank in one directory, the rank
 *                             in every name (dir.R.I)
 *
 * The names are unique per rank, repetition and run; nothing outside RUN
 * is created, and only names this run made are removed.  The MPI-free
 * helpers (names, the stonewall test, the counts) are meta_name.c; the
 * per-rank loop, the gather and the progress lines are meta.c.
 */
#ifndef IOSTRATA_MB_META_H
#define IOSTRATA_MB_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errbuf.h"
#include "mb_config.h"

/* The run's directory name (no slash) into [buf]: [stamp] a UTC time
 * YYYYmmddTHHMMSSZ, [job] the Slurm job id or NULL, [pid] rank 0's.
 * 0, or -ENAMETOOLONG. */
int mb_meta_run_name(char *buf, size_t len, const char *stamp, const char *job,
		     long pid);

/* RUN/rep.K (the repetition's directory). */
int mb_meta_rep_dir(char *buf, size_t len, const char *run, unsigned rep);

/* The directory [rank] works in: RUN/rep.K/rank.R (easy) or
 * RUN/rep.K/shared (hard). */
int mb_meta_work_dir(char *buf, size_t len, const char *run,
		     enum mb_meta_layout l, unsigned rep, int rank);

/* Item [i] of [rank]: a file ([dir] false) or a directory, in its work
 * directory; the rank is part of the name in the hard layout. */
int mb_meta_item(char *buf, size_t len, const char *run, enum mb_meta_layout l,
		 unsigned rep, int rank, bool dir, uint64_t i);

/*
 * Whether a rank that has done [done] operations of a phase starts one
 * more: below [limit] and, when [stonewall] > 0 (seconds), [elapsed] (since
 * the phase's common start) still below it.  Every rank uses the same
 * stonewall from the same start, so all stop when the first reaches it.
 */
bool mb_meta_go_on(uint64_t done, uint64_t limit, double elapsed,
		   double stonewall);

/*
 * What a rank has made and not yet removed in the current repetition:
 * files and directories [lo, hi) of its names.  A making phase sets hi to
 * what it made (lo 0), a remove moves lo past what it removed; the other
 * phases work on [lo, hi).
 */
struct mb_meta_made {
	uint64_t lo, hi;
};

/* The items phase [op] works on given [made] (files for file phases,
 * directories for directory ones) and [limit] (--meta-files): a making
 * phase up to [limit]; the others the [lo, hi) made. */
uint64_t mb_meta_todo(enum mb_meta_op op, const struct mb_meta_made *made,
		      uint64_t limit);

/* After phase [op] did [ops] operations: update [made]. */
void mb_meta_after(enum mb_meta_op op, struct mb_meta_made *made, uint64_t ops);

#ifdef IOSTRATA_MB_META_MPI
#include <mpi.h>

struct ios_run;

/*
 * Run cfg->meta's phases, cfg->reps times, on every rank of [comm]
 * (collective).  Rank 0 fills run->meta (allocated here) and calls
 * [rep_done] after each repetition (the results file), prints a line per
 * phase and repetition unless cfg->quiet.  Returns 0, or a negative errno
 * with [err] set (the lowest failing rank's reason) when an operation
 * failed or the run's directory could not be made: the repetition's
 * phases so far are kept, its names removed unless --keep.
 */
int mb_meta_run(const struct mb_config *cfg, MPI_Comm comm, struct ios_run *run,
		void (*rep_done)(void *arg), void *arg, struct ios_err *err);
#endif

#endif
