/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for model/sweepfit.c on synthetic sweeps with known answers:
 * isotonic fits (1-D and on a grid), a plateau at a known disk speed found
 * inside its interval, a linear region without a plateau, a flat metric,
 * noise of known size, leave-one-out errors computed by hand, predictions
 * marked measured / interpolated / extrapolated, and refused inputs.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "sweepfit.h"

#define NEAR(a, b, eps) assert_true(fabs((a) - (b)) <= (eps))

static void test_t975(void **state)
{
	(void)state;
	NEAR(sf_t975(1), 12.706, 1e-9);
	NEAR(sf_t975(10), 2.228, 1e-9);
	NEAR(sf_t975(40), 2.021, 1e-9);
	assert_true(sf_t975(45) < 2.021 && sf_t975(45) > 2.000);
	NEAR(sf_t975(100000), 1.96, 1e-3);
	assert_true(isnan(sf_t975(0)));
}

static void test_pava(void **state)
{
	static const struct {
		double y[4], w[4], want[4];
		size_t n;
	} cases[] = {
		{{1, 2, 3, 4}, {1, 1, 1, 1}, {1, 2, 3, 4}, 4},
		{{1, 3, 2, 4}, {1, 1, 1, 1}, {1, 2.5, 2.5, 4}, 4},
		/* weighted: (3 x 1 + 1 x 3) / 4 = 1.5 */
		{{3, 1, 5, 0}, {1, 3, 1, 1}, {1.5, 1.5, 2.5, 2.5}, 4},
		{{4, 3, 2, 1}, {1, 1, 1, 1}, {2.5, 2.5, 2.5, 2.5}, 4},
	};
	double fit[4], w0[2] = {1, 0};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		assert_int_equal(
			sf_pava(cases[i].y, cases[i].w, cases[i].n, fit), 0);
		for (size_t k = 0; k < cases[i].n; k++)
			if (fabs(fit[k] - cases[i].want[k]) > 1e-12)
				fail_msg("case %zu: fit[%zu] = %g, want %g", i,
					 k, fit[k], cases[i].want[k]);
	}
	assert_int_equal(sf_pava(cases[0].y, w0, 2, fit), -EINVAL);
	assert_int_equal(sf_pava(cases[0].y, NULL, 0, fit), -EINVAL);
}

static void test_iso2(void **state)
{
	/* rows (1, 3), (2, 0): the three violating cells pool to 5/3 */
	static const double y[] = {1, 3, 2, 0}, w[] = {1, 1, 1, 1};
	static const double mono[] = {1, 2, 3, 2, 3, 4};
	static const double row[] = {1, 99, 3}, rw[] = {1, 0, 1};
	static const double cx[] = {0, 1, 4};
	double fit[6];

	(void)state;
	assert_int_equal(sf_iso2(y, w, 2, 2, NULL, NULL, fit), 0);
	NEAR(fit[0], 1, 1e-9);
	NEAR(fit[1], 5.0 / 3, 1e-9);
	NEAR(fit[2], 5.0 / 3, 1e-9);
	NEAR(fit[3], 5.0 / 3, 1e-9);
	/* monotone already: unchanged */
	{
		double w6[6] = {1, 1, 1, 1, 1, 1};

		assert_int_equal(sf_iso2(mono, w6, 2, 3, NULL, NULL, fit), 0);
		for (int i = 0; i < 6; i++)
			NEAR(fit[i], mono[i], 1e-12);
	}
	/* a cell without data: linear in its axis between its neighbours,
	 * 1 + (3 - 1) x 1/4 */
	assert_int_equal(sf_iso2(row, rw, 1, 3, NULL, cx, fit), 0);
	NEAR(fit[1], 1.5, 1e-12);
	assert_int_equal(sf_iso2(row, (double[]){0, 0, 0}, 1, 3, NULL, cx, fit),
			 -EINVAL);
}

