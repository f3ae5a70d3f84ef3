/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * policy: parse the site policy and the user's options, check requests.
 * Policy syntax: "key = value" lines, "#" comments, "[profile NAME]"
 * sections holding cpus/mem/disk_bw/disk_iops; "[global]" returns to the
 * global keys.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy.h"
#include "units.h"

static const char *const opt_names[] = {
	[REQ_CPUS] = "--iostrata-cpus",
	[REQ_MEM] = "--iostrata-mem",
	[REQ_DISK_BW] = "--iostrata-disk-bw",
	[REQ_DISK_IOPS] = "--iostrata-disk-iops",
	[REQ_PROFILE] = "--iostrata-profile",
};

/* Only characters of the documented grammars: no shell, no paths. */
static bool safe_chars(const char *s, bool name)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (isalnum(c) || c == '.' || c == '_' || c == '-')
			continue;
		if (!name && (c == ',' || c == '/'))
			continue;
		return false;
	}
	return true;
}

static int parse_rate_nz(const char *s, const char *what, uint64_t *out,
			 struct ios_err *err)
{
	int rc = ios_parse_rate(s, what, out, err);

	if (rc == 0 && *out == 0)
		return ios_errf(
			err, -EINVAL,
			"iostrata: %s: invalid value \"%s\": must be above 0",
			what, s);
	return rc;
}

static int parse_opt(struct iostrata_req *req, enum req_opt opt,
		     const char *val, struct ios_err *err);

/* Every message the user sees starts with "iostrata: " (units.c does not
 * know it speaks for us). */
int req_parse_opt(struct iostrata_req *req, enum req_opt opt, const char *val,
		  struct ios_err *err)
{
	struct iostrata_req tmp = *req;
	int rc = parse_opt(&tmp, opt, val, err);

	if (rc < 0) {
		if (err && strncmp(err->msg, "iostrata: ", 10) != 0) {
			char m[IOS_ERR_MSGLEN];

			snprintf(m, sizeof(m), "%s", err->msg);
			ios_errf(err, rc, "iostrata: %.490s", m);
		}
		return rc;
	}
	*req = tmp; /* nothing half-done on error */
	return 0;
}

static int parse_opt(struct iostrata_req *req, enum req_opt opt,
		     const char *val, struct ios_err *err)
{
	const char *what = opt_names[opt];
	uint64_t v;
	int rc;

	if (!val || !*val)
		return ios_errf(err, -EINVAL, "iostrata: %s: empty value",
				what);
	if (strlen(val) > 31 || !safe_chars(val, opt == REQ_PROFILE))
		return ios_errf(
			err, -EINVAL,
			"iostrata: %s: invalid value \"%.40s\" (letters, digits and units only)",
			what, val);
	switch (opt) {
	case REQ_CPUS:
		rc = ios_parse_uint(val, what, 1, 65536, &v, err);
		if (rc < 0)
			return rc;
		req->cpus = (unsigned)v;
		req->has_cpus = true;
		snprintf(req->raw_cpus, sizeof(req->raw_cpus), "%s", val);
		return 0;
	case REQ_MEM:
		rc = ios_parse_size(val, what, &v, err);
		if (rc < 0)
			return rc;
		if (v == 0)
			return ios_errf(
				err, -EINVAL,
				"iostrata: %s: invalid value \"%s\": must be above 0",
				what, val);
		req->mem = v;
		req->has_mem = true;
		snprintf(req->raw_mem, sizeof(req->raw_mem), "%s", val);
		return 0;
	case REQ_DISK_BW: {
		char w[32];
		const char *comma = strchr(val, ',');
		uint64_t wv, rv;

		if (comma) {
			size_t l = (size_t)(comma - val);

			if (l == 0 || l >= sizeof(w) || strchr(comma + 1, ','))
				return ios_errf(
					err, -EINVAL,
					"iostrata: %s: invalid value \"%s\" (accepted: RATE[,READ_RATE], e.g. 50M or 50M,100M)",
					what, val);
			memcpy(w, val, l);
			w[l] = '\0';
		} else {
			snprintf(w, sizeof(w), "%s", val);
		}
		rc = parse_rate_nz(w, what, &wv, err);
		if (rc < 0)
			return rc;
		if (comma) {
			rc = parse_rate_nz(comma + 1, what, &rv, err);
			if (rc < 0)
				return rc;
		} else {
			rv = wv;
		}
		req->wbps = wv;
		req->rbps = rv;
		req->has_bw = true;
		snprintf(req->raw_bw, sizeof(req->raw_bw), "%s", val);
		return 0;
	}
	case REQ_DISK_IOPS:
		rc = ios_parse_uint(val, what, 1, UINT64_C(1) << 40, &v, err);
		if (rc < 0)
			return rc;
		req->iops = v;
		req->has_iops = true;
		snprintf(req->raw_iops, sizeof(req->raw_iops), "%s", val);
		return 0;
	case REQ_PROFILE:
		if (strlen(val) >= POLICY_NAME_MAX)
			return ios_errf(err, -EINVAL,
					"iostrata: %s: name too long", what);
		snprintf(req->profile, sizeof(req->profile), "%s", val);
		req->has_profile = true;
		return 0;
	}
	return -EINVAL;
}

