/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_health_verdict: tonight's verdict of `iostrata-report health`
 * (report_health.c reads the options and the index): the table of every
 * figure, one REGRESSION line per regression with what moved with it, the
 * RECOVERED lines, the Prometheus gauges.
 *
 * An OSD is named only by what is its own.  When several OSDs' rates fall
 * together and an OSD's rate over its peers' (*_vs_peers) holds, its fall
 * is the cluster's or the machine's under it, not that OSD's: those OSDs
 * are said in one line ("REGRESSION: OSDs together"), their gauge is
 * iostrata_regression_with_peers, not iostrata_regression (t58 at 15:43:
 * a loaded machine took every OSD to 38-62% of its usual rate, and the
 * night named all three; only osd.1, throttled, had fallen below its
 * peers).
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_health.h"

static bool ends_with(const char *s, const char *tail)
{
	size_t l = strlen(s), t = strlen(tail);

	return l > t && !strcmp(s + l - t, tail);
}

/* A value in the unit people read: MiB/s, IOPS, op/s, us, or % of the
 * peers (a ratio to the other OSDs, *_vs_peers). */
double hl_shown(const char *metric, double v, const char **unit)
{
	size_t l = strlen(metric);

	if (ends_with(metric, "_pressure")) {
		*unit = "% of the time";
		return v;
	}
	if (hl_lower_better(metric)) {
		*unit = "us";
		return v / 1e3;
	}
	if (hl_is_ratio(metric)) {
		*unit = "% of peers";
		return v * 100;
	}
	if (l > 3 && !strcmp(metric + l - 3, "_bw")) {
		*unit = "MiB/s";
		return v / 1048576.0;
	}
	*unit = l > 5 && !strcmp(metric + l - 5, "_iops") ? "IOPS" : "op/s";
	return v;
}

/* "osd.1 on host s2", "client c1", "host c1", "the network of host s2",
 * "metadata mds (probed from c1)". */
void hl_who(const struct hl_key *k, char *buf, size_t len)
{
	if (!strcmp(k->layer, "client"))
		snprintf(buf, len, "client %s", k->comp);
	else if (!strcmp(k->layer, "metadata"))
		snprintf(buf, len, "metadata %s (probed from %s)", k->comp,
			 k->host);
	else if (!strcmp(k->layer, "osd"))
		snprintf(buf, len, "%s on host %s", k->comp, k->host);
	else if (!strcmp(k->layer, HL_HOST_LAYER))
		snprintf(buf, len, "host %s", k->host);
	else if (!strcmp(k->layer, "network"))
		snprintf(buf, len, "the network of host %s", k->host);
	else
		snprintf(buf, len, "%s %s on host %s", k->layer, k->comp,
			 k->host);
}
static void prom_series(FILE *pf, const char *name, const struct hl_key *k,
			double v)
{
	bool osd = !strcmp(k->layer, "osd"), cl = !strcmp(k->layer, "client");

	if (isnan(v))
		return;
	/* every name was checked against [A-Za-z0-9._:-]: nothing to escape */
	fprintf(pf,
		"%s{layer=\"%s\",osd=\"%s\",host=\"%s\",client=\"%s\",metric=\"%s\"} %.9g\n",
		name, k->layer, osd ? k->comp : "", k->host, cl ? k->comp : "",
		k->metric, v);
}

/* Tonight's rows first..first+nk-1 with their verdicts [v]. */
struct night {
	const struct hl_row *rows;
	size_t nk;
	struct hl_verdict *v;
	double *val;
	bool *peers;  /* an OSD's rate fell with its peers' */
	bool *unsure; /* an absolute figure's regression on a loaded night */
};

/* Row [i] is a regression that counts: judged one, not unsure, not a
 * host's load, not an OSD's fall with its peers. */
static bool counts(const struct night *n, size_t i)
{
	return !n->rows[i].failed && n->v[i].state == HL_REGRESSION &&
	       !n->unsure[i] && !n->peers[i] &&
	       strcmp(n->rows[i].key.layer, HL_HOST_LAYER);
}

