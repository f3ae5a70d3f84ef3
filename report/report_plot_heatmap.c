/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_plot_heatmap: iostrata-report plot --kind=heatmap: the requested
 * cores per OSD x memory per OSD, the headline figure normalised to the
 * unconstrained baseline or the largest configuration swept (the paper's
 * Figures 2 and 3), the applied values in each cell's label, and the
 * cells as text with what each dimension shows against the noise.
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

/* The cores and memory a run's heatmap cell is keyed by: the requested
 * ones (a sweep's grid: 20G requested is 22.1 GB applied in one run and
 * 22.4 in the next), the applied ones for a run that requested none. */
static double key_cpus(const struct report_run *rr)
{
	return rr->req_cpus > 0 ? (double)rr->req_cpus : (double)rr->cpus;
}

static double key_mem(const struct report_run *rr)
{
	return rr->req_mem ? (double)rr->req_mem : (double)rr->mem;
}

/* Is [rr] in the heatmap of [phase] for factor [repl] at disk throttle
 * [disk] (0: unthrottled): a figure, cores and memory? */
static bool in_map(const struct report_run *rr, const char *phase,
		   const struct ios_fig_desc *f, int repl, bool multi,
		   uint64_t disk)
{
	return !rr->baseline && !isnan(plot_run_mean(rr, phase, f)) &&
	       key_cpus(rr) > 0 && key_mem(rr) > 0 &&
	       plot_of_factor(rr, repl, multi) && rr->disk_bw == disk;
}

/* One measured cell of a heatmap: its runs pooled. */
struct hm_cell {
	size_t ix, iy;
	double mean;         /* mean of its runs' means */
	double rmin, rmax;   /* over every valid repetition of its runs */
	double rsum, rsq;    /* pooled sums of the repetitions */
	int nrep, nruns;     /* repetitions (valid), runs */
	double acpu0, acpu1; /* applied cores, min and max over its runs */
	double amem0, amem1; /* applied memory bytes, min and max */
	bool requested;      /* keyed by a request (else by applied) */
};

/* The cell of run [rr] (its key) added to [c]. */
static void cell_add(struct hm_cell *c, const struct report_run *rr,
		     const char *phase, const struct ios_fig_desc *f)
{
	struct report_stats st;

	plot_run_stats(rr, phase, f, &st);
	if (!c->nruns) {
		c->rmin = c->acpu0 = c->amem0 = INFINITY;
		c->rmax = c->acpu1 = c->amem1 = -INFINITY;
	}
	c->mean += st.mean;
	c->nruns++;
	c->rmin = fmin(c->rmin, st.min);
	c->rmax = fmax(c->rmax, st.max);
	if (isfinite(st.stddev)) {
		/* pooled: each run's sum and sum of squares from its mean
		 * and sample sd */
		c->rsum += st.n * st.mean;
		c->rsq += (st.n - 1) * st.stddev * st.stddev +
			  st.n * st.mean * st.mean;
		c->nrep += st.n;
	}
	c->acpu0 = fmin(c->acpu0, (double)rr->cpus);
	c->acpu1 = fmax(c->acpu1, (double)rr->cpus);
	c->amem0 = fmin(c->amem0, (double)rr->mem);
	c->amem1 = fmax(c->amem1, (double)rr->mem);
	c->requested = rr->req_cpus > 0 || rr->req_mem;
}

/* "22.1 GiB" or "22.1-22.4 GiB" (per OSD) into [buf]. */
static void fmt_range(char *buf, size_t len, double a, double b,
		      const char *unit)
{
	if (fabs(a - b) < 0.05)
		snprintf(buf, len, "%.3g %s", a, unit);
	else
		snprintf(buf, len, "%.3g-%.3g %s", a, b, unit);
}

/*
 * What one dimension of the grid ([cores], else memory) shows: every pair
 * of measured cells that differ in it alone, the one with more against
 * the one with less, faster or slower by more than either cell's
 * repetitions spread (the noise), or within it.  More of a resource that
 * is slower is no effect of it: the runs differ by more than the
 * repetitions of one run do (drift between runs, the order they ran in),
 * and that is said.
 */
