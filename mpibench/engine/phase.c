/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phase: the measuring core of iostrata-bench (see phase.h): the driver
 * of a phase.  It prepares the buffers, the backend and the files (laid
 * out untimed), then for every repetition opens the file, agrees on a
 * common start, lets each rank run alone (phase_rank.c) and gathers the
 * results to rank 0 (phase_gather.c).  Times come from CLOCK_MONOTONIC
 * mapped to the common clock (world.c) measured before every repetition.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "content.h"
#include "dataset.h"
#include "phase.h"
#include "phase_gather.h"
#include "phase_rank.h"
#include "segment.h"
#include "verify.h"
#include "watchdog.h"

double mb_phase_last_gather_s;

/* Lay-out stalls longer than this (s) abort the run (see layout()). */
#define LAYOUT_STALL_S MB_LAYOUT_STALL_S

/* A write phase of this process wrote the files (--reuse-dataset: an
 * unmarked file is then resumed, not laid out again from its start). */
static bool files_written_here;

static void *alloc_buf(size_t len)
{
	void *p = NULL;

	if (posix_memalign(&p, 4096, len ? len : 4096))
		return NULL;
	return p;
}

/* A phase on one rank: what every stage of mb_phase_run shares. */
struct phase_run {
	const struct mb_phase_spec *spec;
	const struct mb_config *cfg;
	const struct mb_backend *be;
	MPI_Comm comm;
	struct mb_world *w;
	struct mb_ctx ctx;  /* this rank, for the backend */
	struct mb_ctx rctx; /* the rank whose file this rank opens */
	char name[64];      /* that file */
	int partner, oflags;
	void **bufs;
	unsigned nbufs;
	struct ios_phase_result *out;
	struct ios_err *err;
	/* the lay-out: bytes this rank wrote, whether it laid out (1) or
	 * reused a marked dataset (2), its file to mark after it */
	uint64_t laid_bytes;
	int ds_state;
};

enum { DS_NONE = 0, DS_LAID = 1, DS_REUSED = 2 };

/*
 * Open [name] as [ctx]'s file with MB_O_* [flags].  Per rank: this rank's
 * own open.  Shared: rank 0 opens first (it creates the one file with
 * ownfile.c's never-clobber rules, or reuses it when ours), the ranks
 * agree, then the others open it without creating.  Per rank the caller
 * agrees; shared, a failure of rank 0 is already agreed (every rank
 * returns it, none has the file open).
 */
static int open_target(struct phase_run *pr, struct mb_ctx *ctx,
		       const char *name, int flags, struct mb_file **f)
{
	int rc = 0;

	*f = NULL;
	if (pr->cfg->file_layout != MB_LAYOUT_SHARED)
		return pr->be->open(ctx, name, flags, f);
	if (pr->w->rank == 0)
		rc = pr->be->open(ctx, name, flags, f);
	rc = mb_agree(pr->comm, pr->w->rank, rc, pr->err, NULL);
	if (rc || pr->w->rank == 0)
		return rc;
	return pr->be->open(ctx, name, flags & ~MB_O_CREATE, f);
}

/*
 * The bytes this rank lays out: [*lo, *hi) of its file.  Per rank: the
 * whole file, starting after what it already holds ([cur] bytes, rounded
 * down to a block; the rank's own writes are sequential, so there is no
 * hole below).  Shared: the rank's contiguous share of the one file
 * (whose blocks belong to every rank in turn), all of it unless the file
 * already has its full size: every rank writes its blocks in its own
 * time, so a time-based write leaves holes below the file's end where a
 * slower rank did not get to.
 */
static void layout_range(const struct phase_run *pr, uint64_t cur, uint64_t *lo,
			 uint64_t *hi)
{
	const struct mb_config *cfg = pr->cfg;
	uint64_t start;

	if (cfg->file_layout == MB_LAYOUT_SHARED) {
		start = (uint64_t)pr->w->rank * cfg->size;
		*hi = start + cfg->size;
		*lo = cur >= cfg->size * (uint64_t)pr->w->nranks ? *hi : start;
		return;
	}
	*hi = cfg->size;
	cur = cur / cfg->bs * cfg->bs;
	*lo = cur < *hi ? cur : *hi;
}

