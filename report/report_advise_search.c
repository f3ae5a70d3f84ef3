/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_advise_search: the model of `iostrata-report advise` (one sweepfit
 * model per targeted metric over the campaigns' configurations), the
 * search of the site's catalogue (cores x memory x disk classes, priced
 * for the whole storage tier) and the printed model, frontier and advice.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_advise_int.h"
#include "siteconf.h"
#include "units.h"

#define PROG ADV_PROG

const char *const adv_where_names[] = {"measured", "interpolated",
				       "extrapolated above",
				       "extrapolated below", "not modelled"};

/* The site's numbers the model needs. */
struct site_axes {
	uint64_t cores, mem, disk_bw; /* the full node and installed rate */
	uint64_t osds;
};

/* One search: the models, the catalogue and what was chosen. */
struct search {
	const struct ios_site *site;
	FILE *errf;      /* messages */
	const char *cur; /* currency, "" none */
	struct site_axes ax;
	struct sf_model model[ADV_NMETRICS];
	bool fitted[ADV_NMETRICS];
	bool has_disk; /* some metric has a disk-speed curve */
	int nco, nme, ncl;
	struct adv_cand *cd; /* by cost */
	size_t ncd;
	long best, sure; /* cheapest meeting the target / whose interval
			  * does; -1 none */
};

static int site_axes(const struct ios_site *site, struct site_axes *a,
		     struct ios_err *err)
{
	const char *installed = ios_site_get(site, "storage", "disk_class");

	memset(a, 0, sizeof(*a));
	a->osds = 1;
	if (ios_site_get(site, "storage", "osds_per_node"))
		ios_site_get_uint(site, "storage", "osds_per_node", &a->osds,
				  NULL);
	if (a->osds == 0)
		a->osds = 1;
	if (ios_site_get(site, "storage", "cores"))
		ios_site_get_uint(site, "storage", "cores", &a->cores, NULL);
	if (ios_site_get(site, "storage", "memory"))
		ios_site_get_size(site, "storage", "memory", &a->mem, NULL);
	if (ios_site_get(site, "storage", "disk_bw"))
		ios_site_get_rate(site, "storage", "disk_bw", &a->disk_bw,
				  NULL);
	if (!a->disk_bw && installed) {
		struct ios_disk_class *cl = NULL;
		int n = ios_site_disk_classes(site, &cl);

		for (int i = 0; i < n; i++)
			if (strcmp(cl[i].name, installed) == 0)
				a->disk_bw = cl[i].bw;
		free(cl);
	}
	if (!a->cores || !a->mem || !a->disk_bw)
		return ios_errf(
			err, -EINVAL,
			PROG
			": %s: [storage] needs cores, memory and disk_bw (or disk_class) to place the sweeps' unconstrained elements",
			ios_site_path(site));
	return 0;
}

static double axis_cores(const struct site_axes *a, uint64_t cpus)
{
	return (double)(cpus ? cpus : a->cores) / (double)a->osds;
}

static double axis_gb(const struct site_axes *a, uint64_t mem)
{
	return (double)(mem ? mem : a->mem) / 1e9 / (double)a->osds;
}

static double axis_mbps(const struct site_axes *a, uint64_t bw)
{
	return (double)(bw ? bw : a->disk_bw) / 1e6;
}

void adv_cand_name(const struct adv_cand *x, char *buf, size_t len)
{
	char sz[32];

	ios_fmt_size(x->mem, sz, sizeof(sz));
	snprintf(buf, len, "%llu cores, %s, %s", (unsigned long long)x->cores,
		 sz, x->disk_bw ? x->disk : "installed");
}

/* A 95% interval in words: "95% interval 0.91..0.99", or why there is
 * none. */
static void fmt_interval(const struct sf_pred *p, char *buf, size_t len)
{
	if (isnan(p->lo) || isnan(p->hi))
		snprintf(buf, len, "no interval: %s",
			 p->where == SF_MEASURED ? "one repetition, no spread"
						 : "no leave-one-out error");
	else if (p->rel - p->half < 0)
		snprintf(buf, len,
			 "95%% interval %.2f..%.2f, clipped at 0 from %.2f",
			 p->lo, p->hi, p->rel - p->half);
	else
		snprintf(buf, len, "95%% interval %.2f..%.2f", p->lo, p->hi);
}

