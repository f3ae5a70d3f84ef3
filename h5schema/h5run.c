/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * h5run: the results file writer, reader and validator.  All three walk
 * the tables of schema.def (schema.c); only the data-shaped datasets
 * (histograms, samples, JSON trees) need code of their own.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hdf5.h>
#ifdef HAVE_JANSSON
#include <jansson.h>
#endif

#include "h5run.h"
#include "h5run_internal.h"
#include "schema.h"

#define MAX_COUNT (1 << 24) /* sanity bound on ranks, nodes, phases, reps */

int (*ios_h5_test_hook)(const char *step);
const char *ios_h5_test_tmp;
bool ios_h5_read_in_core;

/* ---- small HDF5 helpers --------------------------------------------- */

static void h5_quiet(void)
{
	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

static herr_t walk_cb(unsigned n, const H5E_error2_t *e, void *arg)
{
	char *buf = arg;

	(void)n;
	if (buf[0] == '\0' && e->desc && e->desc[0])
		snprintf(buf, 200, "%s", e->desc);
	return 0;
}

/* The innermost message of the current HDF5 error stack, or "". */
static const char *h5_why(char *buf)
{
	buf[0] = '\0';
	H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, walk_cb, buf);
	if (!buf[0])
		snprintf(buf, 200, "HDF5 error");
	return buf;
}

static hid_t str_type(void)
{
	hid_t t = H5Tcopy(H5T_C_S1);

	H5Tset_size(t, H5T_VARIABLE);
	H5Tset_cset(t, H5T_CSET_UTF8);
	return t;
}

static hid_t fstr_type(size_t n)
{
	hid_t t = H5Tcopy(H5T_C_S1);

	H5Tset_size(t, n);
	H5Tset_strpad(t, H5T_STR_NULLTERM);
	return t;
}

static hid_t native_type(enum ios_h5_type t)
{
	switch (t) {
	case IOS_T_I32:
		return H5T_NATIVE_INT32;
	case IOS_T_U32:
		return H5T_NATIVE_UINT32;
	case IOS_T_I64:
		return H5T_NATIVE_INT64;
	case IOS_T_U64:
		return H5T_NATIVE_UINT64;
	case IOS_T_U8:
	case IOS_T_BOOL:
		return H5T_NATIVE_UINT8;
	case IOS_T_F64:
		return H5T_NATIVE_DOUBLE;
	default:
		return -1;
	}
}

/* Memory compound type for a compound tag (close with H5Tclose). */
static hid_t compound_type(enum ios_h5_type c)
{
	hid_t t;

	if (c == IOS_T_KV) {
		hid_t s = str_type();

		t = H5Tcreate(H5T_COMPOUND, sizeof(struct ios_kv));
		H5Tinsert(t, "key", offsetof(struct ios_kv, key), s);
		H5Tinsert(t, "value", offsetof(struct ios_kv, value), s);
		H5Tclose(s);
		return t;
	}
	t = H5Tcreate(H5T_COMPOUND, ios_h5_compound_size(c));
	for (size_t i = 0; i < ios_h5_nmembers; i++) {
		const struct ios_h5_member_def *m = &ios_h5_members[i];

		if (m->compound != c)
			continue;
		if (m->type == IOS_T_FSTR) {
			hid_t s = fstr_type(m->size);

			H5Tinsert(t, m->name, m->off, s);
			H5Tclose(s);
		} else {
			H5Tinsert(t, m->name, m->off, native_type(m->type));
		}
	}
	return t;
}

static int is_compound_tag(enum ios_h5_type t)
{
	return ios_h5_compound_size(t) > 0 || t == IOS_T_KV;
}

/* ---- writer ---------------------------------------------------------- */

struct wctx {
	const char *path;
	struct ios_err *err;
	int rc;
	char why[256];
	hid_t src;  /* the file being replaced, for dropped histograms; or -1 */
	hid_t dxpl; /* every H5Dwrite: see writer_dxpl() */
};

static int wfail(struct wctx *w, const char *what)
{
	if (w->rc == 0) {
		w->rc = -EIO;
		ios_errf(w->err, -EIO, "h5schema: write %s: %s: %s", w->path,
			 what, h5_why(w->why));
	}
	return w->rc;
}

static int hook(struct wctx *w, const char *step)
{
	if (ios_h5_test_hook && ios_h5_test_hook(step)) {
		w->rc = -EIO;
		ios_errf(w->err, -EIO,
			 "h5schema: write %s: injected failure at %s", w->path,
			 step);
		return -EIO;
	}
	return 0;
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
		rc = wfail(w, name);
	if (a >= 0)
		H5Aclose(a);
	H5Sclose(sp);
	return rc;
}

static int attr_write_str(struct wctx *w, hid_t loc, const char *name,
			  const char *s)
{
	hid_t t = str_type();
	const char *v = s ? s : "";
	int rc = attr_write(w, loc, name, t, t, &v);

	H5Tclose(t);
	return rc;
}

static int attr_write_num(struct wctx *w, hid_t loc, const char *name,
			  enum ios_h5_type type, const void *p)
{
	hid_t nt = native_type(type);
	uint8_t b;

	if (type == IOS_T_BOOL) {
		b = *(const bool *)p ? 1 : 0;
		p = &b;
	}
	return attr_write(w, loc, name, nt, nt, p);
}

static const char *default_str(const char *name)
{
	if (!strcmp(name, "tool_version"))
		return PACKAGE_VERSION;
	if (!strcmp(name, "git_revision"))
		return IOSTRATA_GIT_REVISION;
	if (!strcmp(name, "build_options"))
		return IOSTRATA_CONFIGURE_ARGS;
	return "";
}

static int write_attrs(struct wctx *w, hid_t loc, enum ios_h5_group g,
		       const void *obj)
{
	for (size_t i = 0; i < ios_h5_nattrs; i++) {
		const struct ios_h5_attr_def *a = &ios_h5_attrs[i];
		const char *p = (const char *)obj + a->off;
		int rc = 0;

		if (a->group != g)
			continue;
		if (a->is_const) {
			if (!strcmp(a->name, "format")) {
				rc = attr_write_str(w, loc, a->name,
						    IOS_H5_FORMAT);
			} else if (!strcmp(a->name, "schema_version")) {
				int32_t v = IOS_SCHEMA_VERSION;

				rc = attr_write_num(w, loc, a->name, IOS_T_I32,
						    &v);
			} else if (!strcmp(a->name, "writer_version")) {
				rc = attr_write_str(
					w, loc, a->name,
					"libiostrata_h5 " PACKAGE_VERSION
					" (" IOSTRATA_GIT_REVISION ")");
			}
		} else if (a->type == IOS_T_STR) {
			const char *s = *(char *const *)p;

			if (!s && a->flags != IOS_H5_REQ)
				continue;
			rc = attr_write_str(w, loc, a->name,
					    s ? s : default_str(a->name));
		} else if (a->type == IOS_T_FSTR) {
			char buf[1024];

			snprintf(buf, sizeof(buf), "%.*s", (int)a->size, p);
			rc = attr_write_str(w, loc, a->name, buf);
		} else {
			rc = attr_write_num(w, loc, a->name, a->type, p);
		}
		if (rc)
			return rc;
	}
	return 0;
}

/* A 1-D compound dataset of [n] elements at [data]. */
static int write_compound(struct wctx *w, hid_t loc, const char *name,
			  enum ios_h5_type c, const void *data, size_t n)
{
	hsize_t dims[1] = {n};
	hid_t mt = compound_type(c), ft = H5Tcopy(mt), sp, d;
	int rc = 0;

	H5Tpack(ft);
	sp = H5Screate_simple(1, dims, NULL);
	d = H5Dcreate2(loc, name, ft, sp, H5P_DEFAULT, H5P_DEFAULT,
		       H5P_DEFAULT);
	if (d < 0 ||
	    (n && H5Dwrite(d, mt, H5S_ALL, H5S_ALL, w->dxpl, data) < 0))
		rc = wfail(w, name);
	if (d >= 0)
		H5Dclose(d);
	H5Sclose(sp);
	H5Tclose(ft);
	H5Tclose(mt);
	return rc;
}

