/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_h5run: the results-file reader (h5schema/h5run.c ios_h5_read_run and
 * ios_h5_validate).  The input is written to a file in the scratch
 * directory and opened with the reader, as iostrata-report opens a run.
 * HDF5's own error printing is off (H5Eset_auto); after each input no HDF5
 * object may be left open (a leaked id keeps the file open and, in a
 * report over a thousand files, runs out of descriptors).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <hdf5.h>

#include "fuzz_util.h"
#include "h5run.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
	return 0;
}

static void check_closed(const char *after)
{
	ssize_t n = H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL);

	if (n != 0) {
		fprintf(stderr,
			"fuzz_h5run: %zd HDF5 objects left open after %s\n", n,
			after);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ios_err err = {0};
	struct ios_run *run = NULL;
	const char *path = fuzz_write_file("run.h5", data, size);
	int rc;

	rc = ios_h5_read_run(path, &run, &err);
	fuzz_note("ios_h5_read_run", rc, err.msg);
	if (rc < 0 && (run || !err.msg[0]))
		abort();
	ios_run_free(run);
	check_closed("ios_h5_read_run");
	ios_err_clear(&err);
	rc = ios_h5_validate(path, &err);
	fuzz_note("ios_h5_validate", rc, err.msg);
	if (rc < 0 && !err.msg[0])
		abort();
	check_closed("ios_h5_validate");
	return 0;
}
