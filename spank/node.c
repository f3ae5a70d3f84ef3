/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * node: apply / restore / status / check on top of cpu, mem, blkio, state.
 * Everything here is shared by the SPANK plugin and iostrata-node.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "blkio.h"
#include "cpu.h"
#include "jsonw.h"
#include "log.h"
#include "mem.h"
#include "node.h"
#include "units.h"

#define LOCK_TIMEOUT_MS 30000
#define RESTORE_MEM_MS 20000

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

static unsigned count_online_cpus(const struct sysfs *fs, char *list,
				  size_t len)
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

static uint64_t online_mem(const struct sysfs *fs)
{
	struct mem_info mi;
	uint64_t b;

	if (mem_scan(fs, &mi) < 0)
		return 0;
	b = mem_online_bytes(&mi);
	mem_info_free(&mi);
	return b;
}

static void json_limits(struct jsonw *w, const struct snapshot *s)
{
	char dev[32];

	jsonw_key(w, "throttles");
	jsonw_arr_begin(w);
	for (size_t i = 0; i < s->n_thr; i++) {
		const struct snap_thr *t = &s->thr[i];

		snprintf(dev, sizeof(dev), "%u:%u", t->dev.maj, t->dev.min);
		jsonw_obj_begin(w);
		jsonw_kv_str(w, "cgroup", t->cg);
		jsonw_kv_str(w, "interface", t->ver == BLKIO_V1 ? "v1" : "v2");
		jsonw_kv_str(w, "device", dev);
		jsonw_kv_uint(w, "read_bps", t->lim.rbps);
		jsonw_kv_uint(w, "write_bps", t->lim.wbps);
		jsonw_kv_uint(w, "read_iops", t->lim.riops);
		jsonw_kv_uint(w, "write_iops", t->lim.wiops);
		jsonw_obj_end(w);
	}
	jsonw_arr_end(w);
}

/* "applied"/"snapshot" object: CPUs, memory, throttles of [s]. */
static void json_state(struct jsonw *w, const struct snapshot *s,
		       unsigned cpus_online, const char *cpu_list,
		       uint64_t mem_bytes)
{
	unsigned off_blocks = 0;

	for (size_t i = 0; i < s->n_mem; i++)
		off_blocks += !s->mem[i].online;
	jsonw_obj_begin(w);
	jsonw_kv_uint(w, "cpus_online", cpus_online);
	jsonw_kv_str(w, "cpu_list", cpu_list);
	jsonw_kv_uint(w, "mem_online_bytes", mem_bytes);
	jsonw_kv_uint(w, "mem_block_size", s->block_size);
	jsonw_kv_uint(w, "mem_blocks_offline", off_blocks);
	json_limits(w, s);
	jsonw_obj_end(w);
}

static void snap_cpu_list(const struct snapshot *s, char *buf, size_t len,
			  unsigned *n)
{
	/* cpu0 (not hot-pluggable) is always online. */
	size_t off = (size_t)snprintf(buf, len, "0");

	*n = 1;
	for (size_t i = 0; i < s->n_cpu; i++)
		if (s->cpu[i].online) {
			(*n)++;
			if (off < len)
				off += (size_t)snprintf(buf + off, len - off,
							",%d", s->cpu[i].id);
		}
}

static uint64_t snap_mem(const struct snapshot *s)
{
	uint64_t k = 0;

	for (size_t i = 0; i < s->n_mem; i++)
		k += s->mem[i].online;
	return k * s->block_size;
}

static void json_req(struct jsonw *w, const struct iostrata_req *req)
{
	jsonw_obj_begin(w);
	if (req->has_cpus)
		jsonw_kv_uint(w, "cpus", req->cpus);
	if (req->has_mem)
		jsonw_kv_uint(w, "mem_bytes", req->mem);
	if (req->has_bw) {
		jsonw_kv_uint(w, "write_bps", req->wbps);
		jsonw_kv_uint(w, "read_bps", req->rbps);
	}
	if (req->has_iops)
		jsonw_kv_uint(w, "iops", req->iops);
	if (req->has_profile)
		jsonw_kv_str(w, "profile", req->profile);
	jsonw_obj_end(w);
}

