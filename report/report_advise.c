/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_advise: `iostrata-report advise`: cheapest storage-node
 * configuration meeting a target relative to the unconstrained baseline,
 * the cost / performance Pareto frontier (table and gnuplot plot) and the
 * spread over repetitions behind it.  Input: a campaign directory collected
 * by `iostrata-campaign collect` and the site description (prices).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gnuplot.h"
#include "report_advise.h"
#include "safefile.h"
#include "siteconf.h"
#include "units.h"
#include "h5iso.h"
#include "report.h"
#include "results.h"
#include "sweepfit.h"

#define PROG "iostrata-report advise"

enum {
	ADV_EXIT_OK = 0,
	ADV_EXIT_NONE = 1,       /* no configuration meets the target */
	ADV_EXIT_USAGE = 2,      /* bad input */
	ADV_EXIT_INCOMPLETE = 3, /* advice from a campaign with failures */
};

static const char *const metric_names[ADV_NMETRICS] = {
	"seq-write", "seq-read", "rand-write", "rand-read"};

const char *adv_metric_name(enum adv_metric m)
{
	return metric_names[m];
}

int adv_parse_targets(const char *s, struct adv_target *t, struct ios_err *err)
{
	char *copy, *tok, *save = NULL;
	int n = 0, rc = 0;

	memset(t, 0, sizeof(*t));
	if (!s || !*s)
		return ios_errf(
			err, -EINVAL,
			PROG
			": --target: empty: expected METRIC=RATIO[,...] with METRIC one of seq-write, seq-read, rand-write, rand-read");
	copy = strdup(s);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '='), *end;
		double r;
		int m;

		if (!eq) {
			rc = ios_errf(
				err, -EINVAL,
				PROG
				": --target: invalid item \"%s\": expected METRIC=RATIO, e.g. seq-write=0.9",
				tok);
			break;
		}
		*eq = '\0';
		for (m = 0; m < ADV_NMETRICS; m++)
			if (strcmp(tok, metric_names[m]) == 0)
				break;
		if (m == ADV_NMETRICS) {
			rc = ios_errf(
				err, -EINVAL,
				PROG
				": --target: unknown metric \"%s\": accepted: seq-write, seq-read, rand-write, rand-read",
				tok);
			break;
		}
		errno = 0;
		r = strtod(eq + 1, &end);
		if (end == eq + 1 || *end || errno || !(r > 0) || r > 2) {
			rc = ios_errf(
				err, -EINVAL,
				PROG
				": --target: invalid ratio \"%s\" for %s: expected a number in (0, 2], relative to the baseline (0.9 = 90%%)",
				eq + 1, tok);
			break;
		}
		t->ratio[m] = r;
		n++;
	}
	free(copy);
	if (!rc && n == 0)
		rc = ios_errf(err, -EINVAL, PROG ": --target: no metric given");
	return rc;
}

static void stats(const double *v, int n, double *mean, double *min,
		  double *max, double *sd)
{
	double s = 0, q = 0;

	*mean = *min = *max = *sd = NAN;
	if (n <= 0)
		return;
	*min = *max = v[0];
	for (int i = 0; i < n; i++) {
		s += v[i];
		if (v[i] < *min)
			*min = v[i];
		if (v[i] > *max)
			*max = v[i];
	}
	*mean = s / n;
	for (int i = 0; i < n; i++)
		q += (v[i] - *mean) * (v[i] - *mean);
	*sd = n > 1 ? sqrt(q / (n - 1)) : 0;
}

/* a >= b in every resource (0 = unconstrained = the most) */
static bool covers(uint64_t a, uint64_t b)
{
	if (a == 0)
		return true;
	return b != 0 && a >= b;
}

int adv_compute(const struct adv_config *c, size_t n,
		const struct adv_target *t, struct adv_result *res,
		struct ios_err *err)
{
	bool targeted = false;
	long base = -1;

	memset(res, 0, sizeof(*res));
	res->best = res->best_score = -1;
	if (n == 0)
		return ios_errf(err, -EINVAL,
				PROG ": no configuration in the campaign");
	for (int m = 0; m < ADV_NMETRICS; m++)
		if (t->ratio[m] > 0)
			targeted = true;
	if (!targeted)
		return ios_errf(err, -EINVAL, PROG ": no target metric");
	/* the baseline: at least every other configuration's resources */
	for (size_t i = 0; i < n && base < 0; i++) {
		bool all = !c[i].failed;

		for (size_t j = 0; j < n && all; j++)
			all = covers(c[i].cpus, c[j].cpus) &&
			      covers(c[i].mem, c[j].mem) &&
			      covers(c[i].disk_bw, c[j].disk_bw);
		if (all)
			base = (long)i;
	}
	if (base < 0)
		return ios_errf(
			err, -EINVAL,
			PROG
			": no unconstrained baseline: no successful configuration has at least the cores, memory and disk rate of all others (include the full configuration in the sweep, or resubmit it if it failed)");
	res->baseline = (size_t)base;
	for (int m = 0; m < ADV_NMETRICS; m++)
		if (t->ratio[m] > 0 && c[base].nreps[m] == 0)
			return ios_errf(
				err, -EINVAL,
				PROG
				": baseline %s has no valid repetition of %s: cannot judge a target on it",
				c[base].label, metric_names[m]);
	res->rows = calloc(n, sizeof(*res->rows));
	if (!res->rows)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct adv_row *r = &res->rows[i];

