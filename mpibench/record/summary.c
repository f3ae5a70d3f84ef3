/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * summary: the text and JSON summaries of iostrata-bench (summary.h).
 * Every figure comes from model/figures.c; here they are only printed.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figures.h"
#include "jsonw.h"
#include "runrec.h"
#include "summary.h"
#include "units.h"

static void fmt_fig(enum ios_fig f, double v, char *buf, size_t len)
{
	if (isnan(v)) {
		snprintf(buf, len, "n/a");
		return;
	}
	switch (f) {
	case IOS_FIG_STONEWALL_BW:
	case IOS_FIG_WINDOW_BW:
	case IOS_FIG_SUM_RANK_BW:
		ios_fmt_rate(v, buf, len);
		return;
	case IOS_FIG_LAT_P50:
	case IOS_FIG_LAT_P90:
	case IOS_FIG_LAT_P99:
	case IOS_FIG_LAT_P999:
	case IOS_FIG_LAT_MAX:
		if (v >= 1e6)
			snprintf(buf, len, "%.2f ms", v / 1e6);
		else
			snprintf(buf, len, "%.1f us", v / 1e3);
		return;
	case IOS_FIG_CPU_S_PER_GIB:
		snprintf(buf, len, "%.3f s/GiB", v);
		return;
	default:
		snprintf(buf, len, "%.0f", v);
	}
}

/* Host name of node [k]: the host of its first rank. */
static const char *node_name(const struct ios_run *run, int k)
{
	int r;

	for (r = 0; r < run->nranks; r++)
		if (run->rank_info[r].node == k)
			return run->rank_info[r].host;
	return "?";
}

/* The rate of rank [rk] over its own time (0 when it has none). */
static double rank_rate(const struct ios_rank_result *rk)
{
	double dur = (double)(rk->t_end_ns - rk->t_start_ns) / 1e9;

	return dur > 0 ? (double)(rk->bytes[0] + rk->bytes[1]) / dur : 0;
}

/* ---- text --------------------------------------------------------- */

/* One row of the repetition table, its reason when invalid, its
 * outliers. */
static void text_rep(const struct ios_run *run,
		     const struct ios_rep_result *rep, int r)
{
	char s1[32], s2[32], s3[32], s4[32], s5[32], s6[32], s7[32];
	int k;

	fmt_fig(IOS_FIG_STONEWALL_BW, rep->fig.stonewall_bw, s1, sizeof(s1));
	fmt_fig(IOS_FIG_WINDOW_BW, rep->fig.window_bw, s2, sizeof(s2));
	fmt_fig(IOS_FIG_SUM_RANK_BW, rep->fig.sum_rank_bw, s3, sizeof(s3));
	fmt_fig(IOS_FIG_STONEWALL_IOPS, rep->fig.stonewall_iops, s4,
		sizeof(s4));
	fmt_fig(IOS_FIG_LAT_P50, rep->fig.lat_p50_ns, s5, sizeof(s5));
	fmt_fig(IOS_FIG_LAT_P99, rep->fig.lat_p99_ns, s6, sizeof(s6));
	fmt_fig(IOS_FIG_LAT_MAX, rep->fig.lat_max_ns, s7, sizeof(s7));
	printf("  %-4d %-5s %12s %12s %12s %10s %10s %10s %10s %5d\n", r + 1,
	       rep->valid ? "yes" : "NO", s1, s2, s3, s4, s5, s6, s7,
	       rep->fig.outliers);
	if (!rep->valid)
		printf("       invalid: %s\n", rep->invalid_reason);
	else if (rep->fig.stonewall_short)
		printf("       stonewall: %s\n", IOS_STONEWALL_SHORT);
	for (k = 0; k < rep->nranks; k++) {
		const struct ios_rank_result *rk = &rep->ranks[k];

		if (!rk->outlier)
			continue;
		ios_fmt_rate(rank_rate(rk), s1, sizeof(s1));
		printf("       outlier: rank %d on %s (%s%s%s): rate %s, ended at %.3f s\n",
		       rk->rank, run->rank_info[rk->rank].host,
		       rk->outlier & IOS_OUTLIER_RATE ? "rate" : "",
		       rk->outlier == (IOS_OUTLIER_RATE | IOS_OUTLIER_END)
			       ? ", "
			       : "",
		       rk->outlier & IOS_OUTLIER_END ? "end time" : "", s1,
		       (double)rk->t_end_ns / 1e9);
	}
}

