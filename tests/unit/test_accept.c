// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of model/accept.c: the per-client split from per-rank data,
 * the worst valid repetition and margins, NOTRUN for a missing phase and
 * for a pattern / bs / iodepth / file size mismatch, alone and together,
 * fio JSON import (a stored fio 3.33 sample and a real fio run when fio is
 * installed) and the side-by-side ratio with its tolerance.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "accept.h"
#include "runrec.h"
#include "synth.h"

#define MB 1e6
#define RUNTIME 10.0

/*
 * A run of [nnodes] nodes x 2 ranks, one phase [phase] with bs [bs] and
 * config iodepth/ioengine/size/direct, whose rank r in rep k moves
 * rate[k][r] B/s for RUNTIME seconds.  Host names n1, n2, ... from
 * [first_node].
 */
static struct ios_run *mkrun(int nnodes, int first_node, const char *phase,
			     uint64_t bs, int iodepth, const double rate[][4],
			     int nreps)
{
	struct ios_synth s;
	struct ios_run *run;
	bool rd = strstr(phase, "read") != NULL;

	ios_synth_defaults(&s);
	s.nnodes = nnodes;
	s.ranks_per_node = 2;
	s.phases = phase;
	s.nreps = nreps;
	s.bs = bs;
	run = ios_synth_run(&s);
	assert_non_null(run);
	for (int i = 0; i < run->nranks; i++)
		snprintf(run->rank_info[i].host, sizeof(run->rank_info[i].host),
			 "n%d", first_node + i / 2);
	assert_int_equal(ios_runrec_kv(run, "iodepth", "%d", iodepth), 0);
	assert_int_equal(ios_runrec_kv(run, "ioengine", "libaio"), 0);
	assert_int_equal(ios_runrec_kv(run, "size", "%llu", 1ull << 30), 0);
	assert_int_equal(ios_runrec_kv(run, "direct", "1"), 0);
	for (int k = 0; k < nreps; k++) {
		struct ios_rep_result *rep = &run->phases[0].reps[k];

		for (int r = 0; r < rep->nranks; r++) {
			struct ios_rank_result *rr = &rep->ranks[r];
			uint64_t bytes = (uint64_t)(rate[k][r] * RUNTIME);

			memset(rr->bytes, 0, sizeof(rr->bytes));
			memset(rr->ops, 0, sizeof(rr->ops));
			rr->bytes[rd ? IOS_OP_READ : IOS_OP_WRITE] = bytes;
			rr->ops[rd ? IOS_OP_READ : IOS_OP_WRITE] = bytes / bs;
			rr->t_start_ns = 0;
			rr->t_end_ns = (int64_t)(RUNTIME * 1e9);
		}
	}
	return run;
}

/* seeds/002's method at a small scale: random, 4M / 4K, libaio, 16. */
static void tier_init(struct ios_acc_tier *t)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "T");
	t->method.bw_bs = 4u << 20;
	t->method.iops_bs = 4096;
	snprintf(t->method.ioengine, sizeof(t->method.ioengine), "libaio");
	t->method.iodepth = 16;
	t->method.file_size = 1u << 30;
	t->method.direct = 1;
}

static const struct ios_acc_row *row_of(const struct ios_acc_verdict *v,
					enum ios_acc_metric m,
					const char *client,
					enum ios_acc_scope sc)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->rows[i].metric == m && v->rows[i].scope == sc &&
		    !strcmp(v->rows[i].client, client))
			return &v->rows[i];
	fail_msg("no row %d %s %d", m, client, sc);
	return NULL;
}