		for (int m = 0; m < ADV_NMETRICS; m++)
			stats(c[i].reps[m], c[i].nreps[m], &r->mean[m],
			      &r->min[m], &r->max[m], &r->sd[m]);
	}
	for (size_t i = 0; i < n; i++) {
		struct adv_row *r = &res->rows[i];
		const struct adv_row *b = &res->rows[base];
		bool known = !c[i].failed;

		r->score = INFINITY;
		r->meets = r->meets_all = known;
		for (int m = 0; m < ADV_NMETRICS; m++) {
			r->rel[m] =
				b->mean[m] > 0 ? r->mean[m] / b->mean[m] : NAN;
			r->rel_min[m] =
				b->mean[m] > 0 ? r->min[m] / b->mean[m] : NAN;
			if (t->ratio[m] <= 0)
				continue;
			if (isnan(r->rel[m])) {
				known = false;
				r->meets = r->meets_all = 0;
				continue;
			}
			if (r->rel[m] < r->score)
				r->score = r->rel[m];
			if (r->rel[m] < t->ratio[m])
				r->meets = 0;
			if (r->rel_min[m] < t->ratio[m])
				r->meets_all = 0;
		}
		if (!known)
			r->score = NAN;
		r->meets_all = r->meets_all && r->meets;
	}
	for (size_t i = 0; i < n; i++) {
		struct adv_row *r = &res->rows[i];

		if (isnan(r->score))
			continue;
		/* frontier: nobody at most as expensive and at least as good
		 * with one strictly better */
		r->pareto = 1;
		for (size_t j = 0; j < n && r->pareto; j++) {
			const struct adv_row *o = &res->rows[j];

			if (j == i || isnan(o->score))
				continue;
			if (c[j].cost <= c[i].cost && o->score >= r->score &&
			    (c[j].cost < c[i].cost || o->score > r->score))
				r->pareto = 0;
		}
		if (res->best_score < 0 ||
		    r->score > res->rows[res->best_score].score)
			res->best_score = (long)i;
		if (!r->meets)
			continue;
		/* cheapest; ties: fewer resources, then the higher score */
		if (res->best < 0) {
			res->best = (long)i;
			continue;
		}
		{
			const struct adv_config *b = &c[res->best];
			const struct adv_row *br = &res->rows[res->best];

			if (c[i].cost < b->cost ||
			    (c[i].cost == b->cost &&
			     (c[i].disk_bw && b->disk_bw &&
					      c[i].disk_bw != b->disk_bw
				      ? c[i].disk_bw < b->disk_bw
				      : r->score > br->score)))
				res->best = (long)i;
		}
	}
	return 0;
}

static void fmt_metric(int m, double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (m <= ADV_SEQ_READ)
		ios_fmt_rate(v, buf, len);
	else
		snprintf(buf, len, "%.0f IOPS", v);
}

static void fmt_res(const struct adv_config *c, char *buf, size_t len)
{
	char m[32] = "all", d[32] = "none";

	if (c->mem)
		ios_fmt_size(c->mem, m, sizeof(m));
	if (c->disk_bw)
		ios_fmt_rate((double)c->disk_bw, d, sizeof(d));
	if (c->cpus)
		snprintf(buf, len, "cores %llu, RAM %s, disk %s",
			 (unsigned long long)c->cpus, m, d);
	else
		snprintf(buf, len, "cores all, RAM %s, disk %s", m, d);
}

void adv_print(FILE *fp, const struct adv_config *c, size_t n,
	       const struct adv_target *t, const struct adv_result *res,
	       const char *currency)
{
	const char *cur = currency ? currency : "";
	char a[48], b[48];

	fprintf(fp,
		"Targets (relative to baseline %s):", c[res->baseline].label);
	for (int m = 0; m < ADV_NMETRICS; m++)
		if (t->ratio[m] > 0)
			fprintf(fp, " %s >= %.2f", metric_names[m],
				t->ratio[m]);
	fprintf(fp,
		"\nFigures: stonewalled aggregate (seq: bandwidth, rand: IOPS), mean over valid repetitions;\n");
	fprintf(fp,
		"rel = mean / baseline mean, [worst..best repetition / baseline mean], cv = stddev / mean.\n\n");
	fprintf(fp, "%-22s %12s", "configuration", "cost");
	for (int m = 0; m < ADV_NMETRICS; m++)
		if (t->ratio[m] > 0)
			fprintf(fp, "  %-30s", metric_names[m]);
	fprintf(fp, " %6s  %s\n", "score", "verdict");
	for (size_t i = 0; i < n; i++) {
		const struct adv_row *r = &res->rows[i];
		const char *verdict;

		fprintf(fp, "%-22s %8.0f %-3s", c[i].label, c[i].cost, cur);
		for (int m = 0; m < ADV_NMETRICS; m++) {
			char cell[64];

			if (t->ratio[m] <= 0)
				continue;
			if (c[i].failed || isnan(r->rel[m]))
				snprintf(cell, sizeof(cell), "-");
			else
				snprintf(cell, sizeof(cell),
					 "%.2f [%.2f..%.2f] cv %.0f%% n=%d",
					 r->rel[m], r->rel_min[m],
					 r->max[m] / res->rows[res->baseline]
							     .mean[m],
					 r->mean[m] > 0
						 ? 100 * r->sd[m] / r->mean[m]
						 : 0.0,
					 c[i].nreps[m]);
			fprintf(fp, "  %-30s", cell);
		}
		if (c[i].failed)
			verdict = "FAILED element: not considered";
		else if (isnan(r->score))
			verdict = "no data for a targeted metric";
		else if (r->meets_all)
			verdict = "meets (every repetition)";
		else if (r->meets)
			verdict = "meets (mean only)";
		else
			verdict = "below target";
		fprintf(fp, " %6.2f  %s%s%s%s\n",
			isnan(r->score) ? 0 : r->score, verdict,
			r->pareto ? ", frontier" : "",
			i == res->baseline ? ", baseline" : "",
			(long)i == res->best ? ", ADVISED" : "");
	}
	fprintf(fp,
		"\nPareto frontier (cost vs score = worst targeted rel):\n");
	for (size_t i = 0; i < n; i++)
		if (res->rows[i].pareto)
			fprintf(fp, "  %-22s %8.0f %s  score %.2f\n",
				c[i].label, c[i].cost, cur, res->rows[i].score);
	fprintf(fp, "\n");
	if (res->best >= 0) {
		const struct adv_config *x = &c[res->best];
		const struct adv_row *r = &res->rows[res->best];
		char what[128];

		fmt_res(x, what, sizeof(what));
		fprintf(fp,
			"Advice: %s (%s): %.0f %s for the storage tier, %.0f%% of the baseline's %.0f %s.\n",
			x->label, what, x->cost, cur,
			c[res->baseline].cost > 0
				? 100 * x->cost / c[res->baseline].cost
				: 0.0,
			c[res->baseline].cost, cur);
		for (int m = 0; m < ADV_NMETRICS; m++) {
			if (t->ratio[m] <= 0)
				continue;
			fmt_metric(m, r->mean[m], a, sizeof(a));
			fmt_metric(m, res->rows[res->baseline].mean[m], b,
				   sizeof(b));
			fprintf(fp,
				"  %s: %s vs %s baseline = %.2f (target %.2f, worst repetition %.2f)\n",
				metric_names[m], a, b, r->rel[m], t->ratio[m],
				r->rel_min[m]);
		}
		fprintf(fp, "Confidence: %s\n",
			r->meets_all
				? "high: every repetition meets the target"
				: "low: the mean meets the target but some repetition does not; measure more repetitions before buying");
	} else {
		fprintf(fp, "No configuration meets the target.");
		if (res->best_score >= 0)
			fprintf(fp,
				" Closest: %s with score %.2f (worst targeted metric relative to the baseline).",
				c[res->best_score].label,
				res->rows[res->best_score].score);
		fprintf(fp, "\n");
	}
}

