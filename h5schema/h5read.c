/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * h5read: the results file reader (ios_h5_read_run, h5run.h).  It walks
 * the attribute tables of schema.def and reads the data-shaped datasets
 * itself, within the bounds of h5run.h: a hostile file cannot make it
 * allocate more than the file stores.  ios_h5_open_file is the
 * validator's way in too.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hdf5.h>

#include "h5run.h"
#include "h5run_internal.h"
#include "schema.h"

bool ios_h5_read_in_core;

static int read_rep(struct ios_h5_rctx *r, hid_t g, struct ios_rep_result *rep)
{
	size_t n;
	void *p;
	uint64_t *buf = NULL;
	hsize_t cols, dims[1];
	hid_t d;
	int rc;

	if ((rc = ios_h5r_read_attrs(r, g, IOS_G_REP, rep)))
		return rc;
	if (rep->nranks < 0 || rep->nranks > IOS_H5_MAX_COUNT ||
	    rep->nnodes < 0 || rep->nnodes > IOS_H5_MAX_COUNT)
		return ios_h5_rfail(r, -ERANGE,
				    "nranks %d or nnodes %d out of range",
				    rep->nranks, rep->nnodes);
	if ((rc = ios_h5r_read_compound(r, g, "ranks", IOS_T_RANKRES, &p, &n,
					rep->nranks)))
		return rc;
	rep->ranks = p;
	if ((rc = ios_h5r_read_u64_2d(r, g, "lat_hist", n, IOS_LAT_BUCKETS,
				      &buf, &cols)))
		return rc;
	rep->lat_hist = buf;
	buf = NULL;
	for (int k = 0; k < 2; k++) {
		rc = ios_h5r_read_u64_2d(r, g,
					 k ? "sample_ops" : "sample_bytes", n,
					 -1, &buf, &cols);
		if (rc)
			return rc;
		for (size_t i = 0; i < n; i++) {
			struct ios_rank_result *rr = &rep->ranks[i];
			uint64_t **dst =
				k ? &rr->sample_ops : &rr->sample_bytes;

			*dst = NULL;
			if (rr->nsamples > cols) {
				free(buf);
				return ios_h5_rfail(
					r, -ERANGE,
					"rank %zu has %u samples, the dataset only %llu",
					i, rr->nsamples,
					(unsigned long long)cols);
			}
			if (!rr->nsamples)
				continue;
			*dst = malloc(rr->nsamples * sizeof(uint64_t));
			if (!*dst) {
				free(buf);
				return ios_h5_rfail(r, -ENOMEM, "%s",
						    strerror(ENOMEM));
			}
			memcpy(*dst, buf + i * cols,
			       rr->nsamples * sizeof(uint64_t));
		}
		free(buf);
		buf = NULL;
	}
	if ((rc = ios_h5r_read_compound(r, g, "errors", IOS_T_IOERR, &p, &n,
					-1)))
		return rc;
	rep->errors = p;
	rep->nerrors = n;
	d = ios_h5r_dset_open(r, g, "node_bw", 1, dims);
	if (d < 0)
		return r->err ? r->err->code : -EBADMSG;
	if (dims[0] != (hsize_t)rep->nnodes) {
		H5Dclose(d);
		return ios_h5_rfail(r, -ERANGE,
				    "node_bw has %llu entries, not %d",
				    (unsigned long long)dims[0], rep->nnodes);
	}
	if ((rc = ios_h5r_dset_bound(r, d, "node_bw", dims[0],
				     sizeof(double)))) {
		H5Dclose(d);
		return rc;
	}
	rep->node_bw = calloc(dims[0] + 1, sizeof(double));
	if (!rep->node_bw)
		rc = ios_h5_rfail(r, -ENOMEM, "%s", strerror(ENOMEM));
	else if (dims[0] && H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL,
				    ios_h5_dxpl(), rep->node_bw) < 0)
		rc = ios_h5_rfail(r, -EBADMSG, "node_bw: %s",
				  ios_h5_why(r->why));
	H5Dclose(d);
	return rc;
}

