/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * node: the logic behind the SPANK prolog/epilog and iostrata-node
 * (node.h), shared by the plugin and iostrata-node.  This file holds what
 * every part builds on: the observed state (node_observe), the memory
 * floor, the host registry and the list of what a restore left
 * (node_left_add; node_internal.h).  The apply is in
 * node_apply.c, the restore in node_restore.c, the published files in
 * node_publish.c, the status and the health check in node_status.c.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "blkio.h"
#include "cpu.h"
#include "log.h"
#include "mem.h"
#include "node.h"
#include "node_internal.h"
#include "osd.h"

/* The cgroup2 parents of [cg] that need "+io" for it to get io.max,
 * added to s->ioen (each once, top-down). */
static int plan_io(const struct node_ctx *c, const char *cg, struct snapshot *s,
		   struct ios_err *err)
{
	enum { MAX_DEPTH = 32 };
	char(*dirs)[BLKIO_CG_MAX] = calloc(MAX_DEPTH, BLKIO_CG_MAX);
	size_t n = 0;
	int rc;

	if (!dirs)
		return -ENOMEM;
	rc = blkio_v2_plan(&c->fs, cg, dirs, MAX_DEPTH, &n);
	if (rc == 0 && n == 0)
		rc = -EOPNOTSUPP; /* io enabled above, yet no io.max */
	if (rc < 0) {
		free(dirs);
		return ios_errf(
			err, rc,
			"iostrata: cgroup %s: no throttle interface: %s (accepted: a cgroup v1 blkio directory, or a cgroup v2 directory whose hierarchy has the io controller)",
			cg, strerror(-rc));
	}
	for (size_t i = 0; i < n; i++) {
		struct snap_ioen *nv;
		bool dup = false;

		for (size_t j = 0; j < s->n_ioen && !dup; j++)
			dup = strcmp(s->ioen[j].cg, dirs[i]) == 0;
		if (dup)
			continue;
		nv = realloc(s->ioen, (s->n_ioen + 1) * sizeof(*nv));
		if (!nv) {
			free(dirs);
			return -ENOMEM;
		}
		s->ioen = nv;
		memcpy(nv[s->n_ioen++].cg, dirs[i], BLKIO_CG_MAX);
	}
	free(dirs);
	return 0;
}

/* The throttles of [cg] for the [n] devices [dev], appended to [s] (a
 * cgroup already observed is skipped).  [strict]: a cgroup without a
 * throttle interface is an error (a cgroup2 one whose parents lack "+io"
 * is planned in s->ioen: no limit is in effect there yet); else skipped. */
static int observe_cgroup(const struct node_ctx *c, bool strict, const char *cg,
			  const struct blkio_dev *dev, size_t n,
			  struct snapshot *s, struct ios_err *err)
{
	enum blkio_ver ver;
	bool fresh = false;
	int rc;