static int write_text(struct wctx *w, hid_t loc, const char *name,
		      const char *s)
{
	hid_t t = str_type(), sp = H5Screate(H5S_SCALAR), d;
	const char *v = s ? s : "";
	int rc = 0;

	d = H5Dcreate2(loc, name, t, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	if (d < 0 || H5Dwrite(d, t, H5S_ALL, H5S_ALL, w->dxpl, &v) < 0)
		rc = wfail(w, name);
	if (d >= 0)
		H5Dclose(d);
	H5Sclose(sp);
	H5Tclose(t);
	return rc;
}

/* A 2-D [rows][cols] (or 1-D when cols == 0 means "1-D") numeric array. */
static int write_array(struct wctx *w, hid_t loc, const char *name, hid_t type,
		       int ndims, hsize_t rows, hsize_t cols, const void *data)
{
	hsize_t dims[2] = {rows, cols};
	hid_t sp = H5Screate_simple(ndims, dims, NULL);
	hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE), d;
	hid_t dapl = H5Pcreate(H5P_DATASET_ACCESS);
	int rc = 0;

	/* Written once, whole: no chunk cache (it would hold a copy of the
	 * data, up to 1 MiB per dataset, in the writer's peak memory). */
	H5Pset_chunk_cache(dapl, 0, 0, H5D_CHUNK_CACHE_W0_DEFAULT);
	if (ndims == 2 && rows > 0 && cols > 0) {
		/* Chunks of at most 64 KiB: the filters (shuffle, deflate)
		 * each take a chunk-sized buffer while writing, and this is
		 * rank 0's peak memory. */
		size_t esz = H5Tget_size(type);
		hsize_t c = cols < 4096 ? cols : 4096;
		hsize_t r = (hsize_t)(65536 / (esz ? esz : 8)) / c;
		hsize_t chunk[2] = {r < 1 ? 1 : (r < rows ? r : rows), c};

		H5Pset_chunk(dcpl, 2, chunk);
		H5Pset_shuffle(dcpl);
		H5Pset_deflate(dcpl, 1);
	}
	d = H5Dcreate2(loc, name, type, sp, H5P_DEFAULT, dcpl, dapl);
	if (d < 0 || (rows * (ndims == 2 ? cols : 1) > 0 &&
		      H5Dwrite(d, type, H5S_ALL, H5S_ALL, w->dxpl, data) < 0))
		rc = wfail(w, name);
	if (d >= 0)
		H5Dclose(d);
	H5Pclose(dapl);
	H5Pclose(dcpl);
	H5Sclose(sp);
	return rc;
}

static hid_t group_create(struct wctx *w, hid_t loc, const char *name,
			  int track_order)
{
	hid_t gcpl = H5Pcreate(H5P_GROUP_CREATE), g;

	if (track_order)
		H5Pset_link_creation_order(gcpl, H5P_CRT_ORDER_TRACKED |
							 H5P_CRT_ORDER_INDEXED);
	g = H5Gcreate2(loc, name, H5P_DEFAULT, gcpl, H5P_DEFAULT);
	H5Pclose(gcpl);
	if (g < 0)
		wfail(w, name);
	return g;
}

/* An HDF5 link or attribute name for a JSON key / option name. */
static void safe_name(char *out, size_t len, const char *in)
{
	size_t j = 0;

	for (size_t i = 0; in[i] && j + 1 < len; i++)
		out[j++] = in[i] == '/' ? '_' : in[i];
	out[j] = '\0';
	if (!strcmp(out, ".") || !out[0])
		snprintf(out, len, "_");
}

#ifdef HAVE_JANSSON
static int json_attr_array(struct wctx *w, hid_t g, const char *name,
			   json_t *arr)
{
	size_t n = json_array_size(arr), i;
	json_t *v;
	int all_str = 1, all_int = 1, all_num = 1, all_bool = 1, rc = 0;
	hsize_t dims[1] = {n};
	hid_t sp, a = -1, t = -1;
	void *buf = NULL;

	json_array_foreach(arr, i, v)
	{
		all_str &= json_is_string(v);
		all_int &= json_is_integer(v);
		all_num &= json_is_number(v);
		all_bool &= json_is_boolean(v);
	}
	if (n == 0) {
		sp = H5Screate(H5S_NULL);
		t = str_type();
		a = H5Acreate2(g, name, t, sp, H5P_DEFAULT, H5P_DEFAULT);
		if (a < 0)
			rc = wfail(w, name);
		goto out;
	}
	if (!all_str && !all_num && !all_bool) {
		char *s = json_dumps(arr, JSON_COMPACT);

		rc = attr_write_str(w, g, name, s);
		free(s);
		return rc;
	}
	sp = H5Screate_simple(1, dims, NULL);
	if (all_str) {
		const char **p = calloc(n, sizeof(*p));

		buf = p;
		t = str_type();
		json_array_foreach(arr, i, v) p[i] = json_string_value(v);
	} else if (all_int || all_bool) {
		int64_t *p = calloc(n, sizeof(*p));

		buf = p;
		t = H5Tcopy(all_bool ? H5T_NATIVE_UINT8 : H5T_NATIVE_INT64);
		json_array_foreach(arr, i, v) p[i] =
			all_bool ? json_is_true(v) : json_integer_value(v);
		if (all_bool) {
			uint8_t *b = (uint8_t *)p;

			for (i = 0; i < n; i++)
				b[i] = (uint8_t)p[i];
		}
	} else {
		double *p = calloc(n, sizeof(*p));

		buf = p;
		t = H5Tcopy(H5T_NATIVE_DOUBLE);
		json_array_foreach(arr, i, v) p[i] = json_number_value(v);
	}
	if (!buf) {
		rc = w->rc =
			ios_errf(w->err, -ENOMEM, "h5schema: write %s: %s: %s",
				 w->path, name, strerror(ENOMEM));
		goto out;
	}
	a = H5Acreate2(g, name, t, sp, H5P_DEFAULT, H5P_DEFAULT);
	if (a < 0 || H5Awrite(a, t, buf) < 0)
		rc = wfail(w, name);
out:
	free(buf);
	if (a >= 0)
		H5Aclose(a);
	if (t >= 0)
		H5Tclose(t);
	H5Sclose(sp);
	return rc;
}

static int json_to_group(struct wctx *w, hid_t g, json_t *obj, int depth);

static int json_member(struct wctx *w, hid_t g, const char *key, json_t *v,
		       int depth)
{
	char name[256];
	int rc = 0;

	safe_name(name, sizeof(name), key);
	if (H5Aexists(g, name) > 0 || H5Lexists(g, name, H5P_DEFAULT) > 0)
		return 0; /* sanitised names collided: keep the first */
	if (json_is_object(v)) {
		hid_t sub = group_create(w, g, name, 1);

		if (sub < 0)
			return w->rc;
		rc = json_to_group(w, sub, v, depth + 1);
		H5Gclose(sub);
	} else if (json_is_array(v)) {
		size_t i, n = json_array_size(v);
		json_t *e;
		int all_obj = n > 0;

		json_array_foreach(v, i, e) all_obj &= json_is_object(e);
		if (all_obj) {
			hid_t sub = group_create(w, g, name, 1);

			if (sub < 0)
				return w->rc;
			json_array_foreach(v, i, e)
			{
				char idx[32];

				snprintf(idx, sizeof(idx), "%zu", i);
				rc = json_member(w, sub, idx, e, depth + 1);
				if (rc)
					break;
			}
			H5Gclose(sub);
		} else {
			rc = json_attr_array(w, g, name, v);
		}
	} else if (json_is_string(v)) {
		rc = attr_write_str(w, g, name, json_string_value(v));
	} else if (json_is_integer(v)) {
		int64_t x = json_integer_value(v);

		rc = attr_write_num(w, g, name, IOS_T_I64, &x);
	} else if (json_is_real(v)) {
		double x = json_real_value(v);

		rc = attr_write_num(w, g, name, IOS_T_F64, &x);
	} else if (json_is_boolean(v)) {
		bool x = json_is_true(v);

		rc = attr_write_num(w, g, name, IOS_T_BOOL, &x);
	} else {
		rc = attr_write_str(w, g, name, "null");
	}
	return rc;
}