/* The error of ios_h5_check_shape: the file, the object, the reason. */
static int shape_fail(const char *path, const char *obj, struct ios_err *err,
		      const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int shape_fail(const char *path, const char *obj, struct ios_err *err,
		      const char *fmt, ...)
{
	char msg[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return ios_errf(err, -ERANGE, "h5schema: read %s: %s: %s", path, obj,
			msg);
}

/* One repetition against its run (see ios_h5_check_shape). */
static int check_rep(const char *path, const struct ios_run *run, int k, int i,
		     unsigned char *seen, struct ios_err *err)
{
	const struct ios_phase_result *ph = &run->phases[k];
	const struct ios_rep_result *rep = &ph->reps[i];
	char obj[96];

	snprintf(obj, sizeof(obj), "/phases/%d/reps/%d/ranks", k, i);
	/* a layered run's layer runs on a group of the ranks: fewer */
	if (ph->layer[0] ? rep->nranks > run->nranks
			 : rep->nranks != run->nranks)
		return shape_fail(
			path, obj, err, "%d ranks, the run has %d%s",
			rep->nranks, run->nranks,
			ph->layer[0] ? " (a layer's group has at most as many)"
				     : "");
	if (rep->nranks && !rep->ranks)
		return shape_fail(path, obj, err, "%d ranks, no records",
				  rep->nranks);
	memset(seen, 0, (size_t)run->nranks + 1);
	for (int j = 0; j < rep->nranks; j++) {
		int32_t rk = rep->ranks[j].rank;

		if (rk < 0 || rk >= run->nranks)
			return shape_fail(
				path, obj, err,
				"record %d is of rank %d, the run's ranks are 0 to %d",
				j, rk, run->nranks - 1);
		if (seen[rk]++)
			return shape_fail(path, obj, err,
					  "rank %d has two records (%d is one)",
					  rk, j);
		if (rep->ranks[j].nsamples &&
		    (!rep->ranks[j].sample_bytes || !rep->ranks[j].sample_ops))
			return shape_fail(path, obj, err,
					  "record %d: %u samples, none stored",
					  j, rep->ranks[j].nsamples);
	}
	if (rep->nnodes > run->nnodes || (rep->nnodes && !rep->node_bw)) {
		snprintf(obj, sizeof(obj), "/phases/%d/reps/%d/node_bw", k, i);
		return shape_fail(path, obj, err, "%d nodes, the run has %d",
				  rep->nnodes, run->nnodes);
	}
	snprintf(obj, sizeof(obj), "/phases/%d/reps/%d/errors", k, i);
	if (rep->nerrors && !rep->errors)
		return shape_fail(path, obj, err, "%zu errors, no records",
				  rep->nerrors);
	for (size_t e = 0; e < rep->nerrors; e++) {
		const struct ios_io_error *x = &rep->errors[e];

		if (x->rank < 0 || x->rank >= run->nranks)
			return shape_fail(
				path, obj, err,
				"error %zu is of rank %d, the run's ranks are 0 to %d",
				e, x->rank, run->nranks - 1);
		if (x->op != IOS_OP_READ && x->op != IOS_OP_WRITE)
			return shape_fail(
				path, obj, err,
				"error %zu: op %d (expected 0 read or 1 write)",
				e, x->op);
	}
	return 0;
}

int ios_h5_check_shape(const char *path, const struct ios_run *run,
		       struct ios_err *err)
{
	unsigned char *seen;
	int rc = 0;

	if (run->nranks < 0 || run->nnodes < 0 || run->nphases < 0 ||
	    run->nlayers < 0 || run->nhosts < 0)
		return shape_fail(
			path, "/", err,
			"nranks %d, nnodes %d, nphases %d, nlayers %d or nhosts %d negative",
			run->nranks, run->nnodes, run->nphases, run->nlayers,
			run->nhosts);
	if ((run->nranks && !run->rank_info) ||
	    (run->nnodes && !run->node_json) ||
	    (run->nphases && !run->phases) || (run->nhosts && !run->host_json))
		return shape_fail(path, "/", err, "a count without its table");
	for (int i = 0; i < run->nranks; i++) {
		const struct ios_rank_info *ri = &run->rank_info[i];

		if (ri->rank != i)
			return shape_fail(
				path, "/ranks", err,
				"row %d is of rank %d (row i is rank i)", i,
				ri->rank);
		if (ri->node < 0 || ri->node >= run->nnodes)
			return shape_fail(
				path, "/ranks", err,
				"rank %d is on node %d, the run's nodes are 0 to %d",
				i, ri->node, run->nnodes - 1);
	}
	for (size_t i = 0; i < run->nnet; i++) {
		const struct ios_net_pair *p = &run->net[i];

		if (p->src_node < 0 || p->src_node >= run->nnodes ||
		    p->dst_node < 0 || p->dst_node >= run->nnodes)
			return shape_fail(
				path, "/layers/network", err,
				"pair %zu: nodes %d -> %d, the run's nodes are 0 to %d",
				i, p->src_node, p->dst_node, run->nnodes - 1);
	}
	seen = malloc((size_t)run->nranks + 1);
	if (!seen)
		return ios_errf(err, -ENOMEM, "h5schema: read %s: %s", path,
				strerror(ENOMEM));
	for (int k = 0; !rc && k < run->nphases; k++) {
		const struct ios_phase_result *ph = &run->phases[k];

		if (ph->nreps < 0 || (ph->nreps && !ph->reps)) {
			char obj[64];

			snprintf(obj, sizeof(obj), "/phases/%d", k);
			rc = shape_fail(path, obj, err, "nreps %d, no records",
					ph->nreps);
		}
		for (int i = 0; !rc && i < ph->nreps; i++)
			rc = check_rep(path, run, k, i, seen, err);
	}
	free(seen);
	return rc;
}

struct attach_it {
	struct ios_h5_rctx *r;
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
			it->rc = ios_h5_rfail(it->r, -ENOMEM, "%s",
					      strerror(ENOMEM));
			return -1;
		}
		it->run->attachments = p;
		it->cap = cap;
	}
	if ((it->rc = ios_h5r_read_text(it->r, g, name, &text)))
		return -1;
	d = H5Dopen2(g, name, H5P_DEFAULT);
	if (d >= 0 && H5Aexists(d, "name") > 0)
		ios_h5r_attr_read_str(it->r, d, "name", &an);
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

int ios_h5_open_file(struct ios_h5_rctx *r, hid_t *out)
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
			r->path, ios_h5_why(r->why));
	if (H5Aexists(f, "format") <= 0 ||
	    ios_h5r_attr_read_str(r, f, "format", &fmt) ||
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
	r->version = ver;
	*out = f;
	return 0;
}