	if (n == 0)
		return 0; /* nothing to throttle there: nothing to enable */
	for (size_t i = 0; i < s->n_thr; i++)
		if (strcmp(s->thr[i].cg, cg) == 0)
			return 0;
	rc = blkio_detect(&c->fs, cg, &ver);
	if (rc == -EOPNOTSUPP && strict) {
		rc = plan_io(c, cg, s, err);
		if (rc < 0)
			return rc;
		ver = BLKIO_V2;
		fresh = true;
	} else if (rc < 0) {
		if (!strict && rc != -EINVAL && rc != -ENAMETOOLONG) {
			log_verbose("iostrata: cgroup %s: %s (skipped)", cg,
				    strerror(-rc));
			return 0;
		}
		return ios_errf(
			err, rc,
			"iostrata: cgroup %s: no throttle interface: %s", cg,
			strerror(-rc));
	}
	for (size_t d = 0; d < n; d++) {
		struct snap_thr t;

		memset(&t, 0, sizeof(t));
		t.dev = dev[d];
		t.ver = ver;
		/* blkio_detect refused paths that do not fit; a cut path
		 * would name a parent cgroup. */
		if (sysfs_pathf(t.cg, sizeof(t.cg), "%s", cg) < 0)
			return ios_errf(
				err, -ENAMETOOLONG,
				"iostrata: cgroup \"%.80s...\": path longer than %zu characters",
				cg, sizeof(t.cg) - 1);
		rc = fresh ? 0 : blkio_get(&c->fs, cg, ver, t.dev, &t.lim);
		if (rc < 0)
			return ios_errf(
				err, rc,
				"iostrata: cgroup %s: read throttle of %u:%u: %s",
				cg, t.dev.maj, t.dev.min, strerror(-rc));
		rc = snapshot_push_thr(s, &t);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Every (cgroup, device) of the policy: the "cgroup =" lines with the
 * "device =" lines, then the OSDs of this host ("osds =") with their own
 * devices. */
static int observe_throttles(const struct node_ctx *c, bool strict,
			     struct snapshot *s, struct ios_err *err)
{
	const struct policy *p = c->pol;
	struct blkio_dev devs[POLICY_MAX_LIST];
	struct osd_found *o = NULL;
	int rc = 0, n;

	if (p->n_cgroups) {
		for (size_t d = 0; d < p->n_devices; d++) {
			rc = blkio_resolve_dev(&c->fs, p->devices[d], &devs[d],
					       err);
			if (rc < 0)
				return rc;
		}
		for (size_t g = 0; g < p->n_cgroups && rc == 0; g++)
			rc = observe_cgroup(c, strict, p->cgroups[g], devs,
					    p->n_devices, s, err);
		if (rc < 0)
			return rc;
	}
	n = osd_discover(&c->fs, p, strict, &o, err);
	if (n < 0)
		return n;
	for (int i = 0; i < n && rc == 0; i++)
		rc = observe_cgroup(c, strict, o[i].cg, o[i].dev, o[i].n_dev, s,
				    err);
	free(o);
	return rc;
}

int node_observe(const struct node_ctx *c, bool strict, struct snapshot *s,
		 struct ios_err *err)
{
	struct cpu_info ci;
	struct mem_info mi;
	int rc;

	memset(s, 0, sizeof(*s));
	rc = cpu_scan(&c->fs, &ci);
	if (rc < 0)
		return ios_errf(err, rc, "iostrata: scan CPUs below %s: %s",
				c->fs.root, strerror(-rc));
	s->cpu = calloc(ci.n ? ci.n : 1, sizeof(*s->cpu));
	if (!s->cpu) {
		cpu_info_free(&ci);
		return -ENOMEM;
	}
	for (size_t i = 0; i < ci.n; i++)
		if (ci.cpu[i].hotplug) {
			s->cpu[s->n_cpu].id = ci.cpu[i].id;
			s->cpu[s->n_cpu++].online = ci.cpu[i].online;
		}
	cpu_info_free(&ci);
	rc = mem_scan(&c->fs, &mi);
	if (rc == 0) {
		s->block_size = mi.block_size;
		s->mem = calloc(mi.n ? mi.n : 1, sizeof(*s->mem));
		if (!s->mem) {
			mem_info_free(&mi);
			snapshot_free(s);
			return -ENOMEM;
		}
		for (size_t i = 0; i < mi.n; i++)
			if (mi.blk[i].hotplug) {
				s->mem[s->n_mem].id = mi.blk[i].id;
				s->mem[s->n_mem++].online = mi.blk[i].online;
			}
		mem_info_free(&mi);
	} else if (rc != -ENOENT) {
		snapshot_free(s);
		return ios_errf(err, rc, "iostrata: scan memory below %s: %s",
				c->fs.root, strerror(-rc));
	}
	if (!c->pol)
		return 0;
	rc = observe_throttles(c, strict, s, err);
	if (rc < 0)
		snapshot_free(s);
	return rc;
}

unsigned node_count_online_cpus(const struct sysfs *fs, char *list, size_t len)
{
	struct cpu_info ci;
	unsigned n;

	if (cpu_scan(fs, &ci) < 0) {
		snprintf(list, len, "unknown");
		return 0;
	}
	n = cpu_count_online(&ci);
	cpu_list_format(&ci, list, len);
	cpu_info_free(&ci);
	return n;
}

uint64_t node_online_mem(const struct sysfs *fs)
{
	struct mem_info mi;
	uint64_t b;

	if (mem_scan(fs, &mi) < 0)
		return 0;
	b = mem_online_bytes(&mi);
	mem_info_free(&mi);
	return b;
}

int node_mem_floor(const struct node_ctx *c, struct node_mem_floor *out,
		   struct ios_err *err)
{
	struct mem_info mi;
	struct mem_usage u;
	int rc;

	memset(out, 0, sizeof(*out));
	out->min_mem = c->pol ? c->pol->min_mem : POLICY_DEFAULT_MIN_MEM;
	out->reserve =
		c->pol ? c->pol->mem_reserve : POLICY_DEFAULT_MEM_RESERVE;
	rc = mem_scan(&c->fs, &mi);
	if (rc < 0)
		return ios_errf(err, rc,
				"iostrata: node %s: scan memory blocks: %s",
				c->node, strerror(-rc));
	rc = mem_usage(&c->fs, &mi, &u);
	out->online = mem_online_bytes(&mi);
	mem_info_free(&mi);
	if (rc < 0)
		return ios_errf(
			err, rc,
			"iostrata: node %s: read %s/proc/meminfo (MemTotal, MemAvailable): %s; cannot tell what the running processes need",
			c->node, strcmp(c->fs.root, "/") ? c->fs.root : "",
			strerror(-rc));
	out->in_use = u.in_use;
	out->fixed = u.fixed;
	out->floor = out->min_mem;
	if (u.in_use + out->reserve > out->floor)
		out->floor = u.in_use + out->reserve;
	if (u.fixed > out->floor)
		out->floor = u.fixed;
	return 0;
}

/* ---- host registry (node_internal.h) -------------------------------- */

int node_host_lock_wait(const struct node_ctx *c, int timeout_ms)
{
	struct timespec nap = {0, 10 * 1000 * 1000};
	int fd, waited = 0;

	if (mkdirat(c->fs.dirfd, "run", 0755) < 0 && errno != EEXIST)
		return -errno;
	if (mkdirat(c->fs.dirfd, NODE_HOST_DIR, 0700) < 0 && errno != EEXIST)
		return -errno;
	fd = sysfs_openat(&c->fs, NODE_HOST_DIR "/lock", O_RDWR | O_CREAT,
			  0600);
	if (fd < 0)
		return fd;
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if ((errno != EWOULDBLOCK && errno != EINTR) ||
		    waited >= timeout_ms) {
			int e = errno == EWOULDBLOCK ? ETIMEDOUT : errno;

			close(fd);
			return -e;
		}
		nanosleep(&nap, NULL);
		waited += 10;
	}
	return fd;
}

int node_host_lock(const struct node_ctx *c)
{
	return node_host_lock_wait(c, NODE_LOCK_TIMEOUT_MS);
}

int node_host_owner(const struct node_ctx *c, char *sd, size_t sdlen, char *job,
		    size_t joblen)
{
	char buf[4200], path[4300], *sp;
	struct stat st;

	if (sysfs_read(&c->fs, NODE_HOST_DIR "/active", buf, sizeof(buf)) < 0)
		return 0;
	sp = strrchr(buf, ' ');
	if (!sp || buf[0] != '/' || !state_valid_id(sp + 1))
		return 0;
	*sp = '\0';
	if (sysfs_pathf(path, sizeof(path), "%s/journal/%s.state", buf,
			sp + 1) < 0 ||
	    lstat(path, &st) < 0)
		return 0; /* stale: that journal was restored or removed */
	if (sysfs_pathf(sd, sdlen, "%s", buf) < 0 ||
	    sysfs_pathf(job, joblen, "%s", sp + 1) < 0)
		return 0;
	return 1;
}

int node_host_set(const struct node_ctx *c, const char *jobid)
{
	char buf[4200];
	int fd, rc = 0;
	size_t len;

	if (sysfs_pathf(buf, sizeof(buf), "%s %s\n", c->sd.path, jobid) < 0)
		return -ENAMETOOLONG;
	len = strlen(buf);
	fd = sysfs_openat(&c->fs, NODE_HOST_DIR "/active",
			  O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return fd;
	if (write(fd, buf, len) != (ssize_t)len)
		rc = -EIO;
	if (fsync(fd) < 0 && rc == 0)
		rc = -errno;
	if (close(fd) < 0 && rc == 0)
		rc = -errno;
	return rc;
}

void node_host_clear(const struct node_ctx *c, const char *jobid)
{
	char sd[4200], job[STATE_ID_MAX];

	if (node_host_owner(c, sd, sizeof(sd), job, sizeof(job)) == 1 &&
	    (strcmp(sd, c->sd.path) != 0 || strcmp(job, jobid) != 0))
		return; /* someone else's */
	unlinkat(c->fs.dirfd, NODE_HOST_DIR "/active", 0);
}

void node_left_add(char *left, size_t len, size_t *off, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(left + *off, *off < len ? len - *off : 0, "%s",
		     *off ? ", " : "");
	*off += (size_t)n;
	va_start(ap, fmt);
	n = vsnprintf(left + (*off < len ? *off : len - 1),
		      *off < len ? len - *off : 0, fmt, ap);
	va_end(ap);
	*off += (size_t)n;
	if (*off >= len)
		*off = len - 1;
}
