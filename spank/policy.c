/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * policy: parse the site policy.  Syntax: "key = value" lines, "#"
 * comments, "[profile NAME]" sections holding cpus/mem/disk_bw/disk_iops;
 * "[global]" returns to the global keys.  Who may reconfigure a node, and
 * the memory tolerance.  The user's request, parsed and checked against
 * the policy, is policy_req.c's.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blkio.h"
#include "osd.h"
#include "policy.h"
#include "units.h"

void policy_free(struct policy *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n_users; i++)
		free(p->allow_users[i]);
	for (size_t i = 0; i < p->n_accounts; i++)
		free(p->allow_accounts[i]);
	for (size_t i = 0; i < p->n_devices; i++)
		free(p->devices[i]);
	for (size_t i = 0; i < p->n_cgroups; i++)
		free(p->cgroups[i]);
	for (size_t i = 0; i < p->n_osds; i++)
		free(p->osds[i]);
	for (size_t i = 0; i < p->n_osd_slices; i++)
		free(p->osd_slices[i]);
	for (size_t i = 0; i < p->n_osd_data; i++)
		free(p->osd_data[i]);
	free(p);
}

/* Split a whitespace/comma separated list of [key] into [arr]. */
static int add_list(char **arr, size_t *n, char *val, const char *key,
		    struct ios_err *err)
{
	char *save = NULL;

	for (char *t = strtok_r(val, " \t,", &save); t;
	     t = strtok_r(NULL, " \t,", &save)) {
		if (*n >= POLICY_MAX_LIST)
			return ios_errf(
				err, -E2BIG,
				"%s: more than %d entries (accepted: at most %d in all)",
				key, POLICY_MAX_LIST, POLICY_MAX_LIST);
		arr[*n] = strdup(t);
		if (!arr[*n])
			return -ENOMEM;
		(*n)++;
	}
	return 0;
}

/* "N%" or "N.M%", 0..100: digits only (strtod would take "nan", "0x1p3",
 * "1e2"). */
static int parse_pct(const char *v, double *out)
{
	double whole = 0, frac = 0, scale = 1;
	const char *p = v;

	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	for (; isdigit((unsigned char)*p) && whole <= 100; p++)
		whole = whole * 10 + (*p - '0');
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		for (; isdigit((unsigned char)*p) && scale < 1e9; p++) {
			frac = frac * 10 + (*p - '0');
			scale *= 10;
		}
	}
	if (strcmp(p, "%") != 0 || whole + frac / scale > 100)
		return -EINVAL;
	*out = whole + frac / scale;
	return 0;
}

/* Scalar keys: each may be given once (a second line is a mistake that
 * would otherwise win silently). */
static const char *const scalar_keys[] = {
	"require_exclusive",
	"min_cpus",
	"min_mem",
	"min_disk_bw",
	"min_disk_iops",
	"cpu_tolerance",
	"mem_tolerance",
	"mem_reserve",
	"mem_attempt_timeout",
	"mem_total_timeout",
	"osd_memory_target",
	"osd_memory_target_min",
	"ceph",
	"ceph_conf",
	"ceph_timeout",
	"throttle_job",
	"mds",
	"mds_cgroup",
	"min_mds_cpus",
	"min_mds_mem",
	"min_mds_cache",
};
#define N_SCALAR (sizeof(scalar_keys) / sizeof(scalar_keys[0]))
#define OMT_KEY 10 /* scalar_keys[10]: "osd_memory_target" */
#define MDS_KEY 16 /* scalar_keys[16]: "mds" */
#define MDS_CG_KEY 17

/* A yes/no key. */
static int parse_yes_no(const char *key, const char *val, bool *out,
			struct ios_err *err, const char *where)
{
	if (strcmp(val, "yes") == 0 || strcmp(val, "no") == 0) {
		*out = val[0] == 'y';
		return 0;
	}
	return ios_errf(
		err, -EINVAL,
		"iostrata: %s: %s: invalid value \"%s\" (accepted: yes, no)",
		where, key, val);
}

