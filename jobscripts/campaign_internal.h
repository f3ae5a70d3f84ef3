/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * campaign_internal: what the parts of iostrata-campaign share (campaign.c:
 * main, getvar and env; campaign_plan.c, campaign_dir.c, campaign_submit.c,
 * campaign_state.c).  Not a library interface.
 */
#ifndef IOSTRATA_CAMPAIGN_INTERNAL_H
#define IOSTRATA_CAMPAIGN_INTERNAL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "campaign.h"
#include "siteconf.h"

#define PROG "iostrata-campaign"

struct argv {
	char **v;
	size_t n, cap;
};

struct campaign {
	struct ios_site *site;
	const char *site_arg;
	char site_abs[PATH_MAX];
	const char *job;
	char dir[PATH_MAX];
	struct camp_element *el;
	size_t nel;
};

struct opts {
	const char *campaign;
	unsigned throttle;
	bool throttle_set;
	bool resume;
	bool dry_run;
	bool list;
	const char *dflt;
	double wait;
	bool estimate;
	char **extra;
};

/* Heterogeneous (storage + compute components) or compute-only jobs. */
bool camp_job_is_het(const char *job);

int camp_argv_add(struct argv *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int camp_argv_split(struct argv *a, const char *s);
void camp_argv_free(struct argv *a);
void camp_print_quoted(FILE *fp, char *const *v);

int camp_mkdir_p(const char *path);
int camp_write_atomic(const char *dir, const char *name, const char *text);
int camp_open(struct campaign *c, const char *site_arg, const char *job,
	      const char *dir);
/* The campaign directory [dir] is the caller's to act on: absent (submit
 * makes it), or a directory (not a symlink) owned by the effective user
 * that others cannot write (group write is allowed: a team's campaigns).
 * Returns 0, or -ENOTDIR / -EPERM / a negative errno, the reason printed
 * on stderr. */
int camp_dir_check(const char *dir);
void camp_close(struct campaign *c);
int camp_read_jobids(struct campaign *c);
int camp_write_jobids(const struct campaign *c);
int camp_load_recorded(struct campaign *c);
/* `plan --estimate` and `status`: the campaign's expected wall time
 * (campaign_estimate.h); with [done], against the elements done.  0, or
 * -1 said on stderr (a job not estimated, a site value missing). */
int camp_print_estimate(const struct campaign *c, bool done);

/* Run argv, its stdout into [out] (NULL: not kept; [first_line]: only
 * its first line).  Returns the exit status, or a negative errno
 * (campaign_dir.c). */
int camp_run_capture(char *const *argv, char *out, size_t len, bool first_line);

/* campaign_repl.c: the pools and directories of [sweep] replication.
 * prepare: before submitting, make or check every factor's pool and
 * directory (DIR/replication.tsv records what it made; a failure undoes
 * what this call made): 0, or -1 said on stderr.  dir: the directory of
 * element [e]'s factor into [out]: 0 or -1 said. */
int camp_repl_prepare(struct campaign *c);
int camp_repl_dir(const struct campaign *c, const struct camp_element *e,
		  char *out, size_t len);

/* The Ceph side (campaign_repl.c): `ceph ARGS...` through camp_ceph_fn (a
 * seam the unit tests fake), its stdout into [out] (may be NULL): the exit
 * status (ceph exits with the errno of a failed command), or a negative
 * errno.  camp_ceph_do: the same said on failure, 0 or -1.  fs_of: the
 * CephFS ([fs]) and whether [pool] is one of its data pools, 0 or -1 said. */
extern int (*camp_ceph_fn)(char *out, size_t len, const char *const *args);
int camp_ceph(char *out, size_t len, const char *const *args);
int camp_ceph_do(const char *what, const char *const *args);
int camp_repl_fs_of(const char *pool, char *fs, size_t len, bool *has);

/* The marks of what a campaign made: a pool's application metadata
 * (CAMP_POOL_APP: CAMP_POOL_KEY = id), a directory's xattr. */
#define CAMP_POOL_APP "iostrata"
#define CAMP_POOL_KEY "campaign"
#define CAMP_DIR_MARK "user.iostrata.campaign"
#define CAMP_ID_LEN 32

/* campaign_dir.c (clean, submit and the replication factors use them).
 * The campaign's id (CAMP_ID_LEN hex digits) from
 * DIR/campaign.id into [id], made first when [create] and absent; the file
 * is trusted only as the caller's own (one link, writable by nobody else)
 * naming this directory.  0, or -1 said. */
int camp_id(const struct campaign *c, bool create, char *id, size_t len);
/* Remove the directory [name] in [parent] with everything below it, by
 * descriptors, never through a link: only a directory of the caller's,
 * and with [id] only one whose CAMP_DIR_MARK is [id].  0 removed, 1 absent,
 * -2 refused ([why]), -1 failed ([why]). */
int camp_rm_tree_at(int parent, const char *name, const char *id, char *why,
		    size_t wlen);

/* The sbatch --export list of element [e] (ALL,IOSTRATA_...=VALUE,...)
 * into [a] as one argument, every value checked for what sbatch's parsing
 * of the list cannot carry; [sdir] is the job scripts' directory.  0, or
 * -EINVAL said (naming the variable, the setting and the value), or
 * -ENOMEM. */
int camp_export_list(const struct campaign *c, const struct camp_element *e,
		     const char *sdir, struct argv *a);

int camp_cmd_submit(struct campaign *c, const struct opts *o);
/* `clean`: remove the pools and directories the campaign made (exit 0,
 * 1 something left or an element still queued, 2 bad record). */
int camp_cmd_clean(struct campaign *c);
int camp_cmd_status(struct campaign *c, const struct opts *o);
int camp_cmd_collect(struct campaign *c);

#endif
