/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_advise: `iostrata-report advise`: the command line, the targets
 * and the campaign directories (index.tsv of `iostrata-campaign collect`,
 * results files read in isolation).  The model and the catalogue search
 * are in report_advise_search.c, the plot in report_advise_plot.c.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h5iso.h"
#include "report.h"
#include "report_advise_int.h"
#include "results.h"
#include "siteconf.h"
#include "units.h"

#define PROG ADV_PROG

static const char *const metric_names[ADV_NMETRICS] = {
	"seq-write", "seq-read", "rand-write", "rand-read"};

const char *adv_metric_name(enum adv_metric m)
{
	return metric_names[m];
}

int adv_parse_targets(const char *s, struct adv_target *t, struct ios_err *err)
{
	char *copy, *tok, *save = NULL;
	int n = 0, rc = 0;

	memset(t, 0, sizeof(*t));
	if (!s || !*s)
		return ios_errf(
			err, -EINVAL,
			PROG
			": --target: empty: expected METRIC=RATIO[,...] with METRIC one of seq-write, seq-read, rand-write, rand-read");
	copy = strdup(s);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '='), *end;
		double r;
		int m;

		if (!eq) {
			rc = ios_errf(
				err, -EINVAL,
				PROG
				": --target: invalid item \"%s\": expected METRIC=RATIO, e.g. seq-write=0.9",
				tok);
			break;
		}
		*eq = '\0';
		for (m = 0; m < ADV_NMETRICS; m++)
			if (strcmp(tok, metric_names[m]) == 0)
				break;
		if (m == ADV_NMETRICS) {
			rc = ios_errf(
				err, -EINVAL,
				PROG
				": --target: unknown metric \"%s\": accepted: seq-write, seq-read, rand-write, rand-read",
				tok);
			break;
		}
		errno = 0;
		r = strtod(eq + 1, &end);
		if (end == eq + 1 || *end || errno || !(r > 0) || r > 2) {
			rc = ios_errf(
				err, -EINVAL,
				PROG
				": --target: invalid ratio \"%s\" for %s: expected a number in (0, 2], relative to the baseline (0.9 = 90%%)",
				eq + 1, tok);
			break;
		}
		t->ratio[m] = r;
		n++;
	}
	free(copy);
	if (!rc && n == 0)
		rc = ios_errf(err, -EINVAL, PROG ": --target: no metric given");
	return rc;
}

/* ---- loading ------------------------------------------------------ */

static int h5_reader(const char *path, struct adv_config *cfg,
		     struct ios_err *err)
{
	struct ios_run *run = NULL;
	int rc = ios_h5_read_run_isolated(path, NULL, &run, err);

	if (rc < 0)
		return rc;
	{
		struct report_run rr = {.path = (char *)path, .run = run};

		report_derive(&rr);
		if (rr.replication > 0)
			cfg->replication = rr.replication;
		free(rr.label_buf);
		free(rr.job_buf);
	}
	for (int p = 0; p < run->nphases; p++) {
		const struct ios_phase_result *ph = &run->phases[p];
		int m;

		if (strcmp(ph->name, "write") == 0)
			m = ADV_SEQ_WRITE;
		else if (strcmp(ph->name, "read") == 0)
			m = ADV_SEQ_READ;
		else if (strcmp(ph->name, "randwrite") == 0)
			m = ADV_RAND_WRITE;
		else if (strcmp(ph->name, "randread") == 0)
			m = ADV_RAND_READ;
		else
			continue;
		for (int r = 0; r < ph->nreps; r++) {
			const struct ios_rep_result *rep = &ph->reps[r];

			double v = m <= ADV_SEQ_READ ? rep->fig.stonewall_bw
						     : rep->fig.stonewall_iops;

			/* too short to stonewall: no figure to fit */
			if (!rep->valid || !isfinite(v) ||
			    cfg->nreps[m] >= ADV_MAX_REPS)
				continue;
			cfg->reps[m][cfg->nreps[m]++] = v;
		}
	}
	ios_run_free(run);
	return 0;
}

int adv_load_campaign(const char *dir, adv_reader_fn reader,
		      struct adv_config **out, struct ios_err *err)
{
	char path[4096], line[8192];
	struct adv_config *c = NULL;
	size_t n = 0;
	FILE *fp;
	int rc = 0, lineno = 0;

