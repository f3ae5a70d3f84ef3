/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slurmapi: the slurmctld queries of the plugin and iostrata-node (see
 * slurmapi.h).  Built twice: into the plugin, resolving libslurm with
 * dlsym from the slurmd/slurmstepd that loaded it (linking -lslurm into a
 * SPANK plugin is wrong: pyxis, spank(7)), and into iostrata-node with
 * SLURMAPI_LINKED, calling the libslurm it links.
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include "slurmapi.h"
#include "slurmcompat.h"

#ifdef SLURMAPI_LINKED
#define SLURM_FN(type, fn) type fn##_p = fn
#else
#define SLURM_FN(type, fn) type fn##_p = (type)dlsym(RTLD_DEFAULT, #fn)
#endif

typedef int (*load_job_fn)(job_info_msg_t **, uint32_t, uint16_t);
typedef void (*free_job_fn)(job_info_msg_t *);
typedef int (*load_node_fn)(node_info_msg_t **, char *, uint16_t);
typedef void (*free_node_fn)(node_info_msg_t *);
typedef void (*init_upd_fn)(update_node_msg_t *);
typedef int (*upd_node_fn)(update_node_msg_t *);
typedef char *(*strerror_fn)(int);

void slurmapi_init(void)
{
#if defined(SLURMAPI_LINKED) &&                                                \
	SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(22, 5, 0)
	static int done;

	if (!done) {
		slurm_init(NULL);
		done = 1;
	}
#endif
}

/*
 * Before the first RPC: what the process needs loaded to talk to slurmctld.
 * iostrata-node: slurm.conf and the client plugins (slurm_init).  The
 * plugin: the auth and hash plugins where this Slurm has them by those
 * names (slurmcompat.h): slurmd and the step's slurmstepd loaded them, the
 * spank-prolog slurmstepd of Slurm 24.11 did not.  0, or -ENOSYS with [why].
 */
#ifndef SLURMAPI_LINKED
static int plugin_init(const char *sym, char *why, size_t len)
{
	typedef int (*init_fn)(void);
	init_fn init = (init_fn)dlsym(RTLD_DEFAULT, sym);

	if (init && init() != 0) {
		snprintf(why, len, "cannot load Slurm's plugins (%s failed)",
			 sym);
		return -ENOSYS;
	}
	return 0;
}
#endif

static int rpc_ready(char *why, size_t len)
{
#ifdef SLURMAPI_LINKED
	(void)why;
	(void)len;
	slurmapi_init();
	return 0;
#else
	if (plugin_init(IOS_SLURM_AUTH_INIT_SYM, why, len) < 0 ||
	    plugin_init(IOS_SLURM_HASH_INIT_SYM, why, len) < 0)
		return -ENOSYS;
	return 0;
#endif
}

/* Slurm's words for its last error, into [why]. */
static void slurm_why(char *why, size_t len, const char *what)
{
	/* libslurm leaves its error in errno (slurmcompat.h); never dlsym
	 * slurm_get_errno: Slurm 24.11's libslurmfull does not export it */
	int e = errno;
	SLURM_FN(strerror_fn, slurm_strerror);

	snprintf(why, len, "%s: %s", what,
		 slurm_strerror_p ? slurm_strerror_p(e) : "?");
}

int slurmapi_job_exclusive(uint32_t jobid)
{
	SLURM_FN(load_job_fn, slurm_load_job);
	SLURM_FN(free_job_fn, slurm_free_job_info_msg);
	job_info_msg_t *msg = NULL;
	int rc;

	char why[128];

	if (!slurm_load_job_p || !slurm_free_job_info_msg_p ||
	    rpc_ready(why, sizeof(why)) < 0)
		return -ENOSYS;
	if (slurm_load_job_p(&msg, jobid, SHOW_DETAIL) != 0 || !msg)
		return -EIO;
	if (msg->record_count < 1) {
		slurm_free_job_info_msg_p(msg);
		return -ENOENT;
	}
	/* shared == 0 (JOB_SHARED_NONE): --exclusive or an exclusive
	 * partition; anything else may share the node. */
	rc = msg->job_array[0].shared == 0;
	slurm_free_job_info_msg_p(msg);
	return rc;
}