bool req_any(const struct iostrata_req *req)
{
	return req->has_cpus || req->has_mem || req->has_bw || req->has_iops ||
	       req->has_profile;
}

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
	free(p);
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* Split a whitespace/comma separated list into [arr]. */
static int add_list(char **arr, size_t *n, char *val)
{
	char *save = NULL;

	for (char *t = strtok_r(val, " \t,", &save); t;
	     t = strtok_r(NULL, " \t,", &save)) {
		if (*n >= POLICY_MAX_LIST)
			return -E2BIG;
		arr[*n] = strdup(t);
		if (!arr[*n])
			return -ENOMEM;
		(*n)++;
	}
	return 0;
}

static bool valid_cgroup(const char *s)
{
	if (strncmp(s, "/sys/fs/cgroup/", 15) != 0 || strstr(s, "/..") ||
	    strstr(s, "//"))
		return false;
	for (; *s; s++)
		if (!(isalnum((unsigned char)*s) || strchr("/._-:@+", *s)))
			return false;
	return true;
}

static int parse_pct(const char *v, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(v, &end);
	if (errno || end == v || strcmp(end, "%") != 0 ||
	    !(*out >= 0 && *out <= 100)) /* also refuses "nan%" */
		return -EINVAL;
	return 0;
}

static int set_key(struct policy *p, struct policy_profile *prof, char *key,
		   char *val, struct ios_err *err, const char *where)
{
	uint64_t v;
	double d;
	int rc;

	if (prof) {
		enum req_opt o;

		if (strcmp(key, "cpus") == 0)
			o = REQ_CPUS;
		else if (strcmp(key, "mem") == 0)
			o = REQ_MEM;
		else if (strcmp(key, "disk_bw") == 0)
			o = REQ_DISK_BW;
		else if (strcmp(key, "disk_iops") == 0)
			o = REQ_DISK_IOPS;
		else
			return ios_errf(
				err, -EINVAL,
				"iostrata: %s: unknown profile key \"%s\" (accepted: cpus, mem, disk_bw, disk_iops)",
				where, key);
		rc = req_parse_opt(&prof->req, o, val, err);
		if (rc < 0)
			return ios_errf(err, rc, "%s: %s", where, err->msg);
		return 0;
	}
	if (strcmp(key, "allow_users") == 0)
		rc = add_list(p->allow_users, &p->n_users, val);
	else if (strcmp(key, "allow_accounts") == 0)
		rc = add_list(p->allow_accounts, &p->n_accounts, val);
	else if (strcmp(key, "device") == 0 || strcmp(key, "devices") == 0)
		rc = add_list(p->devices, &p->n_devices, val);
	else if (strcmp(key, "cgroup") == 0 || strcmp(key, "cgroups") == 0) {
		size_t first = p->n_cgroups;

		rc = add_list(p->cgroups, &p->n_cgroups, val);
		for (size_t i = first; rc == 0 && i < p->n_cgroups; i++)
			if (!valid_cgroup(p->cgroups[i]))
				return ios_errf(
					err, -EINVAL,
					"iostrata: %s: invalid cgroup \"%s\" (an absolute path below /sys/fs/cgroup/, no \"..\")",
					where, p->cgroups[i]);
	} else if (strcmp(key, "require_exclusive") == 0) {
		if (strcmp(val, "yes") == 0)
			p->require_exclusive = true;
		else if (strcmp(val, "no") == 0)
			p->require_exclusive = false;
		else
			return ios_errf(
				err, -EINVAL,
				"iostrata: %s: require_exclusive: invalid value \"%s\" (accepted: yes, no)",
				where, val);
		rc = 0;
	} else if (strcmp(key, "min_cpus") == 0) {
		rc = ios_parse_uint(val, key, 1, 65536, &v, err);
		p->min_cpus = (unsigned)v;
	} else if (strcmp(key, "min_mem") == 0) {
		rc = ios_parse_size(val, key, &p->min_mem, err);
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
					"iostrata: mem_tolerance: invalid percentage \"%s\"",
					val);
		} else {
			rc = ios_parse_size(val, key, &p->mem_tolerance, err);
		}
	} else if (strcmp(key, "mem_attempt_timeout") == 0 ||
		   strcmp(key, "mem_total_timeout") == 0) {
		rc = ios_parse_duration(val, key, &d, err);
		if (rc == 0 && (d < 0.001 || d > 3600))
			rc = ios_errf(err, -ERANGE,
				      "iostrata: %s: \"%s\" outside 1ms..1h",
				      key, val);
		if (rc == 0) {
			if (key[4] == 'a')
				p->mem_attempt_ms = (int)(d * 1000);
			else
				p->mem_total_ms = (int)(d * 1000);
		}
	} else {
		return ios_errf(err, -EINVAL,
				"iostrata: %s: unknown key \"%s\"", where, key);
	}
	if (rc < 0)
		return ios_errf(err, rc, "%s: %s", where,
				err && err->msg[0] ? err->msg : strerror(-rc));
	return 0;
}

