/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * h5write_json: node, host, job and Ceph metadata as HDF5 groups
 * (h5write_json.c), for the writer (h5write.c).  Not an interface of the
 * library.
 */
#ifndef IOSTRATA_H5WRITE_JSON_H
#define IOSTRATA_H5WRITE_JSON_H

#include <hdf5.h>

#include "h5write_prim.h"

/* Group [name] under [loc] holding the JSON text [json]. */
int ios_h5w_write_json_group(struct wctx *w, hid_t loc, const char *name,
			     const char *json);

#endif