/* "iostrata: FILE:LINE: " + [err]'s message without its own prefix. */
static int at_where(struct ios_err *err, int rc, const char *where)
{
	const char *m;

	if (!err)
		return rc;
	m = err->msg[0] ? err->msg : strerror(-rc);
	if (strncmp(m, "iostrata: ", 10) == 0)
		m += 10;
	return ios_errf(err, rc, "iostrata: %s: %s", where, m);
}

/* Entries [first, n) of [arr] that repeat an earlier one: "<what>
 * \"X\" listed twice". */
static int no_repeats(char *const *arr, size_t first, size_t n,
		      const char *what, struct ios_err *err, const char *where)
{
	for (size_t i = first; i < n; i++)
		for (size_t j = 0; j < i; j++)
			if (strcmp(arr[j], arr[i]) == 0)
				return ios_errf(
					err, -EINVAL,
					"iostrata: %s: %s \"%s\" listed twice",
					where, what, arr[i]);
	return 0;
}

/* Add the cgroups of one "cgroup =" line, each checked (and not twice). */
static int add_cgroups(struct policy *p, char *val, struct ios_err *err,
		       const char *where)
{
	size_t first = p->n_cgroups;
	int rc = add_list(p->cgroups, &p->n_cgroups, val, "cgroup", err);

	if (rc < 0)
		return at_where(err, rc, where);
	for (size_t i = first; i < p->n_cgroups; i++) {
		const char *cg = p->cgroups[i], *why = NULL;

		rc = blkio_check_cgroup(cg, &why);
		if (rc < 0)
			return ios_errf(
				err, rc,
				"iostrata: %s: invalid cgroup \"%.80s%s\" (%zu characters): %s (accepted: an absolute path below /sys/fs/cgroup/ of at most %d characters, names of letters, digits, ._-:@+ and systemd's \\xHH escapes, no \"..\")",
				where, cg, strlen(cg) > 80 ? "..." : "",
				strlen(cg), why, BLKIO_CG_MAX - 1);
	}
	return no_repeats(p->cgroups, first, p->n_cgroups, "cgroup", err,
			  where);
}

/* "osds =": "auto" alone, or OSD names (osd_check_pattern), each once. */
static int add_osds(struct policy *p, char *val, struct ios_err *err,
		    const char *where)
{
	size_t first = p->n_osds;
	const char *why;
	int rc = add_list(p->osds, &p->n_osds, val, "osds", err);

	if (rc < 0)
		return at_where(err, rc, where);
	for (size_t i = first; i < p->n_osds; i++) {
		const char *o = p->osds[i];

		if (osd_check_pattern(o, &why) < 0)
			return ios_errf(
				err, -EINVAL,
				"iostrata: %s: osds: invalid entry \"%.80s\": %s (accepted: auto, or unit names such as ceph-osd@*.service or ceph-<fsid>@osd.3.service, or osd.N, with wildcards *?[])",
				where, o, why);
		if ((strcmp(o, "auto") == 0 && p->n_osds > 1) ||
		    (i > 0 && strcmp(p->osds[0], "auto") == 0))
			return ios_errf(
				err, -EINVAL,
				"iostrata: %s: osds: \"auto\" must be the only entry",
				where);
	}
	return no_repeats(p->osds, first, p->n_osds, "osds:", err, where);
}

