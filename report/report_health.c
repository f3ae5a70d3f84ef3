/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_health: `iostrata-report health`, the verdict over the nightly
 * health index (report_health_index.c; its records come from
 * report_health_record.c), the Prometheus textfile and the HTML page.
 *
 *   health --index=FILE [--last=N] [--threshold=F] [--k=K]
 *          [--min-nights=N] [--keep=N] [--prometheus=FILE]
 *
 * The index is text, one line per night per figure (report/README.md,
 * "health"): the verdict reads it, not every results file every night.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "figures.h"
#include "lathist.h"
#include "report.h"
#include "report_health.h"
#include "safefile.h"

#define PROG "iostrata-report"

/* ---- health (the verdict) --------------------------------------------- */

static int parse_health(int argc, char **argv, struct health_opts *o)
{
	static const struct option opts[] = {
		{"index", required_argument, NULL, 'i'},
		{"last", required_argument, NULL, 'n'},
		{"threshold", required_argument, NULL, 't'},
		{"k", required_argument, NULL, 'k'},
		{"min-nights", required_argument, NULL, 'm'},
		{"keep", required_argument, NULL, 'K'},
		{"prometheus", required_argument, NULL, 'p'},
		{"html", required_argument, NULL, 'H'},
		{"html-nights", required_argument, NULL, 'N'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "i:n:t:k:m:K:p:H:N:h", opts,
				NULL)) != -1) {
		char *end;
		double d;

		switch (c) {
		case 'i':
			o->index = optarg;
			break;
		case 'p':
			o->prom = optarg;
			break;
		case 'H':
			o->html = optarg;
			break;
		case 'n':
		case 'm':
		case 'K':
		case 'N':
			d = strtod(optarg, &end);
			if (*end || d != floor(d) || d < 1 || d > 100000) {
				fprintf(stderr,
					PROG
					" health: invalid value \"%s\" for --%s (a count, 1..100000)\n",
					optarg,
					c == 'n'   ? "last"
					: c == 'm' ? "min-nights"
					: c == 'N' ? "html-nights"
						   : "keep");
				return REPORT_EXIT_USAGE;
			}
			if (c == 'n')
				o->last = (long)d;
			else if (c == 'm')
				o->rule.min_nights = (int)d;
			else if (c == 'N')
				o->html_nights = (long)d;
			else
				o->keep = (long)d;
			break;
		case 't': {
			const char *eq = strchr(optarg, '='),
				   *num = eq ? eq + 1 : optarg;
			size_t ll = eq ? (size_t)(eq - optarg) : 0;

			d = strtod(num, &end);
			if (*end == '%') {
				d /= 100;
				end++;
			}
			if (end == num || *end || !(d > 0 && d <= 10) ||
			    (eq && (!ll || ll >= sizeof(o->lthr[0].layer) ||
				    o->nlthr == 8))) {
				fprintf(stderr,
					PROG
					" health: invalid value \"%s\" for --threshold (a fraction in (0,10], e.g. 0.15 or 15%%, for every layer, or LAYER=FRACTION for one: osd, client, metadata, ..., or latency for every latency figure; at most 8 of those)\n",
					optarg);
				return REPORT_EXIT_USAGE;
			}
			if (eq) {
				memcpy(o->lthr[o->nlthr].layer, optarg, ll);
				o->lthr[o->nlthr].layer[ll] = '\0';
				o->lthr[o->nlthr++].thr = d;
			} else {
				o->rule.thr = d;
			}
			break;
		}
		case 'k':
			d = strtod(optarg, &end);
			if (*end || !(d > 0 && d <= 100)) {
				fprintf(stderr,
					PROG
					" health: invalid value \"%s\" for --k (the noise multiple, in (0,100])\n",
					optarg);
				return REPORT_EXIT_USAGE;
			}
			o->rule.k = d;
			break;
		case 'h':
			printf("usage: iostrata-report health --index=FILE [--last=10] [--threshold=[LAYER=]0.15]... [--k=3] [--min-nights=3] [--keep=N] [--prometheus=FILE] [--html=FILE [--html-nights=30]]\n");
			return 0;
		default:
			return REPORT_EXIT_USAGE;
		}
	}
	if (!o->index) {
		fprintf(stderr, PROG " health: --index=FILE is required\n");
		return REPORT_EXIT_USAGE;
	}
	if (o->keep && o->keep < o->rule.min_nights + 1) {
		fprintf(stderr,
			PROG
			" health: --keep=%ld keeps too few nights for a verdict (at least --min-nights + 1 = %d)\n",
			o->keep, o->rule.min_nights + 1);
		return REPORT_EXIT_USAGE;
	}
	return -1;
}