/*
 * Does the interval of [p] fail to support a recommendation at [target]?
 * Too wide (wider than the value itself: the sweep cannot tell the figure
 * from 0) or reaching below the target.  The reason into [why].
 */
static bool unsupported(const struct sf_pred *p, double target, char *why,
			size_t len)
{
	if (isnan(p->half))
		return false; /* no interval: said on its own line */
	if (2 * p->half > p->rel) {
		snprintf(
			why, len,
			"its 95%% interval is %.2f wide (+-%.2f), wider than the predicted %.2f itself",
			2 * p->half, p->half, p->rel);
		return true;
	}
	if (p->lo < target) {
		snprintf(
			why, len,
			"its 95%% interval (%.2f..%.2f) reaches below the target %.2f",
			p->lo, p->hi, target);
		return true;
	}
	return false;
}

/* The measurement that would support the advice [x] (not supported for
 * [nbad] metrics): the node itself, or more repetitions of it. */
static void print_unsupported(FILE *out, const struct adv_cand *x, int nbad)
{
	char sz[32], disk[96] = "";

	if (!nbad)
		return;
	ios_fmt_size(x->mem, sz, sizeof(sz));
	if (x->disk_bw)
		snprintf(disk, sizeof(disk),
			 ", disks throttled to %.0f MB/s (%s)",
			 (double)x->disk_bw / 1e6, x->disk);
	if (x->where == SF_MEASURED)
		fprintf(out,
			"  A measurement that would: more repetitions of this measured node (%llu cores, %s%s) in the sweep, or its campaign again with --check.\n",
			(unsigned long long)x->cores, sz, disk);
	else
		fprintf(out,
			"  A measurement that would: a point nearer this node: the node itself (%llu cores, %s%s) added to the sweep as an element with repetitions, then advise again (or pass its campaign with --check).\n",
			(unsigned long long)x->cores, sz, disk);
}

/* Print a knee in words. */
static void print_knee(FILE *out, const char *axis, const char *unit,
		       const struct sf_knee *k, double xmax)
{
	if (!k->ok) {
		fprintf(out,
			"    %s: too few points for a threshold (need 3 values and 5 repetitions in all)\n",
			axis);
	} else if (k->flat) {
		fprintf(out,
			"    %s: flat: the metric does not change beyond the noise over the measured range (no threshold)\n",
			axis);
	} else if (!k->plateau) {
		fprintf(out,
			"    %s: still rising at the largest measured %.4g %s (no plateau in range; from %.2f to %.2f of the baseline)\n",
			axis, xmax, unit, k->low, k->high);
	} else {
		fprintf(out,
			"    %s: plateau from %.4g %s (95%% interval %.4g..%.4g) at %.2f of the baseline; %s %.2f",
			axis, k->k2, unit, k->k2_lo, k->k2_hi, k->high,
			k->k1 > k->k1_lo || k->k1_hi > k->k1
				? "below it falls to"
				: "below it falls linearly to",
			k->low);
		if (k->k1_hi > k->k1_lo)
			fprintf(out,
				" (lower plateau up to %.4g %s, %.4g..%.4g)",
				k->k1, unit, k->k1_lo, k->k1_hi);
		fprintf(out, "\n");
	}
}

/* Is [c] an unconstrained baseline element measured for metric [m]? */
static bool is_baseline(const struct adv_config *c, int m)
{
	return !c->failed && c->nreps[m] > 0 && !c->cpus && !c->mem &&
	       !c->disk_bw;
}

