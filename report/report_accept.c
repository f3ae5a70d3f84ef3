/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_accept: iostrata-report accept, site acceptance against a vendor's
 * per-client tier table (seeds/002).  Loads the files and the tiers, hands
 * them to model/accept.c (the verdict), which report_accept_print.c prints
 * as text, Markdown, JSON or a self-contained HTML page.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accept.h"
#include "report.h"
#include "report_accept.h"
#include "siteconf.h"
#include "units.h"

#define ACC_DEFAULT_TOL 0.15

struct tier_list {
	char names[16][128];
	size_t n;
};

static int tier_cb(const char *section, const char *name, void *arg)
{
	struct tier_list *t = arg;

	(void)section;
	if (t->n < 16)
		snprintf(t->names[t->n++], sizeof(t->names[0]), "%s", name);
	return 0;
}

/* Tier [name] of [site] into [t].  0, or -EINVAL with [err] set. */
static int load_tier(const struct ios_site *site, const char *name,
		     struct ios_acc_tier *t, struct ios_err *err)
{
	char sec[160];
	uint64_t u;
	const char *v;
	int any = 0;

	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s", name);
	snprintf(sec, sizeof(sec), "tier \"%s\"", name);
	for (int m = 0; m < IOS_ACC_NMETRICS; m++) {
		const struct ios_acc_metric_desc *d = &ios_acc_metrics[m];
		double x;
		int rc;

		if (!ios_site_get(site, sec, d->key))
			continue;
		if (d->iops) {
			rc = ios_site_get_double(site, sec, d->key, &x, err);
		} else {
			rc = ios_site_get_rate(site, sec, d->key, &u, err);
			x = (double)u;
		}
		if (rc < 0)
			return rc;
		if (!(x > 0))
			return ios_errf(
				err, -EINVAL,
				"%s: %s.%s: an expected value must be above 0",
				ios_site_path(site), sec, d->key);
		t->has[m] = true;
		t->expected[m] = x;
		any = 1;
	}
	if (!any)
		return ios_errf(
			err, -EINVAL,
			"%s: %s sets no metric (accepted: {rand,seq}_{read,write}_bw, {rand,seq}_{read,write}_iops)",
			ios_site_path(site), sec);
	t->method.iodepth = -1;
	t->method.direct = -1;
	if (ios_site_get_size(site, sec, "bw_bs", &u, NULL) == 0)
		t->method.bw_bs = u;
	if (ios_site_get_size(site, sec, "iops_bs", &u, NULL) == 0)
		t->method.iops_bs = u;
	if (ios_site_get_size(site, sec, "file_size", &u, NULL) == 0)
		t->method.file_size = u;
	if (ios_site_get_uint(site, sec, "iodepth", &u, NULL) == 0)
		t->method.iodepth = u > 1 << 20 ? 1 << 20 : (int)u;
	if (ios_site_get_uint(site, sec, "direct", &u, NULL) == 0)
		t->method.direct = u != 0;
	v = ios_site_get(site, sec, "ioengine");
	if (v)
		snprintf(t->method.ioengine, sizeof(t->method.ioengine), "%s",
			 v);
	return 0;
}

static int exit_of(enum ios_acc_status s)
{
	return s == IOS_ACC_PASS   ? REPORT_EXIT_OK
	       : s == IOS_ACC_FAIL ? REPORT_EXIT_FAIL
				   : REPORT_EXIT_NOTRUN;
}

/* accept's command line. */
struct acc_args {
	const char *tiers, *only, *site_path;
	double tol; /* < 0: not given */
	enum acc_format fmt;
	const char *profile;  /* NULL / "tiers", or "nersc" */
	int partition_nodes;  /* --partition-nodes; 0: not given */
	double data_factor;   /* --data-factor; 0: not given */
	bool plan;            /* --plan (nersc): print the job's plan */
	uint64_t ram, seq_bs; /* --ram, --seq-bs (the plan) */
	int ranks_per_node;   /* --ranks-per-node (the plan) */
};

/* [opt]=N: a node count, 1..1000000.  0, or -EINVAL said. */
static int parse_count(const char *arg, const char *opt, int *out)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (end == arg || *end || v < 1 || v > 1000000) {
		fprintf(stderr,
			"iostrata-report accept: %s: invalid value \"%s\" (accepted: a node count, 1 to 1000000)\n",
			opt, arg);
		return -EINVAL;
	}
	*out = (int)v;
	return 0;
}

