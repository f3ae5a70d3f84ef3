/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lathist: a fixed-size log-linear latency histogram (HdrHistogram-like).
 * Latencies in nanoseconds fall into IOS_LAT_BUCKETS buckets: a value
 * v < 16 ns goes to bucket v; above, each power of two [2^k, 2^(k+1)) is
 * split into 16 equal sub-buckets, so a bucket's width is at most 1/16
 * (6.25%) of its lower bound.  The layout is
 * fixed, so histograms of all ranks add up bucket by bucket and are stored
 * as-is in the results file (h5schema/SCHEMA.md documents the bounds).
 */
#ifndef IOSTRATA_LATHIST_H
#define IOSTRATA_LATHIST_H

#include <stdint.h>

#define IOS_LAT_SUB_BITS 4
#define IOS_LAT_SUB (1u << IOS_LAT_SUB_BITS) /* 16 */
/* 16 linear buckets + 16 sub-buckets for each k in 4..63 */
#define IOS_LAT_BUCKETS (IOS_LAT_SUB + (64 - IOS_LAT_SUB_BITS) * IOS_LAT_SUB)

/* What a histogram says besides its bucket counts. */
struct ios_lat_summary {
	uint64_t n;      /* number of samples */
	uint64_t min_ns; /* UINT64_MAX when empty */
	uint64_t max_ns;
	double sum_ns;
};

struct ios_lathist {
	uint64_t count[IOS_LAT_BUCKETS];
	uint64_t n;      /* number of samples */
	uint64_t min_ns; /* UINT64_MAX when empty */
	uint64_t max_ns;
	double sum_ns;
};

void ios_lathist_init(struct ios_lathist *h);

/* The summary of [h]. */
struct ios_lat_summary ios_lathist_summary(const struct ios_lathist *h);

/* Add a histogram given as [count] (IOS_LAT_BUCKETS) and [s] to [dst]. */
void ios_lathist_merge_parts(struct ios_lathist *dst, const uint64_t *count,
			     const struct ios_lat_summary *s);

/* Bucket index of [ns] (always < IOS_LAT_BUCKETS). */
unsigned ios_lathist_bucket(uint64_t ns);

/* The same, inline: ios_lathist_add() runs once per timed operation, and
 * a call across files cost 3% of the null backend's 4 KiB loop. */
static inline unsigned ios_lathist_bucket_inline(uint64_t ns)
{
	unsigned k, sub;

	if (ns < IOS_LAT_SUB)
		return (unsigned)ns;
	k = 63u - (unsigned)__builtin_clzll(ns); /* 2^k <= ns < 2^(k+1) */
	sub = (unsigned)(ns >> (k - IOS_LAT_SUB_BITS)) & (IOS_LAT_SUB - 1);
	return IOS_LAT_SUB + (k - IOS_LAT_SUB_BITS) * IOS_LAT_SUB + sub;
}

/* Lower bound (inclusive) of bucket [b] in ns. */
uint64_t ios_lathist_lower(unsigned b);

/* Record one latency. */
static inline void ios_lathist_add(struct ios_lathist *h, uint64_t ns)
{
	h->count[ios_lathist_bucket_inline(ns)]++;
	h->n++;
	if (ns < h->min_ns)
		h->min_ns = ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
	h->sum_ns += (double)ns;
}

/* Add [src] into [dst]. */
void ios_lathist_merge(struct ios_lathist *dst, const struct ios_lathist *src);

/*
 * The [q]-quantile (0 < q <= 1) in ns, from raw bucket counts [count] holding
 * [n] samples: the midpoint of the bucket holding the q*n-th sample, clamped
 * to [min_ns, max_ns] when those are known (pass 0 and UINT64_MAX if not).
 * Returns NAN when n == 0.
 */
double ios_lathist_quantile(const uint64_t *count, uint64_t n, double q,
			    uint64_t min_ns, uint64_t max_ns);

#endif