/* Fit one model per targeted metric.  Returns 0 or ADV_EXIT_USAGE. */
static int fit_models(struct search *s, const struct adv_config *c, size_t n,
		      const struct adv_target *t)
{
	for (int m = 0; m < ADV_NMETRICS; m++) {
		struct sf_point *p;
		size_t k = 0;
		char why[512] = "";
		int rc;

		if (t->ratio[m] <= 0)
			continue;
		p = calloc(n ? n : 1, sizeof(*p));
		if (!p) {
			fprintf(s->errf, PROG ": %s\n", strerror(ENOMEM));
			return ADV_EXIT_USAGE;
		}
		for (size_t i = 0; i < n; i++) {
			if (c[i].failed || c[i].nreps[m] == 0)
				continue;
			p[k].cores = axis_cores(&s->ax, c[i].cpus);
			p[k].gb = axis_gb(&s->ax, c[i].mem);
			p[k].mbps = axis_mbps(&s->ax, c[i].disk_bw);
			p[k].reps = c[i].reps[m];
			/* no constraint at all: the unconstrained baseline */
			p[k].baseline = is_baseline(&c[i], m);
			p[k++].nreps = c[i].nreps[m];
		}
		rc = sf_fit(&s->model[m], p, k, (double)s->ax.disk_bw / 1e6,
			    why, sizeof(why));
		free(p);
		if (rc < 0) {
			fprintf(s->errf, PROG ": %s: cannot fit a model: %s\n",
				adv_metric_name(m),
				why[0] ? why : strerror(-rc));
			return ADV_EXIT_USAGE;
		}
		s->fitted[m] = true;
		s->has_disk = s->has_disk || s->model[m].has_disk;
	}
	return 0;
}

/*
 * What metric [m]'s values are relative to, in the heatmaps' words: the
 * unconstrained baseline with its elements (per campaign), else the
 * largest configuration swept, and its figure.
 */
/* [v] of metric [m] in its unit: "64.59 MiB/s", "760 IOPS". */
static void put_metric(FILE *out, int m, double v)
{
	if (m <= ADV_SEQ_READ)
		fprintf(out, "%.2f MiB/s", v / 1048576.0);
	else
		fprintf(out, "%.0f IOPS", v);
}

static void print_base(FILE *out, const struct sf_model *md, int m,
		       const struct adv_config *c, size_t n)
{
	const char *camp = NULL;
	int ncamp = 0;

	/* campaigns with baseline elements: with several, each one's own
	 * baseline (what its figures are normalised to) is printed too */
	for (size_t i = 0; i < n; i++) {
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = is_baseline(&c[j], m) &&
			       !strcmp(c[j].campaign, c[i].campaign);
		ncamp += is_baseline(&c[i], m) && !seen;
	}

	fprintf(out, "    baseline (1.00): ");
	if (!md->base_baseline) {
		fprintf(out,
			"the largest configuration swept (%.3g cores/OSD, %.3g GB/OSD, %.4g MB/s)",
			md->cx[md->nc - 1], md->mx[md->nm - 1], md->d_ref);
	} else {
		fprintf(out, "the unconstrained baseline (");
		/* its elements, campaign by campaign, in the order read */
		for (size_t i = 0; i < n; i++) {
			bool first = true, seen = false;
			double sum = 0;
			int k = 0;

			if (!is_baseline(&c[i], m))
				continue;
			for (size_t j = 0; j < i && !seen; j++)
				seen = is_baseline(&c[j], m) &&
				       !strcmp(c[j].campaign, c[i].campaign);
			if (seen)
				continue;
			fprintf(out, "%s", camp ? "; " : "");
			for (size_t j = i; j < n; j++)
				if (is_baseline(&c[j], m) &&
				    !strcmp(c[j].campaign, c[i].campaign)) {
					double mu = 0;

					for (int r = 0; r < c[j].nreps[m]; r++)
						mu += c[j].reps[m][r];
					sum += mu / c[j].nreps[m];
					k++;
					fprintf(out, "%s%d",
						first ? "element " : ", ",
						c[j].element);
					first = false;
				}
			fprintf(out, " of %s", c[i].campaign);
			if (ncamp > 1) {
				fprintf(out, ": ");
				put_metric(out, m, sum / k);
			}
			camp = c[i].campaign;
		}
		fprintf(out, ")");
	}
	fprintf(out, "%s", ncamp > 1 ? ": over them all, " : ": ");
	put_metric(out, m, md->base);
	fprintf(out, "%s\n",
		md->base_baseline
			? ""
			: "; no unconstrained baseline element in these campaigns (planned before baselines)");
}