/* Write <jobid>.applied.json and <jobid>.env (KEY=VALUE lines). */
static int publish(struct node_ctx *c, const char *jobid,
		   const struct iostrata_req *req, const struct snapshot *snap,
		   const struct snapshot *now, const char *refused)
{
	char name[STATE_ID_MAX + 16], list[512], path[4200];
	char *buf = NULL;
	size_t len = 0;
	unsigned ncpu = 0;
	uint64_t mem = 0;
	struct jsonw w;
	FILE *f;
	int rc;

	if (sysfs_pathf(name, sizeof(name), "%s.applied.json", jobid) < 0 ||
	    sysfs_pathf(path, sizeof(path), "%s/%s", c->sd.path, name) < 0)
		return -ENAMETOOLONG;
	f = open_memstream(&buf, &len);
	if (!f)
		return -ENOMEM;
	jsonw_init(&w, f, true);
	jsonw_obj_begin(&w);
	jsonw_kv_str(&w, "jobid", jobid);
	jsonw_kv_str(&w, "node", c->node);
	jsonw_key(&w, "requested");
	json_req(&w, req);
	if (refused) {
		jsonw_kv_str(&w, "refused", refused);
	} else {
		ncpu = count_online_cpus(&c->fs, list, sizeof(list));
		mem = online_mem(&c->fs);
		jsonw_key(&w, "applied");
		json_state(&w, now, ncpu, list, mem);
		snap_cpu_list(snap, list, sizeof(list), &ncpu);
		jsonw_key(&w, "snapshot");
		json_state(&w, snap, ncpu, list, snap_mem(snap));
	}
	jsonw_obj_end(&w);
	rc = jsonw_finish(&w);
	if (fclose(f) != 0 && rc == 0)
		rc = -EIO;
	if (rc == 0)
		rc = state_write_public(&c->sd, name, buf, len, 0644);
	free(buf);
	buf = NULL;
	len = 0;
	if (rc < 0)
		return rc;
	f = open_memstream(&buf, &len);
	if (!f)
		return -ENOMEM;
	if (req->has_cpus)
		fprintf(f, "IOSTRATA_REQ_CPUS=%s\n", req->raw_cpus);
	if (req->has_mem)
		fprintf(f, "IOSTRATA_REQ_MEM=%s\n", req->raw_mem);
	if (req->has_bw)
		fprintf(f, "IOSTRATA_REQ_DISK_BW=%s\n", req->raw_bw);
	if (req->has_iops)
		fprintf(f, "IOSTRATA_REQ_DISK_IOPS=%s\n", req->raw_iops);
	if (req->has_profile)
		fprintf(f, "IOSTRATA_REQ_PROFILE=%s\n", req->profile);
	if (refused) {
		fputs("IOSTRATA_REFUSED=", f);
		for (const char *p = refused; *p; p++)
			fputc((unsigned char)*p < 0x20 ? '?' : *p, f);
		fputc('\n', f);
	} else {
		ncpu = count_online_cpus(&c->fs, list, sizeof(list));
		fprintf(f, "IOSTRATA_APPLIED_CPUS=%u\n", ncpu);
		fprintf(f, "IOSTRATA_APPLIED_CPU_LIST=%s\n", list);
		fprintf(f, "IOSTRATA_APPLIED_MEM=%" PRIu64 "\n", mem);
		if (now->n_thr) {
			fprintf(f,
				"IOSTRATA_APPLIED_DISK_BW=%" PRIu64 ",%" PRIu64
				"\n",
				now->thr[0].lim.wbps, now->thr[0].lim.rbps);
			fprintf(f, "IOSTRATA_APPLIED_DISK_IOPS=%" PRIu64 "\n",
				now->thr[0].lim.wiops);
		}
	}
	fprintf(f, "IOSTRATA_APPLIED_FILE=%s\n", path);
	if (fclose(f) != 0) {
		free(buf);
		return -EIO;
	}
	if (sysfs_pathf(name, sizeof(name), "%s.env", jobid) < 0) {
		free(buf);
		return -ENAMETOOLONG;
	}
	rc = state_write_public(&c->sd, name, buf, len, 0644);
	free(buf);
	return rc;
}

int node_publish_refusal(struct node_ctx *c, const char *jobid,
			 const struct iostrata_req *req, const char *msg)
{
	return publish(c, jobid, req, NULL, NULL, msg);
}