int slurmapi_job_running(uint32_t jobid, bool completing_runs, char *why,
			 size_t len)
{
	SLURM_FN(load_job_fn, slurm_load_job);
	SLURM_FN(free_job_fn, slurm_free_job_info_msg);
	job_info_msg_t *msg = NULL;
	uint32_t st;
	int rc;

	if (!slurm_load_job_p || !slurm_free_job_info_msg_p) {
		snprintf(why, len, "libslurm not loaded in this process");
		return -ENOSYS;
	}
	if (rpc_ready(why, len) < 0)
		return -ENOSYS;
	if (slurm_load_job_p(&msg, jobid, SHOW_ALL) != 0 || !msg) {
		if (errno == ESLURM_INVALID_JOB_ID) {
			/* purged: ended long enough ago */
			snprintf(why, len, "slurmctld does not know it");
			return 0;
		}
		slurm_why(why, len, "slurmctld unreachable");
		return -EIO;
	}
	if (msg->record_count < 1) {
		slurm_free_job_info_msg_p(msg);
		snprintf(why, len, "slurmctld does not know it");
		return 0;
	}
	st = msg->job_array[0].job_state;
	slurm_free_job_info_msg_p(msg);
	/* Running or suspended, not ending: its epilog will come here.
	 * Completing: its epilog is coming or running (the health check
	 * leaves it alone; slurmd start restores).  Finished or pending
	 * again (requeued): ended. */
	rc = ((st & JOB_STATE_BASE) == JOB_RUNNING ||
	      (st & JOB_STATE_BASE) == JOB_SUSPENDED) &&
	     !(st & JOB_COMPLETING);
	if (completing_runs && (st & JOB_COMPLETING))
		rc = 1;
	snprintf(why, len, "slurmctld says job state 0x%x%s", (unsigned)st,
		 rc ? " (running)" : " (not running)");
	return rc;
}

int slurmapi_job_runs(uint32_t jobid, char *why, size_t len)
{
	return slurmapi_job_running(jobid, false, why, len);
}

int slurmapi_job_active(uint32_t jobid, char *why, size_t len)
{
	return slurmapi_job_running(jobid, true, why, len);
}

/* libslurm takes a char *: a copy of [node] that fits, else -EINVAL. */
static int copy_node_name(char *n, size_t len, const char *node, char *why,
			  size_t wlen)
{
	if (!node || !*node || snprintf(n, len, "%s", node) >= (int)len) {
		snprintf(why, wlen, "no usable node name \"%.64s\"",
			 node ? node : "");
		return -EINVAL;
	}
	return 0;
}

static int update_node(const char *node, uint32_t state, const char *reason,
		       char *why, size_t wlen)
{
	SLURM_FN(init_upd_fn, slurm_init_update_node_msg);
	SLURM_FN(upd_node_fn, slurm_update_node);
	update_node_msg_t m;
	char n[128], r[512];

	if (!slurm_init_update_node_msg_p || !slurm_update_node_p) {
		snprintf(why, wlen, "libslurm not loaded in this process");
		return -ENOSYS;
	}
	if (copy_node_name(n, sizeof(n), node, why, wlen) < 0)
		return -EINVAL;
	if (rpc_ready(why, wlen) < 0)
		return -ENOSYS;
	slurm_init_update_node_msg_p(&m);
	m.node_names = n;
	m.node_state = state;
	if (reason) {
		/* Slurm keeps reasons short; a cut reason is still one. */
		snprintf(r, sizeof(r), "%s", reason);
		m.reason = r;
		m.reason_uid = (uint32_t)getuid();
	}
	if (slurm_update_node_p(&m) != 0) {
		slurm_why(why, wlen, "slurmctld refused the node update");
		return -EIO;
	}
	return 0;
}

int slurmapi_drain_node(const char *node, const char *reason)
{
	char why[256];

	return update_node(node, NODE_STATE_DRAIN, reason, why, sizeof(why));
}

int slurmapi_resume_node(const char *node, char *why, size_t len)
{
	return update_node(node, NODE_RESUME, NULL, why, len);
}

int slurmapi_node_state(const char *node, bool *drain, bool *down, char *reason,
			size_t len, char *why, size_t wlen)
{
	SLURM_FN(load_node_fn, slurm_load_node_single);
	SLURM_FN(free_node_fn, slurm_free_node_info_msg);
	node_info_msg_t *msg = NULL;
	char n[128];
	uint32_t st;

	if (!slurm_load_node_single_p || !slurm_free_node_info_msg_p) {
		snprintf(why, wlen, "libslurm not loaded in this process");
		return -ENOSYS;
	}
	if (copy_node_name(n, sizeof(n), node, why, wlen) < 0)
		return -EINVAL;
	if (rpc_ready(why, wlen) < 0)
		return -ENOSYS;
	if (slurm_load_node_single_p(&msg, n, SHOW_ALL) != 0 || !msg) {
		slurm_why(why, wlen, "cannot ask slurmctld");
		return -EIO;
	}
	if (msg->record_count < 1 || !msg->node_array[0].name) {
		slurm_free_node_info_msg_p(msg);
		snprintf(why, wlen, "slurmctld does not know node \"%s\"", n);
		return -ENOENT;
	}
	st = msg->node_array[0].node_state;
	*drain = (st & NODE_STATE_DRAIN) != 0;
	*down = (st & NODE_STATE_BASE) == NODE_STATE_DOWN;
	snprintf(reason, len, "%s",
		 msg->node_array[0].reason ? msg->node_array[0].reason : "");
	slurm_free_node_info_msg_p(msg);
	return 0;
}

#ifndef SLURMAPI_LINKED
#include "plugin.h"

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
#endif
