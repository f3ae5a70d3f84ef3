/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * node_restore: put a node back as its journal says (node.h
 * node_restore, node_restore_ended): undo the snapshot, verify it, remove
 * the journal and the job's published files, release the host.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "blkio.h"
#include "cpu.h"
#include "log.h"
#include "mem.h"
#include "node.h"
#include "node_internal.h"

#define RESTORE_MEM_MS 20000

/* The snapshot's online CPUs that are offline now: online again. */
static void restore_cpus(struct node_ctx *c, const struct snapshot *s)
{
	for (size_t i = 0; i < s->n_cpu; i++)
		if (s->cpu[i].online) {
			char path[96], v[8];

			if (sysfs_pathf(path, sizeof(path),
					"sys/devices/system/cpu/cpu%d/online",
					s->cpu[i].id) == 0 &&
			    sysfs_read(&c->fs, path, v, sizeof(v)) >= 0 &&
			    strcmp(v, "1") != 0 &&
			    cpu_set_online(&c->fs, s->cpu[i].id, true) == 0)
				log_info(
					"iostrata: node %s: job %s: cpu%d online again",
					c->node, s->jobid, s->cpu[i].id);
		}
}

/* The snapshot's online memory blocks that are offline now: online
 * again. */
static void restore_mem(struct node_ctx *c, const struct snapshot *s)
{
	for (size_t i = 0; i < s->n_mem; i++)
		if (s->mem[i].online) {
			char path[96], v[8];
			int rc;

			if (sysfs_pathf(
				    path, sizeof(path),
				    "sys/devices/system/memory/memory%d/online",
				    s->mem[i].id) == 0 &&
			    sysfs_read(&c->fs, path, v, sizeof(v)) >= 0 &&
			    strcmp(v, "1") != 0) {
				rc = mem_set_online(&c->fs, s->mem[i].id, true,
						    RESTORE_MEM_MS);
				if (rc < 0)
					log_err("iostrata: memory%d: write online=1: %s",
						s->mem[i].id, strerror(-rc));
			}
		}
}

/* The snapshot's throttles where they differ now; then, cgroup v2, the
 * io controller taken back where the apply gave it, deepest first (a
 * parent's "-io" fails while a child uses io). */
static void restore_throttles(struct node_ctx *c, const struct snapshot *s)
{
	int rc;

	for (size_t i = 0; i < s->n_thr; i++) {
		const struct snap_thr *t = &s->thr[i];
		struct blkio_limit cur;
		enum blkio_ver ver;

		if (blkio_detect(&c->fs, t->cg, &ver) < 0) {
			/* The cgroup is gone (its daemon stopped): nothing
			 * is throttled there any more. */
			log_verbose(
				"iostrata: cgroup %s gone: nothing to restore",
				t->cg);
			continue;
		}
		if (blkio_get(&c->fs, t->cg, t->ver, t->dev, &cur) == 0 &&
		    memcmp(&cur, &t->lim, sizeof(cur)) == 0)
			continue;
		rc = blkio_set(&c->fs, t->cg, t->ver, t->dev, &t->lim);
		if (rc < 0)
			log_err("iostrata: cgroup %s: restore throttle of %u:%u: %s",
				t->cg, t->dev.maj, t->dev.min, strerror(-rc));
	}
	for (size_t i = s->n_ioen; i-- > 0;) {
		const char *d = s->ioen[i].cg;

		if (blkio_v2_has_io(&c->fs, d) != 1)
			continue; /* not enabled (any more), or gone */
		rc = blkio_v2_set_io(&c->fs, d, false);
		if (rc < 0)
			log_err("iostrata: cgroup %s: write -io to cgroup.subtree_control: %s",
				d, strerror(-rc));
		else
			log_info(
				"iostrata: node %s: job %s: io controller disabled again in %s/cgroup.subtree_control",
				c->node, s->jobid, d);
	}
}

/* The job's own blkio cgroup: any process still in it back to the
 * hierarchy's root, then removed. */
static void restore_jobcg(struct node_ctx *c, const struct snapshot *s)
{
	char procs[BLKIO_CG_MAX + 16], buf[4096];
	ssize_t n;
	int rc;

	if (!s->jobcg[0] || !sysfs_exists(&c->fs, s->jobcg))
		return;
	if (sysfs_pathf(procs, sizeof(procs), "%s/cgroup.procs", s->jobcg) < 0)
		return;
	n = sysfs_read(&c->fs, procs, buf, sizeof(buf));
	for (char *save = NULL, *l = n > 0 ? strtok_r(buf, "\n", &save) : NULL;
	     l; l = strtok_r(NULL, "\n", &save)) {
		rc = sysfs_write(&c->fs, "/sys/fs/cgroup/blkio/cgroup.procs",
				 l);
		if (rc < 0 && rc != -ESRCH)
			log_err("iostrata: move process %s out of %s: %s", l,
				s->jobcg, strerror(-rc));
	}
	rc = sysfs_rmdir(&c->fs, s->jobcg);
	if (rc < 0 && rc != -ENOENT)
		log_err("iostrata: rmdir %s: %s", s->jobcg, strerror(-rc));
	else
		log_info("iostrata: node %s: job %s: removed %s", c->node,
			 s->jobid, s->jobcg);
}