/* The root group: its attributes and the rank, layer and network tables. */
static int read_root(struct ios_h5_rctx *r, hid_t f, struct ios_run *run)
{
	void *p;
	size_t n;
	int rc;

	snprintf(r->obj, sizeof(r->obj), "/");
	run->schema_version = r->version;
	if ((rc = ios_h5r_read_attrs(r, f, IOS_G_ROOT, run)))
		return rc;
	if (run->nranks < 0 || run->nranks > IOS_H5_MAX_COUNT ||
	    run->nnodes < 0 || run->nnodes > IOS_H5_MAX_COUNT ||
	    run->nphases < 0 || run->nphases > IOS_H5_MAX_COUNT)
		return ios_h5_rfail(
			r, -ERANGE,
			"nranks %d, nnodes %d or nphases %d out of range",
			run->nranks, run->nnodes, run->nphases);
	if ((rc = ios_h5r_read_compound(r, f, "ranks", IOS_T_RANKINFO, &p, &n,
					run->nranks)))
		return rc;
	run->rank_info = p;
	if (H5Lexists(f, "layers", H5P_DEFAULT) > 0) {
		if ((rc = ios_h5r_read_compound(r, f, "layers", IOS_T_LAYER, &p,
						&n, -1)))
			return rc;
		run->layers = p;
		run->nlayers = (int32_t)n;
	}
	if (H5Lexists(f, "network", H5P_DEFAULT) > 0) {
		if ((rc = ios_h5r_read_compound(r, f, "network", IOS_T_NETPAIR,
						&p, &n, -1)))
			return rc;
		run->net = p;
		run->nnet = n;
	}
	return 0;
}

/* /config: the options table, its strings copied out of HDF5's. */
static int read_config(struct ios_h5_rctx *r, hid_t f, struct ios_run *run)
{
	void *p;
	size_t n;
	hid_t g;
	int rc;

	snprintf(r->obj, sizeof(r->obj), "/config");
	if ((g = H5Gopen2(f, "config", H5P_DEFAULT)) < 0)
		return ios_h5_rfail(r, -EBADMSG, "missing group");
	rc = ios_h5r_read_compound(r, g, "options", IOS_T_KV, &p, &n, -1);
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
			return ios_h5_rfail(r, -ENOMEM, "%s", strerror(ENOMEM));
	}
	return 0;
}

