/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * h5run_internal: test hooks of the writer, the reader's bound and the
 * isolated reader's switches (not part of the API).
 */
#ifndef IOSTRATA_H5RUN_INTERNAL_H
#define IOSTRATA_H5RUN_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

/*
 * When set, the writer calls it at each step ("create", "attrs", "config",
 * "nodes", "phases", "flush", "fsync", "close"); a non-zero return makes
 * that step fail with -EIO, so tests can check that no partial file is
 * left.  At "create", ios_h5_test_tmp names the temporary file about to be
 * created (a test can plant something there).
 */
extern int (*ios_h5_test_hook)(const char *step);
extern const char *ios_h5_test_tmp;

/*
 * May the reader read a dataset of [nelem] elements, [file_esz] bytes each
 * in the file and [mem_esz] in memory, of which the file stores [stored]
 * bytes (H5Dget_storage_size), through filters when [filtered], in chunks
 * of [chunk] bytes (0: not chunked)?  Returns 0, -EFBIG (more than
 * IOS_H5_MAX_DATASET_BYTES in memory, or a chunk larger than the dataset
 * and 1 MiB) or -EBADMSG (the file stores less than the dataset needs:
 * unwritten chunks, a truncated file).  See h5run.h.
 */
int ios_h5_bound(uint64_t nelem, uint64_t file_esz, uint64_t mem_esz,
		 uint64_t stored, bool filtered, uint64_t chunk);

/*
 * When set, the reader opens files with HDF5's core driver (the file read
 * into memory at open, no backing store written) instead of sec2: the
 * isolated reader's child reads a memfd through its /proc/self/fd name,
 * which sec2 resolves as a symbolic link and cannot open (h5iso.c).
 */
extern bool ios_h5_read_in_core;

/*
 * What the isolated reader's last child said it ran as (h5iso.c), for the
 * tests that check the privilege drop; uid, euid, gid, egid as reported by
 * the child, ngroups its supplementary groups.
 */
struct ios_h5_iso_seen {
	uint32_t uid, euid, gid, egid, ngroups;
};
extern struct ios_h5_iso_seen ios_h5_iso_test_seen;

#endif
