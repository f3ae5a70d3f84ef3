/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sweepmodel: the performance model of sweep campaigns built from the fits
 * of sweepfit.c (sf_fit: the grid, the disk curve, the leave-one-out error,
 * the knees) and its predictions (sf_predict); see sweepfit.h.
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
#include "sweepfit_internal.h"

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
	rc = sf_knee_fit(x, y, n, SF_KNEE_STEPS, sd / scale, minreps, out);
	free(x);
	free(y);
	return rc;
}

/* What sf_fit works on, stage by stage: the points, the full node, the
 * installed disk speed, the repetitions per grid cell and per disk speed,
 * the leave-one-out errors, and where to say why a fit is refused. */
struct fit {
	const struct sf_point *p;
	size_t n;
	double cmax, gmax; /* the full node: most cores, most memory */
	double d_ref;      /* the installed disk speed (m->d_ref) */
	double *tmp;       /* n + 1 values */
	struct reps *cell; /* [nc * nm] the grid's repetitions */
	struct reps *disk; /* [nd] the disk curve's repetitions */
	double *err;       /* [nc * nm + nd] leave-one-out errors */
	size_t ne;
	char *why;
	size_t whylen;
};

/* Every point has a repetition; the full node into f->cmax, f->gmax. */
static int check_points(struct fit *f)
{
	const struct sf_point *p = f->p;

	f->cmax = f->gmax = -INFINITY;
	if (f->n == 0)
		return say(f->why, f->whylen, "no configuration to fit");
	for (size_t i = 0; i < f->n; i++) {
		if (p[i].nreps <= 0)
			return say(
				f->why, f->whylen,
				"configuration %zu (%.3g cores/OSD, %.3g GB/OSD, %.4g MB/s) has no valid repetition",
				i, p[i].cores, p[i].gb, p[i].mbps);
		f->cmax = fmax(f->cmax, p[i].cores);
		f->gmax = fmax(f->gmax, p[i].gb);
	}
	return 0;
}