static void dim_text(const struct hm_cell *cells, size_t nc, double base,
		     bool cores)
{
	int faster = 0, slower = 0, within = 0;
	const char *what = cores ? "cores" : "memory";

	for (size_t a = 0; a < nc; a++)
		for (size_t b = 0; b < nc; b++) {
			const struct hm_cell *x = &cells[a], *y = &cells[b];
			double d, noise;

			/* y has more of [what], the same of the other */
			if (cores ? !(y->ix > x->ix && y->iy == x->iy)
				  : !(y->iy > x->iy && y->ix == x->ix))
				continue;
			d = (y->mean / y->nruns - x->mean / x->nruns) / base;
			noise = fmax(x->rmax - x->rmin, y->rmax - y->rmin) /
				base;
			if (d > noise)
				faster++;
			else if (-d > noise)
				slower++;
			else
				within++;
		}
	if (faster + slower + within == 0)
		return;
	printf("  more %s: faster in %d, slower in %d, within the repetitions' spread in %d of %d pair(s) of cells\n",
	       what, faster, slower, within, faster + slower + within);
	if (!faster)
		printf("  no %s effect shown%s\n", what,
		       slower ? ": more is slower, which no effect of it "
				"explains; the runs differ by more than the "
				"repetitions of one run do (drift between "
				"runs, not the configuration)"
			      : ": the differences are within the "
				"repetitions' spread (noise)");
}

/*
 * The heatmap's cells as text, with the baseline named, the applied
 * configuration of each cell beside its request, and whether the
 * configurations differ by more than the repetitions of one do (the
 * effect against the noise).
 */
static void heatmap_text(const char *phase, const char *rtitle,
			 const struct ios_fig_desc *f, const char *basename,
			 double base, const struct hm_cell *cells, size_t nc,
			 const double *xs, const double *ys, double osds,
			 const struct baseline *bl)
{
	printf("heatmap %s%s: %s normalised to %s (%.*f %s); mean (min..max of the repetitions)\n",
	       phase, rtitle, f->name, basename, base * f->scale >= 100 ? 0 : 2,
	       base * f->scale, f->dunit);
	if (bl->nruns)
		plot_baseline_text(bl, f, osds);
	else
		printf("  %s\n", plot_no_baseline);
	printf("  %-5s %-9s %-40s %-18s %s\n", "cores", "mem GiB", "(per OSD)",
	       "value", "repetitions");
	for (size_t k = 0; k < nc; k++) {
		const struct hm_cell *c = &cells[k];
		char ac[32], am[32], app[128], val[48];
		double m = c->mean / c->nruns / base;

		fmt_range(ac, sizeof(ac), c->acpu0 / osds, c->acpu1 / osds,
			  "cores");
		fmt_range(am, sizeof(am), c->amem0 / osds / 1073741824.0,
			  c->amem1 / osds / 1073741824.0, "GiB");
		snprintf(app, sizeof(app), "%s: %s, %s",
			 c->requested ? "requested; applied" : "applied", ac,
			 am);
		snprintf(val, sizeof(val), "%.2f (%.2f..%.2f)", m,
			 c->rmin / base, c->rmax / base);
		printf("  %-5.3g %-9.3g %-40s %-18s %d\n", xs[c->ix], ys[c->iy],
		       app, val, c->nrep);
	}
	dim_text(cells, nc, base, true);
	dim_text(cells, nc, base, false);
}

/* A heatmap's grid: the axes (requested cores and memory per OSD), the
 * measured cells, the largest configuration's cell (bcell: bx cores, by
 * bytes of memory, the host's). */
struct hm_map {
	double *xs, *ys;
	struct hm_cell *cells;
	size_t nx, ny, nc, bcell;
	double bx, by;
};

/* The disk throttle of the runs in the map into *[disk]: the unthrottled
 * runs when there are any, else the one throttle they all ran at.  A
 * disk-speed sweep (several throttles, nothing unthrottled) has no cores
 * x memory map to draw: said, and false. */
