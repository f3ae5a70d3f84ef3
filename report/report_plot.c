/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_plot: iostrata-report plot, through gnuplot, to PNG and SVG:
 *  - heatmap: the requested cores per OSD x memory per OSD, headline
 *    figure normalised to the largest configuration swept (the paper's
 *    Figures 2 and 3), the applied values in each cell's label;
 *  - throttle: bandwidth or IOPS vs disk throttle with min-max bands and
 *    the knee sweepfit finds (the paper's Figures 4 and 5);
 *  heatmaps and throttle curves once per replication factor when the runs
 *  have several;
 *  - timeline: per-rank rate per sample interval, ranks x time, with each
 *    rank's end marked, so stragglers and early finishers stand out.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gnuplot.h"
#include "report.h"
#include "safefile.h"
#include "sweepfit.h"

/* One `iostrata-report plot`: gnuplot, the --out prefix and the file names
 * written so far, so that two plots never get the same name. */
struct plot_ctx {
	const char *gp, *prefix;
	char **used;
	size_t nused;
	int said; /* plots not drawn, a sentence said why (not a failure) */
};

static bool name_used(const struct plot_ctx *pc, const char *name)
{
	for (size_t i = 0; i < pc->nused; i++)
		if (!strcmp(pc->used[i], name))
			return true;
	return false;
}

/* The files a plot named [out] writes. */
static const char *const out_suffixes[] = {".png", ".svg", ".dat", "-ends.dat"};

/* [prefix]-[kind]-[name], [name] made safe for a file name (letters,
 * digits, '-' and '.'; at most 100 of them), then "-2", "-3"... when an
 * earlier plot of this run took one of its file names (labels that clean
 * to the same name, or equal labels): malloc'd, or NULL (message
 * printed). */
static char *out_name(struct plot_ctx *pc, const char *kind, const char *name)
{
	const size_t ns = sizeof(out_suffixes) / sizeof(*out_suffixes);
	char part[101], **used;
	char *out = NULL;

	snprintf(part, sizeof(part), "%.100s", name);
	for (char *s = part; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '-' || *s == '.'))
			*s = '_';
	for (unsigned k = 1; !out; k++) {
		bool taken = false;

		if ((k == 1 ? asprintf(&out, "%s-%s-%s", pc->prefix, kind, part)
			    : asprintf(&out, "%s-%s-%s-%u", pc->prefix, kind,
				       part, k)) < 0)
			goto nomem;
		for (size_t i = 0; i < ns && !taken; i++) {
			char *f;

			if (asprintf(&f, "%s%s", out, out_suffixes[i]) < 0) {
				free(out);
				goto nomem;
			}
			taken = name_used(pc, f);
			free(f);
		}
		if (taken) {
			free(out);
			out = NULL;
		}
	}
	used = realloc(pc->used, (pc->nused + ns) * sizeof(*used));
	if (!used) {
		free(out);
		goto nomem;
	}
	pc->used = used;
	for (size_t i = 0; i < ns; i++)
		if (asprintf(&pc->used[pc->nused], "%s%s", out,
			     out_suffixes[i]) >= 0)
			pc->nused++;
	return out;
nomem:
	fprintf(stderr, "iostrata-report plot: %s plot: %s\n", kind,
		strerror(ENOMEM));
	return NULL;
}

/* Close a memstream; 0 or -1 (message printed). */
static int mem_close(FILE *fp)
{
	int bad = ferror(fp);

	if (fclose(fp) != 0 || bad) {
		fprintf(stderr, "iostrata-report plot: build script: %s\n",
			strerror(ENOMEM));
		return -1;
	}
	return 0;
}

/* Write [data] to [out][suffix].dat for the reader; 0 or -1 (message
 * printed). */
static int dat_write(const char *out, const char *suffix, const char *data,
		     size_t len)
{
	struct ios_err err = {0};
	char *path;
	int rc;

	if (asprintf(&path, "%s%s.dat", out, suffix) < 0) {
		fprintf(stderr, "iostrata-report plot: %s\n", strerror(ENOMEM));
		return -1;
	}
	rc = sf_write(path, data, len, 0, &err);
	if (rc < 0)
		fprintf(stderr, "iostrata-report plot: %s\n", err.msg);
	free(path);
	return rc < 0 ? -1 : 0;
}

/* A plot's data, in memory: written to files for the reader and handed to
 * gnuplot inline, so gnuplot opens no file by name. */
struct plot_data {
	const char *name;   /* datablock, "$dat" */
	const char *suffix; /* file: [out][suffix].dat */
	char *buf;
	size_t len;
	FILE *fp;
};

/*
 * Write the data files of [out], then run gnuplot once per format: the
 * datablocks, a terminal, [body] (which plots the datablocks), the image
 * on gnuplot's standard output into a new file that replaces [out].png /
 * .svg (safefile: never written through a planted symlink).
 */
