/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mb_exit: the exit codes of iostrata-bench, one table for the plain and
 * the layered run (mpibench/README.md "Exit codes", --help).  The same
 * situation gives the same code in both.
 */
#ifndef IOSTRATA_MB_EXIT_H
#define IOSTRATA_MB_EXIT_H

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

#endif
