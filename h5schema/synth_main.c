/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iostrata-h5synth: write synthetic results files through the real writer
 * (tests and the report benchmark; not installed).
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h5run.h"
#include "synth.h"
#include "units.h"

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"nodes", required_argument, NULL, 'N'},
		{"ranks-per-node", required_argument, NULL, 'r'},
		{"phases", required_argument, NULL, 'p'},
		{"reps", required_argument, NULL, 'R'},
		{"bs", required_argument, NULL, 'b'},
		{"rank-bw", required_argument, NULL, 'w'},
		{"cpus", required_argument, NULL, 'c'},
		{"mem", required_argument, NULL, 'm'},
		{"disk-bw", required_argument, NULL, 'd'},
		{"replication", required_argument, NULL, 'P'},
		{"straggler", required_argument, NULL, 's'},
		{"early", required_argument, NULL, 'e'},
		{"seed", required_argument, NULL, 'S'},
		{"job-name", required_argument, NULL, 'j'},
		{"samples", required_argument, NULL, 'n'},
		{NULL, 0, NULL, 0},
	};
	struct ios_synth s;
	struct ios_err err = {0};
	struct ios_run *run;
	uint64_t v;
	int c, rc;

	ios_synth_defaults(&s);
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'N':
			s.nnodes = atoi(optarg);
			break;
		case 'r':
			s.ranks_per_node = atoi(optarg);
			break;
		case 'p':
			s.phases = optarg;
			break;
		case 'R':
			s.nreps = atoi(optarg);
			break;
		case 'n':
			s.nsamples = atoi(optarg);
			break;
		case 'b':
			if (ios_parse_size(optarg, "--bs", &v, &err) < 0)
				goto bad;
			s.bs = v;
			break;
		case 'w':
			if (ios_parse_rate(optarg, "--rank-bw", &v, &err) < 0)
				goto bad;
			s.rank_bw = (double)v;
			break;
		case 'c':
			s.cpus = atoi(optarg);
			break;
		case 'm':
			if (ios_parse_size(optarg, "--mem", &v, &err) < 0)
				goto bad;
			s.mem = v;
			break;
		case 'd':
			if (ios_parse_rate(optarg, "--disk-bw", &v, &err) < 0)
				goto bad;
			s.disk_bw = v;
			break;
		case 'P':
			s.replication = atoi(optarg);
			break;
		case 's':
			s.straggler = atoi(optarg);
			break;
		case 'e':
			s.early_rank = atoi(optarg);
			break;
		case 'S':
			s.seed = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'j':
			s.job_name = optarg;
			break;
		default:
			fprintf(stderr,
				"usage: iostrata-h5synth [options] OUT.h5\n");
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: iostrata-h5synth [options] OUT.h5\n");
		return 2;
	}
	run = ios_synth_run(&s);
	if (!run) {
		fprintf(stderr, "iostrata-h5synth: out of memory\n");
		return 1;
	}
	rc = ios_h5_write_run(argv[optind], run, &err);
	ios_synth_free(run);
	if (rc < 0) {
		fprintf(stderr, "iostrata-h5synth: %s\n", err.msg);
		return 1;
	}
	return 0;
bad:
	fprintf(stderr, "iostrata-h5synth: %s\n", err.msg);
	return 2;
}