static int json_to_group(struct wctx *w, hid_t g, json_t *obj, int depth)
{
	const char *key;
	json_t *v;

	if (depth > 16)
		return attr_write_str(w, g, "truncated", "nesting too deep");
	json_object_foreach(obj, key, v)
	{
		int rc = json_member(w, g, key, v, depth);

		if (rc)
			return rc;
	}
	return 0;
}
#endif

/*
 * A JSON metadata group: the raw text as dataset raw_json, and, when the
 * text parses as a JSON object, its members as attributes and subgroups.
 */
static int write_json_group(struct wctx *w, hid_t loc, const char *name,
			    const char *json)
{
	hid_t g = group_create(w, loc, name, 1);
	int rc;

	if (g < 0)
		return w->rc;
	rc = write_text(w, g, "raw_json", json);
#ifdef HAVE_JANSSON
	if (!rc && json) {
		json_error_t jerr;
		json_t *root = json_loads(json, 0, &jerr);

		if (!root || !json_is_object(root)) {
			char msg[300];

			snprintf(msg, sizeof(msg), "line %d: %s", jerr.line,
				 root ? "not a JSON object" : jerr.text);
			rc = attr_write_str(w, g, "json_error", msg);
		} else {
			rc = json_to_group(w, g, root, 0);
		}
		json_decref(root);
	}
#endif
	H5Gclose(g);
	return rc;
}

static int write_rep(struct wctx *w, hid_t loc, int phase, int r,
		     const struct ios_rep_result *rep)
{
	char name[32];
	hid_t g;
	size_t nr = rep->nranks > 0 ? (size_t)rep->nranks : 0, maxns = 0;
	uint64_t *buf = NULL;
	int rc;

	snprintf(name, sizeof(name), "%d", r);
	g = group_create(w, loc, name, 0);
	if (g < 0)
		return w->rc;
	rc = write_attrs(w, g, IOS_G_REP, rep);
	if (!rc)
		rc = write_compound(w, g, "ranks", IOS_T_RANKRES, rep->ranks,
				    nr);
	if (!rc && !rep->lat_hist && rep->lat_hist_in_file) {
		/* dropped from memory after the last write: copy them over */
		char src[96];

		snprintf(src, sizeof(src), "phases/%d/reps/%d/lat_hist", phase,
			 r);
		if (w->src < 0 || H5Ocopy(w->src, src, g, "lat_hist",
					  H5P_DEFAULT, H5P_DEFAULT) < 0)
			rc = wfail(w,
				   "copy lat_hist from the file it replaces");
	} else if (!rc) {
		/* a run built without histograms gets zero counts */
		const uint64_t *h = rep->lat_hist;

		if (!h)
			h = buf =
				calloc(nr * IOS_LAT_BUCKETS + 1, sizeof(*buf));
		if (!h)
			rc = w->rc = ios_errf(w->err, -ENOMEM,
					      "h5schema: write %s: %s", w->path,
					      strerror(ENOMEM));
		else
			rc = write_array(w, g, "lat_hist", H5T_NATIVE_UINT64, 2,
					 nr, IOS_LAT_BUCKETS, h);
		free(buf);
		buf = NULL;
	}
	for (size_t i = 0; i < nr; i++)
		if (rep->ranks[i].nsamples > maxns)
			maxns = rep->ranks[i].nsamples;
	for (int k = 0; !rc && k < 2; k++) {
		buf = calloc(nr * maxns + 1, sizeof(*buf));
		if (!buf) {
			rc = w->rc = ios_errf(w->err, -ENOMEM,
					      "h5schema: write %s: %s", w->path,
					      strerror(ENOMEM));
			break;
		}
		for (size_t i = 0; i < nr; i++) {
			const uint64_t *src = k ? rep->ranks[i].sample_ops
						: rep->ranks[i].sample_bytes;

			if (src && rep->ranks[i].nsamples)
				memcpy(buf + i * maxns, src,
				       rep->ranks[i].nsamples * sizeof(*buf));
		}
		rc = write_array(w, g, k ? "sample_ops" : "sample_bytes",
				 H5T_NATIVE_UINT64, 2, nr, maxns, buf);
		free(buf);
		buf = NULL;
	}
	if (!rc)
		rc = write_compound(w, g, "errors", IOS_T_IOERR, rep->errors,
				    rep->errors ? rep->nerrors : 0);
	if (!rc)
		rc = write_array(w, g, "node_bw", H5T_NATIVE_DOUBLE, 1,
				 rep->node_bw && rep->nnodes > 0
					 ? (hsize_t)rep->nnodes
					 : 0,
				 0, rep->node_bw);
	H5Gclose(g);
	return rc;
}

static int write_body(struct wctx *w, hid_t f, const struct ios_run *run)
{
	hid_t g, sub;
	char name[256];
	int rc;

	if ((rc = write_attrs(w, f, IOS_G_ROOT, run)) || hook(w, "attrs"))
		return w->rc ? w->rc : rc;
	rc = write_compound(w, f, "ranks", IOS_T_RANKINFO, run->rank_info,
			    run->rank_info ? (size_t)run->nranks : 0);
	if (!rc && run->nlayers > 0 && run->layers)
		rc = write_compound(w, f, "layers", IOS_T_LAYER, run->layers,
				    (size_t)run->nlayers);
	if (!rc && run->nnet > 0 && run->net)
		rc = write_compound(w, f, "network", IOS_T_NETPAIR, run->net,
				    run->nnet);
	if (rc)
		return rc;

	/* /config */
	if ((g = group_create(w, f, "config", 0)) < 0)
		return w->rc;
	rc = write_compound(w, g, "options", IOS_T_KV, run->config,
			    run->config ? run->nconfig : 0);
	for (size_t i = 0; !rc && run->config && i < run->nconfig; i++) {
		if (!run->config[i].key)
			continue;
		safe_name(name, sizeof(name), run->config[i].key);
		if (H5Aexists(g, name) > 0)
			continue;
		rc = attr_write_str(w, g, name, run->config[i].value);
	}
	H5Gclose(g);
	if (rc || hook(w, "config"))
		return w->rc ? w->rc : rc;

	/* /nodes, /job, /ceph */
	if ((g = group_create(w, f, "nodes", 0)) < 0)
		return w->rc;
	for (int i = 0; !rc && i < run->nnodes; i++) {
		snprintf(name, sizeof(name), "%d", i);
		rc = write_json_group(
			w, g, name, run->node_json ? run->node_json[i] : NULL);
	}
	H5Gclose(g);
	if (!rc && run->job_json)
		rc = write_json_group(w, f, "job", run->job_json);
	if (!rc && run->ceph_json)
		rc = write_json_group(w, f, "ceph", run->ceph_json);
	if (rc || hook(w, "nodes"))
		return w->rc ? w->rc : rc;

	/* /attachments */
	if ((g = group_create(w, f, "attachments", 1)) < 0)
		return w->rc;
	for (size_t i = 0; !rc && run->attachments && i < run->nattach; i++) {
		const char *an = run->attachments[i].key;
		hid_t d;

		safe_name(name, sizeof(name), an ? an : "");
		for (int n = 2; H5Lexists(g, name, H5P_DEFAULT) > 0; n++) {
			char base[200];

			safe_name(base, sizeof(base), an ? an : "");
			snprintf(name, sizeof(name), "%s_%d", base, n);
		}
		rc = write_text(w, g, name, run->attachments[i].value);
		if (rc)
			break;
		d = H5Dopen2(g, name, H5P_DEFAULT);
		rc = d < 0 ? wfail(w, name)
			   : attr_write_str(w, d, "name", an ? an : "");
		if (d >= 0)
			H5Dclose(d);
	}
	H5Gclose(g);
	if (rc)
		return rc;

	/* /phases */
	if ((g = group_create(w, f, "phases", 0)) < 0)
		return w->rc;
	for (int k = 0; !rc && k < run->nphases; k++) {
		const struct ios_phase_result *ph = &run->phases[k];
		hid_t reps = -1;

		snprintf(name, sizeof(name), "%d", k);
		if ((sub = group_create(w, g, name, 0)) < 0) {
			rc = w->rc;
			break;
		}
		rc = write_attrs(w, sub, IOS_G_PHASE, ph);
		if (!rc && (reps = group_create(w, sub, "reps", 0)) >= 0) {
			for (int r = 0; !rc && r < ph->nreps; r++)
				rc = write_rep(w, reps, k, r, &ph->reps[r]);
			H5Gclose(reps);
		} else if (!rc) {
			rc = w->rc;
		}
		H5Gclose(sub);
	}
	H5Gclose(g);
	if (rc || hook(w, "phases"))
		return w->rc ? w->rc : rc;
	return 0;
}