/* The dataset identity of [f] for this run: its data pool where the
 * filesystem says (CephFS: ceph.file.layout.pool), the running uid. */
static void dataset_want(const struct phase_run *pr, struct mb_file *f,
			 struct mb_dataset_id *want)
{
	char pool[64] = "";

	if (pr->be->xattr_get(f, "ceph.file.layout.pool", pool, sizeof(pool)) <
	    0)
		pool[0] = '\0';
	mb_dataset_id_of(pr->cfg, pr->w->nranks, pool, (uint32_t)geteuid(),
			 want);
}

/*
 * --reuse-dataset: the verdict on the open file [f] ([name], [size] bytes
 * now): MB_DS_ABSENT, MB_DS_MATCH, or a negative errno with pr->err set
 * (another layout, another owner, a mark that does not parse, or the mark
 * could not be read).
 */
static int dataset_verdict(struct phase_run *pr, struct mb_file *f,
			   const char *name, uint64_t size)
{
	struct mb_dataset_id want;
	char mark[MB_DATASET_MARK_MAX];
	int n;

	dataset_want(pr, f, &want);
	n = pr->be->xattr_get(f, MB_DATASET_XATTR, mark, sizeof(mark));
	if (n == -ENODATA)
		return MB_DS_ABSENT;
	if (n < 0)
		return ios_errf(
			pr->err, n,
			"iostrata-bench: rank %d: --reuse-dataset: read the mark %s of %s: %s",
			pr->ctx.rank, MB_DATASET_XATTR, name, strerror(-n));
	return mb_dataset_check(name, mark, size, &want, pr->err);
}

/* This rank's verdict on its file (shared: rank 0's, for all) without
 * creating it: absent when there is none yet.  Collective, agreed. */
static int dataset_guard(struct phase_run *pr)
{
	struct mb_ctx *ctx = &pr->ctx;
	struct mb_file *f = NULL;
	uint64_t size = 0;
	char name[64];
	int rc = 0;

	if (pr->cfg->file_layout != MB_LAYOUT_SHARED || pr->w->rank == 0) {
		mb_target_file(pr->cfg, ctx->rank, name, sizeof(name));
		rc = pr->be->open(ctx, name, MB_O_READ, &f);
		if (rc == -ENOENT)
			rc = 0;
		else if (!rc && pr->be->getsize)
			rc = pr->be->getsize(f, &size);
		if (!rc && f)
			rc = dataset_verdict(pr, f, name, size);
		if (f)
			pr->be->close(f);
	}
	return mb_agree(pr->comm, pr->w->rank, rc < 0 ? rc : 0, pr->err, NULL);
}

/* --reuse-dataset, after a complete lay-out: make this rank's file
 * (shared: rank 0 the one file) durable, then mark it with the identity.
 * Collective, agreed. */
static int dataset_mark(struct phase_run *pr)
{
	struct mb_ctx *ctx = &pr->ctx;
	struct mb_dataset_id id;
	struct mb_file *f = NULL;
	char name[64], mark[MB_DATASET_MARK_MAX];
	bool shared = pr->cfg->file_layout == MB_LAYOUT_SHARED;
	int rc = 0, rc2;

	if (shared)
		MPI_Barrier(pr->comm); /* every rank's share is written */
	if (pr->ds_state == DS_LAID && (!shared || pr->w->rank == 0)) {
		mb_target_file(pr->cfg, ctx->rank, name, sizeof(name));
		rc = pr->be->open(ctx, name, MB_O_WRITE, &f);
		if (!rc && pr->be->fsync)
			rc = pr->be->fsync(f);
		if (!rc) {
			dataset_want(pr, f, &id);
			rc = mb_dataset_format(&id, mark, sizeof(mark));
		}
		if (rc >= 0)
			rc = pr->be->xattr_set(f, MB_DATASET_XATTR, mark);
		if (f) {
			rc2 = pr->be->close(f);
			rc = rc < 0 ? rc : rc2;
		}
		if (rc < 0)
			ios_errf(
				pr->err, rc,
				"iostrata-bench: rank %d: --reuse-dataset: mark %s with %s: %s",
				ctx->rank, name, MB_DATASET_XATTR,
				strerror(-rc));
	}
	return mb_agree(pr->comm, pr->w->rank, rc < 0 ? rc : 0, pr->err, NULL);
}