/* Row [i]'s OSD holds its share of its peers' rate: its *_vs_peers ratio
 * of row [i]'s rate was judged and is not a regression. */
static bool holds_share(const struct night *n, size_t i)
{
	const struct hl_key *k = &n->rows[i].key;
	char ratio[sizeof(k->metric) + sizeof(HL_PEERS)];

	snprintf(ratio, sizeof(ratio), "%s" HL_PEERS, k->metric);
	for (size_t j = 0; j < n->nk; j++) {
		const struct hl_key *q = &n->rows[j].key;

		if (!n->rows[j].failed && !strcmp(q->layer, k->layer) &&
		    !strcmp(q->comp, k->comp) && !strcmp(q->host, k->host) &&
		    !strcmp(q->metric, ratio))
			return n->v[j].state != HL_REGRESSION &&
			       n->v[j].state != HL_NOHIST;
	}
	return false;
}

/* Row [j] is another OSD's same rate as row [i]'s, judged, holding its
 * share, and fell at least half as far as row [i]'s. */
static bool fell_alike(const struct night *n, size_t i, size_t j)
{
	const struct hl_key *k = &n->rows[i].key, *q = &n->rows[j].key;

	return j != i && !n->rows[j].failed && !strcmp(q->layer, "osd") &&
	       strcmp(q->comp, k->comp) && !strcmp(q->metric, k->metric) &&
	       n->v[j].state != HL_NOHIST &&
	       n->v[j].change <= 0.5 * n->v[i].change && holds_share(n, j);
}

/*
 * Row [i] is an OSD's rate (not a *_vs_peers ratio) judged a regression
 * while its rate over its peers' was judged and was not, and another OSD
 * holding its share fell at least half as far: it fell with its peers.
 * (t58 at 16:00: osd.2 at 71% of its usual rate, a regression; osd.0 at
 * 71%, within its noise; osd.1 throttled, at 58% of its peers.)
 */
static bool fell_with_peers(const struct night *n, size_t i)
{
	const struct hl_key *k = &n->rows[i].key;

	if (n->v[i].state != HL_REGRESSION || n->unsure[i] ||
	    strcmp(k->layer, "osd") || hl_is_ratio(k->metric) ||
	    hl_lower_better(k->metric) || !holds_share(n, i))
		return false;
	for (size_t j = 0; j < n->nk; j++)
		if (fell_alike(n, i, j))
			return true;
	return false;
}

static const char *state_name(const struct night *n, size_t i)
{
	static const char *const name[] = {"no history", "ok", "REGRESSION",
					   "improved"};

	if (n->unsure[i])
		return "UNSURE (loaded)";
	if (n->v[i].state == HL_REGRESSION &&
	    !strcmp(n->rows[i].key.layer, HL_HOST_LAYER))
		return "LOADED";
	return n->peers[i] ? "REGRESSION with peers" : name[n->v[i].state];
}

/* The table, and the gauges to [pf]. */
static void print_table(const struct night *n, FILE *pf)
{
	printf("%-9s %-12s %-8s %-22s %12s %12s %10s %8s  %s\n", "layer",
	       "component", "host", "metric", "tonight", "baseline", "noise",
	       "change", "verdict");
	for (size_t i = 0; i < n->nk; i++) {
		const struct hl_key *k = &n->rows[i].key;
		const struct hl_verdict *v = &n->v[i];
		const char *u = "";

		if (n->rows[i].failed)
			continue;
		printf("%-9s %-12s %-8s %-22s %12.1f %12.1f %10.1f %7.1f%%  %s (%d nights)\n",
		       k->layer, k->comp, k->host, k->metric,
		       hl_shown(k->metric, n->val[i], &u),
		       hl_shown(k->metric, v->median, &u),
		       hl_shown(k->metric, v->noise, &u), v->change * 100,
		       state_name(n, i), v->nbase);
		if (!pf)
			continue;
		prom_series(pf, "iostrata_health_value", k, n->val[i]);
		prom_series(pf, "iostrata_health_baseline", k, v->median);
		prom_series(pf, "iostrata_health_noise", k, v->noise);
		prom_series(pf, "iostrata_regression", k, counts(n, i));
		if (!strcmp(k->layer, "osd") && !hl_is_ratio(k->metric))
			prom_series(pf, "iostrata_regression_with_peers", k,
				    n->peers[i]);
	}
}

