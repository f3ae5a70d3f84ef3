/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * h5read_prim: the reader's bounded primitives (h5read.c uses them for
 * every dataset and attribute): ios_h5_bound, a dataset's size against it,
 * a group's member count, string attributes, the schema's attribute tables,
 * 1-D compound, text and 2-D uint64 datasets.  Nothing is allocated for a
 * dataset before its size is checked.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hdf5.h>

#include "h5run.h"
#include "h5run_internal.h"
#include "schema.h"

int ios_h5_bound(uint64_t nelem, uint64_t file_esz, uint64_t mem_esz,
		 uint64_t stored, bool filtered, uint64_t chunk)
{
	uint64_t need, floor = 1u << 20;

	if (!nelem)
		return 0;
	if ((mem_esz && nelem > IOS_H5_MAX_DATASET_BYTES / mem_esz) ||
	    (file_esz && nelem > UINT64_MAX / file_esz))
		return -EFBIG;
	need = nelem * file_esz;
	if (chunk > (need > floor ? need : floor))
		return -EFBIG;
	/* stored * expansion >= need, without overflow */
	if (filtered ? stored < need / IOS_H5_MAX_EXPANSION +
					(need % IOS_H5_MAX_EXPANSION != 0)
		     : stored < need)
		return -EBADMSG;
	return 0;
}

/*
 * Check dataset [d] ([name]: [nelem] elements, read as [mem_esz] bytes
 * each) against ios_h5_bound before anything is allocated for it.  0 or
 * the error, with a message naming the dataset, its size and the bound.
 */
int ios_h5r_dset_bound(struct ios_h5_rctx *r, hid_t d, const char *name,
		       uint64_t nelem, size_t mem_esz)
{
	hid_t ft = H5Dget_type(d), dcpl = H5Dget_create_plist(d);
	size_t fesz = ft >= 0 ? H5Tget_size(ft) : 0;
	uint64_t stored = H5Dget_storage_size(d), chunk = 0;
	bool filtered = false;
	int rc;

	if (dcpl >= 0) {
		filtered = H5Pget_nfilters(dcpl) > 0;
		if (H5Pget_layout(dcpl) == H5D_CHUNKED) {
			hsize_t cd[H5S_MAX_RANK];
			int nd = H5Pget_chunk(dcpl, H5S_MAX_RANK, cd);

			chunk = fesz;
			for (int i = 0; i < nd; i++)
				chunk = cd[i] && chunk > UINT64_MAX / cd[i]
						? UINT64_MAX
						: chunk * cd[i];
		}
		H5Pclose(dcpl);
	}
	if (ft >= 0)
		H5Tclose(ft);
	rc = ios_h5_bound(nelem, fesz, mem_esz, stored, filtered, chunk);
	if (rc == -EFBIG)
		return ios_h5_rfail(
			r, rc,
			"dataset '%s' declares %llu elements of %zu bytes (%llu bytes in memory, chunks of %llu bytes): beyond the reader's bound of %llu bytes per dataset, chunks at most the dataset or 1 MiB",
			name, (unsigned long long)nelem, mem_esz,
			(unsigned long long)(nelem * mem_esz),
			(unsigned long long)chunk,
			(unsigned long long)IOS_H5_MAX_DATASET_BYTES);
	if (rc == -EBADMSG) {
		char x[48] = "";

		if (filtered)
			snprintf(x, sizeof(x), " (compressed, under 1/%d)",
				 IOS_H5_MAX_EXPANSION);
		return ios_h5_rfail(
			r, rc,
			"dataset '%s' declares %llu elements of %zu bytes (%llu bytes) but the file stores %llu bytes of them%s: unwritten or truncated data (the reader's bound: what the file stores, at most %llu bytes per dataset)",
			name, (unsigned long long)nelem, fesz,
			(unsigned long long)(nelem * fesz),
			(unsigned long long)stored, x,
			(unsigned long long)IOS_H5_MAX_DATASET_BYTES);
	}
	return 0;
}

/* Whether group [g] holds at least [n] members (a count attribute can
 * only promise what the file holds); 0 or -ERANGE with a message. */
int ios_h5r_count_bound(struct ios_h5_rctx *r, hid_t g, const char *what,
			long n)
{
	H5G_info_t info;

	if (H5Gget_info(g, &info) < 0)
		return ios_h5_rfail_h5(r, "group info");
	if ((hsize_t)n > info.nlinks)
		return ios_h5_rfail(r, -ERANGE,
				    "%s %ld, but the group holds %llu members",
				    what, n, (unsigned long long)info.nlinks);
	return 0;
}