/* /hosts/N: the raw JSON of each host record (none before version 2). */
static int read_hosts(struct ios_h5_rctx *r, hid_t f, struct ios_run *run)
{
	hid_t g, sub;
	char name[64];
	int rc = 0;

	if (r->version < 2 && H5Lexists(f, "hosts", H5P_DEFAULT) <= 0) {
		run->nhosts = 0;
		return 0;
	}
	snprintf(r->obj, sizeof(r->obj), "/hosts");
	if ((g = H5Gopen2(f, "hosts", H5P_DEFAULT)) < 0)
		return ios_h5_rfail(r, -EBADMSG, "missing group");
	if (H5Aexists(f, "nhosts") <= 0 ||
	    (rc = ios_h5r_count_bound(r, g, "nhosts", run->nhosts))) {
		H5Gclose(g);
		return rc ? rc
			  : ios_h5_rfail(r, -EBADMSG,
					 "missing root attribute 'nhosts'");
	}
	run->host_json = calloc((size_t)run->nhosts + 1, sizeof(char *));
	if (!run->host_json) {
		H5Gclose(g);
		return ios_h5_rfail(r, -ENOMEM, "%s", strerror(ENOMEM));
	}
	for (int i = 0; !rc && i < run->nhosts; i++) {
		snprintf(name, sizeof(name), "%d", i);
		snprintf(r->obj, sizeof(r->obj), "/hosts/%d", i);
		if ((sub = H5Gopen2(g, name, H5P_DEFAULT)) < 0) {
			rc = ios_h5_rfail(r, -EBADMSG, "missing group");
			break;
		}
		rc = ios_h5r_read_text(r, sub, "raw_json", &run->host_json[i]);
		H5Gclose(sub);
	}
	H5Gclose(g);
	return rc;
}

/* /nodes/N, /job and /ceph: the raw JSON text of each. */
static int read_nodes(struct ios_h5_rctx *r, hid_t f, struct ios_run *run)
{
	hid_t g, sub;
	char name[64];
	int rc;

	snprintf(r->obj, sizeof(r->obj), "/nodes");
	if ((g = H5Gopen2(f, "nodes", H5P_DEFAULT)) < 0)
		return ios_h5_rfail(r, -EBADMSG, "missing group");
	if ((rc = ios_h5r_count_bound(r, g, "nnodes", run->nnodes))) {
		H5Gclose(g);
		return rc;
	}
	run->node_json = calloc((size_t)run->nnodes + 1, sizeof(char *));
	if (!run->node_json) {
		H5Gclose(g);
		return ios_h5_rfail(r, -ENOMEM, "%s", strerror(ENOMEM));
	}
	for (int i = 0; i < run->nnodes; i++) {
		snprintf(name, sizeof(name), "%d", i);
		snprintf(r->obj, sizeof(r->obj), "/nodes/%d", i);
		if ((sub = H5Gopen2(g, name, H5P_DEFAULT)) < 0) {
			H5Gclose(g);
			return ios_h5_rfail(r, -EBADMSG, "missing group");
		}
		rc = ios_h5r_read_text(r, sub, "raw_json", &run->node_json[i]);
		H5Gclose(sub);
		if (rc) {
			H5Gclose(g);
			return rc;
		}
	}
	H5Gclose(g);
	if ((rc = read_hosts(r, f, run)))
		return rc;
	for (int k = 0; k < 2; k++) {
		const char *gn = k ? "ceph" : "job";

		if (H5Lexists(f, gn, H5P_DEFAULT) <= 0)
			continue;
		snprintf(r->obj, sizeof(r->obj), "/%s", gn);
		if ((g = H5Gopen2(f, gn, H5P_DEFAULT)) < 0)
			return ios_h5_rfail(r, -EBADMSG, "cannot open group");
		rc = ios_h5r_read_text(r, g, "raw_json",
				       k ? &run->ceph_json : &run->job_json);
		H5Gclose(g);
		if (rc)
			return rc;
	}
	return 0;
}

/* /attachments, in creation order when the group tracks it. */
static int read_attachments(struct ios_h5_rctx *r, hid_t f, struct ios_run *run)
{
	struct attach_it it = {.r = r, .run = run};
	unsigned flags = 0;
	hid_t g, gcpl;

	snprintf(r->obj, sizeof(r->obj), "/attachments");
	if ((g = H5Gopen2(f, "attachments", H5P_DEFAULT)) < 0)
		return ios_h5_rfail(r, -EBADMSG, "missing group");
	gcpl = H5Gget_create_plist(g);
	H5Pget_link_creation_order(gcpl, &flags);
	H5Pclose(gcpl);
	H5Literate(g,
		   (flags & H5P_CRT_ORDER_INDEXED) ? H5_INDEX_CRT_ORDER
						   : H5_INDEX_NAME,
		   H5_ITER_INC, NULL, attach_cb, &it);
	H5Gclose(g);
	return it.rc;
}

