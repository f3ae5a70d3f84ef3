/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_plot_common: what the kinds of iostrata-report plot share (they
 * call it; it calls none of them): the plot's files (names, data streams,
 * rendering through gnuplot), the runs' phases and replication factors,
 * the baseline a figure is normalised to, and plot_each over the phases
 * and factors.
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
#include "report_plot_int.h"
#include "safefile.h"

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

size_t plot_uniq(double *v, size_t n)
{
	size_t m = 0;

	qsort(v, n, sizeof(double), cmp_dbl);
	for (size_t i = 0; i < n; i++)
		if (!m || v[i] != v[m - 1])
			v[m++] = v[i];
	return m;
}

size_t plot_idx_of(const double *v, size_t n, double x)
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
void plot_run_stats(const struct report_run *rr, const char *phase,
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
double plot_run_mean(const struct report_run *rr, const char *phase,
		     const struct ios_fig_desc *f)
{
	struct report_stats st;

	plot_run_stats(rr, phase, f, &st);
	return st.n && isfinite(st.mean) ? st.mean : NAN;
}

/* Open the memstream of [pd]; 0 or -1. */
int plot_data_open(struct plot_data *pd, const char *name, const char *suffix)
{
	memset(pd, 0, sizeof(*pd));
	pd->name = name;
	pd->suffix = suffix;
	pd->fp = open_memstream(&pd->buf, &pd->len);
	return pd->fp ? 0 : -1;
}

void plot_data_free(struct plot_data *pd, size_t n)
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
void plot_finish(struct plot_ctx *pc, const char *kind, const char *name,
		 FILE *b, struct plot_data *pd, size_t n, char **body,
		 int *made, int *failed)
{
	char *out = NULL;
	int rc = -1;

	/* [b] writes *body (open_memstream): read it only once closed */
	if (b && !mem_close(b) && !data_close(pd, n) &&
	    (out = out_name(pc, kind, name)))
		rc = render(pc, out, pd, n, *body);
	plot_data_free(pd, n);
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
bool plot_of_factor(const struct report_run *rr, int repl, bool multi)
{
	return !multi || rr->replication == repl;
}

/* The plot's name part ("write", "write-r2", "write-runknown") and its
 * title's (", replication 2"; "" with one factor), both 48 bytes. */
void plot_factor_names(const char *phase, int repl, bool multi, char *name,
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

/* The baseline of [phase] for factor [repl] into [bl]: its runs' means
 * pooled as a cell's are, the first and the last element (by index, else
 * by order) for the drift between them.  bl->nruns 0 when the runs have
 * no baseline element (an older campaign, or runs not of a campaign). */
void plot_find_baseline(const struct report_run *runs, size_t n,
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

		if (!rr->baseline || !plot_of_factor(rr, repl, multi) ||
		    isnan(plot_run_mean(rr, phase, f)))
			continue;
		plot_run_stats(rr, phase, f, &st);
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
void plot_cache_note(const struct report_run *runs, size_t n, const char *phase,
		     const struct ios_fig_desc *f, int repl, bool multi,
		     char *note, size_t len)
{
	struct report_cache most = {0}, least = {0};
	char d[32], t[32];
	int k = 0;

	note[0] = '\0';
	if (!strstr(phase, "read"))
		return;
	for (size_t i = 0; i < n; i++) {
		struct report_cache c;

		if (!plot_of_factor(&runs[i], repl, multi) ||
		    isnan(plot_run_mean(&runs[i], phase, f)))
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
const char plot_no_baseline[] =
	"no unconstrained baseline in these runs (a campaign planned before baselines, or runs of no campaign): normalised to the largest configuration swept instead";

/* The baseline's own line and the drift between its first and its last
 * element: the campaign's configurations ran in between, so a difference
 * between them smaller than the drift is no effect of theirs. */
void plot_baseline_text(const struct baseline *bl, const struct ios_fig_desc *f,
			double osds)
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

/* [one] for every phase of the runs and each of their replication
 * factors; counted in *made / *failed.  -1 out of memory, else 0. */
int plot_each(struct plot_ctx *pc, const struct report_run *runs, size_t n,
	      double osds, one_plot_fn *one, int *made, int *failed)
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