static bool heatmap_disk(struct plot_ctx *pc, const struct report_run *runs,
			 size_t n, const char *phase,
			 const struct ios_fig_desc *f, int repl, bool multi,
			 const char *rtitle, uint64_t *disk)
{
	bool any = false, unthrottled = false, several = false;

	*disk = 0;
	for (size_t i = 0; i < n; i++) {
		if (!in_map(&runs[i], phase, f, repl, multi, runs[i].disk_bw))
			continue;
		unthrottled |= !runs[i].disk_bw;
		several |= any && runs[i].disk_bw != *disk;
		*disk = any ? *disk : runs[i].disk_bw;
		any = true;
	}
	if (unthrottled) {
		*disk = 0;
	} else if (several) {
		printf("heatmap %s%s: not drawn: every run is throttled, at several disk speeds (a disk-speed sweep): no cores x memory map (see the throttle curves)\n",
		       phase, rtitle);
		pc->said++;
		return false;
	}
	return true;
}

/* The grid of the runs in the map at disk throttle [disk] into [m]: its
 * axes, the largest configuration, the measured cells, each its runs
 * pooled. */
static void heatmap_grid(const struct report_run *runs, size_t n, double osds,
			 const char *phase, const struct ios_fig_desc *f,
			 int repl, bool multi, uint64_t disk, struct hm_map *m)
{
	for (size_t i = 0; i < n; i++) {
		if (!in_map(&runs[i], phase, f, repl, multi, disk))
			continue;
		m->xs[m->nx++] = key_cpus(&runs[i]) / osds;
		m->ys[m->ny++] = key_mem(&runs[i]) / osds / 1073741824.0;
		/* baseline: the largest configuration, most cores, then
		 * memory */
		if (key_cpus(&runs[i]) > m->bx ||
		    (key_cpus(&runs[i]) == m->bx &&
		     key_mem(&runs[i]) > m->by)) {
			m->bx = key_cpus(&runs[i]);
			m->by = key_mem(&runs[i]);
		}
	}
	m->nx = plot_uniq(m->xs, m->nx);
	m->ny = plot_uniq(m->ys, m->ny);
	/* the measured cells, each its runs pooled */
	for (size_t i = 0; i < n; i++) {
		size_t ix, iy, k;

		if (!in_map(&runs[i], phase, f, repl, multi, disk))
			continue;
		ix = plot_idx_of(m->xs, m->nx, key_cpus(&runs[i]) / osds);
		iy = plot_idx_of(m->ys, m->ny,
				 key_mem(&runs[i]) / osds / 1073741824.0);
		for (k = 0; k < m->nc; k++)
			if (m->cells[k].ix == ix && m->cells[k].iy == iy)
				break;
		if (k == m->nc) {
			m->cells[m->nc].ix = ix;
			m->cells[m->nc++].iy = iy;
		}
		cell_add(&m->cells[k], &runs[i], phase, f);
		if (key_cpus(&runs[i]) == m->bx && key_mem(&runs[i]) == m->by)
			m->bcell = k;
	}
}

/* What the map is normalised to, in words, into [buf] (160 bytes): the
 * unconstrained baseline when the campaign measured one, else the largest
 * cell, requested or applied. */
static void heatmap_basename(const struct hm_map *m, const struct baseline *bl,
			     double osds, char *buf, size_t len)
{
	if (bl->nruns)
		snprintf(buf, len, "%s", bl->name);
	else if (m->cells[m->bcell].requested)
		snprintf(
			buf, len,
			"the largest configuration swept (%.3g cores, %.3g GiB/OSD requested)",
			m->bx / osds, m->by / osds / 1073741824.0);
	else
		snprintf(
			buf, len,
			"the largest configuration swept (%.3g cores, %.3g GiB/OSD applied)",
			m->bx / osds, m->by / osds / 1073741824.0);
}

/* The data: one line per measured cell (an unmeasured cell is drawn
 * empty, not as a number): x, y, the mean of the cell's runs / baseline,
 * the standard deviation over every valid repetition of them / baseline,
 * their count, and the applied cores and memory per OSD (the mean of its
 * runs').  Returns the colour scale's top: the largest cell's, at least
 * 1.2 (above its top every cell had one colour: the demo's 1.39 and 2.05
 * both drew as 1.2). */
