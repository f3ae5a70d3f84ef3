/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests: derived figures, outliers and validity (model/figures.c). */
#include "config.h"

#include <errno.h>
#include <malloc.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "figures.h"

#define S 1000000000ll
#define MB 1000000.0

struct rk {
	double rate; /* B/s while running */
	double start_s, end_s;
	int node;
	int errors, short_ops, verify_errors, first_errno;
	int ended_early;
};

static struct ios_rank_info ri[512];

/* A repetition of ranks moving at constant rates. */
static struct ios_rep_result *mkrep(const struct rk *r, int n)
{
	struct ios_rep_result *rep = calloc(1, sizeof(*rep));
	double last_start = -1e30, first_end = 1e30;
	int i;

	rep->nranks = n;
	rep->ranks = calloc((size_t)n, sizeof(*rep->ranks));
	rep->lat_hist = calloc((size_t)n * IOS_LAT_BUCKETS, sizeof(uint64_t));
	assert_non_null(rep->ranks);
	assert_non_null(rep->lat_hist);
	for (i = 0; i < n; i++) {
		if (r[i].start_s > last_start)
			last_start = r[i].start_s;
		if (r[i].end_s < first_end)
			first_end = r[i].end_s;
	}
	for (i = 0; i < n; i++) {
		struct ios_rank_result *x = &rep->ranks[i];
		struct ios_lathist h;
		double dur = r[i].end_s - r[i].start_s;

		x->rank = i;
		x->t_start_ns = (int64_t)(r[i].start_s * S);
		x->t_end_ns = (int64_t)(r[i].end_s * S);
		x->bytes[IOS_OP_WRITE] = (uint64_t)(r[i].rate * dur);
		x->ops[IOS_OP_WRITE] = (uint64_t)(r[i].rate * dur / 4096);
		x->stonewall_bytes =
			(uint64_t)(r[i].rate * (first_end - last_start));
		x->stonewall_ops = x->stonewall_bytes / 4096;
		x->errors = (uint32_t)(r[i].errors + r[i].short_ops);
		x->short_ops = (uint32_t)r[i].short_ops;
		x->verify_errors = (uint32_t)r[i].verify_errors;
		x->first_errno = r[i].first_errno;
		x->ended_early = (uint8_t)r[i].ended_early;
		x->cpu_user_s = 0.5;
		ios_lathist_init(&h);
		ios_lathist_add(&h, 1000000 * (uint64_t)(i + 1));
		x->lat = ios_lathist_summary(&h);
		memcpy(rep->lat_hist + (size_t)i * IOS_LAT_BUCKETS, h.count,
		       sizeof(h.count));
		ri[i].rank = i;
		ri[i].node = r[i].node;
		snprintf(ri[i].host, sizeof(ri[i].host), "n%d", r[i].node + 1);
	}
	return rep;
}

static void freerep(struct ios_rep_result *rep)
{
	free(rep->ranks);
	free(rep->lat_hist);
	free(rep->node_bw);
	free(rep);
}

static void test_uniform(void **state)
{
	struct rk r[4];
	struct ios_rep_result *rep;
	int i;

	(void)state;
	for (i = 0; i < 4; i++)
		r[i] = (struct rk){.rate = 100 * MB,
				   .start_s = 0,
				   .end_s = 160,
				   .node = i / 2};
	rep = mkrep(r, 4);
	ios_figures_compute(rep, ri, 2);
	assert_true(rep->valid);
	assert_string_equal(rep->invalid_reason, "");
	assert_true(fabs(rep->fig.stonewall_bw - 400 * MB) < 1);
	assert_true(fabs(rep->fig.window_bw - 400 * MB) < 1);
	assert_true(fabs(rep->fig.sum_rank_bw - 400 * MB) < 1);
	assert_true(fabs(rep->node_bw[0] - 200 * MB) < 1);
	assert_true(fabs(rep->node_bw[1] - 200 * MB) < 1);
	assert_int_equal(rep->fig.outliers, 0);
	/* ranks at 1, 2, 3, 4 ms: p50 is rank 1's bucket, max rank 3's */
	assert_true(fabs(rep->fig.lat_p50_ns - 2e6) < 2e6 / 16);
	assert_true(fabs(rep->fig.lat_max_ns - 4e6) < 1);
	assert_true(rep->fig.cpu_s_per_gib > 0);
	freerep(rep);
}

