/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slurmapi: the two slurmctld queries the plugin needs (is the job
 * exclusive; drain this node with a reason), resolved at run time from the
 * libslurm that slurmd/slurmstepd already have loaded.  Linking -lslurm
 * into a SPANK plugin is wrong (pyxis, spank(7)).
 */
#include "config.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <slurm/slurm.h>

#include "plugin.h"
#include "slurmcompat.h"

typedef int (*load_job_fn)(job_info_msg_t **, uint32_t, uint16_t);
typedef void (*free_job_fn)(job_info_msg_t *);
typedef void (*init_upd_fn)(update_node_msg_t *);
typedef int (*upd_node_fn)(update_node_msg_t *);

int plugin_job_exclusive(uint32_t jobid)
{
	load_job_fn load = (load_job_fn)dlsym(RTLD_DEFAULT, "slurm_load_job");
	free_job_fn fr =
		(free_job_fn)dlsym(RTLD_DEFAULT, "slurm_free_job_info_msg");
	job_info_msg_t *msg = NULL;
	int rc;

	if (!load || !fr)
		return -ENOSYS;
	if (load(&msg, jobid, SHOW_DETAIL) != 0 || !msg)
		return -EIO;
	if (msg->record_count < 1) {
		fr(msg);
		return -ENOENT;
	}
	/* shared == 0 (JOB_SHARED_NONE): --exclusive or an exclusive
	 * partition; anything else may share the node. */
	rc = msg->job_array[0].shared == 0;
	fr(msg);
	return rc;
}

typedef char *(*strerror_fn)(int);

int plugin_job_running(uint32_t jobid, char *why, size_t len)
{
	load_job_fn load = (load_job_fn)dlsym(RTLD_DEFAULT, "slurm_load_job");
	free_job_fn fr =
		(free_job_fn)dlsym(RTLD_DEFAULT, "slurm_free_job_info_msg");
	strerror_fn serr = (strerror_fn)dlsym(RTLD_DEFAULT, "slurm_strerror");
	job_info_msg_t *msg = NULL;
	uint32_t st;
	int rc;

	if (!load || !fr) {
		snprintf(why, len, "libslurm not loaded in this process");
		return -ENOSYS;
	}
	if (load(&msg, jobid, SHOW_ALL) != 0 || !msg) {
		int e = errno; /* slurmcompat.h: no slurm_get_errno() */

		if (e == ESLURM_INVALID_JOB_ID) {
			/* purged: ended long enough ago */
			snprintf(why, len, "slurmctld does not know it");
			return 0;
		}
		snprintf(why, len, "slurmctld unreachable: %s",
			 serr ? serr(e) : "?");
		return -EIO;
	}
	if (msg->record_count < 1) {
		fr(msg);
		snprintf(why, len, "slurmctld does not know it");
		return 0;
	}
	st = msg->job_array[0].job_state;
	fr(msg);
	/* Running or suspended, not ending: its epilog will come here.
	 * Completing, finished or pending again (requeued): restore. */
	rc = ((st & JOB_STATE_BASE) == JOB_RUNNING ||
	      (st & JOB_STATE_BASE) == JOB_SUSPENDED) &&
	     !(st & JOB_COMPLETING);
	snprintf(why, len, "slurmctld says job state 0x%x%s", (unsigned)st,
		 rc ? " (running)" : " (not running)");
	return rc;
}

int plugin_drain_node(const char *node, const char *reason)
{
	init_upd_fn init =
		(init_upd_fn)dlsym(RTLD_DEFAULT, "slurm_init_update_node_msg");
	upd_node_fn upd = (upd_node_fn)dlsym(RTLD_DEFAULT, "slurm_update_node");
	update_node_msg_t m;
	char n[128], r[512];

	if (!init || !upd)
		return -ENOSYS;
	if (!node || !*node)
		return -EINVAL;
	snprintf(n, sizeof(n), "%s", node);
	snprintf(r, sizeof(r), "%s", reason);
	init(&m);
	m.node_names = n;
	m.node_state = NODE_STATE_DRAIN;
	m.reason = r;
	m.reason_uid = 0;
	return upd(&m) == 0 ? 0 : -EIO;
}

void plugin_node_name(char *buf, size_t len)
{
	const char *e = getenv("SLURMD_NODENAME");
	char cmd[4096];
	ssize_t n;
	int fd;

	/* A name that does not fit is no name: a cut one could enable,
	 * drain or journal for another node. */
	buf[0] = '\0';
	if (e && *e) {
		if (snprintf(buf, len, "%s", e) >= (int)len)
			buf[0] = '\0';
		return;
	}
	/* slurmd -N NAME (several slurmd per host): read our own argv. */
	fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, cmd, sizeof(cmd) - 1);
	close(fd);
	if (n <= 0)
		return;
	cmd[n] = '\0';
	for (char *p = cmd; p < cmd + n; p += strlen(p) + 1) {
		char *next = p + strlen(p) + 1;

		if (strcmp(p, "-N") == 0 && next < cmd + n) {
			if (snprintf(buf, len, "%s", next) >= (int)len)
				buf[0] = '\0';
			return;
		}
		if (strncmp(p, "-N", 2) == 0 && p[2]) {
			if (snprintf(buf, len, "%s", p + 2) >= (int)len)
				buf[0] = '\0';
			return;
		}
	}
	if (gethostname(buf, len) < 0 || !memchr(buf, '\0', len))
		buf[0] = '\0';
	{
		char *dot = strchr(buf, '.');

		if (dot)
			*dot = '\0';
	}
}
