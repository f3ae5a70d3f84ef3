/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_health: the nightly health history (an index of one line per
 * night per figure) and its verdict, `iostrata-report health-record` and
 * `iostrata-report health`.  The pure parts are here for the unit tests
 * (tests/unit/test_health.c).
 */
#ifndef IOSTRATA_REPORT_HEALTH_H
#define IOSTRATA_REPORT_HEALTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "errbuf.h"

/* The first line of every index this version writes. */
#define HL_INDEX_HEADER                                                        \
	"# iostrata health index v1: night status layer component host metric value\n"

/* Lines an index may hold (a year of 500 figures a night is 182500). */
#define HL_MAX_ROWS 400000
#define HL_MAX_LINE 1024

/* One figure: which layer (osd, client, metadata, network), which
 * component (osd.1, c1, mds), on which host, which metric. */
struct hl_key {
	char layer[16];
	char comp[64];
	char host[64];
	char metric[48];
};

/* One index line.  A failed night has failed = true, no key, no value
 * and the reason in note. */
struct hl_row {
	char night[17]; /* 20261206T070000Z */
	bool failed;
	struct hl_key key;
	double value;
	char *note; /* malloc'd reason of a failed night, else NULL */
};

struct hl_index {
	struct hl_row *rows;
	size_t n, cap;
};

/*
 * Parse one index line (no newline) into [r].  0, or -1 with *why the
 * reason (a static string naming the field and what is accepted).
 */
int hl_parse_line(const char *line, struct hl_row *r, const char **why);

/* Is [s] a name the index accepts (1-[max-1] of A-Z a-z 0-9 . _ : -)? */
bool hl_name_ok(const char *s, size_t max);

/* Is [s] a night stamp, YYYYMMDDTHHMMSSZ? */
bool hl_night_ok(const char *s);

/*
 * Load the index [path] (missing: empty).  Refused, nothing loaded: the
 * index or its directory not this user's, writable by group or others, a
 * symlink or not a regular file (-EPERM, -ELOOP, -EINVAL), a malformed
 * line (-EBADMSG, "PATH:LINE: why"), more than HL_MAX_ROWS lines (-E2BIG).
 */
int hl_index_load(const char *path, struct hl_index *ix, struct ios_err *err);
void hl_index_free(struct hl_index *ix);

/*
 * [path] must be a directory ([dir]) or regular file of this user that
 * neither group nor others can write, and not a symlink; [what] names it
 * in the message.  0, -ENOENT when missing, or a negative errno said in
 * [err].
 */
int hl_check_private(const char *path, bool dir, const char *what,
		     struct ios_err *err);

/*
 * The health index [path]: its directory private (hl_check_private) and
 * the index too when it exists.  0 or a negative errno said in [err].
 */
int hl_check_index_path(const char *path, struct ios_err *err);

/*
 * The directory of an output file [path] (the textfile, the page) given
 * as [opt]: this user's or root's, writable by neither group nor others
 * (in a shared directory anybody could replace what is read from it).
 * 0 or a negative errno said in [err], naming [opt].
 */
int hl_check_out_dir(const char *path, const char *opt, struct ios_err *err);

/* Metrics where higher is worse: latencies (names holding "lat") and
 * pressures (*_pressure). */
bool hl_lower_better(const char *metric);

/* The rule: a regression is beyond k x (1.4826 MAD) of the baseline's
 * median AND beyond thr (a fraction of the median) in the bad direction;
 * with fewer than min_nights earlier values there is no verdict. */
struct hl_rule {
	double k;
	double thr;
	int min_nights;
};

/* "moved" (with a regression) needs this much change besides the noise:
 * a baseline of equal values has no noise, and 1% is no movement. */
#define HL_MOVED_FLOOR 0.05

enum hl_state { HL_NOHIST, HL_OK, HL_REGRESSION, HL_IMPROVED };

struct hl_verdict {
	enum hl_state state;
	double median, noise; /* noise: 1.4826 x MAD of the baseline */
	double change;        /* value / median - 1 */
	int nbase;            /* baseline values used */
	bool moved;           /* beyond the noise in the bad direction */
};

/* Judge [value] against the [n] baseline values [base] (reordered). */
void hl_judge(double value, double *base, int n, const struct hl_rule *rule,
	      bool lower_better, struct hl_verdict *v);

/* The verdict's options (`iostrata-report health`). */
struct health_opts {
	struct hl_rule rule;
	/* --threshold=LAYER=F: a layer's own threshold ("latency": every
	 * latency figure's), before the one of all layers */
	struct {
		char layer[16];
		double thr;
	} lthr[8];
	int nlthr;
	long last, keep, html_nights;
	const char *index, *prom, *html;
	/* night t was loaded (a host's cpu_pressure a regression), set once
	 * the index is read; NULL before */
	const bool *loaded;
};

/* The host's own figures: the share of the probe's time its runnable
 * tasks waited for a CPU (Linux PSI, /proc/pressure/cpu "some"), in %. */
#define HL_HOST_LAYER "host"
#define HL_LOAD_METRIC "cpu_pressure"

/* A figure the hosts' load moves: not a ratio to peers (*_vs_peers), not
 * a host's own (layer "host"). */
bool hl_absolute(const struct hl_key *k);

/* [metric] is a ratio to the peers' (*_vs_peers). */
#define HL_PEERS "_vs_peers"
bool hl_is_ratio(const char *metric);

/* [k]'s value in night [t] is not judged: the night was loaded
 * (o->loaded) and [k] is a figure the load moves (hl_absolute). */
bool hl_unjudged(const struct health_opts *o, size_t t, const struct hl_key *k);

/* Same layer, component, host and metric. */
bool hl_key_eq(const struct hl_key *a, const struct hl_key *b);

/*
 * [key] in night [t] of [ix] (starts[i]: the first row of night i) against
 * up to o->last earlier nights that have it and were not themselves a
 * regression of it; tonight's value in *[value] (NAN when missing).
 */
void hl_judge_night(const struct hl_index *ix, const size_t *starts, size_t t,
		    const struct hl_key *key, const struct health_opts *o,
		    double *value, struct hl_verdict *v);

/* [v] of [metric] in the unit people read (MiB/s, IOPS, op/s, us, or % of
 * the peers), the unit in *[unit]. */
double hl_shown(const char *metric, double v, const char **unit);

/* "osd.1 on host s2", "client c1", "host c1", "the network of host s2",
 * "metadata mds (probed from c1)". */
void hl_who(const struct hl_key *k, char *buf, size_t len);

/*
 * Tonight's (the last of [nn] nights) table, its regressions with what
 * moved with them, the recoveries (report_health_verdict.c); the gauges to
 * [pf] when not NULL.  The number of REGRESSION lines printed, -1 when out
 * of memory.
 */
int hl_verdict_print(const struct hl_index *ix, const size_t *starts, size_t nn,
		     const struct health_opts *o, FILE *pf);

/* The commands. */
int report_health(int argc, char **argv);
int report_health_record(int argc, char **argv);

#endif
