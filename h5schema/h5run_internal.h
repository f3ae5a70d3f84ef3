/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * h5run_internal: test hooks of the writer, the reader's bound and the
 * isolated reader's switches (not part of the API).
 */
#ifndef IOSTRATA_H5RUN_INTERNAL_H
#define IOSTRATA_H5RUN_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hdf5.h>

#include "errbuf.h"
#include "schema.h"

/*
 * Shared by the writer (h5write.c), the reader (h5read.c) and the
 * validator (h5validate.c); defined in h5common.c unless said otherwise.
 */

/* Sanity bound on ranks, nodes, phases and repetitions. */
#define IOS_H5_MAX_COUNT (1 << 24)

/* Turn off HDF5's printing of its error stack (errors are returned). */
void ios_h5_quiet(void);

/* The innermost message of the current HDF5 error stack, or "HDF5
 * error", in [buf] (at least 200 bytes).  Returns [buf]. */
const char *ios_h5_why(char *buf);

/* HDF5 types (close with H5Tclose): a variable-length UTF-8 string, a
 * NUL-terminated string of [n] bytes, and the memory compound type of a
 * compound tag of schema.def (IOS_T_KV, IOS_T_RANKRES, ...). */
hid_t ios_h5_str_type(void);
hid_t ios_h5_fstr_type(size_t n);
hid_t ios_h5_compound_type(enum ios_h5_type c);

/* The transfer properties of every H5Dwrite and of the reader's plain and
 * text datasets (not to be closed): conversion in strips of 64 KiB. */
hid_t ios_h5_dxpl(void);

/* The native HDF5 type of a numeric tag (not to be closed); -1 for other
 * tags. */
hid_t ios_h5_native_type(enum ios_h5_type t);

/* A reading of one file, by the reader or the validator. */
struct ios_h5_rctx {
	const char *path;
	struct ios_err *err;
	char why[256];
	char obj[256]; /* object being read, for messages */
	int version;   /* the file's schema_version (ios_h5_open_file) */
};

/* Set [r->err] to "h5schema: read PATH: OBJECT: <fmt>" and return [code]. */
int ios_h5_rfail(struct ios_h5_rctx *r, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* -EBADMSG with "[what]: <HDF5's reason> (corrupt file?)". */
int ios_h5_rfail_h5(struct ios_h5_rctx *r, const char *what);

/*
 * Open [r->path] read-only as an iostrata results file of a schema
 * version this build reads (h5read.c).  Returns 0 with the file in *out,
 * or the errors of ios_h5_read_run (-ENOENT, -EACCES, -EBADMSG, -ENOMSG,
 * -EPROTONOSUPPORT) with [r->err] set.
 */
int ios_h5_open_file(struct ios_h5_rctx *r, hid_t *out);

/* ---- test hooks (h5write.c, h5read.c) --------------------------------- */

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

/* The reader's bounded primitives (h5read_prim.c), for h5read.c. */
int ios_h5r_dset_bound(struct ios_h5_rctx *r, hid_t d, const char *name,
		       uint64_t nelem, size_t mem_esz);
int ios_h5r_count_bound(struct ios_h5_rctx *r, hid_t g, const char *what,
			long n);
int ios_h5r_attr_read_str(struct ios_h5_rctx *r, hid_t loc, const char *name,
			  char **out);
int ios_h5r_read_attrs(struct ios_h5_rctx *r, hid_t loc, enum ios_h5_group g,
		       void *obj);
hid_t ios_h5r_dset_open(struct ios_h5_rctx *r, hid_t loc, const char *name,
			int ndims, hsize_t *dims);
int ios_h5r_read_compound(struct ios_h5_rctx *r, hid_t loc, const char *name,
			  enum ios_h5_type c, void **out, size_t *n,
			  long expect);
int ios_h5r_read_text(struct ios_h5_rctx *r, hid_t loc, const char *name,
		      char **out);
int ios_h5r_read_u64_2d(struct ios_h5_rctx *r, hid_t loc, const char *name,
			hsize_t rows, long want_cols, uint64_t **out,
			hsize_t *cols);

#endif
