/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * siteconf_cost: what a storage configuration costs, from the site
 * description's [prices], [storage] counts and `disk "NAME"` drive classes
 * (through siteconf.h's getters only).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "siteconf.h"
#include "units.h"

static double price(const struct ios_site *s, const char *key)
{
	double d = 0;

	if (ios_site_get(s, "prices", key))
		ios_site_get_double(s, "prices", key, &d, NULL);
	return d;
}

static uint64_t count(const struct ios_site *s, const char *key, uint64_t dflt)
{
	uint64_t u = dflt;

	if (ios_site_get(s, "storage", key))
		ios_site_get_uint(s, "storage", key, &u, NULL);
	return u;
}

static int class_cmp(const void *a, const void *b)
{
	const struct ios_disk_class *x = a, *y = b;

	if (x->bw != y->bw)
		return x->bw < y->bw ? -1 : 1;
	return x->price < y->price ? -1 : x->price > y->price;
}

struct classes {
	const struct ios_site *s;
	struct ios_disk_class *v;
	size_t n;
};

/* One `disk "NAME"` section into the list. */
static int add_class(const char *section, const char *name, void *arg)
{
	struct classes *c = arg;
	struct ios_disk_class *nv, *d;

	nv = realloc(c->v, (c->n + 1) * sizeof(*c->v));
	if (!nv)
		return -ENOMEM;
	c->v = nv;
	d = &c->v[c->n++];
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	/* the loader checked bw and price are there and typed */
	ios_site_get_rate(c->s, section, "bw", &d->bw, NULL);
	ios_site_get_double(c->s, section, "price", &d->price, NULL);
	d->iops = NAN;
	if (ios_site_get(c->s, section, "iops"))
		ios_site_get_double(c->s, section, "iops", &d->iops, NULL);
	return 0;
}

int ios_site_disk_classes(const struct ios_site *s, struct ios_disk_class **out)
{
	struct classes c = {.s = s};
	int rc = ios_site_sections(s, "disk \"", add_class, &c);

	*out = NULL;
	if (rc < 0) {
		free(c.v);
		return rc;
	}
	if (c.n)
		qsort(c.v, c.n, sizeof(*c.v), class_cmp);
	*out = c.v;
	return (int)c.n;
}

int ios_site_tier_cost(const struct ios_site *s, uint64_t cores,
		       uint64_t mem_bytes, uint64_t disk_bw,
		       struct ios_tier_cost *out, struct ios_err *err)
{
	struct ios_disk_class *cl = NULL;
	const char *installed = ios_site_get(s, "storage", "disk_class");
	double node;
	int n, rc;

	memset(out, 0, sizeof(*out));
	if ((rc = ios_site_node_cost(s, cores, mem_bytes, &node, err)) < 0)
		return rc;
	out->nodes = count(s, "nodes", 1);
	out->disks = out->nodes * count(s, "disks_per_node", 0);
	/* ios_site_node_cost counted the installed disks: take them out, the
	 * class priced below replaces them */
	node -= (double)count(s, "disks_per_node", 0) * price(s, "hdd");
	n = ios_site_disk_classes(s, &cl);
	if (n < 0)
		return ios_errf(err, n, "siteconf: %s: %s", ios_site_path(s),
				strerror(-n));
	if (disk_bw == 0 && !installed) {
		snprintf(out->disk_class, sizeof(out->disk_class), "%s",
			 ios_site_get(s, "prices", "hdd") ? "hdd" : "unpriced");
		out->disk_price = price(s, "hdd");
	} else {
		long pick = -1;

		for (int i = 0; i < n; i++) {
			if (disk_bw == 0
				    ? strcmp(cl[i].name, installed) == 0
				    : cl[i].bw >= disk_bw &&
					      (pick < 0 ||
					       cl[i].price < cl[pick].price))
				pick = i;
		}
		if (pick < 0) {
			char want[32], top[32] = "";

			ios_fmt_rate((double)disk_bw, want, sizeof(want));
			if (n)
				ios_fmt_rate((double)cl[n - 1].bw, top,
					     sizeof(top));
			rc = n ? ios_errf(
					 err, -ERANGE,
					 "siteconf: %s: no disk class sustains %s: the fastest is \"%s\" at %s",
					 ios_site_path(s), want, cl[n - 1].name,
					 top)
			       : ios_errf(
					 err, -ENOENT,
					 "siteconf: %s: no [disk \"NAME\"] class: cannot price a disk speed of %s (add classes with bw and price, see site/example/site.conf)",
					 ios_site_path(s), want);
			free(cl);
			return rc;
		}
		snprintf(out->disk_class, sizeof(out->disk_class), "%s",
			 cl[pick].name);
		out->disk_price = cl[pick].price;
		out->disk_bw = cl[pick].bw;
	}
	free(cl);
	out->node = node;
	out->total = (double)out->nodes * node +
		     (double)out->disks * out->disk_price;
	return 0;
}

int ios_site_node_cost(const struct ios_site *s, uint64_t cores,
		       uint64_t mem_bytes, double *out, struct ios_err *err)
{
	uint64_t disks = 0, nvme = 0;

	if (!ios_site_get(s, "prices", "core") &&
	    !ios_site_get(s, "prices", "mem_gb"))
		return ios_errf(
			err, -ENOENT,
			"siteconf: %s: [prices]: neither core nor mem_gb is set: cannot price a configuration",
			ios_site_path(s));
	if (ios_site_get(s, "storage", "disks_per_node"))
		ios_site_get_uint(s, "storage", "disks_per_node", &disks, NULL);
	if (ios_site_get(s, "storage", "nvme_per_node"))
		ios_site_get_uint(s, "storage", "nvme_per_node", &nvme, NULL);
	*out = price(s, "node_base") + (double)cores * price(s, "core") +
	       (double)mem_bytes / 1e9 * price(s, "mem_gb") +
	       (double)disks * price(s, "hdd") +
	       (double)nvme * price(s, "nvme");
	return 0;
}
