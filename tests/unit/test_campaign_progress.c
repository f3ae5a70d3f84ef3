/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for jobscripts/campaign_progress.c: the time-left estimate of
 * `iostrata-campaign status --wait`, its live line and its change lines.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "campaign.h"
#include "campaign_progress.h"

static void test_estimate_none_before_first(void **state)
{
	double run[] = {30};

	(void)state;
	/* nothing done: no basis, whatever runs or waits */
	assert_true(camp_estimate_left(NULL, 0, run, 1, 2) < 0);
	assert_true(camp_estimate_left(NULL, 0, NULL, 0, 3) < 0);
	/* nothing done and nothing left: 0, not "no estimate" */
	assert_true(camp_estimate_left(NULL, 0, NULL, 0, 0) == 0);
}

static void test_estimate_mean_of_done(void **state)
{
	double done[] = {20, 40}, run[] = {10}, over[] = {45};

	(void)state;
	/* mean 30: one running for 10 s (20 left) and two pending (60) */
	assert_float_equal(camp_estimate_left(done, 2, run, 1, 2), 80, 1e-9);
	/* all done: nothing left */
	assert_float_equal(camp_estimate_left(done, 2, NULL, 0, 0), 0, 1e-9);
	/* one that overran the mean adds nothing, never a negative time */
	assert_float_equal(camp_estimate_left(done, 2, over, 1, 1), 30, 1e-9);
	assert_float_equal(camp_estimate_left(done, 2, over, 1, 0), 0, 1e-9);
	/* nothing running: the pending ones one after the other */
	assert_float_equal(camp_estimate_left(done, 1, NULL, 0, 3), 60, 1e-9);
}

static void test_estimate_parallel(void **state)
{
	double done[] = {60}, run[] = {0, 30};

	(void)state;
	/* two at a time: (60 + 30 + 2 * 60) / 2 */
	assert_float_equal(camp_estimate_left(done, 1, run, 2, 2), 105, 1e-9);
}

static void test_duration(void **state)
{
	static const struct {
		double s;
		const char *want;
	} cases[] = {
		{0, "0s"},          {-3, "0s"},           {0.4, "0s"},
		{44.6, "45s"},      {59, "59s"},          {60, "1m00s"},
		{125, "2m05s"},     {3599, "59m59s"},     {3600, "1h00m00s"},
		{3723, "1h02m03s"}, {90000, "25h00m00s"},
	};
	char buf[32];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		camp_fmt_duration(cases[i].s, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].want);
	}
}

static void test_progress_line(void **state)
{
	struct camp_progress p = {.total = 3,
				  .done = 1,
				  .running = 1,
				  .pending = 1,
				  .failed = 0,
				  .elapsed = 65,
				  .left = 130};
	char buf[256];

	(void)state;
	camp_progress_line(&p, buf, sizeof(buf));
	assert_string_equal(
		buf,
		"done 1/3, running 1, pending 1, failed 0; elapsed 1m05s; about 2m10s left");
	p.done = 0;
	p.running = 1;
	p.pending = 2;
	p.elapsed = 9;
	p.left = -1;
	camp_progress_line(&p, buf, sizeof(buf));
	assert_string_equal(
		buf,
		"done 0/3, running 1, pending 2, failed 0; elapsed 9s; estimate after the first element");
	/* a short buffer truncates, never overruns */
	assert_true(camp_progress_line(&p, buf, 10) > 10);
	assert_int_equal(strlen(buf), 9);
}

static void test_change_line(void **state)
{
	struct tm tm = {.tm_hour = 12, .tm_min = 4, .tm_sec = 5};
	struct camp_element e = {
		.index = 1, .label = "diskbw40MB", .jobid = 123};
	char buf[512];

	(void)state;
	camp_change_line(&tm, &e, CAMP_PENDING, CAMP_RUNNING, buf, sizeof(buf));
	assert_string_equal(buf,
			    "12:04:05 diskbw40MB PENDING -> RUNNING, job 123");
	camp_change_line(&tm, &e, CAMP_NSTATES, CAMP_PENDING, buf, sizeof(buf));
	assert_string_equal(buf, "12:04:05 diskbw40MB PENDING, job 123");
	/* a failure says why; a done element has no reason to give */
	snprintf(e.why, sizeof(e.why), "exit code 2");
	camp_change_line(&tm, &e, CAMP_RUNNING, CAMP_FAILED, buf, sizeof(buf));
	assert_string_equal(
		buf,
		"12:04:05 diskbw40MB RUNNING -> FAILED, job 123: exit code 2");
	camp_change_line(&tm, &e, CAMP_RUNNING, CAMP_DONE, buf, sizeof(buf));
	assert_string_equal(buf,
			    "12:04:05 diskbw40MB RUNNING -> DONE, job 123");
	/* not submitted: no job id */
	e.jobid = 0;
	camp_change_line(&tm, &e, CAMP_NSTATES, CAMP_UNSUBMITTED, buf,
			 sizeof(buf));
	assert_string_equal(buf, "12:04:05 diskbw40MB UNSUBMITTED");
	assert_string_equal(camp_state_name(CAMP_NSTATES), "?");
	assert_string_equal(camp_state_name(CAMP_LOST), "LOST");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_estimate_none_before_first),
		cmocka_unit_test(test_estimate_mean_of_done),
		cmocka_unit_test(test_estimate_parallel),
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_progress_line),
		cmocka_unit_test(test_change_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
