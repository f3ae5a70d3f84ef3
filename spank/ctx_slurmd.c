/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ctx_slurmd: slurmd start (slurm_spank_init in S_CTX_SLURMD; there is no
 * slurmd_init hook).  A journal still present here means slurmd or the
 * node died between prolog and epilog.  slurmd may also just have been
 * restarted under a running job: its slurmstepd processes survive, and
 * its epilog will come.  So only the journals of jobs that ended are
 * restored here; the others are kept for their epilog.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "jobproc.h"
#include "log.h"
#include "node.h"
#include "plugin.h"

static int job_alive(const char *jobid, void *arg, char *why, size_t len)
{
	return jobproc_alive(arg, jobid, slurmapi_job_runs, why, len);
}

int ctx_slurmd_init(spank_t sp, const struct plugin_args *a)
{
	struct node_ctx c;
	struct ios_err err;
	int rc;

	(void)sp;
	memset(&c, 0, sizeof(c));
	plugin_node_name(c.node, sizeof(c.node));
	if (!plugin_node_enabled(a, c.node))
		return 0;
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
	rc = node_restore_ended(&c, job_alive, &c.fs, &err);
	state_close(&c.sd);
	sysfs_close(&c.fs);
	if (rc < 0) {
		log_err("%s", err.msg);
		/* Keep slurmd up so the node reports; drain it so it takes
		 * no job while half-configured.  If even that fails, fail
		 * slurmd's start. */
		if (slurmapi_drain_node(c.node, err.msg) < 0)
			return -1;
	}
	return 0;
}