int ios_h5r_attr_read_str(struct ios_h5_rctx *r, hid_t loc, const char *name,
			  char **out)
{
	hid_t a = H5Aopen(loc, name, H5P_DEFAULT), ft, mt;
	char *s = NULL;
	int rc = 0;

	*out = NULL;
	if (a < 0)
		return ios_h5_rfail(r, -EBADMSG, "missing attribute '%s'",
				    name);
	ft = H5Aget_type(a);
	if (H5Tget_class(ft) != H5T_STRING) {
		rc = ios_h5_rfail(r, -EBADMSG, "attribute '%s' is not a string",
				  name);
	} else if (H5Tis_variable_str(ft) > 0) {
		mt = ios_h5_str_type();
		if (H5Aread(a, mt, &s) < 0) {
			rc = ios_h5_rfail_h5(r, name);
		} else if (s && strlen(s) > IOS_H5_MAX_STRING) {
			rc = ios_h5_rfail(
				r, -EFBIG,
				"attribute '%s' is a string of %zu bytes, beyond the reader's bound of %u",
				name, strlen(s), IOS_H5_MAX_STRING);
			H5free_memory(s);
		} else {
			*out = strdup(s ? s : "");
			H5free_memory(s);
		}
		H5Tclose(mt);
	} else if (H5Tget_size(ft) > IOS_H5_MAX_STRING) {
		rc = ios_h5_rfail(
			r, -EFBIG,
			"attribute '%s' is a string of %zu bytes, beyond the reader's bound of %u",
			name, H5Tget_size(ft), IOS_H5_MAX_STRING);
	} else {
		size_t n = H5Tget_size(ft);

		s = calloc(1, n + 1);
		mt = ios_h5_fstr_type(n + 1);
		if (s && H5Aread(a, mt, s) >= 0)
			*out = s;
		else {
			free(s);
			rc = ios_h5_rfail_h5(r, name);
		}
		H5Tclose(mt);
	}
	if (!rc && !*out)
		rc = ios_h5_rfail(r, -ENOMEM, "%s", strerror(ENOMEM));
	H5Tclose(ft);
	H5Aclose(a);
	return rc;
}

int ios_h5r_read_attrs(struct ios_h5_rctx *r, hid_t loc, enum ios_h5_group g,
		       void *obj)
{
	for (size_t i = 0; i < ios_h5_nattrs; i++) {
		const struct ios_h5_attr_def *a = &ios_h5_attrs[i];
		char *p = (char *)obj + a->off;
		int rc = 0;

		if (a->group != g || a->is_const)
			continue;
		if (H5Aexists(loc, a->name) <= 0) {
			if (a->flags == IOS_H5_REQ)
				return ios_h5_rfail(r, -EBADMSG,
						    "missing attribute '%s'",
						    a->name);
			continue;
		}
		if (a->type == IOS_T_STR) {
			rc = ios_h5r_attr_read_str(r, loc, a->name, (char **)p);
		} else if (a->type == IOS_T_FSTR) {
			char *s;

			rc = ios_h5r_attr_read_str(r, loc, a->name, &s);
			if (!rc) {
				snprintf(p, a->size, "%s", s);
				free(s);
			}
		} else {
			hid_t at = H5Aopen(loc, a->name, H5P_DEFAULT);
			uint8_t b = 0;
			void *dst = a->type == IOS_T_BOOL ? (void *)&b : p;

			if (at < 0 ||
			    H5Aread(at, ios_h5_native_type(a->type), dst) < 0)
				rc = ios_h5_rfail(
					r, -EBADMSG,
					"attribute '%s' is not a number: %s",
					a->name, ios_h5_why(r->why));
			if (a->type == IOS_T_BOOL)
				*(bool *)p = b != 0;
			if (at >= 0)
				H5Aclose(at);
		}
		if (rc)
			return rc;
	}
	return 0;
}

/* Open dataset [name] and check its rank; dims returned in [dims]. */
hid_t ios_h5r_dset_open(struct ios_h5_rctx *r, hid_t loc, const char *name,
			int ndims, hsize_t *dims)
{
	hid_t d = H5Dopen2(loc, name, H5P_DEFAULT), sp;
	int nd;

	if (d < 0) {
		ios_h5_rfail(r, -EBADMSG, "missing dataset '%s'", name);
		return -1;
	}
	sp = H5Dget_space(d);
	nd = H5Sget_simple_extent_ndims(sp);
	if (nd != ndims) {
		ios_h5_rfail(r, -EBADMSG,
			     "dataset '%s' has %d dimensions, not %d", name, nd,
			     ndims);
		H5Sclose(sp);
		H5Dclose(d);
		return -1;
	}
	if (ndims > 0)
		H5Sget_simple_extent_dims(sp, dims, NULL);
	H5Sclose(sp);
	return d;
}