static int check_run(const char *path, const struct ios_run *run,
		     struct ios_err *err)
{
	const char *bad = NULL;

	if (!run)
		bad = "run is NULL";
	else if (run->nranks < 0 || run->nranks > MAX_COUNT)
		bad = "nranks out of range";
	else if (run->nranks > 0 && !run->rank_info)
		bad = "rank_info is NULL";
	else if (run->nnodes < 0 || run->nnodes > MAX_COUNT)
		bad = "nnodes out of range";
	else if (run->nphases < 0 || (run->nphases > 0 && !run->phases))
		bad = "phases is NULL or nphases negative";
	else if (run->nconfig > 0 && !run->config)
		bad = "config is NULL";
	else if (run->nattach > 0 && !run->attachments)
		bad = "attachments is NULL";
	for (int k = 0; !bad && k < run->nphases; k++) {
		const struct ios_phase_result *ph = &run->phases[k];

		if (ph->nreps < 0 || (ph->nreps > 0 && !ph->reps))
			bad = "a phase has reps NULL or nreps negative";
		for (int r = 0; !bad && r < ph->nreps; r++) {
			const struct ios_rep_result *rep = &ph->reps[r];

			if (rep->nranks < 0 || (rep->nranks > 0 && !rep->ranks))
				bad = "a repetition has ranks NULL";
			else if (rep->nnodes < 0)
				bad = "a repetition has nnodes negative";
		}
	}
	if (bad)
		return ios_errf(err, -EINVAL, "h5schema: write %s: %s",
				path ? path : "(null)", bad);
	return 0;
}

/*
 * Transfer properties of every write (and of the reader's plain and text
 * datasets: a fresh isolated-reader child otherwise faults in two 1 MiB
 * buffers per file): type conversion in strips of 64 KiB
 * instead of HDF5's default two 1 MiB buffers per write call (conversion
 * and background), which HDF5 then keeps on its free lists: they were most
 * of the writer's peak memory, and the writer runs on rank 0.  The free
 * lists themselves are bounded too (set once, with the properties).
 */
static hid_t writer_dxpl(void)
{
	static hid_t dxpl = -1;

	if (dxpl >= 0)
		return dxpl;
	H5set_free_list_limits(256 * 1024, 64 * 1024, 256 * 1024, 64 * 1024,
			       256 * 1024, 64 * 1024);
	dxpl = H5Pcreate(H5P_DATASET_XFER);
	if (dxpl < 0 || H5Pset_buffer(dxpl, 64 * 1024, NULL, NULL) < 0)
		return H5P_DEFAULT;
	return dxpl;
}

/* Does a repetition rely on the file being replaced for its histograms? */
static bool needs_src(const struct ios_run *run)
{
	for (int k = 0; k < run->nphases; k++)
		for (int r = 0; r < run->phases[k].nreps; r++)
			if (!run->phases[k].reps[r].lat_hist &&
			    run->phases[k].reps[r].lat_hist_in_file)
				return true;
	return false;
}

static int fsync_dir(const char *path)
{
	char *copy = strdup(path);
	int fd, rc = 0;

	if (!copy)
		return -ENOMEM;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fsync(fd) < 0)
		rc = -errno;
	if (fd >= 0)
		close(fd);
	free(copy);
	return rc;
}

int ios_h5_write_run(const char *path, const struct ios_run *run,
		     struct ios_err *err)
{
	struct wctx w = {.path = path, .err = err, .src = -1};
	char *tmp = NULL;
	hid_t f = -1;
	int fd, rc;
	void *vfd = NULL;

	h5_quiet();
	w.dxpl = writer_dxpl();
	if ((rc = check_run(path, run, err)))
		return rc;
	if (!path || !path[0])
		return ios_errf(err, -EINVAL,
				"h5schema: write results: empty path");
	if (needs_src(run)) {
		w.src = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
		if (w.src < 0)
			return ios_errf(
				err, -EIO,
				"h5schema: write %s: latency histograms of earlier repetitions are only in that file, and it cannot be opened: %s",
				path, h5_why(w.why));
	}
	if (asprintf(&tmp, "%s.tmp.XXXXXX", path) < 0) {
		if (w.src >= 0)
			H5Fclose(w.src);
		return ios_errf(err, -ENOMEM, "h5schema: write %s: %s", path,
				strerror(ENOMEM));
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		rc = -errno;
		ios_errf(err, rc, "h5schema: create temporary file %s: %s", tmp,
			 strerror(-rc));
		if (w.src >= 0)
			H5Fclose(w.src);
		free(tmp);
		return rc;
	}
	/* mkstemp chose a fresh name, but HDF5 opens by name: drop the file
	 * and let HDF5 create it with O_EXCL (H5F_ACC_EXCL), so a link planted
	 * at that name in between (a shared, non-sticky directory) makes the
	 * create fail instead of being followed.  The mode is HDF5's 0666
	 * less the umask. */
	if (close(fd) < 0 || unlink(tmp) < 0) {
		rc = -errno;
		ios_errf(err, rc, "h5schema: write %s: %s", tmp, strerror(-rc));
		goto out_unlink;
	}
	ios_h5_test_tmp = tmp;
	if ((rc = hook(&w, "create")))
		goto out_unlink;
	f = H5Fcreate(tmp, H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT);
	if (f < 0) {
		rc = wfail(
			&w,
			"create HDF5 file (exclusively: is something planted at the temporary name?)");
		goto out_unlink;
	}
	if ((rc = write_body(&w, f, run)))
		goto out_close;
	if (H5Fflush(f, H5F_SCOPE_GLOBAL) < 0) {
		rc = wfail(&w, "flush");
		goto out_close;
	}
	if ((rc = hook(&w, "flush")))
		goto out_close;
	if (H5Fget_vfd_handle(f, H5P_DEFAULT, &vfd) < 0 || !vfd) {
		rc = wfail(&w, "get file descriptor");
		goto out_close;
	}
	if (fsync(*(int *)vfd) < 0) {
		rc = -errno;
		ios_errf(err, rc, "h5schema: fsync %s: %s", tmp, strerror(-rc));
		goto out_close;
	}
	if ((rc = hook(&w, "fsync")))
		goto out_close;
	if (H5Fclose(f) < 0) {
		f = -1;
		rc = wfail(&w, "close");
		goto out_unlink;
	}
	f = -1;
	if ((rc = hook(&w, "close")))
		goto out_unlink;
	if (w.src >= 0)
		H5Fclose(w.src);
	w.src = -1;
	if (rename(tmp, path) < 0) {
		rc = -errno;
		ios_errf(err, rc, "h5schema: rename %s to %s: %s", tmp, path,
			 strerror(-rc));
		goto out_unlink;
	}
	if ((rc = fsync_dir(path)) < 0) {
		ios_errf(err, rc, "h5schema: fsync directory of %s: %s", path,
			 strerror(-rc));
		free(tmp);
		return rc; /* the file is complete; only durability unsure */
	}
	free(tmp);
	/* HDF5 keeps freed blocks on its own free lists: give them back, so a
	 * writer called once per repetition does not grow with the run. */
	H5garbage_collect();
	return 0;

out_close:
	H5Fclose(f);
out_unlink:
	if (w.src >= 0)
		H5Fclose(w.src);
	unlink(tmp);
	free(tmp);
	return rc;
}