static double heatmap_data(FILE *fp, const struct hm_map *m, double base,
			   double osds)
{
	double ctop = 1.2;

	for (size_t k = 0; k < m->nc; k++) {
		const struct hm_cell *c = &m->cells[k];

		fprintf(fp, "%zu %zu ", c->ix, c->iy);
		gp_fputnum(fp, c->mean / c->nruns / base);
		fprintf(fp, " ");
		gp_fputnum(fp,
			   c->nrep > 1
				   ? sqrt(fmax(0, (c->rsq - c->rsum * c->rsum /
								    c->nrep) /
							  (c->nrep - 1))) /
					     base
				   : 0);
		fprintf(fp, " %d ", c->nrep);
		gp_fputnum(fp, (c->acpu0 + c->acpu1) / 2 / osds);
		fprintf(fp, " ");
		gp_fputnum(fp, (c->amem0 + c->amem1) / 2 / osds / 1073741824.0);
		fprintf(fp, "\n");
	}
	for (size_t k = 0; k < m->nc; k++)
		if (isfinite(m->cells[k].mean / m->cells[k].nruns / base))
			ctop = fmax(ctop, ceil(m->cells[k].mean /
					       m->cells[k].nruns / base * 10) /
						  10);
	return ctop;
}

/* The gnuplot script of the map into [b]: titles, axes, the palette up to
 * [ctop], the measured cells as filled boxes with their labels. */
static void heatmap_script(FILE *b, const struct hm_map *m, const char *phase,
			   const char *rtitle, const struct ios_fig_desc *f,
			   const char *basename, double base, const char *note,
			   double ctop)
{
	const char *how =
		m->cells[m->bcell].requested ? "requested" : "applied";

	/* two lines: what is normalised to what, what a cell shows */
	fprintf(b, "set title ");
	gp_fprintq(b, "%s%s: %s / %s: %.*f %s", phase, rtitle, f->name,
		   basename, base * f->scale >= 100 ? 0 : 2, base * f->scale,
		   f->dunit);
	fprintf(b, ".\"\\n\".");
	gp_fprintq(b, "cell: mean, sd over repetitions, applied memory "
		      "per OSD; a blank cell was not run");
	if (note[0]) {
		fprintf(b, ".\"\\n\".");
		gp_fprintq(b,
			   "%s: reads fit in the OSDs' memory, may be "
			   "cached: no disk or memory limit shown",
			   phase);
	}
	fprintf(b, " noenhanced\nset xlabel ");
	gp_fprintq(b, "cores per OSD (%s)", how);
	fprintf(b, "\nset ylabel ");
	gp_fprintq(b, "memory per OSD [GiB] (%s)", how);
	fprintf(b, "\nset cblabel ");
	gp_fprintq(b, "%s / baseline", f->name);
	/* the palette's positions are scaled onto the cbrange: its last one
	 * is the range's top, so 1.0 stays the baseline's */
	fprintf(b,
		"\nset cbrange [0:%.1f]\nset palette defined (0 '#b2182b', 0.6 '#f4a582', 0.9 '#f7f7f7', 1.0 '#92c5de', %.1f '#2166ac')\nset xtics (",
		ctop, ctop);
	for (size_t ix = 0; ix < m->nx; ix++)
		fprintf(b, "%s'%.3g' %zu", ix ? ", " : "", m->xs[ix], ix);
	fprintf(b, ")\nset ytics (");
	for (size_t iy = 0; iy < m->ny; iy++)
		fprintf(b, "%s'%.3g' %zu", iy ? ", " : "", m->ys[iy], iy);
	/* cells as filled boxes: only the measured ones are drawn */
	fprintf(b,
		")\nset xrange [-0.5:%zu.5]\nset yrange [-0.5:%zu.5]\nunset key\nplot $dat using 1:2:(0.5):(0.5):3 with boxxyerror fc palette fs solid noborder, '' using 1:2:($5 > 1 ? sprintf(\"%%.2f\\nsd %%.2f\\napplied %%.3g GiB\", $3, $4, $7) : sprintf(\"%%.2f\\napplied %%.3g GiB\", $3, $7)) with labels font ',10'\n",
		m->nx - 1, m->ny - 1);
}