static int render(struct plot_ctx *pc, const char *out, struct plot_data *pd,
		  size_t npd, const char *body)
{
	static const char *const term[] = {"pngcairo", "svg"};
	int rc = 0;

	for (size_t i = 0; i < npd && !rc; i++)
		rc = dat_write(out, pd[i].suffix, pd[i].buf, pd[i].len);
	for (int k = 0; k < 2 && !rc; k++) {
		struct ios_err err = {0};
		struct sf_file f;
		char *script = NULL, *path = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&script, &len);
		int st = 0;

		if (!fp)
			return -1;
		for (size_t i = 0; i < npd; i++)
			fprintf(fp, "%s << IOSTRATA_EOD\n%sIOSTRATA_EOD\n",
				pd[i].name, pd[i].buf);
		fprintf(fp,
			"set terminal %s size 1000,700 noenhanced font 'Sans,11'\n%s\n",
			term[k], body);
		rc = mem_close(fp);
		if (!rc && asprintf(&path, "%s.%s", out, k ? "svg" : "png") < 0)
			path = NULL, rc = -1;
		if (!rc && sf_create(&f, path, 0, &err) < 0) {
			fprintf(stderr, "iostrata-report plot: %s\n", err.msg);
			rc = -1;
		}
		if (!rc) {
			rc = gp_run(pc->gp, script, len, fileno(f.fp), &st);
			if (rc == -EIO)
				fprintf(stderr,
					"iostrata-report plot: %s: gnuplot failed (status %d)\n",
					path, st);
			else if (rc < 0)
				fprintf(stderr,
					"iostrata-report plot: run %s: %s\n",
					pc->gp, strerror(-rc));
			if (rc < 0) {
				sf_discard(&f);
			} else if (sf_commit(&f, &err) < 0) {
				fprintf(stderr, "iostrata-report plot: %s\n",
					err.msg);
				rc = -1;
			}
		}
		free(path);
		free(script);
	}
	if (!rc)
		printf("wrote %s.png %s.svg\n", out, out);
	return rc ? -1 : 0;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static size_t uniq(double *v, size_t n)
{
	size_t m = 0;

	qsort(v, n, sizeof(double), cmp_dbl);
	for (size_t i = 0; i < n; i++)
		if (!m || v[i] != v[m - 1])
			v[m++] = v[i];
	return m;
}

static size_t idx_of(const double *v, size_t n, double x)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == x)
			return i;
	return 0;
}

/* Phase names present in the runs, deduplicated. */
static size_t phase_names(const struct report_run *runs, size_t n,
			  char names[][16], size_t max)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < runs[i].run->nphases; k++) {
			size_t j;

			for (j = 0; j < m; j++)
				if (!strcmp(names[j],
					    runs[i].run->phases[k].name))
					break;
			if (j == m && m < max)
				snprintf(names[m++], 16, "%s",
					 runs[i].run->phases[k].name);
		}
	return m;
}

/* The stats of [f] over the valid repetitions of [rr]'s phase [phase]
 * into [st] (n 0 when the run has no such phase). */
static void run_stats(const struct report_run *rr, const char *phase,
		      const struct ios_fig_desc *f, struct report_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->mean = st->stddev = NAN;
	for (int k = 0; k < rr->run->nphases; k++)
		if (!strcmp(rr->run->phases[k].name, phase)) {
			report_phase_stats(&rr->run->phases[k], f, st);
			return;
		}
}

/* Mean of the headline figure of [phase] in [rr]; NaN when there is none
 * or it is not finite (an inf from a results file is no figure). */
static double run_mean(const struct report_run *rr, const char *phase,
		       const struct ios_fig_desc *f)
{
	struct report_stats st;

	run_stats(rr, phase, f, &st);
	return st.n && isfinite(st.mean) ? st.mean : NAN;
}

/* Open the memstream of [pd]; 0 or -1. */
static int data_open(struct plot_data *pd, const char *name, const char *suffix)
{
	memset(pd, 0, sizeof(*pd));
	pd->name = name;
	pd->suffix = suffix;
	pd->fp = open_memstream(&pd->buf, &pd->len);
	return pd->fp ? 0 : -1;
}

static void data_free(struct plot_data *pd, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (pd[i].fp)
			fclose(pd[i].fp);
		free(pd[i].buf);
	}
}

/* Close the memstreams of [pd]; 0 or -1 (message printed). */
static int data_close(struct plot_data *pd, size_t n)
{
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		if (pd[i].fp && mem_close(pd[i].fp))
			rc = -1;
		pd[i].fp = NULL;
	}
	return rc;
}

/*
 * One plot's end: close the script [b] (a memstream over *[body]) and the
 * data [pd] (n blocks), render [kind]/[name] unless something failed, free
 * them all and count the plot as made or failed.
 */
static void finish_plot(struct plot_ctx *pc, const char *kind, const char *name,
			FILE *b, struct plot_data *pd, size_t n, char **body,
			int *made, int *failed)
{
	char *out = NULL;
	int rc = -1;

	/* [b] writes *body (open_memstream): read it only once closed */
	if (b && !mem_close(b) && !data_close(pd, n) &&
	    (out = out_name(pc, kind, name)))
		rc = render(pc, out, pd, n, *body);
	data_free(pd, n);
	free(*body);
	free(out);
	if (rc)
		(*failed)++;
	else
		(*made)++;
}

/*
 * The replication factors of the runs, sorted, into *out (malloc'd; 0
 * stands for unknown): a campaign with [sweep] replication = 2,3 has two,
 * and each gets its own heatmaps and throttle curves.  Returns the count
 * or -1 (out of memory).
 */
static int repl_factors(const struct report_run *runs, size_t n, int **out)
{
	int *repl = calloc(n + 1, sizeof(int)), nr = 0;

	*out = repl;
	if (!repl)
		return -1;
	for (size_t i = 0; i < n; i++) {
		int j = 0, v = runs[i].replication;

		while (j < nr && repl[j] < v)
			j++;
		if (j < nr && repl[j] == v)
			continue;
		memmove(&repl[j + 1], &repl[j], (size_t)(nr - j) * sizeof(int));
		repl[j] = v;
		nr++;
	}
	return nr;
}

