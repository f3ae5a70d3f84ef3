/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sweepfit: the fits under the sweep model (see sweepfit.h): isotonic
 * regression on a line and a grid, interpolation, the knees of a curve.
 * The model built from them is in sweepmodel.c.
 * Pure computation: no I/O, no printing.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweepfit.h"
#include "sweepfit_internal.h"

double sf_t975(int df)
{
	/* Student's t, 0.975 quantile, df 1..30, then 40, 60, 120, inf */
	static const double t[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447,
				   2.365,  2.306, 2.262, 2.228, 2.201, 2.179,
				   2.160,  2.145, 2.131, 2.120, 2.110, 2.101,
				   2.093,  2.086, 2.080, 2.074, 2.069, 2.064,
				   2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
	static const double big_df[] = {30, 40, 60, 120, INFINITY};
	static const double big_t[] = {2.042, 2.021, 2.000, 1.980, 1.960};

	if (df <= 0)
		return NAN;
	if (df <= 30)
		return t[df - 1];
	/* linear in 1/df between the table's rows */
	for (int i = 0; i < 4; i++) {
		if (df <= big_df[i + 1]) {
			double a = 1 / big_df[i], b = 1 / big_df[i + 1];

			return big_t[i] + (big_t[i + 1] - big_t[i]) *
						  (a - 1.0 / df) / (a - b);
		}
	}
	return 1.960;
}

int sf_pava(const double *y, const double *w, size_t n, double *fit)
{
	double *v, *wt;
	size_t *len, nb = 0;

	if (n == 0)
		return -EINVAL;
	for (size_t i = 0; w && i < n; i++)
		if (!(w[i] > 0))
			return -EINVAL;
	v = malloc(n * sizeof(*v));
	wt = malloc(n * sizeof(*wt));
	len = malloc(n * sizeof(*len));
	if (!v || !wt || !len) {
		free(v);
		free(wt);
		free(len);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		v[nb] = y[i];
		wt[nb] = w ? w[i] : 1;
		len[nb++] = 1;
		/* pool the last two blocks while they violate the order */
		while (nb > 1 && v[nb - 2] > v[nb - 1]) {
			double ws = wt[nb - 2] + wt[nb - 1];

			v[nb - 2] = (v[nb - 2] * wt[nb - 2] +
				     v[nb - 1] * wt[nb - 1]) /
				    ws;
			wt[nb - 2] = ws;
			len[nb - 2] += len[nb - 1];
			nb--;
		}
	}
	for (size_t b = 0, i = 0; b < nb; b++)
		for (size_t k = 0; k < len[b]; k++)
			fit[i++] = v[b];
	free(v);
	free(wt);
	free(len);
	return 0;
}

/*
 * Project z (cells with w > 0 only) onto the monotone cone of each line:
 * a line is n cells at start + k * stride.
 */
static int pava_lines(double *z, const double *w, size_t nlines,
		      size_t line_step, size_t n, size_t stride, double *ty,
		      double *tw)
{
	for (size_t l = 0; l < nlines; l++) {
		size_t m = 0;
		int rc;

		for (size_t k = 0; k < n; k++) {
			size_t i = l * line_step + k * stride;

			if (w[i] > 0) {
				ty[m] = z[i];
				tw[m++] = w[i];
			}
		}
		if (m == 0)
			continue;
		if ((rc = sf_pava(ty, tw, m, ty)) < 0)
			return rc;
		m = 0;
		for (size_t k = 0; k < n; k++) {
			size_t i = l * line_step + k * stride;

			if (w[i] > 0)
				z[i] = ty[m++];
		}
	}
	return 0;
}

/* Value at [at] between the nearest cells with data of one line. */
static bool fill_line(const double *fit, const double *w, size_t start,
		      size_t n, size_t stride, size_t k, const double *ax,
		      double *out, double *near)
{
	long lo = -1, hi = -1;

	for (long j = (long)k - 1; j >= 0 && lo < 0; j--)
		if (w[start + (size_t)j * stride] > 0)
			lo = j;
	for (size_t j = k + 1; j < n && hi < 0; j++)
		if (w[start + j * stride] > 0)
			hi = (long)j;
	if (lo >= 0 && hi >= 0) {
		double xl = ax ? ax[lo] : (double)lo;
		double xh = ax ? ax[hi] : (double)hi;
		double xk = ax ? ax[k] : (double)k;
		double fl = fit[start + (size_t)lo * stride];
		double fh = fit[start + (size_t)hi * stride];

		*out = fl + (fh - fl) * (xk - xl) / (xh - xl);
		return true;
	}
	if (lo >= 0)
		*near = fit[start + (size_t)lo * stride];
	else if (hi >= 0)
		*near = fit[start + (size_t)hi * stride];
	return false;
}

int sf_iso2(const double *y, const double *w, size_t nr, size_t nc,
	    const double *rx, const double *cx, double *fit)
{
	size_t n = nr * nc, nmax = nr > nc ? nr : nc, ndata = 0;
	double *p, *q, *a, *z, *ty, *tw, scale = 0;
	int rc = 0;

	if (n == 0)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (w[i] < 0)
			return -EINVAL;
		if (w[i] > 0) {
			ndata++;
			if (fabs(y[i]) > scale)
				scale = fabs(y[i]);
		}
	}
	if (ndata == 0)
		return -EINVAL;
	p = calloc(n, sizeof(*p));
	q = calloc(n, sizeof(*q));
	a = calloc(n, sizeof(*a));
	z = calloc(n, sizeof(*z));
	ty = calloc(nmax, sizeof(*ty));
	tw = calloc(nmax, sizeof(*tw));
	if (!p || !q || !a || !z || !ty || !tw) {
		rc = -ENOMEM;
		goto out;
	}
	/* Dykstra: z = y; repeat a = rows(z + P), P += z - a,
	 * z = cols(a + Q), Q += a - z; converges to the projection onto the
	 * intersection of both cones (the bivariate isotonic fit) */
	for (size_t i = 0; i < n; i++)
		fit[i] = w[i] > 0 ? y[i] : 0;
	for (int it = 0; it < 5000; it++) {
		double change = 0;

		for (size_t i = 0; i < n; i++)
			a[i] = fit[i] + p[i];
		if ((rc = pava_lines(a, w, nr, nc, nc, 1, ty, tw)) < 0)
			goto out;
		for (size_t i = 0; i < n; i++) {
			p[i] += fit[i] - a[i];
			a[i] += q[i];
		}
		memcpy(z, a, n * sizeof(*z));
		if ((rc = pava_lines(z, w, nc, 1, nr, nc, ty, tw)) < 0)
			goto out;
		for (size_t i = 0; i < n; i++) {
			if (w[i] > 0 && fabs(z[i] - fit[i]) > change)
				change = fabs(z[i] - fit[i]);
			q[i] = a[i] - z[i];
			fit[i] = z[i];
		}
		if (change <= 1e-13 * (scale > 0 ? scale : 1) && it > 0)
			break;
	}
	/* cells without data: from their row, else column, neighbours */
	for (size_t r = 0; r < nr; r++)
		for (size_t c = 0; c < nc; c++) {
			size_t i = r * nc + c;
			double v, nr_row = NAN, nr_col = NAN;

			if (w[i] > 0)
				continue;
			if (fill_line(fit, w, r * nc, nc, 1, c, cx, &v,
				      &nr_row) ||
			    fill_line(fit, w, c, nr, nc, r, rx, &v, &nr_col)) {
				fit[i] = v;
				continue;
			}
			if (!isnan(nr_row) && !isnan(nr_col))
				fit[i] = (nr_row + nr_col) / 2;
			else
				fit[i] = !isnan(nr_row) ? nr_row : nr_col;
			if (isnan(fit[i])) {
				/* alone in its row and column: the mean */
				double s = 0, ws = 0;

				for (size_t k = 0; k < n; k++)
					if (w[k] > 0) {
						s += fit[k] * w[k];
						ws += w[k];
					}
				fit[i] = s / ws;
			}
		}
out:
	free(p);
	free(q);
	free(a);
	free(z);
	free(ty);
	free(tw);
	return rc;
}

