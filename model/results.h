/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results: the in-memory model of one iostrata-bench run, exactly what goes
 * into its HDF5 results file (layout in h5schema/SCHEMA.md).  mpibench fills
 * it on rank 0 after gathering; h5schema writes it (ios_h5_write_run) and
 * reads it back (report, validator).  Everything is raw: every figure the
 * tools print is derived from the per-rank records below, and the derivation
 * is in model/figures.c, shared by mpibench and the report.
 *
 * Times are int64 nanoseconds on the run's common clock: 0 is rank 0's
 * CLOCK_REALTIME at the run's first synchronising barrier; each rank's offset
 * to rank 0 is measured (ping-pong) and its residual recorded as skew.
 */
#ifndef IOSTRATA_RESULTS_H
#define IOSTRATA_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lathist.h"

#define IOS_SCHEMA_VERSION 2

enum ios_op {
	IOS_OP_READ = 0,
	IOS_OP_WRITE = 1,
};

/* A string attribute (config option, Slurm fact, ...). */
struct ios_kv {
	char *key;
	char *value;
};

/* One rank of the run (/ranks). */
struct ios_rank_info {
	int32_t rank;
	int32_t node;  /* index into ios_run.nodes */
	char host[64]; /* hostname (Slurm node name when known) */
	int32_t cpu;   /* CPU at start (sched_getcpu), -1 unknown */
	int32_t pid;
	int64_t clock_offset_ns; /* added to local clock to get common clock */
	int64_t clock_skew_ns;   /* uncertainty of that offset (half RTT) */
};

/* One I/O error (/phases/<k>/reps/<r>/errors). */
struct ios_io_error {
	int32_t rank;
	int32_t op; /* enum ios_op */
	uint64_t offset;
	uint64_t len;   /* requested */
	int64_t result; /* bytes moved (short transfer) or -errno */
	int64_t t_ns;   /* common clock */
};

/* One rank in one repetition of one phase. */
struct ios_rank_result {
	int32_t rank;
	uint64_t bytes[2]; /* indexed by enum ios_op */
	uint64_t ops[2];
	int64_t t_start_ns;       /* first I/O issued (common clock) */
	int64_t t_end_ns;         /* last I/O completed (common clock) */
	uint64_t stonewall_bytes; /* moved before the first rank's t_end */
	uint64_t stonewall_ops;
	uint32_t errors; /* I/O errors (incl. short transfers) */
	uint32_t short_ops;
	uint32_t verify_errors; /* --verify mismatches */
	int32_t first_errno;    /* 0 when none */
	double cpu_user_s;      /* getrusage delta over the phase */
	double cpu_sys_s;
	uint8_t ended_early; /* stopped before the phase's end condition */
	uint8_t outlier;     /* IOS_OUTLIER_* bits, set by model/figures.c */
	/* completion latency of every op: the summary here, the bucket
	 * counts in the repetition's lat_hist row of this rank */
	struct ios_lat_summary lat;
	/* per-interval samples: cumulative bytes/ops at the end of interval i
	 */
	uint32_t nsamples;
	uint64_t *sample_bytes; /* [nsamples] */
	uint64_t *sample_ops;   /* [nsamples] */
};

#define IOS_OUTLIER_RATE 0x1 /* rate beyond median +- k * MAD */
#define IOS_OUTLIER_END 0x2  /* end time beyond median +- k * MAD */

/* The figures of one repetition, all derived from ios_rank_result. */
struct ios_figures {
	uint64_t bytes; /* all ranks, read + write */
	uint64_t ops;
	double stonewall_bw; /* B/s: sum stonewall_bytes / (first end - last
				start) */
	double window_bw;    /* B/s: bytes / (last end - first start) */
	double sum_rank_bw;  /* B/s: sum of bytes_i / (end_i - start_i) */
	double stonewall_iops;
	double window_iops;
	double sum_rank_iops;
	double rank_bw_min, rank_bw_median, rank_bw_max;
	double lat_mean_ns, lat_p50_ns, lat_p90_ns, lat_p99_ns, lat_p999_ns,
		lat_max_ns;
	double cpu_s_per_gib; /* (user + sys) / GiB moved */
	int32_t outliers;     /* number of ranks flagged */
	/* the all-running window held less than one operation per rank
	 * (a size-based run of a few operations, ranks that hardly
	 * overlapped): stonewall_bw and _iops are NAN, not a figure */
	bool stonewall_short;
};

