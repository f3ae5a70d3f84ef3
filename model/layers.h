/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * layers: the layered run of seeds/003 (device -> network -> protocol ->
 * full stack): the ceiling checks between layers, the verdict in words, the
 * fio cross-check of the device layer and the efficiency against a
 * theoretical peak (paper, Table 4).  Pure logic, no MPI and no I/O, so the
 * report and the unit tests use it too; the run itself is in layers_run.c.
 *
 * All bandwidths are bytes/s, aggregate over the cluster; NAN = not measured.
 */
#ifndef IOSTRATA_LAYERS_H
#define IOSTRATA_LAYERS_H

#include <stdbool.h>
#include <stddef.h>

#include <stdint.h>

#include "errbuf.h"

/* Indices into the per-direction arrays below. */
enum lyr_dir {
	LYR_READ = 0,
	LYR_WRITE = 1,
};

/* The four measured layers, bottom to top. */
enum lyr_layer {
	LYR_DEVICE = 0,
	LYR_NETWORK,
	LYR_PROTOCOL,
	LYR_FULLSTACK, /* posix on the CephFS mount */
	LYR_FULLLIB,   /* cephfs backend (libcephfs, no mount) */
	LYR_NLAYERS,
};

/* Layer names as stored under /layers/<name> in the results file. */
extern const char *const lyr_layer_names[LYR_NLAYERS];

struct lyr_numbers {
	double bw[LYR_NLAYERS][2]; /* [layer][enum lyr_dir] */
	bool direct[LYR_NLAYERS];  /* the layer used direct I/O (no cache) */
	int device_ranks;          /* device targets measured concurrently */
	int osds;                  /* OSDs in the cluster (up, in) */
	int replicas;              /* protocol pool's size */
	int fs_replicas;           /* CephFS data pool's size (0 = unknown) */
	int storage_nodes;         /* nodes whose links carry Ceph traffic */
	double net_link_min;       /* slowest node-pair link, B/s */
	bool one_host;             /* every "node" is on this one host */
	/* Roles (lyr_role_of): known from the job or --layers-storage-nodes;
	 * unknown, every node ran every layer and the counts above are the
	 * job's nodes. */
	bool roles_known;
	int clients;            /* client hosts (0 with roles unknown) */
	double net_public_min;  /* slowest client <-> storage pair, B/s */
	double net_cluster_min; /* slowest storage <-> storage pair, B/s */
	/* the device layer as a balanced bound: the slowest device
	 * target's share x the targets (lyr_balanced_bw); CRUSH spreads
	 * objects evenly, so one slow disk holds every OSD's share back;
	 * 0 or NAN = not known (the aggregate bw[LYR_DEVICE] is used) */
	double dev_bound[2];
};

/* What a rank does in a layered run (the role functions below are
 * model/roles.c). */
enum lyr_role {
	LYR_ROLE_ALL = 0, /* roles unknown: every layer */
	LYR_ROLE_STORAGE, /* storage host: device layer, network */
	LYR_ROLE_CLIENT,  /* client: network, protocol, full stack */
};

/* Where the roles came from. */
enum lyr_roles_from {
	LYR_ROLES_UNKNOWN = 0,
	LYR_ROLES_HETJOB, /* the storage component of a heterogeneous job */
	LYR_ROLES_OPTION, /* --layers-storage-nodes */
};

extern const char *const lyr_roles_from_names[3]; /* unknown hetjob option */

/* What decides one rank's role (read from the environment by the run). */
struct lyr_role_in {
	const char *storage_nodes; /* --layers-storage-nodes, or NULL */
	const char *host;          /* this rank's node name */
	int het_size;              /* components of the het job; 0: none */
	int het_group;             /* this rank's component; -1: unknown */
};

/*
 * The role of one rank: with [storage_nodes], storage when [host] is in
 * that hostlist, else client; else in a heterogeneous job, the last
 * component is the storage hosts, the others the clients (the order of
 * jobscripts/layered.sbatch); else LYR_ROLE_ALL.  Sets *from.  Returns
 * the role, or -EINVAL ([err] says why: a bad hostlist, a het job whose
 * component this rank cannot tell).
 */
