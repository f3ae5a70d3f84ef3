/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ctx_job: slurm_spank_job_prolog / _job_epilog (S_CTX_JOB_SCRIPT, root,
 * PrologFlags=Alloc).  The prolog validates the (untrusted) option values
 * again, checks the policy, the user and the allocation, and applies; a
 * refused request changes nothing, keeps the node up and is published so
 * the job's tasks fail with the reason.  The epilog restores.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu.h"
#include "log.h"
#include "node.h"
#include "options.h"
#include "plugin.h"

#define OPT_NAME(id, name, arg, what) [id] = name,
static const char *const opt_name[] = {IOSTRATA_SPANK_OPTIONS(OPT_NAME)};

/* Read the options (spank_option_getopt: no callbacks in the prolog). */
static int read_opts(spank_t sp, struct iostrata_req *req, struct ios_err *err)
{
	memset(req, 0, sizeof(*req));
	for (int i = REQ_CPUS; i < REQ_N_OPTS; i++) {
		struct spank_option o = {
			.name = (char *)opt_name[i], .has_arg = 1, .val = i};
		char *val = NULL;

		if (spank_option_getopt(sp, &o, &val) != ESPANK_SUCCESS)
			continue;
		if (req_parse_opt(req, (enum req_opt)i, val, err) < 0)
			return -EINVAL;
	}
	return 0;
}

static void refuse(struct node_ctx *c, const char *jobid,
		   const struct iostrata_req *req, const char *msg)
{
	log_err("iostrata: job %s refused: %s", jobid, msg);
	if (c->sd.dirfd >= 0)
		node_publish_refusal(c, jobid, req, msg);
}

int ctx_job_prolog(spank_t sp, const struct plugin_args *a)
{
	struct iostrata_req req;
	struct policy *pol = NULL;
	struct node_ctx c;
	struct ios_err err;
	char jobid[32], user[64] = "?";
	const char *account = getenv("SLURM_JOB_ACCOUNT");
	uint32_t id = 0;
	uid_t uid = (uid_t)-1;
	int rc, excl, ret = 0;

	memset(&c, 0, sizeof(c));
	c.sd.dirfd = c.sd.jdirfd = -1;
	plugin_node_name(c.node, sizeof(c.node));
	if (!plugin_node_enabled(a, c.node))
		return 0;
	if (spank_get_item(sp, S_JOB_ID, &id) != ESPANK_SUCCESS ||
	    spank_get_item(sp, S_JOB_UID, &uid) != ESPANK_SUCCESS) {
		log_err("iostrata: prolog: cannot read the job id or uid");
		return 0;
	}
	snprintf(jobid, sizeof(jobid), "%" PRIu32, id);
	ios_err_clear(&err);
	rc = read_opts(sp, &req, &err);
	if (rc == 0 && !req_any(&req))
		return 0; /* nothing asked */
	if (sysfs_open(&c.fs, "/") < 0 ||
	    state_open(&c.sd, a->state_dir, true, &err) < 0) {
		/* A broken state directory: nothing can be journaled, so
		 * nothing is changed; the node needs an admin. */
		log_err("iostrata: node %s: job %s: %s", c.node, jobid,
			err.msg);
		sysfs_close(&c.fs);
		return -1;
	}
	if (rc < 0) {
		refuse(&c, jobid, &req, err.msg);
		goto out;
	}
	rc = policy_load(a->policy, 0, &pol, &err);
	if (rc < 0) {
		refuse(&c, jobid, &req, err.msg);
		goto out;
	}
	c.pol = pol;
	{
		struct passwd pw, *res = NULL;
		char pwbuf[4096];

		/* A cut name could match another allowed user: a name that
		 * does not fit stays "?" (matches only "*"). */
		if (getpwuid_r(uid, &pw, pwbuf, sizeof(pwbuf), &res) == 0 &&
		    res && strlen(pw.pw_name) < sizeof(user))
			snprintf(user, sizeof(user), "%s", pw.pw_name);
	}
	if (policy_check_user(pol, uid, user, account, &err) < 0) {
		refuse(&c, jobid, &req, err.msg);
		goto out;
	}
	if (pol->require_exclusive) {
		excl = slurmapi_job_exclusive(id);
		if (excl != 1) {
			char m[256];

			snprintf(
				m, sizeof(m),
				"iostrata: job %s: the --iostrata-* options need an exclusive allocation (sbatch/salloc/srun --exclusive)%s",
				jobid,
				excl < 0 ? " (could not ask slurmctld)" : "");
			refuse(&c, jobid, &req, m);
			goto out;
		}
	}
	{
		struct cpu_info ci;
		unsigned online = 0;

		if (cpu_scan(&c.fs, &ci) == 0) {
			online = cpu_count_online(&ci);
			cpu_info_free(&ci);
		}
		if (policy_check_req(pol, &req, online, &err) < 0) {
			refuse(&c, jobid, &req, err.msg);
			goto out;
		}
	}
	rc = node_apply(&c, jobid, (unsigned)uid, &req, &err);
	if (rc == -EIO) {
		/* Could not even restore: a half-shaped node must drain. */
		log_err("%s", err.msg);
		ret = -1;
	} else if (rc < 0) {
		refuse(&c, jobid, &req, err.msg);
	} else {
		log_info("iostrata: node %s: job %s: shaped as requested",
			 c.node, jobid);
	}
out:
	policy_free(pol);
	state_close(&c.sd);
	sysfs_close(&c.fs);
	return ret;
}

int ctx_job_epilog(spank_t sp, const struct plugin_args *a)
{
	struct node_ctx c;
	struct ios_err err;
	char jobid[32];
	uint32_t id = 0;
	int rc;

	memset(&c, 0, sizeof(c));
	plugin_node_name(c.node, sizeof(c.node));
	if (!plugin_node_enabled(a, c.node))
		return 0;
	if (spank_get_item(sp, S_JOB_ID, &id) != ESPANK_SUCCESS) {
		log_err("iostrata: epilog: cannot read the job id");
		return -1;
	}
	snprintf(jobid, sizeof(jobid), "%" PRIu32, id);
	ios_err_clear(&err);
	rc = sysfs_open(&c.fs, "/");
	if (rc < 0) {
		log_err("iostrata: open /: %s", strerror(-rc));
		return -1;
	}
	rc = state_open(&c.sd, a->state_dir, true, &err);
	if (rc < 0) {
		log_err("%s", err.msg);
		sysfs_close(&c.fs);
		return -1;
	}
	/* Idempotent: no journal for this job (no prolog ran, refused,
	 * already restored) is success.  Removes the job's published
	 * files too. */
	rc = node_restore(&c, jobid, &err);
	state_close(&c.sd);
	sysfs_close(&c.fs);
	if (rc < 0) {
		log_err("%s", err.msg);
		/* Drain with a reason naming what is left; the non-zero
		 * return drains it anyway ("Epilog error"). */
		slurmapi_drain_node(c.node, err.msg);
		return -1;
	}
	return 0;
}
