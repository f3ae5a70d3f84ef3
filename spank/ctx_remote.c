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
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