/* Is [rr] of factor [repl] (always, when the runs have one factor)? */
static bool of_factor(const struct report_run *rr, int repl, bool multi)
{
	return !multi || rr->replication == repl;
}

/* The plot's name part ("write", "write-r2", "write-runknown") and its
 * title's (", replication 2"; "" with one factor), both 48 bytes. */
static void factor_names(const char *phase, int repl, bool multi, char *name,
			 char *title)
{
	title[0] = '\0';
	snprintf(name, 48, "%.16s", phase);
	if (!multi)
		return;
	if (repl > 0) {
		snprintf(name, 48, "%.16s-r%d", phase, repl);
		snprintf(title, 48, ", replication %d", repl);
	} else {
		snprintf(name, 48, "%.16s-runknown", phase);
		snprintf(title, 48, ", replication unknown");
	}
}

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
	return !rr->baseline && !isnan(run_mean(rr, phase, f)) &&
	       key_cpus(rr) > 0 && key_mem(rr) > 0 &&
	       of_factor(rr, repl, multi) && rr->disk_bw == disk;
}

/* The unconstrained baseline of a phase and factor: the campaign's
 * baseline elements (no --iostrata-* option), measured like the others. */
struct baseline {
	int nruns;            /* its runs with a figure; 0: none measured */
	double mean;          /* the mean of its runs' means */
	double rmin, rmax;    /* over every valid repetition of its runs */
	int nrep;             /* valid repetitions */
	int efirst, elast;    /* the first and last element (-1 unknown) */
	double vfirst, vlast; /* their means */
	double acpu, amem;    /* applied cores and memory (the host whole) */
	char name[160];       /* "the unconstrained baseline (elements 0, 4)" */
};

/* The baseline of [phase] for factor [repl] into [bl]: its runs' means
 * pooled as a cell's are, the first and the last element (by index, else
 * by order) for the drift between them.  bl->nruns 0 when the runs have
 * no baseline element (an older campaign, or runs not of a campaign). */
static void find_baseline(const struct report_run *runs, size_t n,
			  const char *phase, const struct ios_fig_desc *f,
			  int repl, bool multi, struct baseline *bl)
{
	memset(bl, 0, sizeof(*bl));
	bl->rmin = INFINITY;
	bl->rmax = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		const struct report_run *rr = &runs[i];
		struct report_stats st;
		int e;

		if (!rr->baseline || !of_factor(rr, repl, multi) ||
		    isnan(run_mean(rr, phase, f)))
			continue;
		run_stats(rr, phase, f, &st);
		e = rr->element >= 0 ? rr->element : (int)i;
		if (!bl->nruns || e < bl->efirst)
			bl->efirst = e, bl->vfirst = st.mean;
		if (!bl->nruns || e > bl->elast)
			bl->elast = e, bl->vlast = st.mean;
		bl->mean += st.mean;
		bl->rmin = fmin(bl->rmin, st.min);
		bl->rmax = fmax(bl->rmax, st.max);
		bl->nrep += st.n;
		bl->acpu = (double)rr->cpus;
		bl->amem = (double)rr->mem;
		bl->nruns++;
	}
	if (!bl->nruns)
		return;
	bl->mean /= bl->nruns;
	if (bl->efirst == bl->elast)
		snprintf(bl->name, sizeof(bl->name),
			 "the unconstrained baseline (element %d)", bl->efirst);
	else
		snprintf(bl->name, sizeof(bl->name),
			 "the unconstrained baseline (elements %d, %d)",
			 bl->efirst, bl->elast);
}

/* [v] bytes as "4 MiB", "2.6 GiB" into [buf]. */
static void fmt_bytes(char *buf, size_t len, double v)
{
	if (v >= 1073741824.0)
		snprintf(buf, len, "%.3g GiB", v / 1073741824.0);
	else if (v >= 1048576.0)
		snprintf(buf, len, "%.3g MiB", v / 1048576.0);
	else
		snprintf(buf, len, "%.3g KiB", v / 1024.0);
}

/*
 * Reads the disks need not serve: when every run of phase [phase] (a
 * read phase) of factor [repl] with a figure reads no more data (file
 * size x ranks) than its OSDs' memory can cache (osd_memory_target x
 * OSDs, as the run recorded them: report_osd_cache), a sentence into
 * [note] saying so; "" when one run reads more or does not say.
 */
static void cache_note(const struct report_run *runs, size_t n,
		       const char *phase, const struct ios_fig_desc *f,
		       int repl, bool multi, char *note, size_t len)
{
	struct report_cache most = {0}, least = {0};
	char d[32], t[32];
	int k = 0;

	note[0] = '\0';
	if (!strstr(phase, "read"))
		return;
	for (size_t i = 0; i < n; i++) {
		struct report_cache c;

		if (!of_factor(&runs[i], repl, multi) ||
		    isnan(run_mean(&runs[i], phase, f)))
			continue;
		if (report_osd_cache(&runs[i], phase, &c) < 0 ||
		    c.data > c.target * c.osds)
			return;
		if (!k || c.data > most.data)
			most = c;
		if (!k || c.target * c.osds < least.target * least.osds)
			least = c;
		k++;
	}
	if (!k)
		return;
	fmt_bytes(d, sizeof(d), most.data);
	fmt_bytes(t, sizeof(t), least.target);
	snprintf(
		note, len,
		"note: %s reads at most %s (file size x ranks), which fits in the OSDs' memory (osd_memory_target %s%s x %d OSDs): its reads can be served from the OSDs' caches, not the disks, so it cannot show a disk or memory limit on reads",
		phase, d, t, most.dflt ? ", Ceph's default: none recorded" : "",
		least.osds);
}