static void text_phase(const struct ios_run *run,
		       const struct ios_phase_result *ph)
{
	struct ios_stats st;
	char a[32], b[32], c[32], d[32];
	bool iops = !strncmp(ph->name, "rand", 4);
	enum ios_fig head;
	int r, k;

	head = iops ? IOS_FIG_STONEWALL_IOPS : IOS_FIG_STONEWALL_BW;
	ios_figures_over_reps(ph, &st);
	printf("\n%s, bs %" PRIu64 ": %d of %d repetition(s) valid\n", ph->name,
	       ph->bs, st.nvalid, st.nreps);
	fmt_fig(head, st.fig[head].mean, a, sizeof(a));
	fmt_fig(head, st.fig[head].min, b, sizeof(b));
	fmt_fig(head, st.fig[head].max, c, sizeof(c));
	fmt_fig(head, st.fig[head].stddev, d, sizeof(d));
	printf("  headline: stonewalled aggregate %s (bytes moved while all ranks ran / that window)\n",
	       iops ? "IOPS" : "bandwidth");
	printf("            mean %s  min %s  max %s  stddev %s  over %d valid rep(s)%s\n",
	       a, b, c, d, st.fig[head].n,
	       st.fig[head].n < st.nvalid
		       ? " (the others valid, too short to stonewall)"
		       : "");
	printf("  %-4s %-5s %12s %12s %12s %10s %10s %10s %10s %5s\n", "rep",
	       "valid", "stonewall", "window", "sum-ranks", "sw-IOPS", "p50",
	       "p99", "max", "outl");
	for (r = 0; r < ph->nreps; r++)
		text_rep(run, &ph->reps[r], r);
	if (ph->nreps && run->nnodes > 1) {
		const struct ios_rep_result *last = &ph->reps[ph->nreps - 1];

		printf("  per node (last rep):");
		for (k = 0; k < last->nnodes && last->node_bw; k++) {
			ios_fmt_rate(last->node_bw[k], a, sizeof(a));
			printf(" %s %s", node_name(run, k), a);
		}
		printf("\n");
	}
	printf("  over valid reps:       %12s %12s %12s %12s\n", "min", "mean",
	       "max", "stddev");
	for (k = 0; k < IOS_FIG_COUNT; k++) {
		fmt_fig((enum ios_fig)k, st.fig[k].min, a, sizeof(a));
		fmt_fig((enum ios_fig)k, st.fig[k].mean, b, sizeof(b));
		fmt_fig((enum ios_fig)k, st.fig[k].max, c, sizeof(c));
		fmt_fig((enum ios_fig)k, st.fig[k].stddev, d, sizeof(d));
		printf("    %-20s %12s %12s %12s %12s\n",
		       ios_fig_name((enum ios_fig)k), a, b, c, d);
	}
}

/* The metadata phases (--meta): each repetition's ops/s (all ops over
 * the slowest rank's time, model/metafig.c), the per-rank spread. */
static void text_meta(const struct ios_run *run)
{
	for (int k = 0; k < run->nmeta; k++) {
		const struct ios_meta_phase *ph = &run->meta[k];

		printf("meta %s:\n", ph->op);
		for (int r = 0; r < ph->nreps; r++) {
			struct ios_meta_fig f;

			ios_meta_figures(&ph->reps[r], &f);
			printf("  rep %d: %.0f ops/s (%llu ops, slowest rank %d in %.3f s; per rank %.0f..%.0f ops/s)%s%s\n",
			       r + 1, f.ops_s, (unsigned long long)f.ops,
			       f.slowest_rank, f.wall_max_s, f.rank_ops_s_min,
			       f.rank_ops_s_max,
			       ph->reps[r].stonewalled ? ", stonewalled" : "",
			       f.errors ? ", FAILED operations" : "");
		}
	}
}