/* The fitted model of metric [m] in words. */
static void print_model(FILE *out, const struct sf_model *md, int m,
			const struct adv_config *c, size_t n)
{
	fprintf(out,
		"  %s: %zu cores x %zu memory cell(s), %zu disk speed(s)%s\n",
		adv_metric_name(m), md->nc, md->nm, md->nd,
		md->base_fastest
			? "; no unthrottled full node: relative to the fastest measured speed"
			: "");
	print_base(out, md, m, c, n);
	if (isnan(md->sd_rep))
		fprintf(out,
			"    noise: one repetition per configuration: no spread over repetitions\n");
	else
		fprintf(out,
			"    noise: sd of one repetition %.3f of the baseline (pooled, %d degrees of freedom)\n",
			md->sd_rep / md->base, md->df_rep);
	if (md->nloo)
		fprintf(out,
			"    leave-one-out error (RMSE over %d configurations): %.3f of the baseline\n",
			md->nloo, md->loo_rmse);
	else
		fprintf(out,
			"    leave-one-out: a single configuration: nothing to cross-validate, so no interval for modelled values\n");
	if (md->has_disk)
		print_knee(out, "disk speed", "MB/s", &md->disk_knee,
			   md->dx[md->nd - 1]);
	else
		fprintf(out,
			"    disk speed: not swept (no disk-speed campaign): only the installed drives are considered\n");
	for (size_t r = 0; md->has_grid && r < md->nc; r++) {
		char what[64];

		snprintf(what, sizeof(what), "memory at %.2f cores/OSD",
			 md->cx[r]);
		print_knee(out, what, "GB/OSD", &md->mem_knee_row[r],
			   md->mx[md->nm - 1]);
	}
	if (!md->has_grid)
		fprintf(out,
			"    cores, memory: not swept (no cores x memory campaign): only the full node is considered\n");
}

/* Candidate values of one catalogue axis: [catalogue] or the measured
 * ones (absolute), sorted and unique.  Returns the count or -errno. */