double sf_interp(const double *x, const double *f, size_t n, double at,
		 enum sf_where *where)
{
	enum sf_where wh = SF_INTERPOLATED;
	double v;

	if (at < x[0] && !same(at, x[0])) {
		wh = SF_EXTRAP_BELOW;
		v = f[0];
	} else if (at > x[n - 1] && !same(at, x[n - 1])) {
		wh = SF_EXTRAP_ABOVE;
		v = f[n - 1];
	} else {
		size_t i = 0;

		while (i + 1 < n && x[i + 1] < at && !same(x[i + 1], at))
			i++;
		if (same(at, x[i]) || n == 1)
			v = f[i];
		else if (i + 1 < n && same(at, x[i + 1]))
			v = f[i + 1];
		else
			v = f[i] +
			    (f[i + 1] - f[i]) * (at - x[i]) / (x[i + 1] - x[i]);
	}
	if (where)
		*where = wh;
	return v;
}

/* ---- knee ---------------------------------------------------------- */

/* SSE of y = a + b clamp(x, k1, k2); b and a through *b, *a. */
static double ramp_sse(const double *x, const double *y, size_t n, double k1,
		       double k2, double *pa, double *pb)
{
	double sz = 0, sy = 0, szz = 0, szy = 0, syy = 0, b, a, sse;

	for (size_t i = 0; i < n; i++) {
		double z = x[i] < k1 ? k1 : x[i] > k2 ? k2 : x[i];

		sz += z;
		sy += y[i];
		szz += z * z;
		szy += z * y[i];
		syy += y[i] * y[i];
	}
	szz -= sz * sz / (double)n;
	szy -= sz * sy / (double)n;
	syy -= sy * sy / (double)n;
	if (szz <= 1e-300) {
		*pb = 0;
		*pa = sy / (double)n;
		return syy;
	}
	b = szy / szz;
	if (b < 0) /* a non-decreasing ramp: a falling one is the mean */
		b = 0;
	a = (sy - b * sz) / (double)n;
	sse = syy - 2 * b * szy + b * b * szz;
	*pa = a;
	*pb = b;
	return sse < 0 ? 0 : sse;
}

