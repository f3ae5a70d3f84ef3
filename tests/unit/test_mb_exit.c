/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests: how a run ends.  The table (mb_exit.c): each outcome's
 * status and exit code, worst outcome wins, --help lists it.  The layered
 * run's end (lrun_conclude, layers_print.c): the status it writes into its
 * results file and its exit code follow the table, as the plain run's do
 * (main.c: finish_record, agree_exit_code).  Before the table a layered
 * run with an invalid repetition wrote status "failed" where a plain one
 * writes "complete" (both exit 1).
 * lrun_save (layers_phase.c, MPI) and lrun_ceph_opt (layers_ceph.c) are
 * link-time fakes here: the fake save keeps the status it was asked to
 * write.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "layers_internal.h"
#include "mb_exit.h"
#include "runrec.h"

/* ---- the table ----------------------------------------------------- */

/* The table, written out: what the docs (mpibench/README.md "Exit
 * codes", h5schema/SCHEMA.md /status) and the job scripts rely on. */
static void test_table(void **state)
{
	static const struct {
		enum mb_outcome o;
		const char *status;
		int code;
	} want[] = {
		{MB_OUTCOME_OK, "complete", 0},
		{MB_OUTCOME_SUSPECT, "complete", 1},
		{MB_OUTCOME_INVALID, "complete", 1},
		{MB_OUTCOME_USAGE, "failed", 2},
		{MB_OUTCOME_FAILED, "failed", 3},
		{MB_OUTCOME_WATCHDOG, "failed", 4},
	};

	(void)state;
	assert_int_equal(sizeof(want) / sizeof(want[0]), MB_OUTCOME_COUNT);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_int_equal(mb_outcomes[want[i].o].outcome, want[i].o);
		assert_string_equal(mb_outcome_status(want[i].o),
				    want[i].status);
		assert_int_equal(mb_outcome_exit(want[i].o), want[i].code);
		assert_non_null(mb_outcomes[want[i].o].help);
	}
	/* outside the table: a failure, never a success */
	assert_string_equal(mb_outcome_status(MB_OUTCOME_COUNT), "failed");
	assert_int_equal(mb_outcome_exit(MB_OUTCOME_COUNT), MB_EXIT_FAILED);
	assert_string_equal(mb_outcome_status((enum mb_outcome) - 1), "failed");
}

/* failed over invalid over suspect, in every combination. */
static void test_worst_wins(void **state)
{
	(void)state;
	for (int m = 0; m < 8; m++) {
		bool failed = m & 4, invalid = m & 2, suspect = m & 1;
		enum mb_outcome want = failed    ? MB_OUTCOME_FAILED
				       : invalid ? MB_OUTCOME_INVALID
				       : suspect ? MB_OUTCOME_SUSPECT
						 : MB_OUTCOME_OK;

		assert_int_equal(mb_outcome_of(failed, invalid, suspect), want);
	}
}

/* --help prints every exit code with its status, from the table. */
static void test_usage(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	mb_outcome_usage(f);
	assert_int_equal(fclose(f), 0);
	for (int i = 0; i < MB_OUTCOME_COUNT; i++) {
		char line[160];

		snprintf(line, sizeof(line), "  %d  %-8s  %s\n",
			 mb_outcomes[i].exit_code, mb_outcomes[i].status,
			 mb_outcomes[i].help);
		if (!strstr(buf, line))
			fail_msg("--help lacks \"%s\" in:\n%s", line, buf);
		/* the help stays in 80 columns */
		assert_true(strlen(line) <= 81);
	}
	free(buf);
}

/* ---- fakes of the MPI side of the layered run ---------------------- */

static char g_saved_status[32]; /* the status the last save wrote */
static int g_nsaves;
static int g_save_rc; /* what the fake save returns */

int lrun_save(struct lrun *lr)
{
	g_nsaves++;
	snprintf(g_saved_status, sizeof(g_saved_status), "%s",
		 lr->run.status ? lr->run.status : "(null)");
	return g_save_rc;
}