static int cat_axis(const struct ios_site *site, const char *key,
		    const struct adv_config *c, size_t n, bool mem,
		    uint64_t full, uint64_t **out, struct ios_err *err)
{
	uint64_t *v;
	size_t k = 0;

	if (ios_site_get(site, "catalogue", key))
		return ios_site_get_list(site, "catalogue", key, out, err);
	v = malloc((n + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		uint64_t x = mem ? c[i].mem : c[i].cpus;

		x = x ? x : full;
		for (size_t j = 0; j <= k; j++) {
			if (j == k) {
				v[k++] = x;
				break;
			}
			if (v[j] == x)
				break;
		}
	}
	*out = v;
	return (int)k;
}

/* Predict every targeted metric of [x] with disks of [mbps] MB/s. */
static void predict(const struct search *s, struct adv_cand *x, double mbps,
		    const struct adv_target *t)
{
	x->score = x->score_lo = x->score_lo_raw = INFINITY;
	x->meets = x->confident = true;
	for (int m = 0; m < ADV_NMETRICS; m++) {
		struct sf_pred *pr = &x->pred[m];

		if (!s->fitted[m])
			continue;
		sf_predict(&s->model[m], axis_cores(&s->ax, x->cores),
			   axis_gb(&s->ax, x->mem), mbps, pr);
		if (pr->where > x->where)
			x->where = pr->where;
		x->score = fmin(x->score, pr->rel);
		x->score_lo =
			fmin(x->score_lo, isnan(pr->lo) ? -INFINITY : pr->lo);
		x->score_lo_raw =
			fmin(x->score_lo_raw,
			     isnan(pr->lo) ? -INFINITY : pr->rel - pr->half);
		if (pr->rel < t->ratio[m])
			x->meets = false;
		if (!(pr->lo >= t->ratio[m]))
			x->confident = false;
	}
	if (x->where >= SF_EXTRAP_BELOW)
		x->meets = x->confident = false;
	x->confident = x->confident && x->meets;
}

static int cand_cost_cmp(const void *a, const void *b)
{
	const struct adv_cand *x = a, *y = b;

	if (x->cost != y->cost)
		return x->cost < y->cost ? -1 : 1;
	return x->score > y->score ? -1 : x->score < y->score;
}

/*
 * Every node of the catalogue (cores x memory x the installed drives and
 * each other disk class no cheaper class is as fast as), priced and
 * predicted, by cost; the advice and the cheapest sure node.  Returns 0 or
 * ADV_EXIT_USAGE.
 */
static int search_catalogue(struct search *s, const struct adv_config *c,
			    size_t n, const struct adv_target *t, int *nmeets)
{
	struct ios_disk_class *cl = NULL;
	uint64_t *cores = NULL, *mem = NULL;
	struct ios_err err = {0};
	char inst[64] = ""; /* the installed drives' class */
	int rc = ADV_EXIT_USAGE;

	s->nco = cat_axis(s->site, "cores", c, n, false, s->ax.cores, &cores,
			  &err);
	s->nme = s->nco < 0 ? s->nco
			    : cat_axis(s->site, "memory", c, n, true, s->ax.mem,
				       &mem, &err);
	s->ncl = s->has_disk ? ios_site_disk_classes(s->site, &cl) : 0;
	if (s->nco < 0 || s->nme < 0 || s->ncl < 0) {
		fprintf(s->errf, PROG ": %s\n",
			err.msg[0] ? err.msg : strerror(ENOMEM));
		goto out;
	}
	s->cd = calloc((size_t)s->nco * (size_t)s->nme * (size_t)(s->ncl + 1) +
			       1,
		       sizeof(*s->cd));
	if (!s->cd) {
		fprintf(s->errf, PROG ": %s\n", strerror(ENOMEM));
		goto out;
	}
	for (int i = 0; i < s->nco; i++)
		for (int j = 0; j < s->nme; j++)
			for (int d = -1; d < s->ncl; d++) {
				struct adv_cand *x = &s->cd[s->ncd];
				struct ios_tier_cost tc;

				memset(x, 0, sizeof(*x));
				x->cores = cores[i];
				x->mem = mem[j];
				x->disk_bw = d < 0 ? 0 : cl[d].bw;
				if (ios_site_tier_cost(s->site, x->cores,
						       x->mem, x->disk_bw, &tc,
						       &err) < 0) {
					fprintf(s->errf, PROG ": %s\n",
						err.msg);
					goto out;
				}
				if (d < 0)
					snprintf(inst, sizeof(inst), "%s",
						 tc.disk_class);
				else if (strcmp(tc.disk_class, cl[d].name) != 0)
					continue; /* a cheaper class as fast */
				else if (strcmp(cl[d].name, inst) == 0)
					continue; /* the installed drives */
				snprintf(x->disk, sizeof(x->disk), "%s",
					 tc.disk_class);
				x->cost = tc.total;
				predict(s, x, axis_mbps(&s->ax, x->disk_bw), t);
				s->ncd++;
			}
	qsort(s->cd, s->ncd, sizeof(*s->cd), cand_cost_cmp);
	s->best = s->sure = -1;
	for (size_t i = 0; i < s->ncd; i++) {
		if (s->cd[i].meets && s->best < 0)
			s->best = (long)i;
		if (s->cd[i].confident && s->sure < 0)
			s->sure = (long)i;
		*nmeets += s->cd[i].meets;
	}
	rc = 0;
out:
	free(cl);
	free(cores);
	free(mem);
	return rc;
}

/* The catalogue table: the cost/score frontier (every node with [all]). */
static void print_catalogue(FILE *out, const struct search *s, bool all)
{
	double top = -INFINITY;

	fprintf(out,
		"\nCatalogue: %d core count(s) x %d memory size(s) x %d disk option(s) = %zu nodes%s.\n",
		s->nco, s->nme, s->ncl + 1, s->ncd,
		s->ncl ? "" : " (the installed drives only)");
	fprintf(out, "%-34s %12s  %-7s", "node (cores, RAM, disks)",
		"tier cost", "score");
	for (int m = 0; m < ADV_NMETRICS; m++)
		if (s->fitted[m])
			fprintf(out, "  %-22s", adv_metric_name(m));
	fprintf(out, "  basis\n");
	for (size_t i = 0; i < s->ncd; i++) {
		const struct adv_cand *x = &s->cd[i];
		char node[160];
		bool frontier = x->score > top && x->where < SF_EXTRAP_BELOW;

		if (frontier)
			top = x->score;
		if (!all && !frontier && (long)i != s->best &&
		    (long)i != s->sure)
			continue;
		adv_cand_name(x, node, sizeof(node));
		fprintf(out, "%-34s %8.0f %-3s  %-7.2f", node, x->cost, s->cur,
			x->score);
		for (int m = 0; m < ADV_NMETRICS; m++) {
			char cell[48];

			if (!s->fitted[m])
				continue;
			if (isnan(x->pred[m].lo))
				snprintf(cell, sizeof(cell), "%.2f",
					 x->pred[m].rel);
			else
				snprintf(cell, sizeof(cell),
					 "%.2f [%.2f..%.2f]", x->pred[m].rel,
					 x->pred[m].lo, x->pred[m].hi);
			fprintf(out, "  %-22s", cell);
		}
		fprintf(out, "  %s%s%s%s\n", adv_where_names[x->where],
			frontier ? ", frontier" : "",
			(long)i == s->best ? ", ADVISED" : "",
			(long)i == s->sure && s->sure != s->best
				? ", cheapest sure"
				: "");
	}
	if (!all)
		fprintf(out,
			"(the cost/score frontier; --all lists every node)\n");
	fprintf(out, "\n");
}

/* The advice in words.  Returns ADV_EXIT_OK or ADV_EXIT_NONE. */
static int print_advice(FILE *out, const struct search *s,
			const struct adv_target *t, struct adv_choice *choice)
{
	const struct adv_cand *x;
	char sz[32];
	int nbad = 0;

	if (s->best < 0) {
		fprintf(out, "No node of the catalogue meets the target.\n");
		return ADV_EXIT_NONE;
	}
	x = &s->cd[s->best];
	ios_fmt_size(x->mem, sz, sizeof(sz));
	fprintf(out,
		"Advice: %llu cores, %s RAM, %s disks: %.0f %s for the storage tier (%s).\n",
		(unsigned long long)x->cores, sz,
		x->disk_bw ? x->disk : "the installed", x->cost, s->cur,
		adv_where_names[x->where]);
	for (int m = 0; m < ADV_NMETRICS; m++) {
		char iv[64];

		if (!s->fitted[m])
			continue;
		fmt_interval(&x->pred[m], iv, sizeof(iv));
		fprintf(out,
			"  %s: %.2f of the baseline (%s; %s, target %.2f)\n",
			adv_metric_name(m), x->pred[m].rel, iv,
			adv_where_names[x->pred[m].where], t->ratio[m]);
	}
	for (int m = 0; m < ADV_NMETRICS; m++) {
		char why[160];

		if (s->fitted[m] &&
		    unsupported(&x->pred[m], t->ratio[m], why, sizeof(why))) {
			fprintf(out,
				"  %s: the sweep cannot support this recommendation: %s.\n",
				adv_metric_name(m), why);
			nbad++;
		}
	}
	print_unsupported(out, x, nbad);
	if (x->where == SF_EXTRAP_ABOVE)
		fprintf(out,
			"  Extrapolated: this node has more of some resource than any measured one; the\n"
			"  figure is the measured edge, a lower bound only if performance does not fall\n"
			"  with more resources.\n");
	if (s->sure == s->best)
		fprintf(out,
			"Confidence: the whole interval meets the target.\n");
	else if (s->sure >= 0)
		fprintf(out,
			"Confidence: the interval reaches below the target; the cheapest node whose\n"
			"whole interval meets it costs %.0f %s (%llu cores, %s disks).\n",
			s->cd[s->sure].cost, s->cur,
			(unsigned long long)s->cd[s->sure].cores,
			s->cd[s->sure].disk_bw ? s->cd[s->sure].disk
					       : "the installed");
	else
		fprintf(out,
			"Confidence: low: no node's whole interval meets the target; measure more\n"
			"repetitions or configurations near the advice before buying.\n");
	if (choice) {
		choice->cores = x->cores;
		choice->mem = x->mem;
		choice->disk_bw = x->disk_bw;
		snprintf(choice->disk, sizeof(choice->disk), "%s", x->disk);
		choice->cost = x->cost;
		choice->where = (int)x->where;
		choice->confident = s->sure == s->best;
		choice->full_cores = s->ax.cores;
		choice->full_mem = s->ax.mem;
		for (int m = 0; m < ADV_NMETRICS; m++) {
			choice->fitted[m] = s->fitted[m];
			if (!s->fitted[m])
				continue;
			choice->rel[m] = x->pred[m].rel;
			choice->lo[m] = x->pred[m].lo;
			choice->hi[m] = x->pred[m].hi;
			choice->base[m] = s->model[m].base;
		}
	}
	return ADV_EXIT_OK;
}

/* --plot: the plot, or a sentence why none is drawn.  Returns 0 or -errno
 * (said on s->errf). */
static int draw_plot(FILE *out, const struct search *s, const char *prefix,
		     const struct adv_target *t)
{
	struct ios_err err = {0};
	size_t ndist = 0;

	for (size_t i = 0; i < s->ncd; i++)
		if (i == 0 || s->cd[i].cost != s->cd[i - 1].cost)
			ndist++;
	if (ndist < 2) {
		fprintf(out,
			"Plot: not drawn: every node of the catalogue costs the same (%.0f %s), a cost axis would be empty.\n",
			s->ncd ? s->cd[0].cost : 0.0, s->cur);
		return 0;
	}
	if (adv_plot_cands(prefix, s->cd, s->ncd, s->best, s->sure, t, s->cur,
			   &err) < 0) {
		fprintf(s->errf, "%s\n", err.msg);
		return -EIO;
	}
	fprintf(out, "Plot: %s.png %s.svg\n", prefix, prefix);
	return 0;
}

int adv_model_advise(FILE *out, FILE *errf, const struct ios_site *site,
		     const struct adv_config *c, size_t n,
		     const struct adv_target *t, const char *plot, bool all,
		     int *nmeets, struct adv_choice *choice)
{
	const char *cur = ios_site_get(site, "prices", "currency");
	struct search s = {.site = site,
			   .errf = errf,
			   .cur = cur ? cur : "",
			   .best = -1,
			   .sure = -1};
	struct ios_err err = {0};
	int rc;

	*nmeets = 0;
	if (site_axes(site, &s.ax, &err) < 0) {
		fprintf(errf, "%s\n", err.msg);
		return ADV_EXIT_USAGE;
	}
	fprintf(out,
		"Model: per metric, a monotone fit over cores/OSD x GB/OSD (isotonic, bilinear between\n"
		"measured cells) times a disk-speed curve (isotonic, linear between measured speeds);\n"
		"the full node %llu cores, %.0f GB, %.0f MB/s disks, %llu OSDs/node; values relative to\n"
		"each metric's baseline (1.00), named below as the heatmaps and throttle curves name it.\n",
		(unsigned long long)s.ax.cores, (double)s.ax.mem / 1e9,
		(double)s.ax.disk_bw / 1e6, (unsigned long long)s.ax.osds);
	if ((rc = fit_models(&s, c, n, t)) != 0)
		goto out;
	for (int m = 0; m < ADV_NMETRICS; m++)
		if (s.fitted[m])
			print_model(out, &s.model[m], m, c, n);
	if ((rc = search_catalogue(&s, c, n, t, nmeets)) != 0)
		goto out;
	print_catalogue(out, &s, all);
	rc = print_advice(out, &s, t, choice);
	if (plot && draw_plot(out, &s, plot, t) < 0 && rc == ADV_EXIT_OK)
		rc = ADV_EXIT_NONE;
out:
	for (int m = 0; m < ADV_NMETRICS; m++)
		sf_model_free(&s.model[m]);
	free(s.cd);
	return rc;
}
