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
 * journal is then removed, and so are the job's published
 * <jobid>.applied.json and <jobid>.env, also when there was no journal),
 * or -EIO with [err] naming what is left (journal and files are kept for
 * the next attempt).
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
 * [alive] cannot judge.  Published files of jobs without a journal (a
 * refused job) are removed when [alive] says the job ended.  Returns 0,
 * or the first node_restore error.
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

/* Drain reasons the health check (and the plugin) set start with this:
 * only a node drained with it is ever resumed by the health check. */
#define NODE_DRAIN_PREFIX "iostrata:"

enum node_drain {
	NODE_UNDRAINED,     /* not drained, not down */
	NODE_DRAINED_OURS,  /* drained, reason starts with NODE_DRAIN_PREFIX */
	NODE_DRAINED_OTHER, /* drained by an admin or by Slurm, or down */
};

enum node_health_act {
	NODE_HEALTH_NOTHING,
	NODE_HEALTH_DRAIN,
	NODE_HEALTH_RESUME,
};

/* Classify what slurmctld says of the node: [drain] flag, base state
 * [down], [reason] (NULL: none).  A down node is never ours. */
enum node_drain node_drain_classify(bool drain, bool down, const char *reason);

/*
 * The health check's decision.  [whole]: node_check passed; [shaped]: a
 * job whose journal is here (or whose shape the host carries) still runs
 * or cannot be judged, so the node is whole for this purpose.  Drain only
 * an undrained node that is neither; resume only a node drained by us
 * that is whole (or shaped by a running job) again; never touch a node
 * drained by someone else.
 */
enum node_health_act node_health_decide(bool whole, bool shaped,
					enum node_drain d);

/* slurmctld, for node_health (iostrata-node: libslurm; tests: fakes). */
struct node_slurm_ops {
	/* The node's drain flag, DOWN base state and reason.  0 or -errno,
	 * [why] says why. */
	int (*state)(const char *node, bool *drain, bool *down, char *reason,
		     size_t len, char *why, size_t wlen);
	/* Drain [node] with [reason] / resume it.  0 or -errno. */
	int (*drain)(const char *node, const char *reason);
	int (*resume)(const char *node, char *why, size_t wlen);
	/* Does the job of a journal still run (a completing job does)? */
	node_job_alive_fn alive;
	void *alive_arg;
};

struct node_health_result {
	bool whole;  /* node_check passed */
	bool shaped; /* shaped by a running job (or one that cannot be
		      * judged) */
	bool busy;   /* an apply or restore held the lock: nothing done */
	enum node_drain drain;
	enum node_health_act act; /* what was done */
	char why[IOS_ERR_MSGLEN]; /* node_check's reasons, or the job's */
};

/*
 * HealthCheckProgram (slurmd ignores its exit code, so the check acts
 * itself): look at the node under the state and host locks (not waiting:
 * a prolog or epilog holding them is mid-change, then [res]->busy), judge
 * the jobs of the journals present with ops->alive, ask slurmctld for the
 * node's drain state and act as node_health_decide says.  The drain
 * reason is "iostrata: health check: <node_check's reasons>".  Returns 0
 * (also when nothing was to be done), or -errno when slurmctld could not
 * be asked or refused ([err]).
 */
int node_health(struct node_ctx *c, const struct node_slurm_ops *ops,
		struct node_health_result *res, struct ios_err *err);

#endif