/* What the text says when the runs have no baseline element. */
static const char no_baseline[] =
	"no unconstrained baseline in these runs (a campaign planned before baselines, or runs of no campaign): normalised to the largest configuration swept instead";

/* The baseline's own line and the drift between its first and its last
 * element: the campaign's configurations ran in between, so a difference
 * between them smaller than the drift is no effect of theirs. */
static void baseline_text(const struct baseline *bl,
			  const struct ios_fig_desc *f, double osds)
{
	double d;

	if (!bl->nruns)
		return;
	printf("  baseline: %.2f (%.2f..%.2f) over %d repetition(s); unconstrained, applied %.3g cores, %.3g GiB per OSD (the storage host whole)\n",
	       1.0, bl->rmin / bl->mean, bl->rmax / bl->mean, bl->nrep,
	       bl->acpu / osds, bl->amem / osds / 1073741824.0);
	if (bl->efirst == bl->elast)
		return;
	d = bl->vlast / bl->vfirst - 1;
	printf("  the baseline drifted %+.0f%% during the campaign (element %d, first: %.*f %s; element %d, last: %.*f %s): a difference between configurations smaller than that is drift, not their effect\n",
	       d * 100, bl->efirst, bl->vfirst * f->scale >= 100 ? 0 : 2,
	       bl->vfirst * f->scale, f->dunit, bl->elast,
	       bl->vlast * f->scale >= 100 ? 0 : 2, bl->vlast * f->scale,
	       f->dunit);
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

	run_stats(rr, phase, f, &st);
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
		baseline_text(bl, f, osds);
	else
		printf("  %s\n", no_baseline);
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
	double *xs = calloc(n + 1, sizeof(double)),
	       *ys = calloc(n + 1, sizeof(double));
	struct hm_cell *cells = calloc(n + 1, sizeof(*cells));
	double base = NAN, bx = -1, by = -1, ctop = 1.2;
	size_t nx = 0, ny = 0, nc = 0, bcell = 0;
	char *body = NULL, name[48], rtitle[48], basename[160], note[512];
	size_t blen = 0;
	struct plot_data pd;
	FILE *b = NULL;
	uint64_t disk = 0; /* the runs' disk throttle: 0 unthrottled */
	bool any = false, unthrottled = false, several = false;
	struct baseline bl;

	if (!xs || !ys || !cells) {
		free(xs);
		free(ys);
		free(cells);
		return -1;
	}
	factor_names(phase, repl, multi, name, rtitle);
	/* one disk speed per map: the unthrottled runs when there are
	 * any, else the one throttle they all ran at; a disk-speed sweep
	 * (several throttles, nothing unthrottled) has no cores x memory
	 * map to draw */
	for (size_t i = 0; i < n; i++) {
		if (!in_map(&runs[i], phase, f, repl, multi, runs[i].disk_bw))
			continue;
		unthrottled |= !runs[i].disk_bw;
		several |= any && runs[i].disk_bw != disk;
		disk = any ? disk : runs[i].disk_bw;
		any = true;
	}
	if (unthrottled) {
		disk = 0;
	} else if (several) {
		printf("heatmap %s%s: not drawn: every run is throttled, at several disk speeds (a disk-speed sweep): no cores x memory map (see the throttle curves)\n",
		       phase, rtitle);
		pc->said++;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		if (!in_map(&runs[i], phase, f, repl, multi, disk))
			continue;
		xs[nx++] = key_cpus(&runs[i]) / osds;
		ys[ny++] = key_mem(&runs[i]) / osds / 1073741824.0;
		/* baseline: the largest configuration, most cores, then
		 * memory */
		if (key_cpus(&runs[i]) > bx ||
		    (key_cpus(&runs[i]) == bx && key_mem(&runs[i]) > by)) {
			bx = key_cpus(&runs[i]);
			by = key_mem(&runs[i]);
		}
	}
	nx = uniq(xs, nx);
	ny = uniq(ys, ny);
	/* the measured cells, each its runs pooled */
	for (size_t i = 0; i < n; i++) {
		size_t ix, iy, k;

		if (!in_map(&runs[i], phase, f, repl, multi, disk))
			continue;
		ix = idx_of(xs, nx, key_cpus(&runs[i]) / osds);
		iy = idx_of(ys, ny, key_mem(&runs[i]) / osds / 1073741824.0);
		for (k = 0; k < nc; k++)
			if (cells[k].ix == ix && cells[k].iy == iy)
				break;
		if (k == nc) {
			cells[nc].ix = ix;
			cells[nc++].iy = iy;
		}
		cell_add(&cells[k], &runs[i], phase, f);
		if (key_cpus(&runs[i]) == bx && key_mem(&runs[i]) == by)
			bcell = k;
	}
	if (nc == 0)
		goto out;
	/* the unconstrained baseline when the campaign measured one, else
	 * the largest cell: its mean, as the cell shows it (so that it
	 * reads 1.00) */
	find_baseline(runs, n, phase, f, repl, multi, &bl);
	base = bl.nruns ? bl.mean : cells[bcell].mean / cells[bcell].nruns;
	if (!(base > 0)) {
		fprintf(stderr,
			"iostrata-report plot: heatmap %s%s: the baseline's %s is %g, not a positive number to normalise by: plot skipped\n",
			phase, rtitle, f->name, base);
		goto out;
	}
	if (bl.nruns)
		snprintf(basename, sizeof(basename), "%s", bl.name);
	else if (cells[bcell].requested)
		snprintf(
			basename, sizeof(basename),
			"the largest configuration swept (%.3g cores, %.3g GiB/OSD requested)",
			bx / osds, by / osds / 1073741824.0);
	else
		snprintf(
			basename, sizeof(basename),
			"the largest configuration swept (%.3g cores, %.3g GiB/OSD applied)",
			bx / osds, by / osds / 1073741824.0);
	heatmap_text(phase, rtitle, f, basename, base, cells, nc, xs, ys, osds,
		     &bl);
	cache_note(runs, n, phase, f, repl, multi, note, sizeof(note));
	if (note[0])
		printf("  %s\n", note);
	if (data_open(&pd, "$dat", "")) {
		free(xs);
		free(ys);
		free(cells);
		return -1;
	}
	/* one line per measured cell (an unmeasured cell is drawn empty,
	 * not as a number): x, y, the mean of the cell's runs / baseline,
	 * the standard deviation over every valid repetition of them /
	 * baseline, their count, and the applied cores and memory per OSD
	 * (the mean of its runs') */
	for (size_t k = 0; k < nc; k++) {
		const struct hm_cell *c = &cells[k];

		fprintf(pd.fp, "%zu %zu ", c->ix, c->iy);
		gp_fputnum(pd.fp, c->mean / c->nruns / base);
		fprintf(pd.fp, " ");
		gp_fputnum(pd.fp,
			   c->nrep > 1
				   ? sqrt(fmax(0, (c->rsq - c->rsum * c->rsum /
								    c->nrep) /
							  (c->nrep - 1))) /
					     base
				   : 0);
		fprintf(pd.fp, " %d ", c->nrep);
		gp_fputnum(pd.fp, (c->acpu0 + c->acpu1) / 2 / osds);
		fprintf(pd.fp, " ");
		gp_fputnum(pd.fp,
			   (c->amem0 + c->amem1) / 2 / osds / 1073741824.0);
		fprintf(pd.fp, "\n");
	}
	/* the colour scale reaches the largest cell: above its top every
	 * cell had one colour (the demo's 1.39 and 2.05 both drew as 1.2) */
	for (size_t k = 0; k < nc; k++)
		if (isfinite(cells[k].mean / cells[k].nruns / base))
			ctop = fmax(ctop, ceil(cells[k].mean / cells[k].nruns /
					       base * 10) /
						  10);
	b = open_memstream(&body, &blen);
	if (b) {
		/* two lines: what is normalised to what, what a cell shows */
		fprintf(b, "set title ");
		gp_fprintq(b, "%s%s: %s / %s: %.*f %s", phase, rtitle, f->name,
			   basename, base * f->scale >= 100 ? 0 : 2,
			   base * f->scale, f->dunit);
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
		gp_fprintq(b, "cores per OSD (%s)",
			   cells[bcell].requested ? "requested" : "applied");
		fprintf(b, "\nset ylabel ");
		gp_fprintq(b, "memory per OSD [GiB] (%s)",
			   cells[bcell].requested ? "requested" : "applied");
		fprintf(b, "\nset cblabel ");
		gp_fprintq(b, "%s / baseline", f->name);
		/* the palette's positions are scaled onto the cbrange: its
		 * last one is the range's top, so 1.0 stays the baseline's */
		fprintf(b,
			"\nset cbrange [0:%.1f]\nset palette defined (0 '#b2182b', 0.6 '#f4a582', 0.9 '#f7f7f7', 1.0 '#92c5de', %.1f '#2166ac')\nset xtics (",
			ctop, ctop);
		for (size_t ix = 0; ix < nx; ix++)
			fprintf(b, "%s'%.3g' %zu", ix ? ", " : "", xs[ix], ix);
		fprintf(b, ")\nset ytics (");
		for (size_t iy = 0; iy < ny; iy++)
			fprintf(b, "%s'%.3g' %zu", iy ? ", " : "", ys[iy], iy);
		/* cells as filled boxes: only the measured ones are drawn */
		fprintf(b,
			")\nset xrange [-0.5:%zu.5]\nset yrange [-0.5:%zu.5]\nunset key\nplot $dat using 1:2:(0.5):(0.5):3 with boxxyerror fc palette fs solid noborder, '' using 1:2:($5 > 1 ? sprintf(\"%%.2f\\nsd %%.2f\\napplied %%.3g GiB\", $3, $4, $7) : sprintf(\"%%.2f\\napplied %%.3g GiB\", $3, $7)) with labels font ',10'\n",
			nx - 1, ny - 1);
	}
	finish_plot(pc, "heatmap", name, b, &pd, 1, &body, made, failed);
out:
	free(xs);
	free(ys);
	free(cells);
	return 0;
}