int lyr_role_of(const struct lyr_role_in *in, enum lyr_roles_from *from,
		struct ios_err *err);

/*
 * This rank's component in a heterogeneous job of [het_size] components,
 * from the variables srun exports to each task of a het step, read with
 * [get] (getenv-like, [arg] passed on): the component whose
 * SLURM_JOB_NODELIST_HET_GROUP_<n> holds [host] when exactly one does, -1
 * when none or several do (a node in two components).  Nothing else
 * tells: srun gives every task of a het step the same SLURM_JOB_ID (the
 * leader's) and the same SLURM_JOB_PARTITION (the last component's:
 * "storage" on the clients' tasks too; Slurm 22.05 on the local site), and
 * SLURM_NTASKS_HET_GROUP_<n> are the allocation's counts, not the step's,
 * so SLURM_PROCID cannot be mapped either.
 */
int lyr_het_group(int het_size, const char *host,
		  const char *(*get)(const char *name, void *arg), void *arg);

/*
 * How long (ms) a task of a heterogeneous MPI step waits after
 * MPI_Finalize before it exits, so that the step's components end one
 * after the other: component g waits g * LYR_HET_EXIT_STAGGER_MS (at most
 * LYR_HET_EXIT_STAGGER_MAX_MS), component 0 and every task outside a het
 * step (SLURM_HET_SIZE unset or 1) or of an unknown component not at all.
 * [get]/[arg] as lyr_het_group; the host is SLURMD_NODENAME.
 *
 * Why: srun before Slurm 24.05.4 (SchedMD ticket 16817, "mpi/pmix - avoid
 * races for abort EIO threads") starts one mpi/pmix abort agent per
 * component into the same static variables and stops it from each
 * component's launch thread once that component's tasks have ended.  Two
 * components that end together both pthread_join() one thread and srun
 * hangs for good after every task has exited: the job runs into its time
 * limit.  On the local site (Slurm 22.05.8) 7 of 60 `srun
 * --het-group=0,1 --mpi=pmix` steps of smoke_mpi hung so.  Components that
 * end a second apart stop the agent one after the other.
 */
#define LYR_HET_EXIT_STAGGER_MS 1000
#define LYR_HET_EXIT_STAGGER_MAX_MS 8000
int lyr_het_exit_delay_ms(const char *(*get)(const char *name, void *arg),
			  void *arg);
/* Sleep lyr_het_exit_delay_ms of this process's environment: what an MPI
 * program of a het step calls right after MPI_Finalize. */
void lyr_het_exit_wait(void);

/*
 * Whether [host] is in the Slurm-style hostlist [list] ("s1,s2",
 * "s[1-3]", "node[01-04,07]-ib"; one bracket per item).  1 yes, 0 no,
 * -EINVAL on a malformed list ([err] names the item).
 */
int lyr_hostlist_has(const char *list, const char *host, struct ios_err *err);

/*
 * The network layer's numbers from the pair minima and the counts in [n]
 * (roles known: net_public_min, net_cluster_min, clients, storage_nodes;
 * unknown: net_link_min x storage_nodes both ways).  Roles known, with
 * one NIC per host carrying the public and the cluster traffic:
 *   read  = min(clients, storage hosts) x slowest public pair
 *   write = min(storage hosts x slowest pair of either kind,
 *               replicas x clients x slowest public pair)
 * (lyr_ceiling divides the write number by the replicas: every copy
 * enters a storage host's link, one copy leaves each client).  Sets
 * n->bw[LYR_NETWORK][*] (NAN when not measurable).
 */
void lyr_net_numbers(struct lyr_numbers *n);

/* One ceiling check: value of [layer] vs the ceiling the layer below sets. */
struct lyr_check {
	int layer; /* enum lyr_layer */
	int below; /* enum lyr_layer that sets the ceiling */
	int dir;   /* enum lyr_dir */
	double value, ceiling;
	bool violated;  /* value > ceiling * (1 + tolerance) */
	bool suspect;   /* violated, or measured without direct I/O */
	bool provable;  /* false when the ceiling comes from loopback */
	char text[512]; /* one line, with the numbers */
};

