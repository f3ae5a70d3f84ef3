/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lathist: log-linear latency histogram (see lathist.h for the layout). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "lathist.h"

void ios_lathist_init(struct ios_lathist *h)
{
	memset(h, 0, sizeof(*h));
	h->min_ns = UINT64_MAX;
}

unsigned ios_lathist_bucket(uint64_t ns)
{
	return ios_lathist_bucket_inline(ns);
}

uint64_t ios_lathist_lower(unsigned b)
{
	unsigned k, sub;

	if (b < IOS_LAT_SUB)
		return b;
	k = (b - IOS_LAT_SUB) / IOS_LAT_SUB + IOS_LAT_SUB_BITS;
	sub = (b - IOS_LAT_SUB) % IOS_LAT_SUB;
	return (1ull << k) + ((uint64_t)sub << (k - IOS_LAT_SUB_BITS));
}

struct ios_lat_summary ios_lathist_summary(const struct ios_lathist *h)
{
	struct ios_lat_summary s = {
		.n = h->n,
		.min_ns = h->min_ns,
		.max_ns = h->max_ns,
		.sum_ns = h->sum_ns,
	};

	return s;
}

void ios_lathist_merge_parts(struct ios_lathist *dst, const uint64_t *count,
			     const struct ios_lat_summary *s)
{
	unsigned b;

	for (b = 0; count && b < IOS_LAT_BUCKETS; b++)
		dst->count[b] += count[b];
	dst->n += s->n;
	if (s->min_ns < dst->min_ns)
		dst->min_ns = s->min_ns;
	if (s->max_ns > dst->max_ns)
		dst->max_ns = s->max_ns;
	dst->sum_ns += s->sum_ns;
}

void ios_lathist_merge(struct ios_lathist *dst, const struct ios_lathist *src)
{
	struct ios_lat_summary s = ios_lathist_summary(src);

	ios_lathist_merge_parts(dst, src->count, &s);
}

double ios_lathist_quantile(const uint64_t *count, uint64_t n, double q,
			    uint64_t min_ns, uint64_t max_ns)
{
	uint64_t rank, seen = 0;
	double lo, hi, v;
	unsigned b;

	if (n == 0)
		return NAN;
	if (q <= 0.0)
		q = 1e-12;
	if (q > 1.0)
		q = 1.0;
	rank = (uint64_t)ceil(q * (double)n);
	if (rank == 0)
		rank = 1;
	for (b = 0; b < IOS_LAT_BUCKETS; b++) {
		seen += count[b];
		if (seen >= rank)
			break;
	}
	if (b == IOS_LAT_BUCKETS)
		b = IOS_LAT_BUCKETS - 1;
	lo = (double)ios_lathist_lower(b);
	hi = b + 1 < IOS_LAT_BUCKETS ? (double)ios_lathist_lower(b + 1)
				     : 2.0 * lo;
	v = b < IOS_LAT_SUB ? lo : (lo + hi) / 2.0;
	if (v < (double)min_ns)
		v = (double)min_ns;
	if (v > (double)max_ns)
		v = (double)max_ns;
	return v;
}