/* 8 ranks on 2 nodes at 100 MB/s from 0 s, ending at 160 s + i ms. */
static void eight_ranks(struct rk *r)
{
	for (int i = 0; i < 8; i++)
		r[i] = (struct rk){.rate = 100 * MB,
				   .start_s = 0,
				   .end_s = 160 + 0.001 * i,
				   .node = i / 4};
}

/* The paper's case: a client ends at 154 s while the others run 160 s. */
static void test_early_finisher(void **state)
{
	struct rk r[8];
	struct ios_rep_result *rep;
	double fio_style, honest = 8 * 100 * MB;
	uint64_t total = 0;
	int i;

	(void)state;
	eight_ranks(r);
	r[5].end_s = 154;
	r[5].ended_early = 0; /* not even self-reported: detected by time */
	rep = mkrep(r, 8);
	ios_figures_compute(rep, ri, 2);
	/* stonewall is not raised (nor lowered) by the early finisher */
	assert_true(fabs(rep->fig.stonewall_bw - honest) / honest < 1e-6);
	assert_true(rep->fig.stonewall_bw <= honest * (1 + 1e-9));
	/* the whole-window figure shows the loss */
	assert_true(rep->fig.window_bw < honest);
	for (i = 0; i < 8; i++)
		total += rep->ranks[i].bytes[1];
	fio_style = (double)total / 160.007;
	assert_true(rep->fig.stonewall_bw >= fio_style);
	/* flagged, named, invalid */
	assert_true(rep->ranks[5].outlier & IOS_OUTLIER_END);
	assert_false(rep->ranks[4].outlier);
	assert_false(rep->valid);
	assert_non_null(strstr(rep->invalid_reason, "rank 5 (n2) ended early"));
	freerep(rep);
}

/* Time-based (runtime 150 s): every rank ran past the planned end, one's
 * last operation completed at 154 s and the others' at 160 s.  It is an
 * end-time outlier, named as a straggler, but it did not end early: the
 * repetition stays valid.  The same rank stopping at 149 s (before the
 * planned end, as the I/O loop reports) makes it invalid. */
static void test_timebased_end(void **state)
{
	struct rk r[8];
	struct ios_rep_result *rep;

	(void)state;
	eight_ranks(r);
	r[5].end_s = 154;
	rep = mkrep(r, 8);
	rep->t_start_ns = 0;
	rep->t_end_ns = 150 * S;
	ios_figures_compute(rep, ri, 2);
	assert_true(rep->ranks[5].outlier & IOS_OUTLIER_END);
	assert_true(rep->valid);
	assert_string_equal(rep->invalid_reason, "");
	freerep(rep);

	r[5].end_s = 149;
	r[5].ended_early = 1;
	rep = mkrep(r, 8);
	rep->t_start_ns = 0;
	rep->t_end_ns = 150 * S;
	ios_figures_compute(rep, ri, 2);
	assert_false(rep->valid);
	assert_non_null(strstr(rep->invalid_reason, "rank 5 (n2) ended early"));
	freerep(rep);
}

/*
 * A size-based repetition (--once): every rank moves its own file once,
 * there is no planned end (t_end = t_start), and a rank that finished its
 * file first is an end-time outlier, not an early end: valid, both the
 * whole-window and the stonewalled figures computed.  The same ranks in a
 * repetition that does not say it is size-based are invalid (the rule of
 * test_early_finisher); a size-based rank that stopped before its file was
 * done (ended_early) still is.
 */
