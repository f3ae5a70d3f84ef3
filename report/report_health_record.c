/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_health_record: `iostrata-report health-record`: a night's
 * figures (given, and per compute node from results files) appended to
 * the health index, or the night recorded as failed.
 *
 *   health-record --index=FILE --night=STAMP [--figure=L,C,H,M,V]...
 *                 [--failed=REASON] [FILE.h5...]
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "figures.h"
#include "lathist.h"
#include "report.h"
#include "report_health.h"
#include "safefile.h"

#define PROG "iostrata-report"

/* Append "night ok key value" for [k], [v] to [out]; -1 when it is full. */
static int add_row(char *out, size_t cap, size_t *len, const char *night,
		   const struct hl_key *k, double v)
{
	int w = snprintf(out + *len, cap - *len,
			 "%s\tok\t%s\t%s\t%s\t%s\t%.9g\n", night, k->layer,
			 k->comp, k->host, k->metric, v);

	if (w < 0 || (size_t)w >= cap - *len)
		return -1;
	*len += (size_t)w;
	return 0;
}

/* The latency quantile [q] of node [nd]'s ranks in [rep]: their histogram
 * rows merged.  NAN when there are none. */
static double node_lat_quantile(const struct ios_run *run,
				const struct ios_rep_result *rep, int nd,
				double q, struct ios_lathist *h)
{
	ios_lathist_init(h);
	if (!rep->lat_hist)
		return NAN;
	for (int i = 0; i < rep->nranks; i++) {
		int r = rep->ranks[i].rank;

		if (r < 0 || r >= run->nranks || run->rank_info[r].node != nd)
			continue;
		ios_lathist_merge_parts(
			h, rep->lat_hist + (size_t)i * IOS_LAT_BUCKETS,
			&rep->ranks[i].lat);
	}
	return ios_lathist_quantile(h->count, h->n, q, h->min_ns, h->max_ns);
}

/* The client figures of [run], per node: rate and latency p50/p99 per
 * phase, means over the valid repetitions, appended to [out]. */
static int client_rows(const struct ios_run *run, const char *night, char *out,
		       size_t cap, size_t *len)
{
	int nn = run->nnodes;
	double *bw, *iops, *sum;
	int *cnt;
	struct ios_lathist *h;
	int rc = 0;

	if (nn <= 0 || nn > 100000 || !run->rank_info)
		return 0;
	bw = calloc((size_t)nn, sizeof(*bw));
	iops = calloc((size_t)nn, sizeof(*iops));
	sum = calloc((size_t)nn * 4, sizeof(*sum));
	cnt = calloc((size_t)nn, sizeof(*cnt));
	h = malloc(sizeof(*h));
	if (!bw || !iops || !sum || !cnt || !h) {
		rc = -1;
		goto out;
	}
	for (int k = 0; k < run->nphases && !rc; k++) {
		const struct ios_phase_result *ph = &run->phases[k];
		bool rnd = !strncmp(ph->name, "rand", 4);
		char base[40];

		if (ph->layer[0])
			continue;
		snprintf(base, sizeof(base), "%s_%s", rnd ? "rand" : "seq",
			 rnd ? ph->name + 4 : ph->name);
		memset(sum, 0, (size_t)nn * 4 * sizeof(*sum));
		memset(cnt, 0, (size_t)nn * sizeof(*cnt));
		for (int r = 0; r < ph->nreps; r++) {
			const struct ios_rep_result *rep = &ph->reps[r];

			if (!rep->valid)
				continue;
			ios_node_rates(rep, run->rank_info, nn, bw, iops);
			for (int nd = 0; nd < nn; nd++) {
				double p50 =
					node_lat_quantile(run, rep, nd, 0.5, h);
				double p99 = node_lat_quantile(run, rep, nd,
							       0.99, h);

				if (isnan(p50) || isnan(p99))
					continue;
				sum[nd * 4] += bw[nd];
				sum[nd * 4 + 1] += iops[nd];
				sum[nd * 4 + 2] += p50;
				sum[nd * 4 + 3] += p99;
				cnt[nd]++;
			}
		}
		for (int nd = 0; nd < nn && !rc; nd++) {
			struct hl_key key = {.layer = "client"};
			const char *host = NULL;
			static const char *const what[4] = {
				"bw", "iops", "lat_p50", "lat_p99"};

			if (!cnt[nd])
				continue;
			for (int i = 0; i < run->nranks && !host; i++)
				if (run->rank_info[i].node == nd)
					host = run->rank_info[i].host;
			if (!host || !hl_name_ok(host, sizeof(key.host))) {
				fprintf(stderr,
					PROG
					" health-record: node %d of the run has no usable host name: its figures left out\n",
					nd);
				continue;
			}
			snprintf(key.comp, sizeof(key.comp), "%s", host);
			snprintf(key.host, sizeof(key.host), "%s", host);
			for (int w = 0; w < 4 && !rc; w++) {
				/* a sequential phase's rate in B/s, a random
				 * one's in op/s */
				if ((w == 0 && rnd) || (w == 1 && !rnd))
					continue;
				snprintf(key.metric, sizeof(key.metric),
					 "%s_%s", base, what[w]);
				rc = add_row(out, cap, len, night, &key,
					     sum[nd * 4 + w] / cnt[nd]);
			}
		}
	}
out:
	free(bw);
	free(iops);
	free(sum);
	free(cnt);
	free(h);
	return rc;
}