void mb_summary_text(const struct ios_run *run,
		     const struct mb_summary_extra *x)
{
	int p, nsize, nreps;
	const char *mode = ios_run_mode(run, &nsize, &nreps);

	printf("iostrata-bench %s: %d ranks on %d node(s), backend %s, results %s\n",
	       PACKAGE_VERSION, run->nranks, run->nnodes, x->backend,
	       x->output ? x->output : "(none)");
	if (run->nmeta > 0)
		text_meta(run);
	else
		printf("mode %s: %d of %d repetition(s) size-based\n", mode,
		       nsize, nreps);
	for (p = 0; p < run->nphases; p++)
		text_phase(run, &run->phases[p]);
	fflush(stdout);
}

/* ---- JSON --------------------------------------------------------- */

/* "meta": each metadata phase, its repetitions' figures
 * (model/metafig.c) and stragglers. */
static void json_meta(struct jsonw *w, const struct ios_run *run)
{
	jsonw_key(w, "meta");
	jsonw_arr_begin(w);
	for (int k = 0; k < run->nmeta; k++) {
		const struct ios_meta_phase *ph = &run->meta[k];

		jsonw_obj_begin(w);
		jsonw_kv_str(w, "op", ph->op);
		jsonw_key(w, "reps");
		jsonw_arr_begin(w);
		for (int r = 0; r < ph->nreps; r++) {
			struct ios_meta_fig f;

			ios_meta_figures(&ph->reps[r], &f);
			jsonw_obj_begin(w);
			jsonw_kv_int(w, "rep", r + 1);
			jsonw_kv_uint(w, "ops", f.ops);
			jsonw_kv_uint(w, "errors", f.errors);
			jsonw_kv_double(w, "ops_s", f.ops_s);
			jsonw_kv_double(w, "wall_max_s", f.wall_max_s);
			jsonw_kv_int(w, "slowest_rank", f.slowest_rank);
			jsonw_kv_double(w, "rank_ops_s_min", f.rank_ops_s_min);
			jsonw_kv_double(w, "rank_ops_s_median",
					f.rank_ops_s_median);
			jsonw_kv_double(w, "rank_ops_s_max", f.rank_ops_s_max);
			jsonw_kv_double(w, "sum_rank_ops_s", f.sum_rank_ops_s);
			jsonw_kv_double(w, "lat_p50_ns", f.lat_p50_ns);
			jsonw_kv_double(w, "lat_p99_ns", f.lat_p99_ns);
			jsonw_kv_bool(w, "stonewalled",
				      ph->reps[r].stonewalled);
			jsonw_key(w, "stragglers");
			jsonw_arr_begin(w);
			for (int s = 0; s < f.nstragglers && s < 8; s++)
				jsonw_int(w, f.straggler[s]);
			jsonw_arr_end(w);
			jsonw_obj_end(w);
		}
		jsonw_arr_end(w);
		jsonw_obj_end(w);
	}
	jsonw_arr_end(w);
}

/* "stragglers": the outlier ranks of [rep]. */
static void json_stragglers(struct jsonw *w, const struct ios_run *run,
			    const struct ios_rep_result *rep)
{
	int k;

	jsonw_key(w, "stragglers");
	jsonw_arr_begin(w);
	for (k = 0; k < rep->nranks; k++) {
		const struct ios_rank_result *rk = &rep->ranks[k];

		if (!rk->outlier)
			continue;
		jsonw_obj_begin(w);
		jsonw_kv_int(w, "rank", rk->rank);
		jsonw_kv_str(w, "host", run->rank_info[rk->rank].host);
		jsonw_kv_int(w, "node", run->rank_info[rk->rank].node);
		jsonw_kv_bool(w, "rate", rk->outlier & IOS_OUTLIER_RATE);
		jsonw_kv_bool(w, "end", rk->outlier & IOS_OUTLIER_END);
		jsonw_kv_double(w, "bw", rank_rate(rk));
		jsonw_kv_double(w, "end_s", (double)rk->t_end_ns / 1e9);
		jsonw_obj_end(w);
	}
	jsonw_arr_end(w);
}

