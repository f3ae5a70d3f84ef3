/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * crashlog: a rank that crashes says so before it dies.  On SIGSEGV,
 * SIGBUS, SIGILL, SIGFPE or SIGABRT one block goes to stderr:
 *
 *   iostrata-bench: rank 1 on c2 (pid 4242): SIGSEGV (address 0x8) during
 *   "start-up"; backtrace:
 *   <frames, one per line>
 *
 * then the process dies of the same signal (the handler that was there
 * before, Open MPI's or a sanitizer's, runs next; else the default action,
 * a core where the limit allows).  srun alone says only "Segmentation
 * fault" of a task; a sweep element's log then shows which rank, which
 * host, which stage and where.
 */
#ifndef IOSTRATA_MB_CRASHLOG_H
#define IOSTRATA_MB_CRASHLOG_H

/* Install (again) for [rank] (-1 before MPI_Init: the pid alone) on
 * [host] (NULL: gethostname).  0 or -errno. */
int mb_crashlog_install(int rank, const char *host);

/* The stage named in the report ([stage] is a static string). */
void mb_crashlog_stage(const char *stage);

#endif
