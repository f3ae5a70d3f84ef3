/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * policy: the site policy file (who may reconfigure, bounds, what to
 * throttle, profiles, tolerance) and the user's request (the SPANK option
 * values), with every check the plugin makes before touching the node
 * (policy.c: the file; policy_req.c: the request).
 */
#ifndef IOSTRATA_POLICY_H
#define IOSTRATA_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "errbuf.h"

#define POLICY_NAME_MAX 64
/* min_mem when the policy does not set it (bytes). */
#define POLICY_DEFAULT_MIN_MEM (UINT64_C(2) << 30)
/* mem_reserve when the policy does not set it: kept online above what
 * the running processes use (node_mem_floor). */
#define POLICY_DEFAULT_MEM_RESERVE (UINT64_C(1) << 30)
#define POLICY_MAX_LIST 32
/* osd_memory_target_min when the policy does not set it: Ceph's own
 * minimum of osd_memory_target (896 MiB). */
#define POLICY_DEFAULT_OMT_MIN (UINT64_C(896) << 20)

/* How to run the ceph CLI (cephcli.h): the policy's ceph, ceph_conf and
 * ceph_timeout, journalled with the OSD memory targets so that the
 * restore runs the same command without the policy. */
/* ceph_timeout when the policy does not set it. */
#define POLICY_DEFAULT_CEPH_TIMEOUT_MS 30000
#define CEPH_PATH_MAX 480 /* "ceph PATH CONF MS" fits a journal line */
struct ceph_cli {
	char path[CEPH_PATH_MAX]; /* absolute; "" = "ceph" in PATH */
	char conf[CEPH_PATH_MAX]; /* absolute; "" = Ceph's default */
	int timeout_ms;           /* killed after this (default 30s) */
};

/* Is [s] a file name the policy accepts for ceph / ceph_conf (and the
 * journal for its ceph line): absolute, letters, digits and /._-@+:, no
 * . or .. component, shorter than CEPH_PATH_MAX? */
bool policy_valid_file(const char *s);

/* What the user asked for (values already parsed and validated). */
struct iostrata_req {
	bool has_cpus, has_mem, has_bw, has_iops, has_profile;
	unsigned cpus;
	uint64_t mem;        /* bytes to leave online */
	uint64_t wbps, rbps; /* bytes/s */
	uint64_t iops;       /* read and write IOPS */
	char profile[POLICY_NAME_MAX];
	/* the metadata server (policy "mds =", node_mds.c): its cgroup's
	 * CPU quota and memory limit, its mds_cache_memory_limit */
	bool has_mds_cpus, has_mds_mem, has_mds_cache;
	unsigned mds_mcpus;          /* CPUs x 1000 (0.5 = 500) */
	uint64_t mds_mem, mds_cache; /* bytes */
	/* the raw option strings, as given (published as IOSTRATA_REQ_*) */
	char raw_cpus[32], raw_mem[32], raw_bw[64], raw_iops[32];
	char raw_mds_cpus[32], raw_mds_mem[32], raw_mds_cache[32];
};

/* The MDS's CPUs in thousandths: "N" or "N.D" up to 3 decimals, from
 * 0.001 to 65536.  0 or -EINVAL / -ERANGE with [err] naming [what]. */
int policy_parse_mcpus(const char *val, const char *what, unsigned *out,
		       struct ios_err *err);

/* The longest "mds_cgroup =" path, with its NUL (blkio.h BLKIO_CG_MAX
 * less "/sys/fs/cgroup/unified"). */
#define POLICY_MDS_CG_MAX 224

struct policy_profile {
	char name[POLICY_NAME_MAX];
	struct iostrata_req req;
};

