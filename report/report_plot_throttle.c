/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_plot_throttle: iostrata-report plot --kind=throttle: bandwidth
 * or IOPS vs disk throttle with min-max bands and the knee sweepfit finds
 * (the paper's Figures 4 and 5), the curve's numbers as text.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gnuplot.h"
#include "report.h"
#include "report_plot_int.h"
#include "sweepfit.h"

/* A growable list of observations (x, y). */
struct obs {
	double *x, *y;
	size_t n, cap;
};

static int obs_add(struct obs *o, double x, double y)
{
	if (o->n == o->cap) {
		size_t cap = o->cap ? 2 * o->cap : 64;
		double *nx = realloc(o->x, cap * sizeof(*nx)), *ny;

		if (!nx)
			return -1;
		o->x = nx;
		ny = realloc(o->y, cap * sizeof(*ny));
		if (!ny)
			return -1;
		o->y = ny;
		o->cap = cap;
	}
	o->x[o->n] = x;
	o->y[o->n++] = y;
	return 0;
}

/*
 * The knee of a throttle curve in words, for the key and the text output:
 * "knee ~ 200 MB/s [175..225]" (true), or why there is none (false).
 */
static bool knee_words(const struct sf_knee *k, double xmax, char *buf,
		       size_t len)
{
	if (!k->ok) {
		snprintf(
			buf, len,
			"no knee found: too few points (need 3 speeds and 5 repetitions in all)");
		return false;
	}
	if (k->flat) {
		snprintf(
			buf, len,
			"no knee found: flat within the noise over %.4g..%.4g MB/s",
			k->k1_lo < k->k1 ? k->k1_lo : k->k1, xmax);
		return false;
	}
	if (!k->plateau) {
		snprintf(
			buf, len,
			"no knee found: still rising at the fastest measured %.4g MB/s",
			xmax);
		return false;
	}
	snprintf(buf, len, "knee ~ %.4g MB/s [%.4g..%.4g]", k->k2, k->k2_lo,
		 k->k2_hi);
	return true;
}

/*
 * A throttle curve's numbers as text, normalised as the heatmaps are: to
 * the unconstrained baseline when the campaign measured one, else to the
 * largest configuration swept (the fastest speed).  [tab]: min, mean,
 * max per speed xs[0..nx) in the figure's display unit, mean 0 when
 * unmeasured.
 */
static void throttle_text(const struct ios_fig_desc *f, const double *xs,
			  const double *tab, size_t nx,
			  const struct baseline *bl)
{
	/* [tab] is in the figure's display unit (scaled) */
	double base = bl->nruns ? bl->mean * f->scale : tab[3 * (nx - 1) + 1];
	char name[160];

	if (bl->nruns)
		snprintf(name, sizeof(name), "%s", bl->name);
	else
		snprintf(name, sizeof(name),
			 "the largest configuration swept (%.4g MB/s disks)",
			 xs[nx - 1] / 1e6);
	if (!(base > 0))
		return;
	printf("  %s normalised to %s (%.*f %s); mean (min..max of the repetitions)\n",
	       f->name, name, base >= 100 ? 0 : 2, base, f->dunit);
	if (bl->nruns)
		plot_baseline_text(bl, f, 1);
	else
		printf("  %s\n", plot_no_baseline);
	for (size_t ix = 0; ix < nx; ix++) {
		if (!(tab[3 * ix + 1] > 0))
			continue;
		printf("  disk %-8.4g MB/s  %.2f (%.2f..%.2f)\n", xs[ix] / 1e6,
		       tab[3 * ix + 1] / base, tab[3 * ix] / base,
		       tab[3 * ix + 2] / base);
	}
}

/* The valid repetitions' [f] of the runs of factor [repl] at disk speed
 * [x] (B/s) in [phase]: each added to [o] (x in MB/s; a failure counted
 * in *failed), their min, mean and max into tab[0..3) and a line of
 * [fp]; nothing when there is none. */
static void throttle_speed(FILE *fp, const struct report_run *runs, size_t n,
			   const char *phase, const struct ios_fig_desc *f,
			   int repl, bool multi, double x, struct obs *o,
			   double *tab, int *failed)
{
	double mn = INFINITY, mx = -INFINITY, sum = 0;
	int cnt = 0;

	for (size_t i = 0; i < n; i++) {
		if ((double)runs[i].disk_bw != x ||
		    !plot_of_factor(&runs[i], repl, multi))
			continue;
		for (int q = 0; q < runs[i].run->nphases; q++) {
			const struct ios_phase_result *ph =
				&runs[i].run->phases[q];

			if (strcmp(ph->name, phase))
				continue;
			for (int r = 0; r < ph->nreps; r++) {
				double v;

				if (!ph->reps[r].valid)
					continue;
				v = ios_fig_value(&ph->reps[r].fig, f->id) *
				    f->scale;
				if (!isfinite(v))
					continue;
				mn = fmin(mn, v);
				mx = fmax(mx, v);
				sum += v;
				cnt++;
				if (obs_add(o, x / 1e6, v) < 0)
					(*failed)++;
			}
		}
	}
	if (!cnt)
		return;
	tab[0] = mn, tab[1] = sum / cnt, tab[2] = mx;
	gp_fputnum(fp, x / 1e6);
	for (int q = 0; q < 3; q++) {
		fputc(' ', fp);
		gp_fputnum(fp, q == 0 ? mn : q == 1 ? sum / cnt : mx);
	}
	fputc('\n', fp);
}

/* The gnuplot script of a throttle curve into [b]: the title (with why
 * there is no knee, and the cache [note]), the axes, the knee and its
 * interval, the baseline's line, the band, the mean and the key. */
static void throttle_script(FILE *b, const char *phase, const char *rtitle,
			    const struct ios_fig_desc *f, const double *xs,
			    size_t nx, const struct sf_knee *k, bool found,
			    const char *knee, const char *note,
			    const struct baseline *bl)
{
	fprintf(b, "set title ");
	gp_fprintq(
		b,
		"%s%s: %s vs disk speed (min-max band over valid repetitions)",
		phase, rtitle, f->name);
	/* the reason as a second line: "\n" only in a double-quoted literal
	 * of our own */
	if (!found) {
		fprintf(b, " . \"\\n\" . ");
		gp_fprintq(b, "%s", knee);
	}
	if (note[0]) {
		fprintf(b, " . \"\\n\" . ");
		gp_fprintq(b, "reads fit in the OSDs' memory, may be "
			      "cached: no disk limit shown");
	}
	fprintf(b,
		" noenhanced\nset xlabel 'disk speed (throttle) [MB/s per disk]'\nset ylabel ");
	gp_fprintq(b, "%s [%s]", f->name, f->dunit);
	fprintf(b,
		"\nset key bottom right opaque box\nset grid\nset yrange [0:*]\nset offsets graph 0.03, graph 0.03, graph 0.1, 0\n");
	/* one speed: an x range of its own (gnuplot warns about an empty
	 * one) */
	if (nx == 1)
		fprintf(b, "set xrange [%.10g:%.10g]\n", xs[0] / 1e6 * 0.8,
			xs[0] / 1e6 * 1.2);
	if (found) {
		/* the knee's 95% profile interval as a band, the knee itself
		 * as a dashed line */
		if (k->k2_hi > k->k2_lo)
			fprintf(b,
				"set object 1 rect from %.10g, graph 0 to %.10g, graph 1 behind fc rgb '#fdae6b' fs transparent solid 0.35 noborder\n",
				k->k2_lo, k->k2_hi);
		fprintf(b,
			"set arrow 1 from %.10g, graph 0 to %.10g, graph 1 nohead front lc rgb '#d94801' lw 2 dt 2\n",
			k->k2, k->k2);
	}
	/* the unconstrained baseline, the figures' 1.00, as a line */
	if (bl->nruns)
		fprintf(b,
			"set arrow 2 from graph 0, first %.10g to graph 1, first %.10g nohead front lc rgb '#333333' lw 1.5 dt 3\n",
			bl->mean * f->scale, bl->mean * f->scale);
	fprintf(b,
		"plot $dat using 1:2:4 with filledcurves fc rgb '#9ecae1' fs transparent solid 0.5 title 'min-max', '' using 1:3 with linespoints lw 2 pt 7 lc rgb '#08519c' title 'mean', '' using 1:3:2:4 with yerrorbars lc rgb '#08519c' pt -1 notitle");
	if (bl->nruns) {
		fprintf(b,
			", keyentry with lines lc rgb '#333333' lw 1.5 dt 3 title ");
		gp_fprintq(b, "%s (unthrottled)", bl->name);
	}
	if (found) {
		fprintf(b,
			", keyentry with lines lc rgb '#d94801' lw 2 dt 2 title ");
		gp_fprintq(b, "%s", knee);
		if (k->k2_hi > k->k2_lo)
			fprintf(b,
				", keyentry with boxes fc rgb '#fdae6b' fs transparent solid 0.35 noborder title '95%% interval of the knee'");
	}
	fprintf(b, "\n");
}

/*
 * One throttle curve: phase [phase] of the runs of replication factor
 * [repl] ([multi]: several factors, named PHASE-rN; else every run, named
 * PHASE).  Counts it in *made / *failed; -1 out of memory, else 0.
 */
static int throttle_one(struct plot_ctx *pc, const struct report_run *runs,
			size_t n, double osds, const char *phase, int repl,
			bool multi, int *made, int *failed)
{
	const struct ios_fig_desc *f = ios_fig_headline(phase);
	double *xs = calloc(n + 1, sizeof(double));
	size_t nx = 0, blen = 0;
	char *body = NULL, knee[160];
	struct plot_data pd;
	struct obs o = {0};
	struct sf_knee k;
	bool found;
	FILE *b;
	char name[48], rtitle[48];
	double *tab = NULL; /* min, mean, max per speed (cnt 0: mean 0) */
	struct baseline bl;
	char note[512];

	(void)osds; /* the x axis is per disk already */
	if (!xs)
		return -1;
	plot_factor_names(phase, repl, multi, name, rtitle);
	for (size_t i = 0; i < n; i++)
		if (runs[i].disk_bw && plot_of_factor(&runs[i], repl, multi) &&
		    !isnan(plot_run_mean(&runs[i], phase, f)))
			xs[nx++] = (double)runs[i].disk_bw;
	nx = plot_uniq(xs, nx);
	if (nx < 1) {
		free(xs);
		return 0;
	}
	if (plot_data_open(&pd, "$dat", "")) {
		free(xs);
		return -1;
	}
	fprintf(pd.fp, "# throttle_MBps min mean max (%s)\n", f->dunit);
	if (!(tab = calloc(3 * nx + 3, sizeof(double)))) {
		plot_data_free(&pd, 1);
		free(xs);
		return -1;
	}
	for (size_t ix = 0; ix < nx; ix++)
		throttle_speed(pd.fp, runs, n, phase, f, repl, multi, xs[ix],
			       &o, &tab[3 * ix], failed);
	/* the knee advise finds on a disk-speed curve (sweepfit) */
	memset(&k, 0, sizeof(k));
	if (o.n && sf_knee_obs(o.x, o.y, o.n, &k) < 0)
		(*failed)++;
	found = knee_words(&k, xs[nx - 1] / 1e6, knee, sizeof(knee));
	printf("throttle %s%s: %s\n", phase, rtitle, knee);
	plot_find_baseline(runs, n, phase, f, repl, multi, &bl);
	throttle_text(f, xs, tab, nx, &bl);
	plot_cache_note(runs, n, phase, f, repl, multi, note, sizeof(note));
	if (note[0])
		printf("  %s\n", note);
	b = open_memstream(&body, &blen);
	if (b)
		throttle_script(b, phase, rtitle, f, xs, nx, &k, found, knee,
				note, &bl);
	plot_finish(pc, "throttle", name, b, &pd, 1, &body, made, failed);
	free(tab);
	free(o.x);
	free(o.y);
	free(xs);
	return 0;
}

int plot_throttle(struct plot_ctx *pc, const struct report_run *runs, size_t n)
{
	int made = 0, failed = 0;

	if (plot_each(pc, runs, n, 1, throttle_one, &made, &failed) < 0)
		return -1;
	if (!made && !failed)
		fprintf(stderr,
			"iostrata-report plot: throttle: no runs with an applied disk throttle to plot\n");
	return made && !failed ? 0 : -1;
}
