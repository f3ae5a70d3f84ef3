/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * node_apply: shape a node for a job (node.h node_apply): claim the node
 * and the host, refuse a memory target below the floor before anything
 * changes, snapshot and journal the observed state, change CPUs, memory
 * and throttles, read back and compare, publish; restore on any failure.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blkio.h"
#include "cpu.h"
#include "log.h"
#include "mem.h"
#include "node.h"
#include "node_internal.h"
#include "units.h"

/* Refuse a memory target the node cannot reach without starving what
 * runs there, BEFORE anything changes (mem_apply would otherwise take
 * every block it can offline, and only the read-back would refuse). */
static int check_mem_floor(struct node_ctx *c, const struct iostrata_req *req,
			   struct ios_err *err)
{
	struct node_mem_floor fl;
	char a[32], b[32], d[32], e[32], f[32], g[32];
	int rc = node_mem_floor(c, &fl, err);

	if (rc < 0)
		return rc;
	if (req->mem >= fl.floor)
		return 0;
	return ios_errf(
		err, -ERANGE,
		"iostrata: node %s: --iostrata-mem=%s is below the memory floor %s of this node now (the largest of: site minimum min_mem %s, in use %s (MemTotal - MemAvailable) + mem_reserve %s, not offlinable %s); nothing changed",
		c->node,
		req->raw_mem[0] ? req->raw_mem
				: ios_fmt_size(req->mem, a, sizeof(a)),
		ios_fmt_size(fl.floor, b, sizeof(b)),
		ios_fmt_size(fl.min_mem, d, sizeof(d)),
		ios_fmt_size(fl.in_use, e, sizeof(e)),
		ios_fmt_size(fl.reserve, f, sizeof(f)),
		ios_fmt_size(fl.fixed, g, sizeof(g)));
}

static bool lim_eq_req(const struct blkio_limit *l,
		       const struct blkio_limit *want)
{
	return memcmp(l, want, sizeof(*l)) == 0;
}

/* No journal in this state directory and no other owner of the host: the
 * host lock is taken (*hl), the caller holds the state lock. */
static int apply_claim(struct node_ctx *c, const char *jobid, int *hl,
		       struct ios_err *err)
{
	char **ids = NULL;
	size_t nids = 0;
	char osd[4200], ojob[STATE_ID_MAX];
	int rc;

	rc = state_journal_list(&c->sd, &ids, &nids);
	if (rc < 0)
		return ios_errf(err, rc, "iostrata: list %s/journal: %s",
				c->sd.path, strerror(-rc));
	if (nids > 0) {
		rc = ios_errf(
			err, -EBUSY,
			"iostrata: node %s: already reconfigured for job %s (journal in %s/journal); not applying for job %s",
			c->node, ids[0], c->sd.path, jobid);
		state_list_free(ids, nids);
		return rc;
	}
	state_list_free(ids, nids);
	*hl = node_host_lock(c);
	if (*hl < 0)
		return ios_errf(err, *hl, "iostrata: lock %s/%s/lock: %s",
				c->fs.root, NODE_HOST_DIR, strerror(-*hl));
	if (node_host_owner(c, osd, sizeof(osd), ojob, sizeof(ojob)) == 1)
		return ios_errf(
			err, -EBUSY,
			"iostrata: node %s: this machine is already reconfigured for job %s (state directory %s); not applying for job %s",
			c->node, ojob, osd, jobid);
	return 0;
}

/* Who the observed state [snap] is for; then the host and the journal
 * record it, before anything changes. */
static int apply_journal(struct node_ctx *c, const char *jobid, unsigned uid,
			 struct snapshot *snap, struct ios_err *err)
{
	int rc;

	snprintf(snap->jobid, sizeof(snap->jobid), "%s", jobid);
	snprintf(snap->node, sizeof(snap->node), "%s",
		 c->node[0] ? c->node : "-");
	snap->uid = uid;
	snap->time = (long long)time(NULL);
	rc = node_host_set(c, jobid);
	if (rc < 0) {
		ios_errf(err, rc, "iostrata: write %s/%s/active: %s",
			 c->fs.root, NODE_HOST_DIR, strerror(-rc));
		return rc;
	}
	rc = state_journal_write(&c->sd, snap);
	if (rc < 0)
		ios_errf(err, rc,
			 "iostrata: write journal %s/journal/%s.state: %s",
			 c->sd.path, jobid, strerror(-rc));
	return rc;
}

