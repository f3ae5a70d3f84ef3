/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * units: parse and print sizes, rates, counts and durations the way fio users
 * write them.  One grammar for the whole suite (mpibench options, SPANK
 * options, site files):
 *
 *   size     = NUMBER [PREFIX] ["B"]     NUMBER: digits, optional ".digits"
 *   PREFIX   = K | M | G | T | P         binary (x1024), as fio's default
 *            | Ki | Mi | Gi | Ti | Pi    binary, explicit
 *            | KB | MB | GB | TB | PB    decimal (x1000) when followed by B
 *   rate     = size ["/s"]               bytes per second
 *
 * So "8M" = "8MiB" = 8388608, "175MB" = 175000000, "50M/s" = 52428800 B/s.
 * Prefix letters are case-insensitive except that a lone "b" is not a unit.
 */
#ifndef IOSTRATA_UNITS_H
#define IOSTRATA_UNITS_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "errbuf.h"

/*
 * Parse a size in bytes.  Returns 0 and sets *out, or -EINVAL (empty, sign,
 * junk, unknown unit: [err] says which and lists the accepted forms) or
 * -ERANGE (does not fit in 63 bits).  [what] names the input in messages,
 * e.g. "--bs".
 */
int ios_parse_size(const char *s, const char *what, uint64_t *out,
		   struct ios_err *err);

/* Parse a rate in bytes/s: a size with an optional "/s".  Same returns. */
int ios_parse_rate(const char *s, const char *what, uint64_t *out,
		   struct ios_err *err);

/*
 * Parse a plain non-negative integer (no units) within [min, max].
 * Returns 0, -EINVAL (syntax) or -ERANGE (outside bounds).
 */
int ios_parse_uint(const char *s, const char *what, uint64_t min, uint64_t max,
		   uint64_t *out, struct ios_err *err);

/*
 * Parse a duration in seconds: NUMBER with an optional unit ms, s, m, h.
 * "150" = "150s" = 150.0, "2m" = 120.0, "500ms" = 0.5.  Returns 0, -EINVAL,
 * -ERANGE.
 */
int ios_parse_duration(const char *s, const char *what, double *out,
		       struct ios_err *err);

/* Print [bytes] with a binary prefix, e.g. "8 MiB", "1.50 GiB". */
const char *ios_fmt_size(uint64_t bytes, char *buf, size_t len);

/* Print a rate with a decimal prefix, e.g. "1.73 GB/s", "512 kB/s". */
const char *ios_fmt_rate(double bytes_per_s, char *buf, size_t len);

/* The time [rel] (relative) from now on clock [clk] in *[end]: the
 * absolute deadline of a bounded wait (pthread_cond_timedwait). */
void ios_deadline(clockid_t clk, const struct timespec *rel,
		  struct timespec *end);

/* [s] without its leading white space, its trailing white space cut off
 * in place (the parsers of site.conf and policy.conf). */
char *ios_trim(char *s);

#endif
