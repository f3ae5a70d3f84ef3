/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * units: parse sizes, rates, counts and durations (one grammar for the whole
 * suite, see units.h) and print them for humans.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "units.h"

#define SIZE_FORMS                                                             \
	"a whole number with an optional unit K, M, G, T, P (x1024, also KiB..PiB) or KB, MB, GB, TB, PB (x1000)"
#define RATE_FORMS                                                             \
	"a number with an optional unit K, M, G, T (x1024, also KiB..TiB) or KB, MB, GB, TB (x1000), optionally followed by /s"

struct number {
	unsigned __int128 whole; /* integer part */
	unsigned __int128 frac;  /* fractional digits as an integer */
	unsigned __int128 scale; /* 10^(number of fractional digits) */
};

/* Parse "digits[.digits]" at *sp; advance *sp.  -EINVAL when no digit. */
static int parse_number(const char **sp, struct number *n)
{
	const char *s = *sp;
	int digits = 0;

	n->whole = 0;
	n->frac = 0;
	n->scale = 1;
	while (isdigit((unsigned char)*s)) {
		n->whole = n->whole * 10 + (unsigned)(*s - '0');
		if (n->whole > UINT64_MAX)
			return -ERANGE;
		s++;
		digits++;
	}
	if (*s == '.') {
		s++;
		if (!isdigit((unsigned char)*s))
			return -EINVAL;
		while (isdigit((unsigned char)*s)) {
			if (n->scale <
			    (unsigned __int128)1000000000000000000ULL) {
				n->frac = n->frac * 10 + (unsigned)(*s - '0');
				n->scale *= 10;
			}
			s++;
		}
	} else if (digits == 0) {
		return -EINVAL;
	}
	*sp = s;
	return 0;
}

/*
 * Parse a unit suffix at *sp into a multiplier.  Accepts "", "B", a prefix
 * letter, optionally "i", optionally "B".  Returns 0 or -EINVAL.
 */
static int parse_prefix(const char **sp, unsigned __int128 *mult)
{
	static const char letters[] = "KMGTP";
	const char *s = *sp;
	const char *hit;
	unsigned __int128 base = 1024;
	int exp, i;

	*mult = 1;
	if (*s == '\0' || *s == '/') {
		return 0;
	}
	if (*s == 'B') {
		*sp = s + 1;
		return 0;
	}
	hit = strchr(letters, toupper((unsigned char)*s));
	if (!hit || *s == '\0')
		return -EINVAL;
	exp = (int)(hit - letters) + 1;
	s++;
	if (*s == 'i' || *s == 'I') {
		s++;
		if (*s == 'B')
			s++;
	} else if (*s == 'B') {
		base = 1000;
		s++;
	}
	for (i = 0; i < exp; i++)
		*mult *= base;
	*sp = s;
	return 0;
}

static int parse_scaled(const char *s, const char *what, bool rate,
			uint64_t *out, struct ios_err *err)
{
	const char *kind = rate ? "rate" : "size";
	const char *forms = rate ? RATE_FORMS : SIZE_FORMS;
	const char *p = s;
	struct number n;
	unsigned __int128 mult, v, fracbytes;
	int rc;

	if (!s || *s == '\0')
		return ios_errf(err, -EINVAL, "%s: empty %s (accepted: %s)",
				what, kind, forms);
	if (*s == '-' || *s == '+')
		return ios_errf(
			err, -EINVAL,
			"%s: invalid %s \"%s\": no sign allowed (accepted: %s)",
			what, kind, s, forms);
	rc = parse_number(&p, &n);
	if (rc == -ERANGE)
		return ios_errf(err, -ERANGE, "%s: %s \"%s\" is too large",
				what, kind, s);
	if (rc)
		return ios_errf(
			err, -EINVAL,
			"%s: invalid %s \"%s\": not a number (accepted: %s)",
			what, kind, s, forms);
	if (parse_prefix(&p, &mult))
		return ios_errf(
			err, -EINVAL,
			"%s: invalid %s \"%s\": unknown unit \"%s\" (accepted: %s)",
			what, kind, s, p, forms);
	if (rate && strcmp(p, "/s") == 0)
		p += 2;
	if (*p != '\0')
		return ios_errf(
			err, -EINVAL,
			"%s: invalid %s \"%s\": trailing \"%s\" (accepted: %s)",
			what, kind, s, p, forms);
	v = n.whole * mult;
	fracbytes = n.frac * mult;
	if (!rate && fracbytes % n.scale != 0)
		return ios_errf(
			err, -EINVAL,
			"%s: invalid %s \"%s\": not a whole number of bytes",
			what, kind, s);
	v += fracbytes / n.scale;
	if (v > INT64_MAX)
		return ios_errf(err, -ERANGE,
				"%s: %s \"%s\" is too large (at most 8 EiB)",
				what, kind, s);
	*out = (uint64_t)v;
	return 0;
}