/* Draws one plot of a phase and replication factor (heatmap_one,
 * throttle_one). */
typedef int one_plot_fn(struct plot_ctx *pc, const struct report_run *runs,
			size_t n, double osds, const char *phase, int repl,
			bool multi, int *made, int *failed);

/* [one] for every phase of the runs and each of their replication
 * factors; counted in *made / *failed.  -1 out of memory, else 0. */
static int each_plot(struct plot_ctx *pc, const struct report_run *runs,
		     size_t n, double osds, one_plot_fn *one, int *made,
		     int *failed)
{
	char names[16][16];
	size_t np = phase_names(runs, n, names, 16);
	int *repl, nr = repl_factors(runs, n, &repl), rc = 0;

	if (nr < 0)
		return -1;
	for (size_t p = 0; p < np && !rc; p++)
		for (int r = 0; r < nr && !rc; r++)
			rc = one(pc, runs, n, osds, names[p], repl[r], nr > 1,
				 made, failed);
	free(repl);
	return rc;
}

static int plot_heatmap(struct plot_ctx *pc, const struct report_run *runs,
			size_t n, double osds)
{
	int made = 0, failed = 0;

	if (each_plot(pc, runs, n, osds, heatmap_one, &made, &failed) < 0)
		return -1;
	if (!made && !failed && !pc->said)
		fprintf(stderr,
			"iostrata-report plot: heatmap: no runs with applied cores and memory (attachments or job facts) to plot\n");
	return (made || pc->said) && !failed ? 0 : -1;
}

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
		baseline_text(bl, f, 1);
	else
		printf("  %s\n", no_baseline);
	for (size_t ix = 0; ix < nx; ix++) {
		if (!(tab[3 * ix + 1] > 0))
			continue;
		printf("  disk %-8.4g MB/s  %.2f (%.2f..%.2f)\n", xs[ix] / 1e6,
		       tab[3 * ix + 1] / base, tab[3 * ix] / base,
		       tab[3 * ix + 2] / base);
	}
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
	FILE *b = NULL;
	char name[48], rtitle[48];
	double *tab = NULL; /* min, mean, max per speed (cnt 0: mean 0) */
	struct baseline bl;
	char note[512];

	(void)osds; /* the x axis is per disk already */
	if (!xs)
		return -1;
	factor_names(phase, repl, multi, name, rtitle);
	for (size_t i = 0; i < n; i++)
		if (runs[i].disk_bw && of_factor(&runs[i], repl, multi) &&
		    !isnan(run_mean(&runs[i], phase, f)))
			xs[nx++] = (double)runs[i].disk_bw;
	nx = uniq(xs, nx);
	if (nx < 1) {
		free(xs);
		return 0;
	}
	if (data_open(&pd, "$dat", "")) {
		free(xs);
		return -1;
	}
	fprintf(pd.fp, "# throttle_MBps min mean max (%s)\n", f->dunit);
	if (!(tab = calloc(3 * nx + 3, sizeof(double)))) {
		data_free(&pd, 1);
		free(xs);
		return -1;
	}
	for (size_t ix = 0; ix < nx; ix++) {
		double mn = INFINITY, mx = -INFINITY, sum = 0;
		int cnt = 0;

		for (size_t i = 0; i < n; i++) {
			if ((double)runs[i].disk_bw != xs[ix] ||
			    !of_factor(&runs[i], repl, multi))
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
					v = ios_fig_value(&ph->reps[r].fig,
							  f->id) *
					    f->scale;
					if (!isfinite(v))
						continue;
					mn = fmin(mn, v);
					mx = fmax(mx, v);
					sum += v;
					cnt++;
					if (obs_add(&o, xs[ix] / 1e6, v) < 0)
						(*failed)++;
				}
			}
		}
		if (!cnt)
			continue;
		tab[3 * ix] = mn, tab[3 * ix + 1] = sum / cnt,
			tab[3 * ix + 2] = mx;
		gp_fputnum(pd.fp, xs[ix] / 1e6);
		for (int q = 0; q < 3; q++) {
			fputc(' ', pd.fp);
			gp_fputnum(pd.fp, q == 0   ? mn
					  : q == 1 ? sum / cnt
						   : mx);
		}
		fputc('\n', pd.fp);
	}
	/* the knee advise finds on a disk-speed curve (sweepfit) */
	memset(&k, 0, sizeof(k));
	if (o.n && sf_knee_obs(o.x, o.y, o.n, &k) < 0)
		(*failed)++;
	found = knee_words(&k, xs[nx - 1] / 1e6, knee, sizeof(knee));
	printf("throttle %s%s: %s\n", phase, rtitle, knee);
	find_baseline(runs, n, phase, f, repl, multi, &bl);
	throttle_text(f, xs, tab, nx, &bl);
	cache_note(runs, n, phase, f, repl, multi, note, sizeof(note));
	if (note[0])
		printf("  %s\n", note);
	b = open_memstream(&body, &blen);
	if (b) {
		fprintf(b, "set title ");
		gp_fprintq(
			b,
			"%s%s: %s vs disk speed (min-max band over valid repetitions)",
			phase, rtitle, f->name);
		/* the reason as a second line: "\n" only in a
		 * double-quoted literal of our own */
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
		/* one speed: an x range of its own (gnuplot warns
		 * about an empty one) */
		if (nx == 1)
			fprintf(b, "set xrange [%.10g:%.10g]\n",
				xs[0] / 1e6 * 0.8, xs[0] / 1e6 * 1.2);
		if (found) {
			/* the knee's 95% profile interval as a band,
			 * the knee itself as a dashed line */
			if (k.k2_hi > k.k2_lo)
				fprintf(b,
					"set object 1 rect from %.10g, graph 0 to %.10g, graph 1 behind fc rgb '#fdae6b' fs transparent solid 0.35 noborder\n",
					k.k2_lo, k.k2_hi);
			fprintf(b,
				"set arrow 1 from %.10g, graph 0 to %.10g, graph 1 nohead front lc rgb '#d94801' lw 2 dt 2\n",
				k.k2, k.k2);
		}
		/* the unconstrained baseline, the figures' 1.00, as a line */
		if (bl.nruns)
			fprintf(b,
				"set arrow 2 from graph 0, first %.10g to graph 1, first %.10g nohead front lc rgb '#333333' lw 1.5 dt 3\n",
				bl.mean * f->scale, bl.mean * f->scale);
		fprintf(b,
			"plot $dat using 1:2:4 with filledcurves fc rgb '#9ecae1' fs transparent solid 0.5 title 'min-max', '' using 1:3 with linespoints lw 2 pt 7 lc rgb '#08519c' title 'mean', '' using 1:3:2:4 with yerrorbars lc rgb '#08519c' pt -1 notitle");
		if (bl.nruns) {
			fprintf(b,
				", keyentry with lines lc rgb '#333333' lw 1.5 dt 3 title ");
			gp_fprintq(b, "%s (unthrottled)", bl.name);
		}
		if (found) {
			fprintf(b,
				", keyentry with lines lc rgb '#d94801' lw 2 dt 2 title ");
			gp_fprintq(b, "%s", knee);
			if (k.k2_hi > k.k2_lo)
				fprintf(b,
					", keyentry with boxes fc rgb '#fdae6b' fs transparent solid 0.35 noborder title '95%% interval of the knee'");
		}
		fprintf(b, "\n");
	}
	finish_plot(pc, "throttle", name, b, &pd, 1, &body, made, failed);
	free(tab);
	free(o.x);
	free(o.y);
	free(xs);
	return 0;
}