/* "osd_slice =": paths of slices in the cgroup hierarchy ("/ceph.slice"). */
static int add_osd_slices(struct policy *p, char *val, struct ios_err *err,
			  const char *where)
{
	size_t first = p->n_osd_slices;
	int rc = add_list(p->osd_slices, &p->n_osd_slices, val, "osd_slice",
			  err);

	if (rc < 0)
		return at_where(err, rc, where);
	for (size_t i = first; i < p->n_osd_slices; i++) {
		const char *s = p->osd_slices[i],
			   *why = "not absolute or too long";
		char full[BLKIO_CG_MAX + 32];
		size_t l = strlen(s);

		if (s[0] == '/' &&
		    snprintf(full, sizeof(full), "/sys/fs/cgroup%s", s) <
			    (int)sizeof(full) &&
		    blkio_check_cgroup(full, &why) == 0 &&
		    (l > 6 && strcmp(s + l - 6, ".slice") == 0))
			continue;
		return ios_errf(
			err, -EINVAL,
			"iostrata: %s: osd_slice: invalid slice \"%.80s\": %s (accepted: an absolute path in the cgroup hierarchy ending in .slice, e.g. /ceph.slice or /system.slice/ceph\\x2dosd.slice)",
			where, s, why ? why : "does not end in .slice");
	}
	return 0;
}

/* "osd_data =": absolute directories, Ceph's $id $name $cluster $fsid. */
static int add_osd_data(struct policy *p, char *val, struct ios_err *err,
			const char *where)
{
	size_t first = p->n_osd_data;
	int rc = add_list(p->osd_data, &p->n_osd_data, val, "osd_data", err);

	if (rc < 0)
		return at_where(err, rc, where);
	for (size_t i = first; i < p->n_osd_data; i++) {
		const char *s = p->osd_data[i];
		bool ok = s[0] == '/' && strlen(s) < 1024;

		for (const char *c = s; ok && *c; c++)
			ok = isalnum((unsigned char)*c) ||
			     strchr("/._-@+:$", *c);
		/* no ".." component */
		for (const char *c = s; ok && (c = strstr(c, "..")); c += 2)
			ok = !(c[-1] == '/' && (c[2] == '/' || c[2] == '\0'));
		if (!ok)
			return ios_errf(
				err, -EINVAL,
				"iostrata: %s: osd_data: invalid directory \"%.80s\" (accepted: an absolute path of letters, digits, /._-@+: and Ceph's $id, $name, $cluster, $fsid, no \"..\")",
				where, s);
	}
	return 0;
}

/* "ceph =" / "ceph_conf =": an absolute file name of safe characters
 * (it becomes an argument of the ceph CLI, never a shell word). */
bool policy_valid_file(const char *s)
{
	size_t n = strlen(s);
	bool ok = s[0] == '/' && n < CEPH_PATH_MAX;

	for (const char *c = s; ok && *c; c++)
		ok = isalnum((unsigned char)*c) || strchr("/._-@+:", *c);
	return ok && !strstr(s, "/../") && !strstr(s, "/./") &&
	       !(n >= 2 && strcmp(s + n - 2, "/.") == 0) &&
	       !(n >= 3 && strcmp(s + n - 3, "/..") == 0);
}

static int set_abs_file(char *dst, size_t len, const char *key, const char *val,
			struct ios_err *err, const char *where)
{
	if (!policy_valid_file(val))
		return ios_errf(
			err, -EINVAL,
			"iostrata: %s: %s: invalid file \"%.80s\" (accepted: an absolute path of letters, digits and /._-@+:, no . or .. component, shorter than %zu characters)",
			where, key, val, len);
	snprintf(dst, len, "%s", val);
	return 0;
}

