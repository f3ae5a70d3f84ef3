/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iostrata-facts: print this host's full record (hwinfo.h,
 * ios_hw_host_json) as one JSON line, for hosts where no benchmark rank
 * runs: the job scripts run it on each storage host and hand the files to
 * iostrata-bench --host-facts.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwinfo.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: iostrata-facts [--sysroot=DIR] [--role=storage|client] [--applied=FILE] [--dir=DIR]\nPrint this host's record (hardware, Slurm, role, SPANK shape) as JSON.\n");
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{"sysroot", required_argument, NULL, 's'},
		{"role", required_argument, NULL, 'r'},
		{"applied", required_argument, NULL, 'a'},
		{"dir", required_argument, NULL, 'd'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct ios_hw_host_opts o = {0};
	const char *root = "/";
	char *s;
	int c;

	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 's':
			root = optarg;
			break;
		case 'r':
			if (strcmp(optarg, "storage") &&
			    strcmp(optarg, "client")) {
				fprintf(stderr,
					"iostrata-facts: --role: invalid value \"%s\": expected storage or client\n",
					optarg);
				return 2;
			}
			o.role = optarg;
			o.role_source = "iostrata-facts --role";
			break;
		case 'a':
			o.applied_file = optarg;
			break;
		case 'd':
			o.target_dir = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "iostrata-facts: unexpected argument \"%s\"\n",
			argv[optind]);
		return 2;
	}
	s = ios_hw_host_json(root, &o);
	if (!s) {
		fprintf(stderr,
			"iostrata-facts: build the record: out of memory\n");
		return 1;
	}
	if (printf("%s\n", s) < 0 || fflush(stdout)) {
		perror("iostrata-facts: write stdout");
		free(s);
		return 1;
	}
	free(s);
	return 0;
}