/* --iostrata-cpus: offline the CPUs cpu_plan picks. */
static int apply_cpus(struct node_ctx *c, const char *jobid,
		      const struct iostrata_req *req, struct ios_err *err)
{
	struct cpu_info ci;
	bool *off;
	int n, rc;

	rc = cpu_scan(&c->fs, &ci);
	if (rc < 0) {
		ios_errf(err, rc, "iostrata: scan CPUs: %s", strerror(-rc));
		return rc;
	}
	off = calloc(ci.n ? ci.n : 1, sizeof(*off));
	n = off ? cpu_plan(&ci, req->cpus, off) : -ENOMEM;
	if (n < 0) {
		rc = ios_errf(
			err, n == -ERANGE ? -ERANGE : n,
			"iostrata: --iostrata-cpus=%u: %u CPUs online on node %s",
			req->cpus, cpu_count_online(&ci), c->node);
		free(off);
		cpu_info_free(&ci);
		return rc;
	}
	for (size_t i = ci.n; i-- > 0;) {
		if (!off[i])
			continue;
		if (cpu_set_online(&c->fs, ci.cpu[i].id, false) == 0)
			log_info("iostrata: node %s: job %s: cpu%d offline",
				 c->node, jobid, ci.cpu[i].id);
	}
	free(off);
	cpu_info_free(&ci);
	return 0;
}

/* --iostrata-mem: offline memory blocks down to the target. */
static int apply_mem(struct node_ctx *c, const char *jobid,
		     const struct iostrata_req *req, struct ios_err *err)
{
	struct mem_info mi;
	struct mem_result mr;
	char sz[32];
	int rc;

	rc = mem_scan(&c->fs, &mi);
	if (rc < 0) {
		ios_errf(err, rc, "iostrata: scan memory blocks: %s",
			 strerror(-rc));
		return rc;
	}
	rc = mem_apply(&c->fs, &mi, req->mem, c->pol->mem_attempt_ms,
		       c->pol->mem_total_ms, &mr);
	mem_info_free(&mi);
	log_info(
		"iostrata: node %s: job %s: %u memory blocks offline, %u refused, %u timed out, %s online",
		c->node, jobid, mr.offlined, mr.refused, mr.timeouts,
		ios_fmt_size(mr.online_bytes, sz, sizeof(sz)));
	if (rc < 0)
		ios_errf(err, rc, "iostrata: offline memory: %s",
			 strerror(-rc));
	return rc;
}

/* The throttle [req] asks for, over the observed limit [l]. */
static struct blkio_limit wanted_limit(const struct iostrata_req *req,
				       struct blkio_limit l)
{
	if (req->has_bw) {
		l.rbps = req->rbps;
		l.wbps = req->wbps;
	}
	if (req->has_iops)
		l.riops = l.wiops = req->iops;
	return l;
}

/* The job's own cgroup (policy throttle_job, cgroup v1 throttles): its
 * path in the snapshot before the journal is written, so that a crash
 * after the mkdir still removes it.  One that exists already is not
 * ours: refused. */
static int jobcg_plan(struct node_ctx *c, const char *jobid,
		      const struct iostrata_req *req, struct snapshot *snap,
		      struct ios_err *err)
{
	bool v1 = false;
	int rc;

	if (!(req->has_bw || req->has_iops) || !c->pol->throttle_job)
		return 0;
	for (size_t i = 0; i < snap->n_thr; i++)
		v1 |= snap->thr[i].ver == BLKIO_V1;
	if (!v1)
		return 0;
	rc = blkio_job_cgroup(jobid, snap->jobcg, sizeof(snap->jobcg));
	if (rc < 0)
		return ios_errf(err, rc,
				"iostrata: job %s: its blkio cgroup: %s", jobid,
				strerror(-rc));
	if (sysfs_exists(&c->fs, snap->jobcg)) {
		snap->jobcg[0] = '\0';
		return ios_errf(
			err, -EEXIST,
			"iostrata: node %s: job %s: cgroup /sys/fs/cgroup/blkio/iostrata.job_%s exists already (not made by this job: remove it, or set throttle_job = no in the policy)",
			c->node, jobid, jobid);
	}
	return 0;
}

/* The limit [req] asks for on each v1 device of the snapshot, in
 * [cg] (the job's cgroup: it has no limits of its own before). */
static int jobcg_limits(const struct node_ctx *c, const char *cg,
			const struct iostrata_req *req,
			const struct snapshot *snap, bool check,
			struct ios_err *err)
{
	struct blkio_limit got, want = {0, 0, 0, 0};

