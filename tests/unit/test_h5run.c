/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_h5run: results file writer/reader round trip, validator rejections
 * (truncated, corrupt, foreign, newer schema, missing fields) and the
 * atomic write (no partial file on an injected failure at any step).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <hdf5.h>

#include "h5iso.h"
#include "h5run.h"
#include "h5run_internal.h"
#include "schema.h"
#include "sanitizer.h"
#include "synth.h"

#include "h5_fx.h"

static int count_tmp(const char *dir);

static void test_roundtrip(void **state)
{
	struct fx *fx = *state;
	struct ios_run *a = fx->run, *b = NULL;
	struct ios_err err = {0};
	static struct ios_layer layers[2] = {
		{"device", "fio", 2e9, 1.5e9, 40000, 30000, ""},
		{"network", "phase 0", NAN, NAN, NAN, NAN,
		 "loopback: not a real network"},
	};
	static struct ios_net_pair net[1] = {{0, 1, 8 << 20, 4, 4.3e9, 900}};

	/* the layered-run parts, borrowed (ios_synth_free must not free) */
	a->layers = layers;
	a->nlayers = 2;
	a->net = net;
	a->nnet = 1;
	a->verdict = "device > fullstack: consistent";
	write_ok(fx);
	a->layers = NULL;
	a->nlayers = 0;
	a->net = NULL;
	a->nnet = 0;
	a->verdict = NULL;
	assert_int_equal(ios_h5_read_run(fx->path, &b, &err), 0);
	assert_string_equal(a->run_id, b->run_id);
	assert_string_equal(a->command_line, b->command_line);
	assert_string_equal(b->tool_version, PACKAGE_VERSION);
	assert_string_equal(b->git_revision, IOSTRATA_GIT_REVISION);
	assert_string_equal(b->build_options, IOSTRATA_CONFIGURE_ARGS);
	assert_string_equal(b->verdict, "device > fullstack: consistent");
	assert_int_equal(b->nlayers, 2);
	assert_string_equal(b->layers[1].note, "loopback: not a real network");
	assert_true(isnan(b->layers[1].read_bw));
	assert_true(b->layers[0].write_bw == 1.5e9);
	assert_int_equal(b->nnet, 1);
	assert_memory_equal(b->net, net, sizeof(net));
	assert_int_equal(a->nranks, b->nranks);
	assert_int_equal(a->nnodes, b->nnodes);
	assert_memory_equal(a->rank_info, b->rank_info,
			    sizeof(*a->rank_info) * (size_t)a->nranks);
	assert_int_equal(a->nconfig, b->nconfig);
	for (size_t i = 0; i < a->nconfig; i++) {
		assert_string_equal(a->config[i].key, b->config[i].key);
		assert_string_equal(a->config[i].value, b->config[i].value);
	}
	for (int i = 0; i < a->nnodes; i++)
		assert_string_equal(a->node_json[i], b->node_json[i]);
	assert_string_equal(a->job_json, b->job_json);
	assert_string_equal(a->ceph_json, b->ceph_json);
	assert_int_equal(a->nattach, b->nattach);
	assert_string_equal(a->attachments[0].key, b->attachments[0].key);
	assert_string_equal(a->attachments[0].value, b->attachments[0].value);
	assert_int_equal(a->nphases, b->nphases);
	for (int k = 0; k < a->nphases; k++) {
		struct ios_phase_result *pa = &a->phases[k],
					*pb = &b->phases[k];

		assert_string_equal(pa->name, pb->name);
		assert_int_equal(pa->bs, pb->bs);
		assert_int_equal(pa->nreps, pb->nreps);
		for (int r = 0; r < pa->nreps; r++) {
			struct ios_rep_result *ra = &pa->reps[r],
					      *rb = &pb->reps[r];

			assert_int_equal(ra->valid, rb->valid);
			assert_string_equal(ra->invalid_reason,
					    rb->invalid_reason);
			assert_memory_equal(&ra->fig, &rb->fig,
					    sizeof(ra->fig));
			assert_int_equal(ra->nerrors, rb->nerrors);
			assert_memory_equal(ra->errors, rb->errors,
					    sizeof(*ra->errors) * ra->nerrors);
			assert_memory_equal(ra->node_bw, rb->node_bw,
					    sizeof(double) *
						    (size_t)ra->nnodes);
			assert_non_null(ra->lat_hist);
			assert_non_null(rb->lat_hist);
			assert_memory_equal(ra->lat_hist, rb->lat_hist,
					    sizeof(uint64_t) * IOS_LAT_BUCKETS *
						    (size_t)ra->nranks);
			for (int i = 0; i < ra->nranks; i++) {
				struct ios_rank_result *x = &ra->ranks[i],
						       *y = &rb->ranks[i];

				assert_memory_equal(x->bytes, y->bytes,
						    sizeof(x->bytes));
				assert_int_equal(x->t_end_ns, y->t_end_ns);
				assert_int_equal(x->stonewall_bytes,
						 y->stonewall_bytes);
				assert_int_equal(x->ended_early,
						 y->ended_early);
				assert_memory_equal(&x->lat, &y->lat,
						    sizeof(x->lat));
				assert_int_equal(x->nsamples, y->nsamples);
				assert_memory_equal(x->sample_bytes,
						    y->sample_bytes,
						    x->nsamples * 8);
				assert_memory_equal(x->sample_ops,
						    y->sample_ops,
						    x->nsamples * 8);
			}
		}
	}
	ios_run_free(b);
	assert_int_equal(ios_h5_validate(fx->path, &err), 0);
}

