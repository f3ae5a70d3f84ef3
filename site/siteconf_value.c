/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * siteconf_value: the typed values of a site description (numbers, sizes,
 * rates, durations, enums, lists and ranges), checked against the key's
 * declared kind.  Used by the loader and the typed getters (siteconf.c).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "siteconf.h"
#include "siteconf_internal.h"
#include "units.h"

int ios_site_parse_double(const char *v, const char *what, double *out,
			  struct ios_err *err)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(v, &end);
	if (end == v || *ios_trim(end) || errno || !isfinite(d) || d < 0)
		return ios_errf(
			err, -EINVAL,
			"%s: invalid number \"%s\": expected a non-negative decimal number",
			what, v);
	*out = d;
	return 0;
}

static int parse_item(enum ios_site_kind kind, const char *v, const char *what,
		      uint64_t min, uint64_t max, uint64_t *out,
		      struct ios_err *err)
{
	switch (kind) {
	case IOS_SITE_SIZE_LIST:
		return ios_parse_size(v, what, out, err);
	case IOS_SITE_RATE_LIST:
		return ios_parse_rate(v, what, out, err);
	default:
		return ios_parse_uint(v, what, min, max, out, err);
	}
}

/*
 * The next item of a list at *[pos] (NULL at the end), cut in place.
 * Lenient lists take commas, blanks and tabs as separators (runs of them
 * count once); [strict] lists only single commas, white space around an
 * item ignored, and return "" for an empty item.
 */
static char *next_item(char **pos, bool strict)
{
	char *p = *pos, *end;

	if (!p)
		return NULL;
	if (!strict) {
		p += strspn(p, ", \t");
		if (!*p)
			return *pos = NULL;
		end = p + strcspn(p, ", \t");
		*pos = *end ? end + 1 : NULL;
		*end = '\0';
		return p;
	}
	end = strchr(p, ',');
	*pos = end ? end + 1 : NULL;
	if (end)
		*end = '\0';
	return ios_trim(p);
}

/*
 * Parse a list value into a malloc'd array.  Returns the count or a
 * negative errno with [err] set.  [min], [max]: the range of whole-number
 * items; a list with a narrower range than any is strict (next_item) and
 * refuses an item given twice.
 */
static int parse_list(enum ios_site_kind kind, const char *value,
		      const char *what, uint64_t min, uint64_t max,
		      uint64_t **out, struct ios_err *err)
{
	bool strict = min != 0 || max != UINT64_MAX;
	char *copy = strdup(value), *pos;
	uint64_t *vals = NULL;
	size_t n = 0;
	int rc = 0;

	if (!copy)
		return -ENOMEM;
	pos = copy;
	for (char *tok; (tok = next_item(&pos, strict));) {
		char *dots, *colon;
		uint64_t a, b, step = 1;

		if (!*tok) {
			rc = ios_errf(
				err, -EINVAL,
				"%s: invalid list \"%s\": an empty item (expected items separated by single commas, e.g. 1, 4, 8)",
				what, value);
			goto out;
		}
		dots = strstr(tok, "..");

		if (dots) {
			*dots = '\0';
			colon = strchr(dots + 2, ':');
			if (!colon) {
				rc = ios_errf(
					err, -EINVAL,
					"%s: invalid range \"%s..%s\": expected A..B:STEP",
					what, tok, dots + 2);
				goto out;
			}
			*colon = '\0';
			if ((rc = parse_item(kind, tok, what, min, max, &a,
					     err)) < 0 ||
			    (rc = parse_item(kind, dots + 2, what, min, max, &b,
					     err)) < 0 ||
			    (rc = parse_item(kind, colon + 1, what, 0,
					     UINT64_MAX, &step, err)) < 0)
				goto out;
			if (step == 0 || b < a) {
				rc = ios_errf(
					err, -EINVAL,
					"%s: invalid range \"%s..%s:%s\": need A <= B and STEP > 0",
					what, tok, dots + 2, colon + 1);
				goto out;
			}
		} else {
			if ((rc = parse_item(kind, tok, what, min, max, &a,
					     err)) < 0)
				goto out;
			b = a;
		}
		for (uint64_t x = a; x <= b; x += step) {
			uint64_t *nv;

			for (size_t k = 0; strict && k < n; k++)
				if (vals[k] == x) {
					rc = ios_errf(
						err, -EINVAL,
						"%s: invalid list \"%s\": %llu appears twice (each item once)",
						what, value,
						(unsigned long long)x);
					goto out;
				}

			if (n >= MAX_LIST_ITEMS) {
				rc = ios_errf(
					err, -ERANGE,
					"%s: list \"%s\" has more than %d items",
					what, value, MAX_LIST_ITEMS);
				goto out;
			}
			nv = realloc(vals, (n + 1) * sizeof(*vals));
			if (!nv) {
				rc = -ENOMEM;
				goto out;
			}
			vals = nv;
			vals[n++] = x;
			if (UINT64_MAX - x < step)
				break;
		}
	}
	if (n == 0)
		rc = ios_errf(
			err, -EINVAL,
			"%s: empty list: expected items separated by commas",
			what);
out:
	free(copy);
	if (rc < 0) {
		free(vals);
		return rc;
	}
	*out = vals;
	return (int)n;
}

