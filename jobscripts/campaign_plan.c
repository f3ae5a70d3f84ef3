/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * campaign_plan: a job over a site's sweep, as elements (one Slurm job
 * each): their labels and --iostrata-* options.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <glob.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include "campaign.h"
#include "safefile.h"
#include "siteconf.h"
#include "slurmcompat.h"
#include "units.h"

#include "campaign_internal.h"

static const char *const jobs[] = {
	"sweep-cores-mem", "sweep-disk-bw",  "sweep-threads",
	"layered",         "nightly-health", "acceptance",
};

/* ------------------------------------------------------------ elements */

/* Print bytes as the shortest exact form: 32G, 64M, 4K, else bytes. */
static void fmt_size_exact(uint64_t v, char *buf, size_t len)
{
	static const char units[] = "KMGT";
	int u = -1;

	while (v && v % 1024 == 0 && u < 3) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)v, units[u]);
}

/* Rates: decimal MB when exact (the paper's 100..275 MB/s), else bytes. */
static void fmt_rate_exact(uint64_t v, char *buf, size_t len)
{
	if (v && v % 1000000 == 0)
		snprintf(buf, len, "%lluMB", (unsigned long long)(v / 1000000));
	else if (v && v % (1024 * 1024) == 0)
		snprintf(buf, len, "%lluM", (unsigned long long)(v >> 20));
	else
		snprintf(buf, len, "%llu", (unsigned long long)v);
}

void camp_elements_free(struct camp_element *e, size_t n)
{
	(void)n;
	free(e);
}

/* [sweep] KEY's items and one zeroed element per item; returns the count
 * or a negative errno ([err] set by the site getter). */
static int list_elements(const struct ios_site *s, const char *key,
			 uint64_t **vals, struct camp_element **e,
			 struct ios_err *err)
{
	int n = ios_site_get_list(s, "sweep", key, vals, err);

	if (n < 0)
		return n;
	*e = calloc((size_t)n, sizeof(**e));
	if (!*e) {
		free(*vals);
		*vals = NULL;
		return -ENOMEM;
	}
	return n;
}

/* Is [job] a sweep (the jobs [sweep] replication multiplies)? */
static bool job_is_sweep(const char *job)
{
	return !strcmp(job, "sweep-cores-mem") ||
	       !strcmp(job, "sweep-disk-bw") || !strcmp(job, "sweep-threads");
}

/* Is [job] a sweep that shapes the storage nodes, so that an element
 * without --iostrata-* options is its unconstrained baseline? */
static bool job_has_baseline(const char *job)
{
	return !strcmp(job, "sweep-cores-mem") || !strcmp(job, "sweep-disk-bw");
}

/* The [sweep] replication_pool prefix (default CAMP_REPL_POOL_PREFIX),
 * checked; NULL with [err] when it is no pool name prefix. */
static const char *pool_prefix(const struct ios_site *s, struct ios_err *err)
{
	const char *prefix = ios_site_get(s, "sweep", "replication_pool");

	if (!prefix)
		prefix = CAMP_REPL_POOL_PREFIX;
	if (!*prefix || strlen(prefix) > 64 ||
	    strspn(prefix,
		   "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") !=
		    strlen(prefix)) {
		ios_errf(
			err, -EINVAL,
			PROG
			": %s: [sweep] replication_pool \"%s\": not a pool name prefix: accepted: 1 to 64 letters, digits, '-', '_', '.'",
			ios_site_path(s), prefix);
		return NULL;
	}
	return prefix;
}