/* The plot commands, reading the datablock $adv. */
static void plot_body(FILE *fp, double target, const char *currency)
{
	char tmin[16];

	snprintf(tmin, sizeof(tmin), "%.2f", target);
	fprintf(fp,
		"set title 'Storage tier cost vs performance (score = worst targeted metric / baseline)'\n");
	fprintf(fp, "set xlabel ");
	gp_fprintq(fp, "cost of the storage tier [%s]",
		   currency ? currency : "");
	fprintf(fp,
		"\nset ylabel 'score (relative to unconstrained baseline)'\n");
	fprintf(fp, "set grid\nset key bottom right\n");
	fprintf(fp,
		"set offsets graph 0.05, graph 0.15, graph 0.1, graph 0.1\n");
	fprintf(fp,
		"plot $adv index 0 using 1:2 with points pt 7 ps 1.2 lc rgb '#7f7f7f' title 'configurations', \\\n");
	fprintf(fp,
		"     '' index 0 every 2 using 1:2:5 with labels offset 0,1 font ',8' notitle, \\\n");
	fprintf(fp,
		"     '' index 0 every 2::1 using 1:2:5 with labels offset 0,-1 font ',8' notitle, \\\n");
	fprintf(fp,
		"     '' index 1 using 1:2 with linespoints lw 2 pt 7 lc rgb '#1f77b4' title 'Pareto frontier', \\\n");
	fprintf(fp,
		"     '' index 0 using 1:($4 == 1 ? $2 : 1/0) with points pt 6 ps 3 lw 2 lc rgb '#d62728' title 'advised', \\\n");
	fprintf(fp,
		"     %s with lines dt 2 lc rgb '#2ca02c' title 'target (%s)'\n",
		isinf(target) ? "1" : tmin, tmin);
}

/* The data of the plot: configurations by cost, then the frontier. */
static void plot_data(FILE *fp, const struct adv_config *c, size_t n,
		      const struct adv_result *res)
{
	/* by cost, so that neighbours' labels can alternate above and below
	 * their points */
	char *done = calloc(n, 1);
	double last = -INFINITY;

	fprintf(fp, "# cost score frontier advised label (by cost)\n");
	for (size_t k = 0; done && k < n; k++) {
		long pick = -1;

		for (size_t i = 0; i < n; i++)
			if (!done[i] && !isnan(res->rows[i].score) &&
			    (pick < 0 || c[i].cost < c[pick].cost))
				pick = (long)i;
		if (pick < 0)
			break;
		done[pick] = 1;
		gp_fputnum(fp, c[pick].cost);
		fputc(' ', fp);
		gp_fputnum(fp, res->rows[pick].score);
		fprintf(fp, " %d %d ", res->rows[pick].pareto,
			pick == res->best);
		gp_fputd(fp, c[pick].label);
		fprintf(fp, "\n");
	}
	free(done);
	fprintf(fp, "\n\n# frontier, by cost\n");
	/* frontier points in cost order (simple selection) */
	for (size_t k = 0; k < n; k++) {
		long pick = -1;

		for (size_t i = 0; i < n; i++)
			if (res->rows[i].pareto && c[i].cost > last &&
			    (pick < 0 || c[i].cost < c[pick].cost))
				pick = (long)i;
		if (pick < 0)
			break;
		gp_fputnum(fp, c[pick].cost);
		fputc(' ', fp);
		gp_fputnum(fp, res->rows[pick].score);
		fputc('\n', fp);
		last = c[pick].cost;
	}
}

/* A memstream, or NULL (message in [err]). */
static FILE *mem_open(char **buf, size_t *len, struct ios_err *err)
{
	FILE *fp = open_memstream(buf, len);

	if (!fp)
		ios_errf(err, -ENOMEM, PROG ": plot: %s", strerror(ENOMEM));
	return fp;
}

/* Close a memstream: 0 or -ENOMEM (message in [err]). */
static int mem_close(FILE *fp, struct ios_err *err)
{
	int bad = ferror(fp);

	if (fclose(fp) != 0 || bad)
		return ios_errf(err, -ENOMEM, PROG ": plot: %s",
				strerror(ENOMEM));
	return 0;
}

/*
 * Write PREFIX.dat ([data]) and PREFIX.gp, then run gnuplot on the script
 * (datablock $adv = [data], then [body]) to PREFIX.png and PREFIX.svg.
 */