int ios_site_parse_list(enum ios_site_kind kind, const char *value,
			const char *what, uint64_t **out, struct ios_err *err)
{
	return parse_list(kind, value, what, 0, UINT64_MAX, out, err);
}

/* Whole-number keys with a range narrower than any (a bounded list also
 * refuses an item given twice: two elements of one label). */
static const struct key_bounds {
	const char *section, *key;
	uint64_t min, max;
} bounds[] = {
	{"workload", "rwmixread", 0, 100},
	{"sweep", "ranks", 1, 100000},
	{"sweep", "replication", 1, 10},
	{"sweep", "baseline_replication", 1, 10},
	{"sweep", "replication_pg_num", 1, 4096},
};

static const struct key_bounds *find_bounds(const struct key_def *d)
{
	for (size_t i = 0; i < sizeof(bounds) / sizeof(*bounds); i++)
		if (!strcmp(bounds[i].section, d->section) &&
		    !strcmp(bounds[i].key, d->key))
			return &bounds[i];
	return NULL;
}

int ios_site_parse_key_list(const struct key_def *d, const char *value,
			    const char *what, uint64_t **out,
			    struct ios_err *err)
{
	const struct key_bounds *b = find_bounds(d);

	if (d->kind == IOS_SITE_UINT_LIST && b)
		return parse_list(d->kind, value, what, b->min, b->max, out,
				  err);
	return ios_site_parse_list(d->kind, value, what, out, err);
}

/* Check [value] against [d]; returns 0 or a negative errno with [err]. */
int ios_site_check_value(const struct key_def *d, const char *value,
			 const char *what, struct ios_err *err)
{
	uint64_t u, *list = NULL;
	double x;
	int rc;

	if (!*value)
		return ios_errf(err, -EINVAL, "%s: empty value", what);
	switch (d->kind) {
	case IOS_SITE_STRING:
		return 0;
	case IOS_SITE_SIZE:
		return ios_parse_size(value, what, &u, err);
	case IOS_SITE_RATE:
		return ios_parse_rate(value, what, &u, err);
	case IOS_SITE_UINT: {
		const struct key_bounds *b = find_bounds(d);

		return ios_parse_uint(value, what, b ? b->min : 0,
				      b ? b->max : UINT64_MAX, &u, err);
	}
	case IOS_SITE_DOUBLE:
		return ios_site_parse_double(value, what, &x, err);
	case IOS_SITE_DURATION:
		return ios_parse_duration(value, what, &x, err);
	case IOS_SITE_SIZE_LIST:
	case IOS_SITE_RATE_LIST:
	case IOS_SITE_UINT_LIST:
		rc = ios_site_parse_key_list(d, value, what, &list, err);
		free(list);
		return rc < 0 ? rc : 0;
	case IOS_SITE_ENUM: {
		const char *p = d->choices;
		size_t vl = strlen(value);

		while (p) {
			const char *bar = strchr(p, '|');
			size_t l = bar ? (size_t)(bar - p) : strlen(p);

			if (l == vl && strncmp(p, value, l) == 0)
				return 0;
			p = bar ? bar + 1 : NULL;
		}
		return ios_errf(err, -EINVAL,
				"%s: invalid value \"%s\": accepted: %s", what,
				value, d->choices);
	}
	}
	return -EINVAL;
}
