/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * h5write_prim: the writer's primitives (h5write_prim.h): the first
 * failure of a write, scalar attributes, a text dataset, a group, a safe
 * link name.  The writer (h5write.c) and its JSON metadata groups
 * (h5write_json.c) both stand on them, as the reader's on h5read_prim.c.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <hdf5.h>

#include "h5run_internal.h"
#include "h5write_prim.h"
#include "schema.h"

int ios_h5w_wfail(struct wctx *w, const char *what)
{
	if (w->rc == 0) {
		w->rc = -EIO;
		ios_errf(w->err, -EIO, "h5schema: write %s: %s: %s", w->path,
			 what, ios_h5_why(w->why));
	}
	return w->rc;
}

static int attr_write(struct wctx *w, hid_t loc, const char *name, hid_t ftype,
		      hid_t mtype, const void *val)
{
	hid_t sp = H5Screate(H5S_SCALAR), a;
	int rc = 0;

	if (H5Aexists(loc, name) > 0)
		H5Adelete(loc, name);
	a = H5Acreate2(loc, name, ftype, sp, H5P_DEFAULT, H5P_DEFAULT);
	if (a < 0 || H5Awrite(a, mtype, val) < 0)
		rc = ios_h5w_wfail(w, name);
	if (a >= 0)
		H5Aclose(a);
	H5Sclose(sp);
	return rc;
}

int ios_h5w_attr_write_str(struct wctx *w, hid_t loc, const char *name,
			   const char *s)
{
	hid_t t = ios_h5_str_type();
	const char *v = s ? s : "";
	int rc = attr_write(w, loc, name, t, t, &v);

	H5Tclose(t);
	return rc;
}

int ios_h5w_attr_write_num(struct wctx *w, hid_t loc, const char *name,
			   enum ios_h5_type type, const void *p)
{
	hid_t nt = ios_h5_native_type(type);
	uint8_t b;

	if (type == IOS_T_BOOL) {
		b = *(const bool *)p ? 1 : 0;
		p = &b;
	}
	return attr_write(w, loc, name, nt, nt, p);
}

int ios_h5w_write_text(struct wctx *w, hid_t loc, const char *name,
		       const char *s)
{
	hid_t t = ios_h5_str_type(), sp = H5Screate(H5S_SCALAR), d;
	const char *v = s ? s : "";
	int rc = 0;

	d = H5Dcreate2(loc, name, t, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	if (d < 0 || H5Dwrite(d, t, H5S_ALL, H5S_ALL, w->dxpl, &v) < 0)
		rc = ios_h5w_wfail(w, name);
	if (d >= 0)
		H5Dclose(d);
	H5Sclose(sp);
	H5Tclose(t);
	return rc;
}

hid_t ios_h5w_group_create(struct wctx *w, hid_t loc, const char *name,
			   int track_order)
{
	hid_t gcpl = H5Pcreate(H5P_GROUP_CREATE), g;

	if (track_order)
		H5Pset_link_creation_order(gcpl, H5P_CRT_ORDER_TRACKED |
							 H5P_CRT_ORDER_INDEXED);
	g = H5Gcreate2(loc, name, H5P_DEFAULT, gcpl, H5P_DEFAULT);
	H5Pclose(gcpl);
	if (g < 0)
		ios_h5w_wfail(w, name);
	return g;
}

/* An HDF5 link or attribute name for a JSON key / option name. */
void ios_h5w_safe_name(char *out, size_t len, const char *in)
{
	size_t j = 0;

	for (size_t i = 0; in[i] && j + 1 < len; i++)
		out[j++] = in[i] == '/' ? '_' : in[i];
	out[j] = '\0';
	if (!strcmp(out, ".") || !out[0])
		snprintf(out, len, "_");
}