static void test_empty_run(void **state)
{
	struct fx *fx = *state;
	struct ios_run r = {0}, *b = NULL;
	struct ios_err err = {0};

	assert_int_equal(ios_h5_write_run(fx->path, &r, &err), 0);
	assert_int_equal(ios_h5_validate(fx->path, &err), 0);
	assert_int_equal(ios_h5_read_run(fx->path, &b, &err), 0);
	assert_string_equal(b->run_id, "");
	assert_int_equal(b->nphases, 0);
	ios_run_free(b);
}

static void test_write_rejects_inconsistent(void **state)
{
	struct fx *fx = *state;
	struct ios_run r = {0};
	struct ios_err err = {0};

	r.nranks = 4; /* but no rank_info */
	assert_int_equal(ios_h5_write_run(fx->path, &r, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "rank_info"));
	assert_int_equal(access(fx->path, F_OK), -1);
}

/*
 * Rank 0 drops the histograms of a repetition once it is in the file; the
 * next write copies them from the file it replaces.  Without that file the
 * write fails with a message naming it, and leaves nothing behind.
 */
static void test_dropped_histograms(void **state)
{
	struct fx *fx = *state;
	struct ios_err err = {0};
	struct ios_phase_result *ph = &fx->run->phases[0];
	struct ios_rep_result *rep0 = &ph->reps[0];
	size_t len = sizeof(uint64_t) * IOS_LAT_BUCKETS * (size_t)rep0->nranks;
	uint64_t *orig = malloc(len);
	struct ios_run *b = NULL;
	char other[160];

	assert_true(ph->nreps >= 2);
	assert_non_null(orig);
	memcpy(orig, rep0->lat_hist, len);
	assert_int_equal(ios_h5_write_run(fx->path, fx->run, &err), 0);
	free(rep0->lat_hist);
	rep0->lat_hist = NULL;
	rep0->lat_hist_in_file = true;
	/* written again: rep 0's histograms come from the previous file */
	assert_int_equal(ios_h5_write_run(fx->path, fx->run, &err), 0);
	assert_int_equal(ios_h5_validate(fx->path, &err), 0);
	assert_int_equal(ios_h5_read_run(fx->path, &b, &err), 0);
	assert_memory_equal(b->phases[0].reps[0].lat_hist, orig, len);
	assert_memory_equal(b->phases[0].reps[1].lat_hist, ph->reps[1].lat_hist,
			    len);
	ios_run_free(b);
	/* and once more (a copy of a copy) */
	assert_int_equal(ios_h5_write_run(fx->path, fx->run, &err), 0);
	assert_int_equal(ios_h5_read_run(fx->path, &b, &err), 0);
	assert_memory_equal(b->phases[0].reps[0].lat_hist, orig, len);
	ios_run_free(b);
	/* no previous file to copy from: refused, nothing created */
	snprintf(other, sizeof(other), "%s/other.h5", fx->dir);
	assert_int_equal(ios_h5_write_run(other, fx->run, &err), -EIO);
	assert_non_null(strstr(err.msg, other));
	assert_non_null(strstr(err.msg, "latency histograms"));
	assert_int_equal(access(other, F_OK), -1);
	assert_int_equal(count_tmp(fx->dir), 0);
	rep0->lat_hist = orig; /* for teardown */
	rep0->lat_hist_in_file = false;
}

