/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_nersc: the NERSC-10-style acceptance profile (model/nersc.h): the
 * concurrency levels of a partition, the size per rank from the clients'
 * RAM, and the verdict: a test at a level PASSes with both phases valid
 * and enough data, FAILs with too little data, an unknown RAM or a
 * phase missing from the run, is NOTRUN at a level no run measured (and
 * says so when a random run used another block size); a scaled-down data
 * factor is recorded on every row; the best write and read name their
 * node and process counts.
 */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nersc.h"
#include "runrec.h"
#include "synth.h"

#define GIB (1ull << 30)
#define SYNTH_RAM (24 * GIB) /* synth.c's memory.total_bytes per node */

static void test_levels(void **state)
{
	static const struct {
		int nodes, n, lv[3];
	} t[] = {
		{0, 0, {0}},
		{1, 1, {1}},
		{2, 2, {1, 2}},
		{4, 2, {1, 4}},
		{6, 2, {1, 6}},
		{7, 2, {1, 7}},
		{10, 3, {1, 2, 10}},
		{20, 3, {1, 3, 20}},
		{100, 3, {1, 15, 100}},
		{1000, 3, {1, 150, 1000}},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		int lv[IOS_NERSC_MAX_LEVELS] = {0};
		int n = ios_nersc_levels(t[i].nodes, lv);

		if (n != t[i].n)
			fail_msg("%d nodes: %d levels, expected %d", t[i].nodes,
				 n, t[i].n);
		for (int k = 0; k < n; k++)
			if (lv[k] != t[i].lv[k])
				fail_msg(
					"%d nodes: level %d is %d, expected %d",
					t[i].nodes, k, lv[k], t[i].lv[k]);
	}
}

static void test_rank_size(void **state)
{
	(void)state;
	/* 1.5 x 24 GiB over 4 ranks: 9 GiB each, a multiple of 1 MiB */
	assert_true(ios_nersc_rank_size(SYNTH_RAM, 4, 1 << 20, 1.5) == 9 * GIB);
	/* rounded up to whole blocks: 1.5 x 1000 / 3 = 500 -> 512 */
	assert_true(ios_nersc_rank_size(1000, 3, 512, 1.5) == 512);
	/* at least one block */
	assert_true(ios_nersc_rank_size(1000, 1, 1 << 20, 0.001) == 1 << 20);
	/* a scaled-down factor: 0.001 x 24 GiB over 2 ranks, 4 KiB blocks */
	assert_true(ios_nersc_rank_size(SYNTH_RAM, 2, 4096, 0.001) ==
		    12886016ull);
	assert_true(ios_nersc_rank_size(0, 4, 4096, 1.5) == 0);
	assert_true(ios_nersc_rank_size(SYNTH_RAM, 0, 4096, 1.5) == 0);
	assert_true(ios_nersc_rank_size(SYNTH_RAM, 4, 0, 1.5) == 0);
	assert_true(ios_nersc_rank_size(SYNTH_RAM, 4, 4096, 0) == 0);
}

/* A run of [phases] on [nodes] nodes x 2 ranks at block size [bs], every
 * repetition moving [bytes] at [bw] B/s (whole window), on one shared
 * file when [shared]. */
static struct ios_run *mkrun(int nodes, const char *phases, uint64_t bs,
			     bool shared, uint64_t bytes, double bw)
{
	struct ios_synth s;
	struct ios_run *run;

	ios_synth_defaults(&s);
	s.nnodes = nodes;
	s.ranks_per_node = 2;
	s.phases = phases;
	s.nreps = 2;
	s.bs = bs;
	run = ios_synth_run(&s);
	assert_non_null(run);
	assert_int_equal(ios_runrec_kv(run, "file_layout", "%s",
				       shared ? "shared" : "per-rank"),
			 0);
	for (int k = 0; k < run->nphases; k++)
		for (int r = 0; r < run->phases[k].nreps; r++) {
			struct ios_rep_result *rp = &run->phases[k].reps[r];

			rp->valid = true;
			rp->fig.bytes = bytes;
			rp->fig.window_bw = bw * (1 + r); /* rep 1 the best */
			rp->fig.window_iops = bw * (1 + r) / (double)bs;
		}
	return run;
}

static const struct ios_nersc_row *row_of(const struct ios_nersc_verdict *v,
					  enum ios_nersc_test t, int nodes)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->rows[i].test == t && v->rows[i].nodes == nodes)
			return &v->rows[i];
	fail_msg("no row %s at %d nodes", ios_nersc_test_name(t), nodes);
	return NULL;
}