/* [opt]=SIZE (common/units.h: 4K, 1M, 24G).  0, or -EINVAL said. */
static int parse_bytes(const char *arg, const char *opt, uint64_t *out)
{
	struct ios_err err = {0};

	if (ios_parse_size(arg, opt, out, &err) < 0 || !*out) {
		fprintf(stderr, "iostrata-report accept: %s\n",
			err.msg[0] ? err.msg : "a size above 0 is needed");
		return -EINVAL;
	}
	return 0;
}

/* [opt]=X: a factor above 0, at most 100.  0, or -EINVAL said. */
static int parse_factor(const char *arg, const char *opt, double *out)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || *end || !(v > 0) || v > 100) {
		fprintf(stderr,
			"iostrata-report accept: %s: invalid value \"%s\" (accepted: a number above 0, e.g. 1.5)\n",
			opt, arg);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

/* --fio-tolerance=X: a fraction or a percentage.  0, or -EINVAL said. */
static int parse_tol(const char *arg, double *tol)
{
	char *end;

	*tol = strtod(arg, &end);
	if (*end == '%') {
		*tol /= 100;
		end++;
	}
	if (end == arg || *end || !(*tol >= 0) || *tol > 10) {
		fprintf(stderr,
			"iostrata-report accept: invalid value \"%s\" for --fio-tolerance (a fraction, e.g. 0.15 or 15%%)\n",
			arg);
		return -EINVAL;
	}
	return 0;
}

/* --format=NAME.  0, or -EINVAL said. */
static int parse_format(const char *arg, enum acc_format *fmt)
{
	if (!strcmp(arg, "text"))
		*fmt = ACC_TEXT;
	else if (!strcmp(arg, "md"))
		*fmt = ACC_MD;
	else if (!strcmp(arg, "json"))
		*fmt = ACC_JSON;
	else if (!strcmp(arg, "html"))
		*fmt = ACC_HTML;
	else {
		fprintf(stderr,
			"iostrata-report accept: unknown format \"%s\" (accepted: text, md, json, html)\n",
			arg);
		return -EINVAL;
	}
	return 0;
}

/* The options into [a]: 0 to go on, 1 after --help, or REPORT_EXIT_USAGE
 * (said on stderr). */
static int parse_args(int argc, char **argv, struct acc_args *a)
{
	static const struct option opts[] = {
		{"tiers", required_argument, NULL, 't'},
		{"tier", required_argument, NULL, 'T'},
		{"site", required_argument, NULL, 's'},
		{"fio-tolerance", required_argument, NULL, 'f'},
		{"format", required_argument, NULL, 'F'},
		{"profile", required_argument, NULL, 'P'},
		{"partition-nodes", required_argument, NULL, 'N'},
		{"data-factor", required_argument, NULL, 'D'},
		{"plan", no_argument, NULL, 'L'},
		{"ram", required_argument, NULL, 'M'},
		{"ranks-per-node", required_argument, NULL, 'R'},
		{"seq-bs", required_argument, NULL, 'B'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "t:T:s:f:F:P:N:D:LM:R:B:h", opts,
				NULL)) != -1) {
		switch (c) {
		case 't':
			a->tiers = optarg;
			break;
		case 'T':
			a->only = optarg;
			break;
		case 's':
			a->site_path = optarg;
			break;
		case 'f':
			if (parse_tol(optarg, &a->tol) < 0)
				return REPORT_EXIT_USAGE;
			break;
		case 'F':
			if (parse_format(optarg, &a->fmt) < 0)
				return REPORT_EXIT_USAGE;
			break;
		case 'P':
			if (strcmp(optarg, "tiers") &&
			    strcmp(optarg, "nersc")) {
				fprintf(stderr,
					"iostrata-report accept: --profile: unknown profile \"%s\" (accepted: tiers, nersc)\n",
					optarg);
				return REPORT_EXIT_USAGE;
			}
			a->profile = optarg;
			break;
		case 'N':
			if (parse_count(optarg, "--partition-nodes",
					&a->partition_nodes) < 0)
				return REPORT_EXIT_USAGE;
			break;
		case 'D':
			if (parse_factor(optarg, "--data-factor",
					 &a->data_factor) < 0)
				return REPORT_EXIT_USAGE;
			break;
		case 'L':
			a->plan = true;
			break;
		case 'M':
		case 'B':
			if (parse_bytes(optarg, c == 'M' ? "--ram" : "--seq-bs",
					c == 'M' ? &a->ram : &a->seq_bs) < 0)
				return REPORT_EXIT_USAGE;
			break;
		case 'R':
			if (parse_count(optarg, "--ranks-per-node",
					&a->ranks_per_node) < 0)
				return REPORT_EXIT_USAGE;
			break;
		case 'h':
			printf("usage: iostrata-report accept [--tiers=FILE] [--tier=NAME] [--site=SITE.conf] [--fio-tolerance=0.15] [--format=text|md|json|html] FILE...\n"
			       "       iostrata-report accept --profile=nersc [--partition-nodes=N] [--data-factor=1.5] [--site=SITE.conf] [--format=text|md|json] FILE...\n"
			       "--profile=nersc: the NERSC-10-style profile (no tier table): sequential N-to-N and N-to-1, random 4 KiB N-to-N at 1 node, ~15%% and all of the partition (--partition-nodes, default the largest run), write and read from the same run, data written >= 1.5 x the clients' RAM (--data-factor: smaller only for a scaled-down test site, reported as such)\n"
			       "       iostrata-report accept --profile=nersc --plan --partition-nodes=N --ram=SIZE --ranks-per-node=N [--seq-bs=1M] [--data-factor=1.5]: the acceptance job's levels and sizes per rank, as shell assignments\n"
			       "exit: 0 all PASS, 1 some FAIL, 3 some NOTRUN and none FAIL, 2 bad input\n");
			return 1;
		default:
			return REPORT_EXIT_USAGE;
		}
	}
	return 0;
}