/* Node n1's rate per rep is the sum of its two ranks; n2 apart. */
static void test_per_client_worst_rep(void **state)
{
	/* reps x ranks (n1: ranks 0,1; n2: ranks 2,3), B/s */
	static const double rate[3][4] = {
		{60 * MB, 60 * MB, 10 * MB, 10 * MB},
		{40 * MB, 40 * MB, 12 * MB, 12 * MB},
		{50 * MB, 50 * MB, 11 * MB, 11 * MB},
	};
	static const struct {
		double expected;
		enum ios_acc_status n1, n2;
		double margin_n1;
	} cases[] = {
		/* worst rep of n1 is 80 MB/s (rep 1), not the mean 100 */
		{79 * MB, IOS_ACC_PASS, IOS_ACC_FAIL, 80.0 / 79},
		{81 * MB, IOS_ACC_FAIL, IOS_ACC_FAIL, 80.0 / 81},
		{20 * MB, IOS_ACC_PASS, IOS_ACC_PASS, 80.0 / 20},
		/* n2's worst is 20 MB/s (rep 0), its best 24 */
		{21 * MB, IOS_ACC_PASS, IOS_ACC_FAIL, 80.0 / 21},
	};
	struct ios_run *run = mkrun(2, 1, "randread", 4u << 20, 16, rate, 3);
	struct ios_acc_set set = {0};

	(void)state;
	/* the same run alone per node would come from srun -w; here the
	 * 2-node run is the together scope */
	assert_int_equal(ios_acc_add_run(&set, run, "all.h5"), 0);
	assert_int_equal(set.n, 2);
	assert_string_equal(set.m[0].client, "n1");
	assert_int_equal(set.m[0].scope, IOS_ACC_TOGETHER);
	assert_true(fabs(set.m[0].worst_bw - 80 * MB) < 1);
	assert_true(fabs(set.m[1].worst_bw - 20 * MB) < 1);
	assert_true(fabs(set.m[0].worst_iops - 80 * MB / (4 << 20)) < 0.1);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ios_acc_tier t;
		struct ios_acc_verdict v;
		const struct ios_acc_row *r;

		tier_init(&t);
		t.has[IOS_ACC_RAND_READ_BW] = true;
		t.expected[IOS_ACC_RAND_READ_BW] = cases[i].expected;
		assert_int_equal(ios_acc_judge(&t, &set, 0.15, &v), 0);
		/* 2 clients x alone, together */
		assert_int_equal(v.n, 4);
		r = row_of(&v, IOS_ACC_RAND_READ_BW, "n1", IOS_ACC_TOGETHER);
		assert_int_equal(r->status, cases[i].n1);
		assert_true(fabs(r->margin - cases[i].margin_n1) < 1e-6);
		assert_int_equal(r->nvalid, 3);
		assert_int_equal(r->nclients, 2);
		r = row_of(&v, IOS_ACC_RAND_READ_BW, "n2", IOS_ACC_TOGETHER);
		assert_int_equal(r->status, cases[i].n2);
		/* nobody ran alone: NOTRUN, and it says so */
		r = row_of(&v, IOS_ACC_RAND_READ_BW, "n1", IOS_ACC_ALONE);
		assert_int_equal(r->status, IOS_ACC_NOTRUN);
		assert_non_null(strstr(r->note, "no read phase on n1 alone"));
		assert_int_equal(v.status,
				 cases[i].n2 == IOS_ACC_FAIL ||
						 cases[i].n1 == IOS_ACC_FAIL
					 ? IOS_ACC_FAIL
					 : IOS_ACC_NOTRUN);
		ios_acc_verdict_clear(&v);
	}
	/* an invalid repetition does not count as the worst */
	run->phases[0].reps[1].valid = false;
	snprintf(run->phases[0].reps[1].invalid_reason,
		 sizeof(run->phases[0].reps[1].invalid_reason),
		 "rank 1 (n1) erred");
	ios_acc_set_clear(&set);
	assert_int_equal(ios_acc_add_run(&set, run, "all.h5"), 0);
	assert_true(fabs(set.m[0].worst_bw - 100 * MB) < 1);
	assert_int_equal(set.m[0].nvalid, 2);
	assert_non_null(strstr(set.m[0].invalid, "rank 1 (n1) erred"));
	/* no valid repetition at all: FAIL with the reason, not PASS */
	for (int k = 0; k < 3; k++)
		run->phases[0].reps[k].valid = false;
	ios_acc_set_clear(&set);
	assert_int_equal(ios_acc_add_run(&set, run, "all.h5"), 0);
	{
		struct ios_acc_tier t;
		struct ios_acc_verdict v;
		const struct ios_acc_row *r;

		tier_init(&t);
		t.has[IOS_ACC_RAND_READ_BW] = true;
		t.expected[IOS_ACC_RAND_READ_BW] = 1;
		assert_int_equal(ios_acc_judge(&t, &set, 0.15, &v), 0);
		r = row_of(&v, IOS_ACC_RAND_READ_BW, "n1", IOS_ACC_TOGETHER);
		assert_int_equal(r->status, IOS_ACC_FAIL);
		assert_non_null(strstr(r->note, "no valid repetition"));
		ios_acc_verdict_clear(&v);
	}
	ios_acc_set_clear(&set);
	ios_synth_free(run);
}

