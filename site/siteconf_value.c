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
	if (end == v || *ios_site_trim(end) || errno || !isfinite(d) || d < 0)
		return ios_errf(
			err, -EINVAL,
			"%s: invalid number \"%s\": expected a non-negative decimal number",
			what, v);
	*out = d;
	return 0;
}

static int parse_item(enum ios_site_kind kind, const char *v, const char *what,
		      uint64_t *out, struct ios_err *err)
{
	switch (kind) {
	case IOS_SITE_SIZE_LIST:
		return ios_parse_size(v, what, out, err);
	case IOS_SITE_RATE_LIST:
		return ios_parse_rate(v, what, out, err);
	default:
		return ios_parse_uint(v, what, 0, UINT64_MAX, out, err);
	}
}

/*
 * Parse a list value into a malloc'd array.  Returns the count or a
 * negative errno with [err] set.
 */
int ios_site_parse_list(enum ios_site_kind kind, const char *value,
			const char *what, uint64_t **out, struct ios_err *err)
{
	char *copy = strdup(value), *tok, *save = NULL;
	uint64_t *vals = NULL;
	size_t n = 0;
	int rc = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ", \t", &save); tok;
	     tok = strtok_r(NULL, ", \t", &save)) {
		char *dots = strstr(tok, ".."), *colon;
		uint64_t a, b, step = 1;

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
			if ((rc = parse_item(kind, tok, what, &a, err)) < 0 ||
			    (rc = parse_item(kind, dots + 2, what, &b, err)) <
				    0 ||
			    (rc = parse_item(kind, colon + 1, what, &step,
					     err)) < 0)
				goto out;
			if (step == 0 || b < a) {
				rc = ios_errf(
					err, -EINVAL,
					"%s: invalid range \"%s..%s:%s\": need A <= B and STEP > 0",
					what, tok, dots + 2, colon + 1);
				goto out;
			}
		} else {
			if ((rc = parse_item(kind, tok, what, &a, err)) < 0)
				goto out;
			b = a;
		}
		for (uint64_t x = a; x <= b; x += step) {
			uint64_t *nv;

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
	case IOS_SITE_UINT:
		return ios_parse_uint(value, what, 0, UINT64_MAX, &u, err);
	case IOS_SITE_DOUBLE:
		return ios_site_parse_double(value, what, &x, err);
	case IOS_SITE_DURATION:
		return ios_parse_duration(value, what, &x, err);
	case IOS_SITE_SIZE_LIST:
	case IOS_SITE_RATE_LIST:
	case IOS_SITE_UINT_LIST:
		rc = ios_site_parse_list(d->kind, value, what, &list, err);
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