static bool in_list(const uint64_t *v, int n, uint64_t x)
{
	for (int i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

/* One element of factor [f] appended to [x] (*[k] so far): [src]'s
 * configuration, or the unconstrained baseline (src NULL) labelled
 * [blabel]. */
static void add_element(struct camp_element *x, size_t *k,
			const struct camp_element *src, const char *blabel,
			unsigned f, const char *prefix)
{
	struct camp_element *y = &x[*k];

	if (src) {
		*y = *src;
	} else {
		memset(y, 0, sizeof(*y));
		snprintf(y->label, sizeof(y->label), "%s", blabel);
		y->baseline = true;
	}
	y->index = (int)*k;
	y->replication = f;
	if (f) {
		char l[sizeof(y->label)];

		snprintf(l, sizeof(l), "%s", y->label);
		snprintf(y->pool, sizeof(y->pool), "%s-r%u", prefix, f);
		snprintf(y->label, sizeof(y->label), "%.50s-r%u", l, f);
	}
	(*k)++;
}

/*
 * The sweep's elements [*e] ([*n]) once per [sweep] replication factor
 * (label LABEL-rN, pool PREFIX-rN), and, for a sweep that shapes the
 * storage nodes, the unconstrained baseline ([sweep] baseline: both, the
 * default, before and after each factor's sweep; first; none) at each
 * factor of [sweep] baseline_replication (default: the sweep's factors;
 * a factor with no sweep gets one baseline).  The factors in the order
 * of baseline_replication, then the sweep's others.  0, or a negative
 * errno with [err].
 *
 * Why the baseline first and last, not the elements in a random order:
 * elements run one after another on the same storage nodes, and whatever
 * drifts meanwhile (caches filling, the OSDs' own maintenance, other load)
 * shows as a trend in submission order (the demo's disk sweep rose 0.58,
 * 0.66, 0.87, 1.00 in the order it ran).  A shuffled order turns that
 * drift into noise the few repetitions of a sweep cannot average away, and
 * says nothing of its size; the same configuration measured before and
 * after measures it, as a storage engineer checks a baseline, and the
 * report prints it beside the effects it could fake ("the baseline drifted
 * +9% during the campaign").  It costs one element per factor.
 */
static int expand(const struct ios_site *s, const char *job,
		  struct camp_element **e, size_t *n, struct ios_err *err)
{
	const char *prefix = NULL, *bl = ios_site_get(s, "sweep", "baseline");
	uint64_t *f = NULL, *b = NULL, u[32];
	int nf = 0, nb = 0, nu = 0, rc = 0;
	unsigned nbase = 2; /* baselines around one factor's sweep */
	struct camp_element *x;
	size_t k = 0;

	if (!job_has_baseline(job) || (bl && !strcmp(bl, "none")))
		nbase = 0;
	else if (bl && !strcmp(bl, "first"))
		nbase = 1;
	if (ios_site_get(s, "sweep", "replication")) {
		if (!(prefix = pool_prefix(s, err)))
			return -EINVAL;
		nf = ios_site_get_list(s, "sweep", "replication", &f, err);
		if (nf < 0)
			return nf;
	}
	if (nbase && ios_site_get(s, "sweep", "baseline_replication")) {
		if (!nf) {
			free(f);
			return ios_errf(
				err, -EINVAL,
				PROG
				": %s: [sweep] baseline_replication is set without [sweep] replication: the baseline's factors need the sweep's pools (set [sweep] replication too)",
				ios_site_path(s));
		}
		nb = ios_site_get_list(s, "sweep", "baseline_replication", &b,
				       err);
		if (nb < 0) {
			free(f);
			return nb;
		}
	} else if (nbase) {
		nb = nf;
		b = nf ? malloc((size_t)nf * sizeof(*b)) : NULL;
		if (nf && !b) {
			free(f);
			return -ENOMEM;
		}
		if (nf)
			memcpy(b, f, (size_t)nf * sizeof(*b));
	}
	/* the factors: the baseline's in order, then the sweep's others
	 * (each list has at most 10, 1..10: parse bounds) */
	for (int i = 0; i < nb; i++)
		u[nu++] = b[i];
	for (int i = 0; i < nf; i++)
		if (!in_list(u, nu, f[i]))
			u[nu++] = f[i];
	if (!nu) /* no factor: the default pool */
		u[nu++] = 0;
	x = calloc(*n * (size_t)nu + 2 * (size_t)nu, sizeof(*x));
	if (!x) {
		rc = -ENOMEM;
		goto out;
	}
	for (int j = 0; j < nu; j++) {
		bool sw = !nf || in_list(f, nf, u[j]);
		bool bs = nbase && (!nf || in_list(b, nb, u[j]));

		if (bs)
			add_element(x, &k, NULL,
				    sw && nbase == 2 ? "baseline-first"
						     : "baseline",
				    (unsigned)u[j], prefix);
		for (size_t i = 0; sw && i < *n; i++)
			add_element(x, &k, &(*e)[i], NULL, (unsigned)u[j],
				    prefix);
		if (bs && sw && nbase == 2)
			add_element(x, &k, NULL, "baseline-last",
				    (unsigned)u[j], prefix);
	}
	free(*e);
	*e = x;
	*n = k;
out:
	free(f);
	free(b);
	return rc;
}

int camp_plan(const struct ios_site *s, const char *job,
	      struct camp_element **out, size_t *nout, struct ios_err *err)
{
	struct camp_element *e = NULL;
	uint64_t *cpus = NULL, *mem = NULL, *bw = NULL, *ranks = NULL;
	int nc, nm, nb, nr;
	size_t n = 0;
	int rc = 0;

	*out = NULL;
	*nout = 0;
	if (strcmp(job, "sweep-cores-mem") == 0) {
		nc = ios_site_get_list(s, "sweep", "cpus", &cpus, err);
		if (nc < 0)
			return nc;
		nm = ios_site_get_list(s, "sweep", "mem", &mem, err);
		if (nm < 0) {
			free(cpus);
			return nm;
		}
		e = calloc((size_t)nc * (size_t)nm, sizeof(*e));
		if (!e) {
			rc = -ENOMEM;
			goto out;
		}
		for (int i = 0; i < nc; i++) {
			for (int j = 0; j < nm; j++) {
				struct camp_element *x = &e[n];
				char m[32];

				fmt_size_exact(mem[j], m, sizeof(m));
				x->index = (int)n;
				x->cpus = cpus[i];
				x->mem = mem[j];
				snprintf(x->label, sizeof(x->label),
					 "cpus%llu-mem%s",
					 (unsigned long long)cpus[i], m);
				snprintf(
					x->options, sizeof(x->options),
					"--iostrata-cpus=%llu --iostrata-mem=%s",
					(unsigned long long)cpus[i], m);
				n++;
			}
		}
	} else if (strcmp(job, "sweep-disk-bw") == 0) {
		if ((nb = list_elements(s, "disk_bw", &bw, &e, err)) < 0)
			return nb;
		for (int i = 0; i < nb; i++) {
			char r[32];

			fmt_rate_exact(bw[i], r, sizeof(r));
			e[n].index = (int)n;
			e[n].disk_bw = bw[i];
			snprintf(e[n].label, sizeof(e[n].label), "diskbw%s", r);
			snprintf(e[n].options, sizeof(e[n].options),
				 "--iostrata-disk-bw=%s", r);
			n++;
		}
	} else if (strcmp(job, "sweep-threads") == 0) {
		/* one compute-only job per rank count (seeds/001's threads) */
		if ((nr = list_elements(s, "ranks", &ranks, &e, err)) < 0)
			return nr;
		for (int i = 0; i < nr; i++) {
			e[n].index = (int)n;
			e[n].ranks = ranks[i];
			snprintf(e[n].label, sizeof(e[n].label), "ranks%llu",
				 (unsigned long long)ranks[i]);
			snprintf(e[n].options, sizeof(e[n].options),
				 "--ntasks=%llu", (unsigned long long)ranks[i]);
			n++;
		}
	} else if (camp_job_known(job)) {
		e = calloc(1, sizeof(*e));
		if (!e)
			return -ENOMEM;
		snprintf(e->label, sizeof(e->label), "%s", job);
		n = 1;
	} else {
		return ios_errf(
			err, -EINVAL,
			PROG
			": plan job \"%s\": unknown job: accepted: " CAMP_JOBS,
			job);
	}
out:
	free(cpus);
	free(mem);
	free(bw);
	free(ranks);
	if (rc == 0 && job_is_sweep(job))
		rc = expand(s, job, &e, &n, err);
	if (rc < 0) {
		free(e);
		return rc;
	}
	*out = e;
	*nout = n;
	return 0;
}

bool camp_job_known(const char *job)
{
	for (size_t i = 0; i < sizeof(jobs) / sizeof(*jobs); i++)
		if (strcmp(job, jobs[i]) == 0)
			return true;
	return false;
}

/* Heterogeneous (storage + compute components) or compute-only jobs. */
bool camp_job_is_het(const char *job)
{
	return strcmp(job, "sweep-cores-mem") == 0 ||
	       strcmp(job, "sweep-disk-bw") == 0 || strcmp(job, "layered") == 0;
}