static int plot_render(const char *prefix, const char *data, size_t dlen,
		       const char *body, struct ios_err *err)
{
	static const char *const term[] = {
		"pngcairo size 900,600 noenhanced",
		"svg size 900,600 dynamic noenhanced"};
	static const char *const ext[] = {"png", "svg"};
	char path[4096], *script = NULL;
	size_t len = 0;
	const char *gp = gp_find();
	FILE *fp;
	int rc, status;

	/* the file names below are PREFIX.*: a prefix with a control
	 * character is refused, as one the terminal would show otherwise */
	if (!prefix[0] || gp_has_ctrl(prefix))
		return ios_errf(
			err, -EINVAL,
			PROG
			": invalid value \"%s\" for --plot (a path prefix without control characters)",
			prefix);
	if (snprintf(path, sizeof(path), "%s.dat", prefix) >= (int)sizeof(path))
		return ios_errf(err, -ENAMETOOLONG,
				PROG ": --plot: prefix \"%s\" is too long",
				prefix);
	/* PREFIX.dat, and PREFIX.gp for the reader to rerun (the data
	 * inline, as gnuplot is given it here) */
	if ((rc = sf_write(path, data, dlen, 0, err)) < 0)
		goto out_msg;
	fp = mem_open(&script, &len, err);
	if (!fp) {
		rc = -ENOMEM;
		goto out;
	}
	fprintf(fp, "$adv << IOSTRATA_EOD\n%sIOSTRATA_EOD\n", data);
	for (int k = 0; k < 2; k++) {
		fprintf(fp, "set terminal %s\nset output ", term[k]);
		gp_fprintq(fp, "%s.%s", prefix, ext[k]);
		fprintf(fp, "\n%sunset output\n", body);
	}
	if ((rc = mem_close(fp, err)) < 0)
		goto out;
	snprintf(path, sizeof(path), "%s.gp", prefix);
	if ((rc = sf_write(path, script, len, 0, err)) < 0)
		goto out_msg;
	if (!gp) {
		rc = ios_errf(
			err, -ENOENT,
			PROG
			": plot: gnuplot (\"%s\") not found: install gnuplot; the data and script are in %s.dat and %s.gp",
			getenv("GNUPLOT") && *getenv("GNUPLOT")
				? getenv("GNUPLOT")
				: GNUPLOT_PATH,
			prefix, prefix);
		goto out;
	}
	/* each image on gnuplot's standard output, into a new file that
	 * replaces PREFIX.png / .svg */
	for (int k = 0; k < 2 && rc == 0; k++) {
		struct sf_file f;

		free(script);
		script = NULL;
		fp = mem_open(&script, &len, err);
		if (!fp) {
			rc = -ENOMEM;
			break;
		}
		fprintf(fp,
			"$adv << IOSTRATA_EOD\n%sIOSTRATA_EOD\nset terminal %s\n%s",
			data, term[k], body);
		if ((rc = mem_close(fp, err)) < 0)
			break;
		snprintf(path, sizeof(path), "%s.%s", prefix, ext[k]);
		if ((rc = sf_create(&f, path, 0, err)) < 0)
			goto out_msg;
		rc = gp_run(gp, script, len, fileno(f.fp), &status);
		if (rc < 0) {
			sf_discard(&f);
			if (rc == -ENOENT)
				rc = ios_errf(
					err, -ENOENT,
					PROG
					": plot: gnuplot (\"%s\") not found: install gnuplot; the data and script are in %s.dat and %s.gp",
					gp, prefix, prefix);
			else if (rc == -EIO)
				rc = ios_errf(
					err, -EIO,
					PROG
					": plot: gnuplot for %s failed (status %d)",
					path, status);
			else
				rc = ios_errf(err, rc,
					      PROG ": plot: run %s: %s", gp,
					      strerror(-rc));
			break;
		}
		if ((rc = sf_commit(&f, err)) < 0)
			goto out_msg;
	}
	goto out;
out_msg:
	ios_errf(err, rc, PROG ": %s", err ? err->msg : "");
out:
	free(script);
	return rc;
}

/* The lowest targeted ratio (the plots' target line), INFINITY none. */
static double lowest_target(const struct adv_target *t)
{
	double target = INFINITY;

	for (int m = 0; m < ADV_NMETRICS; m++)
		if (t->ratio[m] > 0 && t->ratio[m] < target)
			target = t->ratio[m];
	return target;
}

int adv_plot(const char *prefix, const struct adv_config *c, size_t n,
	     const struct adv_target *t, const struct adv_result *res,
	     const char *currency, struct ios_err *err)
{
	char *data = NULL, *body = NULL;
	size_t dlen = 0, blen = 0;
	double target = lowest_target(t);
	FILE *fp;
	int rc;

	fp = mem_open(&data, &dlen, err);
	if (!fp)
		return -ENOMEM;
	plot_data(fp, c, n, res);
	if ((rc = mem_close(fp, err)) < 0)
		goto out;
	fp = mem_open(&body, &blen, err);
	if (!fp) {
		rc = -ENOMEM;
		goto out;
	}
	plot_body(fp, target, currency);
	if ((rc = mem_close(fp, err)) < 0)
		goto out;
	rc = plot_render(prefix, data, dlen, body, err);
out:
	free(body);
	free(data);
	return rc;
}

/* ---- loading ------------------------------------------------------ */

static int h5_reader(const char *path, struct adv_config *cfg,
		     struct ios_err *err)
{
	struct ios_run *run = NULL;
	int rc = ios_h5_read_run_isolated(path, NULL, &run, err);

	if (rc < 0)
		return rc;
	{
		struct report_run rr = {.path = (char *)path, .run = run};

		report_derive(&rr);
		if (rr.replication > 0)
			cfg->replication = rr.replication;
		free(rr.label_buf);
		free(rr.job_buf);
	}
	for (int p = 0; p < run->nphases; p++) {
		const struct ios_phase_result *ph = &run->phases[p];
		int m;

		if (strcmp(ph->name, "write") == 0)
			m = ADV_SEQ_WRITE;
		else if (strcmp(ph->name, "read") == 0)
			m = ADV_SEQ_READ;
		else if (strcmp(ph->name, "randwrite") == 0)
			m = ADV_RAND_WRITE;
		else if (strcmp(ph->name, "randread") == 0)
			m = ADV_RAND_READ;
		else
			continue;
		for (int r = 0; r < ph->nreps; r++) {
			const struct ios_rep_result *rep = &ph->reps[r];

			if (!rep->valid || cfg->nreps[m] >= ADV_MAX_REPS)
				continue;
			cfg->reps[m][cfg->nreps[m]++] =
				m <= ADV_SEQ_READ ? rep->fig.stonewall_bw
						  : rep->fig.stonewall_iops;
		}
	}
	ios_run_free(run);
	return 0;
}

int adv_load_campaign(const char *dir, adv_reader_fn reader,
		      struct adv_config **out, struct ios_err *err)
{
	char path[4096], line[8192];
	struct adv_config *c = NULL;
	size_t n = 0;
	FILE *fp;
	int rc = 0, lineno = 0;

