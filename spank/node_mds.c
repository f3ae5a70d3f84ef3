/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * node_mds: the metadata server as a component to size (node_internal.h):
 * --iostrata-mds-cpus (the CPU quota of the MDS's cgroup),
 * --iostrata-mds-mem (its memory limit) and --iostrata-mds-cache (its
 * mds_cache_memory_limit in the monitors' configuration database).  The
 * policy names the MDS ("mds = ID") and its cgroup ("mds_cgroup =", a
 * path in the hierarchy: cgroup v1 cpu and memory controllers, or
 * cgroup2); nothing is taken from a file others can write.  What each
 * was is read and journalled before anything changes; the restore puts
 * it back exactly (the old quota and limit, the old cache value or, when
 * mds.ID had no entry of its own, the entry removed) and reads it back,
 * as for the OSDs' osd_memory_target (node_omt.c).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blkio.h"
#include "cephcli.h"
#include "log.h"
#include "node_internal.h"
#include "units.h"

#define MDS_CACHE_KEY "mds_cache_memory_limit"
/* the kernel's smallest CFS quota (1 ms) */
#define MDS_MIN_QUOTA_US 1000

enum mds_file { MDS_QUOTA, MDS_PERIOD, MDS_CPU_MAX, MDS_MEM };

/* The file [what] of the MDS cgroup [cg] for cgroup version [ver]
 * (v1: the cpu or memory hierarchy, "cpu,cpuacct" where they share
 * one; v2: /sys/fs/cgroup or the hybrid /sys/fs/cgroup/unified) that
 * exists, into [path].  0, -ELOOP (a symlink on the way), -ENOENT. */
static int mds_path(const struct sysfs *fs, int ver, const char *cg,
		    enum mds_file what, char *path, size_t len)
{
	static const char *const v1cpu[] = {"/sys/fs/cgroup/cpu",
					    "/sys/fs/cgroup/cpu,cpuacct"};
	static const char *const v1mem[] = {"/sys/fs/cgroup/memory"};
	static const char *const v2[] = {"/sys/fs/cgroup",
					 "/sys/fs/cgroup/unified"};
	static const char *const file[] = {
		[MDS_QUOTA] = "cpu.cfs_quota_us",
		[MDS_PERIOD] = "cpu.cfs_period_us",
		[MDS_CPU_MAX] = "cpu.max",
		[MDS_MEM] = "memory.limit_in_bytes",
	};
	const char *const *roots = v2;
	const char *f = file[what];
	size_t n = 2;

	if (ver == 1) {
		roots = what == MDS_MEM ? v1mem : v1cpu;
		n = what == MDS_MEM ? 1 : 2;
	} else if (what == MDS_MEM) {
		f = "memory.max";
	}
	for (size_t i = 0; i < n; i++) {
		char dir[BLKIO_CG_MAX + 32];
		int rc;

		if (sysfs_pathf(dir, sizeof(dir), "%s%s", roots[i], cg) < 0 ||
		    sysfs_pathf(path, len, "%s/%s", dir, f) < 0)
			return -ENAMETOOLONG;
		if (!sysfs_exists(fs, path))
			continue;
		rc = blkio_no_symlinks(fs, dir);
		return rc == -ENOTDIR ? -ELOOP : rc;
	}
	return -ENOENT;
}

/* Which cgroup version offers [what] (MDS_QUOTA for the CPU, MDS_MEM)
 * for [cg]: 1 or 2, or -errno. */
static int mds_ver(const struct sysfs *fs, const char *cg, enum mds_file what)
{
	char path[BLKIO_CG_MAX + 64];
	int rc = mds_path(fs, 1, cg, what, path, sizeof(path));

	if (rc != -ENOENT)
		return rc < 0 ? rc : 1;
	rc = mds_path(fs, 2, cg, what == MDS_QUOTA ? MDS_CPU_MAX : what, path,
		      sizeof(path));
	return rc < 0 ? rc : 2;
}

/* A limit as the cgroup file shows it: "max" or "-1" is none. */
static int parse_limit(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (strcmp(s, "max") == 0 || strcmp(s, "-1") == 0) {
		*out = SNAP_MDS_NOLIMIT;
		return 0;
	}
	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v == ULLONG_MAX)
		return -EINVAL;
	*out = v;
	return 0;
}

/* The MDS cgroup's CPU quota and period now. */
static int read_cpu(const struct sysfs *fs, int ver, const char *cg,
		    uint64_t *quota, uint64_t *period)
{
	char path[BLKIO_CG_MAX + 64], buf[64], *sp;
	ssize_t n;
	int rc;

	if (ver == 1) {
		rc = mds_path(fs, 1, cg, MDS_QUOTA, path, sizeof(path));
		if (rc < 0 || (n = sysfs_read(fs, path, buf, sizeof(buf))) < 0)
			return rc < 0 ? rc : (int)n;
		if (parse_limit(buf, quota) < 0)
			return -EINVAL;
		rc = mds_path(fs, 1, cg, MDS_PERIOD, path, sizeof(path));
		if (rc < 0 || (n = sysfs_read(fs, path, buf, sizeof(buf))) < 0)
			return rc < 0 ? rc : (int)n;
		return parse_limit(buf, period) < 0 ||
				       *period == SNAP_MDS_NOLIMIT
			       ? -EINVAL
			       : 0;
	}
	rc = mds_path(fs, 2, cg, MDS_CPU_MAX, path, sizeof(path));
	if (rc < 0 || (n = sysfs_read(fs, path, buf, sizeof(buf))) < 0)
		return rc < 0 ? rc : (int)n;
	sp = strchr(buf, ' '); /* "max 100000", "50000 100000" */
	if (!sp)
		return -EINVAL;
	*sp = '\0';
	if (parse_limit(buf, quota) < 0 || parse_limit(sp + 1, period) < 0 ||
	    *period == SNAP_MDS_NOLIMIT)
		return -EINVAL;
	return 0;
}

static int write_cpu(const struct sysfs *fs, int ver, const char *cg,
		     uint64_t quota, uint64_t period)
{
	char path[BLKIO_CG_MAX + 64], val[64];
	int rc = mds_path(fs, ver, cg, ver == 1 ? MDS_QUOTA : MDS_CPU_MAX, path,
			  sizeof(path));

	if (rc < 0)
		return rc;
	if (ver == 1 && quota == SNAP_MDS_NOLIMIT)
		snprintf(val, sizeof(val), "-1");
	else if (ver == 1)
		snprintf(val, sizeof(val), "%" PRIu64, quota);
	else if (quota == SNAP_MDS_NOLIMIT)
		snprintf(val, sizeof(val), "max %" PRIu64, period);
	else
		snprintf(val, sizeof(val), "%" PRIu64 " %" PRIu64, quota,
			 period);
	return sysfs_write(fs, path, val);
}

static int read_mem(const struct sysfs *fs, int ver, const char *cg,
		    uint64_t *bytes)
{
	char path[BLKIO_CG_MAX + 64], buf[64];
	ssize_t n;
	int rc = mds_path(fs, ver, cg, MDS_MEM, path, sizeof(path));

	if (rc < 0 || (n = sysfs_read(fs, path, buf, sizeof(buf))) < 0)
		return rc < 0 ? rc : (int)n;
	return parse_limit(buf, bytes);
}

static int write_mem(const struct sysfs *fs, int ver, const char *cg,
		     uint64_t bytes)
{
	char path[BLKIO_CG_MAX + 64], val[32];
	int rc = mds_path(fs, ver, cg, MDS_MEM, path, sizeof(path));

	if (rc < 0)
		return rc;
	if (bytes == SNAP_MDS_NOLIMIT)
		snprintf(val, sizeof(val), ver == 1 ? "-1" : "max");
	else
		snprintf(val, sizeof(val), "%" PRIu64, bytes);
	return sysfs_write(fs, path, val);
}

/* v1 shows "no limit" as the largest multiple of the page size. */
static bool mem_eq(uint64_t now, uint64_t want)
{
	if (want == SNAP_MDS_NOLIMIT)
		return now == SNAP_MDS_NOLIMIT || now >= (UINT64_C(1) << 62);
	return now == want;
}

static void who_of(const struct snap_mds *m, char *who, size_t len)
{
	snprintf(who, len, "mds.%s", m->id);
}

int node_mds_plan(struct node_ctx *c, const struct iostrata_req *req,
		  struct snapshot *snap, struct ios_err *err)
{
	const struct policy *p = c->pol;
	struct snap_mds *m = &snap->mds;
	char who[POLICY_NAME_MAX + 8];
	struct ios_err e;
	int rc;

	memset(m, 0, sizeof(*m));
	if (!(req->has_mds_cpus || req->has_mds_mem || req->has_mds_cache) ||
	    !p || !p->mds_id[0])
		return 0;
	snprintf(m->id, sizeof(m->id), "%s", p->mds_id);
	snprintf(m->cg, sizeof(m->cg), "%s", p->mds_cgroup);
	if (req->has_mds_cpus) {
		rc = mds_ver(&c->fs, m->cg, MDS_QUOTA);
		if (rc > 0) {
			m->cpu_ver = rc;
			rc = read_cpu(&c->fs, m->cpu_ver, m->cg, &m->cpu_old,
				      &m->cpu_period);
		}
		if (rc < 0)
			goto cg_fail;
		m->cpu_new = (uint64_t)req->mds_mcpus * m->cpu_period / 1000;
		if (m->cpu_new < MDS_MIN_QUOTA_US)
			return ios_errf(
				err, -ERANGE,
				"iostrata: node %s: --iostrata-mds-cpus=%s is a quota of %" PRIu64
				" us per %" PRIu64
				" us period, below the kernel's 1000 us; nothing changed",
				c->node, req->raw_mds_cpus, m->cpu_new,
				m->cpu_period);
		m->cpu = true;
	}
	if (req->has_mds_mem) {
		rc = mds_ver(&c->fs, m->cg, MDS_MEM);
		if (rc > 0) {
			m->mem_ver = rc;
			rc = read_mem(&c->fs, m->mem_ver, m->cg, &m->mem_old);
		}
		if (rc < 0)
			goto cg_fail;
		/* the kernel keeps whole pages: ask for what it keeps */
		m->mem_new = req->mds_mem & ~(uint64_t)4095;
		m->mem = true;
	}
	if (req->has_mds_cache) {
		ios_err_clear(&e);
		who_of(m, who, sizeof(who));
		rc = cephcli_cfg_get(&p->ceph, who, MDS_CACHE_KEY,
				     &m->cache_old, &m->cache_explicit_old, &e);
		if (rc < 0)
			return ios_errf(
				err, rc,
				"iostrata: node %s: --iostrata-mds-cache: read %s's " MDS_CACHE_KEY
				": %s; nothing changed",
				c->node, who, e.msg);
		m->cache_new = req->mds_cache;
		m->cache = true;
		snap->ceph = p->ceph; /* the restore runs the same CLI */
	}
	return 0;
cg_fail:
	return ios_errf(
		err, rc,
		"iostrata: node %s: the MDS cgroup %s (policy mds_cgroup): %s%s; nothing changed",
		c->node, m->cg, strerror(-rc),
		rc == -ELOOP ? " (reached through a symlink)"
		: rc == -ENOENT
			? " (no cgroup v1 cpu/memory or cgroup2 files: does the MDS run in its own cgroup?)"
			: "");
}

int node_mds_apply(struct node_ctx *c, const struct snapshot *snap,
		   struct ios_err *err)
{
	const struct snap_mds *m = &snap->mds;
	char who[POLICY_NAME_MAX + 8];
	uint64_t a, b;
	struct ios_err e;
	int rc;

	if (!m->id[0])
		return 0;
	if (m->cpu) {
		rc = write_cpu(&c->fs, m->cpu_ver, m->cg, m->cpu_new,
			       m->cpu_period);
		if (rc == 0)
			rc = read_cpu(&c->fs, m->cpu_ver, m->cg, &a, &b);
		if (rc == 0 && (a != m->cpu_new || b != m->cpu_period))
			rc = -ERANGE;
		if (rc < 0)
			return ios_errf(
				err, rc,
				"iostrata: node %s: MDS cgroup %s: CPU quota %" PRIu64
				" us per %" PRIu64 " us: %s",
				c->node, m->cg, m->cpu_new, m->cpu_period,
				rc == -ERANGE ? "not in effect after writing it"
					      : strerror(-rc));
		log_info("iostrata: node %s: job %s: mds.%s CPU quota %" PRIu64
			 "/%" PRIu64 " us",
			 c->node, snap->jobid, m->id, m->cpu_new,
			 m->cpu_period);
	}
	if (m->mem) {
		rc = write_mem(&c->fs, m->mem_ver, m->cg, m->mem_new);
		if (rc == 0)
			rc = read_mem(&c->fs, m->mem_ver, m->cg, &a);
		if (rc == 0 && !mem_eq(a, m->mem_new))
			rc = -ERANGE;
		if (rc < 0)
			return ios_errf(
				err, rc,
				"iostrata: node %s: MDS cgroup %s: memory limit %" PRIu64
				": %s%s",
				c->node, m->cg, m->mem_new,
				rc == -ERANGE ? "not in effect after writing it"
					      : strerror(-rc),
				rc == -EBUSY
					? " (the MDS uses more and the kernel could not reclaim it)"
					: "");
		log_info(
			"iostrata: node %s: job %s: mds.%s memory limit %" PRIu64,
			c->node, snap->jobid, m->id, m->mem_new);
	}
	if (m->cache) {
		who_of(m, who, sizeof(who));
		ios_err_clear(&e);
		rc = cephcli_cfg_set(&snap->ceph, who, MDS_CACHE_KEY,
				     m->cache_new, &e);
		if (rc == 0)
			rc = cephcli_cfg_get(&snap->ceph, who, MDS_CACHE_KEY,
					     &a, NULL, &e);
		if (rc == 0 && a != m->cache_new)
			rc = ios_errf(&e, -ERANGE, "reads back %" PRIu64, a);
		if (rc < 0)
			return ios_errf(
				err, rc,
				"iostrata: node %s: %s: set " MDS_CACHE_KEY
				" %" PRIu64 ": %s",
				c->node, who, m->cache_new, e.msg);
		log_info("iostrata: node %s: job %s: %s " MDS_CACHE_KEY
			 " %" PRIu64 " (was %" PRIu64 "%s)",
			 c->node, snap->jobid, who, m->cache_new, m->cache_old,
			 m->cache_explicit_old ? "" : ", no entry of its own");
	}
	return 0;
}

/* The cache limit back as [m] says; 0 or -errno with [e]. */
static int restore_cache(const struct snapshot *s, const struct snap_mds *m,
			 struct ios_err *e)
{
	char who[POLICY_NAME_MAX + 8];
	uint64_t now = 0;
	bool expl = false;
	int rc;

	who_of(m, who, sizeof(who));
	rc = cephcli_cfg_get(&s->ceph, who, MDS_CACHE_KEY, &now, &expl, e);
	if (rc < 0)
		return rc;
	if (now == m->cache_old && expl == m->cache_explicit_old)
		return 0; /* already back (or never changed) */
	rc = m->cache_explicit_old
		     ? cephcli_cfg_set(&s->ceph, who, MDS_CACHE_KEY,
				       m->cache_old, e)
		     : cephcli_cfg_rm(&s->ceph, who, MDS_CACHE_KEY, e);
	if (rc == 0)
		rc = cephcli_cfg_get(&s->ceph, who, MDS_CACHE_KEY, &now, NULL,
				     e);
	if (rc == 0 && now != m->cache_old)
		rc = ios_errf(e, -ERANGE, "reads back %" PRIu64, now);
	return rc;
}

int node_mds_restore(struct node_ctx *c, const struct snapshot *s, char *left,
		     size_t len, size_t *off)
{
	const struct snap_mds *m = &s->mds;
	uint64_t a, b;
	struct ios_err e;
	int bad = 0, rc;

	if (!m->id[0])
		return 0;
	if (m->cpu) {
		rc = write_cpu(&c->fs, m->cpu_ver, m->cg, m->cpu_old,
			       m->cpu_period);
		if (rc == 0)
			rc = read_cpu(&c->fs, m->cpu_ver, m->cg, &a, &b);
		if (rc == 0 && a != m->cpu_old)
			rc = -ERANGE;
		if (rc < 0) {
			log_err("iostrata: node %s: job %s: mds.%s: restore the CPU quota of %s: %s",
				c->node, s->jobid, m->id, m->cg, strerror(-rc));
			node_left_add(left, len, off,
				      "mds.%s CPU quota of %.80s not back (%s)",
				      m->id, m->cg, strerror(-rc));
			bad++;
		}
	}
	if (m->mem) {
		rc = write_mem(&c->fs, m->mem_ver, m->cg, m->mem_old);
		if (rc == 0)
			rc = read_mem(&c->fs, m->mem_ver, m->cg, &a);
		if (rc == 0 && !mem_eq(a, m->mem_old))
			rc = -ERANGE;
		if (rc < 0) {
			log_err("iostrata: node %s: job %s: mds.%s: restore the memory limit of %s: %s",
				c->node, s->jobid, m->id, m->cg, strerror(-rc));
			node_left_add(
				left, len, off,
				"mds.%s memory limit of %.80s not back (%s)",
				m->id, m->cg, strerror(-rc));
			bad++;
		}
	}
	if (m->cache) {
		ios_err_clear(&e);
		if (restore_cache(s, m, &e) < 0) {
			log_err("iostrata: node %s: job %s: mds.%s: restore " MDS_CACHE_KEY
				" to %" PRIu64 ": %s",
				c->node, s->jobid, m->id, m->cache_old, e.msg);
			node_left_add(left, len, off,
				      "mds.%s " MDS_CACHE_KEY
				      " not back to %" PRIu64 " (%.120s)",
				      m->id, m->cache_old, e.msg);
			bad++;
		} else {
			log_info(
				"iostrata: node %s: job %s: mds.%s " MDS_CACHE_KEY
				" back to %" PRIu64 "%s",
				c->node, s->jobid, m->id, m->cache_old,
				m->cache_explicit_old
					? ""
					: " (its own entry removed)");
		}
	}
	return bad;
}

/* A quota as CPUs ("0.500"), or "unlimited". */
static void json_cpus(struct jsonw *w, const char *key, uint64_t quota,
		      uint64_t period)
{
	if (quota == SNAP_MDS_NOLIMIT)
		jsonw_kv_str(w, key, "unlimited");
	else
		jsonw_kv_double(w, key, (double)quota / (double)period);
}

static void json_mem(struct jsonw *w, const char *key, uint64_t bytes)
{
	if (mem_eq(bytes, SNAP_MDS_NOLIMIT))
		jsonw_kv_str(w, key, "unlimited");
	else
		jsonw_kv_uint(w, key, bytes);
}

void node_mds_json(struct jsonw *w, const struct node_ctx *c,
		   const struct iostrata_req *req, const struct snapshot *snap)
{
	const struct snap_mds *m = &snap->mds;
	uint64_t a, b;

	if (!(req->has_mds_cpus || req->has_mds_mem || req->has_mds_cache))
		return;
	jsonw_key(w, "mds");
	jsonw_obj_begin(w);
	jsonw_key(w, "requested");
	jsonw_obj_begin(w);
	if (req->has_mds_cpus)
		jsonw_kv_double(w, "cpus", req->mds_mcpus / 1000.0);
	if (req->has_mds_mem)
		jsonw_kv_uint(w, "mem_bytes", req->mds_mem);
	if (req->has_mds_cache)
		jsonw_kv_uint(w, "cache_bytes", req->mds_cache);
	jsonw_obj_end(w);
	if (!m->id[0]) {
		jsonw_key(w, "applied");
		jsonw_null(w);
		jsonw_kv_str(
			w, "why",
			"the policy of this node names no MDS (mds =, mds_cgroup =): the MDS options act on the node whose policy does");
		jsonw_obj_end(w);
		return;
	}
	jsonw_kv_str(w, "id", m->id);
	jsonw_kv_str(w, "cgroup", m->cg);
	/* applied: read back now; before: the journalled values */
	jsonw_key(w, "applied");
	jsonw_obj_begin(w);
	if (m->cpu && read_cpu(&c->fs, m->cpu_ver, m->cg, &a, &b) == 0) {
		json_cpus(w, "cpus", a, b);
		jsonw_kv_uint(w, "cpu_period_us", b);
	}
	if (m->mem && read_mem(&c->fs, m->mem_ver, m->cg, &a) == 0)
		json_mem(w, "mem_bytes", a);
	if (m->cache)
		/* read back when it was set */
		jsonw_kv_uint(w, "cache_bytes", m->cache_new);
	jsonw_obj_end(w);
	jsonw_key(w, "before");
	jsonw_obj_begin(w);
	if (m->cpu)
		json_cpus(w, "cpus", m->cpu_old, m->cpu_period);
	if (m->mem)
		json_mem(w, "mem_bytes", m->mem_old);
	if (m->cache) {
		jsonw_kv_uint(w, "cache_bytes", m->cache_old);
		jsonw_kv_bool(w, "cache_explicit", m->cache_explicit_old);
	}
	jsonw_obj_end(w);
	jsonw_obj_end(w);
}

void node_mds_env(FILE *f, const struct node_ctx *c,
		  const struct iostrata_req *req, const struct snapshot *snap)
{
	const struct snap_mds *m;
	uint64_t a, b;

	if (req->has_mds_cpus)
		fprintf(f, "IOSTRATA_REQ_MDS_CPUS=%s\n", req->raw_mds_cpus);
	if (req->has_mds_mem)
		fprintf(f, "IOSTRATA_REQ_MDS_MEM=%s\n", req->raw_mds_mem);
	if (req->has_mds_cache)
		fprintf(f, "IOSTRATA_REQ_MDS_CACHE=%s\n", req->raw_mds_cache);
	if (!snap || !snap->mds.id[0])
		return;
	m = &snap->mds;
	if (m->cpu && read_cpu(&c->fs, m->cpu_ver, m->cg, &a, &b) == 0 &&
	    a != SNAP_MDS_NOLIMIT)
		fprintf(f,
			"IOSTRATA_APPLIED_MDS_CPUS=%" PRIu64 ".%03" PRIu64 "\n",
			a / b, a % b * 1000 / b);
	if (m->mem && read_mem(&c->fs, m->mem_ver, m->cg, &a) == 0)
		fprintf(f, "IOSTRATA_APPLIED_MDS_MEM=%" PRIu64 "\n", a);
	if (m->cache)
		fprintf(f, "IOSTRATA_APPLIED_MDS_CACHE=%" PRIu64 "\n",
			m->cache_new);
}

void node_mds_status_json(const struct node_ctx *c, struct jsonw *w)
{
	const struct policy *p = c->pol;
	char who[POLICY_NAME_MAX + 8];
	uint64_t a, b;
	struct ios_err e;
	int ver;

	if (!p || !p->mds_id[0])
		return;
	jsonw_key(w, "mds");
	jsonw_obj_begin(w);
	jsonw_kv_str(w, "id", p->mds_id);
	jsonw_kv_str(w, "cgroup", p->mds_cgroup);
	ver = mds_ver(&c->fs, p->mds_cgroup, MDS_QUOTA);
	if (ver > 0 && read_cpu(&c->fs, ver, p->mds_cgroup, &a, &b) == 0) {
		json_cpus(w, "cpus", a, b);
		jsonw_kv_uint(w, "cpu_period_us", b);
	} else {
		jsonw_kv_str(w, "cpus",
			     ver < 0 ? strerror(-ver) : "unreadable");
	}
	ver = mds_ver(&c->fs, p->mds_cgroup, MDS_MEM);
	if (ver > 0 && read_mem(&c->fs, ver, p->mds_cgroup, &a) == 0)
		json_mem(w, "mem_bytes", a);
	else
		jsonw_kv_str(w, "mem_bytes",
			     ver < 0 ? strerror(-ver) : "unreadable");
	snprintf(who, sizeof(who), "mds.%s", p->mds_id);
	ios_err_clear(&e);
	if (cephcli_cfg_get(&p->ceph, who, MDS_CACHE_KEY, &a, NULL, &e) == 0)
		jsonw_kv_uint(w, "cache_bytes", a);
	else
		jsonw_kv_str(w, "cache_bytes", e.msg);
	jsonw_obj_end(w);
}

int node_mds_check(const struct node_ctx *c, char *why, size_t len, size_t *off)
{
	const struct policy *p = c->pol;
	uint64_t a, b;
	int ver, n = 0;

	if (!p || !p->mds_id[0])
		return 0;
	ver = mds_ver(&c->fs, p->mds_cgroup, MDS_QUOTA);
	if (ver > 0 && read_cpu(&c->fs, ver, p->mds_cgroup, &a, &b) == 0 &&
	    a != SNAP_MDS_NOLIMIT) {
		node_left_add(why, len, off, "mds.%s CPU quota set", p->mds_id);
		n++;
	}
	ver = mds_ver(&c->fs, p->mds_cgroup, MDS_MEM);
	if (ver > 0 && read_mem(&c->fs, ver, p->mds_cgroup, &a) == 0 &&
	    !mem_eq(a, SNAP_MDS_NOLIMIT)) {
		node_left_add(why, len, off, "mds.%s memory limit set",
			      p->mds_id);
		n++;
	}
	return n;
}