/* Deterministic normal noise (Box-Muller on a fixed LCG). */
static double noise(unsigned *s)
{
	double u1, u2;

	*s = *s * 1103515245u + 12345u;
	u1 = ((*s >> 8) + 1.0) / 16777217.0;
	*s = *s * 1103515245u + 12345u;
	u2 = ((*s >> 8) + 1.0) / 16777217.0;
	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

/* The paper's throttle sweep: 100..275 MB/s by 25, 7 repetitions each. */
static size_t throttle_obs(double knee, double sd, double *x, double *y)
{
	unsigned s = 42;
	size_t n = 0;

	for (int d = 100; d <= 275; d += 25)
		for (int r = 0; r < 7; r++) {
			x[n] = d;
			y[n++] = fmin(d, knee) / knee + sd * noise(&s);
		}
	return n;
}

static void test_knee(void **state)
{
	double x[64], y[64];
	struct sf_knee k;
	size_t n;

	(void)state;
	/* noise-free: the breakpoint itself (190 is a candidate: 175 + 12 x
	 * 25/20) */
	n = throttle_obs(190, 0, x, y);
	assert_int_equal(sf_knee_fit(x, y, n, 20, 0, 7, &k), 0);
	assert_true(k.ok && k.plateau && !k.flat);
	NEAR(k.k2, 190, 1e-9);
	NEAR(k.k1, 100, 1e-9);
	NEAR(k.high, 1, 1e-9);
	/* 2% noise: 190 inside the 95% interval, which stays narrow */
	n = throttle_obs(190, 0.02, x, y);
	assert_int_equal(sf_knee_fit(x, y, n, 20, 0.02, 7, &k), 0);
	assert_true(k.ok && k.plateau);
	if (!(k.k2_lo <= 190 && 190 <= k.k2_hi && k.k2_hi - k.k2_lo < 40))
		fail_msg("knee %.1f [%.1f, %.1f] misses 190 or is too wide",
			 k.k2, k.k2_lo, k.k2_hi);
	assert_true(k.sd > 0.01 && k.sd < 0.03);
	/* a plateau beyond the sweep: linear throughout, no plateau */
	n = throttle_obs(1000, 0, x, y);
	assert_int_equal(sf_knee_fit(x, y, n, 20, 0, 7, &k), 0);
	assert_true(k.ok && !k.plateau && !k.flat);
	NEAR(k.k2, 275, 1e-9);
	/* flat (the paper's sequential read): no threshold */
	n = throttle_obs(50, 0.01, x, y);
	assert_int_equal(sf_knee_fit(x, y, n, 20, 0.01, 7, &k), 0);
	assert_true(k.ok && k.flat && !k.plateau);
	/* too little data: not fitted */
	assert_int_equal(sf_knee_fit(x, y, 4, 20, 0, 1, &k), 0);
	assert_false(k.ok);
}

/* Points of a disk-only campaign; reps[i] = 4 values mean +- sd. */
static double reps_buf[16][4];

static struct sf_point pt(int i, double c, double g, double d, double mu,
			  double sd)
{
	static const double sign[] = {-1, -1, 1, 1};
	struct sf_point p = {c, g, d, reps_buf[i], 4, false};

	for (int k = 0; k < 4; k++)
		reps_buf[i][k] = mu + sd * sign[k];
	return p;
}

static void test_loo_disk(void **state)
{
	/* speeds 25 50 75 100 (100 = installed), means 0.4 0.9 0.8 1.0.
	 * By hand, each left out, PAVA of the others, linear between them,
	 * the edge value outside:
	 *   25: {0.9, 0.8, 1.0} -> {0.85, 0.85, 1.0}, at 25: 0.85, +0.45
	 *   50: {0.4, 0.8, 1.0}, at 50: 0.6, -0.30
	 *   75: {0.4, 0.9, 1.0}, at 75: 0.95, +0.15
	 *  100: {0.4, 0.9, 0.8} -> {0.4, 0.85, 0.85}, at 100: 0.85, -0.15
	 * RMSE = sqrt((0.2025 + 0.09 + 0.0225 + 0.0225) / 4) */
	struct sf_point p[4];
	struct sf_model m;
	struct sf_pred pr;
	char why[256];

	(void)state;
	p[0] = pt(0, 2, 10, 25, 0.4, 0.01);
	p[1] = pt(1, 2, 10, 50, 0.9, 0.01);
	p[2] = pt(2, 2, 10, 75, 0.8, 0.01);
	p[3] = pt(3, 2, 10, 100, 1.0, 0.01);
	assert_int_equal(sf_fit(&m, p, 4, 100, why, sizeof(why)), 0);
	assert_true(m.has_disk && !m.has_grid && !m.base_fastest);
	assert_int_equal(m.nloo, 4);
	NEAR(m.loo_rmse, sqrt(0.3375 / 4), 1e-12);
	/* noise of known size: 4 x (mu +- sd), df 3 each: s = sd sqrt(4/3) */
	NEAR(m.sd_rep, 0.01 * sqrt(4.0 / 3), 1e-12);
	assert_int_equal(m.df_rep, 12);
	/* measured: the mean, +- t(12) s / sqrt(4) */
	sf_predict(&m, 2, 10, 50, &pr);
	assert_int_equal(pr.where, SF_MEASURED);
	NEAR(pr.rel, 0.9, 1e-12);
	NEAR(pr.hi - pr.rel, 2.179 * 0.01 * sqrt(4.0 / 3) / 2, 1e-12);
	/* interpolated on the isotonic fit {0.4, 0.85, 0.85, 1.0} */
	sf_predict(&m, 2, 10, 87.5, &pr);
	assert_int_equal(pr.where, SF_INTERPOLATED);
	NEAR(pr.rel, 0.925, 1e-12);
	NEAR(pr.hi - pr.rel, sf_t975(3) * sqrt(0.3375 / 4), 1e-12);
	sf_predict(&m, 2, 10, 200, &pr);
	assert_int_equal(pr.where, SF_EXTRAP_ABOVE);
	NEAR(pr.rel, 1.0, 1e-12);
	sf_predict(&m, 2, 10, 10, &pr);
	assert_int_equal(pr.where, SF_EXTRAP_BELOW);
	/* no grid: other cores or memory are not modelled */
	sf_predict(&m, 1, 10, 100, &pr);
	assert_int_equal(pr.where, SF_UNMODELLED);
	sf_model_free(&m);
}

static void test_grid_and_join(void **state)
{
	/* 2 x 2 grid at the installed 100 MB/s: cores 1, 2 x GB 10, 20,
	 * 0.5 0.7 / 0.8 1.0, plus a disk sweep 50 MB/s = 0.6 on the full node.
	 * LOO by hand (each cell filled from its nearest row and column
	 * neighbours, their mean): 0.75 each: +0.25 +0.05 -0.05 -0.25; the
	 * disk point at 50 left out: the edge value 1.0, +0.4 */
	struct sf_point p[5];
	struct sf_model m;
	struct sf_pred pr;
	char why[256];

	(void)state;
	p[0] = pt(4, 1, 10, 100, 0.5, 0);
	p[1] = pt(5, 1, 20, 100, 0.7, 0);
	p[2] = pt(6, 2, 10, 100, 0.8, 0);
	p[3] = pt(7, 2, 20, 100, 1.0, 0);
	p[4] = pt(8, 2, 20, 50, 0.6, 0);
	assert_int_equal(sf_fit(&m, p, 5, 100, why, sizeof(why)), 0);
	assert_true(m.has_grid && m.has_disk);
	assert_int_equal(m.nloo, 5);
	NEAR(m.loo_rmse, sqrt((2 * 0.0625 + 2 * 0.0025 + 0.16) / 5), 1e-12);
	/* bilinear in the grid, times the disk curve: at 1.5 cores, 15 GB:
	 * 0.75; at 75 MB/s: 0.8 of the installed */
	sf_predict(&m, 1.5, 15, 100, &pr);
	assert_int_equal(pr.where, SF_INTERPOLATED);
	NEAR(pr.rel, 0.75, 1e-12);
	sf_predict(&m, 1.5, 15, 75, &pr);
	NEAR(pr.rel, 0.75 * 0.8, 1e-12);
	sf_predict(&m, 1, 20, 100, &pr);
	assert_int_equal(pr.where, SF_MEASURED);
	sf_predict(&m, 3, 20, 100, &pr);
	assert_int_equal(pr.where, SF_EXTRAP_ABOVE);
	sf_predict(&m, 0.5, 20, 100, &pr);
	assert_int_equal(pr.where, SF_EXTRAP_BELOW);
	sf_model_free(&m);

	/* a point that changes the disk speed and the cores: refused */
	p[4] = pt(8, 1, 20, 50, 0.6, 0);
	assert_int_equal(sf_fit(&m, p, 5, 100, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "changes the disk speed and the cores"));
	/* no repetition: refused, naming the configuration */
	p[4].nreps = 0;
	assert_int_equal(sf_fit(&m, p, 5, 100, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "configuration 4"));
}

/* The paper's memory finding: a drop below 9.1 GB per OSD at 2.3 cores,
 * flat in memory at 0.6 cores (CPU-bound). */
static void test_memory_knee(void **state)
{
	static const double gb[] = {2.3, 4.6, 9.1, 13.7}, cores[] = {0.6, 2.3};
	static double r[8][7];
	struct sf_point p[8];
	struct sf_model m;
	char why[256];
	unsigned s = 7;

	(void)state;
	for (int c = 0; c < 2; c++)
		for (int g = 0; g < 4; g++) {
			int i = c * 4 + g;
			double mu =
				c == 0 ? 0.8
				       : (gb[g] >= 9.1
						  ? 1.0
						  : 0.6 + 0.4 * (gb[g] - 2.3) /
								    6.8);

			for (int k = 0; k < 7; k++)
				r[i][k] = mu + 0.01 * noise(&s);
			p[i] = (struct sf_point){cores[c], gb[g], 250,
						 r[i],     7,     false};
		}
	assert_int_equal(sf_fit(&m, p, 8, 250, why, sizeof(why)), 0);
	assert_true(m.mem_knee.ok && m.mem_knee.plateau);
	if (!(m.mem_knee.k2_lo <= 9.1 && 9.1 <= m.mem_knee.k2_hi))
		fail_msg("memory knee %.2f [%.2f, %.2f] misses 9.1",
			 m.mem_knee.k2, m.mem_knee.k2_lo, m.mem_knee.k2_hi);
	assert_true(m.mem_knee_row[0].ok && m.mem_knee_row[0].flat);
	sf_model_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t975),
		cmocka_unit_test(test_pava),
		cmocka_unit_test(test_iso2),
		cmocka_unit_test(test_knee),
		cmocka_unit_test(test_loo_disk),
		cmocka_unit_test(test_grid_and_join),
		cmocka_unit_test(test_memory_knee),
	};

	return cmocka_run_group_tests_name("sweepfit", tests, NULL, NULL);
}
