/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nersc: the procurement-style acceptance profile ([accept] profile =
 * nersc), after the NERSC-10 IOR acceptance rules: three tests
 * (sequential N-to-N, sequential N-to-1 on one shared file, random 4 KiB
 * N-to-N), each at three concurrency levels (1 node, about 15% of the
 * partition, the whole partition), size-based with the data written at
 * least 1.5 x the clients' RAM, write and read from the same run; the
 * result is the maximum write and read rate with the node and process
 * counts that gave it.  Rows are PASS / FAIL / NOTRUN as model/accept.h
 * (the same severity order and names).  The plan (levels, sizes) and the
 * verdict over results files; pure computation, no I/O.
 */
#ifndef IOSTRATA_NERSC_H
#define IOSTRATA_NERSC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "accept.h"
#include "results.h"

/* The rules' numbers. */
#define IOS_NERSC_DATA_FACTOR 1.5   /* data written / clients' RAM */
#define IOS_NERSC_MID_FRACTION 0.15 /* the middle level, of the partition */
#define IOS_NERSC_RAND_BS 4096u     /* the random test's transfer size */
#define IOS_NERSC_MAX_LEVELS 3

enum ios_nersc_test {
	IOS_NERSC_SEQ_N2N = 0, /* sequential, one file per rank */
	IOS_NERSC_SEQ_N21,     /* sequential, one shared file */
	IOS_NERSC_RAND_N2N,    /* random 4 KiB, one file per rank */
	IOS_NERSC_NTESTS,
};

/* "seq-n-to-n", "seq-n-to-1", "rand-n-to-n" */
const char *ios_nersc_test_name(enum ios_nersc_test t);

/*
 * The concurrency levels (node counts) of a partition of [nodes] nodes:
 * 1, max(1, round(0.15 x nodes)), nodes, ascending, each once (a 2-node
 * partition has two levels, 1 and 2).  Returns how many (1..3) in
 * [levels], 0 when nodes < 1.
 */
int ios_nersc_levels(int nodes, int levels[IOS_NERSC_MAX_LEVELS]);

/*
 * The --size per rank so that one write phase moves [factor] x the RAM of
 * the nodes it runs on: factor x [ram_per_node] / [ranks_per_node],
 * rounded up to a multiple of [bs] (at least one block).  0 when an
 * argument is 0 or the size would not fit in 64 bits.
 */
uint64_t ios_nersc_rank_size(uint64_t ram_per_node, int ranks_per_node,
			     uint64_t bs, double factor);

/* One test at one concurrency level. */
struct ios_nersc_row {
	enum ios_nersc_test test;
	int nodes, ranks; /* of the run; nodes = the level when NOTRUN */
	enum ios_acc_status status;
	/* the best valid repetition of the run's write and read phases:
	 * B/s (and op/s, the random test's headline); NAN when none */
	double write_bw, read_bw, write_iops, read_iops;
	uint64_t written; /* bytes of the write repetition that moved most */
	uint64_t ram;     /* memory.total_bytes summed over the run's nodes,
			     0 when no hardware record says */
	double factor;    /* the data rule applied (1.5, or scaled down) */
	char source[256]; /* the results file */
	char note[320];   /* FAIL / NOTRUN: why; PASS: "" or a remark */
};

struct ios_nersc_verdict {
	struct ios_nersc_row *rows; /* by test, then nodes */
	size_t n;
	enum ios_acc_status status; /* worst row; NOTRUN when none */
	int levels[IOS_NERSC_MAX_LEVELS], nlevels;
	double factor;
	bool scaled_down; /* factor < IOS_NERSC_DATA_FACTOR (recorded) */
	/* per test: the row with the highest write and read rate (index
	 * into rows, -1 none); the random test by op/s */
	int best_write[IOS_NERSC_NTESTS], best_read[IOS_NERSC_NTESTS];
};

/*
 * Judge [n] runs [runs] (results files [paths]) by the profile for a
 * partition of [partition_nodes] nodes (<= 0: the largest node count
 * among the runs) with the data rule [factor] (<= 0: 1.5; below 1.5 a
 * scaled-down run, every row says so).  A run belongs to a test by its
 * /config file_layout (shared: N-to-1) and phases: write and read
 * (sequential) or randwrite and randread (random, bs 4 KiB) in the same
 * run, at the level of its node count.  A row PASSes when both phases
 * have a valid repetition and the write moved at least factor x the RAM
 * of the run's nodes (from their hardware records); it FAILs when a
 * phase has none, the data is short, or no hardware record gives the
 * RAM; a test at a level no run measured is NOTRUN.  A run that fits no
 * test (other phases, random not at 4 KiB) is ignored, except that a
 * random run at another block size is named in its test's NOTRUN note.
 * Several runs of one test and level: the best PASSing one.  Returns 0 or
 * -ENOMEM; free with ios_nersc_verdict_clear.
 */
int ios_nersc_judge(const struct ios_run *const *runs, const char *const *paths,
		    size_t n, int partition_nodes, double factor,
		    struct ios_nersc_verdict *out);

void ios_nersc_verdict_clear(struct ios_nersc_verdict *v);

#endif