static void test_size_based_first_finisher(void **state)
{
	struct rk r[8];
	struct ios_rep_result *rep;

	(void)state;
	eight_ranks(r);
	r[5].end_s = 120;
	r[5].rate = 160 * 100 * MB / 120; /* the same file, faster */
	rep = mkrep(r, 8);
	rep->size_based = true;
	ios_figures_compute(rep, ri, 2);
	assert_true(rep->ranks[5].outlier & IOS_OUTLIER_END);
	if (!rep->valid)
		fail_msg("size-based, rank 5 finished first: invalid: %s",
			 rep->invalid_reason);
	assert_string_equal(rep->invalid_reason, "");
	assert_true(rep->fig.stonewall_bw > 0);
	assert_true(rep->fig.window_bw > 0);
	assert_true(rep->fig.window_bw < rep->fig.stonewall_bw);
	freerep(rep);

	rep = mkrep(r, 8); /* not said to be size-based: an early end */
	ios_figures_compute(rep, ri, 2);
	assert_false(rep->valid);
	assert_non_null(strstr(rep->invalid_reason, "rank 5 (n2) ended early"));
	freerep(rep);

	r[5].ended_early = 1; /* stopped before its file was done */
	rep = mkrep(r, 8);
	rep->size_based = true;
	ios_figures_compute(rep, ri, 2);
	assert_false(rep->valid);
	assert_non_null(strstr(
		rep->invalid_reason,
		"rank 5 (n2) ended early: stopped after 120.000 s before its file was done"));
	freerep(rep);
}

/* Issue 29 row 1: a size-based 1-rank run of two 1 MiB writes in 1.3 ms,
 * recorded as iostrata-bench did before the fix (stonewall_bytes 0: one
 * checkpoint at t0, taken for the final count).  The one rank ran the
 * whole window: its bytes are all inside, the headline is bytes / time,
 * never 0. */
static void test_one_rank_short_once(void **state)
{
	struct rk r[1] = {{.rate = 1600 * MB, .start_s = 1, .end_s = 1.0013}};
	struct ios_rep_result *rep;

	(void)state;
	rep = mkrep(r, 1);
	rep->size_based = true;
	rep->ranks[0].bytes[IOS_OP_WRITE] = 2u << 20;
	rep->ranks[0].ops[IOS_OP_WRITE] = 2;
	rep->ranks[0].stonewall_bytes = 0;
	rep->ranks[0].stonewall_ops = 0;
	ios_figures_compute(rep, ri, 1);
	assert_true(rep->valid);
	assert_false(rep->fig.stonewall_short);
	assert_true(fabs(rep->fig.stonewall_bw - (2u << 20) / 0.0013) < 1e3);
	assert_true(fabs(rep->fig.stonewall_iops - 2 / 0.0013) < 1);
	assert_true(fabs(rep->fig.stonewall_bw - rep->fig.window_bw) < 1e3);
	freerep(rep);
}

/* Two ranks of two operations each that overlapped for less than one
 * operation: no stonewall figure, said so, never 0; the window stands. */
static void test_too_short_to_stonewall(void **state)
{
	struct rk r[2] = {
		{.rate = 1600 * MB, .start_s = 1, .end_s = 1.0013},
		{.rate = 1600 * MB, .start_s = 1.0012, .end_s = 1.0025}};
	struct ios_rep_result *rep;
	struct ios_phase_result ph = {.name = "write", .nreps = 1};
	struct ios_stat st;

	(void)state;
	rep = mkrep(r, 2);
	rep->size_based = true;
	for (int i = 0; i < 2; i++) {
		rep->ranks[i].bytes[IOS_OP_WRITE] = 2u << 20;
		rep->ranks[i].ops[IOS_OP_WRITE] = 2;
		rep->ranks[i].stonewall_bytes = 80000; /* 0.1 ms of 1.3 */
		rep->ranks[i].stonewall_ops = 0;
	}
	ios_figures_compute(rep, ri, 1);
	assert_true(rep->valid);
	assert_true(rep->fig.stonewall_short);
	assert_true(isnan(rep->fig.stonewall_bw));
	assert_true(isnan(rep->fig.stonewall_iops));
	assert_true(rep->fig.window_bw > 0);
	ph.reps = rep;
	ios_fig_stat(&ph, IOS_FIG_STONEWALL_BW, &st);
	assert_int_equal(st.n, 0); /* left out of the headline, not a 0 */
	assert_non_null(strstr(IOS_STONEWALL_SHORT, "too short to stonewall"));
	freerep(rep);

	/* 1 MiB operations, 0.6 of one inside the window per rank: the
	 * bench rounds each rank's count up to 1, the bytes say 0.6 (a
	 * stonewall_iops of 1896 next to a stonewall_bw of 1373 MiB/s) */
	rep = mkrep(r, 2);
	rep->size_based = true;
	for (int i = 0; i < 2; i++) {
		rep->ranks[i].bytes[IOS_OP_WRITE] = 1u << 20;
		rep->ranks[i].ops[IOS_OP_WRITE] = 1;
		rep->ranks[i].stonewall_bytes = 629146;
		rep->ranks[i].stonewall_ops = 1;
	}
	ios_figures_compute(rep, ri, 1);
	assert_true(rep->valid);
	assert_true(rep->fig.stonewall_short);
	assert_true(isnan(rep->fig.stonewall_iops));
	freerep(rep);
}