	want = wanted_limit(req, want);
	for (size_t i = 0; i < snap->n_thr; i++) {
		const struct snap_thr *t = &snap->thr[i];
		int rc;

		if (t->ver != BLKIO_V1)
			continue;
		if (!check) {
			rc = blkio_set(&c->fs, cg, BLKIO_V1, t->dev, &want);
			if (rc < 0)
				return ios_errf(
					err, rc,
					"iostrata: cgroup %s: set throttle of %u:%u: %s",
					cg, t->dev.maj, t->dev.min,
					strerror(-rc));
			continue;
		}
		rc = blkio_get(&c->fs, cg, BLKIO_V1, t->dev, &got);
		if (rc < 0 || !lim_eq_req(&got, &want))
			return ios_errf(
				err, rc < 0 ? rc : -ERANGE,
				"iostrata: node %s: throttle on %s not in effect after writing it; node restored",
				c->node, cg);
	}
	return 0;
}

static int jobcg_make(struct node_ctx *c, const char *jobid,
		      const struct iostrata_req *req,
		      const struct snapshot *snap, struct ios_err *err)
{
	int rc;

	if (!snap->jobcg[0])
		return 0;
	rc = sysfs_mkdir(&c->fs, snap->jobcg, 0755);
	if (rc < 0)
		return ios_errf(err, rc, "iostrata: node %s: mkdir %s: %s",
				c->node, snap->jobcg, strerror(-rc));
	rc = jobcg_limits(c, snap->jobcg, req, snap, false, err);
	if (rc < 0)
		return rc;
	log_info(
		"iostrata: node %s: job %s: the job's tasks here join %s (the OSDs' throttle)",
		c->node, jobid, snap->jobcg);
	return 0;
}

/* --iostrata-disk-bw / --iostrata-disk-iops: every (cgroup, device) of
 * the snapshot. */
static int apply_throttles(struct node_ctx *c, const char *jobid,
			   const struct iostrata_req *req,
			   const struct snapshot *snap, struct ios_err *err)
{
	/* cgroup v2: give the io controller to the throttled cgroups first
	 * (journalled as "ioen" lines: the restore takes it back). */
	for (size_t i = 0; i < snap->n_ioen; i++) {
		const char *d = snap->ioen[i].cg;
		int rc = blkio_v2_set_io(&c->fs, d, true);

		if (rc < 0)
			return ios_errf(
				err, rc,
				"iostrata: cgroup %s: write +io to cgroup.subtree_control: %s%s",
				d, strerror(-rc),
				rc == -EBUSY
					? " (a cgroup with processes of its own cannot give the io controller to its children)"
					: "");
		log_info(
			"iostrata: node %s: job %s: io controller enabled in %s/cgroup.subtree_control",
			c->node, jobid, d);
	}
	for (size_t i = 0; i < snap->n_thr; i++) {
		const struct snap_thr *t = &snap->thr[i];
		struct blkio_limit l = wanted_limit(req, t->lim);
		int rc = blkio_set(&c->fs, t->cg, t->ver, t->dev, &l);

		if (rc < 0) {
			ios_errf(
				err, rc,
				"iostrata: cgroup %s: set throttle of %u:%u: %s",
				t->cg, t->dev.maj, t->dev.min, strerror(-rc));
			return rc;
		}
		log_info("iostrata: node %s: job %s: throttle %u:%u in %s",
			 c->node, jobid, t->dev.maj, t->dev.min, t->cg);
	}
	return jobcg_make(c, jobid, req, snap, err);
}

/* Read back what the kernel has now ([now]) and compare with [req]
 * within the policy's tolerances. */
static int apply_verify(struct node_ctx *c, const struct iostrata_req *req,
			const struct snapshot *snap, struct snapshot *now,
			struct ios_err *err)
{
	char sz1[32], sz2[32];
	int rc;

	rc = node_observe(c, req->has_bw || req->has_iops, now, err);
	if (rc < 0)
		return rc;
	if (req->has_cpus) {
		char list[256];
		unsigned n = node_count_online_cpus(&c->fs, list, sizeof(list));

		if (n < req->cpus || n - req->cpus > c->pol->cpu_tolerance)
			return ios_errf(
				err, -ERANGE,
				"iostrata: node %s: --iostrata-cpus=%u not reached: %u CPUs online (%s), tolerance %u; node restored",
				c->node, req->cpus, n, list,
				c->pol->cpu_tolerance);
	}
	if (req->has_mem) {
		uint64_t m = node_online_mem(&c->fs);

		if (m > req->mem + policy_mem_slack(c->pol, req->mem))
			return ios_errf(
				err, -ERANGE,
				"iostrata: node %s: --iostrata-mem=%s not reached: %s online (the other blocks refused, timed out or the deadline passed), tolerance %" PRIu64
				" bytes; node restored",
				c->node,
				req->raw_mem[0] ? req->raw_mem
						: ios_fmt_size(req->mem, sz2,
							       sizeof(sz2)),
				ios_fmt_size(m, sz1, sizeof(sz1)),
				policy_mem_slack(c->pol, req->mem));
	}
	if (req->has_bw || req->has_iops) {
		for (size_t i = 0; i < now->n_thr; i++) {
			struct blkio_limit want =
				wanted_limit(req, snap->thr[i].lim);

			if (i >= snap->n_thr ||
			    !lim_eq_req(&now->thr[i].lim, &want))
				return ios_errf(
					err, -ERANGE,
					"iostrata: node %s: throttle on %s not in effect after writing it; node restored",
					c->node, now->thr[i].cg);
		}
		if (snap->jobcg[0])
			return jobcg_limits(c, snap->jobcg, req, snap, true,
					    err);
	}
	return 0;
}

