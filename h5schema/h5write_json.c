/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * h5write_json: node, host, job and Ceph metadata as HDF5 groups: the raw
 * JSON text as dataset raw_json and, when it parses as an object, its
 * members as attributes and subgroups (h5write.c calls
 * ios_h5w_write_json_group for each).
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hdf5.h>
#ifdef HAVE_JANSSON
#include <jansson.h>
#endif

#include "h5run.h"
#include "h5run_internal.h"
#include "h5write_json.h"
#include "h5write_prim.h"
#include "schema.h"

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
		t = ios_h5_str_type();
		a = H5Acreate2(g, name, t, sp, H5P_DEFAULT, H5P_DEFAULT);
		if (a < 0)
			rc = ios_h5w_wfail(w, name);
		goto out;
	}
	if (!all_str && !all_num && !all_bool) {
		char *s = json_dumps(arr, JSON_COMPACT);

		rc = ios_h5w_attr_write_str(w, g, name, s);
		free(s);
		return rc;
	}
	sp = H5Screate_simple(1, dims, NULL);
	if (all_str) {
		const char **p = calloc(n, sizeof(*p));

		buf = p;
		t = ios_h5_str_type();
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
		rc = ios_h5w_wfail(w, name);
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

	ios_h5w_safe_name(name, sizeof(name), key);
	if (H5Aexists(g, name) > 0 || H5Lexists(g, name, H5P_DEFAULT) > 0)
		return 0; /* sanitised names collided: keep the first */
	if (json_is_object(v)) {
		hid_t sub = ios_h5w_group_create(w, g, name, 1);

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
			hid_t sub = ios_h5w_group_create(w, g, name, 1);

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
		rc = ios_h5w_attr_write_str(w, g, name, json_string_value(v));
	} else if (json_is_integer(v)) {
		int64_t x = json_integer_value(v);

		rc = ios_h5w_attr_write_num(w, g, name, IOS_T_I64, &x);
	} else if (json_is_real(v)) {
		double x = json_real_value(v);

		rc = ios_h5w_attr_write_num(w, g, name, IOS_T_F64, &x);
	} else if (json_is_boolean(v)) {
		bool x = json_is_true(v);

		rc = ios_h5w_attr_write_num(w, g, name, IOS_T_BOOL, &x);
	} else {
		rc = ios_h5w_attr_write_str(w, g, name, "null");
	}
	return rc;
}

static int json_to_group(struct wctx *w, hid_t g, json_t *obj, int depth)
{
	const char *key;
	json_t *v;

	if (depth > 16)
		return ios_h5w_attr_write_str(w, g, "truncated",
					      "nesting too deep");
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
int ios_h5w_write_json_group(struct wctx *w, hid_t loc, const char *name,
			     const char *json)
{
	hid_t g = ios_h5w_group_create(w, loc, name, 1);
	int rc;

	if (g < 0)
		return w->rc;
	rc = ios_h5w_write_text(w, g, "raw_json", json);
#ifdef HAVE_JANSSON
	if (!rc && json) {
		json_error_t jerr;
		json_t *root = json_loads(json, 0, &jerr);

		if (!root || !json_is_object(root)) {
			char msg[300];

			snprintf(msg, sizeof(msg), "line %d: %s", jerr.line,
				 root ? "not a JSON object" : jerr.text);
			rc = ios_h5w_attr_write_str(w, g, "json_error", msg);
		} else {
			rc = json_to_group(w, g, root, 0);
		}
		json_decref(root);
	}
#endif
	H5Gclose(g);
	return rc;
}