static int cmp_row_night(const void *a, const void *b)
{
	const struct hl_row *x = a, *y = b;
	return strcmp(x->night, y->night);
}

/* The distinct nights of [ix] (sorted by night), in order: *nn of them,
 * starts[i] the first row of night i, starts[nn] = ix->n. */
static size_t *night_starts(const struct hl_index *ix, size_t *nn)
{
	size_t *s = calloc(ix->n + 1, sizeof(*s)), k = 0;

	if (!s)
		return NULL;
	for (size_t i = 0; i < ix->n; i++)
		if (!i || strcmp(ix->rows[i].night, ix->rows[i - 1].night))
			s[k++] = i;
	s[k] = ix->n;
	*nn = k;
	return s;
}

/* Night [t] was loaded: a host's cpu_pressure is a regression. */
static bool night_loaded(const struct hl_index *ix, const size_t *starts,
			 size_t t, const struct health_opts *o)
{
	for (size_t i = starts[t]; i < starts[t + 1]; i++) {
		const struct hl_row *r = &ix->rows[i];
		struct hl_verdict v;
		double x;

		if (r->failed || strcmp(r->key.layer, HL_HOST_LAYER) ||
		    strcmp(r->key.metric, HL_LOAD_METRIC))
			continue;
		hl_judge_night(ix, starts, t, &r->key, o, &x, &v);
		if (v.state == HL_REGRESSION)
			return true;
	}
	return false;
}

static void prom_head(FILE *pf)
{
	static const char *const h[][2] = {
		{"iostrata_health_value",
		 "Tonight's figure (B/s, op/s or ns)."},
		{"iostrata_health_baseline",
		 "Median of the figure over the earlier nights of the baseline."},
		{"iostrata_health_noise",
		 "1.4826 x the median absolute deviation of those nights."},
		{"iostrata_regression",
		 "1 when tonight is beyond k x noise and the threshold in the bad direction (an OSD's rate: and not a fall shared with its peers)."},
		{"iostrata_regression_with_peers",
		 "1 when an OSD's rate regressed together with other OSDs' while its rate over its peers' did not: the cluster's fall, not this OSD's."},
		{"iostrata_health_night_loaded",
		 "1 when a host's CPU pressure during tonight's probe was beyond its noise and the threshold: tonight's absolute figures are not judged (UNSURE), the ratios to peers are."},
		{"iostrata_health_night_failed",
		 "1 when tonight's nightly-health run failed (a night recorded as failed)."},
		{"iostrata_health_night_timestamp_seconds",
		 "When tonight's run started (Unix time)."},
	};

	for (size_t i = 0; i < sizeof(h) / sizeof(h[0]); i++)
		fprintf(pf, "# HELP %s %s\n# TYPE %s gauge\n", h[i][0], h[i][1],
			h[i][0]);
}

