/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report: iostrata-report internals shared by its subcommands (and by
 * report_advise.c, which the jobs area adds to the dispatch table in
 * main.c with one line).
 */
#ifndef IOSTRATA_REPORT_H
#define IOSTRATA_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "figures.h"
#include "results.h"

/* One loaded results file plus what the report derives from it. */
struct report_run {
	char *path;
	struct ios_run *run;
	const char *label;   /* column name in `show` */
	const char *job_def; /* job definition key for `trend` */
	char *label_buf, *job_buf;
	/* applied configuration (-1 / 0 when unknown) */
	long cpus;                  /* CPUs online on the storage node */
	unsigned long long mem;     /* memory online, bytes */
	unsigned long long disk_bw; /* write throttle B/s, 0 none */
	const char *applied_src;    /* where the above came from */
	/* requested configuration (--iostrata-cpus / --iostrata-mem: the
	 * plugin's applied file attached, or the job's facts): what a
	 * sweep's cells are keyed by; the applied memory differs from it,
	 * and from run to run, by a memory block.  -1 / 0 when unknown */
	long req_cpus;
	unsigned long long req_mem;
	int replication; /* pool size, 0 unknown */
	/* the campaign's record of its element (the attachment "element"
	 * iostrata-campaign writes): its index (-1 unknown) and whether it
	 * is the sweep's unconstrained baseline (no --iostrata-* option:
	 * the storage host whole), what every figure is normalised to */
	int element;
	bool baseline;
};

/* What a phase's reads could be served from instead of the disks: its
 * data against the memory of the OSDs (report_osd_cache). */
struct report_cache {
	double data;   /* bytes the phase reads: file size x ranks */
	double target; /* osd_memory_target per OSD, bytes */
	int osds;      /* OSDs in the cluster */
	bool dflt;     /* the target is Ceph's default (not recorded) */
};

/* Ceph's osd_memory_target when the monitors' database has none. */
#define REPORT_OSD_MEMORY_DEFAULT 4294967296.0

/*
 * Phase [phase] of [rr] against the OSDs' memory: file size (config
 * "size") x the phase's ranks, osd_memory_target from the run's Ceph facts
 * (the monitors' configuration database as recorded: section osd, else
 * Ceph's default) and the OSD count.  0, or -ENOENT when the run does not
 * say (no Ceph facts, no size, no such phase).
 */
int report_osd_cache(const struct report_run *rr, const char *phase,
		     struct report_cache *c);

/* Statistics of one figure over the valid repetitions of a phase. */
struct report_stats {
	int n, nreps; /* valid reps used, reps in the phase */
	double min, mean, max, stddev;
};

/* Figures of every repetition recomputed from raw data (model/figures.c). */
void report_recompute(struct ios_run *run);

/* Stats of figure [f] over the valid reps of [ph] (ios_fig_stat). */
void report_phase_stats(const struct ios_phase_result *ph,
			const struct ios_fig_desc *f, struct report_stats *st);

/* Config option [key] of [run], or NULL. */
const char *report_config(const struct ios_run *run, const char *key);

/* Fill label, job_def, cpus, mem, disk_bw, replication, element and
 * baseline of [rr]. */
void report_derive(struct report_run *rr);

/*
 * Load the files named by argv[0..argc-1] (paths or globs).  Files that
 * cannot be read are reported on stderr (naming file and problem) and
 * skipped; *nbad counts them.  Returns the array (caller frees with
 * report_runs_free) and sets *n.
 */
struct report_run *report_load(int argc, char **argv, size_t *n, int *nbad);

/*
 * The exit status of a command that loaded files with report_load and
 * [nbad] of them failed: REPORT_EXIT_OK when none, REPORT_EXIT_USAGE when
 * one was refused as inconsistent (its counts and indices disagree,
 * ios_h5_check_shape: bad input, nothing computed from it), else
 * REPORT_EXIT_FAIL (a file could not be read).
 */
int report_load_exit(int nbad);

/*
 * Write [s] to [o] as Markdown text that is only text, for every Markdown
 * output (accept --format=md, the NERSC profile's): HTML's & < > " ' as
 * entities (a renderer that passes HTML, MkDocs or GitLab, must not run a
 * host named <img src=x onerror=...>), Markdown's | ` * _ [ ] \ ~ # !
 * backslash-escaped (no cell split, code span, emphasis or link), CR and
 * LF as spaces (no new row).  Results files, tier tables and file names
 * are other users' text.
 */
void report_md_text(FILE *o, const char *s);