static int count_tmp(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (strstr(e->d_name, ".tmp."))
			n++;
	closedir(d);
	return n;
}

static const char *fail_step;
static int fail_hook(const char *step)
{
	return !strcmp(step, fail_step);
}

/* At "create": plant a link to the victim at the temporary name, as a
 * user of a shared non-sticky directory could between mkstemp and the
 * create; the writer must refuse, not write through it. */
static char plant_victim[PATH_MAX];
static int plant_hook(const char *step)
{
	if (!strcmp(step, "create"))
		assert_int_equal(symlink(plant_victim, ios_h5_test_tmp), 0);
	return 0;
}

static void test_tmp_link_not_followed(void **state)
{
	struct fx *fx = *state;
	struct ios_err err = {0};
	char buf[16] = {0};
	FILE *f;

	snprintf(plant_victim, sizeof(plant_victim), "%s/victim", fx->dir);
	f = fopen(plant_victim, "w");
	assert_non_null(f);
	fputs("precious", f);
	fclose(f);
	ios_h5_test_hook = plant_hook;
	assert_int_equal(ios_h5_write_run(fx->path, fx->run, &err), -EIO);
	ios_h5_test_hook = NULL;
	assert_non_null(strstr(err.msg, "create HDF5 file"));
	f = fopen(plant_victim, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "precious");
	assert_int_equal(count_tmp(fx->dir), 0);
	assert_int_equal(access(fx->path, F_OK), -1);
	unlink(plant_victim);
}

static void test_atomic_on_failure(void **state)
{
	static const char *const steps[] = {"create", "attrs",  "config",
					    "nodes",  "phases", "flush",
					    "fsync",  "close"};
	struct fx *fx = *state;
	struct ios_err err = {0};
	char buf[16] = {0};
	FILE *f;

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		f = fopen(fx->path, "w");
		assert_non_null(f);
		fputs("previous", f);
		fclose(f);
		fail_step = steps[i];
		ios_h5_test_hook = fail_hook;
		assert_int_equal(ios_h5_write_run(fx->path, fx->run, &err),
				 -EIO);
		ios_h5_test_hook = NULL;
		assert_non_null(strstr(err.msg, steps[i]));
		f = fopen(fx->path, "r");
		assert_non_null(f);
		assert_non_null(fgets(buf, sizeof(buf), f));
		fclose(f);
		assert_string_equal(buf, "previous");
		assert_int_equal(count_tmp(fx->dir), 0);
	}
	/* and a write into a missing directory fails cleanly */
	assert_true(ios_h5_write_run("/nonexistent-dir/x.h5", fx->run, &err) <
		    0);
	assert_non_null(strstr(err.msg, "/nonexistent-dir/x.h5"));
}

