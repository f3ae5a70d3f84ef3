/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * progress: rank 0's live progress line.  Other ranks send their cumulative
 * bytes and operations once per print period (mb_progress_period_ns: 1 s
 * on a terminal, 10 s otherwise, never with --quiet); rank 0 picks the
 * messages up between its own I/Os, never per operation.  On a terminal the
 * line updates in place; otherwise a line is printed every 10 s.  Output
 * goes to stderr (stdout carries --summary).
 */
#ifndef IOSTRATA_MB_PROGRESS_H
#define IOSTRATA_MB_PROGRESS_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

struct mb_progress;

/* On rank 0 for one repetition starting at common time [t0_ns]. */
struct mb_progress *mb_progress_new(MPI_Comm comm, int nranks,
				    const char *phase, unsigned rep,
				    unsigned reps, double runtime,
				    int64_t t0_ns, bool quiet);

/* A size-based repetition (--once, runtime 0): [total] bytes to move over
 * all ranks; the line shows the share done and an ETA from the rate so
 * far instead of the runtime.  [p] may be NULL. */
void mb_progress_set_amount(struct mb_progress *p, uint64_t total);

/*
 * How often the other ranks should report, in ns: the print period, or 0
 * (never) when [p] is NULL or quiet.  Rank 0 broadcasts it: every message
 * costs each rank shared-memory pages of the MPI transport (about 4 KiB a
 * message here), so none is sent that no line will show.
 */
int64_t mb_progress_period_ns(const struct mb_progress *p);

/* Receive pending messages and print when due ([now_ns] common clock). */
void mb_progress_poll(struct mb_progress *p, uint64_t my_bytes, uint64_t my_ops,
		      int64_t now_ns);

/*
 * Receive the messages still owed ([sent][k] = messages rank k sent), end
 * the line and free [p] (NULL is fine; then the messages are drained with
 * [comm] unknown: callers pass p != NULL whenever ranks sent messages).
 */
void mb_progress_finish(struct mb_progress *p, const uint32_t *sent,
			uint64_t my_bytes, uint64_t my_ops);

#endif
