/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sweepfit_internal: what the fits (sweepfit.c) and the model built from
 * them (sweepmodel.c) share; sweepfit.h is the interface.
 */
#ifndef IOSTRATA_SWEEPFIT_INTERNAL_H
#define IOSTRATA_SWEEPFIT_INTERNAL_H

#include <math.h>
#include <stdbool.h>

/* Equal to a relative 1e-9 (the axes of a sweep are decimal settings). */
static inline bool same(double a, double b)
{
	return fabs(a - b) <= 1e-9 * (fabs(a) > fabs(b) ? fabs(a) : fabs(b));
}

/* qsort order of doubles. */
static inline int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

#endif
