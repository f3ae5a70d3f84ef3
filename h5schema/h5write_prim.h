/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * h5write_prim: the writer's context and primitives (h5write_prim.c),
 * which the writer (h5write.c) and its JSON metadata groups
 * (h5write_json.c) share.  Not an interface of the library.
 */
#ifndef IOSTRATA_H5WRITE_PRIM_H
#define IOSTRATA_H5WRITE_PRIM_H

#include <stddef.h>

#include <hdf5.h>

#include "errbuf.h"
#include "h5run_internal.h"

struct wctx {
	const char *path;
	struct ios_err *err;
	int rc;
	char why[256];
	hid_t src;  /* the file being replaced, for dropped histograms; or -1 */
	hid_t dxpl; /* every H5Dwrite: ios_h5_dxpl() */
};

/* The first failure of the write ([what] failed): -EIO with the message. */
int ios_h5w_wfail(struct wctx *w, const char *what);
int ios_h5w_attr_write_str(struct wctx *w, hid_t loc, const char *name,
			   const char *s);
int ios_h5w_attr_write_num(struct wctx *w, hid_t loc, const char *name,
			   enum ios_h5_type type, const void *p);
int ios_h5w_write_text(struct wctx *w, hid_t loc, const char *name,
		       const char *s);
hid_t ios_h5w_group_create(struct wctx *w, hid_t loc, const char *name,
			   int track_order);
/* An HDF5 link or attribute name for a JSON key / option name. */
void ios_h5w_safe_name(char *out, size_t len, const char *in);

#endif
