/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_units: the units grammar (common/units.c).  The first byte picks the
 * parser (size, rate, uint with bounds, duration), the rest is the text.
 * Beyond "no crash, no UB", checks the contract of units.h: a success
 * returns a value inside the documented bounds, a failure -EINVAL or
 * -ERANGE with a message; the formatters print what was parsed.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "units.h"

static void check_fail(int rc, const struct ios_err *err)
{
	if ((rc != -EINVAL && rc != -ERANGE) || err->code != rc || !err->msg[0])
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ios_err err = {0};
	uint64_t u = 0, lo, hi;
	double d = -1;
	char buf[64];
	char *s;
	int rc;

	if (size < 1)
		return 0;
	s = fuzz_strndup(data + 1, size - 1);
	switch (data[0] % 4) {
	case 0:
		rc = ios_parse_size(s, "fuzz", &u, &err);
		if (rc == 0 && u > INT64_MAX)
			abort();
		if (rc == 0)
			ios_fmt_size(u, buf, sizeof(buf));
		break;
	case 1:
		rc = ios_parse_rate(s, "fuzz", &u, &err);
		if (rc == 0 && u > INT64_MAX)
			abort();
		if (rc == 0)
			ios_fmt_rate((double)u, buf, sizeof(buf));
		break;
	case 2:
		/* bounds from the first byte: [0, max], [1, 65536], ... */
		lo = (data[0] >> 2) & 1;
		hi = (data[0] >> 3) & 1 ? 65536 : UINT64_MAX;
		rc = ios_parse_uint(s, "fuzz", lo, hi, &u, &err);
		if (rc == 0 && (u < lo || u > hi))
			abort();
		break;
	default:
		rc = ios_parse_duration(s, "fuzz", &d, &err);
		if (rc == 0 && (isnan(d) || d < 0 || d > 1e9))
			abort();
		break;
	}
	fuzz_note("units", rc, err.msg);
	if (rc < 0)
		check_fail(rc, &err);
	free(s);
	return 0;
}