static void truncate_copy(const char *src, const char *dst, double frac)
{
	struct stat st;
	char cmd[512];

	assert_int_equal(stat(src, &st), 0);
	snprintf(cmd, sizeof(cmd), "head -c %lld '%s' > '%s'",
		 (long long)(st.st_size * frac), src, dst);
	assert_int_equal(system(cmd), 0);
}

static void delete_obj(const char *path, const char *obj, const char *attr)
{
	hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);

	assert_true(f >= 0);
	if (attr)
		assert_true(H5Adelete_by_name(f, obj, attr, H5P_DEFAULT) >= 0);
	else
		assert_true(H5Ldelete(f, obj, H5P_DEFAULT) >= 0);
	H5Fclose(f);
}

enum damage {
	D_TRUNC_HALF,
	D_TRUNC_SMALL,
	D_EMPTY,
	D_TEXT,
	D_FOREIGN,
	D_NEWER,
	D_NO_ATTR,
	D_NO_DSET,
	D_NO_REP,
	D_MISSING,
	D_GARBAGE,
};

static void test_validate_rejects(void **state)
{
	static const struct {
		enum damage d;
		int code;
		const char *msg; /* substring of the message */
	} cases[] = {
		{D_TRUNC_HALF, -EBADMSG, "truncated"},
		{D_TRUNC_SMALL, -EBADMSG, "HDF5"},
		{D_EMPTY, -EBADMSG, "not an HDF5 file"},
		{D_TEXT, -EBADMSG, "not an HDF5 file"},
		{D_FOREIGN, -ENOMSG, "not an iostrata results file"},
		{D_NEWER, -EPROTONOSUPPORT, "schema version 99"},
		{D_NO_ATTR, -EBADMSG, "'run_id'"},
		{D_NO_DSET, -EBADMSG, "'lat_hist'"},
		/* nreps 3, two groups: a count its collection disagrees with */
		{D_NO_REP, -ERANGE,
		 "/phases/1/reps: nreps 3, but the group holds 2"},
		{D_MISSING, -ENOENT, "No such file"},
		{D_GARBAGE, -EBADMSG, ""},
	};
	struct fx *fx = *state;
	char bad[160];

	write_ok(fx);
	snprintf(bad, sizeof(bad), "%s/bad.h5", fx->dir);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ios_err err = {0};
		struct ios_run *run = NULL;
		char cmd[400];
		FILE *f;

		unlink(bad);
		switch (cases[i].d) {
		case D_TRUNC_HALF:
			truncate_copy(fx->path, bad, 0.5);
			break;
		case D_TRUNC_SMALL:
			truncate_copy(fx->path, bad, 0.01);
			break;
		case D_EMPTY:
			truncate_copy(fx->path, bad, 0);
			break;
		case D_TEXT:
			f = fopen(bad, "w");
			fputs("bs,bw\n8M,100\n", f);
			fclose(f);
			break;
		case D_FOREIGN: {
			hid_t h = H5Fcreate(bad, H5F_ACC_TRUNC, H5P_DEFAULT,
					    H5P_DEFAULT);
			H5Gclose(H5Gcreate2(h, "data", H5P_DEFAULT, H5P_DEFAULT,
					    H5P_DEFAULT));
			H5Fclose(h);
			break;
		}
		case D_NEWER:
			truncate_copy(fx->path, bad, 1);
			set_attr_int(bad, "/", "schema_version", 99);
			break;
		case D_NO_ATTR:
			truncate_copy(fx->path, bad, 1);
			delete_obj(bad, "/", "run_id");
			break;
		case D_NO_DSET:
			truncate_copy(fx->path, bad, 1);
			delete_obj(bad, "/phases/0/reps/1/lat_hist", NULL);
			break;
		case D_NO_REP:
			truncate_copy(fx->path, bad, 1);
			delete_obj(bad, "/phases/1/reps/2", NULL);
			break;
		case D_MISSING:
			break;
		case D_GARBAGE:
			/* keep the signature, overwrite the rest of the
			 * first 4 KiB (superblock, root group) */
			truncate_copy(fx->path, bad, 1);
			snprintf(
				cmd, sizeof(cmd),
				"dd if=/dev/urandom of='%s' bs=1 seek=16 count=4000 conv=notrunc status=none",
				bad);
			assert_int_equal(system(cmd), 0);
			break;
		}
		assert_int_equal(ios_h5_validate(bad, &err), cases[i].code);
		assert_non_null(strstr(err.msg, bad));
		if (!strstr(err.msg, cases[i].msg))
			fail_msg("case %zu: message '%s' lacks '%s'", i,
				 err.msg, cases[i].msg);
		assert_int_equal(ios_h5_read_run(bad, &run, &err),
				 cases[i].d == D_NO_DSET ||
						 cases[i].d == D_NO_ATTR
					 ? -EBADMSG
					 : cases[i].code);
		assert_null(run);
	}
}