/* A profile key: cpus, mem, disk_bw, disk_iops, each once. */
static int set_profile_key(struct policy_profile *prof, const char *key,
			   const char *val, struct ios_err *err,
			   const char *where)
{
	enum req_opt o;
	bool dup;
	int rc;

	if (strcmp(key, "cpus") == 0) {
		o = REQ_CPUS;
		dup = prof->req.has_cpus;
	} else if (strcmp(key, "mem") == 0) {
		o = REQ_MEM;
		dup = prof->req.has_mem;
	} else if (strcmp(key, "disk_bw") == 0) {
		o = REQ_DISK_BW;
		dup = prof->req.has_bw;
	} else if (strcmp(key, "disk_iops") == 0) {
		o = REQ_DISK_IOPS;
		dup = prof->req.has_iops;
	} else if (strcmp(key, "mds_cpus") == 0) {
		o = REQ_MDS_CPUS;
		dup = prof->req.has_mds_cpus;
	} else if (strcmp(key, "mds_mem") == 0) {
		o = REQ_MDS_MEM;
		dup = prof->req.has_mds_mem;
	} else if (strcmp(key, "mds_cache") == 0) {
		o = REQ_MDS_CACHE;
		dup = prof->req.has_mds_cache;
	} else {
		return ios_errf(
			err, -EINVAL,
			"iostrata: %s: unknown profile key \"%s\" (accepted: cpus, mem, disk_bw, disk_iops, mds_cpus, mds_mem, mds_cache)",
			where, key);
	}
	if (dup)
		return ios_errf(
			err, -EINVAL,
			"iostrata: %s: profile %s: key \"%s\" given twice",
			where, prof->name, key);
	rc = req_parse_opt(&prof->req, o, val, err);
	return rc < 0 ? at_where(err, rc, where) : 0;
}

/* The keys of set_key that name things (users, accounts, devices,
 * cgroups, OSDs) and the yes/no keys: 0, a negative errno (err set,
 * with [where]), or 1 when [key] is none of them. */
static int set_list_key(struct policy *p, const char *key, char *val,
			struct ios_err *err, const char *where)
{
	int rc;

	if (strcmp(key, "allow_users") == 0)
		rc = add_list(p->allow_users, &p->n_users, val, key, err);
	else if (strcmp(key, "allow_accounts") == 0)
		rc = add_list(p->allow_accounts, &p->n_accounts, val, key, err);
	else if (strcmp(key, "device") == 0 || strcmp(key, "devices") == 0) {
		size_t first = p->n_devices;

		rc = add_list(p->devices, &p->n_devices, val, key, err);
		if (rc == 0 && (rc = no_repeats(p->devices, first, p->n_devices,
						"device", err, where)) < 0)
			return rc;
	} else if (strcmp(key, "cgroup") == 0 || strcmp(key, "cgroups") == 0) {
		rc = add_cgroups(p, val, err, where);
		if (rc < 0)
			return rc;
	} else if (strcmp(key, "osds") == 0) {
		rc = add_osds(p, val, err, where);
		if (rc < 0)
			return rc;
	} else if (strcmp(key, "osd_slice") == 0) {
		rc = add_osd_slices(p, val, err, where);
		if (rc < 0)
			return rc;
	} else if (strcmp(key, "osd_data") == 0) {
		rc = add_osd_data(p, val, err, where);
		if (rc < 0)
			return rc;
	} else if (strcmp(key, "require_exclusive") == 0) {
		rc = parse_yes_no(key, val, &p->require_exclusive, err, where);
		if (rc < 0)
			return rc;
	} else if (strcmp(key, "throttle_job") == 0) {
		rc = parse_yes_no(key, val, &p->throttle_job, err, where);
		if (rc < 0)
			return rc;
	} else {
		return 1;
	}
	if (rc < 0)
		return at_where(err, rc, where);
	return 0;
}

/* The keys of set_key for Ceph's daemons (osd_memory_target, the ceph
 * CLI, the MDS and its floors): as set_list_key. */
static int set_ceph_key(struct policy *p, const char *key, char *val,
			struct ios_err *err, const char *where)
{
	int rc;