int policy_load(const char *path, uid_t owner, struct policy **out,
		struct ios_err *err)
{
	struct policy_profile *prof = NULL;
	struct policy *p;
	struct stat st;
	char line[1024], where[4200];
	unsigned lineno = 0;
	FILE *f;
	int fd, rc = 0;

	*out = NULL;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
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
	f = fdopen(fd, "r");
	if (!f) {
		rc = -errno;
		close(fd);
		return ios_errf(err, rc, "iostrata: read policy %s: %s", path,
				strerror(-rc));
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		fclose(f);
		return -ENOMEM;
	}
	snprintf(p->path, sizeof(p->path), "%s", path);
	p->require_exclusive = true;
	p->min_cpus = 1;
	p->mem_attempt_ms = 2000;
	p->mem_total_ms = 60000;
	while (fgets(line, sizeof(line), f)) {
		char *s, *eq;

		lineno++;
		snprintf(where, sizeof(where), "%s:%u", path, lineno);
		if (!strchr(line, '\n') && !feof(f)) {
			rc = ios_errf(err, -EINVAL,
				      "iostrata: %s: line too long", where);
			goto fail;
		}
		s = trim(line);
		if (!*s || *s == '#')
			continue;
		if (strcmp(s, "[global]") == 0) {
			prof = NULL;
			continue;
		}
		if (*s == '[') {
			char name[POLICY_NAME_MAX + 1];
			int n = 0;

			if (sscanf(s, "[profile %64[A-Za-z0-9_.-]]%n", name,
				   &n) != 1 ||
			    n == 0 || s[n] != '\0') {
				rc = ios_errf(
					err, -EINVAL,
					"iostrata: %s: bad section \"%s\" (accepted: [profile NAME], [global])",
					where, s);
				goto fail;
			}
			if (p->n_profiles >= POLICY_MAX_LIST ||
			    strlen(name) >= POLICY_NAME_MAX) {
				rc = ios_errf(
					err, -E2BIG,
					"iostrata: %s: too many profiles or name too long",
					where);
				goto fail;
			}
			prof = &p->profiles[p->n_profiles++];
			snprintf(prof->name, sizeof(prof->name), "%s", name);
			continue;
		}
		eq = strchr(s, '=');
		if (!eq) {
			rc = ios_errf(
				err, -EINVAL,
				"iostrata: %s: expected key = value, got \"%s\"",
				where, s);
			goto fail;
		}
		*eq = '\0';
		rc = set_key(p, prof, trim(s), trim(eq + 1), err, where);
		if (rc < 0)
			goto fail;
	}
	if (ferror(f)) {
		rc = ios_errf(err, -EIO, "iostrata: read policy %s: %s", path,
			      strerror(EIO));
		goto fail;
	}
	fclose(f);
	*out = p;
	return 0;
fail:
	fclose(f);
	policy_free(p);
	return rc;
}

