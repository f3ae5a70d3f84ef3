/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for jobscripts/campaign_estimate.c: the expected wall time of
 * a campaign (`iostrata-campaign plan --estimate`, `status`).
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "campaign.h"
#include "campaign_estimate.h"

#define GiB (1024.0 * 1024 * 1024)

static struct camp_est_params paper(void)
{
	struct camp_est_params p = {
		.job = "sweep-disk-bw",
		.runtime_s = 150,
		.reps = 7,
		.ranks = 512,
		.file_size = 16ull << 30,
		.replication = 3,
		.rep_overhead_s = 0.16,
		.elem_overhead_s = 9,
	};
	return p;
}

static void test_shape(void **state)
{
	unsigned r, ph;

	(void)state;
	assert_int_equal(camp_est_shape("sweep-cores-mem", &r, &ph), 0);
	assert_int_equal(r * ph, 4);
	assert_int_equal(camp_est_shape("sweep-threads", &r, &ph), 0);
	assert_int_equal(r * ph, 5);
	assert_int_equal(camp_est_shape("layered", &r, &ph), -EINVAL);
	assert_int_equal(camp_est_shape("acceptance", &r, &ph), -EINVAL);
}

static void test_one_element_by_hand(void **state)
{
	struct camp_est_params p = paper();
	struct camp_element e[1] = {{.replication = 3}};
	struct camp_est x;
	struct camp_est_element one;
	/* 2 runs x 2 phases x 7 reps x 150 s; 28 x 0.16 s; 2 x 8 TiB at the
	 * paper's replication-3 write rate (0.176 x 32.5 GiB/s); 9 s */
	double lay = 2 * 512 * 16 * GiB / (0.176 * 32.5 * GiB);

	(void)state;
	assert_int_equal(camp_estimate(&p, e, 1, false, &x, &one), 0);
	assert_float_equal(one.timed_s, 4200, 1e-9);
	assert_float_equal(one.rep_s, 28 * 0.16, 1e-9);
	assert_float_equal(one.layout_s, lay, 1e-6);
	assert_float_equal(one.total_s, 4200 + 28 * 0.16 + lay + 9, 1e-6);
	assert_float_equal(x.total_s, one.total_s, 1e-9);
	assert_int_equal(x.layouts, 1);
}

static void test_reuse_lays_out_once_per_factor(void **state)
{
	struct camp_est_params p = paper();
	struct camp_element e[5] = {
		{.replication = 2}, {.replication = 2}, {.replication = 3},
		{.replication = 3}, {.replication = 3},
	};
	struct camp_est with, without;
	double l2 = 2 * 512 * 16 * GiB / (0.258 * 32.5 * GiB);
	double l3 = 2 * 512 * 16 * GiB / (0.176 * 32.5 * GiB);

	(void)state;
	assert_int_equal(camp_estimate(&p, e, 5, true, &with, NULL), 0);
	assert_int_equal(camp_estimate(&p, e, 5, false, &without, NULL), 0);
	assert_int_equal(with.layouts, 2);
	assert_int_equal(without.layouts, 5);
	assert_float_equal(with.layout_s, l2 + l3, 1e-6);
	assert_float_equal(without.layout_s, 2 * l2 + 3 * l3, 1e-6);
	/* the rest does not depend on reuse */
	assert_float_equal(with.total_s - with.layout_s,
			   without.total_s - without.layout_s, 1e-6);
	assert_float_equal(with.timed_s, 5 * 4200, 1e-9);
}

static void test_rank_sweep_adds_only_new_files(void **state)
{
	struct camp_est_params p = paper();
	struct camp_element e[3] = {
		{.ranks = 64},
		{.ranks = 256},
		{.ranks = 128},
	};
	struct camp_est with, without;
	double per_rank = 16 * GiB / (0.176 * 32.5 * GiB);

	(void)state;
	p.job = "sweep-threads";
	assert_int_equal(camp_estimate(&p, e, 3, true, &with, NULL), 0);
	assert_int_equal(camp_estimate(&p, e, 3, false, &without, NULL), 0);
	/* one run each; reuse: 64, then the 192 files 256 adds, then none */
	assert_float_equal(with.layout_s, 256 * per_rank, 1e-6);
	assert_int_equal(with.layouts, 2);
	assert_float_equal(without.layout_s, (64 + 256 + 128) * per_rank, 1e-6);
	assert_float_equal(with.timed_s, 3 * 5 * 7 * 150.0, 1e-9);
}

static void test_layout_rate(void **state)
{
	struct camp_est_params p = paper();

	(void)state;
	assert_float_equal(camp_est_layout_bps(&p, 1), 0.479 * 32.5 * GiB, 1);
	/* an element of no factor runs at the site's replication */
	assert_float_equal(camp_est_layout_bps(&p, 0), 0.176 * 32.5 * GiB, 1);
	assert_float_equal(camp_est_layout_bps(&p, 6), 0.088 * 32.5 * GiB, 1);
	p.layout_bps = 1e9; /* given: for every factor */
	assert_float_equal(camp_est_layout_bps(&p, 2), 1e9, 0);
}

static void test_refused(void **state)
{
	struct camp_est_params p = paper();
	struct camp_element e[1] = {{0}};
	struct camp_est x;

	(void)state;
	p.job = "layered";
	assert_int_equal(camp_estimate(&p, e, 1, false, &x, NULL), -EINVAL);
	p = paper();
	p.reps = 0;
	assert_int_equal(camp_estimate(&p, e, 1, false, &x, NULL), -EINVAL);
	p = paper();
	p.elem_overhead_s = -1;
	assert_int_equal(camp_estimate(&p, e, 1, false, &x, NULL), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shape),
		cmocka_unit_test(test_one_element_by_hand),
		cmocka_unit_test(test_reuse_lays_out_once_per_factor),
		cmocka_unit_test(test_rank_sweep_adds_only_new_files),
		cmocka_unit_test(test_layout_rate),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
