/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_plot_timeline: iostrata-report plot --kind=timeline: per-rank
 * rate per sample interval, ranks x time, with each rank's end marked, so
 * stragglers and early finishers stand out.
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

/* The data of repetition [rep]: [d] the rate of each rank in each
 * (merged) interval, kb sample intervals per bin, MiB/s; [e] each rank's
 * end and whether it ended early, erred or is an outlier. */
static void timeline_data(FILE *d, FILE *e, const struct ios_rep_result *rep,
			  uint32_t kb)
{
	for (int r = 0; r < rep->nranks; r++) {
		const struct ios_rank_result *rr = &rep->ranks[r];
		double t0 = (rr->t_start_ns - rep->t_start_ns) / 1e9;

		for (uint32_t s = 0; s < rr->nsamples; s += kb) {
			uint32_t e2 =
				s + kb < rr->nsamples ? s + kb : rr->nsamples;
			uint64_t prev = s ? rr->sample_bytes[s - 1] : 0;
			double span = (e2 - s) * rep->interval_s;

			gp_fputnum(d, t0 + s * rep->interval_s + span / 2);
			fprintf(d, " %d ", r);
			gp_fputnum(d, (rr->sample_bytes[e2 - 1] - prev) / span /
					      1048576.0);
			fputc('\n', d);
		}
		fprintf(d, "\n");
		gp_fputnum(e, (rr->t_end_ns - rep->t_start_ns) / 1e9);
		fprintf(e, " %d %d\n", r,
			rr->ended_early || rr->outlier || rr->errors ? 1 : 0);
	}
}

/* The gnuplot script of repetition [rep] of [label]'s [phase] into [b]:
 * bins [width] seconds wide, the rank ends marked. */
static void timeline_script(FILE *b, const char *label, const char *phase,
			    const struct ios_rep_result *rep, double width)
{
	char why[64];
	double mark;

	/* markers shrink as ranks grow, from 2 down to 0.5 */
	mark = 30.0 / rep->nranks;
	mark = mark > 2 ? 2 : mark < 1 ? 1 : mark;
	snprintf(why, sizeof(why), "%.60s%s",
		 rep->valid ? "valid" : rep->invalid_reason,
		 strlen(rep->invalid_reason) > 60 ? "..." : "");
	fprintf(b, "set title ");
	gp_fprintq(b, "%s %s repetition %d: per-rank rate per %.3g s (%s)",
		   label, phase, rep->rep, width, why);
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

/* The timeline of the last repetition of phase [ph] of run [label],
 * counted in *made / *failed; -1 out of memory, else 0. */
static int timeline_one(struct plot_ctx *pc, const char *label,
			const struct ios_phase_result *ph, int *made,
			int *failed)
{
	const struct ios_rep_result *rep = &ph->reps[ph->nreps - 1];
	char *body = NULL, lab[128];
	size_t blen = 0;
	double width;
	uint32_t kb;
	struct plot_data pd[2];
	FILE *b;

	/* rate of rank r in (merged) interval s, MiB/s: at most ~60 bins
	 * per rank, merging kb intervals */
	kb = 1;
	for (int r = 0; r < rep->nranks; r++)
		if (rep->ranks[r].nsamples / 60 + 1 > kb)
			kb = rep->ranks[r].nsamples / 60 + 1;
	width = kb * rep->interval_s;
	/* the width goes into a gnuplot expression: nan or inf there would
	 * fail the plot */
	if (!(width > 0) || !isfinite(width) || rep->nranks <= 0) {
		fprintf(stderr,
			"iostrata-report plot: timeline %s %s repetition %d: %s: plot skipped\n",
			label, ph->name, rep->rep,
			rep->nranks <= 0
				? "no ranks"
				: "the sample interval is not a positive finite number of seconds");
		(*failed)++;
		return 0;
	}
	if (plot_data_open(&pd[0], "$dat", "") ||
	    plot_data_open(&pd[1], "$ends", "-ends")) {
		plot_data_free(pd, 2);
		return -1;
	}
	timeline_data(pd[0].fp, pd[1].fp, rep, kb);
	b = open_memstream(&body, &blen);
	if (b)
		timeline_script(b, label, ph->name, rep, width);
	/* a long label is cut, the phase and repetition kept */
	snprintf(lab, sizeof(lab), "%.64s-%s-rep%d", label, ph->name, rep->rep);
	plot_finish(pc, "timeline", lab, b, pd, 2, &body, made, failed);
	return 0;
}

int plot_timeline(struct plot_ctx *pc, const struct report_run *runs, size_t n)
{
	int made = 0, failed = 0;

	for (size_t i = 0; i < n; i++) {
		const struct ios_run *run = runs[i].run;

		for (int k = 0; k < run->nphases; k++)
			if (run->phases[k].nreps &&
			    timeline_one(pc, runs[i].label, &run->phases[k],
					 &made, &failed) < 0)
				return -1;
	}
	return made && !failed ? 0 : -1;
}