/* --site: its [accept] tiers, tier and fio_tolerance where the command
 * line gave none.  0, or -1 said on stderr. */
static int apply_site(struct acc_args *a, struct ios_site **site)
{
	struct ios_err err = {0};
	double d;

	if (ios_site_load(a->site_path, site, &err) < 0) {
		fprintf(stderr, "iostrata-report accept: %s\n", err.msg);
		return -1;
	}
	if (!a->tiers)
		a->tiers = ios_site_get(*site, "accept", "tiers");
	if (!a->only)
		a->only = ios_site_get(*site, "accept", "tier");
	if (a->tol < 0 && ios_site_get_double(*site, "accept", "fio_tolerance",
					      &d, NULL) == 0)
		a->tol = d;
	if (!a->profile)
		a->profile = ios_site_get(*site, "accept", "profile");
	if (!a->data_factor &&
	    ios_site_get_double(*site, "accept", "nersc_data_factor", &d,
				NULL) == 0) {
		if (!(d > 0)) {
			fprintf(stderr,
				"iostrata-report accept: %s: accept.nersc_data_factor: %g must be above 0\n",
				a->site_path, d);
			return -1;
		}
		a->data_factor = d;
	}
	return 0;
}

/* The tiers file [ts] and its [tier "NAME"] sections into [tl], --tier
 * among them.  0, or -1 said on stderr. */
static int load_tiers(const struct acc_args *a, struct ios_site **ts,
		      struct tier_list *tl)
{
	struct ios_err err = {0};
	int found = 0;

	if (ios_site_load(a->tiers, ts, &err) < 0) {
		fprintf(stderr, "iostrata-report accept: %s\n", err.msg);
		return -1;
	}
	ios_site_sections(*ts, "tier", tier_cb, tl);
	if (!tl->n) {
		fprintf(stderr,
			"iostrata-report accept: %s has no [tier \"NAME\"] sections\n",
			a->tiers);
		return -1;
	}
	if (!a->only)
		return 0;
	for (size_t t = 0; t < tl->n; t++)
		found |= !strcmp(a->only, tl->names[t]);
	if (found)
		return 0;
	fprintf(stderr,
		"iostrata-report accept: no tier \"%s\" in %s (tiers:", a->only,
		a->tiers);
	for (size_t t = 0; t < tl->n; t++)
		fprintf(stderr, " \"%s\"", tl->names[t]);
	fprintf(stderr, ")\n");
	return -1;
}

/* The runs and their fio attachments into [set].  0, or -1 said. */
static int add_runs(struct ios_acc_set *set, const struct report_run *runs,
		    size_t n)
{
	struct ios_err err = {0};

	for (size_t i = 0; i < n; i++) {
		int r = ios_acc_add_run(set, runs[i].run, runs[i].path);

		if (r >= 0)
			r = ios_acc_add_fio_attachments(set, runs[i].run,
							runs[i].path, &err);
		if (r == -ENOMEM) {
			fprintf(stderr,
				"iostrata-report accept: %s: out of memory\n",
				runs[i].path);
			return -1;
		}
		if (r < 0) {
			fprintf(stderr, "iostrata-report accept: %s\n",
				err.msg);
			return -1;
		}
	}
	return 0;
}

/* Judge [set] against each tier (or --tier) and print each verdict in the
 * format.  The exit code: one tier asked, its verdict's; all tiers, the
 * best tier's; REPORT_EXIT_USAGE if a tier does not load. */
