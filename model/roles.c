// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * roles: who is a storage host and who a client in a layered run
 * (layers.h, "Roles"): Slurm hostlists (--layers-storage-nodes), the
 * component of a heterogeneous job a host is in, and the delay a het
 * job's ranks wait before they exit.  Pure functions over names and the
 * environment given, for the run (mpibench/layers/layers_roles.c) and the
 * unit tests.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "errbuf.h"
#include "layers.h"

const char *const lyr_roles_from_names[3] = {
	[LYR_ROLES_UNKNOWN] = "unknown",
	[LYR_ROLES_HETJOB] = "hetjob",
	[LYR_ROLES_OPTION] = "option",
};

static bool all_digits(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* Does the number [num] (len [nl], digits) lie in one of the ranges
 * "a-b,c" of [r] (len [rl])?  1, 0, or -EINVAL on a malformed range. */
static int in_ranges(const char *r, size_t rl, const char *num, size_t nl)
{
	unsigned long long v = strtoull(num, NULL, 10);
	bool hit = false;
	size_t i = 0;

	while (i <= rl) {
		size_t j = i, dash = 0;
		unsigned long long a, b;
		size_t al;

		while (j < rl && r[j] != ',') {
			if (r[j] == '-' && !dash)
				dash = j;
			j++;
		}
		al = dash ? dash - i : j - i;
		if (!all_digits(r + i, al) ||
		    (dash && !all_digits(r + dash + 1, j - dash - 1)))
			return -EINVAL;
		a = strtoull(r + i, NULL, 10);
		b = dash ? strtoull(r + dash + 1, NULL, 10) : a;
		if (b < a)
			return -EINVAL;
		/* "01-04" pads to the width of its start; "1-4" does not */
		if (v >= a && v <= b &&
		    (r[i] == '0' && al > 1 ? nl == al
					   : nl == 1 || num[0] != '0'))
			hit = true;
		i = j + 1;
	}
	return hit;
}

int lyr_hostlist_has(const char *list, const char *host, struct ios_err *err)
{
	const char *p = list;
	size_t hl = strlen(host);
	int found = 0;

	if (!list || !*list)
		return ios_errf(
			err, -EINVAL,
			"hostlist: empty (accepted: HOST[,HOST...], e.g. s1,s2 or s[1-3])");
	while (*p) {
		const char *open = NULL, *close = NULL, *q = p;
		size_t n;
		int rc = 0;

		for (; *q && (open ? !close || *q != ',' : *q != ','); q++) {
			if (*q == '[') {
				if (open)
					goto bad;
				open = q;
			} else if (*q == ']') {
				if (!open || close)
					goto bad;
				close = q;
			}
		}
		n = (size_t)(q - p);
		if (!n || (open && !close))
			goto bad;
		if (!open) {
			rc = n == hl && !strncmp(p, host, n);
		} else {
			size_t pl = (size_t)(open - p);
			size_t sl = (size_t)(q - close - 1);

			if (close == open + 1)
				goto bad;
			if (hl > pl + sl && !strncmp(p, host, pl) &&
			    !strncmp(close + 1, host + hl - sl, sl) &&
			    all_digits(host + pl, hl - pl - sl))
				rc = in_ranges(open + 1,
					       (size_t)(close - open - 1),
					       host + pl, hl - pl - sl);
			else /* still check the ranges' syntax */
				rc = in_ranges(open + 1,
					       (size_t)(close - open - 1), "0",
					       1) < 0
					     ? -EINVAL
					     : 0;
			if (rc < 0)
				goto bad;
		}
		if (rc > 0)
			found = 1;
		p = *q ? q + 1 : q;
		if (*q && !*p) /* a trailing comma */
			goto bad_end;
		continue;
	bad:
		n = strcspn(p, ",");
		return ios_errf(
			err, -EINVAL,
			"hostlist \"%s\": bad item \"%.*s\" (accepted: HOST or PREFIX[A-B,C]SUFFIX, comma-separated)",
			list, (int)n, p);
	}
	return found;
bad_end:
	return ios_errf(
		err, -EINVAL,
		"hostlist \"%s\": empty item (accepted: HOST or PREFIX[A-B,C]SUFFIX, comma-separated)",
		list);
}

int lyr_het_group(int het_size, const char *host,
		  const char *(*get)(const char *name, void *arg), void *arg)
{
	int by_node = -1, nnode = 0;

	for (int g = 0; g < het_size && g < 1000; g++) {
		char name[64];
		const char *v;

		snprintf(name, sizeof(name), "SLURM_JOB_NODELIST_HET_GROUP_%d",
			 g);
		v = get(name, arg);
		if (v && *v && host && lyr_hostlist_has(v, host, NULL) > 0) {
			by_node = g;
			nnode++;
		}
	}
	return nnode == 1 ? by_node : -1;
}

int lyr_het_exit_delay_ms(const char *(*get)(const char *name, void *arg),
			  void *arg)
{
	const char *hs = get("SLURM_HET_SIZE", arg);
	const char *host = get("SLURMD_NODENAME", arg);
	char *end;
	long n;
	int g;

	if (!hs || !*hs || !host || !*host)
		return 0;
	errno = 0;
	n = strtol(hs, &end, 10);
	if (errno || *end || n < 2 || n > 1000)
		return 0;
	g = lyr_het_group((int)n, host, get, arg);
	if (g <= 0)
		return 0;
	if (g > LYR_HET_EXIT_STAGGER_MAX_MS / LYR_HET_EXIT_STAGGER_MS)
		return LYR_HET_EXIT_STAGGER_MAX_MS;
	return g * LYR_HET_EXIT_STAGGER_MS;
}

static const char *het_getenv(const char *name, void *arg)
{
	(void)arg;
	return getenv(name);
}

void lyr_het_exit_wait(void)
{
	int ms = lyr_het_exit_delay_ms(het_getenv, NULL);
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};

	if (ms <= 0)
		return;
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

int lyr_role_of(const struct lyr_role_in *in, enum lyr_roles_from *from,
		struct ios_err *err)
{
	*from = LYR_ROLES_UNKNOWN;
	if (in->storage_nodes) {
		int rc = lyr_hostlist_has(in->storage_nodes, in->host, err);

		if (rc < 0)
			return rc;
		*from = LYR_ROLES_OPTION;
		return rc ? LYR_ROLE_STORAGE : LYR_ROLE_CLIENT;
	}
	if (in->het_size <= 0)
		return LYR_ROLE_ALL;
	if (in->het_size < 2)
		return ios_errf(
			err, -EINVAL,
			"layers: roles: a heterogeneous job of %d component: need a client and a storage component (or --layers-storage-nodes)",
			in->het_size);
	if (in->het_group < 0 || in->het_group >= in->het_size)
		return ios_errf(
			err, -EINVAL,
			"layers: roles: host %s: the heterogeneous job component of this rank is not known (%d of %d components); give --layers-storage-nodes=HOSTLIST",
			in->host, in->het_group, in->het_size);
	*from = LYR_ROLES_HETJOB;
	return in->het_group == in->het_size - 1 ? LYR_ROLE_STORAGE
						 : LYR_ROLE_CLIENT;
}