/* --figure=LAYER,COMPONENT,HOST,METRIC,VALUE into [k], [v]; 0 or -1. */
static int parse_figure(const char *arg, struct hl_key *k, double *v)
{
	char buf[256], *f[5], *p, *end;
	int n = 0;

	if (strlen(arg) >= sizeof(buf))
		return -1;
	strcpy(buf, arg);
	for (p = buf; n < 5; n++) {
		f[n] = p;
		p = strchr(p, ',');
		if (!p)
			break;
		*p++ = '\0';
	}
	if (n != 4 || p)
		return -1;
	if (!hl_name_ok(f[0], sizeof(k->layer)) ||
	    !hl_name_ok(f[1], sizeof(k->comp)) ||
	    !hl_name_ok(f[2], sizeof(k->host)) ||
	    !hl_name_ok(f[3], sizeof(k->metric)))
		return -1;
	errno = 0;
	*v = strtod(f[4], &end);
	if (errno || end == f[4] || *end || !isfinite(*v) || *v < 0)
		return -1;
	memset(k, 0, sizeof(*k));
	strcpy(k->layer, f[0]);
	strcpy(k->comp, f[1]);
	strcpy(k->host, f[2]);
	strcpy(k->metric, f[3]);
	return 0;
}

/* A failed night's line, its reason made one line of printable text. */
static int failed_row(char *out, size_t cap, size_t *len, const char *night,
		      const char *reason)
{
	int w = snprintf(out + *len, cap - *len, "%s\tfailed\t-\t-\t-\t-\t",
			 night);

	if (w < 0 || (size_t)w >= cap - *len)
		return -1;
	*len += (size_t)w;
	for (size_t i = 0; reason[i] && i < 400 && *len + 2 < cap; i++) {
		unsigned char c = (unsigned char)reason[i];

		out[(*len)++] = c < 0x20 || c == 0x7f ? ' ' : (char)c;
	}
	out[(*len)++] = '\n';
	out[*len] = '\0';
	return 0;
}

int report_health_record(int argc, char **argv)
{
	static const struct option opts[] = {
		{"index", required_argument, NULL, 'i'},
		{"night", required_argument, NULL, 'n'},
		{"figure", required_argument, NULL, 'f'},
		{"failed", required_argument, NULL, 'x'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *index = NULL, *night = NULL, *failed = NULL;
	size_t cap = 1 << 20, len = 0;
	char *out = malloc(cap);
	struct ios_err err = {0};
	struct stat st;
	int c, rc = REPORT_EXIT_OK, nfig = 0;

	if (!out)
		return REPORT_EXIT_FAIL;
	out[0] = '\0';
	optind = 1;
	while ((c = getopt_long(argc, argv, "i:n:f:x:h", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			index = optarg;
			break;
		case 'n':
			night = optarg;
			break;
		case 'x':
			failed = optarg;
			break;
		case 'f':
			break; /* checked below, once the night is known */
		case 'h':
			printf("usage: iostrata-report health-record --index=FILE --night=YYYYMMDDTHHMMSSZ [--figure=LAYER,COMPONENT,HOST,METRIC,VALUE]... [--failed=REASON] [FILE.h5...]\n");
			free(out);
			return 0;
		default:
			free(out);
			return REPORT_EXIT_USAGE;
		}
	}
	if (!index || !night || !hl_night_ok(night)) {
		fprintf(stderr,
			PROG
			" health-record: --index=FILE and --night=YYYYMMDDTHHMMSSZ (UTC) are required%s%s%s\n",
			night ? " (not \"" : "", night ? night : "",
			night ? "\")" : "");
		free(out);
		return REPORT_EXIT_USAGE;
	}
	if (hl_check_index_path(index, &err) < 0) {
		fprintf(stderr, PROG " health-record: %s\n", err.msg);
		free(out);
		return REPORT_EXIT_USAGE;
	}
	if (lstat(index, &st) < 0)
		len = (size_t)snprintf(out, cap, "%s", HL_INDEX_HEADER);
	optind = 1;
	while ((c = getopt_long(argc, argv, "i:n:f:x:h", opts, NULL)) != -1) {
		struct hl_key k;
		double v;

		if (c != 'f')
			continue;
		if (parse_figure(optarg, &k, &v) < 0) {
			fprintf(stderr,
				PROG
				" health-record: invalid --figure \"%s\" (accepted: LAYER,COMPONENT,HOST,METRIC,VALUE: names of 1-15, 63, 63, 47 characters of A-Z a-z 0-9 . _ : -, a finite VALUE >= 0)\n",
				optarg);
			free(out);
			return REPORT_EXIT_USAGE;
		}
		if (add_row(out, cap, &len, night, &k, v) < 0)
			goto full;
		nfig++;
	}
	if (optind < argc) {
		size_t n;
		int nbad;
		struct report_run *runs =
			report_load(argc - optind, argv + optind, &n, &nbad);

		for (size_t i = 0; i < n; i++)
			if (client_rows(runs[i].run, night, out, cap, &len) <
			    0) {
				report_runs_free(runs, n);
				goto full;
			}
		report_runs_free(runs, n);
		if (nbad) {
			rc = report_load_exit(nbad);
			if (!failed)
				failed = "a results file could not be read";
		}
	}
	if (failed && failed_row(out, cap, &len, night, failed) < 0)
		goto full;
	(void)nfig;
	if (sf_append(index, out, len, &err) < 0) {
		fprintf(stderr, PROG " health-record: %s\n", err.msg);
		free(out);
		return REPORT_EXIT_FAIL;
	}
	free(out);
	return rc;
full:
	fprintf(stderr,
		PROG
		" health-record: more than 1 MiB of figures for one night: nothing appended to %s\n",
		index);
	free(out);
	return REPORT_EXIT_FAIL;
}