/*
 * One heatmap: phase [phase] of the runs of replication factor [repl]
 * ([multi]: the runs have several factors, each gets its own map, named
 * PHASE-rN and normalised to its own baseline; else every run, named
 * PHASE).  A grid of the requested configurations (a run that requested
 * none: its applied one), normalised to the baseline cell: the largest
 * configuration (most cores, then memory), "unconstrained" only when its
 * runs requested nothing.  Only measured cells are in the data and drawn;
 * the applied values are in each cell's label and the text.  Counts it in
 * *made / *failed; -1 out of memory, else 0.
 */
static int heatmap_one(struct plot_ctx *pc, const struct report_run *runs,
		       size_t n, double osds, const char *phase, int repl,
		       bool multi, int *made, int *failed)
{
	const struct ios_fig_desc *f = ios_fig_headline(phase);
	struct hm_map m = {.xs = calloc(n + 1, sizeof(double)),
			   .ys = calloc(n + 1, sizeof(double)),
			   .cells = calloc(n + 1, sizeof(struct hm_cell)),
			   .bx = -1,
			   .by = -1};
	double base, ctop;
	char *body = NULL, name[48], rtitle[48], basename[160], note[512];
	size_t blen = 0;
	struct plot_data pd;
	FILE *b;
	uint64_t disk; /* the runs' disk throttle: 0 unthrottled */
	struct baseline bl;
	int rc = 0;

	if (!m.xs || !m.ys || !m.cells) {
		rc = -1;
		goto out;
	}
	plot_factor_names(phase, repl, multi, name, rtitle);
	if (!heatmap_disk(pc, runs, n, phase, f, repl, multi, rtitle, &disk))
		goto out;
	heatmap_grid(runs, n, osds, phase, f, repl, multi, disk, &m);
	if (m.nc == 0)
		goto out;
	/* the unconstrained baseline when the campaign measured one, else
	 * the largest cell: its mean, as the cell shows it (so that it
	 * reads 1.00) */
	plot_find_baseline(runs, n, phase, f, repl, multi, &bl);
	base = bl.nruns ? bl.mean
			: m.cells[m.bcell].mean / m.cells[m.bcell].nruns;
	if (!(base > 0)) {
		fprintf(stderr,
			"iostrata-report plot: heatmap %s%s: the baseline's %s is %g, not a positive number to normalise by: plot skipped\n",
			phase, rtitle, f->name, base);
		goto out;
	}
	heatmap_basename(&m, &bl, osds, basename, sizeof(basename));
	heatmap_text(phase, rtitle, f, basename, base, m.cells, m.nc, m.xs,
		     m.ys, osds, &bl);
	plot_cache_note(runs, n, phase, f, repl, multi, note, sizeof(note));
	if (note[0])
		printf("  %s\n", note);
	if (plot_data_open(&pd, "$dat", "")) {
		rc = -1;
		goto out;
	}
	ctop = heatmap_data(pd.fp, &m, base, osds);
	b = open_memstream(&body, &blen);
	if (b)
		heatmap_script(b, &m, phase, rtitle, f, basename, base, note,
			       ctop);
	plot_finish(pc, "heatmap", name, b, &pd, 1, &body, made, failed);
out:
	free(m.xs);
	free(m.ys);
	free(m.cells);
	return rc;
}

int plot_heatmap(struct plot_ctx *pc, const struct report_run *runs, size_t n,
		 double osds)
{
	int made = 0, failed = 0;

	if (plot_each(pc, runs, n, osds, heatmap_one, &made, &failed) < 0)
		return -1;
	if (!made && !failed && !pc->said)
		fprintf(stderr,
			"iostrata-report plot: heatmap: no runs with applied cores and memory (attachments or job facts) to plot\n");
	return (made || pc->said) && !failed ? 0 : -1;
}