int policy_check_req(const struct policy *p, struct iostrata_req *req,
		     unsigned online_cpus, struct ios_err *err)
{
	if (req->has_profile) {
		const struct policy_profile *pr = NULL;

		for (size_t i = 0; i < p->n_profiles; i++)
			if (strcmp(p->profiles[i].name, req->profile) == 0)
				pr = &p->profiles[i];
		if (!pr)
			return ios_errf(
				err, -ENOENT,
				"iostrata: --iostrata-profile: unknown profile \"%s\" (see %s)",
				req->profile, p->path);
		if (!req->has_cpus && pr->req.has_cpus) {
			req->cpus = pr->req.cpus;
			req->has_cpus = true;
		}
		if (!req->has_mem && pr->req.has_mem) {
			req->mem = pr->req.mem;
			req->has_mem = true;
		}
		if (!req->has_bw && pr->req.has_bw) {
			req->wbps = pr->req.wbps;
			req->rbps = pr->req.rbps;
			req->has_bw = true;
		}
		if (!req->has_iops && pr->req.has_iops) {
			req->iops = pr->req.iops;
			req->has_iops = true;
		}
	}
	if (req->has_cpus && req->cpus < p->min_cpus)
		return ios_errf(
			err, -ERANGE,
			"iostrata: --iostrata-cpus: %u is below the site minimum %u",
			req->cpus, p->min_cpus);
	if (req->has_cpus && online_cpus && req->cpus > online_cpus)
		return ios_errf(
			err, -ERANGE,
			"iostrata: --iostrata-cpus: %u is more than the %u CPUs online",
			req->cpus, online_cpus);
	if (req->has_mem && req->mem < p->min_mem)
		return ios_errf(err, -ERANGE,
				"iostrata: --iostrata-mem: %" PRIu64
				" bytes is below the site minimum %" PRIu64,
				req->mem, p->min_mem);
	if (req->has_bw &&
	    (req->wbps < p->min_disk_bw || req->rbps < p->min_disk_bw))
		return ios_errf(
			err, -ERANGE,
			"iostrata: --iostrata-disk-bw: rate below the site minimum %" PRIu64
			" B/s",
			p->min_disk_bw);
	if (req->has_iops && req->iops < p->min_disk_iops)
		return ios_errf(err, -ERANGE,
				"iostrata: --iostrata-disk-iops: %" PRIu64
				" is below the site minimum %" PRIu64,
				req->iops, p->min_disk_iops);
	if ((req->has_bw || req->has_iops) &&
	    (p->n_devices == 0 || p->n_cgroups == 0))
		return ios_errf(
			err, -ERANGE,
			"iostrata: --iostrata-disk-bw/--iostrata-disk-iops: the site policy %s names no device or cgroup to throttle",
			p->path);
	return 0;
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