	if (strcmp(key, "osd_memory_target") == 0) {
		if (strcmp(val, "share") == 0)
			p->omt_share = true;
		else if (strcmp(val, "off") == 0)
			p->omt_share = false;
		else
			return ios_errf(
				err, -EINVAL,
				"iostrata: %s: osd_memory_target: invalid value \"%s\" (accepted: share, off)",
				where, val);
		rc = 0;
	} else if (strcmp(key, "osd_memory_target_min") == 0) {
		rc = ios_parse_size(val, key, &p->omt_min, err);
		if (rc == 0 && p->omt_min < POLICY_DEFAULT_OMT_MIN)
			return ios_errf(
				err, -ERANGE,
				"iostrata: %s: osd_memory_target_min: \"%s\" below Ceph's minimum (accepted: 896M or more)",
				where, val);
	} else if (strcmp(key, "ceph") == 0 || strcmp(key, "ceph_conf") == 0) {
		rc = set_abs_file(key[4] ? p->ceph.conf : p->ceph.path,
				  sizeof(p->ceph.path), key, val, err, where);
		if (rc < 0)
			return rc;
	} else if (strcmp(key, "mds") == 0) {
		if (!policy_valid_mds_id(val))
			return ios_errf(
				err, -EINVAL,
				"iostrata: %s: mds: invalid MDS id \"%.80s\" (accepted: the ID of mds.ID, 1 to %d letters, digits and ._-, not starting with a dot)",
				where, val, POLICY_NAME_MAX - 1);
		snprintf(p->mds_id, sizeof(p->mds_id), "%s", val);
		rc = 0;
	} else if (strcmp(key, "mds_cgroup") == 0) {
		if (!policy_valid_mds_cgroup(val))
			return ios_errf(
				err, -EINVAL,
				"iostrata: %s: mds_cgroup: invalid cgroup \"%.80s\" (accepted: an absolute path in the cgroup hierarchy as /proc/PID/cgroup shows it, e.g. /system.slice/ceph-mds@a.service, shorter than %d characters, names of letters, digits, ._-:@+ and systemd's \\xHH escapes, no \"..\")",
				where, val, POLICY_MDS_CG_MAX);
		snprintf(p->mds_cgroup, sizeof(p->mds_cgroup), "%s", val);
		rc = 0;
	} else if (strcmp(key, "min_mds_cpus") == 0) {
		rc = policy_parse_mcpus(val, key, &p->min_mds_mcpus, err);
	} else if (strcmp(key, "min_mds_mem") == 0) {
		rc = ios_parse_size(val, key, &p->min_mds_mem, err);
	} else if (strcmp(key, "min_mds_cache") == 0) {
		rc = ios_parse_size(val, key, &p->min_mds_cache, err);
	} else {
		return 1;
	}
	if (rc < 0)
		return at_where(err, rc, where);
	return 0;
}

/* The keys of set_key for the bounds, tolerances and timeouts: as
 * set_list_key. */
static int set_bound_key(struct policy *p, const char *key, char *val,
			 struct ios_err *err, const char *where)
{
	uint64_t v = 0;
	double d;
	int rc;

