/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * meta: the metadata phases' MPI side (meta.h): the run's directory, each
 * repetition's directories, the per-rank loop of every phase between two
 * barriers, the gather to rank 0 (per-rank counts and wall times, the
 * latency histograms summed), the progress line, the cleanup.  No message
 * during a phase: the stonewall is the same time after the same barrier
 * on every rank.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define IOSTRATA_MB_META_MPI
#include "backend.h"
#include "lathist.h"
#include "meta.h"
#include "results.h"
#include "watchdog.h"
#include "world.h"

#define NAME_MAX_LEN 512

struct meta_rank {
	const struct mb_config *cfg;
	const struct mb_backend *be;
	struct mb_ctx *ctx;
	MPI_Comm comm;
	int rank, nranks;
	char run[256];
	void *buf; /* --meta-size bytes: what create writes, read reads */
	struct mb_meta_made files, dirs;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/* One operation [op] on item [i]. */
static int do_op(struct meta_rank *m, enum mb_meta_op op, unsigned rep,
		 uint64_t i)
{
	char name[NAME_MAX_LEN];
	bool dir = mb_meta_op_dir(op);
	int rc;

	rc = mb_meta_item(name, sizeof(name), m->run, m->cfg->meta_layout, rep,
			  m->rank, dir, i);
	if (rc)
		return ios_errf(m->ctx->err, rc, "--meta: name too long");
	switch (op) {
	case MB_META_CREATE:
		return m->be->meta_create(m->ctx, name, m->buf,
					  m->cfg->meta_size);
	case MB_META_STAT:
	case MB_META_DIRSTAT:
		return m->be->meta_stat(m->ctx, name, dir);
	case MB_META_READ:
		return m->be->meta_read(m->ctx, name, m->buf,
					m->cfg->meta_size);
	case MB_META_REMOVE:
	case MB_META_RMDIR:
		return m->be->meta_remove(m->ctx, name, dir);
	case MB_META_MKDIR:
		return m->be->meta_mkdir(m->ctx, name);
	default:
		return -EINVAL;
	}
}

/* This rank's part of phase [op]: the loop from the common start. */
static int rank_phase(struct meta_rank *m, enum mb_meta_op op, unsigned rep,
		      struct ios_meta_rank *out, struct ios_lathist *h,
		      int *stonewalled)
{
	struct mb_meta_made *made = mb_meta_op_dir(op) ? &m->dirs : &m->files;
	uint64_t todo = mb_meta_todo(op, made, m->cfg->meta_files);
	uint64_t base = mb_meta_op_makes(op) ? 0 : made->lo;
	double stonewall = mb_meta_op_makes(op) ? m->cfg->meta_time : 0;
	double t0, t;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	MPI_Barrier(m->comm);
	t0 = now_s();
	t = t0;
	while (mb_meta_go_on(out->ops, todo, t - t0, stonewall)) {
		int64_t a = now_ns(), b;

		rc = do_op(m, op, rep, base + out->ops);
		b = now_ns();
		t = (double)b / 1e9;
		if (rc) {
			out->errors++;
			break;
		}
		ios_lathist_add(h, (uint64_t)(b - a));
		out->ops++;
	}
	out->wall_s = now_s() - t0;
	*stonewalled = stonewall > 0 && out->ops < todo && !rc;
	mb_meta_after(op, made, out->ops);
	return rc;
}

/* Gather one phase's repetition to rank 0 into [rep] (rank 0). */
static int gather(struct meta_rank *m, const struct ios_meta_rank *mine,
		  const struct ios_lathist *h, int stonewalled,
		  struct ios_meta_rep *rep)
{
	uint64_t cnt[2] = {mine->ops, mine->errors}, *allc = NULL;
	double *allw = NULL;
	uint64_t lmin = h->min_ns, lmax = h->max_ns, ln = h->n;
	double lsum = h->sum_ns;
	int sw = 0, r, bad = 0;

