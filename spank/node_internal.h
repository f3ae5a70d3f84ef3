/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * node_internal: what the parts of node.h share (not part of its API):
 * the observed state and the host registry (node.c), the published files
 * (node_publish.c), the restore (node_restore.c), used by the apply
 * (node_apply.c) and the status and health check (node_status.c).
 */
#ifndef IOSTRATA_NODE_INTERNAL_H
#define IOSTRATA_NODE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "jsonw.h"
#include "node.h"

#define NODE_LOCK_TIMEOUT_MS 30000

/* Online CPUs below [fs] (0 when they cannot be scanned), their list in
 * [list] ("unknown" then). */
unsigned node_count_online_cpus(const struct sysfs *fs, char *list, size_t len);

/* Online memory below [fs], bytes (0 when it cannot be scanned). */
uint64_t node_online_mem(const struct sysfs *fs);

/*
 * Host registry.  Several Slurm nodes (several sites, even) can share one
 * kernel, e.g. the one-machine local site: their state directories differ
 * but CPUs and memory are the same.  <sysroot>/run/iostrata-host/active
 * names the one (state dir, job) whose shape is in effect; another apply
 * is refused while that journal exists.
 */
#define NODE_HOST_DIR "run/iostrata-host"

/* Take the host lock, waiting up to [timeout_ms]: the fd (release with
 * state_unlock), or -errno (-ETIMEDOUT when held). */
int node_host_lock_wait(const struct node_ctx *c, int timeout_ms);

/* node_host_lock_wait with NODE_LOCK_TIMEOUT_MS. */
int node_host_lock(const struct node_ctx *c);

/* The live owner of the host, if any: 1 and [sd]/[job] filled; 0 when
 * none, or the journal it names is gone. */
int node_host_owner(const struct node_ctx *c, char *sd, size_t sdlen, char *job,
		    size_t joblen);

/* Make (c's state directory, [jobid]) the owner of the host.  0 or -errno. */
int node_host_set(const struct node_ctx *c, const char *jobid);

/* Forget the owner of the host, if it is (c's state directory, [jobid]). */
void node_host_clear(const struct node_ctx *c, const char *jobid);

/* An "applied"/"snapshot" object: CPUs, memory, throttles of [s], with
 * [cpus_online] CPUs [cpu_list] and [mem_bytes] online. */
void node_json_state(struct jsonw *w, const struct snapshot *s,
		     unsigned cpus_online, const char *cpu_list,
		     uint64_t mem_bytes);

/*
 * The OSDs' osd_memory_target for a memory request (node_omt.c): with
 * policy osd_memory_target = share the apply's plan (old and new values,
 * also journalled in the snapshot); with off what they are now, to
 * record that they exceed the memory left.
 */
struct node_omt {
	bool active;        /* a memory request on a node with OSDs */
	bool share_on;      /* policy osd_memory_target = share */
	uint64_t mem_left;  /* --iostrata-mem */
	uint64_t share_min; /* policy osd_memory_target_min */
	uint64_t share;     /* mem_left / OSDs, at least share_min */
	size_t n;
	struct node_omt_osd {
		int id;
		bool explicit_old;
		uint64_t old_bytes; /* off: the target now */
		uint64_t new_bytes; /* share only */
	} osd[POLICY_MAX_LIST];
	char why_unknown[IOS_ERR_MSGLEN]; /* off: the targets could not be read
					   */
};

/*
 * Before anything changes: for a memory request [req], find the host's
 * OSDs, read their targets (policy share: a failure refuses the job,
 * -errno with [err]; off: recorded as unknown) and fill [o]; with share
 * also [snap]->omt, for the journal.  0 or -errno.
 */
int node_omt_plan(struct node_ctx *c, const struct iostrata_req *req,
		  struct snapshot *snap, struct node_omt *o,
		  struct ios_err *err);

/* Set and read back each target of [snap]->omt.  0 or -errno ([err]). */
int node_omt_apply(struct node_ctx *c, const struct snapshot *snap,
		   struct ios_err *err);