	*out = NULL;
	snprintf(path, sizeof(path), "%s/index.tsv", dir);
	fp = fopen(path, "re");
	if (!fp)
		return ios_errf(
			err, -errno,
			PROG
			": open %s: %s (run `iostrata-campaign collect` first)",
			path, strerror(errno));
	while (fgets(line, sizeof(line), fp)) {
		char *f[9], *save = NULL, *p = line;
		unsigned long long cpus, mem, bw;
		int nf = 0, elem;
		struct adv_config *x = NULL;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || strncmp(line, "element\t", 8) == 0 ||
		    !line[0])
			continue;
		for (char *tok = strtok_r(p, "\t", &save); tok && nf < 9;
		     tok = strtok_r(NULL, "\t", &save))
			f[nf++] = tok;
		if (nf < 8 || sscanf(f[0], "%d", &elem) != 1 ||
		    sscanf(f[2], "%llu", &cpus) != 1 ||
		    sscanf(f[3], "%llu", &mem) != 1 ||
		    sscanf(f[4], "%llu", &bw) != 1) {
			rc = ios_errf(
				err, -EINVAL,
				PROG
				": %s:%d: malformed index line: expected element, label, cpus, mem_bytes, disk_bw_Bps, jobid, state, file[, note]",
				path, lineno);
			break;
		}
		for (size_t i = 0; i < n; i++)
			if (strcmp(c[i].label, f[1]) == 0)
				x = &c[i];
		if (!x) {
			struct adv_config *nc =
				realloc(c, (n + 1) * sizeof(*c));

			if (!nc) {
				rc = -ENOMEM;
				break;
			}
			c = nc;
			x = &c[n++];
			memset(x, 0, sizeof(*x));
			snprintf(x->label, sizeof(x->label), "%s", f[1]);
			x->element = elem;
			{
				const char *b = strrchr(dir, '/');

				/* "DIR/" names the directory before it */
				snprintf(x->campaign, sizeof(x->campaign),
					 "%.47s", b && b[1] ? b + 1 : dir);
			}
			x->cpus = cpus;
			x->mem = mem;
			x->disk_bw = bw;
		}
		if (strcmp(f[6], "DONE") != 0) {
			x->failed = 1;
			continue;
		}
		if (strcmp(f[7], "-") == 0)
			continue;
		if (nf > 8 && strstr(f[8], "not an HDF5 file"))
			continue;
		rc = reader(f[7], x, err);
		if (rc == -ERANGE)
			break; /* inconsistent: refused, exit 2 */
		if (rc < 0) {
			/* a bad file marks its element, the rest still counts
			 */
			fprintf(stderr, "%s\n", err ? err->msg : "read failed");
			x->failed = 1;
			rc = 0;
		}
	}
	fclose(fp);
	if (rc < 0) {
		free(c);
		return rc;
	}
	if (n == 0) {
		free(c);
		return ios_errf(err, -EINVAL,
				PROG ": %s: no elements in the index", path);
	}
	*out = c;
	return (int)n;
}

/* ---- the subcommand ------------------------------------------------ */

/* [cfg] ran the node [ch]: 0 stands for the full node's cores or
 * memory; memory within 1% (the plugin's read-back tolerance). */
static bool same_node(const struct adv_config *cfg, const struct adv_choice *ch)
{
	uint64_t cores = cfg->cpus ? cfg->cpus : ch->full_cores;
	uint64_t mem = cfg->mem ? cfg->mem : ch->full_mem;

	return cores == ch->cores &&
	       fabs((double)mem - (double)ch->mem) <= 0.01 * (double)ch->mem &&
	       cfg->disk_bw == ch->disk_bw;
}

