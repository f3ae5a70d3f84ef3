/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_plot: iostrata-report plot, through gnuplot, to PNG and SVG: the
 * command (its options, the runs, which kinds).  What the kinds share is
 * in report_plot_common.c; the kinds, each its own file:
 *  - heatmap (report_plot_heatmap.c): cores per OSD x memory per OSD;
 *  - throttle (report_plot_throttle.c): a figure vs disk throttle;
 *  heatmaps and throttle curves once per replication factor when the runs
 *  have several;
 *  - timeline (report_plot_timeline.c): per-rank rate per sample
 *    interval, ranks x time.
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