#define left_add node_left_add

/* CPUs and memory blocks of the snapshot online then, offline [now]:
 * into [left].  Their count of items. */
static int verify_cpu_mem(const struct snapshot *s, const struct snapshot *now,
			  char *left, size_t len, size_t *off)
{
	unsigned nblk = 0;
	int bad = 0;

	for (size_t i = 0; i < s->n_cpu; i++) {
		if (!s->cpu[i].online)
			continue;
		for (size_t j = 0; j < now->n_cpu; j++)
			if (now->cpu[j].id == s->cpu[i].id &&
			    !now->cpu[j].online) {
				left_add(left, len, off, "cpu%d offline",
					 s->cpu[i].id);
				bad++;
			}
	}
	for (size_t i = 0; i < s->n_mem; i++) {
		if (!s->mem[i].online)
			continue;
		for (size_t j = 0; j < now->n_mem; j++)
			if (now->mem[j].id == s->mem[i].id &&
			    !now->mem[j].online)
				nblk++;
	}
	if (nblk) {
		left_add(left, len, off, "%u memory blocks offline", nblk);
		bad++;
	}
	return bad;
}

/* Throttles not back to the snapshot's, io controllers still enabled:
 * into [left].  Their count of items. */
static int verify_throttles(struct node_ctx *c, const struct snapshot *s,
			    char *left, size_t len, size_t *off)
{
	int bad = 0;

	for (size_t i = 0; i < s->n_thr; i++) {
		const struct snap_thr *t = &s->thr[i];
		struct blkio_limit cur;
		enum blkio_ver ver;

		if (blkio_detect(&c->fs, t->cg, &ver) < 0)
			continue;
		if (blkio_get(&c->fs, t->cg, t->ver, t->dev, &cur) < 0 ||
		    memcmp(&cur, &t->lim, sizeof(cur)) != 0) {
			left_add(left, len, off, "throttle %u:%u on %s",
				 t->dev.maj, t->dev.min, t->cg);
			bad++;
		}
	}
	for (size_t i = 0; i < s->n_ioen; i++) {
		if (blkio_v2_has_io(&c->fs, s->ioen[i].cg) != 1)
			continue;
		left_add(left, len, off, "io controller still enabled in %s",
			 s->ioen[i].cg);
		bad++;
	}
	if (s->jobcg[0] && sysfs_exists(&c->fs, s->jobcg)) {
		left_add(left, len, off, "cgroup %s still there", s->jobcg);
		bad++;
	}
	return bad;
}

int node_restore_snapshot(struct node_ctx *c, const struct snapshot *s,
			  char *left, size_t len)
{
	struct snapshot now;
	struct ios_err err;
	size_t off = strlen(left);
	int rc, bad;

	restore_cpus(c, s);
	restore_mem(c, s);
	restore_throttles(c, s);
	restore_jobcg(c, s);
	/* Verify against the snapshot. */
	memset(&now, 0, sizeof(now));
	{
		struct node_ctx tmp = *c;
		struct policy none;

		/* observe only CPUs and memory here; throttles below */
		memset(&none, 0, sizeof(none));
		tmp.pol = &none;
		rc = node_observe(&tmp, false, &now, &err);
	}
	if (rc < 0) {
		snprintf(left + off, len - off, "%s%s", off ? "; " : "",
			 err.msg);
		return -EIO;
	}
	bad = verify_cpu_mem(s, &now, left, len, &off);
	bad += verify_throttles(c, s, left, len, &off);
	/* Ceph last: the kernel's state does not wait for the monitors. */
	bad += node_omt_restore(c, s, left, len, &off);
	bad += node_mds_restore(c, s, left, len, &off);
	snapshot_free(&now);
	return bad ? -EIO : 0;
}

/* The job's <jobid>.applied.json and .env: nobody reads them once its
 * node is restored. */
static void remove_published(struct node_ctx *c, const char *jobid)
{
	int rc = state_remove_published(&c->sd, jobid);

	if (rc < 0)
		log_err("iostrata: node %s: remove %s/%s%s and %s%s: %s (not a regular file of ours: left alone)",
			c->node, c->sd.path, jobid, STATE_APPLIED_SUFFIX, jobid,
			STATE_ENV_SUFFIX, strerror(-rc));
}

static int restore_locked(struct node_ctx *c, const char *jobid,
			  struct ios_err *err)
{
	char left[IOS_ERR_MSGLEN - 64] = "";
	struct snapshot s;
	int rc;