/* The size of the open file [f] ([name]) before anyone writes into *[cur]
 * (shared: rank 0's, for all; 0 when the backend cannot tell).
 * Collective; 0 or a negative errno (err set). */
static int layout_size(struct phase_run *pr, struct mb_file *f,
		       const char *name, uint64_t *cur)
{
	const struct mb_backend *be = pr->be;
	bool shared = pr->cfg->file_layout == MB_LAYOUT_SHARED;
	int64_t szrc[2] = {0, 0}; /* shared: rank 0's getsize rc and size */
	int rc = 0;

	*cur = 0;
	if ((!shared || pr->w->rank == 0) && be->getsize) {
		rc = be->getsize(f, cur);
		if (rc)
			ios_errf(pr->err, rc, "iostrata-bench: size of %s: %s",
				 name, strerror(-rc));
	}
	if (shared) {
		szrc[0] = rc;
		szrc[1] = (int64_t)*cur;
		MPI_Bcast(szrc, 2, MPI_INT64_T, 0, pr->comm);
		rc = (int)szrc[0];
		*cur = (uint64_t)szrc[1];
	}
	if (!rc && !be->getsize)
		*cur = 0;
	return rc;
}

/* --reuse-dataset: the file's mark against this run's identity (shared:
 * rank 0's verdict on the one file, for all).  1 when it matches (the
 * dataset reused), 0 to lay out from *[cur] (0 when what an unmarked
 * file holds is not known), or a negative errno (rank 0's message:
 * mb_agree).  Collective. */
static int layout_reuse(struct phase_run *pr, struct mb_file *f,
			const char *name, uint64_t *cur)
{
	bool shared = pr->cfg->file_layout == MB_LAYOUT_SHARED;
	int64_t v = 0;

	if (!shared || pr->w->rank == 0)
		v = dataset_verdict(pr, f, name, *cur);
	if (shared)
		MPI_Bcast(&v, 1, MPI_INT64_T, 0, pr->comm);
	if (v < 0)
		return (int)v;
	if (v == MB_DS_MATCH) {
		pr->ds_state = DS_REUSED;
		return 1;
	}
	/* unmarked: what it holds is known only when this run's write phase
	 * wrote it; otherwise lay it out whole */
	if (!files_written_here)
		*cur = 0;
	return 0;
}

/* Write [lo, hi) of [f] ([name]) from the block [buf], in chunks, each
 * block stamped (--verify) with the rank that owns it or scrambled, the
 * watchdog following the progress since [t_start].  0 or a negative
 * errno (err set); [f] stays open. */
