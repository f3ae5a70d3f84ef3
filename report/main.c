/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iostrata-report: the command table and main().  Each command lives in its
 * own file (report_show.c, report_export.c; report.c: validate and what
 * the commands share; report_check.c: efficiency, trend; report_accept.c;
 * report_plot.c; report_advise.c; report_layers.c).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "report.h"
#include "report_advise.h"
#include "report_health.h"
#include "report_layers.h"
#include "report_threads.h"

struct report_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static const struct report_cmd report_cmds[] = {
	{"show", report_show,
	 "tables: mode x ranks per configuration, min/avg/max per run"},
	{"export", report_export,
	 "one row per run x phase x repetition x figure (--format=csv|json)"},
	{"plot", report_plot,
	 "PNG+SVG via gnuplot: heatmap, throttle curves, per-rank timeline"},
	{"efficiency", report_efficiency,
	 "measured / theoretical peak per replication factor (--site=FILE)"},
	{"accept", report_accept,
	 "PASS/FAIL against expected tiers (--tiers=FILE [--tier=NAME])"},
	{"trend", report_trend,
	 "latest run vs the last N of the same job (--prometheus=FILE)"},
	{"health", report_health,
	 "nightly health: tonight vs the history's index, per OSD, host, client, metric"},
	{"health-record", report_health_record,
	 "append one night's figures (or its failure) to the health index"},
	{"validate", report_validate, "check files against the results schema"},
	{"advise", report_advise,
	 "cheapest storage node meeting a target, from a campaign (jobs area)"},
	{"threads", report_threads,
	 "thread sweep (sweep-threads): seeds/001's MiB/s and req/s + latency tables"},
	{"layers", report_layers,
	 "layered runs: four layers, ceilings, verdict, Table 4 (measured and rated peak)"},
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: iostrata-report COMMAND [OPTIONS] FILE...\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(report_cmds) / sizeof(report_cmds[0]);
	     i++)
		fprintf(f, "  %-11s %s\n", report_cmds[i].name,
			report_cmds[i].help);
	fprintf(f,
		"\nFILE: results files or globs ('runs/*.h5'). 'iostrata-report COMMAND --help' for options.\n"
		"  --help      this text\n"
		"  --version   print the version\n"
		"Exit: 0 done (every check passed), 1 a check failed or a file could not be read,\n"
		"2 bad usage or input (a file whose counts and indices disagree too),\n"
		"3 (accept) a metric not measured and none failed;\n"
		"accept and advise say more under their --help.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return REPORT_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("iostrata-report %s (%s)\n", PACKAGE_VERSION,
		       IOSTRATA_GIT_REVISION);
		return 0;
	}
	for (size_t i = 0; i < sizeof(report_cmds) / sizeof(report_cmds[0]);
	     i++)
		if (!strcmp(argv[1], report_cmds[i].name))
			return report_cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "iostrata-report: unknown command \"%s\"\n", argv[1]);
	usage(stderr);
	return REPORT_EXIT_USAGE;
}