/* Repetition [r] of a phase; [t] counts the repetitions timed so far. */
static void json_rep(struct jsonw *w, const struct ios_run *run,
		     const struct ios_rep_result *rep, int r, int *t,
		     const struct mb_summary_extra *x)
{
	int k, f;

	jsonw_obj_begin(w);
	jsonw_kv_int(w, "rep", r + 1);
	jsonw_kv_bool(w, "valid", rep->valid);
	jsonw_kv_bool(w, "size_based", rep->size_based);
	jsonw_kv_str(w, "invalid_reason", rep->invalid_reason);
	jsonw_kv_bool(w, "stonewall_short", rep->fig.stonewall_short);
	jsonw_kv_uint(w, "bytes", rep->fig.bytes);
	jsonw_kv_uint(w, "ops", rep->fig.ops);
	for (f = 0; f < IOS_FIG_COUNT; f++)
		jsonw_kv_double(w, ios_fig_name((enum ios_fig)f),
				ios_fig_value(&rep->fig, (enum ios_fig)f));
	jsonw_kv_double(w, "rank_bw_min", rep->fig.rank_bw_min);
	jsonw_kv_double(w, "rank_bw_median", rep->fig.rank_bw_median);
	jsonw_kv_double(w, "rank_bw_max", rep->fig.rank_bw_max);
	jsonw_kv_uint(w, "errors", rep->nerrors);
	if (*t < x->ntimed) {
		jsonw_kv_double(w, "gather_s", x->gather_s[*t]);
		jsonw_kv_double(w, "write_s", x->write_s[*t]);
		(*t)++;
	}
	jsonw_key(w, "node_bw");
	jsonw_arr_begin(w);
	for (k = 0; rep->node_bw && k < rep->nnodes; k++)
		jsonw_double(w, rep->node_bw[k]);
	jsonw_arr_end(w);
	json_stragglers(w, run, rep);
	jsonw_obj_end(w);
}

static void json_phase(struct jsonw *w, const struct ios_run *run,
		       const struct ios_phase_result *ph, int *t,
		       const struct mb_summary_extra *x)
{
	struct ios_stats st;
	int r, f;

	ios_figures_over_reps(ph, &st);
	jsonw_obj_begin(w);
	jsonw_kv_str(w, "name", ph->name);
	jsonw_kv_str(w, "backend", ph->backend);
	jsonw_kv_uint(w, "bs", ph->bs);
	jsonw_kv_int(w, "rwmixread", ph->rwmixread);
	jsonw_kv_str(w, "headline",
		     strncmp(ph->name, "rand", 4) ? "stonewall_bw"
						  : "stonewall_iops");
	jsonw_kv_int(w, "nreps", st.nreps);
	jsonw_kv_int(w, "nvalid", st.nvalid);
	jsonw_key(w, "stats");
	jsonw_obj_begin(w);
	for (f = 0; f < IOS_FIG_COUNT; f++) {
		jsonw_key(w, ios_fig_name((enum ios_fig)f));
		jsonw_obj_begin(w);
		jsonw_kv_double(w, "min", st.fig[f].min);
		jsonw_kv_double(w, "mean", st.fig[f].mean);
		jsonw_kv_double(w, "max", st.fig[f].max);
		jsonw_kv_double(w, "stddev", st.fig[f].stddev);
		jsonw_kv_int(w, "n", st.fig[f].n);
		jsonw_obj_end(w);
	}
	jsonw_obj_end(w);
	jsonw_key(w, "reps");
	jsonw_arr_begin(w);
	for (r = 0; r < ph->nreps; r++)
		json_rep(w, run, &ph->reps[r], r, t, x);
	jsonw_arr_end(w);
	jsonw_obj_end(w);
}

