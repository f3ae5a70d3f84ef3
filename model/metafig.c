/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * metafig: the figures of a metadata phase's repetition (results.h,
 * struct ios_meta_rep), computed the same way by iostrata-bench and the
 * report, from the per-rank counts and times of the results file.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"
#include "results.h"

static void flag_outlier(void *arg, int i)
{
	((double *)arg)[i] = 1;
}

void ios_meta_figures(const struct ios_meta_rep *rep, struct ios_meta_fig *f)
{
	int n = rep->nranks, i;
	double *rate, *s, *tmp, *out;

	memset(f, 0, sizeof(*f));
	f->slowest_rank = -1;
	f->ops_s = f->rank_ops_s_min = f->rank_ops_s_median =
		f->rank_ops_s_max = f->sum_rank_ops_s = NAN;
	f->lat_p50_ns = f->lat_p99_ns = f->lat_max_ns = NAN;
	if (n <= 0 || !rep->ranks)
		return;
	for (i = 0; i < n; i++) {
		f->ops += rep->ranks[i].ops;
		f->errors += rep->ranks[i].errors;
		if (f->slowest_rank < 0 ||
		    rep->ranks[i].wall_s > f->wall_max_s) {
			f->wall_max_s = rep->ranks[i].wall_s;
			f->slowest_rank = i;
		}
	}
	if (f->wall_max_s > 0)
		f->ops_s = (double)f->ops / f->wall_max_s;
	if (rep->lat_hist && rep->lat.n) {
		f->lat_p50_ns =
			ios_lathist_quantile(rep->lat_hist, rep->lat.n, 0.5,
					     rep->lat.min_ns, rep->lat.max_ns);
		f->lat_p99_ns =
			ios_lathist_quantile(rep->lat_hist, rep->lat.n, 0.99,
					     rep->lat.min_ns, rep->lat.max_ns);
		f->lat_max_ns = (double)rep->lat.max_ns;
	}
	rate = calloc((size_t)n * 4, sizeof(double));
	if (!rate)
		return;
	s = rate + n;
	tmp = s + n;
	out = tmp + n;
	f->sum_rank_ops_s = 0;
	for (i = 0; i < n; i++) {
		rate[i] = rep->ranks[i].wall_s > 0
				  ? (double)rep->ranks[i].ops /
					    rep->ranks[i].wall_s
				  : 0;
		f->sum_rank_ops_s += rate[i];
		if (i == 0 || rate[i] < f->rank_ops_s_min)
			f->rank_ops_s_min = rate[i];
		if (i == 0 || rate[i] > f->rank_ops_s_max)
			f->rank_ops_s_max = rate[i];
	}
	if (n >= 2)
		ios_rate_outliers(rate, n, s, tmp, flag_outlier, out);
	memcpy(s, rate, sizeof(double) * (size_t)n);
	f->rank_ops_s_median = ios_median(s, n);
	/* stragglers: the slow outliers */
	for (i = 0; i < n; i++) {
		if (!out[i] || rate[i] >= f->rank_ops_s_median)
			continue;
		if (f->nstragglers <
		    (int32_t)(sizeof(f->straggler) / sizeof(f->straggler[0])))
			f->straggler[f->nstragglers] = i;
		f->nstragglers++;
	}
	free(rate);
}

void ios_meta_phase_clear(struct ios_meta_phase *ph)
{
	for (int r = 0; ph->reps && r < ph->nreps; r++) {
		free(ph->reps[r].ranks);
		free(ph->reps[r].lat_hist);
	}
	free(ph->reps);
	memset(ph, 0, sizeof(*ph));
}
