/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * h5run: write, read and validate one iostrata results file (serial HDF5).
 * The layout is defined once in schema.def and documented in SCHEMA.md.
 *
 * Link with h5schema/libiostrata_h5.la AND common/libiostrata_common.la
 * (in that order); the library does not bundle the common objects.
 */
#ifndef IOSTRATA_H5RUN_H
#define IOSTRATA_H5RUN_H

#include "errbuf.h"
#include "results.h"

/*
 * Write [run] to [path] atomically: the file is written as a unique
 * "[path].tmp.XXXXXX" in the same directory, flushed and fsync'ed, closed,
 * renamed over [path], and the directory is fsync'ed.  On any error the
 * temporary file is removed and [path] is left as it was.  NULL strings in
 * [run] are written as "" (required) or left out (optional); NULL
 * tool_version / git_revision / build_options are filled with this build's
 * values.  Returns 0, or -EINVAL (inconsistent run: [err] says which
 * field), -errno of the failing system call, or -EIO (HDF5 error).
 */
int ios_h5_write_run(const char *path, const struct ios_run *run,
		     struct ios_err *err);

/*
 * Read a results file into a newly allocated run (free with ios_run_free).
 * Per-repetition figures (ios_rep_result.fig) are those stored by the
 * writer; recompute them with model/figures.c when they matter.
 * Returns 0, or -ENOENT / -EACCES (cannot open), -EBADMSG (not HDF5,
 * truncated or corrupt), -ENOMSG (an HDF5 file, but not an iostrata results
 * file), -EPROTONOSUPPORT (written with a newer schema version), -EFBIG
 * (a dataset beyond the bounds below), -ERANGE (the counts and indices
 * disagree: ios_h5_check_shape), -ENOMEM.  [err] names the file and the
 * problem.
 */
int ios_h5_read_run(const char *path, struct ios_run **out,
		    struct ios_err *err);

/*
 * The reader's bounds, so that a small hostile file cannot make it
 * allocate much.  A dataset is read only when it is at most
 * IOS_H5_MAX_DATASET_BYTES once in memory and the file really stores it:
 * without filters at least the bytes it declares, through filters (the
 * writer's shuffle + deflate) at least 1/IOS_H5_MAX_EXPANSION of them
 * (deflate expands at most about 1032 times); a chunk is at most the
 * larger of the dataset and 1 MiB.  A string attribute is at most
 * IOS_H5_MAX_STRING bytes.  nnodes, nphases and nreps are at most the
 * groups the file holds.  Beyond a bound, ios_h5_read_run fails with
 * -EFBIG (too large) or -EBADMSG (not backed by the file), [err] naming
 * the file, the dataset, the declared size and the bound.
 */
#define IOS_H5_MAX_DATASET_BYTES (1ull << 30)
#define IOS_H5_MAX_EXPANSION 1100
#define IOS_H5_MAX_STRING (1u << 20)

/*
 * Check that the counts and indices of [run] (read from [path]) agree, so
 * that no figure indexes past a table: the rank table's row i is rank i
 * and its node indices are below nnodes; every repetition has the run's
 * rank count (a layered run's layer phase, run on a group: at most that),
 * one record per rank, each rank index below the run's rank count, sample
 * arrays for its sample counts, at most the run's nodes; error records
 * name a rank of the run and op 0 or 1; network pairs name nodes of the
 * run.  ios_h5_read_run calls it, and the isolated reader again on the
 * decoded run.  Returns 0 or -ERANGE (-ENOMEM), [err] naming the file, the
 * object and the disagreement ("FILE: /phases/0/reps/0/ranks: 60000
 * ranks, the run has 1").
 */
int ios_h5_check_shape(const char *path, const struct ios_run *run,
		       struct ios_err *err);

/*
 * Check [path] against the schema: every required group, attribute and
 * dataset present with the right type class and shape, the counts
 * consistent, and all data readable.  Returns 0 or the errors of
 * ios_h5_read_run; [err] names the file, the object and the problem.
 */
int ios_h5_validate(const char *path, struct ios_err *err);

#endif
