/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_h5run: the results-file reader as iostrata-report runs it
 * (h5schema/h5iso.c ios_h5_read_run_isolated and ios_h5_validate_isolated:
 * libhdf5 parses in a child, this process decodes the child's answer).  A
 * crash or hang inside libhdf5 is then an error for that file, not a
 * harness crash, so the harness mutates again; what it must never see is
 * this process crashing, a failure without a message, or an HDF5 object
 * left open here (the parent runs no HDF5 over the input at all).  The
 * input is written to a file in the scratch directory.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <hdf5.h>

#include "fuzz_util.h"
#include "h5iso.h"

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
	/* libFuzzer's own -timeout is 10 s in tests/fuzz/run */
	const struct ios_h5_iso_limits lim = {.cpu_s = 2, .wall_s = 4};
	struct ios_err err = {0};
	struct ios_run *run = NULL;
	const char *path = fuzz_write_file("run.h5", data, size);
	int rc;

	rc = ios_h5_read_run_isolated(path, &lim, &run, &err);
	fuzz_note("ios_h5_read_run_isolated", rc, err.msg);
	if (rc < 0 && (run || !err.msg[0]))
		abort();
	ios_run_free(run);
	check_closed("ios_h5_read_run_isolated");
	ios_err_clear(&err);
	rc = ios_h5_validate_isolated(path, &lim, &err);
	fuzz_note("ios_h5_validate_isolated", rc, err.msg);
	if (rc < 0 && !err.msg[0])
		abort();
	check_closed("ios_h5_validate_isolated");
	return 0;
}