	rc = state_journal_read(&c->sd, jobid, &s, err);
	if (rc == -ENOENT) {
		/* Nothing applied (refused: its files go now), or already
		 * restored. */
		remove_published(c, jobid);
		return 0;
	}
	if (rc < 0)
		return rc;
	rc = node_restore_snapshot(c, &s, left, sizeof(left));
	if (rc < 0) {
		snapshot_free(&s);
		return ios_errf(
			err, -EIO,
			"iostrata: node %s: restore after job %s incomplete: %s (journal kept in %s/journal)",
			c->node, jobid, left, c->sd.path);
	}
	rc = state_journal_remove(&c->sd, jobid);
	if (rc < 0) {
		snapshot_free(&s);
		return ios_errf(err, rc,
				"iostrata: remove journal of job %s: %s", jobid,
				strerror(-rc));
	}
	remove_published(c, jobid);
	node_host_clear(c, jobid);
	log_info("iostrata: node %s: restored after job %s", c->node, jobid);
	snapshot_free(&s);
	return 0;
}

int node_restore(struct node_ctx *c, const char *jobid, struct ios_err *err)
{
	char **ids = NULL;
	size_t n = 0;
	int lk, hl, rc = 0;

	lk = state_lock(&c->sd, NODE_LOCK_TIMEOUT_MS);
	if (lk < 0)
		return ios_errf(err, lk, "iostrata: lock %s/journal/lock: %s",
				c->sd.path, strerror(-lk));
	hl = node_host_lock(c);
	if (hl < 0)
		log_verbose("iostrata: host lock: %s", strerror(-hl));
	if (jobid) {
		rc = restore_locked(c, jobid, err);
		goto out;
	}
	rc = state_journal_list(&c->sd, &ids, &n);
	if (rc < 0) {
		ios_errf(err, rc, "iostrata: list %s/journal: %s", c->sd.path,
			 strerror(-rc));
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		struct ios_err e;
		int r;

		ios_err_clear(&e);
		r = restore_locked(c, ids[i], &e);
		if (r < 0 && rc == 0) {
			rc = r;
			if (err)
				*err = e;
		}
	}
	state_list_free(ids, n);
out:
	state_unlock(hl);
	state_unlock(lk);
	return rc;
}

/* Published files whose job has no journal (refused, or restored by
 * an older build) and ended: nobody reads them any more.  A refused job
 * that still runs keeps its files (its steps read the refusal). */
static void sweep_published(struct node_ctx *c, node_job_alive_fn alive,
			    void *arg)
{
	char **ids = NULL;
	size_t n = 0;
	int lk;

	lk = state_lock(&c->sd, NODE_LOCK_TIMEOUT_MS);
	if (lk < 0) {
		log_err("iostrata: lock %s/journal/lock: %s", c->sd.path,
			strerror(-lk));
		return;
	}
	if (state_public_list(&c->sd, &ids, &n) < 0)
		n = 0;
	for (size_t i = 0; i < n; i++) {
		char why[256] = "", jname[STATE_ID_MAX + 8];
		struct stat st;

		if (sysfs_pathf(jname, sizeof(jname), "%s.state", ids[i]) < 0 ||
		    fstatat(c->sd.jdirfd, jname, &st, AT_SYMLINK_NOFOLLOW) ==
			    0 ||
		    alive(ids[i], arg, why, sizeof(why)) != 0)
			continue;
		log_info(
			"iostrata: node %s: job %s no longer runs (%s): removing its published files",
			c->node, ids[i], why[0] ? why : "?");
		remove_published(c, ids[i]);
	}
	state_list_free(ids, n);
	state_unlock(lk);
}

int node_restore_ended(struct node_ctx *c, node_job_alive_fn alive, void *arg,
		       struct ios_err *err)
{
	char **ids = NULL;
	size_t n = 0;
	int rc;

	rc = state_journal_list(&c->sd, &ids, &n);
	if (rc < 0)
		return ios_errf(err, rc, "iostrata: list %s/journal: %s",
				c->sd.path, strerror(-rc));
	for (size_t i = 0; i < n; i++) {
		char why[256] = "";
		struct ios_err e;
		int a = alive(ids[i], arg, why, sizeof(why)), r;

		if (a != 0) {
			log_info(
				"iostrata: node %s: journal of job %s kept: %s; %s",
				c->node, ids[i], why[0] ? why : "?",
				a > 0 ? "its epilog restores the node"
				      : "its epilog or 'iostrata-node restore --job ID' restores the node");
			continue;
		}
		log_info(
			"iostrata: node %s: job %s no longer runs (%s): restoring",
			c->node, ids[i], why[0] ? why : "?");
		ios_err_clear(&e);
		r = node_restore(c, ids[i], &e);
		if (r < 0 && rc == 0) {
			rc = r;
			if (err)
				*err = e;
		}
	}
	state_list_free(ids, n);
	sweep_published(c, alive, arg);
	return rc;
}