static int layout_write(struct phase_run *pr, struct mb_file *f,
			const char *name, const void *buf, uint64_t lo,
			uint64_t hi, double t_start)
{
	const struct mb_backend *be = pr->be;
	const struct mb_config *cfg = pr->cfg;
	int rank = pr->ctx.rank;
	struct mb_seg seg;
	uint64_t off, chunk, len, k;
	uint64_t seed = cfg->seed;
	uint64_t scr = seed ^ 0x6c61796f7574ull ^ ((uint64_t)rank << 24);
	double slowest = 0, t_chunk;
	void *cbuf = NULL;
	int rc;

	mb_seg_init(&seg, cfg->file_layout == MB_LAYOUT_SHARED,
		    cfg->shared_block, pr->w->nranks);
	/* Write in chunks of whole blocks up to 8 MiB: a 4 KiB random phase
	 * must not lay out 16 GiB with 4 KiB writes (slow, fragmented). */
	chunk = cfg->bs * (cfg->bs >= (8u << 20) ? 1 : (8u << 20) / cfg->bs);
	if (posix_memalign(&cbuf, 4096, chunk))
		return ios_errf(pr->err, -ENOMEM,
				"iostrata-bench: rank %d: lay out %s: %s", rank,
				name, strerror(ENOMEM));
	for (k = 0; k < chunk; k += cfg->bs)
		memcpy((char *)cbuf + k, buf, cfg->bs);
	for (off = lo; off < hi; off += len) {
		ssize_t n = 0;

		len = hi - off < chunk ? hi - off : chunk;
		/* Lay-out has no planned end (16 GiB per rank on a slow
		 * cluster can take an hour): the watchdog follows progress,
		 * re-armed every chunk for the rest at the rate so far (x 4),
		 * never below max(LAYOUT_STALL_S, 20 x the slowest chunk), so
		 * only a stall aborts the run (dataset.h). */
		mb_watchdog_arm(
			mb_layout_bound_s(off - lo,
					  (double)mb_mono_ns() / 1e9 - t_start,
					  hi - off, slowest),
			"lay out");
		t_chunk = (double)mb_mono_ns() / 1e9;
		if (cfg->verify)
			for (k = 0; k < len; k += cfg->bs) {
				int owner = mb_seg_owner(&seg, off + k);

				mb_verify_fill(
					(char *)cbuf + k, cfg->bs,
					(uint32_t)(owner < 0 ? rank : owner),
					UINT32_MAX, off + k, seed);
			}
		else if (cfg->scramble)
			mb_content_scramble(cbuf, len, &scr);
		/* A backend may take less than the chunk per call (a
		 * RADOS object is one block): go on from where it stopped,
		 * as with any pwrite; only an error or no progress fails. */
		for (k = 0; k < len; k += (uint64_t)n) {
			n = be->pwrite(f, (char *)cbuf + k, len - k, off + k);
			if (n <= 0)
				break;
		}
		slowest = fmax(slowest, (double)mb_mono_ns() / 1e9 - t_chunk);
		pr->laid_bytes += k;
		if (k < len) {
			off += k;
			rc = n < 0 ? (int)n : -EIO;
			free(cbuf);
			return ios_errf(
				pr->err, rc,
				"iostrata-bench: rank %d: lay out %s at offset %" PRIu64
				": %s",
				rank, name, off,
				n < 0 ? strerror((int)-n)
				      : "the backend wrote nothing");
		}
	}
	free(cbuf);
	return 0;
}

/* Lay out the file up to --size (untimed), like fio does: per rank each
 * rank its own file; shared every rank its share of the one file, each
 * block stamped (--verify) with the rank that owns it.  Collective. */
static int layout(struct phase_run *pr, void *buf)
{
	struct mb_ctx *ctx = &pr->ctx;
	const struct mb_backend *be = pr->be;
	const struct mb_config *cfg = pr->cfg;
	char name[64];
	struct mb_file *f = NULL;
	uint64_t cur = 0, lo, hi;
	double t_start = (double)mb_mono_ns() / 1e9;
	int flags = MB_O_WRITE | MB_O_CREATE | (cfg->direct ? MB_O_DIRECT : 0);
	int rc;

	if (be->flags & MB_BF_NO_DATA)
		return 0;
	mb_target_file(cfg, ctx->rank, name, sizeof(name));
	rc = open_target(pr, ctx, name, flags, &f);
	rc = mb_agree(pr->comm, pr->w->rank, rc, pr->err, NULL);
	if (!rc)
		rc = layout_size(pr, f, name, &cur);
	if (rc) {
		if (f)
			be->close(f);
		return rc;
	}
	if (cfg->reuse_dataset) {
		rc = layout_reuse(pr, f, name, &cur);
		if (rc) {
			/* an error, or (1) the marked dataset reused */
			be->close(f);
			return rc < 0 ? rc : 0;
		}
	}
	layout_range(pr, cur, &lo, &hi);
	pr->ds_state = DS_LAID;
	if (lo >= hi) {
		be->close(f);
		return 0;
	}
	rc = layout_write(pr, f, name, buf, lo, hi, t_start);
	if (rc) {
		be->close(f);
		return rc;
	}
	/* Done here; the others may take longer (a throttled rank): wait for
	 * them with a bound that scales with this rank's own lay-out. */
	mb_watchdog_arm(fmax(mb_watchdog_bound(3600.0),
			     100.0 * ((double)mb_mono_ns() / 1e9 - t_start)),
			"lay out (waiting for the other ranks)");
	rc = be->close(f);
	if (rc)
		return ios_errf(
			pr->err, rc,
			"iostrata-bench: rank %d: close %s after lay out: %s",
			ctx->rank, name, strerror(-rc));
	return 0;
}

