/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * siteconf_internal: what the loader (siteconf.c) and the value checks
 * (siteconf_value.c) share.  Not an interface of the library.
 */
#ifndef IOSTRATA_SITECONF_INTERNAL_H
#define IOSTRATA_SITECONF_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "errbuf.h"
#include "siteconf.h"

#define MAX_LIST_ITEMS 10000

struct key_def {
	const char *section; /* "tier"/"disk": every tier/disk "NAME" */
	const char *key;
	enum ios_site_kind kind;
	const char *choices; /* IOS_SITE_ENUM: '|'-separated */
	bool path;           /* relative values are resolved against the dir */
};

int ios_site_parse_double(const char *v, const char *what, double *out,
			  struct ios_err *err);
/* The items of a list or range value of [kind], malloc'd in [out];
 * returns their count or a negative errno with [err]. */
int ios_site_parse_list(enum ios_site_kind kind, const char *value,
			const char *what, uint64_t **out, struct ios_err *err);
/* The same, for key [d]: its kind, and for the keys with bounds
 * (siteconf_value.c bounds[]) their range, each item once. */
int ios_site_parse_key_list(const struct key_def *d, const char *value,
			    const char *what, uint64_t **out,
			    struct ios_err *err);
/* Check [value] against [d]; returns 0 or a negative errno with [err]. */
int ios_site_check_value(const struct key_def *d, const char *value,
			 const char *what, struct ios_err *err);

#endif