int adv_check(FILE *out, FILE *errf, const char *dir,
	      const struct adv_choice *ch, const struct adv_config *c, size_t n)
{
	char want[32], got[32];
	int outside = 0, compared = 0;

	ios_fmt_size(ch->mem, want, sizeof(want));
	for (size_t i = 0; i < n; i++) {
		if (c[i].failed || same_node(&c[i], ch))
			continue;
		ios_fmt_size(c[i].mem ? c[i].mem : ch->full_mem, got,
			     sizeof(got));
		fprintf(errf,
			PROG
			": --check %s: element %s ran %llu cores, %s, %s disks, not the advised node (%llu cores, %s, %s disks): nothing compared\n",
			dir, c[i].label,
			(unsigned long long)(c[i].cpus ? c[i].cpus
						       : ch->full_cores),
			got, c[i].disk_bw ? "throttled" : "the installed",
			(unsigned long long)ch->cores, want,
			ch->disk_bw ? ch->disk : "the installed");
		return 2;
	}
	fprintf(out, "\nCheck: the advised node measured again (%s):\n", dir);
	for (int m = 0; m < ADV_NMETRICS; m++) {
		double sum = 0, lo = INFINITY, hi = -INFINITY, rel;
		int k = 0;

		if (!ch->fitted[m])
			continue;
		for (size_t i = 0; i < n; i++)
			for (int r = 0; !c[i].failed && r < c[i].nreps[m];
			     r++) {
				double v = c[i].reps[m][r] / ch->base[m];

				sum += v;
				lo = fmin(lo, v);
				hi = fmax(hi, v);
				k++;
			}
		if (k == 0 || !(ch->base[m] > 0)) {
			fprintf(out, "  %s: %s: cannot compare\n",
				adv_metric_name((enum adv_metric)m),
				k ? "the model has no base value"
				  : "no valid repetition in the check run");
			continue;
		}
		rel = sum / k;
		compared++;
		fprintf(out,
			"  %s: measured %.2f of the baseline (mean of %d repetition%s, %.2f..%.2f), predicted %.2f",
			adv_metric_name((enum adv_metric)m), rel, k,
			k == 1 ? "" : "s", lo, hi, ch->rel[m]);
		if (isnan(ch->lo[m]) || isnan(ch->hi[m])) {
			fprintf(out,
				" with no interval: within or not cannot be said (the sweep measured this node once)\n");
			outside++;
		} else if (rel >= ch->lo[m] && rel <= ch->hi[m]) {
			fprintf(out, " [%.2f..%.2f]: within the interval\n",
				ch->lo[m], ch->hi[m]);
		} else {
			fprintf(out,
				" [%.2f..%.2f]: OUTSIDE the interval: %s\n",
				ch->lo[m], ch->hi[m],
				hi >= ch->lo[m] && lo <= ch->hi[m]
					? "the check run's own repetitions straddle it (its spread is wider than the sweep's): more repetitions would settle it"
					: "every repetition of the check run is outside it: the node behaved differently from the sweep (drift between the runs, or the model is wrong here): remeasure the sweep near this node");
			outside++;
		}
	}
	if (!compared) {
		fprintf(errf,
			PROG
			": --check %s: no valid repetition of a targeted metric: nothing compared\n",
			dir);
		return 2;
	}
	return outside ? 1 : 0;
}

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: iostrata-report advise --site=SITE --target=METRIC=RATIO[,...] [--plot=PREFIX] [--all] [--replication=N] [--check=DIR] CAMPAIGN_DIR...\n"
		"  The cheapest storage node of the site's catalogue (cores x memory from\n"
		"  [catalogue], drive classes from [disk \"NAME\"]) whose predicted performance is at\n"
		"  least RATIO x the baseline for every METRIC (seq-write, seq-read, rand-write,\n"
		"  rand-read); the baseline is the campaigns' unconstrained baseline (the elements\n"
		"  with no --iostrata-* option, as the heatmaps and throttle curves), else the\n"
		"  largest configuration swept, named in the output.  The campaigns (collected by `iostrata-campaign collect`): a cores x\n"
		"  memory sweep and/or a disk-speed sweep of the same site and replication factor.\n"
		"  A monotone model is fitted to them: each value says whether it is measured,\n"
		"  interpolated or extrapolated, with a 95%% interval (repetition spread for measured,\n"
		"  leave-one-out error for modelled values); the knees of the disk-speed and memory\n"
		"  curves are located with their intervals.  Prices: SITE [prices], [disk ...].\n"
		"  --plot=PREFIX writes PREFIX.png, PREFIX.svg (gnuplot), PREFIX.dat, PREFIX.gp.\n"
		"  --all lists every node of the catalogue, not only the cost/score frontier.\n"
		"  --check=DIR: a collected campaign that ran the advised node: each targeted\n"
		"  metric measured there against its predicted interval (a campaign of another\n"
		"  node is refused).\n"
		"  --replication=N: the configurations of replication factor N only (a campaign\n"
		"  with [sweep] replication has several; one model is fitted per factor).\n"
		"exit: 0 advice given, 1 no node meets the target, 2 bad input,\n"
		"      3 advice given but some elements failed (resubmit them: the answer may change),\n"
		"      4 --check: a metric of the advised node measured outside its interval\n");
}

