/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * campaign: the elements of an iostrata campaign (one Slurm job each) and
 * their states.  Used by iostrata-campaign (jobscripts/campaign.c).
 */
#ifndef IOSTRATA_CAMPAIGN_H
#define IOSTRATA_CAMPAIGN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errbuf.h"
#include "siteconf.h"

enum camp_state {
	CAMP_UNSUBMITTED = 0,
	CAMP_PENDING,
	CAMP_RUNNING,
	CAMP_DONE,   /* Slurm COMPLETED, exit 0, status file "ok" */
	CAMP_FAILED, /* any component failed, non-zero exit, or status file */
	CAMP_LOST,   /* unknown to Slurm and no status file */
	CAMP_NSTATES
};

/* One element: a storage-node configuration, run as one Slurm job. */
struct camp_element {
	int index;
	char label[64];       /* cpus8-mem32G, diskbw100MB, or the job name */
	char options[256];    /* --iostrata-* options of the storage component;
			       * sweep-threads: the compute job's --ntasks */
	uint64_t cpus;        /* 0 when not constrained */
	uint64_t mem;         /* bytes, 0 when not constrained */
	uint64_t disk_bw;     /* B/s, 0 when not constrained */
	uint64_t ranks;       /* sweep-threads: ranks of the job, 0 otherwise */
	unsigned replication; /* [sweep] replication: the pool size this
			       * element runs on, 0 when not a factor */
	char pool[96];        /* its RADOS pool (PREFIX-rN), "" if none */
	bool baseline;        /* the unconstrained baseline: no --iostrata-*
			       * option, the storage host whole */
	uint32_t jobid;       /* 0 when not submitted */
	enum camp_state state;
	uint32_t exit_code; /* wait status of the batch script */
	char why[256];      /* why it failed, "" otherwise */
	/* an element that ran to its end with a verdict that is not met
	 * (acceptance: accept.json says FAIL or NOTRUN): "FAIL: 2 of 16
	 * metrics"; its state is DONE, not FAILED.  "" otherwise */
	char verdict[64];
	int64_t start; /* Slurm start time (s since the epoch), 0: unknown */
	int64_t end;   /* Slurm end time once it ended, 0: unknown */
};

/* The job names, for messages. */
#define CAMP_JOBS                                                              \
	"sweep-cores-mem, sweep-disk-bw, sweep-threads, layered, nightly-health, acceptance"

/* Is [job] one of the job scripts (CAMP_JOBS)? */
bool camp_job_known(const char *job);

/* The default name prefix of a campaign's replication pools. */
#define CAMP_REPL_POOL_PREFIX "iostrata"
/* The default pg_num of a pool the campaign creates. */
#define CAMP_REPL_PG_NUM 32

/*
 * Expand [job] over the site's [sweep] into elements (malloc'd array,
 * free with camp_elements_free).  Returns 0, -EINVAL (unknown job; [err]),
 * -ENOENT (the sweep list is not set; [err]), -ENOMEM.  With [sweep]
 * replication (sweep jobs only) every element runs once per factor N, in
 * the list's order (all elements at the first factor, then the next):
 * label LABEL-rN, pool PREFIX-rN ([sweep] replication_pool, default
 * CAMP_REPL_POOL_PREFIX); -EINVAL ([err]) for a bad list or a prefix that
 * is not a pool name (letters, digits, '-', '_', '.').  A sweep that
 * shapes the storage nodes (sweep-cores-mem, sweep-disk-bw) measures its
 * unconstrained baseline (no option: e->baseline) before and after each
 * factor's elements ([sweep] baseline = both, the default; first: only
 * before; none), labels baseline-first and baseline-last, at the factors
 * of [sweep] baseline_replication (default the sweep's; a factor with no
 * sweep elements gets one, label baseline); the factors in the order of
 * baseline_replication, then the sweep's others.
 */
int camp_plan(const struct ios_site *s, const char *job,
	      struct camp_element **out, size_t *nout, struct ios_err *err);
void camp_elements_free(struct camp_element *e, size_t n);

/*
 * State of element [e] of the campaign in [dir]: libslurm first
 * (slurm_load_job, all het components), then the job script's status file
 * once Slurm has forgotten the job.  Fills e->why and e->exit_code, and
 * e->start, e->end while Slurm knows them (kept once it has forgotten).
 */
enum camp_state camp_element_state(const char *dir, struct camp_element *e);
const char *camp_state_name(enum camp_state s);

#endif