	*out = NULL;
	snprintf(path, sizeof(path), "%s/index.tsv", dir);
	fp = fopen(path, "re");
	if (!fp)
		return ios_errf(
			err, -errno,
			PROG
			": open %s: %s (run `iostrata-campaign collect` first)",
			path, strerror(errno));
	while (fgets(line, sizeof(line), fp)) {
		char *f[9], *save = NULL, *p = line;
		unsigned long long cpus, mem, bw;
		int nf = 0, elem;
		struct adv_config *x = NULL;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || strncmp(line, "element\t", 8) == 0 ||
		    !line[0])
			continue;
		for (char *tok = strtok_r(p, "\t", &save); tok && nf < 9;
		     tok = strtok_r(NULL, "\t", &save))
			f[nf++] = tok;
		if (nf < 8 || sscanf(f[0], "%d", &elem) != 1 ||
		    sscanf(f[2], "%llu", &cpus) != 1 ||
		    sscanf(f[3], "%llu", &mem) != 1 ||
		    sscanf(f[4], "%llu", &bw) != 1) {
			rc = ios_errf(
				err, -EINVAL,
				PROG
				": %s:%d: malformed index line: expected element, label, cpus, mem_bytes, disk_bw_Bps, jobid, state, file[, note]",
				path, lineno);
			break;
		}
		for (size_t i = 0; i < n; i++)
			if (strcmp(c[i].label, f[1]) == 0)
				x = &c[i];
		if (!x) {
			struct adv_config *nc =
				realloc(c, (n + 1) * sizeof(*c));

			if (!nc) {
				rc = -ENOMEM;
				break;
			}
			c = nc;
			x = &c[n++];
			memset(x, 0, sizeof(*x));
			snprintf(x->label, sizeof(x->label), "%s", f[1]);
			x->cpus = cpus;
			x->mem = mem;
			x->disk_bw = bw;
		}
		if (strcmp(f[6], "DONE") != 0) {
			x->failed = 1;
			continue;
		}
		if (strcmp(f[7], "-") == 0)
			continue;
		if (nf > 8 && strstr(f[8], "not an HDF5 file"))
			continue;
		rc = reader(f[7], x, err);
		if (rc < 0) {
			/* a bad file marks its element, the rest still counts
			 */
			fprintf(stderr, "%s\n", err ? err->msg : "read failed");
			x->failed = 1;
			rc = 0;
		}
	}
	fclose(fp);
	if (rc < 0) {
		free(c);
		return rc;
	}
	if (n == 0) {
		free(c);
		return ios_errf(err, -EINVAL,
				PROG ": %s: no elements in the index", path);
	}
	*out = c;
	return (int)n;
}

/* ---- the model over several campaigns ----------------------------- */

/* One candidate node of the catalogue. */
struct cand {
	uint64_t cores, mem, disk_bw; /* disk_bw 0: the installed drives */
	char disk[64];
	double cost, score, score_lo;
	enum sf_where where;
	struct sf_pred pred[ADV_NMETRICS];
	bool meets, confident;
};

static const char *const where_names[] = {"measured", "interpolated",
					  "extrapolated above",
					  "extrapolated below", "not modelled"};

/*
 * Cost vs predicted score of every candidate node, by basis (measured,
 * interpolated, extrapolated), with the lower end of its interval, the
 * target and the advice.  The caller made sure costs differ.
 */
static int adv_plot_cands(const char *prefix, const struct cand *cd, size_t n,
			  long best, const struct adv_target *t,
			  const char *cur, struct ios_err *err)
{
	char *data = NULL, *body = NULL, tmin[16];
	size_t dlen = 0, blen = 0;
	double target = lowest_target(t);
	FILE *fp;
	int rc;

	snprintf(tmin, sizeof(tmin), "%.2f", target);
	fp = mem_open(&data, &dlen, err);
	if (!fp)
		return -ENOMEM;
	fprintf(fp, "# cost score score_lo basis(0 measured 1 interpolated "
		    "2 extrapolated above 3 below) advised\n");
	for (size_t i = 0; i < n; i++) {
		if (cd[i].where >= SF_UNMODELLED)
			continue;
		gp_fputnum(fp, cd[i].cost);
		fputc(' ', fp);
		gp_fputnum(fp, cd[i].score);
		fputc(' ', fp);
		gp_fputnum(fp, isinf(cd[i].score_lo) ? cd[i].score
						     : cd[i].score_lo);
		fprintf(fp, " %d %d\n", (int)cd[i].where, (long)i == best);
	}
	if ((rc = mem_close(fp, err)) < 0)
		goto out;
	fp = mem_open(&body, &blen, err);
	if (!fp) {
		rc = -ENOMEM;
		goto out;
	}
	fprintf(fp, "set title 'Storage tier cost vs predicted score (worst "
		    "targeted metric / full node)'\n");
	fprintf(fp, "set xlabel ");
	gp_fprintq(fp, "cost of the storage tier [%s]", cur);
	fprintf(fp, "\nset ylabel 'predicted score (bar: to the lower end "
		    "of the 95%% interval)'\n");
	fprintf(fp, "set grid\nset key bottom right\n");
	fprintf(fp, "set offsets graph 0.05, graph 0.05, graph 0.1, graph "
		    "0.1\n");
	fprintf(fp,
		"plot $adv using 1:($4 == 1 ? $2 : 1/0):3:2 with yerrorbars "
		"pt 7 ps 0.8 lc rgb '#1f77b4' title 'interpolated', \\\n"
		"     '' using 1:($4 == 0 ? $2 : 1/0):3:2 with yerrorbars pt 5 "
		"ps 1 lc rgb '#2ca02c' title 'measured', \\\n"
		"     '' using 1:($4 >= 2 ? $2 : 1/0) with points pt 6 ps 0.8 "
		"lc rgb '#7f7f7f' title 'extrapolated', \\\n"
		"     '' using 1:($5 == 1 ? $2 : 1/0) with points pt 6 ps 3 lw "
		"2 lc rgb '#d62728' title 'advised', \\\n"
		"     %s with lines dt 2 lc rgb '#ff7f0e' title 'target (%s)'\n",
		isinf(target) ? "1" : tmin, tmin);
	if ((rc = mem_close(fp, err)) < 0)
		goto out;
	rc = plot_render(prefix, data, dlen, body, err);
out:
	free(body);
	free(data);
	return rc;
}

