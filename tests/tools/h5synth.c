/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iostrata-h5synth: write synthetic results files through the real writer
 * (tests and the report benchmark; not installed).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h5run.h"
#include "hwinfo.h"
#include "synth.h"
#include "units.h"

/* What main() takes beside the synthetic run's shape. */
struct extras {
	const char *node_files[64], *hw_dir, *attach;
	int nnode_files;
};

static int bad(const struct ios_err *err)
{
	fprintf(stderr, "iostrata-h5synth: %s\n", err->msg);
	return 2;
}

/* The options into [s] and [o]: -1 to go on, else the exit code. */
static int parse_opts(int argc, char **argv, struct ios_synth *s,
		      struct extras *o)
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
		{"req-cpus", required_argument, NULL, 'C'},
		{"req-mem", required_argument, NULL, 'M'},
		{"disk-bw", required_argument, NULL, 'd'},
		{"replication", required_argument, NULL, 'P'},
		{"straggler", required_argument, NULL, 's'},
		{"early", required_argument, NULL, 'e'},
		{"seed", required_argument, NULL, 'S'},
		{"job-name", required_argument, NULL, 'j'},
		{"samples", required_argument, NULL, 'n'},
		{"node-json", required_argument, NULL, 'J'},
		{"hw-dir", required_argument, NULL, 'H'},
		{"print-node-json", required_argument, NULL, 'X'},
		{"attach", required_argument, NULL, 'A'},
		{NULL, 0, NULL, 0},
	};
	struct ios_err err = {0};
	uint64_t v;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'N':
			s->nnodes = atoi(optarg);
			break;
		case 'r':
			s->ranks_per_node = atoi(optarg);
			break;
		case 'p':
			s->phases = optarg;
			break;
		case 'R':
			s->nreps = atoi(optarg);
			break;
		case 'n':
			s->nsamples = atoi(optarg);
			break;
		case 'b':
			if (ios_parse_size(optarg, "--bs", &v, &err) < 0)
				return bad(&err);
			s->bs = v;
			break;
		case 'w':
			if (ios_parse_rate(optarg, "--rank-bw", &v, &err) < 0)
				return bad(&err);
			s->rank_bw = (double)v;
			break;
		case 'c':
			s->cpus = atoi(optarg);
			break;
		case 'm':
			if (ios_parse_size(optarg, "--mem", &v, &err) < 0)
				return bad(&err);
			s->mem = v;
			break;
		case 'M':
			if (ios_parse_size(optarg, "--req-mem", &v, &err) < 0)
				return bad(&err);
			s->req_mem = v;
			break;
		case 'C':
			s->req_cpus = atoi(optarg);
			break;
		case 'd':
			if (ios_parse_rate(optarg, "--disk-bw", &v, &err) < 0)
				return bad(&err);
			s->disk_bw = v;
			break;
		case 'P':
			s->replication = atoi(optarg);
			break;
		case 's':
			s->straggler = atoi(optarg);
			break;
		case 'e':
			s->early_rank = atoi(optarg);
			break;
		case 'S':
			s->seed = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'j':
			s->job_name = optarg;
			break;
		case 'J':
			if (o->nnode_files < 64)
				o->node_files[o->nnode_files++] = optarg;
			break;
		case 'H':
			o->hw_dir = optarg;
			break;
		case 'A':
			o->attach = optarg;
			break;
		case 'X': {
			/* run on each node (srun): print this node's JSON */
			char *j = ios_hw_node_json(optarg);

			if (!j)
				return 1;
			puts(j);
			free(j);
			return 0; /* done: no file written */
		}
		default:
			fprintf(stderr,
				"usage: iostrata-h5synth [options] OUT.h5\n");
			return 2;
		}
	}
	return -1;
}

/* Real metadata and an attachment instead of the synthetic ones, when
 * asked: 0, or the exit code. */
static int overrides(struct ios_run *run, const struct extras *o)
{
	/* real metadata instead of the synthetic one, when asked */
	for (int i = 0; i < o->nnode_files && i < run->nnodes; i++) {
		FILE *f = fopen(o->node_files[i], "r");
		char *text = NULL;
		size_t len = 0;

		if (!f || getdelim(&text, &len, '\0', f) < 0) {
			fprintf(stderr, "iostrata-h5synth: read %s: %s\n",
				o->node_files[i], strerror(errno));
			if (f)
				fclose(f);
			return 1;
		}
		fclose(f);
		free(run->node_json[i]);
		run->node_json[i] = text;
	}
	if (o->hw_dir) {
		/* the defaults: $CEPH_CONF, client.admin, $CEPH_KEYRING */
		char *j = ios_hw_ceph_json(NULL, o->hw_dir);

		free(run->ceph_json);
		run->ceph_json = j;
		j = ios_hw_job_json();
		free(run->job_json);
		run->job_json = j;
	}
	if (o->attach) {
		const char *eq = strchr(o->attach, '=');
		FILE *f = eq ? fopen(eq + 1, "r") : NULL;
		char *text = NULL;
		size_t len = 0;

		if (!f || getdelim(&text, &len, '\0', f) < 0) {
			fprintf(stderr,
				"iostrata-h5synth: --attach NAME=FILE: cannot read \"%s\"\n",
				o->attach);
			return 2;
		}
		fclose(f);
		free(run->attachments[0].key);
		free(run->attachments[0].value);
		run->attachments[0].key =
			strndup(o->attach, (size_t)(eq - o->attach));
		run->attachments[0].value = text;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct extras o;
	struct ios_synth s;
	struct ios_err err = {0};
	struct ios_run *run;
	int rc;

	ios_synth_defaults(&s);
	rc = parse_opts(argc, argv, &s, &o);
	if (rc >= 0)
		return rc;
	if (optind != argc - 1) {
		fprintf(stderr, "usage: iostrata-h5synth [options] OUT.h5\n");
		return 2;
	}
	run = ios_synth_run(&s);
	if (!run) {
		fprintf(stderr, "iostrata-h5synth: out of memory\n");
		return 1;
	}
	rc = overrides(run, &o);
	if (rc) {
		ios_synth_free(run);
		return rc;
	}
	rc = ios_h5_write_run(argv[optind], run, &err);
	ios_synth_free(run);
	if (rc < 0) {
		fprintf(stderr, "iostrata-h5synth: %s\n", err.msg);
		return 1;
	}
	return 0;
}
