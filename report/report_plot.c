/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_plot: iostrata-report plot, through gnuplot, to PNG and SVG:
 *  - heatmap: cores per OSD x memory per OSD, headline figure normalised
 *    to the unconstrained baseline (the paper's Figures 2 and 3);
 *  - throttle: bandwidth or IOPS vs disk throttle with min-max bands
 *    (the paper's Figures 4 and 5);
 *  - timeline: per-rank rate per sample interval, ranks x time, with each
 *    rank's end marked, so stragglers and early finishers stand out.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gnuplot.h"
#include "report.h"

static const char *find_gnuplot(void)
{
	static char buf[4096];
	const char *env = getenv("GNUPLOT"), *path = getenv("PATH");

	if (env && env[0])
		return access(env, X_OK) == 0 ? env : NULL;
	if (access(GNUPLOT_PATH, X_OK) == 0 && strchr(GNUPLOT_PATH, '/'))
		return GNUPLOT_PATH;
	while (path && *path) {
		const char *colon = strchr(path, ':');
		size_t len = colon ? (size_t)(colon - path) : strlen(path);

		snprintf(buf, sizeof(buf), "%.*s/gnuplot", (int)len, path);
		if (access(buf, X_OK) == 0)
			return buf;
		path = colon ? colon + 1 : NULL;
	}
	return NULL;
}

/* Run [script] ([len] bytes) through gnuplot; 0 or -1 (message printed). */
static int gnuplot_run(const char *gp, const char *script, size_t len)
{
	int st, rc = gp_run(gp, script, len, &st);

	if (rc == -EIO) {
		fprintf(stderr,
			"iostrata-report plot: gnuplot failed (status %d)\n",
			st);
		return -1;
	}
	if (rc < 0) {
		fprintf(stderr, "iostrata-report plot: run %s: %s\n", gp,
			strerror(-rc));
		return -1;
	}
	return 0;
}

/* Close a script opened with open_memstream; 0 or -1 (message printed). */
static int script_close(FILE *fp)
{
	int bad = ferror(fp);

	if (fclose(fp) != 0 || bad) {
		fprintf(stderr, "iostrata-report plot: build script: %s\n",
			strerror(ENOMEM));
		return -1;
	}
	return 0;
}

/* Emit the same plot commands for PNG and SVG. */
static int render(const char *gp, const char *out, const char *body)
{
	char *script = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&script, &len);
	int rc;

	if (!fp)
		return -1;
	for (int k = 0; k < 2; k++) {
		fprintf(fp,
			"set terminal %s size 1000,700 noenhanced font 'Sans,11'\nset output ",
			k ? "svg" : "pngcairo");
		gp_fprintq(fp, "%s.%s", out, k ? "svg" : "png");
		fprintf(fp, "\n%s\nunset output\n", body);
	}
	if (script_close(fp)) {
		free(script);
		return -1;
	}
	rc = gnuplot_run(gp, script, len);
	free(script);
	if (!rc)
		printf("wrote %s.png %s.svg\n", out, out);
	return rc;
}

/* [prefix]-[kind]-[name], [name] made safe for a file name (letters,
 * digits, '-' and '.'; at most 100 of them): malloc'd, or NULL. */
static char *out_name(const char *prefix, const char *kind, const char *name)
{
	char part[101];
	char *out;

	snprintf(part, sizeof(part), "%.100s", name);
	for (char *s = part; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '-' || *s == '.'))
			*s = '_';
	if (asprintf(&out, "%s-%s-%s", prefix, kind, part) < 0)
		return NULL;
	return out;
}

