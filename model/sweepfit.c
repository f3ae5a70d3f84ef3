/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sweepfit: monotone performance model of sweep campaigns, its
 * leave-one-out error and the knees of its curves (see sweepfit.h).
 * Pure computation: no I/O, no printing.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweepfit.h"

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

static bool same(double a, double b)
{
	return fabs(a - b) <= 1e-9 * (fabs(a) > fabs(b) ? fabs(a) : fabs(b));
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

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

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
	out->plateau =
		!out->flat && out->k2 < u[nu - 1] && !same(out->k2, u[nu - 1]);
	free(u);
	free(cand);
	free(prof1);
	free(prof2);
	return 0;
}

/* ---- the model ----------------------------------------------------- */

/* A growable list of repetitions. */
struct reps {
	double *v;
	size_t n;
};

static int reps_add(struct reps *r, const double *v, int n)
{
	double *nv;

	if (n <= 0)
		return 0;
	nv = realloc(r->v, (r->n + (size_t)n) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	r->v = nv;
	memcpy(r->v + r->n, v, (size_t)n * sizeof(*v));
	r->n += (size_t)n;
	return 0;
}

static double mean(const struct reps *r)
{
	double s = 0;

	for (size_t i = 0; i < r->n; i++)
		s += r->v[i];
	return r->n ? s / (double)r->n : NAN;
}

/* Sorted unique values of [v] into [out]; returns their count. */
static size_t uniq(double *v, size_t n)
{
	size_t k = 0;

	qsort(v, n, sizeof(*v), dbl_cmp);
	for (size_t i = 0; i < n; i++)
		if (k == 0 || !same(v[i], v[k - 1]))
			v[k++] = v[i];
	return k;
}

static size_t index_of(const double *ax, size_t n, double v)
{
	for (size_t i = 0; i < n; i++)
		if (same(ax[i], v))
			return i;
	return n;
}

static int say(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int say(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (why && len) {
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

void sf_model_free(struct sf_model *m)
{
	if (!m)
		return;
	free(m->cx);
	free(m->mx);
	free(m->gmean);
	free(m->gw);
	free(m->gfit);
	free(m->dx);
	free(m->dmean);
	free(m->dw);
	free(m->dfit);
	free(m->mem_knee_row);
	memset(m, 0, sizeof(*m));
}

/* Knee of observations gathered from [nr] lists at x values [xs]. */
static int knee_of(const struct reps *r, const double *xs, size_t nr,
		   double scale, double sd, struct sf_knee *out)
{
	size_t n = 0, k = 0;
	double *x, *y;
	int rc, minreps = 0;

	for (size_t i = 0; i < nr; i++) {
		n += r[i].n;
		if (r[i].n && (minreps == 0 || (int)r[i].n < minreps))
			minreps = (int)r[i].n;
	}
	memset(out, 0, sizeof(*out));
	if (n == 0)
		return 0;
	x = malloc(n * sizeof(*x));
	y = malloc(n * sizeof(*y));
	if (!x || !y) {
		free(x);
		free(y);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nr; i++)
		for (size_t j = 0; j < r[i].n; j++) {
			x[k] = xs[i];
			y[k++] = r[i].v[j] / scale;
		}
	rc = sf_knee_fit(x, y, n, 20, sd / scale, minreps, out);
	free(x);
	free(y);
	return rc;
}

int sf_fit(struct sf_model *m, const struct sf_point *p, size_t n, double d_ref,
	   char *why, size_t whylen)
{
	struct reps *cell = NULL, *disk = NULL;
	double cmax = -INFINITY, gmax = -INFINITY, *tmp = NULL, ss = 0;
	double *err = NULL;
	int rc = 0, df = 0;
	size_t ne = 0;

	memset(m, 0, sizeof(*m));
	m->sd_rep = m->loo_rmse = NAN;
	if (n == 0)
		return say(why, whylen, "no configuration to fit");
	for (size_t i = 0; i < n; i++) {
		if (p[i].nreps <= 0)
			return say(
				why, whylen,
				"configuration %zu (%.3g cores/OSD, %.3g GB/OSD, %.4g MB/s) has no valid repetition",
				i, p[i].cores, p[i].gb, p[i].mbps);
		cmax = fmax(cmax, p[i].cores);
		gmax = fmax(gmax, p[i].gb);
	}
	/* pooled spread over repetitions */
	for (size_t i = 0; i < n; i++) {
		double mu = 0;

		for (int k = 0; k < p[i].nreps; k++)
			mu += p[i].reps[k];
		mu /= p[i].nreps;
		for (int k = 0; k < p[i].nreps; k++)
			ss += (p[i].reps[k] - mu) * (p[i].reps[k] - mu);
		df += p[i].nreps - 1;
	}
	m->df_rep = df;
	m->sd_rep = df > 0 ? sqrt(ss / df) : NAN;
	/* no element at the installed rate on the full node and no grid:
	 * relative to the fastest measured speed */
	{
		bool any_ref = false;
		double fastest = -INFINITY;

		for (size_t i = 0; i < n; i++) {
			if (same(p[i].mbps, d_ref))
				any_ref = true;
			fastest = fmax(fastest, p[i].mbps);
		}
		if (!any_ref) {
			m->base_fastest = true;
			d_ref = fastest;
		}
	}
	m->d_ref = d_ref;
	/* n values, and d_ref added to the full node's speeds */
	tmp = malloc((n + 1) * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	/* grid axes from the points at d_ref; disk speeds from the full
	 * node's points */
	for (size_t i = 0; i < n; i++) {
		bool full = same(p[i].cores, cmax) && same(p[i].gb, gmax);

		if (!same(p[i].mbps, d_ref) && !full) {
			rc = say(
				why, whylen,
				"configuration %zu (%.3g cores/OSD, %.3g GB/OSD, %.4g MB/s) changes the disk speed and the cores or memory at once: the model joins a cores x memory sweep at the installed disks with a disk-speed sweep on the full node",
				i, p[i].cores, p[i].gb, p[i].mbps);
			goto out;
		}
	}
	for (int axis = 0; axis < 2; axis++) {
		size_t k = 0, nu;
		double **ax = axis ? &m->mx : &m->cx;

		for (size_t i = 0; i < n; i++)
			if (same(p[i].mbps, d_ref))
				tmp[k++] = axis ? p[i].gb : p[i].cores;
		if (k == 0) /* only throttled elements: the full node */
			tmp[k++] = axis ? gmax : cmax;
		nu = uniq(tmp, k);
		*ax = malloc(nu * sizeof(**ax));
		if (!*ax) {
			rc = -ENOMEM;
			goto out;
		}
		memcpy(*ax, tmp, nu * sizeof(**ax));
		if (axis)
			m->nm = nu;
		else
			m->nc = nu;
	}
	{
		size_t k = 0;

		for (size_t i = 0; i < n; i++)
			if (same(p[i].cores, cmax) && same(p[i].gb, gmax))
				tmp[k++] = p[i].mbps;
		tmp[k++] = d_ref;
		m->nd = uniq(tmp, k);
		m->dx = malloc(m->nd * sizeof(*m->dx));
		if (!m->dx) {
			rc = -ENOMEM;
			goto out;
		}
		memcpy(m->dx, tmp, m->nd * sizeof(*m->dx));
	}
	cell = calloc(m->nc * m->nm, sizeof(*cell));
	disk = calloc(m->nd, sizeof(*disk));
	m->gmean = calloc(m->nc * m->nm, sizeof(double));
	m->gw = calloc(m->nc * m->nm, sizeof(double));
	m->gfit = calloc(m->nc * m->nm, sizeof(double));
	m->dmean = calloc(m->nd, sizeof(double));
	m->dw = calloc(m->nd, sizeof(double));
	m->dfit = calloc(m->nd, sizeof(double));
	m->mem_knee_row = calloc(m->nc, sizeof(*m->mem_knee_row));
	err = calloc(m->nc * m->nm + m->nd, sizeof(*err));
	if (!cell || !disk || !m->gmean || !m->gw || !m->gfit || !m->dmean ||
	    !m->dw || !m->dfit || !m->mem_knee_row || !err) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		bool full = same(p[i].cores, cmax) && same(p[i].gb, gmax);

		if (same(p[i].mbps, d_ref)) {
			size_t c = index_of(m->cx, m->nc, p[i].cores);
			size_t g = index_of(m->mx, m->nm, p[i].gb);

			if ((rc = reps_add(&cell[c * m->nm + g], p[i].reps,
					   p[i].nreps)) < 0)
				goto out;
		}
		if (full &&
		    (rc = reps_add(&disk[index_of(m->dx, m->nd, p[i].mbps)],
				   p[i].reps, p[i].nreps)) < 0)
			goto out;
	}
	for (size_t i = 0; i < m->nc * m->nm; i++) {
		m->gw[i] = (double)cell[i].n;
		m->gmean[i] = cell[i].n ? mean(&cell[i]) : NAN;
		if (cell[i].n && !(m->gmean[i] > 0)) {
			rc = say(
				why, whylen,
				"a configuration's mean is %g: the model needs positive figures",
				m->gmean[i]);
			goto out;
		}
	}
	m->has_grid = m->nc * m->nm > 1;
	m->has_disk = m->nd > 1;
	if ((rc = sf_iso2(m->gmean, m->gw, m->nc, m->nm, m->cx, m->mx,
			  m->gfit)) < 0) {
		if (rc == -EINVAL)
			say(why, whylen,
			    "the full node with the installed disks was not measured");
		goto out;
	}
	/* the disk curve: speeds without data (d_ref when only throttled
	 * elements ran) are left out of its fit */
	{
		size_t k = 0;
		double *y = malloc(m->nd * sizeof(*y)), *w, *f;

		w = malloc(m->nd * sizeof(*w));
		f = malloc(m->nd * sizeof(*f));
		if (!y || !w || !f) {
			free(y);
			free(w);
			free(f);
			rc = -ENOMEM;
			goto out;
		}
		for (size_t i = 0; i < m->nd; i++) {
			m->dw[i] = (double)disk[i].n;
			m->dmean[i] = disk[i].n ? mean(&disk[i]) : NAN;
			if (disk[i].n) {
				y[k] = m->dmean[i];
				w[k++] = m->dw[i];
			}
		}
		rc = k ? sf_pava(y, w, k, f) : -EINVAL;
		for (size_t i = 0, j = 0; rc == 0 && i < m->nd; i++)
			m->dfit[i] = disk[i].n ? f[j++] : NAN;
		free(y);
		free(w);
		free(f);
		if (rc < 0) {
			say(why, whylen, "no measurement on the full node");
			goto out;
		}
	}
	m->base = m->gfit[m->nc * m->nm - 1];
	if (!(m->base > 0)) {
		rc = say(why, whylen, "the full node's figure is not positive");
		goto out;
	}
	/* leave-one-out: each configuration's mean predicted by the fit of
	 * the others, relative to the base */
	if (m->has_grid) {
		double *w2 = malloc(m->nc * m->nm * sizeof(*w2));
		double *f2 = malloc(m->nc * m->nm * sizeof(*f2));
		size_t ncell = 0;

		for (size_t i = 0; i < m->nc * m->nm; i++)
			ncell += m->gw[i] > 0;
		for (size_t i = 0; w2 && f2 && ncell > 1 && i < m->nc * m->nm;
		     i++) {
			if (!(m->gw[i] > 0))
				continue;
			memcpy(w2, m->gw, m->nc * m->nm * sizeof(*w2));
			w2[i] = 0;
			if (sf_iso2(m->gmean, w2, m->nc, m->nm, m->cx, m->mx,
				    f2) == 0)
				err[ne++] = (f2[i] - m->gmean[i]) / m->base;
		}
		if (!w2 || !f2)
			rc = -ENOMEM;
		free(w2);
		free(f2);
		if (rc < 0)
			goto out;
	}
	if (m->has_disk) {
		double *x = malloc(m->nd * sizeof(*x)), *y, *w;
		size_t nwith = 0;

		y = malloc(m->nd * sizeof(*y));
		w = malloc(m->nd * sizeof(*w));
		for (size_t i = 0; i < m->nd; i++)
			nwith += m->dw[i] > 0;
		for (size_t i = 0; x && y && w && nwith > 1 && i < m->nd; i++) {
			size_t k = 0;

			/* the installed rate's point is the grid's full cell,
			 * already left out there */
			if (!(m->dw[i] > 0) ||
			    (m->has_grid && same(m->dx[i], d_ref)))
				continue;
			for (size_t j = 0; j < m->nd; j++)
				if (j != i && m->dw[j] > 0) {
					x[k] = m->dx[j];
					y[k] = m->dmean[j];
					w[k++] = m->dw[j];
				}
			if (sf_pava(y, w, k, y) == 0)
				err[ne++] =
					(sf_interp(x, y, k, m->dx[i], NULL) -
					 m->dmean[i]) /
					m->base;
		}
		if (!x || !y || !w)
			rc = -ENOMEM;
		free(x);
		free(y);
		free(w);
		if (rc < 0)
			goto out;
	}
	if (ne) {
		double s = 0;

		for (size_t i = 0; i < ne; i++)
			s += err[i] * err[i];
		m->loo_rmse = sqrt(s / (double)ne);
	}
	m->nloo = (int)ne;
	/* thresholds */
	if (m->has_disk && (rc = knee_of(disk, m->dx, m->nd, m->base, m->sd_rep,
					 &m->disk_knee)) < 0)
		goto out;
	for (size_t c = 0; m->has_grid && c < m->nc; c++)
		if ((rc = knee_of(&cell[c * m->nm], m->mx, m->nm, m->base,
				  m->sd_rep, &m->mem_knee_row[c])) < 0)
			goto out;
	if (m->has_grid)
		m->mem_knee = m->mem_knee_row[m->nc - 1];
out:
	for (size_t i = 0; cell && i < m->nc * m->nm; i++)
		free(cell[i].v);
	for (size_t i = 0; disk && i < m->nd; i++)
		free(disk[i].v);
	free(cell);
	free(disk);
	free(tmp);
	free(err);
	if (rc < 0)
		sf_model_free(m);
	return rc;
}

static enum sf_where worse(enum sf_where a, enum sf_where b)
{
	return a > b ? a : b;
}

void sf_predict(const struct sf_model *m, double cores, double gb, double mbps,
		struct sf_pred *out)
{
	enum sf_where wc, wm, wd = SF_INTERPOLATED;
	size_t ci = 0, mi = 0;
	double g, h, t;
	size_t c0, c1, m0, m1;
	double fc, fm;

	memset(out, 0, sizeof(*out));
	/* grid: bilinear between the neighbouring cells */
	(void)sf_interp(m->cx, m->cx, m->nc, cores, &wc);
	(void)sf_interp(m->mx, m->mx, m->nm, gb, &wm);
	while (ci + 1 < m->nc && m->cx[ci + 1] <= cores)
		ci++;
	while (mi + 1 < m->nm && m->mx[mi + 1] <= gb)
		mi++;
	c0 = ci;
	c1 = ci + 1 < m->nc ? ci + 1 : ci;
	m0 = mi;
	m1 = mi + 1 < m->nm ? mi + 1 : mi;
	fc = c1 == c0 ? 0
		      : fmin(1, fmax(0, (cores - m->cx[c0]) /
						(m->cx[c1] - m->cx[c0])));
	fm = m1 == m0 ? 0
		      : fmin(1, fmax(0, (gb - m->mx[m0]) /
						(m->mx[m1] - m->mx[m0])));
	if (cores < m->cx[0])
		fc = 0;
	if (gb < m->mx[0])
		fm = 0;
	g = (1 - fc) * (1 - fm) * m->gfit[c0 * m->nm + m0] +
	    (1 - fc) * fm * m->gfit[c0 * m->nm + m1] +
	    fc * (1 - fm) * m->gfit[c1 * m->nm + m0] +
	    fc * fm * m->gfit[c1 * m->nm + m1];
	if (!m->has_grid && (wc != SF_INTERPOLATED || wm != SF_INTERPOLATED))
		wc = SF_UNMODELLED;
	/* disk curve over the speeds with data */
	{
		double x[64], f[64];
		size_t k = 0;

		for (size_t i = 0; i < m->nd && k < 64; i++)
			if (m->dw[i] > 0) {
				x[k] = m->dx[i];
				f[k++] = m->dfit[i];
			}
		if (same(mbps, m->d_ref) || k == 0) {
			h = 1;
		} else {
			double ref = sf_interp(x, f, k, m->d_ref, NULL);

			h = sf_interp(x, f, k, mbps, &wd) / ref;
			if (!m->has_disk)
				wd = SF_UNMODELLED;
		}
	}
	out->rel = g / m->base * h;
	out->where = worse(worse(wc, wm), wd);
	/* measured: the configuration's own mean and its spread */
	{
		size_t c = index_of(m->cx, m->nc, cores);
		size_t g2 = index_of(m->mx, m->nm, gb);
		size_t d = index_of(m->dx, m->nd, mbps);
		double mu = NAN, w = 0;

		if (same(mbps, m->d_ref) && c < m->nc && g2 < m->nm &&
		    m->gw[c * m->nm + g2] > 0) {
			mu = m->gmean[c * m->nm + g2];
			w = m->gw[c * m->nm + g2];
		} else if (c == m->nc - 1 && g2 == m->nm - 1 && d < m->nd &&
			   m->dw[d] > 0) {
			mu = m->dmean[d];
			w = m->dw[d];
		}
		if (w > 0) {
			out->where = SF_MEASURED;
			out->rel = mu / m->base;
			out->nreps = (int)w;
			t = sf_t975(m->df_rep);
			if (isnan(t) || isnan(m->sd_rep)) {
				out->lo = out->hi = NAN;
			} else {
				double e = t * m->sd_rep / sqrt(w) / m->base;

				out->lo = out->rel - e;
				out->hi = out->rel + e;
			}
			return;
		}
	}
	t = sf_t975(m->nloo - 1);
	if (isnan(t) || isnan(m->loo_rmse)) {
		out->lo = out->hi = NAN;
	} else {
		out->lo = out->rel - t * m->loo_rmse;
		out->hi = out->rel + t * m->loo_rmse;
	}
}