/* One repetition of one phase. */
struct ios_rep_result {
	int32_t rep;
	bool valid;
	char invalid_reason[512]; /* "" when valid; "; "-separated reasons */
	int64_t t_start_ns;
	int64_t t_end_ns;
	double interval_s; /* sample period */
	/* size-based (--once): each rank moved its file once, no planned end
	 * (t_end_ns == t_start_ns); false: time-based */
	bool size_based;
	int32_t nranks;
	struct ios_rank_result *ranks; /* [nranks] */
	/* [nranks][IOS_LAT_BUCKETS] latency bucket counts, row i for ranks[i].
	 * A writer may drop them (NULL) once the repetition is in the results
	 * file and set lat_hist_in_file: the next write of that file copies
	 * them from it (rank 0 holds one repetition's histograms, not all). */
	uint64_t *lat_hist;
	bool lat_hist_in_file;
	size_t nerrors;
	struct ios_io_error
		*errors; /* [nerrors], at most a bounded number per rank */
	struct ios_figures fig;
	int32_t nnodes;
	double *node_bw; /* [nnodes] B/s per node (sum of its ranks' rates) */
};

/* A phase: one access pattern, repeated (/phases/<k>). */
struct ios_phase_result {
	char name[16];    /* write, read, randwrite, randread, randrw */
	char layer[16];   /* "" or device, protocol, fullstack (layered runs) */
	char backend[16]; /* posix, null, rados, cephfs */
	uint64_t bs;
	int32_t rwmixread; /* percent reads for randrw, else 100 or 0 */
	int32_t nreps;
	struct ios_rep_result *reps; /* [nreps], only the finished ones */
	/* before the phase: "reused" (a marked dataset), "laid-out", or ""
	 * (no lay-out: a write phase, the null backend) */
	char dataset[16];
	uint64_t layout_bytes; /* written by the lay-out, all ranks */
	double layout_s;       /* the lay-out's wall-clock seconds */
};

/* Network layer: MPI point-to-point between node pairs (/layers/network). */
struct ios_net_pair {
	int32_t src_node, dst_node;
	uint64_t msg_bytes;
	int32_t streams;
	double bw;     /* B/s */
	double lat_ns; /* small-message one-way latency */
};

/* One line of a layered run (/layers/<name>). */
struct ios_layer {
	char name[16];   /* device, network, protocol, fullstack */
	char source[32]; /* which phase / tool gave it: e.g. "phase 2", "fio" */
	double read_bw, write_bw;     /* B/s, NAN when not measured */
	double read_iops, write_iops; /* NAN when not measured */
	char note[256];               /* e.g. "loopback: not a real network" */
};

/* A whole run. */
/*
 * The metadata phases (iostrata-bench --meta; /meta in the results file).
 * Raw per rank: the operations it did, the ones that failed and its wall
 * time from the phase's common start (a barrier) to its last operation's
 * end; the merged latency histogram of every operation of every rank.
 * The figures (ios_meta_figures) are derived from these.
 */
struct ios_meta_rank {
	uint64_t ops;    /* operations done (created, statted, ...) */
	uint64_t errors; /* operations that failed (the first stops it) */
	double wall_s;   /* from the common start to its last op's end */
};

struct ios_meta_rep {
	int32_t nranks;
	struct ios_meta_rank *ranks; /* [nranks] */
	/* the latencies of every op of every rank: bucket counts
	 * [IOS_LAT_BUCKETS] (lathist.h) and their summary */
	uint64_t *lat_hist;
	struct ios_lat_summary lat;
	/* 1 when a --meta-time stonewall ended the phase */
	int32_t stonewalled;
};

