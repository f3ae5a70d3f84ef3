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
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

/* Write [text] to a temporary file; its path in [path]. */
static void tmpfile_with(char *path, size_t len, const char *text)
{
	int fd;

	snprintf(path, len, "/tmp/test_campaign_progress.XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/*
 * Issue 29 row 5: an acceptance element whose tier is not met shows
 * "DONE (FAIL: 2 of 16 metrics)", a job that failed "FAILED (exit 3:
 * ...)", and status exits 4 and 1 for them (before: FAILED and 1 for
 * both).
 */
static void test_verdict(void **state)
{
	char path[64], v[64], buf[512];
	struct camp_element e = {.index = 1, .label = "acceptance"};
	int count[CAMP_NSTATES] = {0};
	(void)state;
	/* a tier table: 16 rows, 2 FAIL */
	{
		char json[8192];
		size_t n = 0;

		n += (size_t)snprintf(json + n, sizeof(json) - n,
				      "{\"tiers\": [{\"tier\": \"T\", "
				      "\"verdict\": \"FAIL\", \"rows\": [");
		for (int i = 0; i < 16; i++)
			n += (size_t)snprintf(json + n, sizeof(json) - n,
					      "%s{\"result\": \"%s\"}",
					      i ? "," : "",
					      i < 2 ? "FAIL" : "PASS");
		snprintf(json + n, sizeof(json) - n, "]}], \"exit\": 1}");
		tmpfile_with(path, sizeof(path), json);
	}
	assert_int_equal(camp_verdict_read(path, v, sizeof(v)), 1);
	assert_string_equal(v, "FAIL: 2 of 16 metrics");
	unlink(path);
	/* nersc: rows[].status, NOTRUN */
	tmpfile_with(path, sizeof(path),
		     "{\"profile\": \"nersc\", \"rows\": [{\"status\": "
		     "\"PASS\"}, {\"status\": \"NOTRUN\"}], \"verdict\": "
		     "\"NOTRUN\", \"exit\": 3}");
	assert_int_equal(camp_verdict_read(path, v, sizeof(v)), 3);
	assert_string_equal(v, "NOTRUN: 1 of 2 metrics");
	unlink(path);
	/* not a verdict: none */
	tmpfile_with(path, sizeof(path), "{\"exit\": \"x\"}");
	assert_int_equal(camp_verdict_read(path, v, sizeof(v)), -1);
	unlink(path);
	tmpfile_with(path, sizeof(path), "not json");
	assert_int_equal(camp_verdict_read(path, v, sizeof(v)), -1);
	unlink(path);
	assert_int_equal(
		camp_verdict_read("/nonexistent/accept.json", v, sizeof(v)),
		-1);

	e.state = CAMP_DONE;
	snprintf(e.verdict, sizeof(e.verdict), "FAIL: 2 of 16 metrics");
	camp_state_text(&e, buf, sizeof(buf));
	assert_string_equal(buf, "DONE (FAIL: 2 of 16 metrics)");
	e.verdict[0] = '\0';
	e.state = CAMP_FAILED;
	e.exit_code = 3 << 8;
	snprintf(e.why, sizeof(e.why), "iostrata-bench write failed");
	camp_state_text(&e, buf, sizeof(buf));
	assert_string_equal(buf,
			    "FAILED (exit 3: iostrata-bench write failed)");
	e.exit_code = 0;
	snprintf(e.why, sizeof(e.why), "Slurm state TIMEOUT (component 0)");
	camp_state_text(&e, buf, sizeof(buf));
	assert_string_equal(buf, "FAILED (Slurm state TIMEOUT (component 0))");
	e.state = CAMP_DONE;
	camp_state_text(&e, buf, sizeof(buf));
	assert_string_equal(buf, "DONE");

	count[CAMP_DONE] = 2;
	assert_int_equal(camp_status_exit(count, 0), 0);
	assert_int_equal(camp_status_exit(count, 1), 4);
	count[CAMP_FAILED] = 1;
	assert_int_equal(camp_status_exit(count, 1), 1);
	count[CAMP_RUNNING] = 1;
	assert_int_equal(camp_status_exit(count, 1), 3);
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
		cmocka_unit_test(test_verdict),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