static int judge_tiers(const struct acc_args *a, const struct ios_site *ts,
		       const struct tier_list *tl,
		       const struct ios_acc_set *set, json_t *jall)
{
	enum ios_acc_status best = IOS_ACC_FAIL, worst = IOS_ACC_PASS;
	struct ios_err err = {0};

	for (size_t t = 0; t < tl->n; t++) {
		struct ios_acc_tier tier;
		struct ios_acc_verdict v;

		if (a->only && strcmp(a->only, tl->names[t]))
			continue;
		if (load_tier(ts, tl->names[t], &tier, &err) < 0) {
			fprintf(stderr, "iostrata-report accept: %s\n",
				err.msg);
			return REPORT_EXIT_USAGE;
		}
		if (ios_acc_judge(&tier, set, a->tol, &v) < 0) {
			fprintf(stderr,
				"iostrata-report accept: judge tier \"%s\": out of memory\n",
				tier.name);
			return REPORT_EXIT_USAGE;
		}
		acc_print_tier(a->fmt, &tier, a->tiers, &v, a->tol, jall);
		if (v.status < best)
			best = v.status;
		if (v.status > worst)
			worst = v.status;
		ios_acc_verdict_clear(&v);
	}
	return exit_of(a->only ? worst : best);
}

/* --profile=nersc: no tier table; the runs judged by model/nersc.c. */
static int accept_nersc(const struct acc_args *a, int argc, char **argv,
			struct ios_site *site)
{
	static const char *const fmts[] = {
		[ACC_TEXT] = "text", [ACC_MD] = "md", [ACC_JSON] = "json"};
	struct report_run *runs = NULL;
	size_t n = 0;
	int nbad, rc = REPORT_EXIT_USAGE;

	if (a->plan) {
		rc = report_nersc_plan(
			a->partition_nodes, a->ram, a->ranks_per_node,
			a->seq_bs ? a->seq_bs : 1u << 20, a->data_factor);
		goto out;
	}
	if (a->fmt == ACC_HTML) {
		fprintf(stderr,
			"iostrata-report accept: --format=html: not with --profile=nersc (accepted: text, md, json)\n");
		goto out;
	}
	if (optind >= argc) {
		fprintf(stderr,
			"iostrata-report accept: no results files given\n");
		goto out;
	}
	runs = report_load(argc - optind, argv + optind, &n, &nbad);
	if (nbad)
		goto out; /* report_load named each file and its problem */
	rc = report_nersc(runs, n, a->partition_nodes, a->data_factor,
			  fmts[a->fmt]);
out:
	report_runs_free(runs, n);
	ios_site_free(site);
	return rc;
}

int report_accept(int argc, char **argv)
{
	struct acc_args a = {.tol = -1, .fmt = ACC_TEXT};
	struct ios_site *site = NULL, *ts = NULL;
	struct tier_list tl = {0};
	struct ios_acc_set set = {0};
	struct report_run *runs = NULL;
	json_t *jall = NULL;
	size_t n = 0;
	int nbad, rc;

	rc = parse_args(argc, argv, &a);
	if (rc)
		return rc == 1 ? 0 : rc;
	rc = REPORT_EXIT_USAGE;
	if (a.site_path && apply_site(&a, &site) < 0)
		return REPORT_EXIT_USAGE;
	if (a.tol < 0)
		a.tol = ACC_DEFAULT_TOL;
	if (a.profile && !strcmp(a.profile, "nersc"))
		return accept_nersc(&a, argc, argv, site);
	if (!a.tiers) {
		fprintf(stderr,
			"iostrata-report accept: --tiers=FILE is required, or --site with [accept] tiers (INI with [tier \"NAME\"] sections: {rand,seq}_{read,write}_{bw,iops}, the method: bw_bs, iops_bs, ioengine, iodepth, file_size, direct)\n");
		goto out;
	}
	if (optind >= argc) {
		fprintf(stderr,
			"iostrata-report accept: no results files given\n");
		goto out;
	}
	if (load_tiers(&a, &ts, &tl) < 0)
		goto out;
	runs = report_load(argc - optind, argv + optind, &n, &nbad);
	if (nbad)
		goto out; /* report_load named each file and its problem */
	if (add_runs(&set, runs, n) < 0)
		goto out;
	acc_print_head(a.fmt, a.tol, &jall);
	rc = judge_tiers(&a, ts, &tl, &set, jall);
	acc_print_tail(a.fmt, runs, n, jall, rc);
out:
	ios_acc_set_clear(&set);
	report_runs_free(runs, n);
	ios_site_free(ts);
	ios_site_free(site);
	return rc;
}
