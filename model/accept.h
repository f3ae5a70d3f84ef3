/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * accept: the site-acceptance verdict (iostrata-report accept).  A vendor's
 * tier states per-client numbers measured one way (seeds/002: one fio job on
 * one client, random 4 MiB for throughput, 4 KiB for IOPS, libaio, iodepth
 * 16, direct, a 99G file).  The verdict compares like with like: per client
 * (a node: the sum of its ranks' rates, from the per-rank data), per metric,
 * on the worst valid repetition, only phases measured with the tier's
 * method (otherwise NOTRUN, naming what differs), every client alone and
 * all together.  fio's own JSON (an attachment) is the reference shown next
 * to it.  Pure computation: the report loads the files and the tier table.
 */
#ifndef IOSTRATA_ACCEPT_H
#define IOSTRATA_ACCEPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errbuf.h"
#include "results.h"

/* Tier metrics: {seq,rand}_{read,write}_{bw,iops} (tier file keys). */
enum ios_acc_metric {
	IOS_ACC_RAND_READ_BW = 0,
	IOS_ACC_RAND_WRITE_BW,
	IOS_ACC_RAND_READ_IOPS,
	IOS_ACC_RAND_WRITE_IOPS,
	IOS_ACC_SEQ_READ_BW,
	IOS_ACC_SEQ_WRITE_BW,
	IOS_ACC_SEQ_READ_IOPS,
	IOS_ACC_SEQ_WRITE_IOPS,
	IOS_ACC_NMETRICS,
};

struct ios_acc_metric_desc {
	const char *key; /* "rand_read_bw" */
	bool random;
	enum ios_op op;
	bool iops; /* op/s, else B/s */
};

/* Indexed by enum ios_acc_metric. */
extern const struct ios_acc_metric_desc ios_acc_metrics[IOS_ACC_NMETRICS];

/* Severity order: the verdict of a set of rows is the worst of them. */
enum ios_acc_status {
	IOS_ACC_PASS = 0,
	IOS_ACC_NOTRUN = 1,
	IOS_ACC_FAIL = 2,
};
const char *ios_acc_status_name(enum ios_acc_status s);

enum ios_acc_scope {
	IOS_ACC_ALONE = 0, /* a run on that one client */
	IOS_ACC_TOGETHER,  /* a run on several clients at once */
	IOS_ACC_NSCOPES,
};
const char *ios_acc_scope_name(enum ios_acc_scope s);

/*
 * How a measurement was made.  Unrecorded items are 0 / "" / -1 and are
 * not checked (a file without an engine, a cephfs backend's file).
 */
struct ios_acc_how {
	bool random;
	enum ios_op op;
	uint64_t bs;
	char ioengine[16];
	int iodepth;        /* -1 unknown */
	uint64_t file_size; /* bytes per file, 0 unknown */
	int direct;         /* 1 direct, 0 buffered, -1 unknown */
};

/* The method a tier's numbers were stated with; 0 / "" / -1: not stated,
 * not checked.  bs is per kind of metric (4M for bandwidth, 4K for IOPS). */
struct ios_acc_method {
	uint64_t bw_bs, iops_bs;
	char ioengine[16];
	int iodepth;        /* -1 not stated */
	uint64_t file_size; /* at least this, 0 not stated */
	int direct;         /* -1 not stated */
};

struct ios_acc_tier {
	char name[128];
	bool has[IOS_ACC_NMETRICS];
	double expected[IOS_ACC_NMETRICS]; /* B/s or op/s */
	struct ios_acc_method method;
};

/* One client in one phase of one file (or one fio job). */
struct ios_acc_meas {
	char tool[16];   /* "iostrata-bench", "fio" */
	char client[64]; /* Slurm node name */
	enum ios_acc_scope scope;
	int nclients;     /* clients of that run */
	char source[256]; /* "FILE phase randread", "FILE attachment NAME" */
	struct ios_acc_how how;
	int nreps, nvalid;
	double worst_bw, worst_iops; /* of the valid reps; NAN: none */
	char invalid[160];           /* first invalid repetition's reason */
};

struct ios_acc_set {
	struct ios_acc_meas *m;
	size_t n, cap;
};

/* Append a copy of [m].  0 or -ENOMEM. */
int ios_acc_add(struct ios_acc_set *set, const struct ios_acc_meas *m);

/*
 * Append one measurement per phase and node of [run] (read at [path]):
 * the node's rate (bytes and ops) per repetition by ios_node_rates, the
 * worst of the valid repetitions; scope ALONE when the run has one node,
 * else TOGETHER.  How: the phase's name (rand*: random; randrw and layered
 * phases other than fullstack are left out) and bs, the config's ioengine,
 * iodepth, size and direct.  Returns 0 or -ENOMEM.
 */
int ios_acc_add_run(struct ios_acc_set *set, const struct ios_run *run,
		    const char *path);

/*
 * Append fio's JSON output [json] (--output-format=json, fio 3.x, parsed by
 * lyr_fio_parse: one job, or numjobs of the same options summed) as the
 * measurement of [client], scope ALONE, tool "fio", [source] naming where
 * it came from.  How: the first job's rw, bs, ioengine, iodepth, size and
 * direct/buffered; a job with an error or no I/O is an invalid repetition.
 * Returns 1 (added), 0 (a mixed pattern: no tier metric), -EINVAL (not fio
 * JSON, [err] says why) or -ENOMEM.
 */
int ios_acc_add_fio(struct ios_acc_set *set, const char *client,
		    const char *json, const char *source, struct ios_err *err);

/*
 * The fio attachments of [run]: attachment names "fio.CLIENT.TEST" (TEST
 * free text) hold fio's JSON for CLIENT.  Each is added with
 * ios_acc_add_fio; returns the number of jobs added or the first error
 * (with [err] naming the attachment).
 */
int ios_acc_add_fio_attachments(struct ios_acc_set *set,
				const struct ios_run *run, const char *path,
				struct ios_err *err);

void ios_acc_set_clear(struct ios_acc_set *set);

/* One line of the verdict: a metric, a client, a scope. */
struct ios_acc_row {
	enum ios_acc_metric metric;
	enum ios_acc_scope scope;
	char client[64];
	enum ios_acc_status status;
	double measured, expected, margin; /* margin = measured / expected;
					      NAN when not measured */
	int nvalid, nreps, nclients;
	char source[256];
	char note[320]; /* NOTRUN / FAIL: why; PASS: "" or a remark */
	/* fio on the same client with the same method (ALONE rows) */
	bool has_ref;
	double ref, ratio; /* ratio = measured / ref */
	bool disagree;     /* |ratio - 1| > tolerance */
	char ref_source[256];
};

struct ios_acc_verdict {
	struct ios_acc_row *rows;
	size_t n;
	enum ios_acc_status status; /* worst row; NOTRUN when no row */
	int ndisagree;
};

/*
 * Judge tier [t] on [set] (rows: each metric the tier sets x each client
 * seen in [set] x alone, together; alone only when [set] has one client).  A
 * row uses the iostrata-bench measurements of that client and scope whose how
 * matches the metric and the tier's method, worst valid repetition over all of
 * them: PASS when measured >= expected, else FAIL; matching phases without a
 * valid repetition FAIL (their reason quoted); no matching phase: NOTRUN, with
 * what the nearest phase differs in.  [fio_tol] (fraction, e.g. 0.15)
 * flags an ALONE row whose fio reference differs by more.  Returns 0 or
 * -ENOMEM; free with ios_acc_verdict_clear.
 */
int ios_acc_judge(const struct ios_acc_tier *t, const struct ios_acc_set *set,
		  double fio_tol, struct ios_acc_verdict *out);

void ios_acc_verdict_clear(struct ios_acc_verdict *v);

#endif