/* A phase that differs from the tier's method is NOTRUN, naming it. */
static void test_notrun_mismatch(void **state)
{
	static const double rate[1][4] = {{100 * MB, 100 * MB, 0, 0}};
	static const struct {
		const char *phase;
		uint64_t bs;
		int iodepth;
		enum ios_acc_metric metric;
		enum ios_acc_status want;
		const char *note;
	} cases[] = {
		{"randread", 4u << 20, 16, IOS_ACC_RAND_READ_BW, IOS_ACC_PASS,
		 ""},
		/* the job's old sequential 4 MiB is not seeds/002's random */
		{"read", 4u << 20, 16, IOS_ACC_RAND_READ_BW, IOS_ACC_NOTRUN,
		 "pattern sequential (tier: random)"},
		{"randread", 8u << 20, 16, IOS_ACC_RAND_READ_BW, IOS_ACC_NOTRUN,
		 "bs 8 MiB (tier: 4 MiB)"},
		{"randread", 4u << 20, 4, IOS_ACC_RAND_READ_BW, IOS_ACC_NOTRUN,
		 "iodepth 4 (tier: 16)"},
		{"randread", 4096, 1, IOS_ACC_RAND_READ_BW, IOS_ACC_NOTRUN,
		 "bs 4 KiB (tier: 4 MiB), iodepth 1 (tier: 16)"},
		/* IOPS use the tier's 4 KiB */
		{"randread", 4096, 16, IOS_ACC_RAND_READ_IOPS, IOS_ACC_PASS,
		 ""},
		{"randread", 4u << 20, 16, IOS_ACC_RAND_READ_IOPS,
		 IOS_ACC_NOTRUN, "bs 4 MiB (tier: 4 KiB)"},
		/* no write phase at all */
		{"randread", 4u << 20, 16, IOS_ACC_RAND_WRITE_BW,
		 IOS_ACC_NOTRUN, "no write phase on n1 alone"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ios_run *run = mkrun(1, 1, cases[i].phase, cases[i].bs,
					    cases[i].iodepth, rate, 1);
		struct ios_acc_set set = {0};
		struct ios_acc_tier t;
		struct ios_acc_verdict v;
		const struct ios_acc_row *r;

		tier_init(&t);
		t.has[cases[i].metric] = true;
		t.expected[cases[i].metric] = 1;
		assert_int_equal(ios_acc_add_run(&set, run, "c1.h5"), 0);
		assert_int_equal(set.m[0].scope, IOS_ACC_ALONE);
		assert_int_equal(ios_acc_judge(&t, &set, 0.15, &v), 0);
		/* one client: no separate together row */
		assert_int_equal(v.n, 1);
		r = row_of(&v, cases[i].metric, "n1", IOS_ACC_ALONE);
		if (r->status != cases[i].want ||
		    !strstr(r->note, cases[i].note))
			fail_msg("case %zu: %s '%s', want %s '%s'", i,
				 ios_acc_status_name(r->status), r->note,
				 ios_acc_status_name(cases[i].want),
				 cases[i].note);
		assert_int_equal(v.status, cases[i].want);
		ios_acc_verdict_clear(&v);
		ios_acc_set_clear(&set);
		ios_synth_free(run);
	}
}

/* A file smaller than the tier's is NOTRUN too. */
static void test_notrun_file_size(void **state)
{
	static const double rate[1][4] = {{100 * MB, 100 * MB, 0, 0}};
	struct ios_run *run = mkrun(1, 1, "randwrite", 4u << 20, 16, rate, 1);
	struct ios_acc_set set = {0};
	struct ios_acc_tier t;
	struct ios_acc_verdict v;

	(void)state;
	tier_init(&t);
	t.method.file_size = 99ull << 30;
	t.has[IOS_ACC_RAND_WRITE_BW] = true;
	t.expected[IOS_ACC_RAND_WRITE_BW] = 1;
	assert_int_equal(ios_acc_add_run(&set, run, "c1.h5"), 0);
	assert_int_equal(ios_acc_judge(&t, &set, 0.15, &v), 0);
	assert_int_equal(v.rows[0].status, IOS_ACC_NOTRUN);
	assert_non_null(strstr(v.rows[0].note,
			       "file size 1 GiB (tier: at least 99 GiB)"));
	ios_acc_verdict_clear(&v);
	ios_acc_set_clear(&set);
	ios_synth_free(run);
}

/* Each client alone, then both together: both scopes judged apart. */
static void test_alone_and_together(void **state)
{
	static const double fast[1][4] = {{100 * MB, 100 * MB, 0, 0}};
	static const double slow[1][4] = {{30 * MB, 30 * MB, 0, 0}};
	static const double both[1][4] = {{50 * MB, 50 * MB, 40 * MB, 40 * MB}};
	struct ios_run *a = mkrun(1, 1, "randwrite", 4u << 20, 16, fast, 1);
	struct ios_run *b = mkrun(1, 2, "randwrite", 4u << 20, 16, slow, 1);
	struct ios_run *c = mkrun(2, 1, "randwrite", 4u << 20, 16, both, 1);
	struct ios_acc_set set = {0};
	struct ios_acc_tier t;
	struct ios_acc_verdict v;

	(void)state;
	tier_init(&t);
	t.has[IOS_ACC_RAND_WRITE_BW] = true;
	t.expected[IOS_ACC_RAND_WRITE_BW] = 70 * MB;
	assert_int_equal(ios_acc_add_run(&set, a, "c1.h5"), 0);
	assert_int_equal(ios_acc_add_run(&set, b, "c2.h5"), 0);
	assert_int_equal(ios_acc_add_run(&set, c, "all.h5"), 0);
	assert_int_equal(ios_acc_judge(&t, &set, 0.15, &v), 0);
	assert_int_equal(v.n, 4);
	/* n1 alone 200 PASS; n2 alone 60 FAIL; together 100 and 80 PASS */
	assert_int_equal(
		row_of(&v, IOS_ACC_RAND_WRITE_BW, "n1", IOS_ACC_ALONE)->status,
		IOS_ACC_PASS);
	assert_int_equal(
		row_of(&v, IOS_ACC_RAND_WRITE_BW, "n2", IOS_ACC_ALONE)->status,
		IOS_ACC_FAIL);
	assert_string_equal(
		row_of(&v, IOS_ACC_RAND_WRITE_BW, "n2", IOS_ACC_ALONE)->source,
		"c2.h5 phase randwrite");
	assert_int_equal(
		row_of(&v, IOS_ACC_RAND_WRITE_BW, "n1", IOS_ACC_TOGETHER)
			->status,
		IOS_ACC_PASS);
	assert_true(
		fabs(row_of(&v, IOS_ACC_RAND_WRITE_BW, "n2", IOS_ACC_TOGETHER)
			     ->measured -
		     80 * MB) < 1);
	assert_int_equal(v.status, IOS_ACC_FAIL);
	ios_acc_verdict_clear(&v);
	ios_acc_set_clear(&set);
	ios_synth_free(a);
	ios_synth_free(b);
	ios_synth_free(c);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc((size_t)n + 1, 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* seeds/002's randread 4M command, fio 3.33's JSON (64M file, 1 s). */
static char *fio_sample(void)
{
	const char *src = getenv("IOSTRATA_SRCDIR");
	char path[4096];
	char *json;

	snprintf(path, sizeof(path),
		 "%s/tests/fixtures/fio/fio-3.33-randread-4M.json",
		 src ? src : ".");
	json = slurp(path);
	if (!json)
		fail_msg("cannot read %s", path);
	return json;
}

static void test_fio_sample(void **state)
{
	char *json = fio_sample();
	struct ios_acc_set set = {0};
	struct ios_err err = {0};

	(void)state;
	assert_int_equal(ios_acc_add_fio(&set, "c1", json, "sample", &err), 1);
	assert_string_equal(set.m[0].tool, "fio");
	assert_int_equal(set.m[0].scope, IOS_ACC_ALONE);
	assert_true(set.m[0].how.random);
	assert_int_equal(set.m[0].how.op, IOS_OP_READ);
	assert_int_equal(set.m[0].how.bs, 4u << 20);
	assert_string_equal(set.m[0].how.ioengine, "libaio");
	assert_int_equal(set.m[0].how.iodepth, 16);
	assert_int_equal(set.m[0].how.file_size, 64u << 20);
	assert_int_equal(set.m[0].how.direct, 1);
	/* "bw_bytes" : 1099085441, "iops" : 262.042389 */
	assert_true(fabs(set.m[0].worst_bw - 1099085441.0) < 1);
	assert_true(fabs(set.m[0].worst_iops - 262.042389) < 1e-6);
	/* notes before the JSON are skipped; garbage is refused */
	assert_int_equal(ios_acc_add_fio(&set, "c1", "not json", "x", &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "x: "));
	free(json);
	ios_acc_set_clear(&set);
}

/* bench vs fio side by side: ratio, and the tolerance flag. */
static void test_fio_side_by_side(void **state)
{
	static const double rate[1][4] = {{50 * MB, 50 * MB, 0, 0}};
	char *json = fio_sample();
	struct ios_run *run = mkrun(1, 1, "randread", 4u << 20, 16, rate, 1);
	struct ios_acc_set set = {0};
	struct ios_acc_tier t;
	struct ios_acc_verdict v;
	struct ios_err err = {0};

	(void)state;
	/* as the job stores it: an attachment fio.CLIENT.TEST */
	run->attachments =
		realloc(run->attachments,
			(run->nattach + 1) * sizeof(*run->attachments));
	run->attachments[run->nattach].key = strdup("fio.n1.rand_read_bw");
	run->attachments[run->nattach].value = json;
	run->nattach++;
	tier_init(&t);
	t.method.file_size = 64u << 20;
	t.has[IOS_ACC_RAND_READ_BW] = true;
	t.expected[IOS_ACC_RAND_READ_BW] = 10 * MB;
	assert_int_equal(ios_acc_add_run(&set, run, "c1.h5"), 0);
	assert_int_equal(ios_acc_add_fio_attachments(&set, run, "c1.h5", &err),
			 1);
	assert_string_equal(set.m[1].client, "n1");
	assert_int_equal(ios_acc_judge(&t, &set, 0.15, &v), 0);
	assert_int_equal(v.n, 1);
	assert_true(v.rows[0].has_ref);
	assert_true(fabs(v.rows[0].ref - 1099085441.0) < 1);
	assert_true(fabs(v.rows[0].ratio - 100e6 / 1099085441.0) < 1e-9);
	assert_true(v.rows[0].disagree);
	assert_int_equal(v.ndisagree, 1);
	/* the verdict is iostrata-bench's; the flag does not change it */
	assert_int_equal(v.status, IOS_ACC_PASS);
	ios_acc_verdict_clear(&v);
	/* within a tolerance of 95% it agrees */
	assert_int_equal(ios_acc_judge(&t, &set, 0.95, &v), 0);
	assert_false(v.rows[0].disagree);
	ios_acc_verdict_clear(&v);
	/* a fio run with another method is no reference */
	set.m[1].how.iodepth = 1;
	assert_int_equal(ios_acc_judge(&t, &set, 0.15, &v), 0);
	assert_false(v.rows[0].has_ref);
	ios_acc_verdict_clear(&v);
	/* a malformed attachment name is refused */
	free(run->attachments[run->nattach - 1].key);
	run->attachments[run->nattach - 1].key = strdup("fio.n1");
	assert_int_equal(ios_acc_add_fio_attachments(&set, run, "c1.h5", &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "want fio.CLIENT.TEST"));
	ios_acc_set_clear(&set);
	ios_synth_free(run);
}

/* A real fio run on a small file (skipped without fio). */
static void test_fio_real(void **state)
{
	char dir[] = "/tmp/test_accept.XXXXXX", file[256], out[256];
	char cmd[1024], *json;
	struct ios_acc_set set = {0};
	struct ios_err err = {0};
	int rc;

	(void)state;
	if (system("fio --version >/dev/null 2>&1") != 0)
		skip();
	assert_non_null(mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/f", dir);
	snprintf(out, sizeof(out), "%s/out.json", dir);
	snprintf(
		cmd, sizeof(cmd),
		"fio --name=t --rw=randwrite --bs=4k --size=1M --ioengine=psync --iodepth=1 --runtime=1 --filename=%s --output-format=json >%s 2>/dev/null",
		file, out);
	rc = system(cmd);
	assert_true(WIFEXITED(rc) && WEXITSTATUS(rc) == 0);
	json = slurp(out);
	assert_non_null(json);
	assert_int_equal(ios_acc_add_fio(&set, "c2", json, out, &err), 1);
	assert_int_equal(set.m[0].how.op, IOS_OP_WRITE);
	assert_true(set.m[0].how.random);
	assert_int_equal(set.m[0].how.bs, 4096);
	assert_int_equal(set.m[0].how.iodepth, 1);
	assert_int_equal(set.m[0].how.file_size, 1u << 20);
	assert_int_equal(set.m[0].how.direct, 0);
	assert_int_equal(set.m[0].nvalid, 1);
	assert_true(set.m[0].worst_iops > 0);
	assert_true(fabs(set.m[0].worst_bw / set.m[0].worst_iops - 4096) < 64);
	free(json);
	ios_acc_set_clear(&set);
	unlink(out);
	unlink(file);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_per_client_worst_rep),
		cmocka_unit_test(test_notrun_mismatch),
		cmocka_unit_test(test_notrun_file_size),
		cmocka_unit_test(test_alone_and_together),
		cmocka_unit_test(test_fio_sample),
		cmocka_unit_test(test_fio_side_by_side),
		cmocka_unit_test(test_fio_real),
	};

	return cmocka_run_group_tests_name("accept", tests, NULL, NULL);
}