/* Read a 1-D compound dataset into a new array; *n gets its length. */
int ios_h5r_read_compound(struct ios_h5_rctx *r, hid_t loc, const char *name,
			  enum ios_h5_type c, void **out, size_t *n,
			  long expect)
{
	hsize_t dims[1];
	hid_t d = ios_h5r_dset_open(r, loc, name, 1, dims), mt, dxpl;
	size_t sz =
		c == IOS_T_KV ? sizeof(struct ios_kv) : ios_h5_compound_size(c);
	void *buf;
	int rc = 0;

	*out = NULL;
	*n = 0;
	if (d < 0)
		return r->err ? r->err->code : -EBADMSG;
	if (expect >= 0 && dims[0] != (hsize_t)expect) {
		H5Dclose(d);
		return ios_h5_rfail(r, -ERANGE,
				    "dataset '%s' has %llu rows, not %ld", name,
				    (unsigned long long)dims[0], expect);
	}
	if (dims[0] > IOS_H5_MAX_COUNT) {
		H5Dclose(d);
		return ios_h5_rfail(r, -EBADMSG, "dataset '%s' has %llu rows",
				    name, (unsigned long long)dims[0]);
	}
	if ((rc = ios_h5r_dset_bound(r, d, name, dims[0], sz))) {
		H5Dclose(d);
		return rc;
	}
	buf = calloc(dims[0] + 1, sz);
	if (!buf) {
		H5Dclose(d);
		return ios_h5_rfail(r, -ENOMEM, "%s", strerror(ENOMEM));
	}
	mt = ios_h5_compound_type(c);
	/* HDF5 allocates and clears a 1 MiB conversion buffer per compound
	 * read by default; size it to the data (1000-file reports).  It must
	 * hold one element as stored, and H5Tget_size() of the file type
	 * counts a variable-length string as a pointer (8 bytes) where the
	 * file has 16: twice the larger size, at least 4 KiB (a 1-row
	 * key/value table failed with 16 bytes). */
	{
		hid_t ft = H5Dget_type(d);
		size_t esz = H5Tget_size(ft) > sz ? H5Tget_size(ft) : sz,
		       tconv = 2 * esz * (dims[0] ? dims[0] : 1);

		H5Tclose(ft);
		dxpl = H5Pcreate(H5P_DATASET_XFER);
		H5Pset_buffer(dxpl, tconv > 4096 ? tconv : 4096, NULL, NULL);
	}
	if (dims[0] && H5Dread(d, mt, H5S_ALL, H5S_ALL, dxpl, buf) < 0) {
		rc = ios_h5_rfail(r, -EBADMSG,
				  "dataset '%s': %s (corrupt file?)", name,
				  ios_h5_why(r->why));
		free(buf);
		buf = NULL;
	}
	H5Pclose(dxpl);
	H5Tclose(mt);
	H5Dclose(d);
	*out = buf;
	*n = buf ? dims[0] : 0;
	return rc;
}

int ios_h5r_read_text(struct ios_h5_rctx *r, hid_t loc, const char *name,
		      char **out)
{
	hid_t d = ios_h5r_dset_open(r, loc, name, 0, NULL), t;
	char *s = NULL;
	int rc = 0;

	*out = NULL;
	if (d < 0)
		return r->err ? r->err->code : -EBADMSG;
	t = ios_h5_str_type();
	if (H5Dread(d, t, H5S_ALL, H5S_ALL, ios_h5_dxpl(), &s) < 0) {
		rc = ios_h5_rfail(r, -EBADMSG, "dataset '%s': %s", name,
				  ios_h5_why(r->why));
	} else {
		*out = strdup(s ? s : "");
		H5free_memory(s);
		if (!*out)
			rc = ios_h5_rfail(r, -ENOMEM, "%s", strerror(ENOMEM));
	}
	H5Tclose(t);
	H5Dclose(d);
	return rc;
}

/* Read a 2-D uint64 dataset of [rows] rows; *cols gets its width. */
int ios_h5r_read_u64_2d(struct ios_h5_rctx *r, hid_t loc, const char *name,
			hsize_t rows, long want_cols, uint64_t **out,
			hsize_t *cols)
{
	hsize_t dims[2];
	hid_t d = ios_h5r_dset_open(r, loc, name, 2, dims);
	int rc = 0;

	*out = NULL;
	if (d < 0)
		return r->err ? r->err->code : -EBADMSG;
	if (dims[0] != rows ||
	    (want_cols >= 0 && dims[1] != (hsize_t)want_cols) ||
	    dims[1] > (1u << 26)) {
		H5Dclose(d);
		return ios_h5_rfail(
			r, -ERANGE,
			"dataset '%s' is %llux%llu, expected %llu rows%s", name,
			(unsigned long long)dims[0],
			(unsigned long long)dims[1], (unsigned long long)rows,
			want_cols >= 0 ? " of the histogram width" : "");
	}
	if ((rc = ios_h5r_dset_bound(r, d, name, rows * dims[1],
				     sizeof(uint64_t)))) {
		H5Dclose(d);
		return rc;
	}
	*cols = dims[1];
	*out = calloc(rows * dims[1] + 1, sizeof(uint64_t));
	if (!*out)
		rc = ios_h5_rfail(r, -ENOMEM, "%s", strerror(ENOMEM));
	else if (rows * dims[1] != 0 &&
		 H5Dread(d, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, ios_h5_dxpl(),
			 *out) < 0) {
		rc = ios_h5_rfail(r, -EBADMSG,
				  "dataset '%s': %s (corrupt file?)", name,
				  ios_h5_why(r->why));
		free(*out);
		*out = NULL;
	}
	H5Dclose(d);
	return rc;
}