/* Undo [s] on the node; then verify.  Appends what is left to [left]. */
static int restore_snapshot(struct node_ctx *c, const struct snapshot *s,
			    char *left, size_t len)
{
	struct snapshot now;
	struct ios_err err;
	size_t off = strlen(left);
	int rc, bad = 0;

	for (size_t i = 0; i < s->n_cpu; i++)
		if (s->cpu[i].online) {
			char path[96], v[8];

			if (sysfs_pathf(path, sizeof(path),
					"sys/devices/system/cpu/cpu%d/online",
					s->cpu[i].id) == 0 &&
			    sysfs_read(&c->fs, path, v, sizeof(v)) >= 0 &&
			    strcmp(v, "1") != 0) {
				rc = cpu_set_online(&c->fs, s->cpu[i].id, true);
				if (rc == 0)
					log_info(
						"iostrata: node %s: job %s: cpu%d online again",
						c->node, s->jobid,
						s->cpu[i].id);
			}
		}
	for (size_t i = 0; i < s->n_mem; i++)
		if (s->mem[i].online) {
			char path[96], v[8];

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
	for (size_t i = 0; i < s->n_cpu; i++) {
		if (!s->cpu[i].online)
			continue;
		for (size_t j = 0; j < now.n_cpu; j++)
			if (now.cpu[j].id == s->cpu[i].id &&
			    !now.cpu[j].online) {
				off += (size_t)snprintf(
					left + off, off < len ? len - off : 0,
					"%scpu%d offline", off ? ", " : "",
					s->cpu[i].id);
				bad++;
			}
		if (off >= len)
			off = len - 1;
	}
	{
		unsigned nblk = 0;

		for (size_t i = 0; i < s->n_mem; i++) {
			if (!s->mem[i].online)
				continue;
			for (size_t j = 0; j < now.n_mem; j++)
				if (now.mem[j].id == s->mem[i].id &&
				    !now.mem[j].online)
					nblk++;
		}
		if (nblk) {
			off += (size_t)snprintf(left + off,
						off < len ? len - off : 0,
						"%s%u memory blocks offline",
						off ? ", " : "", nblk);
			bad++;
			if (off >= len)
				off = len - 1;
		}
	}
	for (size_t i = 0; i < s->n_thr; i++) {
		const struct snap_thr *t = &s->thr[i];
		struct blkio_limit cur;
		enum blkio_ver ver;

		if (blkio_detect(&c->fs, t->cg, &ver) < 0)
			continue;
		if (blkio_get(&c->fs, t->cg, t->ver, t->dev, &cur) < 0 ||
		    memcmp(&cur, &t->lim, sizeof(cur)) != 0) {
			off += (size_t)snprintf(
				left + off, off < len ? len - off : 0,
				"%sthrottle %u:%u on %s", off ? ", " : "",
				t->dev.maj, t->dev.min, t->cg);
			bad++;
			if (off >= len)
				off = len - 1;
		}
	}
	snapshot_free(&now);
	return bad ? -EIO : 0;
}

/*
 * Host registry.  Several Slurm nodes (several sites, even) can share one
 * kernel, e.g. the one-machine local site: their state directories differ
 * but CPUs and memory are the same.  <sysroot>/run/iostrata-host/active
 * names the one (state dir, job) whose shape is in effect; another apply
 * is refused while that journal exists.
 */
#define HOST_DIR "run/iostrata-host"

static int host_lock_wait(const struct node_ctx *c, int timeout_ms)
{
	struct timespec nap = {0, 10 * 1000 * 1000};
	int fd, waited = 0;

	if (mkdirat(c->fs.dirfd, "run", 0755) < 0 && errno != EEXIST)
		return -errno;
	if (mkdirat(c->fs.dirfd, HOST_DIR, 0700) < 0 && errno != EEXIST)
		return -errno;
	fd = sysfs_openat(&c->fs, HOST_DIR "/lock", O_RDWR | O_CREAT, 0600);
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

static int host_lock(const struct node_ctx *c)
{
	return host_lock_wait(c, LOCK_TIMEOUT_MS);
}

/* The live owner of the host, if any: 1 and [sd]/[job] filled. */
static int host_owner(const struct node_ctx *c, char *sd, size_t sdlen,
		      char *job, size_t joblen)
{
	char buf[4200], path[4300], *sp;
	struct stat st;

	if (sysfs_read(&c->fs, HOST_DIR "/active", buf, sizeof(buf)) < 0)
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

static int host_set(const struct node_ctx *c, const char *jobid)
{
	char buf[4200];
	int fd, rc = 0;
	size_t len;

	if (sysfs_pathf(buf, sizeof(buf), "%s %s\n", c->sd.path, jobid) < 0)
		return -ENAMETOOLONG;
	len = strlen(buf);
	fd = sysfs_openat(&c->fs, HOST_DIR "/active",
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

static void host_clear(const struct node_ctx *c, const char *jobid)
{
	char sd[4200], job[STATE_ID_MAX];

	if (host_owner(c, sd, sizeof(sd), job, sizeof(job)) == 1 &&
	    (strcmp(sd, c->sd.path) != 0 || strcmp(job, jobid) != 0))
		return; /* someone else's */
	unlinkat(c->fs.dirfd, HOST_DIR "/active", 0);
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
	rc = restore_snapshot(c, &s, left, sizeof(left));
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
	host_clear(c, jobid);
	log_info("iostrata: node %s: restored after job %s", c->node, jobid);
	snapshot_free(&s);
	return 0;
}

int node_restore(struct node_ctx *c, const char *jobid, struct ios_err *err)
{
	char **ids = NULL;
	size_t n = 0;
	int lk, hl, rc = 0;

	lk = state_lock(&c->sd, LOCK_TIMEOUT_MS);
	if (lk < 0)
		return ios_errf(err, lk, "iostrata: lock %s/journal/lock: %s",
				c->sd.path, strerror(-lk));
	hl = host_lock(c);
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

/* Published files whose job has no journal (refused, or restored by
 * an older build) and ended: nobody reads them any more.  A refused job
 * that still runs keeps its files (its steps read the refusal). */
static void sweep_published(struct node_ctx *c, node_job_alive_fn alive,
			    void *arg)
{
	char **ids = NULL;
	size_t n = 0;
	int lk;

	lk = state_lock(&c->sd, LOCK_TIMEOUT_MS);
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

static bool lim_eq_req(const struct blkio_limit *l,
		       const struct blkio_limit *want)
{
	return memcmp(l, want, sizeof(*l)) == 0;
}

int node_apply(struct node_ctx *c, const char *jobid, unsigned uid,
	       const struct iostrata_req *req, struct ios_err *err)
{
	struct snapshot snap, now;
	char **ids = NULL, sz1[32], sz2[32];
	size_t nids = 0;
	int lk, hl = -1, rc;

	memset(&snap, 0, sizeof(snap));
	memset(&now, 0, sizeof(now));
	if (!state_valid_id(jobid))
		return ios_errf(err, -EINVAL, "iostrata: invalid job id \"%s\"",
				jobid);
	lk = state_lock(&c->sd, LOCK_TIMEOUT_MS);
	if (lk < 0)
		return ios_errf(err, lk, "iostrata: lock %s/journal/lock: %s",
				c->sd.path, strerror(-lk));
	rc = state_journal_list(&c->sd, &ids, &nids);
	if (rc < 0) {
		ios_errf(err, rc, "iostrata: list %s/journal: %s", c->sd.path,
			 strerror(-rc));
		goto out_unlock;
	}
	if (nids > 0) {
		rc = ios_errf(
			err, -EBUSY,
			"iostrata: node %s: already reconfigured for job %s (journal in %s/journal); not applying for job %s",
			c->node, ids[0], c->sd.path, jobid);
		state_list_free(ids, nids);
		goto out_unlock;
	}
	state_list_free(ids, nids);
	hl = host_lock(c);
	if (hl < 0) {
		rc = ios_errf(err, hl, "iostrata: lock %s/%s/lock: %s",
			      c->fs.root, HOST_DIR, strerror(-hl));
		goto out_unlock;
	}
	{
		char osd[4200], ojob[STATE_ID_MAX];

		if (host_owner(c, osd, sizeof(osd), ojob, sizeof(ojob)) == 1) {
			rc = ios_errf(
				err, -EBUSY,
				"iostrata: node %s: this machine is already reconfigured for job %s (state directory %s); not applying for job %s",
				c->node, ojob, osd, jobid);
			goto out_unlock;
		}
	}

	if (req->has_mem) {
		rc = check_mem_floor(c, req, err);
		if (rc < 0)
			goto out_unlock;
	}

	/* 1. snapshot the observed state, 2. journal it, 3. change. */
	rc = node_observe(c, req->has_bw || req->has_iops, &snap, err);
	if (rc < 0)
		goto out_unlock;
	snprintf(snap.jobid, sizeof(snap.jobid), "%s", jobid);
	snprintf(snap.node, sizeof(snap.node), "%s",
		 c->node[0] ? c->node : "-");
	snap.uid = uid;
	snap.time = (long long)time(NULL);
	rc = host_set(c, jobid);
	if (rc < 0) {
		ios_errf(err, rc, "iostrata: write %s/%s/active: %s",
			 c->fs.root, HOST_DIR, strerror(-rc));
		goto out_free;
	}
	rc = state_journal_write(&c->sd, &snap);
	if (rc < 0) {
		ios_errf(err, rc,
			 "iostrata: write journal %s/journal/%s.state: %s",
			 c->sd.path, jobid, strerror(-rc));
		goto out_free;
	}

	if (req->has_cpus) {
		struct cpu_info ci;
		bool *off;
		int n;

		rc = cpu_scan(&c->fs, &ci);
		if (rc < 0) {
			ios_errf(err, rc, "iostrata: scan CPUs: %s",
				 strerror(-rc));
			goto out_restore;
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
			goto out_restore;
		}
		for (size_t i = ci.n; i-- > 0;) {
			if (!off[i])
				continue;
			if (cpu_set_online(&c->fs, ci.cpu[i].id, false) == 0)
				log_info(
					"iostrata: node %s: job %s: cpu%d offline",
					c->node, jobid, ci.cpu[i].id);
		}
		free(off);
		cpu_info_free(&ci);
	}
	if (req->has_mem) {
		struct mem_info mi;
		struct mem_result mr;

		rc = mem_scan(&c->fs, &mi);
		if (rc < 0) {
			ios_errf(err, rc, "iostrata: scan memory blocks: %s",
				 strerror(-rc));
			goto out_restore;
		}
		rc = mem_apply(&c->fs, &mi, req->mem, c->pol->mem_attempt_ms,
			       c->pol->mem_total_ms, &mr);
		mem_info_free(&mi);
		log_info(
			"iostrata: node %s: job %s: %u memory blocks offline, %u refused, %u timed out, %s online",
			c->node, jobid, mr.offlined, mr.refused, mr.timeouts,
			ios_fmt_size(mr.online_bytes, sz1, sizeof(sz1)));
		if (rc < 0) {
			ios_errf(err, rc, "iostrata: offline memory: %s",
				 strerror(-rc));
			goto out_restore;
		}
	}
	if (req->has_bw || req->has_iops) {
		for (size_t i = 0; i < snap.n_thr; i++) {
			const struct snap_thr *t = &snap.thr[i];
			struct blkio_limit l = t->lim;

			if (req->has_bw) {
				l.rbps = req->rbps;
				l.wbps = req->wbps;
			}
			if (req->has_iops)
				l.riops = l.wiops = req->iops;
			rc = blkio_set(&c->fs, t->cg, t->ver, t->dev, &l);
			if (rc < 0) {
				ios_errf(
					err, rc,
					"iostrata: cgroup %s: set throttle of %u:%u: %s",
					t->cg, t->dev.maj, t->dev.min,
					strerror(-rc));
				goto out_restore;
			}
			log_info(
				"iostrata: node %s: job %s: throttle %u:%u in %s",
				c->node, jobid, t->dev.maj, t->dev.min, t->cg);
		}
	}

	/* Read back what the kernel has now and compare. */
	rc = node_observe(c, req->has_bw || req->has_iops, &now, err);
	if (rc < 0)
		goto out_restore;
	if (req->has_cpus) {
		char list[256];
		unsigned n = count_online_cpus(&c->fs, list, sizeof(list));

		if (n < req->cpus || n - req->cpus > c->pol->cpu_tolerance) {
			rc = ios_errf(
				err, -ERANGE,
				"iostrata: node %s: --iostrata-cpus=%u not reached: %u CPUs online (%s), tolerance %u; node restored",
				c->node, req->cpus, n, list,
				c->pol->cpu_tolerance);
			goto out_restore;
		}
	}
	if (req->has_mem) {
		uint64_t m = online_mem(&c->fs);

		if (m > req->mem + policy_mem_slack(c->pol, req->mem)) {
			rc = ios_errf(
				err, -ERANGE,
				"iostrata: node %s: --iostrata-mem=%s not reached: %s online (the other blocks refused, timed out or the deadline passed), tolerance %" PRIu64
				" bytes; node restored",
				c->node,
				req->raw_mem[0] ? req->raw_mem
						: ios_fmt_size(req->mem, sz2,
							       sizeof(sz2)),
				ios_fmt_size(m, sz1, sizeof(sz1)),
				policy_mem_slack(c->pol, req->mem));
			goto out_restore;
		}
	}
	if (req->has_bw || req->has_iops) {
		for (size_t i = 0; i < now.n_thr; i++) {
			struct blkio_limit want = snap.thr[i].lim;

			if (req->has_bw) {
				want.rbps = req->rbps;
				want.wbps = req->wbps;
			}
			if (req->has_iops)
				want.riops = want.wiops = req->iops;
			if (i >= snap.n_thr ||
			    !lim_eq_req(&now.thr[i].lim, &want)) {
				rc = ios_errf(
					err, -ERANGE,
					"iostrata: node %s: throttle on %s not in effect after writing it; node restored",
					c->node, now.thr[i].cg);
				goto out_restore;
			}
		}
	}
	rc = publish(c, jobid, req, &snap, &now, NULL);
	if (rc < 0) {
		ios_errf(err, rc, "iostrata: write %s/%s.applied.json: %s",
			 c->sd.path, jobid, strerror(-rc));
		goto out_restore;
	}
	goto out_free;

out_restore : {
	char left[256] = "";
	int r = restore_snapshot(c, &snap, left, sizeof(left));

	if (r < 0) {
		/* Keep the journal: the epilog or slurmd start retries. */
		char msg[IOS_ERR_MSGLEN];

		snprintf(msg, sizeof(msg), "%s", err ? err->msg : "");
		ios_errf(err, -EIO, "%.200s; restore incomplete: %.200s", msg,
			 left);
		rc = -EIO;
	} else {
		state_journal_remove(&c->sd, jobid);
		host_clear(c, jobid);
	}
}
out_free:
	snapshot_free(&snap);
	snapshot_free(&now);
out_unlock:
	state_unlock(hl);
	state_unlock(lk);
	return rc;
}

/* "mem_hotplug": how much memory can really go offline, and why not
 * more (see mem_hotplug_report). */
static void json_mem_hotplug(const struct node_ctx *c, struct jsonw *w)
{
	struct mem_hotplug_report r;
	int rc = mem_hotplug_report(&c->fs, &r);

	if (rc < 0) {
		log_verbose("iostrata: node %s: memory hotplug: %s", c->node,
			    strerror(-rc));
		return;
	}
	jsonw_key(w, "mem_hotplug");
	jsonw_obj_begin(w);
	jsonw_kv_uint(w, "block_size", r.block_size);
	jsonw_kv_uint(w, "blocks", r.blocks);
	jsonw_kv_uint(w, "blocks_offline", r.offline);
	jsonw_kv_uint(w, "offlinable_bytes", r.sure_bytes);
	jsonw_kv_uint(w, "maybe_offlinable_bytes", r.maybe_bytes);
	jsonw_key(w, "online_blocks");
	jsonw_obj_begin(w);
	jsonw_kv_uint(w, "movable", r.movable);
	jsonw_kv_uint(w, "kernel_zone", r.kernel);
	jsonw_kv_uint(w, "spanning", r.spanning);
	jsonw_kv_uint(w, "unknown_zone", r.unknown);
	jsonw_kv_uint(w, "fixed", r.fixed);
	jsonw_kv_uint(w, "not_removable", r.not_removable);
	jsonw_obj_end(w);
	jsonw_kv_str(w, "auto_online_blocks", r.auto_online);
	jsonw_key(w, "cmdline");
	jsonw_obj_begin(w);
	jsonw_kv_bool(w, "read", r.cmdline_read);
	jsonw_kv_bool(w, "movable_node", r.movable_node);
	jsonw_kv_str(w, "movablecore", r.movablecore);
	jsonw_kv_str(w, "kernelcore", r.kernelcore);
	jsonw_kv_str(w, "memhp_default_state", r.memhp_default_state);
	jsonw_obj_end(w);
	jsonw_key(w, "why_not_more");
	jsonw_arr_begin(w);
	for (unsigned i = 0; i < r.n_why; i++)
		jsonw_str(w, r.why[i]);
	jsonw_arr_end(w);
	jsonw_obj_end(w);
}

int node_status_json(const struct node_ctx *c, FILE *out)
{
	struct snapshot now;
	struct ios_err err;
	char list[512], **ids = NULL;
	size_t nids = 0;
	unsigned ncpu;
	struct jsonw w;
	int rc;

	rc = node_observe(c, false, &now, &err);
	if (rc < 0) {
		log_err("%s", err.msg);
		return rc;
	}
	ncpu = count_online_cpus(&c->fs, list, sizeof(list));
	jsonw_init(&w, out, true);
	jsonw_obj_begin(&w);
	jsonw_kv_str(&w, "node", c->node);
	jsonw_key(&w, "applied");
	json_state(&w, &now, ncpu, list, online_mem(&c->fs));
	{
		struct node_mem_floor fl;
		struct ios_err ferr;

		if (node_mem_floor(c, &fl, &ferr) == 0) {
			jsonw_key(&w, "mem_floor");
			jsonw_obj_begin(&w);
			jsonw_kv_uint(&w, "floor_bytes", fl.floor);
			jsonw_kv_uint(&w, "min_mem_bytes", fl.min_mem);
			jsonw_kv_uint(&w, "in_use_bytes", fl.in_use);
			jsonw_kv_uint(&w, "reserve_bytes", fl.reserve);
			jsonw_kv_uint(&w, "fixed_bytes", fl.fixed);
			jsonw_obj_end(&w);
		} else {
			log_verbose("%s", ferr.msg);
		}
	}
	json_mem_hotplug(c, &w);
	jsonw_key(&w, "journals");
	jsonw_arr_begin(&w);
	if (c->sd.jdirfd >= 0 &&
	    state_journal_list((struct state_dir *)&c->sd, &ids, &nids) == 0) {
		for (size_t i = 0; i < nids; i++)
			jsonw_str(&w, ids[i]);
		state_list_free(ids, nids);
	}
	jsonw_arr_end(&w);
	jsonw_obj_end(&w);
	rc = jsonw_finish(&w);
	fputc('\n', out);
	snapshot_free(&now);
	return rc;
}

int node_check(const struct node_ctx *c, struct ios_err *err)
{
	struct snapshot now;
	char why[400] = "", **ids = NULL;
	size_t off = 0, nids = 0;
	unsigned offc = 0, offm = 0, thr = 0;
	int rc;

	rc = node_observe(c, false, &now, err);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < now.n_cpu; i++)
		offc += !now.cpu[i].online;
	for (size_t i = 0; i < now.n_mem; i++)
		offm += !now.mem[i].online;
	for (size_t i = 0; i < now.n_thr; i++) {
		const struct blkio_limit *l = &now.thr[i].lim;

		thr += l->rbps || l->wbps || l->riops || l->wiops;
	}
	snapshot_free(&now);
	if (c->sd.jdirfd >= 0 &&
	    state_journal_list((struct state_dir *)&c->sd, &ids, &nids) == 0) {
		if (nids)
			off += (size_t)snprintf(why + off, sizeof(why) - off,
						"journal of job %s pending",
						ids[0]);
		state_list_free(ids, nids);
	}
	if (offc && off < sizeof(why))
		off += (size_t)snprintf(why + off, sizeof(why) - off,
					"%s%u CPUs offline", off ? ", " : "",
					offc);
	if (offm && off < sizeof(why))
		off += (size_t)snprintf(why + off, sizeof(why) - off,
					"%s%u memory blocks offline",
					off ? ", " : "", offm);
	if (thr && off < sizeof(why))
		off += (size_t)snprintf(why + off, sizeof(why) - off,
					"%s%u throttles set", off ? ", " : "",
					thr);
	if (off)
		return ios_errf(err, -EBUSY, "iostrata: node %s not whole: %s",
				c->node[0] ? c->node : "?", why);
	return 0;
}

enum node_drain node_drain_classify(bool drain, bool down, const char *reason)
{
	if (down)
		return NODE_DRAINED_OTHER;
	if (!drain)
		return NODE_UNDRAINED;
	if (reason &&
	    strncmp(reason, NODE_DRAIN_PREFIX, strlen(NODE_DRAIN_PREFIX)) == 0)
		return NODE_DRAINED_OURS;
	return NODE_DRAINED_OTHER;
}

enum node_health_act node_health_decide(bool whole, bool shaped,
					enum node_drain d)
{
	bool ok = whole || shaped;

	if (!ok && d == NODE_UNDRAINED)
		return NODE_HEALTH_DRAIN;
	if (ok && d == NODE_DRAINED_OURS)
		return NODE_HEALTH_RESUME;
	return NODE_HEALTH_NOTHING;
}

/* Does a job whose shape the node carries still run (or cannot be
 * judged)?  The journals here, and the host's owner in another state
 * directory (another slurmd on this kernel). */
static bool shaped_by_running_job(struct node_ctx *c,
				  const struct node_slurm_ops *ops, char *why,
				  size_t len)
{
	char **ids = NULL, osd[4200], ojob[STATE_ID_MAX];
	size_t n = 0;
	bool shaped = false;

	if (c->sd.jdirfd >= 0 && state_journal_list(&c->sd, &ids, &n) < 0)
		n = 0;
	for (size_t i = 0; i < n && !shaped; i++) {
		char w[256] = "";
		int a = ops->alive(ids[i], ops->alive_arg, w, sizeof(w));

		if (a != 0) {
			shaped = true;
			snprintf(why, len, "job %s %s: %s", ids[i],
				 a > 0 ? "still runs" : "cannot be judged", w);
		}
	}
	state_list_free(ids, n);
	if (!shaped &&
	    host_owner(c, osd, sizeof(osd), ojob, sizeof(ojob)) == 1 &&
	    strcmp(osd, c->sd.path) != 0) {
		char w[256] = "";
		int a = ops->alive(ojob, ops->alive_arg, w, sizeof(w));

		if (a != 0) {
			shaped = true;
			snprintf(why, len,
				 "job %s (state directory %.100s) %s: %.100s",
				 ojob, osd,
				 a > 0 ? "still runs" : "cannot be judged", w);
		}
	}
	return shaped;
}

int node_health(struct node_ctx *c, const struct node_slurm_ops *ops,
		struct node_health_result *res, struct ios_err *err)
{
	char reason[IOS_ERR_MSGLEN], why[IOS_ERR_MSGLEN] = "";
	const char *node = c->node[0] ? c->node : "?";
	struct ios_err e;
	bool drain = false, down = false;
	int lk = -1, hl, rc;

	memset(res, 0, sizeof(*res));
	ios_err_clear(&e);
	/* Not waiting: a prolog or epilog holding the locks is changing
	 * the node right now; the next interval looks again. */
	if (c->sd.jdirfd >= 0) {
		lk = state_lock(&c->sd, 0);
		if (lk == -ETIMEDOUT) {
			res->busy = true;
			snprintf(
				res->why, sizeof(res->why),
				"an apply or restore holds %.300s/journal/lock",
				c->sd.path);
			return 0;
		}
		if (lk < 0)
			return ios_errf(err, lk,
					"iostrata: lock %s/journal/lock: %s",
					c->sd.path, strerror(-lk));
	}
	hl = host_lock_wait(c, 0);
	if (hl == -ETIMEDOUT) {
		state_unlock(lk);
		res->busy = true;
		snprintf(res->why, sizeof(res->why),
			 "an apply or restore holds %.300s/%s/lock", c->fs.root,
			 HOST_DIR);
		return 0;
	}
	rc = node_check(c, &e);
	if (rc == 0 || rc == -EBUSY) {
		res->whole = rc == 0;
		snprintf(res->why, sizeof(res->why), "%s", e.msg);
		if (!res->whole)
			res->shaped =
				shaped_by_running_job(c, ops, why, sizeof(why));
		rc = 0;
	}
	state_unlock(hl);
	state_unlock(lk);
	if (rc < 0) {
		if (err)
			*err = e;
		return rc;
	}
	if (res->shaped)
		snprintf(res->why, sizeof(res->why), "%s", why);
	rc = ops->state(c->node, &drain, &down, reason, sizeof(reason), why,
			sizeof(why));
	if (rc < 0)
		return ios_errf(
			err, rc,
			"iostrata: health check: node %s: drain state: %s",
			node, why);
	res->drain = node_drain_classify(drain, down, reason);
	res->act = node_health_decide(res->whole, res->shaped, res->drain);
	switch (res->act) {
	case NODE_HEALTH_DRAIN: {
		/* node_check's message is "iostrata: node N not whole: ..." */
		const char *m = res->why;

		if (strncmp(m, "iostrata: ", 10) == 0)
			m += 10;
		snprintf(reason, sizeof(reason), "%s health check: %.400s",
			 NODE_DRAIN_PREFIX, m);
		rc = ops->drain(c->node, reason);
		if (rc < 0)
			return ios_errf(
				err, rc,
				"iostrata: health check: drain node %s: %s",
				node, strerror(-rc));
		log_info("iostrata: node %s drained: %s", node, reason);
		break;
	}
	case NODE_HEALTH_RESUME:
		rc = ops->resume(c->node, why, sizeof(why));
		if (rc < 0)
			return ios_errf(
				err, rc,
				"iostrata: health check: resume node %s: %s",
				node, why);
		log_info(
			"iostrata: node %s resumed: %s (it was drained with \"%s\")",
			node,
			res->whole ? "whole again" : "shaped by a running job",
			reason);
		break;
	case NODE_HEALTH_NOTHING:
		break;
	}
	return 0;
}