	if (strcmp(key, "min_cpus") == 0) {
		rc = ios_parse_uint(val, key, 1, 65536, &v, err);
		p->min_cpus = (unsigned)v;
	} else if (strcmp(key, "min_mem") == 0) {
		rc = ios_parse_size(val, key, &p->min_mem, err);
	} else if (strcmp(key, "mem_reserve") == 0) {
		rc = ios_parse_size(val, key, &p->mem_reserve, err);
	} else if (strcmp(key, "min_disk_bw") == 0) {
		rc = ios_parse_rate(val, key, &p->min_disk_bw, err);
	} else if (strcmp(key, "min_disk_iops") == 0) {
		rc = ios_parse_uint(val, key, 0, UINT64_C(1) << 40,
				    &p->min_disk_iops, err);
	} else if (strcmp(key, "cpu_tolerance") == 0) {
		rc = ios_parse_uint(val, key, 0, 65536, &v, err);
		p->cpu_tolerance = (unsigned)v;
	} else if (strcmp(key, "mem_tolerance") == 0) {
		if (strchr(val, '%')) {
			rc = parse_pct(val, &p->mem_tolerance_pct);
			if (rc < 0)
				ios_errf(
					err, rc,
					"mem_tolerance: invalid percentage \"%s\" (accepted: 0%% to 100%%, e.g. 10%% or 2.5%%)",
					val);
		} else {
			rc = ios_parse_size(val, key, &p->mem_tolerance, err);
		}
	} else if (strcmp(key, "ceph_timeout") == 0) {
		rc = ios_parse_duration(val, key, &d, err);
		if (rc == 0 && (d < 0.1 || d > 600))
			rc = ios_errf(err, -ERANGE,
				      "%s: \"%s\" outside 100ms..10min", key,
				      val);
		if (rc == 0)
			p->ceph.timeout_ms = (int)(d * 1000);
	} else if (strcmp(key, "mem_attempt_timeout") == 0 ||
		   strcmp(key, "mem_total_timeout") == 0) {
		rc = ios_parse_duration(val, key, &d, err);
		if (rc == 0 && (d < 0.001 || d > 3600))
			rc = ios_errf(err, -ERANGE,
				      "%s: \"%s\" outside 1ms..1h", key, val);
		if (rc == 0) {
			if (key[4] == 'a')
				p->mem_attempt_ms = (int)(d * 1000);
			else
				p->mem_total_ms = (int)(d * 1000);
		}
	} else {
		return 1;
	}
	if (rc < 0)
		return at_where(err, rc, where);
	return 0;
}

static int set_key(struct policy *p, struct policy_profile *prof, char *key,
		   char *val, struct ios_err *err, const char *where,
		   unsigned lineno, unsigned *seen)
{
	int rc;

	if (prof)
		return set_profile_key(prof, key, val, err, where);
	for (size_t i = 0; i < N_SCALAR; i++)
		if (strcmp(key, scalar_keys[i]) == 0) {
			if (seen[i])
				return ios_errf(
					err, -EINVAL,
					"iostrata: %s: key \"%s\" given twice (first at line %u)",
					where, key, seen[i]);
			seen[i] = lineno;
		}
	rc = set_list_key(p, key, val, err, where);
	if (rc == 1)
		rc = set_ceph_key(p, key, val, err, where);
	if (rc == 1)
		rc = set_bound_key(p, key, val, err, where);
	if (rc == 1)
		return ios_errf(err, -EINVAL,
				"iostrata: %s: unknown key \"%s\"", where, key);
	return rc;
}

#define POLICY_LINE_MAX 1024

/* Open the policy [path] for reading: a regular file owned by [owner],
 * not writable by group or others, never a symlink or a FIFO.  *[fp] the
 * stream; 0 or a negative errno (err set). */
static int policy_open(const char *path, uid_t owner, FILE **fp,
		       struct ios_err *err)
{
	struct stat st;
	int fd, rc;

	/* O_NONBLOCK: a FIFO (or a device) given as the policy must be
	 * refused below, not block the prolog in open(). */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return ios_errf(err, -errno, "iostrata: open policy %s: %s",
				path, strerror(errno));
	if (fstat(fd, &st) < 0) {
		rc = -errno;
		close(fd);
		return ios_errf(err, rc, "iostrata: stat policy %s: %s", path,
				strerror(-rc));
	}
	if (!S_ISREG(st.st_mode) || st.st_uid != owner ||
	    (st.st_mode & (S_IWGRP | S_IWOTH))) {
		close(fd);
		return ios_errf(
			err, -EPERM,
			"iostrata: policy %s: refused: must be a regular file owned by uid %u and not writable by group or others (owner %u, mode %04o)",
			path, (unsigned)owner, (unsigned)st.st_uid,
			(unsigned)(st.st_mode & 07777));
	}
	*fp = fcntl(fd, F_SETFL, 0) == 0 ? fdopen(fd, "r") : NULL;
	if (!*fp) {
		rc = -errno;
		close(fd);
		return ios_errf(err, rc, "iostrata: read policy %s: %s", path,
				strerror(-rc));
	}
	return 0;
}

