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
		"Usage: iostrata-facts [--sysroot=DIR] [--role=storage|client] [--applied=FILE] [--dir=DIR]\n"
		"Print this host's record (hardware, Slurm, role, SPANK shape) as JSON.\n"
		"\n"
		"Options:\n"
		"  --sysroot=DIR            read /sys and /proc below DIR instead of / (tests)\n"
		"  --role=storage|client    the host's role in the record\n"
		"  --applied=FILE           the SPANK plugin's applied file of this host's shape\n"
		"  --dir=DIR                the benchmark's target directory (its filesystem and device)\n"
		"  -h, --help               this text\n"
		"  --version                print the version\n"
		"\n"
		"Exit: 0 record printed, 1 out of memory or stdout not writable, 2 bad usage.\n");
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{"sysroot", required_argument, NULL, 's'},
		{"role", required_argument, NULL, 'r'},
		{"applied", required_argument, NULL, 'a'},
		{"dir", required_argument, NULL, 'd'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
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
		case 'V':
			printf("iostrata-facts %s (%s)\n", PACKAGE_VERSION,
			       IOSTRATA_GIT_REVISION);
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