const char *lrun_ceph_opt(const struct lyr_opts *o, const char *name)
{
	(void)o;
	(void)name;
	return "bench";
}

/* ---- a layered run at its end --------------------------------------- */

struct fixture {
	struct lyr_opts o;
	struct mb_config cfg;
	struct lrun lr;
	struct lctx c;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	f->cfg.summary = MB_SUM_NONE;
	f->o.tolerance = 0.10;
	/* device and full stack ran; the others were skipped */
	f->o.skip[LYR_NETWORK] = true;
	f->o.skip[LYR_PROTOCOL] = true;
	f->o.skip[LYR_FULLLIB] = true;
	f->c.o = &f->o;
	f->c.cfg = &f->cfg;
	f->c.lr = &f->lr;
	for (int l = 0; l < LYR_NLAYERS; l++) {
		f->c.n.bw[l][LYR_READ] = f->c.n.bw[l][LYR_WRITE] = NAN;
		f->c.n.direct[l] = true;
	}
	f->c.n.device_ranks = 3;
	f->c.n.osds = 3;
	f->c.n.replicas = 3;
	f->c.n.storage_nodes = 3;
	/* a plausible stack: the full stack well under the devices */
	f->c.n.bw[LYR_DEVICE][LYR_READ] = 300e6;
	f->c.n.bw[LYR_DEVICE][LYR_WRITE] = 300e6;
	f->c.n.bw[LYR_FULLSTACK][LYR_READ] = 100e6;
	f->c.n.bw[LYR_FULLSTACK][LYR_WRITE] = 50e6;
	f->c.fio_bw[0] = f->c.fio_bw[1] = NAN;
	f->c.mpi_bw[0] = f->c.mpi_bw[1] = NAN;
	f->lr.run.status = strdup("running");
	g_saved_status[0] = '\0';
	g_nsaves = 0;
	g_save_rc = 0;
	*state = f;
	return f->lr.run.status ? 0 : -1;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	ios_run_clear(&f->lr.run);
	free(f);
	return 0;
}

/* lrun_conclude: the exit code, and the status the results file got. */
static void conclude(struct fixture *f, int want_exit, const char *want_status)
{
	int rc = lrun_conclude(&f->c);

	assert_int_equal(g_nsaves, 1);
	if (strcmp(g_saved_status, want_status))
		fail_msg(
			"layered run: status written \"%s\", want \"%s\" (exit %d)",
			g_saved_status, want_status, rc);
	assert_int_equal(rc, want_exit);
}

static void test_layered_ok(void **state)
{
	conclude(*state, MB_EXIT_OK, "complete");
}

/* A layer's repetition is invalid: the run finished, its numbers are
 * not to be trusted: "complete", exit 1, as the plain run. */
static void test_layered_invalid_rep(void **state)
{
	struct fixture *f = *state;

	f->c.invalid = true;
	conclude(f, MB_EXIT_INVALID, "complete");
}

/* A number above the ceiling of the layer below: "complete", exit 1. */
static void test_layered_suspect(void **state)
{
	struct fixture *f = *state;

	f->c.n.bw[LYR_FULLSTACK][LYR_READ] = 3000e6;
	conclude(f, MB_EXIT_SUSPECT, "complete");
}

/* A layer could not run: "failed", exit 3, also with an invalid
 * repetition elsewhere (the worst outcome wins). */
static void test_layered_failed(void **state)
{
	struct fixture *f = *state;

	f->c.failed = true;
	f->c.invalid = true;
	conclude(f, MB_EXIT_FAILED, "failed");
}

/* The results file could not be written: exit 3, as the plain run. */
static void test_layered_save_fails(void **state)
{
	struct fixture *f = *state;

	g_save_rc = -EIO;
	conclude(f, MB_EXIT_FAILED, "complete");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_worst_wins),
		cmocka_unit_test(test_usage),
		cmocka_unit_test_setup_teardown(test_layered_ok, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_layered_invalid_rep, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_layered_suspect, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_layered_failed, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_layered_save_fails, setup,
						teardown),
	};

	return cmocka_run_group_tests_name("mb_exit", tests, NULL, NULL);
}