static int plot_throttle(struct plot_ctx *pc, const struct report_run *runs,
			 size_t n)
{
	int made = 0, failed = 0;

	if (each_plot(pc, runs, n, 1, throttle_one, &made, &failed) < 0)
		return -1;
	if (!made && !failed)
		fprintf(stderr,
			"iostrata-report plot: throttle: no runs with an applied disk throttle to plot\n");
	return made && !failed ? 0 : -1;
}

static int plot_timeline(struct plot_ctx *pc, const struct report_run *runs,
			 size_t n)
{
	int made = 0, failed = 0;

	for (size_t i = 0; i < n; i++) {
		const struct ios_run *run = runs[i].run;

		for (int k = 0; k < run->nphases; k++) {
			const struct ios_phase_result *ph = &run->phases[k];
			const struct ios_rep_result *rep;
			char *body = NULL, lab[128], why[64];
			size_t blen = 0;
			double mark, width;
			uint32_t kb;
			struct plot_data pd[2];
			FILE *d, *e, *b = NULL;

			if (!ph->nreps)
				continue;
			rep = &ph->reps[ph->nreps - 1];
			/* rate of rank r in (merged) interval s, MiB/s: at
			 * most ~60 bins per rank, merging kb intervals */
			kb = 1;
			for (int r = 0; r < rep->nranks; r++)
				if (rep->ranks[r].nsamples / 60 + 1 > kb)
					kb = rep->ranks[r].nsamples / 60 + 1;
			width = kb * rep->interval_s;
			/* the width goes into a gnuplot expression: nan or inf
			 * there would fail the plot */
			if (!(width > 0) || !isfinite(width) ||
			    rep->nranks <= 0) {
				fprintf(stderr,
					"iostrata-report plot: timeline %s %s repetition %d: %s: plot skipped\n",
					runs[i].label, ph->name, rep->rep,
					rep->nranks <= 0
						? "no ranks"
						: "the sample interval is not a positive finite number of seconds");
				failed++;
				continue;
			}
			if (data_open(&pd[0], "$dat", "") ||
			    data_open(&pd[1], "$ends", "-ends")) {
				data_free(pd, 2);
				return -1;
			}
			d = pd[0].fp;
			e = pd[1].fp;
			for (int r = 0; r < rep->nranks; r++) {
				const struct ios_rank_result *rr =
					&rep->ranks[r];
				double t0 = (rr->t_start_ns - rep->t_start_ns) /
					    1e9;

				for (uint32_t s = 0; s < rr->nsamples;
				     s += kb) {
					uint32_t e2 = s + kb < rr->nsamples
							      ? s + kb
							      : rr->nsamples;
					uint64_t prev =
						s ? rr->sample_bytes[s - 1] : 0;
					double span =
						(e2 - s) * rep->interval_s;

					gp_fputnum(d, t0 + s * rep->interval_s +
							      span / 2);
					fprintf(d, " %d ", r);
					gp_fputnum(d,
						   (rr->sample_bytes[e2 - 1] -
						    prev) / span /
							   1048576.0);
					fputc('\n', d);
				}
				fprintf(d, "\n");
				gp_fputnum(e, (rr->t_end_ns - rep->t_start_ns) /
						      1e9);
				fprintf(e, " %d %d\n", r,
					rr->ended_early || rr->outlier ||
							rr->errors
						? 1
						: 0);
			}
			/* markers shrink as ranks grow, from 2 down to 0.5 */
			mark = 30.0 / rep->nranks;
			mark = mark > 2 ? 2 : mark < 1 ? 1 : mark;
			snprintf(why, sizeof(why), "%.60s%s",
				 rep->valid ? "valid" : rep->invalid_reason,
				 strlen(rep->invalid_reason) > 60 ? "..." : "");
			b = open_memstream(&body, &blen);
			if (b) {
				fprintf(b, "set title ");
				gp_fprintq(
					b,
					"%s %s repetition %d: per-rank rate per %.3g s (%s)",
					runs[i].label, ph->name, rep->rep,
					width, why);
				fprintf(b,
					" noenhanced\nset xlabel 'time since repetition start [s]'\nset ylabel 'rank'\n"
					"set cblabel 'rate [MiB/s]'\nset palette rgb 33,13,10\n"
					"set yrange [-0.5:%d.5]\nset offsets 0, 0.5, 0, 0\nset bmargin 6\nset key outside bottom center horizontal\n"
					"set style fill solid noborder\n",
					rep->nranks - 1);
				fprintf(b,
					"plot $dat using 1:2:(%.10g):(0.45):3 with boxxyerror palette notitle, ",
					width / 2);
				fprintf(b,
					"$ends using 1:2 with points pt 2 ps %.2f lc rgb 'black' title 'rank end', ",
					mark);
				fprintf(b,
					"$ends using ($3 > 0 ? $1 : 1/0):2 with points pt 6 ps %.2f lw 2 lc rgb 'red' title 'ended early / erred / outlier'\n",
					2 * mark);
			}
			/* a long label is cut, the phase and repetition kept */
			snprintf(lab, sizeof(lab), "%.64s-%s-rep%d",
				 runs[i].label, ph->name, rep->rep);
			finish_plot(pc, "timeline", lab, b, pd, 2, &body, &made,
				    &failed);
		}
	}
	return made && !failed ? 0 : -1;
}