/* Thresholds of the verdict (fractions); defaults in lyr_default_thresholds.
 */
struct lyr_thresholds {
	double tolerance;    /* ceiling slack for noise (0.10) */
	double close;        /* "close to": value >= close * other (0.80) */
	double far_below;    /* "far below": value < far_below * other (0.50) */
	double fio_disagree; /* device vs fio disagreement flagged (0.05) */
};

extern const struct lyr_thresholds lyr_default_thresholds;

/*
 * Ceiling that layer [below] sets for layer [layer] in direction [dir],
 * given the counts in [n] (replication for writes: protocol write <= device
 * x OSDs per device target / replicas; network write <= links / replicas).
 * NAN when it cannot be computed.
 */
double lyr_ceiling(const struct lyr_numbers *n, int layer, int below, int dir);

struct ios_phase_result;
/*
 * The balanced bound of a phase run by one rank per target: per valid
 * repetition stonewall_bw x nranks x (the smallest rank's stonewall
 * bytes / their sum), i.e. the slowest target's rate times the targets;
 * the mean over valid repetitions.  NAN when none is valid or no bytes.
 */
double lyr_balanced_bw(const struct ios_phase_result *ph);

/*
 * Check every layer against every layer below it that sets a ceiling, both
 * directions.  Fills up to [max] checks; returns how many.  A violation, or
 * a layer measured without direct I/O, is marked suspect: "suspected
 * caching, not durable throughput", never a clean result.
 */
int lyr_check_ceilings(const struct lyr_numbers *n,
		       const struct lyr_thresholds *t, struct lyr_check *out,
		       int max);

/*
 * The verdict in words, in seeds/003's order (device and network vs
 * protocol, network vs protocol, full stack vs protocol), per direction,
 * with the numbers that led to it, the ceiling violations, and what the
 * environment cannot prove.  Returns a malloc'd string (NULL on ENOMEM).
 */
char *lyr_verdict(const struct lyr_numbers *n, const struct lyr_check *c,
		  int nc, const struct lyr_thresholds *t);

/* What fio measured for one job (group_reporting or summed over jobs). */
struct lyr_fio {
	double bw[2];   /* bytes/s, [enum lyr_dir] */
	double iops[2]; /* ops/s */
	double io_bytes[2];
	double runtime_s;
	int jobs;
	int error; /* first non-zero job error */
	/* the first job's options ("job options" over "global options",
	 * fio's defaults when neither sets one) */
	char rw[16];        /* read, randread, write, ... */
	uint64_t bs;        /* bytes */
	char ioengine[16];  /* psync when not set */
	int iodepth;        /* 1 when not set */
	uint64_t file_size; /* size=, 0 when not set */
	int direct;         /* direct=1 or buffered=0 */
};

/*
 * Parse fio's --output-format=json text (anything before the first '{' is
 * skipped: fio prints notes there).  Returns 0, -EINVAL (not fio JSON, or
 * an option value that is not a size; [err] says why) or -ENOSYS (built
 * without jansson).
 */
int lyr_fio_parse(const char *json, struct lyr_fio *out, struct ios_err *err);

/* Parse a fio size ("4k", "4M", "99G", "4096"; fio's default kb_base 1024:
 * k, kb and kib all mean 1024).  0 or -EINVAL. */
int lyr_fio_size(const char *s, uint64_t *out);

/* |a - b| / max(a, b); 0 when both are 0, NAN when either is NAN. */
double lyr_disagreement(double a, double b);

/*
 * Theoretical peak (paper 3.2): min(device x OSDs per device target,
 * network links) in direction [dir]; NAN when not measurable.  Efficiency
 * is then measured / peak.
 */
double lyr_peak_measured(const struct lyr_numbers *n, int dir);

/* Rated peak from a site description: nodes x min(disks x disk_bw,
 * controller_bw, nic_bw); absent controller or NIC rates (<= 0) are
 * ignored; NAN when the nodes or the disks are unknown. */
double lyr_peak_rated(int nodes, int disks_per_node, double disk_bw,
		      double controller_bw, double nic_bw);

#endif
