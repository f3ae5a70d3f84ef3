/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * progress: rank 0's live progress line.  Other ranks send their cumulative
 * bytes and operations once per sample period (at least 1 s apart); rank 0
 * picks the messages up between its own I/Os, never per operation.  On a
 * terminal the line updates in place; otherwise a line is printed every
 * 10 s.  Output goes to stderr (stdout carries --summary).
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
