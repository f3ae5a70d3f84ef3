/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * node: the logic behind the SPANK prolog/epilog and iostrata-node
 * (node.h), shared by the plugin and iostrata-node.  This file holds what
 * every part builds on: the observed state (node_observe), the memory
 * floor and the host registry (node_internal.h).  The apply is in
 * node_apply.c, the restore in node_restore.c, the published files in
 * node_publish.c, the status and the health check in node_status.c.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
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
	for (size_t g = 0; g < c->pol->n_cgroups; g++) {
		const char *cg = c->pol->cgroups[g];
		enum blkio_ver ver;

		rc = blkio_detect(&c->fs, cg, &ver);
		if (rc < 0) {
			if (!strict && rc != -EINVAL && rc != -ENAMETOOLONG) {
				log_verbose("iostrata: cgroup %s: %s (skipped)",
					    cg, strerror(-rc));
				continue;
			}
			snapshot_free(s);
			return ios_errf(
				err, rc,
				"iostrata: cgroup %s: no throttle interface: %s",
				cg, strerror(-rc));
		}
		for (size_t d = 0; d < c->pol->n_devices; d++) {
			struct snap_thr t, *nv;

			memset(&t, 0, sizeof(t));
			rc = blkio_resolve_dev(&c->fs, c->pol->devices[d],
					       &t.dev, err);
			if (rc < 0) {
				snapshot_free(s);
				return rc;
			}
			t.ver = ver;
			/* blkio_detect refused paths that do not fit; a cut
			 * path would name a parent cgroup. */
			if (sysfs_pathf(t.cg, sizeof(t.cg), "%s", cg) < 0) {
				snapshot_free(s);
				return ios_errf(
					err, -ENAMETOOLONG,
					"iostrata: cgroup \"%.80s...\": path longer than %zu characters",
					cg, sizeof(t.cg) - 1);
			}
			rc = blkio_get(&c->fs, cg, ver, t.dev, &t.lim);
			if (rc < 0) {
				snapshot_free(s);
				return ios_errf(
					err, rc,
					"iostrata: cgroup %s: read throttle of %u:%u: %s",
					cg, t.dev.maj, t.dev.min,
					strerror(-rc));
			}
			nv = realloc(s->thr, (s->n_thr + 1) * sizeof(*nv));
			if (!nv) {
				snapshot_free(s);
				return -ENOMEM;
			}
			s->thr = nv;
			nv[s->n_thr++] = t;
		}
	}
	return 0;
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