/*
 * A campaign with several replication factors ([sweep] replication): the
 * configurations of factor [want] only (one model per factor), compacted
 * in [c] (*k updated); without [want] such a campaign is refused.  0, or
 * -1 said on [errf].
 */
static int pick_replication(const char *dir, struct adv_config *c, int *k,
			    int want, FILE *errf)
{
	char seen[64] = "";
	int nseen = 0, m = 0, first = 0;
	bool multi = false;

	for (int i = 0; i < *k; i++) {
		char one[8];

		if (!c[i].replication)
			continue;
		if (!first)
			first = c[i].replication;
		multi |= c[i].replication != first;
		snprintf(one, sizeof(one), " %d,", c[i].replication);
		if (!strstr(seen, one) &&
		    strlen(seen) + strlen(one) < sizeof(seen)) {
			strcat(seen, one);
			nseen++;
		}
	}
	if (nseen)
		seen[strlen(seen) - 1] = '\0'; /* the last comma */
	if (!want) {
		if (!multi)
			return 0;
		fprintf(errf,
			PROG
			": %s has configurations at replication%s: one model is fitted per replication factor: choose one with --replication=N\n",
			dir, seen);
		return -1;
	}
	for (int i = 0; i < *k; i++)
		if (c[i].replication == want)
			c[m++] = c[i];
	if (m == 0) {
		fprintf(errf,
			PROG
			": %s has no configuration at replication %d (%s%s)\n",
			dir, want,
			nseen ? "its factors:" : "its factor is unknown", seen);
		return -1;
	}
	*k = m;
	return 0;
}

/* advise's command line. */
struct adv_args {
	const char *site_path, *target, *plot, *check;
	uint64_t want_repl; /* --replication; 0: not given */
	bool all;
};

/* The options into [a]: -1 to go on (optind at the first campaign
 * directory), else the exit code (--help, or a message printed). */
static int adv_parse_args(int argc, char **argv, struct adv_args *a, FILE *out,
			  FILE *errf)
{
	static const struct option longopts[] = {
		{"site", required_argument, NULL, 's'},
		{"target", required_argument, NULL, 't'},
		{"plot", required_argument, NULL, 'p'},
		{"all", no_argument, NULL, 'a'},
		{"check", required_argument, NULL, 'c'},
		{"replication", required_argument, NULL, 'r'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct ios_err err = {0};
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 's':
			a->site_path = optarg;
			break;
		case 't':
			a->target = optarg;
			break;
		case 'p':
			a->plot = optarg;
			break;
		case 'a':
			a->all = true;
			break;
		case 'c':
			a->check = optarg;
			break;
		case 'r':
			if (ios_parse_uint(optarg, "--replication", 1, 10,
					   &a->want_repl, &err) < 0) {
				fprintf(errf, PROG ": %s\n", err.msg);
				return ADV_EXIT_USAGE;
			}
			break;
		case 'h':
			usage(out);
			return ADV_EXIT_OK;
		default:
			usage(errf);
			return ADV_EXIT_USAGE;
		}
	}
	if (optind >= argc || !a->site_path || !a->target) {
		fprintf(errf, PROG
			": need --site, --target and at least one campaign directory\n");
		usage(errf);
		return ADV_EXIT_USAGE;
	}
	return -1;
}

/* The campaigns dirs[0..ndirs), each of one replication factor ([want]
 * when given), all of the same: their configurations appended to *[c]
 * (*[n] of them), their failed elements counted in *[nfailed], each
 * campaign named on [out].  0, or -1 (a message on [errf]). */