/* "; moved with it: ..." every figure beyond its noise but row [i] and
 * the rows of [metric] that fell with their peers (when not NULL). */
static void print_moved(const struct night *n, size_t i, const char *metric)
{
	int moved = 0;

	printf("; moved with it:");
	for (size_t j = 0; j < n->nk; j++) {
		const struct hl_row *q = &n->rows[j];
		char w[160];

		if (j == i || q->failed || !n->v[j].moved ||
		    (metric && n->peers[j] && !strcmp(q->key.metric, metric)))
			continue;
		hl_who(&q->key, w, sizeof(w));
		printf("%s %s %s %+.0f%%", moved++ ? "," : "", w, q->key.metric,
		       n->v[j].change * 100);
	}
	printf("%s\n", moved ? "" : " nothing else beyond its noise");
}

/* One line for the OSDs whose [metric] (row [first]'s) fell with their
 * peers'. */
static void print_together(const struct night *n, size_t first)
{
	const char *metric = n->rows[first].key.metric;
	int c = 0;

	printf("REGRESSION: OSDs together: %s of", metric);
	for (size_t j = first; j < n->nk; j++) {
		char w[160];

		if (!n->peers[j] || strcmp(n->rows[j].key.metric, metric))
			continue;
		hl_who(&n->rows[j].key, w, sizeof(w));
		printf("%s %s %+.0f%%", c++ ? "," : "", w,
		       n->v[j].change * 100);
	}
	/* the OSDs that fell alike within their noise */
	c = 0;
	for (size_t j = 0; j < n->nk; j++) {
		char w[160];

		if (n->peers[j] || n->v[j].state == HL_REGRESSION ||
		    !fell_alike(n, first, j))
			continue;
		hl_who(&n->rows[j].key, w, sizeof(w));
		printf("%s %s %+.0f%%",
		       c++ ? "," : " (and within its noise:", w,
		       n->v[j].change * 100);
	}
	printf("%s against their usual rate (median of %d nights), none below its usual share of its peers' rate (%s" HL_PEERS
	       "): the cluster or the machines under it slowed, not one OSD",
	       c ? ")" : "", n->v[first].nbase, metric);
	print_moved(n, SIZE_MAX, metric);
}

/* The first row of [metric] that fell with its peers is [i]. */
static bool first_of_peers(const struct night *n, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (n->peers[j] &&
		    !strcmp(n->rows[j].key.metric, n->rows[i].key.metric))
			return false;
	return n->peers[i];
}

/* "WHAT: osd.1 on host s2: write_bw 614.9 MiB/s, 37% of its usual 1645.6
 * MiB/s (median of 4 nights, noise 24.0 MiB/s)" of row [i], no newline. */
static void print_figure(const char *what, const struct night *n, size_t i)
{
	const struct hl_row *r = &n->rows[i];
	const struct hl_verdict *v = &n->v[i];
	char name[160];
	const char *u = "";
	double now, med, noise;

	hl_who(&r->key, name, sizeof(name));
	/* the unit is set by hl_shown() before printf reads it (the order
	 * arguments are evaluated in is unspecified: the last unit printed
	 * empty) */
	now = hl_shown(r->key.metric, n->val[i], &u);
	med = hl_shown(r->key.metric, v->median, &u);
	noise = hl_shown(r->key.metric, v->noise, &u);
	printf("%s: %s: %s %.1f %s, %.0f%% of its usual %.1f %s (median of %d nights, noise %.1f %s)",
	       what, name, r->key.metric, now, u, 100 * (1 + v->change), med, u,
	       v->nbase, noise, u);
}

/* The LOADED lines (a host's CPU pressure), then the UNSURE ones: the
 * absolute figures beyond their noise on a loaded night. */
