/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phase_gather: a repetition's results to rank 0 (mb_gather_rep,
 * phase_gather.h).  Each rank turns its checkpoints into per-interval
 * samples; rank 0 gathers every rank's record, histogram, samples and
 * errors in two rounds (the fixed-size parts, then what they announced)
 * and appends the repetition with its figures (model/figures.c).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"
#include "phase_gather.h"

#define GATHER_OOM                                                             \
	"iostrata-bench: rank %d: out of memory gathering repetition %u of "   \
	"%d ranks"

/* What one gather holds: this rank's samples, and on rank 0 the buffers
 * of every rank's parts. */
struct gather {
	uint32_t ns;       /* this rank's samples */
	uint64_t *samples; /* [2 * ns]: bytes, then ops */
	/* rank 0 */
	struct ios_rank_result *all;
	uint64_t *hist, *allsamples;
	struct ios_io_error *allerr;
	int *cnt, *disp, *ecnt, *edisp, *both;
	int total, etotal;
};

static void free_rank_samples(struct ios_rank_result *all, int n)
{
	int k;

	for (k = 0; all && k < n; k++) {
		free(all[k].sample_bytes);
		free(all[k].sample_ops);
	}
}

/* Per-interval samples from the checkpoints; the record to send. */
static int make_samples(struct mb_rank_run *rr, struct gather *g,
			struct ios_err *err)
{
	struct mb_world *w = rr->w;
	double step = rr->cfg->interval * 1e9;
	uint32_t ns, i;
	int rc = 0;

	ns = rr->r.t_end_ns > rr->t0_local
		     ? (uint32_t)ceil((double)(rr->r.t_end_ns - rr->t0_local) /
				      step)
		     : 0;
	g->ns = ns;
	g->samples = calloc((size_t)ns * 2 + 1, sizeof(*g->samples));
	if (!g->samples)
		rc = ios_errf(err, -ENOMEM, GATHER_OOM, w->rank, rr->rep + 1,
			      w->nranks);
	for (i = 0; g->samples && i < ns; i++) {
		double b, o;
		int64_t t = rr->t0_local + (int64_t)((i + 1) * step);

		if (t >= rr->r.t_end_ns) {
			b = (double)rr->cum_bytes;
			o = (double)rr->cum_ops;
		} else {
			mb_rank_cum_at(rr, t, &b, &o);
		}
		g->samples[i] = (uint64_t)llround(b);
		g->samples[ns + i] = (uint64_t)llround(o);
	}
	rr->r.nsamples = ns;
	rr->r.sample_bytes = NULL;
	rr->r.sample_ops = NULL;
	rr->r.rank = w->rank;
	rr->r.lat = ios_lathist_summary(&rr->lat);
	return rc;
}

/* Rank 0: the buffers of the first round (records, histograms, sizes). */
static int alloc_fixed(struct mb_rank_run *rr, struct gather *g,
		       struct ios_err *err)
{
	size_t n = (size_t)rr->w->nranks;

	g->all = calloc(n, sizeof(*g->all));
	g->cnt = calloc(n, sizeof(int));
	g->disp = calloc(n, sizeof(int));
	g->ecnt = calloc(n, sizeof(int));
	g->edisp = calloc(n, sizeof(int));
	g->both = calloc(n * 2, sizeof(int));
	g->hist = calloc(n * IOS_LAT_BUCKETS, sizeof(*g->hist));
	if (!g->all || !g->cnt || !g->disp || !g->ecnt || !g->edisp ||
	    !g->both || !g->hist)
		return ios_errf(err, -ENOMEM, GATHER_OOM, rr->w->rank,
				rr->rep + 1, rr->w->nranks);
	return 0;
}

/* The first round: every rank's record (on the common clock), histogram
 * and the sizes of its samples and errors. */
static void gather_fixed(struct mb_rank_run *rr, struct gather *g)
{
	struct mb_world *w = rr->w;
	struct ios_rank_result mine = rr->r;
	int sizes[2] = {(int)g->ns * 2, (int)(rr->nerr * sizeof(rr->errs[0]))};

	/* local monotonic -> common clock */
	mine.t_start_ns += w->offset_ns;
	mine.t_end_ns += w->offset_ns;
	MPI_Gather(&mine, sizeof(mine), MPI_BYTE, g->all, sizeof(mine),
		   MPI_BYTE, 0, w->comm);
	MPI_Gather(rr->lat.count, IOS_LAT_BUCKETS, MPI_UINT64_T, g->hist,
		   IOS_LAT_BUCKETS, MPI_UINT64_T, 0, w->comm);
	MPI_Gather(sizes, 2, MPI_INT, g->both, 2, MPI_INT, 0, w->comm);
}

/*
 * Rank 0: the buffers of the second round, as the sizes announced them.
 * Everything rank 0 needs after the last collective is allocated before
 * it.
 */