static int adv_load_all(char **dirs, int ndirs, adv_reader_fn reader, int want,
			FILE *out, FILE *errf, struct adv_config **c, size_t *n,
			int *nfailed)
{
	struct ios_err err = {0};
	int repl = 0;

	for (int a = 0; a < ndirs; a++) {
		struct adv_config *one = NULL, *nc;
		int k = adv_load_campaign(dirs[a], reader, &one, &err);
		int r = 0;

		if (k < 0) {
			fprintf(errf, "%s\n", err.msg);
			return -1;
		}
		if (pick_replication(dirs[a], one, &k, want, errf) < 0) {
			free(one);
			return -1;
		}
		for (int i = 0; i < k; i++) {
			*nfailed += one[i].failed;
			if (one[i].replication && !r)
				r = one[i].replication;
		}
		fprintf(out,
			"Campaign %s: %d configuration(s), replication %s%d\n",
			dirs[a], k, r ? "" : "unknown ", r);
		if (r && repl && r != repl) {
			fprintf(errf,
				PROG
				": %s has replication %d, an earlier campaign %d: one model is fitted per replication factor (run advise once per factor)\n",
				dirs[a], r, repl);
			free(one);
			return -1;
		}
		repl = repl ? repl : r;
		nc = realloc(*c, (*n + (size_t)k) * sizeof(**c));
		if (!nc) {
			fprintf(errf, PROG ": %s\n", strerror(ENOMEM));
			free(one);
			return -1;
		}
		*c = nc;
		memcpy(*c + *n, one, (size_t)k * sizeof(**c));
		*n += (size_t)k;
		free(one);
	}
	return 0;
}

/* --check=DIR: the campaign that ran the chosen node measured against
 * [choice]; the exit code [rc] as it changes (ADV_EXIT_CHECK when
 * outside the interval, ADV_EXIT_USAGE when DIR does not load). */
static int adv_check_dir(const char *check, adv_reader_fn reader,
			 const struct adv_choice *choice, int rc, FILE *out,
			 FILE *errf)
{
	struct ios_err err = {0};
	struct adv_config *cc = NULL;
	int k = adv_load_campaign(check, reader, &cc, &err), crc;

	if (k < 0) {
		fprintf(errf, "%s\n", err.msg);
		return ADV_EXIT_USAGE;
	}
	crc = adv_check(out, errf, check, choice, cc, (size_t)k);
	free(cc);
	if (crc == 2)
		return ADV_EXIT_USAGE;
	if (crc == 1 && rc == ADV_EXIT_OK)
		return ADV_EXIT_CHECK;
	return rc;
}

int adv_run(int argc, char **argv, adv_reader_fn reader, FILE *out, FILE *errf)
{
	struct adv_args a = {0};
	struct adv_choice choice;
	struct ios_site *site = NULL;
	struct adv_config *c = NULL;
	struct adv_target t;
	struct ios_err err = {0};
	size_t n = 0;
	int rc, nfailed = 0, nmeets = 0;

	rc = adv_parse_args(argc, argv, &a, out, errf);
	if (rc >= 0)
		return rc;
	rc = ADV_EXIT_USAGE;
	if (adv_parse_targets(a.target, &t, &err) < 0) {
		fprintf(errf, "%s\n", err.msg);
		return ADV_EXIT_USAGE;
	}
	if (ios_site_load(a.site_path, &site, &err) < 0) {
		fprintf(errf, PROG ": %s\n", err.msg);
		return ADV_EXIT_USAGE;
	}
	if (adv_load_all(argv + optind, argc - optind, reader, (int)a.want_repl,
			 out, errf, &c, &n, &nfailed) < 0)
		goto out;
	fprintf(out, "Targets (relative to the baseline):");
	for (int m = 0; m < ADV_NMETRICS; m++)
		if (t.ratio[m] > 0)
			fprintf(out, " %s >= %.2f", metric_names[m],
				t.ratio[m]);
	fprintf(out, "\n");
	memset(&choice, 0, sizeof(choice));
	rc = adv_model_advise(out, errf, site, c, n, &t, a.plot, a.all, &nmeets,
			      &choice);
	if (a.check && (rc == ADV_EXIT_OK || rc == ADV_EXIT_INCOMPLETE)) {
		rc = adv_check_dir(a.check, reader, &choice, rc, out, errf);
		if (rc == ADV_EXIT_USAGE)
			goto out;
	}
	if (rc == ADV_EXIT_NONE && nmeets == 0)
		fprintf(errf,
			PROG
			": no node meets %s: lower the target or extend the sweep\n",
			a.target);
	if (nfailed && rc == ADV_EXIT_OK) {
		fprintf(errf,
			PROG
			": %d element(s) of the campaigns failed and were not considered: resubmit them (iostrata-campaign submit ... --resume), the advice may change\n",
			nfailed);
		rc = ADV_EXIT_INCOMPLETE;
	}
out:
	free(c);
	ios_site_free(site);
	return rc;
}

int report_advise(int argc, char **argv)
{
	return adv_run(argc, argv, h5_reader, stdout, stderr);
}