static double night_epoch(const char *night)
{
	struct tm tm = {0};

	if (sscanf(night, "%4d%2d%2dT%2d%2d%2dZ", &tm.tm_year, &tm.tm_mon,
		   &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 6)
		return NAN;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (double)timegm(&tm);
}

/* Rewrite the index with its last [keep] nights. */
static int prune(const struct health_opts *o, const struct hl_index *ix,
		 const size_t *starts, size_t nn)
{
	struct sf_file f;
	struct ios_err err = {0};
	size_t from = starts[nn - (size_t)o->keep];

	if (sf_create(&f, o->index, SF_SYNC, &err) < 0) {
		fprintf(stderr, PROG " health: %s\n", err.msg);
		return -1;
	}
	fputs(HL_INDEX_HEADER, f.fp);
	for (size_t i = from; i < ix->n; i++) {
		const struct hl_row *r = &ix->rows[i];

		if (r->failed)
			fprintf(f.fp, "%s\tfailed\t-\t-\t-\t-\t%s\n", r->night,
				r->note);
		else
			fprintf(f.fp, "%s\tok\t%s\t%s\t%s\t%s\t%.9g\n",
				r->night, r->key.layer, r->key.comp,
				r->key.host, r->key.metric, r->value);
	}
	if (sf_commit(&f, &err) < 0) {
		fprintf(stderr, PROG " health: %s\n", err.msg);
		return -1;
	}
	printf("pruned: %zu night(s) before %s removed from the index (--keep=%ld)\n",
	       nn - (size_t)o->keep, ix->rows[from].night, o->keep);
	return 0;
}

/* ---- the HTML page ---------------------------------------------------- */

/*
 * FILE: the last [html_nights] nights, one trend plot (inline SVG) per
 * figure: its value each night, the baseline's median as a dashed line,
 * nights judged REGRESSION as red circles; nothing loaded from elsewhere.
 * Names in the index are [A-Za-z0-9._:-] only: nothing to escape.
 */
static int write_html(const struct hl_index *ix, const size_t *starts,
		      size_t nn, const struct health_opts *o)
{
	size_t t0 = nn > (size_t)o->html_nights ? nn - (size_t)o->html_nights
						: 0,
	       w = nn - t0, nkeys = 0;
	struct hl_key *keys = calloc(ix->n ? ix->n : 1, sizeof(*keys));
	double *val = calloc(w, sizeof(*val)), *med = calloc(w, sizeof(*med));
	/* each night's mark: 'r' a regression, 'u' a loaded night's (the
	 * host's CPU pressure, or an absolute figure left unjudged), 0 none */
	char *reg = calloc(w, sizeof(*reg));
	struct ios_err err = {0};
	struct sf_file f;
	int nregs = 0, nloaded = 0;

	if (!keys || !val || !med || !reg ||
	    sf_create(&f, o->html, SF_SYNC, &err) < 0) {
		fprintf(stderr, PROG " health: %s\n",
			err.msg[0] ? err.msg : "out of memory");
		free(keys);
		free(val);
		free(med);
		free(reg);
		return -1;
	}
	for (size_t i = starts[t0]; i < ix->n; i++) {
		size_t k;

		if (ix->rows[i].failed)
			continue;
		for (k = 0; k < nkeys; k++)
			if (hl_key_eq(&keys[k], &ix->rows[i].key))
				break;
		if (k == nkeys)
			keys[nkeys++] = ix->rows[i].key;
	}
	fprintf(f.fp,
		"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>iostrata nightly health</title>\n"
		"<style>body{font-family:sans-serif;margin:1em;background:#fff;color:#222}"
		"div.fig{display:inline-block;margin:4px;border:1px solid #ccc;padding:4px}"
		"div.fig.regressed{border:2px solid #c00}"
		"div.fig.unsure{border:2px solid #e69500}h1{font-size:1.3em}"
		"p.t{margin:0;font-size:12px}</style></head><body>\n"
		"<h1>iostrata nightly health: %zu night(s), %s to %s</h1>\n",
		w, ix->rows[starts[t0]].night, ix->rows[starts[nn - 1]].night);
	for (size_t t = t0; t < nn; t++)
		for (size_t i = starts[t]; i < starts[t + 1]; i++)
			if (ix->rows[i].failed)
				fprintf(f.fp,
					"<p class=\"failed\">night %s FAILED</p>\n",
					ix->rows[i].night);
	for (size_t k = 0; k < nkeys; k++) {
		double lo = INFINITY, hi = -INFINITY;
		bool any = false, anyu = false;
		char name[160];
		const char *u = "";

		for (size_t t = t0; t < nn; t++) {
			struct hl_verdict v;
			size_t j = t - t0;

			hl_judge_night(ix, starts, t, &keys[k], o, &val[j], &v);
			med[j] = v.median;
			/* a host's figure beyond its noise is the load
			 * itself: amber like the figures it leaves unjudged */
			reg[j] = v.state != HL_REGRESSION ? 0
				 : hl_unjudged(o, t, &keys[k]) ||
						 !strcmp(keys[k].layer,
							 HL_HOST_LAYER)
					 ? 'u'
					 : 'r';
			any |= reg[j] == 'r';
			anyu |= reg[j] == 'u';
			for (int m = 0; m < 2; m++) {
				double x = m ? med[j] : val[j];

				if (isnan(x))
					continue;
				lo = fmin(lo, x);
				hi = fmax(hi, x);
			}
		}
		if (!isfinite(lo))
			continue;
		if (hi <= lo)
			hi = lo + 1, lo = lo > 1 ? lo - 1 : 0;
		lo = fmin(lo, 0);
		hl_who(&keys[k], name, sizeof(name));
		hl_shown(keys[k].metric, 1, &u);
		fprintf(f.fp,
			"<div class=\"fig%s\" id=\"%s-%s-%s-%s\"><p class=\"t\">%s: %s (%s)%s</p>\n"
			"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"320\" height=\"140\">"
			"<rect x=\"40\" y=\"5\" width=\"270\" height=\"110\" fill=\"#e8eef6\"/>"
			"<text x=\"2\" y=\"14\" font-size=\"10\">%.4g</text>"
			"<text x=\"2\" y=\"115\" font-size=\"10\">%.4g</text>",
			any    ? " regressed"
			: anyu ? " unsure"
			       : "",
			keys[k].layer, keys[k].comp, keys[k].host,
			keys[k].metric, name, keys[k].metric, u,
			any     ? " REGRESSION"
			: !anyu ? ""
			: strcmp(keys[k].layer, HL_HOST_LAYER)
				? " UNSURE (loaded night)"
				: " LOADED",
			hl_shown(keys[k].metric, hi, &u),
			hl_shown(keys[k].metric, lo, &u));
#define HX(j) (40 + 270.0 * ((w > 1 ? (double)(j) / (double)(w - 1) : 0.5)))
#define HY(x) (115 - 110 * ((x)-lo) / (hi - lo))
		for (int m = 0; m < 2; m++) {
			bool open = false;

			for (size_t j = 0; j < w; j++) {
				double x = m ? med[j] : val[j];

				if (isnan(x)) {
					if (open)
						fputs("\"/>", f.fp);
					open = false;
					continue;
				}
				if (!open)
					fprintf(f.fp,
						"<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%s\"%s points=\"",
						m ? "#888" : "#1f77b4",
						m ? "1" : "2",
						m ? " stroke-dasharray=\"4 3\""
						  : "");
				open = true;
				fprintf(f.fp, "%.1f,%.1f ", HX(j), HY(x));
			}
			if (open)
				fputs("\"/>", f.fp);
		}
		for (size_t j = 0; j < w; j++)
			if (!isnan(val[j]))
				fprintf(f.fp,
					"<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%s\" fill=\"%s\"><title>%s: %.4g %s</title></circle>",
					reg[j] == 'r'   ? "regression"
					: reg[j] == 'u' ? "unsure"
							: "night",
					HX(j), HY(val[j]), reg[j] ? "6" : "2.5",
					reg[j] == 'r'   ? "#d00"
					: reg[j] == 'u' ? "#e69500"
							: "#1f77b4",
					ix->rows[starts[t0 + j]].night,
					hl_shown(keys[k].metric, val[j], &u),
					u);
#undef HX
#undef HY
		fprintf(f.fp,
			"<text x=\"40\" y=\"132\" font-size=\"10\">%.8s</text>"
			"<text x=\"260\" y=\"132\" font-size=\"10\">%.8s</text></svg></div>\n",
			ix->rows[starts[t0]].night,
			ix->rows[starts[nn - 1]].night);
		nregs += any;
		nloaded += anyu && !any;
	}
	fprintf(f.fp,
		"<p>%d figure(s) with a regression in these nights, %d more beyond their noise only on loaded nights (red: a night beyond the figure's noise and threshold; amber: a loaded night, the host's CPU pressure beyond its noise, when the absolute figures are not judged; dashed: the baseline's median)</p></body></html>\n",
		nregs, nloaded);
	free(keys);
	free(val);
	free(med);
	free(reg);
	if (sf_commit(&f, &err) < 0) {
		fprintf(stderr, PROG " health: %s\n", err.msg);
		return -1;
	}
	return 0;
}

int report_health(int argc, char **argv)
{
	struct health_opts o = {
		.rule = {.k = 3, .thr = 0.15, .min_nights = 3},
		.last = 10,
		.html_nights = 30,
	};
	struct hl_index ix;
	struct ios_err err = {0};
	struct sf_file pfile;
	FILE *pf = NULL;
	size_t nn = 0, *starts;
	bool *loaded = NULL;
	const char *failed = NULL;
	int rc, nreg;

	rc = parse_health(argc, argv, &o);
	if (rc >= 0)
		return rc;
	if ((o.prom && hl_check_out_dir(o.prom, "--prometheus", &err) < 0) ||
	    (o.html && hl_check_out_dir(o.html, "--html", &err) < 0)) {
		fprintf(stderr, PROG " health: %s\n", err.msg);
		return REPORT_EXIT_USAGE;
	}
	if ((rc = hl_index_load(o.index, &ix, &err)) < 0) {
		fprintf(stderr, PROG " health: %s\n", err.msg);
		return rc == -ENOMEM || rc == -EIO ? REPORT_EXIT_FAIL
						   : REPORT_EXIT_USAGE;
	}
	if (!ix.n) {
		fprintf(stderr, PROG " health: %s holds no night\n", o.index);
		hl_index_free(&ix);
		return REPORT_EXIT_FAIL;
	}
	qsort(ix.rows, ix.n, sizeof(*ix.rows), cmp_row_night);
	starts = night_starts(&ix, &nn);
	if (!starts || !nn) {
		free(starts);
		hl_index_free(&ix);
		return REPORT_EXIT_FAIL;
	}
	for (size_t i = starts[nn - 1]; i < ix.n; i++)
		if (ix.rows[i].failed && !failed)
			failed = ix.rows[i].note;
	/* which nights were loaded, once (the judging of every absolute
	 * figure reads it; a host's figure is judged without it) */
	loaded = calloc(nn, sizeof(*loaded));
	if (!loaded) {
		free(starts);
		hl_index_free(&ix);
		return REPORT_EXIT_FAIL;
	}
	for (size_t t = 0; t < nn; t++)
		loaded[t] = night_loaded(&ix, starts, t, &o);
	o.loaded = loaded;
	if (o.prom) {
		if (sf_create(&pfile, o.prom, SF_SYNC, &err) < 0) {
			fprintf(stderr, PROG " health: %s\n", err.msg);
			free(starts);
			free(loaded);
			hl_index_free(&ix);
			return REPORT_EXIT_FAIL;
		}
		pf = pfile.fp;
		prom_head(pf);
		fprintf(pf, "iostrata_health_night_failed %d\n",
			failed != NULL);
		fprintf(pf, "iostrata_health_night_loaded %d\n",
			loaded[nn - 1]);
		fprintf(pf, "iostrata_health_night_timestamp_seconds %.0f\n",
			night_epoch(ix.rows[starts[nn - 1]].night));
	}
	printf("health: night %s against up to %ld earlier nights of %zu (rule: beyond %g x 1.4826 MAD of the baseline and beyond %.0f%% of its median",
	       ix.rows[starts[nn - 1]].night, o.last, nn - 1, o.rule.k,
	       o.rule.thr * 100);
	for (int i = 0; i < o.nlthr; i++)
		printf(", %s %.0f%%", o.lthr[i].layer, o.lthr[i].thr * 100);
	printf("; at least %d nights)\n", o.rule.min_nights);
	nreg = hl_verdict_print(&ix, starts, nn, &o, pf);
	if (failed)
		printf("FAILED: night %s: %s\n", ix.rows[starts[nn - 1]].night,
		       failed);
	rc = nreg < 0 ? REPORT_EXIT_FAIL : REPORT_EXIT_OK;
	if (pf && sf_commit(&pfile, &err) < 0) {
		fprintf(stderr, PROG " health: %s\n", err.msg);
		rc = REPORT_EXIT_FAIL;
	}
	if (o.html && write_html(&ix, starts, nn, &o) < 0)
		rc = REPORT_EXIT_FAIL;
	if (o.keep && nn > (size_t)o.keep && prune(&o, &ix, starts, nn) < 0)
		rc = REPORT_EXIT_FAIL;
	if (nreg > 0)
		fprintf(stderr, PROG " health: %d regression(s)\n", nreg);
	if (nreg > 0 || failed)
		rc = REPORT_EXIT_FAIL;
	if (!nreg && !failed)
		printf("no regression\n");
	free(starts);
	free(loaded);
	hl_index_free(&ix);
	return rc;
}
