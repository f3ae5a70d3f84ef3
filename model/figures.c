/* SPDX-License-Identifier: GPL-2.0-or-later */
/* figures: derived figures of a repetition (definitions in figures.h). */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"

#define F(id, name, unit, scale, dunit) [id] = {id, #name, unit, scale, dunit}
const struct ios_fig_desc ios_figs[IOS_FIG_COUNT] = {
	F(IOS_FIG_STONEWALL_BW, stonewall_bw, "B/s", 1.0 / 1048576, "MiB/s"),
	F(IOS_FIG_WINDOW_BW, window_bw, "B/s", 1.0 / 1048576, "MiB/s"),
	F(IOS_FIG_SUM_RANK_BW, sum_rank_bw, "B/s", 1.0 / 1048576, "MiB/s"),
	F(IOS_FIG_STONEWALL_IOPS, stonewall_iops, "op/s", 1.0, "IOPS"),
	F(IOS_FIG_WINDOW_IOPS, window_iops, "op/s", 1.0, "IOPS"),
	F(IOS_FIG_SUM_RANK_IOPS, sum_rank_iops, "op/s", 1.0, "IOPS"),
	F(IOS_FIG_LAT_P50, lat_p50_ns, "ns", 1e-3, "us"),
	F(IOS_FIG_LAT_P90, lat_p90_ns, "ns", 1e-3, "us"),
	F(IOS_FIG_LAT_P99, lat_p99_ns, "ns", 1e-3, "us"),
	F(IOS_FIG_LAT_P999, lat_p999_ns, "ns", 1e-3, "us"),
	F(IOS_FIG_LAT_MAX, lat_max_ns, "ns", 1e-3, "us"),
	F(IOS_FIG_CPU_S_PER_GIB, cpu_s_per_gib, "s/GiB", 1.0, "s/GiB"),
};
#undef F

const char *ios_fig_name(enum ios_fig f)
{
	return (unsigned)f < IOS_FIG_COUNT ? ios_figs[f].name : NULL;
}

const struct ios_fig_desc *ios_fig_find(const char *name)
{
	for (int f = 0; name && f < IOS_FIG_COUNT; f++)
		if (!strcmp(ios_figs[f].name, name))
			return &ios_figs[f];
	return NULL;
}

const struct ios_fig_desc *ios_fig_headline(const char *phase)
{
	return &ios_figs[phase && !strncmp(phase, "rand", 4)
				 ? IOS_FIG_STONEWALL_IOPS
				 : IOS_FIG_STONEWALL_BW];
}