/* A policy of [path] (shorter than p->path) with every default set;
 * NULL when out of memory. */
static struct policy *policy_new(const char *path)
{
	struct policy *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	snprintf(p->path, sizeof(p->path), "%s", path); /* fits: checked */
	p->require_exclusive = true;
	p->throttle_job = true;
	p->min_cpus = 1;
	p->min_mem = POLICY_DEFAULT_MIN_MEM;
	p->mem_reserve = POLICY_DEFAULT_MEM_RESERVE;
	p->omt_min = POLICY_DEFAULT_OMT_MIN;
	p->min_mds_mcpus = POLICY_DEFAULT_MIN_MDS_MCPUS;
	p->min_mds_mem = POLICY_DEFAULT_MIN_MDS_MEM;
	p->min_mds_cache = POLICY_DEFAULT_MIN_MDS_CACHE;
	p->ceph.timeout_ms = POLICY_DEFAULT_CEPH_TIMEOUT_MS;
	p->mem_attempt_ms = 2000;
	p->mem_total_ms = 60000;
	return p;
}

/* A "[profile NAME]" line [s]: a new profile of [p] into *[prof]; 0 or a
 * negative errno (err set, naming [where]). */
static int policy_section(struct policy *p, const char *s, const char *where,
			  struct policy_profile **prof, struct ios_err *err)
{
	char name[POLICY_NAME_MAX + 1];
	int n = 0;

	if (sscanf(s, "[profile %64[A-Za-z0-9_.-]]%n", name, &n) != 1 ||
	    n == 0 || s[n] != '\0')
		return ios_errf(
			err, -EINVAL,
			"iostrata: %s: bad section \"%s\" (accepted: [profile NAME], [global])",
			where, s);
	if (p->n_profiles >= POLICY_MAX_LIST || strlen(name) >= POLICY_NAME_MAX)
		return ios_errf(
			err, -E2BIG,
			"iostrata: %s: too many profiles or name too long",
			where);
	for (size_t i = 0; i < p->n_profiles; i++)
		if (strcmp(p->profiles[i].name, name) == 0)
			return ios_errf(
				err, -EINVAL,
				"iostrata: %s: profile \"%s\" defined twice",
				where, name);
	*prof = &p->profiles[p->n_profiles++];
	snprintf((*prof)->name, sizeof((*prof)->name), "%s", name);
	return 0;
}

/* Line [lineno] of the policy, [line] (len bytes, as getline read it),
 * into [p]: a comment, a section, or a key; *[prof] the profile the keys
 * go to (NULL: global), seen[] the lines of the scalar keys.  0 or a
 * negative errno (err set, naming the file and line). */
static int policy_line(struct policy *p, char *line, ssize_t len,
		       unsigned lineno, struct policy_profile **prof,
		       unsigned *seen, struct ios_err *err)
{
	char where[sizeof(p->path) + 16], *s, *eq;

	snprintf(where, sizeof(where), "%s:%u", p->path, lineno);
	if (len >= POLICY_LINE_MAX)
		return ios_errf(
			err, -EINVAL,
			"iostrata: %s: line too long (%zd characters, at most %d)",
			where, len, POLICY_LINE_MAX - 1);
	/* A NUL would hide the rest of the line from every check. */
	if (strlen(line) != (size_t)len)
		return ios_errf(err, -EINVAL, "iostrata: %s: NUL byte in line",
				where);
	s = ios_trim(line);
	if (!*s || *s == '#')
		return 0;
	if (strcmp(s, "[global]") == 0) {
		*prof = NULL;
		return 0;
	}
	if (*s == '[')
		return policy_section(p, s, where, prof, err);
	eq = strchr(s, '=');
	if (!eq)
		return ios_errf(
			err, -EINVAL,
			"iostrata: %s: expected key = value, got \"%s\"", where,
			s);
	*eq = '\0';
	return set_key(p, *prof, ios_trim(s), ios_trim(eq + 1), err, where,
		       lineno, seen);
}

