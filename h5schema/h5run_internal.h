/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * h5run_internal: test hooks of the writer (not part of the API).
 */
#ifndef IOSTRATA_H5RUN_INTERNAL_H
#define IOSTRATA_H5RUN_INTERNAL_H

/*
 * When set, the writer calls it at each step ("attrs", "config", "nodes",
 * "phases", "flush", "fsync", "close"); a non-zero return makes that step
 * fail with -EIO, so tests can check that no partial file is left.
 */
extern int (*ios_h5_test_hook)(const char *step);

#endif