/* Reads repetition [rep] (an element of a phase's array) from group [g]. */
typedef int (*rep_reader)(struct ios_h5_rctx *r, hid_t g, void *rep);

/*
 * /[top]/[k] (group [g] is /[top]): a phase's attributes (schema group
 * [grp], into [obj], which holds the repetition count *[nrepsp]) and its
 * repetitions /[top]/[k]/reps/[i], each read by [one] into an array of
 * [size]-byte elements, returned (NULL if none was allocated; it is freed
 * with the run even on failure).  *[rcp]: 0 or the failure.  Shared by
 * /phases and /meta.
 */
static void *read_phase_group(struct ios_h5_rctx *r, hid_t g, const char *top,
			      int k, enum ios_h5_group grp, void *obj,
			      int32_t *nrepsp, size_t size, rep_reader one,
			      int *rcp)
{
	char name[64];
	hid_t sub, reps = -1;
	int nreps, rc;
	char *arr = NULL;

	snprintf(name, sizeof(name), "%d", k);
	snprintf(r->obj, sizeof(r->obj), "/%s/%d", top, k);
	if ((sub = H5Gopen2(g, name, H5P_DEFAULT)) < 0) {
		*rcp = ios_h5_rfail(r, -EBADMSG, "missing group");
		return NULL;
	}
	rc = ios_h5r_read_attrs(r, sub, grp, obj);
	nreps = *nrepsp;
	*nrepsp = 0; /* counts the reps read, for ios_run_free */
	if (!rc && (nreps < 0 || nreps > IOS_H5_MAX_COUNT))
		rc = ios_h5_rfail(r, -ERANGE, "nreps %d out of range", nreps);
	if (!rc && (reps = H5Gopen2(sub, "reps", H5P_DEFAULT)) < 0)
		rc = ios_h5_rfail(r, -EBADMSG, "missing group 'reps'");
	if (!rc) {
		snprintf(r->obj, sizeof(r->obj), "/%s/%d/reps", top, k);
		rc = ios_h5r_count_bound(r, reps, "nreps", nreps);
	}
	if (!rc && !(arr = calloc((size_t)nreps + 1, size)))
		rc = ios_h5_rfail(r, -ENOMEM, "%s", strerror(ENOMEM));
	for (int i = 0; !rc && i < nreps; i++) {
		hid_t rg;

		snprintf(name, sizeof(name), "%d", i);
		snprintf(r->obj, sizeof(r->obj), "/%s/%d/reps/%d", top, k, i);
		if ((rg = H5Gopen2(reps, name, H5P_DEFAULT)) < 0) {
			rc = ios_h5_rfail(r, -EBADMSG, "missing group");
			break;
		}
		(*nrepsp)++;
		rc = one(r, rg, arr + (size_t)i * size);
		H5Gclose(rg);
	}
	if (reps >= 0)
		H5Gclose(reps);
	H5Gclose(sub);
	*rcp = rc;
	return arr;
}

static int read_data_rep(struct ios_h5_rctx *r, hid_t g, void *rep)
{
	return read_rep(r, g, rep);
}

/* /phases/[k] (group [g] is /phases): its attributes and repetitions. */
static int read_phase(struct ios_h5_rctx *r, hid_t g, int k,
		      struct ios_phase_result *ph)
{
	int rc;

	ph->reps =
		read_phase_group(r, g, "phases", k, IOS_G_PHASE, ph, &ph->nreps,
				 sizeof(*ph->reps), read_data_rep, &rc);
	return rc;
}

/* /phases: every phase, up to the first that fails. */
static int read_phases(struct ios_h5_rctx *r, hid_t f, struct ios_run *run)
{
	hid_t g;
	int rc;

	snprintf(r->obj, sizeof(r->obj), "/phases");
	if ((g = H5Gopen2(f, "phases", H5P_DEFAULT)) < 0)
		return ios_h5_rfail(r, -EBADMSG, "missing group");
	if ((rc = ios_h5r_count_bound(r, g, "nphases", run->nphases))) {
		H5Gclose(g);
		return rc;
	}
	run->phases = calloc((size_t)run->nphases + 1, sizeof(*run->phases));
	if (!run->phases) {
		H5Gclose(g);
		return ios_h5_rfail(r, -ENOMEM, "%s", strerror(ENOMEM));
	}
	for (int k = 0; !rc && k < run->nphases; k++)
		rc = read_phase(r, g, k, &run->phases[k]);
	H5Gclose(g);
	r->obj[0] = '\0';
	return rc;
}

