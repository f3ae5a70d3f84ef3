/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * h5validate: check a results file against schema.def (ios_h5_validate,
 * h5run.h): every group, attribute and dataset the tables require, with
 * its type class and compound members, then a full read (h5read.c).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <hdf5.h>
#ifdef HAVE_JANSSON
#include <jansson.h>
#endif

#include "h5run.h"
#include "h5run_internal.h"
#include "schema.h"

static int is_compound_tag(enum ios_h5_type t)
{
	return ios_h5_compound_size(t) > 0 || t == IOS_T_KV;
}

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

static int check_compound(struct ios_h5_rctx *r, hid_t ft, const char *dname,
			  enum ios_h5_type c)
{
	if (c == IOS_T_KV) {
		if (H5Tget_member_index(ft, "key") < 0 ||
		    H5Tget_member_index(ft, "value") < 0)
			return ios_h5_rfail(
				r, -EBADMSG,
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
			return ios_h5_rfail(r, -EBADMSG,
					    "dataset '%s' lacks member '%s'",
					    dname, m->name);
		mt = H5Tget_member_type(ft, (unsigned)idx);
		ok = class_ok(mt, m->type);
		H5Tclose(mt);
		if (!ok)
			return ios_h5_rfail(
				r, -EBADMSG,
				"dataset '%s' member '%s' is not of type %s",
				dname, m->name, ios_h5_type_name(m->type));
	}
	return 0;
}

static int check_group(struct ios_h5_rctx *r, hid_t g, enum ios_h5_group gid)
{
	for (size_t i = 0; i < ios_h5_nattrs; i++) {
		const struct ios_h5_attr_def *a = &ios_h5_attrs[i];
		hid_t at, t;
		int ok;

		if (a->group != gid)
			continue;
		if (H5Aexists(g, a->name) <= 0) {
			if (a->flags == IOS_H5_REQ)
				return ios_h5_rfail(r, -EBADMSG,
						    "missing attribute '%s'",
						    a->name);
			continue;
		}
		at = H5Aopen(g, a->name, H5P_DEFAULT);
		t = H5Aget_type(at);
		ok = class_ok(t, a->type);
		H5Tclose(t);
		H5Aclose(at);
		if (!ok)
			return ios_h5_rfail(r, -EBADMSG,
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
				return ios_h5_rfail(r, -EBADMSG,
						    "missing dataset '%s'",
						    ds->name);
			continue;
		}
		d = H5Dopen2(g, ds->name, H5P_DEFAULT);
		if (d < 0)
			return ios_h5_rfail(r, -EBADMSG,
					    "'%s' is not a dataset", ds->name);
		t = H5Dget_type(d);
		if (!class_ok(t, ds->type))
			rc = ios_h5_rfail(r, -EBADMSG,
					  "dataset '%s' is not of type %s",
					  ds->name, ios_h5_type_name(ds->type));
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
	return v < 0 || v > IOS_H5_MAX_COUNT ? -1 : 0;
}

/* Check group [gid] under [parent] (all its instances), then its children. */
static int check_tree(struct ios_h5_rctx *r, hid_t parent, const char *ppath,
		      enum ios_h5_group gid)
{
	const struct ios_h5_group_def *gd = &ios_h5_groups[gid];
	long n = 1;
	int rc = 0;

	if (gd->count_attr && gd->flags != IOS_H5_REQ &&
	    H5Aexists(parent, gd->count_attr) <= 0)
		return 0; /* an optional collection that is not there */
	if (gd->count_attr && read_count(parent, gd->count_attr, &n) < 0) {
		snprintf(r->obj, sizeof(r->obj), "%s", ppath);
		return ios_h5_rfail(r, -EBADMSG,
				    "missing or bad attribute '%s'",
				    gd->count_attr);
	}
	/* a count beyond the members the collection holds: the reader's
	 * check (ios_h5r_count_bound), named the same way */
	if (gd->count_attr && n > 0 &&
	    H5Lexists(parent, gd->name, H5P_DEFAULT) > 0) {
		hid_t cg = H5Gopen2(parent, gd->name, H5P_DEFAULT);

		snprintf(r->obj, sizeof(r->obj), "%s%s%s", ppath,
			 strcmp(ppath, "/") ? "/" : "", gd->name);
		if (cg >= 0) {
			rc = ios_h5r_count_bound(r, cg, gd->count_attr, n);
			H5Gclose(cg);
		}
		if (rc)
			return rc;
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
					rc = ios_h5_rfail(r, -EBADMSG,
							  "missing group");
				continue;
			}
			g = H5Gopen2(parent, rel, H5P_DEFAULT);
		}
		if (g < 0) {
			rc = ios_h5_rfail(r, -EBADMSG, "not a group");
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

#ifdef HAVE_JANSSON
/*
 * What a host record (SCHEMA.md, /hosts) holds: at [path] (dotted; "[]"
 * = every element of that array), the members [keys]; those marked '?'
 * may be "unknown" only with a reason in that object's why_unknown; those
 * marked '~' were added later (absent from older files) and are checked as
 * '?' when present.
 */
static const struct {
	const char *path, *keys;
} host_spec[] = {
	{"", "hostname role role_source slurm_node kernel os cpu memory "
	     "system block_devices nics infiniband slurm ?mpi_library "
	     "~mpi_transport ?shape"},
	{"mpi_transport", "requested ?selected"},
	{"mpi_transport.requested", "env ?cvars"},
	{"cpu", "model online_count ?microcode frequency"},
	{"cpu.frequency", "?driver ?governor ?base_khz ?min_khz ?max_khz"},
	{"system", "?sys_vendor ?product_name ?product_version ?board_vendor "
		   "?board_name ?bios_vendor ?bios_version ?bios_date ?dimms"},
	{"system.dimms[]", "?locator ?size_bytes ?speed_mts ?manufacturer "
			   "?part_number"},
	{"block_devices[]", "name ?model ?vendor ?serial ?firmware "
			    "?rotational ?scheduler ?nr_requests ?queue_depth "
			    "?size_bytes"},
	{"nics[]", "name ?speed_mbps ?mtu ?driver ?state"},
	{"infiniband[]", "device port ?rate ?state ?link_layer"},
	{"slurm", "?version_built ~version_built_source ~version_slurmctld "
		  "~version_slurmctld_source ~version_slurmd "
		  "~version_slurmd_source ~version_mismatch conf ?SelectType "
		  "?SelectTypeParameters ?TaskPlugin ?ProctrackType "
		  "?PrologFlags cgroup"},
	{"slurm.cgroup", "conf ?CgroupPlugin ?ConstrainCores "
			 "?ConstrainRAMSpace ?ConstrainDevices"},
};

/* The members of [o] that [keys] names: present, and "unknown" only with
 * a reason when marked '?'. */
static int check_keys(struct ios_h5_rctx *r, json_t *o, const char *where,
		      const char *keys)
{
	char buf[512], *save = NULL;

	if (!json_is_object(o))
		return ios_h5_rfail(r, -EBADMSG,
				    "host record: %s is not an object",
				    where[0] ? where : "the record");
	snprintf(buf, sizeof(buf), "%s", keys);
	for (char *k = strtok_r(buf, " ", &save); k;
	     k = strtok_r(NULL, " ", &save)) {
		int later = k[0] == '~', why = k[0] == '?' || later;
		json_t *v;

		k += why;
		v = json_object_get(o, k);
		if (!v && later)
			continue;
		if (!v)
			return ios_h5_rfail(
				r, -EBADMSG,
				"host record: missing member '%s%s%s'", where,
				where[0] ? "." : "", k);
		if (why && json_is_string(v) &&
		    !strcmp(json_string_value(v), "unknown") &&
		    !json_is_string(json_object_get(
			    json_object_get(o, "why_unknown"), k)))
			return ios_h5_rfail(
				r, -EBADMSG,
				"host record: '%s%s%s' is unknown without a reason in why_unknown",
				where, where[0] ? "." : "", k);
	}
	return 0;
}

/* Walk [path] from [o] (arrays: every element) and check [keys]. */
static int check_at(struct ios_h5_rctx *r, json_t *o, const char *path,
		    const char *done, const char *keys)
{
	char head[128], where[256];
	const char *dot;
	size_t n;
	json_t *v;

	if (!path[0])
		return check_keys(r, o, done, keys);
	dot = strchr(path, '.');
	n = dot ? (size_t)(dot - path) : strlen(path);
	snprintf(head, sizeof(head), "%.*s", (int)n, path);
	if (n > 2 && !strcmp(head + n - 2, "[]")) {
		size_t i;
		json_t *e;

		head[n - 2] = '\0';
		v = json_object_get(o, head);
		if (json_is_string(v) && strcmp(head, "dimms") == 0)
			return 0; /* "unknown" (checked in its parent) */
		if (!json_is_array(v))
			return ios_h5_rfail(
				r, -EBADMSG,
				"host record: '%s%s%s' is not a list", done,
				done[0] ? "." : "", head);
		json_array_foreach(v, i, e)
		{
			int rc;

			snprintf(where, sizeof(where), "%s%s%s[%zu]", done,
				 done[0] ? "." : "", head, i);
			rc = check_at(r, e, dot ? dot + 1 : "", where, keys);
			if (rc)
				return rc;
		}
		return 0;
	}
	v = json_object_get(o, head);
	snprintf(where, sizeof(where), "%s%s%s", done, done[0] ? "." : "",
		 head);
	if (!v)
		return 0; /* absent: its parent's check names it, or it is a
			   * later member ('~') an older file does not have */
	if (json_is_string(v) && !strcmp(json_string_value(v), "unknown"))
		return 0; /* the whole object unknown: checked in its parent */
	return check_at(r, v, dot ? dot + 1 : "", where, keys);
}

/* Schema version 2 on: /hosts with nhosts records, each complete. */
static int check_hosts(struct ios_h5_rctx *r, const char *path)
{
	struct ios_run *run = NULL;
	int rc = ios_h5_read_run(path, &run, r->err);

	for (int i = 0; !rc && i < run->nhosts; i++) {
		json_error_t jerr;
		json_t *j = json_loads(
			run->host_json[i] ? run->host_json[i] : "", 0, &jerr);
		const char *role;

		snprintf(r->obj, sizeof(r->obj), "/hosts/%d/raw_json", i);
		if (!j) {
			rc = ios_h5_rfail(r, -EBADMSG,
					  "host record: not JSON: %s",
					  jerr.text);
			break;
		}
		role = json_string_value(json_object_get(j, "role"));
		if (!role ||
		    (strcmp(role, "storage") && strcmp(role, "client") &&
		     strcmp(role, "unknown")))
			rc = ios_h5_rfail(
				r, -EBADMSG,
				"host record: role \"%s\": expected storage, client or unknown",
				role ? role : "(none)");
		for (size_t k = 0;
		     !rc && k < sizeof(host_spec) / sizeof(host_spec[0]); k++)
			rc = check_at(r, j, host_spec[k].path, "",
				      host_spec[k].keys);
		json_decref(j);
	}
	ios_run_free(run);
	return rc;
}
#endif

int ios_h5_validate(const char *path, struct ios_err *err)
{
	struct ios_h5_rctx r = {.path = path, .err = err};
	struct ios_run *run = NULL;
	hid_t f;
	int rc;

	ios_h5_quiet();
	if ((rc = ios_h5_open_file(&r, &f)))
		return rc;
	rc = check_tree(&r, f, "/", IOS_G_ROOT);
	/* /hosts: required from schema version 2 on */
	if (!rc && r.version >= 2 &&
	    (H5Aexists(f, "nhosts") <= 0 ||
	     H5Lexists(f, "hosts", H5P_DEFAULT) <= 0)) {
		snprintf(r.obj, sizeof(r.obj), "/hosts");
		rc = ios_h5_rfail(
			&r, -EBADMSG,
			"missing (required from schema version 2: the host records and the root attribute nhosts)");
	}
	H5Fclose(f);
	if (rc)
		return rc;
#ifdef HAVE_JANSSON
	if (r.version >= 2 && (rc = check_hosts(&r, path)))
		return rc;
#endif
	/* and every byte readable, counts consistent */
	rc = ios_h5_read_run(path, &run, err);
	ios_run_free(run);
	return rc;
}
