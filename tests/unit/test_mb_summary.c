/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests: iostrata-bench's summaries (mpibench/record/summary.c) say the
 * run mode: /config "mode" (once or time) and each repetition's size_based
 * attribute, in the JSON summary and in the text one.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <jansson.h>

#include "summary.h"
#include "synth.h"

/* stdout of fn(run) as a malloc'd string. */
static char *capture(void (*fn)(const struct ios_run *),
		     const struct ios_run *run)
{
	char path[] = "/tmp/test_mb_summary.XXXXXX";
	int fd = mkstemp(path), saved;
	char *buf;
	long len;
	FILE *f;

	assert_true(fd >= 0);
	fflush(stdout);
	saved = dup(1);
	assert_true(saved >= 0);
	assert_true(dup2(fd, 1) == 1);
	fn(run);
	fflush(stdout);
	assert_true(dup2(saved, 1) == 1);
	close(saved);
	close(fd);
	f = fopen(path, "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	unlink(path);
	return buf;
}

static const struct mb_summary_extra extra = {.backend = "posix"};

static void json_of(const struct ios_run *run)
{
	mb_summary_json(run, true, &extra);
}

static void text_of(const struct ios_run *run)
{
	mb_summary_text(run, &extra);
}

static void test_mode(void **state)
{
	static const struct {
		const char *mode; /* NULL: not recorded */
		bool size_based;
		const char *want_mode;
		int want_size;
	} cases[] = {
		{"once", true, "once", 6},
		{"time", false, "time", 0},
		{NULL, false, "unknown", 0},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct ios_synth s;
		struct ios_run *run;
		json_t *j, *reps;
		char *out, line[128];
		const char *mode;
		size_t k;
		json_t *rep;

		ios_synth_defaults(&s);
		s.mode = cases[i].mode;
		s.size_based = cases[i].size_based;
		run = ios_synth_run(&s);
		assert_non_null(run);
		out = capture(json_of, run);
		j = json_loads(out, 0, NULL);
		if (!j)
			fail_msg("case %zu: not JSON: %s", i, out);
		mode = json_string_value(json_object_get(j, "mode"));
		if (!mode || strcmp(mode, cases[i].want_mode) ||
		    !json_is_integer(json_object_get(j, "size_based_reps")) ||
		    json_integer_value(json_object_get(j, "size_based_reps")) !=
			    cases[i].want_size)
			fail_msg(
				"case %zu: want mode \"%s\", size_based_reps %d: %s",
				i, cases[i].want_mode, cases[i].want_size, out);
		reps = json_object_get(
			json_array_get(json_object_get(j, "phases"), 0),
			"reps");
		assert_int_equal(json_array_size(reps), 3);
		json_array_foreach(reps, k, rep)
		{
			json_t *sb = json_object_get(rep, "size_based");

			assert_true(json_is_boolean(sb));
			assert_int_equal(json_is_true(sb), cases[i].size_based);
		}
		json_decref(j);
		free(out);
		out = capture(text_of, run);
		snprintf(line, sizeof(line),
			 "\nmode %s: %d of 6 repetition(s) size-based\n",
			 cases[i].want_mode, cases[i].want_size);
		if (!strstr(out, line))
			fail_msg("case %zu: text summary lacks \"%s\":\n%s", i,
				 line, out);
		free(out);
		ios_synth_free(run);
	}
}

/* A run of metadata phases: each repetition's ops/s (all ops over the
 * slowest rank's time), not the data phases' mode line. */
static void test_meta(void **state)
{
	struct ios_meta_rank ranks[2] = {{500, 0, 0.25}, {500, 0, 0.5}};
	struct ios_meta_rep rep = {
		.nranks = 2, .ranks = ranks, .stonewalled = 1};
	struct ios_meta_phase ph = {.op = "create", .nreps = 1, .reps = &rep};
	struct ios_synth sy;
	struct ios_run *synth, run;
	char *out;

	ios_synth_defaults(&sy);
	synth = ios_synth_run(&sy);
	assert_non_null(synth);
	/* a run of metadata phases only: the synthetic run's identity */
	run = *synth;
	run.nphases = 0;
	run.nmeta = 1;
	run.meta = &ph;

	(void)state;
	out = capture(text_of, &run);
	if (!strstr(out,
		    "\nmeta create:\n  rep 1: 2000 ops/s (1000 ops, slowest rank 1 in 0.500 s; per rank 1000..2000 ops/s), stonewalled\n") ||
	    strstr(out, "size-based"))
		fail_msg("text summary of a metadata run:\n%s", out);
	free(out);
	out = capture(json_of, &run);
	{
		json_error_t je;
		json_t *j = json_loads(out, 0, &je), *m, *r0;

		if (!j)
			fail_msg("not JSON: %s", out);
		m = json_array_get(json_object_get(j, "meta"), 0);
		r0 = json_array_get(json_object_get(m, "reps"), 0);
		assert_string_equal(json_string_value(json_object_get(m, "op")),
				    "create");
		assert_true(json_number_value(json_object_get(r0, "ops_s")) ==
			    2000.0);
		assert_int_equal(json_integer_value(json_object_get(r0, "ops")),
				 1000);
		assert_true(json_is_true(json_object_get(r0, "stonewalled")));
		json_decref(j);
	}
	free(out);
	ios_synth_free(synth);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mode),
		cmocka_unit_test(test_meta),
	};

	return cmocka_run_group_tests_name("mb_summary", tests, NULL, NULL);
}