/* /meta/[k]/reps/[i] (group [g]). */
static int read_meta_rep(struct ios_h5_rctx *r, hid_t g,
			 struct ios_meta_rep *rep)
{
	hsize_t cols;
	size_t n;
	void *p;
	int rc;

	if ((rc = ios_h5r_read_attrs(r, g, IOS_G_MREP, rep)))
		return rc;
	if (rep->nranks < 0 || rep->nranks > IOS_H5_MAX_COUNT)
		return ios_h5_rfail(r, -ERANGE, "nranks %d out of range",
				    rep->nranks);
	if ((rc = ios_h5r_read_compound(r, g, "ranks", IOS_T_METARANK, &p, &n,
					rep->nranks)))
		return rc;
	rep->ranks = p;
	return ios_h5r_read_u64_2d(r, g, "lat_hist", 1, IOS_LAT_BUCKETS,
				   &rep->lat_hist, &cols);
}

static int read_meta_rep_any(struct ios_h5_rctx *r, hid_t g, void *rep)
{
	return read_meta_rep(r, g, rep);
}

/* /meta/[k] (group [g] is /meta). */
static int read_meta_phase(struct ios_h5_rctx *r, hid_t g, int k,
			   struct ios_meta_phase *ph)
{
	int rc;

	ph->reps = read_phase_group(r, g, "meta", k, IOS_G_META, ph, &ph->nreps,
				    sizeof(*ph->reps), read_meta_rep_any, &rc);
	return rc;
}

/* /meta: the metadata phases, when the root says there are some. */
static int read_meta(struct ios_h5_rctx *r, hid_t f, struct ios_run *run)
{
	int32_t n = run->nmeta;
	hid_t g;
	int rc;

	run->nmeta = 0; /* counts the phases allocated, for ios_run_free */
	if (n == 0)
		return 0;
	snprintf(r->obj, sizeof(r->obj), "/meta");
	if (n < 0 || n > IOS_H5_MAX_COUNT)
		return ios_h5_rfail(r, -ERANGE, "nmeta %d out of range", n);
	if ((g = H5Gopen2(f, "meta", H5P_DEFAULT)) < 0)
		return ios_h5_rfail(r, -EBADMSG, "missing group");
	if ((rc = ios_h5r_count_bound(r, g, "nmeta", n))) {
		H5Gclose(g);
		return rc;
	}
	run->meta = calloc((size_t)n + 1, sizeof(*run->meta));
	if (!run->meta) {
		H5Gclose(g);
		return ios_h5_rfail(r, -ENOMEM, "%s", strerror(ENOMEM));
	}
	run->nmeta = n;
	for (int k = 0; !rc && k < n; k++)
		rc = read_meta_phase(r, g, k, &run->meta[k]);
	H5Gclose(g);
	r->obj[0] = '\0';
	return rc;
}

static int read_body(struct ios_h5_rctx *r, hid_t f, struct ios_run *run)
{
	int rc;

	if ((rc = read_root(r, f, run)) || (rc = read_config(r, f, run)) ||
	    (rc = read_nodes(r, f, run)) || (rc = read_attachments(r, f, run)))
		return rc;
	if ((rc = read_phases(r, f, run)))
		return rc;
	return read_meta(r, f, run);
}

int ios_h5_read_run(const char *path, struct ios_run **out, struct ios_err *err)
{
	struct ios_h5_rctx r = {.path = path, .err = err};
	struct ios_run *run;
	hid_t f;
	int rc;

	ios_h5_quiet();
	*out = NULL;
	if ((rc = ios_h5_open_file(&r, &f)))
		return rc;
	run = calloc(1, sizeof(*run));
	if (!run) {
		H5Fclose(f);
		return ios_errf(err, -ENOMEM, "h5schema: read %s: %s", path,
				strerror(ENOMEM));
	}
	rc = read_body(&r, f, run);
	if (H5Fclose(f) < 0 && !rc)
		rc = ios_h5_rfail_h5(&r, "close");
	if (!rc)
		rc = ios_h5_check_shape(path, run, err);
	if (rc) {
		ios_run_free(run);
		return rc;
	}
	ios_run_sanitize_text(run); /* another user's text, printed by root */
	*out = run;
	return 0;
}