/* After a failure [rc]: restore the snapshot; when that is not complete,
 * keep the journal (the epilog or slurmd start retries) and return -EIO. */
static int apply_undo(struct node_ctx *c, const char *jobid,
		      const struct snapshot *snap, int rc, struct ios_err *err)
{
	char left[256] = "";
	int r = node_restore_snapshot(c, snap, left, sizeof(left));

	if (r < 0) {
		char msg[IOS_ERR_MSGLEN];

		snprintf(msg, sizeof(msg), "%s", err ? err->msg : "");
		ios_errf(err, -EIO, "%.200s; restore incomplete: %.200s", msg,
			 left);
		return -EIO;
	}
	state_journal_remove(&c->sd, jobid);
	node_host_clear(c, jobid);
	return rc;
}

/* Change what [req] asks for, read it back, publish it. */
static int apply_change(struct node_ctx *c, const char *jobid,
			const struct iostrata_req *req,
			const struct snapshot *snap, struct snapshot *now,
			const struct node_omt *omt, struct ios_err *err)
{
	int rc;

	if (req->has_cpus && (rc = apply_cpus(c, jobid, req, err)) < 0)
		return rc;
	if (req->has_mem && (rc = apply_mem(c, jobid, req, err)) < 0)
		return rc;
	if ((req->has_bw || req->has_iops) &&
	    (rc = apply_throttles(c, jobid, req, snap, err)) < 0)
		return rc;
	if (snap->n_omt && (rc = node_omt_apply(c, snap, err)) < 0)
		return rc;
	if ((rc = node_mds_apply(c, snap, err)) < 0)
		return rc;
	rc = apply_verify(c, req, snap, now, err);
	if (rc < 0)
		return rc;
	rc = node_publish(c, jobid, req, snap, now, omt, NULL);
	if (rc < 0)
		ios_errf(err, rc, "iostrata: write %s/%s.applied.json: %s",
			 c->sd.path, jobid, strerror(-rc));
	return rc;
}

int node_apply(struct node_ctx *c, const char *jobid, unsigned uid,
	       const struct iostrata_req *req, struct ios_err *err)
{
	struct snapshot snap, now;
	struct node_omt omt;
	int lk, hl = -1, rc;

	memset(&snap, 0, sizeof(snap));
	memset(&now, 0, sizeof(now));
	if (!state_valid_id(jobid))
		return ios_errf(err, -EINVAL, "iostrata: invalid job id \"%s\"",
				jobid);
	lk = state_lock(&c->sd, NODE_LOCK_TIMEOUT_MS);
	if (lk < 0)
		return ios_errf(err, lk, "iostrata: lock %s/journal/lock: %s",
				c->sd.path, strerror(-lk));
	rc = apply_claim(c, jobid, &hl, err);
	if (rc < 0)
		goto out_unlock;
	if (req->has_mem) {
		rc = check_mem_floor(c, req, err);
		if (rc < 0)
			goto out_unlock;
	}
	/* 1. snapshot the observed state, 2. journal it, 3. change. */
	rc = node_observe(c, req->has_bw || req->has_iops, &snap, err);
	if (rc < 0)
		goto out_unlock;
	/* the OSDs' memory targets: read (and with share planned) before
	 * the journal, so that the journal holds their old values */
	rc = node_omt_plan(c, req, &snap, &omt, err);
	if (rc < 0)
		goto out_free;
	/* the MDS: its cgroup's limits and its cache limit now, for the
	 * journal */
	rc = node_mds_plan(c, req, &snap, err);
	if (rc < 0)
		goto out_free;
	rc = jobcg_plan(c, jobid, req, &snap, err);
	if (rc < 0)
		goto out_free;
	rc = apply_journal(c, jobid, uid, &snap, err);
	if (rc < 0)
		goto out_free;
	rc = apply_change(c, jobid, req, &snap, &now, &omt, err);
	if (rc < 0)
		rc = apply_undo(c, jobid, &snap, rc, err);
out_free:
	snapshot_free(&snap);
	snapshot_free(&now);
out_unlock:
	state_unlock(hl);
	state_unlock(lk);
	return rc;
}