int sf_knee_fit(const double *x, const double *y, size_t n, int steps,
		double noise_sd, int reps, struct sf_knee *out)
{
	double *u, *cand, *prof1, *prof2, best = INFINITY, thr, t;
	size_t nu = 0, nk = 0, bi = 0, bj = 0;
	double ba = 0, bb = 0;

	memset(out, 0, sizeof(*out));
	out->n = (int)n;
	if (n == 0)
		return -EINVAL;
	if (steps < 1)
		steps = 1;
	u = malloc(n * sizeof(*u));
	if (!u)
		return -ENOMEM;
	memcpy(u, x, n * sizeof(*u));
	qsort(u, n, sizeof(*u), dbl_cmp);
	for (size_t i = 0; i < n; i++)
		if (nu == 0 || !same(u[i], u[nu - 1]))
			u[nu++] = u[i];
	if (n < 5 || nu < 3) {
		free(u);
		return 0;
	}
	nk = (nu - 1) * (size_t)steps + 1;
	cand = malloc(nk * sizeof(*cand));
	prof1 = malloc(nk * sizeof(*prof1));
	prof2 = malloc(nk * sizeof(*prof2));
	if (!cand || !prof1 || !prof2) {
		free(u);
		free(cand);
		free(prof1);
		free(prof2);
		return -ENOMEM;
	}
	for (size_t i = 0, k = 0; i + 1 < nu; i++)
		for (int s = 0; s < steps; s++)
			cand[k++] = u[i] + (u[i + 1] - u[i]) * s / steps;
	cand[nk - 1] = u[nu - 1];
	for (size_t k = 0; k < nk; k++)
		prof1[k] = prof2[k] = INFINITY;
	for (size_t i = 0; i < nk; i++)
		for (size_t j = i + 1; j < nk; j++) {
			double a, b,
				e = ramp_sse(x, y, n, cand[i], cand[j], &a, &b);

			if (e < prof1[i])
				prof1[i] = e;
			if (e < prof2[j])
				prof2[j] = e;
			if (isinf(best) || e < best - 1e-12 * best) {
				best = e;
				bi = i;
				bj = j;
				ba = a;
				bb = b;
			}
		}
	out->ok = true;
	out->k1 = cand[bi];
	out->k2 = cand[bj];
	out->low = ba + bb * out->k1;
	out->high = ba + bb * out->k2;
	out->sse = best;
	out->sd = sqrt(best / (double)(n - 4));
	t = sf_t975((int)n - 4);
	/* profile interval: every breakpoint whose best SSE is within the
	 * F(1, n - 4) = t^2 bound of the minimum */
	thr = best * (1 + t * t / (double)(n - 4)) + 1e-12 * fabs(best) +
	      1e-300;
	out->k1_lo = out->k2_lo = INFINITY;
	out->k1_hi = out->k2_hi = -INFINITY;
	for (size_t k = 0; k < nk; k++) {
		if (prof1[k] <= thr) {
			out->k1_lo = fmin(out->k1_lo, cand[k]);
			out->k1_hi = fmax(out->k1_hi, cand[k]);
		}
		if (prof2[k] <= thr) {
			out->k2_lo = fmin(out->k2_lo, cand[k]);
			out->k2_hi = fmax(out->k2_hi, cand[k]);
		}
	}
	{
		double rise = out->high - out->low;
		double se = !isnan(noise_sd) && reps > 0
				    ? 2 * noise_sd * sqrt(2.0 / reps)
				    : 0;

		out->flat = !(rise > 0.02 * fabs(out->high)) || rise <= se;
	}
	/* a plateau only when even its interval ends before the largest x:
	 * a noisy curve that rises all the way fits best with a "plateau"
	 * over its last point alone, and that is no threshold */
	out->plateau = !out->flat && out->k2_hi < u[nu - 1] &&
		       !same(out->k2_hi, u[nu - 1]);
	free(u);
	free(cand);
	free(prof1);
	free(prof2);
	return 0;
}

int sf_knee_obs(const double *x, const double *y, size_t n, struct sf_knee *out)
{
	double ss = 0;
	int df = 0, minreps = 0;

	/* per distinct x (its first observation): count, mean, squares */
	for (size_t i = 0; i < n; i++) {
		double sum = 0, sq = 0;
		int k = 0;
		bool first = true;

		for (size_t j = 0; j < i && first; j++)
			first = !same(x[j], x[i]);
		if (!first)
			continue;
		for (size_t j = i; j < n; j++)
			if (same(x[j], x[i])) {
				sum += y[j];
				k++;
			}
		for (size_t j = i; j < n; j++)
			if (same(x[j], x[i]))
				sq += (y[j] - sum / k) * (y[j] - sum / k);
		ss += sq;
		df += k - 1;
		if (minreps == 0 || k < minreps)
			minreps = k;
	}
	return sf_knee_fit(x, y, n, SF_KNEE_STEPS, df > 0 ? sqrt(ss / df) : NAN,
			   minreps, out);
}