/* The files before a phase that reads (or writes at random): laid out, or
 * with --reuse-dataset a marked dataset reused; what it did and cost in
 * rank 0's [out] (dataset, layout_bytes, layout_s).  Collective, agreed. */
static int prepare_files(struct phase_run *pr)
{
	double t0 = (double)mb_mono_ns() / 1e9;
	uint64_t bytes = 0;
	int state = 0, rc;

	mb_watchdog_arm(LAYOUT_STALL_S, "lay out (open)");
	rc = layout(pr, pr->bufs[0]);
	rc = mb_agree(pr->comm, pr->w->rank, rc, pr->err, NULL);
	if (!rc && pr->cfg->reuse_dataset) {
		mb_watchdog_arm(LAYOUT_STALL_S, "lay out (mark)");
		rc = dataset_mark(pr);
	}
	if (rc)
		return rc;
	MPI_Reduce(&pr->laid_bytes, &bytes, 1, MPI_UINT64_T, MPI_SUM, 0,
		   pr->comm);
	MPI_Reduce(&pr->ds_state, &state, 1, MPI_INT, MPI_MIN, 0, pr->comm);
	if (pr->w->rank == 0) {
		snprintf(pr->out->dataset, sizeof(pr->out->dataset), "%s",
			 state == DS_REUSED ? "reused"
			 : state == DS_LAID ? "laid-out"
					    : "");
		pr->out->layout_bytes = bytes;
		pr->out->layout_s = (double)mb_mono_ns() / 1e9 - t0;
	}
	return 0;
}

/* The phase's description in [out], and rank 0's repetitions. */
static int phase_begin(struct phase_run *pr)
{
	const struct mb_phase_spec *spec = pr->spec;
	struct ios_phase_result *out = pr->out;
	int rc = 0;

	snprintf(out->name, sizeof(out->name), "%s",
		 mb_pattern_name(spec->pattern));
	snprintf(out->layer, sizeof(out->layer), "%s",
		 spec->layer ? spec->layer : "");
	snprintf(out->backend, sizeof(out->backend), "%s", pr->be->name);
	out->bs = pr->cfg->bs;
	out->rwmixread = spec->pattern == MB_PAT_RANDRW    ? pr->cfg->rwmixread
			 : mb_pattern_reads(spec->pattern) ? 100
							   : 0;
	if (pr->w->rank == 0) {
		out->reps = calloc(pr->cfg->reps ? pr->cfg->reps : 1,
				   sizeof(*out->reps));
		if (!out->reps)
			rc = ios_errf(pr->err, -ENOMEM,
				      "iostrata-bench: out of memory");
	}
	return mb_agree(pr->comm, pr->w->rank, rc, pr->err, NULL);
}

/* One buffer per I/O in flight, filled with the write content, and the
 * backend initialised. */
static int alloc_bufs(struct phase_run *pr)
{
	const struct mb_config *cfg = pr->cfg;
	int rank = pr->w->rank, rc = 0;
	unsigned i;

	pr->nbufs = cfg->iodepth > 1 ? cfg->iodepth : 1;
	pr->bufs = calloc(pr->nbufs, sizeof(*pr->bufs));
	if (!pr->bufs)
		rc = ios_errf(pr->err, -ENOMEM,
			      "iostrata-bench: out of memory");
	for (i = 0; !rc && i < pr->nbufs; i++) {
		pr->bufs[i] = alloc_buf(cfg->bs);
		if (!pr->bufs[i])
			rc = ios_errf(
				pr->err, -ENOMEM,
				"iostrata-bench: rank %d: allocate %u buffers of %" PRIu64
				" bytes: %s",
				rank, pr->nbufs, cfg->bs, strerror(ENOMEM));
		else
			mb_content_fill(pr->bufs[i], cfg->bs,
					cfg->seed ^ ((uint64_t)rank << 32) ^ i,
					cfg->buffer_compress);
	}
	if (!rc)
		rc = pr->be->init(&pr->ctx);
	return mb_agree(pr->comm, rank, rc, pr->err, NULL);
}