/* A layered run's "layers" (each row, with the hosts that ran it), its
 * roles and its verdict. */
static void json_layers(struct jsonw *w, const struct ios_run *run)
{
	const char *roles = ios_runrec_get(run, "layers.roles");

	jsonw_kv_str(w, "roles", roles ? roles : "unknown");
	jsonw_key(w, "layers");
	jsonw_arr_begin(w);
	for (int i = 0; i < run->nlayers; i++) {
		const struct ios_layer *l = &run->layers[i];
		char key[64];
		const char *hosts;

		snprintf(key, sizeof(key), "layers.%s.hosts", l->name);
		hosts = ios_runrec_get(run, key);
		jsonw_obj_begin(w);
		jsonw_kv_str(w, "name", l->name);
		jsonw_kv_str(w, "source", l->source);
		jsonw_kv_double(w, "read_bw", l->read_bw);
		jsonw_kv_double(w, "write_bw", l->write_bw);
		jsonw_kv_str(w, "note", l->note);
		jsonw_kv_str(w, "hosts", hosts);
		jsonw_obj_end(w);
	}
	jsonw_arr_end(w);
	jsonw_kv_str(w, "verdict", run->verdict);
}

void mb_summary_json(const struct ios_run *run, bool valid,
		     const struct mb_summary_extra *x)
{
	struct jsonw w;
	int p, r, k, t = 0, nsize, nreps;
	const char *mode = ios_run_mode(run, &nsize, &nreps);

	jsonw_init(&w, stdout, false);
	jsonw_obj_begin(&w);
	jsonw_kv_str(&w, "tool", run->tool);
	jsonw_kv_str(&w, "version", run->tool_version);
	jsonw_kv_str(&w, "run_id", run->run_id);
	jsonw_kv_str(&w, "output", x->output);
	jsonw_kv_str(&w, "status", run->status);
	jsonw_kv_int(&w, "ranks", run->nranks);
	jsonw_kv_int(&w, "nodes", run->nnodes);
	jsonw_kv_bool(&w, "valid", valid);
	/* /config mode and the repetitions' size_based attribute */
	jsonw_kv_str(&w, "mode", mode);
	jsonw_kv_int(&w, "size_based_reps", nsize);
	jsonw_kv_uint(&w, "rss_max_bytes", x->rss_max);
	jsonw_kv_uint(&w, "rss_median_bytes", x->rss_median);
	jsonw_kv_uint(&w, "rss_rank0_bytes", x->rss_rank0);
	jsonw_kv_double(&w, "main_epoch_first_s", x->main_first);
	jsonw_kv_double(&w, "main_epoch_last_s", x->main_last);
	jsonw_kv_double(&w, "mpi_init_s", x->init_s);
	jsonw_kv_double(&w, "mpi_init_max_s", x->init_max);
	jsonw_kv_double(&w, "startup_s", x->startup_s);
	jsonw_key(&w, "node_names");
	jsonw_arr_begin(&w);
	for (k = 0; k < run->nnodes; k++)
		jsonw_str(&w, node_name(run, k));
	jsonw_arr_end(&w);
	jsonw_key(&w, "reasons");
	jsonw_arr_begin(&w);
	for (p = 0; p < run->nphases; p++)
		for (r = 0; r < run->phases[p].nreps; r++)
			if (!run->phases[p].reps[r].valid) {
				char buf[600];

				snprintf(buf, sizeof(buf), "%s rep %d: %s",
					 run->phases[p].name, r + 1,
					 run->phases[p].reps[r].invalid_reason);
				jsonw_str(&w, buf);
			}
	jsonw_arr_end(&w);
	jsonw_key(&w, "phases");
	jsonw_arr_begin(&w);
	for (p = 0; p < run->nphases; p++)
		json_phase(&w, run, &run->phases[p], &t, x);
	jsonw_arr_end(&w);
	if (run->nmeta > 0)
		json_meta(&w, run);
	if (run->nlayers)
		json_layers(&w, run);
	jsonw_obj_end(&w);
	jsonw_finish(&w);
}