/* [out].dat opened for writing (message printed when it fails). */
static FILE *dat_open(const char *out, const char *suffix, char **path)
{
	FILE *d;

	if (asprintf(path, "%s%s.dat", out, suffix) < 0) {
		*path = NULL;
		return NULL;
	}
	d = fopen(*path, "w");
	if (!d)
		fprintf(stderr, "iostrata-report plot: open %s: %s\n", *path,
			strerror(errno));
	return d;
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

static double run_mean(const struct report_run *rr, const char *phase,
		       const struct ios_fig_desc *f)
{
	for (int k = 0; k < rr->run->nphases; k++)
		if (!strcmp(rr->run->phases[k].name, phase)) {
			struct report_stats st;

			report_phase_stats(&rr->run->phases[k], f, &st);
			return st.n ? st.mean : NAN;
		}
	return NAN;
}

static int plot_heatmap(const char *gp, const char *prefix,
			const struct report_run *runs, size_t n, double osds)
{
	char names[16][16];
	size_t np = phase_names(runs, n, names, 16);
	int made = 0;

	for (size_t p = 0; p < np; p++) {
		const struct ios_fig_desc *f = ios_fig_headline(names[p]);
		double *xs = calloc(n + 1, sizeof(double)),
		       *ys = calloc(n + 1, sizeof(double));
		double base = NAN, bx = -1, by = -1;
		size_t nx = 0, ny = 0;
		char *out, *dat = NULL, *body = NULL;
		size_t blen = 0;
		FILE *d, *b;

		for (size_t i = 0; i < n; i++) {
			double v = run_mean(&runs[i], names[p], f);

			if (isnan(v) || runs[i].cpus <= 0 || !runs[i].mem)
				continue;
			xs[nx++] = runs[i].cpus / osds;
			ys[ny++] = runs[i].mem / osds / 1e9;
			/* baseline: the run with the most cores, then memory */
			if (runs[i].cpus > bx ||
			    (runs[i].cpus == bx && (double)runs[i].mem > by)) {
				bx = (double)runs[i].cpus;
				by = (double)runs[i].mem;
				base = v;
			}
		}
		nx = uniq(xs, nx);
		ny = uniq(ys, ny);
		if (nx == 0 || isnan(base)) {
			free(xs);
			free(ys);
			continue;
		}
		out = out_name(prefix, "heatmap", names[p]);
		d = out ? dat_open(out, "", &dat) : NULL;
		if (!d) {
			free(out);
			free(dat);
			free(xs);
			free(ys);
			return -1;
		}
		/* regular grid of cells; cells without a run stay NaN */
		for (size_t iy = 0; iy < ny; iy++) {
			for (size_t ix = 0; ix < nx; ix++) {
				double sum = 0;
				int cnt = 0;

				for (size_t i = 0; i < n; i++) {
					double v =
						run_mean(&runs[i], names[p], f);

					if (isnan(v) || runs[i].cpus <= 0 ||
					    !runs[i].mem ||
					    idx_of(xs, nx,
						   runs[i].cpus / osds) != ix ||
					    idx_of(ys, ny,
						   runs[i].mem / osds / 1e9) !=
						    iy)
						continue;
					sum += v;
					cnt++;
				}
				if (cnt)
					fprintf(d, "%zu %zu %.4f\n", ix, iy,
						sum / cnt / base);
				else
					fprintf(d, "%zu %zu NaN\n", ix, iy);
			}
			fprintf(d, "\n");
		}
		fclose(d);
		b = open_memstream(&body, &blen);
		if (b) {
			fprintf(b, "set title ");
			gp_fprintq(
				b,
				"%s: %s normalised to the unconstrained baseline (%.1f %s)",
				names[p], f->name, base * f->scale, f->dunit);
			fprintf(b,
				" noenhanced\nset xlabel 'cores per OSD'\nset ylabel 'memory per OSD [GB]'\nset cblabel ");
			gp_fprintq(b, "%s / baseline", f->name);
			fprintf(b,
				"\nset cbrange [0:1.2]\nset palette defined (0 '#b2182b', 0.6 '#f4a582', 0.9 '#f7f7f7', 1.0 '#92c5de', 1.2 '#2166ac')\nset xtics (");
			for (size_t ix = 0; ix < nx; ix++)
				fprintf(b, "%s'%.2g' %zu", ix ? ", " : "",
					xs[ix], ix);
			fprintf(b, ")\nset ytics (");
			for (size_t iy = 0; iy < ny; iy++)
				fprintf(b, "%s'%.3g' %zu", iy ? ", " : "",
					ys[iy], iy);
			fprintf(b,
				")\nset xrange [-0.5:%zu.5]\nset yrange [-0.5:%zu.5]\nunset key\nplot ",
				nx - 1, ny - 1);
			gp_fputq(b, dat);
			fprintf(b,
				" using 1:2:3 with image, '' using 1:2:(sprintf('%%.2f',$3)) with labels font ',12'\n");
		}
		if (b && script_close(b) == 0 && render(gp, out, body) == 0)
			made++;
		free(body);
		free(out);
		free(dat);
		free(xs);
		free(ys);
	}
	if (!made)
		fprintf(stderr,
			"iostrata-report plot: heatmap: no runs with applied cores and memory (attachments or job facts) to plot\n");
	return made ? 0 : -1;
}

static int plot_throttle(const char *gp, const char *prefix,
			 const struct report_run *runs, size_t n)
{
	char names[16][16];
	size_t np = phase_names(runs, n, names, 16);
	int made = 0;

	for (size_t p = 0; p < np; p++) {
		const struct ios_fig_desc *f = ios_fig_headline(names[p]);
		double *xs = calloc(n + 1, sizeof(double));
		size_t nx = 0, blen = 0;
		char *out, *dat = NULL, *body = NULL;
		FILE *d, *b;

		for (size_t i = 0; i < n; i++)
			if (runs[i].disk_bw &&
			    !isnan(run_mean(&runs[i], names[p], f)))
				xs[nx++] = (double)runs[i].disk_bw;
		nx = uniq(xs, nx);
		if (nx < 1) {
			free(xs);
			continue;
		}
		out = out_name(prefix, "throttle", names[p]);
		d = out ? dat_open(out, "", &dat) : NULL;
		if (!d) {
			free(out);
			free(dat);
			free(xs);
			return -1;
		}
		fprintf(d, "# throttle_MBps min mean max (%s)\n", f->dunit);
		for (size_t ix = 0; ix < nx; ix++) {
			double mn = INFINITY, mx = -INFINITY, sum = 0;
			int cnt = 0;

			for (size_t i = 0; i < n; i++) {
				if ((double)runs[i].disk_bw != xs[ix])
					continue;
				for (int k = 0; k < runs[i].run->nphases; k++) {
					const struct ios_phase_result *ph =
						&runs[i].run->phases[k];

					if (strcmp(ph->name, names[p]))
						continue;
					for (int r = 0; r < ph->nreps; r++) {
						double v;

						if (!ph->reps[r].valid)
							continue;
						v = ios_fig_value(
							    &ph->reps[r].fig,
							    f->id) *
						    f->scale;
						mn = fmin(mn, v);
						mx = fmax(mx, v);
						sum += v;
						cnt++;
					}
				}
			}
			if (cnt)
				fprintf(d, "%g %g %g %g\n", xs[ix] / 1e6, mn,
					sum / cnt, mx);
		}
		fclose(d);
		b = open_memstream(&body, &blen);
		if (b) {
			fprintf(b, "set title ");
			gp_fprintq(
				b,
				"%s: %s vs disk throttle (min-max band over valid repetitions)",
				names[p], f->name);
			fprintf(b,
				" noenhanced\nset xlabel 'disk throttle per OSD [MB/s]'\nset ylabel ");
			gp_fprintq(b, "%s [%s]", f->name, f->dunit);
			fprintf(b,
				"\nset key top left\nset grid\nset yrange [0:*]\nplot ");
			gp_fputq(b, dat);
			fprintf(b,
				" using 1:2:4 with filledcurves fc rgb '#9ecae1' fs transparent solid 0.5 title 'min-max', '' using 1:3 with linespoints lw 2 pt 7 lc rgb '#08519c' title 'mean', '' using 1:3:2:4 with yerrorbars lc rgb '#08519c' pt -1 title 'min-max'\n");
		}
		if (b && script_close(b) == 0 && render(gp, out, body) == 0)
			made++;
		free(body);
		free(out);
		free(dat);
		free(xs);
	}
	if (!made)
		fprintf(stderr,
			"iostrata-report plot: throttle: no runs with an applied disk throttle to plot\n");
	return made ? 0 : -1;
}

static int plot_timeline(const char *gp, const char *prefix,
			 const struct report_run *runs, size_t n)
{
	int made = 0;

	for (size_t i = 0; i < n; i++) {
		const struct ios_run *run = runs[i].run;

		for (int k = 0; k < run->nphases; k++) {
			const struct ios_phase_result *ph = &run->phases[k];
			const struct ios_rep_result *rep;
			char *out, *dat = NULL, *ends = NULL, *body = NULL,
				   lab[128], why[64];
			size_t blen = 0;
			double mark;
			uint32_t kb;
			FILE *d, *e, *b;

			if (!ph->nreps)
				continue;
			rep = &ph->reps[ph->nreps - 1];
			/* a long label is cut, the phase and repetition kept */
			snprintf(lab, sizeof(lab), "%.64s-%s-rep%d",
				 runs[i].label, ph->name, rep->rep);
			out = out_name(prefix, "timeline", lab);
			d = out ? dat_open(out, "", &dat) : NULL;
			e = d ? dat_open(out, "-ends", &ends) : NULL;
			if (!e) {
				if (d)
					fclose(d);
				free(out);
				free(dat);
				free(ends);
				return -1;
			}
			/* rate of rank r in (merged) interval s, MiB/s */
			kb = 1;
			for (int r = 0; r < rep->nranks; r++)
				if (rep->ranks[r].nsamples / 60 + 1 > kb)
					kb = rep->ranks[r].nsamples / 60 + 1;
			for (int r = 0; r < rep->nranks; r++) {
				const struct ios_rank_result *rr =
					&rep->ranks[r];
				double t0 = (rr->t_start_ns - rep->t_start_ns) /
					    1e9;

				/* at most ~60 bins per rank: merge k intervals
				 */
				for (uint32_t s = 0; s < rr->nsamples;
				     s += kb) {
					uint32_t e2 = s + kb < rr->nsamples
							      ? s + kb
							      : rr->nsamples;
					uint64_t prev =
						s ? rr->sample_bytes[s - 1] : 0;
					double span =
						(e2 - s) * rep->interval_s;

					fprintf(d, "%g %d %g\n",
						t0 + s * rep->interval_s +
							span / 2,
						r,
						(rr->sample_bytes[e2 - 1] -
						 prev) / span /
							1048576.0);
				}
				fprintf(d, "\n");
				fprintf(e, "%g %d %d\n",
					(rr->t_end_ns - rep->t_start_ns) / 1e9,
					r,
					rr->ended_early || rr->outlier ||
							rr->errors
						? 1
						: 0);
			}
			fclose(d);
			fclose(e);
			/* markers shrink as ranks grow, from 2 down to 0.5 */
			mark = rep->nranks > 0 ? 30.0 / rep->nranks : 2;
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
					kb * rep->interval_s, why);
				fprintf(b,
					" noenhanced\nset xlabel 'time since repetition start [s]'\nset ylabel 'rank'\n"
					"set cblabel 'rate [MiB/s]'\nset palette rgb 33,13,10\n"
					"set yrange [-0.5:%d.5]\nset offsets 0, 0.5, 0, 0\nset bmargin 6\nset key outside bottom center horizontal\n"
					"set style fill solid noborder\nplot ",
					rep->nranks - 1);
				gp_fputq(b, dat);
				fprintf(b,
					" using 1:2:(%g):(0.45):3 with boxxyerror palette notitle, ",
					kb * rep->interval_s / 2);
				gp_fputq(b, ends);
				fprintf(b,
					" using 1:2 with points pt 2 ps %.2f lc rgb 'black' title 'rank end', ",
					mark);
				gp_fputq(b, ends);
				fprintf(b,
					" using ($3 > 0 ? $1 : 1/0):2 with points pt 6 ps %.2f lw 2 lc rgb 'red' title 'ended early / erred / outlier'\n",
					2 * mark);
			}
			if (b && script_close(b) == 0 &&
			    render(gp, out, body) == 0)
				made++;
			free(body);
			free(out);
			free(dat);
			free(ends);
		}
	}
	return made ? 0 : -1;
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
	const char *kind = "heatmap,throttle,timeline", *prefix = "iostrata",
		   *gp;
	double osds = 1;
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
			prefix = optarg;
			if (!prefix[0] || gp_has_ctrl(prefix)) {
				fprintf(stderr,
					"iostrata-report plot: invalid value \"%s\" for --out (a path prefix without control characters)\n",
					optarg);
				return REPORT_EXIT_USAGE;
			}
			break;
		case 'O':
			osds = atof(optarg);
			if (osds <= 0) {
				fprintf(stderr,
					"iostrata-report plot: invalid value \"%s\" for --osds-per-node (a positive number)\n",
					optarg);
				return REPORT_EXIT_USAGE;
			}
			break;
		case 'h':
			printf("usage: iostrata-report plot [--kind=heatmap,throttle,timeline] [--out=PREFIX] [--osds-per-node=N] FILE...\n");
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
	gp = find_gnuplot();
	if (!gp) {
		fprintf(stderr,
			"iostrata-report plot: gnuplot not found (install gnuplot-nox, or set GNUPLOT=/path/to/gnuplot); show, export, efficiency, accept and trend work without it\n");
		return REPORT_EXIT_FAIL;
	}
	runs = report_load(argc - optind, argv + optind, &n, &nbad);
	if (strstr(kind, "heatmap") && plot_heatmap(gp, prefix, runs, n, osds))
		fails++;
	if (strstr(kind, "throttle") && plot_throttle(gp, prefix, runs, n))
		fails++;
	if (strstr(kind, "timeline") && plot_timeline(gp, prefix, runs, n))
		fails++;
	report_runs_free(runs, n);
	return nbad || fails ? REPORT_EXIT_FAIL : REPORT_EXIT_OK;
}
