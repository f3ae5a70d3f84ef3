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
#include "results.h"

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

int adv_plot(const char *prefix, const struct adv_config *c, size_t n,
	     const struct adv_target *t, const struct adv_result *res,
	     const char *currency, struct ios_err *err)
{
	static const char *const term[] = {
		"pngcairo size 900,600 noenhanced",
		"svg size 900,600 dynamic noenhanced"};
	static const char *const ext[] = {"png", "svg"};
	char path[4096], *data = NULL, *body = NULL, *script = NULL;
	size_t dlen = 0, blen = 0, len = 0;
	const char *gp = gp_find();
	double target = INFINITY;
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
	for (int m = 0; m < ADV_NMETRICS; m++)
		if (t->ratio[m] > 0 && t->ratio[m] < target)
			target = t->ratio[m];
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

/* ---- the subcommand ------------------------------------------------ */

static int usage(FILE *fp)
{
	fprintf(fp,
		"usage: iostrata-report advise --site=SITE --target=METRIC=RATIO[,...] [--plot=PREFIX] CAMPAIGN_DIR\n"
		"  Cheapest storage-node configuration of a sweep campaign (collected by\n"
		"  `iostrata-campaign collect`) whose mean performance is at least RATIO x the\n"
		"  unconstrained baseline for every METRIC (seq-write, seq-read, rand-write,\n"
		"  rand-read); the Pareto frontier of cost vs performance; the spread over\n"
		"  repetitions.  Prices and node counts come from SITE ([prices], [storage]).\n"
		"  --plot=PREFIX writes PREFIX.png, PREFIX.svg (gnuplot), PREFIX.dat, PREFIX.gp\n"
		"  (gnuplot: $GNUPLOT if set, else the one found at build time, else PATH).\n"
		"exit: 0 advice given, 1 no configuration meets the target, 2 bad input,\n"
		"      3 advice given but some elements failed (resubmit them: the answer may change)\n");
	return fp == stdout ? ADV_EXIT_OK : ADV_EXIT_USAGE;
}

int report_advise(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"site", required_argument, NULL, 's'},
		{"target", required_argument, NULL, 't'},
		{"plot", required_argument, NULL, 'p'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *site_path = NULL, *target = NULL, *plot = NULL;
	struct ios_site *site = NULL;
	struct adv_config *c = NULL;
	struct adv_result res = {0};
	struct adv_target t;
	struct ios_err err = {0};
	uint64_t nodes = 1, cores = 0, memory = 0;
	int opt, n, rc = ADV_EXIT_USAGE, nfailed = 0;

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
		case 'h':
			return usage(stdout);
		default:
			return usage(stderr);
		}
	}
	if (optind != argc - 1 || !site_path || !target) {
		fprintf(stderr, PROG
			": need --site, --target and one campaign directory\n");
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
	if (ios_site_get(site, "storage", "nodes"))
		ios_site_get_uint(site, "storage", "nodes", &nodes, NULL);
	if (ios_site_get(site, "storage", "cores"))
		ios_site_get_uint(site, "storage", "cores", &cores, NULL);
	if (ios_site_get(site, "storage", "memory"))
		ios_site_get_size(site, "storage", "memory", &memory, NULL);
	n = adv_load_campaign(argv[optind], h5_reader, &c, &err);
	if (n < 0) {
		fprintf(stderr, "%s\n", err.msg);
		goto out;
	}
	for (int i = 0; i < n; i++) {
		double node;

		if (ios_site_node_cost(site, c[i].cpus ? c[i].cpus : cores,
				       c[i].mem ? c[i].mem : memory, &node,
				       &err) < 0) {
			fprintf(stderr, PROG ": %s\n", err.msg);
			goto out;
		}
		c[i].cost = node * (double)(nodes ? nodes : 1);
		nfailed += c[i].failed;
	}
	if (adv_compute(c, (size_t)n, &t, &res, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		goto out;
	}
	adv_print(stdout, c, (size_t)n, &t, &res,
		  ios_site_get(site, "prices", "currency"));
	rc = res.best >= 0 ? ADV_EXIT_OK : ADV_EXIT_NONE;
	if (res.best < 0)
		fprintf(stderr,
			PROG
			": no configuration meets %s: lower the target or extend the sweep\n",
			target);
	if (plot &&
	    adv_plot(plot, c, (size_t)n, &t, &res,
		     ios_site_get(site, "prices", "currency"), &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		if (rc == ADV_EXIT_OK)
			rc = ADV_EXIT_NONE;
	} else if (plot) {
		printf("Plot: %s.png %s.svg\n", plot, plot);
	}
	if (nfailed && rc == ADV_EXIT_OK) {
		fprintf(stderr,
			PROG
			": %d element(s) of the campaign failed and were not considered: resubmit them (iostrata-campaign submit ... --resume), the advice may change\n",
			nfailed);
		rc = ADV_EXIT_INCOMPLETE;
	}
out:
	free(res.rows);
	free(c);
	ios_site_free(site);
	return rc;
}
