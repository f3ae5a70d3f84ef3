/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * policy_req: the user's request: the SPANK options' values parsed and
 * validated (no shell or path characters, units.h grammar), the value
 * checks both the request and the policy file use (MDS CPUs, ids and
 * cgroups), and a request checked against the site policy (bounds,
 * profiles, the MDS floors).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blkio.h"
#include "policy.h"
#include "units.h"

static bool safe_chars(const char *s, bool name);

static const char *const opt_names[] = {
	[REQ_CPUS] = "--iostrata-cpus",
	[REQ_MEM] = "--iostrata-mem",
	[REQ_DISK_BW] = "--iostrata-disk-bw",
	[REQ_DISK_IOPS] = "--iostrata-disk-iops",
	[REQ_PROFILE] = "--iostrata-profile",
	[REQ_MDS_CPUS] = "--iostrata-mds-cpus",
	[REQ_MDS_MEM] = "--iostrata-mds-mem",
	[REQ_MDS_CACHE] = "--iostrata-mds-cache",
};

int policy_parse_mcpus(const char *val, const char *what, unsigned *out,
		       struct ios_err *err)
{
	uint64_t whole = 0, frac = 0;
	const char *p = val;
	int digits = 0, decimals = 0;

	for (; isdigit((unsigned char)*p) && digits < 6; p++, digits++)
		whole = whole * 10 + (uint64_t)(*p - '0');
	if (*p == '.' && digits > 0) {
		for (p++; isdigit((unsigned char)*p) && decimals < 3;
		     p++, decimals++)
			frac = frac * 10 + (uint64_t)(*p - '0');
		if (decimals == 0)
			digits = 0;
	}
	if (digits == 0 || *p)
		return ios_errf(
			err, -EINVAL,
			"iostrata: %s: invalid value \"%.40s\" (accepted: a number of CPUs from 0.001 to 65536, at most 3 decimals, e.g. 2 or 0.5)",
			what, val);
	for (; decimals < 3; decimals++)
		frac *= 10;
	if (whole * 1000 + frac == 0 || whole * 1000 + frac > 65536000)
		return ios_errf(
			err, -ERANGE,
			"iostrata: %s: \"%.40s\" out of range (accepted: 0.001 to 65536 CPUs)",
			what, val);
	*out = (unsigned)(whole * 1000 + frac);
	return 0;
}

bool policy_valid_mds_id(const char *id)
{
	size_t n = strlen(id);

	if (n == 0 || n >= POLICY_NAME_MAX || id[0] == '.')
		return false;
	return safe_chars(id, true);
}

bool policy_valid_mds_cgroup(const char *cg)
{
	char full[BLKIO_CG_MAX + 32];

	return cg[0] == '/' && strlen(cg) < POLICY_MDS_CG_MAX &&
	       snprintf(full, sizeof(full), "/sys/fs/cgroup%s", cg) <
		       (int)sizeof(full) &&
	       blkio_check_cgroup(full, NULL) == 0;
}

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

/* --iostrata-disk-bw=RATE[,READ_RATE] into [req]: the write rate, and the
 * read rate (the write rate when not given), both above 0. */
static int parse_disk_bw(struct iostrata_req *req, const char *what,
			 const char *val, struct ios_err *err)
{
	int rc;
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
	case REQ_DISK_BW:
		return parse_disk_bw(req, what, val, err);
	case REQ_DISK_IOPS:
		rc = ios_parse_uint(val, what, 1, UINT64_C(1) << 40, &v, err);
		if (rc < 0)
			return rc;
		req->iops = v;
		req->has_iops = true;
		snprintf(req->raw_iops, sizeof(req->raw_iops), "%s", val);
		return 0;
	case REQ_MDS_CPUS:
		rc = policy_parse_mcpus(val, what, &req->mds_mcpus, err);
		if (rc < 0)
			return rc;
		req->has_mds_cpus = true;
		snprintf(req->raw_mds_cpus, sizeof(req->raw_mds_cpus), "%s",
			 val);
		return 0;
	case REQ_MDS_MEM:
	case REQ_MDS_CACHE:
		rc = ios_parse_size(val, what, &v, err);
		if (rc < 0)
			return rc;
		if (v == 0)
			return ios_errf(
				err, -EINVAL,
				"iostrata: %s: invalid value \"%s\": must be above 0",
				what, val);
		if (opt == REQ_MDS_MEM) {
			req->mds_mem = v;
			req->has_mds_mem = true;
			snprintf(req->raw_mds_mem, sizeof(req->raw_mds_mem),
				 "%s", val);
		} else {
			req->mds_cache = v;
			req->has_mds_cache = true;
			snprintf(req->raw_mds_cache, sizeof(req->raw_mds_cache),
				 "%s", val);
		}
		return 0;
	case REQ_N_OPTS:
		break;
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
	       req->has_profile || req->has_mds_cpus || req->has_mds_mem ||
	       req->has_mds_cache;
}
/* A value of an MDS option: as given, or (from a profile) formatted. */
static const char *mds_raw(const char *raw, uint64_t v, bool cpus, char *buf,
			   size_t len)
{
	if (raw[0])
		return raw;
	if (cpus)
		snprintf(buf, len, "%u.%03u", (unsigned)(v / 1000),
			 (unsigned)(v % 1000));
	else
		ios_fmt_size(v, buf, len);
	return buf;
}