int report_plot(int argc, char **argv)
{
	static const struct option opts[] = {
		{"kind", required_argument, NULL, 'k'},
		{"out", required_argument, NULL, 'o'},
		{"osds-per-node", required_argument, NULL, 'O'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *kind = "heatmap,throttle,timeline";
	struct plot_ctx pc = {.prefix = "iostrata"};
	double osds = 1;
	char *end;
	struct report_run *runs;
	size_t n;
	int c, nbad, fails = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "k:o:O:h", opts, NULL)) != -1) {
		switch (c) {
		case 'k':
			kind = optarg;
			break;
		case 'o':
			pc.prefix = optarg;
			if (!optarg[0] || gp_has_ctrl(optarg)) {
				fprintf(stderr,
					"iostrata-report plot: invalid value \"%s\" for --out (a path prefix without control characters)\n",
					optarg);
				return REPORT_EXIT_USAGE;
			}
			break;
		case 'O':
			osds = strtod(optarg, &end);
			if (end == optarg || *end || !(osds > 0) ||
			    !isfinite(osds)) {
				fprintf(stderr,
					"iostrata-report plot: invalid value \"%s\" for --osds-per-node (a positive number)\n",
					optarg);
				return REPORT_EXIT_USAGE;
			}
			break;
		case 'h':
			printf("usage: iostrata-report plot [--kind=heatmap,throttle,timeline] [--out=PREFIX] [--osds-per-node=N] FILE...\n"
			       "  gnuplot: $GNUPLOT if set, else the one found at build time, else PATH.\n");
			return 0;
		default:
			return REPORT_EXIT_USAGE;
		}
	}
	for (const char *p = kind; *p;) {
		size_t l = strcspn(p, ",");

		if (!((l == 7 && !strncmp(p, "heatmap", 7)) ||
		      (l == 8 && !strncmp(p, "throttle", 8)) ||
		      (l == 8 && !strncmp(p, "timeline", 8)))) {
			fprintf(stderr,
				"iostrata-report plot: unknown kind \"%.*s\" in --kind (accepted: heatmap, throttle, timeline)\n",
				(int)l, p);
			return REPORT_EXIT_USAGE;
		}
		p += l + (p[l] == ',');
	}
	if (optind >= argc) {
		fprintf(stderr,
			"iostrata-report plot: no results files given\n");
		return REPORT_EXIT_USAGE;
	}
	pc.gp = gp_find();
	if (!pc.gp) {
		fprintf(stderr,
			"iostrata-report plot: gnuplot not found (install gnuplot-nox, or set GNUPLOT=/path/to/gnuplot); show, export, efficiency, accept and trend work without it\n");
		return REPORT_EXIT_FAIL;
	}
	runs = report_load(argc - optind, argv + optind, &n, &nbad);
	if (strstr(kind, "heatmap") && plot_heatmap(&pc, runs, n, osds))
		fails++;
	if (strstr(kind, "throttle") && plot_throttle(&pc, runs, n))
		fails++;
	if (strstr(kind, "timeline") && plot_timeline(&pc, runs, n))
		fails++;
	report_runs_free(runs, n);
	for (size_t i = 0; i < pc.nused; i++)
		free(pc.used[i]);
	free(pc.used);
	if (nbad)
		return report_load_exit(nbad);
	return fails ? REPORT_EXIT_FAIL : REPORT_EXIT_OK;
}
