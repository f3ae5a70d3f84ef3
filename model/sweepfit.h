/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sweepfit: a performance model fitted to sweep campaigns (pure
 * computation, no I/O).  One metric at a time, over (cores per OSD, GB per
 * OSD, disk MB/s):
 *
 *   f(c, m, d) = g(c, m) x h(d) / h(d_ref)
 *
 * g: a cores x memory campaign, run with the installed disks (d_ref),
 * fitted by bivariate isotonic regression on its grid (non-decreasing in
 * both, Dykstra & Robertson 1982: row and column pool-adjacent-violators
 * alternated with their corrections) and interpolated bilinearly.
 * h: a disk-speed campaign, run on the full node (most cores and memory),
 * joined with the full cell of the grid at d_ref, fitted by isotonic
 * regression and interpolated linearly.  The product is the assumption
 * (disk speed scales what the CPU and memory allow); a point that is
 * neither at d_ref nor on the full node cannot be modelled and is refused.
 *
 * Uncertainty: the pooled spread over repetitions (sd of one repetition)
 * and leave-one-out cross-validation (each configuration left out, its
 * component refitted, its mean predicted: the RMSE).  A measured point's
 * interval is mean +- t s / sqrt(n); a modelled one's fit +- t LOO-RMSE.
 *
 * Thresholds: a ramp y = a + b clamp(x, k1, k2) fitted by least squares
 * over a grid of breakpoints (k2: where the plateau starts), with a 95%
 * profile interval {k2 : SSE(k2) <= SSE_min (1 + t^2 / (n - 4))}.
 */
#ifndef IOSTRATA_SWEEPFIT_H
#define IOSTRATA_SWEEPFIT_H

#include <stdbool.h>
#include <stddef.h>

/* Where a prediction comes from. */
enum sf_where {
	SF_MEASURED = 0, /* a configuration of the sweep */
	SF_INTERPOLATED, /* inside the measured ranges */
	SF_EXTRAP_ABOVE, /* more of some resource than measured: the edge
			  * value, a lower bound if the metric is monotone */
	SF_EXTRAP_BELOW, /* less than measured: no bound, never advised */
	SF_UNMODELLED,   /* a dimension no campaign varied */
};

/* Two-sided 95% quantile of Student's t with [df] degrees of freedom
 * (df <= 0: NAN). */
double sf_t975(int df);

/*
 * Weighted isotonic (non-decreasing) regression of y[0..n) by
 * pool-adjacent-violators into fit[] (may alias y).  Weights w (NULL: 1)
 * must be > 0.  Returns 0 or -EINVAL (n == 0, a weight <= 0).
 */
int sf_pava(const double *y, const double *w, size_t n, double *fit);

/*
 * Bivariate isotonic regression of a row-major nr x nc grid (rows: first
 * axis at values rx[], columns: second at cx[], NULL: 0, 1, ...;
 * non-decreasing along both).  w[i] = 0 marks a cell without data: it is
 * left out of the fit and filled afterwards by linear interpolation from
 * its fitted row neighbours, else its column neighbours, else the mean of
 * the nearest ones.  Returns 0, -EINVAL (empty grid, a negative weight, no
 * cell with data), -ENOMEM.
 */
int sf_iso2(const double *y, const double *w, size_t nr, size_t nc,
	    const double *rx, const double *cx, double *fit);

/*
 * Piecewise-linear value at [at] of points (x[i], f[i]), x increasing.
 * Outside [x0, xn-1] the edge value; *where (may be NULL) says which.
 */
double sf_interp(const double *x, const double *f, size_t n, double at,
		 enum sf_where *where);

/* The ramp fit and its breakpoints. */
struct sf_knee {
	bool ok;             /* fitted (>= 5 observations, >= 3 speeds) */
	bool flat;           /* the rise is within the noise: no threshold */
	bool plateau;        /* a plateau was reached: k2 and its whole 95%
			      * interval below the largest x */
	double low, high;    /* fitted levels below k1 and above k2 */
	double k1, k2;       /* breakpoints (k1 = the smallest x: no first
			      * plateau) */
	double k2_lo, k2_hi; /* 95% profile interval of k2 */
	double k1_lo, k1_hi; /* the same for k1 */
	double sse, sd;      /* residual sum of squares, its sd */
	int n;
};

