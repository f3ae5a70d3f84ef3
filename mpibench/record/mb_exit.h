/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mb_exit: how iostrata-bench ends, one table for the plain and the
 * layered run (mb_exit.c; mpibench/README.md "Exit codes", --help): for
 * each outcome of a run the status its results file records and the exit
 * code.  The same outcome gives the same status and code in both.
 */
#ifndef IOSTRATA_MB_EXIT_H
#define IOSTRATA_MB_EXIT_H

#include <stdbool.h>
#include <stdio.h>

enum mb_exit {
	/* every repetition valid (layered: every layer ran, no number
	 * suspect), results written */
	MB_EXIT_OK = 0,
	/* a repetition is invalid (I/O error, short transfer, early end,
	 * verify mismatch); results written */
	MB_EXIT_INVALID = 1,
	/* layered: a number is suspect (above the ceiling of the layer
	 * below, or measured through a cache); results written.  The same
	 * code as MB_EXIT_INVALID: the numbers are not to be trusted. */
	MB_EXIT_SUSPECT = 1,
	/* bad usage, target or output, Ceph unreachable: nothing created */
	MB_EXIT_USAGE = 2,
	/* a phase (a layer) could not run: backend init/open, a file that is
	 * not ours refused, the network layer's MPI calls; or the results
	 * file could not be written */
	MB_EXIT_FAILED = 3,
	/* a stage took longer than its bound (a rank hung or died): the job
	 * is aborted */
	MB_EXIT_WATCHDOG = 4,
};

/* How a run ended, best to worst (a worse outcome wins). */
enum mb_outcome {
	MB_OUTCOME_OK = 0,   /* finished, every repetition valid */
	MB_OUTCOME_SUSPECT,  /* finished, a layer's number suspect */
	MB_OUTCOME_INVALID,  /* finished, a repetition invalid */
	MB_OUTCOME_USAGE,    /* did not start: bad input, Ceph unreachable */
	MB_OUTCOME_FAILED,   /* a phase or layer could not run, or the
			      * results file could not be written */
	MB_OUTCOME_WATCHDOG, /* a stage overran its bound: aborted */
	MB_OUTCOME_COUNT,
};

/* One row of the table. */
struct mb_outcome_row {
	enum mb_outcome outcome;
	const char *status; /* the results file's /status attribute */
	int exit_code;      /* enum mb_exit */
	const char *help;   /* what --help says about the exit code */
};

/* The table, indexed by enum mb_outcome (MB_OUTCOME_COUNT rows). */
extern const struct mb_outcome_row mb_outcomes[MB_OUTCOME_COUNT];

/* The outcome of a run that got to its end: [failed] (a phase or layer
 * could not run, or the file was not written) over [invalid] (a
 * repetition invalid) over [suspect] (a layer's number suspect). */
enum mb_outcome mb_outcome_of(bool failed, bool invalid, bool suspect);

/* The status string of [o] ("complete" or "failed"); an outcome outside
 * the table is "failed". */
const char *mb_outcome_status(enum mb_outcome o);

/* The exit code of [o]; an outcome outside the table is MB_EXIT_FAILED. */
int mb_outcome_exit(enum mb_outcome o);

/* The exit codes, one line each, for --help. */
void mb_outcome_usage(FILE *f);

#endif
