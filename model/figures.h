/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * figures: every number iostrata prints about a repetition, derived from the
 * raw per-rank records of results.h.  mpibench and the report both call
 * these functions, so a printed number can always be recomputed from the
 * results file.  Definitions (times on the common clock):
 *
 *   all-running window  [last rank's start, first rank's end]
 *   stonewall_bw    sum of stonewall_bytes (bytes each rank moved inside the
 *                   all-running window) / its length: the rate the ranks
 *                   delivered while all of them were running
 *   window_bw       all bytes / (last end - first start)
 *   sum_rank_bw     sum over ranks of bytes_i / (end_i - start_i)
 *                   (a rank that started last and ended first counts all
 *                   it moved); NAN with fig.stonewall_short when the
 *                   window holds less than one operation per rank
 *                   (IOS_STONEWALL_SHORT says so in words)
 *   *_iops          the same with operations
 *   node_bw[n]      sum of the rates of node n's ranks
 *   lat_*           from the merged histograms of all ranks
 *   cpu_s_per_gib   (user + sys) of all ranks / GiB moved
 *
 * Outliers (robust).  Rates, from 2 ranks on: each rank against the OTHER
 * ranks, ref = median of the others' rates, spread = their MAD (the MAD of
 * all ranks above 64 ranks); an outlier when below ref - thr, or (from 3
 * ranks on) above ref + thr, thr = max(3.5 * 1.4826 * MAD, 10% of ref),
 * and on the slow side at most 50% of ref (under half the others' median
 * is a straggler whatever their spread).
 * Leaving the rank out is what lets 2 ranks be judged (a 20 MB/s rank next
 * to a 1.85 GB/s one); with 2 only the slow side counts, since the fast
 * rank's only reference is the straggler.  End times, from 3 ranks on:
 * |x - median| > max(3.5 * 1.4826 * MAD, max(2% of the median duration,
 * 100 ms)).
 * A repetition is invalid when any rank erred (I/O error), moved short
 * (short transfer, or no I/O at all), ended early (it says so, or its end
 * is an outlier before the median), or failed --verify.
 */
#ifndef IOSTRATA_FIGURES_H
#define IOSTRATA_FIGURES_H

#include <stdint.h>

#include "results.h"

/* Why a repetition has no stonewall figure (fig.stonewall_short). */
#define IOS_STONEWALL_SHORT                                                    \
	"too short to stonewall: the window in which all ranks ran held "      \
	"less than one operation per rank (the window and sum-of-ranks "       \
	"figures stand)"

/* The figures with stable names (docs/INTERFACES.md), in this order. */
enum ios_fig {
	IOS_FIG_STONEWALL_BW = 0,
	IOS_FIG_WINDOW_BW,
	IOS_FIG_SUM_RANK_BW,
	IOS_FIG_STONEWALL_IOPS,
	IOS_FIG_WINDOW_IOPS,
	IOS_FIG_SUM_RANK_IOPS,
	IOS_FIG_LAT_P50,
	IOS_FIG_LAT_P90,
	IOS_FIG_LAT_P99,
	IOS_FIG_LAT_P999,
	IOS_FIG_LAT_MAX,
	IOS_FIG_CPU_S_PER_GIB,
	IOS_FIG_COUNT,
};

/* A figure: stable name, unit of the stored value, display scale and unit. */
struct ios_fig_desc {
	enum ios_fig id;
	const char *name;  /* "stonewall_bw", ... */
	const char *unit;  /* unit of the stored value: B/s, op/s, ns, s/GiB */
	double scale;      /* stored value x scale = displayed value */
	const char *dunit; /* displayed unit: MiB/s, IOPS, us, s/GiB */
};

/* Every figure, indexed by enum ios_fig. */
extern const struct ios_fig_desc ios_figs[IOS_FIG_COUNT];