/* ---- reader ---------------------------------------------------------- */

struct rctx {
	const char *path;
	struct ios_err *err;
	char why[256];
	char obj[256]; /* object being read, for messages */
};

static int rfail(struct rctx *r, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int rfail(struct rctx *r, int code, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return ios_errf(r->err, code, "h5schema: read %s: %s%s%s", r->path,
			r->obj, r->obj[0] ? ": " : "", msg);
}

static int rfail_h5(struct rctx *r, const char *what)
{
	return rfail(r, -EBADMSG, "%s: %s (corrupt file?)", what,
		     h5_why(r->why));
}

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
static int dset_bound(struct rctx *r, hid_t d, const char *name, uint64_t nelem,
		      size_t mem_esz)
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
		return rfail(
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
		return rfail(
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
 * only promise what the file holds); 0 or -EBADMSG with a message. */
static int count_bound(struct rctx *r, hid_t g, const char *what, long n)
{
	H5G_info_t info;

	if (H5Gget_info(g, &info) < 0)
		return rfail_h5(r, "group info");
	if ((hsize_t)n > info.nlinks)
		return rfail(r, -EBADMSG,
			     "%s %ld, but the group holds %llu members", what,
			     n, (unsigned long long)info.nlinks);
	return 0;
}

static int attr_read_str(struct rctx *r, hid_t loc, const char *name,
			 char **out)
{
	hid_t a = H5Aopen(loc, name, H5P_DEFAULT), ft, mt;
	char *s = NULL;
	int rc = 0;

	*out = NULL;
	if (a < 0)
		return rfail(r, -EBADMSG, "missing attribute '%s'", name);
	ft = H5Aget_type(a);
	if (H5Tget_class(ft) != H5T_STRING) {
		rc = rfail(r, -EBADMSG, "attribute '%s' is not a string", name);
	} else if (H5Tis_variable_str(ft) > 0) {
		mt = str_type();
		if (H5Aread(a, mt, &s) < 0) {
			rc = rfail_h5(r, name);
		} else if (s && strlen(s) > IOS_H5_MAX_STRING) {
			rc = rfail(
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
		rc = rfail(
			r, -EFBIG,
			"attribute '%s' is a string of %zu bytes, beyond the reader's bound of %u",
			name, H5Tget_size(ft), IOS_H5_MAX_STRING);
	} else {
		size_t n = H5Tget_size(ft);

		s = calloc(1, n + 1);
		mt = fstr_type(n + 1);
		if (s && H5Aread(a, mt, s) >= 0)
			*out = s;
		else {
			free(s);
			rc = rfail_h5(r, name);
		}
		H5Tclose(mt);
	}
	if (!rc && !*out)
		rc = rfail(r, -ENOMEM, "%s", strerror(ENOMEM));
	H5Tclose(ft);
	H5Aclose(a);
	return rc;
}

static int read_attrs(struct rctx *r, hid_t loc, enum ios_h5_group g, void *obj)
{
	for (size_t i = 0; i < ios_h5_nattrs; i++) {
		const struct ios_h5_attr_def *a = &ios_h5_attrs[i];
		char *p = (char *)obj + a->off;
		int rc = 0;

		if (a->group != g || a->is_const)
			continue;
		if (H5Aexists(loc, a->name) <= 0) {
			if (a->flags == IOS_H5_REQ)
				return rfail(r, -EBADMSG,
					     "missing attribute '%s'", a->name);
			continue;
		}
		if (a->type == IOS_T_STR) {
			rc = attr_read_str(r, loc, a->name, (char **)p);
		} else if (a->type == IOS_T_FSTR) {
			char *s;

			rc = attr_read_str(r, loc, a->name, &s);
			if (!rc) {
				snprintf(p, a->size, "%s", s);
				free(s);
			}
		} else {
			hid_t at = H5Aopen(loc, a->name, H5P_DEFAULT);
			uint8_t b = 0;
			void *dst = a->type == IOS_T_BOOL ? (void *)&b : p;

			if (at < 0 ||
			    H5Aread(at, native_type(a->type), dst) < 0)
				rc = rfail(r, -EBADMSG,
					   "attribute '%s' is not a number: %s",
					   a->name, h5_why(r->why));
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
static hid_t dset_open(struct rctx *r, hid_t loc, const char *name, int ndims,
		       hsize_t *dims)
{
	hid_t d = H5Dopen2(loc, name, H5P_DEFAULT), sp;
	int nd;

	if (d < 0) {
		rfail(r, -EBADMSG, "missing dataset '%s'", name);
		return -1;
	}
	sp = H5Dget_space(d);
	nd = H5Sget_simple_extent_ndims(sp);
	if (nd != ndims) {
		rfail(r, -EBADMSG, "dataset '%s' has %d dimensions, not %d",
		      name, nd, ndims);
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
static int read_compound(struct rctx *r, hid_t loc, const char *name,
			 enum ios_h5_type c, void **out, size_t *n, long expect)
{
	hsize_t dims[1];
	hid_t d = dset_open(r, loc, name, 1, dims), mt, dxpl;
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
		return rfail(r, -EBADMSG, "dataset '%s' has %llu rows, not %ld",
			     name, (unsigned long long)dims[0], expect);
	}
	if (dims[0] > MAX_COUNT) {
		H5Dclose(d);
		return rfail(r, -EBADMSG, "dataset '%s' has %llu rows", name,
			     (unsigned long long)dims[0]);
	}
	if ((rc = dset_bound(r, d, name, dims[0], sz))) {
		H5Dclose(d);
		return rc;
	}
	buf = calloc(dims[0] + 1, sz);
	if (!buf) {
		H5Dclose(d);
		return rfail(r, -ENOMEM, "%s", strerror(ENOMEM));
	}
	mt = compound_type(c);
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
		rc = rfail(r, -EBADMSG, "dataset '%s': %s (corrupt file?)",
			   name, h5_why(r->why));
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

static int read_text(struct rctx *r, hid_t loc, const char *name, char **out)
{
	hid_t d = dset_open(r, loc, name, 0, NULL), t;
	char *s = NULL;
	int rc = 0;

	*out = NULL;
	if (d < 0)
		return r->err ? r->err->code : -EBADMSG;
	t = str_type();
	if (H5Dread(d, t, H5S_ALL, H5S_ALL, writer_dxpl(), &s) < 0) {
		rc = rfail(r, -EBADMSG, "dataset '%s': %s", name,
			   h5_why(r->why));
	} else {
		*out = strdup(s ? s : "");
		H5free_memory(s);
		if (!*out)
			rc = rfail(r, -ENOMEM, "%s", strerror(ENOMEM));
	}
	H5Tclose(t);
	H5Dclose(d);
	return rc;
}

/* Read a 2-D uint64 dataset of [rows] rows; *cols gets its width. */
static int read_u64_2d(struct rctx *r, hid_t loc, const char *name,
		       hsize_t rows, long want_cols, uint64_t **out,
		       hsize_t *cols)
{
	hsize_t dims[2];
	hid_t d = dset_open(r, loc, name, 2, dims);
	int rc = 0;

	*out = NULL;
	if (d < 0)
		return r->err ? r->err->code : -EBADMSG;
	if (dims[0] != rows ||
	    (want_cols >= 0 && dims[1] != (hsize_t)want_cols) ||
	    dims[1] > (1u << 26)) {
		H5Dclose(d);
		return rfail(r, -EBADMSG,
			     "dataset '%s' is %llux%llu, expected %llu rows%s",
			     name, (unsigned long long)dims[0],
			     (unsigned long long)dims[1],
			     (unsigned long long)rows,
			     want_cols >= 0 ? " of the histogram width" : "");
	}
	if ((rc = dset_bound(r, d, name, rows * dims[1], sizeof(uint64_t)))) {
		H5Dclose(d);
		return rc;
	}
	*cols = dims[1];
	*out = calloc(rows * dims[1] + 1, sizeof(uint64_t));
	if (!*out)
		rc = rfail(r, -ENOMEM, "%s", strerror(ENOMEM));
	else if (rows * dims[1] != 0 &&
		 H5Dread(d, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, writer_dxpl(),
			 *out) < 0) {
		rc = rfail(r, -EBADMSG, "dataset '%s': %s (corrupt file?)",
			   name, h5_why(r->why));
		free(*out);
		*out = NULL;
	}
	H5Dclose(d);
	return rc;
}

static int read_rep(struct rctx *r, hid_t g, struct ios_rep_result *rep)
{
	size_t n;
	void *p;
	uint64_t *buf = NULL;
	hsize_t cols, dims[1];
	hid_t d;
	int rc;

	if ((rc = read_attrs(r, g, IOS_G_REP, rep)))
		return rc;
	if (rep->nranks < 0 || rep->nranks > MAX_COUNT || rep->nnodes < 0 ||
	    rep->nnodes > MAX_COUNT)
		return rfail(r, -EBADMSG, "nranks %d or nnodes %d out of range",
			     rep->nranks, rep->nnodes);
	if ((rc = read_compound(r, g, "ranks", IOS_T_RANKRES, &p, &n,
				rep->nranks)))
		return rc;
	rep->ranks = p;
	if ((rc = read_u64_2d(r, g, "lat_hist", n, IOS_LAT_BUCKETS, &buf,
			      &cols)))
		return rc;
	rep->lat_hist = buf;
	buf = NULL;
	for (int k = 0; k < 2; k++) {
		rc = read_u64_2d(r, g, k ? "sample_ops" : "sample_bytes", n, -1,
				 &buf, &cols);
		if (rc)
			return rc;
		for (size_t i = 0; i < n; i++) {
			struct ios_rank_result *rr = &rep->ranks[i];
			uint64_t **dst =
				k ? &rr->sample_ops : &rr->sample_bytes;

			*dst = NULL;
			if (rr->nsamples > cols) {
				free(buf);
				return rfail(
					r, -EBADMSG,
					"rank %zu has %u samples, the dataset only %llu",
					i, rr->nsamples,
					(unsigned long long)cols);
			}
			if (!rr->nsamples)
				continue;
			*dst = malloc(rr->nsamples * sizeof(uint64_t));
			if (!*dst) {
				free(buf);
				return rfail(r, -ENOMEM, "%s",
					     strerror(ENOMEM));
			}
			memcpy(*dst, buf + i * cols,
			       rr->nsamples * sizeof(uint64_t));
		}
		free(buf);
		buf = NULL;
	}
	if ((rc = read_compound(r, g, "errors", IOS_T_IOERR, &p, &n, -1)))
		return rc;
	rep->errors = p;
	rep->nerrors = n;
	d = dset_open(r, g, "node_bw", 1, dims);
	if (d < 0)
		return r->err ? r->err->code : -EBADMSG;
	if (dims[0] != (hsize_t)rep->nnodes) {
		H5Dclose(d);
		return rfail(r, -EBADMSG, "node_bw has %llu entries, not %d",
			     (unsigned long long)dims[0], rep->nnodes);
	}
	if ((rc = dset_bound(r, d, "node_bw", dims[0], sizeof(double)))) {
		H5Dclose(d);
		return rc;
	}
	rep->node_bw = calloc(dims[0] + 1, sizeof(double));
	if (!rep->node_bw)
		rc = rfail(r, -ENOMEM, "%s", strerror(ENOMEM));
	else if (dims[0] && H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL,
				    writer_dxpl(), rep->node_bw) < 0)
		rc = rfail(r, -EBADMSG, "node_bw: %s", h5_why(r->why));
	H5Dclose(d);
	return rc;
}

struct attach_it {
	struct rctx *r;
	struct ios_run *run;
	size_t cap;
	int rc;
};

static herr_t attach_cb(hid_t g, const char *name, const H5L_info_t *info,
			void *arg)
{
	struct attach_it *it = arg;
	struct ios_kv *kv;
	hid_t d;
	char *text = NULL, *an = NULL;

	(void)info;
	if (it->run->nattach == it->cap) {
		size_t cap = it->cap ? it->cap * 2 : 4;
		void *p = realloc(it->run->attachments, cap * sizeof(*kv));

		if (!p) {
			it->rc = rfail(it->r, -ENOMEM, "%s", strerror(ENOMEM));
			return -1;
		}
		it->run->attachments = p;
		it->cap = cap;
	}
	if ((it->rc = read_text(it->r, g, name, &text)))
		return -1;
	d = H5Dopen2(g, name, H5P_DEFAULT);
	if (d >= 0 && H5Aexists(d, "name") > 0)
		attr_read_str(it->r, d, "name", &an);
	if (d >= 0)
		H5Dclose(d);
	kv = &it->run->attachments[it->run->nattach++];
	kv->key = an ? an : strdup(name);
	kv->value = text;
	return 0;
}

/* sec2 (the default), or the core driver when ios_h5_read_in_core. */
static hid_t reader_fapl(void)
{
	static hid_t core = -1;

	if (!ios_h5_read_in_core)
		return H5P_DEFAULT;
	if (core < 0) {
		core = H5Pcreate(H5P_FILE_ACCESS);
		if (core >= 0 && H5Pset_fapl_core(core, 1 << 20, 0) < 0) {
			H5Pclose(core);
			core = -1;
		}
	}
	return core >= 0 ? core : H5P_DEFAULT;
}

static int open_file(struct rctx *r, hid_t *out)
{
	struct stat st;
	hid_t f;
	htri_t is;
	int32_t ver = 0;
	char *fmt = NULL;
	int rc;

	*out = -1;
	if (stat(r->path, &st) < 0) {
		rc = -errno;
		return ios_errf(r->err, rc, "h5schema: read %s: %s", r->path,
				strerror(-rc));
	}
	if (!S_ISREG(st.st_mode))
		return ios_errf(r->err, -EBADMSG,
				"h5schema: read %s: not a regular file",
				r->path);
	if (access(r->path, R_OK) < 0) {
		rc = -errno;
		return ios_errf(r->err, rc, "h5schema: read %s: %s", r->path,
				strerror(-rc));
	}
	is = H5Fis_hdf5(r->path);
	if (is <= 0)
		return ios_errf(
			r->err, -EBADMSG,
			"h5schema: read %s: not an HDF5 file (no HDF5 signature; an empty, truncated or foreign file)",
			r->path);
	f = H5Fopen(r->path, H5F_ACC_RDONLY, reader_fapl());
	if (f < 0)
		return ios_errf(
			r->err, -EBADMSG,
			"h5schema: read %s: cannot open as HDF5 (truncated or corrupt file): %s",
			r->path, h5_why(r->why));
	if (H5Aexists(f, "format") <= 0 ||
	    attr_read_str(r, f, "format", &fmt) ||
	    strcmp(fmt, IOS_H5_FORMAT) != 0) {
		free(fmt);
		H5Fclose(f);
		return ios_errf(
			r->err, -ENOMSG,
			"h5schema: read %s: an HDF5 file, but not an iostrata results file (no root attribute format=\"%s\")",
			r->path, IOS_H5_FORMAT);
	}
	free(fmt);
	{
		hid_t a = H5Aopen(f, "schema_version", H5P_DEFAULT);

		if (a < 0 || H5Aread(a, H5T_NATIVE_INT32, &ver) < 0)
			ver = -1;
		if (a >= 0)
			H5Aclose(a);
	}
	if (ver < 1) {
		H5Fclose(f);
		return ios_errf(
			r->err, -EBADMSG,
			"h5schema: read %s: missing or bad schema_version attribute",
			r->path);
	}
	if (ver > IOS_SCHEMA_VERSION) {
		H5Fclose(f);
		return ios_errf(
			r->err, -EPROTONOSUPPORT,
			"h5schema: read %s: schema version %d is newer than this tool reads (up to %d); update iostrata",
			r->path, ver, IOS_SCHEMA_VERSION);
	}
	*out = f;
	return 0;
}

static int read_body(struct rctx *r, hid_t f, struct ios_run *run)
{
	void *p;
	size_t n;
	hid_t g, sub;
	char name[64];
	int rc;

	snprintf(r->obj, sizeof(r->obj), "/");
	if ((rc = read_attrs(r, f, IOS_G_ROOT, run)))
		return rc;
	if (run->nranks < 0 || run->nranks > MAX_COUNT || run->nnodes < 0 ||
	    run->nnodes > MAX_COUNT || run->nphases < 0 ||
	    run->nphases > MAX_COUNT)
		return rfail(r, -EBADMSG,
			     "nranks %d, nnodes %d or nphases %d out of range",
			     run->nranks, run->nnodes, run->nphases);
	if ((rc = read_compound(r, f, "ranks", IOS_T_RANKINFO, &p, &n,
				run->nranks)))
		return rc;
	run->rank_info = p;
	if (H5Lexists(f, "layers", H5P_DEFAULT) > 0) {
		if ((rc = read_compound(r, f, "layers", IOS_T_LAYER, &p, &n,
					-1)))
			return rc;
		run->layers = p;
		run->nlayers = (int32_t)n;
	}
	if (H5Lexists(f, "network", H5P_DEFAULT) > 0) {
		if ((rc = read_compound(r, f, "network", IOS_T_NETPAIR, &p, &n,
					-1)))
			return rc;
		run->net = p;
		run->nnet = n;
	}

	snprintf(r->obj, sizeof(r->obj), "/config");
	if ((g = H5Gopen2(f, "config", H5P_DEFAULT)) < 0)
		return rfail(r, -EBADMSG, "missing group");
	rc = read_compound(r, g, "options", IOS_T_KV, &p, &n, -1);
	H5Gclose(g);
	if (rc)
		return rc;
	run->config = p;
	run->nconfig = n;
	for (size_t i = 0; i < n; i++) {
		/* replace HDF5-allocated strings by our own */
		char *k = run->config[i].key, *v = run->config[i].value;

		run->config[i].key = strdup(k ? k : "");
		run->config[i].value = strdup(v ? v : "");
		H5free_memory(k);
		H5free_memory(v);
		if (!run->config[i].key || !run->config[i].value)
			return rfail(r, -ENOMEM, "%s", strerror(ENOMEM));
	}

	snprintf(r->obj, sizeof(r->obj), "/nodes");
	if ((g = H5Gopen2(f, "nodes", H5P_DEFAULT)) < 0)
		return rfail(r, -EBADMSG, "missing group");
	if ((rc = count_bound(r, g, "nnodes", run->nnodes))) {
		H5Gclose(g);
		return rc;
	}
	run->node_json = calloc((size_t)run->nnodes + 1, sizeof(char *));
	if (!run->node_json) {
		H5Gclose(g);
		return rfail(r, -ENOMEM, "%s", strerror(ENOMEM));
	}
	for (int i = 0; i < run->nnodes; i++) {
		snprintf(name, sizeof(name), "%d", i);
		snprintf(r->obj, sizeof(r->obj), "/nodes/%d", i);
		if ((sub = H5Gopen2(g, name, H5P_DEFAULT)) < 0) {
			H5Gclose(g);
			return rfail(r, -EBADMSG, "missing group");
		}
		rc = read_text(r, sub, "raw_json", &run->node_json[i]);
		H5Gclose(sub);
		if (rc) {
			H5Gclose(g);
			return rc;
		}
	}
	H5Gclose(g);
	for (int k = 0; k < 2; k++) {
		const char *gn = k ? "ceph" : "job";

		if (H5Lexists(f, gn, H5P_DEFAULT) <= 0)
			continue;
		snprintf(r->obj, sizeof(r->obj), "/%s", gn);
		if ((g = H5Gopen2(f, gn, H5P_DEFAULT)) < 0)
			return rfail(r, -EBADMSG, "cannot open group");
		rc = read_text(r, g, "raw_json",
			       k ? &run->ceph_json : &run->job_json);
		H5Gclose(g);
		if (rc)
			return rc;
	}

	snprintf(r->obj, sizeof(r->obj), "/attachments");
	if ((g = H5Gopen2(f, "attachments", H5P_DEFAULT)) < 0)
		return rfail(r, -EBADMSG, "missing group");
	{
		struct attach_it it = {.r = r, .run = run};
		hid_t gcpl = H5Gget_create_plist(g);
		unsigned flags = 0;

		H5Pget_link_creation_order(gcpl, &flags);
		H5Pclose(gcpl);
		H5Literate(g,
			   (flags & H5P_CRT_ORDER_INDEXED) ? H5_INDEX_CRT_ORDER
							   : H5_INDEX_NAME,
			   H5_ITER_INC, NULL, attach_cb, &it);
		H5Gclose(g);
		if (it.rc)
			return it.rc;
	}

	snprintf(r->obj, sizeof(r->obj), "/phases");
	if ((g = H5Gopen2(f, "phases", H5P_DEFAULT)) < 0)
		return rfail(r, -EBADMSG, "missing group");
	if ((rc = count_bound(r, g, "nphases", run->nphases))) {
		H5Gclose(g);
		return rc;
	}
	run->phases = calloc((size_t)run->nphases + 1, sizeof(*run->phases));
	if (!run->phases) {
		H5Gclose(g);
		return rfail(r, -ENOMEM, "%s", strerror(ENOMEM));
	}
	for (int k = 0; !rc && k < run->nphases; k++) {
		struct ios_phase_result *ph = &run->phases[k];
		int nreps;
		hid_t reps = -1;

		snprintf(name, sizeof(name), "%d", k);
		snprintf(r->obj, sizeof(r->obj), "/phases/%d", k);
		if ((sub = H5Gopen2(g, name, H5P_DEFAULT)) < 0) {
			rc = rfail(r, -EBADMSG, "missing group");
			break;
		}
		rc = read_attrs(r, sub, IOS_G_PHASE, ph);
		nreps = ph->nreps;
		ph->nreps = 0; /* counts the reps read, for ios_run_free */
		if (!rc && (nreps < 0 || nreps > MAX_COUNT))
			rc = rfail(r, -EBADMSG, "nreps %d out of range", nreps);
		if (!rc && (reps = H5Gopen2(sub, "reps", H5P_DEFAULT)) < 0)
			rc = rfail(r, -EBADMSG, "missing group 'reps'");
		if (!rc)
			rc = count_bound(r, reps, "nreps", nreps);
		if (!rc &&
		    !(ph->reps = calloc((size_t)nreps + 1, sizeof(*ph->reps))))
			rc = rfail(r, -ENOMEM, "%s", strerror(ENOMEM));
		for (int i = 0; !rc && i < nreps; i++) {
			hid_t rg;

			snprintf(name, sizeof(name), "%d", i);
			snprintf(r->obj, sizeof(r->obj), "/phases/%d/reps/%d",
				 k, i);
			if ((rg = H5Gopen2(reps, name, H5P_DEFAULT)) < 0) {
				rc = rfail(r, -EBADMSG, "missing group");
				break;
			}
			ph->nreps++;
			rc = read_rep(r, rg, &ph->reps[i]);
			H5Gclose(rg);
		}
		if (reps >= 0)
			H5Gclose(reps);
		H5Gclose(sub);
	}
	H5Gclose(g);
	r->obj[0] = '\0';
	return rc;
}

int ios_h5_read_run(const char *path, struct ios_run **out, struct ios_err *err)
{
	struct rctx r = {.path = path, .err = err};
	struct ios_run *run;
	hid_t f;
	int rc;

	h5_quiet();
	*out = NULL;
	if ((rc = open_file(&r, &f)))
		return rc;
	run = calloc(1, sizeof(*run));
	if (!run) {
		H5Fclose(f);
		return ios_errf(err, -ENOMEM, "h5schema: read %s: %s", path,
				strerror(ENOMEM));
	}
	rc = read_body(&r, f, run);
	if (H5Fclose(f) < 0 && !rc)
		rc = rfail_h5(&r, "close");
	if (rc) {
		ios_run_free(run);
		return rc;
	}
	ios_run_sanitize_text(run); /* another user's text, printed by root */
	*out = run;
	return 0;
}

/* ---- validator ------------------------------------------------------- */

static int class_ok(hid_t t, enum ios_h5_type want)
{
	H5T_class_t c = H5Tget_class(t);

	switch (want) {
	case IOS_T_STR:
	case IOS_T_FSTR:
	case IOS_T_TEXT:
		return c == H5T_STRING;
	case IOS_T_F64:
	case IOS_T_F64_1D:
		return c == H5T_FLOAT;
	case IOS_T_I32:
	case IOS_T_U32:
	case IOS_T_I64:
	case IOS_T_U64:
	case IOS_T_U8:
	case IOS_T_BOOL:
	case IOS_T_U64_2D:
		return c == H5T_INTEGER;
	default:
		return c == H5T_COMPOUND;
	}
}

static int check_compound(struct rctx *r, hid_t ft, const char *dname,
			  enum ios_h5_type c)
{
	if (c == IOS_T_KV) {
		if (H5Tget_member_index(ft, "key") < 0 ||
		    H5Tget_member_index(ft, "value") < 0)
			return rfail(r, -EBADMSG,
				     "dataset '%s' lacks member key or value",
				     dname);
		return 0;
	}
	for (size_t i = 0; i < ios_h5_nmembers; i++) {
		const struct ios_h5_member_def *m = &ios_h5_members[i];
		int idx;
		hid_t mt;
		int ok;

		if (m->compound != c)
			continue;
		idx = H5Tget_member_index(ft, m->name);
		if (idx < 0)
			return rfail(r, -EBADMSG,
				     "dataset '%s' lacks member '%s'", dname,
				     m->name);
		mt = H5Tget_member_type(ft, (unsigned)idx);
		ok = class_ok(mt, m->type);
		H5Tclose(mt);
		if (!ok)
			return rfail(
				r, -EBADMSG,
				"dataset '%s' member '%s' is not of type %s",
				dname, m->name, ios_h5_type_name(m->type));
	}
	return 0;
}

static int check_group(struct rctx *r, hid_t g, enum ios_h5_group gid)
{
	for (size_t i = 0; i < ios_h5_nattrs; i++) {
		const struct ios_h5_attr_def *a = &ios_h5_attrs[i];
		hid_t at, t;
		int ok;

		if (a->group != gid)
			continue;
		if (H5Aexists(g, a->name) <= 0) {
			if (a->flags == IOS_H5_REQ)
				return rfail(r, -EBADMSG,
					     "missing attribute '%s'", a->name);
			continue;
		}
		at = H5Aopen(g, a->name, H5P_DEFAULT);
		t = H5Aget_type(at);
		ok = class_ok(t, a->type);
		H5Tclose(t);
		H5Aclose(at);
		if (!ok)
			return rfail(r, -EBADMSG,
				     "attribute '%s' is not of type %s",
				     a->name, ios_h5_type_name(a->type));
	}
	for (size_t i = 0; i < ios_h5_ndsets; i++) {
		const struct ios_h5_dset_def *ds = &ios_h5_dsets[i];
		hid_t d, t;
		int rc = 0;

		if (ds->group != gid)
			continue;
		if (H5Lexists(g, ds->name, H5P_DEFAULT) <= 0) {
			if (ds->flags == IOS_H5_REQ)
				return rfail(r, -EBADMSG,
					     "missing dataset '%s'", ds->name);
			continue;
		}
		d = H5Dopen2(g, ds->name, H5P_DEFAULT);
		if (d < 0)
			return rfail(r, -EBADMSG, "'%s' is not a dataset",
				     ds->name);
		t = H5Dget_type(d);
		if (!class_ok(t, ds->type))
			rc = rfail(r, -EBADMSG,
				   "dataset '%s' is not of type %s", ds->name,
				   ios_h5_type_name(ds->type));
		else if (is_compound_tag(ds->type))
			rc = check_compound(r, t, ds->name, ds->type);
		H5Tclose(t);
		H5Dclose(d);
		if (rc)
			return rc;
	}
	return 0;
}

static int read_count(hid_t g, const char *attr, long *n)
{
	hid_t a = H5Aopen(g, attr, H5P_DEFAULT);
	int64_t v = -1;

	if (a < 0)
		return -1;
	if (H5Aread(a, H5T_NATIVE_INT64, &v) < 0)
		v = -1;
	H5Aclose(a);
	*n = (long)v;
	return v < 0 || v > MAX_COUNT ? -1 : 0;
}

/* Check group [gid] under [parent] (all its instances), then its children. */
static int check_tree(struct rctx *r, hid_t parent, const char *ppath,
		      enum ios_h5_group gid)
{
	const struct ios_h5_group_def *gd = &ios_h5_groups[gid];
	long n = 1;
	int rc = 0;

	if (gd->count_attr && read_count(parent, gd->count_attr, &n) < 0) {
		snprintf(r->obj, sizeof(r->obj), "%s", ppath);
		return rfail(r, -EBADMSG, "missing or bad attribute '%s'",
			     gd->count_attr);
	}
	for (long i = 0; !rc && i < n; i++) {
		char path[256];
		hid_t g;

		if (gid == IOS_G_ROOT)
			snprintf(path, sizeof(path), "/");
		else if (gd->count_attr)
			snprintf(path, sizeof(path), "%s%s%s/%ld", ppath,
				 strcmp(ppath, "/") ? "/" : "", gd->name, i);
		else
			snprintf(path, sizeof(path), "%s%s%s", ppath,
				 strcmp(ppath, "/") ? "/" : "", gd->name);
		snprintf(r->obj, sizeof(r->obj), "%s", path);
		if (gid == IOS_G_ROOT) {
			g = H5Gopen2(parent, "/", H5P_DEFAULT);
		} else {
			const char *rel = path + strlen(ppath);

			while (*rel == '/')
				rel++;
			if (H5Lexists(parent, gd->count_attr ? gd->name : rel,
				      H5P_DEFAULT) <= 0 ||
			    H5Lexists(parent, rel, H5P_DEFAULT) <= 0) {
				if (gd->flags == IOS_H5_REQ)
					rc = rfail(r, -EBADMSG,
						   "missing group");
				continue;
			}
			g = H5Gopen2(parent, rel, H5P_DEFAULT);
		}
		if (g < 0) {
			rc = rfail(r, -EBADMSG, "not a group");
			break;
		}
		rc = check_group(r, g, gid);
		for (int c = 0; !rc && c < IOS_G_COUNT; c++)
			if (c != (int)gid && ios_h5_groups[c].parent == gid)
				rc = check_tree(r, g, path, c);
		H5Gclose(g);
	}
	return rc;
}

int ios_h5_validate(const char *path, struct ios_err *err)
{
	struct rctx r = {.path = path, .err = err};
	struct ios_run *run = NULL;
	hid_t f;
	int rc;

	h5_quiet();
	if ((rc = open_file(&r, &f)))
		return rc;
	rc = check_tree(&r, f, "/", IOS_G_ROOT);
	H5Fclose(f);
	if (rc)
		return rc;
	/* and every byte readable, counts consistent */
	rc = ios_h5_read_run(path, &run, err);
	ios_run_free(run);
	return rc;
}