double ios_fig_value(const struct ios_figures *fig, enum ios_fig f)
{
	switch (f) {
	case IOS_FIG_STONEWALL_BW:
		return fig->stonewall_bw;
	case IOS_FIG_WINDOW_BW:
		return fig->window_bw;
	case IOS_FIG_SUM_RANK_BW:
		return fig->sum_rank_bw;
	case IOS_FIG_STONEWALL_IOPS:
		return fig->stonewall_iops;
	case IOS_FIG_WINDOW_IOPS:
		return fig->window_iops;
	case IOS_FIG_SUM_RANK_IOPS:
		return fig->sum_rank_iops;
	case IOS_FIG_LAT_P50:
		return fig->lat_p50_ns;
	case IOS_FIG_LAT_P90:
		return fig->lat_p90_ns;
	case IOS_FIG_LAT_P99:
		return fig->lat_p99_ns;
	case IOS_FIG_LAT_P999:
		return fig->lat_p999_ns;
	case IOS_FIG_LAT_MAX:
		return fig->lat_max_ns;
	case IOS_FIG_CPU_S_PER_GIB:
		return fig->cpu_s_per_gib;
	case IOS_FIG_COUNT:
		break;
	}
	return NAN;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double ios_median(double *v, int n)
{
	if (n <= 0)
		return NAN;
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

double ios_mad(const double *v, int n, double median, double *tmp)
{
	int i;

	for (i = 0; i < n; i++)
		tmp[i] = fabs(v[i] - median);
	return ios_median(tmp, n);
}

/* Element k of sorted [s] (n values) once element [skip] is left out. */
static double loo_at(const double *s, int skip, int k)
{
	return k < skip ? s[k] : s[k + 1];
}

/* Largest rank count for which the others' MAD is computed exactly. */
#define LOO_EXACT_MAX 64

/*
 * Rate outliers (IOS_OUTLIER_RATE), each rank against the OTHERS: the
 * reference is the median of the other ranks' rates, the spread their MAD,
 * and rank i is an outlier when it is below the reference by more than
 * max(IOS_OUTLIER_K x 1.4826 x MAD, IOS_OUTLIER_RATE_FLOOR x reference),
 * or above it by as much with 3 ranks or more.  On the slow side the
 * threshold is at most IOS_OUTLIER_RATE_CEIL x reference: a rank at under
 * half its peers' median is a straggler whatever their spread (with 3
 * ranks the others' MAD is half their gap, and two free ranks 1600 and
 * 700 MB/s apart hid a throttled one at 20).  Leaving the rank out is
 * what makes the rule work at 2 ranks, where the median of both sits
 * halfway and no MAD can separate them; with 2 ranks only the slow side is
 * flagged (the other rank is the only reference, so the fast one would be
 * flagged against the straggler).  Above LOO_EXACT_MAX ranks the spread is
 * the MAD of all ranks, which one rank cannot move.  [s] and [tmp] hold n
 * values each.
 */
void ios_rate_outliers(const double *rate, int n, double *s, double *tmp,
		       void (*flag)(void *arg, int i), void *arg)
{
	double mad_all = 0;
	int m = n - 1;

	memcpy(s, rate, sizeof(double) * (size_t)n);
	qsort(s, (size_t)n, sizeof(*s), cmp_double);
	if (n > LOO_EXACT_MAX) {
		double med = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;

		mad_all = ios_mad(rate, n, med, tmp);
	}
	for (int i = 0; i < n; i++) {
		int lo = 0, hi = n - 1, p;
		double ref, mad, thr;

		while (lo < hi) { /* a position of rate[i] in s */
			int mid = lo + (hi - lo) / 2;

			if (s[mid] < rate[i])
				lo = mid + 1;
			else
				hi = mid;
		}
		p = lo;
		ref = m % 2 ? loo_at(s, p, m / 2)
			    : (loo_at(s, p, m / 2 - 1) + loo_at(s, p, m / 2)) /
				      2;
		if (n > LOO_EXACT_MAX) {
			mad = mad_all;
		} else {
			for (int k = 0; k < m; k++)
				tmp[k] = fabs(loo_at(s, p, k) - ref);
			mad = ios_median(tmp, m);
		}
		thr = fmax(IOS_OUTLIER_K * 1.4826 * mad,
			   IOS_OUTLIER_RATE_FLOOR * ref);
		if (rate[i] < ref - fmin(thr, IOS_OUTLIER_RATE_CEIL * ref) ||
		    (n >= 3 && rate[i] > ref + thr))
			flag(arg, i);
	}
}

static void flag_rate(void *arg, int i)
{
	((struct ios_rep_result *)arg)->ranks[i].outlier |= IOS_OUTLIER_RATE;
}

static void rate_outliers(struct ios_rep_result *rep, const double *rate, int n,
			  double *s, double *tmp)
{
	ios_rate_outliers(rate, n, s, tmp, flag_rate, rep);
}

/* Append one reason to rep->invalid_reason ("; "-separated). */
__attribute__((format(printf, 2, 3))) static void
add_reason(struct ios_rep_result *rep, const char *fmt, ...)
{
	size_t len = strlen(rep->invalid_reason);
	va_list ap;

	if (len + 8 >= sizeof(rep->invalid_reason))
		return;
	if (len)
		len += (size_t)snprintf(rep->invalid_reason + len,
					sizeof(rep->invalid_reason) - len,
					"; ");
	va_start(ap, fmt);
	vsnprintf(rep->invalid_reason + len, sizeof(rep->invalid_reason) - len,
		  fmt, ap);
	va_end(ap);
	if (strlen(rep->invalid_reason) >= sizeof(rep->invalid_reason) - 1)
		memcpy(rep->invalid_reason + sizeof(rep->invalid_reason) - 4,
		       "...", 4);
	rep->valid = false;
}

static const char *host_of(const struct ios_rank_info *ri, int rank)
{
	return ri ? ri[rank].host : "?";
}

void ios_node_rates(const struct ios_rep_result *rep,
		    const struct ios_rank_info *ri, int nnodes, double *bw,
		    double *iops)
{
	int n = rep->nranks;

	for (int nd = 0; nd < nnodes; nd++) {
		if (bw)
			bw[nd] = 0;
		if (iops)
			iops[nd] = 0;
	}
	for (int i = 0; i < n; i++) {
		const struct ios_rank_result *r = &rep->ranks[i];
		int rk = r->rank;
		int nd = (rk >= 0 && rk < n) ? ri[rk].node : -1;
		double dur = (double)(r->t_end_ns - r->t_start_ns) / 1e9;

		if (nd < 0 || nd >= nnodes || !(dur > 0))
			continue;
		if (bw)
			bw[nd] += (double)(r->bytes[0] + r->bytes[1]) / dur;
		if (iops)
			iops[nd] += (double)(r->ops[0] + r->ops[1]) / dur;
	}
}

/* What the stages of ios_figures_compute share: per-rank rates and end
 * times, scratch arrays of [n], the merged histogram, the time bounds. */
struct figctx {
	struct ios_rep_result *rep;
	const struct ios_rank_info *ri;
	int n;
	double *rate, *end, *tmp, *vv;
	struct ios_lathist *all;
	int64_t first_start, last_start, first_end, last_end;
	uint64_t sw_bytes, sw_ops;
	double cpu;
};

/* Sums, rates, the merged histogram and the time bounds over the ranks. */
static void sum_ranks(struct figctx *x)
{
	struct ios_figures *fig = &x->rep->fig;

	x->first_start = x->first_end = INT64_MAX;
	x->last_start = x->last_end = INT64_MIN;
	for (int i = 0; i < x->n; i++) {
		struct ios_rank_result *r = &x->rep->ranks[i];
		uint64_t b = r->bytes[0] + r->bytes[1];
		uint64_t o = r->ops[0] + r->ops[1];
		double dur = (double)(r->t_end_ns - r->t_start_ns) / 1e9;

		r->outlier = 0;
		fig->bytes += b;
		fig->ops += o;
		x->cpu += r->cpu_user_s + r->cpu_sys_s;
		if (x->rep->lat_hist)
			ios_lathist_merge_parts(
				x->all,
				x->rep->lat_hist + (size_t)i * IOS_LAT_BUCKETS,
				&r->lat);
		if (r->t_start_ns < x->first_start)
			x->first_start = r->t_start_ns;
		if (r->t_start_ns > x->last_start)
			x->last_start = r->t_start_ns;
		if (r->t_end_ns < x->first_end)
			x->first_end = r->t_end_ns;
		if (r->t_end_ns > x->last_end)
			x->last_end = r->t_end_ns;
		x->rate[i] = dur > 0 ? (double)b / dur : 0.0;
		if (dur > 0) {
			fig->sum_rank_bw += (double)b / dur;
			fig->sum_rank_iops += (double)o / dur;
		}
		x->end[i] = (double)r->t_end_ns;
	}
}

/*
 * The bytes and operations moved inside the all-running window.  A rank
 * that started last and ended first ran exactly the window: all it moved
 * is inside, whatever its record says (iostrata-bench before issue 29
 * recorded 0 for a rank of fewer operations than 10 ms of checkpoints:
 * every 1-rank size-based run of a few MiB had a headline of 0).
 */
static void stonewall_sums(struct figctx *x)
{
	x->sw_bytes = x->sw_ops = 0;
	for (int i = 0; i < x->n; i++) {
		const struct ios_rank_result *r = &x->rep->ranks[i];
		uint64_t b = r->stonewall_bytes, o = r->stonewall_ops;

		if (r->t_start_ns == x->last_start &&
		    r->t_end_ns == x->first_end) {
			b = r->bytes[0] + r->bytes[1];
			o = r->ops[0] + r->ops[1];
		}
		x->sw_bytes += b;
		x->sw_ops += o;
	}
}

/* Stonewall and window rates, per-rank rate spread, CPU per GiB.  The
 * stonewall figures are NAN, and stonewall_short says why, when the
 * all-running window holds less than one operation per rank (counted, or
 * in bytes of the mean operation size): a rate of that is an
 * interpolation, not a measurement (never a 0). */
static void rate_figures(struct figctx *x)
{
	struct ios_figures *fig = &x->rep->fig;
	int n = x->n;

	stonewall_sums(x);
	/* by operations, and by bytes: the operation counts are rounded
	 * per rank (0.6 of an operation inside the window counts 1) */
	if (fig->ops && (x->sw_ops < (uint64_t)n ||
			 (double)x->sw_bytes * (double)fig->ops <
				 (double)n * (double)fig->bytes)) {
		fig->stonewall_short = true;
		fig->stonewall_bw = NAN;
		fig->stonewall_iops = NAN;
	} else if (x->first_end > x->last_start) {
		double w = (double)(x->first_end - x->last_start) / 1e9;

		fig->stonewall_bw = (double)x->sw_bytes / w;
		fig->stonewall_iops = (double)x->sw_ops / w;
	} else {
		fig->stonewall_bw = NAN;
		fig->stonewall_iops = NAN;
	}
	if (x->last_end > x->first_start) {
		double w = (double)(x->last_end - x->first_start) / 1e9;

		fig->window_bw = (double)fig->bytes / w;
		fig->window_iops = (double)fig->ops / w;
	} else {
		fig->window_bw = NAN;
		fig->window_iops = NAN;
	}
	memcpy(x->vv, x->rate, sizeof(double) * (size_t)n);
	fig->rank_bw_median = ios_median(x->vv, n);
	fig->rank_bw_min = x->vv[0];
	fig->rank_bw_max = x->vv[n - 1];
	fig->cpu_s_per_gib =
		fig->bytes
			? x->cpu / ((double)fig->bytes / (1024.0 * 1024 * 1024))
			: NAN;
}

/* Latency figures from the merged histogram, or the ones [kept] when the
 * histograms were already dropped. */
static void lat_figures(struct figctx *x, const struct ios_figures *kept)
{
	struct ios_figures *fig = &x->rep->fig;
	const struct ios_lathist *all = x->all;

	if (!x->rep->lat_hist && x->rep->lat_hist_in_file) {
		fig->lat_mean_ns = kept->lat_mean_ns;
		fig->lat_p50_ns = kept->lat_p50_ns;
		fig->lat_p90_ns = kept->lat_p90_ns;
		fig->lat_p99_ns = kept->lat_p99_ns;
		fig->lat_p999_ns = kept->lat_p999_ns;
		fig->lat_max_ns = kept->lat_max_ns;
		return;
	}
	fig->lat_mean_ns = all->n ? all->sum_ns / (double)all->n : NAN;
	fig->lat_p50_ns = ios_lathist_quantile(all->count, all->n, 0.50,
					       all->min_ns, all->max_ns);
	fig->lat_p90_ns = ios_lathist_quantile(all->count, all->n, 0.90,
					       all->min_ns, all->max_ns);
	fig->lat_p99_ns = ios_lathist_quantile(all->count, all->n, 0.99,
					       all->min_ns, all->max_ns);
	fig->lat_p999_ns = ios_lathist_quantile(all->count, all->n, 0.999,
						all->min_ns, all->max_ns);
	fig->lat_max_ns = all->n ? (double)all->max_ns : NAN;
}

/* Outliers: rate (each rank against the others) and end time. */
static void outliers(struct figctx *x)
{
	struct ios_rep_result *rep = x->rep;
	int n = x->n;

	if (n >= 2)
		rate_outliers(rep, x->rate, n, x->vv, x->tmp);
	if (n >= 3) {
		double mad, thr, med_end, med_start;

		memcpy(x->vv, x->end, sizeof(double) * (size_t)n);
		med_end = ios_median(x->vv, n);
		for (int i = 0; i < n; i++)
			x->vv[i] = (double)rep->ranks[i].t_start_ns;
		med_start = ios_median(x->vv, n);
		mad = ios_mad(x->end, n, med_end, x->tmp);
		thr = fmax(IOS_OUTLIER_K * 1.4826 * mad,
			   fmax(IOS_OUTLIER_END_FLOOR * (med_end - med_start),
				(double)IOS_OUTLIER_END_MIN_NS));
		for (int i = 0; i < n; i++)
			if (fabs(x->end[i] - med_end) > thr)
				rep->ranks[i].outlier |= IOS_OUTLIER_END;
	}
	for (int i = 0; i < n; i++)
		if (rep->ranks[i].outlier)
			rep->fig.outliers++;
}

/* The reasons rank [i] makes the repetition invalid (0, 1 or more added:
 * the number added).  [med_end] is the median end time of all ranks. */
static int rank_reasons(struct figctx *x, int i, double med_end)
{
	struct ios_rep_result *rep = x->rep;
	struct ios_rank_result *r = &rep->ranks[i];
	int rk = r->rank, added = 0, n = x->n;
	const char *h = host_of(x->ri, rk < n && rk >= 0 ? rk : i);
	/* A time-based repetition plans its end (rep->t_end_ns): a rank that
	 * kept issuing I/O until then did not end early, even when its last
	 * operation completed before the others' (on a slow target one
	 * operation can take seconds).  It is still flagged as an end-time
	 * outlier.  Without a planned end, an early end-time outlier is an
	 * early end, unless the repetition says it was size-based
	 * (iostrata-bench --once): there every rank moves its own file once
	 * and says whether it stopped before it was done (ended_early), so a
	 * rank that finished first is an end-time outlier, not an early end
	 * (IOR's and fio's size-based runs end that way too). */
	bool sched = rep->t_end_ns > rep->t_start_ns;
	bool early = r->ended_early;

	if (r->errors > r->short_ops) {
		add_reason(rep,
			   "rank %d (%s) erred: %" PRIu32
			   " I/O error(s), first: %s",
			   rk, h, r->errors - r->short_ops,
			   r->first_errno ? strerror(r->first_errno)
					  : "unknown");
		added++;
	}
	if (r->short_ops) {
		add_reason(rep,
			   "rank %d (%s) moved short: %" PRIu32
			   " short transfer(s)",
			   rk, h, r->short_ops);
		added++;
	} else if (r->ops[0] + r->ops[1] == 0) {
		add_reason(rep, "rank %d (%s) moved short: no I/O completed",
			   rk, h);
		added++;
	}
	if (r->verify_errors) {
		add_reason(rep,
			   "rank %d (%s) failed --verify: %" PRIu32
			   " bad block(s)",
			   rk, h, r->verify_errors);
		added++;
	}
	if ((r->outlier & IOS_OUTLIER_END) && x->end[i] < med_end &&
	    !rep->size_based && !(sched && r->t_end_ns >= rep->t_end_ns))
		early = true;
	if (early) {
		int64_t t0 = sched ? rep->t_start_ns : x->first_start;
		double planned = sched ? (double)(rep->t_end_ns - t0) / 1e9
				       : (med_end - (double)t0) / 1e9;

		if (rep->size_based && !sched)
			add_reason(
				rep,
				"rank %d (%s) ended early: stopped after %.3f s before its file was done",
				rk, h, (double)(r->t_end_ns - t0) / 1e9);
		else
			add_reason(
				rep,
				"rank %d (%s) ended early: after %.3f s of %.3f s",
				rk, h, (double)(r->t_end_ns - t0) / 1e9,
				planned);
		added++;
	}
	return added;
}

/* Validity, naming node and rank (at most about a dozen ranks named). */
static void validity(struct figctx *x)
{
	double med_end;
	int named = 0;

	memcpy(x->vv, x->end, sizeof(double) * (size_t)x->n);
	med_end = ios_median(x->vv, x->n);
	for (int i = 0; i < x->n; i++) {
		if (named > 12) {
			add_reason(x->rep, "more ranks affected");
			break;
		}
		named += rank_reasons(x, i, med_end);
	}
}

/* Per node: the sum of the rates of its ranks. */
static void node_rates(struct figctx *x, int nnodes)
{
	struct ios_rep_result *rep = x->rep;

	if (!x->ri || nnodes <= 0)
		return;
	/* a repetition read from a file has its own node count: its array is
	 * of that size, not of this one */
	if (rep->node_bw && rep->nnodes != nnodes) {
		free(rep->node_bw);
		rep->node_bw = NULL;
		rep->nnodes = 0;
	}
	if (!rep->node_bw)
		rep->node_bw = calloc((size_t)nnodes, sizeof(double));
	if (!rep->node_bw)
		return;
	rep->nnodes = nnodes;
	ios_node_rates(rep, x->ri, nnodes, rep->node_bw, NULL);
}

void ios_figures_compute(struct ios_rep_result *rep,
			 const struct ios_rank_info *ri, int nnodes)
{
	struct ios_figures kept = rep->fig;
	struct figctx x = {.rep = rep, .ri = ri, .n = rep->nranks};
	size_t k = (size_t)(x.n > 0 ? x.n : 1);

	memset(&rep->fig, 0, sizeof(rep->fig));
	rep->valid = true;
	rep->invalid_reason[0] = '\0';
	/* A negative count would turn every size below into ~2^64 (and GCC 14
	 * rightly flags the memcpy()s below for it): refuse it here. */
	if (x.n < 0) {
		add_reason(rep, "rank count %d is negative", x.n);
		return;
	}
	x.rate = calloc(k, sizeof(double));
	x.end = calloc(k, sizeof(double));
	x.tmp = calloc(k, sizeof(double));
	x.vv = calloc(k, sizeof(double));
	x.all = malloc(sizeof(*x.all));
	if (!x.rate || !x.end || !x.tmp || !x.vv || !x.all) {
		add_reason(rep, "out of memory computing figures");
	} else if (x.n == 0) {
		add_reason(rep, "no ranks");
	} else {
		ios_lathist_init(x.all);
		sum_ranks(&x);
		rate_figures(&x);
		lat_figures(&x, &kept);
		outliers(&x);
		validity(&x);
		node_rates(&x, nnodes);
	}
	free(x.rate);
	free(x.end);
	free(x.tmp);
	free(x.vv);
	free(x.all);
}

void ios_figures_compute_run(struct ios_run *run)
{
	for (int k = 0; k < run->nphases; k++)
		for (int r = 0; r < run->phases[k].nreps; r++) {
			struct ios_rep_result *rep = &run->phases[k].reps[r];
			bool whole = rep->nranks == run->nranks;

			ios_figures_compute(rep, whole ? run->rank_info : NULL,
					    whole ? run->nnodes : rep->nnodes);
		}
}

/* The value one repetition contributes to a statistic over repetitions. */
typedef double (*rep_value_fn)(const struct ios_rep_result *rep,
			       const void *arg);

/* min/mean/max/stddev of get(rep, arg) over the valid repetitions. */
static void stat_over_reps(const struct ios_phase_result *ph, rep_value_fn get,
			   const void *arg, struct ios_stat *s)
{
	double sum = 0, sq = 0, mean;
	int r;

	memset(s, 0, sizeof(*s));
	s->min = INFINITY;
	s->max = -INFINITY;
	for (r = 0; r < ph->nreps; r++) {
		double v;

		if (!ph->reps[r].valid)
			continue;
		v = get(&ph->reps[r], arg);
		if (isnan(v))
			continue;
		s->n++;
		sum += v;
		if (v < s->min)
			s->min = v;
		if (v > s->max)
			s->max = v;
	}
	if (s->n == 0) {
		s->min = s->max = s->mean = s->stddev = NAN;
		return;
	}
	/* Two passes: sum of squares around the mean, not sum(x^2) - n mean^2,
	 * which cancels catastrophically for rates of 1e9 B/s. */
	mean = sum / s->n;
	for (r = 0; r < ph->nreps; r++) {
		double v;

		if (!ph->reps[r].valid)
			continue;
		v = get(&ph->reps[r], arg);
		if (!isnan(v))
			sq += (v - mean) * (v - mean);
	}
	s->mean = mean;
	s->stddev = s->n > 1 ? sqrt(sq / (s->n - 1)) : 0.0;
}

static double rep_fig(const struct ios_rep_result *rep, const void *arg)
{
	return ios_fig_value(&rep->fig, *(const enum ios_fig *)arg);
}

void ios_fig_stat(const struct ios_phase_result *ph, enum ios_fig f,
		  struct ios_stat *s)
{
	stat_over_reps(ph, rep_fig, &f, s);
}

double ios_rep_lat_quantile(const struct ios_rep_result *rep, double q)
{
	struct ios_lathist *all;
	double v;

	if (!rep->lat_hist || rep->nranks <= 0 || q <= 0 || q > 1)
		return NAN;
	all = malloc(sizeof(*all));
	if (!all)
		return NAN;
	ios_lathist_init(all);
	for (int i = 0; i < rep->nranks; i++)
		ios_lathist_merge_parts(
			all, rep->lat_hist + (size_t)i * IOS_LAT_BUCKETS,
			&rep->ranks[i].lat);
	v = ios_lathist_quantile(all->count, all->n, q, all->min_ns,
				 all->max_ns);
	free(all);
	return v;
}

static double rep_lat(const struct ios_rep_result *rep, const void *arg)
{
	double q = *(const double *)arg;

	return q == 0 ? rep->fig.lat_mean_ns : ios_rep_lat_quantile(rep, q);
}

void ios_lat_stat(const struct ios_phase_result *ph, double q,
		  struct ios_stat *s)
{
	stat_over_reps(ph, rep_lat, &q, s);
}

void ios_figures_over_reps(const struct ios_phase_result *ph,
			   struct ios_stats *out)
{
	memset(out, 0, sizeof(*out));
	out->nreps = ph->nreps;
	for (int r = 0; r < ph->nreps; r++)
		if (ph->reps[r].valid)
			out->nvalid++;
	for (int f = 0; f < IOS_FIG_COUNT; f++)
		ios_fig_stat(ph, (enum ios_fig)f, &out->fig[f]);
}
