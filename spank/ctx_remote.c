/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ctx_remote: slurmstepd (S_CTX_REMOTE).  On nodes where the prolog acted,
 * puts the request (IOSTRATA_REQ_*) and what was applied
 * (IOSTRATA_APPLIED_*) in each task's environment, read as root (task_init
 * _privileged) from the root-owned <jobid>.env file the prolog wrote.  The
 * option callbacks are not relied on here: they do not run for every step
 * type.  A refused request ends the task with the reason on its stderr.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blkio.h"
#include "log.h"
#include "plugin.h"
#include "state.h"

static bool env_key_ok(const char *k)
{
	if (strncmp(k, "IOSTRATA_", 9) != 0)
		return false;
	for (; *k; k++)
		if (!((*k >= 'A' && *k <= 'Z') || *k == '_'))
			return false;
	return true;
}

/* This task into the job's own blkio cgroup (the prolog made it, with
 * the OSDs' throttle): only that exact path.  A task that cannot join
 * does not run: it would measure an unthrottled disk on a node that is
 * meant to emulate a slower one. */
static int join_job_cgroup(const char *jobid, const char *cg)
{
	char want[BLKIO_CG_MAX], procs[BLKIO_CG_MAX + 16], pid[24];
	int fd, e = 0;

	if (blkio_job_cgroup(jobid, want, sizeof(want)) < 0 ||
	    strcmp(want, cg) != 0) {
		log_err("iostrata: job %s: refusing to join cgroup \"%.200s\" (not the job's own %s)",
			jobid, cg, want);
		dprintf(STDERR_FILENO,
			"iostrata: job %s: bad job cgroup \"%.200s\" in the node's state: task not started\n",
			jobid, cg);
		return -1;
	}
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", cg);
	snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	fd = open(procs, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || write(fd, pid, strlen(pid)) < 0)
		e = errno;
	if (fd >= 0)
		close(fd);
	if (e) {
		log_err("iostrata: job %s: join %s: %s", jobid, procs,
			strerror(e));
		dprintf(STDERR_FILENO,
			"iostrata: job %s: join the job's throttled cgroup %s: %s: task not started (the node would not be the one asked for)\n",
			jobid, cg, strerror(e));
		return -1;
	}
	log_verbose("iostrata: job %s: task %ld joined %s", jobid,
		    (long)getpid(), cg);
	return 0;
}

int ctx_remote_task_priv(spank_t sp, const struct plugin_args *a)
{
	char jobid[32], buf[4096], name[64];
	struct state_dir sd;
	struct ios_err err;
	uint32_t id = 0;
	ssize_t n;

	/* No node name here (SLURMD_NODENAME is not in a batch step's
	 * environment yet): the <jobid>.env file in this node's state
	 * directory exists only where the prolog acted. */
	(void)plugin_node_enabled;
	if (spank_get_item(sp, S_JOB_ID, &id) != ESPANK_SUCCESS)
		return 0;
	snprintf(jobid, sizeof(jobid), "%" PRIu32, id);
	if (state_open(&sd, a->state_dir, false, &err) < 0) {
		log_verbose("%s", err.msg);
		return 0;
	}
	snprintf(name, sizeof(name), "%s.env", jobid);
	n = state_read_public(&sd, name, buf, sizeof(buf));
	state_close(&sd);
	if (n < 0) {
		log_verbose("iostrata: job %s: no %s/%s: %s", jobid,
			    a->state_dir, name, strerror((int)-n));
		return 0;
	}
	for (char *save = NULL, *l = strtok_r(buf, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(l, '=');

		if (!eq)
			continue;
		*eq = '\0';
		if (env_key_ok(l))
			spank_setenv(sp, l, eq + 1, 1);
		if (strcmp(l, "IOSTRATA_APPLIED_JOB_CGROUP") == 0 &&
		    join_job_cgroup(jobid, eq + 1) < 0)
			return -1;
	}
	return 0;
}

int ctx_remote_task_init(spank_t sp, const struct plugin_args *a)
{
	char msg[1024];

	(void)a;
	if (spank_getenv(sp, "IOSTRATA_REFUSED", msg, sizeof(msg)) !=
	    ESPANK_SUCCESS)
		return 0;
	/* We are the task (as the user, stdio set up): tell the user on
	 * its stderr and do not run it on an unshaped node. */
	dprintf(STDERR_FILENO, "%s\n", msg);
	log_verbose("%s", msg);
	return -1;
}