/* The site's numbers the model needs. */
struct site_axes {
	uint64_t cores, mem, disk_bw; /* the full node and installed rate */
	uint64_t osds;
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

/* Print a knee in words. */
static void print_knee(FILE *fp, const char *axis, const char *unit,
		       const struct sf_knee *k, double xmax)
{
	if (!k->ok) {
		fprintf(fp,
			"    %s: too few points for a threshold (need 3 values and 5 repetitions in all)\n",
			axis);
	} else if (k->flat) {
		fprintf(fp,
			"    %s: flat: the metric does not change beyond the noise over the measured range (no threshold)\n",
			axis);
	} else if (!k->plateau) {
		fprintf(fp,
			"    %s: still rising at the largest measured %.4g %s (no plateau in range; from %.2f to %.2f of the baseline)\n",
			axis, xmax, unit, k->low, k->high);
	} else {
		fprintf(fp,
			"    %s: plateau from %.4g %s (95%% interval %.4g..%.4g) at %.2f of the baseline; %s %.2f",
			axis, k->k2, unit, k->k2_lo, k->k2_hi, k->high,
			k->k1 > k->k1_lo || k->k1_hi > k->k1
				? "below it falls to"
				: "below it falls linearly to",
			k->low);
		if (k->k1_hi > k->k1_lo)
			fprintf(fp,
				" (lower plateau up to %.4g %s, %.4g..%.4g)",
				k->k1, unit, k->k1_lo, k->k1_hi);
		fprintf(fp, "\n");
	}
}

static int cand_cost_cmp(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->cost != y->cost)
		return x->cost < y->cost ? -1 : 1;
	return x->score > y->score ? -1 : x->score < y->score;
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

int adv_model_advise(const struct ios_site *site, const struct adv_config *c,
		     size_t n, const struct adv_target *t, const char *plot,
		     bool all, int *nmeets, struct adv_choice *choice)
{
	const char *cur = ios_site_get(site, "prices", "currency");
	struct sf_model model[ADV_NMETRICS];
	struct site_axes ax;
	struct ios_err err = {0};
	struct ios_disk_class *cl = NULL;
	uint64_t *cores = NULL, *mem = NULL;
	struct cand *cd = NULL;
	size_t ncd = 0;
	long best = -1, sure = -1;
	int ncl = 0, nco, nme, rc = ADV_EXIT_USAGE;
	bool fitted[ADV_NMETRICS] = {0}, has_disk = false;

	cur = cur ? cur : "";
	*nmeets = 0;
	memset(model, 0, sizeof(model));
	if (site_axes(site, &ax, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return ADV_EXIT_USAGE;
	}
	printf("Model: per metric, a monotone fit over cores/OSD x GB/OSD (isotonic, bilinear between\n"
	       "measured cells) times a disk-speed curve (isotonic, linear between measured speeds);\n"
	       "values relative to the full node (%llu cores, %.0f GB, %.0f MB/s disks, %llu OSDs/node).\n",
	       (unsigned long long)ax.cores, (double)ax.mem / 1e9,
	       (double)ax.disk_bw / 1e6, (unsigned long long)ax.osds);
	for (int m = 0; m < ADV_NMETRICS; m++) {
		struct sf_point *p;
		size_t k = 0;
		char why[512] = "";

		if (t->ratio[m] <= 0)
			continue;
		p = calloc(n, sizeof(*p));
		if (!p)
			goto out;
		for (size_t i = 0; i < n; i++) {
			if (c[i].failed || c[i].nreps[m] == 0)
				continue;
			p[k].cores = axis_cores(&ax, c[i].cpus);
			p[k].gb = axis_gb(&ax, c[i].mem);
			p[k].mbps = axis_mbps(&ax, c[i].disk_bw);
			p[k].reps = c[i].reps[m];
			p[k++].nreps = c[i].nreps[m];
		}
		if (sf_fit(&model[m], p, k, (double)ax.disk_bw / 1e6, why,
			   sizeof(why)) < 0) {
			free(p);
			fprintf(stderr, PROG ": %s: cannot fit a model: %s\n",
				metric_names[m],
				why[0] ? why : strerror(ENOMEM));
			goto out;
		}
		free(p);
		fitted[m] = true;
		has_disk = has_disk || model[m].has_disk;
	}
	for (int m = 0; m < ADV_NMETRICS; m++) {
		const struct sf_model *md = &model[m];

		if (!fitted[m])
			continue;
		printf("  %s: %zu cores x %zu memory cell(s), %zu disk speed(s)%s\n",
		       metric_names[m], md->nc, md->nm, md->nd,
		       md->base_fastest
			       ? "; no unthrottled full node: relative to the fastest measured speed"
			       : "");
		if (isnan(md->sd_rep))
			printf("    noise: one repetition per configuration: no spread over repetitions\n");
		else
			printf("    noise: sd of one repetition %.3f of the baseline (pooled, %d degrees of freedom)\n",
			       md->sd_rep / md->base, md->df_rep);
		if (md->nloo)
			printf("    leave-one-out error (RMSE over %d configurations): %.3f of the baseline\n",
			       md->nloo, md->loo_rmse);
		else
			printf("    leave-one-out: a single configuration: nothing to cross-validate, so no interval for modelled values\n");
		if (md->has_disk)
			print_knee(stdout, "disk speed", "MB/s", &md->disk_knee,
				   md->dx[md->nd - 1]);
		else
			printf("    disk speed: not swept (no disk-speed campaign): only the installed drives are considered\n");
		for (size_t r = 0; md->has_grid && r < md->nc; r++) {
			char what[64];

			snprintf(what, sizeof(what), "memory at %.2f cores/OSD",
				 md->cx[r]);
			print_knee(stdout, what, "GB/OSD", &md->mem_knee_row[r],
				   md->mx[md->nm - 1]);
		}
		if (!md->has_grid)
			printf("    cores, memory: not swept (no cores x memory campaign): only the full node is considered\n");
	}
	/* the catalogue */
	nco = cat_axis(site, "cores", c, n, false, ax.cores, &cores, &err);
	nme = nco < 0 ? nco
		      : cat_axis(site, "memory", c, n, true, ax.mem, &mem,
				 &err);
	if (nco < 0 || nme < 0) {
		fprintf(stderr, PROG ": %s\n",
			err.msg[0] ? err.msg : strerror(ENOMEM));
		goto out;
	}
	ncl = has_disk ? ios_site_disk_classes(site, &cl) : 0;
	if (ncl < 0)
		goto out;
	cd = calloc((size_t)nco * (size_t)nme * (size_t)(ncl + 1), sizeof(*cd));
	if (!cd)
		goto out;
	for (int i = 0; i < nco; i++)
		for (int j = 0; j < nme; j++)
			for (int d = -1; d < ncl; d++) {
				struct cand *x = &cd[ncd];
				struct ios_tier_cost tc;
				double bw = d < 0 ? 0 : (double)cl[d].bw;

				memset(x, 0, sizeof(*x));
				x->cores = cores[i];
				x->mem = mem[j];
				x->disk_bw = d < 0 ? 0 : cl[d].bw;
				if (ios_site_tier_cost(site, x->cores, x->mem,
						       x->disk_bw, &tc,
						       &err) < 0) {
					fprintf(stderr, PROG ": %s\n", err.msg);
					goto out;
				}
				if (d >= 0 &&
				    strcmp(tc.disk_class, cl[d].name) != 0)
					continue; /* a cheaper class as fast */
				snprintf(x->disk, sizeof(x->disk), "%s",
					 tc.disk_class);
				x->cost = tc.total;
				x->score = x->score_lo = INFINITY;
				x->meets = x->confident = true;
				for (int m = 0; m < ADV_NMETRICS; m++) {
					struct sf_pred *pr = &x->pred[m];

					if (!fitted[m])
						continue;
					sf_predict(&model[m],
						   axis_cores(&ax, x->cores),
						   axis_gb(&ax, x->mem),
						   d < 0 ? (double)ax.disk_bw /
								   1e6
							 : bw / 1e6,
						   pr);
					if (pr->where > x->where)
						x->where = pr->where;
					x->score = fmin(x->score, pr->rel);
					x->score_lo =
						fmin(x->score_lo,
						     isnan(pr->lo) ? -INFINITY
								   : pr->lo);
					if (pr->rel < t->ratio[m])
						x->meets = false;
					if (!(pr->lo >= t->ratio[m]))
						x->confident = false;
				}
				if (x->where >= SF_EXTRAP_BELOW)
					x->meets = x->confident = false;
				x->confident = x->confident && x->meets;
				ncd++;
			}
	qsort(cd, ncd, sizeof(*cd), cand_cost_cmp);
	for (size_t i = 0; i < ncd; i++) {
		if (cd[i].meets && best < 0)
			best = (long)i;
		if (cd[i].confident && sure < 0)
			sure = (long)i;
		*nmeets += cd[i].meets;
	}
	printf("\nCatalogue: %d core count(s) x %d memory size(s) x %d disk option(s) = %zu nodes%s.\n",
	       nco, nme, ncl + 1, ncd,
	       ncl ? "" : " (the installed drives only)");
	printf("%-34s %12s  %-7s", "node (cores, RAM, disks)", "tier cost",
	       "score");
	for (int m = 0; m < ADV_NMETRICS; m++)
		if (fitted[m])
			printf("  %-22s", metric_names[m]);
	printf("  basis\n");
	{
		double top = -INFINITY;

		for (size_t i = 0; i < ncd; i++) {
			const struct cand *x = &cd[i];
			char node[96], sz[32];
			bool frontier =
				x->score > top && x->where < SF_EXTRAP_BELOW;

			if (frontier)
				top = x->score;
			if (!all && !frontier && (long)i != best &&
			    (long)i != sure)
				continue;
			ios_fmt_size(x->mem, sz, sizeof(sz));
			snprintf(node, sizeof(node), "%llu, %s, %s",
				 (unsigned long long)x->cores, sz,
				 x->disk_bw ? x->disk : "installed");
			printf("%-34s %8.0f %-3s  %-7.2f", node, x->cost, cur,
			       x->score);
			for (int m = 0; m < ADV_NMETRICS; m++) {
				char cell[48];

				if (!fitted[m])
					continue;
				if (isnan(x->pred[m].lo))
					snprintf(cell, sizeof(cell), "%.2f",
						 x->pred[m].rel);
				else
					snprintf(cell, sizeof(cell),
						 "%.2f [%.2f..%.2f]",
						 x->pred[m].rel, x->pred[m].lo,
						 x->pred[m].hi);
				printf("  %-22s", cell);
			}
			printf("  %s%s%s%s\n", where_names[x->where],
			       frontier ? ", frontier" : "",
			       (long)i == best ? ", ADVISED" : "",
			       (long)i == sure && sure != best
				       ? ", cheapest sure"
				       : "");
		}
	}
	if (!all)
		printf("(the cost/score frontier; --all lists every node)\n");
	printf("\n");
	if (best < 0) {
		printf("No node of the catalogue meets the target.\n");
		rc = ADV_EXIT_NONE;
	} else {
		const struct cand *x = &cd[best];
		char sz[32];

		ios_fmt_size(x->mem, sz, sizeof(sz));
		printf("Advice: %llu cores, %s RAM, %s disks: %.0f %s for the storage tier (%s).\n",
		       (unsigned long long)x->cores, sz,
		       x->disk_bw ? x->disk : "the installed", x->cost, cur,
		       where_names[x->where]);
		for (int m = 0; m < ADV_NMETRICS; m++)
			if (fitted[m])
				printf("  %s: %.2f of the baseline (95%% interval %.2f..%.2f, target %.2f)\n",
				       metric_names[m], x->pred[m].rel,
				       x->pred[m].lo, x->pred[m].hi,
				       t->ratio[m]);
		if (x->where == SF_EXTRAP_ABOVE)
			printf("  Extrapolated: this node has more of some resource than any measured one; the\n"
			       "  figure is the measured edge, a lower bound only if performance does not fall\n"
			       "  with more resources.\n");
		if (sure == best)
			printf("Confidence: the whole interval meets the target.\n");
		else if (sure >= 0)
			printf("Confidence: the interval reaches below the target; the cheapest node whose\n"
			       "whole interval meets it costs %.0f %s (%llu cores, %s disks).\n",
			       cd[sure].cost, cur,
			       (unsigned long long)cd[sure].cores,
			       cd[sure].disk_bw ? cd[sure].disk
						: "the installed");
		else
			printf("Confidence: low: no node's whole interval meets the target; measure more\n"
			       "repetitions or configurations near the advice before buying.\n");
		if (choice) {
			choice->cores = x->cores;
			choice->mem = x->mem;
			choice->disk_bw = x->disk_bw;
			snprintf(choice->disk, sizeof(choice->disk), "%s",
				 x->disk);
			choice->cost = x->cost;
			choice->where = (int)x->where;
			choice->confident = sure == best;
		}
		rc = ADV_EXIT_OK;
	}
	if (plot) {
		size_t ndist = 0;

		for (size_t i = 0; i < ncd; i++)
			if (i == 0 || cd[i].cost != cd[i - 1].cost)
				ndist++;
		if (ndist < 2) {
			printf("Plot: not drawn: every node of the catalogue costs the same (%.0f %s), a cost axis would be empty.\n",
			       ncd ? cd[0].cost : 0.0, cur);
		} else if (adv_plot_cands(plot, cd, ncd, best, t, cur, &err) <
			   0) {
			fprintf(stderr, "%s\n", err.msg);
			if (rc == ADV_EXIT_OK)
				rc = ADV_EXIT_NONE;
		} else {
			printf("Plot: %s.png %s.svg\n", plot, plot);
		}
	}
out:
	for (int m = 0; m < ADV_NMETRICS; m++)
		sf_model_free(&model[m]);
	free(cl);
	free(cores);
	free(mem);
	free(cd);
	return rc;
}

/* ---- the subcommand ------------------------------------------------ */

static int usage(FILE *fp)
{
	fprintf(fp,
		"usage: iostrata-report advise --site=SITE --target=METRIC=RATIO[,...] [--plot=PREFIX] [--all] CAMPAIGN_DIR...\n"
		"  The cheapest storage node of the site's catalogue (cores x memory from\n"
		"  [catalogue], drive classes from [disk \"NAME\"]) whose predicted performance is at\n"
		"  least RATIO x the full node for every METRIC (seq-write, seq-read, rand-write,\n"
		"  rand-read).  The campaigns (collected by `iostrata-campaign collect`): a cores x\n"
		"  memory sweep and/or a disk-speed sweep of the same site and replication factor.\n"
		"  A monotone model is fitted to them: each value says whether it is measured,\n"
		"  interpolated or extrapolated, with a 95%% interval (repetition spread for measured,\n"
		"  leave-one-out error for modelled values); the knees of the disk-speed and memory\n"
		"  curves are located with their intervals.  Prices: SITE [prices], [disk ...].\n"
		"  --plot=PREFIX writes PREFIX.png, PREFIX.svg (gnuplot), PREFIX.dat, PREFIX.gp.\n"
		"  --all lists every node of the catalogue, not only the cost/score frontier.\n"
		"exit: 0 advice given, 1 no node meets the target, 2 bad input,\n"
		"      3 advice given but some elements failed (resubmit them: the answer may change)\n");
	return fp == stdout ? ADV_EXIT_OK : ADV_EXIT_USAGE;
}

int report_advise(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"site", required_argument, NULL, 's'},
		{"target", required_argument, NULL, 't'},
		{"plot", required_argument, NULL, 'p'},
		{"all", no_argument, NULL, 'a'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *site_path = NULL, *target = NULL, *plot = NULL;
	struct ios_site *site = NULL;
	struct adv_config *c = NULL;
	struct adv_target t;
	struct ios_err err = {0};
	size_t n = 0;
	int opt, rc = ADV_EXIT_USAGE, nfailed = 0, nmeets = 0, repl = 0;
	bool all = false;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 's':
			site_path = optarg;
			break;
		case 't':
			target = optarg;
			break;
		case 'p':
			plot = optarg;
			break;
		case 'a':
			all = true;
			break;
		case 'h':
			return usage(stdout);
		default:
			return usage(stderr);
		}
	}
	if (optind >= argc || !site_path || !target) {
		fprintf(stderr, PROG
			": need --site, --target and at least one campaign directory\n");
		return usage(stderr);
	}
	if (adv_parse_targets(target, &t, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return ADV_EXIT_USAGE;
	}
	if (ios_site_load(site_path, &site, &err) < 0) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		return ADV_EXIT_USAGE;
	}
	for (int a = optind; a < argc; a++) {
		struct adv_config *one = NULL, *nc;
		int k = adv_load_campaign(argv[a], h5_reader, &one, &err);
		int r = 0;

		if (k < 0) {
			fprintf(stderr, "%s\n", err.msg);
			goto out;
		}
		for (int i = 0; i < k; i++) {
			nfailed += one[i].failed;
			if (one[i].replication && !r)
				r = one[i].replication;
		}
		printf("Campaign %s: %d configuration(s), replication %s%d\n",
		       argv[a], k, r ? "" : "unknown ", r);
		if (r && repl && r != repl) {
			fprintf(stderr,
				PROG
				": %s has replication %d, an earlier campaign %d: one model is fitted per replication factor (run advise once per factor)\n",
				argv[a], r, repl);
			free(one);
			goto out;
		}
		repl = repl ? repl : r;
		nc = realloc(c, (n + (size_t)k) * sizeof(*c));
		if (!nc) {
			free(one);
			goto out;
		}
		c = nc;
		memcpy(c + n, one, (size_t)k * sizeof(*c));
		n += (size_t)k;
		free(one);
	}
	printf("Targets (relative to the full node):");
	for (int m = 0; m < ADV_NMETRICS; m++)
		if (t.ratio[m] > 0)
			printf(" %s >= %.2f", metric_names[m], t.ratio[m]);
	printf("\n");
	rc = adv_model_advise(site, c, n, &t, plot, all, &nmeets, NULL);
	if (rc == ADV_EXIT_NONE && nmeets == 0)
		fprintf(stderr,
			PROG
			": no node meets %s: lower the target or extend the sweep\n",
			target);
	if (nfailed && rc == ADV_EXIT_OK) {
		fprintf(stderr,
			PROG
			": %d element(s) of the campaigns failed and were not considered: resubmit them (iostrata-campaign submit ... --resume), the advice may change\n",
			nfailed);
		rc = ADV_EXIT_INCOMPLETE;
	}
out:
	free(c);
	ios_site_free(site);
	return rc;
}