/* An early finisher that claims the full bytes (inflated rate). */
static void test_early_inflated(void **state)
{
	struct rk r[4];
	struct ios_rep_result *rep;

	(void)state;
	for (int i = 0; i < 4; i++)
		r[i] = (struct rk){
			.rate = 100 * MB, .start_s = 0, .end_s = 160};
	r[2].end_s = 154;
	r[2].rate = 100 * MB * 160 / 154;
	r[2].ended_early = 1;
	rep = mkrep(r, 4);
	ios_figures_compute(rep, ri, 1);
	/* the sum of rank rates is inflated by the short rank: the
	 * repetition must be marked invalid and the rank named */
	assert_true(rep->fig.sum_rank_bw > 400 * MB);
	assert_true(rep->ranks[2].outlier & IOS_OUTLIER_END);
	assert_false(rep->valid);
	assert_non_null(strstr(rep->invalid_reason, "rank 2"));
	freerep(rep);
}

struct outcase {
	double rates[8];
	int n;
	int flagged; /* bit mask of ranks flagged for rate */
};

static const struct outcase outcases[] = {
	{{100, 101, 99, 100, 102, 98, 100, 100}, 8, 0},
	{{100, 101, 99, 100, 102, 98, 100, 50}, 8, 0x80},
	{{100, 101, 99, 100, 102, 98, 100, 200}, 8, 0x80},
	{{100, 100, 100, 100, 100, 100, 100, 100}, 8, 0},
	{{100, 100, 100, 95}, 4, 0},   /* within the 10% floor */
	{{100, 100, 100, 80}, 4, 0x8}, /* beyond it */
	/* 2 ranks: each against the other, only the slow side (the paper's
	 * throttled client next to a healthy one) */
	{{1850, 20}, 2, 0x2},
	{{20, 1850}, 2, 0x1},
	{{100, 40}, 2, 0x2},
	{{100, 95}, 2, 0}, /* within the 10% floor */
	{{100, 100}, 2, 0},
	/* 3 ranks: the median of the other two */
	{{1850, 1850, 20}, 3, 0x4},
	{{1850, 20, 1800}, 3, 0x2},
	{{100, 100, 95}, 3, 0},
	{{100, 100, 300}, 3, 0x4}, /* fast side too, from 3 ranks on */
	/* the two free ranks of t13 under load, 1600 and 700 MB/s apart:
	 * the MAD of two values is their half-gap, so the threshold (2.6 x
	 * 900) hid a rank at 20 MB/s; a rank under half its peers' median is
	 * a straggler whatever their spread (CI failed on this) */
	{{1600, 700, 20}, 3, 0x4},
	{{20, 1200, 1600}, 3, 0x1},
	{{10, 100, 40, 160, 100, 60}, 6, 0x5},
	{{55, 100, 40, 160, 100, 60}, 6, 0x4},
	{{10, 100, 100, 100, 100, 10}, 6, 0x21},
};

static void test_outliers(void **state)
{
	size_t c;

	(void)state;
	for (c = 0; c < sizeof(outcases) / sizeof(outcases[0]); c++) {
		struct rk r[8];
		struct ios_rep_result *rep;
		int i, got = 0;

		for (i = 0; i < outcases[c].n; i++)
			r[i] = (struct rk){.rate = outcases[c].rates[i] * MB,
					   .start_s = 0,
					   .end_s = 10};
		rep = mkrep(r, outcases[c].n);
		ios_figures_compute(rep, ri, 1);
		for (i = 0; i < outcases[c].n; i++)
			if (rep->ranks[i].outlier & IOS_OUTLIER_RATE)
				got |= 1 << i;
		if (got != outcases[c].flagged)
			fail_msg("case %zu: flagged 0x%x, want 0x%x", c, got,
				 outcases[c].flagged);
		/* a slow rank is flagged but does not make the rep invalid */
		assert_true(rep->valid);
		freerep(rep);
	}
}