/* What no single line shows: the keys that need each other, checked once
 * the whole policy is read.  0 or a negative errno (err set). */
static int policy_whole(const struct policy *p, const unsigned *seen,
			struct ios_err *err)
{
	/* The share is per OSD of this host: without "osds =" there is
	 * none to set. */
	if (p->omt_share && p->n_osds == 0)
		return ios_errf(
			err, -EINVAL,
			"iostrata: %s:%u: osd_memory_target = share needs the OSDs of this host (accepted: share with an \"osds =\" line, e.g. osds = auto; or off)",
			p->path, seen[OMT_KEY]);
	/* the MDS is named by its id (for the monitors) and its cgroup:
	 * one without the other is a half-written policy */
	if (!p->mds_id[0] != !p->mds_cgroup[0])
		return ios_errf(
			err, -EINVAL,
			"iostrata: %s:%u: %s without %s (accepted: both \"mds = ID\" and \"mds_cgroup = PATH\", or neither)",
			p->path,
			p->mds_id[0] ? seen[MDS_KEY] : seen[MDS_CG_KEY],
			p->mds_id[0] ? "mds" : "mds_cgroup",
			p->mds_id[0] ? "mds_cgroup" : "mds");
	return 0;
}

int policy_load(const char *path, uid_t owner, struct policy **out,
		struct ios_err *err)
{
	struct policy_profile *prof = NULL;
	struct policy *p;
	char *line = NULL;
	unsigned lineno = 0, seen[N_SCALAR] = {0};
	size_t cap = 0;
	ssize_t len;
	FILE *f;
	int rc = 0;

	*out = NULL;
	ios_err_clear(err);
	if (!path || strlen(path) >= sizeof(p->path))
		return ios_errf(
			err, -ENAMETOOLONG,
			"iostrata: open policy \"%.80s...\": path longer than %zu characters",
			path ? path : "", sizeof(p->path) - 1);
	rc = policy_open(path, owner, &f, err);
	if (rc < 0)
		return rc;
	p = policy_new(path);
	if (!p) {
		fclose(f);
		return -ENOMEM;
	}
	while ((len = getline(&line, &cap, f)) >= 0) {
		rc = policy_line(p, line, len, ++lineno, &prof, seen, err);
		if (rc < 0)
			goto fail;
	}
	if (ferror(f)) {
		rc = ios_errf(err, -EIO, "iostrata: read policy %s: %s", path,
			      strerror(EIO));
		goto fail;
	}
	rc = policy_whole(p, seen, err);
	if (rc < 0)
		goto fail;
	free(line);
	fclose(f);
	*out = p;
	return 0;
fail:
	free(line);
	fclose(f);
	policy_free(p);
	return rc;
}

int policy_check_user(const struct policy *p, uid_t uid, const char *user,
		      const char *account, struct ios_err *err)
{
	for (size_t i = 0; i < p->n_users; i++)
		if (strcmp(p->allow_users[i], "*") == 0 ||
		    (user && strcmp(p->allow_users[i], user) == 0))
			return 0;
	for (size_t i = 0; i < p->n_accounts; i++)
		if (account && (strcmp(p->allow_accounts[i], "*") == 0 ||
				strcmp(p->allow_accounts[i], account) == 0))
			return 0;
	return ios_errf(
		err, -EPERM,
		"iostrata: user \"%s\" (uid %u, account \"%s\") may not reconfigure nodes (policy %s)",
		user ? user : "?", (unsigned)uid, account ? account : "",
		p->path);
}

uint64_t policy_mem_slack(const struct policy *p, uint64_t target)
{
	uint64_t s = p->mem_tolerance;

	if (p->mem_tolerance_pct > 0) {
		uint64_t q = (uint64_t)((double)target * p->mem_tolerance_pct /
					100.0);
		if (q > s)
			s = q;
	}
	return s;
}