/* The MDS options against the policy's floors (and the cache within the
 * memory limit): refused naming the option, the value and the floor. */
static int check_mds_req(const struct policy *p, const struct iostrata_req *req,
			 struct ios_err *err)
{
	char a[32], b[32];

	if (req->has_mds_cpus && req->mds_mcpus < p->min_mds_mcpus)
		return ios_errf(
			err, -ERANGE,
			"iostrata: --iostrata-mds-cpus=%s is below the site minimum min_mds_cpus %u.%03u (policy %s)",
			mds_raw(req->raw_mds_cpus, req->mds_mcpus, true, a,
				sizeof(a)),
			p->min_mds_mcpus / 1000, p->min_mds_mcpus % 1000,
			p->path);
	if (req->has_mds_mem && req->mds_mem < p->min_mds_mem)
		return ios_errf(
			err, -ERANGE,
			"iostrata: --iostrata-mds-mem=%s is below the site minimum min_mds_mem %s (policy %s)",
			mds_raw(req->raw_mds_mem, req->mds_mem, false, a,
				sizeof(a)),
			ios_fmt_size(p->min_mds_mem, b, sizeof(b)), p->path);
	if (req->has_mds_cache && req->mds_cache < p->min_mds_cache)
		return ios_errf(
			err, -ERANGE,
			"iostrata: --iostrata-mds-cache=%s is below the site minimum min_mds_cache %s (policy %s)",
			mds_raw(req->raw_mds_cache, req->mds_cache, false, a,
				sizeof(a)),
			ios_fmt_size(p->min_mds_cache, b, sizeof(b)), p->path);
	/* the MDS uses more than its cache: a cache as large as the memory
	 * limit would have it killed */
	if (req->has_mds_mem && req->has_mds_cache &&
	    req->mds_cache >= req->mds_mem)
		return ios_errf(
			err, -ERANGE,
			"iostrata: --iostrata-mds-cache=%s is not below --iostrata-mds-mem=%s (the MDS needs memory beyond its cache)",
			mds_raw(req->raw_mds_cache, req->mds_cache, false, a,
				sizeof(a)),
			mds_raw(req->raw_mds_mem, req->mds_mem, false, b,
				sizeof(b)));
	return 0;
}

int policy_check_req(const struct policy *p, struct iostrata_req *req,
		     unsigned online_cpus, struct ios_err *err)
{
	int rc;

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
		if (!req->has_mds_cpus && pr->req.has_mds_cpus) {
			req->mds_mcpus = pr->req.mds_mcpus;
			req->has_mds_cpus = true;
		}
		if (!req->has_mds_mem && pr->req.has_mds_mem) {
			req->mds_mem = pr->req.mds_mem;
			req->has_mds_mem = true;
		}
		if (!req->has_mds_cache && pr->req.has_mds_cache) {
			req->mds_cache = pr->req.mds_cache;
			req->has_mds_cache = true;
		}
	}
	rc = check_mds_req(p, req, err);
	if (rc < 0)
		return rc;
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
	if ((req->has_bw || req->has_iops) && p->n_osds == 0 &&
	    (p->n_devices == 0 || p->n_cgroups == 0))
		return ios_errf(
			err, -ERANGE,
			"iostrata: --iostrata-disk-bw/--iostrata-disk-iops: the site policy %s names no OSDs, or no device or cgroup, to throttle",
			p->path);
	return 0;
}