/*
 * Put each target of [s]->omt back (its old value, or its entry removed
 * when osd.N had none of its own) and read it back; what is not back
 * (Ceph unreachable, refused) goes into [left] at [*off] ([len] bytes).
 * Returns the count of OSDs not back.
 */
int node_omt_restore(struct node_ctx *c, const struct snapshot *s, char *left,
		     size_t len, size_t *off);

/* The "osd_memory_target" member of a published file, from [o]. */
void node_omt_json(struct jsonw *w, const struct node_omt *o);

/* Status: each OSD of this host and its target now (none when the
 * policy names no OSDs).  The first OSD's call is the probe: when the CLI
 * or the monitors do not answer, every OSD's entry is "Ceph unreachable:
 * <reason>" and no further call is made (one ceph_timeout, not one per
 * OSD). */
void node_omt_status_json(const struct node_ctx *c, struct jsonw *w);

/*
 * The MDS (node_mds.c) for --iostrata-mds-*: on a node whose policy names
 * it ("mds =", "mds_cgroup ="), read its cgroup's CPU quota and memory
 * limit and its mds_cache_memory_limit (and whether mds.ID has an entry
 * of its own) into [snap]->mds with the new values, before the journal;
 * a cgroup or a Ceph that cannot be read refuses the job (-errno, [err];
 * nothing changed).  Without "mds =" in the policy, nothing (the record
 * says why).
 */
int node_mds_plan(struct node_ctx *c, const struct iostrata_req *req,
		  struct snapshot *snap, struct ios_err *err);

/* Set and read back what [snap]->mds says: the CPU quota, the memory
 * limit, the cache limit, in that order.  0 or -errno ([err]). */
int node_mds_apply(struct node_ctx *c, const struct snapshot *snap,
		   struct ios_err *err);

/* Put [s]->mds back (also what the apply had not reached yet: it is
 * written as it was) and read it back; what is not back goes into [left]
 * at [*off].  Returns the count of items not back. */
int node_mds_restore(struct node_ctx *c, const struct snapshot *s, char *left,
		     size_t len, size_t *off);

/* The "mds" member of a published file: requested, applied (read back),
 * before; applied null with the reason where the policy names no MDS. */
void node_mds_json(struct jsonw *w, const struct node_ctx *c,
		   const struct iostrata_req *req, const struct snapshot *snap);

/* IOSTRATA_REQ_MDS_* and IOSTRATA_APPLIED_MDS_* lines ([snap] NULL:
 * only the requested). */
void node_mds_env(FILE *f, const struct node_ctx *c,
		  const struct iostrata_req *req, const struct snapshot *snap);

/* Status: the MDS the policy names, its cgroup's quota and limit and its
 * cache limit now. */
void node_mds_status_json(const struct node_ctx *c, struct jsonw *w);

/* Health check: the MDS cgroup the policy names has a CPU quota or a
 * memory limit (the MDS is whole without either, as an OSD cgroup is
 * without a throttle); each added to [why] at [*off].  The count. */
int node_mds_check(const struct node_ctx *c, char *why, size_t len,
		   size_t *off);

/* One item of what is left at [*off] of [left] (", " between items),
 * cut to [len]. */
void node_left_add(char *left, size_t len, size_t *off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * Write <jobid>.applied.json and <jobid>.env (KEY=VALUE lines) for [req]:
 * [snap] and [now] (the state before and after) and [omt] (NULL or not
 * active: nothing to say) when applied, or [refused] (then [snap], [now]
 * and [omt] are unused).  0 or -errno.
 */
int node_publish(struct node_ctx *c, const char *jobid,
		 const struct iostrata_req *req, const struct snapshot *snap,
		 const struct snapshot *now, const struct node_omt *omt,
		 const char *refused);

/* Undo [s] on the node, then verify.  Appends what is left to [left]
 * ([len] bytes).  0, or -EIO when the node is not as [s] says. */
int node_restore_snapshot(struct node_ctx *c, const struct snapshot *s,
			  char *left, size_t len);

#endif
