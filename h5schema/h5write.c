/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * h5write: the results file writer (ios_h5_write_run, h5run.h).  It walks
 * the attribute tables of schema.def; the data-shaped datasets (ranks,
 * histograms, samples, JSON trees, attachments) have code of their own.
 * The file is written under a temporary name and renamed when complete.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hdf5.h>
#ifdef HAVE_JANSSON
#include <jansson.h>
#endif

#include "h5run.h"
#include "h5run_internal.h"
#include "schema.h"
#include "h5write_json.h"
#include "h5write_prim.h"

int (*ios_h5_test_hook)(const char *step);
const char *ios_h5_test_tmp;

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
				rc = ios_h5w_attr_write_str(w, loc, a->name,
							    IOS_H5_FORMAT);
			} else if (!strcmp(a->name, "schema_version")) {
				int32_t v = IOS_SCHEMA_VERSION;

				rc = ios_h5w_attr_write_num(w, loc, a->name,
							    IOS_T_I32, &v);
			} else if (!strcmp(a->name, "writer_version")) {
				rc = ios_h5w_attr_write_str(
					w, loc, a->name,
					"libiostrata_h5 " PACKAGE_VERSION
					" (" IOSTRATA_GIT_REVISION ")");
			}
		} else if (a->type == IOS_T_STR) {
			const char *s = *(char *const *)p;

			if (!s && a->flags != IOS_H5_REQ)
				continue;
			rc = ios_h5w_attr_write_str(
				w, loc, a->name, s ? s : default_str(a->name));
		} else if (a->type == IOS_T_FSTR) {
			char buf[1024];

			snprintf(buf, sizeof(buf), "%.*s", (int)a->size, p);
			rc = ios_h5w_attr_write_str(w, loc, a->name, buf);
		} else {
			rc = ios_h5w_attr_write_num(w, loc, a->name, a->type,
						    p);
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
	hid_t mt = ios_h5_compound_type(c), ft = H5Tcopy(mt), sp, d;
	int rc = 0;

	H5Tpack(ft);
	sp = H5Screate_simple(1, dims, NULL);
	d = H5Dcreate2(loc, name, ft, sp, H5P_DEFAULT, H5P_DEFAULT,
		       H5P_DEFAULT);
	if (d < 0 ||
	    (n && H5Dwrite(d, mt, H5S_ALL, H5S_ALL, w->dxpl, data) < 0))
		rc = ios_h5w_wfail(w, name);
	if (d >= 0)
		H5Dclose(d);
	H5Sclose(sp);
	H5Tclose(ft);
	H5Tclose(mt);
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
		rc = ios_h5w_wfail(w, name);
	if (d >= 0)
		H5Dclose(d);
	H5Pclose(dapl);
	H5Pclose(dcpl);
	H5Sclose(sp);
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
	g = ios_h5w_group_create(w, loc, name, 0);
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
			rc = ios_h5w_wfail(
				w, "copy lat_hist from the file it replaces");
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

/* /meta/<k>/reps/<r>: the per-rank counts and times, the histogram. */
static int write_meta_rep(struct wctx *w, hid_t loc, int r,
			  const struct ios_meta_rep *rep)
{
	static const uint64_t zero[IOS_LAT_BUCKETS];
	char name[32];
	hid_t g;
	int rc;

	snprintf(name, sizeof(name), "%d", r);
	if ((g = ios_h5w_group_create(w, loc, name, 0)) < 0)
		return w->rc;
	rc = write_attrs(w, g, IOS_G_MREP, rep);
	if (!rc)
		rc = write_compound(w, g, "ranks", IOS_T_METARANK, rep->ranks,
				    rep->ranks && rep->nranks > 0
					    ? (size_t)rep->nranks
					    : 0);
	if (!rc)
		rc = write_array(w, g, "lat_hist", H5T_NATIVE_UINT64, 2, 1,
				 IOS_LAT_BUCKETS,
				 rep->lat_hist ? rep->lat_hist : zero);
	H5Gclose(g);
	return rc;
}

/* /meta: the metadata phases, when the run has them. */
static int write_meta(struct wctx *w, hid_t f, const struct ios_run *run)
{
	char name[32];
	hid_t g, sub, reps;
	int rc = 0;

	if (run->nmeta <= 0 || !run->meta)
		return 0;
	if ((g = ios_h5w_group_create(w, f, "meta", 0)) < 0)
		return w->rc;
	for (int k = 0; !rc && k < run->nmeta; k++) {
		const struct ios_meta_phase *ph = &run->meta[k];

		snprintf(name, sizeof(name), "%d", k);
		if ((sub = ios_h5w_group_create(w, g, name, 0)) < 0) {
			rc = w->rc;
			break;
		}
		rc = write_attrs(w, sub, IOS_G_META, ph);
		if (!rc &&
		    (reps = ios_h5w_group_create(w, sub, "reps", 0)) >= 0) {
			for (int r = 0; !rc && r < ph->nreps; r++)
				rc = write_meta_rep(w, reps, r, &ph->reps[r]);
			H5Gclose(reps);
		} else if (!rc) {
			rc = w->rc;
		}
		H5Gclose(sub);
	}
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
	if ((g = ios_h5w_group_create(w, f, "config", 0)) < 0)
		return w->rc;
	rc = write_compound(w, g, "options", IOS_T_KV, run->config,
			    run->config ? run->nconfig : 0);
	for (size_t i = 0; !rc && run->config && i < run->nconfig; i++) {
		if (!run->config[i].key)
			continue;
		ios_h5w_safe_name(name, sizeof(name), run->config[i].key);
		if (H5Aexists(g, name) > 0)
			continue;
		rc = ios_h5w_attr_write_str(w, g, name, run->config[i].value);
	}
	H5Gclose(g);
	if (rc || hook(w, "config"))
		return w->rc ? w->rc : rc;

	/* /nodes, /job, /ceph */
	if ((g = ios_h5w_group_create(w, f, "nodes", 0)) < 0)
		return w->rc;
	for (int i = 0; !rc && i < run->nnodes; i++) {
		snprintf(name, sizeof(name), "%d", i);
		rc = ios_h5w_write_json_group(
			w, g, name, run->node_json ? run->node_json[i] : NULL);
	}
	H5Gclose(g);
	/* /hosts: one record per host that took part */
	if (!rc) {
		if ((g = ios_h5w_group_create(w, f, "hosts", 0)) < 0)
			return w->rc;
		for (int i = 0; !rc && i < run->nhosts; i++) {
			snprintf(name, sizeof(name), "%d", i);
			rc = ios_h5w_write_json_group(
				w, g, name,
				run->host_json ? run->host_json[i] : NULL);
		}
		H5Gclose(g);
	}
	if (!rc && run->job_json)
		rc = ios_h5w_write_json_group(w, f, "job", run->job_json);
	if (!rc && run->ceph_json)
		rc = ios_h5w_write_json_group(w, f, "ceph", run->ceph_json);
	if (rc || hook(w, "nodes"))
		return w->rc ? w->rc : rc;

	/* /attachments */
	if ((g = ios_h5w_group_create(w, f, "attachments", 1)) < 0)
		return w->rc;
	for (size_t i = 0; !rc && run->attachments && i < run->nattach; i++) {
		const char *an = run->attachments[i].key;
		hid_t d;

		ios_h5w_safe_name(name, sizeof(name), an ? an : "");
		for (int n = 2; H5Lexists(g, name, H5P_DEFAULT) > 0; n++) {
			char base[200];

			ios_h5w_safe_name(base, sizeof(base), an ? an : "");
			snprintf(name, sizeof(name), "%s_%d", base, n);
		}
		rc = ios_h5w_write_text(w, g, name, run->attachments[i].value);
		if (rc)
			break;
		d = H5Dopen2(g, name, H5P_DEFAULT);
		rc = d < 0 ? ios_h5w_wfail(w, name)
			   : ios_h5w_attr_write_str(w, d, "name", an ? an : "");
		if (d >= 0)
			H5Dclose(d);
	}
	H5Gclose(g);
	if (rc)
		return rc;

	/* /phases */
	if ((g = ios_h5w_group_create(w, f, "phases", 0)) < 0)
		return w->rc;
	for (int k = 0; !rc && k < run->nphases; k++) {
		const struct ios_phase_result *ph = &run->phases[k];
		hid_t reps = -1;

		snprintf(name, sizeof(name), "%d", k);
		if ((sub = ios_h5w_group_create(w, g, name, 0)) < 0) {
			rc = w->rc;
			break;
		}
		rc = write_attrs(w, sub, IOS_G_PHASE, ph);
		if (!rc &&
		    (reps = ios_h5w_group_create(w, sub, "reps", 0)) >= 0) {
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
	rc = write_meta(w, f, run);
	return rc ? (w->rc ? w->rc : rc) : 0;
}

static int check_run(const char *path, const struct ios_run *run,
		     struct ios_err *err)
{
	const char *bad = NULL;

	if (!run)
		bad = "run is NULL";
	else if (run->nranks < 0 || run->nranks > IOS_H5_MAX_COUNT)
		bad = "nranks out of range";
	else if (run->nranks > 0 && !run->rank_info)
		bad = "rank_info is NULL";
	else if (run->nnodes < 0 || run->nnodes > IOS_H5_MAX_COUNT)
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

	ios_h5_quiet();
	w.dxpl = ios_h5_dxpl();
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
				path, ios_h5_why(w.why));
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
		rc = ios_h5w_wfail(
			&w,
			"create HDF5 file (exclusively: is something planted at the temporary name?)");
		goto out_unlink;
	}
	if ((rc = write_body(&w, f, run)))
		goto out_close;
	if (H5Fflush(f, H5F_SCOPE_GLOBAL) < 0) {
		rc = ios_h5w_wfail(&w, "flush");
		goto out_close;
	}
	if ((rc = hook(&w, "flush")))
		goto out_close;
	if (H5Fget_vfd_handle(f, H5P_DEFAULT, &vfd) < 0 || !vfd) {
		rc = ios_h5w_wfail(&w, "get file descriptor");
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
		rc = ios_h5w_wfail(&w, "close");
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