/* HTML's entity of [c] to [o] when [c] is one of & < > " ' (true), else
 * nothing (false): the HTML output's escaper and report_md_text's. */
bool report_html_entity(FILE *o, char c);
void report_runs_free(struct report_run *runs, size_t n);

/* Expand [argc] paths or globs; returns a malloc'd NULL-terminated list. */
char **report_expand(int argc, char **argv, size_t *n);

/* "no results files given" for command [cmd] on stderr; returns
 * REPORT_EXIT_USAGE. */
int report_usage_files(const char *cmd);

/* Subcommands: (argc, argv) with argv[0] the subcommand name. */
int report_show(int argc, char **argv);
/* show --hosts: every host record of [runs] (report_hosts.c). */
void report_show_hosts(const struct report_run *runs, size_t n);
/* The same on [o]. */
void report_print_hosts(FILE *o, const struct report_run *runs, size_t n);
/* show: the metadata phases of [runs] (report_meta.c). */
void report_show_meta(const struct report_run *runs, size_t n);
/* export: the figures of a metadata repetition, by index (name, unit). */
struct report_meta_fig {
	const char *name, *unit;
};
#define REPORT_META_NFIGS 8
extern const struct report_meta_fig report_meta_figs[REPORT_META_NFIGS];
struct ios_meta_fig;
double report_meta_value(const struct ios_meta_fig *f, int i);
int report_export(int argc, char **argv);
int report_validate(int argc, char **argv);
int report_efficiency(int argc, char **argv);
int report_accept(int argc, char **argv);
int report_trend(int argc, char **argv);
int report_plot(int argc, char **argv);

/* ---- pure parts, unit-tested ---------------------------------------- */

/* Peak of a storage system, as in the paper's section 3.2. */
struct report_peak_in {
	double nodes, disks_per_node, disk_bw, controller_bw, nic_bw; /* B/s */
};
struct report_peak {
	double disk_sum, per_node, total, strict_total; /* B/s */
	const char *limit; /* "disks", "controller" or "NIC" */
	bool controller_disk_bound;
};
/*
 * per_node = min(disk sum, controller, NIC).  A controller figure of at
 * least 90% of the disk sum was measured through those disks and is their
 * limit showing (the paper: 3100 of 3324 MiB/s, "efficiency above 92%"):
 * it does not lower the peak; strict_total is the plain min() for
 * reference.
 */
void report_peak_compute(const struct report_peak_in *in,
			 struct report_peak *out);
/*
 * The peak's inputs from a site description's [storage] section: nodes,
 * disks_per_node, disk_bw (disk_bw_measured with [measured]), optional
 * controller_bw and nic_bw.  0, or the getter's -errno with [err] set.
 */
struct ios_site;
struct ios_err;
int report_peak_site(const struct ios_site *site, bool measured,
		     struct report_peak_in *in, struct ios_err *err);

/* Table 4: efficiency per replication factor, written to [out]. */
struct report_eff_row {
	int replication;
	double read_bw, write_bw; /* B/s, NAN when not measured */
};
void report_eff_table(FILE *out, const struct report_peak *pk,
		      const struct report_eff_row *rows, size_t n);

/*
 * accept --profile=nersc: judge [runs] by the NERSC-10-style profile
 * (model/nersc.h) for a partition of [partition_nodes] nodes (<= 0: the
 * largest run) with the data rule [factor] (<= 0: 1.5) and print the
 * verdict in [format] ("text", "md", "json").  Returns the exit code:
 * REPORT_EXIT_OK, _FAIL, _NOTRUN, or _USAGE (out of memory).
 */
int report_nersc(const struct report_run *runs, size_t n, int partition_nodes,
		 double factor, const char *format);

/*
 * accept --profile=nersc --plan: what the acceptance job runs, as shell
 * assignments (levels=1 2 64, seq_bs, seq_size, rand_bs, rand_size per
 * rank, data_factor, scaled_down) for a partition of [partition_nodes]
 * nodes whose clients have [ram] bytes each and run [ranks_per_node]
 * ranks; sizes from model/nersc.c (the formula the verdict checks).
 */
int report_nersc_plan(int partition_nodes, uint64_t ram, int ranks_per_node,
		      uint64_t seq_bs, double factor);

/* Exit codes of the tool. */
#define REPORT_EXIT_OK 0
#define REPORT_EXIT_FAIL 1   /* a check failed or a file could not be read */
#define REPORT_EXIT_USAGE 2  /* bad command line */
#define REPORT_EXIT_NOTRUN 3 /* accept: a metric not measured, none failed */

#endif