/* 512 ranks (the reference scale): one throttled rank among noisy ones. */
static void test_outliers_512(void **state)
{
	enum { N = 512 };
	struct rk *r = calloc(N, sizeof(*r));
	struct ios_rep_result *rep;
	int flagged = 0;

	(void)state;
	assert_non_null(r);
	for (int i = 0; i < N; i++)
		r[i] = (struct rk){.rate = (100 + (i % 7) - 3) * MB,
				   .start_s = 0,
				   .end_s = 10};
	r[137].rate = 20 * MB;
	rep = mkrep(r, N);
	ios_figures_compute(rep, NULL, 1);
	for (int i = 0; i < N; i++)
		if (rep->ranks[i].outlier & IOS_OUTLIER_RATE) {
			assert_int_equal(i, 137);
			flagged++;
		}
	assert_int_equal(flagged, 1);
	freerep(rep);
	free(r);
}

/* A negative rank count is refused by name, not taken for ~2^64 ranks
 * (before: calloc of SIZE_MAX doubles, "out of memory computing figures"). */
static void test_negative_rank_count(void **state)
{
	struct ios_rep_result rep = {.nranks = -1};

	(void)state;
	ios_figures_compute(&rep, NULL, 0);
	assert_false(rep.valid);
	assert_string_equal(rep.invalid_reason, "rank count -1 is negative");
}

static void test_validity_reasons(void **state)
{
	struct rk r[4];
	struct ios_rep_result *rep;
	int i;

	(void)state;
	for (i = 0; i < 4; i++)
		r[i] = (struct rk){
			.rate = 100 * MB, .start_s = 0, .end_s = 10, .node = i};
	r[0].errors = 1;
	r[0].first_errno = ENOSPC;
	r[1].short_ops = 1;
	r[2].verify_errors = 3;
	rep = mkrep(r, 4);
	rep->ranks[3].ops[1] = 0;
	rep->ranks[3].bytes[1] = 0;
	ios_figures_compute(rep, ri, 4);
	assert_false(rep->valid);
	assert_non_null(strstr(
		rep->invalid_reason,
		"rank 0 (n1) erred: 1 I/O error(s), first: No space left on device"));
	assert_non_null(strstr(rep->invalid_reason,
			       "rank 1 (n2) moved short: 1 short transfer(s)"));
	assert_non_null(strstr(rep->invalid_reason,
			       "rank 2 (n3) failed --verify: 3 bad block(s)"));
	assert_non_null(strstr(rep->invalid_reason,
			       "rank 3 (n4) moved short: no I/O completed"));
	freerep(rep);
}

static void test_over_reps(void **state)
{
	struct ios_phase_result ph = {0};
	struct ios_rep_result reps[4];
	struct ios_stats st;
	int i;

	(void)state;
	memset(reps, 0, sizeof(reps));
	for (i = 0; i < 4; i++) {
		reps[i].valid = i != 3;
		reps[i].fig.stonewall_bw = (i + 1) * 1e9;
		reps[i].fig.lat_p99_ns = NAN;
	}
	ph.nreps = 4;
	ph.reps = reps;
	ios_figures_over_reps(&ph, &st);
	assert_int_equal(st.nreps, 4);
	assert_int_equal(st.nvalid, 3);
	assert_int_equal(st.fig[IOS_FIG_STONEWALL_BW].n, 3);
	assert_true(st.fig[IOS_FIG_STONEWALL_BW].min == 1e9);
	assert_true(st.fig[IOS_FIG_STONEWALL_BW].max == 3e9);
	assert_true(fabs(st.fig[IOS_FIG_STONEWALL_BW].mean - 2e9) < 1);
	assert_true(fabs(st.fig[IOS_FIG_STONEWALL_BW].stddev - 1e9) < 1);
	assert_true(isnan(st.fig[IOS_FIG_LAT_P99].mean));
	assert_string_equal(ios_fig_name(IOS_FIG_STONEWALL_BW), "stonewall_bw");
	assert_string_equal(ios_fig_name(IOS_FIG_CPU_S_PER_GIB),
			    "cpu_s_per_gib");
	assert_null(ios_fig_name(IOS_FIG_COUNT));
}

