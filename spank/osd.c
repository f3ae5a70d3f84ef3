/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * osd: find the OSDs of this host (osd.h).
 *
 * "This host": the ceph-osd processes whose network namespace
 * (/proc/<pid>/ns/net) is ours.  On a real host the package units and
 * cephadm's containers (podman --net=host) share the host's network
 * namespace, so every OSD of the host is found and nothing else is; on
 * the one-machine local site all hosts share one PID namespace but each
 * has its own network namespace, so the other hosts' OSDs are left out.
 * The PID namespace cannot tell (cephadm OSDs may have their own), nor
 * the UTS namespace (podman gives containers their own hostname unless
 * told otherwise), and asking the monitors ("ceph osd metadata" hostname)
 * would make every prolog depend on a reachable cluster and a key.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "osd.h"

int osd_check_pattern(const char *pat, const char **why)
{
	size_t n = pat ? strlen(pat) : 0;

	if (n == 0 || n >= OSD_UNIT_MAX) {
		*why = "empty or longer than 127 characters";
		return -EINVAL;
	}
	for (const char *s = pat; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._-@:*?[]!", *s)) {
			*why = "characters other than letters, digits, ._-@: and the wildcards *?[]!";
			return -EINVAL;
		}
	return 0;
}

/* "8-4-4-4-12" lower-case hex digits. */
static bool is_fsid(const char *s, size_t n)
{
	if (n != OSD_FSID_LEN)
		return false;
	for (size_t i = 0; i < n; i++) {
		bool dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash ? s[i] != '-'
			 : !(isdigit((unsigned char)s[i]) ||
			     (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	}
	return true;
}

/* A decimal OSD id of [n] characters, without sign or leading zeros. */
static int parse_id(const char *s, size_t n)
{
	int v = 0;

	if (n == 0 || n > 6 || (n > 1 && s[0] == '0'))
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -EINVAL;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

int osd_parse_unit(const char *name, char *fsid)
{
	static const char pkg[] = "ceph-osd@", svc[] = ".service";
	size_t n = strlen(name), sl = sizeof(svc) - 1;
	const char *at;

	fsid[0] = '\0';
	if (n <= sl || strcmp(name + n - sl, svc) != 0)
		return -EINVAL;
	n -= sl;
	if (strncmp(name, pkg, sizeof(pkg) - 1) == 0)
		return parse_id(name + sizeof(pkg) - 1, n - (sizeof(pkg) - 1));
	/* ceph-<fsid>@osd.N */
	at = strchr(name, '@');
	if (strncmp(name, "ceph-", 5) != 0 || !at || at > name + n ||
	    !is_fsid(name + 5, (size_t)(at - name - 5)) ||
	    strncmp(at, "@osd.", 5) != 0)
		return -EINVAL;
	memcpy(fsid, name + 5, OSD_FSID_LEN);
	fsid[OSD_FSID_LEN] = '\0';
	return parse_id(at + 5, (size_t)(name + n - at - 5));
}

/* "/system.slice/system-ceph\x2d<fsid with \x2d>.slice" */
static void cephadm_slice(const char *fsid, char *buf, size_t len)
{
	size_t off =
		(size_t)snprintf(buf, len, "/system.slice/system-ceph\\x2d");

	for (const char *s = fsid; *s && off + 5 < len; s++) {
		if (*s == '-') {
			memcpy(buf + off, "\\x2d", 4);
			off += 4;
		} else {
			buf[off++] = *s;
		}
	}
	buf[off < len ? off : len - 1] = '\0';
	if (off + 7 < len)
		snprintf(buf + off, len - off, ".slice");
}

int osd_cgroup_allowed(const char *rel, char *const *slices, size_t n,
		       struct osd_found *o, const char **why)
{
	char comp[OSD_UNIT_MAX], prefix[BLKIO_CG_MAX], want[160];
	const char *p = rel;
	int id = -EINVAL;

	*why = NULL;
	if (!rel || rel[0] != '/' || strlen(rel) >= BLKIO_CG_MAX) {
		*why = "not an absolute cgroup path of at most 255 characters";
		return -EINVAL;
	}
	/* The first component that is an OSD unit; what is above it is
	 * the prefix. */
	while (*p == '/') {
		size_t c = strcspn(p + 1, "/");

		if (c == 0)
			break;
		if (c < sizeof(comp)) {
			memcpy(comp, p + 1, c);
			comp[c] = '\0';
			id = osd_parse_unit(comp, o->fsid);
		}
		if (id >= 0) {
			memcpy(prefix, rel, (size_t)(p - rel));
			prefix[p - rel] = '\0';
			memcpy(o->unit, comp, c + 1);
			break;
		}
		p += c + 1;
	}
	if (id < 0) {
		*why = "no OSD unit (ceph-<fsid>@osd.N.service or ceph-osd@N.service) in the path";
		return -EINVAL;
	}
	if (strcmp(prefix, "/system.slice") == 0 ||
	    strcmp(prefix, "/system.slice/system-ceph\\x2dosd.slice") == 0)
		return id;
	if (o->fsid[0]) {
		cephadm_slice(o->fsid, want, sizeof(want));
		if (strcmp(prefix, want) == 0)
			return id;
	}
	for (size_t i = 0; i < n; i++)
		if (strcmp(prefix, slices[i]) == 0)
			return id;
	*why = "the OSD's unit is in a slice that is not accepted";
	return -EINVAL;
}

/* ---- /proc ------------------------------------------------------------ */

static int read_ns(const struct sysfs *fs, const char *pid, char *buf,
		   size_t len)
{
	char path[64];
	ssize_t n;

	if (sysfs_pathf(path, sizeof(path), "proc/%s/ns/net", pid) < 0)
		return -ENAMETOOLONG;
	n = readlinkat(fs->dirfd, path, buf, len - 1);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

/* The id and cluster of a ceph-osd command line: -i N, --id N, --id=N,
 * -n osd.N, --name osd.N (cephadm), --cluster NAME.  -1 when absent. */
static int cmdline_id(const struct sysfs *fs, const char *pid, char *cluster,
		      size_t clen)
{
	char path[64], buf[4096];
	const char *a, *end, *why;
	int fd, id = -1;
	ssize_t n;

	snprintf(cluster, clen, "ceph");
	if (sysfs_pathf(path, sizeof(path), "proc/%s/cmdline", pid) < 0)
		return -1;
	fd = sysfs_openat(fs, path, O_RDONLY, 0);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	end = buf + n;
	for (a = buf; a < end; a += strlen(a) + 1) {
		const char *next = a + strlen(a) + 1, *v = NULL;
		bool name = false;

		if (strcmp(a, "-i") == 0 || strcmp(a, "--id") == 0)
			v = next < end ? next : NULL;
		else if (strncmp(a, "--id=", 5) == 0)
			v = a + 5;
		else if (strcmp(a, "-n") == 0 || strcmp(a, "--name") == 0) {
			v = next < end ? next : NULL;
			name = true;
		} else if (strncmp(a, "--name=", 7) == 0) {
			v = a + 7;
			name = true;
		} else if (strcmp(a, "--cluster") == 0 && next < end &&
			   osd_check_pattern(next, &why) == 0 &&
			   !strpbrk(next, "*?[]!")) {
			snprintf(cluster, clen, "%s", next);
		}
		if (!v)
			continue;
		if (name) {
			if (strncmp(v, "osd.", 4) != 0)
				continue;
			v += 4;
		}
		id = parse_id(v, strlen(v));
	}
	return id;
}

/* The cgroup of [pid] that carries the disk throttles: the v1 blkio
 * hierarchy when mounted, else the cgroup2 one.  [rel] gets the path in
 * the hierarchy, [cg] the absolute directory. */
static int proc_cgroup(const struct sysfs *fs, const char *pid, char *rel,
		       size_t rlen, char *cg, size_t clen)
{
	char path[64], buf[8192], *line, *save = NULL;
	const char *v1 = NULL, *v2 = NULL;
	ssize_t n;

	if (sysfs_pathf(path, sizeof(path), "proc/%s/cgroup", pid) < 0)
		return -ENAMETOOLONG;
	n = sysfs_read(fs, path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *c1 = strchr(line, ':'),
		     *c2 = c1 ? strchr(c1 + 1, ':') : 0;

		if (!c2)
			continue;
		*c1 = *c2 = '\0';
		if (strcmp(line, "0") == 0 && c1[1] == '\0')
			v2 = c2 + 1;
		for (char *t = c1 + 1; *t;) {
			size_t l = strcspn(t, ",");

			if (l == 5 && strncmp(t, "blkio", 5) == 0)
				v1 = c2 + 1;
			t += l + (t[l] == ',');
		}
	}
	if (v1 && sysfs_exists(fs, "sys/fs/cgroup/blkio")) {
		if (sysfs_pathf(rel, rlen, "%s", v1) < 0 ||
		    sysfs_pathf(cg, clen, "/sys/fs/cgroup/blkio%s", v1) < 0)
			return -ENAMETOOLONG;
		return 0;
	}
	if (!v2)
		return -ENOENT;
	if (sysfs_pathf(rel, rlen, "%s", v2) < 0)
		return -ENAMETOOLONG;
	if (sysfs_exists(fs, "sys/fs/cgroup/cgroup.controllers"))
		return sysfs_pathf(cg, clen, "/sys/fs/cgroup%s", v2);
	if (sysfs_exists(fs, "sys/fs/cgroup/unified/cgroup.controllers"))
		return sysfs_pathf(cg, clen, "/sys/fs/cgroup/unified%s", v2);
	return -ENOENT;
}

/* ---- data devices ----------------------------------------------------- */

/* Expand Ceph's metavariables $id, $name, $cluster, $fsid in [tmpl].
 * -ENOENT when it needs an fsid the OSD does not have. */
static int expand(const char *tmpl, const struct osd_found *o,
		  const char *cluster, char *buf, size_t len)
{
	static const char *const vars[] = {"$id", "$name", "$cluster", "$fsid"};
	size_t off = 0;

	for (const char *s = tmpl; *s;) {
		char val[OSD_UNIT_MAX] = "";
		size_t k, l = 0;

		for (k = 0; k < 4; k++) {
			l = strlen(vars[k]);
			if (strncmp(s, vars[k], l) == 0)
				break;
		}
		if (k == 4) {
			if (off + 1 >= len)
				return -ENAMETOOLONG;
			buf[off++] = *s++;
			continue;
		}
		if (k == 0)
			snprintf(val, sizeof(val), "%d", o->id);
		else if (k == 1)
			snprintf(val, sizeof(val), "osd.%d", o->id);
		else if (k == 2)
			snprintf(val, sizeof(val), "%s", cluster);
		else if (!o->fsid[0])
			return -ENOENT;
		else
			snprintf(val, sizeof(val), "%s", o->fsid);
		if (off + strlen(val) >= len)
			return -ENAMETOOLONG;
		memcpy(buf + off, val, strlen(val));
		off += strlen(val);
		s += l;
	}
	buf[off] = '\0';
	return 0;
}

static void add_dev(struct osd_found *o, struct blkio_dev d)
{
	for (size_t i = 0; i < o->n_dev; i++)
		if (o->dev[i].maj == d.maj && o->dev[i].min == d.min)
			return;
	if (o->n_dev < OSD_MAX_DEVS)
		o->dev[o->n_dev++] = d;
}

/* The devices of [o]: block, block.db, block.wal of the first data
 * directory that has a block; else the policy's devices. */
static int osd_devices(const struct sysfs *fs, const struct policy *p,
		       struct osd_found *o, const char *cluster,
		       struct ios_err *err)
{
	static const char *const defaults[] = {
		"/var/lib/ceph/$fsid/$name", "/var/lib/ceph/osd/$cluster-$id"};
	static const char *const links[] = {"block", "block.db", "block.wal"};
	char tried[512] = "", dir[PATH_MAX], path[PATH_MAX + 16];
	size_t off = 0;

	for (size_t i = 0; i < p->n_osd_data + 2; i++) {
		const char *t = i < p->n_osd_data ? p->osd_data[i]
						  : defaults[i - p->n_osd_data];
		struct blkio_dev d;
		int rc;

		if (expand(t, o, cluster, dir, sizeof(dir)) < 0)
			continue;
		if (off < sizeof(tried))
			off += (size_t)snprintf(
				tried + off, sizeof(tried) - off, "%s%s/block",
				off ? ", " : "", dir);
		if (sysfs_pathf(path, sizeof(path), "%s/block", dir) < 0 ||
		    !sysfs_exists(fs, path))
			continue;
		for (size_t k = 0; k < 3; k++) {
			if (sysfs_pathf(path, sizeof(path), "%s/%s", dir,
					links[k]) < 0 ||
			    (k > 0 && !sysfs_exists(fs, path)))
				continue;
			rc = blkio_resolve_dev(fs, path, &d, err);
			if (rc < 0)
				return ios_errf(
					err, rc,
					"iostrata: osd.%d: data device %s: %s",
					o->id, path,
					err ? err->msg + 10 : strerror(-rc));
			add_dev(o, d);
		}
		return 0;
	}
	for (size_t i = 0; i < p->n_devices; i++) {
		struct blkio_dev d;
		int rc = blkio_resolve_dev(fs, p->devices[i], &d, err);

		if (rc < 0)
			return rc;
		add_dev(o, d);
	}
	if (o->n_dev)
		return 0;
	return ios_errf(
		err, -ENOENT,
		"iostrata: osd.%d: no data device: none of %s exists and the policy names no device",
		o->id, tried[0] ? tried : "(no data directory)");
}

/* ---- discovery -------------------------------------------------------- */

static bool is_auto(const struct policy *p)
{
	return p->n_osds == 1 && strcmp(p->osds[0], "auto") == 0;
}

static bool matches(const struct policy *p, const struct osd_found *o)
{
	char name[32];

	if (is_auto(p))
		return true;
	snprintf(name, sizeof(name), "osd.%d", o->id);
	for (size_t i = 0; i < p->n_osds; i++)
		if (fnmatch(p->osds[i], name, 0) == 0 ||
		    (o->unit[0] && fnmatch(p->osds[i], o->unit, 0) == 0))
			return true;
	return false;
}

/* One ceph-osd process: 1 (found, in *o), 0 (not ours / not named),
 * negative errno ([err]). */
static int examine(const struct sysfs *fs, const struct policy *p,
		   const char *pid, const char *ourns, struct osd_found *o,
		   struct ios_err *err)
{
	char path[64], buf[64], rel[BLKIO_CG_MAX], cluster[OSD_UNIT_MAX];
	const char *why;
	struct stat st;
	int cid, uid, rc;

	memset(o, 0, sizeof(*o));
	if (sysfs_pathf(path, sizeof(path), "proc/%s/comm", pid) < 0 ||
	    sysfs_read(fs, path, buf, sizeof(buf)) < 0 ||
	    strcmp(buf, "ceph-osd") != 0)
		return 0;
	if (read_ns(fs, pid, buf, sizeof(buf)) < 0 || strcmp(buf, ourns) != 0)
		return 0; /* another host's (or gone) */
	/* An installed ceph-osd (root's file; the euid's in unit tests),
	 * not a copy a user renamed: that one is not judged at all. */
	if (sysfs_pathf(path, sizeof(path), "proc/%s/exe", pid) < 0 ||
	    fstatat(fs->dirfd, path, &st, 0) < 0 ||
	    (st.st_uid != 0 && st.st_uid != geteuid()))
		return 0;
	o->pid = atoi(pid);
	cid = cmdline_id(fs, pid, cluster, sizeof(cluster));
	rc = proc_cgroup(fs, pid, rel, sizeof(rel), o->cg, sizeof(o->cg));
	if (rc < 0)
		return rc == -ENOENT ? 0 : rc; /* gone meanwhile */
	uid = osd_cgroup_allowed(rel, p->osd_slices, p->n_osd_slices, o, &why);
	o->id = uid >= 0 ? uid : cid;
	if (o->id < 0 || !matches(p, o))
		return 0;
	if (uid < 0)
		return ios_errf(
			err, -EINVAL,
			"iostrata: osd.%d (pid %d): cgroup \"%s\" refused: %s (accepted: %s)",
			o->id, o->pid, rel, why, OSD_ALLOWED_TEXT);
	if (cid >= 0 && cid != uid)
		return ios_errf(
			err, -EINVAL,
			"iostrata: osd.%d (pid %d): runs as osd.%d in unit %s: refused",
			cid, o->pid, uid, o->unit);
	if (blkio_check_cgroup(o->cg, &why) < 0)
		return ios_errf(err, -EINVAL,
				"iostrata: osd.%d (pid %d): cgroup \"%s\": %s",
				o->id, o->pid, o->cg, why);
	rc = osd_devices(fs, p, o, cluster, err);
	return rc < 0 ? rc : 1;
}

/* Each literal (wildcard-free) entry must name a found OSD; auto and
 * wildcards at least one. */
static int check_named(const struct policy *p, const struct osd_found *v,
		       size_t n, struct ios_err *err)
{
	for (size_t i = 0; i < p->n_osds && !is_auto(p); i++) {
		bool hit = false;

		if (strpbrk(p->osds[i], "*?["))
			continue;
		for (size_t j = 0; j < n && !hit; j++) {
			char name[32];

			snprintf(name, sizeof(name), "osd.%d", v[j].id);
			hit = strcmp(p->osds[i], name) == 0 ||
			      strcmp(p->osds[i], v[j].unit) == 0;
		}
		if (!hit)
			return ios_errf(
				err, -ENOENT,
				"iostrata: osds: \"%s\" does not run on this host (no ceph-osd process of it in this network namespace)",
				p->osds[i]);
	}
	if (n == 0)
		return ios_errf(
			err, -ENOENT,
			"iostrata: osds = %s%s: no ceph-osd process of this host (its network namespace) matches",
			p->osds[0], p->n_osds > 1 ? ",..." : "");
	return 0;
}

static int by_id(const void *a, const void *b)
{
	const struct osd_found *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

int osd_discover(const struct sysfs *fs, const struct policy *p, bool strict,
		 struct osd_found **out, struct ios_err *err)
{
	struct osd_found *v = NULL, o;
	char ourns[64];
	struct dirent *de;
	size_t n = 0;
	DIR *d;
	int rc = 0;

	*out = NULL;
	if (p->n_osds == 0)
		return 0;
	rc = read_ns(fs, "self", ourns, sizeof(ourns));
	if (rc < 0)
		return strict ? ios_errf(
					err, rc,
					"iostrata: osds: read %s/proc/self/ns/net: %s",
					strcmp(fs->root, "/") ? fs->root : "",
					strerror(-rc))
			      : 0;
	d = sysfs_opendir(fs, "proc");
	if (!d)
		return ios_errf(err, -errno, "iostrata: osds: open %s/proc: %s",
				strcmp(fs->root, "/") ? fs->root : "",
				strerror(errno));
	while ((de = readdir(d))) {
		struct osd_found *nv;
		struct ios_err e;

		if (sysfs_parse_id(de->d_name, "") < 0)
			continue;
		ios_err_clear(&e);
		rc = examine(fs, p, de->d_name, ourns, &o, &e);
		if (rc < 0) {
			if (strict) {
				if (err)
					*err = e;
				goto fail;
			}
			log_verbose("%s (skipped)", e.msg);
			rc = 0;
			continue;
		}
		if (rc == 0)
			continue;
		for (size_t i = 0; i < n; i++)
			if (v[i].id == o.id && strict) {
				rc = ios_errf(
					err, -EINVAL,
					"iostrata: osd.%d runs twice on this host (pids %d and %d): refused",
					o.id, v[i].pid, o.pid);
				goto fail;
			}
		nv = realloc(v, (n + 1) * sizeof(*v));
		if (!nv) {
			rc = -ENOMEM;
			goto fail;
		}
		v = nv;
		v[n++] = o;
	}
	closedir(d);
	/* by id: the snapshot and the read-back list them in one order */
	if (n > 1)
		qsort(v, n, sizeof(*v), by_id);
	if (strict && (rc = check_named(p, v, n, err)) < 0) {
		free(v);
		return rc;
	}
	*out = v;
	return (int)n;
fail:
	closedir(d);
	free(v);
	return rc;
}