static int alloc_variable(struct mb_rank_run *rr, struct gather *g,
			  struct ios_err *err)
{
	struct mb_world *w = rr->w;
	int k, rc;

	for (k = 0; k < w->nranks; k++) {
		g->cnt[k] = g->both[2 * k];
		g->disp[k] = g->total;
		g->total += g->cnt[k];
		g->ecnt[k] = g->both[2 * k + 1];
		g->edisp[k] = g->etotal;
		g->etotal += g->ecnt[k];
	}
	g->allsamples = calloc((size_t)g->total + 1, sizeof(uint64_t));
	g->allerr = calloc((size_t)g->etotal + 1, 1);
	rc = g->allsamples && g->allerr ? 0 : -ENOMEM;
	for (k = 0; !rc && k < w->nranks; k++) {
		uint32_t n = g->all[k].nsamples;

		g->all[k].sample_bytes =
			calloc((size_t)n + 1, sizeof(uint64_t));
		g->all[k].sample_ops = calloc((size_t)n + 1, sizeof(uint64_t));
		if (!g->all[k].sample_bytes || !g->all[k].sample_ops)
			rc = -ENOMEM;
	}
	if (rc)
		ios_errf(err, rc, GATHER_OOM, w->rank, rr->rep + 1, w->nranks);
	return rc;
}

/* The second round: every rank's samples and errors. */
static void gather_variable(struct mb_rank_run *rr, struct gather *g)
{
	MPI_Gatherv(g->samples, (int)g->ns * 2, MPI_UINT64_T, g->allsamples,
		    g->cnt, g->disp, MPI_UINT64_T, 0, rr->w->comm);
	MPI_Gatherv(rr->errs, (int)(rr->nerr * sizeof(rr->errs[0])), MPI_BYTE,
		    g->allerr, g->ecnt, g->edisp, MPI_BYTE, 0, rr->w->comm);
}

/* Rank 0: the gathered parts become repetition out->nreps (which takes
 * the buffers it keeps), with its figures. */
static void append_rep(struct mb_rank_run *rr, struct gather *g,
		       struct ios_phase_result *out, int64_t t_start,
		       int64_t t_end)
{
	struct mb_world *w = rr->w;
	struct ios_rep_result *rep = &out->reps[out->nreps];
	int k;

	memset(rep, 0, sizeof(*rep));
	rep->rep = (int32_t)out->nreps;
	rep->t_start_ns = t_start;
	rep->t_end_ns = t_end;
	rep->interval_s = rr->cfg->interval;
	rep->size_based = rr->cfg->once;
	rep->nranks = w->nranks;
	rep->ranks = g->all;
	rep->lat_hist = g->hist;
	g->hist = NULL;
	for (k = 0; k < w->nranks; k++) {
		struct ios_rank_result *r = &g->all[k];
		uint32_t n = r->nsamples;

		memcpy(r->sample_bytes, g->allsamples + g->disp[k],
		       n * sizeof(uint64_t));
		memcpy(r->sample_ops, g->allsamples + g->disp[k] + n,
		       n * sizeof(uint64_t));
	}
	g->all = NULL;
	rep->nerrors = (size_t)g->etotal / sizeof(struct ios_io_error);
	rep->errors = g->allerr;
	g->allerr = NULL;
	ios_figures_compute(rep, w->ri, w->nnodes);
	out->nreps++;
}

static void gather_free(struct gather *g, int nranks)
{
	/* still set only after a failure: the sample arrays allocated so far
	 * (every rank sends its record with NULL sample pointers) */
	free_rank_samples(g->all, nranks);
	free(g->all);
	free(g->hist);
	free(g->samples);
	free(g->allsamples);
	free(g->allerr);
	free(g->both);
	free(g->cnt);
	free(g->disp);
	free(g->ecnt);
	free(g->edisp);
}

/*
 * An allocation that fails on one rank (rank 0's buffers grow with the
 * rank count) is agreed on before each collective that needs it, so every
 * rank leaves with the same error instead of waiting in a collective for
 * a rank that left: the repetition is lost, the run goes on to write what
 * it has.
 */
int mb_gather_rep(struct mb_rank_run *rr, struct ios_phase_result *out,
		  int64_t t_start, int64_t t_end, struct ios_err *err)
{
	struct mb_world *w = rr->w;
	struct gather g = {0};
	int rc;

	rc = make_samples(rr, &g, err);
	if (w->rank == 0 && !rc)
		rc = alloc_fixed(rr, &g, err);
	rc = mb_agree(w->comm, w->rank, rc, err, NULL);
	if (rc)
		goto out;
	gather_fixed(rr, &g);
	if (w->rank == 0)
		rc = alloc_variable(rr, &g, err);
	rc = mb_agree(w->comm, w->rank, rc, err, NULL);
	if (rc)
		goto out;
	gather_variable(rr, &g);
	if (w->rank == 0)
		append_rep(rr, &g, out, t_start, t_end);
out:
	gather_free(&g, w->nranks);
	return rc;
}