static void test_verdict(void **state)
{
	/* RAM of 1 node 24 GiB, of 2 nodes 48 GiB; 1.5 x: 36 / 72 GiB */
	struct ios_run *runs[6];
	const char *paths[6] = {"n2n-1.h5", "n2n-2.h5",   "n21-1.h5",
				"n21-2.h5", "rand-1M.h5", "rand-2.h5"};
	struct ios_nersc_verdict v;
	const struct ios_nersc_row *r;

	(void)state;
	runs[0] = mkrun(1, "write,read", 1 << 20, false, 40 * GIB, 1e9);
	runs[1] = mkrun(2, "write,read", 1 << 20, false, 80 * GIB, 3e9);
	runs[2] = mkrun(1, "write,read", 1 << 20, true, 10 * GIB, 5e8);
	runs[3] = mkrun(2, "write", 1 << 20, true, 80 * GIB, 2e9);
	runs[4] = mkrun(1, "randwrite,randread", 1 << 20, false, 40 * GIB, 1e8);
	runs[5] = mkrun(2, "randwrite,randread", 4096, false, 80 * GIB, 4e7);
	assert_int_equal(ios_nersc_judge((const struct ios_run *const *)runs,
					 paths, 6, 0, 0, &v),
			 0);
	/* the partition: the largest run, 2 nodes: levels 1 and 2 */
	assert_int_equal(v.nlevels, 2);
	assert_int_equal(v.n, 6);
	assert_false(v.scaled_down);
	assert_true(v.factor == 1.5);
	r = row_of(&v, IOS_NERSC_SEQ_N2N, 1);
	assert_int_equal(r->status, IOS_ACC_PASS);
	assert_int_equal(r->ranks, 2);
	assert_true(r->write_bw == 2e9); /* the best repetition */
	assert_true(r->ram == SYNTH_RAM);
	assert_string_equal(r->source, "n2n-1.h5");
	assert_string_equal(r->note, "");
	r = row_of(&v, IOS_NERSC_SEQ_N2N, 2);
	assert_int_equal(r->status, IOS_ACC_PASS);
	assert_int_equal(r->ranks, 4);
	/* 10 GiB written by 1 node of 24 GiB: short of 36 GiB */
	r = row_of(&v, IOS_NERSC_SEQ_N21, 1);
	assert_int_equal(r->status, IOS_ACC_FAIL);
	assert_non_null(strstr(r->note, "too little data"));
	assert_non_null(strstr(r->note, "1.5 x the clients' RAM"));
	/* a write without its read */
	r = row_of(&v, IOS_NERSC_SEQ_N21, 2);
	assert_int_equal(r->status, IOS_ACC_FAIL);
	assert_non_null(strstr(r->note, "no read phase in this run"));
	/* random at 1 MiB is not the rules' 4 KiB: NOTRUN, said */
	r = row_of(&v, IOS_NERSC_RAND_N2N, 1);
	assert_int_equal(r->status, IOS_ACC_NOTRUN);
	assert_non_null(strstr(r->note, "bs 1048576 is not the rules' 4 KiB"));
	r = row_of(&v, IOS_NERSC_RAND_N2N, 2);
	assert_int_equal(r->status, IOS_ACC_PASS);
	assert_true(r->write_iops == 8e7 / 4096);
	assert_int_equal(v.status, IOS_ACC_FAIL);
	/* the maximum write and read of the sequential N-to-N test: the
	 * 2-node run, 4 processes */
	assert_true(v.best_write[IOS_NERSC_SEQ_N2N] >= 0);
	r = &v.rows[v.best_write[IOS_NERSC_SEQ_N2N]];
	assert_int_equal(r->nodes, 2);
	assert_int_equal(r->ranks, 4);
	assert_true(r->write_bw == 6e9);
	assert_int_equal(v.best_write[IOS_NERSC_SEQ_N21], -1);
	ios_nersc_verdict_clear(&v);

	/* scaled down (the local site): the short N-to-1 run passes, and
	 * every passing row says it was scaled down */
	assert_int_equal(ios_nersc_judge((const struct ios_run *const *)runs,
					 paths, 3, 0, 0.1, &v),
			 0);
	assert_true(v.scaled_down);
	r = row_of(&v, IOS_NERSC_SEQ_N21, 1);
	assert_int_equal(r->status, IOS_ACC_PASS);
	assert_non_null(strstr(r->note, "scaled down: data 0.1 x RAM"));
	/* the random test and the 2-node N-to-1 run are missing */
	assert_int_equal(row_of(&v, IOS_NERSC_RAND_N2N, 2)->status,
			 IOS_ACC_NOTRUN);
	assert_int_equal(v.status, IOS_ACC_NOTRUN);
	ios_nersc_verdict_clear(&v);

	/* no hardware record: the data rule cannot be checked */
	free(runs[0]->node_json[0]);
	runs[0]->node_json[0] = NULL;
	assert_int_equal(ios_nersc_judge((const struct ios_run *const *)runs,
					 paths, 1, 1, 0, &v),
			 0);
	assert_int_equal(v.nlevels, 1);
	r = row_of(&v, IOS_NERSC_SEQ_N2N, 1);
	assert_int_equal(r->status, IOS_ACC_FAIL);
	assert_non_null(strstr(r->note, "RAM is unknown"));
	ios_nersc_verdict_clear(&v);

	/* an invalid repetition does not count; none valid: FAIL, quoted */
	for (int k = 0; k < runs[1]->phases[1].nreps; k++) {
		runs[1]->phases[1].reps[k].valid = false;
		snprintf(runs[1]->phases[1].reps[k].invalid_reason,
			 sizeof(runs[1]->phases[1].reps[k].invalid_reason),
			 "rank 3 (n2) ended early");
	}
	assert_int_equal(
		ios_nersc_judge((const struct ios_run *const *)runs + 1,
				paths + 1, 1, 2, 0, &v),
		0);
	r = row_of(&v, IOS_NERSC_SEQ_N2N, 2);
	assert_int_equal(r->status, IOS_ACC_FAIL);
	assert_non_null(strstr(
		r->note, "no valid read repetition: rank 3 (n2) ended early"));
	ios_nersc_verdict_clear(&v);
	for (int i = 0; i < 6; i++)
		ios_synth_free(runs[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_levels),
		cmocka_unit_test(test_rank_size),
		cmocka_unit_test(test_verdict),
	};

	return cmocka_run_group_tests_name("nersc", tests, NULL, NULL);
}