struct ios_meta_phase {
	char op[16]; /* create, stat, read, remove, mkdir, dirstat, rmdir */
	int32_t nreps;
	struct ios_meta_rep *reps; /* [nreps] */
};

/* The figures of one metadata repetition, from its ranks. */
struct ios_meta_fig {
	uint64_t ops, errors; /* over the ranks */
	double wall_max_s;    /* the slowest rank's wall time */
	int32_t slowest_rank;
	/* ops / wall_max_s: mdtest's rate (all work over the slowest
	 * rank's time) */
	double ops_s;
	/* ops_i / wall_i over the ranks */
	double rank_ops_s_min, rank_ops_s_median, rank_ops_s_max;
	double sum_rank_ops_s;
	/* ranks whose rate is an outlier by figures.h's rate rule */
	int32_t nstragglers;
	int32_t straggler[8]; /* the first 8 of them */
	double lat_p50_ns, lat_p99_ns, lat_max_ns;
};

/* Compute [f] from [rep]; NAN rates where a rank has no time. */
void ios_meta_figures(const struct ios_meta_rep *rep, struct ios_meta_fig *f);

/* Release what [ph] holds (its repetitions' arrays); zeroes it. */
void ios_meta_phase_clear(struct ios_meta_phase *ph);

struct ios_run {
	/* identity and provenance */
	char *run_id;      /* random UUID */
	char *created_utc; /* ISO 8601 */
	char *tool;        /* "iostrata-bench" */
	char *tool_version;
	char *git_revision;
	char *build_options; /* configure arguments and features */
	char *command_line;  /* argv joined, shell-quoted */
	char *status;        /* running, complete, failed */
	/* configuration: every option, as given and as resolved */
	size_t nconfig;
	struct ios_kv *config;
	/* who ran */
	int32_t nranks;
	int32_t nnodes;
	struct ios_rank_info *rank_info; /* [nranks] */
	char **node_json; /* [nnodes] hardware metadata, JSON per node (hwinfo)
			   */
	char *job_json;   /* Slurm facts, JSON (NULL outside Slurm) */
	/* every host that took part, with its role (storage, client,
	 * unknown): [nhosts] JSON records (hwinfo.h ios_hw_host_json);
	 * a file of schema version 1 has none */
	int32_t nhosts;
	char **host_json;
	int32_t schema_version; /* read: the file's; written: the current */
	char *ceph_json;        /* Ceph facts, JSON (NULL when no Ceph) */
	size_t nattach;
	struct ios_kv *attachments; /* --attach NAME=FILE contents */
	/* results */
	int32_t nphases;
	struct ios_phase_result *phases;
	int32_t nlayers;
	struct ios_layer *layers;
	size_t nnet;
	struct ios_net_pair *net;
	char *verdict; /* layered run: the verdict in words */
	/* the metadata phases (--meta), in the order they ran */
	int32_t nmeta;
	struct ios_meta_phase *meta;
};

/*
 * Release what a run holds (model/results.c): every string, table, phase,
 * repetition, rank record and sample array, all allocated with malloc by
 * whoever filled the run (the reader, the benchmark's rank 0, the layered
 * run).  ios_phase_result_clear empties one phase (reps = NULL, nreps = 0);
 * ios_run_clear empties a run in place (zeroed afterwards); ios_run_free
 * also frees the struct.  NULL members are fine; ios_run_free(NULL) is a
 * no-op.
 */
void ios_phase_result_clear(struct ios_phase_result *ph);
void ios_run_clear(struct ios_run *run);
void ios_run_free(struct ios_run *run);

/*
 * Make every text field of [run] that a tool prints safe on a terminal:
 * control characters (ESC, C1 controls such as CSI, newlines except in the
 * verdict) become '?'.  The reader calls it on every run it returns: a
 * results file is another user's data, and root prints it.
 */
void ios_run_sanitize_text(struct ios_run *run);

/* The same for one string, in place ([s] NULL is fine): control
 * characters become '?', newlines and tabs too unless [lines]. */
void ios_text_sanitize(char *s, bool lines);

#endif
