/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_meta: the metadata phases of a run (iostrata-bench --meta; /meta
 * in SCHEMA.md) in `show` and `export`: per phase the ops/s of every
 * repetition (mdtest's: all ranks' operations over the slowest rank's
 * time), their min/avg/max, the per-rank rates and the stragglers, each
 * recomputed from the file's per-rank rows (model/metafig.c).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"
#include "results.h"

const struct report_meta_fig report_meta_figs[REPORT_META_NFIGS] = {
	{"meta_ops_s", "op/s"},
	{"meta_sum_rank_ops_s", "op/s"},
	{"meta_rank_ops_s_min", "op/s"},
	{"meta_rank_ops_s_median", "op/s"},
	{"meta_lat_p50_ns", "ns"},
	{"meta_lat_p99_ns", "ns"},
	{"meta_ops", "op"},
	{"meta_stragglers", "ranks"},
};

double report_meta_value(const struct ios_meta_fig *f, int i)
{
	switch (i) {
	case 0:
		return f->ops_s;
	case 1:
		return f->sum_rank_ops_s;
	case 2:
		return f->rank_ops_s_min;
	case 3:
		return f->rank_ops_s_median;
	case 4:
		return f->lat_p50_ns;
	case 5:
		return f->lat_p99_ns;
	case 6:
		return (double)f->ops;
	case 7:
		return (double)f->nstragglers;
	default:
		return NAN;
	}
}

static void show_phase(const struct report_run *rr,
		       const struct ios_meta_phase *ph)
{
	double sum = 0, lo = NAN, hi = NAN;
	int n = 0;

	for (int r = 0; r < ph->nreps; r++) {
		const struct ios_meta_rep *rep = &ph->reps[r];
		struct ios_meta_fig f;

		ios_meta_figures(rep, &f);
		printf("  %-22.22s %-8s rep %-3d ranks %-4d %10.0f ops/s  %9llu ops  slowest %.3f s (rank %d)  per rank %.0f / %.0f / %.0f ops/s  p50 %.1f us  p99 %.1f us%s%s",
		       rr->label, ph->op, r, rep->nranks, f.ops_s,
		       (unsigned long long)f.ops, f.wall_max_s, f.slowest_rank,
		       f.rank_ops_s_min, f.rank_ops_s_median, f.rank_ops_s_max,
		       f.lat_p50_ns / 1e3, f.lat_p99_ns / 1e3,
		       rep->stonewalled ? "  stonewalled" : "",
		       f.errors ? "  ERRORS" : "");
		for (int k = 0; k < f.nstragglers && k < 8; k++)
			printf("%s%d", k ? "," : "  straggler rank ",
			       f.straggler[k]);
		printf("\n");
		if (isnan(f.ops_s))
			continue;
		sum += f.ops_s;
		lo = n ? fmin(lo, f.ops_s) : f.ops_s;
		hi = n ? fmax(hi, f.ops_s) : f.ops_s;
		n++;
	}
	if (n)
		printf("  %-22.22s %-8s min / avg / max over %d rep(s): %.0f / %.0f / %.0f ops/s\n",
		       rr->label, ph->op, n, lo, sum / n, hi);
}

void report_show_meta(const struct report_run *runs, size_t n)
{
	bool any = false;

	for (size_t i = 0; i < n; i++) {
		const struct ios_run *run = runs[i].run;
		const char *layout = report_config(run, "meta_layout");
		const char *size = report_config(run, "meta_size");
		const char *be = report_config(run, "backend");

		if (run->nmeta <= 0)
			continue;
		if (!any)
			printf("\nmetadata phases (/meta): ops/s = all ranks' operations / the slowest rank's time (mdtest's); per rank min / median / max of ops_i / wall_i\n");
		any = true;
		printf("  %s: backend %s, layout %s, file size %s B\n",
		       runs[i].label, be ? be : "?", layout ? layout : "?",
		       size ? size : "?");
		for (int k = 0; k < run->nmeta; k++)
			show_phase(&runs[i], &run->meta[k]);
	}
}
