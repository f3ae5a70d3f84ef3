/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_advise_plot: `advise --plot=PREFIX`: cost of the storage tier vs
 * the predicted score of every catalogue node, by basis (measured,
 * interpolated, extrapolated), rendered by gnuplot to PREFIX.png and .svg
 * (PREFIX.dat and PREFIX.gp kept for the reader).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gnuplot.h"
#include "report_advise_int.h"
#include "safefile.h"

#define PROG ADV_PROG

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

int adv_plot_cands(const char *prefix, const struct adv_cand *cd, size_t n,
		   long best, long sure, const struct adv_target *t,
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
	fprintf(fp, "# cost score score_lo(clipped at 0) basis(0 measured 1 "
		    "interpolated 2 extrapolated above 3 below) mark(1 advised "
		    "2 cheapest sure) label score_lo_unclipped\n");
	for (size_t i = 0; i < n; i++) {
		const struct adv_cand *x = &cd[i];
		int mark = (long)i == best ? 1 : (long)i == sure ? 2 : 0;
		char name[160] = "";

		if (x->where >= SF_UNMODELLED)
			continue;
		gp_fputnum(fp, x->cost);
		fputc(' ', fp);
		gp_fputnum(fp, x->score);
		fputc(' ', fp);
		gp_fputnum(fp, isinf(x->score_lo) ? x->score : x->score_lo);
		fprintf(fp, " %d %d ", (int)x->where, mark);
		/* the node by name on the marked ones: the disk class comes
		 * from the site file, so it is a data-file string */
		if (mark)
			adv_cand_name(x, name, sizeof(name));
		gp_fputd(fp, name);
		fputc(' ', fp);
		gp_fputnum(fp,
			   isinf(x->score_lo_raw) ? x->score : x->score_lo_raw);
		fputc('\n', fp);
	}
	if ((rc = mem_close(fp, err)) < 0)
		goto out;
	fp = mem_open(&body, &blen, err);
	if (!fp) {
		rc = -ENOMEM;
		goto out;
	}
	fprintf(fp, "set title 'Storage tier cost vs predicted score (worst "
		    "targeted metric / baseline)'\n");
	fprintf(fp, "set xlabel ");
	gp_fprintq(fp, "cost of the storage tier [%s]", cur);
	fprintf(fp, "\nset ylabel 'predicted score (bar: to the lower end "
		    "of the 95%% interval)'\n");
	/* relative performance is never negative (intervals clipped at 0):
	 * the axis starts at 0, with no margin below */
	fprintf(fp,
		"set grid\nset key outside below horizontal maxrows 2 width -4\nset yrange [0:*]\n");
	fprintf(fp, "set offsets graph 0.05, graph 0.05, graph 0.1, 0\n");
	fprintf(fp,
		"plot $adv using 1:($4 == 1 ? $2 : 1/0):3:2 with yerrorbars "
		"pt 7 ps 0.8 lc rgb '#1f77b4' title 'interpolated', \\\n"
		"     '' using 1:($4 == 0 ? $2 : 1/0):3:2 with yerrorbars pt 5 "
		"ps 1 lc rgb '#2ca02c' title 'measured', \\\n"
		"     '' using 1:($4 >= 2 ? $2 : 1/0) with points pt 6 ps 0.8 "
		"lc rgb '#7f7f7f' title 'extrapolated', \\\n"
		"     '' using 1:($5 == 1 ? $2 : 1/0) with points pt 6 ps 3 lw "
		"2 lc rgb '#d62728' title 'advised', \\\n"
		"     '' using 1:($5 == 2 ? $2 : 1/0) with points pt 4 ps 3 lw "
		"2 lc rgb '#9467bd' title 'cheapest whose interval meets the "
		"target', \\\n"
		"     '' using 1:($5 > 0 ? $2 : 1/0):6 with labels left offset "
		"2,-1 font ',8' notitle, \\\n"
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