struct policy {
	char path[4096];
	char *allow_users[POLICY_MAX_LIST];
	size_t n_users;
	char *allow_accounts[POLICY_MAX_LIST];
	size_t n_accounts;
	bool require_exclusive;
	/* throttle_job = yes (default): a throttle of the OSDs applies to
	 * the job's own tasks on the host too (cgroup v1: its own blkio
	 * cgroup), so a device test in the job sees the emulated disk */
	bool throttle_job;
	unsigned min_cpus;
	uint64_t min_mem;     /* default POLICY_DEFAULT_MIN_MEM */
	uint64_t mem_reserve; /* default POLICY_DEFAULT_MEM_RESERVE */
	uint64_t min_disk_bw, min_disk_iops;
	char *devices[POLICY_MAX_LIST];
	size_t n_devices;
	char *cgroups[POLICY_MAX_LIST];
	size_t n_cgroups;
	/* OSDs of this host by name (osd.h): "auto" alone, or unit names /
	 * "osd.N", fnmatch wildcards allowed */
	char *osds[POLICY_MAX_LIST];
	size_t n_osds;
	/* the site's own OSD slices ("/ceph.slice"), for the allow-list */
	char *osd_slices[POLICY_MAX_LIST];
	size_t n_osd_slices;
	/* OSD data directories with $id $name $cluster $fsid, tried before
	 * the standard ones */
	char *osd_data[POLICY_MAX_LIST];
	size_t n_osd_data;
	unsigned cpu_tolerance;   /* extra CPUs online allowed */
	uint64_t mem_tolerance;   /* extra bytes online allowed */
	double mem_tolerance_pct; /* or percent of the target (0: unused) */
	int mem_attempt_ms, mem_total_ms;
	/* osd_memory_target = share: --iostrata-mem also sets each OSD's
	 * osd_memory_target to the memory left / the host's OSDs (at least
	 * omt_min); off (default): only recorded */
	bool omt_share;
	uint64_t omt_min; /* default POLICY_DEFAULT_OMT_MIN */
	/* the ceph CLI for osd_memory_target (ceph, ceph_conf,
	 * ceph_timeout) */
	struct ceph_cli ceph;
	/* the metadata server this node shapes (node_mds.c): "mds = ID"
	 * (mds.ID in Ceph; "" for none) and "mds_cgroup =" its cgroup in
	 * the hierarchy ("/system.slice/ceph-mds@a.service"), and the
	 * floors of --iostrata-mds-* (min_mds_cpus in thousandths) */
	char mds_id[POLICY_NAME_MAX];
	char mds_cgroup[POLICY_MDS_CG_MAX];
	unsigned min_mds_mcpus;
	uint64_t min_mds_mem, min_mds_cache;
	struct policy_profile profiles[POLICY_MAX_LIST];
	size_t n_profiles;
};

/* The user-facing option names, without "--iostrata-". */
enum req_opt {
	REQ_CPUS,
	REQ_MEM,
	REQ_DISK_BW,
	REQ_DISK_IOPS,
	REQ_PROFILE,
	REQ_MDS_CPUS,
	REQ_MDS_MEM,
	REQ_MDS_CACHE,
	REQ_N_OPTS
};

/* Floors of the MDS options when the policy does not set them. */
#define POLICY_DEFAULT_MIN_MDS_MCPUS 100                  /* 0.1 CPU */
#define POLICY_DEFAULT_MIN_MDS_MEM (UINT64_C(512) << 20)  /* 512 MiB */
#define POLICY_DEFAULT_MIN_MDS_CACHE (UINT64_C(16) << 20) /* 16 MiB */

/* Is [id] an MDS id the policy and the journal accept (mds.ID):
 * letters, digits, ._- , 1 to 63 characters, not starting with a dot? */
bool policy_valid_mds_id(const char *id);

/* Is [cg] an "mds_cgroup =" path: absolute in the cgroup hierarchy,
 * shorter than POLICY_MDS_CG_MAX, its names as blkio_check_cgroup
 * accepts? */
bool policy_valid_mds_cgroup(const char *cg);

/*
 * Parse one option value into [req] (tolerates being called twice with
 * the same value).  Returns 0, -EINVAL (empty, junk, unknown unit, shell
 * or path characters, 0) or -ERANGE (overflow); [err] names the option,
 * quotes the value and says what is accepted.
 */
int req_parse_opt(struct iostrata_req *req, enum req_opt opt, const char *val,
		  struct ios_err *err);

/* True when [req] asks for anything. */
bool req_any(const struct iostrata_req *req);

/*
 * Load the policy at [path].  Refuses (-EPERM) a file not owned by
 * [owner] (0 in production), writable by group/others or not a regular
 * file (a FIFO never blocks), a symlink (-ELOOP), a path that does not
 * fit struct policy (-ENAMETOOLONG); -ENOENT when missing; -EINVAL,
 * -ERANGE, -ENAMETOOLONG or -E2BIG with "iostrata: FILE:LINE: " for bad
 * content (NUL bytes, lines of 1024+ characters, unknown or repeated
 * keys, bad values, cgroups blkio_check_cgroup refuses).
 */
int policy_load(const char *path, uid_t owner, struct policy **out,
		struct ios_err *err);
void policy_free(struct policy *p);

/*
 * Expand the profile of [req] (explicit options win) and check it against
 * the policy bounds and [online_cpus] (0: unknown, at submit time).
 * Returns 0, -ENOENT (unknown profile) or -ERANGE (below a bound or more
 * CPUs than online), with the reason in [err].
 */
int policy_check_req(const struct policy *p, struct iostrata_req *req,
		     unsigned online_cpus, struct ios_err *err);

/*
 * May [user] (uid [uid]) with [account] (may be NULL) reconfigure?
 * Returns 0 or -EPERM with the reason in [err].
 */
int policy_check_user(const struct policy *p, uid_t uid, const char *user,
		      const char *account, struct ios_err *err);

/* Bytes of memory above the target the policy tolerates. */
uint64_t policy_mem_slack(const struct policy *p, uint64_t target);

#endif