/* Every name in the schema tables is documented in SCHEMA.md. */
static void test_schema_documented(void **state)
{
	const char *src = getenv("IOSTRATA_SRCDIR");
	char path[512], *doc;
	FILE *f;
	long n;

	(void)state;
	if (!src)
		src = "..";
	snprintf(path, sizeof(path), "%s/h5schema/SCHEMA.md", src);
	f = fopen(path, "r");
	if (!f)
		skip();
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	doc = calloc(1, (size_t)n + 1);
	assert_int_equal(fread(doc, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	for (size_t i = 0; i < ios_h5_nattrs; i++) {
		char q[80];

		snprintf(q, sizeof(q), "`%s`", ios_h5_attrs[i].name);
		if (!strstr(doc, q))
			fail_msg("attribute %s not in SCHEMA.md", q);
	}
	for (size_t i = 0; i < ios_h5_ndsets; i++) {
		char q[80];

		snprintf(q, sizeof(q), "`%s`", ios_h5_dsets[i].name);
		if (!strstr(doc, q))
			fail_msg("dataset %s not in SCHEMA.md", q);
	}
	for (size_t i = 0; i < ios_h5_nmembers; i++) {
		char q[80];

		snprintf(q, sizeof(q), "`%s`", ios_h5_members[i].name);
		if (!strstr(doc, q))
			fail_msg("member %s not in SCHEMA.md", q);
	}
	free(doc);
}

/*
 * The metadata phases (/meta): written, validated and read back equal,
 * ops/s recomputed from the file's per-rank rows; a file whose nmeta
 * says more phases than /meta holds, or whose rep lost its ranks, is
 * refused naming the object.
 */
static void test_meta_roundtrip(void **state)
{
	struct fx *fx = *state;
	struct ios_run *a = fx->run, *b = NULL;
	struct ios_err err = {0};
	struct ios_meta_rank ranks[2] = {{400, 0, 0.5}, {300, 1, 0.8}};
	struct ios_meta_rep reps[1] = {{.nranks = 2,
					.ranks = ranks,
					.lat = {700, 1000, 90000, 3.5e6},
					.stonewalled = 1}};
	struct ios_meta_phase ph[1] = {{.op = "create", .nreps = 1}};
	struct ios_meta_fig f;
	uint64_t *hist = calloc(IOS_LAT_BUCKETS, sizeof(*hist));

	assert_non_null(hist);
	hist[ios_lathist_bucket(5000)] = 700;
	reps[0].lat_hist = hist;
	ph[0].reps = reps;
	a->meta = ph; /* borrowed */
	a->nmeta = 1;
	write_ok(fx);
	a->meta = NULL;
	a->nmeta = 0;
	free(hist);
	assert_int_equal(ios_h5_validate(fx->path, &err), 0);
	assert_int_equal(ios_h5_read_run(fx->path, &b, &err), 0);
	assert_int_equal(b->nmeta, 1);
	assert_string_equal(b->meta[0].op, "create");
	assert_int_equal(b->meta[0].nreps, 1);
	assert_int_equal(b->meta[0].reps[0].nranks, 2);
	assert_int_equal(b->meta[0].reps[0].stonewalled, 1);
	assert_int_equal(b->meta[0].reps[0].ranks[1].ops, 300);
	assert_int_equal(b->meta[0].reps[0].ranks[1].errors, 1);
	assert_true(b->meta[0].reps[0].ranks[1].wall_s == 0.8);
	assert_int_equal(b->meta[0].reps[0].lat.n, 700);
	assert_int_equal(b->meta[0].reps[0].lat_hist[ios_lathist_bucket(5000)],
			 700);
	ios_meta_figures(&b->meta[0].reps[0], &f);
	assert_true(fabs(f.ops_s - 700 / 0.8) < 1e-9);
	ios_run_free(b);
	b = NULL;
	/* the same through the isolated reader (the report's) */
	assert_int_equal(ios_h5_read_run_isolated(fx->path, NULL, &b, &err), 0);
	assert_int_equal(b->nmeta, 1);
	assert_string_equal(b->meta[0].op, "create");
	assert_int_equal(b->meta[0].reps[0].ranks[0].ops, 400);
	assert_int_equal(b->meta[0].reps[0].stonewalled, 1);
	assert_int_equal(b->meta[0].reps[0].lat_hist[ios_lathist_bucket(5000)],
			 700);
	ios_run_free(b);
	b = NULL;

	/* nmeta 2, one phase in /meta */
	set_attr_int(fx->path, "/", "nmeta", 2);
	assert_int_not_equal(ios_h5_validate(fx->path, &err), 0);
	assert_non_null(strstr(err.msg, "/meta"));
	assert_int_not_equal(ios_h5_read_run(fx->path, &b, &err), 0);
	assert_null(b);
	set_attr_int(fx->path, "/", "nmeta", 1);
	assert_int_equal(ios_h5_validate(fx->path, &err), 0);
	/* a repetition without its per-rank rows */
	delete_obj(fx->path, "/meta/0/reps/0/ranks", NULL);
	assert_int_not_equal(ios_h5_validate(fx->path, &err), 0);
	assert_non_null(strstr(err.msg, "/meta/0/reps/0"));
	assert_non_null(strstr(err.msg, "'ranks'"));
}

/* A complete host record (model/synth.c), asserted. */
static char *host_record(const char *name, const char *role, const char *mpi,
			 int why)
{
	char *s = ios_synth_host_record(name, role, mpi, why != 0);

	assert_non_null(s);
	return s;
}

static void set_hosts(struct ios_run *run, char *a, char *b)
{
	run->nhosts = 2;
	run->host_json = calloc(3, sizeof(char *));
	assert_non_null(run->host_json);
	run->host_json[0] = a;
	run->host_json[1] = b;
}

/* Host records: written, read back, validated; every way a record or
 * the group can be wrong is refused, naming what. */
static void test_hosts(void **state)
{
	struct fx *fx = *state;
	struct ios_err err = {0};
	struct ios_run *back = NULL;
	char bad[160];

	set_hosts(fx->run, host_record("s1", "storage", "unknown", 1),
		  host_record("c1", "client", "Open MPI v4.1.4", 0));
	write_ok(fx);
	assert_int_equal(ios_h5_read_run(fx->path, &back, &err), 0);
	assert_int_equal(back->schema_version, IOS_SCHEMA_VERSION);
	assert_int_equal(back->nhosts, 2);
	assert_string_equal(back->host_json[0], fx->run->host_json[0]);
	assert_string_equal(back->host_json[1], fx->run->host_json[1]);
	ios_run_free(back);
	assert_int_equal(ios_h5_validate(fx->path, &err), 0);

	/* a version-2 file without the records or their count */
	snprintf(bad, sizeof(bad), "%s/bad.h5", fx->dir);
	truncate_copy(fx->path, bad, 1);
	delete_obj(bad, "/", "nhosts");
	assert_int_equal(ios_h5_validate(bad, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "required from schema version 2"));
	unlink(bad);
	truncate_copy(fx->path, bad, 1);
	delete_obj(bad, "/hosts", NULL);
	assert_int_equal(ios_h5_validate(bad, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "/hosts"));
	unlink(bad);

	/* a bad role; a member unknown without a reason; a member missing */
	free(fx->run->host_json[1]);
	fx->run->host_json[1] = host_record("c1", "oracle", "x", 0);
	write_ok(fx);
	assert_int_equal(ios_h5_validate(fx->path, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "role \"oracle\""));
	assert_non_null(strstr(err.msg, "/hosts/1"));
	free(fx->run->host_json[1]);
	fx->run->host_json[1] = host_record("c1", "client", "unknown", 0);
	write_ok(fx);
	assert_int_equal(ios_h5_validate(fx->path, &err), -EBADMSG);
	assert_non_null(
		strstr(err.msg, "'mpi_library' is unknown without a reason"));
	free(fx->run->host_json[1]);
	fx->run->host_json[1] =
		strdup("{\"hostname\":\"c1\",\"role\":\"client\"}");
	write_ok(fx);
	assert_int_equal(ios_h5_validate(fx->path, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "missing member 'role_source'"));
	free(fx->run->host_json[1]);
	fx->run->host_json[1] = strdup("not json");
	write_ok(fx);
	assert_int_equal(ios_h5_validate(fx->path, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "not JSON"));
}

/* [rec] with [members] put first in its "slurm" object. */
static char *with_slurm(char *rec, const char *members)
{
	char *at = strstr(rec, "\"slurm\":{"), *s = NULL;

	assert_non_null(at);
	at += strlen("\"slurm\":{");
	assert_true(asprintf(&s, "%.*s%s,%s", (int)(at - rec), rec, members,
			     at) > 0);
	free(rec);
	return s;
}

/* The running Slurm versions (added after the first version-2 files):
 * a record without them is valid, one with them is, and one whose
 * slurmctld version or mismatch is unknown without a reason is not. */
static void test_hosts_slurm_running(void **state)
{
	struct fx *fx = *state;
	struct ios_err err = {0};
	const char *ok =
		"\"version_built_source\":\"slurm/slurm_version.h of the build\","
		"\"version_slurmctld\":\"23.02.6\",\"version_slurmctld_source\":\"scontrol show config (SLURM_VERSION)\","
		"\"version_slurmd\":\"unknown\",\"version_slurmd_source\":\"scontrol -o show node c1 (Version=)\","
		"\"version_mismatch\":\"built 22.05.8, slurmctld 23.02.6\","
		"\"why_unknown\":{\"version_slurmd\":\"scontrol -o show node c1: exit 1\"}";

	set_hosts(fx->run, host_record("s1", "storage", "x", 0),
		  with_slurm(host_record("c1", "client", "x", 0), ok));
	write_ok(fx);
	assert_int_equal(ios_h5_validate(fx->path, &err), 0);

	free(fx->run->host_json[1]);
	fx->run->host_json[1] = with_slurm(host_record("c1", "client", "x", 0),
					   "\"version_slurmctld\":\"unknown\"");
	write_ok(fx);
	assert_int_equal(ios_h5_validate(fx->path, &err), -EBADMSG);
	assert_non_null(strstr(
		err.msg,
		"'slurm.version_slurmctld' is unknown without a reason"));

	free(fx->run->host_json[1]);
	fx->run->host_json[1] = with_slurm(host_record("c1", "client", "x", 0),
					   "\"version_mismatch\":\"unknown\"");
	write_ok(fx);
	assert_int_equal(ios_h5_validate(fx->path, &err), -EBADMSG);
	assert_non_null(
		strstr(err.msg,
		       "'slurm.version_mismatch' is unknown without a reason"));
}

/* mpi_transport (added later): absent is valid; requested and selected
 * as recorded are; selected unknown without a reason, or no env, is not. */
static void test_hosts_mpi_transport(void **state)
{
	struct fx *fx = *state;
	struct ios_err err = {0};
	static const struct {
		const char *member, *want;
	} cases[] = {
		{"\"mpi_transport\":{\"requested\":{\"env\":{\"OMPI_MCA_pml\":\"ob1\"},\"cvars\":{\"pml\":\"ob1\",\"btl\":\"^openib\"}},\"selected\":\"unknown\",\"why_unknown\":{\"selected\":\"not known reliably\"}}",
		 NULL},
		{"\"mpi_transport\":\"unknown\"",
		 "'mpi_transport' is unknown without a reason"},
		{"\"mpi_transport\":{\"requested\":{\"env\":{},\"cvars\":{}},\"selected\":\"unknown\"}",
		 "'mpi_transport.selected' is unknown without a reason"},
		{"\"mpi_transport\":{\"requested\":{\"cvars\":{}},\"selected\":\"ob1\"}",
		 "missing member 'mpi_transport.requested.env'"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *rec = host_record("c1", "client", "x", 0), *s = NULL;

		/* the member goes first in the record */
		assert_true(asprintf(&s, "{%s,%s", cases[i].member, rec + 1) >
			    0);
		free(rec);
		for (int h = 0; fx->run->host_json && h < fx->run->nhosts; h++)
			free(fx->run->host_json[h]);
		free(fx->run->host_json);
		set_hosts(fx->run, host_record("s1", "storage", "x", 0), s);
		write_ok(fx);
		if (!cases[i].want) {
			assert_int_equal(ios_h5_validate(fx->path, &err), 0);
		} else {
			assert_int_equal(ios_h5_validate(fx->path, &err),
					 -EBADMSG);
			if (!strstr(err.msg, cases[i].want))
				fail_msg("case %zu: want \"%s\", got \"%s\"", i,
					 cases[i].want, err.msg);
		}
	}
}

/* Files of schema version 1 (no /hosts) stay readable and valid: one
 * written by the version-1 writer (tests/fixtures/results-v1.h5), and a
 * current file taken back to version 1. */
static void test_old_version(void **state)
{
	struct fx *fx = *state;
	struct ios_err err = {0};
	struct ios_run *back = NULL;
	const char *v1 = IOS_FIXTURES "/results-v1.h5";
	char old[160];

	assert_int_equal(ios_h5_read_run(v1, &back, &err), 0);
	assert_int_equal(back->schema_version, 1);
	assert_int_equal(back->nhosts, 0);
	assert_true(back->nnodes > 0);
	ios_run_free(back);
	back = NULL;
	assert_int_equal(ios_h5_validate(v1, &err), 0);

	set_hosts(fx->run, host_record("s1", "storage", "x", 0),
		  host_record("c1", "client", "x", 0));
	write_ok(fx);
	snprintf(old, sizeof(old), "%s/old.h5", fx->dir);
	truncate_copy(fx->path, old, 1);
	delete_obj(old, "/", "nhosts");
	delete_obj(old, "/hosts", NULL);
	set_attr_int(old, "/", "schema_version", 1);
	assert_int_equal(ios_h5_validate(old, &err), 0);
	assert_int_equal(ios_h5_read_run(old, &back, &err), 0);
	assert_int_equal(back->nhosts, 0);
	ios_run_free(back);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_roundtrip, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_empty_run, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_write_rejects_inconsistent,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_dropped_histograms, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_tmp_link_not_followed,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_atomic_on_failure, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_validate_rejects, setup,
						teardown),
		cmocka_unit_test(test_schema_documented),
		cmocka_unit_test_setup_teardown(test_meta_roundtrip, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_hosts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hosts_slurm_running, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_hosts_mpi_transport, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_old_version, setup,
						teardown),
	};

	return cmocka_run_group_tests_name("h5run", tests, NULL, NULL);
}