int ios_parse_size(const char *s, const char *what, uint64_t *out,
		   struct ios_err *err)
{
	return parse_scaled(s, what, false, out, err);
}

int ios_parse_rate(const char *s, const char *what, uint64_t *out,
		   struct ios_err *err)
{
	return parse_scaled(s, what, true, out, err);
}

int ios_parse_uint(const char *s, const char *what, uint64_t min, uint64_t max,
		   uint64_t *out, struct ios_err *err)
{
	const char *p = s;
	unsigned __int128 v = 0;

	if (!s || *s == '\0')
		return ios_errf(
			err, -EINVAL,
			"%s: empty value (accepted: a whole number from %" PRIu64
			" to %" PRIu64 ")",
			what, min, max);
	while (isdigit((unsigned char)*p)) {
		v = v * 10 + (unsigned)(*p - '0');
		if (v > UINT64_MAX)
			break;
		p++;
	}
	if (p == s || (*p != '\0' && !isdigit((unsigned char)*p)))
		return ios_errf(
			err, -EINVAL,
			"%s: invalid number \"%s\" (accepted: a whole number from %" PRIu64
			" to %" PRIu64 ")",
			what, s, min, max);
	if (*p != '\0' || v < min || v > max)
		return ios_errf(err, -ERANGE,
				"%s: %s is out of range (accepted: %" PRIu64
				" to %" PRIu64 ")",
				what, s, min, max);
	*out = (uint64_t)v;
	return 0;
}

int ios_parse_duration(const char *s, const char *what, double *out,
		       struct ios_err *err)
{
	static const struct {
		const char *unit;
		double mult;
	} units[] = {
		{"", 1.0},   {"s", 1.0},    {"ms", 0.001},
		{"m", 60.0}, {"min", 60.0}, {"h", 3600.0},
	};
	const char *p = s;
	struct number n;
	double v;
	size_t i;

	if (!s || *s == '\0')
		return ios_errf(
			err, -EINVAL,
			"%s: empty duration (accepted: a number of seconds, or with unit ms, s, m, h)",
			what);
	if (parse_number(&p, &n))
		return ios_errf(
			err, -EINVAL,
			"%s: invalid duration \"%s\" (accepted: a number of seconds, or with unit ms, s, m, h)",
			what, s);
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(p, units[i].unit) == 0)
			break;
	}
	if (i == sizeof(units) / sizeof(units[0]))
		return ios_errf(
			err, -EINVAL,
			"%s: invalid duration \"%s\": unknown unit \"%s\" (accepted: ms, s, m, h)",
			what, s, p);
	v = ((double)n.whole + (double)n.frac / (double)n.scale) *
	    units[i].mult;
	if (v > 1e9)
		return ios_errf(err, -ERANGE, "%s: duration \"%s\" is too long",
				what, s);
	*out = v;
	return 0;
}

const char *ios_fmt_size(uint64_t bytes, char *buf, size_t len)
{
	static const char *const pfx[] = {"B",   "KiB", "MiB", "GiB",
					  "TiB", "PiB", "EiB"};
	double v = (double)bytes;
	int i = 0;

	while (v >= 1024.0 && i < 6) {
		v /= 1024.0;
		i++;
	}
	if (i == 0 || v == (double)(uint64_t)v)
		snprintf(buf, len, "%.0f %s", v, pfx[i]);
	else
		snprintf(buf, len, "%.2f %s", v, pfx[i]);
	return buf;
}

const char *ios_fmt_rate(double bps, char *buf, size_t len)
{
	static const char *const pfx[] = {"B/s", "kB/s", "MB/s", "GB/s",
					  "TB/s"};
	int i = 0;

	while (bps >= 1000.0 && i < 4) {
		bps /= 1000.0;
		i++;
	}
	snprintf(buf, len, i ? "%.2f %s" : "%.0f %s", bps, pfx[i]);
	return buf;
}

void ios_deadline(clockid_t clk, const struct timespec *rel,
		  struct timespec *end)
{
	clock_gettime(clk, end);
	end->tv_sec += rel->tv_sec;
	end->tv_nsec += rel->tv_nsec;
	if (end->tv_nsec >= 1000000000L) {
		end->tv_sec++;
		end->tv_nsec -= 1000000000L;
	}
}

char *ios_trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}
