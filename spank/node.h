/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * node: shape a node for a job and restore it (the logic behind the SPANK
 * prolog/epilog and iostrata-node): lock, snapshot, journal, change, read
 * back, publish; restore from the journal and verify.
 */
#ifndef IOSTRATA_NODE_H
#define IOSTRATA_NODE_H

#include <stdbool.h>
#include <stdio.h>

#include "errbuf.h"
#include "policy.h"
#include "state.h"
#include "sysfs.h"

struct node_ctx {
	struct sysfs fs;
	struct state_dir sd;
	const struct policy *pol;
	char node[STATE_ID_MAX]; /* Slurm node name, for records */
};

/*
 * Read the current state of everything [c->pol] covers: hot-pluggable CPUs
 * and memory blocks, and each (cgroup, device) throttle.  A missing cgroup
 * is an error when [strict], else skipped.  Returns 0 or -errno ([err]).
 */
int node_observe(const struct node_ctx *c, bool strict, struct snapshot *s,
		 struct ios_err *err);

/* The lowest memory target accepted now, and what it is made of. */
struct node_mem_floor {
	uint64_t floor;   /* max(min_mem, in_use + reserve, fixed) */
	uint64_t min_mem; /* policy min_mem (default 2 GiB) */
	uint64_t in_use;  /* MemTotal - MemAvailable */
	uint64_t reserve; /* policy mem_reserve (default 1 GiB) */
	uint64_t fixed;   /* online memory that cannot go offline */
	uint64_t online;  /* online now */
};

/*
 * Compute the memory floor of the node (policy defaults when c->pol is
 * NULL).  Returns 0, or -ENOENT / -EINVAL (memory hotplug or
 * /proc/meminfo missing or unreadable) with [err] set.
 */
int node_mem_floor(const struct node_ctx *c, struct node_mem_floor *out,
		   struct ios_err *err);

/*
 * Apply [req] for [jobid] (owner [uid]): see file comment.  Returns 0
 * (applied within tolerance, published), or a negative errno after the
 * node was restored ([err] holds the message for the user): -EBUSY
 * (another job's journal is present), -ERANGE (beyond tolerance, or a
 * memory target below node_mem_floor: refused before anything changed),
 * -EIO (restore after a failure also failed: the node is not whole).
 */
int node_apply(struct node_ctx *c, const char *jobid, unsigned uid,
	       const struct iostrata_req *req, struct ios_err *err);

/*
 * Restore the journal of [jobid] (NULL: every journal).  Idempotent: no
 * journal is success.  Returns 0 when the node equals the snapshot (the
 * journal is then removed), or -EIO with [err] naming what is left (the
 * journal is kept for the next attempt).
 */
int node_restore(struct node_ctx *c, const char *jobid, struct ios_err *err);

/*
 * Does the job of a journal still run?  1: yes (keep the journal: its
 * epilog restores), 0: it ended (restore now), negative errno: cannot tell
 * (keep it).  [why] (of [len] bytes) gets the reason, for the log.
 */
typedef int (*node_job_alive_fn)(const char *jobid, void *arg, char *why,
				 size_t len);

/*
 * slurmd start: restore every journal whose job ended according to
 * [alive]; keep (and log why) the journals of running jobs and of jobs
 * [alive] cannot judge.  Returns 0, or the first node_restore error.
 */
int node_restore_ended(struct node_ctx *c, node_job_alive_fn alive, void *arg,
		       struct ios_err *err);

/* Record that [jobid]'s request was refused with [msg] (no change made). */
int node_publish_refusal(struct node_ctx *c, const char *jobid,
			 const struct iostrata_req *req, const char *msg);

/*
 * Print the node's state as JSON (contract shape, "applied" = in effect
 * now).  Returns 0 or -errno.
 */
int node_status_json(const struct node_ctx *c, FILE *out);

/*
 * Is the node whole: no journal, every CPU and memory block online, no
 * throttle on the policy's cgroups?  Returns 0 or -EBUSY with the first
 * reasons in [err].
 */
int node_check(const struct node_ctx *c, struct ios_err *err);

#endif