/* "stonewall_bw", ... ; NULL for an unknown index. */
const char *ios_fig_name(enum ios_fig f);
/* The figure named [name], or NULL. */
const struct ios_fig_desc *ios_fig_find(const char *name);
/* The headline figure of a phase: stonewall_iops for rand*, else _bw. */
const struct ios_fig_desc *ios_fig_headline(const char *phase);
/* The value of figure [f] in [fig]. */
double ios_fig_value(const struct ios_figures *fig, enum ios_fig f);

struct ios_stat {
	double min, mean, max, stddev; /* NAN when n == 0 */
	int32_t n;                     /* repetitions counted */
};

struct ios_stats {
	int32_t nreps;  /* repetitions in the phase */
	int32_t nvalid; /* valid ones; the stats cover only those */
	struct ios_stat fig[IOS_FIG_COUNT];
};

/* Outlier thresholds (see above). */
#define IOS_OUTLIER_K 3.5
#define IOS_OUTLIER_RATE_FLOOR 0.10
#define IOS_OUTLIER_RATE_CEIL 0.50
#define IOS_OUTLIER_END_FLOOR 0.02
#define IOS_OUTLIER_END_MIN_NS 100000000ll

/*
 * Compute rep->fig, rep->node_bw (allocated when NULL, [nnodes]), the
 * outlier bits of every rank, and rep->valid / invalid_reason from
 * rep->ranks.  [ri] ([rep->nranks], indexed by rank) names node and host
 * in reasons; may be NULL (then node_bw is not computed).
 */
void ios_figures_compute(struct ios_rep_result *rep,
			 const struct ios_rank_info *ri, int nnodes);

/*
 * ios_figures_compute for every repetition of [run], as a reader does: a
 * repetition of all the run's ranks with the run's rank table and nodes;
 * a layer's repetition on a group of the ranks (fewer) with its own node
 * count and no rank table (its per-node rates are the group's, kept).
 */
void ios_figures_compute_run(struct ios_run *run);

/*
 * Rates of each node in [rep]: bw[nd] / iops[nd] = sum over node nd's ranks
 * of (bytes or ops)_i / (end_i - start_i), the per-rank data of the results
 * file ([ri] indexed by rank gives the node; ranks of no node in
 * [0, nnodes) are left out).  Either output may be NULL.  node_bw is bw.
 */
void ios_node_rates(const struct ios_rep_result *rep,
		    const struct ios_rank_info *ri, int nnodes, double *bw,
		    double *iops);

/* min/mean/max/stddev (sample, two-pass) of figure [f] over the valid
 * repetitions of [ph] that have a value (NAN values are left out). */
void ios_fig_stat(const struct ios_phase_result *ph, enum ios_fig f,
		  struct ios_stat *st);

/* The same for every figure, with the repetition counts. */
void ios_figures_over_reps(const struct ios_phase_result *ph,
			   struct ios_stats *out);

/*
 * The [q]-quantile (0 < q <= 1) of the completion latency in ns over all
 * ranks of [rep]: their histogram rows merged (as lat_p* above), for the
 * quantiles that are no figure (seeds/001's 95th percentile).  NAN when
 * the repetition has no histograms or q is out of range.
 */
double ios_rep_lat_quantile(const struct ios_rep_result *rep, double q);

/* min/mean/max/stddev over the valid repetitions of [ph] of the latency
 * quantile [q] (ios_rep_lat_quantile), or for q == 0 of lat_mean_ns. */
void ios_lat_stat(const struct ios_phase_result *ph, double q,
		  struct ios_stat *s);

/*
 * Robust helpers, exposed for tests: median of [n] values (the array is
 * reordered), and the MAD of [n] values around [median] (uses [tmp], n).
 */
double ios_median(double *v, int n);
/* The rate rule of the outliers above over [n] rates (n >= 2): [flag]
 * called with [arg] and i for every outlier i, slow or fast.  [s] and
 * [tmp] hold n values each.  The metadata phases use it too. */
void ios_rate_outliers(const double *rate, int n, double *s, double *tmp,
		       void (*flag)(void *arg, int i), void *arg);
double ios_mad(const double *v, int n, double median, double *tmp);

#endif