	if (m->rank == 0) {
		allc = calloc((size_t)m->nranks * 2, sizeof(*allc));
		allw = calloc((size_t)m->nranks, sizeof(*allw));
		rep->ranks = calloc((size_t)m->nranks, sizeof(*rep->ranks));
		rep->lat_hist = calloc(IOS_LAT_BUCKETS, sizeof(uint64_t));
		bad = !allc || !allw || !rep->ranks || !rep->lat_hist;
	}
	MPI_Bcast(&bad, 1, MPI_INT, 0, m->comm);
	if (bad) {
		free(allc);
		free(allw);
		return -ENOMEM;
	}
	MPI_Gather(cnt, 2, MPI_UINT64_T, allc, 2, MPI_UINT64_T, 0, m->comm);
	MPI_Gather(&mine->wall_s, 1, MPI_DOUBLE, allw, 1, MPI_DOUBLE, 0,
		   m->comm);
	MPI_Reduce(h->count, m->rank == 0 ? rep->lat_hist : NULL,
		   IOS_LAT_BUCKETS, MPI_UINT64_T, MPI_SUM, 0, m->comm);
	MPI_Reduce(m->rank == 0 ? MPI_IN_PLACE : &ln, &ln, 1, MPI_UINT64_T,
		   MPI_SUM, 0, m->comm);
	MPI_Reduce(m->rank == 0 ? MPI_IN_PLACE : &lmin, &lmin, 1, MPI_UINT64_T,
		   MPI_MIN, 0, m->comm);
	MPI_Reduce(m->rank == 0 ? MPI_IN_PLACE : &lmax, &lmax, 1, MPI_UINT64_T,
		   MPI_MAX, 0, m->comm);
	MPI_Reduce(m->rank == 0 ? MPI_IN_PLACE : &lsum, &lsum, 1, MPI_DOUBLE,
		   MPI_SUM, 0, m->comm);
	MPI_Reduce(&stonewalled, &sw, 1, MPI_INT, MPI_MAX, 0, m->comm);
	if (m->rank == 0) {
		rep->nranks = m->nranks;
		for (r = 0; r < m->nranks; r++) {
			rep->ranks[r].ops = allc[2 * r];
			rep->ranks[r].errors = allc[2 * r + 1];
			rep->ranks[r].wall_s = allw[r];
		}
		rep->lat.n = ln;
		rep->lat.min_ns = lmin;
		rep->lat.max_ns = lmax;
		rep->lat.sum_ns = lsum;
		rep->stonewalled = sw;
	}
	free(allc);
	free(allw);
	return 0;
}

/* Rank 0's progress line of one phase's repetition. */
static void progress(const struct mb_config *cfg, enum mb_meta_op op,
		     unsigned rep, const struct ios_meta_rep *r)
{
	struct ios_meta_fig f;

	if (cfg->quiet)
		return;
	ios_meta_figures(r, &f);
	fprintf(stderr,
		"iostrata-bench: meta %s rep %u/%u: %" PRIu64
		" ops in %.3f s (slowest rank %d): %.0f ops/s; per rank %.0f..%.0f ops/s%s",
		mb_meta_op_name(op), rep + 1, cfg->reps, f.ops, f.wall_max_s,
		f.slowest_rank, f.ops_s, f.rank_ops_s_min, f.rank_ops_s_max,
		r->stonewalled ? "; stonewalled" : "");
	for (int k = 0; k < f.nstragglers && k < 8; k++)
		fprintf(stderr, "%s%d", k ? "," : "; straggler rank ",
			f.straggler[k]);
	fprintf(stderr, "\n");
}

/* Remove this rank's names of the repetition that are left (untimed;
 * after an error, or without remove/rmdir phases), then its directory. */
static void cleanup_rep(struct meta_rank *m, unsigned rep)
{
	char name[NAME_MAX_LEN];
	uint64_t i;

	for (i = m->files.lo; i < m->files.hi; i++)
		if (!mb_meta_item(name, sizeof(name), m->run,
				  m->cfg->meta_layout, rep, m->rank, false, i))
			m->be->meta_remove(m->ctx, name, false);
	for (i = m->dirs.lo; i < m->dirs.hi; i++)
		if (!mb_meta_item(name, sizeof(name), m->run,
				  m->cfg->meta_layout, rep, m->rank, true, i))
			m->be->meta_remove(m->ctx, name, true);
	m->files.lo = m->files.hi;
	m->dirs.lo = m->dirs.hi;
	if (m->cfg->meta_layout == MB_META_EASY &&
	    !mb_meta_work_dir(name, sizeof(name), m->run, MB_META_EASY, rep,
			      m->rank))
		m->be->meta_remove(m->ctx, name, true);
	MPI_Barrier(m->comm);
	if (m->rank == 0) {
		if (m->cfg->meta_layout == MB_META_HARD &&
		    !mb_meta_work_dir(name, sizeof(name), m->run, MB_META_HARD,
				      rep, 0))
			m->be->meta_remove(m->ctx, name, true);
		if (!mb_meta_rep_dir(name, sizeof(name), m->run, rep))
			m->be->meta_remove(m->ctx, name, true);
	}
}

/* The repetition's directories: RUN/rep.K by rank 0, then the work
 * directories (each rank its own, or rank 0 the shared one).  Agreed. */
static int make_rep_dirs(struct meta_rank *m, unsigned rep, struct ios_err *err)
{
	char name[NAME_MAX_LEN];
	int rc = 0;

	if (m->rank == 0) {
		rc = mb_meta_rep_dir(name, sizeof(name), m->run, rep);
		if (!rc)
			rc = m->be->meta_mkdir(m->ctx, name);
		if (!rc && m->cfg->meta_layout == MB_META_HARD) {
			rc = mb_meta_work_dir(name, sizeof(name), m->run,
					      MB_META_HARD, rep, 0);
			if (!rc)
				rc = m->be->meta_mkdir(m->ctx, name);
		}
	}
	rc = mb_agree(m->comm, m->rank, rc, err, NULL);
	if (rc || m->cfg->meta_layout == MB_META_HARD)
		return rc;
	rc = mb_meta_work_dir(name, sizeof(name), m->run, MB_META_EASY, rep,
			      m->rank);
	if (!rc)
		rc = m->be->meta_mkdir(m->ctx, name);
	return mb_agree(m->comm, m->rank, rc, err, NULL);
}

/* Rank 0 names and makes the run's directory; every rank gets the name. */
static int make_run_dir(struct meta_rank *m, struct ios_err *err)
{
	int rc = 0;

	if (m->rank == 0) {
		char stamp[32];
		time_t t = time(NULL);
		struct tm tm;

		gmtime_r(&t, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
		rc = mb_meta_run_name(m->run, sizeof(m->run), stamp,
				      getenv("SLURM_JOB_ID"), (long)getpid());
		if (rc)
			rc = ios_errf(
				m->ctx->err, rc,
				"--meta: the run's directory name is too long");
		else
			rc = m->be->meta_mkdir(m->ctx, m->run);
	}
	MPI_Bcast(m->run, sizeof(m->run), MPI_CHAR, 0, m->comm);
	return mb_agree(m->comm, m->rank, rc, err, NULL);
}

/* Every phase of repetition [rep]; rank 0 fills [run]'s. */
static int run_rep(struct meta_rank *m, unsigned rep, struct ios_run *run,
		   struct ios_err *err)
{
	int k, rc = 0;

	m->files = (struct mb_meta_made){0, 0};
	m->dirs = (struct mb_meta_made){0, 0};
	for (k = 0; k < m->cfg->nmeta && !rc; k++) {
		enum mb_meta_op op = m->cfg->meta[k];
		struct ios_meta_rank mine;
		struct ios_meta_rep tmp = {0}, *out = &tmp;
		struct ios_lathist h;
		int sw = 0, grc;

		ios_lathist_init(&h);
		mb_watchdog_arm(m->cfg->meta_time > 0
					? m->cfg->meta_time * 3 + 300
					: (double)m->cfg->meta_files * 0.5 +
						  300,
				"metadata phase");
		rc = rank_phase(m, op, rep, &mine, &h, &sw);
		if (m->rank == 0) {
			out = &run->meta[k].reps[rep];
			run->meta[k].nreps = (int32_t)rep + 1;
		}
		grc = gather(m, &mine, &h, sw, out);
		if (m->rank == 0 && !grc)
			progress(m->cfg, op, rep, out);
		if (grc && !rc)
			rc = ios_errf(m->ctx->err, grc,
				      "--meta: gather: out of memory");
		rc = mb_agree(m->comm, m->rank, rc, err, NULL);
	}
	mb_watchdog_arm(300, "metadata cleanup");
	if (!m->cfg->keep)
		cleanup_rep(m, rep);
	mb_watchdog_disarm();
	return rc;
}

/* Rank 0: run->meta with a slot per phase and repetition. */
static int alloc_record(const struct mb_config *cfg, struct ios_run *run)
{
	int k;

	run->meta = calloc((size_t)cfg->nmeta, sizeof(*run->meta));
	if (!run->meta)
		return -ENOMEM;
	run->nmeta = cfg->nmeta;
	for (k = 0; k < cfg->nmeta; k++) {
		snprintf(run->meta[k].op, sizeof(run->meta[k].op), "%s",
			 mb_meta_op_name(cfg->meta[k]));
		run->meta[k].reps =
			calloc(cfg->reps, sizeof(*run->meta[k].reps));
		if (!run->meta[k].reps)
			return -ENOMEM;
	}
	return 0;
}

int mb_meta_run(const struct mb_config *cfg, MPI_Comm comm, struct ios_run *run,
		void (*rep_done)(void *arg), void *arg, struct ios_err *err)
{
	struct mb_ctx ctx = {.cfg = cfg, .err = err};
	struct meta_rank m = {
		.cfg = cfg, .be = cfg->backend, .ctx = &ctx, .comm = comm};
	unsigned rep;
	bool made;
	int rc;

	MPI_Comm_rank(comm, &m.rank);
	MPI_Comm_size(comm, &m.nranks);
	ctx.rank = m.rank;
	ctx.nranks = m.nranks;
	m.buf = calloc(1, cfg->meta_size ? cfg->meta_size : 1);
	rc = m.buf ? 0 : ios_errf(err, -ENOMEM, "--meta: out of memory");
	if (!rc && m.rank == 0)
		rc = alloc_record(cfg, run);
	if (!rc) /* a fixed content: the seed's bytes */
		for (size_t i = 0; i < cfg->meta_size; i++)
			((unsigned char *)m.buf)[i] =
				(unsigned char)(cfg->seed >> (8 * (i % 8)));
	if (!rc)
		rc = cfg->backend->init(&ctx);
	rc = mb_agree(comm, m.rank, rc, err, NULL);
	if (rc) {
		free(m.buf);
		return rc;
	}
	rc = make_run_dir(&m, err);
	made = !rc; /* only a directory this run made is removed */
	for (rep = 0; !rc && rep < cfg->reps; rep++) {
		rc = make_rep_dirs(&m, rep, err);
		if (!rc)
			rc = run_rep(&m, rep, run, err);
		if (m.rank == 0 && rep_done)
			rep_done(arg);
	}
	MPI_Barrier(comm);
	if (m.rank == 0 && !cfg->keep && made) {
		struct ios_err e2 = {0};
		int r2;

		ctx.err = &e2;
		r2 = cfg->backend->meta_remove(&ctx, m.run, true);
		if (r2)
			fprintf(stderr,
				"iostrata-bench: the run's directory is left: %s\n",
				e2.msg);
		ctx.err = err;
	}
	cfg->backend->fini(&ctx);
	free(m.buf);
	return rc;
}
