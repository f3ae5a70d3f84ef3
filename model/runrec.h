/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runrec: the one builder of a run record's header (identity and
 * provenance) and of its configuration list (results.h).  Every producer of
 * a run record (the plain and the layered benchmark run, the record of a
 * layered run that could not start) fills the header here, so the fields
 * mean the same in every file.  No MPI, no HDF5.
 */
#ifndef IOSTRATA_RUNREC_H
#define IOSTRATA_RUNREC_H

#include "results.h"

/*
 * Fill the header of [run] (whose header fields are NULL): run_id (a random
 * UUID from the kernel, else time-pid), created_utc (now, ISO 8601 UTC),
 * tool [tool], tool_version (PACKAGE_VERSION), git_revision (at configure
 * time), build_options (the configure arguments, IOSTRATA_CONFIGURE_ARGS),
 * command_line ([command_line], NULL stays NULL: written as ""), status
 * "running".  Returns 0 or -ENOMEM (what was filled stays; ios_run_clear
 * frees it).
 */
int ios_runrec_header(struct ios_run *run, const char *tool,
		      const char *command_line);

/* Replace run->status with [status].  0 or -ENOMEM (status then NULL). */
int ios_runrec_status(struct ios_run *run, const char *status);

/*
 * Append key [key] with the printf-formatted value to run->config (the
 * order is kept: it is the order of /config/options).  No length limit.
 * Returns 0 or -ENOMEM (nothing appended).
 */
int ios_runrec_kv(struct ios_run *run, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The value of the first config key [key] of [run], or NULL. */
const char *ios_runrec_get(const struct ios_run *run, const char *key);

/*
 * The run mode of [run]: its /config "mode" ("once": size-based, each rank
 * moved its file once; "time": time-based), "unknown" when the file does
 * not say.  [nsize] (may be NULL) gets how many of its repetitions carry
 * the size_based attribute, [nreps] (may be NULL) how many there are.
 */
const char *ios_run_mode(const struct ios_run *run, int *nsize, int *nreps);

#endif