static void print_loaded(const struct night *n)
{
	int nu = 0;

	for (size_t i = 0; i < n->nk; i++)
		nu += n->unsure[i];
	for (size_t i = 0; i < n->nk; i++)
		if (!n->rows[i].failed && n->v[i].state == HL_REGRESSION &&
		    !strcmp(n->rows[i].key.layer, HL_HOST_LAYER)) {
			print_figure("LOADED", n, i);
			printf(": runnable tasks waited for a CPU that much of the probe's time; tonight's absolute figures are not judged (%d beyond their noise: UNSURE), the ratios to peers are\n",
			       nu);
		}
	for (size_t i = 0; i < n->nk; i++)
		if (n->unsure[i]) {
			print_figure("UNSURE", n, i);
			printf(": on a loaded night\n");
		}
}

/* The REGRESSION lines, each figure's own first, then one line per rate
 * the OSDs lost together: their number. */
static int print_regressions(const struct night *n)
{
	int nreg = 0;

	for (size_t i = 0; i < n->nk; i++) {
		if (!counts(n, i))
			continue;
		nreg++;
		print_figure("REGRESSION", n, i);
		print_moved(n, i, NULL);
	}
	for (size_t i = 0; i < n->nk; i++)
		if (first_of_peers(n, i)) {
			print_together(n, i);
			nreg++;
		}
	return nreg;
}

/* RECOVERED: a figure that was a regression the night before. */
static void print_recoveries(const struct hl_index *ix, const size_t *starts,
			     size_t t, const struct health_opts *o,
			     const struct night *n)
{
	for (size_t i = 0; i < n->nk && t > 0; i++) {
		const struct hl_row *r = &n->rows[i];
		struct hl_verdict pv;
		double pval;
		char name[160];

		if (r->failed || n->v[i].state == HL_REGRESSION ||
		    n->v[i].state == HL_NOHIST ||
		    !strcmp(r->key.layer, HL_HOST_LAYER) ||
		    hl_unjudged(o, t - 1, &r->key))
			continue;
		hl_judge_night(ix, starts, t - 1, &r->key, o, &pval, &pv);
		if (pv.state != HL_REGRESSION)
			continue;
		hl_who(&r->key, name, sizeof(name));
		printf("RECOVERED: %s: %s back to %.0f%% of its usual rate (%s %.0f%% the night before, %s)\n",
		       name, r->key.metric, 100 * (1 + n->v[i].change),
		       hl_lower_better(r->key.metric) ? "latency" : "rate",
		       100 * (1 + pv.change), ix->rows[starts[t - 1]].night);
	}
}

int hl_verdict_print(const struct hl_index *ix, const size_t *starts, size_t nn,
		     const struct health_opts *o, FILE *pf)
{
	size_t t = nn - 1, nk = starts[nn] - starts[t], m = nk ? nk : 1;
	struct night n = {
		.rows = &ix->rows[starts[t]],
		.nk = nk,
		.v = calloc(m, sizeof(*n.v)),
		.val = calloc(m, sizeof(*n.val)),
		.peers = calloc(m, sizeof(*n.peers)),
		.unsure = calloc(m, sizeof(*n.unsure)),
	};
	int nreg = -1;

	if (n.v && n.val && n.peers && n.unsure) {
		for (size_t i = 0; i < nk; i++)
			if (!n.rows[i].failed) {
				hl_judge_night(ix, starts, t, &n.rows[i].key, o,
					       &n.val[i], &n.v[i]);
				n.unsure[i] = n.v[i].state == HL_REGRESSION &&
					      hl_unjudged(o, t, &n.rows[i].key);
			}
		for (size_t i = 0; i < nk; i++)
			n.peers[i] =
				!n.rows[i].failed && fell_with_peers(&n, i);
		print_table(&n, pf);
		print_loaded(&n);
		nreg = print_regressions(&n);
		print_recoveries(ix, starts, t, o, &n);
	}
	free(n.v);
	free(n.val);
	free(n.peers);
	free(n.unsure);
	return nreg;
}