static void test_median_mad(void **state)
{
	static const struct {
		double v[6];
		int n;
		double med, mad;
	} t[] = {
		{{1}, 1, 1, 0},
		{{3, 1, 2}, 3, 2, 1},
		{{4, 1, 3, 2}, 4, 2.5, 1},
		{{1, 1, 1, 1, 100}, 5, 1, 0},
		{{5, 5, 6, 7, 100, 9}, 6, 6.5, 1.5},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		double v[6], tmp[6], med;

		memcpy(v, t[i].v, sizeof(v));
		med = ios_median(v, t[i].n);
		assert_true(med == t[i].med);
		memcpy(v, t[i].v, sizeof(v));
		assert_true(ios_mad(v, t[i].n, med, tmp) == t[i].mad);
	}
	assert_true(isnan(ios_median(NULL, 0)));
}

/*
 * The histograms of a repetition already in the results file may be
 * dropped from memory (rank 0 keeps one repetition's); recomputing its
 * figures keeps the latency figures, and without histograms at all there
 * are none (NaN), never zeros.
 */
static void test_dropped_histograms(void **state)
{
	struct rk r[3];
	struct ios_rep_result *rep;
	struct ios_figures before;
	int i;

	(void)state;
	for (i = 0; i < 3; i++)
		r[i] = (struct rk){.rate = 50 * MB, .end_s = 10, .node = 0};
	rep = mkrep(r, 3);
	ios_figures_compute(rep, ri, 1);
	before = rep->fig;
	assert_false(isnan(before.lat_p99_ns));
	free(rep->lat_hist);
	rep->lat_hist = NULL;
	rep->lat_hist_in_file = true;
	ios_figures_compute(rep, ri, 1);
	assert_true(rep->fig.lat_p50_ns == before.lat_p50_ns);
	assert_true(rep->fig.lat_p999_ns == before.lat_p999_ns);
	assert_true(rep->fig.lat_mean_ns == before.lat_mean_ns);
	assert_true(rep->fig.lat_max_ns == before.lat_max_ns);
	assert_true(fabs(rep->fig.window_bw - before.window_bw) < 1);
	rep->lat_hist_in_file = false;
	ios_figures_compute(rep, ri, 1);
	assert_true(isnan(rep->fig.lat_p50_ns));
	assert_true(isnan(rep->fig.lat_max_ns));
	freerep(rep);
}

/*
 * A repetition read from a file keeps the node count it was written with;
 * recomputed over more nodes, its per-node array is made anew (before: the
 * old 2-entry array was written with 5 entries, a heap overflow the report
 * hit on a layered file).
 */
static void test_node_count_changes(void **state)
{
	struct rk r[4];
	struct ios_rep_result *rep;

	(void)state;
	for (int i = 0; i < 4; i++)
		r[i] = (struct rk){.rate = 100 * MB,
				   .start_s = 0,
				   .end_s = 10,
				   .node = i % 2 ? 4 : 0};
	rep = mkrep(r, 4);
	rep->node_bw = calloc(2, sizeof(double));
	assert_non_null(rep->node_bw);
	rep->nnodes = 2;
	ios_figures_compute(rep, ri, 5);
	assert_int_equal(rep->nnodes, 5);
	assert_true(malloc_usable_size(rep->node_bw) >= 5 * sizeof(double));
	assert_true(fabs(rep->node_bw[0] - 200 * MB) < 1);
	assert_true(fabs(rep->node_bw[4] - 200 * MB) < 1);
	freerep(rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uniform),
		cmocka_unit_test(test_early_finisher),
		cmocka_unit_test(test_size_based_first_finisher),
		cmocka_unit_test(test_one_rank_short_once),
		cmocka_unit_test(test_too_short_to_stonewall),
		cmocka_unit_test(test_timebased_end),
		cmocka_unit_test(test_early_inflated),
		cmocka_unit_test(test_outliers),
		cmocka_unit_test(test_outliers_512),
		cmocka_unit_test(test_validity_reasons),
		cmocka_unit_test(test_negative_rank_count),
		cmocka_unit_test(test_node_count_changes),
		cmocka_unit_test(test_over_reps),
		cmocka_unit_test(test_dropped_histograms),
		cmocka_unit_test(test_median_mad),
	};

	return cmocka_run_group_tests_name("figures", tests, NULL, NULL);
}