/*
 * Fit the ramp to observations (x[i], y[i]) (repetitions as separate
 * observations).  Breakpoint candidates: every x and [steps] points
 * between consecutive distinct x.  [noise_sd] (the pooled repetition sd,
 * NAN unknown) and the repetitions per point [reps] judge flatness: flat
 * when the rise is under 2% of the level or under 2 standard errors of a
 * difference of two means.  Returns 0 (out->ok false when there is too
 * little data) or -EINVAL (n == 0), -ENOMEM.
 */
int sf_knee_fit(const double *x, const double *y, size_t n, int steps,
		double noise_sd, int reps, struct sf_knee *out);

/* Breakpoint candidates between consecutive x of every knee fitted. */
#define SF_KNEE_STEPS 20

/*
 * The knee of observations (x[i], y[i]) (repetitions as separate
 * observations) judged against their own noise: sf_knee_fit with
 * SF_KNEE_STEPS, the pooled sd of the repetitions at each distinct x (NAN
 * when no x has two) and the fewest repetitions at an x.  What `iostrata-
 * report plot` draws on a throttle curve; sf_fit's disk knee is the same
 * fit with the model's noise.  Returns as sf_knee_fit.
 */
int sf_knee_obs(const double *x, const double *y, size_t n,
		struct sf_knee *out);

/* One configuration of the campaigns, in model units. */
struct sf_point {
	double cores;       /* per OSD */
	double gb;          /* per OSD, 10^9 bytes */
	double mbps;        /* disk MB/s (10^6 B/s); the installed rate when the
			     * element did not throttle */
	const double *reps; /* the metric over valid repetitions */
	int nreps;
	bool baseline; /* the campaign's unconstrained baseline element (no
			* constraint: the full node, installed disks) */
};

/* The fitted model of one metric. */
struct sf_model {
	/* grid (g) at d_ref: cores x gb, row-major */
	size_t nc, nm;
	double *cx, *mx;           /* axis values, increasing */
	double *gmean, *gw, *gfit; /* cell means, repetitions, fit */
	/* disk curve (h) on the full node */
	size_t nd;
	double *dx, *dmean, *dw, *dfit;
	double d_ref; /* installed MB/s */
	/* what every value is relative to: the mean of the unconstrained
	 * baseline elements' means when the points have any (base_baseline,
	 * nbase of them), else the largest configuration swept (the full
	 * node's cell at the installed disks: its measured mean, else its
	 * fit) */
	double base;
	bool base_baseline;
	int nbase;
	bool base_fastest; /* no unthrottled full node: base is the fastest
			    * measured disk speed (d_ref is set to it) */
	bool has_grid;     /* a cores x memory campaign (more than one cell) */
	bool has_disk;     /* a disk-speed campaign (more than one speed) */
	double sd_rep;     /* pooled sd of one repetition, NAN if none */
	int df_rep;        /* its degrees of freedom */
	double loo_rmse;   /* relative to base, NAN when no point could be left
			    * out */
	int nloo;
	struct sf_knee disk_knee;     /* on the disk curve (relative) */
	struct sf_knee mem_knee;      /* memory axis at the most cores */
	struct sf_knee *mem_knee_row; /* memory axis at each core count */
};

/*
 * Fit [m] to points p[0..n) with the installed disk rate [d_ref] (MB/s).
 * Returns 0, -EINVAL with a sentence in [why] (no points, a point with no
 * repetition, a point neither at d_ref nor on the full node, the full node
 * not measured, a grid whose values are not positive), -ENOMEM.
 */
int sf_fit(struct sf_model *m, const struct sf_point *p, size_t n, double d_ref,
	   char *why, size_t whylen);

/* Free what sf_fit allocated (the struct itself is the caller's). */
void sf_model_free(struct sf_model *m);

/* A prediction relative to the model's base (1 = the full node). */
struct sf_pred {
	double rel, lo, hi; /* value and 95% interval; lo clipped at 0 (a
			     * relative performance below 0 is impossible) */
	double half;        /* the interval's half-width before the clip:
			     * rel - half is the unclipped lower end (NAN:
			     * no interval) */
	enum sf_where where;
	int nreps; /* measured: repetitions behind it */
};

/* Predict the metric at (cores per OSD, GB per OSD, disk MB/s); the
 * interval is rel +- half, its lower end clipped at 0. */
void sf_predict(const struct sf_model *m, double cores, double gb, double mbps,
		struct sf_pred *out);

#endif