/* The pooled spread over repetitions: m->sd_rep on m->df_rep. */
static void pooled_spread(struct sf_model *m, const struct fit *f)
{
	const struct sf_point *p = f->p;
	double ss = 0;
	int df = 0;

	for (size_t i = 0; i < f->n; i++) {
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
}

/* No element at the installed rate on the full node and no grid:
 * relative to the fastest measured speed.  Sets m->d_ref. */
static void reference_speed(struct sf_model *m, struct fit *f)
{
	bool any_ref = false;
	double fastest = -INFINITY;

	for (size_t i = 0; i < f->n; i++) {
		if (same(f->p[i].mbps, f->d_ref))
			any_ref = true;
		fastest = fmax(fastest, f->p[i].mbps);
	}
	if (!any_ref) {
		m->base_fastest = true;
		f->d_ref = fastest;
	}
	m->d_ref = f->d_ref;
}

/* Each point is at the installed disks or on the full node. */
static int check_one_change(struct sf_model *m, struct fit *f)
{
	const struct sf_point *p = f->p;

	(void)m;
	for (size_t i = 0; i < f->n; i++) {
		bool full = same(p[i].cores, f->cmax) && same(p[i].gb, f->gmax);

		if (!same(p[i].mbps, f->d_ref) && !full)
			return say(
				f->why, f->whylen,
				"configuration %zu (%.3g cores/OSD, %.3g GB/OSD, %.4g MB/s) changes the disk speed and the cores or memory at once: the model joins a cores x memory sweep at the installed disks with a disk-speed sweep on the full node",
				i, p[i].cores, p[i].gb, p[i].mbps);
	}
	return 0;
}

/* Grid axes (m->cx, m->mx) from the points at d_ref; disk speeds (m->dx)
 * from the full node's points, and d_ref. */
static int axes(struct sf_model *m, struct fit *f)
{
	const struct sf_point *p = f->p;
	double *tmp = f->tmp;

	for (int axis = 0; axis < 2; axis++) {
		size_t k = 0, nu;
		double **ax = axis ? &m->mx : &m->cx;

		for (size_t i = 0; i < f->n; i++)
			if (same(p[i].mbps, f->d_ref))
				tmp[k++] = axis ? p[i].gb : p[i].cores;
		if (k == 0) /* only throttled elements: the full node */
			tmp[k++] = axis ? f->gmax : f->cmax;
		nu = uniq(tmp, k);
		*ax = malloc(nu * sizeof(**ax));
		if (!*ax)
			return -ENOMEM;
		memcpy(*ax, tmp, nu * sizeof(**ax));
		if (axis)
			m->nm = nu;
		else
			m->nc = nu;
	}
	{
		size_t k = 0;

		for (size_t i = 0; i < f->n; i++)
			if (same(p[i].cores, f->cmax) && same(p[i].gb, f->gmax))
				tmp[k++] = p[i].mbps;
		tmp[k++] = f->d_ref;
		m->nd = uniq(tmp, k);
		m->dx = malloc(m->nd * sizeof(*m->dx));
		if (!m->dx)
			return -ENOMEM;
		memcpy(m->dx, tmp, m->nd * sizeof(*m->dx));
	}
	return 0;
}

/* The model's tables and the working lists, sized by the axes. */
static int alloc_tables(struct sf_model *m, struct fit *f)
{
	f->cell = calloc(m->nc * m->nm, sizeof(*f->cell));
	f->disk = calloc(m->nd, sizeof(*f->disk));
	m->gmean = calloc(m->nc * m->nm, sizeof(double));
	m->gw = calloc(m->nc * m->nm, sizeof(double));
	m->gfit = calloc(m->nc * m->nm, sizeof(double));
	m->dmean = calloc(m->nd, sizeof(double));
	m->dw = calloc(m->nd, sizeof(double));
	m->dfit = calloc(m->nd, sizeof(double));
	m->mem_knee_row = calloc(m->nc, sizeof(*m->mem_knee_row));
	f->err = calloc(m->nc * m->nm + m->nd, sizeof(*f->err));
	if (!f->cell || !f->disk || !m->gmean || !m->gw || !m->gfit ||
	    !m->dmean || !m->dw || !m->dfit || !m->mem_knee_row || !f->err)
		return -ENOMEM;
	return 0;
}

/* Each point's repetitions into its grid cell (at d_ref) and its disk
 * speed (on the full node). */
static int gather(struct sf_model *m, struct fit *f)
{
	const struct sf_point *p = f->p;
	int rc;

	for (size_t i = 0; i < f->n; i++) {
		bool full = same(p[i].cores, f->cmax) && same(p[i].gb, f->gmax);

		if (same(p[i].mbps, f->d_ref)) {
			size_t c = index_of(m->cx, m->nc, p[i].cores);
			size_t g = index_of(m->mx, m->nm, p[i].gb);

			if ((rc = reps_add(&f->cell[c * m->nm + g], p[i].reps,
					   p[i].nreps)) < 0)
				return rc;
		}
		if (full &&
		    (rc = reps_add(&f->disk[index_of(m->dx, m->nd, p[i].mbps)],
				   p[i].reps, p[i].nreps)) < 0)
			return rc;
	}
	return 0;
}

/* The grid's cell means (positive) and its bivariate isotonic fit. */
static int fit_grid(struct sf_model *m, struct fit *f)
{
	int rc;

	for (size_t i = 0; i < m->nc * m->nm; i++) {
		m->gw[i] = (double)f->cell[i].n;
		m->gmean[i] = f->cell[i].n ? mean(&f->cell[i]) : NAN;
		if (f->cell[i].n && !(m->gmean[i] > 0))
			return say(
				f->why, f->whylen,
				"a configuration's mean is %g: the model needs positive figures",
				m->gmean[i]);
	}
	m->has_grid = m->nc * m->nm > 1;
	m->has_disk = m->nd > 1;
	if ((rc = sf_iso2(m->gmean, m->gw, m->nc, m->nm, m->cx, m->mx,
			  m->gfit)) < 0 &&
	    rc == -EINVAL)
		say(f->why, f->whylen,
		    "the full node with the installed disks was not measured");
	return rc;
}

/* The disk curve: speeds without data (d_ref when only throttled
 * elements ran) are left out of its fit. */
static int fit_disk(struct sf_model *m, struct fit *f)
{
	size_t k = 0;
	double *y = malloc(m->nd * sizeof(*y)), *w, *fit;
	int rc;

	w = malloc(m->nd * sizeof(*w));
	fit = malloc(m->nd * sizeof(*fit));
	if (!y || !w || !fit) {
		free(y);
		free(w);
		free(fit);
		return -ENOMEM;
	}
	for (size_t i = 0; i < m->nd; i++) {
		m->dw[i] = (double)f->disk[i].n;
		m->dmean[i] = f->disk[i].n ? mean(&f->disk[i]) : NAN;
		if (f->disk[i].n) {
			y[k] = m->dmean[i];
			w[k++] = m->dw[i];
		}
	}
	rc = k ? sf_pava(y, w, k, fit) : -EINVAL;
	for (size_t i = 0, j = 0; rc == 0 && i < m->nd; i++)
		m->dfit[i] = f->disk[i].n ? fit[j++] : NAN;
	free(y);
	free(w);
	free(fit);
	if (rc < 0)
		say(f->why, f->whylen, "no measurement on the full node");
	return rc;
}

/* The base: the mean of the unconstrained baseline points' means at the
 * installed disks (what the heatmaps are normalised to), else the largest
 * configuration swept: the full node's cell as measured (its fit when it
 * was not). */
static int set_base(struct sf_model *m, struct fit *f)
{
	size_t last = m->nc * m->nm - 1;
	double sum = 0;

	for (size_t i = 0; i < f->n; i++) {
		double mu = 0;

		if (!f->p[i].baseline || !same(f->p[i].mbps, f->d_ref))
			continue;
		for (int k = 0; k < f->p[i].nreps; k++)
			mu += f->p[i].reps[k];
		sum += mu / f->p[i].nreps;
		m->nbase++;
	}
	m->base_baseline = m->nbase > 0;
	if (m->base_baseline)
		m->base = sum / m->nbase;
	else
		m->base = m->gw[last] > 0 ? m->gmean[last] : m->gfit[last];
	if (!(m->base > 0))
		return say(f->why, f->whylen,
			   "the full node's figure is not positive");
	return 0;
}

/* Leave-one-out on the grid: each cell's mean predicted by the fit of the
 * others, relative to the base, into f->err. */
static int loo_grid(struct sf_model *m, struct fit *f)
{
	double *w2 = malloc(m->nc * m->nm * sizeof(*w2));
	double *f2 = malloc(m->nc * m->nm * sizeof(*f2));
	size_t ncell = 0;
	int rc = 0;

	for (size_t i = 0; i < m->nc * m->nm; i++)
		ncell += m->gw[i] > 0;
	for (size_t i = 0; w2 && f2 && ncell > 1 && i < m->nc * m->nm; i++) {
		if (!(m->gw[i] > 0))
			continue;
		memcpy(w2, m->gw, m->nc * m->nm * sizeof(*w2));
		w2[i] = 0;
		if (sf_iso2(m->gmean, w2, m->nc, m->nm, m->cx, m->mx, f2) == 0)
			f->err[f->ne++] = (f2[i] - m->gmean[i]) / m->base;
	}
	if (!w2 || !f2)
		rc = -ENOMEM;
	free(w2);
	free(f2);
	return rc;
}

/* Leave-one-out on the disk curve, into f->err. */
static int loo_disk(struct sf_model *m, struct fit *f)
{
	double *x = malloc(m->nd * sizeof(*x)), *y, *w;
	size_t nwith = 0;
	int rc = 0;

	y = malloc(m->nd * sizeof(*y));
	w = malloc(m->nd * sizeof(*w));
	for (size_t i = 0; i < m->nd; i++)
		nwith += m->dw[i] > 0;
	for (size_t i = 0; x && y && w && nwith > 1 && i < m->nd; i++) {
		size_t k = 0;

		/* the installed rate's point is the grid's full cell,
		 * already left out there */
		if (!(m->dw[i] > 0) ||
		    (m->has_grid && same(m->dx[i], f->d_ref)))
			continue;
		for (size_t j = 0; j < m->nd; j++)
			if (j != i && m->dw[j] > 0) {
				x[k] = m->dx[j];
				y[k] = m->dmean[j];
				w[k++] = m->dw[j];
			}
		if (sf_pava(y, w, k, y) == 0)
			f->err[f->ne++] = (sf_interp(x, y, k, m->dx[i], NULL) -
					   m->dmean[i]) /
					  m->base;
	}
	if (!x || !y || !w)
		rc = -ENOMEM;
	free(x);
	free(y);
	free(w);
	return rc;
}

/* Leave-one-out: each configuration's mean predicted by the fit of the
 * others, relative to the base; their RMSE into m->loo_rmse. */
static int leave_one_out(struct sf_model *m, struct fit *f)
{
	int rc;

	if (m->has_grid && (rc = loo_grid(m, f)) < 0)
		return rc;
	if (m->has_disk && (rc = loo_disk(m, f)) < 0)
		return rc;
	if (f->ne) {
		double s = 0;

		for (size_t i = 0; i < f->ne; i++)
			s += f->err[i] * f->err[i];
		m->loo_rmse = sqrt(s / (double)f->ne);
	}
	m->nloo = (int)f->ne;
	return 0;
}

/* The thresholds: the disk curve's knee, each grid row's memory knee. */
static int knees(struct sf_model *m, struct fit *f)
{
	int rc;

	if (m->has_disk && (rc = knee_of(f->disk, m->dx, m->nd, m->base,
					 m->sd_rep, &m->disk_knee)) < 0)
		return rc;
	for (size_t c = 0; m->has_grid && c < m->nc; c++)
		if ((rc = knee_of(&f->cell[c * m->nm], m->mx, m->nm, m->base,
				  m->sd_rep, &m->mem_knee_row[c])) < 0)
			return rc;
	if (m->has_grid)
		m->mem_knee = m->mem_knee_row[m->nc - 1];
	return 0;
}

/* The stages of sf_fit after the checks, in order; each 0 or -errno. */
static int (*const fit_stages[])(struct sf_model *m, struct fit *f) = {
	check_one_change, axes,     alloc_tables,  gather, fit_grid,
	fit_disk,         set_base, leave_one_out, knees,
};

int sf_fit(struct sf_model *m, const struct sf_point *p, size_t n, double d_ref,
	   char *why, size_t whylen)
{
	struct fit f = {
		.p = p, .n = n, .d_ref = d_ref, .why = why, .whylen = whylen};
	int rc;

	memset(m, 0, sizeof(*m));
	m->sd_rep = m->loo_rmse = NAN;
	if ((rc = check_points(&f)) < 0)
		return rc;
	pooled_spread(m, &f);
	reference_speed(m, &f);
	/* n values, and d_ref added to the full node's speeds */
	f.tmp = malloc((n + 1) * sizeof(*f.tmp));
	if (!f.tmp)
		return -ENOMEM;
	for (size_t i = 0;
	     rc == 0 && i < sizeof(fit_stages) / sizeof(fit_stages[0]); i++)
		rc = fit_stages[i](m, &f);
	for (size_t i = 0; f.cell && i < m->nc * m->nm; i++)
		free(f.cell[i].v);
	for (size_t i = 0; f.disk && i < m->nd; i++)
		free(f.disk[i].v);
	free(f.cell);
	free(f.disk);
	free(f.tmp);
	free(f.err);
	if (rc < 0)
		sf_model_free(m);
	return rc;
}

static enum sf_where worse(enum sf_where a, enum sf_where b)
{
	return a > b ? a : b;
}

/* out->rel +- [half] (NAN: no interval), the lower end clipped at 0: a
 * relative performance cannot be negative, and an interval reaching below
 * 0 only says the model knows little there (half keeps how little). */
static void set_interval(struct sf_pred *out, double half)
{
	out->half = half;
	if (isnan(half)) {
		out->lo = out->hi = NAN;
		return;
	}
	out->lo = fmax(0, out->rel - half);
	out->hi = out->rel + half;
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
			set_interval(out, isnan(t) || isnan(m->sd_rep)
						  ? NAN
						  : t * m->sd_rep / sqrt(w) /
							    m->base);
			return;
		}
	}
	t = sf_t975(m->nloo - 1);
	set_interval(out,
		     isnan(t) || isnan(m->loo_rmse) ? NAN : t * m->loo_rmse);
}