/* Which rank's file this rank opens (--reorder: one node further for
 * reads), and how. */
static void choose_target(struct phase_run *pr)
{
	const struct mb_phase_spec *spec = pr->spec;
	const struct mb_config *cfg = pr->cfg;
	struct mb_world *w = pr->w;
	bool writes = mb_pattern_writes(spec->pattern);

	pr->partner = w->rank;
	if (cfg->reorder && mb_pattern_reads(spec->pattern) && !writes) {
		pr->partner = (w->rank + w->first_node_ranks) % w->nranks;
	}
	if (cfg->reorder && w->nnodes == 1 && w->rank == 0 &&
	    spec->phase_index == 0 && !cfg->quiet)
		fprintf(stderr,
			"iostrata-bench: --reorder: all ranks run on one node (%s): reads may be served from this node's cache\n",
			w->host);
	pr->rctx = pr->ctx;
	pr->rctx.rank = pr->partner;
	mb_target_file(cfg, pr->partner, pr->name, sizeof(pr->name));
	pr->oflags = (writes ? MB_O_WRITE | MB_O_CREATE : 0) |
		     (mb_pattern_reads(spec->pattern) ? MB_O_READ : 0) |
		     (cfg->direct ? MB_O_DIRECT : 0);
}

/* Open the repetition's file on every rank (rank 0 also gets the slots
 * of the progress drain in [psent]); agreed. */
static int rep_open(struct phase_run *pr, struct mb_rank_run *rr,
		    uint32_t **psent)
{
	struct mb_world *w = pr->w;
	struct mb_file *f = NULL;
	int rc;

	mb_watchdog_arm(mb_watchdog_bound(pr->cfg->runtime) + 60.0, "open");
	rc = open_target(pr, &pr->rctx, pr->name, pr->oflags, &f);
	if (!rc && w->rank == 0) {
		/* for the progress drain after the timed loop */
		*psent = calloc((size_t)w->nranks, sizeof(**psent));
		if (!*psent)
			rc = ios_errf(pr->err, -ENOMEM,
				      "iostrata-bench: out of memory");
	}
	rc = mb_agree(pr->comm, w->rank, rc, pr->err, NULL);
	if (rc) {
		if (f)
			pr->be->close(f);
		free(*psent);
		*psent = NULL;
		return rc;
	}
	rr->f = f;
	return 0;
}

/* Measure the clocks again and agree on the start: rank 0 picks it a
 * little ahead (time for every rank to hear it) and opens the progress
 * line.  Returns the start on the common clock. */
static int64_t rep_sync_start(struct phase_run *pr, struct mb_rank_run *rr,
			      unsigned rep)
{
	struct mb_world *w = pr->w;
	int64_t t0p[2] = {0, 0}; /* start time, progress period */

	mb_world_sync(w);
	if (w->rank == 0) {
		int64_t T0 =
			mb_world_now(w) + 20000000ll + 200000ll * w->nranks;

		rr->prog = mb_progress_new(w->comm, w->nranks, pr->out->name,
					   rep, pr->cfg->reps, pr->cfg->runtime,
					   T0, pr->cfg->quiet);
		if (pr->cfg->once)
			mb_progress_set_amount(
				rr->prog, pr->cfg->size * (uint64_t)w->nranks);
		t0p[0] = T0;
		t0p[1] = mb_progress_period_ns(rr->prog);
	}
	MPI_Bcast(t0p, 2, MPI_INT64_T, 0, pr->comm);
	mb_rank_start_at(rr, t0p[0], t0p[1]);
	return t0p[0];
}

/* Repetition [rep]: open, start together, measure, gather to rank 0. */
static int run_rep(struct phase_run *pr, unsigned rep)
{
	struct mb_rank_run rr;
	uint32_t *psent = NULL; /* rank 0: messages each rank sent */
	int64_t T0, g0;
	int rc;

	mb_rank_init(&rr, pr->spec->cfg, pr->spec->pattern,
		     pr->spec->phase_index, pr->w, rep, pr->partner);
	rc = rep_open(pr, &rr, &psent);
	if (rc)
		return rc;
	T0 = rep_sync_start(pr, &rr, rep);
	/* --once has no runtime to bound the stage: the amount to move at a
	 * floor rate does (once.h) */
	mb_watchdog_arm(pr->cfg->once ? mb_once_bound_s(pr->cfg->size)
				      : mb_watchdog_bound(pr->cfg->runtime),
			"I/O");
	mb_rank_measure(&rr, pr->bufs);
	mb_rank_progress_finish(&rr, pr->comm, psent);
	mb_rank_stonewall(&rr, pr->comm);
	g0 = mb_mono_ns();
	/* the planned window: --once plans no end (t_end = t_start) */
	rc = mb_gather_rep(&rr, pr->out, T0,
			   T0 + (int64_t)(pr->cfg->runtime * 1e9), pr->err);
	mb_phase_last_gather_s = (double)(mb_mono_ns() - g0) / 1e9;
	mb_rank_free(&rr);
	mb_watchdog_disarm();
	if (rc)
		return rc;
	if (pr->w->rank == 0 && pr->spec->rep_done)
		pr->spec->rep_done(pr->spec->rep_arg, pr->out);
	return 0;
}

int mb_phase_run(const struct mb_phase_spec *spec, MPI_Comm comm,
		 struct ios_phase_result *out, struct ios_err *err)
{
	struct mb_world *own = NULL;
	struct ios_err lerr = {0};
	struct phase_run pr = {
		.spec = spec,
		.cfg = spec->cfg,
		.be = spec->cfg->backend,
		.comm = comm,
		.w = spec->world,
		.out = out,
		.err = err ? err : &lerr,
	};
	unsigned i, rep;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!pr.be)
		return ios_errf(pr.err, -EINVAL, "iostrata-bench: no backend");
	if (!pr.w) {
		rc = mb_world_create(comm, &own, pr.err);
		if (rc)
			return rc;
		pr.w = own;
	}
	pr.ctx.cfg = pr.cfg;
	pr.ctx.rank = pr.w->rank;
	pr.ctx.nranks = pr.w->nranks;
	pr.ctx.err = pr.err;
	rc = phase_begin(&pr);
	if (rc)
		goto out_world;
	rc = alloc_bufs(&pr);
	if (rc)
		goto out_bufs;
	/* Lay out the file first unless a sequential write fills it. */
	if (spec->pattern != MB_PAT_WRITE) {
		rc = prepare_files(&pr);
		if (rc)
			goto out_fini;
	} else if (pr.cfg->reuse_dataset) {
		/* never write over another layout's dataset */
		mb_watchdog_arm(LAYOUT_STALL_S, "dataset check");
		rc = dataset_guard(&pr);
		if (rc)
			goto out_fini;
	}
	if (mb_pattern_writes(spec->pattern))
		files_written_here = true;
	choose_target(&pr);
	for (rep = 0; rep < pr.cfg->reps; rep++) {
		rc = run_rep(&pr, rep);
		if (rc)
			break;
	}
out_fini:
	pr.be->fini(&pr.ctx);
out_bufs:
	for (i = 0; pr.bufs && i < pr.nbufs; i++)
		free(pr.bufs[i]);
	free(pr.bufs);
out_world:
	mb_watchdog_disarm();
	mb_world_free(own);
	return rc;
}

int mb_phase_cleanup(const struct mb_phase_spec *spec, MPI_Comm comm,
		     struct ios_err *err)
{
	const struct mb_backend *be = spec->cfg->backend;
	struct mb_ctx ctx = {0};
	char name[64];
	int rank, rc = 0;

	if (!be || !be->unlink)
		return 0;
	MPI_Comm_rank(comm, &rank);
	ctx.cfg = spec->cfg;
	ctx.rank = rank;
	ctx.err = err;
	if (spec->cfg->file_layout == MB_LAYOUT_SHARED) {
		/* the one file: rank 0 created it, rank 0 removes it, once
		 * every rank is done with it */
		MPI_Barrier(comm);
		if (rank != 0)
			return 0;
	}
	rc = be->unlink(&ctx,
			mb_target_file(spec->cfg, rank, name, sizeof(name)));
	return rc == -ENOENT ? 0 : rc;
}
